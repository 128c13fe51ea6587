"""One position API for every engine (sim/core/position.py): build a position by name, apply named
actions, read named results, see what it waits for; flags read as booleans. Rule checks of both engines through it."""

from __future__ import annotations

import numpy as np
import pytest

from meeplelab.play.batch import play_batch
from meeplelab.sim.core.errors import IllegalActionError
from meeplelab.sim.core.position import Pending, Position
from meeplelab.sim.galileos_truth import GalileosTruth
from meeplelab.sim.unconscious_mind import UnconsciousMind
from meeplelab.sim.unconscious_mind import cols as um_cols
from meeplelab.strategies.registry import make_strategy
from tests.toygame import ToyGame


def test_the_toy_is_played_and_read_by_name():
    pos = Position.start(ToyGame(), players=2, seed=3)
    assert pos.pending() == Pending("D_TURN", 0, ("draw", "stop"), ("draw", "stop"))
    pos.act("draw")
    drawn = pos.events("draw")[0]["amount"]
    assert pos.get("draws") == 1 and pos.get("pot") == drawn
    pos.act("stop")  # banks the pot (A-TOY-02) and passes the turn
    assert pos.get("vp", seat=0) == drawn and pos.pending().seat == 1
    assert pos.events("bank") == [{"ply": 1, "turn": 0, "seat": 0, "kind": "bank", "amount": drawn}]
    pos.set(seat=1, vp=7)
    assert pos.scores()["vp"] == [drawn, 7] and pos.over() is False and pos.get("over") is False
    with pytest.raises(KeyError, match="action 'fold' is not legal here: legal draw, stop"):
        pos.act("fold")
    with pytest.raises(KeyError, match="toy has no state field 'coins'"):
        pos.get("coins")


def test_galileos_truth_abjure_through_the_position_api():
    """seed 001 §Abjure: the abjuring player loses ``abjure_suspicion_drop`` Suspicion and turns its Principle Coin
    Ptolemaic; every other Copernican gains ``abjure_other_rise``."""
    game = GalileosTruth()
    pos = Position.start(game, players=2, seed=3).set(seat=0, susp=7).set(seat=1, susp=2)
    p = pos.pending()
    assert p.decision == "P_MAIN" and p.seat == 0 and "abjure" in p.options and "pass" in p.options
    assert pos.get("coper", seat=0) is True  # a flag reads as a bool
    pos.act("abjure")
    prm = game.params
    assert pos.get("susp", seat=0) == 7 - prm.abjure_suspicion_drop
    assert pos.get("susp", seat=1) == 2 + prm.abjure_other_rise
    assert pos.get("coper", seat=0) is False and pos.get("coper", seat=1) is True
    assert [(e["kind"], e["seat"], e["amount"]) for e in pos.events()] == [
        ("suspicion", 0, -prm.abjure_suspicion_drop), ("abjure", 0, 1), ("suspicion", 1, prm.abjure_other_rise)]
    assert pos.pending().seat == 1  # Abjure was seat 1's Main Action: seat 2 is to act


def test_unconscious_mind_state_ideas_waits_for_the_mode_choice():
    """research UM §2: State Ideas places an Idea on an empty space pointing at a Meeting Table action; the engine
    then waits for how many Ideas and Bright Ideas to place (D_MODE), and ``pending`` says so."""
    pos = Position.start(UnconsciousMind(), players=2, seed=7)
    first = pos.pending()
    assert first.decision == "D_TURN" and first.options[0] == "place:space0:dir0"
    assert first.words[0].startswith("State Ideas on space ")
    pos.act("place:space0:dir0")
    mode = pos.pending()
    assert mode.decision == "D_MODE" and mode.seat == 0 and all(o.startswith("mode:") for o in mode.options)
    assert all(w.startswith("place ") for w in mode.words)
    assert pos.get("room_open", seat=0) == [True, False]  # a flag field spanning columns reads as booleans


