"""A sweep's effects twice, players fixed and players re-tuned (``meeplelab sweep --retune``).

For every variant after the first (the control) and every roster entry (by its position: a re-tuned entry is a
different preset in every variant), the entry's win rate and final VP in the variant minus in the control,
paired game by game (the same game index is the same seed and seat order in every run of the sweep): once with
the players fixed (the sweep's own variant runs) and once with the players re-tuned to each variant's rules
(:mod:`meeplelab.studies.retune`). Win shares: Agresti-Min adjusted Wald; VP: t intervals. The last column
compares the two (:func:`meeplelab.analysis.rungs.compare`, which treats them as independent: the two runs share
their seeds, so the interval of the difference is conservative).

:func:`play_changes` says what changed in the re-tuned players' play: per re-tuned entry, variant and action (every
value of the turns table's choice columns and every mechanic the game's labels module names), the share of its
seat-games using the action in the control and in the variant and the paired change (Agresti-Min, clustered by
game seed), and the Cycle (or Round) of its first use among the seat-games that used it (Welch, unpaired: the
seat-games that used it differ).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
from meeplelab.play.sweep import read_sweep
from meeplelab.strategies.registry import make_strategy

from .compare import choice_actions, game_mechanics, seat_uses
from .load import load_runs, scan_run
from .page import Section, TableFormat
from .report import build_sections
from .rungs import compare
from .stats import paired_shares
from .versions import _paired_mean, _welch

FILE = "retuned.json"


def _by_position(folder: Path, specs: list[str], game: str) -> pl.DataFrame:
    """Seat-results of run ``folder`` with ``pos``, the roster position of each row's strategy."""
    ids = {make_strategy(game, s).id: i for i, s in enumerate(specs)}
    ids.update({s: i for i, s in enumerate(specs)})
    g = scan_run(str(folder), "games").select("game", "seat", "strategy", "vp", "win_share", "game_seed").collect()
    return g.with_columns(pl.col("strategy").cast(pl.String).replace_strict(ids, default=-1).alias("pos"))


def _paired(arm: pl.DataFrame, ctrl: pl.DataFrame, pos: int) -> dict:
    j = arm.filter(pl.col("pos") == pos).join(ctrl.filter(pl.col("pos") == pos), on="game", suffix="_c").sort("game")
    cl = j["game_seed"].to_numpy()  # one seed in several seat orders: correlated games (stats.cluster_means)
    w = paired_shares(j["win_share"].to_numpy(), j["win_share_c"].to_numpy(), cluster=cl)
    v = _paired_mean(j["vp"].to_numpy().astype(float) - j["vp_c"].to_numpy().astype(float), cluster=cl)
    return {"win": {"est": w["est"] * 100, "low": w["low"] * 100, "high": w["high"] * 100, "n": int(w["n"])},
            "vp": {"est": v["est"], "low": v["low"], "high": v["high"], "n": int(v["n"])}}


def effects(folder: Path | str, file: str = FILE) -> pl.DataFrame:
    """One row per (variant, roster entry, metric): ``variant, strategy, metric, fixed, fixed_low, fixed_high,
    retuned, retuned_low, retuned_high, n, verdict`` (win in percentage points, VP in VP; ``strategy`` the
    entry as the sweep names it, "(re-tuned)" when it was tuned); empty without ``retuned.json`` (``file``: a
    balance search's record of one rotated field, ``retuned-field-4.json``)."""
    folder = Path(folder)
    if not (folder / file).is_file():
        return pl.DataFrame()
    meta = json.loads((folder / file).read_text())
    game = meta.get("game") or read_sweep(folder)["game"]  # a sweep's or an experiment's re-tuning
    roster = meta["roster"]
    vs = meta["variants"]
    fixed = [_by_position(folder / v["folder"], roster, game) for v in vs]
    tuned = [_by_position(folder / "retuned" / v["folder"] / "run", v["strategies"], game) for v in vs]
    rows = []
    for k in range(1, len(vs)):
        name = ", ".join(f"{a}={b}" for a, b in vs[k]["values"].items())
        for i, s in enumerate(roster):
            f, t = _paired(fixed[k], fixed[0], i), _paired(tuned[k], tuned[0], i)
            for m in ("win", "vp"):
                verdict, _ = compare(f[m], t[m])
                rows.append({"variant": name, "strategy": s + (" (re-tuned)" if i in meta["positions"] else ""),
                             "metric": m, "fixed": f[m]["est"], "fixed_low": f[m]["low"], "fixed_high": f[m]["high"],
                             "retuned": t[m]["est"], "retuned_low": t[m]["low"], "retuned_high": t[m]["high"],
                             "n": f[m]["n"], "verdict": verdict})
    return pl.DataFrame(rows)


