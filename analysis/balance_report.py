"""The balance-search report (``out/report/balance.md`` and ``.html``): targets, the defaults, the best
candidates on the search seeds, the Pareto table when several targets are searched, the re-check on
fresh seeds with 95% bootstrap intervals, and the proposal as a ``--set`` line and ``proposal.toml``.
Two charts: the re-checked candidates against each target (``recheck.png``) and every candidate of
the search against each target by trial (``search.png``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import polars as pl

from meeplelab.play import runfolder as rf

from . import figures as F
from .markdown import to_html
from .retune import play_lines
from .compare import changed_lines, headline_lines
from .page import markdown_table, TableFormat


#: the headers of the balance-search tables (over :data:`meeplelab.analysis.report.LABELS`); a target's own
#: columns keep its text (``seat-spread<=5``, ``seat-spread<=5 low`` -> "seat-spread<=5 95% low")
LABELS = {"trial": "candidate (trial)", "met": "targets met", "excess": "excess over the targets",
          "met_interval": "targets met by the whole 95% interval",
          "excess_interval": "excess of the 95% interval ends"}
#: how the candidates of a table are ranked: most targets met, then the smallest excess (then the re-check's
#: interval columns, as :data:`meeplelab.studies.balance.RECHECK_ORDER`), then the earlier trial
SEARCH_ORDER = (["met", "excess", "trial"], [True, False, False])
RECHECK_ORDER = (["met", "excess", "met_interval", "excess_interval", "trial"], [True, False, True, False, False])


def _tables(rep: Path, caption: str, df: pl.DataFrame, stem: str, targets, order) -> list[str]:
    """One table of the page, ranked by ``order`` (best candidate first), with human headers and its CSV
    (:func:`meeplelab.analysis.report.markdown_table`); a rule number's column keeps its ``--set`` name; a
    target's metric and interval, and the excess, with 2 decimals."""
    cols, desc = [c for c in order[0] if c in df.columns], order[1]
    df = df.sort(cols, descending=[d for c, d in zip(order[0], desc) if c in df.columns])
    params = {c: c for c in df.columns if c not in LABELS and not any(c.startswith(t.text) for t in targets)}
    fmt = TableFormat(labels={**LABELS, **params}, rank=None,  # a rule number keeps its --set name
                      decimals={**{t.text: 2 for t in targets}, "excess": 2, "excess_interval": 2})
    return markdown_table(df, caption, rep, stem, fmt)


def _band(ax, t, horizontal: bool = True) -> None:
    """Shade what meets target ``t`` (``lo..hi``, or up to ``hi`` for ``<=``) and draw its bounds."""
    span = ax.axvspan if horizontal else ax.axhspan
    line = ax.axvline if horizontal else ax.axhline
    lo0, hi0 = ax.get_xlim() if horizontal else ax.get_ylim()
    lo = t.lo if t.lo is not None else min(lo0, t.hi - 1.0)
    span(lo, t.hi, color="#4c9a5b", alpha=0.15, lw=0, label="meets the target")
    for b in ([t.lo] if t.lo is not None else []) + [t.hi]:
        line(b, color="#4c9a5b", ls="--", lw=1)
    a, b = min(lo0, t.hi, t.lo if t.lo is not None else t.hi), max(hi0, t.hi)
    pad = 0.05 * ((b - a) or 1.0)
    (ax.set_xlim if horizontal else ax.set_ylim)(a - pad if t.lo is not None or a < lo0 else lo0, b + pad)


def recheck_chart(recheck: pl.DataFrame, targets, varied) -> "F.Figure":
    """The re-checked candidates (rows) on fresh seeds against each target (one panel per target): the
    metric with its 95% bootstrap interval over games, the target's range shaded."""
    from matplotlib.figure import Figure
    import matplotlib as mpl

    rows = recheck.to_dicts()
    labels = [textwrap.fill(f"trial {r['trial']}: " + ", ".join(f"{n}={r[n]}" for n in varied), 40) for r in rows]
    n = len(targets)
    with mpl.rc_context(F.STYLE):
        fig = Figure(layout="constrained", figsize=(max(7.0, 3.6 * n), 2.0 + 0.55 * len(rows)))
        axes = np.atleast_1d(fig.subplots(1, n, sharey=True, squeeze=False)[0])
    y = np.arange(len(rows))
    for k, (ax, t) in enumerate(zip(axes, targets)):
        est = np.array([r[t.text] for r in rows], float)
        lo = np.array([r[t.text + " low"] for r in rows], float)
        hi = np.array([r[t.text + " high"] for r in rows], float)
        ax.errorbar(est, y, xerr=np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)]), fmt="o", capsize=4,
                    color=F.COLORS[0], label="fresh seeds, 95% bootstrap")
        _band(ax, t)
        ax.set_title(t.text, fontsize=10)
        ax.set_xlabel(t.metric)
        ax.grid(True, alpha=F.STYLE["grid.alpha"])
        if k == 0:
            ax.set_yticks(y, labels)
            ax.invert_yaxis()
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2, fontsize=8)
    fig.suptitle("Re-check on fresh seeds: candidates against the targets", fontweight="bold")
    return fig


