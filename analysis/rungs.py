"""One conclusion measured at two rungs of play (the scripted plans and a stronger field), and the words for it.

The small, page-free pieces the stronger-players check (:mod:`meeplelab.analysis.stronger`), the report's first
screen (:mod:`meeplelab.analysis.first_screen`) and the re-tuning's analysis (:mod:`meeplelab.analysis.retune`)
share: :func:`compare` judges two estimates (holds, changes, reverses), :func:`unit` names a check's unit,
:func:`rung` the strong rung of a study, :func:`skill` a conclusion's reading across the skill ladder,
:func:`resolution_of` a metric's resolution and :data:`FLOOR` the win-rate floor. Nothing
here reads files or builds sections.
"""

from __future__ import annotations

import math

#: the words of a conclusion across the skill ladder (:func:`skill`)
EVERY, DEPENDS, SCRIPTED_ONLY = "holds at every rung", "depends on skill", "only among scripted plans"

#: the two-sided 95% normal quantile (a half-width over it is a standard error)
Z = 1.959963984540054

#: a player whose win rate in the control (or reference) arm is under this share (percent) at a rung sits on the
#: win-rate floor there (it cannot lose much more), so a win-rate change is not read as an effect; the VP effect is
FLOOR = 5.0


def resolution_of(unit: str, players: int | None = None, games: int | None = None) -> float:
    """The smallest difference a metric can show, in its unit: ``"VP"``, one VP to one seat of a game's mean
    (1/``players`` VP; without a count, 0.005, the two decimals VP is given to); ``"points"`` (a win rate), one
    game of the smaller sample (100/``games`` points; without a count, 0.05, the one decimal points are given to);
    any other unit 0 (no resolution: the interval alone decides)."""
    if unit == "VP":
        return 1.0 / players if players else 0.005
    if unit == "points":
        return 100.0 / games if games else 0.05
    return 0.0


def compare(scripted: dict, strong: dict, resolution: float = 0.0) -> tuple[str, dict]:
    """``(verdict, difference)`` of two independent estimates ``{est, low, high}`` (same units): ``reverses``
    when both 95% intervals exclude 0 on opposite sides, else ``changes`` when the difference strong minus
    scripted has an interval excluding 0 (normal approximation: each half-width / 1.96 as its standard
    error), else ``holds``. ``resolution`` (same units): the smallest difference the metric can show (one VP to
    one seat of a game's mean, one game of a win rate); a difference or an estimate smaller than it is never
    read as a change or a side (``holds``). ``difference`` is ``{est, low, high}`` of strong minus scripted."""
    def se(r: dict) -> float:
        return (r["high"] - r["low"]) / (2 * Z)

    def side(r: dict) -> int:
        return (1 if r["low"] > 0 else -1 if r["high"] < 0 else 0) if abs(r["est"]) >= resolution else 0

    d = strong["est"] - scripted["est"]
    h = Z * math.sqrt(se(scripted) ** 2 + se(strong) ** 2)
    diff = {"est": d, "low": d - h, "high": d + h}
    if side(scripted) * side(strong) == -1:
        return "reverses", diff
    if (diff["low"] > 0 or diff["high"] < 0) and abs(d) >= resolution:
        return "changes", diff
    return "holds", diff


def unit(c: dict) -> str:
    """``"VP"`` for a check of VP (a rule experiment's pooled VP), else ``"points"`` (win-rate points)."""
    return "VP" if "VP" in c.get("conclusion", "") and "win rate" not in c.get("conclusion", "") else "points"


def rung_folder(label: str) -> str:
    """The folder (in a study's folder) of a lower rung's runs: ``rung-heuristic`` for the rung ``heuristic``."""
    return "rung-" + "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in label)


def rung(d: dict) -> str:
    """The strong rung's short name: ``tuned heuristic`` of ``the tuned heuristic (docs/presets/...)``."""
    w = str(d.get("strong_words") or "the strong field").split(" (")[0]
    return w.removeprefix("the ")


def skill(c: dict) -> tuple[str, str]:
    """``(word, detail)`` of a judged check across the ladder, its lower rungs (``c["ladder"]``) then the strongest:
    :data:`EVERY` when it holds at every rung, :data:`SCRIPTED_ONLY` when it holds at none, else :data:`DEPENDS`
    with the rungs it changes at (``changes from the tuned heuristic``)."""
    verdicts = [(e["rung"], e["verdict"]) for e in c.get("ladder") or []] + [("strongest", c["verdict"])]
    held = [v == "holds" for _, v in verdicts]
    if all(held):
        return EVERY, ""
    if not any(held):
        return SCRIPTED_ONLY, ""
    first = next(i for i, h in enumerate(held) if not h)
    name = lambda r: r if r != "strongest" else (c.get("strong_rung") or "strongest rung")  # noqa: E731
    if all(not h for h in held[first:]):
        return DEPENDS, f"changes from the {name(verdicts[first][0])}"
    return DEPENDS, "changes at " + ", ".join(f"the {name(r)}" for (r, v) in verdicts if v != "holds")


__all__ = ["DEPENDS", "EVERY", "FLOOR", "SCRIPTED_ONLY", "Z", "compare", "resolution_of", "rung", "rung_folder", "skill", "unit"]