def _actions(runs, game: str) -> dict[str, tuple[str, str]]:
    """The actions a re-tuned player's play is read by: every value of the turns table's choice columns, then each
    mechanic of the game's labels module not among them (:func:`meeplelab.analysis.compare.game_mechanics`)."""
    mechs, _, _ = game_mechanics(game)
    acts = choice_actions(runs)
    seen = {w for w, _ in acts.values()}
    return {**acts, **{m: v for m, v in mechs.items() if v[0] not in seen and m not in acts}}


def _uses_by_position(folder: Path, specs: list[str], game: str, acts: dict) -> tuple[pl.DataFrame, list[str]]:
    """:func:`meeplelab.analysis.compare.seat_uses` of run ``folder`` with ``pos``, each row's roster position."""
    df, counted = seat_uses(load_runs([folder]), acts)
    ids = {make_strategy(game, s).id: i for i, s in enumerate(specs)}
    ids.update({s: i for i, s in enumerate(specs)})
    return df.with_columns(pl.col("strategy").cast(pl.String).replace_strict(ids, default=-1).alias("pos")), counted


def _use_row(j: pl.DataFrame, name: str) -> dict | None:
    """The paired share of seat-games using ``name`` (``j``: a position's seat-games of a variant joined to the
    control's by game, the control's columns suffixed ``_c``), percent; None when neither used it."""
    b = (j[f"use: {name}"].to_numpy() > 0).astype(float)
    a = (j[f"use: {name}_c"].to_numpy() > 0).astype(float)
    if not (a.any() or b.any()) or (a.all() and b.all()):  # neither used it, or every seat-game of both did
        return None
    w = paired_shares(b, a, cluster=j["game_seed"].to_numpy())
    return {"measure": "use (% of seat-games)", "control": 100 * a.mean(), "value": 100 * b.mean(),
            "est": 100 * w["est"], "low": 100 * w["low"], "high": 100 * w["high"], "n": int(w["n"])}


def _first_row(j: pl.DataFrame, name: str, word: str) -> dict | None:
    """The mean ``round`` (Cycle, Round) of the first use of ``name`` among the seat-games that used it, control
    and variant, and the difference with Welch's interval; None when either has no use with a known round."""
    a = j[f"first: {name}_c"].drop_nulls().to_numpy().astype(float)
    b = j[f"first: {name}"].drop_nulls().to_numpy().astype(float)
    if not (a.size and b.size) or np.ptp(np.concatenate([a, b])) == 0:  # no use, or every first use in one round
        return None
    r = _welch(a, b)
    return {"measure": f"{word} of the first use (mean)", "control": float(a.mean()), "value": float(b.mean()),
            "est": r["est"], "low": r["low"], "high": r["high"], "n": int(min(a.size, b.size))}


