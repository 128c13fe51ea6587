"""Interval estimates: Wilson score intervals for rates, t intervals for means, percentile
bootstrap, and the number of games needed for a wanted interval width.

Functions return ``(estimate, low, high)`` and work on scalars or numpy arrays.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as st

LEVEL = 0.95


def z_value(level: float = LEVEL) -> float:
    """Two-sided normal quantile (1.96 for 95%)."""
    return float(st.norm.ppf(0.5 + level / 2))


def wilson(successes, n, level: float = LEVEL):
    """Wilson score interval of a rate.

    Args:
        successes: wins (may be fractional win shares), scalar or array.
        n: trials (games), scalar or array, > 0.
        level: confidence level.

    Returns:
        ``(rate, low, high)`` in [0, 1].
    """
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(level)
    p = np.where(n > 0, s / np.maximum(n, 1), np.nan)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def mean_t(values, level: float = LEVEL):
    """Mean with a Student-t interval: ``(mean, low, high)`` (nan bounds for fewer than 2 values)."""
    x = np.asarray(values, dtype=float)
    n = x.size
    m = float(x.mean()) if n else math.nan
    if n < 2:
        return m, math.nan, math.nan
    se = float(x.std(ddof=1)) / math.sqrt(n)
    h = float(st.t.ppf(0.5 + level / 2, n - 1)) * se
    return m, m - h, m + h


def mean_t_from_moments(mean, sd, n, level: float = LEVEL):
    """t interval from summary moments (vectorized; n >= 2)."""
    mean, sd, n = (np.asarray(a, dtype=float) for a in (mean, sd, n))
    tq = st.t.ppf(0.5 + level / 2, np.maximum(n - 1, 1))
    h = tq * sd / np.sqrt(np.maximum(n, 1))
    h = np.where(n >= 2, h, np.nan)
    return mean, mean - h, mean + h


def bootstrap_mean(values, *, resamples: int = 2000, level: float = LEVEL, seed: int = 0):
    """Percentile bootstrap interval of a mean: ``(mean, low, high)``.

    Resampling uses a generator seeded by ``seed`` (analysis randomness, separate from games).
    """
    x = np.asarray(values, dtype=float)
    if x.size < 2:
        return float(x.mean()) if x.size else math.nan, math.nan, math.nan
    gen = np.random.Generator(np.random.Philox(seed))
    idx = gen.integers(0, x.size, size=(resamples, x.size))
    means = x[idx].mean(axis=1)
    a = (1 - level) / 2
    return float(x.mean()), float(np.quantile(means, a)), float(np.quantile(means, 1 - a))


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
