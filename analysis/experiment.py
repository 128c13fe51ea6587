"""Experiment analysis: paired differences of every arm against the named control.

Arms of an experiment (:mod:`meeplelab.play.experiment`) share the seed and the seat orders, so game ``i`` of
every arm is the same game seed in the same seat order. The focal player's result in game ``i`` of
an arm minus its result in game ``i`` of the control is one paired difference; its mean carries a
95% interval (win shares: Agresti-Min adjusted Wald for matched proportions; VP: Student t with the sd
floored at the rounding sd of whole VP), never of zero width at 0/N or N/N; both are taken over the game
seeds (the games one seed plays in several seat orders are correlated). The unpaired interval (win shares:
Newcombe's hybrid score; VP: Welch), each arm clustered over the same seeds, is reported beside it, to show
what the common random numbers buy. Every (arm, strategy) effect is one claim of a family: ``resolved`` is decided by the
Holm-adjusted p-value over the family. Win rates and their differences are in percent / percentage
points.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from meeplelab.play.experiment import read_experiment

from . import figures as F
from .focal import entry_games, run_entry_games
from .load import Runs, load_runs

from .stats import (LEVEL, cluster_means, games_for_difference, holm, holm_words, mean_t, paired_shares, resolution,
                    sd_floor, t_sf, unpaired)
from .restricted_answers import section as restricted_section
from .dominance import field_words, seating_words
from .first_screen import ORDER, RECONCILED, Panel
from .compare import HEADLINE, changed_lines, delta_table
from .page import Section, TableFormat
from .reconcile import experiment_lines
from .report import build_report, build_sections
from .retune import section as retuned_section
from .verdict import verdict_section
from .versions import Version

METRICS = {"win": ("win_share", "win rate (percentage points)", 100.0), "vp": ("vp", "final VP", 1.0)}


def _games(folder: Path) -> pl.DataFrame:
    g = load_runs([folder]).games
    extra = [c for c in ("game_seed", "seat_order") if c in g.collect_schema().names()]
    return g.select("game", "seat", "strategy", "vp", "win_share", *extra).collect().with_columns(pl.col("seat").cast(pl.Int64))


def paired(x: np.ndarray, y: np.ndarray, shares: bool = False, cluster=None) -> dict:
    """Paired mean difference ``x - y`` with its interval and p-value, the unpaired interval of the same
    difference, the sd of one pair's difference and the games needed to resolve it.

    Win shares (``shares``, values in [0, 1]): the paired interval is Agresti-Min's adjusted Wald for
    matched proportions and the unpaired one Newcombe's hybrid score interval
    (:func:`meeplelab.analysis.stats.paired_shares`, :func:`meeplelab.analysis.stats.newcombe`), both of real width when a
    strategy wins 0 (or all) of its games in both arms. Other values (VP): the paired t interval and
    the unpaired Welch (normal) interval, each sd floored at the rounding sd of whole numbers
    (:func:`meeplelab.analysis.stats.sd_floor`). ``cluster``: each pair's game seed; the paired interval is then
    over the seeds' means (:func:`meeplelab.analysis.stats.cluster_means`: one seed played in several seat orders
    gives correlated games), the unpaired one clusters each arm over the same seeds
    (:func:`meeplelab.analysis.stats.unpaired`), and ``sd`` is one game's, the correlation included (unpaired:
    one game's value in either arm, times sqrt(2))."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    d = x - y
    n = d.size
    dc, k = cluster_means(d, cluster)
    res = resolution(np.concatenate([x, y])) if n else None
    if shares:
        r = paired_shares(x, y, cluster=cluster)
        est, lo, hi, pv = r["est"], r["low"], r["high"], r["p"]
    else:
        fl = sd_floor(res) if n else math.nan
        est, lo, hi = mean_t(d, res=res, cluster=cluster)
        sd_d = max(float(dc.std(ddof=1)), fl / math.sqrt(k)) if dc.size > 1 else math.nan
        pv = float(2 * t_sf(abs(est) / (sd_d / math.sqrt(dc.size)), dc.size - 1)) if dc.size > 1 else math.nan
    _, ulo, uhi = unpaired(x, y, shares=shares, cluster=cluster, res=res)
    sd = float(dc.std(ddof=1)) * math.sqrt(k) if dc.size > 1 else math.nan
    xc, _ = cluster_means(x, cluster)
    yc, _ = cluster_means(y, cluster)
    sd_u = math.sqrt(k * (xc.var(ddof=1) + yc.var(ddof=1))) if xc.size > 1 else math.nan  # sqrt(2) x one game's sd
    return {"n": n, "est": est, "low": lo, "high": hi, "p": pv, "unpaired_low": ulo, "unpaired_high": uhi, "sd": sd,
            "mean_arm": float(x.mean()) if n else math.nan, "mean_control": float(y.mean()) if n else math.nan,
            "games_needed": games_for_difference(sd, est),
            "games_needed_unpaired": games_for_difference(sd_u, est)}


