"""Seed rules: resolving icons and the Main Actions (one test per rule)."""

import numpy as np
import pytest

from meeplelab.sim.core import IllegalActionError
from meeplelab.sim.galileos_truth.content import ASTRONOMY, MATHEMATICS, PHILOSOPHY, PHYSICS
from meeplelab.sim.galileos_truth.state import (A_ABJURE, A_BOARD, A_CARD, A_DECKTOP, A_DONE, A_EFFECTS, A_GROUP, A_ICON, A_INV, A_PASS, A_PAY, A_SEC, A_SPACE,
                                      A_SUBJ, A_UPGRADE, P_BOOKSUBJ, P_GROUP, P_MAIN, P_PENPAY, P_PURPLE, P_SEC,
                                      P_STACK, TR_PLAY, PH_LYING, PH_ON_SPACE, PH_PRISON, PH_STAKE, PH_STANDING, Z_DECK,
                                      Z_DISCARD, Z_HAND, Z_PLAY, Z_REMOVED)

from .helpers import (BOARD, INV, SPACE, T, act, all_cards, card_icons, events, legal, new, set_cards, set_icons, zone_count,
                      zone_of)

SEC_WRITE, SEC_DRAW = 0, 5


# ---------------------------------------------------------------- resolving icons
def test_unframed_icons_are_mandatory_effects():
    game, s = new()
    s.coins[:, 0] = 0
    act(game, s, A_SPACE + SPACE(game, "market"))          # unframed: Coins +3
    assert s.coins[:, 0].tolist() == [3] * 4
    assert (s.to_act == 1).all() and (s.phase == P_MAIN).all()   # no decision asked: the turn is over


def test_framed_icons_are_optional_secondary_actions():
    game, s = new()
    all_cards(s, hand=[], deck=[T(game, "abacus")] * 3)
    act(game, s, A_SPACE + SPACE(game, "printing-house"))  # Write, Draw (both framed)
    assert (s.phase == P_SEC).all()
    assert legal(game, s, A_DONE).all() and legal(game, s, A_SEC + SEC_DRAW).all()
    act(game, s, [A_DONE, A_DONE, A_SEC + SEC_DRAW, A_SEC + SEC_DRAW])
    hands = [zone_count(s, g, 0, Z_HAND) for g in range(4)]
    assert hands[:2] == [0, 0] and hands[2:] == [1, 1]


def test_icons_activate_in_the_order_you_like():
    game, s = new()
    ph = SPACE(game, "printing-house")
    set_icons(game, int(game.C.SPACE_ISET[ph]), a=["vp_x2", "write"])  # x2 doubles the action's VP so far
    b = BOARD(game, "b0-0")
    s.research[:, 0] = 9
    s.books[:, 0, :] = 5
    act(game, s, A_SPACE + ph)
    assert (s.phase == P_SEC).all()
    # the mandatory Effect may go first or after the Secondary Action; skipping it is not an option
    assert legal(game, s, A_EFFECTS).all() and legal(game, s, A_SEC + SEC_WRITE).all()
    assert not legal(game, s, A_DONE).any()
    act(game, s, [A_EFFECTS, A_EFFECTS, A_SEC + SEC_WRITE, A_SEC + SEC_WRITE])
    assert s.vp[:2, 0].tolist() == [0, 0]                  # x2 of nothing yet
    assert legal(game, s, A_DONE)[:2].all() and not legal(game, s, A_EFFECTS)[:2].any()
    act(game, s, [A_SEC + SEC_WRITE, A_SEC + SEC_WRITE, A_BOARD + b, A_BOARD + b])
    act(game, s, [A_BOARD + b, A_BOARD + b, A_DECKTOP, A_DECKTOP])
    act(game, s, [A_DECKTOP, A_DECKTOP, -1, -1])
    seal_vp = int(s.vp[0, 0])
    assert seal_vp > 0
    assert s.vp[:, 0].tolist() == [seal_vp, seal_vp, 2 * seal_vp, 2 * seal_vp]   # Write first: x2 doubles it
    assert (s.to_act == 1).all() and (s.phase == P_MAIN).all()


