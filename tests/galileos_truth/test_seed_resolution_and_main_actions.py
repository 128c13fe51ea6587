"""Seed rules: resolving icons and the Main Actions (one test per rule)."""

import pytest

from meeplelab.sim.core import IllegalActionError
from meeplelab.sim.core.position import Position
from meeplelab.sim.galileos_truth import GalileosTruth
from meeplelab.sim.galileos_truth.content import ASTRONOMY, MATHEMATICS, PHILOSOPHY, PHYSICS
from meeplelab.sim.galileos_truth.state import (A_ABJURE, PH_LYING, PH_ON_SPACE, PH_PRISON, PH_STAKE, PH_STANDING,
                                                TR_PLAY, Z_DECK, Z_DISCARD, Z_HAND, Z_PLAY, Z_REMOVED)

from .helpers import BOARD, GAMES, INV, SPACE, T, card, card_icons, set_icons, space, zone_count, zone_of

#: the games these rules were first checked on: seed 3, game ids 0 to 3
SEED = 3


def start(game, g=0, players=2):
    """Game ``g`` (seed 3) at its first decision."""
    return Position.start(game, players=players, seed=SEED, game_id=g)


# action labels of content by name (the engine's vocabulary numbers cards, spaces, boards and Inventions)


def board(game, name):
    return f"treatise:{BOARD(game, name)}"


def invention(game, name):
    return f"use-invention:{INV(game, name)}"


# ---------------------------------------------------------------- resolving icons
def test_unframed_icons_are_mandatory_effects():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g).set(seat=0, coins=0)
        pos.act(space(game, "market"))                      # unframed: Coins +3
        assert pos.get("coins", seat=0) == 3
        assert pos.get("to_act") == 1 and pos.pending().decision == "P_MAIN"   # no decision asked: the turn is over


def test_framed_icons_are_optional_secondary_actions():
    game = GalileosTruth()
    for g, choice, hand in zip(GAMES, ["done", "done", "secondary:draw", "secondary:draw"], [0, 0, 1, 1]):
        pos = start(game, g).give("cards", 0, hand=[], deck=["abacus"] * 3)
        pos.act(space(game, "printing-house"))              # Write, Draw (both framed)
        assert pos.pending().decision == "P_SEC"
        assert "done" in pos.legal() and "secondary:draw" in pos.legal()
        pos.act(choice)
        assert zone_count(pos, Z_HAND) == hand


def test_icons_activate_in_the_order_you_like():
    game = GalileosTruth()
    ph = SPACE(game, "printing-house")
    set_icons(game, int(game.C.SPACE_ISET[ph]), a=["vp_x2", "write"])  # x2 doubles the action's VP so far
    b = board(game, "b0-0")
    vps = []
    for g, effects_first in zip(GAMES, [True, True, False, False]):
        pos = start(game, g).set(seat=0, research=9, books=5)
        pos.act(space(game, "printing-house"))
        assert pos.pending().decision == "P_SEC"
        # the mandatory Effect may go first or after the Secondary Action; skipping it is not an option
        assert "effects" in pos.legal() and "secondary:write" in pos.legal()
        assert "done" not in pos.legal()
        if effects_first:
            pos.act("effects")
            assert pos.get("vp", seat=0) == 0                # x2 of nothing yet
            assert "done" in pos.legal() and "effects" not in pos.legal()
        pos.act("secondary:write", b, "card-to-deck-top")
        vps.append(pos.get("vp", seat=0))
        assert pos.get("to_act") == 1 and pos.pending().decision == "P_MAIN"
    seal_vp = vps[0]
    assert seal_vp > 0
    assert vps == [seal_vp, seal_vp, 2 * seal_vp, 2 * seal_vp]   # Write first: x2 doubles it


