"""The assumed game around the seed (A-GT-nn): Cycles, Income, Suspicion track, Penance, scoring, logs."""

import numpy as np
from numba import njit

from meeplelab.sim.core.position import Position
from meeplelab.sim.galileos_truth import GalileosTruth, Params, rules
from meeplelab.sim.galileos_truth.content import PHYSICS
from meeplelab.sim.galileos_truth.state import (C_SUSPICION, C_TRUTH, PH_LYING, PH_PRISON, PH_STAKE, PH_STANDING,
                                                Z_DISCARD, Z_HAND, arrays)

from .helpers import GAMES, card, card_icons, positions, zone_count, zone_of


def field(ps, name, seat=None):
    """Field ``name`` (of ``seat``) in each position of ``ps``."""
    return [pos.get(name, seat=seat) for pos in ps]


def pass_all(pos, players):
    pos.act(*["pass"] * players)


def test_game_has_five_cycles_then_final_scoring():
    ps = positions(GalileosTruth(), players=2)
    for c in range(1, 6):
        assert field(ps, "cycle") == [c] * 4 and not any(field(ps, "over"))
        for pos in ps:
            pos.give("cards", 0, hand=[])
            pos.give("cards", 1, hand=[])
            pass_all(pos, 2)
    assert all(field(ps, "over"))
    assert all(pos.legal() == [] for pos in ps)


def test_first_player_rotates_each_cycle():
    ps = positions(GalileosTruth(), players=3)
    assert field(ps, "to_act") == [0] * 4
    for pos in ps:
        pass_all(pos, 3)
    assert field(ps, "to_act") == [1] * 4 and field(ps, "first") == [1] * 4
    for pos in ps:
        pass_all(pos, 3)
    assert field(ps, "to_act") == [2] * 4


def test_passed_player_is_out_of_the_cycle():
    game = GalileosTruth()
    ps = positions(game, players=3)
    for pos in ps:
        pos.act("pass")                        # seat 0 passes
        pos.act("pass")                        # seat 1 passes
    assert field(ps, "to_act") == [2] * 4
    for pos in ps:
        pos.give("cards", 0, hand=[])
        pos.give("cards", 2, hand=["abacus"] * 2)
        pos.act(card(game, "abacus"), "done")
    assert field(ps, "to_act") == [2] * 4        # seats 0 and 1 are skipped


@njit(cache=True)
def _start_cycle(S, C, prm, g):
    rules.start_cycle(S, C, prm, g)


def test_cycle_start_draws_up_to_the_hand_size():
    # "a hand of 5 drawn at the start of every Cycle" (A-GT-04) is up to 5, never 5 more
    game = GalileosTruth()
    ps = positions(game, players=1)
    for pos, held in zip(ps, [5, 3, 7, 0]):
        pos.give("cards", 0, hand=["abacus"] * held, deck=["abacus"] * 8)
        # the kernel rules.start_cycle is called directly (no action starts a Cycle without ending one): raw arrays
        _start_cycle(arrays(pos.state), game.C, game.param_vector, 0)
    assert [zone_count(pos, Z_HAND) for pos in ps] == [5, 5, 7, 5]
    assert field(ps, "deck_n", seat=0) == [8, 6, 8, 3]


def test_income_phase_and_hand_of_five_at_start_of_cycle():
    ps = positions(GalileosTruth(), players=1)
    assert [zone_count(pos, Z_HAND) for pos in ps] == [5] * 4
    assert field(ps, "coins", seat=0) == [2 + 1] * 4 and field(ps, "research", seat=0) == [2 + 1] * 4  # + Level I
    for pos, b in zip(ps, [0, 5, 10, 0]):
        pos.put("books", PHYSICS, b, seat=0)
        pos.set(seat=0, coins=0)
        pos.act("pass")
    assert field(ps, "coins", seat=0) == [1, 2, 3, 1]
    assert [zone_count(pos, Z_HAND) for pos in ps] == [5] * 4


