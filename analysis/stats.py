"""Interval estimates: Wilson score intervals for rates, t intervals for means, percentile
bootstrap, and the number of games needed for a wanted interval width; differences of rates (paired:
Agresti-Min adjusted Wald; unpaired: Newcombe's hybrid score) and the Holm correction for many claims.

Functions return ``(estimate, low, high)`` and work on scalars or numpy arrays.

No interval here has zero width because the sample's spread is 0 (a strategy that wins 0 of 96 games
in both arms of an experiment, 96 identical VP differences): rates and their differences use score or
pseudo-count methods, which have real width at 0/N and N/N, and an interval of a mean never takes the
standard deviation below that of rounding to the values' recorded resolution (:func:`sd_floor`).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np
from scipy import special

# start-up: scipy.stats takes ~0.5 s to import over scipy.special (its distributions' docstrings are parsed as it
# loads); the quantiles and tail areas here are the special functions scipy.stats' norm and t call (the same
# numbers, bit for bit); :func:`resampled` draws the resamples scipy.stats.bootstrap draws and :func:`linear_quantile`
# is scipy.stats.quantile's linear method (the same numbers), so a report never imports scipy.stats.

LEVEL = 0.95
#: how a rate of no games is said (its interval is empty: :func:`wilson`)
NO_GAMES = "no games"


def z_value(level: float = LEVEL) -> float:
    """Two-sided normal quantile (1.96 for 95%)."""
    return float(special.ndtri(0.5 + level / 2))


def normal_sf(x):
    """Upper tail area of the standard normal at ``x`` (scalar or array): ``scipy.stats.norm.sf``, bit for bit."""
    return special.ndtr(-np.asarray(x, dtype=float))


def t_sf(x, df):
    """Upper tail area of Student's t with ``df`` degrees of freedom at ``x`` (scalars or arrays):
    ``scipy.stats.t.sf(x, df)``, bit for bit."""
    return special.stdtr(df, -np.asarray(x, dtype=float))


def t_quantile(q, df):
    """Quantile ``q`` (in (0, 1]) of Student's t with ``df`` degrees of freedom (scalars or arrays; nan where
    ``df <= 0``): ``scipy.stats.t.ppf(q, df)``, bit for bit."""
    return special.stdtrit(df, q)


def wilson(successes, n, level: float = LEVEL):
    """Wilson score interval of a rate.

    Args:
        successes: wins (may be fractional win shares), scalar or array.
        n: trials (games; an effective number may be fractional), scalar or array, >= 0.
        level: confidence level.

    Returns:
        ``(rate, low, high)`` in [0, 1]. Where ``n`` is 0 the interval is empty: rate, low and high are nan
        (no games, no rate; :func:`rate_text` says "no games"), without a numpy warning.
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(level)
    some = n > 0
    m = np.where(some, n, 1.0)  # no games: computed on a stand-in of 1, then set to nan
    p = s / m
    denom = 1 + z * z / m
    centre = (p + z * z / (2 * m)) / denom
    half = z * np.sqrt(np.maximum(p * (1 - p), 0.0) / m + z * z / (4 * m * m)) / denom
    empty = np.where(some, 0.0, np.nan)  # nan where there are no games
    return p + empty, np.clip(centre - half, 0, 1) + empty, np.clip(centre + half, 0, 1) + empty


def rate_text(successes, n, level: float = LEVEL, places: int = 1) -> str:
    """A rate with its Wilson interval in percent, ``37.5% [20.1, 58.3] (8 games)``, or ``no games`` when ``n`` is 0
    (the empty interval of :func:`wilson`)."""
    if not n:
        return NO_GAMES
    p, lo, hi = (float(v) for v in wilson(successes, n, level))
    return f"{100 * p:.{places}f}% [{100 * lo:.{places}f}, {100 * hi:.{places}f}] ({n:,} game{'' if n == 1 else 's'})"


