"""Information-set MCTS (strategies/ismcts.py) on the toy game: keyed randomness, strength, registration."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.core.errors import ConfigError
from sim.play import play_batch
from sim.registry import make_game
from strategies import make_strategy
from strategies.ismcts import iteration_streams


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
    from strategies.galileos_truth import GTHeuristic

    gt = make_strategy("galileos-truth", "ismcts:iters=4")
    assert isinstance(gt.heuristic, GTHeuristic) and gt.policy is gt.heuristic.plan and gt.iters == 4
    um = make_strategy("unconscious-mind", "ismcts:policy=curer")
    assert type(um.heuristic).__name__ == "UMHeuristic" and um.policy is not None
    with pytest.raises(ConfigError, match="ismcts policy 'nope': allowed random, "):
        make_strategy("unconscious-mind", "ismcts:policy=nope")