def play_changes(folder: Path | str, file: str = FILE) -> pl.DataFrame:
    """What changed in the re-tuned players' play between the control and each variant (module docstring).

    Returns:
        one row per (variant, re-tuned entry, action, measure): ``variant, strategy, action, measure, control,
        value, est, low, high, n`` (``measure`` "use (% of seat-games)": shares in percent, the change in percentage
        points, paired game by game; or "Cycle of the first use (mean)": among the seat-games that used it, unpaired);
        actions neither version used are left out. Empty without ``file`` (``retuned.json``) or when no entry was
        tuned.
    """
    folder = Path(folder)
    if not (folder / file).is_file():
        return pl.DataFrame()
    meta = json.loads((folder / file).read_text())
    vs, pos = meta["variants"], meta["positions"]
    game = meta.get("game") or json.loads((folder / vs[0]["folder"] / "manifest.json").read_text())["game"]["name"]
    runs = [folder / "retuned" / v["folder"] / "run" for v in vs]
    acts = _actions(load_runs([runs[0]]), game)
    word = game_mechanics(game)[2]
    tuned = [_uses_by_position(r, v["strategies"], game, acts) for r, v in zip(runs, vs)]
    rows = []
    for k in range(1, len(vs)):
        name = ", ".join(f"{a}={b}" for a, b in vs[k]["values"].items())
        for i in pos:
            j = (tuned[k][0].filter(pl.col("pos") == i)
                 .join(tuned[0][0].filter(pl.col("pos") == i), on="game", suffix="_c").sort("game"))
            for act in acts:
                if act not in tuned[k][1] or act not in tuned[0][1]:
                    continue
                for r in (_use_row(j, act), _first_row(j, act, word)):
                    if r is not None:
                        rows.append({"variant": name, "strategy": meta["roster"][i] + " (re-tuned)", "action": act, **r})
    return pl.DataFrame(rows, infer_schema_length=None) if rows else pl.DataFrame()


def play_lines(df: pl.DataFrame, limit: int = 6) -> list[str]:
    """The resolved changes of :func:`play_changes` as sentences (95% interval clear of 0), largest first; at most
    ``limit``, then how many more; one line saying none resolved when none is."""
    if not df.height:
        return []
    ok = df.filter(pl.col("low").is_not_nan() & pl.col("high").is_not_nan()
                   & ((pl.col("low") > 0) | (pl.col("high") < 0)))
    if not ok.height:
        return [(f"None of the {df.height} changes of the re-tuned players' play is resolved with these games "
                 "(every 95% interval holds 0).")]
    ok = ok.with_columns(pl.col("est").abs().alias("_a")).sort(["measure", "_a"], descending=[True, True])
    out = []
    for r in ok.head(limit).iter_rows(named=True):
        pct = r["measure"].startswith("use")
        unit, fig = (" points", lambda x: f"{x:.1f}%") if pct else ("", lambda x: f"{x:.2f}")
        what = "seat-games using" if pct else r["measure"].split(" (")[0] + " of"
        out.append(f"{r['strategy']} under {r['variant']}: {what} {r['action']} {fig(r['control'])} -> "
                   f"{fig(r['value'])}, {r['est']:+.1f}{unit} [{r['low']:+.1f}, {r['high']:+.1f}] ({r['n']:,} "
                   "seat-games).")
    if ok.height > limit:
        out.append(f"... and {ok.height - limit} more resolved changes (the table below).")
    return out


def retuned_lines(folder: Path | str, players: list[int]) -> list[str]:
    """``compare --retune``'s (and ``compensate --retune``'s) printed lines: per player count
    (``folder/retuned-p<P>.json``) the lines of :func:`record_lines`."""
    out = []
    for p in players:
        out += record_lines(folder, f"retuned-p{p}.json", f"{p} players")
    return out


