"""Seed rules: the Secondary Actions (Write, Copy, Read, Create an Invention, Observe, Draw, Remove)."""

import numpy as np

from meeplelab.sim.galileos_truth.content import ASTRONOMY, PHYSICS
from meeplelab.sim.galileos_truth.state import (A_BOARD, A_CARD, A_DECKTOP, A_DONE, A_EFFECTS, A_GROUP, A_KEEP, A_OLEVEL, A_RMDISC,
                                      A_RMPLAY, A_SEC, A_SLOT, A_SPACE, A_WIN, C_ICONS, C_OBSERVATION, P_OKEEP, P_OLEVEL,
                                      P_OORDER, P_OSPACE, P_PLACE, P_REMOVE, P_SEC, P_TARGET, Z_DECK, Z_DISCARD,
                                      Z_HAND, Z_PLAY, Z_REMOVED)

from .helpers import BOARD, INV, SPACE, T, act, all_cards, effects_now, events, legal, new, set_icons, zone_count, zone_of

SEC_WRITE, SEC_COPY, SEC_READ, SEC_INVENT, SEC_OBSERVE, SEC_DRAW, SEC_REMOVE = range(7)


def start_write(game, s):
    act(game, s, A_SPACE + SPACE(game, "printing-house"))
    act(game, s, A_SEC + SEC_WRITE)
    assert (s.phase == P_TARGET).all()


# ---------------------------------------------------------------- Write
def test_write_one_copy_of_each_treatise_per_player():
    game, s = new()
    s.research[:, 0] = 9
    s.books[:, 0, :] = 3
    s.tseal[:, BOARD(game, "b0-0"), 0] = [0, 1, 0, 1]          # seat 0's own seal in games 0 and 2
    start_write(game, s)
    assert legal(game, s, A_BOARD + BOARD(game, "b0-0")).tolist() == [False, True, False, True]
    assert legal(game, s, A_BOARD + BOARD(game, "b0-1")).all()


def test_write_pays_books_and_three_research_on_the_bottom_row():
    game, s = new()
    s.research[:, 0] = [4, 3, 2, 4]
    s.books[:, 0, ASTRONOMY] = [3, 2, 2, 1]                    # b0-0 needs Astronomy 2
    act(game, s, A_SPACE + SPACE(game, "printing-house"))
    ok = legal(game, s, A_SEC + SEC_WRITE)
    assert ok.tolist() == [True, True, False, False]
    act(game, s, [A_SEC + SEC_WRITE, A_SEC + SEC_WRITE, A_DONE, A_DONE])
    act(game, s, [A_BOARD + 0, A_BOARD + 0, -1, -1])
    assert s.research[:2, 0].tolist() == [1, 0]
    assert s.books[:2, 0, ASTRONOMY].tolist() == [1, 0]


def test_write_higher_row_skips_one_research_cost_per_seal_on_the_boards_below():
    game, s = new()
    b = BOARD(game, "b1-0")                                     # above b0-0 and b0-1, costs 2 + 2
    s.research[:, 0] = 5
    s.books[:, 0, PHYSICS] = 2
    s.books[:, 0, ASTRONOMY] = 1
    s.tseal[1, 0, 0] = 0
    s.tseal[2, 1, 0] = 0
    s.tseal[3, 0, 0] = 0
    s.tseal[3, 1, 0] = 0
    start_write(game, s)
    act(game, s, A_BOARD + b)
    assert s.research[:, 0].tolist() == [1, 3, 3, 5]


def test_write_seal_on_leftmost_free_space_scores_its_vp():
    game, s = new()
    s.research[:, 0] = 3
    s.books[:, 0, ASTRONOMY] = 2
    s.tseal[:, 0, 0] = [-1, 1, 1, 1]
    s.tseal[:, 0, 1] = [-1, -1, 1, 1]
    start_write(game, s)
    act(game, s, A_BOARD + 0)
    assert s.vp[:3, 0].tolist() == [3, 2, 1]                     # seal spaces print 3, 2, 1, 1
    assert s.tseal[0, 0, 0] == 0 and s.tseal[1, 0, 1] == 0 and s.tseal[2, 0, 2] == 0
    assert s.mentor[:, 0].sum(1).tolist() == [11] * 4


