"""Seed 000 §Insight actions, §Research and Treatises, §Publishing a Treatise, §Citing Treatises."""

from meeplelab.sim.core.position import Position
from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.content import MT_ACTIONS

from .positions import GAME, GAMES
from .positions import start as _start
from .positions import top as _top


def _place(action_name: str) -> str:
    """The label of State Ideas on the first idea space touching Meeting Table action ``action_name``."""
    want = MT_ACTIONS.index(action_name)
    sa = GAME.A["space_act"]
    for sp in range(sa.shape[0]):
        for d in range(4):
            if sa[sp, d] == want:
                return f"place:space{sp}:dir{d}"
    raise AssertionError(action_name)


def _cards_of(colour: int, n: int, exclude=()) -> list[int]:
    """The first ``n`` Research cards of Volume colour ``colour`` not in ``exclude``."""
    ids = [c for c in range(len(GAME.content.card_ids)) if GAME.A["card_col"][c] == colour and c not in exclude]
    return ids[:n]


def _hand(pos: Position, seat: int = 0) -> list[int]:
    """The Research cards in ``seat``'s hand."""
    loc, own = pos.get("card_loc"), pos.get("card_own")
    return [c for c in range(40) if loc[c] == R.L_HAND and own[c] == seat]


def _legal_cards(pos: Position) -> list[int]:
    """The Research cards a ``card:`` action may take here."""
    return [int(a.split(":")[1]) for a in pos.legal() if a.startswith("card:")]


def test_insight_generate_one_minor_growth_freedom_and_passion():
    for gid in GAMES:
        pos = _start(gid)
        pos.set(seat=0, inkpot=3)  # the inkpot then lands on a plain space (move 2)
        w0 = pos.get("dial_w", seat=0)
        pos.act(_place("generate"), "mode:1-idea")
        w = pos.get("dial_w", seat=0)
        for q in range(3):
            assert w[1 + q * 3] == w0[1 + q * 3] + 1
        assert w[0] == w0[0] - 3


def test_insight_elevate_up_to_two_elevations_and_one_transfer_in_any_order():
    pos = _start()
    pos.put("dial_w", [0, 1], 3, seat=0)  # three growth minor
    pos.act(_place("elevate_transfer"), "mode:1-idea")
    assert _top(pos)[:3] == ("D_ELXF", 2, 1)
    pos.act("transfer:growth:minor->passion")  # transfer a growth minor to passion first
    assert _top(pos)[:3] == ("D_ELXF", 2, 0)
    legal = pos.legal()
    assert not [a for a in legal if a.startswith("transfer:")] and "dial:growth:minor" in legal and "done" in legal
    pos.act("dial:growth:minor")
    pos.act("dial:growth:median")  # the elevated one again: growth median -> major
    w = pos.get("dial_w", seat=0)
    assert w[1] == 1 and w[3] == 1 and w[7] == 1
    assert pos.pending().decision != "D_ELXF"  # used up


def test_elevate_never_raises_from_the_reserve_and_not_past_major():
    pos = _start()
    pos.set(seat=0, dial_w=[3, 0, 0, 3, 0, 0, 0, 0, 0, 0])  # growth major
    pos.give("decision", "D_ELXF", 2, 0)
    legal = pos.legal()
    assert not [a for a in legal if a.startswith("dial:")] and "done" in legal


def test_research_draw_takes_top_card_without_hand_limit_then_may_swap():
    pos = _start()
    loc = pos.get("card_loc")
    pos.give("hand", 0, [c for c in range(40) if loc[c] == R.L_DECK][:9])
    nxt = pos.get("rdeck")[pos.get("rtop")]
    pos.act(_place("research_draw"), "mode:1-idea")
    assert pos.get("card_loc")[nxt] == R.L_HAND and pos.get("card_own")[nxt] == 0
    assert pos.pending().decision == "D_SWAP" and "done" in pos.legal()


def test_swap_one_hand_card_with_either_face_up_display_card():
    pos = _start()  # hands differ between shuffled games
    pos.give("decision", "D_SWAP")
    mine = _hand(pos)[0]
    shown = pos.get("rdisp")[1]
    pos.act(f"card:{mine}")
    legal = pos.legal()
    assert "display:0" in legal and "display:1" in legal
    pos.act("display:1")
    assert pos.get("rdisp")[1] == mine and pos.get("card_loc")[shown] == R.L_HAND and pos.get("card_own")[shown] == 0


