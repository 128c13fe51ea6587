"""Seed rules: the Effects table, every modifier (icons set on a test card's page)."""

from meeplelab.sim.core.position import Position
from meeplelab.sim.galileos_truth import GalileosTruth
from meeplelab.sim.galileos_truth.content import ASTRONOMY, MATHEMATICS, PHILOSOPHY, PHYSICS
from meeplelab.sim.galileos_truth.state import (C_END_LOSS, C_ICONS, C_MASTERY, C_SEALS, PH_ON_SPACE, PH_PRISON, PH_STAKE,
                                                PH_STANDING)

from .helpers import GAMES, card, card_icons, effects_now, positions


def play_test_card(pos, icons, icons_b=(), sep="none", extra_play=()):
    """Seat 0 plays ``star-charts`` (Astronomy, 1 Book) whose page is set to ``icons``."""
    card_icons(pos.game, "star-charts", icons, icons_b, sep)
    pos.give("cards", 0, hand=["star-charts"], play=list(extra_play))
    pos.act(card(pos.game, "star-charts"), "done")


def test_coins_gain_and_red_number_pays():
    game = GalileosTruth()
    card_icons(game, "star-charts", ["coins -2", "research +1"])
    sc = card(game, "star-charts")
    legal, coins = [], []
    for g, pos, c in zip(GAMES, positions(game), [1, 2, 5, 0]):
        pos.give("cards", 0, hand=["star-charts"])
        pos.set(seat=0, coins=c)
        legal.append(sc in pos.legal())
        if g in (1, 2):
            pos.act(sc, "done")
        coins.append(pos.get("coins", seat=0))
    assert legal == [False, True, True, False]
    assert coins == [1, 0, 3, 0]


def test_research_gain_and_red_number_pays():
    game = GalileosTruth()
    ps = positions(game)
    card_icons(game, "star-charts", ["research -2"])
    sc = card(game, "star-charts")
    legal = []
    for pos, r in zip(ps, [3, 1, 3, 1]):
        pos.set(seat=0, research=r)
        pos.give("cards", 0, hand=["star-charts"])
        legal.append(sc in pos.legal())
    assert legal == [True, False, True, False]
    for pos in ps:
        pos.set(seat=0, research=3)
        play_test_card(pos, ["research +2"])
    assert [pos.get("research", seat=0) for pos in ps] == [5] * 4


def test_red_number_is_paid_in_full_even_when_printed_before_the_gain_that_funds_it():
    # a payment is never skipped (A-GT-24 revised): printed before its gain, it waits for the gain
    game = GalileosTruth()
    ps = positions(game)
    for pos, c in zip(ps, [0, 0, 3, 3]):
        pos.set(seat=0, research=0, coins=c)
        play_test_card(pos, ["research -1", "coins -2", "research +1", "coins +2"])
    assert [pos.get("research", seat=0) for pos in ps] == [0] * 4
    assert [pos.get("coins", seat=0) for pos in ps] == [0, 0, 3, 3]


def test_vp_plus_adds_to_the_action_vp_and_x2_doubles_it():
    game = GalileosTruth()
    for pos in positions(game):
        play_test_card(pos, ["vp +2", "vp_plus 1", "vp_x2"])
        assert pos.pending().decision == "P_SEC"                # the order matters here, so it is asked (A-GT-25)
        effects_now(pos)                                         # printed order
        assert pos.get("vp", seat=0) == 6                        # (2 + 1) x 2
        assert pos.get("vp_cat", seat=0)[C_ICONS] == 6


def test_red_vp_with_end_game_sign_is_lost_at_the_end():
    game = GalileosTruth()
    for pos in positions(game, players=1):
        pos.set(cycle=5)
        play_test_card(pos, ["vp_end -3"])
        assert pos.get("vp", seat=0) == 0                        # nothing lost yet
        pos.act("pass")
        assert pos.get("over") is True
        assert pos.get("vp_cat", seat=0)[C_END_LOSS] == -3