def test_prison_when_suspicion_reaches_prison_threshold_and_stake_at_its_threshold():
    game = GalileosTruth()
    ps = positions(game)
    card_icons(game, "star-charts", ["susp_up 1"])
    for pos, su in zip(ps, [7, 6, 11, 10]):
        pos.set(seat=0, susp=su)
        pos.give("cards", 0, hand=["star-charts"])
        pos.act(card(game, "star-charts"), "done")
    assert field(ps, "phil", seat=0) == [PH_PRISON, PH_STANDING, PH_STAKE, PH_STANDING]
    assert len(ps[0].events("prison")) == 1 and len(ps[2].events("stake")) == 1


def test_prison_lasts_the_rest_of_the_cycle_and_all_of_the_next():
    ps = positions(GalileosTruth(), players=1)
    for pos in ps:
        pos.set(seat=0, phil=PH_PRISON)
        pos.give("cards", 0, hand=[])
        pos.act("pass")
    assert field(ps, "phil", seat=0) == [PH_LYING] * 4
    for pos in ps:
        pos.give("cards", 0, hand=[])
        pos.act("pass")
    assert field(ps, "phil", seat=0) == [PH_STANDING] * 4


def test_stake_philosopher_is_lost_for_the_game():
    ps = positions(GalileosTruth(), players=1)
    for pos in ps:
        pos.set(seat=0, phil=PH_STAKE)
        pos.give("cards", 0, hand=[])
        pos.act("pass")
    assert field(ps, "phil", seat=0) == [PH_STAKE] * 4


def test_inquisition_token_turns_face_up_at_start_of_period_two():
    ps = positions(GalileosTruth(), players=1)
    for c in (1, 2):
        assert not any(field(ps, "inq_up"))
        for pos in ps:
            pos.give("cards", 0, hand=[])
            pos.act("pass")
    assert field(ps, "cycle") == [3] * 4 and all(field(ps, "inq_up"))


def test_end_of_cycle_penance_card_for_copernicans_at_the_threshold():
    game = GalileosTruth()
    ps = positions(game, players=1)
    for pos, su, co in zip(ps, [6, 5, 9, 9], [True, True, True, False]):
        pos.set(seat=0, susp=su, coper=co)
    n0 = field(ps, "pen_n")
    for pos in ps:
        pos.give("cards", 0, hand=[], deck=["abacus"] * 10)
        pos.act("pass")
    got = [n < m for n, m in zip(field(ps, "pen_n"), n0)]
    assert got == [True, False, True, False]
    pos = ps[0]
    t = pos.get("ctype", seat=0)[pos.get("nslots", seat=0) - 1]
    assert game.C.CARD_KIND[t] == 2 and zone_of(pos, t)[0] in (Z_DISCARD, Z_HAND)


def test_final_scoring_copernican_truth_bonus_and_suspicion_bands():
    ps = positions(GalileosTruth(), players=1)
    for g, pos, co, su in zip(GAMES, ps, [True, False, True, False], [0, 4, 7, 11]):
        pos.set(cycle=5)
        pos.put("window", (0, 0), 0, seat=0)
        pos.put("window", (0, 1), 1, seat=0)
        pos.set(seat=0, coper=co, susp=su)
        if g == 3:
            pos.set(seat=0, phil=PH_STAKE)
        pos.give("cards", 0, hand=[])
        pos.act("pass")
    assert [v[C_TRUTH] for v in field(ps, "vp_cat", seat=0)] == [4, 0, 4, 0]
    assert [v[C_SUSPICION] for v in field(ps, "vp_cat", seat=0)] == [0, -2, -5, -15]


def test_params_change_the_rules_abjure_drop_and_prison():
    ps = positions(GalileosTruth(params=Params(abjure_suspicion_drop=3, prison_at=5)))
    for pos in ps:
        pos.set(seat=0, susp=9)
        pos.set(seat=1, susp=4)
        pos.act("abjure")
    assert field(ps, "susp", seat=0) == [6] * 4
    assert field(ps, "phil", seat=1) == [PH_PRISON] * 4