def test_cards_are_played_only_where_an_effect_shows_the_play_icon():
    pos = _start()  # hands differ between shuffled games
    assert not _legal_cards(pos)  # no play at the turn choice
    pos.give("decision", "D_PLAYN", 1)
    legal = pos.legal()
    hand = _hand(pos)
    assert hand and all(f"card:{c}" in legal for c in hand) and "done" in legal
    c = hand[0]
    pos.act(f"card:{c}")
    assert pos.get("card_loc")[c] == R.L_INPLAY


def test_research_play_action_plays_up_to_two_cards():
    pos = _start()  # hands differ between shuffled games
    pos.give("decision", "D_RESPLAY", GAME.params.research_play_max, 0)
    pos.act(f"card:{_hand(pos)[0]}")
    # resolve the card's effect decisions if any, then the second card
    while pos.pending().decision != "D_RESPLAY":
        pos.act(pos.legal()[-1])
    assert _top(pos)[:3] == ("D_RESPLAY", 1, 1)
    legal = pos.legal()
    assert "done" in legal and not {f"publish:display{k}" for k in range(6)} & set(legal)  # no publishing after playing


def test_in_play_card_location_tags_count():
    pos = _start()
    loc = pos.get("prof_loc", seat=0)
    tagged = [c for c in range(40) if GAME.A["card_tag"][c] == loc][:3]
    pos.give("in_play", 0, tagged)
    pos.give("decision", "D_LOCTRIG", loc)
    sp0 = pos.get("sp")
    pos.act("trigger:per-tag:plain")  # once per tag
    assert pos.get("sp") - sp0 + 1 == 3 and pos.pending().decision == "D_LOCEFF"


# ------------------------------------------------------------------ Treatises
def _setup_publish(pos: Position, t=0, cite=False):
    """Treatise t (volumes from content) in display slot 0; seat 0 holds every Volume in play unless cite."""
    pos.put("trdisp", 0, t)
    pos.put("dial_c", 0, 1, seat=0)
    pos.set(seat=0, col_board=5)
    cols = list(GAME.A["tr_cols"][t][: GAME.A["tr_len"][t]])
    used = []
    own = cols if not cite else cols[:1]
    for col in own:
        c = _cards_of(col, 1, exclude=used)[0]
        used.append(c)
    pos.give("in_play", 0, used)
    return cols, used


def test_publish_step1_choose_a_treatise_from_the_display():
    pos = _start()
    _setup_publish(pos, t=0)
    pos.give("decision", "D_RESPLAY", 2, 0)
    legal = pos.legal()
    assert "publish:display0" in legal and "publish:display1" not in legal  # only the one we can complete
    pos.act("publish:display0")
    assert _top(pos)[:2] == ("D_QUILL", 0)


def test_publish_step2_quill_volume_is_own_in_play_card_of_leftmost_colour():
    pos = _start()
    cols, used = _setup_publish(pos, t=0)
    pos.give("decision", "D_QUILL", 0)
    assert _legal_cards(pos) == [used[0]]


def test_publish_step3_remaining_volumes_exact_from_in_play_or_citations_never_hand_or_others_in_play():
    pos = _start()
    cols, used = _setup_publish(pos, t=0)
    extra_hand = _cards_of(cols[1], 1, exclude=used)[0]
    pos.give("hand", 0, [extra_hand])
    other = _cards_of(cols[1], 2, exclude=used + [extra_hand])[1]
    pos.give("in_play", 1, [other])
    wrong = _cards_of(({0, 1, 2, 3} - set(cols)).pop(), 1)[0]
    pos.give("in_play", 0, [wrong])
    pos.give("decision", "D_QUILL", 0)
    pos.act(f"card:{used[0]}")
    assert pos.pending().decision == "D_GATHER"
    legal = _legal_cards(pos)
    assert used[1] in legal and extra_hand not in legal and other not in legal and wrong not in legal


