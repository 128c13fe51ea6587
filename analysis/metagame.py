"""The metagame of a tournament: which mix of strategies is stable (empirical game-theoretic analysis).

A tournament over ``K`` strategies at ``n`` seats gives an empirical *heuristic payoff table*
(Walsh et al. 2002; OpenSpiel's ``heuristic_payoff_table``): one row per profile (how many seats
each strategy holds, ``counts[R, K]`` summing to ``n``), and the mean per-seat win share of each
strategy present in that profile (``payoffs[R, K]``, NaN where absent). The mirror profile (one
strategy in every seat) is known without playing it: each seat's win share is ``1/n`` by symmetry.

From the table:

- :func:`deviation_payoffs`: the expected win share ``u_j(x)`` of one seat playing ``j`` when
  the other ``n - 1`` seats are drawn from the population mix ``x``;
- :func:`symmetric_nash`: a symmetric Nash equilibrium mix. At 2 seats the game is constant-sum
  (win shares add to 1), so the maximin linear program (``scipy.optimize.linprog``) solves it
  exactly; at 3+ seats replicator dynamics (OpenSpiel's ``egt.dynamics.replicator``) are
  integrated from the uniform mix and the point or time-average with the lower exploitability kept
  (:func:`symmetric_nash_many`: of many payoff arrays at once, as the bootstrap does);
- :func:`exploitability`: how much a best response gains against a mix, ``max_j u_j(x) - x.u(x)``
  (0 at an equilibrium), in win share per seat;
- :func:`dominated`: strategies strictly dominated by another pure strategy (lower payoff against
  every profile of the others);
- :func:`alpha_rank`: the alpha-rank stationary distribution (OpenSpiel's ``egt.alpharank`` at 2
  seats, its n-seat generalisation :func:`alpha_rank_n` at 3+; finite population ``m``, selection
  intensity ``alpha``);
- :func:`bootstrap_metagame`: all of the above on bootstrap resamples of the seeds (common
  seeds resampled together, so every lineup keeps its pairing).

Which library and why: ``docs/metagame.md``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from meeplelab.sim.core.extras import require as require_extra

from .stats import bootstrap

#: what needs OpenSpiel here, as a missing extra's message says it
FEATURE = "a tournament's metagame (Nash mix, alpha-rank; meeplelab report TOURNAMENT)"


@dataclass
class PayoffTable:
    """An empirical heuristic payoff table.

    Attributes:
        strategies: the ``K`` strategy ids (column order).
        players: seats per game ``n``.
        counts: int[R, K], seats held by each strategy in each profile (rows sum to ``n``), every
            composition of ``n`` into ``K`` parts in a fixed order.
        payoffs: float[R, K], mean win share per seat of each strategy present (NaN where absent or
            not played).
        seat_results: int[R, K], seat-results behind each payoff (0 for the mirror profiles, whose
            payoff ``1/n`` is known by symmetry).
    """

    strategies: list[str]
    players: int
    counts: np.ndarray
    payoffs: np.ndarray
    seat_results: np.ndarray

    @property
    def missing(self) -> list[tuple[int, ...]]:
        """Profiles (seat counts) with a strategy present whose payoff was not played."""
        bad = (self.counts > 0) & ~np.isfinite(self.payoffs)
        return [tuple(int(c) for c in self.counts[r]) for r in np.flatnonzero(bad.any(axis=1))]

    @property
    def complete(self) -> bool:
        """True when every profile's payoffs are known."""
        return not self.missing


def compositions(n: int, k: int) -> np.ndarray:
    """Every way to seat ``n`` players among ``k`` strategies: int[R, k], R = C(n + k - 1, k - 1)."""
    rows = []
    for bars in itertools.combinations(range(n + k - 1), k - 1):
        edges = (-1,) + bars + (n + k - 1,)
        rows.append([edges[i + 1] - edges[i] - 1 for i in range(k)])
    return np.array(rows, dtype=np.int64).reshape(-1, k)


