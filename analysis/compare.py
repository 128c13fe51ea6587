"""One paired delta table of everything between rule/content versions.

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

import importlib
import io
import json
import math

import numpy as np
import polars as pl
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.registry import get_spec

from . import figures as F
from .load import Runs
from .page import Section, TableFormat
from .seats import seed_clusters
from .versions import Version, _paired_mean, _welch, matched_games, paired_runs, two_rates_p
from .versions import delta_table as base_table
from .seats import games_frame
from .stats import games_for_difference, holm, newcombe, paired_shares
from .tables import canonical

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


# ------------------------------------------------------------------ mechanics: who used what a rule acts on
def game_mechanics(game: str) -> tuple[dict, dict, str]:
    """``(MECHANICS, PARAM_MECHANICS, ROUND)`` of the labels module ``game`` registers (``GameSpec.labels``, e.g.
    :mod:`meeplelab.sim.galileos_truth.labels`): ``{name: (where, words)}``, ``{rule number: (mechanic, ...)}`` and
    the word for the turns table's ``round``; empty dicts and ``"round"`` when the game registers none."""
    try:
        spec = get_spec(game)
    except ConfigError:
        return {}, {}, "round"
    if spec.labels is None:
        return {}, {}, "round"
    m = importlib.import_module(spec.labels)
    return (dict(getattr(m, "MECHANICS", {})), dict(getattr(m, "PARAM_MECHANICS", {})),
            str(getattr(m, "ROUND", "round")))


def choice_actions(runs: Runs) -> dict[str, tuple[str, str]]:
    """Every value of the turns table's choice columns as a mechanic ``{"abjure": ("turns:main_action=abjure",
    "abjure")}``, named ``column=value`` when several columns hold the value (the categorical columns, not the
    ``*_after`` state; empty when turns were not logged)."""
    if not _logged(runs, "turns"):
        return {}
    schema = runs.turns.collect_schema()
    cols = [c for c, t in schema.items() if c not in set(KEYS) | {"strategy"} and not c.endswith("_after")
            and (t == pl.String or isinstance(t, (pl.Categorical, pl.Enum)))]
    values = {c: runs.turns.select(pl.col(c).cast(pl.String).unique()).collect()[c].drop_nulls().sort().to_list()
              for c in cols}
    seen = [v for c in cols for v in values[c]]
    # a value of one column only is named by itself (``abjure``), else with its column (``option=pass``)
    return {(v if seen.count(v) == 1 else f"{c}={v}"): (f"turns:{c}={v}", v) for c in cols for v in values[c]}


def _uses_of(runs: Runs, where: str, rounds) -> pl.LazyFrame | None:
    """``run, game, seat, round`` of every use of the mechanic ``where`` (``events:KIND[/CATEGORY]`` or
    ``turns:COLUMN=VALUE``); None when its table was not logged or lacks the column."""
    table, _, code = where.partition(":")
    if table == "events" and _logged(runs, "events"):
        kind, _, cat = code.partition("/")
        q = runs.events.filter(pl.col("kind").cast(pl.String) == kind)
        if cat:
            q = q.filter(pl.col("category").cast(pl.String) == cat)
        q = q.select("run", "game", "seat", "turn")
        if rounds is None:
            return q.with_columns(pl.lit(None, pl.Int64).alias("round"))
        return q.join(rounds, on=["run", "game", "turn"], how="left")
    if table == "turns" and _logged(runs, "turns"):
        col, _, value = code.partition("=")
        names = runs.turns.collect_schema().names()
        if col not in names:
            return None
        r = pl.col("round").cast(pl.Int64) if "round" in names else pl.lit(None, pl.Int64).alias("round")
        return runs.turns.filter(pl.col(col).cast(pl.String) == value).select("run", "game", "seat", r)
    return None


