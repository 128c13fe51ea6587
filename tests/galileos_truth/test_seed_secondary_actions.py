"""Seed rules: the Secondary Actions (Write, Copy, Read, Create an Invention, Observe, Draw, Remove)."""

from meeplelab.sim.galileos_truth import GalileosTruth
from meeplelab.sim.galileos_truth.content import ASTRONOMY, PHYSICS
from meeplelab.sim.galileos_truth.state import C_ICONS, C_OBSERVATION, Z_DECK, Z_DISCARD, Z_HAND, Z_PLAY, Z_REMOVED

from .helpers import BOARD, GAMES, INV, T, card, effects_now, positions, set_icons, space, zone_count, zone_of


def board(game, name):
    """The label of the action choosing Treatise board ``name``."""
    return f"treatise:{BOARD(game, name)}"


def legal_prefix(pos, prefix):
    """The legal actions whose label starts with ``prefix``."""
    return [a for a in pos.legal() if a.startswith(prefix)]


SEC_WRITE, SEC_COPY, SEC_READ, SEC_INVENT, SEC_OBSERVE, SEC_DRAW, SEC_REMOVE = (
    f"secondary:{n}" for n in ("write", "copy", "read", "invent", "observe", "draw", "remove"))


def start_write(pos):
    pos.act(space(pos.game, "printing-house"), SEC_WRITE)
    assert pos.pending().decision == "P_TARGET"


# ---------------------------------------------------------------- Write
def test_write_one_copy_of_each_treatise_per_player():
    game = GalileosTruth()
    b00, b01, legal = board(game, "b0-0"), board(game, "b0-1"), []
    for pos, own in zip(positions(game), [0, 1, 0, 1]):
        pos.set(seat=0, research=9, books=[3, 3, 3, 3])
        pos.put("tseal", (BOARD(game, "b0-0"), 0), own)        # seat 0's own seal in games 0 and 2
        start_write(pos)
        legal.append(b00 in pos.legal())
        assert b01 in pos.legal()
    assert legal == [False, True, False, True]


def test_write_pays_books_and_three_research_on_the_bottom_row():
    game = GalileosTruth()
    ps, ok = positions(game), []
    for g, pos, r, b in zip(GAMES, ps, [4, 3, 2, 4], [3, 2, 2, 1]):
        pos.set(seat=0, research=r)
        pos.put("books", ASTRONOMY, b, seat=0)                 # b0-0 needs Astronomy 2
        pos.act(space(game, "printing-house"))
        ok.append(SEC_WRITE in pos.legal())
        if g < 2:
            pos.act(SEC_WRITE, "treatise:0")
        else:
            pos.act("done")
    assert ok == [True, True, False, False]
    assert [pos.get("research", seat=0) for pos in ps[:2]] == [1, 0]
    assert [pos.get("books", seat=0)[ASTRONOMY] for pos in ps[:2]] == [1, 0]


def test_write_higher_row_skips_one_research_cost_per_seal_on_the_boards_below():
    game = GalileosTruth()
    b = board(game, "b1-0")                                     # above b0-0 and b0-1, costs 2 + 2
    ps = positions(game)
    for pos in ps:
        pos.set(seat=0, research=5)
        pos.put("books", PHYSICS, 2, seat=0)
        pos.put("books", ASTRONOMY, 1, seat=0)
    ps[1].put("tseal", (0, 0), 0)
    ps[2].put("tseal", (1, 0), 0)
    ps[3].put("tseal", (0, 0), 0)
    ps[3].put("tseal", (1, 0), 0)
    for pos in ps:
        start_write(pos)
        pos.act(b)
    assert [pos.get("research", seat=0) for pos in ps] == [1, 3, 3, 5]


def test_write_seal_on_leftmost_free_space_scores_its_vp():
    game = GalileosTruth()
    ps = positions(game)
    for pos, s0, s1 in zip(ps, [-1, 1, 1, 1], [-1, -1, 1, 1]):
        pos.set(seat=0, research=3)
        pos.put("books", ASTRONOMY, 2, seat=0)
        pos.put("tseal", (0, 0), s0)
        pos.put("tseal", (0, 1), s1)
        start_write(pos)
        pos.act("treatise:0")
    assert [pos.get("vp", seat=0) for pos in ps[:3]] == [3, 2, 1]   # seal spaces print 3, 2, 1, 1
    assert ps[0].get("tseal")[0][0] == 0 and ps[1].get("tseal")[0][1] == 0 and ps[2].get("tseal")[0][2] == 0
    assert [sum(pos.get("mentor", seat=0)) for pos in ps] == [11] * 4