def test_icons_activate_in_the_order_you_like_also_against_the_printed_order():
    # "x2" is printed before "+2 VP"; in printed order 2 VP, +2 first then x2 gives 4
    game = GalileosTruth()
    mk = SPACE(game, "market")
    set_icons(game, int(game.C.SPACE_ISET[mk]), a=["vp_x2", "vp +2"])
    for g, choice, vp in zip(GAMES, ["effect-icon:0:1", "effect-icon:0:1", "effects", "effect-icon:0:0"], [4, 4, 2, 2]):
        pos = start(game, g)
        pos.act(space(game, "market"))
        assert pos.pending().decision == "P_SEC"
        legal = pos.legal()
        assert "effect-icon:0:0" in legal and "effect-icon:0:1" in legal and "effects" in legal
        assert "done" not in legal                          # mandatory: no skipping
        pos.act(choice)
        assert pos.get("vp", seat=0) == vp
        assert pos.get("to_act") == 1 and pos.pending().decision == "P_MAIN"


def test_icons_order_is_offered_only_where_it_changes_the_outcome():
    # Suspicion +1 and -1: at 7 the order decides Prison (8), at 3 it changes nothing and nothing is asked
    game = GalileosTruth()
    mk = SPACE(game, "market")
    set_icons(game, int(game.C.SPACE_ISET[mk]), a=["susp_up 1", "susp_down 1"])
    cases = [(7, "P_SEC", "effect-icon:0:1", PH_ON_SPACE),   # down first
             (7, "P_SEC", "effect-icon:0:0", PH_PRISON),     # up first
             (7, "P_SEC", "effects", PH_PRISON),             # printed (up first)
             (3, "P_MAIN", None, PH_ON_SPACE)]
    for g, (susp, decision, choice, phil) in zip(GAMES, cases):
        pos = start(game, g).set(seat=0, susp=susp)
        pos.act(space(game, "market"))
        assert pos.pending().decision == decision
        if choice is None:
            assert pos.get("susp", seat=0) == 3
        else:
            pos.act(choice)
        assert pos.get("susp", seat=0) == susp
        assert pos.get("phil", seat=0) == phil


def test_a_pending_payment_is_made_before_any_secondary_action():
    game = GalileosTruth()
    ph = SPACE(game, "printing-house")
    set_icons(game, int(game.C.SPACE_ISET[ph]), a=["coins -2", "draw", "vp +1"])
    for g, coins in zip(GAMES, [2, 3, 4, 5]):
        pos = start(game, g).give("cards", 0, hand=[], deck=["abacus"] * 3).set(seat=0, coins=coins)
        pos.act(space(game, "printing-house"))
        # the red Coins are paid (and the other Effects resolve) before Draw can be chosen
        assert pos.get("coins", seat=0) == coins - 2
        assert pos.get("vp", seat=0) == 1
        assert pos.pending().decision == "P_SEC"
        assert "effects" not in pos.legal() and "done" in pos.legal()


def test_plain_line_means_pick_one_group():
    game = GalileosTruth()
    for g, group, coins in zip(GAMES, ["group:a", "group:a", "group:b", "group:b"], [1, 1, 0, 0]):
        pos = start(game, g).give("cards", 0, hand=["lunar-notes"], deck=["abacus"] * 3)   # Coins +1 | Draw
        pos.set(seat=0, coins=0)
        pos.act(card(game, "lunar-notes"), "done")
        assert pos.pending().decision == "P_GROUP"
        assert "group:a" in pos.legal() and "group:b" in pos.legal()
        assert "group:both" not in pos.legal()              # no "both" across a plain line
        pos.act(group)
        assert pos.get("coins", seat=0) == coins
        if group == "group:b":
            assert pos.pending().decision == "P_SEC"


def test_suspicion_line_one_group_free_or_both_after_one_suspicion():
    game = GalileosTruth()
    cases = [("group:a", 2, "P_MAIN"), ("group:both", 3, "P_BOOKSUBJ")] * 2
    for g, (group, susp, decision) in zip(GAMES, cases):
        pos = start(game, g).give("cards", 0, hand=["euclid"])   # Research +1 / suspicion line / any Book
        pos.set(seat=0, susp=2, research=0)
        pos.act(card(game, "euclid"), "done")
        assert "group:both" in pos.legal()
        pos.act(group)
        assert pos.get("susp", seat=0) == susp
        assert pos.get("research", seat=0) == 1
        assert pos.pending().decision == decision


