"""Seed rules: the Effects table, every modifier (icons set on a test card's page)."""

import numpy as np

from meeplelab.sim.galileos_truth.content import ASTRONOMY, MATHEMATICS, PHILOSOPHY, PHYSICS
from meeplelab.sim.galileos_truth.state import (A_CARD, A_DONE, A_PASS, A_SUBJ, C_END_LOSS, C_ICONS, C_MASTERY, C_SEALS,
                                      P_BOOKSUBJ, P_MAIN, P_SEC, PH_ON_SPACE, PH_PRISON, PH_STAKE, PH_STANDING)

from .helpers import T, act, all_cards, card_icons, effects_now, legal, new, set_cards


def play_test_card(game, s, icons, icons_b=(), sep="none", extra_play=()):
    """Seat 0 plays ``star-charts`` (Astronomy, 1 Book) whose page is set to ``icons``."""
    card_icons(game, "star-charts", icons, icons_b, sep)
    all_cards(s, hand=[T(game, "star-charts")], play=list(extra_play))
    act(game, s, A_CARD + T(game, "star-charts"))
    act(game, s, A_DONE)


def test_coins_gain_and_red_number_pays():
    game, s = new()
    card_icons(game, "star-charts", ["coins -2", "research +1"])
    all_cards(s, hand=[T(game, "star-charts")])
    s.coins[:, 0] = [1, 2, 5, 0]
    assert legal(game, s, A_CARD + T(game, "star-charts")).tolist() == [False, True, True, False]
    act(game, s, [-1, A_CARD + T(game, "star-charts"), A_CARD + T(game, "star-charts"), -1])
    act(game, s, [-1, A_DONE, A_DONE, -1])
    assert s.coins[:, 0].tolist() == [1, 0, 3, 0]


def test_research_gain_and_red_number_pays():
    game, s = new()
    s.research[:, 0] = [3, 1, 3, 1]
    card_icons(game, "star-charts", ["research -2"])
    all_cards(s, hand=[T(game, "star-charts")])
    assert legal(game, s, A_CARD + T(game, "star-charts")).tolist() == [True, False, True, False]
    s.research[:, 0] = 3
    play_test_card(game, s, ["research +2"])
    assert s.research[:, 0].tolist() == [5] * 4


def test_red_number_is_paid_in_full_even_when_printed_before_the_gain_that_funds_it():
    # a payment is never skipped (A-GT-24 revised): printed before its gain, it waits for the gain
    game, s = new()
    s.research[:, 0] = 0
    s.coins[:, 0] = [0, 0, 3, 3]
    play_test_card(game, s, ["research -1", "coins -2", "research +1", "coins +2"])
    assert s.research[:, 0].tolist() == [0] * 4
    assert s.coins[:, 0].tolist() == [0, 0, 3, 3]


def test_vp_plus_adds_to_the_action_vp_and_x2_doubles_it():
    game, s = new()
    play_test_card(game, s, ["vp +2", "vp_plus 1", "vp_x2"])
    assert (s.phase == P_SEC).all()                            # the order matters here, so it is asked (A-GT-25)
    effects_now(game, s)                                       # printed order
    assert s.vp[:, 0].tolist() == [6] * 4                      # (2 + 1) x 2
    assert s.vp_cat[:, 0, C_ICONS].tolist() == [6] * 4


def test_red_vp_with_end_game_sign_is_lost_at_the_end():
    game, s = new(players=1)
    s.cycle[:] = 5
    play_test_card(game, s, ["vp_end -3"])
    assert s.vp[:, 0].tolist() == [0] * 4                      # nothing lost yet
    act(game, s, A_PASS)
    assert s.over.all()
    assert s.vp_cat[:, 0, C_END_LOSS].tolist() == [-3] * 4


def test_vp_times_level_is_two_per_level_gained():
    game, s = new()
    s.level[:, 0] = [1, 2, 3, 4]
    play_test_card(game, s, ["vp_xlevel"])
    assert s.vp[:, 0].tolist() == [0, 2, 4, 6]


def test_vp_lvl_depends_on_the_level():
    game, s = new()
    s.level[:, 0] = [1, 2, 3, 4]
    play_test_card(game, s, ["vp_lvl 1 3 5 9"])
    assert s.vp[:, 0].tolist() == [1, 3, 5, 9]


def test_suspicion_down_and_times_different_subjects_in_play_purple_ignored_up_to_four():
    game, s = new()
    s.susp[:, 0] = 9
    extra = [[T(game, "pendulum"), T(game, "starry-messenger")],            # Physics, purple
             [T(game, "pendulum"), T(game, "euclid"), T(game, "dialogue")],  # + Math, Philosophy
             [T(game, "lunar-notes")],                                      # same Subject as the card
             [T(game, "penance"), T(game, "wild-compendium")]]              # not Treatises of a Subject
    card_icons(game, "star-charts", ["susp_down_diff"])
    for g in range(4):
        set_cards(s, g, 0, hand=[T(game, "star-charts")], play=extra[g])
    act(game, s, A_CARD + T(game, "star-charts"))
    act(game, s, A_DONE)
    assert s.susp[:, 0].tolist() == [7, 5, 8, 8]


def test_suspicion_down_plain_number():
    game, s = new()
    s.susp[:, 0] = [5, 1, 0, 12]
    play_test_card(game, s, ["susp_down 2"])
    assert s.susp[:, 0].tolist() == [3, 0, 0, 10]


def test_suspicion_up_with_dark_base_raises_every_other_player():
    game, s = new(players=3)
    s.susp[:, :] = 2
    s.coper[:, 1] = False
    play_test_card(game, s, ["susp_up_others 1"])
    assert s.susp[0].tolist() == [2, 3, 3]