def test_written_card_goes_on_top_of_the_deck_or_to_hand_discarding_another_non_penance_treatise():
    game, s = new()
    ab, pen, sid = T(game, "abacus"), T(game, "penance"), T(game, "sidereus-nuncius")
    all_cards(s, hand=[ab, pen], deck=[T(game, "euclid")])
    s.research[:, 0] = 3
    s.books[:, 0, ASTRONOMY] = 2
    start_write(game, s)
    act(game, s, A_BOARD + 0)
    assert (s.phase == P_PLACE).all()
    assert legal(game, s, A_CARD + ab).all() and not legal(game, s, A_CARD + pen).any()
    act(game, s, [A_DECKTOP, A_DECKTOP, A_CARD + ab, A_CARD + ab])
    for g in (0, 1):
        assert s.ctype[g, 0, s.deck[g, 0, s.deck_n[g, 0] - 1]] == sid and zone_of(s, g, 0, sid) == [Z_DECK]
        assert zone_of(s, g, 0, ab) == [Z_HAND]
    for g in (2, 3):
        assert zone_of(s, g, 0, sid) == [Z_HAND] and zone_of(s, g, 0, ab) == [Z_DISCARD]


# ---------------------------------------------------------------- Copy
def start_copy(game, s):
    s.level[:, 0] = 2
    act(game, s, A_SPACE + SPACE(game, "academy"))           # Copy (Level II, 2 Coins, 2 VP) | Research +2
    act(game, s, A_GROUP)
    act(game, s, A_SEC + SEC_COPY)
    assert (s.phase == P_TARGET).all()


def test_copy_needs_the_level_cap_not_owned_and_another_players_seal():
    game, s = new()
    s.coins[:, 0] = 5
    s.tseal[:, BOARD(game, "b0-0"), 0] = 1                   # another player's seal: copyable
    s.tseal[:, BOARD(game, "b0-2"), 0] = 0                   # own seal: not
    s.tseal[:, BOARD(game, "b2-0"), 0] = 1                   # Level III > the action's Level II
    start_copy(game, s)
    m = game.legal_action_mask(s)
    assert m[:, A_BOARD + BOARD(game, "b0-0")].all()
    for b in ("b0-1", "b0-2", "b2-0"):
        assert not m[:, A_BOARD + BOARD(game, b)].any(), b


def test_copy_pays_coins_seals_rightmost_space_scores_nothing_and_leftmost_owner_scores():
    game, s = new(players=3)
    b = BOARD(game, "b0-1")
    s.coins[:, 0] = 5
    s.tseal[:, b, 0] = 2
    s.tseal[:, b, 1] = 1
    start_copy(game, s)
    act(game, s, A_BOARD + b)
    assert s.coins[:, 0].tolist() == [3] * 4
    assert (s.tseal[:, b, 3] == 0).all()
    assert s.vp[:, 0].tolist() == [0] * 4
    assert s.vp[:, 2].tolist() == [2] * 4 and s.vp[:, 1].tolist() == [0] * 4
    assert (s.phase == P_PLACE).all()


# ---------------------------------------------------------------- Read
def start_read(game, s):
    act(game, s, A_SPACE + SPACE(game, "library"))            # Read (Level I, 1 Coin, 1 VP) | any Book
    act(game, s, A_GROUP)
    act(game, s, A_SEC + SEC_READ)
    assert (s.phase == P_TARGET).all()


def test_read_needs_level_cap_and_any_seal():
    game, s = new()
    s.tseal[:, BOARD(game, "b0-1"), 0] = 0
    s.tseal[:, BOARD(game, "b1-0"), 0] = 1
    start_read(game, s)
    m = game.legal_action_mask(s)
    assert m[:, A_BOARD + BOARD(game, "b0-1")].all()          # own seal is fine for Read
    assert not m[:, A_BOARD + BOARD(game, "b0-0")].any()       # no seal
    assert not m[:, A_BOARD + BOARD(game, "b1-0")].any()       # above the Level cap


def test_read_pays_leftmost_seal_owner_unless_reader():
    game, s = new()
    b = BOARD(game, "b0-1")
    s.coins[:, 0] = 5
    s.tseal[:, b, 0] = [1, 0, 1, 0]
    s.tseal[:, b, 1] = [0, 1, 0, 1]
    start_read(game, s)
    act(game, s, A_BOARD + b)
    assert s.vp[:, 1].tolist() == [1, 0, 1, 0]
    r = events(game, s, 0, "read")[0]
    assert r["target_seat"] == 1 and r["amount"] == 1