def test_icons_activate_in_the_order_you_like_also_against_the_printed_order():
    # issue 14 fault 3: "x2" printed before "+2 VP"; in printed order 2 VP, +2 first then x2 gives 4
    game, s = new()
    mk = SPACE(game, "market")
    set_icons(game, int(game.C.SPACE_ISET[mk]), a=["vp_x2", "vp +2"])
    act(game, s, A_SPACE + mk)
    assert (s.phase == P_SEC).all()
    assert legal(game, s, A_ICON + 0).all() and legal(game, s, A_ICON + 1).all() and legal(game, s, A_EFFECTS).all()
    assert not legal(game, s, A_DONE).any()                 # mandatory: no skipping
    act(game, s, [A_ICON + 1, A_ICON + 1, A_EFFECTS, A_ICON + 0])
    assert s.vp[:, 0].tolist() == [4, 4, 2, 2]
    assert (s.to_act == 1).all() and (s.phase == P_MAIN).all()


def test_icons_order_is_offered_only_where_it_changes_the_outcome():
    # Suspicion +1 and -1: at 7 the order decides Prison (8), at 3 it changes nothing and nothing is asked
    game, s = new()
    mk = SPACE(game, "market")
    set_icons(game, int(game.C.SPACE_ISET[mk]), a=["susp_up 1", "susp_down 1"])
    s.susp[:, 0] = [7, 7, 7, 3]
    act(game, s, A_SPACE + mk)
    assert s.phase.tolist() == [P_SEC, P_SEC, P_SEC, P_MAIN]
    assert s.susp[3, 0] == 3
    act(game, s, [A_ICON + 1, A_ICON + 0, A_EFFECTS, -1])     # down first / up first / printed (up first)
    assert s.susp[:, 0].tolist() == [7, 7, 7, 3]
    assert s.phil[:, 0].tolist() == [PH_ON_SPACE, PH_PRISON, PH_PRISON, PH_ON_SPACE]


def test_a_pending_payment_is_made_before_any_secondary_action():
    game, s = new()
    ph = SPACE(game, "printing-house")
    set_icons(game, int(game.C.SPACE_ISET[ph]), a=["coins -2", "draw", "vp +1"])
    all_cards(s, hand=[], deck=[T(game, "abacus")] * 3)
    s.coins[:, 0] = [2, 3, 4, 5]
    act(game, s, A_SPACE + ph)
    # the red Coins are paid (and the other Effects resolve) before Draw can be chosen
    assert s.coins[:, 0].tolist() == [0, 1, 2, 3]
    assert s.vp[:, 0].tolist() == [1] * 4
    assert (s.phase == P_SEC).all()
    assert not legal(game, s, A_EFFECTS).any() and legal(game, s, A_DONE).all()


def test_plain_line_means_pick_one_group():
    game, s = new()
    all_cards(s, hand=[T(game, "lunar-notes")], deck=[T(game, "abacus")] * 3)   # Coins +1 | Draw
    s.coins[:, 0] = 0
    act(game, s, A_CARD + T(game, "lunar-notes"))
    act(game, s, A_DONE)
    assert (s.phase == P_GROUP).all()
    assert legal(game, s, A_GROUP).all() and legal(game, s, A_GROUP + 1).all()
    assert not legal(game, s, A_GROUP + 2).any()        # no "both" across a plain line
    act(game, s, [A_GROUP, A_GROUP, A_GROUP + 1, A_GROUP + 1])
    assert s.coins[:, 0].tolist() == [1, 1, 0, 0]
    assert s.phase.tolist()[2:] == [P_SEC, P_SEC]


def test_suspicion_line_one_group_free_or_both_after_one_suspicion():
    game, s = new()
    all_cards(s, hand=[T(game, "euclid")])                # Research +1 / suspicion line / any Book
    s.susp[:, 0] = 2
    s.research[:, 0] = 0
    act(game, s, A_CARD + T(game, "euclid"))
    act(game, s, A_DONE)
    assert legal(game, s, A_GROUP + 2).all()
    act(game, s, [A_GROUP, A_GROUP + 2, A_GROUP, A_GROUP + 2])
    assert s.susp[:, 0].tolist() == [2, 3, 2, 3]
    assert s.research[:, 0].tolist() == [1, 1, 1, 1]
    assert s.phase.tolist() == [P_MAIN, P_BOOKSUBJ, P_MAIN, P_BOOKSUBJ]