def search_chart(trials: pl.DataFrame, targets) -> "F.Figure":
    """Every candidate of the search (by trial number) against each target on the search seeds, the
    target's range shaded; candidates that meet every target drawn filled."""
    from matplotlib.figure import Figure
    import matplotlib as mpl

    n = len(targets)
    with mpl.rc_context(F.STYLE):
        fig = Figure(layout="constrained", figsize=(max(7.0, 3.6 * n), 4.0))
        axes = np.atleast_1d(fig.subplots(1, n, squeeze=False)[0])
    tr = trials.sort("trial")
    x = tr["trial"].to_numpy()
    met = (tr["met"] == n).to_numpy()
    for ax, t in zip(axes, targets):
        v = tr[t.text].to_numpy().astype(float)
        ax.plot(x, v, color="#bbbbbb", lw=1, zorder=1)
        ax.scatter(x[met], v[met], color=F.COLORS[2], zorder=3, label="meets every target")
        ax.scatter(x[~met], v[~met], facecolors="none", edgecolors=F.COLORS[3], zorder=3, label="misses a target")
        _band(ax, t, horizontal=False)
        ax.set_title(t.text, fontsize=10)
        ax.set_xlabel("trial (candidate number)")
        ax.set_ylabel(f"{t.metric} (search seeds)")
        ax.grid(True, alpha=F.STYLE["grid.alpha"])
        F.integer_ticks(ax, x)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3, fontsize=8)
    fig.suptitle("The search: every candidate against the targets", fontweight="bold")
    return fig


def side_effect_lines(side: pl.DataFrame | None, s: dict) -> list[str]:
    """The report's "Side effects of the proposal" section: what the proposal changes beyond
    its targets, from :func:`meeplelab.studies.balance.side_effects` (``side``: its delta table; None when the
    proposal is the default rules). One line per compared quantity the Holm-adjusted paired interval calls
    changed, the smallest p first (at most 30; every row in ``side_effects.csv``)."""
    md = ["## Side effects of the proposal", ""]
    if side is None:
        return md + ["The proposal is the default rules: nothing else changes.", ""]
    if not side.height:
        return md + ["The search measured no rotated field (a conclusion's panels only), so no side-effect runs were "
                     "played.", ""]
    fields = "; ".join(f"{f['panel']}: {', '.join(f['strategies'])}" for f in s.get("fields", [])
                       if f["panel"].startswith("field-"))
    md += [f"Every rotated field of the search ({fields}) played under the defaults (the `--set` values only) and "
           f"under the proposal, on the same fresh seeds (run seed {s['fresh_seed']}) and seat orders, every log "
           "written (run folders in `side_effects/`): each strategy's win rate and VP, rank, seat spread per player "
           "count, game length, score categories, action and space use, events and the Abjure or citation rate, "
           "proposal minus defaults, game and seat matched, with the 95% interval and games needed; p-values "
           "Holm-adjusted over all the rows (every row: `side_effects.csv`).", ""]
    md += headline_lines(side)
    return md + ["", "Every quantity the Holm-adjusted interval calls changed (beyond the table's):", ""] + \
        changed_lines(side, limit=30, csv="side_effects.csv") + [""]