def test_principle_split_does_the_group_matching_the_coin():
    game = GalileosTruth()
    # Copernican: Coins +1, Suspicion -1 | Ptolemaic: VP +1
    cases = [(True, 1, 3, 0), (True, 1, 3, 0), (False, 0, 4, 1), (False, 0, 4, 1)]
    for g, (coper, coins, susp, vp) in zip(GAMES, cases):
        pos = start(game, g).give("cards", 0, hand=["aristotle"]).set(seat=0, coper=coper, coins=0, susp=4)
        pos.act(card(game, "aristotle"), "done")
        assert pos.pending().decision == "P_MAIN"           # no choice offered
        assert pos.get("coins", seat=0) == coins
        assert pos.get("susp", seat=0) == susp
        assert pos.get("vp", seat=0) == vp


def test_empty_deck_draws_what_it_can_reshuffles_discard_and_keeps_drawing():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g, players=1).give("cards", 0, hand=[], deck=["abacus"] * 2, discard=["abacus"] * 6)
        pos.act("pass")                                     # End of Cycle, next Cycle draws a hand of 5
        assert pos.get("cycle") == 2
        assert zone_count(pos, Z_HAND) == 5
        assert zone_count(pos, Z_DECK) == 3 and pos.get("deck_n", seat=0) == 3
        assert zone_count(pos, Z_DISCARD) == 0


# ---------------------------------------------------------------- Abjure
def test_abjure_turns_coin_to_ptolemaic_and_is_final():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g, players=1)
        pos.act("abjure")
        assert pos.get("coper", seat=0) is False
        assert pos.get("abjure_cycle", seat=0) == 1
        assert "abjure" not in pos.legal()                  # same seat's next turn: no way back


def test_abjure_not_allowed_in_cycle_five():
    game = GalileosTruth()
    for g, cycle, allowed in zip(GAMES, [4, 5, 4, 5], [True, False, True, False]):
        pos = start(game, g).set(cycle=cycle)
        assert ("abjure" in pos.legal()) is allowed


def test_abjure_reduces_own_suspicion_by_five():
    game = GalileosTruth()
    for g, before, after in zip(GAMES, [7, 5, 3, 12], [2, 0, 0, 7]):
        pos = start(game, g).set(seat=0, susp=before)
        pos.act("abjure")
        assert pos.get("susp", seat=0) == after
        ab = pos.events("abjure")[0]
        assert (ab["before"], ab["after"], ab["cycle"]) == (before, after, 1)


def test_abjure_raises_other_copernicans_suspicion_by_one():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g, players=3)
        for seat, susp in enumerate([6, 3, 4]):
            pos.set(seat=seat, susp=susp)
        pos.set(seat=2, coper=False)                        # seat 2 already Ptolemaic
        pos.act("abjure")
        assert pos.get("susp", seat=1) == 4
        assert pos.get("susp", seat=2) == 4
        assert pos.events("abjure")[0]["amount"] == 1       # Copernicans hit


# ---------------------------------------------------------------- Play Treatise Cards
def test_stacked_cards_must_share_one_subject():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g).give("cards", 0, hand=["star-charts", "lunar-notes", "pendulum"])
        pos.act(card(game, "star-charts"))
        assert pos.pending().decision == "P_STACK"
        assert card(game, "lunar-notes") in pos.legal()
        assert card(game, "pendulum") not in pos.legal()


def test_purple_card_matches_the_subject_of_the_stack():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g).give("cards", 0, hand=["star-charts", "starry-messenger"])
        pos.act(card(game, "star-charts"))
        assert card(game, "starry-messenger") in pos.legal()
        pos.act(card(game, "starry-messenger"), "done")
        assert pos.pending().decision != "P_PURPLE"
        assert pos.get("books", seat=0)[ASTRONOMY] == 2     # 1 + 1 spine Books, all in Astronomy