def test_principle_split_does_the_group_matching_the_coin():
    game, s = new()
    all_cards(s, hand=[T(game, "aristotle")])           # Copernican: Coins +1, Suspicion -1 | Ptolemaic: VP +1
    s.coper[:, 0] = [True, True, False, False]
    s.coins[:, 0] = 0
    s.susp[:, 0] = 4
    act(game, s, A_CARD + T(game, "aristotle"))
    act(game, s, A_DONE)
    assert (s.phase == P_MAIN).all()                    # no choice offered
    assert s.coins[:, 0].tolist() == [1, 1, 0, 0]
    assert s.susp[:, 0].tolist() == [3, 3, 4, 4]
    assert s.vp[:, 0].tolist() == [0, 0, 1, 1]


def test_empty_deck_draws_what_it_can_reshuffles_discard_and_keeps_drawing():
    game, s = new(players=1)
    a = T(game, "abacus")
    all_cards(s, hand=[], deck=[a, a], discard=[a] * 6)
    act(game, s, A_PASS)                                # End of Cycle, next Cycle draws a hand of 5
    assert (s.cycle == 2).all()
    for g in range(4):
        assert zone_count(s, g, 0, Z_HAND) == 5
        assert zone_count(s, g, 0, Z_DECK) == 3 and s.deck_n[g, 0] == 3
        assert zone_count(s, g, 0, Z_DISCARD) == 0


# ---------------------------------------------------------------- Abjure
def test_abjure_turns_coin_to_ptolemaic_and_is_final():
    game, s = new(players=1)
    act(game, s, A_ABJURE)
    assert not s.coper[:, 0].any()
    assert (s.abjure_cycle[:, 0] == 1).all()
    assert not legal(game, s, A_ABJURE).any()          # same seat's next turn: no way back


def test_abjure_not_allowed_in_cycle_five():
    game, s = new()
    s.cycle[:] = [4, 5, 4, 5]
    assert legal(game, s, A_ABJURE).tolist() == [True, False, True, False]


def test_abjure_reduces_own_suspicion_by_five():
    game, s = new()
    s.susp[:, 0] = [7, 5, 3, 12]
    act(game, s, A_ABJURE)
    assert s.susp[:, 0].tolist() == [2, 0, 0, 7]
    ab = events(game, s, 0, "abjure")[0]
    assert (ab["before"], ab["after"], ab["cycle"]) == (7, 2, 1)


def test_abjure_raises_other_copernicans_suspicion_by_one():
    game, s = new(players=3)
    s.susp[:, :] = [[6, 3, 4]] * 4
    s.coper[:, 2] = False                                # seat 2 already Ptolemaic
    act(game, s, A_ABJURE)
    assert s.susp[:, 1].tolist() == [4] * 4
    assert s.susp[:, 2].tolist() == [4] * 4
    assert events(game, s, 0, "abjure")[0]["amount"] == 1   # Copernicans hit


# ---------------------------------------------------------------- Play Treatise Cards
def test_stacked_cards_must_share_one_subject():
    game, s = new()
    all_cards(s, hand=[T(game, "star-charts"), T(game, "lunar-notes"), T(game, "pendulum")])
    act(game, s, A_CARD + T(game, "star-charts"))
    assert (s.phase == P_STACK).all()
    assert legal(game, s, A_CARD + T(game, "lunar-notes")).all()
    assert not legal(game, s, A_CARD + T(game, "pendulum")).any()


def test_purple_card_matches_the_subject_of_the_stack():
    game, s = new()
    all_cards(s, hand=[T(game, "star-charts"), T(game, "starry-messenger")])
    act(game, s, A_CARD + T(game, "star-charts"))
    assert legal(game, s, A_CARD + T(game, "starry-messenger")).all()
    act(game, s, A_CARD + T(game, "starry-messenger"))
    act(game, s, A_DONE)
    assert (s.phase != P_PURPLE).all()
    assert s.books[:, 0, ASTRONOMY].tolist() == [2] * 4     # 1 + 1 spine Books, all in Astronomy


