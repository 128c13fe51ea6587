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

**Curves between versions** (a folder of ``exchange-rates --arm``; :func:`curve_tables`). Per version, resource and
strategy, the treated seat's change against its own seat in the version's control game, game by game:

- ``curves``: at every dose (0 included: the control against itself, exactly 0), the mean change of final VP (t 95%)
  and of win rate in points (Agresti-Min 95%), as :func:`exchange_table`'s measure but over the game seeds (a seed
  played in several seat orders counts once, :func:`meeplelab.analysis.stats.cluster_means`);
- ``prices``: the price per unit, the least-squares slope through 0 of the curve, computed per game
  (``sum(dose * change) / sum(dose ** 2)``) and averaged (t 95% over the seeds); per version after the first, the
  paired change of that price against the first version (same games: same seed and seat order), its p-value and
  ``p_holm``/``resolved`` (Holm over every resource and strategy of the metric);
- ``deltas``: the same paired change between versions at every dose.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from meeplelab.play import runfolder as rf

from . import figures as F
from .compare import _csv
from .experiment import paired
from .retune import section as retuned_section
from .retune import with_sections
from .load import load_runs
from .page import Section, TableFormat
from .report import build_report, provenance_section
from .stats import LEVEL, holm
from .tables import write_table
from .versions import _paired_mean
from .markdown import row
from meeplelab.play.runfolder import EXCHANGE_FILE, read_study_state as read_state

#: the files of a curves study (:func:`write_curve_outputs`) besides its report
CURVE_FILES = tuple(f"exchange_{t}.{x}" for t in ("prices", "curves", "deltas") for x in ("parquet", "csv"))
METRICS = (("vp", "vp", True, 1.0), ("win", "win_share", False, 100.0))  # metric, column, is VP, scale

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
    folder = Path(folder)
    meta = read_state(folder, EXCHANGE_FILE, "exchange-rate study")
    t = exchange_table(folder)
    paths = {"parquet": write_table(t, folder / "exchange_rates.parquet"), "csv": folder / "exchange_rates.csv",
             "md": folder / "exchange_rates.md"}
    rf.write_atomic(paths["csv"], _csv(t))
    rf.write_atomic(paths["md"], markdown(t, meta).encode())
    return t, paths




def _seat_games(folder: Path, cache: dict) -> pl.DataFrame:
    """A run's games, one row per (game, strategy): ``game, strategy, game_seed, vp, win_share`` (read once)."""
    if folder not in cache:
        cache[folder] = load_runs([folder]).games.select("game", "strategy", "game_seed", "vp", "win_share").collect()
    return cache[folder]


def _wide(meta: dict, folder: Path) -> dict[tuple, pl.DataFrame]:
    """Per (version, resource, strategy): one row per game with ``game, game_seed`` and per dose ``vp_<d>``,
    ``win_share_<d>`` (dose 0: the control), the games every dose played."""
    cache: dict = {}
    ctrl = {r["version"]: r["folder"] for r in meta["arms"] if r["resource"] is None}
    out: dict[tuple, pl.DataFrame] = {}
    for r in meta["arms"]:
        if r["resource"] is None:
            continue
        key = (r["version"], r["resource"], r["strategy"])
        if key not in out:
            c = _seat_games(folder / ctrl[r["version"]], cache).filter(pl.col("strategy") == r["strategy"])
            out[key] = c.select("game", "game_seed", pl.col("vp").alias("vp_0"), pl.col("win_share").alias("win_share_0"))
        t = _seat_games(folder / r["folder"], cache).filter(pl.col("strategy") == r["strategy"])
        out[key] = out[key].join(t.select("game", pl.col("vp").alias(f"vp_{r['dose']}"),
                                          pl.col("win_share").alias(f"win_share_{r['dose']}")), on="game")
    return {k: v.sort("game") for k, v in out.items()}