def test_purple_card_alone_takes_chosen_subject():
    game = GalileosTruth()
    cases = [("subject:mathematics", 1, 0, 0), ("subject:physics", 0, 1, 0),
             ("subject:mathematics", 1, 0, 0), ("subject:philosophy", 0, 0, 1)]
    for g, (subject, maths, physics, philosophy) in zip(GAMES, cases):
        pos = start(game, g).give("cards", 0, hand=["starry-messenger"])
        pos.act(card(game, "starry-messenger"), "done")
        assert pos.pending().decision == "P_PURPLE"
        pos.act(subject)
        books = pos.get("books", seat=0)
        assert books[MATHEMATICS] == maths
        assert books[PHYSICS] == physics
        assert books[PHILOSOPHY] == philosophy


def test_purple_cards_only_with_purple_take_one_chosen_subject():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g).give("cards", 0, hand=["starry-messenger", "wild-compendium"])
        pos.act(card(game, "starry-messenger"), card(game, "wild-compendium"), "done")
        assert pos.pending().decision == "P_PURPLE"
        pos.act("subject:philosophy")
        assert pos.get("books", seat=0)[PHILOSOPHY] == 3    # 1 + 2


def test_stack_gains_every_book_on_every_visible_spine_in_its_subject():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g).give("cards", 0, hand=["star-charts", "lunar-notes", "sidereus-nuncius"])
        pos.act(card(game, "star-charts"), card(game, "lunar-notes"), card(game, "sidereus-nuncius"), "done")
        assert pos.get("books", seat=0)[ASTRONOMY] == 4
        assert pos.get("books", seat=0)[PHYSICS] == 0


def test_only_the_active_top_card_icons_activate():
    game = GalileosTruth()
    pend, fall = card(game, "pendulum"), card(game, "falling-bodies")   # Coins +1 / Coins +2 & Suspicion +1
    cases = [((pend, fall), 2, 3), ((pend, fall), 2, 3), ((fall, pend), 1, 2), ((fall, pend), 1, 2)]
    for g, (order, coins, susp) in zip(GAMES, cases):
        pos = start(game, g).give("cards", 0, hand=["pendulum", "falling-bodies"]).set(seat=0, coins=0, susp=2)
        pos.act(*order, "done")
        assert pos.get("coins", seat=0) == coins
        assert pos.get("susp", seat=0) == susp
        assert pos.get("books", seat=0)[PHYSICS] == 2


def test_other_cards_pages_are_ignored_so_an_unpayable_page_may_go_under_the_active_card():
    # solo; discourse-on-floating (Mathematics; VP x Level, Research -1) and abacus
    # (Mathematics; Research +1); Research 0. Only the Active card's page must be payable.
    game = GalileosTruth()
    dof, ab = card(game, "discourse-on-floating"), card(game, "abacus")
    for g in GAMES:
        pos = start(game, g, players=1).give("cards", 0, hand=["discourse-on-floating", "abacus"])
        pos.set(seat=0, research=0, books=0)
        assert dof in pos.legal()                           # it can go under abacus
        pos.act(dof)
        assert pos.pending().decision == "P_STACK"
        assert "done" not in pos.legal()                    # it cannot stay the Active card: Research -1 unpaid
        assert ab in pos.legal()
        pos.act(ab, "done")
        assert pos.get("books", seat=0)[MATHEMATICS] == 4   # 3 + 1 spine Books
        assert pos.get("research", seat=0) == 1             # abacus' page only
        assert pos.get("vp", seat=0) == 0
    # abacus first: discourse-on-floating on top would be the Active card, whose Research -1 cannot be paid
    for g in GAMES:
        pos = start(game, g, players=1).give("cards", 0, hand=["discourse-on-floating", "abacus"])
        pos.set(seat=0, research=0).act(ab)
        assert dof not in pos.legal() and "done" in pos.legal()
    # alone with Research 0 it cannot be played at all; with Research 1 it can
    for g, research, allowed in zip(GAMES, [0, 1, 0, 1], [False, True, False, True]):
        pos = start(game, g, players=1).give("cards", 0, hand=["discourse-on-floating"]).set(seat=0, research=research)
        assert (dof in pos.legal()) is allowed