def test_purple_card_alone_takes_chosen_subject():
    game, s = new()
    all_cards(s, hand=[T(game, "starry-messenger")])
    act(game, s, A_CARD + T(game, "starry-messenger"))
    act(game, s, A_DONE)
    assert (s.phase == P_PURPLE).all()
    act(game, s, [A_SUBJ + MATHEMATICS, A_SUBJ + PHYSICS, A_SUBJ + MATHEMATICS, A_SUBJ + PHILOSOPHY])
    assert s.books[:, 0, MATHEMATICS].tolist() == [1, 0, 1, 0]
    assert s.books[:, 0, PHYSICS].tolist() == [0, 1, 0, 0]
    assert s.books[:, 0, PHILOSOPHY].tolist() == [0, 0, 0, 1]


def test_purple_cards_only_with_purple_take_one_chosen_subject():
    game, s = new()
    all_cards(s, hand=[T(game, "starry-messenger"), T(game, "wild-compendium")])
    act(game, s, A_CARD + T(game, "starry-messenger"))
    act(game, s, A_CARD + T(game, "wild-compendium"))
    act(game, s, A_DONE)
    assert (s.phase == P_PURPLE).all()
    act(game, s, A_SUBJ + PHILOSOPHY)
    assert s.books[:, 0, PHILOSOPHY].tolist() == [3] * 4    # 1 + 2


def test_stack_gains_every_book_on_every_visible_spine_in_its_subject():
    game, s = new()
    all_cards(s, hand=[T(game, "star-charts"), T(game, "lunar-notes"), T(game, "sidereus-nuncius")])
    act(game, s, A_CARD + T(game, "star-charts"))
    act(game, s, A_CARD + T(game, "lunar-notes"))
    act(game, s, A_CARD + T(game, "sidereus-nuncius"))
    act(game, s, A_DONE)
    assert s.books[:, 0, ASTRONOMY].tolist() == [4] * 4
    assert s.books[:, 0, PHYSICS].sum() == 0


def test_only_the_active_top_card_icons_activate():
    game, s = new()
    pend, fall = T(game, "pendulum"), T(game, "falling-bodies")   # Coins +1 / Coins +2 & Suspicion +1
    all_cards(s, hand=[pend, fall])
    s.coins[:, 0] = 0
    s.susp[:, 0] = 2
    act(game, s, [A_CARD + pend, A_CARD + pend, A_CARD + fall, A_CARD + fall])
    act(game, s, [A_CARD + fall, A_CARD + fall, A_CARD + pend, A_CARD + pend])
    act(game, s, A_DONE)
    assert s.coins[:, 0].tolist() == [2, 2, 1, 1]
    assert s.susp[:, 0].tolist() == [3, 3, 2, 2]
    assert s.books[:, 0, PHYSICS].tolist() == [2] * 4


def test_other_cards_pages_are_ignored_so_an_unpayable_page_may_go_under_the_active_card():
    # issue 14 fault 1: solo; discourse-on-floating (Mathematics; VP x Level, Research -1) and abacus
    # (Mathematics; Research +1); Research 0. Only the Active card's page must be payable.
    game, s = new(players=1)
    dof, ab = T(game, "discourse-on-floating"), T(game, "abacus")
    all_cards(s, hand=[dof, ab])
    s.research[:, 0] = 0
    s.books[:, 0, :] = 0
    assert legal(game, s, A_CARD + dof).all()            # it can go under abacus
    act(game, s, A_CARD + dof)
    assert (s.phase == P_STACK).all()
    assert not legal(game, s, A_DONE).any()              # it cannot stay the Active card: Research -1 unpaid
    assert legal(game, s, A_CARD + ab).all()
    act(game, s, A_CARD + ab)
    act(game, s, A_DONE)
    assert s.books[:, 0, MATHEMATICS].tolist() == [4] * 4    # 3 + 1 spine Books
    assert s.research[:, 0].tolist() == [1] * 4              # abacus' page only
    assert s.vp[:, 0].tolist() == [0] * 4
    # abacus first: discourse-on-floating on top would be the Active card, whose Research -1 cannot be paid
    game, s = new(players=1)
    all_cards(s, hand=[dof, ab])
    s.research[:, 0] = 0
    act(game, s, A_CARD + ab)
    assert not legal(game, s, A_CARD + dof).any() and legal(game, s, A_DONE).all()
    # alone with Research 0 it cannot be played at all; with Research 1 it can
    game, s = new(players=1)
    all_cards(s, hand=[dof])
    s.research[:, 0] = [0, 1, 0, 1]
    assert legal(game, s, A_CARD + dof).tolist() == [False, True, False, True]


