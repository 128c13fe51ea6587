"""The assumed game around the seed (A-GT-nn): Cycles, Income, Suspicion track, Penance, scoring, logs."""

import numpy as np
from numba import njit

from meeplelab.sim.galileos_truth import Params, rules
from meeplelab.sim.galileos_truth.content import PHYSICS
from meeplelab.sim.galileos_truth.state import (A_ABJURE, A_CARD, A_DONE, A_PASS, C_SUSPICION, C_TRUTH, PH_LYING,
                                      PH_PRISON, PH_STAKE, PH_STANDING, Z_DISCARD, Z_HAND, arrays)

from .helpers import T, act, all_cards, card_icons, events, new, set_cards, zone_count, zone_of


def pass_all(game, s, players):
    for _ in range(players):
        act(game, s, A_PASS)


def test_game_has_five_cycles_then_final_scoring():
    game, s = new(players=2)
    for c in range(1, 6):
        assert (s.cycle == c).all() and not s.over.any()
        all_cards(s, hand=[])
        for g in range(4):
            set_cards(s, g, 1, hand=[])
        pass_all(game, s, 2)
    assert s.over.all()
    assert not game.legal_action_mask(s).any()


def test_first_player_rotates_each_cycle():
    game, s = new(players=3)
    assert (s.to_act == 0).all()
    pass_all(game, s, 3)
    assert (s.to_act == 1).all() and (s.first == 1).all()
    pass_all(game, s, 3)
    assert (s.to_act == 2).all()


def test_passed_player_is_out_of_the_cycle():
    game, s = new(players=3)
    act(game, s, A_PASS)                       # seat 0 passes
    act(game, s, A_PASS)                       # seat 1 passes
    assert (s.to_act == 2).all()
    all_cards(s, hand=[])
    for g in range(4):
        set_cards(s, g, 2, hand=[T(game, "abacus")] * 2)
    act(game, s, A_CARD + T(game, "abacus"))
    act(game, s, A_DONE)
    assert (s.to_act == 2).all()                 # seats 0 and 1 are skipped


@njit(cache=True)
def _start_cycle(S, C, prm, g):
    rules.start_cycle(S, C, prm, g)


def test_cycle_start_draws_up_to_the_hand_size():
    # issue 18 item 12: "a hand of 5 drawn at the start of every Cycle" (A-GT-04) is up to 5, never 5 more
    game, s = new(players=1)
    a = T(game, "abacus")
    for g, held in enumerate([5, 3, 7, 0]):
        set_cards(s, g, 0, hand=[a] * held, deck=[a] * 8)
    for g in range(4):
        _start_cycle(arrays(s), game.C, game.param_vector, g)
    assert [zone_count(s, g, 0, Z_HAND) for g in range(4)] == [5, 5, 7, 5]
    assert s.deck_n[:, 0].tolist() == [8, 6, 8, 3]


def test_income_phase_and_hand_of_five_at_start_of_cycle():
    game, s = new(players=1)
    assert [zone_count(s, g, 0, Z_HAND) for g in range(4)] == [5] * 4
    assert (s.coins[:, 0] == 2 + 1).all() and (s.research[:, 0] == 2 + 1).all()   # start + Level I income
    s.books[:, 0, PHYSICS] = [0, 5, 10, 0]
    s.coins[:, 0] = 0
    act(game, s, A_PASS)
    assert s.coins[:, 0].tolist() == [1, 2, 3, 1]
    assert [zone_count(s, g, 0, Z_HAND) for g in range(4)] == [5] * 4


def test_prison_when_suspicion_reaches_prison_threshold_and_stake_at_its_threshold():
    game, s = new()
    s.susp[:, 0] = [7, 6, 11, 10]
    card_icons(game, "star-charts", ["susp_up 1"])
    all_cards(s, hand=[T(game, "star-charts")])
    act(game, s, A_CARD + T(game, "star-charts"))
    act(game, s, A_DONE)
    assert s.phil[:, 0].tolist() == [PH_PRISON, PH_STANDING, PH_STAKE, PH_STANDING]
    assert len(events(game, s, 0, "prison")) == 1 and len(events(game, s, 2, "stake")) == 1


def test_prison_lasts_the_rest_of_the_cycle_and_all_of_the_next():
    game, s = new(players=1)
    s.phil[:, 0] = PH_PRISON
    all_cards(s, hand=[])
    act(game, s, A_PASS)
    assert (s.phil[:, 0] == PH_LYING).all()
    all_cards(s, hand=[])
    act(game, s, A_PASS)
    assert (s.phil[:, 0] == PH_STANDING).all()


def test_stake_philosopher_is_lost_for_the_game():
    game, s = new(players=1)
    s.phil[:, 0] = PH_STAKE
    all_cards(s, hand=[])
    act(game, s, A_PASS)
    assert (s.phil[:, 0] == PH_STAKE).all()