def resolution(values) -> float:
    """The recorded resolution of ``values``: 1 when every finite value is a whole number (VP, Coffee,
    Suspicion, ranks), else the smallest ``10**-d`` (d <= 6) on whose grid every value lies, else 1e-6."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    for d in range(7):
        if np.allclose(x, np.round(x, d), rtol=0, atol=1e-9):
            return 10.0 ** -d
    return 1e-6


def sd_floor(res) -> float:
    """The smallest standard deviation an interval of a mean uses: ``res / sqrt(12)``, the sd of the
    rounding error of a value recorded to the resolution ``res``. With a spread of 0 (every value
    equal) the interval keeps this width instead of collapsing to a point; a sample with any real
    spread is barely affected (its sd is at least about ``res / 2``)."""
    return float(res) / math.sqrt(12.0)


def mean_t(values, level: float = LEVEL, res: float | None = None, cluster=None):
    """Mean with a Student-t interval: ``(mean, low, high)`` (nan bounds for fewer than 2 values).

    The sd is never taken below :func:`sd_floor` of ``res`` (default: :func:`resolution` of the values).
    ``cluster``: per value its game seed; the interval is then over the seeds' means (:func:`cluster_means`), the
    floor divided by the square root of the games per seed."""
    x = np.asarray(values, dtype=float)
    res = resolution(x) if res is None else res
    x, k = cluster_means(x, cluster)  # k = 1 (every value its own seed) without clusters
    n = x.size
    m = float(x.mean()) if n else math.nan
    if n < 2:
        return m, math.nan, math.nan
    sd = max(float(x.std(ddof=1)), sd_floor(res) / math.sqrt(k))
    h = float(t_quantile(0.5 + level / 2, n - 1)) * sd / math.sqrt(n)
    return m, m - h, m + h


def mean_t_from_moments(mean, sd, n, level: float = LEVEL, res: float = 1.0):
    """t interval from summary moments (vectorized; n >= 2). The sd is floored at :func:`sd_floor` of
    ``res`` (default 1: whole-number values such as VP, ranks, Coffee, Suspicion)."""
    mean, sd, n = (np.asarray(a, dtype=float) for a in (mean, sd, n))
    sd = np.maximum(np.nan_to_num(sd, nan=0.0), sd_floor(res))
    tq = t_quantile(0.5 + level / 2, np.maximum(n - 1, 1))
    h = tq * sd / np.sqrt(np.maximum(n, 1))
    h = np.where(n >= 2, h, np.nan)
    return mean, mean - h, mean + h


def seed_for(purpose: str, *key) -> int:
    """The seed of the analysis generator used for ``purpose`` (``"ratings"``, ``"metagame"``, ...) keyed
    by ``key`` (the caller's ``seed`` argument, a group): a 64-bit integer from SHA-256 of their text, the
    same in every run and process, and different for different purposes, so no two analyses share draws."""
    text = repr((purpose,) + tuple(key)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "little")


@dataclass(frozen=True)
class Boot:
    """A percentile bootstrap: ``low``/``high`` the ``level`` bounds of every output of the statistic
    (scalars for a scalar statistic, arrays of its shape otherwise); ``distribution`` the statistic on
    each resample (resamples on the last axis)."""

    low: np.ndarray | float
    high: np.ndarray | float
    distribution: np.ndarray


def _vectorize(statistic, n: int):
    """A statistic of one index vector as a vectorized one: outputs first, resamples on the last axes."""
    def stat(i, axis=-1):
        i = np.asarray(i)
        lead = i.shape[:-1]
        out = np.array([statistic(r) for r in i.reshape(-1, n)], dtype=float)
        out = out.reshape(lead + out.shape[1:])
        return np.moveaxis(out, tuple(range(len(lead))), tuple(range(out.ndim - len(lead), out.ndim)))

    return stat


def resampled(n: int, statistic, gen: np.random.Generator, *, resamples: int, batch: int) -> np.ndarray:
    """The bootstrap distribution ``scipy.stats.bootstrap((np.arange(n),), statistic, vectorized=True, axis=-1,
    n_resamples=resamples, batch=batch, rng=gen)`` holds, the same draws in the same order (each batch of ``b``
    resamples is ``gen.integers(0, n, (b, n))``) without importing scipy.stats (~0.6 s of start-up).

    Args:
        n: units (at least 2); statistic: ``statistic(idx, axis=-1)`` on ``int64[b, n]`` resampled indices,
            returning ``(..., b)``; gen: the generator, advanced by the draws.

    Returns:
        the statistic of every resample, ``(..., resamples)``.
    """
    return np.concatenate([statistic(gen.integers(0, n, (min(batch, resamples - k), n)), axis=-1)
                           for k in range(0, resamples, batch)], axis=-1)


def linear_quantile(x: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``scipy.stats.quantile(x, p, axis=-1)`` (method ``"linear"``, Hyndman and Fan 7) of a 1-d array of finite
    floats at the probabilities ``p`` (``float64[k]`` in [0, 1]), the same operations so the same bits, without
    importing scipy.stats. Returns ``float64[k]``."""
    y = np.sort(np.asarray(x, dtype=np.float64))
    n = np.asarray([y.shape[-1]], dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    jg = p * n + (1 - p)
    jp1 = jg // 1
    j = jp1 - 1
    g = jg % 1
    g[j < 0] = 0
    j = np.clip(j, 0., n - 1)
    jp1 = np.clip(jp1, 0., n - 1)
    return (1 - g) * np.take_along_axis(y, j.astype(np.int64), axis=-1) \
        + g * np.take_along_axis(y, jp1.astype(np.int64), axis=-1)


def bootstrap(n: int, statistic, *, purpose: str, seed: int = 0, resamples: int = 2000, level: float = LEVEL,
              vectorized: bool = True, center=None, floor=0.0) -> Boot:
    """Percentile bootstrap over ``n`` units (games, seat-games, common seeds): the resamples of
    :func:`scipy.stats.bootstrap` (:func:`resampled`, the same draws).

    The one resampling helper of the analyses: the sample is the unit indices ``0..n-1`` and ``statistic``
    maps resampled indices to the value(s) of interest, so a unit carries everything that belongs to it
    (every lineup's games of one common seed stay together: a clustered, paired resample).

    Args:
        n: number of units (one unit: every resample is the sample).
        statistic: ``statistic(idx, axis=-1)`` on int index arrays of shape ``(..., n)`` returning the statistic
            with the index axis reduced (``vectorized=True``: every resample of a batch at once; outputs of a
            statistic with several values come first, as ``(K, ...)``); with ``vectorized=False`` it is called
            on one index vector at a time and returns a scalar or a ``(K,)`` array.
        purpose, seed: the generator is ``np.random.default_rng(seed_for(purpose, seed))``: repeatable run to
            run, and never shared between analyses (no global generator).
        resamples, level: bootstrap resamples and confidence level.
        center, floor: when given, the interval is never narrower than ``center +- floor`` (the resolution
            floor: a sample without spread has a bootstrap distribution of one point, but its interval keeps
            the width of the values' recorded resolution, see :func:`sd_floor`).

    Returns:
        :class:`Boot`. Bounds are nan-aware quantiles (linear, as scipy's percentile method) of the
        bootstrap distribution, so a resample on which the statistic is undefined (nan) is left out.
    """
    gen = np.random.default_rng(seed_for(purpose, seed))
    stat = statistic if vectorized else _vectorize(statistic, n)
    if n < 2:  # one unit (scipy needs two): every resample is the sample itself
        one = np.asarray(stat(np.zeros((1, n), dtype=np.int64), axis=-1), dtype=float)
        dist = np.repeat(one, resamples, axis=-1)
    else:
        batch = max(1, 2**22 // n)  # at most ~4M indices in memory at once
        dist = np.asarray(resampled(n, stat, gen, resamples=resamples, batch=batch), dtype=float)
    a = (1 - level) / 2
    with np.errstate(all="ignore"):
        lo, hi = np.nanquantile(dist, a, axis=-1), np.nanquantile(dist, 1 - a, axis=-1)
    if center is not None:
        lo, hi = np.minimum(lo, np.asarray(center) - floor), np.maximum(hi, np.asarray(center) + floor)
    if np.ndim(lo) == 0:
        lo, hi = float(lo), float(hi)
    return Boot(lo, hi, dist)


def bootstrap_mean(values, *, resamples: int = 2000, level: float = LEVEL, seed: int = 0, res: float | None = None):
    """Percentile bootstrap interval of a mean: ``(mean, low, high)``, never narrower around the mean
    than the t interval at the sd floor (:func:`sd_floor`; a sample without spread has a bootstrap
    distribution of one point). Resampling: :func:`bootstrap` (purpose ``"mean"``, keyed by ``seed``;
    analysis randomness, separate from games).
    """
    x = np.asarray(values, dtype=float)
    if x.size < 2:
        return float(x.mean()) if x.size else math.nan, math.nan, math.nan
    m = float(x.mean())
    h = float(t_quantile(0.5 + level / 2, x.size - 1)) * sd_floor(resolution(x) if res is None else res) / math.sqrt(x.size)
    b = bootstrap(x.size, lambda i, axis=-1: x[i].mean(axis=axis), purpose="mean", seed=seed, resamples=resamples,
                  level=level, center=m, floor=h)
    return m, b.low, b.high


def cluster_means(d, cluster=None) -> tuple[np.ndarray, float]:
    """The means of ``d`` (``[n]``) within each cluster and the mean cluster size (``cluster``: ``[n]`` keys; None:
    every value its own cluster).

    The clusters are the games that share one game seed: with rotated or pooled seating one seed is played in every
    seat order, and those games are correlated (the same shuffles). Treating them as independent makes a paired
    interval too narrow by the square root of the design effect (1.3 to 2.1 times for win rates and VP in a 4-seat
    rotated field); an interval over the seed means is right whatever the correlation."""
    d = np.asarray(d, dtype=float)
    if cluster is None or d.size == 0:
        return d, 1.0
    keys, inv = np.unique(np.asarray(cluster), return_inverse=True)
    if keys.size == d.size:
        return d, 1.0
    sums = np.bincount(inv, weights=d, minlength=keys.size)
    counts = np.bincount(inv, minlength=keys.size)
    return sums / counts, d.size / keys.size


def paired_shares(x, y, level: float = LEVEL, cluster=None) -> dict:
    """Paired difference of win shares (values in [0, 1], ties as fractions), ``x - y`` per game:
    the Agresti-Min (2005) adjusted Wald interval for matched proportions, which adds half a pair to
    each cell of the 2x2 table (one pseudo-pair of difference +1 weighted 1/2, one of -1 weighted 1/2,
    two of 0 weighted 1/2 each) before the Wald interval. For 0/1 outcomes this is exactly
    Agresti-Min; fractional shares enter through their sums of ``d`` and ``d**2``. With no
    discordant game (0 of 96 in both arms) the interval is about ``+-z/(n+2)``, not a point.

    Returns:
        ``{"n", "est", "low", "high", "p", "sd"}``: ``est`` the plain mean difference; ``low, high``
        in [-1, 1]; ``p`` the two-sided p-value of the same adjusted Wald statistic (so ``p < 1 -
        level`` exactly when the interval excludes 0); ``sd`` of one game's difference (plain).
    """
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    n = d.size
    if n == 0:
        return {"n": 0, "est": math.nan, "low": math.nan, "high": math.nan, "p": math.nan, "sd": math.nan,
                "clusters": 0}
    dc, k = cluster_means(d, cluster)  # one value per game seed (cluster_means)
    nc = dc.size
    nt = nc + 2.0
    mt = float(dc.sum()) / nt
    var = (float((dc * dc).sum()) + 1.0 / k) / nt - mt * mt  # the pseudo-pairs weigh as one game each
    se = math.sqrt(max(var, 0.0) / nt)
    z = z_value(level)
    p = float(2 * normal_sf(abs(mt) / se)) if se > 0 else 1.0
    est = float(dc.mean())  # the plain mean; the interval never excludes it (it is centred on the adjusted one)
    # sd of one game's difference, the seeds' correlation included (sd of a seed mean x sqrt(games per seed)): what
    # games_for_difference turns into the games needed
    sd = float(dc.std(ddof=1)) * math.sqrt(k) if nc > 1 else math.nan
    return {"n": n, "est": est, "low": min(max(-1.0, mt - z * se), est), "high": max(min(1.0, mt + z * se), est), "p": p,
            "sd": sd, "clusters": nc}


def newcombe(s1, n1, s2, n2, level: float = LEVEL):
    """Unpaired difference of two rates ``s1/n1 - s2/n2`` with Newcombe's (1998) hybrid score
    interval (method 10: the two Wilson intervals combined), which has real width at 0/N and N/N:
    ``(diff, low, high)``."""
    p1, l1, u1 = (np.asarray(a, dtype=float) for a in wilson(s1, n1, level))
    p2, l2, u2 = (np.asarray(a, dtype=float) for a in wilson(s2, n2, level))
    diff = p1 - p2
    low = diff - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = diff + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    if diff.ndim == 0:
        return float(diff), float(low), float(high)
    return diff, low, high


def design_effect(x, cluster=None) -> float:
    """Kish's design effect of the mean of ``x`` (``[n]`` values) under the clusters ``cluster`` (``[n]`` keys,
    the game seeds; None: every value its own cluster): the variance of the mean over the cluster means
    divided by its variance with every value independent, ``k * var(cluster means) / var(x)`` (both with
    ``ddof=0``, ``k`` the mean cluster size). 1 without clusters, when every value is its own cluster, or when
    ``x`` has no spread (no correlation to measure); ``k`` for a sample of ``k`` identical copies of each seed."""
    x = np.asarray(x, dtype=float)
    xc, k = cluster_means(x, cluster)
    if k == 1.0 or x.size < 2:
        return 1.0
    v = float(x.var())
    return k * float(xc.var()) / v if v > 0 else 1.0


def unpaired(x, y, shares: bool = False, cluster=None, level: float = LEVEL, res: float | None = None):
    """The unpaired interval of the difference of means ``mean(x) - mean(y)``, each arm clustered over its game
    seeds (``cluster``: ``[n]`` keys, the same seeds in both arms; None: every game its own seed), the arms taken
    as independent: what the difference would carry had the arms been played on different seeds, to set beside
    the paired interval. Returns ``(diff, low, high)``; nan bounds without games.

    Win shares (``shares``, values in [0, 1]): Newcombe's hybrid score interval (:func:`newcombe`) from the two
    Wilson intervals at each arm's effective number of games ``n / deff`` (:func:`design_effect`; the effective
    sample size of a clustered rate, Korn and Graubard 1998, Dean and Pagano 2015). Other values (VP): the normal
    (Welch) interval with ``se^2 = var(seed means of x) / seeds + var(seed means of y) / seeds``, the cluster-robust
    variance of each mean, each sd floored at :func:`sd_floor` of ``res`` (default :func:`resolution` of both arms)
    divided by the square root of the games per seed, as in :func:`mean_t`. Fewer than 2 seeds in an arm (or, for
    win shares, seeds whose means are all equal) leave nothing to estimate the spread between seeds from: nan bounds.

    A seed played in ``k`` seat orders with the same result each time counts as one game, not ``k``: without the
    clusters the interval would be about ``sqrt(k)`` too narrow, narrower even than the paired one."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = x.size
    if n == 0 or y.size == 0:
        return math.nan, math.nan, math.nan
    if shares:
        dx, dy = design_effect(x, cluster), design_effect(y, cluster)
        if not (dx > 0 and dy > 0):  # one seed, or seeds of equal means: no spread between seeds to measure
            return float(x.mean() - y.mean()), math.nan, math.nan
        nx, ny = n / dx, y.size / dy
        return newcombe(x.mean() * nx, nx, y.mean() * ny, ny, level)
    res = resolution(np.concatenate([x, y])) if res is None else res
    xc, k = cluster_means(x, cluster)
    yc, ky = cluster_means(y, cluster)
    est = float(x.mean() - y.mean())
    if min(xc.size, yc.size) < 2:
        return est, math.nan, math.nan
    fl = sd_floor(res)
    se = math.sqrt(max(float(xc.var(ddof=1)), fl * fl / k) / xc.size + max(float(yc.var(ddof=1)), fl * fl / ky) / yc.size)
    h = z_value(level) * se
    return est, est - h, est + h


def rate_p(successes, n, p0):
    """Two-sided p-value of the score test of a rate against ``p0`` (the test the Wilson interval
    inverts: ``p < 1 - level`` exactly when the Wilson interval excludes ``p0``)."""
    s, n, p0 = (np.asarray(a, dtype=float) for a in (successes, n, p0))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (s / n - p0) / np.sqrt(p0 * (1 - p0) / n)
    out = np.where(n > 0, 2 * normal_sf(np.abs(z)), np.nan)
    return float(out) if out.ndim == 0 else out


def holm(pvalues) -> np.ndarray:
    """Holm (1979) step-down adjusted p-values, in the given order; nan p-values stay nan and do not
    count as comparisons. Claiming every comparison whose adjusted p-value is below ``alpha`` keeps the
    chance of any false claim in the family at most ``alpha``, whatever the dependence between them."""
    p = np.asarray(pvalues, dtype=float).ravel()
    out = np.full(p.shape, np.nan)
    idx = np.flatnonzero(np.isfinite(p))
    m = idx.size
    if m:
        idx = idx[np.argsort(p[idx], kind="stable")]
        out[idx] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[idx]))
    return out


def holm_words(m: int) -> str:
    """How a report names the correction: ``Holm-adjusted over N comparisons``."""
    return f"Holm-adjusted over {m} comparison{'' if m == 1 else 's'}"


def bonferroni_z(m: int, alpha: float = 1 - LEVEL, sides: int = 1) -> float:
    """The normal quantile a Bonferroni correction over ``m`` tests uses (``sides`` 1 or 2)."""
    return float(special.ndtri(1 - alpha / (sides * max(int(m), 1))))


def games_for_rate_width(width: float, p: float = 0.5, level: float = LEVEL) -> int:
    """Games needed so a win-rate interval is at most ``width`` wide (full width, normal approx.).

    Args:
        width: wanted full interval width (e.g. 0.02 for +-1 point).
        p: expected rate (0.5 is the worst case).

    Raises:
        ValueError: width not in (0, 1).
    """
    if not 0 < width < 1:
        raise ValueError(f"width must be between 0 and 1, got {width}")
    z = z_value(level)
    return int(math.ceil(4 * z * z * p * (1 - p) / (width * width)))


def games_for_mean_width(width: float, sd: float, level: float = LEVEL) -> int:
    """Games needed so a mean (or paired mean difference) interval is at most ``width`` wide.

    Args:
        width: wanted full width in the unit of the values (VP).
        sd: standard deviation of one game's value (or of the paired differences).
    """
    if width <= 0:
        raise ValueError(f"width must be positive, got {width}")
    z = z_value(level)
    return int(math.ceil((2 * z * sd / width) ** 2))


def games_for_difference(sd: float, diff: float, level: float = LEVEL) -> int | None:
    """Games (pairs, for a paired design) needed so a 95% interval of a difference of size ``diff``
    excludes zero: ``ceil((z * sd / diff)^2)`` with ``sd`` the standard deviation of one game's
    difference (paired) or of one game's value times sqrt(2) (unpaired). None when ``diff`` is 0 or
    ``sd`` is not finite."""
    if not (math.isfinite(sd) and math.isfinite(diff)) or diff == 0:
        return None
    z = z_value(level)
    return max(2, int(math.ceil((z * sd / abs(diff)) ** 2)))
