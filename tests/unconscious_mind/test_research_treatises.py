"""Seed 000 §Insight actions, §Research and Treatises, §Publishing a Treatise, §Citing Treatises."""

import numpy as np

from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.actions import POS0, XFER0

from .util import CARD0, CH0, DONE, MODE0, cards_of, events, give_in_play, new, place_action, push, step, top, \
    top_entry


def test_insight_generate_one_minor_growth_freedom_and_passion():
    gm, s = new()
    s.inkpot[:, 0] = 3  # the inkpot then lands on a plain space (move 2)
    w0 = s.dial_w[:, 0].copy()
    step(gm, s, place_action(gm, "generate"))
    step(gm, s, MODE0)
    for q in range(3):
        assert (s.dial_w[:, 0, 1 + q * 3] == w0[:, 1 + q * 3] + 1).all()
    assert (s.dial_w[:, 0, 0] == w0[:, 0] - 3).all()


def test_insight_elevate_up_to_two_elevations_and_one_transfer_in_any_order():
    gm, s = new()
    s.dial_w[:, 0, 0] = 3
    s.dial_w[:, 0, 1] = 3  # three growth minor
    step(gm, s, place_action(gm, "elevate_transfer"))
    step(gm, s, MODE0)
    assert top_entry(s)[:3] == (R.D_ELXF, 2, 1)
    step(gm, s, XFER0 + 0 * 3 + 2)  # transfer a growth minor to passion first
    assert top_entry(s)[:3] == (R.D_ELXF, 2, 0)
    m = gm.legal_action_mask(s)[0]
    assert not m[XFER0:XFER0 + 27].any() and m[POS0] and m[DONE]
    step(gm, s, POS0 + 0)
    step(gm, s, POS0 + 1)  # the elevated one again: growth median -> major
    assert s.dial_w[0, 0, 1] == 1 and s.dial_w[0, 0, 3] == 1 and s.dial_w[0, 0, 7] == 1
    assert top(s) != R.D_ELXF  # used up


def test_elevate_never_raises_from_the_reserve_and_not_past_major():
    gm, s = new()
    s.dial_w[:, 0, :] = 0
    s.dial_w[:, 0, 0] = 3
    s.dial_w[:, 0, 3] = 3  # growth major
    push(s, R.D_ELXF, 2, 0)
    m = gm.legal_action_mask(s)[0]
    assert not m[POS0:POS0 + 9].any() and m[DONE]


def test_research_draw_takes_top_card_without_hand_limit_then_may_swap():
    gm, s = new()
    hand = [c for c in range(40) if s.card_loc[0, c] == R.L_DECK][:9]
    for c in hand:
        s.card_loc[:, c] = R.L_HAND
        s.card_own[:, c] = 0
    s.rtop[:] += 0
    nxt = int(s.rdeck[0, s.rtop[0]])
    step(gm, s, place_action(gm, "research_draw"))
    step(gm, s, MODE0)
    assert s.card_loc[0, nxt] == R.L_HAND and s.card_own[0, nxt] == 0
    assert top(s) == R.D_SWAP and gm.legal_action_mask(s)[0, DONE]


def test_swap_one_hand_card_with_either_face_up_display_card():
    gm, s = new(B=1)  # hands differ between shuffled games
    push(s, R.D_SWAP)
    mine = [c for c in range(40) if s.card_loc[0, c] == R.L_HAND and s.card_own[0, c] == 0][0]
    shown = int(s.rdisp[0, 1])
    step(gm, s, CARD0 + mine)
    m = gm.legal_action_mask(s)[0]
    assert m[CH0] and m[CH0 + 1]
    step(gm, s, CH0 + 1)
    assert s.rdisp[0, 1] == mine and s.card_loc[0, shown] == R.L_HAND and s.card_own[0, shown] == 0


def test_cards_are_played_only_where_an_effect_shows_the_play_icon():
    gm, s = new(B=1)  # hands differ between shuffled games
    m = gm.legal_action_mask(s)[0]
    assert not m[CARD0:].any()  # no play at the turn choice
    push(s, R.D_PLAYN, 1)
    m = gm.legal_action_mask(s)[0]
    hand = [c for c in range(40) if s.card_loc[0, c] == R.L_HAND and s.card_own[0, c] == 0]
    assert hand and all(m[CARD0 + c] for c in hand) and m[DONE]
    c = hand[0]
    step(gm, s, CARD0 + c)
    assert s.card_loc[0, c] == R.L_INPLAY


