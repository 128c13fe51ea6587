"""A-GT-31, ``first_player_rule``: who opens the next Cycle (the seat-advantage remedy, docs/seat_advantage.md)."""

import numpy as np
import pytest

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.galileos_truth import Params
from meeplelab.sim.core.params import param_vector
from meeplelab.sim.galileos_truth.params import FIRST_PLAYER_RULES
from meeplelab.sim.galileos_truth.pcols import PRM_FIRST_PLAYER_RULE
from meeplelab.sim.galileos_truth.state import A_CARD, A_DONE, A_PASS

from .helpers import T, act, new, set_cards


def _seat2_passes_first(rule):
    """3 seats: seats 1 and 2 play a card, seat 3 passes first, then seats 1 and 2 pass."""
    game, s = new(players=3, params=Params(first_player_rule=rule))
    for g in range(s.batch_size):
        for p in (0, 1):
            set_cards(s, g, p, hand=[T(game, "abacus")])
    for _ in range(2):
        act(game, s, A_CARD + T(game, "abacus"))
        act(game, s, A_DONE)
    assert (s.to_act == 2).all()
    act(game, s, A_PASS)                      # seat 3 (index 2) is the first to pass
    act(game, s, A_PASS)
    act(game, s, A_PASS)
    assert (s.cycle == 2).all()
    return s


def test_default_rule_is_rotate_and_the_next_seat_opens_the_next_cycle():
    assert Params().first_player_rule == "rotate"
    s = _seat2_passes_first("rotate")
    assert (s.first == 1).all() and (s.to_act == 1).all()


def test_first_to_pass_rule_the_first_seat_that_passed_opens_the_next_cycle():
    s = _seat2_passes_first("first-to-pass")
    assert (s.first == 2).all() and (s.to_act == 2).all()
    assert (s.first_pass == -1).all()           # reset for the new Cycle


def test_fixed_rule_seat_one_opens_every_cycle():
    s = _seat2_passes_first("fixed")
    assert (s.first == 0).all() and (s.to_act == 0).all()


def test_fewest_vp_rule_the_seat_with_fewest_vp_opens_ties_clockwise_from_the_next_seat():
    game, s = new(players=3, params=Params(first_player_rule="fewest-vp"))
    s.vp[:] = np.array([[5, 3, 2], [0, 4, 0], [1, 1, 1], [0, 9, 9]])
    for _ in range(3):
        act(game, s, A_PASS)
    # game 0: seat 3 has the fewest; game 1: seats 1 and 3 tie, clockwise from seat 2 -> seat 3;
    # game 2: all tie -> seat 2 (the next seat); game 3: seat 1 (the opener) has the fewest
    assert s.first.tolist() == [2, 2, 1, 0]
    assert s.to_act.tolist() == [2, 2, 1, 0]


def test_first_player_rule_is_coded_in_the_parameter_vector_and_checked():
    for k, rule in enumerate(FIRST_PLAYER_RULES):
        assert param_vector(Params(first_player_rule=rule))[PRM_FIRST_PLAYER_RULE] == k
    assert apply_overrides(Params(), {"first_player_rule": "first-to-pass"}).first_player_rule == "first-to-pass"
    with pytest.raises(ConfigError, match="first_player_rule='clockwise' is not allowed: choose one of rotate"):
        apply_overrides(Params(), {"first_player_rule": "clockwise"})