def effects(folder: Path | str) -> pl.DataFrame:
    """Paired differences of every arm against the control.

    Focal experiments (strategy argument or treatment): the focal entry's win share and VP per game.
    Rule-parameter experiments: every strategy's, per (game, seat).

    Columns: ``arm, strategy, metric, n, est, low, high, p, unpaired_low, unpaired_high, sd, mean_arm,
    mean_control, games_needed, games_needed_unpaired, p_holm, resolved`` (win in percent / points, VP
    in VP). ``p_holm`` is Holm-adjusted over every (arm, strategy) of the metric; ``resolved`` is
    ``p_holm < 0.05``: the family-wise chance of calling any null effect resolved is at most 5%.
    """
    folder = Path(folder)
    meta = read_experiment(folder)
    arms = meta["arms"]
    ctrl = _games(folder / arms[0]["folder"])
    rows = []
    for a in arms[1:]:
        g = _games(folder / a["folder"])
        if meta.get("focal_position") is not None:
            fa = a["strategies"][0]  # the focal entry by its seats, not its logged id (a preset is logged expanded)
            j = run_entry_games(folder / a["folder"], g, fa).join(
                run_entry_games(folder / arms[0]["folder"], ctrl, arms[0]["strategies"][0]), on="game", suffix="_c")
            groups = [(fa, j)]
        else:
            j = g.join(ctrl, on=["game", "seat"], suffix="_c")
            groups = [(s, sub) for (s,), sub in j.group_by("strategy", maintain_order=True)]
        for strat, sub in groups:
            for m, (col, _, scale) in METRICS.items():
                cl = sub["game_seed"].to_numpy() if "game_seed" in sub.columns else None
                r = paired(sub[col].to_numpy().astype(float), sub[f"{col}_c"].to_numpy().astype(float), shares=m == "win",
                           cluster=cl)
                for k in ("est", "low", "high", "unpaired_low", "unpaired_high", "sd", "mean_arm", "mean_control"):
                    r[k] *= scale
                rows.append({"arm": a["label"], "strategy": strat, "metric": m, **r})
    return holm_by_metric(pl.DataFrame(rows))  # every (arm, strategy) is one claim: Holm over each metric's family


