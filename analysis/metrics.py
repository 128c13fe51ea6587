"""Game-agnostic metrics over run tables, each with an interval.

Every function takes a :class:`meeplelab.analysis.load.Runs` (or a games LazyFrame) and returns a tidy
``polars.DataFrame`` with ``est``/``low``/``high`` columns (95% by default): Wilson intervals for
rates, Student-t intervals for means.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .stats import mean_t_from_moments, wilson
from .stats import games_for_mean_width, games_for_rate_width


def _with_wilson(df: pl.DataFrame, wins: str, n: str) -> pl.DataFrame:
    p, lo, hi = wilson(df[wins].to_numpy(), df[n].to_numpy())
    return df.with_columns(pl.Series("est", p), pl.Series("low", lo), pl.Series("high", hi))


def _with_t(df: pl.DataFrame, mean: str, sd: str, n: str) -> pl.DataFrame:
    m, lo, hi = mean_t_from_moments(df[mean].to_numpy(), df[sd].fill_null(0).to_numpy(), df[n].to_numpy())
    return df.with_columns(pl.Series("est", m), pl.Series("low", lo), pl.Series("high", hi))


def win_rates(games: pl.LazyFrame, by: tuple[str, ...] = ("strategy",)) -> pl.DataFrame:
    """Win rate (shared first places count as 1/k) with Wilson intervals, grouped by ``by``.

    Returns:
        columns ``*by, games, wins, est, low, high`` (rates in [0, 1]).
    """
    df = (games.group_by(list(by), maintain_order=True).agg(pl.len().alias("games"), pl.col("win_share").sum().alias("wins"))
          .sort(list(by)).collect())
    return _with_wilson(df, "wins", "games")


def seat_win_rates(games: pl.LazyFrame) -> pl.DataFrame:
    """Win rate by seat (first-player advantage), Wilson intervals; ``fair`` = 1/players."""
    df = win_rates(games, ("players", "seat"))
    return df.with_columns((1.0 / pl.col("players")).alias("fair"))


def mean_by(games: pl.LazyFrame, value: str = "vp", by: tuple[str, ...] = ("strategy",)) -> pl.DataFrame:
    """Mean of ``value`` (VP, margin, ...) by group with t intervals: ``*by, n, mean, sd, est, low, high``."""
    df = (games.group_by(list(by), maintain_order=True).agg(pl.len().alias("n"), pl.col(value).mean().alias("mean"),
                                       pl.col(value).std().alias("sd")).sort(list(by)).collect())
    return _with_t(df, "mean", "sd", "n")


def score_breakdown(games: pl.LazyFrame, by: tuple[str, ...] = ("strategy",)) -> pl.DataFrame:
    """Mean final VP per score category (``vp_*`` columns) by group, long format with t intervals."""
    cols = [c for c in games.collect_schema().names() if c.startswith("vp_")]
    if not cols:
        return pl.DataFrame()
    long = games.select(list(by) + cols).unpivot(index=list(by), on=cols, variable_name="category", value_name="vp")
    df = (long.group_by(list(by) + ["category"], maintain_order=True).agg(pl.len().alias("n"), pl.col("vp").mean().alias("mean"),
                                                      pl.col("vp").std().alias("sd"))
          .with_columns(pl.col("category").str.replace("^vp_", "")).sort(list(by) + ["category"]).collect())
    return _with_t(df, "mean", "sd", "n")


def game_length(games: pl.LazyFrame) -> pl.DataFrame:
    """Game length (turns, rounds, plies) per run: mean with t interval, min, max."""
    one = games.filter(pl.col("seat") == 0)
    rows = []
    for col in ("turns", "rounds", "plies"):
        df = one.group_by("run", maintain_order=True).agg(pl.len().alias("n"), pl.col(col).mean().alias("mean"),
                                     pl.col(col).std().alias("sd"), pl.col(col).min().cast(pl.Int64).alias("min"),
                                     pl.col(col).max().cast(pl.Int64).alias("max")).collect()
        rows.append(_with_t(df, "mean", "sd", "n").with_columns(pl.lit(col).alias("measure")))
    return pl.concat(rows).select("run", "measure", "n", "est", "low", "high", "min", "max").sort("run", "measure")


def action_frequencies(turns: pl.LazyFrame, column: str) -> pl.DataFrame:
    """Share of turns per value of a categorical turn column (e.g. the turn option), Wilson intervals."""
    df = turns.group_by(column, maintain_order=True).agg(pl.len().alias("turns")).collect()
    total = int(df["turns"].sum())
    df = df.with_columns(pl.lit(total).alias("all_turns")).sort("turns", descending=True)
    return _with_wilson(df, "turns", "all_turns")


def paired_margin(games: pl.LazyFrame, a: str, b: str) -> tuple[float, float, float, int]:
    """Paired difference in mean VP of strategy ``a`` minus ``b`` over games where both sit (common seeds).

    Returns:
        ``(mean difference, low, high, games)`` in VP.
    """
    df = games.filter(pl.col("strategy").is_in([a, b])).group_by(["run", "game", "strategy"], maintain_order=True).agg(
        pl.col("vp").mean()).collect().pivot(on="strategy", index=["run", "game"], values="vp").drop_nulls()
    if df.height < 2 or a not in df.columns or b not in df.columns:
        return float("nan"), float("nan"), float("nan"), df.height
    d = (df[a] - df[b]).to_numpy()
    m, lo, hi = mean_t_from_moments(d.mean(), d.std(ddof=1), d.size)
    return float(m), float(lo), float(hi), int(d.size)


def games_needed_summary(games: pl.LazyFrame, rate_width: float = 0.02, vp_width: float = 1.0) -> dict:
    """Games needed for a win-rate interval of ``rate_width`` and a mean-VP interval of ``vp_width``.

    Uses the run's own VP standard deviation. Returns a dict with the inputs and both counts.
    """
    sd = float(games.select(pl.col("vp").std()).collect().item() or 0.0)
    return {"rate_width": rate_width, "games_for_rate": games_for_rate_width(rate_width),
            "vp_width": vp_width, "vp_sd": sd, "games_for_vp": games_for_mean_width(vp_width, max(sd, 1e-9))}


def end_reasons(games: pl.LazyFrame) -> pl.DataFrame:
    """How games ended, per run: ``run, end_reason, safety_stop, games, all, est, low, high`` (share of the
    run's games, Wilson interval). Empty for runs written before the games table had ``end_reason``."""
    if "end_reason" not in games.collect_schema().names():
        return pl.DataFrame()
    one = games.filter(pl.col("seat") == 0).filter(pl.col("end_reason").is_not_null())
    df = (one.group_by("run", "end_reason", "safety_stop", maintain_order=True).agg(pl.len().alias("games"))
          .join(one.group_by("run", maintain_order=True).agg(pl.len().alias("all")), on="run").sort("run", "end_reason").collect())
    return _with_wilson(df, "games", "all")


def without_safety_stops(games: pl.LazyFrame) -> pl.LazyFrame:
    """The games not ended by a safety stop (``safety_stop`` False; every game of runs without the column).

    Use it to keep such games out of win rates and means: ``M.win_rates(M.without_safety_stops(runs.games))``.
    """
    if "safety_stop" not in games.collect_schema().names():
        return games
    return games.filter(~pl.col("safety_stop").fill_null(False))


def as_percent(df: pl.DataFrame, cols=("est", "low", "high")) -> pl.DataFrame:
    """Rates in percent (for tables)."""
    return df.with_columns([(pl.col(c) * 100).round(1) for c in cols if c in df.columns])


__all__ = ["action_frequencies", "as_percent", "end_reasons", "game_length", "games_needed_summary", "mean_by",
           "paired_margin", "score_breakdown", "seat_win_rates", "win_rates", "without_safety_stops", "np"]
