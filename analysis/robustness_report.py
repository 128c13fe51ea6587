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
from .markdown import to_html
from .page import markdown_table, TableFormat

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


#: the headers of the robustness tables (over :data:`meeplelab.analysis.report.LABELS`); a parameter keeps its
#: code name (the name ``--set`` and the plausible file use)
LABELS = {"id": "assumption", "factor": "parameter", "range": "plausible range", "point": "design point",
          "mu": "mean effect (mu)", "mu_low": "mu 95% low", "mu_high": "mu 95% high",
          "mu_star": "mean |effect| (mu*)", "mu_star_conf": "mu* 95% +-", "sigma": "effect sd (sigma)",
          "S1": "first-order index (S1)", "S1_conf": "S1 95% +-", "ST": "total index (ST)", "ST_conf": "ST 95% +-"}


def _tables(rep: Path, c: dict) -> list[str]:
    """The flipped points, Morris and Sobol tables of one conclusion, with human headers, each with its CSV
    (:func:`meeplelab.analysis.report.markdown_table`): the flips in design-point order, the Morris table
    ranked by ``mu*`` (every assumption; past 15 the top 10 shown and every row folded), the Sobol table by
    the total index."""
    import polars as pl

    name, unit = c["name"], c["unit"]
    md: list[str] = []
    if c["flips"]:
        flips = pl.DataFrame(c["flips"], infer_schema_length=None)
        keys = [k for k in flips.columns if k not in ("point", "q", "low", "high")]
        fmt = TableFormat(labels={**LABELS, "q": f"quantity ({unit})", **{k: k for k in keys}}, rank=None,
                          decimals={"q": 2, "low": 2, "high": 2})
        md += markdown_table(flips, f"Flipped points (first 20): the quantity with its 95% interval, and the "
                             f"values of the {len(keys)} assumptions with the largest effects", rep, f"flips-{name}", fmt)
    morris = pl.DataFrame(c["morris"], infer_schema_length=None).select(
        "id", "factor", "range", "mu", "mu_low", "mu_high", "mu_star", "mu_star_conf", "sigma")
    places = {k: 2 for k in ("mu", "mu_low", "mu_high", "mu_star", "mu_star_conf", "sigma")}
    md += markdown_table(morris, _md(f"Morris screening ({unit} from the low to the high end of each plausible "
                                     "range; largest mu* first)"), rep, f"morris-{name}",
                         TableFormat(labels=LABELS, rank="mu_star", decimals=places))
    if c["sobol"]:
        sobol = pl.DataFrame(c["sobol"], infer_schema_length=None).select("id", "factor", "S1", "S1_conf", "ST", "ST_conf")
        md += markdown_table(sobol, "Sobol indices (other assumptions at their defaults; largest total index first)",
                             rep, f"sobol-{name}", TableFormat(labels=LABELS, rank="ST",
                                                               decimals={k: 2 for k in sobol.columns[2:]}))
    return md


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
        md += _tables(rep, c)
    text = "\n".join(md) + "\n"
    rf.write_atomic(rep / "robustness.md", text.encode())
    page = rep / "robustness.html"
    rf.write_atomic(page, to_html(text, f"Robustness: {m['game']}").encode())
    return page


