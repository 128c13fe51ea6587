"""The stronger-players check's figures and words (issue 28 item 4), read by the balance report.

``meeplelab stronger`` (:mod:`meeplelab.studies.stronger`) writes ``OUT/stronger.json``; this module judges each
re-measured conclusion against its scripted-field figure (:func:`compare`), words it (:func:`line`) and builds the
report section "Does it hold for stronger players?" (:func:`section`), which every balance report carries.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from meeplelab.sim.core.errors import RunFolderError
from .page import Section

FILE = "stronger.json"
Z = 1.959963984540054


def compare(scripted: dict, strong: dict) -> tuple[str, dict]:
    """``(verdict, difference)`` of two independent estimates ``{est, low, high}`` (same units): ``reverses``
    when both 95% intervals exclude 0 on opposite sides, else ``changes`` when the difference strong minus
    scripted has an interval excluding 0 (normal approximation: each half-width / 1.96 as its standard
    error), else ``holds``. ``difference`` is ``{est, low, high}`` of strong minus scripted."""
    se = lambda r: (r["high"] - r["low"]) / (2 * Z)  # noqa: E731
    d = strong["est"] - scripted["est"]
    h = Z * math.sqrt(se(scripted) ** 2 + se(strong) ** 2)
    diff = {"est": d, "low": d - h, "high": d + h}
    side = lambda r: 1 if r["low"] > 0 else -1 if r["high"] < 0 else 0  # noqa: E731
    if side(scripted) * side(strong) == -1:
        return "reverses", diff
    if diff["low"] > 0 or diff["high"] < 0:
        return "changes", diff
    return "holds", diff


def _iv(r: dict, unit: str = "") -> str:
    f = lambda v: f"{round(v, 1) + 0.0:+.1f}"  # noqa: E731  (no "-0.0")
    return f"{f(r['est'])}{unit} [{f(r['low'])}, {f(r['high'])}]"


def line(c: dict) -> str:
    """One sentence of a check: the conclusion, both figures with intervals and games, and the verdict."""
    s, t, d = c["scripted"], c["strong"], c["difference"]
    how = {"holds": f"**holds** (difference {_iv(d)}, not resolved)",
           "changes": f"**changes by {_iv(d)}**", "reverses": f"**reverses** (difference {_iv(d)})"}[c["verdict"]]
    return (f"{c['conclusion']}: scripted field {_iv(s)} ({s['n']:,} games), strong field {_iv(t)} "
            f"({t['n']:,} games): {how}.")


def intro(result: dict) -> str:
    """The paragraph before the lines: what the strong field is and how each line is judged."""
    return (f"Each headline conclusion re-measured with the strong field, {result['strong_words']}, beside the "
            f"scripted-field figure (95% intervals, games): mirrors of {result['mirror_games']:,} games per player "
            f"count, {result['games']:,} games per arm or run otherwise. *Holds*: the difference of the two "
            "estimates is not resolved; *changes by X*: it is (independent estimates, normal approximation); "
            "*reverses*: both resolved with opposite signs.")


def read(out: Path | str) -> dict:
    """The ``stronger.json`` of a study folder (RunFolderError when missing or unreadable)."""
    p = Path(out) / FILE
    try:
        d = json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"--stronger {str(out)!r}: no readable {FILE} ({e}); run meeplelab stronger first") from None
    if d.get("status") != "complete":
        raise RunFolderError(f"--stronger {str(out)!r}: the study did not finish; run meeplelab stronger again with "
                             "--overwrite")
    return d




def section(stronger: Path | str | None, games: list[str], runs: list[str] | None = None):
    """The report section "Does it hold for stronger players?": the lines of the study in ``stronger`` (a
    ``meeplelab stronger`` folder), or, without one, what is not checked and the command that checks it.

    Raises:
        RunFolderError: ``stronger`` holds no finished study, or one of another game than ``games``.
    """
    games = sorted(games)
    title = "Does it hold for stronger players?"
    if stronger is None:
        src = " ".join(f"--from {r}" for r in (runs or ["RUN..."]))
        game = games[0] if games else "GAME"
        return Section(title, "Not checked: every conclusion above holds among the strategies played, not yet for "
                       f"stronger players. Check it with `meeplelab stronger --game {game} {src} --out STRONG` "
                       "(add --from EXPERIMENT for each experiment), then `meeplelab report ... --stronger STRONG`.")
    d = read(stronger)
    if games and d["game"] not in games:
        raise RunFolderError(f"--stronger {str(stronger)!r}: a study of {d['game']!r}, not of {games[0]!r}")
    if runs is not None and d.get("runs") is not None:
        mine = {str(Path(r).resolve()) for r in runs}
        if not mine <= set(d["runs"]):
            bad = sorted(mine - set(d["runs"]))[0]
            raise RunFolderError(f"--stronger {str(stronger)!r}: the study did not re-check run {bad!r} (it re-checked "
                                 f"{', '.join(d['runs']) or 'no run'}); run meeplelab stronger --from the reported runs")
    return Section(title, tally(d) + "\n" + intro(d) + "\n\n" + "\n".join(f"- {x}" for x in d["lines"]))


def tally(result: dict) -> str:
    """The section's first sentence: how many conclusions hold, change and reverse with the strong field."""
    n = {v: sum(c["verdict"] == v for c in result.get("checks", [])) for v in ("holds", "changes", "reverses")}
    total = sum(n.values())
    if total == 0:
        return "No conclusion was re-measured."
    words = [f"{n['holds']} **hold**", f"{n['changes']} **change**", f"{n['reverses']} **reverse**"]
    return f"Of {total} headline conclusions re-measured with the strong field, {', '.join(words[:2])} and {words[2]}."


__all__ = ["FILE", "compare", "intro", "line", "read", "section", "tally"]