def retuned_lines(out: Path, s: dict, targets) -> list[str]:
    """The report's "Players fixed and players re-tuned" section (``balance --retune``): the
    targets measured four ways (defaults or proposal, players fixed or re-tuned to those rules, the re-check's fresh
    seeds, 95% bootstrap intervals) and each field entry's effect of the proposal both ways
    (:mod:`meeplelab.studies.balance_retune`). Without ``--retune``: one line saying the proposal was measured with
    the players fixed and the command that re-checks it."""
    md = ["## Players fixed and players re-tuned", ""]
    r = s.get("retuned")
    if not r:
        if s.get("proposal_is_defaults"):
            return md + ["The proposal is the default rules: there is nothing to re-tune for.", ""]
        return md + ["Not checked: the targets and side effects above hold for the players as written. Run the same "
                     "search with `--retune BUDGET` (and `--strategies` naming a field with a tunable strategy, e.g. "
                     "`heuristic`) to re-tune the players to the defaults and to the proposal and measure both again.",
                     ""]
    rep = Path(out) / "report"
    tab = pl.read_parquet(Path(out) / "retuned.parquet")
    n = r["measured"]
    tuned = "; ".join(f"{p}: {', '.join(f['tuned'])}" for p, f in r["fields"].items())
    md += [f"Re-tuned players: in every rotated field, the tunable entries ({tuned}) were tuned with "
           f"`meeplelab tune` against the rest of the field, once under the defaults and once under the proposal "
           f"({r['budget']:,} games each, {r['games_per_trial']} per lineup per trial, on the search seeds), then "
           f"every version was played again on the re-check's fresh seeds (run seed {s['fresh_seed']}, "
           f"{s['recheck_games_per_lineup']} games per lineup). ", ""]
    verdict = (f"With the players re-tuned, the proposal meets {r['met']} of {n} re-measured targets by point "
               f"estimate, with the whole 95% interval inside for {r['met_interval']} of {n}")
    skipped = len(targets) - n
    md += [f"**{verdict}.**" + (f" {skipped} target(s) read a scripted plan's panel and are not re-measured."
                                if skipped else ""), ""]
    if r.get("kept_defaults"):
        md += ["The tuning found nothing better than the strategy's own arguments (so the re-tuned player plays as the "
               "fixed one, and its rows repeat the fixed ones) for: " + "; ".join(r["kept_defaults"])
               + ". A larger `--retune` budget searches further.", ""]
    md += markdown_table(tab, "Each target under the defaults and the proposal, players fixed and re-tuned (fresh "
                         "seeds, 95% bootstrap interval; met: the point estimate meets the target)", rep,
                         "retuned-targets",
                         TableFormat(rank=None, decimals={"value": 2, "low": 2, "high": 2},
                                     labels={"value": "metric", "met": "meets target",
                                             "met_interval": "whole 95% interval inside"}))
    eff = Path(out) / "retuned_effects.parquet"
    e = pl.read_parquet(eff) if eff.is_file() else pl.DataFrame()
    if e.height:
        md += ["Each field entry's effect of the proposal (proposal minus defaults, game and seat matched), players "
               "fixed and re-tuned; *holds*: not told apart; *changes*: the re-tuned effect differs (resolved); "
               "*reverses*: both resolved with opposite signs. The fixed and re-tuned runs share their seeds, so the "
               "interval of their difference is conservative.", ""]
        md += markdown_table(e.drop("variant"), "Effect of the proposal on each entry, players fixed and re-tuned "
                             "(win in percentage points, VP in VP)", rep, "retuned-effects",
                             TableFormat(rank=None, decimals={"fixed": 2, "fixed_low": 2, "fixed_high": 2,
                                                              "retuned": 2, "retuned_low": 2, "retuned_high": 2}))
    play = Path(out) / "retuned_play.parquet"
    pc = pl.read_parquet(play) if play.is_file() else pl.DataFrame()
    if pc.height:
        head = ("What changed in the re-tuned players' play, proposal against defaults (each re-tuned entry in its own "
                "seats): the share of its seat-games using each action (paired game by game: Agresti-Min, percentage "
                "points) and the mean Cycle or Round of its first use among the seat-games that used it (Welch, "
                "unpaired). The resolved changes:")
        md += [head, ""] + [f"- {ln}" for ln in play_lines(pc)] + [""]
        md += markdown_table(pc.drop("variant"), "What changed in the re-tuned players' play: action use (% of "
                             "seat-games) and the timing of the first use, defaults and proposal, the change with its "
                             "95% interval", rep, "retuned-play",
                             TableFormat(rank=None, decimals={"control": 2, "value": 2, "est": 2, "low": 2, "high": 2},
                                         labels={"control": "defaults", "value": "proposal"}))
    return md