def test_what_an_ongoing_invention_gives_on_a_play_counts_before_the_active_card_pays():
    # the Ongoing Invention fires on the play, before the Active card's icons: its Books and Research pay them
    game, s = new()
    inv = INV(game, "pendulum-clock")
    game.C.INV_TRIG[inv] = TR_PLAY                       # Ongoing: each time you play Treatise Cards
    set_icons(game, int(game.C.INV_ISET[inv]), a=["books physics 2", "research +1"])
    card_icons(game, "star-charts", ["books_pay physics 2 1", "research -1", "vp +1"])
    all_cards(s, hand=[T(game, "star-charts")])
    s.inv_owner[:, inv] = [0, 0, -1, -1]
    s.books[:, 0, :] = 0
    s.research[:, 0] = 0
    assert legal(game, s, A_CARD + T(game, "star-charts")).tolist() == [True, True, False, False]
    act(game, s, [A_CARD + T(game, "star-charts")] * 2 + [-1, -1])
    act(game, s, [A_DONE, A_DONE, -1, -1])
    assert s.vp[:2, 0].tolist() == [1, 1] and s.books[:2, 0, PHYSICS].tolist() == [0, 0]
    assert s.research[:2, 0].tolist() == [0, 0]


def test_spine_books_of_this_stack_count_in_its_own_subject_for_the_active_card():
    # a stale Subject of an earlier turn's stack must not decide where this stack's Books go
    game, s = new()
    card_icons(game, "abacus", ["books_pay mathematics 1 1", "vp +1"])
    all_cards(s, hand=[T(game, "abacus")])              # 1 Mathematics Book on its spine
    s.books[:, 0, :] = 0
    s.stack_subj[:] = PHYSICS                            # left from an earlier Physics stack
    s.stack_n[:] = 0
    assert legal(game, s, A_CARD + T(game, "abacus")).all()
    act(game, s, A_CARD + T(game, "abacus"))
    act(game, s, A_DONE)
    assert s.vp[:, 0].tolist() == [1] * 4 and s.books[:, 0, MATHEMATICS].tolist() == [0] * 4


def test_suspicion_line_both_groups_may_pay_what_one_group_alone_cannot():
    game, s = new()
    # A alone cannot pay its Research, B alone cannot pay its Coin; both together can
    card_icons(game, "euclid", ["research -1", "coins +1", "vp +2"], ["research +1", "coins -1"], sep="suspicion")
    all_cards(s, hand=[T(game, "euclid")])
    s.research[:, 0] = 0
    s.coins[:, 0] = 0
    s.susp[:, 0] = 2
    assert legal(game, s, A_CARD + T(game, "euclid")).all()
    act(game, s, A_CARD + T(game, "euclid"))
    act(game, s, A_DONE)
    assert (s.phase == P_GROUP).all()
    assert not legal(game, s, A_GROUP).any() and not legal(game, s, A_GROUP + 1).any()
    assert legal(game, s, A_GROUP + 2).all()
    act(game, s, A_GROUP + 2)
    assert s.research[:, 0].tolist() == [0] * 4 and s.coins[:, 0].tolist() == [0] * 4
    assert s.vp[:, 0].tolist() == [2] * 4 and s.susp[:, 0].tolist() == [3] * 4


# ---------------------------------------------------------------- Penance
def test_penance_must_be_played_in_the_cycle_it_is_drawn():
    game, s = new()
    pen = T(game, "penance")
    all_cards(s, hand=[pen, T(game, "abacus")])
    assert not legal(game, s, A_PASS).any()
    assert legal(game, s, A_CARD + pen).all()


