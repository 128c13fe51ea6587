"""Seed 000 §Gaining Notebook tiles, §Replacing Notebook tiles, §Completing rows and columns."""

import numpy as np

from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.content import MT_ACTIONS

from .util import CH0, DONE, MODE0, events, new, place_action, push, step, tile_with, top, top_entry


def _take(gm, s, space: str, coffee: int = 9, mode: int = 0):
    s.coffee[:, 0] = coffee
    step(gm, s, place_action(gm, space))
    step(gm, s, MODE0 + mode)


def test_nine_action_spaces_three_tile_two_insight_two_research_two_movement():
    gm, s = new()
    assert len(MT_ACTIONS) == 9
    rows = gm.A["act_row"]
    assert sorted(MT_ACTIONS[i] for i in range(9) if rows[i] == 0) == ["tile_center", "tile_right", "tile_stack"]
    kinds = [n.split("_")[0] for n in MT_ACTIONS]
    assert kinds.count("generate") + kinds.count("elevate") == 2
    assert kinds.count("research") == 2
    assert kinds.count("move") == 2
    # every action space can be pointed at from the first turn
    s.coffee[:, 0] = 9
    m = gm.legal_action_mask(s)[0]
    reach = {int(gm.A["space_act"][(a // 4), a % 4]) for a in np.flatnonzero(m[:64])}
    assert reach == set(range(9))


def test_tile_space_cost_one_takes_stack_top_and_triggers_nothing():
    gm, s = new()
    _take(gm, s, "tile_stack", coffee=5)
    assert top(s) == R.D_TILE_SRC
    expect = int(s.tstack[0, 1, s.ttop[0, 1]])
    dial, vp, bright = s.dial_w.copy(), s.vp.copy(), s.bright.copy()
    step(gm, s, CH0 + 1)  # level II stack
    assert (s.coffee[:, 0] == 4).all()
    assert top_entry(s) == (R.D_PLACE, expect, 0, 0)
    assert np.array_equal(s.dial_w, dial) and np.array_equal(s.vp, vp) and np.array_equal(s.bright, bright)


def test_tile_space_cost_two_takes_center_tile_and_triggers_banner_only():
    gm, s = new()
    t = tile_with(gm, "coffee 1", "vp 1")
    s.market[:, 0, 0] = t
    _take(gm, s, "tile_center", coffee=5)
    step(gm, s, CH0 + 0)
    # paid 2, banner (vp 1) triggered, main (coffee 1) not
    assert (s.coffee[:, 0] == 3).all()
    assert (s.vp[:, 0] == 1).all()
    assert top_entry(s) == (R.D_PLACE, t, 0, 0)


def test_tile_space_cost_three_triggers_main_and_banner_in_chosen_order():
    gm, s = new()
    t = tile_with(gm, "coffee 1", "vp 1")
    s.market[:, 0, 1] = t
    _take(gm, s, "tile_right", coffee=5)
    step(gm, s, CH0 + 0)
    assert top(s) == R.D_ORDER
    s.event_n[:] = 0
    step(gm, s, np.array([CH0 + 0, CH0 + 1, CH0 + 0, CH0 + 1]))
    for g in range(4):
        kinds = [e["kind"] for e in events(gm, s, g) if e["kind"] in ("vp", "coffee_gain")]
        assert kinds == (["coffee_gain", "vp"] if g % 2 == 0 else ["vp", "coffee_gain"])
    assert (s.coffee[:, 0] == 5 - 3 + 1).all() and (s.vp[:, 0] == 1).all()


def test_each_action_is_paid_in_full_each_time():
    gm, s = new()
    s.bright[:, 0] = 0
    _take(gm, s, "tile_center", coffee=6, mode=2)  # two Ideas: the action twice
    assert (s.coffee[:, 0] == 4).all()  # first payment
    spent = [e for e in events(gm, s) if e["kind"] == "coffee_spend"]
    assert [e["amount"] for e in spent] == [2]
    while top(s) != R.D_TURN and not (s.coffee[0, 0] == 2):
        m = gm.legal_action_mask(s)[0]
        step(gm, s, int(np.flatnonzero(m)[0]))
    assert s.coffee[0, 0] == 2  # second payment of 2


def test_two_ideas_on_a_tile_space_need_coffee_for_both():
    gm, s = new()
    s.coffee[:, 0] = 3
    step(gm, s, place_action(gm, "tile_center"))
    m = gm.legal_action_mask(s)[0]
    assert m[MODE0 + 0] and not m[MODE0 + 2]


def test_tile_gained_by_other_effect_is_free_from_stack_top():
    gm, s = new()
    push(s, R.D_FREE_TILE)
    c0 = s.coffee.copy()
    expect = int(s.tstack[0, 0, s.ttop[0, 0]])
    step(gm, s, CH0 + 0)
    assert np.array_equal(s.coffee, c0)
    assert top_entry(s) == (R.D_PLACE, expect, 0, 0)


def test_tile_placed_banner_down_in_leftmost_empty_space_of_chosen_row():
    gm, s = new()
    s.nb[:, 0, 3] = 5  # row 2 holds one tile
    push(s, R.D_PLACE, 7)
    step(gm, s, CH0 + 1)
    assert (s.nb[:, 0, 4] == 7).all() and (s.nb[:, 0, 3] == 5).all() and (s.nb[:, 0, 5] == -1).all()


def test_icon_space_needs_zero_one_two_cured_clients_for_first_second_third_icon():
    gm, s = new()
    for r in range(3):
        s.nb[:, 0, r * 3] = 1
        s.nb[:, 0, r * 3 + 1] = 2
    push(s, R.D_PLACE, 7)
    m = gm.legal_action_mask(s)
    assert m[:, CH0:CH0 + 3].all()  # first icon: 0 clients needed
    s.icons[:, 0] = 1
    m = gm.legal_action_mask(s)
    assert not m[:, CH0:CH0 + 3].any()  # second icon needs 1 cured client
    s.cured[:, 0] = 1
    assert gm.legal_action_mask(s)[:, CH0:CH0 + 3].all()
    s.icons[:, 0] = 2
    assert not gm.legal_action_mask(s)[:, CH0:CH0 + 3].any()  # third icon needs 2
    s.cured[:, 0] = 2
    assert gm.legal_action_mask(s)[:, CH0:CH0 + 3].all()


def test_refill_empty_center_takes_top_of_its_rows_stack():
    gm, s = new()
    nxt = int(s.tstack[0, 1, s.ttop[0, 1]])
    _take(gm, s, "tile_center")
    step(gm, s, CH0 + 1)
    assert s.market[0, 1, 0] == nxt


def test_refill_empty_right_takes_center_slid_across_then_center_refills():
    gm, s = new()
    center = int(s.market[0, 0, 0])
    nxt = int(s.tstack[0, 0, s.ttop[0, 0]])
    _take(gm, s, "tile_right")
    step(gm, s, CH0 + 0)
    assert s.market[0, 0, 1] == center and s.market[0, 0, 0] == nxt


def test_exhausted_stack_is_not_refilled_but_tiles_still_slide():
    gm, s = new()
    s.ttop[:, 0] = gm.A["tiles_per_level"][0]
    center = int(s.market[0, 0, 0])
    _take(gm, s, "tile_right")
    step(gm, s, CH0 + 0)
    assert s.market[0, 0, 1] == center and s.market[0, 0, 0] == -1


def test_empty_market_space_scores_printed_vp_only():
    gm, s = new()
    s.market[:, 0, 0] = -1
    s.ttop[:, 0] = gm.A["tiles_per_level"][0]
    _take(gm, s, "tile_center", coffee=5)
    s.event_n[:] = 0
    step(gm, s, CH0 + 0)
    assert (s.vp[:, 0] == gm.params.empty_space_vp[1]).all()
    assert (s.vp_cat[:, 0, R.C_EMPTY] == gm.params.empty_space_vp[1]).all()
    assert not events(gm, s, 0, "tile")  # no tile taken, nothing placed
    assert top(s) != R.D_PLACE


def test_replacement_only_when_the_tile_cannot_be_placed():
    gm, s = new()
    s.nb[:, 0, :] = 3
    s.nb[:, 0, 8] = -1
    s.icons[:, 0] = 2  # third icon needs 2 cured clients: row 3 blocked
    push(s, R.D_PLACE, 7)
    m = gm.legal_action_mask(s)[0]
    assert not m[CH0:CH0 + 3].any() and m[CH0 + 3:CH0 + 11].all() and not m[CH0 + 11] and m[DONE]
    s.cured[:, 0] = 2
    m = gm.legal_action_mask(s)[0]
    assert m[CH0 + 2] and not m[CH0 + 3:CH0 + 12].any() and not m[DONE]


def test_replacing_discards_the_old_tile():
    gm, s = new()
    s.nb[:, 0, :] = 3
    push(s, R.D_PLACE, 7)
    d0 = s.tdisc.copy()
    step(gm, s, CH0 + 3 + 4)
    assert (s.nb[:, 0, 4] == 7).all() and (s.tdisc == d0 + 1).all()


def test_otherwise_the_new_tile_is_discarded():
    gm, s = new()
    s.nb[:, 0, :] = 3
    push(s, R.D_PLACE, 7)
    d0 = s.tdisc.copy()
    step(gm, s, DONE)
    assert (s.nb[:, 0, :] == 3).all() and (s.tdisc == d0 + 1).all()


def test_tiles_never_move_once_placed():
    gm, s = new()
    s.nb[:, 0, 0] = 4
    push(s, R.D_PLACE, 9)
    push(s, R.D_PLACE, 8)
    step(gm, s, CH0 + 0)
    step(gm, s, CH0 + 0)
    assert list(s.nb[0, 0, :3]) == [4, 8, 9]


def test_completed_row_releases_colour_insight_to_reserve():
    gm, s = new()
    s.nb[:, 0, 0] = 1
    s.nb[:, 0, 1] = 2
    push(s, R.D_PLACE, 7)
    step(gm, s, CH0 + 0)
    assert (s.row_done[:, 0, 0] == 1).all() and (s.dial_c[:, 0, 0] == 1).all() and (s.col_board[:, 0] == 5).all()


def test_completed_column_releases_colour_insight_to_reserve():
    gm, s = new()
    s.nb[:, 0, 0] = 1
    s.nb[:, 0, 3] = 2
    push(s, R.D_PLACE, 7)
    step(gm, s, CH0 + 2)
    assert (s.col_done[:, 0, 0] == 1).all() and (s.dial_c[:, 0, 0] == 1).all()


def _inkpot_to(gm, s, pos):
    """Land the inkpot of seat 0 on rondel space ``pos`` with a move of 1 (D_INKPOT with one Bright Idea)."""
    n = len(gm.A["ink_kind"])
    s.inkpot[:, 0] = (pos - 1) % n
    push(s, R.D_INKPOT, 1, 1)
    step(gm, s, CH0 + 2)  # no adjustment


def test_completed_row_unlocks_its_elevate_for_later_inkpot_activations():
    gm, s = new()
    t = tile_with(gm, "coffee 1", "vp 1")
    s.nb[:, 0, 0:3] = t
    s.row_done[:, 0, 0] = 1
    c0 = s.coffee[0, 0]
    _inkpot_to(gm, s, 0)  # row_top: generate growth minor, then every tile of row 1, then the row's Elevate
    while top(s) == R.D_TILEORDER:
        step(gm, s, int(np.flatnonzero(gm.legal_action_mask(s)[0])[0]))
    assert s.coffee[0, 0] == c0 + 3
    assert top_entry(s)[:2] == (R.D_ELXF, gm.params.row_bonus_elevations)
    gm2, s2 = new()
    s2.nb[:, 0, 0:3] = t
    _inkpot_to(gm2, s2, 0)
    while top(s2) == R.D_TILEORDER:
        step(gm2, s2, int(np.flatnonzero(gm2.legal_action_mask(s2)[0])[0]))
    assert top(s2) != R.D_ELXF  # not completed: no Elevate


def test_completed_column_unlocks_its_generate_for_later_inkpot_activations():
    gm, s = new()
    t = tile_with(gm, "coffee 1", "vp 1")
    s.nb[:, 0, [1, 4, 7]] = t
    s.col_done[:, 0, 1] = 1
    _inkpot_to(gm, s, 3)  # column space
    assert top(s) == R.D_COLUMN
    w0 = s.dial_w[0, 0].copy()
    step(gm, s, CH0 + 1)
    while top(s) == R.D_TILEORDER:
        step(gm, s, int(np.flatnonzero(gm.legal_action_mask(s)[0])[0]))
    lvl = gm.params.column_bonus_level
    assert s.dial_w[0, 0, 1 + 1 * 3 + lvl] == w0[1 + 1 * 3 + lvl] + 1  # column 2 generates freedom


def test_filling_all_nine_spaces_gains_a_reputation_point_freud_first():
    gm, s = new()
    s.nb[:, 0, :8] = 2
    s.icons[:, 0] = 2
    s.cured[:, 0] = 2
    s.row_done[:, 0, :2] = 1
    s.col_done[:, 0, :2] = 1
    f0 = s.freud_rep.copy()
    push(s, R.D_PLACE, 7)
    s.event_n[:] = 0
    step(gm, s, CH0 + 2)
    assert (s.rep[:, 0] == 1).all() and (s.freud_rep == f0 + 1).all()
    ks = [e["kind"] for e in events(gm, s) if e["kind"] in ("freud", "reputation")]
    assert ks == ["freud", "reputation"]


def test_row_activation_resolves_the_rows_tiles_in_the_order_chosen():
    gm, s = new()
    t_coffee = tile_with(gm, "coffee 1", "vp 1")
    t_vp = tile_with(gm, "vp 1", "coffee 1")
    s.nb[:, 0, 0] = t_coffee
    s.nb[:, 0, 1] = t_vp
    _inkpot_to(gm, s, 0)
    assert top_entry(s)[:2] == (R.D_TILEORDER, 0b011)
    s.event_n[:] = 0
    step(gm, s, np.array([CH0 + 0, CH0 + 1, CH0 + 0, CH0 + 1]))  # the other one follows by itself
    for g in range(4):
        ks = [e["kind"] for e in events(gm, s, g) if e["kind"] in ("vp", "coffee_gain")]
        assert ks == (["coffee_gain", "vp"] if g % 2 == 0 else ["vp", "coffee_gain"])


def test_turn_log_row_records_option_action_coffee_and_vp():
    gm, s = new()
    t = tile_with(gm, "coffee 1", "vp 1")
    s.market[:, 0, 0] = t
    s.inkpot[:, 0] = 4  # move 1 lands on a plain gain-idea space
    _take(gm, s, "tile_center", coffee=5)
    step(gm, s, CH0 + 0)  # banner: vp 1
    while s.turn[0] == 0:
        m = gm.legal_action_mask(s)[0]
        step(gm, s, DONE if m[DONE] else int(np.flatnonzero(m)[0]))
    spec = gm.turn_spec()
    row = dict(zip([c.name for c in spec.columns], (int(x) for x in s.turn_buf[0, 0])))
    assert s.turn_n[0] == 1
    assert row["seat"] == 0 and row["turn"] == 0 and row["round"] == 1
    assert spec.columns[spec.index("option")].vocab[row["option"]] == "state_ideas"
    assert spec.columns[spec.index("mt_action")].vocab[row["mt_action"]] == "tile_center"
    assert row["coffee_spent"] == 2 and row["vp_gained"] == 1 and row["vp_after"] == int(s.vp[0, 0])
    assert row["coffee_after"] == int(s.coffee[0, 0])