def test_written_card_goes_on_top_of_the_deck_or_to_hand_discarding_another_non_penance_treatise():
    game = GalileosTruth()
    ab, pen, sid = card(game, "abacus"), card(game, "penance"), T(game, "sidereus-nuncius")
    ps = positions(game)
    for pos, place in zip(ps, ["card-to-deck-top", "card-to-deck-top", ab, ab]):
        pos.give("cards", 0, hand=["abacus", "penance"], deck=["euclid"])
        pos.set(seat=0, research=3)
        pos.put("books", ASTRONOMY, 2, seat=0)
        start_write(pos)
        pos.act("treatise:0")
        assert pos.pending().decision == "P_PLACE"
        assert ab in pos.legal() and pen not in pos.legal()
        pos.act(place)
    for pos in ps[:2]:
        top = pos.get("deck_0")[pos.get("deck_n", seat=0) - 1]
        assert pos.get("ctype", seat=0)[top] == sid and zone_of(pos, "sidereus-nuncius") == [Z_DECK]
        assert zone_of(pos, "abacus") == [Z_HAND]
    for pos in ps[2:]:
        assert zone_of(pos, "sidereus-nuncius") == [Z_HAND] and zone_of(pos, "abacus") == [Z_DISCARD]


# ---------------------------------------------------------------- Copy
def start_copy(pos):
    pos.set(seat=0, level=2)
    pos.act(space(pos.game, "academy"))                        # Copy (Level II, 2 Coins, 2 VP) | Research +2
    pos.act("group:a", SEC_COPY)
    assert pos.pending().decision == "P_TARGET"


def test_copy_needs_the_level_cap_not_owned_and_another_players_seal():
    game = GalileosTruth()
    for pos in positions(game):
        pos.set(seat=0, coins=5)
        pos.put("tseal", (BOARD(game, "b0-0"), 0), 1)          # another player's seal: copyable
        pos.put("tseal", (BOARD(game, "b0-2"), 0), 0)          # own seal: not
        pos.put("tseal", (BOARD(game, "b2-0"), 0), 1)          # Level III > the action's Level II
        start_copy(pos)
        legal = pos.legal()
        assert board(game, "b0-0") in legal
        for b in ("b0-1", "b0-2", "b2-0"):
            assert board(game, b) not in legal, b


def test_copy_pays_coins_seals_rightmost_space_scores_nothing_and_leftmost_owner_scores():
    game = GalileosTruth()
    b = BOARD(game, "b0-1")
    for pos in positions(game, players=3):
        pos.set(seat=0, coins=5)
        pos.put("tseal", (b, 0), 2)
        pos.put("tseal", (b, 1), 1)
        start_copy(pos)
        pos.act(f"treatise:{b}")
        assert pos.get("coins", seat=0) == 3
        assert pos.get("tseal")[b][3] == 0
        assert pos.get("vp", seat=0) == 0
        assert pos.get("vp", seat=2) == 2 and pos.get("vp", seat=1) == 0
        assert pos.pending().decision == "P_PLACE"


# ---------------------------------------------------------------- Read
def start_read(pos):
    pos.act(space(pos.game, "library"))                        # Read (Level I, 1 Coin, 1 VP) | any Book
    pos.act("group:a", SEC_READ)
    assert pos.pending().decision == "P_TARGET"


def test_read_needs_level_cap_and_any_seal():
    game = GalileosTruth()
    for pos in positions(game):
        pos.put("tseal", (BOARD(game, "b0-1"), 0), 0)
        pos.put("tseal", (BOARD(game, "b1-0"), 0), 1)
        start_read(pos)
        legal = pos.legal()
        assert board(game, "b0-1") in legal                    # own seal is fine for Read
        assert board(game, "b0-0") not in legal                # no seal
        assert board(game, "b1-0") not in legal                # above the Level cap