def test_inquisition_token_turns_face_up_at_start_of_period_two():
    game, s = new(players=1)
    for c in (1, 2):
        assert not s.inq_up.any()
        all_cards(s, hand=[])
        act(game, s, A_PASS)
    assert (s.cycle == 3).all() and s.inq_up.all()


def test_end_of_cycle_penance_card_for_copernicans_at_the_threshold():
    game, s = new(players=1)
    s.susp[:, 0] = [6, 5, 9, 9]
    s.coper[:, 0] = [True, True, True, False]
    n0 = s.pen_n.copy()
    all_cards(s, hand=[], deck=[T(game, "abacus")] * 10)
    act(game, s, A_PASS)
    got = (s.pen_n < n0).tolist()
    assert got == [True, False, True, False]
    g = 0
    t = s.ctype[g, 0, s.nslots[g, 0] - 1]
    assert game.C.CARD_KIND[t] == 2 and zone_of(s, g, 0, t)[0] in (Z_DISCARD, Z_HAND)


def test_final_scoring_copernican_truth_bonus_and_suspicion_bands():
    game, s = new(players=1)
    s.cycle[:] = 5
    s.window[:, 0, 0, 0] = 0
    s.window[:, 0, 0, 1] = 1
    s.coper[:, 0] = [True, False, True, False]
    s.susp[:, 0] = [0, 4, 7, 11]
    s.phil[3, 0] = PH_STAKE
    all_cards(s, hand=[])
    act(game, s, A_PASS)
    assert s.vp_cat[:, 0, C_TRUTH].tolist() == [4, 0, 4, 0]
    assert s.vp_cat[:, 0, C_SUSPICION].tolist() == [0, -2, -5, -15]


def test_params_change_the_rules_abjure_drop_and_prison():
    game, s = new(params=Params(abjure_suspicion_drop=3, prison_at=5))
    s.susp[:, 0] = 9
    s.susp[:, 1] = 4
    act(game, s, A_ABJURE)
    assert s.susp[:, 0].tolist() == [6] * 4
    assert (s.phil[:, 1] == PH_PRISON).all()


def test_score_breakdown_sums_to_final_scores_and_vp_equals_vp_events():
    game = new()[0]
    s = game.play_random(np.arange(12), 5, 3)
    bd = game.score_breakdown(s)
    assert np.array_equal(sum(bd.values()), game.final_scores(s))
    assert np.array_equal(s.vp, s.vp_ev)


def test_turn_log_row_per_turn_with_main_action_and_suspicion():
    game, s = new(players=2)
    s.susp[:, 0] = 7
    act(game, s, A_ABJURE)
    spec = game.turn_spec()
    assert (s.turn_n == 1).all()
    row = s.turn_buf[0, 0]
    assert spec.columns[spec.index("main_action")].vocab[row[spec.index("main_action")]] == "abjure"
    assert row[spec.index("suspicion_after")] == 2
    assert spec.columns[spec.index("principle_after")].vocab[row[spec.index("principle_after")]] == "ptolemaic"
    assert row[spec.index("round")] == 1 and row[spec.index("seat")] == 0


def test_describe_action_and_event_in_words():
    game, s = new(players=2)
    s.susp[:, 0] = 7
    assert "abjures" in game.describe_action(s, 0, A_ABJURE)
    act(game, s, A_ABJURE)
    row = events(game, s, 0, "abjure")[0]
    assert game.describe_event(row) == "Seat 1 abjures in Cycle 1: Suspicion 7 -> 2, 1 Copernican(s) hit"
    sus = events(game, s, 0, "suspicion")[-1]
    assert game.describe_event(sus) == "Seat 2 Suspicion 2 -> 3 (abjure-other because of Seat 1)"
    for a in range(game.num_actions):
        assert game.action_label(a)


def test_progress_counts_turns_and_cycles():
    game, s = new(players=1)
    all_cards(s, hand=[])
    act(game, s, A_PASS)
    turns, cycles = game.progress(s)
    assert turns.tolist() == [1] * 4 and cycles.tolist() == [1] * 4


def test_tiebreak_compares_lower_suspicion_then_more_coins_in_order():
    # issue 18 item 12: the keys are compared in order, so no number of Coins outweighs one Suspicion
    from meeplelab.sim.schema import ranks
    game, s = new(players=3)
    s.susp[0] = [2, 1, 2]
    s.coins[0] = [1500, 0, 1500]
    s.susp[1] = [4, 4, 4]
    s.coins[1] = [3, 7, 3]
    vp = np.zeros((4, 3), np.int64)
    rk = ranks(vp, game.tiebreak(s))
    assert rk[0].tolist() == [2, 1, 2]                   # lower Suspicion wins; equal pairs share a place
    assert rk[1].tolist() == [2, 1, 2]                   # equal Suspicion: more Coins


def test_tiebreak_prefers_lower_suspicion_then_coins():
    game, s = new(players=2)
    s.susp[0] = [3, 5]
    s.coins[0] = [0, 9]
    tb = game.tiebreak(s)
    assert tb[0, 0] > tb[0, 1]