def test_score_breakdown_sums_to_final_scores_and_vp_equals_vp_events():
    game = GalileosTruth()
    for g in range(12):
        # game g of seed 3 played to the end with random legal actions (each game's own random stream)
        pos = Position(game, game.play_random(np.array([g]), 5, 3))
        sc = pos.scores()
        assert np.array_equal(sum(np.array(v) for k, v in sc.items() if k != "vp"), game.final_scores(pos.state)[0])
        assert [pos.get("vp", seat=p) for p in range(3)] == [pos.get("vp_ev", seat=p) for p in range(3)]


def test_turn_log_row_per_turn_with_main_action_and_suspicion():
    game = GalileosTruth()
    ps = positions(game, players=2)
    for pos in ps:
        pos.set(seat=0, susp=7)
        pos.act("abjure")
    assert [len(pos.turns()) for pos in ps] == [1] * 4
    row = ps[0].turns()[0]
    assert row["main_action"] == "abjure"
    assert row["suspicion_after"] == 2
    assert row["principle_after"] == "ptolemaic"
    assert row["round"] == 1 and row["seat"] == 0


def test_describe_action_and_event_in_words():
    game = GalileosTruth()
    ps = positions(game, players=2)
    pos = ps[0]
    pos.set(seat=0, susp=7)
    pend = pos.pending()
    assert "abjures" in pend.words[pend.options.index("abjure")]
    pos.act("abjure")
    row = pos.events("abjure")[0]
    assert game.describe_event(row) == "Seat 1 abjures in Cycle 1: Suspicion 7 -> 2, 1 Copernican(s) hit"
    sus = pos.events("suspicion")[-1]
    assert game.describe_event(sus) == "Seat 2 Suspicion 2 -> 3 (abjure-other because of Seat 1)"
    for a in range(game.num_actions):
        assert game.action_label(a)


def test_progress_counts_turns_and_cycles():
    game = GalileosTruth()
    ps = positions(game, players=1)
    for pos in ps:
        pos.give("cards", 0, hand=[])
        pos.act("pass")
    # Game.progress (the games table's turns and rounds) is the API under test: it takes the state
    got = [game.progress(pos.state) for pos in ps]
    turns, cycles = [int(t[0]) for t, _ in got], [int(c[0]) for _, c in got]
    assert turns == [1] * 4 and cycles == [1] * 4


def test_tiebreak_compares_lower_suspicion_then_more_coins_in_order():
    # the keys are compared in order, so no number of Coins outweighs one Suspicion
    from meeplelab.sim.schema import ranks
    game = GalileosTruth()
    ps = positions(game, players=3)[:2]
    for pos, susp, coins in zip(ps, ([2, 1, 2], [4, 4, 4]), ([1500, 0, 1500], [3, 7, 3])):
        for p in range(3):
            pos.set(seat=p, susp=susp[p], coins=coins[p])
    vp = np.zeros((1, 3), np.int64)
    # Game.tiebreak (the key ranks compares) is the API under test: it takes the state
    rk = [ranks(vp, game.tiebreak(pos.state))[0].tolist() for pos in ps]
    assert rk[0] == [2, 1, 2]                   # lower Suspicion wins; equal pairs share a place
    assert rk[1] == [2, 1, 2]                   # equal Suspicion: more Coins


def test_tiebreak_prefers_lower_suspicion_then_coins():
    game = GalileosTruth()
    pos = positions(game, players=2)[0]
    pos.set(seat=0, susp=3, coins=0)
    pos.set(seat=1, susp=5, coins=9)
    # Game.tiebreak is the API under test: it takes the state
    tb = game.tiebreak(pos.state)
    assert tb[0, 0] > tb[0, 1]