def test_suspicion_up_with_copernican_coin_raises_every_copernican():
    game, s = new(players=3)
    s.susp[:, :] = 2
    s.coper[:, :] = [[True, False, True], [False, True, False], [True, True, True], [False, False, False]]
    play_test_card(game, s, ["susp_up_copernicans 2"])
    assert s.susp.tolist() == [[4, 2, 4], [2, 4, 2], [4, 4, 4], [2, 2, 2]]


def test_books_of_that_subject_gained():
    game, s = new()
    s.books[:, 0, :] = 0
    play_test_card(game, s, ["books mathematics 2"])
    assert s.books[:, 0, MATHEMATICS].tolist() == [2] * 4


def test_red_books_need_the_level_requirement_and_are_paid():
    game, s = new()
    card_icons(game, "star-charts", ["books_pay physics 2 2", "vp +3"])
    all_cards(s, hand=[T(game, "star-charts")])
    s.level[:, 0] = [1, 2, 2, 3]
    s.books[:, 0, PHYSICS] = [5, 1, 3, 2]
    assert legal(game, s, A_CARD + T(game, "star-charts")).tolist() == [False, False, True, True]
    act(game, s, [-1, -1, A_CARD + T(game, "star-charts"), A_CARD + T(game, "star-charts")])
    act(game, s, [-1, -1, A_DONE, A_DONE])
    assert s.books[2:, 0, PHYSICS].tolist() == [1, 0]
    assert s.vp[2:, 0].tolist() == [3, 3]


def test_any_book_with_equals_gives_that_many_books_all_in_one_subject():
    game, s = new()
    s.books[:, 0, :] = 0
    play_test_card(game, s, ["book_any 3"])
    assert (s.phase == P_BOOKSUBJ).all()
    act(game, s, [A_SUBJ + PHYSICS, A_SUBJ + PHILOSOPHY, A_SUBJ + PHYSICS, A_SUBJ + ASTRONOMY])
    assert s.books[:, 0, PHYSICS].tolist() == [3, 0, 3, 0]
    assert s.books[:, 0, PHILOSOPHY].tolist() == [0, 3, 0, 0]
    assert s.books[:, 0, ASTRONOMY].tolist() == [1, 1, 1, 4]      # +1 from the card's own spine


def test_any_book_equals_times_different_subjects_one_per_subject_in_play_all_in_one_subject():
    game, s = new()
    s.books[:, 0, :] = 0
    play_test_card(game, s, ["book_diff"], extra_play=[T(game, "pendulum"), T(game, "euclid"),
                                                       T(game, "starry-messenger")])
    act(game, s, A_SUBJ + PHILOSOPHY)
    assert s.books[:, 0, PHILOSOPHY].tolist() == [3] * 4            # Astronomy, Physics, Mathematics


def test_book_with_up_arrow_moves_a_subject_marker_to_the_first_space_of_its_next_level():
    game, s = new()
    s.books[:, 0, :] = [[2, 7, 12, 0]] * 4
    play_test_card(game, s, ["book_up"])
    m = game.legal_action_mask(s)
    assert m[:, A_SUBJ + MATHEMATICS].sum() == 0                     # already at Level III
    act(game, s, [A_SUBJ + PHYSICS, A_SUBJ + PHILOSOPHY, A_SUBJ + ASTRONOMY, A_SUBJ + PHYSICS])
    assert s.books[:, 0, PHYSICS].tolist() == [10, 7, 7, 10]
    assert s.books[:, 0, PHILOSOPHY].tolist() == [0, 5, 0, 0]
    assert s.books[:, 0, ASTRONOMY].tolist() == [3, 3, 5, 3]         # 2 + 1 spine -> Level I -> 5


def test_mastery_track_seal_on_leftmost_free_space_and_score_it():
    game, s = new()
    s.mastery[:, 0, 0] = [-1, 1, 1, -1]
    play_test_card(game, s, ["mastery 0"])
    assert s.vp_cat[:, 0, C_MASTERY].tolist() == [6, 4, 4, 6]
    assert s.mastery[0, 0, 0] == 0 and s.mastery[1, 0, 1] == 0
    assert s.mentor[:, 0].sum(1).tolist() == [11] * 4


def test_mentor_seal_is_put_beside_your_board():
    game, s = new(players=1)
    s.cycle[:] = 5
    play_test_card(game, s, ["mentor_seal"])
    assert s.beside[:, 0].tolist() == [1] * 4 and s.mentor[:, 0].sum(1).tolist() == [11] * 4
    act(game, s, A_PASS)
    assert s.vp_cat[:, 0, C_SEALS].tolist() == [1] * 4


def test_take_philosopher_back_from_a_space_never_from_prison_or_stake():
    game, s = new()
    s.phil[:, 0] = [PH_ON_SPACE, PH_PRISON, PH_STAKE, PH_STANDING]
    play_test_card(game, s, ["phil_back"])
    assert s.phil[:, 0].tolist() == [PH_STANDING, PH_PRISON, PH_STAKE, PH_STANDING]


def test_physics_and_mathematics_income_tubes_give_your_track_income():
    game, s = new()
    s.books[:, 0, PHYSICS] = [0, 5, 10, 0]
    s.books[:, 0, MATHEMATICS] = [0, 0, 5, 12]
    s.coins[:, 0] = 0
    s.research[:, 0] = 0
    play_test_card(game, s, ["income_physics", "income_mathematics"])
    assert s.coins[:, 0].tolist() == [1, 2, 3, 1]
    assert s.research[:, 0].tolist() == [1, 1, 2, 3]