def test_research_play_action_plays_up_to_two_cards():
    gm, s = new(B=1)  # hands differ between shuffled games
    push(s, R.D_RESPLAY, gm.params.research_play_max, 0)
    hand = [c for c in range(40) if s.card_loc[0, c] == R.L_HAND and s.card_own[0, c] == 0]
    step(gm, s, CARD0 + hand[0])
    # resolve the card's effect decisions if any, then the second card
    while top(s) != R.D_RESPLAY:
        step(gm, s, int(np.flatnonzero(gm.legal_action_mask(s)[0])[-1]))
    assert top_entry(s)[:3] == (R.D_RESPLAY, 1, 1)
    m = gm.legal_action_mask(s)[0]
    assert m[DONE] and not m[CH0:CH0 + 6].any()  # no publishing after playing


def test_in_play_card_location_tags_count():
    gm, s = new()
    loc = int(s.prof_loc[0, 0])
    tagged = [c for c in range(40) if gm.A["card_tag"][c] == loc][:3]
    give_in_play(s, 0, 0, tagged)
    push(s, R.D_LOCTRIG, loc)
    sp0 = int(s.sp[0])
    step(gm, s, CH0 + 1)  # once per tag
    assert int(s.sp[0]) - sp0 + 1 == 3 and top(s) == R.D_LOCEFF


# ------------------------------------------------------------------ Treatises
def _setup_publish(gm, s, t=0, cite=False):
    """Treatise t (volumes from content) in display slot 0; seat 0 holds every Volume in play unless cite."""
    s.trdisp[:, 0] = t
    s.dial_c[:, 0, 0] = 1
    s.col_board[:, 0] = 5
    cols = list(gm.A["tr_cols"][t][: gm.A["tr_len"][t]])
    used = []
    own = cols if not cite else cols[:1]
    for col in own:
        c = cards_of(gm, col, 1, exclude=used)[0]
        used.append(c)
    for g in range(s.batch_size):
        give_in_play(s, g, 0, used)
    return cols, used


def test_publish_step1_choose_a_treatise_from_the_display():
    gm, s = new()
    _setup_publish(gm, s, t=0)
    push(s, R.D_RESPLAY, 2, 0)
    m = gm.legal_action_mask(s)[0]
    assert m[CH0 + 0] and not m[CH0 + 1]  # only the one we can complete
    step(gm, s, CH0 + 0)
    assert top_entry(s)[:2] == (R.D_QUILL, 0)


def test_publish_step2_quill_volume_is_own_in_play_card_of_leftmost_colour():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0)
    push(s, R.D_QUILL, 0)
    m = gm.legal_action_mask(s)[0]
    legal = [c for c in range(40) if m[CARD0 + c]]
    assert legal == [used[0]]


def test_publish_step3_remaining_volumes_exact_from_in_play_or_citations_never_hand_or_others_in_play():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0)
    extra_hand = cards_of(gm, cols[1], 1, exclude=used)[0]
    s.card_loc[:, extra_hand] = R.L_HAND
    s.card_own[:, extra_hand] = 0
    other = cards_of(gm, cols[1], 2, exclude=used + [extra_hand])[1]
    s.card_loc[:, other] = R.L_INPLAY
    s.card_own[:, other] = 1
    wrong = cards_of(gm, ({0, 1, 2, 3} - set(cols)).pop(), 1)[0]
    give_in_play(s, 0, 0, [wrong])
    push(s, R.D_QUILL, 0)
    step(gm, s, CARD0 + used[0])
    assert top(s) == R.D_GATHER
    m = gm.legal_action_mask(s)[0]
    assert m[CARD0 + used[1]] and not m[CARD0 + extra_hand] and not m[CARD0 + other] and not m[CARD0 + wrong]