def holm_by_metric(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` (rows with ``metric`` and ``p``) with ``p_holm``, Holm-adjusted over every row of the same metric
    (:data:`METRICS`), and ``resolved`` (``p_holm`` below 1 - :data:`LEVEL`); an empty ``df`` as it is."""
    if df.height:
        adj = np.full(df.height, np.nan)
        for m in METRICS:
            at = np.flatnonzero((df["metric"] == m).to_numpy())
            adj[at] = holm(df["p"].to_numpy()[at])
        df = df.with_columns(pl.Series("p_holm", adj), pl.Series("resolved", adj < 1 - LEVEL))
    return df


def effects_chart(df: pl.DataFrame, metric: str, control: str):
    """Paired difference against the control per arm (and strategy), with t intervals and a zero line."""
    d = df.filter(pl.col("metric") == metric).with_columns(
        pl.when(pl.col("arm").str.contains(pl.col("strategy"), literal=True)).then(pl.col("arm"))
        .otherwise(pl.col("arm") + " / " + pl.col("strategy")).alias("label"))
    unit = "percentage points" if metric == "win" else "VP"
    return F.bar_with_interval(d.select("label", "est", "low", "high"), "label",
                               title=f"Paired difference vs {control} (same seeds, every seat order)",
                               xlabel=f"{'win rate' if metric == 'win' else 'final VP'} difference ({unit})",
                               ref=0.0, ref_label="no difference")


def abjure_removed(folder: Path | str) -> pl.DataFrame:
    """Galileo's Truth: per arm, the focal player's Abjures: share of games with one (percent), the
    Cycle, and the Suspicion it actually removed (``before - after`` of the abjure event) with t
    intervals: ``arm, games, abjures, abjure_rate, cycle, removed, removed_low, removed_high``."""
    folder = Path(folder)
    meta = read_experiment(folder)
    rows = []
    for a in meta["arms"]:
        runs = load_runs([folder / a["folder"]])
        seats = (entry_games(runs.games, next(iter(runs.manifests.values())), a["strategies"][0],
                             where=f"run {folder / a['folder']}")
                 .select("game", pl.col("seat").cast(pl.Int64)))
        n = int(seats.select(pl.len()).collect().item())
        ev = (runs.events.filter(pl.col("kind") == "abjure")
              .select("game", pl.col("seat").cast(pl.Int64), pl.col("cycle").cast(pl.Float64),
                      (pl.col("before") - pl.col("after")).cast(pl.Float64).alias("removed"))
              .join(seats, on=["game", "seat"]).collect())
        m, lo, hi = mean_t(ev["removed"].to_numpy()) if ev.height else (math.nan,) * 3
        rows.append({"arm": a["label"], "games": n, "abjures": ev.height,
                     "abjure_rate": 100.0 * ev.height / max(n, 1),
                     "cycle": float(ev["cycle"].mean()) if ev.height else math.nan,
                     "removed": m, "removed_low": lo, "removed_high": hi})
    return pl.DataFrame(rows)


def _who(r: dict) -> str:
    """``arm`` or ``arm (strategy)`` when the arm is not named by the strategy."""
    return r["arm"] if r["arm"] == r["strategy"] else f"{r['arm']} ({r['strategy']})"


def effect_line(rank: int, r: dict, control: str, comparisons: int | None = None, field: str | None = None) -> str:
    """One verdict line for the ``rank``-th largest paired win-rate effect (0 = largest): the arm, the
    strategy it moves, the difference in percentage points with its paired 95% interval and games,
    and whether it is resolved. With ``comparisons`` (the family size) a row's ``p_holm`` decides and the
    line says "Holm-adjusted over N comparisons"; without, the interval clear of 0 does. With ``field``
    (:func:`meeplelab.analysis.dominance.field_words` of the arm) the line says which field the effect holds among."""
    head = ("Largest effect" if rank == 0 else f"{('Second', 'Third')[rank - 1] if rank <= 2 else f'#{rank + 1}'} "
            "largest effect")
    if comparisons is not None and r.get("p_holm") is not None:
        words = holm_words(comparisons)
        tail = (f"; resolved ({words}: p = {r['p_holm']:.2g})" if r["p_holm"] < 1 - LEVEL else
                f"; not resolved ({words}: p = {r['p_holm']:.2g})")
    else:
        settled = (r["low"] > 0 or r["high"] < 0)
        tail = "" if settled else "; not resolved: the interval includes 0"
    return (f"{head}: in arm {r['arm']}, {r['strategy']}'s win rate changes by {r['est']:+.1f} percentage points "
            f"[{r['low']:.1f}, {r['high']:.1f}] against the control {control} (paired, {r['n']:,} games"
            f"{'; ' + field if field else ''}){tail}.")


def side_effects(folder: Path | str, runs: Runs | None = None) -> pl.DataFrame:
    """What each arm changes beyond the effect under study: every arm minus the control,
    paired game and seat matched (the arms play the same seeds and seat orders), over everything
    :func:`meeplelab.analysis.compare.delta_table` compares: each strategy's win rate and VP, rank, the seat
    spread per player count, game length, score categories, action and space use, events, the Abjure or
    citation rate, with 95% intervals, games needed and Holm-adjusted p-values (over each arm's rows).
    Seats whose strategy differs between the arm and the control (the focal entry of a strategy or
    strategy-argument axis) are left out of the paired rows: their effect is the experiment's own table.

    ``runs``: the arms already loaded (the report's), else they are read here.

    Returns:
        The delta table, one ``version`` per arm (its label), ``reference`` the control's label.

    Raises:
        RunFolderError: ``folder`` is not an experiment folder.
    """
    folder = Path(folder)
    meta = read_experiment(folder)
    folders = [folder / a["folder"] for a in meta["arms"]]
    runs = runs if runs is not None else load_runs(folders)
    name_of = {Path(p).resolve(): n for n, p in runs.paths.items()}
    vs = []
    for a, f in zip(meta["arms"], folders):
        n = name_of[f.resolve()]
        g = runs.manifests[n].get("game") or {}
        vs.append(Version(a["label"], a["label"], (n,), dict(g.get("params") or {}), str(g.get("content_hash", ""))))
    return delta_table(runs, vs, arms=True)


def _side_effect_section(folder: Path, control: str, runs: Runs | None = None):
    """The report section of :func:`side_effects`: the headline rows of every arm as a table, then every
    quantity called changed."""
    t = side_effects(folder, runs)
    text = ("Each arm minus the control arm (" + control + ") on the same games, game and seat matched, over "
            "everything the runs logged: each strategy's win rate and VP, rank, seat spread per player count, game "
            "length, score categories, action and space use, events and the Abjure or citation rate, with 95% "
            "intervals; p-values Holm-adjusted over each arm's rows. Seats whose strategy the arm changes (the "
            "focal entry) are left out here: their effect is the table above. Every quantity called changed:\n\n"
            + "\n".join(f"- {line.strip()}" for line in changed_lines(t, csv="the table's CSV")))
    head = (t.filter(pl.col("metric").is_in(list(HEADLINE)))
            .select("version", "players", "strategy", "metric", "ref", "value", "est", "low", "high", "n",
                    "games_needed", "changed")
            .rename({"version": "arm", "ref": "control", "value": "arm value"}))
    return Section("Side effects of each arm (paired against the control)", text, [],
                   [("Every arm minus the control: each strategy's win rate (points) and final VP, seat spread "
                     "(points) and game length (rounds); every row of every quantity in the CSV beside it",
                     head, TableFormat(decimals={"control": 1, "arm value": 1, "est": 2, "low": 2, "high": 2}))])


def experiment_sections(folder: Path | str, stronger: Path | str | None = None):
    """Report builder for an experiment folder: the verdict, the effects by intervention (paired,
    with the unpaired interval beside it once), with ``stronger`` (a ``meeplelab stronger`` folder that read this
    experiment) the same question asked by restricted play (:mod:`meeplelab.analysis.restricted_answers`),
    game-specific effect tables, then the descriptive sections of the pooled arms, labelled as such."""
    folder = Path(folder)
    meta = read_experiment(folder)
    df = effects(folder)
    ch = meta["arms"][0]["change"]
    control = ch["strategy"] if "strategy" in ch else f"{ch.get('param')}={ch.get('value')}"

    def build(runs: Runs):
        win = df.filter(pl.col("metric") == "win")
        lines = [f"Each arm is played on the same {meta['games']:,} games as the control ({meta['seating_plan']}); "
                 f"control: {control}. Paired difference = arm minus control, game by game, for "
                 + (f"the strategy under study ({control} in the control arm), which sits in every seat in turn."
                    if meta.get("focal_position") is not None else "every strategy, seat by seat.")
                 + " Win-rate intervals: Agresti-Min adjusted Wald for paired shares, Newcombe's hybrid score "
                 "(Wilson-based) unpaired, both of real width at 0 or all wins; VP: t intervals (unpaired: Welch); "
                 "every interval is taken over the game seeds (a seed's games in its seat orders are correlated), "
                 "the unpaired one taking each arm on its own, as if the arms had not shared seeds. An effect is "
                 f"called resolved when its Holm-adjusted p-value over the {win.height} win-rate comparison"
                 f"{'' if win.height == 1 else 's'} of this experiment is below 0.05."]
        for r in win.iter_rows(named=True):
            need = f"; about {r['games_needed']:,} games resolve a difference this size" if r["games_needed"] else ""
            lines.append(f"{_who(r)}: win rate {r['est']:+.1f} percentage points "
                         f"[{r['low']:.1f}, {r['high']:.1f}] paired over {r['n']:,} games (unpaired interval "
                         f"[{r['unpaired_low']:.1f}, {r['unpaired_high']:.1f}]; "
                         f"{'resolved' if r['resolved'] else 'not resolved'}, {holm_words(win.height)}){need}.")
        for r in df.filter(pl.col("metric") == "vp").iter_rows(named=True):
            lines.append(f"{_who(r)}: final VP {r['est']:+.2f} [{r['low']:.2f}, {r['high']:.2f}] "
                         f"(control mean {r['mean_control']:.1f} VP).")
        reconciled = experiment_lines(df, runs, meta, folder)  # descriptive against causal, reconciled
        lines += reconciled
        shown = df.drop("sd")
        title = ("Abjure timing: paired against never-abjure" if meta["game"] == "galileos-truth"
                 and meta["arms"][0]["strategies"][0] == "never-abjure" else "Effects by intervention")
        top = win.with_columns(pl.col("est").abs().alias("_a")).sort("_a", descending=True).head(3)

        ctrl_runs = load_runs([folder / meta["arms"][0]["folder"]])
        seated = seating_words(ctrl_runs.manifests)
        fields = {a["label"]: field_words(list(dict.fromkeys(a["strategies"])), meta["games"], seated)
                  for a in meta["arms"]}
        effect_lines = [effect_line(i, r, control, win.height, fields.get(r["arm"]))
                        for i, r in enumerate(top.iter_rows(named=True))]
        big = None
        if top.height:
            r = top.row(0, named=True)
            big = {"arm": r["arm"], "strategy": r["strategy"], "est": r["est"], "low": r["low"], "high": r["high"],
                   "n": r["n"], "control": control, "resolved": bool(r.get("resolved"))}
        secs = [verdict_section(ctrl_runs, extra=effect_lines, scope="the control arm", effect=big),
                Section(title, "\n".join(lines),
                        [("effect_win", effects_chart(df, "win", meta["arms"][0]["label"]), "Paired win-rate difference"),
                         ("effect_vp", effects_chart(df, "vp", meta["arms"][0]["label"]), "Paired VP difference")],
                        [("Paired differences against the control (win in percentage points, VP in VP; unpaired "
                          "interval for comparison)", shown, TableFormat(decimals={"est": 2, "unpaired": 2}))])]
        if reconciled:  # the first screen carries them too (analysis/first_screen.py)
            secs[1].panels.append(Panel(RECONCILED, "\n\n".join(reconciled), order=ORDER["reconciled"]))
        if stronger is not None:  # the question asked of the strong player, beside the scripted answer
            secs.append(restricted_section(stronger, folder))
        secs.append(_side_effect_section(folder, meta["arms"][0]["label"], runs))
        again = retuned_section(folder)  # experiment --retune: the effects with the players fixed and re-tuned
        if again is not None:
            secs.insert(2, again)
        if meta["game"] == "galileos-truth" and meta.get("focal_position") is not None:
            ab = abjure_removed(folder)
            secs.append(Section("Abjure: Suspicion actually removed",
                                "The focal player's Abjures in each arm: share of its games, mean Cycle, and the "
                                "Suspicion each Abjure removed (abjure event, before minus after; the rule value is "
                                "`abjure_suspicion_drop`, the track floor limits it), with t 95% intervals.", [],
                                [("Abjures of the focal player by arm (abjure_rate in percent; removed in Suspicion)",
                                  ab, TableFormat(decimals={"removed": 2, "abjure_rate": 1, "cycle": 2}))]))
        for s in build_sections(runs, by_version=False)[1:]:
            if s.title != "Provenance" and "(descriptive" not in s.title:
                s.title = f"{s.title} (descriptive: groups differ by strategy and seat)"
            secs.append(s)
        return secs

    return build


def write_report(folders: list[Path], out: Path | str, *, progress: bool = False) -> Path:
    """The report of the experiment in ``out`` (played; its arms' run ``folders``, control first) into
    ``out/report``: the paired effects against the control (:func:`experiment_sections`). Returns the page's path."""
    return build_report(folders, Path(out) / "report", sections=experiment_sections(out), progress=progress)
