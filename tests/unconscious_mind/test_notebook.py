"""Seed 000 §Gaining Notebook tiles, §Replacing Notebook tiles, §Completing rows and columns."""

import re

from meeplelab.sim.core.position import Position
from meeplelab.sim.unconscious_mind.content import MT_ACTIONS

from .positions import GAME, GAMES
from .positions import start as _start
from .positions import top as _top


def _place(action_name: str, skip: int = 0) -> str:
    """The label of State Ideas on the ``skip``-th idea space touching Meeting Table action ``action_name``."""
    want = MT_ACTIONS.index(action_name)
    sa = GAME.A["space_act"]
    for sp in range(sa.shape[0]):
        for d in range(4):
            if sa[sp, d] == want:
                if skip == 0:
                    return f"place:space{sp}:dir{d}"
                skip -= 1
    raise AssertionError(action_name)


def _tile_with(main: str, banner: str) -> int:
    """The Notebook tile with main effect ``main`` and banner ``banner``."""
    c = GAME.content
    for i in range(len(c.tile_ids)):
        if c.effect_text[GAME.A["tile_main"][i]] == main and c.effect_text[GAME.A["tile_banner"][i]] == banner:
            return i
    raise AssertionError((main, banner))


def _take(pos: Position, space: str, coffee: int = 9, mode: str = "1-idea") -> None:
    pos.set(seat=0, coffee=coffee)
    pos.act(_place(space), f"mode:{mode}")


def _kinds_since(pos: Position, n0: int, kinds: tuple) -> list:
    """The kinds of the events logged after the first ``n0``, only those in ``kinds``."""
    return [e["kind"] for e in pos.events()[n0:] if e["kind"] in kinds]


def test_nine_action_spaces_three_tile_two_insight_two_research_two_movement():
    pos = _start()
    assert len(MT_ACTIONS) == 9
    rows = GAME.A["act_row"]
    assert sorted(MT_ACTIONS[i] for i in range(9) if rows[i] == 0) == ["tile_center", "tile_right", "tile_stack"]
    kinds = [n.split("_")[0] for n in MT_ACTIONS]
    assert kinds.count("generate") + kinds.count("elevate") == 2
    assert kinds.count("research") == 2
    assert kinds.count("move") == 2
    # every action space can be pointed at from the first turn
    pos.set(seat=0, coffee=9)
    places = [re.fullmatch(r"place:space(\d+):dir(\d+)", a) for a in pos.legal()]
    reach = {int(GAME.A["space_act"][int(m[1]), int(m[2])]) for m in places if m}
    assert reach == set(range(9))


def test_tile_space_cost_one_takes_stack_top_and_triggers_nothing():
    for gid in GAMES:
        pos = _start(gid)
        _take(pos, "tile_stack", coffee=5)
        assert pos.pending().decision == "D_TILE_SRC"
        expect = pos.get("tstack_ii")[pos.get("ttop")[1]]
        before = [(pos.get("dial_w", seat=p), pos.get("vp", seat=p), pos.get("bright", seat=p)) for p in (0, 1)]
        pos.act("level:II")  # level II stack
        assert pos.get("coffee", seat=0) == 4
        assert _top(pos) == ("D_PLACE", expect, 0, 0)
        assert [(pos.get("dial_w", seat=p), pos.get("vp", seat=p), pos.get("bright", seat=p)) for p in (0, 1)] == before


def test_tile_space_cost_two_takes_center_tile_and_triggers_banner_only():
    t = _tile_with("coffee 1", "vp 1")
    for gid in GAMES:
        pos = _start(gid)
        pos.put("market", (0, 0), t)
        _take(pos, "tile_center", coffee=5)
        pos.act("level:I")
        # paid 2, banner (vp 1) triggered, main (coffee 1) not
        assert pos.get("coffee", seat=0) == 3
        assert pos.get("vp", seat=0) == 1
        assert _top(pos) == ("D_PLACE", t, 0, 0)