def test_a_position_holds_one_game_and_illegal_ids_are_refused():
    game = ToyGame()
    with pytest.raises(ValueError, match="a Position holds one game, got a batch of 2"):
        Position(game, game.init(__import__("numpy").arange(2), 1, 2))
    pos = Position.start(game, players=1, seed=1)
    pos.set(draws=game.params.max_draws)  # A-TOY-03: no draw beyond max_draws
    assert pos.legal() == ["stop"]
    with pytest.raises(IllegalActionError):
        pos.act(0)
    with pytest.raises(KeyError, match="toy has no position builder 'hand': allowed none"):
        pos.give("hand")


def test_each_engine_builds_its_own_content_by_name():
    gt = GalileosTruth()
    pos = Position.start(gt, players=2, seed=3)
    names = gt.content.card_ids
    pos.give("cards", 0, hand=[names[0], names[1]], deck=[names[2]])
    assert pos.get("nslots", seat=0) == 3 and pos.get("deck_n", seat=0) == 1
    assert [f"card:{gt.content.card_ids.index(n)}" in pos.legal() for n in names[:2]] == [True, True]
    with pytest.raises(KeyError, match="no card 'nope'"):
        pos.give("cards", 0, hand=["nope"])
    um = UnconsciousMind()
    pos = Position.start(um, players=2, seed=7)
    tile, cards = um.content.treatise_ids[2], um.content.card_ids[:3]
    pos.give("treatise", 1, tile, cards)
    t = um.content.treatise_ids.index(tile)
    assert int(pos.state.tr_owner[0, t]) == 1 and int(pos.state.tr_n[0, t]) == 3
    with pytest.raises(KeyError, match="unconscious-mind has no position builder 'cards': allowed treatise, in_play"):
        pos.give("cards", 0)


def test_flag_fields_negate_logically_and_stay_writable():
    pos = Position.start(ToyGame(), players=2, seed=3)
    s = pos.state
    assert (~s.over).tolist() == [True] and (~s.over).dtype == bool  # a 0/1 int would give -1, always true
    s.over[0] = 1
    assert (~s.over).tolist() == [False] and pos.get("over") is True and (s.over == 1).tolist() == [True]
    assert type(s.over + 1).__name__ == "ndarray" and type(s.vp).__name__ == "ndarray"


def test_flag_fields_are_live_bool_views_masks_and_write_through():
    game = UnconsciousMind()
    s = game.init(np.arange(4), 4, 3)  # four games of three seats
    over = s.over
    assert over.dtype == bool and np.asarray(over).dtype == bool and over.shape == (4,)
    assert s.game[:, um_cols.OVER].tolist() == [0, 0, 0, 0]
    over[1:3] = True  # a slice writes through to the kernels' 0/1 integers
    assert s.game[:, um_cols.OVER].tolist() == [0, 1, 1, 0] and over.tolist() == [False, True, True, False]
    ids = np.arange(4)
    assert ids[s.over].tolist() == [1, 2] and ids[~s.over].tolist() == [0, 3]  # a mask, not integer indices
    over |= np.array([True, False, False, False])  # in place, through the view
    assert s.game[:, um_cols.OVER].tolist() == [1, 1, 1, 0] and int(s.over.sum()) == 3 and not s.over.all()
    s.over[3] = 7  # any non-zero value is stored as 1
    assert s.game[:, um_cols.OVER].tolist() == [1, 1, 1, 1] and s.over.all()
    rooms = s.room_open  # a multi-column flag field [B, P, 2]
    assert rooms.dtype == bool and rooms.shape == (4, 3, 2) and rooms[0].shape == (3, 2)
    rooms[0, 1] = [False, True]
    assert s.room_open[0, 1].tolist() == [False, True] and s.room_open[0, 1, 1] is np.bool_(True)
    s.over = False  # an assignment writes the columns; the view stays the kernels' own
    assert s.game[:, um_cols.OVER].tolist() == [0, 0, 0, 0] and "over" not in vars(s)
    s.over |= np.array([False, True, False, False])
    assert s.game[:, um_cols.OVER].tolist() == [0, 1, 0, 0] and "over" not in vars(s)
    s.over.fill(True)
    s.room_open.T[1] = False  # the transposed view is live too
    assert s.game[:, um_cols.OVER].tolist() == [1, 1, 1, 1] and not s.room_open[:, :, 1].any()
    with pytest.raises(ValueError, match="read-only"):
        s.over.sort()  # a method that would write a copy fails loudly
    pos = Position.start(game, players=3, seed=4)
    pos.state.room_open[0, 2] = [True, False]
    assert pos.get("room_open", seat=2) == [True, False]