def _changes(w: pl.DataFrame, col: str, doses: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """``([games, doses] change against dose 0, [games] per-game slope through 0)`` of column family ``col``."""
    x = np.column_stack([w[f"{col}_{d}"].to_numpy().astype(float) for d in doses])
    ch = x - x[:, :1]
    dv = np.asarray(doses, float)
    return ch, ch @ dv / float(dv @ dv)


def _mean_row(d: np.ndarray, seeds, scale: float) -> dict:
    r = _paired_mean(d, cluster=seeds)
    return {"n": r["n"], "est": r["est"] * scale, "low": r["low"] * scale, "high": r["high"] * scale, "p": r["p"]}


def _ref_changes(both: pl.DataFrame, col: str, doses: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_changes` of the reference version's columns (suffix ``_ref``) of a joined frame."""
    return _changes(both.select(*[pl.col(f"{col}_{d}_ref").alias(f"{col}_{d}") for d in doses]), col, doses)


def _rows(key: dict, w: pl.DataFrame, both: pl.DataFrame | None, doses: list[int]) -> tuple[list, list, list]:
    """The curve, price and delta rows of one (version, resource, strategy): ``w`` its games (:func:`_wide`), ``both``
    joined with the reference version's (None for the reference itself)."""
    seeds = w["game_seed"].to_numpy()
    curves, prices, deltas = [], [], []
    for metric, col, is_vp, scale in METRICS:
        for d in doses:
            r = paired(w[f"{col}_{d}"].to_numpy().astype(float), w[f"{col}_0"].to_numpy().astype(float),
                       shares=not is_vp, cluster=seeds)
            curves.append({**key, "dose": d, "metric": metric, "n": r["n"], "est": r["est"] * scale,
                           "low": r["low"] * scale, "high": r["high"] * scale, "p": r["p"]})
        pr = _mean_row(_changes(w, col, doses)[1], seeds, scale)
        row = {**key, "metric": metric, "n": pr["n"], "price": pr["est"], "low": pr["low"], "high": pr["high"],
               "change": None, "change_low": None, "change_high": None, "p": None}
        if both is not None:
            (ch, sl), (ch_r, sl_r) = _changes(both, col, doses), _ref_changes(both, col, doses)
            bs = both["game_seed"].to_numpy()
            c = _mean_row(sl - sl_r, bs, scale)
            row.update({"change": c["est"], "change_low": c["low"], "change_high": c["high"], "p": c["p"]})
            deltas += [{**key, "dose": d, "metric": metric, **_mean_row(ch[:, i] - ch_r[:, i], bs, scale)}
                       for i, d in enumerate(doses)]
        prices.append(row)
    return curves, prices, deltas


def _holm(prices: pl.DataFrame) -> pl.DataFrame:
    """``p_holm`` (Holm over the price changes of each metric) and ``resolved`` (``p_holm < 0.05``)."""
    adj = np.full(prices.height, np.nan)
    p = prices["p"].cast(pl.Float64).to_numpy()
    for m in ("vp", "win"):
        at = np.flatnonzero((prices["metric"] == m).to_numpy() & np.isfinite(p))
        if at.size:
            adj[at] = holm(p[at])
    return prices.with_columns(pl.Series("p_holm", adj).fill_nan(None),
                               pl.Series("resolved", np.nan_to_num(adj, nan=1.0) < 1 - LEVEL))


def curve_tables(folder: Path | str) -> dict[str, pl.DataFrame]:
    """The ``prices``, ``curves`` and ``deltas`` tables of a curves folder (module docstring). VP in VP, win in
    percentage points, all per seat-game of the treated strategy.

    Columns: curves ``version, spec, reference, resource, unit, strategy, dose, metric, n, est, low, high, p``;
    prices the same keys without ``dose`` and ``n, price, low, high, change, change_low, change_high, p, p_holm,
    resolved`` (the first version's change columns null); deltas (versions after the first) as curves.

    Raises:
        RunFolderError: not an exchange-rate folder, or a run folder unreadable.
    """
    folder = Path(folder)
    meta = rf.read_study_state(folder, rf.EXCHANGE_FILE, "exchange-rate study")
    doses = [int(d) for d in meta["doses"]]
    spec = {v["label"]: v["spec"] for v in meta["versions"]}
    unit = {r["resource"]: r.get("unit", "") for r in meta["arms"] if r["resource"]}
    ref = meta["versions"][0]["label"]
    wide = _wide(meta, folder)
    out: dict[str, list] = {"curves": [], "prices": [], "deltas": []}
    for (v, res, s), w in wide.items():
        key = {"version": v, "spec": spec[v], "reference": ref, "resource": res, "unit": unit[res], "strategy": s}
        both = None if v == ref else w.join(wide[(ref, res, s)], on="game", suffix="_ref")
        for name, rows in zip(("curves", "prices", "deltas"), _rows(key, w, both, doses)):
            out[name] += rows
    frames = {k: pl.DataFrame(v, infer_schema_length=None) for k, v in out.items() if v}
    if "deltas" not in frames:  # one version: no change between versions
        frames["deltas"] = frames["curves"].clear()
    frames["prices"] = _holm(frames["prices"])
    return frames


def _iv(est, lo, hi, places: int) -> str:
    if est is None or not np.isfinite(est):
        return "-"
    iv = f"[{lo:+.{places}f}, {hi:+.{places}f}]" if lo is not None and np.isfinite(lo) else "[no interval]"
    return f"{est:+.{places}f} {iv}"


def who_gains_lines(prices: pl.DataFrame, meta: dict) -> list[str]:
    """Who gains, by how much: a heading line, then per resource its name and an aligned row per strategy: the
    final-VP price per unit in every version, and per later version the paired change of the VP price and of the
    win-rate price (points) with 95% intervals, ``changed (Holm)`` where resolved. The first lines ``meeplelab
    exchange-rates --arm`` prints."""
    vs = [v["label"] for v in meta["versions"]]
    ref = vs[0]
    names = "; ".join(f"{v['label']} = {v['spec']}" for v in meta["versions"])
    doses = ",".join(str(d) for d in meta["doses"] if d)
    out = [(f"Who gains, by how much: final VP per extra start unit (slope over doses {doses} against 0, paired on "
            f"the same {meta['games']:,} games; 95% intervals); {names}")]
    for res in prices["resource"].unique(maintain_order=True).to_list():
        sub = prices.filter(pl.col("resource") == res)
        out.append(f"{res} ({sub['unit'][0]}):")
        head = ["strategy", *(f"VP/unit {v}" for v in vs), *(f"{v} - {ref} (VP)" for v in vs[1:]),
                *(f"{v} - {ref} (win points)" for v in vs[1:]), ""]
        rows = [head]
        for s in sub["strategy"].unique(maintain_order=True).to_list():
            by = {(r["version"], r["metric"]): r for r in sub.filter(pl.col("strategy") == s).iter_rows(named=True)}
            cells = [s, *(_iv(by[(v, "vp")]["price"], by[(v, "vp")]["low"], by[(v, "vp")]["high"], 2) for v in vs)]
            for m, places in (("vp", 2), ("win", 1)):
                cells += [_iv(by[(v, m)]["change"], by[(v, m)]["change_low"], by[(v, m)]["change_high"], places)
                          for v in vs[1:]]
            cells.append("changed (Holm)" if any(by[(v, m)]["resolved"] for v in vs[1:] for m in ("vp", "win")) else "")
            rows.append(cells)
        width = [max(len(x[i]) for x in rows) for i in range(len(head))]
        out += ["  " + "  ".join(x.ljust(w) for x, w in zip(row, width)).rstrip() for row in rows]
    return out


def curve_chart(curves: pl.DataFrame, resource: str):
    """One resource's dose-response: final VP change against dose, one curve per version and strategy (colour: the
    strategy; line style: the version), each with its 95% band."""
    sub = curves.filter((pl.col("resource") == resource) & (pl.col("metric") == "vp"))
    unit = sub["unit"][0]
    fig, ax = F._fig(f"{resource}: final VP change of a seat given extra start {unit} (95% bands)")
    styles = ["-", "--", ":", "-."]
    vs = sub["version"].unique(maintain_order=True).to_list()
    for k, s in enumerate(sub["strategy"].unique(maintain_order=True).to_list()):
        for j, v in enumerate(vs):
            c = sub.filter((pl.col("strategy") == s) & (pl.col("version") == v)).sort("dose")
            x = c["dose"].to_numpy()
            colour = F.COLORS[k % len(F.COLORS)]
            ax.plot(x, c["est"].to_numpy(), marker="o", color=colour, linestyle=styles[j % len(styles)],
                    label=f"{v} ({c['spec'][0]}): {s}")
            ax.fill_between(x, c["low"].to_numpy(), c["high"].to_numpy(), color=colour, alpha=0.12)
    F.integer_ticks(ax, sub["dose"].to_numpy())
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel(f"extra start {unit} (dose)")
    ax.set_ylabel("final VP change of the treated seat")
    ax.legend(fontsize=8)
    return fig


def curve_sections(folder: Path, tables: dict[str, pl.DataFrame], meta: dict):
    """The report builder of a curves folder: who gains (the prices), one chart per resource, the tables, and the
    provenance of the versions' controls."""
    names = "; ".join(f"{v['label']} = `{v['spec']}`" for v in meta["versions"])

    def build(runs):
        p = tables["prices"]
        text = (f"Versions: {names}. Field {', '.join(meta['strategies'])}; {meta['seating_plan']}; run seed "
                f"{meta['seed']}; {meta['games']:,} games per run. For each start resource, strategy and dose, that "
                "strategy starts with that many more units in every seat of the rotation; its final VP and win share "
                "minus its own in the same game of the version's control is one paired change. The price per unit is "
                "the slope through 0 of those changes over the doses, per game, averaged (t 95% over the game seeds); "
                "the change between versions is paired on the same games (same seed and seat order), Holm-adjusted "
                "over every resource and strategy of the metric (`resolved`).")
        secs = [Section("Who gains, by how much: the price of a start unit per version", text=text,
                        tables=[("Price per extra start unit and its change between versions (VP; win in points)", p,
                                 TableFormat(rank=None))])]
        figs = [(f"curve_{r}", curve_chart(tables["curves"], r),
                 f"{r}: final VP change against the dose, per version and strategy")
                for r in tables["curves"]["resource"].unique(maintain_order=True).to_list()]
        secs.append(Section("Dose-response curves", text="Each point: the mean change of the treated strategy's final "
                            "VP (or win rate, in the table) against its own seat in the version's control game; dose 0 "
                            "is the control against itself.", figures=figs,
                            tables=[("Dose-response points per version", tables["curves"],
                                     TableFormat(rank=None, folded=True)),
                                    ("Paired change between versions per dose", tables["deltas"],
                                     TableFormat(rank=None, folded=True))]))
        return secs + [provenance_section(runs)]

    return build


def write_curve_outputs(folder: Path | str, *, progress: bool = False) -> tuple[dict, dict[str, Path], Path]:
    """Write the tables of a curves folder (:data:`CURVE_FILES`) and its report (``folder/report``, with the section
    "Players fixed and players re-tuned" of ``exchange-rates --retune``, :func:`meeplelab.analysis.retune.section`);
    returns ``(tables, paths, report page)``."""
    folder = Path(folder)
    meta = rf.read_study_state(folder, rf.EXCHANGE_FILE, "exchange-rate study")
    tables = curve_tables(folder)
    paths: dict[str, Path] = {}
    for name, t in tables.items():
        paths[name] = write_table(t, folder / f"exchange_{name}.parquet")
        paths[f"{name}_csv"] = folder / f"exchange_{name}.csv"
        rf.write_atomic(paths[f"{name}_csv"], _csv(t))
    ctrl = [folder / r["folder"] for r in meta["arms"] if r["resource"] is None]
    again = [x for x in [retuned_section(folder)] if x is not None]  # --retune: the versions' controls re-tuned
    page = build_report(ctrl, folder / "report", sections=with_sections(curve_sections(folder, tables, meta), again),
                        kind="exchange-rates", progress=progress)
    return tables, paths, page


__all__ = ["COLUMNS", "CURVE_FILES", "curve_chart", "curve_sections", "curve_tables", "exchange_table", "markdown",
           "who_gains_lines", "wide", "write_curve_outputs", "write_outputs"]