def test_read_activates_the_treatise_icons_on_their_own():
    game, s = new()
    b = BOARD(game, "b0-1")                                    # on-motion: Coins +2, Invent
    s.coins[:, 0] = 5
    s.tseal[:, b, 0] = 1
    all_cards(s, hand=[T(game, "pendulum")])
    start_read(game, s)
    act(game, s, A_BOARD + b)
    assert s.coins[:, 0].tolist() == [4] * 4                  # -1 to read; the page's Coins +2 still pending
    assert (s.phase == P_SEC).all() and legal(game, s, A_EFFECTS).all() and not legal(game, s, A_DONE).any()
    act(game, s, A_EFFECTS)
    assert s.coins[:, 0].tolist() == [6] * 4                  # -1 to read, +2 from the page
    assert zone_of(s, 0, 0, T(game, "pendulum")) == [Z_HAND]   # hand untouched
    assert (s.fr_n == 2).all()                                # the page's frame above the space's


def test_read_activates_all_its_icons_as_if_you_were_playing_it_payments_included():
    # issue 14 fault 2: board b2-1 (discourse-on-floating: VP x Level, Research -1) sealed by seat 1; seat 0
    # at Level III with 5 Coins reads it from the Court (Read Level 3, 2 Coins, 2 VP to the seal's owner)
    game, s = new()
    b, other = BOARD(game, "b2-1"), BOARD(game, "b0-1")
    s.tseal[:, b, 0] = 1
    s.tseal[:, other, 0] = 1                                   # a second readable board keeps Read open
    s.level[:, 0] = 3
    s.coins[:, 0] = 5
    s.research[:, 0] = [0, 0, 1, 1]
    all_cards(s, hand=[T(game, "discourse-on-floating")])
    assert legal(game, s, A_CARD + T(game, "discourse-on-floating")).tolist() == [False, False, True, True]
    act(game, s, A_SPACE + SPACE(game, "court"))
    act(game, s, A_SEC + SEC_READ)
    assert (s.phase == P_TARGET).all()
    assert legal(game, s, A_BOARD + b).tolist() == [False, False, True, True]   # like playing it
    assert legal(game, s, A_BOARD + other).all()
    act(game, s, [A_BOARD + other, A_BOARD + other, A_BOARD + b, A_BOARD + b])
    assert s.research[2:, 0].tolist() == [0, 0]                # the Research -1 is paid
    assert s.vp[2:, 0].tolist() == [4, 4]                      # 2 VP x 2 Levels gained
    assert s.coins[2:, 0].tolist() == [3, 3] and s.vp[2:, 1].tolist() == [2, 2]


def test_window_space_icons_and_invention_bottom_icons_must_be_payable_before_they_start():
    # the other paths that activate icons: a Window space's icons after its cost, an Invention's bottom icons
    # after its costs; a place whose payments cannot be met is not offered
    game, s = new()
    set_icons(game, int(game.C.WIN_ISET[0, 0]), a=["coins -2", "vp +1"])
    s.coins[:, 0] = [1, 2, 1, 2]
    s.research[:, 0] = 9
    s.books[:, 0, ASTRONOMY] = 9
    s.level[:, 0] = 2
    act(game, s, A_SPACE + SPACE(game, "observatory"))
    act(game, s, A_GROUP)
    assert legal(game, s, A_SEC + SEC_OBSERVE).tolist() == [False, True, False, True]
    game, s = new()
    w = 3
    i, j = int(s.workshop[0, w]), int(s.workshop[0, w - 1])
    s.workshop[:, w] = i
    s.workshop[:, w - 1] = j                                   # a free Invention keeps Invent open everywhere
    set_icons(game, int(game.C.INV_BOTTOM[i]), a=["vp +1", "research -1"])
    set_icons(game, int(game.C.INV_BOTTOM[j]), a=["vp +1"])
    game.C.INV_COINS[i], game.C.INV_RES[i], game.C.INV_COINS[j], game.C.INV_RES[j] = 0, 1, 0, 0
    game.C.INV_BOOKS[i] = 0
    game.C.INV_BOOKS[j] = 0
    s.research[:, 0] = [1, 2, 1, 2]
    s.coins[:, 0] = 5
    start_invent(game, s)
    assert legal(game, s, A_SLOT + w).tolist() == [False, True, False, True]