def test_bad_names_seats_and_values_are_refused_in_one_line_and_nothing_is_half_written():
    gt = GalileosTruth()
    pos = Position.start(gt, players=2, seed=3)
    with pytest.raises(KeyError, match="galileos-truth has no state field 'suspicion': allowed .*susp"):
        pos.get("suspicion", seat=0)
    with pytest.raises(KeyError, match="seat 5 of a 2-player game: allowed 0 to 1"):
        pos.get("susp", seat=5)
    with pytest.raises(KeyError, match="seat -1 of a 2-player game"):
        pos.get("susp", seat=-1)
    with pytest.raises(KeyError, match="'over' is not a field of a seat: leave seat out"):
        pos.get("over", seat=0)
    with pytest.raises(KeyError, match="'susp' is a field of each seat: name the seat"):
        pos.set(susp=4)
    with pytest.raises(KeyError, match="no state field 'batch_size'"):
        pos.get("batch_size")
    before = pos.get("susp", seat=0)
    for bad, msg in ((2.7, "allowed whole numbers"), ("x", "allowed whole numbers"), (2 ** 70, "allowed whole numbers|out of range")):
        with pytest.raises(ValueError, match=msg):
            pos.set(seat=0, susp=bad)
    with pytest.raises(ValueError, match="coper=5 is a flag: allowed True, False, 0 or 1"):
        pos.set(seat=0, susp=1, coper=5)
    assert pos.get("susp", seat=0) == before  # the refused call wrote none of its fields
    slots = pos.get("nslots", seat=0)
    with pytest.raises(KeyError, match="no card 'nope' in this content: allowed "):
        pos.give("cards", 0, hand=[gt.content.card_ids[0], "nope"])
    with pytest.raises(KeyError, match="card type 999: allowed 0 to"):
        pos.give("cards", 0, hand=[999])
    with pytest.raises(KeyError, match="seat 7 of a 2-player game"):
        pos.give("cards", 7, hand=[0])
    assert pos.get("nslots", seat=0) == slots  # nothing written
    with pytest.raises(KeyError, match="no event kind 'nokind': allowed "):
        pos.events("nokind")
    um = UnconsciousMind()
    pu = Position.start(um, players=2, seed=7)
    with pytest.raises(KeyError, match="seat 7 of a 2-player game"):
        pu.give("treatise", 7, 0, [0])
    with pytest.raises(KeyError, match="8 Volumes: a Treatise holds at most"):
        pu.give("treatise", 1, 0, list(range(8)))
    assert int(pu.state.tr_owner[0, 0]) == -1  # nothing written
    pu.give("in_play", 0, um.content.card_ids[4])  # one id alone
    assert int(pu.state.card_own[0, 4]) == 0


def test_a_finished_game_refuses_every_action_and_one_flag_element_reads_as_a_bool():
    from meeplelab.sim.core.errors import IllegalActionError as Illegal

    game = ToyGame()
    pos = Position.start(game, players=1, seed=2)
    while not pos.over():
        pos.act("stop")
    with pytest.raises(Illegal, match="the game is over"):
        pos.act(0)
    with pytest.raises(Illegal, match="the game is over"):
        pos.act("stop")
    s = pos.state
    assert (~s.over[0]) is np.bool_(False) and bool(s.over[0]) is True