def test_penance_reduces_suspicion_only_while_inquisition_token_face_down():
    game, s = new()
    pen = T(game, "penance")
    all_cards(s, hand=[pen])
    s.inq_up[:] = [False, True, False, True]
    s.susp[:, 0] = 5
    act(game, s, A_CARD + pen)
    assert (s.phase == P_PENPAY).all()
    assert s.susp[:, 0].tolist() == [4, 5, 4, 5]


def test_penance_paid_coins_remove_it_from_the_game():
    game, s = new()
    pen = T(game, "penance")                       # 3 Coins
    all_cards(s, hand=[pen])
    s.coins[:, 0] = [5, 3, 2, 5]
    act(game, s, A_CARD + pen)
    assert legal(game, s, A_PAY).tolist() == [True, True, False, True]
    act(game, s, [A_PAY, A_PAY, A_DONE, A_DONE])
    assert s.coins[:, 0].tolist() == [2, 0, 2, 5]
    assert [zone_of(s, g, 0, pen) for g in range(4)] == [[Z_REMOVED], [Z_REMOVED], [Z_PLAY], [Z_PLAY]]


def test_penance_not_paid_cycles_back_into_the_deck():
    game, s = new(players=1)
    pen = T(game, "penance")
    all_cards(s, hand=[pen], deck=[T(game, "abacus")] * 8)
    act(game, s, A_CARD + pen)
    act(game, s, A_DONE)
    assert zone_of(s, 0, 0, pen) == [Z_PLAY]
    # the seat keeps the rest of its hand and passes: End of Cycle puts the play area on the discard
    act(game, s, A_PASS)
    for g in range(4):
        assert zone_of(s, g, 0, pen)[0] in (Z_DISCARD, Z_HAND, Z_DECK)


# ---------------------------------------------------------------- Use an Invention
def test_once_per_cycle_invention_is_turned_until_end_of_cycle():
    game, s = new(players=1)
    tel = INV(game, "telescope")                      # once per Cycle: Research +2 | Observe
    s.inv_owner[:, tel] = 0
    all_cards(s, hand=[T(game, "abacus")] * 2)
    assert legal(game, s, A_INV + tel).all()
    act(game, s, A_INV + tel)
    act(game, s, A_GROUP)
    assert s.inv_tapped[:, tel].all()
    assert not legal(game, s, A_INV + tel).any()      # the seat's next turn, same Cycle
    act(game, s, A_PASS)
    assert not s.inv_tapped[:, tel].any()
    assert legal(game, s, A_INV + tel).all()


def test_income_invention_works_without_an_action():
    game, s = new(players=1)
    s.inv_owner[:, INV(game, "compass")] = [0, 0, -1, -1]   # Income: Coins +1
    s.coins[:, 0] = 0
    act(game, s, A_PASS)
    assert s.coins[:, 0].tolist() == [2, 2, 1, 1]      # Physics Level I income 1 (+1 with the compass)


def test_ongoing_invention_works_each_time_its_condition_is_met():
    game, s = new()
    s.inv_owner[:, INV(game, "pendulum-clock")] = [0, 0, -1, -1]   # Ongoing: each Write, VP +1
    s.research[:, 0] = 3
    s.books[:, 0, ASTRONOMY] = 2
    act(game, s, A_SPACE + SPACE(game, "printing-house"))
    act(game, s, A_SEC + SEC_WRITE)
    act(game, s, A_BOARD + game.content.board_ids.index("b0-0"))
    act(game, s, A_DECKTOP)
    assert s.vp[:, 0].tolist() == [4, 4, 3, 3]


def test_end_game_invention_scores_at_the_end_without_an_action():
    game, s = new(players=1)
    s.inv_owner[:, INV(game, "orrery")] = [0, -1, 0, -1]          # End-Game: 5 VP
    s.cycle[:] = 5
    all_cards(s, hand=[])
    act(game, s, A_PASS)
    assert s.over.all()
    assert s.vp_cat[:, 0, 5].tolist() == [5, 0, 5, 0]


# ---------------------------------------------------------------- Upgrade your Academic Level
def test_upgrade_requires_the_graduation_tile_requirement():
    game, s = new()
    s.grad[:, 0] = game.content.grad_ids.index("bachelor-books")     # Books 6
    s.books[:, 0, :] = 0
    s.books[:, 0, PHYSICS] = [5, 6, 3, 9]
    assert legal(game, s, A_UPGRADE).tolist() == [False, True, False, True]