def test_what_an_ongoing_invention_gives_on_a_play_counts_before_the_active_card_pays():
    # the Ongoing Invention fires on the play, before the Active card's icons: its Books and Research pay them
    game = GalileosTruth()
    inv = INV(game, "pendulum-clock")
    game.C.INV_TRIG[inv] = TR_PLAY                       # Ongoing: each time you play Treatise Cards
    set_icons(game, int(game.C.INV_ISET[inv]), a=["books physics 2", "research +1"])
    card_icons(game, "star-charts", ["books_pay physics 2 1", "research -1", "vp +1"])
    for g, owner in zip(GAMES, [0, 0, -1, -1]):
        pos = start(game, g).give("cards", 0, hand=["star-charts"])
        pos.put("inv_owner", inv, owner)
        pos.set(seat=0, books=0, research=0)
        assert (card(game, "star-charts") in pos.legal()) is (owner == 0)
        if owner == 0:
            pos.act(card(game, "star-charts"), "done")
            assert pos.get("vp", seat=0) == 1 and pos.get("books", seat=0)[PHYSICS] == 0
            assert pos.get("research", seat=0) == 0


def test_spine_books_of_this_stack_count_in_its_own_subject_for_the_active_card():
    # a stale Subject of an earlier turn's stack must not decide where this stack's Books go
    game = GalileosTruth()
    card_icons(game, "abacus", ["books_pay mathematics 1 1", "vp +1"])
    for g in GAMES:
        pos = start(game, g).give("cards", 0, hand=["abacus"])   # 1 Mathematics Book on its spine
        pos.set(seat=0, books=0)
        pos.set(stack_subj=PHYSICS, stack_n=0)              # left from an earlier Physics stack
        assert card(game, "abacus") in pos.legal()
        pos.act(card(game, "abacus"), "done")
        assert pos.get("vp", seat=0) == 1 and pos.get("books", seat=0)[MATHEMATICS] == 0


def test_suspicion_line_both_groups_may_pay_what_one_group_alone_cannot():
    game = GalileosTruth()
    # A alone cannot pay its Research, B alone cannot pay its Coin; both together can
    card_icons(game, "euclid", ["research -1", "coins +1", "vp +2"], ["research +1", "coins -1"], sep="suspicion")
    for g in GAMES:
        pos = start(game, g).give("cards", 0, hand=["euclid"]).set(seat=0, research=0, coins=0, susp=2)
        assert card(game, "euclid") in pos.legal()
        pos.act(card(game, "euclid"), "done")
        assert pos.pending().decision == "P_GROUP"
        assert "group:a" not in pos.legal() and "group:b" not in pos.legal()
        assert "group:both" in pos.legal()
        pos.act("group:both")
        assert pos.get("research", seat=0) == 0 and pos.get("coins", seat=0) == 0
        assert pos.get("vp", seat=0) == 2 and pos.get("susp", seat=0) == 3


# ---------------------------------------------------------------- Penance
def test_penance_must_be_played_in_the_cycle_it_is_drawn():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g).give("cards", 0, hand=["penance", "abacus"])
        assert "pass" not in pos.legal()
        assert card(game, "penance") in pos.legal()


def test_penance_reduces_suspicion_only_while_inquisition_token_face_down():
    game = GalileosTruth()
    for g, inq_up, susp in zip(GAMES, [False, True, False, True], [4, 5, 4, 5]):
        pos = start(game, g).give("cards", 0, hand=["penance"]).set(inq_up=inq_up).set(seat=0, susp=5)
        pos.act(card(game, "penance"))
        assert pos.pending().decision == "P_PENPAY"
        assert pos.get("susp", seat=0) == susp


def test_penance_paid_coins_remove_it_from_the_game():
    game = GalileosTruth()
    pen = T(game, "penance")                       # 3 Coins
    cases = [(5, True, "pay-penance", 2, Z_REMOVED), (3, True, "pay-penance", 0, Z_REMOVED),
             (2, False, "done", 2, Z_PLAY), (5, True, "done", 5, Z_PLAY)]
    for g, (coins, can_pay, choice, left, zone) in zip(GAMES, cases):
        pos = start(game, g).give("cards", 0, hand=["penance"]).set(seat=0, coins=coins)
        pos.act(card(game, "penance"))
        assert ("pay-penance" in pos.legal()) is can_pay
        pos.act(choice)
        assert pos.get("coins", seat=0) == left
        assert zone_of(pos, pen) == [zone]