def test_read_pays_leftmost_seal_owner_unless_reader():
    game = GalileosTruth()
    b = BOARD(game, "b0-1")
    ps = positions(game)
    for pos, s0, s1 in zip(ps, [1, 0, 1, 0], [0, 1, 0, 1]):
        pos.set(seat=0, coins=5)
        pos.put("tseal", (b, 0), s0)
        pos.put("tseal", (b, 1), s1)
        start_read(pos)
        pos.act(f"treatise:{b}")
    assert [pos.get("vp", seat=1) for pos in ps] == [1, 0, 1, 0]
    r = ps[0].events("read")[0]
    assert r["target_seat"] == 1 and r["amount"] == 1


def test_read_activates_the_treatise_icons_on_their_own():
    game = GalileosTruth()
    b = BOARD(game, "b0-1")                                    # on-motion: Coins +2, Invent
    ps = positions(game)
    for pos in ps:
        pos.set(seat=0, coins=5)
        pos.put("tseal", (b, 0), 1)
        pos.give("cards", 0, hand=["pendulum"])
        start_read(pos)
        pos.act(f"treatise:{b}")
        assert pos.get("coins", seat=0) == 4                  # -1 to read; the page's Coins +2 still pending
        p = pos.pending()
        assert p.decision == "P_SEC" and "effects" in p.options and "done" not in p.options
        pos.act("effects")
        assert pos.get("coins", seat=0) == 6                  # -1 to read, +2 from the page
        assert pos.get("fr_n") == 2                           # the page's frame above the space's
    assert zone_of(ps[0], "pendulum") == [Z_HAND]              # hand untouched


def test_read_activates_all_its_icons_as_if_you_were_playing_it_payments_included():
    # board b2-1 (discourse-on-floating: VP x Level, Research -1) sealed by seat 1; seat 0
    # at Level III with 5 Coins reads it from the Court (Read Level 3, 2 Coins, 2 VP to the seal's owner)
    game = GalileosTruth()
    b, other = board(game, "b2-1"), board(game, "b0-1")
    ps, playable, readable = positions(game), [], []
    for g, pos, r in zip(GAMES, ps, [0, 0, 1, 1]):
        pos.put("tseal", (BOARD(game, "b2-1"), 0), 1)
        pos.put("tseal", (BOARD(game, "b0-1"), 0), 1)          # a second readable board keeps Read open
        pos.set(seat=0, level=3, coins=5, research=r)
        pos.give("cards", 0, hand=["discourse-on-floating"])
        playable.append(card(game, "discourse-on-floating") in pos.legal())
        pos.act(space(game, "court"), SEC_READ)
        assert pos.pending().decision == "P_TARGET"
        readable.append(b in pos.legal())                      # like playing it
        assert other in pos.legal()
        pos.act(other if g < 2 else b)
    assert playable == [False, False, True, True]
    assert readable == [False, False, True, True]
    assert [pos.get("research", seat=0) for pos in ps[2:]] == [0, 0]   # the Research -1 is paid
    assert [pos.get("vp", seat=0) for pos in ps[2:]] == [4, 4]         # 2 VP x 2 Levels gained
    assert [pos.get("coins", seat=0) for pos in ps[2:]] == [3, 3]
    assert [pos.get("vp", seat=1) for pos in ps[2:]] == [2, 2]


def test_window_space_icons_and_invention_bottom_icons_must_be_payable_before_they_start():
    # the other paths that activate icons: a Window space's icons after its cost, an Invention's bottom icons
    # after its costs; a place whose payments cannot be met is not offered
    game = GalileosTruth()
    set_icons(game, int(game.C.WIN_ISET[0, 0]), a=["coins -2", "vp +1"])
    observe = []
    for pos, c in zip(positions(game), [1, 2, 1, 2]):
        pos.set(seat=0, coins=c, research=9, level=2)
        pos.put("books", ASTRONOMY, 9, seat=0)
        pos.act(space(game, "observatory"), "group:a")
        observe.append(SEC_OBSERVE in pos.legal())
    assert observe == [False, True, False, True]
    game = GalileosTruth()
    ps = positions(game)
    w = 3
    i, j = ps[0].get("workshop")[w], ps[0].get("workshop")[w - 1]
    set_icons(game, int(game.C.INV_BOTTOM[i]), a=["vp +1", "research -1"])
    set_icons(game, int(game.C.INV_BOTTOM[j]), a=["vp +1"])
    game.C.INV_COINS[i], game.C.INV_RES[i], game.C.INV_COINS[j], game.C.INV_RES[j] = 0, 1, 0, 0
    game.C.INV_BOOKS[i] = 0
    game.C.INV_BOOKS[j] = 0
    slot = []
    for pos, r in zip(ps, [1, 2, 1, 2]):
        pos.put("workshop", w, i)
        pos.put("workshop", w - 1, j)                          # a free Invention keeps Invent open everywhere
        pos.set(seat=0, research=r, coins=5)
        start_invent(pos)
        slot.append(f"workshop-slot:{w}" in pos.legal())
    assert slot == [False, True, False, True]