def build(out: Path, s: dict, trials: pl.DataFrame, recheck: pl.DataFrame, targets,
          side: pl.DataFrame | None = None) -> Path:
    """Write the report; returns the HTML path. ``side``: the proposal's side-effect table
    (:func:`side_effect_lines`), None when the proposal is the defaults."""
    rep = Path(out) / "report"
    rep.mkdir(parents=True, exist_ok=True)
    p = s["proposal"]
    n = len(targets)
    verdict = (f"{'proposal' if p['met'] else 'closest candidate'} meets {p['met']} of {n} targets on fresh seeds by point estimate, with the whole 95% "
               f"interval inside the target for {p['met_interval']} of {n} ("
               + "; ".join(f"{t.text}: {p[t.text]:.2f} [{p[t.text + ' low']:.2f}, {p[t.text + ' high']:.2f}]"
                           for t in targets) + ")")
    md = [f"# Balance search: {s['game']}", "",
          f"Targets: {', '.join(f'`{t}`' for t in s['targets'])}. Searched: "
          + ", ".join(f"`{k}` {v}" for k, v in s["vary"].items())
          + (f"; fixed: {', '.join(f'`{k}={v}`' for k, v in s['fixed'].items())}" if s["fixed"] else "") + ".", "",
          f"{s['trials']} candidates (Optuna {s.get('sampler', 'TPE')}, seed {s['seed']}), each {s['lineups']} rotated lineups x "
          f"{s['games_per_lineup']} games on the same seeds; the best {len(recheck)} re-checked on fresh seeds "
          f"(seed {s['fresh_seed']}, {s['recheck_games_per_lineup']} games per lineup) with 95% bootstrap intervals "
          "over games.", "", f"**Verdict: {verdict}.**", ""]
    if p["met"] == 0:
        md += ["**No candidate met any target on fresh seeds.** The closest candidate is shown below; it is not a "
               "proposal that meets the targets.", ""]
    if s.get("proposal_is_defaults"):
        md += ["The candidate below is the default rules: no searched change did better.", ""]
    md += ["Proposal:" if p["met"] else "Closest candidate:", "", f"    {s['set_line']}", "",
           "or `meeplelab simulate --config BALANCE_FOLDER/proposal.toml --players P --strategies S... --out RUN` "
           "(the file holds the game and the rule numbers only: give the seats and strategies, as the search "
           "measured them in rotated seats):", ""]
    md += [f"    meeplelab simulate --config proposal.toml --players {f['players']} --strategies "
           f"{','.join(f['strategies'])} --out RUN   # {f['panel']}" for f in s.get("fields", [])] + [""]
    if s.get("defaults"):
        d = s["defaults"]
        md += ["Defaults on the search seeds: " + ", ".join(f"{t.text}: {d[t.text]:.2f}" for t in targets) + ".", ""]
    md += side_effect_lines(side, s)
    md += retuned_lines(out, s, targets)
    varied = list(s["vary"])
    F.save(recheck_chart(recheck, targets, varied), rep / "recheck.png")
    F.save(search_chart(trials, targets), rep / "search.png")
    md += ["## Re-check on fresh seeds", "", "![The re-checked candidates on fresh seeds against each target, 95% "
           "bootstrap intervals; shaded: meets the target](recheck.png)", ""]
    md += _tables(rep, "Re-checked candidates on fresh seeds, the proposal first (metric per target with its 95% "
                  "bootstrap interval)", recheck, "recheck", targets, RECHECK_ORDER)
    best = trials.sort(SEARCH_ORDER[0], descending=SEARCH_ORDER[1]).head(10)
    md += ["## Best candidates on the search seeds", "", "![Every candidate of the search against each target, by "
           "trial; shaded: meets the target](search.png)", ""]
    md += _tables(rep, f"The best {best.height} of {trials.height} candidates on the search seeds (most targets met, "
                  "then the smallest excess)", best, "search-best", targets, SEARCH_ORDER)
    if n > 1:
        md += ["## Pareto table (no candidate better on every target)", ""]
        md += _tables(rep, "Candidates no other candidate beats on every target (search seeds)",
                      trials.filter(pl.col("trial").is_in(s["pareto"])), "pareto", targets, SEARCH_ORDER)
    text = "\n".join(md) + "\n"
    rf.write_atomic(rep / "balance.md", text.encode())
    page = rep / "balance.html"
    rf.write_atomic(page, to_html(text, f"Balance search: {s['game']}").encode())
    return page