def record_lines(folder: Path | str, file: str = FILE, what: str = "", to: str = "each arm's rules") -> list[str]:
    """The printed lines of one re-tuning record ``folder/file``: a heading (``what``, e.g. "2 players", after its
    title; ``to``: what the players were re-tuned to), then each entry's change of win rate and VP between the reference and each version with the players
    fixed and re-tuned (the verdict of :func:`effects`), then the resolved changes of the re-tuned players' play
    (:func:`play_lines`); [] without the record."""
    folder = Path(folder)
    df = effects(folder, file)
    if not df.height:
        return []
    meta = json.loads((folder / file).read_text())
    tuned = ", ".join(meta["roster"][i] for i in meta["positions"])
    out = [(f"Players fixed and players re-tuned{', ' + what if what else ''} ({tuned} re-tuned to {to}, "
            f"{meta['budget']:,} games each; each arm minus the reference, paired, 95% intervals):")]
    for r in df.iter_rows(named=True):
        unit = "points" if r["metric"] == "win" else "VP"
        label = "win rate" if r["metric"] == "win" else "final VP"
        out.append(f"  {r['variant']}: {r['strategy']} {label} {r['fixed']:+.2f} [{r['fixed_low']:+.2f}, "
                   f"{r['fixed_high']:+.2f}] {unit} with the players fixed, {r['retuned']:+.2f} "
                   f"[{r['retuned_low']:+.2f}, {r['retuned_high']:+.2f}] re-tuned: {r['verdict']}")
    return out + [f"  {ln}" for ln in play_lines(play_changes(folder, file))]


def with_sections(build, extra: list):
    """A report's section builder (``build(runs) -> [Section]``) with the sections ``extra`` (those of
    :func:`section`) put after its first section; ``build`` itself when ``extra`` is empty (None: the report's
    default sections, :func:`meeplelab.analysis.report.build_sections`)."""
    if not extra:
        return build

    def built(runs):
        if build is None:
            secs = build_sections(runs)
        else:
            secs = build(runs)
        return secs[:1] + extra + secs[1:]

    return built


def section(folder: Path | str, file: str = FILE, title: str = "Players fixed and players re-tuned"):
    """The sweep, experiment or comparison report's section ``title`` ("Players fixed and players re-tuned"), or
    None without ``file`` (``retuned.json``; a comparison's ``retuned-p4.json`` per player count)."""
    folder = Path(folder)
    df = effects(folder, file)
    if not df.height:
        return None
    meta = json.loads((folder / file).read_text())
    control = ", ".join(f"{a}={b}" for a, b in meta["variants"][0]["values"].items()) or "the reference's rules"
    tuned = ", ".join(meta["roster"][i] for i in meta["positions"])
    text = (f"Each effect twice: the variant minus the control ({control}) with the players fixed (the runs above) "
            f"and with the players re-tuned to each variant's rules ({tuned}: `meeplelab tune` under the variant's "
            f"rules against the rest of the roster, {meta['budget']:,} games each, then the variant played again on "
            "the same seeds and seat orders). Paired game by game, 95% intervals (win: Agresti-Min; VP: t). "
            "*holds*: the two are not told apart; *changes*: the re-tuned effect differs (resolved); *reverses*: "
            "both resolved with opposite signs. A rule change whose effect changes once the players re-tune is "
            "partly arithmetic and partly how people would play under it.")
    tables = [("Effect of each variant, players fixed and re-tuned (win in percentage points, VP in VP)", df,
               TableFormat(decimals={"fixed": 2, "fixed_low": 2, "fixed_high": 2, "retuned": 2, "retuned_low": 2,
                                     "retuned_high": 2}))]
    play = play_changes(folder, file)
    if play.height:
        text += ("\n\nWhat changed in the re-tuned players' play (the variant's re-tuned run minus the control's, "
                 "each re-tuned entry in its own seats): the share of its seat-games using each action (paired game "
                 "by game: Agresti-Min, percentage points) and the mean Cycle or Round of its first use among the "
                 "seat-games that used it (Welch, unpaired). The resolved changes:\n"
                 + "\n".join(f"- {ln}" for ln in play_lines(play)))
        cap = ("What changed in the re-tuned players' play: action use (% of seat-games) and the timing of the first "
               "use, control and variant, the change with its 95% interval")
        tables.append((cap, play,
                       TableFormat(decimals={"control": 2, "value": 2, "est": 2, "low": 2, "high": 2})))
    return Section(title, text, [], tables)


__all__ = ["effects", "play_changes", "play_lines", "record_lines", "retuned_lines", "section", "with_sections"]