def test_one_entry_of_a_field_is_written_by_name_and_logs_are_cleared_on_request():
    """``put`` writes one entry of a field spanning columns and keeps the others; ``clear_logs`` forgets the events
    logged so far, reading them does not."""
    pos = Position.start(UnconsciousMind(), players=2, seed=7)
    before = pos.get("nb", seat=1)
    pos.put("nb", 4, 11, seat=1)
    assert pos.get("nb", seat=1) == before[:4] + [11] + before[5:]
    with pytest.raises(IndexError, match=r"nb\[9\]: the field has shape \(9,\)"):
        pos.put("nb", 9, 1, seat=1)
    with pytest.raises(KeyError, match="'coffee' is a single number"):
        pos.put("coffee", 0, 3, seat=0)
    coffee = pos.get("coffee", seat=0)
    with pytest.raises(ValueError, match=r"nb=\[1, 2\]: allowed one whole number or 9 of them "
                                         r"\(the field's shape \(9,\)\)"):
        pos.set(seat=0, coffee=coffee + 3, nb=[1, 2])
    assert pos.get("coffee", seat=0) == coffee  # nothing written: not even the field before the bad one
    with pytest.raises(ValueError, match="coffee=1180591620717411303424: out of range"):
        pos.set(seat=0, coffee=2 ** 70)
    with pytest.raises(IndexError, match=r"nb\[1.0\]: allowed an int, a list of ints, a tuple or a slice"):
        pos.put("nb", 1.0, 2, seat=0)
    seat0 = pos.get("nb", seat=0)
    with pytest.raises(ValueError, match="allowed whole numbers"):
        pos.put("nb", 0, 1.5, seat=0)
    assert pos.get("nb", seat=0) == seat0  # nothing written on a refusal
    for _ in range(20):  # play until something is logged
        if pos.events():
            break
        pos.act(pos.legal()[-1])
    logged = pos.events()
    assert logged and pos.events() == logged  # reading does not clear
    assert pos.clear_logs().events() == [] and pos.turns() == []


def test_a_value_the_rules_cannot_reach_is_refused_in_one_line_naming_field_value_and_range():
    """``level`` is an Academic Level 1..4: ``level=0`` would make a ``vp_lvl 1 2 3 4`` card pay its Level IV value
    (index -1). Every field with a declared range (``Field.lo``/``hi`` in the layout) is checked by ``set`` and
    ``put``, named bounds (seats, content sizes, rule parameters) resolved for this game; nothing is written."""
    gt = GalileosTruth()
    pos = Position.start(gt, players=2, seed=3)
    cycles, smax = gt.params.cycles, gt.params.suspicion_max
    refusals = [
        ({"seat": 0, "level": 0}, r"^level=0: out of range: allowed 1 to 4 \(Academic Level\)$"),
        ({"seat": 0, "level": 5}, r"^level=5: out of range: allowed 1 to 4 "),
        ({"cycle": cycles + 1}, rf"^cycle={cycles + 1}: out of range: allowed 1 to {cycles} \(1\.\.cycles: Cycle"),
        ({"to_act": 2}, r"^to_act=2: out of range: allowed 0 to 1 \(0\.\.P-1: seat to act"),
        ({"seat": 1, "susp": smax + 1}, rf"^susp={smax + 1}: out of range: allowed 0 to {smax} "),
        ({"seat": 1, "coins": -1}, r"^coins=-1: out of range: allowed at least 0 \(Coins"),
        ({"seat": 0, "books": [1, 2, -3, 0]}, r"^books=\[1, 2, -3, 0\] holds -3: out of range: allowed at least 0"),
    ]
    before = {n: pos.get(n, seat=0) for n in ("level", "coins", "books")}
    for kw, msg in refusals:
        with pytest.raises(ValueError, match=msg):
            pos.set(**{"seat": 0, "coins": 9, **kw} if "seat" in kw else kw)  # a good field beside: not written
    assert {n: pos.get(n, seat=0) for n in before} == before and pos.get("cycle") == 1
    with pytest.raises(ValueError, match=r"^tseal\[\(0, 0\)\]=5: out of range: allowed -1 to 1 \(-1\.\.P-1: "):
        pos.put("tseal", (0, 0), 5)
    assert pos.get("tseal")[0][0] == -1
    pos.set(seat=0, level=4, coins=0).put("tseal", (0, 0), 1)  # the ends of a range are allowed
    assert pos.get("level", seat=0) == 4 and pos.get("tseal")[0][0] == 1
    assert pos.bounds("level") == (1, 4) and pos.bounds("phil_space") == (-1, gt.sizes(2)["spaces"] - 1)
    assert pos.bounds("vp") == (None, None)  # no declared range: any whole number
    pu = Position.start(UnconsciousMind(), players=3, seed=7)
    with pytest.raises(ValueError, match=r"^space_owner=\[.*\] holds 3: out of range: allowed -1 to 2 "):
        pu.set(space_owner=[3] * len(pu.get("space_owner")))
    with pytest.raises(ValueError, match=r"^rnd=0: out of range: allowed at least 1 \(round\)$"):
        pu.set(rnd=0)


