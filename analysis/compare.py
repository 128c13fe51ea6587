"""One paired delta table of everything between rule/content versions (issue 29 item 1).

:func:`delta_table` extends :func:`meeplelab.analysis.versions.delta_table` (each strategy's win rate and final VP,
the seat spread per player count, game length) with, per strategy and player count:

- **rank**: mean final place (1 = best), the ranking's own number;
- **score categories**: mean VP from each of the game's categories (``vp_<category>`` of the games
  table; ``seat_bonus`` is start VP outside every category);
- **action and space use**: turns per seat-game taking each value of the turns table's categorical
  columns (Galileo's Truth ``main_action``; Unconscious Mind ``option`` and ``mt_action``, the Meeting
  Table action spaces);
- **events**: events per seat-game of every kind (writes, observations, publications, ...), so
  citations (``cite``: Volumes cited) and Abjures (``abjure``) are counted;
- **Abjure and citation rates**: the share of seat-games with at least one Abjure (Galileo's Truth) or
  one citation (Unconscious Mind), in percent.

Every row is the later version minus the reference with its 95% interval, sample size, games needed
and p-value: paired (game and seat matched: same seed, roster, seat order) where the versions played
the same games (means: Student t with the sd floor; shares: Agresti-Min), unpaired otherwise (Welch;
Newcombe). A version comparison reads as "what changed", so each row is one claim of a family: the
p-values are Holm-adjusted over every row of that version's comparison (``p_holm``), and ``changed``
is ``p_holm < 0.05``; the chance that any unchanged quantity is called changed is at most 5%.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from .load import Runs
from .seats import seed_clusters
from .versions import Version, _paired_mean, _welch, matched_games, paired_runs

#: events whose per-seat-game rate (share of seat-games with at least one) the table gives, by game
RATE_KINDS = {"galileos-truth": {"abjure": "Abjure rate (% of seat-games)"},
              "unconscious-mind": {"cite": "citation rate (% of seat-games citing)"}}
KEYS = ["run", "game", "seat"]
COLUMNS = ["version", "reference", "metric", "players", "strategy", "design", "n", "ref", "value", "est", "low",
           "high", "games_needed", "p", "p_holm", "changed"]


def _logged(runs: Runs, table: str) -> bool:
    flag = {"turns": "log_turns", "events": "log_events"}[table]
    return all((m.get("config") or {}).get(flag, True) is not False for m in runs.manifests.values())


def seat_metrics(runs: Runs) -> tuple[pl.DataFrame, list[tuple[str, str, str]]]:
    """One row per (run, game, seat) with every compared quantity, and the list of ``(column, metric
    name, kind)`` (kind ``mean`` or ``share``; shares in [0, 1], reported in percent).

    Columns besides the keys and ``players, strategy, seat_order, game_seed``: ``rank``, ``vp_<category>``,
    ``turns: <column>=<value>`` (turns table logged in every run), ``events: <kind>`` and ``rate: <kind>``
    (events table logged in every run)."""
    from .seats import games_frame

    df = games_frame(runs)
    gcols = runs.games.collect_schema().names()
    cats = [c for c in gcols if c.startswith("vp_")]
    df = df.join(runs.games.select(KEYS + ["rank"] + cats).collect()
                 .with_columns(pl.col("seat").cast(pl.Int64)), on=KEYS, how="left")
    metrics: list[tuple[str, str, str]] = [("rank", "rank (mean final place)", "mean")]
    metrics += [(c, f"VP from {c[3:]}", "mean") for c in cats]
    if _logged(runs, "turns"):
        schema = runs.turns.collect_schema()
        skip = set(KEYS) | {"strategy"}
        # the choices of the turn (actions, spaces); columns ending in _after are the seat's state after it
        catcols = [c for c, t in schema.items() if c not in skip and not c.endswith("_after")
                   and (t == pl.String or t == pl.Categorical or isinstance(t, (pl.Categorical, pl.Enum)))]
        for c in catcols:
            counts = (runs.turns.select(KEYS + [pl.col(c).cast(pl.String)]).collect()
                      .with_columns(pl.col("seat").cast(pl.Int64))
                      .group_by(KEYS + [c], maintain_order=True).len())
            values = sorted(v for v in counts[c].unique().to_list() if v is not None)
            if not values:
                continue
            wide = counts.pivot(on=c, index=KEYS, values="len", aggregate_function="sum")
            names = {v: f"turns: {c}={v}" for v in values}
            wide = wide.rename({v: names[v] for v in values if v in wide.columns})
            df = df.join(wide, on=KEYS, how="left")
            metrics += [(names[v], f"turns with {c}={v} (per game)", "mean") for v in values]
    if _logged(runs, "events"):
        counts = (runs.events.select(KEYS + [pl.col("kind").cast(pl.String)]).collect()
                  .with_columns(pl.col("seat").cast(pl.Int64)).group_by(KEYS + ["kind"], maintain_order=True).len())
        kinds = sorted(v for v in counts["kind"].unique().to_list() if v is not None)
        if kinds:
            wide = counts.pivot(on="kind", index=KEYS, values="len", aggregate_function="sum")
            wide = wide.rename({k: f"events: {k}" for k in kinds if k in wide.columns})
            df = df.join(wide, on=KEYS, how="left")
            metrics += [(f"events: {k}", f"{k} events (per game)", "mean") for k in kinds]
        for game in runs.game_names:
            for k, label in RATE_KINDS.get(game, {}).items():
                col = f"events: {k}"
                if col not in df.columns:
                    df = df.with_columns(pl.lit(0).alias(col))
                df = df.with_columns((pl.col(col).fill_null(0) > 0).cast(pl.Float64).alias(f"rate: {k}"))
                metrics.append((f"rate: {k}", label, "share"))
    fill = [m[0] for m in metrics if m[0].startswith(("turns: ", "events: "))]
    if fill:
        df = df.with_columns([pl.col(c).fill_null(0).cast(pl.Float64) for c in fill])
    return df, metrics


def _extra_rows(runs: Runs, vs: list[Version], arms: bool = False) -> list[dict]:
    """The rows beyond :func:`meeplelab.analysis.versions.delta_table`: every metric of :func:`seat_metrics` per
    strategy and player count, each later version minus the first."""
    from .stats import games_for_difference, newcombe, paired_shares
    from .versions import two_rates_p

    df, metrics = seat_metrics(runs)
    ref = vs[0]
    rows = []
    da_all = df.filter(pl.col("run").is_in(list(ref.runs)))
    for v in vs[1:]:
        pairs = paired_runs(runs, ref, v, arms=arms)
        j = matched_games(df, pairs) if pairs else pl.DataFrame()
        paired = j.height > 0
        design = "paired (game and seat matched)" if paired else "unpaired (descriptive: different games)"
        db_all = df.filter(pl.col("run").is_in(list(v.runs)))
        keys = sorted(set(da_all.select("players", "strategy").unique().iter_rows())
                      & set(db_all.select("players", "strategy").unique().iter_rows()))
        for players, s in keys:
            sel = (pl.col("players") == players) & (pl.col("strategy") == s)
            da, db = da_all.filter(sel), db_all.filter(sel)
            per = None
            if paired:
                cols = [m[0] for m in metrics if m[0] in j.columns and f"{m[0]}_b" in j.columns]
                per = (j.filter(sel).group_by("pair", "seat_order", "game_seed", maintain_order=True)
                       .agg([pl.col(c).cast(pl.Float64).mean() for c in cols]
                            + [pl.col(f"{c}_b").cast(pl.Float64).mean() for c in cols]))
            for col, name, kind in metrics:
                if col not in da.columns or col not in db.columns:
                    continue
                xa = da[col].cast(pl.Float64).drop_nulls().to_numpy()
                xb = db[col].cast(pl.Float64).drop_nulls().to_numpy()
                if not (xa.size and xb.size):
                    continue
                scale = 100.0 if kind == "share" else 1.0
                if per is not None and col in per.columns:
                    a = per[col].to_numpy()
                    b = per[f"{col}_b"].to_numpy()
                    ok = np.isfinite(a) & np.isfinite(b)
                    a, b = a[ok], b[ok]
                    cl = seed_clusters(per)
                    cl = cl[ok] if cl is not None else None
                    if kind == "share":
                        w = paired_shares(b, a, cluster=cl)
                        r = {"est": w["est"], "low": w["low"], "high": w["high"], "n": w["n"], "p": w["p"],
                             "games_needed": games_for_difference(w["sd"], w["est"])}
                    else:
                        r = _paired_mean(b - a, cluster=cl)
                else:
                    if kind == "share":
                        e, lo, hi = newcombe(xb.sum(), xb.size, xa.sum(), xa.size)
                        sd = math.sqrt(float(np.var(xa, ddof=1)) + float(np.var(xb, ddof=1))) \
                            if min(xa.size, xb.size) > 1 else math.nan
                        r = {"est": e, "low": lo, "high": hi, "n": int(min(xa.size, xb.size)),
                             "games_needed": games_for_difference(sd, e),
                             "p": two_rates_p(xb.sum(), xb.size, xa.sum(), xa.size)}
                    else:
                        r = _welch(xa, xb)
                r = {k: (r[k] * scale if k in ("est", "low", "high") else r[k]) for k in r}
                rows.append({"version": v.label, "reference": ref.label, "metric": name, "players": players,
                             "strategy": s, "design": design, "ref": float(xa.mean()) * scale,
                             "value": float(xb.mean()) * scale, **r})
    return rows


def delta_table(runs: Runs, vs: list[Version], *, arms: bool = False) -> pl.DataFrame:
    """Every later version minus the first, everything compared (module docstring): the rows of
    :func:`meeplelab.analysis.versions.delta_table` then the per-strategy rows of :func:`seat_metrics`, each with
    ``p`` and, over the rows of one version's comparison, ``p_holm`` (Holm) and ``changed``. ``arms``: the
    versions are an experiment's arms, paired although their rosters differ in the focal entry
    (:func:`meeplelab.analysis.versions.paired_runs`).

    Columns: ``version, reference, metric, players, strategy, design, n, ref, value, est, low, high,
    games_needed, p, p_holm, changed`` (win rates, seat spread and rates in percent / percentage points)."""
    from .stats import holm
    from .versions import delta_table as base_table

    if len(vs) < 2:
        return pl.DataFrame(schema={c: pl.String for c in COLUMNS})
    base = base_table(runs, vs, arms=arms)
    rows = base.to_dicts() if base.height and "version" in base.columns and base.schema["version"] == pl.String \
        and base.height else []
    rows += _extra_rows(runs, vs, arms)
    if not rows:
        return pl.DataFrame(schema={c: pl.String for c in COLUMNS})
    t = pl.DataFrame(rows, infer_schema_length=None)
    adj = np.full(t.height, np.nan)
    for v in t["version"].unique(maintain_order=True).to_list():
        at = np.flatnonzero((t["version"] == v).to_numpy())
        adj[at] = holm(t["p"].cast(pl.Float64).fill_null(np.nan).to_numpy()[at])
    t = t.with_columns(pl.Series("p_holm", adj), pl.Series("changed", np.nan_to_num(adj, nan=1.0) < 0.05))
    return t.select(COLUMNS)


def _iv2(lo, hi) -> str:
    ok = all(x is not None and math.isfinite(x) for x in (lo, hi))
    return f"[{lo:.2f}, {hi:.2f}]" if ok else "[no interval: too few games]"


def row_line(r: dict) -> str:
    """One delta row as a sentence: players, what, the two figures, the difference with its interval."""
    what = (f"{r['strategy']}'s {r['metric']}" if r["strategy"] and not r["metric"].startswith("seat spread")
            else f"{r['metric']}" + (f" {r['strategy']}" if r["strategy"] else ""))
    need = f"; about {r['games_needed']:,} games resolve a difference this size" if r["games_needed"] else ""
    return (f"{r['players']} players, {what}: {r['ref']:.2f} -> {r['value']:.2f}, {r['est']:+.2f} "
            f"{_iv2(r['low'], r['high'])} ({r['design']}, {r['n']:,} games, p_holm = {r['p_holm']:.2g}{need})")


#: the delta rows a side-effect section always shows, changed or not (their words in the table)
HEADLINE = {"win rate (points)": "win rate (%)", "final VP": "final VP", "seat spread (points)": "seat spread (points)",
            "game length (rounds)": "game length (rounds)"}


def headline_lines(t: pl.DataFrame, *, label: str = "proposal", reference: str = "defaults") -> list[str]:
    """A Markdown table of the :data:`HEADLINE` rows of a delta table ``t`` (:func:`delta_table`): per player
    count each strategy's win rate (%) and final VP, the seat spread (points) and the game length (rounds),
    the two figures and the paired difference with its 95% interval, games, games needed and whether the
    Holm-adjusted p-value calls it changed. With several versions in ``t``, a first column names each
    (``label`` and ``reference`` head the figure columns)."""
    head = t.filter(pl.col("metric").is_in(list(HEADLINE)))
    order = {m: i for i, m in enumerate(HEADLINE)}
    head = head.with_columns(pl.col("metric").replace_strict(order, default=len(order)).alias("_o")).sort(
        "version", "players", "_o", "strategy", maintain_order=True)
    many = head["version"].n_unique() > 1
    md = [("| arm " if many else "") + f"| seats | strategy or seats | quantity | {reference} | {label} | {label} minus "
          f"{reference} [95%] | games | games needed | changed (Holm) |",
          ("|---" if many else "") + "|---|---|---|---|---|---|---|---|---|"]
    for r in head.iter_rows(named=True):
        ok = r["low"] is not None and math.isfinite(r["low"]) and r["high"] is not None and math.isfinite(r["high"])
        iv = f"{r['est']:+.1f} [{r['low']:+.1f}, {r['high']:+.1f}]" if ok else f"{r['est']:+.1f} [no interval]"
        need = f"{r['games_needed']:,}" if r["games_needed"] else "-"
        md.append((f"| {r['version']} " if many else "")
                  + f"| {r['players']} | {r['strategy'] or '-'} | {HEADLINE[r['metric']]} | {r['ref']:.1f} | "
                  f"{r['value']:.1f} | {iv} | {r['n']:,} | {need} | {'**yes**' if r['changed'] else 'no'} |")
    return md


def changed_lines(t: pl.DataFrame, limit: int | None = None, csv: str = "deltas.csv") -> list[str]:
    """One summary line per version (how many of its rows changed), then one sentence per row called changed
    (Holm), the smallest adjusted p-value first; with ``limit``, at most that many rows per version and a
    line saying how many more the table holds (every row in ``csv``)."""
    out = []
    if not t.height:
        return out
    for v in t["version"].unique(maintain_order=True).to_list():
        sub = t.filter(pl.col("version") == v)
        ch = sub.filter(pl.col("changed")).sort("p_holm", "metric", "strategy")
        ref = sub["reference"][0]
        out.append(f"Version {v} minus {ref}: {ch.height} of {sub.height} compared quantities changed "
                   f"(95% interval clear of 0 after the Holm adjustment over the {sub.height} rows).")
        shown = ch if limit is None else ch.head(limit)
        out += [f"  {row_line(r)}" for r in shown.iter_rows(named=True)]
        if ch.height > shown.height:
            out.append(f"  ... and {ch.height - shown.height} more changed rows (every row: {csv}, `changed`).")
    return out


def write_outputs(out: Path | str, *, progress: bool = False) -> tuple[pl.DataFrame, Path]:
    """For a ``meeplelab compare`` folder: the delta table (``deltas.parquet`` and ``deltas.csv``, the same
    bytes for the same games) and the report (``out/report``; ``progress`` draws its bar); returns
    ``(table, report page)``."""
    from meeplelab.play import runfolder as rf
    from meeplelab.play.runfolder import COMPARE_FILE
    from meeplelab.play.runfolder import read_study_state as read_state

    from .load import load_runs
    from .report import build_report
    from .tables import write_table
    from .versions import versions

    out = Path(out)
    meta = read_state(out, COMPARE_FILE, "comparison")
    folders = [out / r for r in meta["runs"]]
    runs = load_runs(folders)
    t = delta_table(runs, versions(runs))
    write_table(t, out / "deltas.parquet")
    rf.write_atomic(out / "deltas.csv", _csv(t))
    page = build_report(folders, out / "report", progress=progress)
    return t, page


def _csv(t: pl.DataFrame) -> bytes:
    import io

    from .tables import canonical

    buf = io.BytesIO()
    canonical(t).write_csv(buf)
    return buf.getvalue()


__all__ = ["HEADLINE", "RATE_KINDS", "changed_lines", "delta_table", "headline_lines", "seat_metrics", "write_outputs"]