# ---------------------------------------------------------------- Create an Invention
def start_invent(pos):
    pos.set(seat=0, level=2)
    pos.act(space(pos.game, "workshop"))                       # Invent, Coins +1
    effects_now(pos)                                          # the Coin first
    pos.act(SEC_INVENT)


def test_create_invention_pays_slot_and_card_costs_then_bottom_right_icons():
    game = GalileosTruth()
    tel, comp = INV(game, "telescope"), INV(game, "compass")
    ps = positions(game)
    for pos, c in zip(ps, [4, 3, 9, 9]):                      # +1 from the space
        pos.set(workshop=[tel, comp, INV(game, "sector"), INV(game, "lens-grinder")])
        pos.set(seat=0, coins=c)
        start_invent(pos)
        assert "workshop-slot:0" in pos.legal()               # 3 (slot) + 1 (card) = 4
        pos.act("workshop-slot:0")
        assert pos.get("inv_owner")[tel] == 0
        assert pos.get("vp", seat=0) == 1                     # telescope bottom: VP +1
    assert [pos.get("coins", seat=0) for pos in ps] == [1, 0, 6, 6]


def test_workshop_slides_down_at_end_of_turn_and_reveals_from_current_period_deck():
    game = GalileosTruth()
    w = [INV(game, n) for n in ("telescope", "compass", "sector", "lens-grinder")]
    ps, top_deck = positions(game), []
    for g, pos, cycle in zip(GAMES, ps, [1, 1, 3, 3]):        # games 2, 3 in Period II
        pos.set(workshop=w, cycle=cycle)
        pos.set(seat=0, coins=9)
        if g in (1, 2):
            pos.put("inv_deck_n", 0, 0)                       # games 1, 2: Period I deck empty
        period = 0 if g < 2 else 1
        top_deck.append(pos.get(f"inv_deck_{period + 1}")[pos.get("inv_deck_n")[period] - 1])
        start_invent(pos)
        pos.act("workshop-slot:2")
    ws = [pos.get("workshop") for pos in ps]
    assert [x[1:] for x in ws] == [[w[0], w[1], w[3]]] * 4
    assert ws[0][0] == top_deck[0] and ws[1][0] == -1
    assert ws[2][0] == top_deck[2] and ws[3][0] == top_deck[3]
    assert game.C.INV_PERIOD[ws[2][0]] == 2


# ---------------------------------------------------------------- Observe the Sky
def start_observe(pos):
    pos.give("cards", 0, hand=["sidereus-nuncius"])            # Research +2, Observe
    pos.act(card(pos.game, "sidereus-nuncius"), "done")
    effects_now(pos)                                          # the Research first
    pos.act(SEC_OBSERVE)
    assert pos.pending().decision == "P_OLEVEL"


def test_first_observation_tile_is_level_one_on_the_bottom_left_start_space():
    game = GalileosTruth()
    for pos in positions(game):
        pos.set(seat=0, research=9)
        pos.put("books", ASTRONOMY, 9, seat=0)
        start_observe(pos)
        assert legal_prefix(pos, "observe-level:") == ["observe-level:1"]
        pos.act("observe-level:1", "keep-tile:0")
        assert legal_prefix(pos, "window:") == ["window:row0:col0"]


def test_later_observation_tiles_go_orthogonally_next_to_your_tiles():
    game = GalileosTruth()
    for g, pos in zip(GAMES, positions(game)):
        pos.set(seat=0, research=9)
        pos.put("books", ASTRONOMY, 9, seat=0)
        pos.put("window", (0, 0), 0, seat=0)
        pos.put("window", (1, 1), 9, seat=0)
        start_observe(pos)
        assert "observe-level:2" in pos.legal() and "observe-level:3" in pos.legal()
        pos.act("observe-level:2", "keep-tile:0")
        if g == 0:
            row1 = [f"window:row1:col{c}" in pos.legal() for c in range(4)]
            assert row1 == [True, False, True, False]             # next to (0,0) or (1,1), empty


