"""One meaning of "dominant" for every report, and the words that say which field a conclusion holds in.

**Dominant** (balance verdict, tournament answer, everywhere the word is used): a strategy is
*dominant in a field* when it beats every other strategy of that field head to head, each of those
head-to-head comparisons resolved: its edge is above even and its p-value, Holm-adjusted over the
report's family of comparisons (:func:`meeplelab.analysis.stats.holm`), is below 0.05. The strategy with the
highest win rate that is not dominant is only *leading*. A game-theoretic "strictly dominated"
strategy (:func:`meeplelab.analysis.metagame.dominated`) is a different claim, always written "strictly dominated".

:func:`judge` decides it; both the balance verdict (:func:`meeplelab.analysis.verdict.strategy_flags`, head to
head = paired win-share difference over the games where both sit) and the tournament report
(:func:`meeplelab.analysis.tournament_report.dominance_answer`, head to head = share of common-seed games in which
the row's best seat finishes ahead) call it with their own head-to-head table.

A conclusion holds among the strategies that were played, and only there: :func:`field_words` names
that field (the strong field by its name), :data:`SCOPE` is the standing sentence every report's conclusions carry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from .seats import is_mirror, seating_mode
from meeplelab.strategies.fields import strong_labels

DEFINITION = ("Dominant means: the strategy beats every other strategy of the field head to head, each of those "
              "comparisons resolved (its edge above even, Holm-adjusted p-value below 0.05 over the report's family "
              "of comparisons); a strategy with the highest win rate that is not dominant is called leading. The "
              "same rule is used by the balance verdict and the tournament report.")

SCOPE = ("These conclusions hold for this field only (the strategies played, as played here); whether they hold "
         "for stronger players is the section \"Does it hold for stronger players?\" (meeplelab stronger).")


@dataclass
class Judgement:
    """What :func:`judge` found.

    Attributes:
        dominant: the dominant strategy, or None.
        leader: the strategy judged (the dominant one, else the first of the order: highest win rate).
        pairs: the leader's head-to-head rows against every other strategy, in the field's order.
        lost: rows it loses (edge below even, resolved); ``open``: rows neither won nor lost (not resolved).
    """

    dominant: str | None
    leader: str
    pairs: list[dict] = field(default_factory=list)
    lost: list[dict] = field(default_factory=list)
    open: list[dict] = field(default_factory=list)


def beats(r: dict) -> bool:
    """A head-to-head row is won: edge above even and resolved."""
    return r["edge"] > 0 and bool(r["resolved"])


def judge(order: list[str], pairs: dict[tuple[str, str], dict]) -> Judgement:
    """Apply the one definition (:data:`DEFINITION`).

    Args:
        order: the field's strategies, highest win rate first.
        pairs: ``{(a, b): row}`` for ordered pairs, each row with ``edge`` (a's head-to-head result
            minus even: positive when ``a`` is ahead of ``b``) and ``resolved`` (Holm-adjusted p-value
            below 0.05); other keys are kept for the words.

    Returns:
        the first strategy of ``order`` that beats every other (:func:`beats`), else the first of
        ``order`` with the pairs it loses and those not resolved. A strategy with a pair not played is
        never dominant.
    """
    for s in order:
        mine = [pairs.get((s, o)) for o in order if o != s]
        if mine and all(r is not None and beats(r) for r in mine):
            return Judgement(s, s, mine)
    top = order[0]
    mine = [pairs[(top, o)] for o in order if o != top and (top, o) in pairs]
    lost = [r for r in mine if r["edge"] < 0 and bool(r["resolved"])]
    open_ = [r for r in mine if not beats(r) and r not in lost]
    return Judgement(None, top, mine, lost, open_)


def seating_words(manifests: dict) -> str:
    """How the field's games were seated, in a few words (``rotated seats``, ``fixed seats``, a mirror)."""
    words = {"rotate": "rotated seats", "random": "random seats", "fixed": "fixed seats"}
    kinds = []
    for m in manifests.values():
        k = "mirror match" if is_mirror(m) else words.get(seating_mode(m), seating_mode(m))
        if k not in kinds:
            kinds.append(k)
    return ", ".join(kinds)


def field_strategies(manifests: dict, present=None) -> list[str]:
    """The strategies played in ``manifests``' runs, in the order the runs name them (first run first);
    with ``present`` (ids in the games table) only those, ids the manifests do not spell (expanded
    presets) appended in sorted order."""
    out: list[str] = []
    for m in manifests.values():
        for s in m["config"]["strategies"]:
            if s not in out:
                out.append(s)
    if present is None:
        return out
    present = list(dict.fromkeys(present))
    keep = [s for s in out if s in present]
    return keep + sorted(s for s in present if s not in keep)


def field_words(strategies, games: int, seating: str) -> str:
    """``among the strategies played: a, b, c (N games, rotated seats)``; a game's strong field (``--field strong``,
    in either spelling of its ids: :func:`meeplelab.strategies.fields.strong_labels`) is named as such: ``among the
    strong field: tuned heuristic, ismcts (N games, rotated seats)``."""
    strong = strong_labels(strategies)
    if strong:
        return f"among the strong field: {', '.join(strong)} ({games:,} games, {seating})"
    return f"among the strategies played: {', '.join(strategies)} ({games:,} games, {seating})"


__all__ = ["DEFINITION", "Judgement", "SCOPE", "beats", "field_strategies", "field_words", "judge", "seating_words"]
