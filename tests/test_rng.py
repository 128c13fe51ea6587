"""Per-game counter-based random streams (sim/core/rng.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeplelab.sim.core.rng import Streams, draw_below, shuffle_range, stream_keys
from meeplelab.play.batch import play_batch
from meeplelab.sim.registry import make_game
from meeplelab.strategies import make_strategy


def test_stream_value_depends_only_on_seed_game_and_counter():
    a = Streams.for_games(42, np.arange(10), 0)
    b = Streams.for_games(42, np.array([7, 3]), 0)
    ra = a.u64(np.arange(10))
    rb = b.u64(np.arange(2))
    assert ra[7] == rb[0] and ra[3] == rb[1]


def test_kernel_and_numpy_faces_give_the_same_draws():
    keys = stream_keys(9, np.arange(6), 3)
    ctr = np.zeros(6, np.uint64)
    k = [draw_below(keys, ctr, g, 17) for g in range(6)]
    s = Streams(keys)
    assert s.integers(np.arange(6), 17).tolist() == k


def test_streams_differ_between_seeds_games_and_stream_ids():
    base = stream_keys(1, np.arange(100), 0)
    assert len(set(base.tolist())) == 100
    assert not np.any(base == stream_keys(2, np.arange(100), 0))
    assert not np.any(base == stream_keys(1, np.arange(100), 1))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), n=st.integers(1, 500), game=st.integers(0, 2**40))
def test_draw_below_stays_in_range(seed, n, game):
    keys = stream_keys(seed, np.array([game]), 0)
    ctr = np.zeros(1, np.uint64)
    vals = [draw_below(keys, ctr, 0, n) for _ in range(20)]
    assert all(0 <= v < n for v in vals)
    assert int(ctr[0]) == 20


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(1, 60))
def test_shuffle_is_a_permutation(seed, size):
    keys = stream_keys(seed, np.arange(1), 0)
    arr = np.arange(size)
    shuffle_range(keys, np.zeros(1, np.uint64), 0, arr, 0, size)
    assert sorted(arr.tolist()) == list(range(size))


def test_draws_are_close_to_uniform():
    s = Streams.for_games(5, np.arange(20000), 0)
    v = s.integers(np.arange(20000), 10)
    counts = np.bincount(v, minlength=10)
    # chi-square with 9 dof: 99.99% quantile is about 33.7
    chi2 = ((counts - 2000) ** 2 / 2000).sum()
    assert chi2 < 33.7, counts


def _records(result, game_id):
    t = result.turns.to_pandas()
    e = result.events.to_pandas()
    g = result.games.to_pandas()
    return (t[t.game == game_id].drop(columns="game").to_dict("records"),
            e[e.game == game_id].drop(columns="game").to_dict("records"),
            g[g.game == game_id].drop(columns="game").to_dict("records"))


def _disturb_global_rngs(_state):
    """Advance Python's and numpy's *global* generators (RLCard's determinism check): the
    simulator must not read them, so its records must not change."""
    random.seed()
    random.random()
    np.random.seed(None)
    np.random.random(3)


@pytest.fixture
def restore_global_rngs():
    """Put the global generators back afterwards (other tests, Hypothesis, must not see the disturbance)."""
    py, npy = random.getstate(), np.random.get_state()
    yield
    random.setstate(py)
    np.random.set_state(npy)


def test_game_records_identical_in_batch_of_1_7_512_and_with_global_rngs_disturbed(restore_global_rngs):
    game = make_game("toy")
    strat = [make_strategy("toy", "random")] * 3
    big = play_batch(game, strat, np.arange(512), seed=77)
    seven = play_batch(game, strat, np.arange(3, 10), seed=77, on_step=_disturb_global_rngs)
    one = play_batch(game, strat, np.array([5]), seed=77, on_step=_disturb_global_rngs)
    for gid, other in ((5, one), (5, seven), (9, seven)):
        assert _records(big, gid) == _records(other, gid)
    assert len(_records(big, 5)[0]) > 0


def test_strategy_randomness_never_changes_the_games_shuffles():
    game = make_game("toy")
    a = play_batch(game, [make_strategy("toy", "random")] * 2, np.arange(50), seed=3)
    b = play_batch(game, [make_strategy("toy", "always-draw")] * 2, np.arange(50), seed=3)
    assert np.array_equal(a.state.deck, b.state.deck)  # same setup shuffle whatever the players do