def test_observe_draws_two_tiles_keeps_one_and_discards_the_other():
    game = GalileosTruth()
    for g, pos in zip(GAMES, positions(game)):
        pos.set(seat=0, research=9)
        pos.put("books", ASTRONOMY, 9, seat=0)
        n0 = pos.get("bag_n")[0]
        start_observe(pos)
        pos.act("observe-level:1")
        assert pos.pending().decision == "P_OKEEP"
        drawn = pos.get("obs_tiles")
        pos.act(f"keep-tile:{g % 2}")
        assert pos.get("bag_n")[0] == n0 - 2 and pos.get("bagdisc_n")[0] == 1
        kept = drawn[g % 2]
        assert pos.get("bagdisc_1")[0] == drawn[1 - g % 2]
        pos.act("window:row0:col0")
        assert pos.get("window", seat=0)[0][0] == kept


def test_observe_draws_one_and_keeps_it_when_one_tile_is_left():
    game = GalileosTruth()
    for pos in positions(game):
        pos.set(seat=0, research=9)
        pos.put("books", ASTRONOMY, 9, seat=0)
        pos.put("bag_n", 0, 1)
        only = pos.get("bag_1")[0]
        start_observe(pos)
        pos.act("observe-level:1")
        assert pos.pending().decision == "P_OSPACE"
        pos.act("window:row0:col0")
        assert pos.get("window", seat=0)[0][0] == only


def test_empty_bag_refills_from_that_levels_discards():
    game = GalileosTruth()
    for pos in positions(game):
        pos.set(seat=0, research=9)
        pos.put("books", ASTRONOMY, 9, seat=0)
        pos.put("bagdisc_1", slice(0, 3), pos.get("bag_1")[:3])
        pos.put("bagdisc_n", 0, 3)
        pos.put("bag_n", 0, 0)
        start_observe(pos)
        pos.act("observe-level:1")
        assert pos.pending().decision == "P_OKEEP"
        assert pos.get("bag_n")[0] == 1 and pos.get("bagdisc_n")[0] == 0


#: Level I tiles put first and second on top of the bag in the 4 games of seed 3 (game ids 0-3, ``bag_top``),
#: pinned: these tests need tiles whose icons resolve without a further choice
SIMPLE_TILES = [(2, 5), (4, 2), (0, 2), (5, 4)]


def bag_top(pos, lv, tiles):
    """Put ``tiles`` (drawn first, then second) on top of the Level ``lv`` bag (a permutation still)."""
    bag, n = pos.get(f"bag_{lv}"), pos.get("bag_n")[lv - 1]
    for k, t in enumerate(tiles):
        i, top = bag[:n].index(t), n - 1 - k
        bag[i], bag[top] = bag[top], bag[i]
    pos.set(**{f"bag_{lv}": bag})


def test_observe_pays_research_and_astronomy_books_of_the_space_then_two_vp_one_coin():
    game = GalileosTruth()
    for pos, tiles in zip(positions(game), SIMPLE_TILES):
        bag_top(pos, 1, tiles)
        pos.set(seat=0, research=5, coins=0)                  # +2 Research from the card = 7
        pos.put("books", ASTRONOMY, 3, seat=0)
        pos.put("window", (0, 0), 0, seat=0)
        start_observe(pos)
        pos.act("observe-level:1", "keep-tile:0")
        pos.act("window:row0:col1")                           # row 0, col 1: 1 Research, 0 Astronomy
        assert pos.get("research", seat=0) == 6
        assert pos.get("books", seat=0)[ASTRONOMY] == 5       # 3 + 2 from the card's spine, none paid
        assert pos.pending().decision == "P_OORDER"
        assert pos.get("vp_cat", seat=0)[C_OBSERVATION] == 0  # the bonus waits for the icons
        coins = pos.get("coins", seat=0)
        pos.act("space-icons-first")
        assert pos.get("vp_cat", seat=0)[C_OBSERVATION] == 2
        assert pos.get("coins", seat=0) >= coins + 1