def test_tile_space_cost_three_triggers_main_and_banner_in_chosen_order():
    t = _tile_with("coffee 1", "vp 1")
    for gid in GAMES:
        pos = _start(gid)
        pos.put("market", (0, 1), t)
        _take(pos, "tile_right", coffee=5)
        pos.act("level:I")
        assert pos.pending().decision == "D_ORDER"
        n0 = len(pos.events())
        pos.act("main-first" if gid % 2 == 0 else "banner-first")
        kinds = _kinds_since(pos, n0, ("vp", "coffee_gain"))
        assert kinds == (["coffee_gain", "vp"] if gid % 2 == 0 else ["vp", "coffee_gain"])
        assert pos.get("coffee", seat=0) == 5 - 3 + 1 and pos.get("vp", seat=0) == 1


def test_each_action_is_paid_in_full_each_time():
    pos = _start()  # game 0: its center tile gains no Coffee, so Coffee 2 is the second payment
    pos.set(seat=0, bright=0)
    _take(pos, "tile_center", coffee=6, mode="2-ideas")  # two Ideas: the action twice
    assert pos.get("coffee", seat=0) == 4  # first payment
    spent = pos.events("coffee_spend")
    assert [e["amount"] for e in spent] == [2]
    while pos.pending().decision != "D_TURN" and not (pos.get("coffee", seat=0) == 2):
        pos.act(pos.legal()[0])
    assert pos.get("coffee", seat=0) == 2  # second payment of 2


def test_two_ideas_on_a_tile_space_need_coffee_for_both():
    pos = _start()
    pos.set(seat=0, coffee=3)
    pos.act(_place("tile_center"))
    legal = pos.legal()
    assert "mode:1-idea" in legal and "mode:2-ideas" not in legal


def test_tile_gained_by_other_effect_is_free_from_stack_top():
    for gid in GAMES:
        pos = _start(gid)
        pos.give("decision", "D_FREE_TILE")
        c0 = [pos.get("coffee", seat=p) for p in (0, 1)]
        expect = pos.get("tstack_i")[pos.get("ttop")[0]]
        pos.act("level:I")
        assert [pos.get("coffee", seat=p) for p in (0, 1)] == c0
        assert _top(pos) == ("D_PLACE", expect, 0, 0)


def test_tile_placed_banner_down_in_leftmost_empty_space_of_chosen_row():
    for gid in GAMES:
        pos = _start(gid)
        pos.put("nb", 3, 5, seat=0)  # row 2 holds one tile
        pos.give("decision", "D_PLACE", 7)
        pos.act("row:1")
        nb = pos.get("nb", seat=0)
        assert nb[4] == 7 and nb[3] == 5 and nb[5] == -1


def test_icon_space_needs_zero_one_two_cured_clients_for_first_second_third_icon():
    rows = {"row:0", "row:1", "row:2"}
    for gid in GAMES:
        pos = _start(gid)
        for r in range(3):
            pos.put("nb", [r * 3, r * 3 + 1], [1, 2], seat=0)
        pos.give("decision", "D_PLACE", 7)
        assert rows <= set(pos.legal())  # first icon: 0 clients needed
        pos.set(seat=0, icons=1)
        assert not rows & set(pos.legal())  # second icon needs 1 cured client
        pos.set(seat=0, cured=1)
        assert rows <= set(pos.legal())
        pos.set(seat=0, icons=2)
        assert not rows & set(pos.legal())  # third icon needs 2
        pos.set(seat=0, cured=2)
        assert rows <= set(pos.legal())


def test_refill_empty_center_takes_top_of_its_rows_stack():
    pos = _start()
    nxt = pos.get("tstack_ii")[pos.get("ttop")[1]]
    _take(pos, "tile_center")
    pos.act("level:II")
    assert pos.get("market")[1][0] == nxt


def test_refill_empty_right_takes_center_slid_across_then_center_refills():
    pos = _start()
    center = pos.get("market")[0][0]
    nxt = pos.get("tstack_i")[pos.get("ttop")[0]]
    _take(pos, "tile_right")
    pos.act("level:I")
    assert pos.get("market")[0][1] == center and pos.get("market")[0][0] == nxt


def test_exhausted_stack_is_not_refilled_but_tiles_still_slide():
    pos = _start()
    pos.put("ttop", 0, GAME.A["tiles_per_level"][0])
    center = pos.get("market")[0][0]
    _take(pos, "tile_right")
    pos.act("level:I")
    assert pos.get("market")[0][1] == center and pos.get("market")[0][0] == -1


