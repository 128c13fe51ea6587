"""Sweep analysis: each metric against the swept parameter, with paired-difference intervals.

Variants of a sweep share seeds, so game ``i`` of every variant starts from the same shuffles;
differences against the baseline variant are taken game by game (paired), which gives much
tighter intervals than comparing two independent means.

Win rates are fractions in :func:`sweep_table` and percent (points for differences) in the charts
and in the report's table (:func:`shown_table`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from sim.sweep import read_sweep

from . import figures as F
from .load import load_runs
from .stats import mean_t_from_moments, wilson

METRICS = {
    "seat1_win_rate": "win rate of seat 1 (first player)",
    "mean_vp": "mean final VP per seat",
    "winner_vp": "winning score (VP)",
    "turns": "game length (turns)",
}
#: unit of each metric as charts and report tables show it (rates in percent)
UNITS = {"seat1_win_rate": "%", "mean_vp": "VP", "winner_vp": "VP", "turns": "turns"}
#: metrics that are rates: fractions in sweep_table, percent when shown
RATES = ("seat1_win_rate",)
VALUE_COLS = ("est", "low", "high", "diff", "diff_low", "diff_high")


def _per_game(games: pl.DataFrame) -> pl.DataFrame:
    return games.group_by("game").agg(
        pl.col("win_share").filter(pl.col("seat") == 0).first().alias("seat1_win_rate"),
        pl.col("vp").mean().alias("mean_vp"),
        pl.col("vp").max().alias("winner_vp"),
        pl.col("turns").first().cast(pl.Float64).alias("turns"),
    ).sort("game")


def sweep_table(folder: Path | str) -> pl.DataFrame:
    """Tidy table: one row per (variant, metric) with the estimate and interval, and the paired
    difference against the first variant (``diff``, ``diff_low``, ``diff_high``, in the metric's unit).
    """
    meta = read_sweep(folder)
    folder = Path(folder)
    per = []
    for v in meta["variants"]:
        runs = load_runs([folder / v["folder"]])
        g = _per_game(runs.games.collect()).with_columns(pl.lit(v["folder"]).alias("variant"))
        for k, val in v["values"].items():
            g = g.with_columns(pl.lit(val).alias(k))
        per.append(g)
    base = per[0]
    rows = []
    for g in per:
        joined = g.join(base.select(["game"] + list(METRICS)), on="game", suffix="_base")
        for m in METRICS:
            x = g[m].to_numpy().astype(float)
            n = x.size
            if m == "seat1_win_rate":
                est, lo, hi = wilson(x.sum(), n)
            else:
                est, lo, hi = mean_t_from_moments(x.mean(), x.std(ddof=1) if n > 1 else 0.0, n)
            d = joined[m].to_numpy().astype(float) - joined[f"{m}_base"].to_numpy().astype(float)
            dm, dlo, dhi = mean_t_from_moments(d.mean(), d.std(ddof=1) if d.size > 1 else 0.0, d.size)
            row = {"variant": g["variant"][0], "metric": m, "games": n, "est": float(est), "low": float(lo),
                   "high": float(hi), "diff": float(dm), "diff_low": float(dlo), "diff_high": float(dhi)}
            for k in meta["vary"]:
                row[k] = g[k][0]
            rows.append(row)
    return pl.DataFrame(rows)


def sweep_charts(folder: Path | str) -> list[tuple[str, object, str]]:
    """One chart per metric: value against the first swept parameter, and the paired difference."""
    meta = read_sweep(folder)
    df = sweep_table(folder)
    param = list(meta["vary"])[0]
    out = []
    for m, label in METRICS.items():
        sub = df.filter(pl.col("metric") == m)
        names = None
        try:
            x = np.array([float(v) for v in sub[param].to_list()])  # whole numbers get integer ticks
        except ValueError:
            x, names = np.arange(sub.height), [str(v) for v in sub[param].to_list()]
        scale = 100.0 if m in RATES else 1.0
        unit = " (%)" if scale == 100 else ""
        fig = F.line_with_band(x, sub["est"].to_numpy() * scale, sub["low"].to_numpy() * scale,
                               sub["high"].to_numpy() * scale, title=f"{label} by {param}", xlabel=param,
                               ylabel=label + unit)
        out.append((f"sweep_{m}", fig, f"{label} against {param} (95% interval)"))
        fig = F.line_with_band(x, sub["diff"].to_numpy() * scale, sub["diff_low"].to_numpy() * scale,
                               sub["diff_high"].to_numpy() * scale,
                               title=f"Paired difference vs {param}={sub[param][0]}", xlabel=param,
                               ylabel=f"difference in {label}{unit}")
        out.append((f"sweep_{m}_diff", fig, f"{label}: paired difference against the first variant"))
    if names is not None:  # non-numeric values: one tick per variant, named by its value
        for _, fig, _ in out:
            fig.axes[0].set_xticks(x, names)
    return out


def shown_table(df: pl.DataFrame) -> pl.DataFrame:
    """:func:`sweep_table` as the report shows it, like the charts: rates (estimate, interval and
    paired difference) in percent rounded to 0.1 as in the other report tables, other values rounded
    to 3 places, and a ``unit`` column after ``metric``."""
    pct = pl.col("metric").is_in(list(RATES))
    out = df.with_columns([pl.when(pct).then((pl.col(c) * 100).round(1)).otherwise(pl.col(c).round(3)).alias(c)
                           for c in VALUE_COLS])
    out = out.with_columns(pl.col("metric").replace_strict(UNITS, default="-").alias("unit"))
    cols = out.columns
    i = cols.index("metric") + 1
    return out.select(cols[:i] + ["unit"] + [c for c in cols[i:] if c != "unit"])


def sweep_sections(folder: Path | str):
    """Report sections of a sweep: charts per metric and the table with paired differences (win
    rates in percent, as in the charts)."""
    from .report import Section, provenance_section

    meta = read_sweep(folder)
    df = sweep_table(folder)
    text = (f"Sweep of {', '.join(meta['vary'])} over {len(meta['variants'])} variants, {meta['games']:,} games each, "
            f"seed {meta['seed']} for every variant (common random numbers). Differences are paired game by game "
            f"against the first variant ({meta['variants'][0]['folder']}), with Student-t 95% intervals; win rates "
            "carry Wilson intervals.")
    shown = shown_table(df)

    def build(runs):
        return [Section("Parameter sweep", text, sweep_charts(folder),
                        [("Metrics by variant (win rates and their differences in percent)", shown)]),
                provenance_section(runs)]

    return build