def test_penance_not_paid_cycles_back_into_the_deck():
    game = GalileosTruth()
    pen = T(game, "penance")
    for g in GAMES:
        pos = start(game, g, players=1).give("cards", 0, hand=["penance"], deck=["abacus"] * 8)
        pos.act(card(game, "penance"), "done")
        assert zone_of(pos, pen) == [Z_PLAY]
        # the seat keeps the rest of its hand and passes: End of Cycle puts the play area on the discard
        pos.act("pass")
        assert zone_of(pos, pen)[0] in (Z_DISCARD, Z_HAND, Z_DECK)


# ---------------------------------------------------------------- Use an Invention
def test_once_per_cycle_invention_is_turned_until_end_of_cycle():
    game = GalileosTruth()
    tel = INV(game, "telescope")                      # once per Cycle: Research +2 | Observe
    for g in GAMES:
        pos = start(game, g, players=1).give("cards", 0, hand=["abacus"] * 2)
        pos.put("inv_owner", tel, 0)
        assert invention(game, "telescope") in pos.legal()
        pos.act(invention(game, "telescope"), "group:a")
        assert pos.get("inv_tapped")[tel] is True
        assert invention(game, "telescope") not in pos.legal()   # the seat's next turn, same Cycle
        pos.act("pass")
        assert pos.get("inv_tapped")[tel] is False
        assert invention(game, "telescope") in pos.legal()


def test_income_invention_works_without_an_action():
    game = GalileosTruth()
    for g, owner, coins in zip(GAMES, [0, 0, -1, -1], [2, 2, 1, 1]):
        pos = start(game, g, players=1)
        pos.put("inv_owner", INV(game, "compass"), owner)  # Income: Coins +1
        pos.set(seat=0, coins=0)
        pos.act("pass")
        assert pos.get("coins", seat=0) == coins          # Physics Level I income 1 (+1 with the compass)


def test_ongoing_invention_works_each_time_its_condition_is_met():
    game = GalileosTruth()
    for g, owner, vp in zip(GAMES, [0, 0, -1, -1], [4, 4, 3, 3]):
        pos = start(game, g)
        pos.put("inv_owner", INV(game, "pendulum-clock"), owner)   # Ongoing: each Write, VP +1
        pos.set(seat=0, research=3)
        pos.put("books", ASTRONOMY, 2, seat=0)
        pos.act(space(game, "printing-house"), "secondary:write", board(game, "b0-0"), "card-to-deck-top")
        assert pos.get("vp", seat=0) == vp


def test_end_game_invention_scores_at_the_end_without_an_action():
    game = GalileosTruth()
    for g, owner, vp in zip(GAMES, [0, -1, 0, -1], [5, 0, 5, 0]):
        pos = start(game, g, players=1)
        pos.put("inv_owner", INV(game, "orrery"), owner)   # End-Game: 5 VP
        pos.set(cycle=5).give("cards", 0, hand=[])
        pos.act("pass")
        assert pos.get("over") is True
        assert pos.scores()["invention"][0] == vp


# ---------------------------------------------------------------- Upgrade your Academic Level
def test_upgrade_requires_the_graduation_tile_requirement():
    game = GalileosTruth()
    for g, physics, allowed in zip(GAMES, [5, 6, 3, 9], [False, True, False, True]):
        pos = start(game, g)
        pos.put("grad", 0, game.content.grad_ids.index("bachelor-books"))   # Books 6
        pos.set(seat=0, books=0)
        pos.put("books", PHYSICS, physics, seat=0)
        assert ("upgrade-level" in pos.legal()) is allowed


