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

from meeplelab.play.sweep import read_sweep

from . import figures as F
from .load import load_runs
from .stats import mean_t, paired_shares, resolution, wilson
from .page import Section
from .report import build_report, provenance_section
from .retune import section as retuned_section
from .seats import games_frame
from .stats import games_for_difference
from .verdict import rule_effect_flags, verdict_section
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.registry import get_game_class

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
    return games.group_by("game", maintain_order=True).agg(
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
            xa, xb = joined[m].to_numpy().astype(float), joined[f"{m}_base"].to_numpy().astype(float)
            if m == "seat1_win_rate":  # a share: Wilson, and Agresti-Min for the paired difference
                est, lo, hi = wilson(x.sum(), n)
                pr = paired_shares(xa, xb)
                dm, dlo, dhi = pr["est"], pr["low"], pr["high"]
            else:  # sd floored at the values' resolution: identical games still give an interval
                est, lo, hi = mean_t(x)
                dm, dlo, dhi = mean_t(xa - xb, res=resolution(np.concatenate([xa, xb])))
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


def sweep_sections(folder: Path | str, target: tuple[str, float] | None = None):
    """Report sections of a sweep: charts per metric and the table with paired differences (win
    rates in percent, as in the charts); per-strategy win rates and the game's own metrics per
    variant; with ``target = (strategy, rate)`` the parameter value that reaches it (:func:`solve_target`)."""
    meta = read_sweep(folder)
    df = sweep_table(folder)
    text = (f"Sweep of {', '.join(meta['vary'])} over {len(meta['variants'])} variants, {meta['games']:,} games each, "
            f"seed {meta['seed']} for every variant (common random numbers). Differences are paired game by game "
            f"against the first variant ({meta['variants'][0]['folder']}), with Student-t 95% intervals (sd never below "
            "the rounding sd of the values' resolution) and Agresti-Min intervals for win-share differences; win rates "
            "carry Wilson intervals.")
    shown = shown_table(df)

    def build(runs):
        st = strategy_table(folder)
        gm = game_metric_table(folder)
        lines = [f"Per strategy: win rate (Wilson 95%, percent) in every variant and the paired difference against "
                 f"the first variant, game and seat matched (percentage points, Agresti-Min adjusted Wald 95%), with the "
                 f"games needed to "
                 f"resolve the difference observed. Seating: {meta.get('seating_plan', 'see provenance')}."]
        for r in st.filter(pl.col("variant") != meta["variants"][0]["folder"]).iter_rows(named=True):
            need = f"; about {r['games_needed']:,} games resolve it" if r["games_needed"] else ""
            lines.append(f"{r['variant']}: {r['strategy']} {r['est']:.1f}% ({r['diff']:+.1f} percentage points "
                         f"[{r['diff_low']:.1f}, {r['diff_high']:.1f}]){need}.")
        tables = [("Win rate by strategy and variant (percent; differences in percentage points, paired)", st)]
        if gm.height:
            tables.append(("The game's own metrics by variant (paired differences against the first variant)", gm))

        effect_lines, effects = rule_effect_flags(runs, games_frame(runs))
        first = load_runs([folder / meta["variants"][0]["folder"]])
        secs = [verdict_section(first, extra=effect_lines, scope=f"the first variant ({meta['variants'][0]['folder']}); "
                                "rule effects on every variant", effects=effects),
                Section("Parameter sweep", text, sweep_charts(folder),
                        [("Metrics by variant (win rates in percent, their differences in percentage points)", shown)]),
                Section("Strategies and game metrics by variant", "\n".join(lines), strategy_charts(folder), tables)]
        if target is not None:
            secs.append(Section("Target", target_text(solve_target(folder, *target))))

        again = retuned_section(folder)  # sweep --retune: every effect with the players fixed and re-tuned
        if again is not None:
            secs.insert(1, again)
        return secs + [provenance_section(runs)]

    return build


# ---------------------------------------------------------------- per strategy, game metrics, target solve
def _per_game_metrics_gt(runs) -> pl.DataFrame:
    """Galileo's Truth per game: Abjures per seat (share of seats that Abjured) and mean final Suspicion."""
    players = runs.games.filter(pl.col("seat") == 0).select("game", pl.col("players").cast(pl.Float64))
    ab = runs.events.filter(pl.col("kind") == "abjure").group_by("game", maintain_order=True).agg(pl.len().alias("_n"))
    susp = (runs.turns.sort("turn").group_by("game", "seat", maintain_order=True).agg(pl.col("suspicion_after").last())
            .group_by("game", maintain_order=True).agg(pl.col("suspicion_after").cast(pl.Float64).mean().alias("final_suspicion")))
    return (players.join(ab, on="game", how="left").join(susp, on="game", how="left")
            .with_columns((pl.col("_n").fill_null(0) / pl.col("players")).alias("abjure_rate"))
            .select("game", "abjure_rate", "final_suspicion").collect())


def _per_game_metrics_um(runs) -> pl.DataFrame:
    """Unconscious Mind per game: Coffee spent per seat and Volumes cited per game."""
    players = runs.games.filter(pl.col("seat") == 0).select("game", pl.col("players").cast(pl.Float64))
    cs = (runs.events.filter(pl.col("kind") == "coffee_spend").group_by("game", maintain_order=True)
          .agg(pl.col("amount").cast(pl.Float64).sum().alias("_c")))
    ci = (runs.events.filter(pl.col("kind") == "cite").group_by("game", maintain_order=True)
          .agg(pl.len().cast(pl.Float64).alias("citations")))
    return (players.join(cs, on="game", how="left").join(ci, on="game", how="left")
            .with_columns((pl.col("_c").fill_null(0) / pl.col("players")).alias("coffee_spent"),
                          pl.col("citations").fill_null(0))
            .select("game", "coffee_spent", "citations").collect())


#: the game's own metrics in sweeps: per-game values, averaged per variant with paired differences
GAME_METRICS = {"galileos-truth": (_per_game_metrics_gt, {"abjure_rate": "Abjures per seat (share)",
                                                          "final_suspicion": "final Suspicion per seat"}),
                "unconscious-mind": (_per_game_metrics_um, {"coffee_spent": "Coffee spent per seat",
                                                            "citations": "Volumes cited per game"})}


def _variants(folder: Path):
    meta = read_sweep(folder)
    for v in meta["variants"]:
        yield meta, v, load_runs([folder / v["folder"]])


def strategy_table(folder: Path | str) -> pl.DataFrame:
    """Win rate of every strategy in every variant (Wilson 95%, percent) and its paired difference
    against the first variant (same game and seat, percentage points, Agresti-Min adjusted Wald 95%:
    :func:`meeplelab.analysis.stats.paired_shares`), with the games needed
    to resolve that difference: ``variant, <swept>, strategy, games, est, low, high, fair, diff,
    diff_low, diff_high, games_needed``."""
    folder = Path(folder)
    rows, base = [], None
    for meta, v, runs in _variants(folder):
        g = runs.games.select("game", "seat", "players", "strategy", "win_share").collect()
        if base is None:
            base = g
        j = g.join(base.select("game", "seat", pl.col("win_share").alias("_b")), on=["game", "seat"])
        for (s,), sub in g.group_by("strategy", maintain_order=True):
            est, lo, hi = wilson(sub["win_share"].sum(), sub.height)
            d = j.filter(pl.col("strategy") == s)
            pr = paired_shares(d["win_share"].to_numpy(), d["_b"].to_numpy())  # Agresti-Min: width at 0/N
            dm, dlo, dhi, sd = pr["est"], pr["low"], pr["high"], pr["sd"]
            row = {"variant": v["folder"], **{k: v["values"][k] for k in meta["vary"]}, "strategy": s,
                   "games": sub.height, "est": float(est) * 100, "low": float(lo) * 100, "high": float(hi) * 100,
                   "fair": 100.0 / float(sub["players"][0]), "diff": dm * 100, "diff_low": dlo * 100,
                   "diff_high": dhi * 100, "games_needed": games_for_difference(sd, dm)}
            rows.append(row)
    return pl.DataFrame(rows)


def game_metric_table(folder: Path | str) -> pl.DataFrame:
    """The game's own metrics (:data:`GAME_METRICS`) per variant with t 95% intervals and the paired
    difference against the first variant: ``variant, <swept>, metric, games, est, low, high, diff,
    diff_low, diff_high`` (empty for games without metrics)."""
    folder = Path(folder)
    meta = read_sweep(folder)
    spec = GAME_METRICS.get(meta["game"])
    if spec is None:
        return pl.DataFrame()
    fn, names = spec
    rows, base = [], None
    for meta, v, runs in _variants(folder):
        per = fn(runs)
        if base is None:
            base = per
        j = per.join(base, on="game", suffix="_b")
        for m in names:
            est, lo, hi = mean_t(per[m].to_numpy())
            dm, dlo, dhi = mean_t((j[m] - j[f"{m}_b"]).to_numpy())
            rows.append({"variant": v["folder"], **{k: v["values"][k] for k in meta["vary"]}, "metric": m,
                         "games": per.height, "est": est, "low": lo, "high": hi, "diff": dm, "diff_low": dlo,
                         "diff_high": dhi})
    return pl.DataFrame(rows)


def solve_target(folder: Path | str, strategy: str, rate: float) -> dict:
    """The value of the (first, numeric) swept parameter that brings ``strategy``'s win rate to
    ``rate`` (a fraction), by linear interpolation between the variants that bracket it; the interval
    comes from the paired bands (first variant's win rate plus the paired difference's 95% interval).

    Returns:
        ``{"param", "strategy", "target", "value", "low", "high", "note", "integers"}`` (None values when
        the target is not reached inside the swept range). For an integer rule number ``integers`` lists
        the integers either side of the crossing (one when it falls on an integer), each with the
        strategy's win rate and Wilson 95% bounds (fractions), ``played`` False when that value was not
        swept (then interpolated between the swept variants); else ``integers`` is None.

    Raises:
        ConfigError: the strategy is not in the sweep, or the swept values are not numbers.
    """
    folder = Path(folder)
    meta = read_sweep(folder)
    param = list(meta["vary"])[0]
    st = strategy_table(folder).filter(pl.col("strategy") == strategy)
    if st.height == 0:
        raise ConfigError(f"--target: strategy {strategy!r} is not in this sweep")
    try:
        x = np.array([float(v) for v in st[param].to_list()])
    except ValueError:
        raise ConfigError(f"--target needs numeric values of {param}") from None
    order = np.argsort(x)
    x = x[order]
    base = float(st["est"][0])
    est = st["est"].to_numpy()[order] / 100
    lo = (base + st["diff_low"].to_numpy()[order]) / 100
    hi = (base + st["diff_high"].to_numpy()[order]) / 100

    def cross(y):
        for i in range(len(x) - 1):
            a, b = y[i] - rate, y[i + 1] - rate
            if a == 0:
                return float(x[i])
            if a * b < 0:
                return float(x[i] + (x[i + 1] - x[i]) * a / (a - b))
        return float(x[-1]) if y[-1] == rate else None

    value, c_lo, c_hi = cross(est), cross(lo), cross(hi)
    bounds = sorted(v for v in (c_lo, c_hi) if v is not None)
    note = ("" if value is not None else
            f"not reached: {strategy}'s win rate runs from {est.min() * 100:.1f}% to {est.max() * 100:.1f}% over "
            f"{param} {x.min():g} to {x.max():g}")
    integers = None
    if value is not None and _is_integer_param(meta["game"], param):
        own_lo, own_hi = st["low"].to_numpy()[order] / 100, st["high"].to_numpy()[order] / 100
        integers = []
        for v in sorted({int(np.floor(value)), int(np.ceil(value))}):
            played = bool(np.any(x == v))
            integers.append({"value": v, "played": played, "est": float(np.interp(v, x, est)),
                             "low": float(np.interp(v, x, own_lo)), "high": float(np.interp(v, x, own_hi))})
    return {"param": param, "strategy": strategy, "target": rate, "value": value,
            "low": bounds[0] if len(bounds) == 2 else None, "high": bounds[1] if len(bounds) == 2 else None,
            "note": note, "integers": integers}


def _is_integer_param(game: str, param: str) -> bool:
    """True when ``param`` is an integer rule number of ``game``'s ``Params`` (a target is then answered with
    the integers either side of the crossing, not a fractional value the rules cannot take)."""
    import dataclasses

    fields = {f.name: f for f in dataclasses.fields(get_game_class(game).Params)}
    f = fields.get(param)
    return f is not None and type(f.default) is int


def target_text(t: dict) -> str:
    """The Target section's sentence for a :func:`solve_target` answer (win rates in percent)."""
    if t["value"] is None:
        return f"Target {t['strategy']} at {t['target'] * 100:.1f}%: {t['note']}."
    if t.get("integers"):
        parts = []
        for i in t["integers"]:
            how = ("played" if i["played"] else
                   f"interpolated between the swept values, not played: add {t['param']}={i['value']} to --vary to "
                   "measure it")
            parts.append(f"{t['param']} = {i['value']}: {t['strategy']} {i['est'] * 100:.1f}% "
                         f"[{i['low'] * 100:.1f}, {i['high'] * 100:.1f}] ({how})")
        side = ("lies at" if len(t["integers"]) == 1 else "lies between")
        return (f"Target {t['strategy']} at {t['target'] * 100:.1f}% win rate: {t['param']} is an integer rule number, "
                f"and the target {side} " + " and ".join(str(i["value"]) for i in t["integers"]) + ". "
                + "; ".join(parts) + " (Wilson 95%).")
    iv = (f" [{t['low']:g}, {t['high']:g}] from the paired 95% band" if t["low"] is not None
          else " (the paired band does not cross the target inside the swept range: no interval)")
    return (f"Target: {t['param']} = {t['value']:.3g}{iv} brings {t['strategy']} to a "
            f"{t['target'] * 100:.1f}% win rate (linear interpolation between the variants).")


def strategy_charts(folder: Path | str) -> list:
    """Per-strategy win rate against the first swept parameter (fair-share line) and its paired
    difference (zero line)."""
    meta = read_sweep(folder)
    param = list(meta["vary"])[0]
    st = strategy_table(folder)
    names = sorted(st["strategy"].unique().to_list())
    first = st.filter(pl.col("strategy") == names[0])
    try:
        x = np.array([float(v) for v in first[param].to_list()])
        ticks = None
    except ValueError:
        x, ticks = np.arange(first.height), [str(v) for v in first[param].to_list()]
    out = []
    for col, lo, hi, title, ylabel, ref, ref_label in (
            ("est", "low", "high", f"Win rate by strategy against {param}", "win rate (%)",
             float(first["fair"][0]), "fair share"),
            ("diff", "diff_low", "diff_high", f"Paired win-rate difference vs {param}={first[param][0]}",
             "difference (percentage points)", 0.0, "no difference")):
        arr = lambda c: np.vstack([st.filter(pl.col("strategy") == s)[c].to_numpy() for s in names])  # noqa: E731
        fig = F.line_with_band(x, arr(col), arr(lo), arr(hi), title=title, xlabel=param, ylabel=ylabel, labels=names)
        ax = fig.axes[0]
        ax.axhline(ref, color="k", ls="--", lw=1, label=ref_label)
        ax.legend(fontsize=8)
        if ticks is not None:
            ax.set_xticks(x, ticks)
        out.append((f"sweep_strategy_{col}", fig, f"{title} (95% interval; dashed: {ref_label})"))
    return out


def write_report(out: Path | str, goal: tuple[str, float] | None = None, *, progress: bool = False) -> tuple[int, Path]:
    """The report of the (played) sweep in ``out`` into ``out/report``: every variant's runs, the sweep's sections
    (with ``goal``, ``(strategy, win rate)``, the value of the first swept parameter that brings it there). Returns
    (the number of variants, the page's path).

    Raises:
        RunFolderError: ``out`` is not a complete sweep folder.
    """
    out = Path(out)
    meta = read_sweep(out)
    page = build_report([out / x["folder"] for x in meta["variants"]], out / "report",
                        sections=sweep_sections(out, goal), progress=progress)
    return len(meta["variants"]), page