# ---------------------------------------------------------------- Create an Invention
def start_invent(game, s):
    s.level[:, 0] = 2
    act(game, s, A_SPACE + SPACE(game, "workshop"))           # Invent, Coins +1
    effects_now(game, s)                                      # the Coin first
    act(game, s, A_SEC + SEC_INVENT)


def test_create_invention_pays_slot_and_card_costs_then_bottom_right_icons():
    game, s = new()
    tel, comp = INV(game, "telescope"), INV(game, "compass")
    s.workshop[:, :] = [tel, comp, INV(game, "sector"), INV(game, "lens-grinder")]
    s.coins[:, 0] = [4, 3, 9, 9]                              # +1 from the space
    start_invent(game, s)
    assert legal(game, s, A_SLOT + 0).all()                   # 3 (slot) + 1 (card) = 4
    act(game, s, A_SLOT + 0)
    assert s.coins[:, 0].tolist() == [1, 0, 6, 6]
    assert (s.inv_owner[:, tel] == 0).all()
    assert s.vp[:, 0].tolist() == [1] * 4                     # telescope bottom: VP +1


def test_workshop_slides_down_at_end_of_turn_and_reveals_from_current_period_deck():
    game, s = new()
    w = [INV(game, n) for n in ("telescope", "compass", "sector", "lens-grinder")]
    s.workshop[:, :] = w
    s.coins[:, 0] = 9
    s.inv_deck_n[1:3, 0] = 0                                  # games 1, 2: Period I deck empty
    s.cycle[:] = [1, 1, 3, 3]                                 # games 2, 3 in Period II
    top_deck = [int(s.inv_deck[g, 0 if g < 2 else 1, s.inv_deck_n[g, 0 if g < 2 else 1] - 1]) for g in range(4)]
    start_invent(game, s)
    act(game, s, A_SLOT + 2)
    assert s.workshop[:, 1:].tolist() == [[w[0], w[1], w[3]]] * 4
    assert s.workshop[0, 0] == top_deck[0] and s.workshop[1, 0] == -1
    assert s.workshop[2, 0] == top_deck[2] and s.workshop[3, 0] == top_deck[3]
    assert game.C.INV_PERIOD[s.workshop[2, 0]] == 2


# ---------------------------------------------------------------- Observe the Sky
def start_observe(game, s):
    all_cards(s, hand=[T(game, "sidereus-nuncius")])          # Research +2, Observe
    act(game, s, A_CARD + T(game, "sidereus-nuncius"))
    act(game, s, A_DONE)
    effects_now(game, s)                                      # the Research first
    act(game, s, A_SEC + SEC_OBSERVE)
    assert (s.phase == P_OLEVEL).all()


def test_first_observation_tile_is_level_one_on_the_bottom_left_start_space():
    game, s = new()
    s.research[:, 0] = 9
    s.books[:, 0, ASTRONOMY] = 9
    start_observe(game, s)
    m = game.legal_action_mask(s)
    assert m[:, A_OLEVEL].all() and not m[:, A_OLEVEL + 1:A_OLEVEL + 3].any()
    act(game, s, A_OLEVEL)
    act(game, s, A_KEEP)
    m = game.legal_action_mask(s)
    assert m[:, A_WIN + 0].all() and m[:, A_WIN + 1:A_WIN + 12].sum() == 0


def test_later_observation_tiles_go_orthogonally_next_to_your_tiles():
    game, s = new()
    s.research[:, 0] = 9
    s.books[:, 0, ASTRONOMY] = 9
    s.window[:, 0, 0, 0] = 0
    s.window[:, 0, 1, 1] = 9
    start_observe(game, s)
    assert legal(game, s, A_OLEVEL + 1).all() and legal(game, s, A_OLEVEL + 2).all()
    act(game, s, A_OLEVEL + 1)
    act(game, s, A_KEEP)
    m = game.legal_action_mask(s)[0]
    row1 = [bool(m[A_WIN + 4 + c]) for c in range(4)]
    assert row1 == [True, False, True, False]                 # next to (0,0) or (1,1), empty


