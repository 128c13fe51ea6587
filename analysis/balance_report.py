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
from .markdown import row, to_html


def _cell(v) -> str:
    return f"{v:,.2f}" if isinstance(v, float) else str(v)


def _table(df: pl.DataFrame) -> list[str]:
    out = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    out += [row(_cell(v) for v in r) for r in df.iter_rows()]
    return out


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


def build(out: Path, s: dict, trials: pl.DataFrame, recheck: pl.DataFrame, targets) -> Path:
    """Write the report; returns the HTML path."""
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
    varied = list(s["vary"])
    F.save(recheck_chart(recheck, targets, varied), rep / "recheck.png")
    F.save(search_chart(trials, targets), rep / "search.png")
    md += ["## Re-check on fresh seeds", "", "![The re-checked candidates on fresh seeds against each target, 95% "
           "bootstrap intervals; shaded: meets the target](recheck.png)", ""] + _table(recheck) + [""]
    best = trials.sort(["met", "excess", "trial"], descending=[True, False, False]).head(10)
    md += ["## Best candidates on the search seeds", "", "![Every candidate of the search against each target, by "
           "trial; shaded: meets the target](search.png)", ""] + _table(best) + [""]
    if n > 1:
        md += ["## Pareto table (no candidate better on every target)", ""]
        md += _table(trials.filter(pl.col("trial").is_in(s["pareto"])).sort("trial")) + [""]
    text = "\n".join(md) + "\n"
    rf.write_atomic(rep / "balance.md", text.encode())
    page = rep / "balance.html"
    rf.write_atomic(page, to_html(text, f"Balance search: {s['game']}").encode())
    return page
