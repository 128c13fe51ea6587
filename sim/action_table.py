"""Every action id of a game with its label and what it does: what a bot author reads (``meeplelab actions GAME``,
``meeplelab.action_table``).

A strategy receives the legal actions as ``bool[n, A]``, one column per action id, and returns ids; an id's label
(``Game.action_label``, ``secondary:write``) is the stable name to match on, and its meaning
(``Game.action_meaning``) says what taking it does. A few ids (the vocabulary's choice family: ``keep`` in Galileo's
Truth, ``choice`` in Unconscious Mind) mean what the pending decision makes of them; they are listed once more
under every decision that declares choices (``Game.action_label_at``).
"""

from __future__ import annotations

from .core.game import Game


def action_rows(game: Game) -> list[dict]:
    """The action table of ``game``: one row per action id (``decision`` ``""``), then one per choice id under each
    decision with declared choices (``decision`` its name in the decision table).

    Returns:
        dicts with ``id`` (int), ``label`` (str), ``decision`` (str) and ``meaning`` (str, "" when the engine gives
        none), in that order.
    """
    rows = [{"id": a, "label": game.action_label(a), "decision": "", "meaning": game.action_meaning(a)}
            for a in range(game.num_actions)]
    voc = game.vocabulary
    if voc is None:
        return rows
    lo = voc.start(voc.choice_family)
    for decision, sub in voc.choices.items():
        rows += [{"id": a, "label": game.action_label_at(a, decision), "decision": decision,
                  "meaning": game.action_meaning(a, decision)} for a in range(lo, lo + sub.num_actions)]
    return rows


def format_rows(game: Game, rows: list[dict]) -> str:
    """:func:`action_rows` as aligned text: the ids, then the choice ids by decision (``meeplelab actions``)."""
    width = max(len(r["label"]) for r in rows)
    plain = [r for r in rows if not r["decision"]]
    lines = [(f"{game.title}: {len(plain)} action ids, the columns of the legal mask (bool[n, {len(plain)}]); "
              "match an id by its label"), f"{'id':>4}  {'label':<{width}}  meaning"]
    lines += [f"{r['id']:>4}  {r['label']:<{width}}  {r['meaning']}" for r in plain]
    current = None
    for r in rows[len(plain):]:
        if current is None:
            lines += ["", "Choice ids by pending decision (the same ids, meaning this under that decision):"]
        if r["decision"] != current:
            current = r["decision"]
            lines.append(f"{current}:")
        lines.append(f"{r['id']:>4}  {r['label']:<{width}}  {r['meaning']}")
    return "\n".join(lines)
