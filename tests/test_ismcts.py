"""Information-set MCTS (strategies/ismcts.py) on the toy game: keyed randomness, strength, registration."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from meeplelab.sim.core.errors import ConfigError
from meeplelab.play.batch import play_batch
from meeplelab.sim.registry import make_game
from meeplelab.strategies import make_strategy
from meeplelab.strategies.ismcts import iteration_streams


def play(spec_a: str, spec_b: str, ids, seed: int) -> pd.DataFrame:
    g = make_game("toy")
    return play_batch(g, [make_strategy("toy", spec_a), make_strategy("toy", spec_b)], np.asarray(ids), seed,
                      log_turns=False, log_events=False).games.to_pandas().sort_values(["game", "seat"])


def test_games_are_identical_for_any_batch_split():
    whole = play("ismcts:iters=8,top=0", "random", np.arange(20), 5)
    parts = pd.concat([play("ismcts:iters=8,top=0", "random", np.arange(i, i + 5), 5) for i in range(0, 20, 5)])
    parts = parts.sort_values(["game", "seat"])
    np.testing.assert_array_equal(whole.vp.to_numpy(), parts.vp.to_numpy())
    np.testing.assert_array_equal(whole.plies.to_numpy(), parts.plies.to_numpy())


def test_iteration_keys_depend_on_the_game_draw_and_the_iteration_only():
    base = np.array([11, 22, 33], dtype=np.uint64)
    k0, k1 = iteration_streams(base, 0).keys, iteration_streams(base, 1).keys
    assert len(set(k0.tolist()) | set(k1.tolist())) == 6
    np.testing.assert_array_equal(iteration_streams(base[[2, 0]], 1).keys, k1[[2, 0]])  # not by batch position


def test_ismcts_beats_random_in_both_seat_orders():
    a = play("ismcts:iters=16", "random", np.arange(100), 9)
    b = play("random", "ismcts:iters=16", np.arange(100), 9)
    share = (a.query("seat == 0").win_share.sum() + b.query("seat == 1").win_share.sum()) / 200
    assert share > 0.65, share


def test_each_game_gets_its_own_ismcts_with_its_plan_in_rollouts():
    from meeplelab.strategies.galileos_truth import GTHeuristic

    gt = make_strategy("galileos-truth", "ismcts:iters=4")
    assert isinstance(gt.heuristic, GTHeuristic) and gt.policy is gt.heuristic.plan and gt.iters == 4
    um = make_strategy("unconscious-mind", "ismcts:policy=curer")
    assert type(um.heuristic).__name__ == "UMHeuristic" and um.policy is not None
    with pytest.raises(ConfigError, match="ismcts policy 'nope': allowed random, "):
        make_strategy("unconscious-mind", "ismcts:policy=nope")


def test_batched_iterations_widening_and_depth_are_identical_for_any_batch_split():
    spec = "ismcts:iters=12,par=4,prior=3,widen=2,depth=8"
    whole = play(spec, "random", np.arange(12), 3)
    parts = pd.concat([play(spec, "random", np.arange(i, i + 4), 3) for i in range(0, 12, 4)])
    parts = parts.sort_values(["game", "seat"])
    np.testing.assert_array_equal(whole.vp.to_numpy(), parts.vp.to_numpy())
    np.testing.assert_array_equal(whole.plies.to_numpy(), parts.plies.to_numpy())


def test_iteration_streams_take_one_iteration_per_stream():
    base = np.array([11, 22, 33], dtype=np.uint64)
    mixed = iteration_streams(base, np.array([0, 1, 2])).keys
    for i in range(3):
        assert mixed[i] == iteration_streams(base[i:i + 1], i).keys[0]


def test_prior_seeds_root_candidates_with_virtual_visits_at_their_heuristic_reward():
    from meeplelab.strategies.ismcts import _Node

    s = make_strategy("toy", "ismcts:prior=4,scale=2")
    root = _Node()
    s.seed_root(root, np.array([5, 2]), np.array([2.0, 0.0]))
    assert sorted(root.children) == [2, 5]
    assert root.children[5].n == 4 and root.children[5].avail == 4
    assert root.children[5].w == pytest.approx(4 / (1 + np.exp(-1.0)))  # logistic(2 / 2) = 0.731
    assert root.children[2].w == pytest.approx(2.0)  # margin 0: reward 1/2
    bare = _Node()
    make_strategy("toy", "ismcts:prior=0").seed_root(bare, np.array([5]), np.array([2.0]))
    assert not bare.children  # prior=0: the root starts empty, as before


def test_bandit_with_heuristic_prior_beats_random_in_both_seat_orders():
    spec = "ismcts:iters=16,par=8,prior=4,depth=1"
    a = play(spec, "random", np.arange(100), 9)
    b = play("random", spec, np.arange(100), 9)
    share = (a.query("seat == 0").win_share.sum() + b.query("seat == 1").win_share.sum()) / 200
    assert share > 0.65, share


@pytest.mark.parametrize("arg,allowed", [("par=0", "1 to 4096"), ("depth=0", "1 to 64"), ("prior=-1", "0 to 100000"),
                                         ("widen=-2", "0 to 100000")])
def test_new_arguments_reject_values_out_of_range(arg, allowed):
    k, v = arg.split("=")
    with pytest.raises(ConfigError, match=f"argument {k}='{v}' is out of range: allowed {allowed}"):
        make_strategy("toy", f"ismcts:{arg}")