def test_observe_draws_two_tiles_keeps_one_and_discards_the_other():
    game, s = new()
    s.research[:, 0] = 9
    s.books[:, 0, ASTRONOMY] = 9
    n0 = s.bag_n[:, 0].copy()
    start_observe(game, s)
    act(game, s, A_OLEVEL)
    assert (s.phase == P_OKEEP).all()
    drawn = s.obs_tiles.copy()
    act(game, s, [A_KEEP, A_KEEP + 1, A_KEEP, A_KEEP + 1])
    assert (s.bag_n[:, 0] == n0 - 2).all() and (s.bagdisc_n[:, 0] == 1).all()
    kept = [drawn[g, g % 2] for g in range(4)]
    assert s.bagdisc[:, 0, 0].tolist() == [drawn[g, 1 - g % 2] for g in range(4)]
    act(game, s, A_WIN + 0)
    assert s.window[:, 0, 0, 0].tolist() == kept


def test_observe_draws_one_and_keeps_it_when_one_tile_is_left():
    game, s = new()
    s.research[:, 0] = 9
    s.books[:, 0, ASTRONOMY] = 9
    s.bag_n[:, 0] = 1
    only = s.bag[:, 0, 0].copy()
    start_observe(game, s)
    act(game, s, A_OLEVEL)
    assert (s.phase == P_OSPACE).all()
    act(game, s, A_WIN + 0)
    assert s.window[:, 0, 0, 0].tolist() == only.tolist()


def test_empty_bag_refills_from_that_levels_discards():
    game, s = new()
    s.research[:, 0] = 9
    s.books[:, 0, ASTRONOMY] = 9
    s.bagdisc[:, 0, :3] = s.bag[:, 0, :3]
    s.bagdisc_n[:, 0] = 3
    s.bag_n[:, 0] = 0
    start_observe(game, s)
    act(game, s, A_OLEVEL)
    assert (s.phase == P_OKEEP).all()
    assert (s.bag_n[:, 0] == 1).all() and (s.bagdisc_n[:, 0] == 0).all()


#: Level I tiles drawn first and second in the 4 games of ``new()``, pinned: these tests need tiles whose icons
#: resolve without a further choice (the ones seed 3 drew before chance events were keyed by zone, issue 18)
SIMPLE_TILES = [(2, 5), (4, 2), (0, 2), (5, 4)]


def bag_top(s, lv, tiles):
    """Put ``tiles[g]`` (drawn first, then second) on top of game ``g``'s Level ``lv`` bag (a permutation still)."""
    for g, ts in enumerate(tiles):
        n = s.bag_n[g, lv - 1]
        for k, t in enumerate(ts):
            i, top = int(np.flatnonzero(s.bag[g, lv - 1, :n] == t)[0]), n - 1 - k
            s.bag[g, lv - 1, [i, top]] = s.bag[g, lv - 1, [top, i]]


def test_observe_pays_research_and_astronomy_books_of_the_space_then_two_vp_one_coin():
    game, s = new()
    bag_top(s, 1, SIMPLE_TILES)
    s.research[:, 0] = 5                                      # +2 from the card = 7
    s.books[:, 0, ASTRONOMY] = 3
    s.coins[:, 0] = 0
    s.window[:, 0, 0, 0] = 0
    start_observe(game, s)
    act(game, s, A_OLEVEL)
    act(game, s, A_KEEP)
    act(game, s, A_WIN + 1)                                   # row 0, col 1: 1 Research, 0 Astronomy
    assert s.research[:, 0].tolist() == [6] * 4
    assert s.books[:, 0, ASTRONOMY].tolist() == [5] * 4       # 3 + 2 from the card's spine, none paid
    assert (s.phase == P_OORDER).all()
    assert s.vp_cat[:, 0, C_OBSERVATION].tolist() == [0] * 4  # the bonus waits for the icons
    coins = s.coins[:, 0].copy()
    act(game, s, A_KEEP)
    assert s.vp_cat[:, 0, C_OBSERVATION].tolist() == [2] * 4
    assert (s.coins[:, 0] >= coins + 1).all()