def test_publish_steps4_to_6_cards_overlap_colour_insight_on_tile_and_vp_scored():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0)
    push(s, R.D_QUILL, 0)
    step(gm, s, CARD0 + used[0])
    step(gm, s, CARD0 + used[1])
    step(gm, s, CARD0 + used[2])
    assert (s.tr_owner[:, 0] == 0).all()
    assert list(s.tr_cards[0, 0, :3]) == used
    assert s.dial_c[0, 0].sum() == 0 and s.col_spent[0, 0] == 1
    assert s.vp[0, 0] == gm.A["tr_vp"][0] and s.vp_cat[0, 0, R.C_TREATISE] == gm.A["tr_vp"][0]
    assert all(s.card_loc[0, c] == R.L_TREATISE for c in used)


def test_publish_step5_put_a_player_colour_insight_from_your_dial_reserve_or_any_ring_on_the_tile():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0)
    s.dial_c[:, 0, 2] = 1  # a second colour Insight, on the growth median ring
    s.dial_c[:, 0, 9] = 1  # and a third, on the passion major ring
    s.col_board[:, 0] = 3
    push(s, R.D_QUILL, 0)
    for c in used:
        step(gm, s, CARD0 + c)
    # the seat chooses where the Insight comes from: reserve or either ring
    assert top_entry(s)[:2] == (R.D_COLOUR, R.COLOUR_PUBLISH)
    m = gm.legal_action_mask(s)[0]
    assert [a - CH0 for a in np.flatnonzero(m)] == [0, 2, 9]
    assert (s.tr_owner[:, 0] == 0).all() and s.vp[0, 0] == gm.A["tr_vp"][0]
    step(gm, s, np.array([CH0 + 2, CH0 + 0, CH0 + 9, CH0 + 2]))
    assert [list(s.dial_c[g, 0, [0, 2, 9]]) for g in range(4)] == [[1, 0, 1], [0, 1, 1], [1, 1, 0], [1, 0, 1]]
    assert (s.col_spent[:, 0] == 1).all()
    assert (s.dial_c[:, 0].sum(axis=1) + s.col_board[:, 0] + s.col_spent[:, 0] == 6).all()  # conserved
    ins = [e for e in events(gm, s, 0, "insight") if e["category"] == "publish"]
    assert [(e["seat"], e["item"]) for e in ins] == [(0, 1)]  # growth median (dial position 2 = item 1)


def test_publish_step5_no_decision_when_every_colour_insight_sits_on_one_position():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0)
    s.dial_c[:, 0, 0] = 0
    s.dial_c[:, 0, 4] = 2  # two on the freedom minor ring: taking either is the same
    s.col_board[:, 0] = 4
    push(s, R.D_QUILL, 0)
    for c in used:
        step(gm, s, CARD0 + c)
    assert top(s) != R.D_COLOUR
    assert (s.dial_c[:, 0, 4] == 1).all() and (s.col_spent[:, 0] == 1).all()


def test_publishing_needs_a_player_colour_insight():
    gm, s = new()
    _setup_publish(gm, s, t=0)
    s.dial_c[:, 0, :] = 0
    push(s, R.D_RESPLAY, 2, 0)
    assert not gm.legal_action_mask(s)[0, CH0]


def test_treatise_tags_count_and_covered_card_tags_stop_counting():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0)
    tr_tags = list(gm.A["tr_tags"][0])
    loc = int(tr_tags[0])
    card_tags_here = sum(int(gm.A["card_tag"][c] == loc) for c in used)
    push(s, R.D_QUILL, 0)
    for c in used:
        step(gm, s, CARD0 + c)
    # count tags at loc through a Location trigger (once per tag)
    s.prof_loc[:, 0] = loc
    push(s, R.D_LOCTRIG, loc)
    sp0 = int(s.sp[0])
    step(gm, s, CH0 + 1)
    n = int(s.sp[0]) - sp0 + 1
    assert n == min(tr_tags.count(loc), 5)
    assert card_tags_here == 0 or n != card_tags_here + tr_tags.count(loc)


def _published_by_seat1(gm, s, t, cards):
    """Seat 2 (index 1) has published Treatise ``t`` over ``cards`` in every game: the engine's position builder."""
    builder = gm.position_builders()["treatise"]
    for g in range(s.batch_size):
        builder(gm, s, g, 1, t, cards)