def table_from_sums(strategies: list[str], players: int, profiles: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]]
                    ) -> PayoffTable:
    """Build a :class:`PayoffTable` from summed win shares and seat-result counts per profile.

    Args:
        profiles: ``{counts tuple: (win share sums float[K], seat-results int[K])}``.
    """
    k = len(strategies)
    counts = compositions(players, k)
    pay = np.full(counts.shape, np.nan)
    n = np.zeros(counts.shape, dtype=np.int64)
    for r, c in enumerate(counts):
        key = tuple(int(x) for x in c)
        if (c == players).any():
            pay[r, int(np.argmax(c))] = 1.0 / players
            continue
        if key in profiles:
            s, m = profiles[key]
            with np.errstate(invalid="ignore", divide="ignore"):
                pay[r] = np.where((c > 0) & (m > 0), s / np.maximum(m, 1), np.nan)
            n[r] = m
    return PayoffTable(list(strategies), players, counts, pay, n)


def table_from_matrix(strategies: list[str], a: np.ndarray) -> PayoffTable:
    """A 2-seat table from a matrix ``a[i, j]`` = win share of ``i`` against ``j`` (diagonal ignored:
    1/2 by symmetry). Used for known test games (rock-paper-scissors)."""
    a = np.asarray(a, dtype=float)
    k = a.shape[0]
    prof = {}
    for i in range(k):
        for j in range(i + 1, k):
            c = [0] * k
            c[i] += 1
            c[j] += 1
            s = np.zeros(k)
            s[i], s[j] = a[i, j], a[j, i]
            prof[tuple(c)] = (s, np.array(c))
    return table_from_sums(strategies, 2, prof)