def test_empty_market_space_scores_printed_vp_only():
    for gid in GAMES:
        pos = _start(gid)
        pos.put("market", (0, 0), -1)
        pos.put("ttop", 0, GAME.A["tiles_per_level"][0])
        _take(pos, "tile_center", coffee=5)
        n0 = len(pos.events())
        pos.act("level:I")
        assert pos.get("vp", seat=0) == GAME.params.empty_space_vp[1]
        assert pos.scores()["empty_space"][0] == GAME.params.empty_space_vp[1]
        assert not [e for e in pos.events()[n0:] if e["kind"] == "tile"]  # no tile taken, nothing placed
        assert pos.pending().decision != "D_PLACE"


def test_replacement_only_when_the_tile_cannot_be_placed():
    pos = _start()
    pos.set(seat=0, nb=[3] * 8 + [-1])
    pos.set(seat=0, icons=2)  # third icon needs 2 cured clients: row 3 blocked
    pos.give("decision", "D_PLACE", 7)
    legal = set(pos.legal())
    assert not {f"row:{r}" for r in range(3)} & legal and {f"replace:space{s}" for s in range(8)} <= legal
    assert "replace:space8" not in legal and "done" in legal
    pos.set(seat=0, cured=2)
    legal = set(pos.legal())
    assert "row:2" in legal and not {f"replace:space{s}" for s in range(9)} & legal and "done" not in legal


def test_replacing_discards_the_old_tile():
    for gid in GAMES:
        pos = _start(gid)
        pos.set(seat=0, nb=[3] * 9)
        pos.give("decision", "D_PLACE", 7)
        d0 = pos.get("tdisc")
        pos.act("replace:space4")
        assert pos.get("nb", seat=0)[4] == 7 and pos.get("tdisc") == d0 + 1


def test_otherwise_the_new_tile_is_discarded():
    for gid in GAMES:
        pos = _start(gid)
        pos.set(seat=0, nb=[3] * 9)
        pos.give("decision", "D_PLACE", 7)
        d0 = pos.get("tdisc")
        pos.act("done")
        assert pos.get("nb", seat=0) == [3] * 9 and pos.get("tdisc") == d0 + 1


def test_tiles_never_move_once_placed():
    pos = _start()
    pos.put("nb", 0, 4, seat=0)
    pos.give("decision", "D_PLACE", 9)
    pos.give("decision", "D_PLACE", 8)
    pos.act("row:0", "row:0")
    assert pos.get("nb", seat=0)[:3] == [4, 8, 9]


def test_completed_row_releases_colour_insight_to_reserve():
    for gid in GAMES:
        pos = _start(gid)
        pos.put("nb", [0, 1], [1, 2], seat=0)
        pos.give("decision", "D_PLACE", 7)
        pos.act("row:0")
        assert pos.get("row_done", seat=0)[0] == 1 and pos.get("dial_c", seat=0)[0] == 1
        assert pos.get("col_board", seat=0) == 5


def test_completed_column_releases_colour_insight_to_reserve():
    for gid in GAMES:
        pos = _start(gid)
        pos.put("nb", [0, 3], [1, 2], seat=0)
        pos.give("decision", "D_PLACE", 7)
        pos.act("row:2")
        assert pos.get("col_done", seat=0)[0] == 1 and pos.get("dial_c", seat=0)[0] == 1


def _inkpot_to(pos: Position, space: int) -> None:
    """Land the inkpot of seat 0 on rondel space ``space`` with a move of 1 (D_INKPOT with one Bright Idea)."""
    n = len(GAME.A["ink_kind"])
    pos.set(seat=0, inkpot=(space - 1) % n)
    pos.give("decision", "D_INKPOT", 1, 1)
    pos.act("inkpot:+0")  # no adjustment


