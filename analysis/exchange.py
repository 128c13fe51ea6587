"""The exchange-rate table of a ``meeplelab exchange-rates`` folder (:mod:`meeplelab.studies.exchange`).

One row per (resource, strategy): what ``units`` more of the resource at the start is worth to that
strategy, per unit, paired game by game against the untreated control (same seed, roster and seat
order; the treated strategy's own seat in both games):

- ``vp``: final VP difference per unit (Student t 95% interval, sd floored at the rounding of whole VP);
- ``win``: win-rate difference per unit in percentage points (Agresti-Min adjusted Wald for paired
  shares);
- the unpaired interval of each beside it (what the common seeds buy), the games needed to resolve the
  difference observed, the control's own mean, and ``p_holm``/``resolved``: Holm over every
  (resource, strategy) of the table, per metric (as ``meeplelab experiment``'s effects).

The ``vp`` resource prices itself: one more start VP is worth about one final VP, plus whatever the
players' reactions to the lead add or take away.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from .load import load_runs

COLUMNS = ["resource", "unit", "strategy", "metric", "n", "units", "per_unit", "low", "high", "unpaired_low",
           "unpaired_high", "mean_control", "mean_treated", "games_needed", "p", "p_holm", "resolved"]


def _games(folder: Path) -> pl.DataFrame:
    g = load_runs([folder]).games
    return g.select("game", "seat", "strategy", "vp", "win_share").collect()


def exchange_table(folder: Path | str) -> pl.DataFrame:
    """The table of a study folder (module docstring). Columns: :data:`COLUMNS` (win in percentage points,
    VP in VP, both per unit; ``units`` the treatment size played).

    Raises:
        RunFolderError: not an exchange-rate folder, or a run folder unreadable.
    """
    from meeplelab.play.runfolder import EXCHANGE_FILE
    from meeplelab.play.runfolder import read_study_state as read_state

    from .experiment import paired
    from .stats import LEVEL, holm

    folder = Path(folder)
    meta = read_state(folder, EXCHANGE_FILE, "exchange-rate study")
    units = int(meta["units"])
    ctrl = _games(folder / "control")
    rows = []
    for a in meta["arms"][1:]:
        g = _games(folder / a["folder"])
        s = a["strategy"]
        j = (g.filter(pl.col("strategy") == s).join(ctrl.filter(pl.col("strategy") == s), on="game", suffix="_c")
             .sort("game"))
        for metric, col, shares, scale in (("vp", "vp", False, 1.0), ("win", "win_share", True, 100.0)):
            r = paired(j[col].to_numpy().astype(float), j[f"{col}_c"].to_numpy().astype(float), shares=shares)
            k = scale / units
            rows.append({"resource": a["resource"], "unit": a.get("unit", ""), "strategy": s, "metric": metric,
                         "n": r["n"], "units": units, "per_unit": r["est"] * k, "low": min(r["low"] * k, r["high"] * k),
                         "high": max(r["low"] * k, r["high"] * k),
                         "unpaired_low": min(r["unpaired_low"] * k, r["unpaired_high"] * k),
                         "unpaired_high": max(r["unpaired_low"] * k, r["unpaired_high"] * k),
                         "mean_control": r["mean_control"] * scale, "mean_treated": r["mean_arm"] * scale,
                         "games_needed": r["games_needed"], "p": r["p"]})
    if not rows:
        return pl.DataFrame(schema={c: pl.String for c in COLUMNS})
    df = pl.DataFrame(rows, infer_schema_length=None)
    adj = np.full(df.height, np.nan)
    for m in ("vp", "win"):
        at = np.flatnonzero((df["metric"] == m).to_numpy())
        adj[at] = holm(df["p"].to_numpy()[at])
    df = df.with_columns(pl.Series("p_holm", adj), pl.Series("resolved", np.nan_to_num(adj, nan=1.0) < 1 - LEVEL))
    return df.select(COLUMNS)


def wide(t: pl.DataFrame) -> pl.DataFrame:
    """One row per (resource, strategy) with both metrics side by side (the printed table)."""
    v = t.filter(pl.col("metric") == "vp").select("resource", "unit", "strategy", "n", "units",
                                                  pl.col("per_unit").alias("vp"), pl.col("low").alias("vp_low"),
                                                  pl.col("high").alias("vp_high"), pl.col("resolved").alias("vp_resolved"))
    w = t.filter(pl.col("metric") == "win").select("resource", "strategy", pl.col("per_unit").alias("win"),
                                                   pl.col("low").alias("win_low"), pl.col("high").alias("win_high"),
                                                   pl.col("games_needed").alias("win_games_needed"),
                                                   pl.col("resolved").alias("win_resolved"))
    return v.join(w, on=["resource", "strategy"], how="left", maintain_order="left")


def markdown(t: pl.DataFrame, meta: dict) -> str:
    """The table as a Markdown page: one line per (resource, strategy)."""
    from .markdown import row

    u = int(meta["units"])
    head = (f"# Exchange rates: {meta['game']}, {meta['players']} seats\n\n"
            f"Field {', '.join(meta['strategies'])}; {meta['seating_plan']}; run seed {meta['seed']}. Each row: "
            f"{'one more' if u == 1 else f'{u:+d}'} unit of the resource at the start for that strategy, paired game "
            "by game against the untreated control (same seeds and seat orders), per unit: final VP (t 95%) and win "
            "rate in percentage points (Agresti-Min 95%); n paired games; * = resolved (Holm-adjusted over every "
            "row of the metric, p < 0.05).\n\n")
    lines = [row(["resource", "strategy", "VP per unit", "win rate per unit (points)", "n", "games needed (win)"]),
             row(["---"] * 6)]
    for r in wide(t).iter_rows(named=True):
        lines.append(row([f"{r['resource']} ({r['unit']})", r["strategy"],
                          f"{r['vp']:+.2f} [{r['vp_low']:.2f}, {r['vp_high']:.2f}]{' *' if r['vp_resolved'] else ''}",
                          f"{r['win']:+.1f} [{r['win_low']:.1f}, {r['win_high']:.1f}]{' *' if r['win_resolved'] else ''}",
                          f"{r['n']:,}", f"{r['win_games_needed']:,}" if r["win_games_needed"] else "-"]))
    return head + "\n".join(lines) + "\n"


def write_outputs(folder: Path | str) -> tuple[pl.DataFrame, dict[str, Path]]:
    """Write ``exchange_rates.parquet``, ``.csv`` and ``.md`` into the study folder; returns the table and paths."""
    from meeplelab.play import runfolder as rf
    from meeplelab.play.runfolder import EXCHANGE_FILE
    from meeplelab.play.runfolder import read_study_state as read_state

    from .compare import _csv
    from .tables import write_table

    folder = Path(folder)
    meta = read_state(folder, EXCHANGE_FILE, "exchange-rate study")
    t = exchange_table(folder)
    paths = {"parquet": write_table(t, folder / "exchange_rates.parquet"), "csv": folder / "exchange_rates.csv",
             "md": folder / "exchange_rates.md"}
    rf.write_atomic(paths["csv"], _csv(t))
    rf.write_atomic(paths["md"], markdown(t, meta).encode())
    return t, paths


__all__ = ["COLUMNS", "exchange_table", "markdown", "wide", "write_outputs"]
