"""The balance-search report (``out/report/balance.md`` and ``.html``): targets, the defaults, the best
candidates on the search seeds, the Pareto table when several targets are searched, the re-check on
fresh seeds with 95% bootstrap intervals, and the proposal as a ``--set`` line and ``proposal.toml``."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from meeplelab.play import runfolder as rf

from .markdown import row, to_html


def _cell(v) -> str:
    return f"{v:,.2f}" if isinstance(v, float) else str(v)


def _table(df: pl.DataFrame) -> list[str]:
    out = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    out += [row(_cell(v) for v in r) for r in df.iter_rows()]
    return out


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
    md += ["## Re-check on fresh seeds", ""] + _table(recheck) + [""]
    best = trials.sort(["met", "excess", "trial"], descending=[True, False, False]).head(10)
    md += ["## Best candidates on the search seeds", ""] + _table(best) + [""]
    if n > 1:
        md += ["## Pareto table (no candidate better on every target)", ""]
        md += _table(trials.filter(pl.col("trial").is_in(s["pareto"])).sort("trial")) + [""]
    text = "\n".join(md) + "\n"
    rf.write_atomic(rep / "balance.md", text.encode())
    page = rep / "balance.html"
    rf.write_atomic(page, to_html(text, f"Balance search: {s['game']}").encode())
    return page