def test_a_range_is_declared_once_in_the_layout_never_only_in_a_doc():
    from meeplelab.sim.core.layout import Field, Group, Layout

    with pytest.raises(ValueError, match="field 'level' writes a range in its doc .*declare it once, with lo and hi"):
        Layout((Group("seat", "P", (Field("level", doc="Academic Level 1..4"),)),))
    with pytest.raises(ValueError, match="field 'level': range 4..1 is empty"):
        Layout((Group("seat", "P", (Field("level", lo=4, hi=1),)),))
    with pytest.raises(ValueError, match="field 'x': bound 'P - 1' must be an int, a name or a name minus a number"):
        Layout((Group("g", None, (Field("x", lo=0, hi="P - 1"),)),))
    lay = Layout((Group("g", None, (Field("x", doc="a seat", lo=-1, hi="P-1"), Field("n", doc="cards", lo=0))),))
    text = lay.constants_source("doc", "m:L path")
    assert "X = 0  # a seat; -1..P-1" in text and "N = 1  # cards; >= 0" in text
    assert lay.find("x")[1].bounds({"P": 3}) == (-1, 2)
    with pytest.raises(KeyError, match="field 'x': its bound 'P-1' names 'P', which this game does not give"):
        lay.find("x")[1].bounds({})


def _range_watch(game, fields: list[str]):
    """An ``on_step`` checking every field of ``fields`` against its declared range in every state, and what it
    fills: the states seen, the values out of range (``{"name = [values] outside lo..hi"}``) and every value each
    field took."""
    seen, bad, reached = {"states": 0}, set(), {}

    def on_step(state):
        pos = Position(game, state.take(np.array([0])))
        seen["states"] += 1
        for name in fields:
            lo, hi = pos.bounds(name)
            v = np.asarray(getattr(state, name))
            out = np.zeros(v.shape, bool)
            if lo is not None:
                out |= v < lo
            if hi is not None:
                out |= v > hi
            if out.any():
                bad.add(f"{name} = {sorted(set(v[out].tolist()))} outside {lo}..{hi}")
            reached.setdefault(name, set()).update(np.unique(v).tolist())

    return on_step, seen, bad, reached


@pytest.mark.slow
@pytest.mark.parametrize("engine, lineups", [
    (GalileosTruth, [("random", "random"), ("random", "random", "random", "random")]),
    (UnconsciousMind, [("random", "random"), ("random", "random", "random", "random")]),
])
def test_every_declared_range_holds_in_every_state_random_play_reaches(engine, lineups):
    """The declared ranges are facts of the rules: random games of 2 and 4 seats never leave them."""
    game = engine()
    fields = [f.name for g in type(game.init(np.arange(1), 0, 2)).LAYOUT.groups for f in g.fields
              if f.lo is not None or f.hi is not None]
    assert len(fields) >= 10
    for lineup in lineups:
        on_step, seen, bad, reached = _range_watch(game, fields)
        play_batch(game, [make_strategy(game.name, s) for s in lineup], np.arange(6), 4, log_turns=False,
                   log_events=False, on_step=on_step)
        assert seen["states"] > 100
        assert bad == set()
        # the play reaches far into the ranges (a check that never meets a value would prove nothing)
        P = len(lineup)
        assert all(reached[n] >= set(range(P)) for n in ("to_act",)), reached["to_act"]
        if game.name == "galileos-truth":
            assert max(reached["level"]) >= 2 and max(reached["susp"]) >= 6 and max(reached["cycle"]) == 5
