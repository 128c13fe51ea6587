"""One conclusion measured at two rungs of play (the scripted plans and a stronger field), and the words for it.

The small, page-free pieces the stronger-players check (:mod:`meeplelab.analysis.stronger`), the report's first
screen (:mod:`meeplelab.analysis.first_screen`) and the re-tuning's analysis (:mod:`meeplelab.analysis.retune`)
share: :func:`compare` judges two estimates (holds, changes, reverses), :func:`unit` names a check's unit and
:func:`rung` the strong rung of a study. Nothing here reads files or builds sections.
"""

from __future__ import annotations

import math

#: the two-sided 95% normal quantile (a half-width over it is a standard error)
Z = 1.959963984540054


def compare(scripted: dict, strong: dict, resolution: float = 0.0) -> tuple[str, dict]:
    """``(verdict, difference)`` of two independent estimates ``{est, low, high}`` (same units): ``reverses``
    when both 95% intervals exclude 0 on opposite sides, else ``changes`` when the difference strong minus
    scripted has an interval excluding 0 (normal approximation: each half-width / 1.96 as its standard
    error), else ``holds``. ``resolution`` (same units): the smallest difference the metric can show (one VP to
    one seat of a game's mean, one game of a win rate); a difference or an estimate smaller than it is never
    read as a change or a side (``holds``). ``difference`` is ``{est, low, high}`` of strong minus scripted."""
    se = lambda r: (r["high"] - r["low"]) / (2 * Z)
    d = strong["est"] - scripted["est"]
    h = Z * math.sqrt(se(scripted) ** 2 + se(strong) ** 2)
    diff = {"est": d, "low": d - h, "high": d + h}
    side = lambda r: (1 if r["low"] > 0 else -1 if r["high"] < 0 else 0) if abs(r["est"]) >= resolution else 0
    if side(scripted) * side(strong) == -1:
        return "reverses", diff
    if (diff["low"] > 0 or diff["high"] < 0) and abs(d) >= resolution:
        return "changes", diff
    return "holds", diff


def unit(c: dict) -> str:
    """``"VP"`` for a check of VP (a rule experiment's pooled VP), else ``"points"`` (win-rate points)."""
    return "VP" if "VP" in c.get("conclusion", "") and "win rate" not in c.get("conclusion", "") else "points"


def rung(d: dict) -> str:
    """The strong rung's short name: ``tuned heuristic`` of ``the tuned heuristic (docs/presets/...)``."""
    w = str(d.get("strong_words") or "the strong field").split(" (")[0]
    return w.removeprefix("the ")


__all__ = ["Z", "compare", "rung", "unit"]