def _others_index(table: PayoffTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every strategy ``j`` and every profile ``m`` of the other ``n - 1`` seats: the row of
    ``m + e_j`` and the multinomial coefficient of ``m``. Returns (others int[Q, K], coef float[Q],
    row int[K, Q])."""
    k, n = len(table.strategies), table.players
    others = compositions(n - 1, k)
    coef = np.array([math.factorial(n - 1) / np.prod([math.factorial(int(x)) for x in m]) for m in others])
    lookup = {tuple(int(x) for x in c): r for r, c in enumerate(table.counts)}
    row = np.empty((k, len(others)), dtype=np.int64)
    for j in range(k):
        for q, m in enumerate(others):
            c = m.copy()
            c[j] += 1
            row[j, q] = lookup[tuple(int(x) for x in c)]
    return others, coef, row


def deviation_payoffs(table: PayoffTable, x: np.ndarray, payoffs: np.ndarray | None = None) -> np.ndarray:
    """Expected win share ``u[K]`` of one seat playing each pure strategy when the other seats are
    drawn independently from the mix ``x[K]`` (``payoffs`` overrides the table's, same shape)."""
    p = table.payoffs if payoffs is None else payoffs
    others, coef, row = _cached_index(table)
    prob = coef * np.prod(np.power(np.asarray(x, float)[None, :], others), axis=1)  # [Q]
    return p[row, np.arange(len(table.strategies))[:, None]] @ prob


_INDEX_CACHE: dict[tuple, tuple] = {}


def _cached_index(table: PayoffTable):
    key = (len(table.strategies), table.players)
    if key not in _INDEX_CACHE:
        _INDEX_CACHE[key] = _others_index(table)
    return _INDEX_CACHE[key]


def exploitability(table: PayoffTable, x: np.ndarray, payoffs: np.ndarray | None = None) -> float:
    """``max_j u_j(x) - x . u(x)``: the win share per seat a best response gains over the mix's own
    players (0 at a symmetric Nash equilibrium)."""
    u = deviation_payoffs(table, x, payoffs)
    return float(u.max() - np.dot(x, u))


def _matrix(table: PayoffTable, payoffs: np.ndarray) -> np.ndarray:
    """2 seats: ``a[i, j]`` = win share of ``i`` against ``j``."""
    k = len(table.strategies)
    a = np.empty((k, k))
    for r, c in enumerate(table.counts):
        idx = np.flatnonzero(c)
        if len(idx) == 1:
            a[idx[0], idx[0]] = payoffs[r, idx[0]]
        else:
            i, j = idx
            a[i, j], a[j, i] = payoffs[r, i], payoffs[r, j]
    return a


def symmetric_nash(table: PayoffTable, payoffs: np.ndarray | None = None, *, steps: int = 5000,
                   dt: float = 0.2) -> np.ndarray:
    """A symmetric Nash equilibrium mix ``x[K]`` (sums to 1).

    2 seats: the maximin strategy of the constant-sum matrix game by linear programming (exact; a
    strictly dominated strategy gets weight 0, rock-paper-scissors 1/3 each). 3+ seats: replicator
    dynamics ``dx/dt = x (u(x) - x.u(x))`` (OpenSpiel's ``dynamics.replicator``) from the uniform
    mix, Euler steps of ``dt`` with a floor of 1e-12; the final point or the time average over the
    second half (cycles around an interior equilibrium average to it), whichever is less exploitable,
    then refined on its support by solving for equal payoffs (kept when less exploitable).

    Raises:
        ValueError: the table has unplayed profiles (see :attr:`PayoffTable.missing`).
    """
    p = table.payoffs if payoffs is None else payoffs
    if table.missing and payoffs is None:
        raise ValueError(f"payoff table incomplete: profiles {table.missing[:3]} were not played")
    k = len(table.strategies)
    if table.players == 2:
        # start-up: scipy.optimize takes ~0.3 s to import; only the solvers use it
        from scipy.optimize import linprog

        a = _matrix(table, p)
        # variables x[0..k-1], v; maximise v s.t. x.A[:, j] >= v, sum x = 1, x >= 0
        c = np.zeros(k + 1)
        c[-1] = -1.0
        a_ub = np.hstack([-a.T, np.ones((k, 1))])
        res = linprog(c, A_ub=a_ub, b_ub=np.zeros(k), A_eq=np.hstack([np.ones((1, k)), [[0.0]]]), b_eq=[1.0],
                      bounds=[(0, None)] * k + [(None, None)], method="highs")
        x = np.clip(res.x[:k], 0, None)
        return x / x.sum()
    return symmetric_nash_many(table, np.asarray(p, float)[None], steps=steps, dt=dt)[0]


def symmetric_nash_many(table: PayoffTable, payoffs: np.ndarray, *, steps: int = 5000, dt: float = 0.2) -> np.ndarray:
    """:func:`symmetric_nash` of ``B`` payoff arrays of ``table``'s shape at once: ``payoffs`` float[B, R, K]
    (complete), returns float[B, K]. At 3+ seats the replicator steps of all ``B`` run together as arrays
    (:func:`_replicate`, the same floats as one at a time); the choice of point or average and the polish are
    per array."""
    if table.players == 2:
        return np.array([symmetric_nash(table, q) for q in payoffs]).reshape(len(payoffs), len(table.strategies))
    require_extra("openspiel", FEATURE)
    xs, avgs = _replicate(table, payoffs, steps, dt)
    return np.array([_polish(table, min((x, avg), key=lambda y: exploitability(table, y, q)), q)
                     for x, avg, q in zip(xs, avgs, payoffs)]).reshape(xs.shape)


def _replicate(table: PayoffTable, payoffs: np.ndarray, steps: int, dt: float) -> tuple[np.ndarray, np.ndarray]:
    """Replicator dynamics (OpenSpiel's ``dynamics.replicator``: ``x (u - x.u)``) for ``B`` payoff arrays
    float[B, R, K] at once from the uniform mix: ``steps`` Euler steps of ``dt``, floor 1e-12, renormalised.
    Each array's floats are those of :func:`deviation_payoffs` and ``replicator`` one array at a time (the
    same element operations; the matrix-vector and dot products are per array, as BLAS does them alone).
    Returns (final point float[B, K], time average over the second half float[B, K])."""
    others, coef, row = _cached_index(table)
    b, k = payoffs.shape[0], len(table.strategies)
    g = np.ascontiguousarray(payoffs[:, row, np.arange(k)[:, None]])  # [B, K, Q]: payoff of j against others q
    x = np.full((b, k), 1.0 / k)
    avg = np.zeros((b, k))
    for i in range(steps):
        prob = coef * np.prod(np.power(x[:, None, :], others), axis=2)  # [B, Q]
        u = np.matmul(g, prob[:, :, None])[:, :, 0]  # [B, K] deviation payoffs
        xu = np.matmul(x[:, None, :], u[:, :, None])[:, :, 0]  # [B, 1] x.u
        x = np.maximum(x + dt * (x * (u - xu)), 1e-12)
        x /= x.sum(axis=1, keepdims=True)
        if i >= steps // 2:
            avg += x
    avg /= avg.sum(axis=1, keepdims=True)
    return x, avg


def _polish(table: PayoffTable, x: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Refine a near-equilibrium ``x``: on its support (weight > 1e-3), solve for equal deviation
    payoffs (``scipy.optimize.least_squares``); kept only when it is less exploitable."""
    # start-up: scipy.optimize takes ~0.3 s to import; only the solvers use it
    from scipy.optimize import least_squares

    sup = np.flatnonzero(x > 1e-3)
    if len(sup) < 2:
        return x

    def full(z):
        y = np.zeros_like(x)
        y[sup] = np.clip(z, 0, None)
        return y / max(y.sum(), 1e-300)

    def resid(z):
        u = deviation_payoffs(table, full(z), p)[sup]
        return np.append(u - u.mean(), z.sum() - 1.0)

    z = least_squares(resid, x[sup] / x[sup].sum(), bounds=(0, 1), xtol=1e-14, ftol=1e-14).x
    y = full(z)
    return y if exploitability(table, y, p) < exploitability(table, x, p) else x


def dominated(table: PayoffTable, payoffs: np.ndarray | None = None) -> dict[str, str]:
    """Strategies strictly dominated by a pure strategy: ``{dominated: dominating}``.

    ``i`` is dominated by ``j`` when, against every profile of the other ``n - 1`` seats, a seat
    playing ``j`` has a higher expected win share than one playing ``i``.
    """
    p = table.payoffs if payoffs is None else payoffs
    others, _, row = _cached_index(table)
    k = len(table.strategies)
    out = {}
    for i in range(k):
        for j in range(k):
            if i != j and np.all(p[row[j], j] > p[row[i], i]):
                out[table.strategies[i]] = table.strategies[j]
                break
    return out


def dominators(table: PayoffTable, payoffs: np.ndarray | None = None) -> dict[str, list[str]]:
    """Every pure strategy that strictly dominates each dominated strategy: ``{dominated: [dominating,
    ...]}`` in strategy order (:func:`dominated` names only the first)."""
    p = table.payoffs if payoffs is None else payoffs
    _, _, row = _cached_index(table)
    k = len(table.strategies)
    out: dict[str, list[str]] = {}
    for i in range(k):
        by = [table.strategies[j] for j in range(k) if j != i and np.all(p[row[j], j] > p[row[i], i])]
        if by:
            out[table.strategies[i]] = by
    return out


def hpt_array(table: PayoffTable, payoffs: np.ndarray | None = None) -> np.ndarray:
    """The table in OpenSpiel's heuristic-payoff-table layout: float[R, 2K] (counts, then payoffs with
    0 for absent strategies)."""
    p = table.payoffs if payoffs is None else payoffs
    return np.hstack([table.counts.astype(float), np.where(table.counts > 0, np.nan_to_num(p), 0.0)])


def alpha_rank(table: PayoffTable, payoffs: np.ndarray | None = None, *, alpha: float = 100.0,
               m: int = 50) -> np.ndarray:
    """Alpha-rank stationary distribution over the pure strategies, float[K].

    Single population of ``m`` agents, monomorphic except for one mutant strategy at a time; the
    mutant fixes with the Fermi probability at selection intensity ``alpha`` (payoffs are win shares
    in [0, 1], so alpha = 100 separates win-share gaps of a few points). At 2 seats this calls
    OpenSpiel's ``egt.alpharank.compute``; OpenSpiel's single-population model takes 2-player
    profiles only, so at 3+ seats :func:`alpha_rank_n` generalises it (co-players drawn without
    replacement from the population), identical to OpenSpiel at 2 seats (tested).
    """
    if table.players != 2:
        return alpha_rank_n(table, payoffs, alpha=alpha, m=m)
    require_extra("openspiel", FEATURE)
    from open_spiel.python.egt import alpharank  # an extra (sim/core/extras.py): imported when used
    from open_spiel.python.egt.heuristic_payoff_table import from_heuristic_payoff_table

    hpt = from_heuristic_payoff_table(hpt_array(table, payoffs))
    with np.errstate(over="ignore"):  # exp(large) of a near-certain fixation: the probability is still right
        _, _, pi, _, _ = alpharank.compute([hpt], m=m, alpha=alpha, use_local_selection_model=False)
    return np.asarray(pi, dtype=float)


def alpha_rank_n(table: PayoffTable, payoffs: np.ndarray | None = None, *, alpha: float = 100.0,
                 m: int = 50) -> np.ndarray:
    """Alpha-rank for ``n`` seats (Omidshafiei et al. 2019, single population, Fermi selection).

    With ``k`` mutants ``r`` among ``m`` agents otherwise playing ``s``, a mutant's fitness is its
    expected win share when its ``n - 1`` co-players are drawn without replacement from the other
    ``m - 1`` agents (hypergeometric), a resident's likewise. The fixation probability of ``r`` in
    ``s`` is ``1 / (1 + sum_l prod_{k<=l} exp(-alpha (f_r(k) - f_s(k))))``, the Markov chain moves
    from ``s`` to ``r`` with ``rho / (K - 1)``, and its stationary distribution is returned.
    """
    p = table.payoffs if payoffs is None else payoffs
    n, kk = table.players, len(table.strategies)
    lookup = {tuple(int(x) for x in c): r for r, c in enumerate(table.counts)}

    def pay(s: int, r: int, a: int, who: int) -> float:
        """Payoff of ``who`` in the profile with ``a`` seats of r and ``n - a`` of s."""
        c = [0] * kk
        c[r] += a
        c[s] += n - a
        return float(p[lookup[tuple(c)], who])

    c_mat = np.zeros((kk, kk))
    h_mut, h_res = _co_players(n, m)
    for s in range(kk):
        for r in range(kk):
            if r == s:
                continue
            pr = np.array([pay(s, r, x + 1, r) for x in range(n)])
            ps = np.array([pay(s, r, x, s) for x in range(n)])
            diff = h_mut @ pr - h_res @ ps
            expo = np.cumsum(-alpha * diff)
            rho = 1.0 / (1.0 + np.exp(np.clip(expo, -700, 700)).sum())
            c_mat[s, r] = rho / (kk - 1)
        c_mat[s, s] = 1.0 - c_mat[s].sum()
    w, v = np.linalg.eig(c_mat.T)
    pi = np.abs(np.real(v[:, np.argmin(np.abs(w - 1.0))]))
    return pi / pi.sum()


_CO_PLAYERS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _co_players(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Hypergeometric co-player counts for :func:`alpha_rank_n`, cached per ``(n, m)``: (h_mut, h_res), each
    float[m - 1, n], row ``k - 1`` for ``k`` mutants among ``m`` agents, column ``x`` the probability of ``x``
    mutants among the ``n - 1`` co-players of a mutant (h_mut) or of a resident (h_res)."""
    if (n, m) not in _CO_PLAYERS:
        # start-up: scipy.stats takes ~0.5 s to import; only this chain uses it
        from scipy.stats import hypergeom

        ks = np.arange(1, m)[:, None]
        a = np.arange(n)[None, :]
        _CO_PLAYERS[n, m] = (hypergeom.pmf(a, m - 1, ks - 1, n - 1), hypergeom.pmf(a, m - 1, ks, n - 1))
    return _CO_PLAYERS[n, m]


def restrict(table: PayoffTable, sums: np.ndarray, results: np.ndarray, keep: list[str]
             ) -> tuple[PayoffTable, np.ndarray, np.ndarray]:
    """The sub-game of the strategies ``keep``: the profiles in which only they sit.

    Args:
        sums, results: float/int[S, R, K] per-seed sums (see :func:`bootstrap_metagame`).

    Returns:
        ``(table, sums[S, R', K'], results[S, R', K'])`` over ``keep`` in the table's order.

    Raises:
        ValueError: fewer than two strategies kept, or a name not in the table.
    """
    bad = [s for s in keep if s not in table.strategies]
    if bad or len(set(keep)) < 2:
        raise ValueError(f"restrict: keep two or more of {', '.join(table.strategies)}; got {', '.join(keep)}")
    cols = [i for i, s in enumerate(table.strategies) if s in keep]
    names = [table.strategies[i] for i in cols]
    sub = compositions(table.players, len(cols))
    lookup = {tuple(int(x) for x in c): r for r, c in enumerate(table.counts)}
    rows = []
    for c in sub:
        full = [0] * len(table.strategies)
        for j, i in enumerate(cols):
            full[i] = int(c[j])
        rows.append(lookup[tuple(full)])
    s2, r2 = sums[:, rows][:, :, cols], results[:, rows][:, :, cols]
    pay = table.payoffs[rows][:, cols]
    return PayoffTable(names, table.players, sub, pay, table.seat_results[rows][:, cols]), s2, r2


@dataclass
class Metagame:
    """The metagame of a tournament with bootstrap uncertainty.

    Attributes:
        table: the payoff table.
        nash: float[K] equilibrium mix; ``nash_low``/``nash_high``: 95% percentile bootstrap bounds.
        exploitability: of ``nash`` on the point estimates (win share per seat); ``exploitability_high``:
            the 95th percentile of the same mix's exploitability on the bootstrap resamples (how much a
            best response could gain against it, one-sided: exploitability is never below 0).
        best_response_gain: float[K], ``u_j(nash) - nash.u(nash)`` for each pure strategy, with
            ``gain_low``/``gain_high``: 95% percentile bounds of the same mix's gains on the resamples.
        alpha: float[K] alpha-rank mass, with ``alpha_low``/``alpha_high``.
        dominated: ``{strategy: dominating strategy}`` on the point estimates.
        dominated_share: ``{strategy: share of bootstrap resamples in which it is dominated}`` (by any
            strategy); ``dominated_pairs``: ``{(dominated, dominating): share of resamples}`` for every
            pair that dominates on the point estimates.
        resamples: bootstrap resamples behind the bounds.
    """

    table: PayoffTable
    nash: np.ndarray
    nash_low: np.ndarray
    nash_high: np.ndarray
    exploitability: float
    best_response_gain: np.ndarray
    alpha: np.ndarray
    alpha_low: np.ndarray
    alpha_high: np.ndarray
    dominated: dict
    dominated_share: dict
    resamples: int
    exploitability_high: float = float("nan")
    gain_low: np.ndarray | None = None
    gain_high: np.ndarray | None = None
    dominated_pairs: dict | None = None

    def settled_dominated(self, share: float = 0.95) -> dict[str, str]:
        """The point-estimate dominated strategies that are dominated in at least ``share`` of the
        resamples (the rest are dominated on the point estimates only: not settled at this size)."""
        return {d: b for d, b in self.dominated.items() if self.dominated_share[d] >= share}


def bootstrap_metagame(table: PayoffTable, sums: np.ndarray, results: np.ndarray, *, resamples: int = 200,
                       seed: int = 0, level: float = 0.95) -> Metagame:
    """Solve the metagame and its bootstrap over seeds.

    Args:
        table: the point-estimate table (:func:`table_from_sums`).
        sums: float[S, R, K] win-share sums per seed index (game number, common to every lineup) and
            profile row; ``results``: int[S, R, K] seat-results likewise. A resample draws ``S`` seed
            indices with replacement and keeps every lineup's games of each drawn seed.
        resamples: bootstrap resamples; ``seed``: the analysis generator's seed (Philox).
    """
    mirror = (table.counts == table.players)
    nash = symmetric_nash(table)
    u = deviation_payoffs(table, nash)
    s, k = sums.shape[0], len(table.strategies)
    point_pairs = [(d, b) for d, bs in dominators(table).items() for b in bs]

    def payoffs_of(i):
        """One resample's payoffs float[R, K] from its seed indices int[S]."""
        w = np.bincount(i, minlength=s).astype(float)
        ss = np.tensordot(w, sums, axes=1)
        nn = np.tensordot(w, results, axes=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(nn > 0, ss / nn, table.payoffs)
        return np.where(mirror, 1.0 / table.players, p)

    def solve(p, mix):
        """One resample's nash mix (given), alpha-rank, the point mix's best-response gains, dominated flags
        and point-dominance pair flags, as one vector."""
        ub = deviation_payoffs(table, nash, p)
        doms = dominators(table, p)
        flags = [float(x in doms) for x in table.strategies]
        pairs = [float(d in doms and b in doms[d]) for d, b in point_pairs]
        return np.concatenate([mix, alpha_rank(table, p), ub - np.dot(nash, ub), flags, pairs])

    def solve_all(idx, axis=-1):
        """Every resample of a batch, seed indices int[..., S] -> float[V, ...]; the Nash mixes of the batch
        solved together (:func:`symmetric_nash_many`)."""
        idx = np.asarray(idx)
        ps = np.array([payoffs_of(i) for i in idx.reshape(-1, s)]).reshape((-1,) + table.payoffs.shape)
        mixes = symmetric_nash_many(table, ps, steps=1000)
        out = np.array([solve(p, mix) for p, mix in zip(ps, mixes)], dtype=float)
        out = out.reshape(idx.shape[:-1] + out.shape[1:])
        lead = idx.ndim - 1
        return np.moveaxis(out, tuple(range(lead)), tuple(range(out.ndim - lead, out.ndim)))

    # common seeds resampled together: every lineup keeps its games of a drawn seed
    b = bootstrap(s, solve_all, purpose="metagame", seed=seed, resamples=resamples, level=level)
    d = b.distribution
    gains = d[2 * k:3 * k].T
    lo, hi = b.low, b.high
    return Metagame(table, nash, lo[:k], hi[:k],
                    exploitability(table, nash), u - np.dot(nash, u), alpha_rank(table),
                    lo[k:2 * k], hi[k:2 * k], dominated(table),
                    dict(zip(table.strategies, d[3 * k:4 * k].mean(axis=1).tolist())), resamples,
                    float(np.quantile(np.maximum(gains.max(axis=1), 0.0), level)),
                    lo[2 * k:3 * k], hi[2 * k:3 * k],
                    dict(zip(point_pairs, d[4 * k:].mean(axis=1).tolist())))


__all__ = ["Metagame", "PayoffTable", "alpha_rank", "alpha_rank_n", "bootstrap_metagame", "compositions", "deviation_payoffs",
           "dominated", "dominators", "exploitability", "hpt_array", "restrict", "symmetric_nash", "symmetric_nash_many", "table_from_matrix", "table_from_sums"]