def seat_uses(runs: Runs, mechs: dict) -> tuple[pl.DataFrame, list[str]]:
    """Per seat-game how often it used each mechanic of ``mechs`` (``{name: (where, words)}``, see
    :func:`game_mechanics`) and when first.

    Returns:
        one row per (run, game, seat) with ``players, strategy, seat_order, game_seed, vp, win_share`` and per
        counted mechanic ``use: NAME`` (uses in the game, 0 when none) and ``first: NAME`` (the turns table's
        ``round`` of the first use: Cycle or Round; null when unused or turns not logged); and the names counted
        (a mechanic whose table was not logged is left out).
    """
    df = games_frame(runs)
    rounds = None
    if _logged(runs, "turns") and "round" in runs.turns.collect_schema().names():
        rounds = runs.turns.select("run", "game", "turn", pl.col("round").cast(pl.Int64)).unique(
            ["run", "game", "turn"])
    counted = []
    for name, (where, _) in mechs.items():
        q = _uses_of(runs, where, rounds)
        if q is None:
            continue
        agg = (q.group_by("run", "game", "seat").agg(pl.len().alias(f"use: {name}"),
                                                      pl.col("round").min().alias(f"first: {name}"))
               .collect().with_columns(pl.col("seat").cast(pl.Int64)))
        df = df.join(agg, on=KEYS, how="left").with_columns(pl.col(f"use: {name}").fill_null(0))
        counted.append(name)
    return df, counted


def _differs(a: dict, b: dict) -> list[str]:
    """The rule numbers whose values differ between parameter dicts ``a`` and ``b``."""
    return sorted(k for k in set(a) | set(b)
                  if json.dumps(a.get(k), sort_keys=True, default=str) != json.dumps(b.get(k), sort_keys=True, default=str))


def change_uses(runs: Runs, vs: list[Version]) -> list[dict]:
    """For every later version and every rule number it changes against the first that the game maps to a mechanic
    (``PARAM_MECHANICS`` of its labels module; other rule numbers: nothing), how many seat-games used it.

    Returns:
        rows ``{version, reference, param, mechanics, words, ref_used, ref_n, used, n}``: seat-games of the
        reference (``ref_*``) and of the version with at least one use of any of the rule number's mechanics, out
        of every seat-game of that version.
    """
    if len(vs) < 2 or not runs.game_names:
        return []
    mechs, by_param, _ = game_mechanics(next(iter(runs.game_names)))
    wanted = {m for v in vs[1:] for p in _differs(vs[0].params, v.params) for m in by_param.get(p, ())}
    if not wanted:
        return []
    df, counted = seat_uses(runs, {m: mechs[m] for m in sorted(wanted) if m in mechs})
    rows = []
    for v in vs[1:]:
        for p in _differs(vs[0].params, v.params):
            ms = [m for m in by_param.get(p, ()) if m in counted]
            if not ms:
                continue
            any_use = pl.any_horizontal([pl.col(f"use: {m}") > 0 for m in ms])
            (ru, rn), (u, n) = (_count(df.filter(pl.col("run").is_in(list(x.runs))), any_use) for x in (vs[0], v))
            rows.append({"version": v.label, "reference": vs[0].label, "param": p, "mechanics": ms,
                         "words": " or ".join(mechs[m][1] for m in ms), "ref_used": ru, "ref_n": rn, "used": u, "n": n})
    return rows


def _count(sub: pl.DataFrame, used: pl.Expr) -> tuple[int, int]:
    """Rows of ``sub`` where ``used`` holds, and all its rows."""
    return int(sub.select(used.sum()).item()), sub.height


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


def change_use_lines(rows: list[dict]) -> list[str]:
    """One line per row of :func:`change_uses`: a rule number whose mechanic no seat used in either version says
    the change could not show ("`abjure_suspicion_drop` changed, but no player abjured in either version: the change
    could not show (0 of 80 seat-games in A, 0 of 80 in B)"); else how many seat-games used it in each. With
    several later versions each line names its version."""
    many = len({r["version"] for r in rows}) > 1
    out = []
    for r in rows:
        pre = f"Version {r['version']} minus {r['reference']}: " if many else ""
        ref, v = r["reference"], r["version"]
        if r["ref_used"] == 0 and r["used"] == 0:
            out.append(f"{pre}`{r['param']}` changed, but no player {r['words']} in either version: the change could "
                       f"not show (0 of {r['ref_n']:,} seat-games in {ref}, 0 of {r['n']:,} in {v}).")
        else:
            out.append(f"{pre}`{r['param']}` changed; players {r['words']} in {r['ref_used']:,} of {r['ref_n']:,} "
                       f"seat-games in {ref} ({_pct(r['ref_used'], r['ref_n'])}) and {r['used']:,} of {r['n']:,} in "
                       f"{v} ({_pct(r['used'], r['n'])}).")
    return out