def test_upgrade_takes_a_wax_seal_from_a_mentor():
    game, s = new()
    game.C.GRAD_REQ[:] = 0
    s.mentor[:, 0, :] = [[4, 4, 4], [0, 0, 1], [0, 0, 0], [1, 0, 0]]
    assert legal(game, s, A_UPGRADE).tolist() == [True, True, False, True]
    act(game, s, [A_UPGRADE, A_UPGRADE, A_PASS, A_UPGRADE])
    assert s.mentor[:, 0, :].sum(1).tolist() == [11, 0, 0, 0]


def test_upgrade_seal_on_leftmost_free_space_first_to_reach_two_three_four_scores_4_6_8():
    game, s = new()
    game.C.GRAD_REQ[:] = 0
    s.level[:, 0] = [1, 2, 3, 1]
    s.lvl_seal[3, 0, 0] = 1                            # game 3: seat 1 reached Level II first
    act(game, s, A_UPGRADE)
    assert s.level[:, 0].tolist() == [2, 3, 4, 2]
    assert s.vp[:, 0].tolist() == [4, 6, 8, 2]         # second to Level II: the next space's VP
    assert s.lvl_seal[0, 0, 0] == 0 and s.lvl_seal[1, 1, 0] == 0 and s.lvl_seal[2, 2, 0] == 0
    assert s.lvl_seal[3, 0, 1] == 0


def test_upgrade_one_level_per_action_in_order():
    game, s = new(players=1)
    game.C.GRAD_REQ[:] = 0
    act(game, s, A_UPGRADE)
    assert s.level[:, 0].tolist() == [2] * 4
    act(game, s, A_UPGRADE)
    assert s.level[:, 0].tolist() == [3] * 4
    assert (s.lvl_seal[:, 0, 0] == 0).all() and (s.lvl_seal[:, 1, 0] == 0).all() and (s.lvl_seal[:, 2] == -1).all()


# ---------------------------------------------------------------- Assign your Natural Philosopher
def test_philosopher_goes_to_a_space_of_your_level_or_lower():
    game, s = new()
    s.level[:, 0] = [1, 2, 3, 4]
    assert legal(game, s, A_SPACE + SPACE(game, "university")).all()
    assert legal(game, s, A_SPACE + SPACE(game, "academy")).tolist() == [False, True, True, True]
    assert legal(game, s, A_SPACE + SPACE(game, "court")).tolist() == [False, False, True, True]
    assert legal(game, s, A_SPACE + SPACE(game, "florence")).tolist() == [False, False, False, True]


def test_philosopher_unavailable_lying_down_on_a_space_in_prison_or_at_the_stake():
    game, s = new()
    s.phil[:, 0] = [PH_LYING, PH_ON_SPACE, PH_PRISON, PH_STAKE]
    assert not game.legal_action_mask(s)[:, A_SPACE:A_SPACE + 16].any()
    s.phil[:, 0] = PH_STANDING
    assert legal(game, s, A_SPACE + SPACE(game, "university")).all()


def test_philosopher_effects_all_done_then_lies_on_the_space():
    game, s = new()
    s.coins[:, 0] = 0
    s.research[:, 0] = 0
    act(game, s, A_SPACE + SPACE(game, "university"))          # Research +1, Coins +1
    assert s.coins[:, 0].tolist() == [1] * 4 and s.research[:, 0].tolist() == [1] * 4
    assert (s.phil[:, 0] == PH_ON_SPACE).all()


def test_exclusive_space_takes_one_philosopher_per_cycle_shared_any_number():
    game, s = new()
    market, uni = SPACE(game, "market"), SPACE(game, "university")
    act(game, s, [A_SPACE + market, A_SPACE + market, A_SPACE + uni, A_SPACE + uni])
    assert (s.to_act == 1).all()
    assert legal(game, s, A_SPACE + market).tolist() == [False, False, True, True]
    assert legal(game, s, A_SPACE + uni).all()


def test_illegal_action_is_refused():
    game, s = new()
    s.cycle[:] = 5
    with pytest.raises(IllegalActionError):
        act(game, s, A_ABJURE)