def test_completed_row_unlocks_its_elevate_for_later_inkpot_activations():
    t = _tile_with("coffee 1", "vp 1")
    pos = _start()
    pos.put("nb", slice(0, 3), t, seat=0)
    pos.put("row_done", 0, 1, seat=0)
    c0 = pos.get("coffee", seat=0)
    _inkpot_to(pos, 0)  # row_top: generate growth minor, then every tile of row 1, then the row's Elevate
    while pos.pending().decision == "D_TILEORDER":
        pos.act(pos.legal()[0])
    assert pos.get("coffee", seat=0) == c0 + 3
    assert _top(pos)[:2] == ("D_ELXF", GAME.params.row_bonus_elevations)
    pos2 = _start()
    pos2.put("nb", slice(0, 3), t, seat=0)
    _inkpot_to(pos2, 0)
    while pos2.pending().decision == "D_TILEORDER":
        pos2.act(pos2.legal()[0])
    assert pos2.pending().decision != "D_ELXF"  # not completed: no Elevate


def test_completed_column_unlocks_its_generate_for_later_inkpot_activations():
    t = _tile_with("coffee 1", "vp 1")
    pos = _start()
    pos.put("nb", [1, 4, 7], t, seat=0)
    pos.put("col_done", 1, 1, seat=0)
    _inkpot_to(pos, 3)  # column space
    assert pos.pending().decision == "D_COLUMN"
    w0 = pos.get("dial_w", seat=0)
    pos.act("column:1")
    while pos.pending().decision == "D_TILEORDER":
        pos.act(pos.legal()[0])
    lvl = GAME.params.column_bonus_level
    assert pos.get("dial_w", seat=0)[1 + 1 * 3 + lvl] == w0[1 + 1 * 3 + lvl] + 1  # column 2 generates freedom


def test_filling_all_nine_spaces_gains_a_reputation_point_freud_first():
    for gid in GAMES:
        pos = _start(gid)
        pos.set(seat=0, nb=[2] * 8 + [-1], icons=2, cured=2, row_done=[1, 1, 0], col_done=[1, 1, 0])
        f0 = pos.get("freud_rep")
        pos.give("decision", "D_PLACE", 7)
        n0 = len(pos.events())
        pos.act("row:2")
        assert pos.get("rep", seat=0) == 1 and pos.get("freud_rep") == f0 + 1
        assert _kinds_since(pos, n0, ("freud", "reputation")) == ["freud", "reputation"]


def test_row_activation_resolves_the_rows_tiles_in_the_order_chosen():
    t_coffee = _tile_with("coffee 1", "vp 1")
    t_vp = _tile_with("vp 1", "coffee 1")
    for gid in GAMES:
        pos = _start(gid)
        pos.put("nb", [0, 1], [t_coffee, t_vp], seat=0)
        _inkpot_to(pos, 0)
        assert _top(pos)[:2] == ("D_TILEORDER", 0b011)
        n0 = len(pos.events())
        pos.act("tile:row0:space0" if gid % 2 == 0 else "tile:row0:space1")  # the other one follows by itself
        ks = _kinds_since(pos, n0, ("vp", "coffee_gain"))
        assert ks == (["coffee_gain", "vp"] if gid % 2 == 0 else ["vp", "coffee_gain"])


def test_turn_log_row_records_option_action_coffee_and_vp():
    pos = _start()
    t = _tile_with("coffee 1", "vp 1")
    pos.put("market", (0, 0), t)
    pos.set(seat=0, inkpot=4)  # move 1 lands on a plain gain-idea space
    _take(pos, "tile_center", coffee=5)
    pos.act("level:I")  # banner: vp 1
    while pos.get("turn") == 0:
        pos.act("done" if "done" in pos.legal() else pos.legal()[0])
    # the turn log by column name: Position has no turn-log reader, the engine's drain_logs gives its rows
    turns, _ = GAME.drain_logs(pos.state)
    rows = turns.to_pylist()
    assert len(rows) == 1
    row = rows[0]
    assert row["seat"] == 0 and row["turn"] == 0 and row["round"] == 1
    assert row["option"] == "state_ideas"
    assert row["mt_action"] == "tile_center"
    assert row["coffee_spent"] == 2 and row["vp_gained"] == 1 and row["vp_after"] == pos.get("vp", seat=0)
    assert row["coffee_after"] == pos.get("coffee", seat=0)