def _extra_rows(runs: Runs, vs: list[Version], arms: bool = False) -> list[dict]:
    """The rows beyond :func:`meeplelab.analysis.versions.delta_table`: every metric of :func:`seat_metrics` per
    strategy and player count, each later version minus the first."""
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
                # each row's cluster as an integer code in the keys' sorted order: the same clusters, means and sums
                # as the keys (cluster_means sorts them), without sorting the strings for every metric and interval
                keys_ = seed_clusters(per)
                codes = np.unique(keys_, return_inverse=True)[1].reshape(-1) if keys_ is not None else None
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
                    cl = codes[ok] if codes is not None else None
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


#: the two figures of the fixed summary row, by their delta-table metric: (column prefix, words, unit)
SUMMARY = {"win rate (points)": ("win", "win rate", "points"), "final VP": ("vp", "final VP", "VP")}


def summary_table(t: pl.DataFrame) -> pl.DataFrame:
    """The fixed summary of a delta table ``t`` (:func:`delta_table`): one row per version, player count and
    strategy, whatever its p-value, with both versions' win rate (%) and final VP and the paired change of each
    with its 95% interval, the games and whether the Holm-adjusted p-value calls either changed. Rows ranked by
    the win-rate change, largest gain first, within each version and player count.

    Columns: ``version, reference, players, strategy, win_ref, win_value, win_est, win_low, win_high, vp_ref,
    vp_value, vp_est, vp_low, vp_high, n, design, changed``."""
    cols = ["version", "reference", "players", "strategy"]
    rows: dict[tuple, dict] = {}
    for r in t.filter(pl.col("metric").is_in(list(SUMMARY)) & (pl.col("strategy").cast(pl.String) != "")).iter_rows(
            named=True):
        key = tuple(r[c] for c in cols)
        pre = SUMMARY[r["metric"]][0]
        row = rows.setdefault(key, {**dict(zip(cols, key)), "n": r["n"], "design": r["design"], "changed": False})
        row.update({f"{pre}_ref": r["ref"], f"{pre}_value": r["value"], f"{pre}_est": r["est"], f"{pre}_low": r["low"],
                    f"{pre}_high": r["high"]})
        row["changed"] = bool(row["changed"] or r["changed"])
    order = cols + [f"{p}_{c}" for p, *_ in SUMMARY.values() for c in ("ref", "value", "est", "low", "high")] + [
        "n", "design", "changed"]
    if not rows:
        return pl.DataFrame(schema={c: pl.Float64 for c in order})
    out = pl.DataFrame([{c: r.get(c) for c in order} for r in rows.values()], infer_schema_length=None)
    first = {v: i for i, v in enumerate(dict.fromkeys(out["version"].to_list()))}
    return (out.with_columns(pl.col("version").replace_strict(first, return_dtype=pl.Int64).alias("_v"))
            .sort(["_v", "players", "win_est"], descending=[False, False, True], nulls_last=True, maintain_order=True)
            .drop("_v"))


def _signed(est, lo, hi, unit: str = "") -> str:
    ok = all(x is not None and math.isfinite(x) for x in (lo, hi))
    iv = f"[{lo:+.1f}, {hi:+.1f}]" if ok else "[no interval]"
    return f"{est:+.1f}{unit} {iv}"