def test_observation_space_and_tile_icons_resolve_in_the_order_chosen():
    game, s = new()
    bag_top(s, 1, SIMPLE_TILES)
    s.research[:, 0] = 9
    s.books[:, 0, ASTRONOMY] = 9
    start_observe(game, s)
    act(game, s, A_OLEVEL)
    act(game, s, A_KEEP)
    act(game, s, A_WIN + 0)
    assert legal(game, s, A_KEEP).all() and legal(game, s, A_KEEP + 1).all()
    act(game, s, [A_KEEP, A_KEEP + 1, A_KEEP, A_KEEP + 1])
    cell = game.C.WIN_ISET[0, 0]
    tile = [game.C.TILE_ISET[s.window[g, 0, 0, 0]] for g in range(4)]
    # whatever is still pending sits on the frame stack in the chosen order (space first -> tile below)
    for g in range(4):
        if s.fr_n[g] >= 2 and s.phase[g] != P_SEC:
            assert s.fr_set[g, s.fr_n[g] - 1] == (cell if g % 2 == 0 else tile[g])
    assert s.coins[:, 0].min() >= 1                           # Window (0,0) Coins +1 happened in every game


# ---------------------------------------------------------------- Draw
def test_draw_reshuffles_discard_when_deck_is_empty():
    game, s = new()
    ab = T(game, "abacus")
    all_cards(s, hand=[], deck=[], discard=[ab] * 3)
    act(game, s, A_SPACE + SPACE(game, "printing-house"))
    act(game, s, A_SEC + SEC_DRAW)
    for g in range(4):
        assert zone_count(s, g, 0, Z_HAND) == 1 and s.deck_n[g, 0] == 2 and zone_count(s, g, 0, Z_DISCARD) == 0


def test_draw_gives_nothing_when_every_owned_card_is_in_hand_or_play():
    game, s = new()
    ab = T(game, "abacus")
    all_cards(s, hand=[ab, ab], play=[ab])
    act(game, s, A_SPACE + SPACE(game, "printing-house"))
    act(game, s, A_SEC + SEC_DRAW)
    for g in range(4):
        assert zone_count(s, g, 0, Z_HAND) == 2 and zone_count(s, g, 0, Z_PLAY) == 1


# ---------------------------------------------------------------- Remove a Treatise Card
def test_remove_treatise_from_hand_discard_or_play_gains_spine_books_never_penance():
    game, s = new()
    pen, ab, pend, dia = T(game, "penance"), T(game, "abacus"), T(game, "pendulum"), T(game, "dialogue")
    all_cards(s, hand=[pen, ab], discard=[pend], play=[dia])
    s.level[:, 0] = 3
    s.books[:, 0, :] = 0
    act(game, s, A_SPACE + SPACE(game, "court"))              # Read (III), Remove
    act(game, s, A_SEC + SEC_REMOVE)
    assert (s.phase == P_REMOVE).all()
    m = game.legal_action_mask(s)
    assert not m[:, A_CARD + pen].any()
    assert m[:, A_CARD + ab].all() and m[:, A_RMDISC + pend].all() and m[:, A_RMPLAY + dia].all()
    act(game, s, [A_CARD + ab, A_RMDISC + pend, A_RMPLAY + dia, A_CARD + ab])
    assert zone_of(s, 0, 0, ab) == [Z_REMOVED] and zone_of(s, 1, 0, pend) == [Z_REMOVED]
    assert zone_of(s, 2, 0, dia) == [Z_REMOVED]
    assert s.books[:, 0, :].sum(1).tolist() == [1, 1, 1, 1]
    assert s.books[1, 0, PHYSICS] == 1


def test_observe_bonus_comes_after_the_icons_on_the_space_and_the_tile():
    game, s = new()
    set_icons(game, int(game.C.WIN_ISET[0, 0]), a=["vp_x2"])   # start space: x2 the VP this action gave
    for t in range(len(game.C.TILE_ISET)):
        set_icons(game, int(game.C.TILE_ISET[t]), a=["research +1"])
    s.research[:, 0] = 9
    s.books[:, 0, ASTRONOMY] = 9
    start_observe(game, s)
    s.act_vp[:] = [0, 1, 0, 3]                                # VP this Main Action already gave
    act(game, s, A_OLEVEL)
    act(game, s, A_KEEP)
    act(game, s, A_WIN + 0)
    act(game, s, [A_KEEP, A_KEEP + 1, A_KEEP, A_KEEP + 1])      # either order of the two icon sets
    assert (s.to_act == 1).all()                                # the turn is over
    # x2 doubled only what the action gave before; the 2 VP bonus came after the icons, undoubled
    assert s.vp_cat[:, 0, C_ICONS].tolist() == [0, 1, 0, 3]
    assert s.vp_cat[:, 0, C_OBSERVATION].tolist() == [2] * 4
