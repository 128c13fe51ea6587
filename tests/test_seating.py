"""Seating: balanced rotation on common game seeds by default in the CLI, random and fixed on request;
the games table records the seat order and game seed; results do not depend on batch/chunk/n_jobs."""

from __future__ import annotations

from collections import Counter

import numpy as np
import polars as pl
import pytest

from meeplelab.play.config import RunConfig
from meeplelab.sim.core.errors import ConfigError
from meeplelab.play.runner import simulate
from meeplelab.play.seating import plan_seating
from tests.test_runner import assert_same_tables


def test_rotation_uses_every_seat_order_when_the_games_allow_and_splits_the_total():
    p = plan_seating("rotate", ("a", "b", "c", "d"), 100)
    assert len(p.orders) == 24 and p.design == "every seat order"
    assert p.seeds_per_order == 4 and p.games == 96 and p.requested == 100
    seats = Counter((p.strategies(o)[s], s) for o in range(24) for s in range(4))
    assert set(seats.values()) == {6}  # every strategy in every seat equally often
    assert "24 seat orders x 4 game seeds = 96 games" in p.describe() and "4 of the 100 requested" in p.describe()


def test_rotation_falls_back_to_a_latin_square_and_refuses_too_few_games():
    p = plan_seating("rotate", ("a", "b", "c", "d"), 10)
    assert p.design == "Latin square" and len(p.orders) == 4 and p.games == 8
    assert all(sorted(p.strategies(o)[s] for o in range(4)) == ["a", "b", "c", "d"] for s in range(4))
    with pytest.raises(ConfigError, match="fewer than the 4 seat orders"):
        plan_seating("rotate", ("a", "b", "c", "d"), 3)


def test_repeated_strategies_count_each_distinct_seat_order_once_and_a_mirror_match_has_one():
    p = plan_seating("rotate", ("x", "y", "x"), 30)
    assert len(p.orders) == 3 and p.seeds_per_order == 10
    assert plan_seating("rotate", ("x", "x", "x"), 30).describe().startswith("seating rotate: mirror match")
    with pytest.raises(ConfigError, match="unknown seating 'spin': allowed: rotate, random, fixed"):
        plan_seating("spin", ("x", "y"), 10)


def test_rotated_game_equals_the_fixed_game_of_its_seat_order_on_the_same_seed(tmp_path):
    """Common random numbers: game seed s in seat order o is exactly game s of a fixed run seated as o."""
    rot = tmp_path / "rot"
    simulate(RunConfig(game="toy", players=3, strategies=("random", "always-draw", "random"), games=60, seed=5,
                       batch_size=7, out=str(rot), seating="rotate"))
    g = pl.read_parquet(str(rot / "games" / "*.parquet"))
    assert g["game"].n_unique() == 60 and sorted(g["seat_order"].unique().to_list()) == [0, 1, 2]
    assert g.group_by("seat_order").agg(pl.col("game_seed").n_unique())["game_seed"].to_list() == [20, 20, 20]
    plan = RunConfig(game="toy", players=3, strategies=("random", "always-draw", "random"), games=60, seed=5,
                     seating="rotate").plan_for()
    for o in range(3):
        fx = tmp_path / f"fixed{o}"
        simulate(RunConfig(game="toy", players=3, strategies=plan.strategies(o), games=20, seed=5, out=str(fx)))
        f = pl.read_parquet(str(fx / "games" / "*.parquet")).sort("game", "seat")
        r = g.filter(pl.col("seat_order") == o).sort("game_seed", "seat")
        assert r["vp"].to_list() == f["vp"].to_list() and r["strategy"].to_list() == f["strategy"].to_list()
        assert r["game_seed"].to_list() == f["game"].to_list()
    # each strategy in each seat equally often
    cnt = g.group_by("strategy", "seat").len()
    assert set(cnt.filter(pl.col("strategy") == "always-draw")["len"].to_list()) == {20}


@pytest.mark.parametrize("seating", ["rotate", "random"])
@pytest.mark.parametrize("batch_size,chunk_size,n_jobs", [(1, 5, 1), (16, 48, 2), (200, 200, 1)])
def test_seated_tables_identical_for_any_batch_size_chunking_and_n_jobs(tmp_path, seating, batch_size, chunk_size,
                                                                        n_jobs):
    def run(name, **kw):
        out = tmp_path / name
        simulate(RunConfig(game="toy", players=3, strategies=("random", "bank-at:n=3", "slow-random:ms=0"),
                           games=90, seed=3, out=str(out), seating=seating, **kw))
        return out

    assert_same_tables(run("ref", batch_size=90, chunk_size=90),
                       run("other", batch_size=batch_size, chunk_size=chunk_size, n_jobs=n_jobs))


def test_random_seating_draws_each_games_order_from_its_own_key(tmp_path):
    p = plan_seating("random", ("a", "b", "c"), 3000, seed=9)
    o, s = p.locate(np.arange(3000))
    assert np.array_equal(s, np.arange(3000))
    counts = np.bincount(o, minlength=6)
    assert counts.size == 6 and counts.min() > 400  # uniform over the 6 orders (500 expected)
    o2, _ = p.locate(np.arange(1000, 1010))
    assert np.array_equal(o2, o[1000:1010])  # keyed by game index, not by position in a batch