def test_upgrade_takes_a_wax_seal_from_a_mentor():
    game = GalileosTruth()
    game.C.GRAD_REQ[:] = 0
    cases = [([4, 4, 4], True, "upgrade-level", 11), ([0, 0, 1], True, "upgrade-level", 0),
             ([0, 0, 0], False, "pass", 0), ([1, 0, 0], True, "upgrade-level", 0)]
    for g, (mentor, allowed, choice, seals) in zip(GAMES, cases):
        pos = start(game, g).set(seat=0, mentor=mentor)
        assert ("upgrade-level" in pos.legal()) is allowed
        pos.act(choice)
        assert sum(pos.get("mentor", seat=0)) == seals


def test_upgrade_seal_on_leftmost_free_space_first_to_reach_two_three_four_scores_4_6_8():
    game = GalileosTruth()
    game.C.GRAD_REQ[:] = 0
    # level before, VP after, where seat 0's seal goes (Level II-IV row, space)
    cases = [(1, 4, (0, 0)), (2, 6, (1, 0)), (3, 8, (2, 0)), (1, 2, (0, 1))]
    for g, (level, vp, (row, col)) in zip(GAMES, cases):
        pos = start(game, g).set(seat=0, level=level)
        if g == 3:
            seals = pos.get("lvl_seal")
            seals[0][0] = 1                                # game 3: seat 1 reached Level II first
            pos.set(lvl_seal=seals)
        pos.act("upgrade-level")
        assert pos.get("level", seat=0) == level + 1
        assert pos.get("vp", seat=0) == vp                 # second to Level II: the next space's VP
        assert pos.get("lvl_seal")[row][col] == 0


def test_upgrade_one_level_per_action_in_order():
    game = GalileosTruth()
    game.C.GRAD_REQ[:] = 0
    for g in GAMES:
        pos = start(game, g, players=1)
        pos.act("upgrade-level")
        assert pos.get("level", seat=0) == 2
        pos.act("upgrade-level")
        assert pos.get("level", seat=0) == 3
        seals = pos.get("lvl_seal")
        assert seals[0][0] == 0 and seals[1][0] == 0 and all(x == -1 for x in seals[2])


# ---------------------------------------------------------------- Assign your Natural Philosopher
def test_philosopher_goes_to_a_space_of_your_level_or_lower():
    game = GalileosTruth()
    for g, level in zip(GAMES, [1, 2, 3, 4]):
        pos = start(game, g).set(seat=0, level=level)
        legal = pos.legal()
        assert space(game, "university") in legal
        assert (space(game, "academy") in legal) is (level >= 2)
        assert (space(game, "court") in legal) is (level >= 3)
        assert (space(game, "florence") in legal) is (level >= 4)


def test_philosopher_unavailable_lying_down_on_a_space_in_prison_or_at_the_stake():
    game = GalileosTruth()
    for g, phil in zip(GAMES, [PH_LYING, PH_ON_SPACE, PH_PRISON, PH_STAKE]):
        pos = start(game, g).set(seat=0, phil=phil)
        assert not any(a.startswith("philosopher:") for a in pos.legal())
        pos.set(seat=0, phil=PH_STANDING)
        assert space(game, "university") in pos.legal()


def test_philosopher_effects_all_done_then_lies_on_the_space():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g).set(seat=0, coins=0, research=0)
        pos.act(space(game, "university"))                  # Research +1, Coins +1
        assert pos.get("coins", seat=0) == 1 and pos.get("research", seat=0) == 1
        assert pos.get("phil", seat=0) == PH_ON_SPACE


def test_exclusive_space_takes_one_philosopher_per_cycle_shared_any_number():
    game = GalileosTruth()
    market, uni = space(game, "market"), space(game, "university")
    for g, first, market_open in zip(GAMES, [market, market, uni, uni], [False, False, True, True]):
        pos = start(game, g)
        pos.act(first)
        assert pos.get("to_act") == 1
        assert (market in pos.legal()) is market_open
        assert uni in pos.legal()


def test_illegal_action_is_refused():
    game = GalileosTruth()
    for g in GAMES:
        pos = start(game, g).set(cycle=5)
        assert "abjure" not in pos.legal()
        # by its id: a label resolves to legal actions only, the id goes to the engine's own check
        with pytest.raises(IllegalActionError):
            pos.act(A_ABJURE)
