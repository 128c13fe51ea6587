"""The robustness report (Markdown and HTML with tornado charts) from ``results.json`` of a robustness run.

Opens with one verdict line per conclusion, then per conclusion: the baseline with its interval,
the share of design points where it holds, the flipped points, a tornado chart (Morris ``mu``: the
change of the conclusion's quantity from the low to the high end of each assumption's plausible
range, with a 95% interval over the trajectories) and the Morris and Sobol tables.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from meeplelab.play import runfolder as rf

from . import figures as F
from .markdown import row, to_html

TOP = 10


def tornado(c: dict, path: Path) -> Path:
    """Tornado chart of one conclusion's Morris effects (the ``TOP`` largest ``mu*``)."""
    ms = [m for m in c["morris"][:TOP]][::-1]
    fig, ax = F._fig(c["title"])
    y = np.arange(len(ms))
    mu = np.array([m["mu"] for m in ms])
    err = np.array([[m["mu"] - m["mu_low"] for m in ms], [m["mu_high"] - m["mu"] for m in ms]])
    ax.barh(y, mu, xerr=err, color=["#c0504d" if v < 0 else "#4f81bd" for v in mu], capsize=3)
    ax.scatter([m["mu_star"] for m in ms], y, marker="|", color="black", s=120, label="mu* (mean |effect|)", zorder=3)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels([f"{m['id']} {m['factor']} ({m['range']})" for m in ms], fontsize=7)
    ax.set_xlabel(f"change from low to high end of the range ({c['unit']}); Morris mu, 95% interval")
    ax.legend(loc="best", fontsize=7)
    fig.set_size_inches(8, 1.2 + 0.35 * len(ms))
    return F.save(fig, path)


def _md(text: str) -> str:
    """Text for Markdown prose: an asterisk of the text (``mu*``) escaped, so it is shown as written and
    never closes emphasis (``**...mu* 12...**`` lost its bold; an underscore inside a word, as in
    ``max_value``, is never emphasis in CommonMark)."""
    return text.replace("*", "\\*")


def _fmt(v, places=2) -> str:
    return "n/a" if v is None or not np.isfinite(v) else f"{v:,.{places}f}"


def build(out: Path, res: dict, command: str = "") -> Path:
    """Write ``out/report/robustness.md`` and ``robustness.html`` (with PNG charts); returns the HTML path."""
    rep = Path(out) / "report"
    rep.mkdir(parents=True, exist_ok=True)
    m = res["meta"]
    md: list[str] = [f"# Robustness of the balance conclusions: {m['game']}", ""]
    if command:
        md += [f"Reproduce: `{command}`", ""]
    sobol = (f"{m['sobol_points']:,} Sobol: N={m['sobol_N']} over {', '.join(m['sobol_factors']) or 'none'}"
             if m["sobol_points"] else "no Sobol stage: the budget left after Morris was too small")
    md += [f"{m['points']:,} design points ({m['morris_points']:,} Morris: {m['trajectories']} trajectories over "
           f"{len(m['factors'])} assumed parameters; {sobol}), {m['games_per_point']:,} games per point "
           f"({m['lineups']} lineups x {m['games_per_lineup']} games on common seeds, seed {m['seed']}), "
           f"{m['games_played']:,} games in all (budget {m['budget']:,}). Point 0 is the default rules. "
           f"A point counts as flipped when its 95% interval, Bonferroni-corrected over the points "
           f"(z = {m['flip_z']:.2f}), lies on the wrong side.", "", "## Verdicts", ""]
    for c in res["conclusions"]:
        md.append(f"- **{_md(c['title'])}**: {_md(c['statement'])}: **{_md(c['verdict'])}**")
    md.append("")
    for c in res["conclusions"]:
        png = tornado(c, rep / f"tornado-{c['name']}.png")
        b = c["baseline"]
        md += [f"## {c['title']}", "", f"Statement at the defaults: {c['statement']} "
               f"({_fmt(b['q'])} [{_fmt(b['low'])}, {_fmt(b['high'])}] {c['unit']}, n={b['n']:,}).", "",
               f"Verdict: **{_md(c['verdict'])}**", "",
               f"Holds at {c['holds']} of {c['points']} design points ({c['share']:.0%} "
               f"[{c['share_low']:.0%}, {c['share_high']:.0%}], Wilson); flipped at {c['flipped']}.", "",
               f"![tornado]({png.name})", ""]
        if c["flips"]:
            keys = [k for k in c["flips"][0] if k not in ("point", "q", "low", "high")]
            md += ["Flipped points (first 20):", "", "| point | q | 95% interval | " + " | ".join(keys) + " |",
                   "|---|---|---|" + "---|" * len(keys)]
            md += [row([f['point'], _fmt(f['q']), f"[{_fmt(f['low'])}, {_fmt(f['high'])}]", *(f[k] for k in keys)])
                   for f in c["flips"]]
            md.append("")
        md += [f"Morris screening ({c['unit']} per plausible range; largest mu* first):", "",
               "| assumption | parameter | range | mu | 95% interval | mu* | mu* +- | sigma |",
               "|---|---|---|---|---|---|---|---|"]
        md += [row([x['id'], f"`{x['factor']}`", x['range'], _fmt(x['mu']),
                    f"[{_fmt(x['mu_low'])}, {_fmt(x['mu_high'])}]", _fmt(x['mu_star']), _fmt(x['mu_star_conf']),
                    _fmt(x['sigma'])]) for x in c["morris"][:TOP]]
        md.append("")
        if c["sobol"]:
            md += ["Sobol indices (other assumptions at their defaults):", "",
                   "| assumption | parameter | S1 | +- | ST | +- |", "|---|---|---|---|---|---|"]
            md += [f"| {x['id']} | `{x['factor']}` | {_fmt(x['S1'])} | {_fmt(x['S1_conf'])} | {_fmt(x['ST'])} | "
                   f"{_fmt(x['ST_conf'])} |" for x in c["sobol"]]
            md.append("")
    text = "\n".join(md) + "\n"
    rf.write_atomic(rep / "robustness.md", text.encode())
    page = rep / "robustness.html"
    rf.write_atomic(page, to_html(text, f"Robustness: {m['game']}").encode())
    return page