def test_publish_steps4_to_6_cards_overlap_colour_insight_on_tile_and_vp_scored():
    for gid in GAMES:
        pos = _start(gid)
        cols, used = _setup_publish(pos, t=0)
        pos.give("decision", "D_QUILL", 0)
        pos.act(*(f"card:{c}" for c in used[:3]))
        assert pos.get("tr_owner")[0] == 0
        assert pos.get("tr_cards")[0][:3] == used
        assert sum(pos.get("dial_c", seat=0)) == 0 and pos.get("col_spent", seat=0) == 1
        assert pos.get("vp", seat=0) == GAME.A["tr_vp"][0] and pos.scores()["treatise"][0] == GAME.A["tr_vp"][0]
        assert all(pos.get("card_loc")[c] == R.L_TREATISE for c in used)


def test_publish_step5_put_a_player_colour_insight_from_your_dial_reserve_or_any_ring_on_the_tile():
    # each game takes the Insight from another position
    chosen = ["colour:growth:median", "colour:reserve", "colour:passion:major", "colour:growth:median"]
    left = [[1, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 1]]
    for gid in GAMES:
        pos = _start(gid)
        cols, used = _setup_publish(pos, t=0)
        pos.put("dial_c", [2, 9], 1, seat=0)  # a second colour Insight on the growth median ring, a third on
        # the passion major ring
        pos.set(seat=0, col_board=3)
        pos.give("decision", "D_QUILL", 0)
        pos.act(*(f"card:{c}" for c in used))
        # the seat chooses where the Insight comes from: reserve or either ring
        assert _top(pos)[:2] == ("D_COLOUR", R.COLOUR_PUBLISH)
        assert pos.legal() == ["colour:reserve", "colour:growth:median", "colour:passion:major"]
        assert pos.get("tr_owner")[0] == 0 and pos.get("vp", seat=0) == GAME.A["tr_vp"][0]
        pos.act(chosen[gid])
        dial = pos.get("dial_c", seat=0)
        assert [dial[i] for i in (0, 2, 9)] == left[gid]
        assert pos.get("col_spent", seat=0) == 1
        assert sum(dial) + pos.get("col_board", seat=0) + pos.get("col_spent", seat=0) == 6  # conserved
        if gid == 0:
            ins = [e for e in pos.events("insight") if e["category"] == "publish"]
            assert [(e["seat"], e["item"]) for e in ins] == [(0, 1)]  # growth median (dial position 2 = item 1)


def test_publish_step5_no_decision_when_every_colour_insight_sits_on_one_position():
    for gid in GAMES:
        pos = _start(gid)
        cols, used = _setup_publish(pos, t=0)
        pos.put("dial_c", [0, 4], [0, 2], seat=0)  # two on the freedom minor ring: taking either is the same
        pos.set(seat=0, col_board=4)
        pos.give("decision", "D_QUILL", 0)
        pos.act(*(f"card:{c}" for c in used))
        assert pos.pending().decision != "D_COLOUR"
        assert pos.get("dial_c", seat=0)[4] == 1 and pos.get("col_spent", seat=0) == 1


def test_publishing_needs_a_player_colour_insight():
    pos = _start()
    _setup_publish(pos, t=0)
    pos.set(seat=0, dial_c=[0] * 10)
    pos.give("decision", "D_RESPLAY", 2, 0)
    assert "publish:display0" not in pos.legal()


def test_treatise_tags_count_and_covered_card_tags_stop_counting():
    pos = _start()
    cols, used = _setup_publish(pos, t=0)
    tr_tags = list(GAME.A["tr_tags"][0])
    loc = int(tr_tags[0])
    card_tags_here = sum(int(GAME.A["card_tag"][c] == loc) for c in used)
    pos.give("decision", "D_QUILL", 0)
    pos.act(*(f"card:{c}" for c in used))
    # count tags at loc through a Location trigger (once per tag)
    pos.set(seat=0, prof_loc=loc)
    pos.give("decision", "D_LOCTRIG", loc)
    sp0 = pos.get("sp")
    pos.act("trigger:per-tag:plain")
    n = pos.get("sp") - sp0 + 1
    assert n == min(tr_tags.count(loc), 5)
    assert card_tags_here == 0 or n != card_tags_here + tr_tags.count(loc)


