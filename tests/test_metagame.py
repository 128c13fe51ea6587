"""The metagame solver on small games whose answer is known (analysis/metagame.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meeplelab.analysis.metagame import (_replicate, alpha_rank, alpha_rank_n, compositions, deviation_payoffs, dominated,
                                         exploitability, symmetric_nash, symmetric_nash_many, table_from_matrix,
                                         table_from_sums)

RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])  # win share of row against column


def rps_three_seats(edge: float = 0.1):
    """A 3-seat cyclic game: a seat gains ``edge`` per co-player it beats (rock beats scissors...) and
    loses it per co-player that beats it; win shares of a game add to 1."""
    k, n = 3, 3
    prof = {}
    for c in compositions(n, k):
        if (c == n).any():
            continue
        s = np.array([c[i] * (1 / n + edge * (c[(i + 2) % 3] - c[(i + 1) % 3]) / (n - 1)) if c[i] else 0.0
                      for i in range(k)])
        assert math.isclose(s.sum(), 1.0)
        prof[tuple(int(x) for x in c)] = (s, c.copy())
    return table_from_sums(["rock", "paper", "scissors"], n, prof)


def test_compositions_count_every_profile():
    c = compositions(4, 3)
    assert len(c) == math.comb(6, 2) == 15 and (c.sum(axis=1) == 4).all() and len({tuple(r) for r in c}) == 15


def test_rock_paper_scissors_mixes_one_third_each():
    t = table_from_matrix(["rock", "paper", "scissors"], RPS)
    x = symmetric_nash(t)
    np.testing.assert_allclose(x, [1 / 3] * 3, atol=1e-9)
    assert exploitability(t, x) == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(alpha_rank(t), [1 / 3] * 3, atol=1e-9)
    assert dominated(t) == {}
    # against pure rock, paper gains half a game per seat over rock's own mirror share
    assert exploitability(t, np.array([1.0, 0.0, 0.0])) == pytest.approx(0.5)


def test_rock_paper_scissors_at_three_seats_mixes_one_third_each():
    t = rps_three_seats()
    x = symmetric_nash(t)
    np.testing.assert_allclose(x, [1 / 3] * 3, atol=1e-3)
    assert exploitability(t, x) < 1e-4
    np.testing.assert_allclose(deviation_payoffs(t, np.full(3, 1 / 3)), [1 / 3] * 3, atol=1e-12)
    np.testing.assert_allclose(alpha_rank(t), [1 / 3] * 3, atol=1e-9)


@pytest.mark.parametrize("players", [2, 3])
def test_a_strictly_dominated_strategy_gets_weight_zero(players):
    # soft rock-paper-scissors plus "dud", which does worse than rock against everything
    a = np.array([[0.5, 0.2, 0.8, 0.6], [0.8, 0.5, 0.2, 0.9], [0.2, 0.8, 0.5, 0.3], [0.4, 0.1, 0.7, 0.5]])
    np.testing.assert_allclose(a + a.T, 1.0)
    names = ["rock", "paper", "scissors", "dud"]
    if players == 2:
        t = table_from_matrix(names, a)
    else:  # 3 seats: each seat's share is the mean of its pairwise shares against its co-players (sums to 1)
        prof = {}
        for c in compositions(3, 4):
            if (c == 3).any():
                continue
            seats = [i for i in range(4) for _ in range(c[i])]
            s = np.zeros(4)
            for p, i in enumerate(seats):
                s[i] += np.mean([a[i, seats[q]] for q in range(3) if q != p]) * 2 / 3
            prof[tuple(int(x) for x in c)] = (s, c.copy())
        t = table_from_sums(names, 3, prof)
    x = symmetric_nash(t)
    assert x[3] < 1e-6
    np.testing.assert_allclose(x[:3], [1 / 3] * 3, atol=2e-3)
    assert dominated(t) == {"dud": "rock"}
    assert alpha_rank(t).sum() == pytest.approx(1.0)  # alpha-rank is no Nash refinement: dud invades scissors


def test_a_dominant_strategy_is_the_whole_mix():
    a = np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.55], [0.3, 0.45, 0.5]])
    t = table_from_matrix(["a", "b", "c"], a)
    np.testing.assert_allclose(symmetric_nash(t), [1, 0, 0], atol=1e-9)
    assert dominated(t) == {"b": "a", "c": "a"}
    from meeplelab.analysis.metagame import dominators

    assert dominators(t) == {"b": ["a"], "c": ["a", "b"]}  # b too beats c against every opponent (.4>.3, .5>.45, .55>.5)


def test_own_n_seat_alpha_rank_equals_openspiel_at_two_seats():
    a = np.array([[0.5, 0.6, 0.3], [0.4, 0.5, 0.7], [0.7, 0.3, 0.5]])
    t = table_from_matrix(["a", "b", "c"], a)
    for al in (1.0, 5.0, 30.0):
        np.testing.assert_allclose(alpha_rank_n(t, alpha=al), alpha_rank(t, alpha=al), atol=1e-9)
    assert alpha_rank(t, alpha=5.0)[1] > 0.4  # b beats the strategy that beats... the cycle is uneven


def test_an_incomplete_table_is_refused_by_name():
    prof = {(1, 1, 1): (np.array([0.4, 0.3, 0.3]), np.array([1, 1, 1]))}
    t = table_from_sums(["a", "b", "c"], 3, prof)
    assert not t.complete and (2, 1, 0) in t.missing
    with pytest.raises(ValueError, match="payoff table incomplete: profiles"):
        symmetric_nash(t)


def _bernoulli_tournament(p: float, seeds: int, rng_seed: int = 0):
    """2 strategies, 2 seats: 'a' beats 'b' with probability ``p`` in each of ``seeds`` common-seed games
    (one game per seed index and lineup profile). Returns (table, sums[S, R, K], results[S, R, K])."""
    from meeplelab.analysis.metagame import compositions

    counts = compositions(2, 2)
    r = next(i for i, c in enumerate(counts) if tuple(c) == (1, 1))
    win = np.random.Generator(np.random.Philox(rng_seed)).random(seeds) < p
    sums = np.zeros((seeds, len(counts), 2))
    res = np.zeros((seeds, len(counts), 2), dtype=np.int64)
    sums[:, r, 0], sums[:, r, 1] = win, 1 - win
    res[:, r, :] = 1
    t = table_from_sums(["a", "b"], 2, {(1, 1): (sums[:, r].sum(axis=0), res[:, r].sum(axis=0))})
    return t, sums, res


def test_bootstrap_gives_best_response_gains_and_exploitability_with_intervals():
    from meeplelab.analysis.metagame import bootstrap_metagame

    t, sums, res = _bernoulli_tournament(0.7, 400)
    mg = bootstrap_metagame(t, sums, res, resamples=100)
    np.testing.assert_allclose(mg.nash, [1, 0], atol=1e-9)
    share_b = float(sums[:, :, 1].sum() / res[:, :, 1].sum())
    # against pure a, a seat of b wins share_b instead of a's mirror 1/2: gain share_b - 1/2 (about -0.2)
    assert mg.best_response_gain[1] == pytest.approx(share_b - 0.5)
    assert mg.gain_low[1] < share_b - 0.5 < mg.gain_high[1] < 0  # the interval excludes 0: b does not pay
    assert mg.gain_low[0] == mg.gain_high[0] == 0.0  # a against its own mirror gains nothing on any resample
    assert mg.exploitability == pytest.approx(0.0) and mg.exploitability_high == pytest.approx(0.0)
    assert mg.settled_dominated() == {"b": "a"}


def test_a_near_tie_is_dominated_on_the_point_estimate_but_not_settled():
    from meeplelab.analysis.metagame import bootstrap_metagame

    t, sums, res = _bernoulli_tournament(0.53, 300, rng_seed=2)
    assert float(sums[:, :, 0].sum() / 300) == pytest.approx(157 / 300)  # a wins 52.3% of 300 games
    mg = bootstrap_metagame(t, sums, res, resamples=100)
    assert mg.dominated == {"b": "a"}  # the point estimate says 52.3% > 47.7%
    assert 0.5 < mg.dominated_share["b"] < 0.95 and mg.settled_dominated() == {}
    assert mg.exploitability_high > 0.0  # on some resamples b beats a: the pure-a mix is exploitable there
    assert mg.gain_low[1] < 0 < mg.gain_high[1]


def test_the_sub_game_without_a_dominant_strategy_is_rock_paper_scissors():
    from meeplelab.analysis.metagame import bootstrap_metagame, restrict

    # rock-paper-scissors plus "boss", which beats each of them 80% of the time
    a = np.zeros((4, 4))
    a[:3, :3] = RPS
    a[3, :3], a[:3, 3], a[3, 3] = 0.8, 0.2, 0.5
    t = table_from_matrix(["rock", "paper", "scissors", "boss"], a)
    np.testing.assert_allclose(symmetric_nash(t), [0, 0, 0, 1], atol=1e-9)
    # per-seed sums: one seed holding the exact payoffs (one seat-result per strategy present)
    sums = np.where(t.counts > 0, np.nan_to_num(t.payoffs), 0.0)[None] * (t.seat_results > 0)[None]
    res = t.seat_results[None].astype(np.int64)
    sub, s2, r2 = restrict(t, sums, res, ["rock", "paper", "scissors"])
    assert sub.strategies == ["rock", "paper", "scissors"] and sub.complete and s2.shape == (1, 6, 3)
    np.testing.assert_allclose(symmetric_nash(sub), [1 / 3] * 3, atol=1e-9)
    mg = bootstrap_metagame(sub, s2, r2, resamples=5)
    np.testing.assert_allclose(mg.nash_low, [1 / 3] * 3, atol=1e-9)  # one seed: every resample is the same game
    with pytest.raises(ValueError, match="restrict: keep two or more of rock, paper, scissors, boss; got rock, dud"):
        restrict(t, sums, res, ["rock", "dud"])


def test_replicator_steps_of_many_tables_at_once_equal_openspiels_one_at_a_time():
    """The batched replicator (every bootstrap resample together) gives the very floats of OpenSpiel's
    ``dynamics.replicator`` stepped on one table at a time, and the batched Nash equals the single one."""
    from open_spiel.python.egt.dynamics import replicator  # the openspiel extra: imported by the test that needs it

    t = rps_three_seats()
    rng = np.random.default_rng(3)
    ps = np.where(t.counts == 3, 1 / 3, t.payoffs[None] + rng.normal(0, 0.05, (4,) + t.payoffs.shape))
    xs, avgs = _replicate(t, ps, 300, 0.2)
    for p, xb, ab in zip(ps, xs, avgs):
        x, avg = np.full(3, 1 / 3), np.zeros(3)
        for i in range(300):
            x = np.maximum(x + 0.2 * replicator(x, deviation_payoffs(t, x, p)), 1e-12)
            x /= x.sum()
            if i >= 150:
                avg += x
        avg /= avg.sum()
        assert np.array_equal(x, xb) and np.array_equal(avg, ab)
    assert not np.allclose(xs[0], xs[1])  # the tables differ, so their paths do
    many = symmetric_nash_many(t, ps, steps=300)
    assert all(np.array_equal(m, symmetric_nash(t, p, steps=300)) for m, p in zip(many, ps))