def test_observation_space_and_tile_icons_resolve_in_the_order_chosen():
    game = GalileosTruth()
    cell = game.C.WIN_ISET[0, 0]
    for g, pos, tiles in zip(GAMES, positions(game), SIMPLE_TILES):
        bag_top(pos, 1, tiles)
        pos.set(seat=0, research=9)
        pos.put("books", ASTRONOMY, 9, seat=0)
        start_observe(pos)
        pos.act("observe-level:1", "keep-tile:0", "window:row0:col0")
        assert "space-icons-first" in pos.legal() and "tile-icons-first" in pos.legal()
        pos.act(("space-icons-first", "tile-icons-first")[g % 2])
        tile = game.C.TILE_ISET[pos.get("window", seat=0)[0][0]]
        # whatever is still pending sits on the frame stack in the chosen order (space first -> tile below)
        n = pos.get("fr_n")
        if n >= 2 and pos.pending().decision != "P_SEC":
            assert pos.get("fr_set")[n - 1] == (cell if g % 2 == 0 else tile)
        assert pos.get("coins", seat=0) >= 1                  # Window (0,0) Coins +1 happened in every game


# ---------------------------------------------------------------- Draw
def test_draw_reshuffles_discard_when_deck_is_empty():
    game = GalileosTruth()
    for pos in positions(game):
        pos.give("cards", 0, hand=[], deck=[], discard=["abacus"] * 3)
        pos.act(space(game, "printing-house"), SEC_DRAW)
        assert zone_count(pos, Z_HAND) == 1 and pos.get("deck_n", seat=0) == 2 and zone_count(pos, Z_DISCARD) == 0


def test_draw_gives_nothing_when_every_owned_card_is_in_hand_or_play():
    game = GalileosTruth()
    for pos in positions(game):
        pos.give("cards", 0, hand=["abacus", "abacus"], play=["abacus"])
        pos.act(space(game, "printing-house"), SEC_DRAW)
        assert zone_count(pos, Z_HAND) == 2 and zone_count(pos, Z_PLAY) == 1


# ---------------------------------------------------------------- Remove a Treatise Card
def test_remove_treatise_from_hand_discard_or_play_gains_spine_books_never_penance():
    game = GalileosTruth()
    pen, ab = card(game, "penance"), card(game, "abacus")
    pend, dia = card(game, "pendulum", "remove-discard"), card(game, "dialogue", "remove-play")
    ps = positions(game)
    for pos, rm in zip(ps, [ab, pend, dia, ab]):
        pos.give("cards", 0, hand=["penance", "abacus"], discard=["pendulum"], play=["dialogue"])
        pos.set(seat=0, level=3, books=[0, 0, 0, 0])
        pos.act(space(game, "court"), SEC_REMOVE)              # Read (III), Remove
        assert pos.pending().decision == "P_REMOVE"
        legal = pos.legal()
        assert pen not in legal
        assert ab in legal and pend in legal and dia in legal
        pos.act(rm)
    assert zone_of(ps[0], "abacus") == [Z_REMOVED] and zone_of(ps[1], "pendulum") == [Z_REMOVED]
    assert zone_of(ps[2], "dialogue") == [Z_REMOVED]
    assert [sum(pos.get("books", seat=0)) for pos in ps] == [1, 1, 1, 1]
    assert ps[1].get("books", seat=0)[PHYSICS] == 1


def test_observe_bonus_comes_after_the_icons_on_the_space_and_the_tile():
    game = GalileosTruth()
    set_icons(game, int(game.C.WIN_ISET[0, 0]), a=["vp_x2"])   # start space: x2 the VP this action gave
    for t in range(len(game.C.TILE_ISET)):
        set_icons(game, int(game.C.TILE_ISET[t]), a=["research +1"])
    ps = positions(game)
    for g, pos, act_vp in zip(GAMES, ps, [0, 1, 0, 3]):
        pos.set(seat=0, research=9)
        pos.put("books", ASTRONOMY, 9, seat=0)
        start_observe(pos)
        pos.set(act_vp=act_vp)                                 # VP this Main Action already gave
        pos.act("observe-level:1", "keep-tile:0", "window:row0:col0")
        pos.act(("space-icons-first", "tile-icons-first")[g % 2])  # either order of the two icon sets
        assert pos.get("to_act") == 1                          # the turn is over
    # x2 doubled only what the action gave before; the 2 VP bonus came after the icons, undoubled
    assert [pos.get("vp_cat", seat=0)[C_ICONS] for pos in ps] == [0, 1, 0, 3]
    assert [pos.get("vp_cat", seat=0)[C_OBSERVATION] for pos in ps] == [2] * 4