def test_citing_takes_the_rightmost_card_of_another_players_treatise_first():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0, cite=True)  # needs cols[1], cols[2] by citation
    other = cards_of(gm, cols[1], 3, exclude=used)
    right = cards_of(gm, cols[2], 3, exclude=used + other)[0]
    _published_by_seat1(gm, s, 5, [other[1], other[2], right])  # rightmost is cols[2]
    push(s, R.D_QUILL, 0)
    step(gm, s, CARD0 + used[0])
    m = gm.legal_action_mask(s)[0]
    assert m[CH0 + 5]
    step(gm, s, CH0 + 5)
    assert s.tr_n[0, 5] == 2 and s.tr_cards[0, 0, 2] == right


def test_citing_several_from_one_treatise_working_inward_without_gaps():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0, cite=True)
    a = cards_of(gm, cols[1], 2, exclude=used)
    b = cards_of(gm, cols[2], 2, exclude=used + a)
    _published_by_seat1(gm, s, 5, [b[1], a[0], b[0]])
    push(s, R.D_QUILL, 0)
    step(gm, s, CARD0 + used[0])
    step(gm, s, CH0 + 5)
    step(gm, s, CH0 + 5)
    assert s.tr_n[0, 5] == 1 and s.tr_cards[0, 5, 0] == b[1]
    assert s.tr_owner[0, 0] == 0  # published
    assert sorted(int(x) for x in s.tr_cards[0, 0, 1:3]) == sorted([a[0], b[0]])


def test_each_cited_player_gains_a_bright_idea_and_two_vp_per_volume():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0, cite=True)
    a = cards_of(gm, cols[1], 2, exclude=used)
    b = cards_of(gm, cols[2], 2, exclude=used + a)
    _published_by_seat1(gm, s, 5, [a[0], b[0]])
    br0, vp0 = s.bright[0, 1], s.vp[0, 1]
    push(s, R.D_QUILL, 0)
    step(gm, s, CARD0 + used[0])
    s.event_n[:] = 0
    step(gm, s, CH0 + 5)
    step(gm, s, CH0 + 5)
    assert s.vp[0, 1] == vp0 + 2 * gm.A["tr_cite_vp"][5] == vp0 + 4
    assert s.bright[0, 1] == br0 + 1  # one per player cited, not per Volume
    cites = events(gm, s, 0, "cite")
    assert len(cites) == 2 and all(e["seat"] == 0 and e["target_seat"] == 1 and e["item"] == 5 for e in cites)


def test_no_spare_volume_cite_only_what_the_treatise_needs():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0)  # own cards cover everything
    spare_col = ({0, 1, 2, 3} - set(cols)).pop()
    x = cards_of(gm, spare_col, 1)[0]
    _published_by_seat1(gm, s, 5, [x])
    push(s, R.D_QUILL, 0)
    step(gm, s, CARD0 + used[0])
    assert not gm.legal_action_mask(s)[0, CH0 + 5]


def test_cannot_cite_own_treatise():
    gm, s = new()
    cols, used = _setup_publish(gm, s, t=0, cite=True)
    a = cards_of(gm, cols[1], 1, exclude=used) + cards_of(gm, cols[2], 1, exclude=used)
    _published_by_seat1(gm, s, 5, a[::-1])
    s.tr_owner[:, 5] = 0
    push(s, R.D_RESPLAY, 2, 0)
    assert not gm.legal_action_mask(s)[0, CH0]  # not publishable without citations from others


def test_generate_with_an_empty_reserve_may_take_a_token_from_anywhere_on_the_dial():
    gm, s = new()
    s.inkpot[:, 0] = 3
    s.dial_w[:, 0, :] = 0
    s.dial_w[:, 0, 9] = 1  # one passion major, reserve empty
    step(gm, s, place_action(gm, "generate"))
    step(gm, s, MODE0)
    assert top_entry(s)[:2] == (R.D_GENANY, 1 + 2 * 3 + 0)  # passion minor asks last, resolved first
    m = gm.legal_action_mask(s)[0]
    assert m[POS0 + 8] and m[DONE] and m[POS0:POS0 + 8].sum() == 0
    step(gm, s, DONE)  # decline: the token stays
    assert top(s) == R.D_GENANY
    step(gm, s, POS0 + 8)  # freedom minor takes the passion major
    assert (s.dial_w[:, 0, 9] == 0).all() and (s.dial_w[:, 0, 4] == 1).all()