def test_citing_takes_the_rightmost_card_of_another_players_treatise_first():
    pos = _start()
    cols, used = _setup_publish(pos, t=0, cite=True)  # needs cols[1], cols[2] by citation
    other = _cards_of(cols[1], 3, exclude=used)
    right = _cards_of(cols[2], 3, exclude=used + other)[0]
    pos.give("treatise", 1, 5, [other[1], other[2], right])  # published by seat index 1; rightmost is cols[2]
    pos.give("decision", "D_QUILL", 0)
    pos.act(f"card:{used[0]}")
    assert "cite:treatise5" in pos.legal()
    pos.act("cite:treatise5")
    assert pos.get("tr_n")[5] == 2 and pos.get("tr_cards")[0][2] == right


def test_citing_several_from_one_treatise_working_inward_without_gaps():
    pos = _start()
    cols, used = _setup_publish(pos, t=0, cite=True)
    a = _cards_of(cols[1], 2, exclude=used)
    b = _cards_of(cols[2], 2, exclude=used + a)
    pos.give("treatise", 1, 5, [b[1], a[0], b[0]])  # published by seat index 1
    pos.give("decision", "D_QUILL", 0)
    pos.act(f"card:{used[0]}", "cite:treatise5", "cite:treatise5")
    assert pos.get("tr_n")[5] == 1 and pos.get("tr_cards")[5][0] == b[1]
    assert pos.get("tr_owner")[0] == 0  # published
    assert sorted(pos.get("tr_cards")[0][1:3]) == sorted([a[0], b[0]])


def test_each_cited_player_gains_a_bright_idea_and_two_vp_per_volume():
    pos = _start()
    cols, used = _setup_publish(pos, t=0, cite=True)
    a = _cards_of(cols[1], 2, exclude=used)
    b = _cards_of(cols[2], 2, exclude=used + a)
    pos.give("treatise", 1, 5, [a[0], b[0]])  # published by seat index 1
    br0, vp0 = pos.get("bright", seat=1), pos.get("vp", seat=1)
    pos.give("decision", "D_QUILL", 0)
    pos.act(f"card:{used[0]}")
    n0 = len(pos.events())
    pos.act("cite:treatise5", "cite:treatise5")
    assert pos.get("vp", seat=1) == vp0 + 2 * GAME.A["tr_cite_vp"][5] == vp0 + 4
    assert pos.get("bright", seat=1) == br0 + 1  # one per player cited, not per Volume
    cites = [e for e in pos.events()[n0:] if e["kind"] == "cite"]
    assert len(cites) == 2 and all(e["seat"] == 0 and e["target_seat"] == 1 and e["item"] == 5 for e in cites)


def test_no_spare_volume_cite_only_what_the_treatise_needs():
    pos = _start()
    cols, used = _setup_publish(pos, t=0)  # own cards cover everything
    spare_col = ({0, 1, 2, 3} - set(cols)).pop()
    x = _cards_of(spare_col, 1)[0]
    pos.give("treatise", 1, 5, [x])  # published by seat index 1
    pos.give("decision", "D_QUILL", 0)
    pos.act(f"card:{used[0]}")
    assert "cite:treatise5" not in pos.legal()


def test_cannot_cite_own_treatise():
    pos = _start()
    cols, used = _setup_publish(pos, t=0, cite=True)
    a = _cards_of(cols[1], 1, exclude=used) + _cards_of(cols[2], 1, exclude=used)
    pos.give("treatise", 0, 5, a[::-1])  # published by seat index 0, the one publishing now
    pos.give("decision", "D_RESPLAY", 2, 0)
    assert "publish:display0" not in pos.legal()  # not publishable without citations from others


def test_generate_with_an_empty_reserve_may_take_a_token_from_anywhere_on_the_dial():
    for gid in GAMES:
        pos = _start(gid)
        pos.set(seat=0, inkpot=3, dial_w=[0] * 9 + [1])  # one passion major, reserve empty
        pos.act(_place("generate"), "mode:1-idea")
        assert _top(pos)[:2] == ("D_GENANY", 1 + 2 * 3 + 0)  # passion minor asks last, resolved first
        dials = [a for a in pos.legal() if a.startswith("dial:")]
        assert dials == ["dial:passion:major"] and "done" in pos.legal()
        pos.act("done")  # decline: the token stays
        assert pos.pending().decision == "D_GENANY"
        pos.act("dial:passion:major")  # freedom minor takes the passion major
        w = pos.get("dial_w", seat=0)
        assert w[9] == 0 and w[4] == 1
