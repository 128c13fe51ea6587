"""Intervals over game seeds (analysis/stats.cluster_means): the games one seed plays in several seat orders are
correlated, so paired intervals are taken over the seeds."""

from __future__ import annotations

import numpy as np
import pytest


def test_an_interval_over_seeds_played_in_several_seat_orders_is_as_wide_as_over_the_seeds_alone():
    """Known answer: a seed played in k seat orders with the same difference each time carries the
    information of one game, not k. The clustered interval of the k-fold copies equals the interval of the seeds
    alone; treating the copies as independent would make it about sqrt(k) narrower."""
    from meeplelab.analysis.stats import cluster_means, mean_t, paired_shares

    rng = np.random.default_rng(5)
    x = rng.integers(0, 2, 200).astype(float)
    y = rng.integers(0, 2, 200).astype(float)
    k = 4
    xs, ys, seeds = np.repeat(x, k), np.repeat(y, k), np.repeat(np.arange(200), k)
    dc, size = cluster_means(xs - ys, seeds)
    assert size == k and np.array_equal(dc, x - y)
    one, copies = paired_shares(x, y), paired_shares(xs, ys, cluster=seeds)
    assert copies["n"] == 800 and copies["clusters"] == 200
    assert (copies["low"], copies["high"]) == pytest.approx((one["low"], one["high"]), abs=0.003)
    naive = paired_shares(xs, ys)
    assert (naive["high"] - naive["low"]) * 1.9 < copies["high"] - copies["low"]
    m1, lo1, hi1 = mean_t(x * 7 - y * 3)
    mk, lok, hik = mean_t(np.repeat(x * 7 - y * 3, k), cluster=seeds)
    assert (mk, lok, hik) == pytest.approx((m1, lo1, hi1))
    # games needed count the copies: sd of one game with the correlation included is sqrt(k) times the seeds'
    assert copies["sd"] == pytest.approx(one["sd"] * np.sqrt(k))
    # independent games (one per seed) give exactly the unclustered interval
    assert paired_shares(x, y, cluster=np.arange(200)) == paired_shares(x, y) | {"clusters": 200}
