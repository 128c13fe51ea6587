"""A-GT-31, ``first_player_rule``: who opens the next Cycle (the seat-advantage remedy, docs/seat_advantage.md)."""

import pytest

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.core.position import Position
from meeplelab.sim.galileos_truth import GalileosTruth, Params
from meeplelab.sim.core.params import param_vector
from meeplelab.sim.galileos_truth.params import FIRST_PLAYER_RULES
from meeplelab.sim.galileos_truth.pcols import PRM_FIRST_PLAYER_RULE

from .helpers import T

GAMES = range(4)  # the four games (game ids 0-3 of seed 3) each case is played in


def _seat2_passes_first(rule):
    """3 seats: seats 1 and 2 play a card, seat 3 passes first, then seats 1 and 2 pass."""
    game = GalileosTruth(params=Params(first_player_rule=rule))
    abacus = f"card:{T(game, 'abacus')}"
    out = []
    for g in GAMES:
        pos = Position.start(game, players=3, seed=3, game_id=g)
        for p in (0, 1):
            pos.give("cards", p, hand=["abacus"])
        pos.act(abacus, "done", abacus, "done")
        assert pos.pending().seat == 2
        pos.act("pass")                       # seat 3 (index 2) is the first to pass
        pos.act("pass", "pass")
        assert pos.get("cycle") == 2
        out.append(pos)
    return out


def test_default_rule_is_rotate_and_the_next_seat_opens_the_next_cycle():
    assert Params().first_player_rule == "rotate"
    for pos in _seat2_passes_first("rotate"):
        assert pos.get("first") == 1 and pos.get("to_act") == 1


def test_first_to_pass_rule_the_first_seat_that_passed_opens_the_next_cycle():
    for pos in _seat2_passes_first("first-to-pass"):
        assert pos.get("first") == 2 and pos.get("to_act") == 2
        assert pos.get("first_pass") == -1      # reset for the new Cycle


def test_fixed_rule_seat_one_opens_every_cycle():
    for pos in _seat2_passes_first("fixed"):
        assert pos.get("first") == 0 and pos.get("to_act") == 0


def test_fewest_vp_rule_the_seat_with_fewest_vp_opens_ties_clockwise_from_the_next_seat():
    game = GalileosTruth(params=Params(first_player_rule="fewest-vp"))
    firsts, to_act = [], []
    for g, vps in zip(GAMES, ([5, 3, 2], [0, 4, 0], [1, 1, 1], [0, 9, 9])):
        pos = Position.start(game, players=3, seed=3, game_id=g)
        for p, v in enumerate(vps):
            pos.set(seat=p, vp=v)
        pos.act("pass", "pass", "pass")
        firsts.append(pos.get("first"))
        to_act.append(pos.get("to_act"))
    # game 0: seat 3 has the fewest; game 1: seats 1 and 3 tie, clockwise from seat 2 -> seat 3;
    # game 2: all tie -> seat 2 (the next seat); game 3: seat 1 (the opener) has the fewest
    assert firsts == [2, 2, 1, 0]
    assert to_act == [2, 2, 1, 0]


def test_first_player_rule_is_coded_in_the_parameter_vector_and_checked():
    for k, rule in enumerate(FIRST_PLAYER_RULES):
        assert param_vector(Params(first_player_rule=rule))[PRM_FIRST_PLAYER_RULE] == k
    assert apply_overrides(Params(), {"first_player_rule": "first-to-pass"}).first_player_rule == "first-to-pass"
    with pytest.raises(ConfigError, match="first_player_rule='clockwise' is not allowed: choose one of rotate"):
        apply_overrides(Params(), {"first_player_rule": "clockwise"})