def summary_lines(t: pl.DataFrame) -> list[str]:
    """Who gains, by how much: per version a heading line, then an aligned row per player count and strategy
    of :func:`summary_table` (every strategy, whatever its p-value): win rate reference -> version and its paired
    change with the 95% interval, the same for final VP, and ``changed`` where the Holm-adjusted p-value calls
    it so. The first lines ``meeplelab compare`` prints."""
    s = summary_table(t)
    out = []
    for v in s["version"].unique(maintain_order=True).to_list() if s.height else []:
        sub = s.filter(pl.col("version") == v)
        ref = sub["reference"][0]
        out.append(f"Who gains, by how much: version {v} minus {ref}, every strategy (paired on the same games where "
                   "they were played; 95% intervals):")
        rows = [("players", "strategy", f"win rate {ref} -> {v}", "change (points)", f"final VP {ref} -> {v}",
                 "change (VP)", "")]
        for r in sub.iter_rows(named=True):
            rows.append((str(r["players"]), str(r["strategy"]),
                         f"{r['win_ref']:.1f}% -> {r['win_value']:.1f}%", _signed(r["win_est"], r["win_low"], r["win_high"]),
                         f"{r['vp_ref']:.1f} -> {r['vp_value']:.1f}", _signed(r["vp_est"], r["vp_low"], r["vp_high"]),
                         "changed (Holm)" if r["changed"] else ""))
        width = [max(len(x[i]) for x in rows) for i in range(len(rows[0]))]
        out += ["  " + "  ".join(x.ljust(w) for x, w in zip(row, width)).rstrip() for row in rows]
    return out


def summary_chart(t: pl.DataFrame):
    """"What changed for whom": each strategy's paired change of win rate (points) and of final VP (VP) with 95%
    intervals (:func:`meeplelab.analysis.figures.change_chart`), a bar per player count and strategy (and version,
    when several are compared); None for a table without strategy rows."""
    s = summary_table(t)
    if s.height == 0:
        return None
    many_p, many_v = s["players"].n_unique() > 1, s["version"].n_unique() > 1
    label = pl.col("strategy").cast(pl.String)
    if many_p:
        label = label + ", " + pl.col("players").cast(pl.String) + " players"
    if many_v:
        label = pl.col("version") + ": " + label
    s = s.with_columns(label.alias("label"))
    versions = sorted(set(zip(s["version"].to_list(), s["reference"].to_list())))
    what = "; ".join(f"{v} minus {r}" for v, r in versions)
    return F.change_chart(s, "label", [("win", "win rate change (percentage points)"), ("vp", "final VP change (VP)")],
                          title=f"What changed for whom ({what}; 95% intervals)")


def who_gains_sections(t: pl.DataFrame) -> list:
    """The report section "Who gains, by how much" of a delta table ``t`` (none without strategy rows): the
    :func:`summary_chart` and the :func:`summary_table` of every strategy, changed or not, above the
    Holm-filtered list of the section "Versions compared"."""
    s = summary_table(t)
    chart = summary_chart(t)
    if chart is None:
        return []
    text = ("Every strategy's win rate and final VP in both versions and the paired change of each (later version "
            "minus the reference, 95% interval), whatever its p-value: a change whose interval holds 0 is not "
            "resolved with these games (pale bars). `changed` says whether the Holm-adjusted p-value over every "
            "row of the comparison calls the win rate or the VP changed; the section \"Versions compared\" lists "
            "everything else that changed.")
    words = {"win_ref": "win rate % (reference)", "win_value": "win rate % (version)",
             "win_est": "win rate change (points)", "vp_ref": "final VP (reference)", "vp_value": "final VP (version)",
             "vp_est": "final VP change", "n": "games", "changed": "changed (Holm)"}
    fmt = TableFormat(decimals={"win": 1, "vp": 1, "win_ref": 1, "win_value": 1, "win_est": 1, "vp_ref": 1,
                                "vp_value": 1, "vp_est": 1}, labels=words, rank=None)
    s = s.drop(["design", "reference"] + (["version"] if s["version"].n_unique() == 1 else []))
    cap = ("What changed for whom: each strategy's paired change of win rate and final VP with 95% intervals "
           "(solid: the interval is clear of 0; pale: it holds 0)")
    caption = ("Every strategy, both versions and the paired change (win rate in percent, changes in percentage "
               "points; final VP in VP)")
    return [Section("Who gains, by how much", text, [("what_changed", chart, cap)], [(caption, s, fmt)])]


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


def _csv(t: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    canonical(t).write_csv(buf)
    return buf.getvalue()


__all__ = ["HEADLINE", "RATE_KINDS", "SUMMARY", "change_use_lines", "change_uses", "changed_lines", "choice_actions",
           "delta_table", "game_mechanics", "headline_lines", "seat_metrics", "seat_uses", "summary_chart",
           "summary_lines", "summary_table", "who_gains_sections"]