def test_vp_times_level_is_two_per_level_gained():
    game = GalileosTruth()
    ps = positions(game)
    for pos, lv in zip(ps, [1, 2, 3, 4]):
        pos.set(seat=0, level=lv)
        play_test_card(pos, ["vp_xlevel"])
    assert [pos.get("vp", seat=0) for pos in ps] == [0, 2, 4, 6]


def test_vp_lvl_depends_on_the_level():
    game = GalileosTruth()
    ps = positions(game)
    for pos, lv in zip(ps, [1, 2, 3, 4]):
        pos.set(seat=0, level=lv)
        play_test_card(pos, ["vp_lvl 1 3 5 9"])
    assert [pos.get("vp", seat=0) for pos in ps] == [1, 3, 5, 9]


def test_suspicion_down_and_times_different_subjects_in_play_purple_ignored_up_to_four():
    game = GalileosTruth()
    extra = [["pendulum", "starry-messenger"],             # Physics, purple
             ["pendulum", "euclid", "dialogue"],           # + Math, Philosophy
             ["lunar-notes"],                              # same Subject as the card
             ["penance", "wild-compendium"]]               # not Treatises of a Subject
    ps = positions(game)
    for pos, play in zip(ps, extra):
        pos.set(seat=0, susp=9)
        play_test_card(pos, ["susp_down_diff"], extra_play=play)
    assert [pos.get("susp", seat=0) for pos in ps] == [7, 5, 8, 8]


def test_suspicion_down_plain_number():
    game = GalileosTruth()
    ps = positions(game)
    for pos, v in zip(ps, [5, 1, 0, 12]):
        pos.set(seat=0, susp=v)
        play_test_card(pos, ["susp_down 2"])
    assert [pos.get("susp", seat=0) for pos in ps] == [3, 0, 0, 10]


def test_suspicion_up_with_dark_base_raises_every_other_player():
    game = GalileosTruth()
    pos = Position.start(game, players=3, seed=3, game_id=0)
    for p in range(3):
        pos.set(seat=p, susp=2)
    pos.set(seat=1, coper=False)
    play_test_card(pos, ["susp_up_others 1"])
    assert [pos.get("susp", seat=p) for p in range(3)] == [2, 3, 3]


def test_suspicion_up_with_copernican_coin_raises_every_copernican():
    game = GalileosTruth()
    ps = positions(game, players=3)
    coper = [[True, False, True], [False, True, False], [True, True, True], [False, False, False]]
    for pos, cs in zip(ps, coper):
        for p, c in enumerate(cs):
            pos.set(seat=p, susp=2, coper=c)
        play_test_card(pos, ["susp_up_copernicans 2"])
    assert [[pos.get("susp", seat=p) for p in range(3)] for pos in ps] == [[4, 2, 4], [2, 4, 2], [4, 4, 4], [2, 2, 2]]


def test_books_of_that_subject_gained():
    game = GalileosTruth()
    for pos in positions(game):
        pos.set(seat=0, books=[0, 0, 0, 0])
        play_test_card(pos, ["books mathematics 2"])
        assert pos.get("books", seat=0)[MATHEMATICS] == 2


def test_red_books_need_the_level_requirement_and_are_paid():
    game = GalileosTruth()
    card_icons(game, "star-charts", ["books_pay physics 2 2", "vp +3"])
    sc = card(game, "star-charts")
    ps, legal = positions(game), []
    for pos, lv, b in zip(ps, [1, 2, 2, 3], [5, 1, 3, 2]):
        pos.give("cards", 0, hand=["star-charts"])
        pos.set(seat=0, level=lv)
        pos.put("books", PHYSICS, b, seat=0)
        legal.append(sc in pos.legal())
    assert legal == [False, False, True, True]
    for pos in ps[2:]:
        pos.act(sc, "done")
    assert [pos.get("books", seat=0)[PHYSICS] for pos in ps[2:]] == [1, 0]
    assert [pos.get("vp", seat=0) for pos in ps[2:]] == [3, 3]


