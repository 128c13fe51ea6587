"""The unpaired interval beside each paired one (analysis/stats.unpaired, analysis/experiment.paired) is clustered over
the game seeds like the paired one, and a rate of no games is an empty interval (analysis/stats.wilson)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from meeplelab.analysis.experiment import paired
from meeplelab.analysis.ladder import _rate_cell  # a ladder report's cell of a rate
from meeplelab.analysis.stats import NO_GAMES, design_effect, newcombe, rate_text, unpaired, wilson, z_value


def test_the_unpaired_vp_interval_is_the_hand_computed_cluster_robust_one():
    """3 seeds in 2 seat orders: seed means x 11, 8, 14 (variance 9) and y 8, 7, 12 (variance 7), so
    se^2 = 9/3 + 7/3 = 16/3 and the interval is 2 +- 1.96 * 2.309 = [-2.526, 6.526]."""
    x = np.array([10, 12, 7, 9, 15, 13], dtype=float)
    y = np.array([8, 8, 6, 8, 11, 13], dtype=float)
    seeds = np.array([0, 0, 1, 1, 2, 2])
    est, lo, hi = unpaired(x, y, cluster=seeds)
    h = z_value() * math.sqrt(16 / 3)
    assert (est, lo, hi) == pytest.approx((2.0, 2.0 - h, 2.0 + h), abs=1e-12)
    assert (lo, hi) == pytest.approx((-2.526, 6.526), abs=1e-3)
    r = paired(x, y, cluster=seeds)  # what an experiment report prints beside the paired interval
    assert (r["est"], r["unpaired_low"], r["unpaired_high"]) == pytest.approx((2.0, 2.0 - h, 2.0 + h), abs=1e-12)
    # one game's sd, the seeds' correlation included: sqrt(k * (9 + 7)) = sqrt(32) for the unpaired games needed
    assert r["games_needed_unpaired"] == math.ceil((z_value() * math.sqrt(32) / 2) ** 2)
    # the same games taken as independent: the old, too narrow interval (sd of the 6 games, not of the 3 seeds)
    _, nlo, nhi = unpaired(x, y)
    naive = z_value() * math.sqrt(x.var(ddof=1) / 6 + y.var(ddof=1) / 6)
    assert (nlo, nhi) == pytest.approx((2.0 - naive, 2.0 + naive), abs=1e-12)
    assert nhi - nlo < hi - lo


def test_a_seed_played_in_k_seat_orders_with_one_result_counts_as_one_game_in_the_unpaired_interval():
    """Known answer: k identical copies of each seed carry the information of the seeds alone, so the clustered
    unpaired interval of the copies equals the unpaired interval of the seeds (win shares: Newcombe at the
    effective size n / k; VP: Welch over the seeds); taken as independent it would be about sqrt(k) narrower."""
    rng = np.random.default_rng(11)
    x = rng.integers(0, 2, 150).astype(float)
    y = rng.integers(0, 2, 150).astype(float)
    k = 4
    xs, ys, seeds = np.repeat(x, k), np.repeat(y, k), np.repeat(np.arange(150), k)
    assert design_effect(xs, seeds) == pytest.approx(k, rel=1e-12)
    assert design_effect(x, np.arange(150)) == 1.0 and design_effect(np.zeros(8), np.repeat([0, 1], 4)) == 1.0
    one = newcombe(x.sum(), 150, y.sum(), 150)
    assert unpaired(xs, ys, shares=True, cluster=seeds) == pytest.approx(one, abs=1e-12)
    _, nlo, nhi = unpaired(xs, ys, shares=True)
    assert (nhi - nlo) * 1.9 < one[2] - one[1]
    vx, vy = x * 7 + 20, y * 3 + 20
    assert unpaired(np.repeat(vx, k), np.repeat(vy, k), cluster=seeds) == pytest.approx(unpaired(vx, vy), abs=1e-12)
    # every game its own seed: exactly the unclustered intervals
    assert unpaired(x, y, shares=True, cluster=np.arange(150)) == pytest.approx(newcombe(x.sum(), 150, y.sum(), 150))
    assert unpaired(vx, vy, cluster=np.arange(150)) == unpaired(vx, vy)


def _arms(rng, seeds: int, k: int, shares: bool, effect: float, shared: bool):
    """One synthetic experiment: ``seeds`` game seeds in ``k`` seat orders with a large per-seed effect (the same
    in every order), the arm ``effect`` on top: ``(x, y, seed of each game)``. ``shared``: both arms play the same
    seeds (common random numbers, the per-seed effect shared); else each arm its own seeds (an unpaired design)."""
    cl = np.repeat(np.arange(seeds), k)

    def seed_effect():
        if shares:  # each seed a strong or a weak game for the focal player: win probability 0.15 or 0.75
            return np.repeat(rng.choice([0.15, 0.75], seeds), k)
        return np.repeat(rng.normal(0, 4, seeds), k)

    ux = seed_effect()
    uy = ux if shared else seed_effect()
    if shares:
        return (rng.random(cl.size) < ux + effect).astype(float), (rng.random(cl.size) < uy).astype(float), cl
    return (np.round(30 + ux + effect + rng.normal(0, 1.5, cl.size)), np.round(30 + uy + rng.normal(0, 1.5, cl.size)),
            cl)


@pytest.mark.parametrize("shares,effect", [(False, 1.0), (True, 0.1)])
def test_the_clustered_unpaired_interval_covers_the_true_effect_at_the_nominal_rate(shares, effect):
    """Simulation of arms played on different seeds (60 seeds x 4 seat orders each, a large per-seed effect): the
    clustered unpaired interval covers the true effect about 95% of the time; the same games taken as independent
    (the interval printed before) cover it far less often."""
    rng = np.random.default_rng(2024 + shares)
    reps, cover, naive_cover = 400, 0, 0
    for _ in range(reps):
        x, y, cl = _arms(rng, 60, 4, shares, effect, shared=False)
        _, lo, hi = unpaired(x, y, shares=shares, cluster=cl)
        cover += lo <= effect <= hi
        _, nlo, nhi = unpaired(x, y, shares=shares)
        naive_cover += nlo <= effect <= nhi
    assert 0.92 <= cover / reps <= 0.98
    assert naive_cover / reps < 0.85


@pytest.mark.parametrize("shares,effect", [(False, 1.0), (True, 0.1)])
def test_with_common_seeds_the_clustered_unpaired_interval_is_wider_than_the_paired_one(shares, effect):
    """The experiment's design (both arms on the same seeds, the per-seed effect shared): the paired interval
    removes the seed effect, the unpaired one cannot, so the unpaired interval paired() reports beside the paired
    one is wider every time, and the unpaired games needed are more."""
    rng = np.random.default_rng(7 + shares)
    for _ in range(200):
        x, y, cl = _arms(rng, 60, 4, shares, effect, shared=True)
        r = paired(x, y, shares=shares, cluster=cl)
        assert r["unpaired_high"] - r["unpaired_low"] > r["high"] - r["low"]
        assert r["games_needed"] is None or r["games_needed_unpaired"] > r["games_needed"]


def test_a_rate_of_no_games_is_an_empty_interval_said_as_no_games():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning (division by zero, invalid value)
        p, lo, hi = wilson(0, 0)
        assert all(math.isnan(float(v)) for v in (p, lo, hi))
        p, lo, hi = wilson(np.array([0.0, 3.0]), np.array([0, 10]))
        assert np.isnan([p[0], lo[0], hi[0]]).all()
        assert (p[1], lo[1], hi[1]) == pytest.approx((0.3, 0.10779, 0.60322), abs=1e-5)  # unchanged beside it
        assert all(math.isnan(v) for v in newcombe(0, 0, 3, 10))
        assert all(math.isnan(v) for v in unpaired([], []))
    assert rate_text(0, 0) == NO_GAMES == "no games"
    assert rate_text(3, 10) == "30.0% [10.8, 60.3] (10 games)"
    assert _rate_cell(*wilson(0, 0), 0) == "no games" and _rate_cell(*wilson(3, 10), 10) == "30.0% [10.8, 60.3] (10)"


@pytest.mark.parametrize("shares", [True, False])
def test_one_seed_in_every_seat_order_gives_nan_unpaired_bounds_not_an_error(shares):
    """An experiment of as many games as seat orders plays one seed (24 games at 4 seats): the spread between seeds
    cannot be estimated, so the unpaired bounds are nan (the paired interval stands alone), as for no games."""
    x = np.array([1, 0, 0, 0, 1, 0, 0, 0], dtype=float)
    y = np.array([0, 1, 0, 0, 0, 0, 1, 0], dtype=float)
    cases = [np.zeros(8, int)] + ([np.repeat([0, 1], 4)] if shares else [])  # one seed; two seeds of equal rates
    for seeds in cases:
        est, lo, hi = unpaired(x, y, shares=shares, cluster=seeds)
        assert est == 0.0 and math.isnan(lo) and math.isnan(hi)
    assert not math.isnan(unpaired(x, y, shares=shares, cluster=np.repeat([0, 1, 2, 3], 2))[1])  # seeds differ