def test_any_book_with_equals_gives_that_many_books_all_in_one_subject():
    game = GalileosTruth()
    ps = positions(game)
    for pos, subj in zip(ps, ["physics", "philosophy", "physics", "astronomy"]):
        pos.set(seat=0, books=[0, 0, 0, 0])
        play_test_card(pos, ["book_any 3"])
        assert pos.pending().decision == "P_BOOKSUBJ"
        pos.act(f"subject:{subj}")
    books = [pos.get("books", seat=0) for pos in ps]
    assert [b[PHYSICS] for b in books] == [3, 0, 3, 0]
    assert [b[PHILOSOPHY] for b in books] == [0, 3, 0, 0]
    assert [b[ASTRONOMY] for b in books] == [1, 1, 1, 4]      # +1 from the card's own spine


def test_any_book_equals_times_different_subjects_one_per_subject_in_play_all_in_one_subject():
    game = GalileosTruth()
    for pos in positions(game):
        pos.set(seat=0, books=[0, 0, 0, 0])
        play_test_card(pos, ["book_diff"], extra_play=["pendulum", "euclid", "starry-messenger"])
        pos.act("subject:philosophy")
        assert pos.get("books", seat=0)[PHILOSOPHY] == 3        # Astronomy, Physics, Mathematics


def test_book_with_up_arrow_moves_a_subject_marker_to_the_first_space_of_its_next_level():
    game = GalileosTruth()
    ps = positions(game)
    for pos, subj in zip(ps, ["physics", "philosophy", "astronomy", "physics"]):
        pos.set(seat=0, books=[2, 7, 12, 0])
        play_test_card(pos, ["book_up"])
        assert "subject:mathematics" not in pos.legal()           # already at Level III
        pos.act(f"subject:{subj}")
    books = [pos.get("books", seat=0) for pos in ps]
    assert [b[PHYSICS] for b in books] == [10, 7, 7, 10]
    assert [b[PHILOSOPHY] for b in books] == [0, 5, 0, 0]
    assert [b[ASTRONOMY] for b in books] == [3, 3, 5, 3]          # 2 + 1 spine -> Level I -> 5


def test_mastery_track_seal_on_leftmost_free_space_and_score_it():
    game = GalileosTruth()
    ps = positions(game)
    for pos, owner in zip(ps, [-1, 1, 1, -1]):
        pos.put("mastery", (0, 0), owner)                          # track 0, space 0
        play_test_card(pos, ["mastery 0"])
    assert [pos.get("vp_cat", seat=0)[C_MASTERY] for pos in ps] == [6, 4, 4, 6]
    assert ps[0].get("mastery")[0][0] == 0 and ps[1].get("mastery")[0][1] == 0
    assert [sum(pos.get("mentor", seat=0)) for pos in ps] == [11] * 4


def test_mentor_seal_is_put_beside_your_board():
    game = GalileosTruth()
    for pos in positions(game, players=1):
        pos.set(cycle=5)
        play_test_card(pos, ["mentor_seal"])
        assert pos.get("beside", seat=0) == 1 and sum(pos.get("mentor", seat=0)) == 11
        pos.act("pass")
        assert pos.get("vp_cat", seat=0)[C_SEALS] == 1


def test_take_philosopher_back_from_a_space_never_from_prison_or_stake():
    game = GalileosTruth()
    ps = positions(game)
    for pos, ph in zip(ps, [PH_ON_SPACE, PH_PRISON, PH_STAKE, PH_STANDING]):
        pos.set(seat=0, phil=ph)
        play_test_card(pos, ["phil_back"])
    assert [pos.get("phil", seat=0) for pos in ps] == [PH_STANDING, PH_PRISON, PH_STAKE, PH_STANDING]


def test_physics_and_mathematics_income_tubes_give_your_track_income():
    game = GalileosTruth()
    ps = positions(game)
    for pos, phys, math in zip(ps, [0, 5, 10, 0], [0, 0, 5, 12]):
        pos.put("books", PHYSICS, phys, seat=0)
        pos.put("books", MATHEMATICS, math, seat=0)
        pos.set(seat=0, coins=0, research=0)
        play_test_card(pos, ["income_physics", "income_mathematics"])
    assert [pos.get("coins", seat=0) for pos in ps] == [1, 2, 3, 1]
    assert [pos.get("research", seat=0) for pos in ps] == [1, 1, 2, 3]
