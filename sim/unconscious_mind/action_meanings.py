"""What each Unconscious Mind action id does, in words, without a game state (``meeplelab actions unconscious-mind``).

:func:`meaning` is the engine's ``action_meaning``: one sentence per action family and per choice part of each
decision (:data:`~meeplelab.sim.unconscious_mind.actions.VOCAB`, its ``CHOICES``), with the index the label names
spelled out from the loaded content (an idea space and the main action it points at, a Research card). In a
game, ``describe_action`` says the same for the situation at hand (which tile, which client, which Treatise).
"""

from __future__ import annotations

from .actions import INKPOT_MAX_ADJ, MODE_NAMES, VOCAB
from .content import LEVELS, MT_ACTIONS, QUALITIES

_FAMILY = {
    "recall": "Recall Ideas (the turn option)",
    "treat": "Treat Clients (the turn option)",
    "pass": "pass: only when no turn option is possible (A-UM-20)",
    "done": "skip, done, or decline an optional step",
    "choice": "a small index whose meaning is the pending decision's (listed by decision below)",
    "heart-box": "convert a minor, a median and a major Insight into a heart-shaped box",
    "main-first": "resolve the tile's main effect first, then its banner",
    "banner-first": "resolve the tile's banner effect first, then its main effect",
    "to-freud": "move the Professor to Freud's Location",
    "reserve": "take the player-colour Insight from the dial's reserve",
    "deck": "take the top manifest dream of the deck",
}
_LEVEL = ("I", "II")
_WHOSE = ("the Professor's", "Freud's")
_ROOM = {"D_TREAT": "treat the client in room {0}", "D_THERAPY": "give therapy to the client in room {0}",
         "D_HEARTS": "spend a heart box on the client in room {0}"}


def _insight(q: int, lv: int) -> str:
    return f"a {QUALITIES[q]} {LEVELS[lv]} Insight"


def _place(game, s: int, d: int) -> str:
    spaces = game.content.space_ids
    if s >= len(spaces):
        return f"State Ideas on idea space {s} (unused by this content), direction {d}"
    return f"State Ideas on the idea space {spaces[s]} pointing at its action {MT_ACTIONS[int(game.A['space_act'][s, d])]}"


def meaning(game, action: int, decision: str | None = None) -> str:
    """What taking ``action`` does, in words, under the pending decision named ``decision`` (a ``choice`` id's
    meaning is its decision's; without one, the generic text).

    Raises:
        ValueError: ``action`` outside ``0 .. num_actions - 1``, or a choice id ``decision`` does not use.
    """
    fam, idx = VOCAB.decode(action, decision)
    if fam in _FAMILY:
        return _FAMILY[fam]
    c = game.content
    i = idx[0] if idx else 0
    text = {
        "place": lambda: _place(game, *idx),
        "mode": lambda: f"place {MODE_NAMES[i]} (Ideas, Bright Ideas) on the chosen action",
        "dial": lambda: (f"Elevate {_insight(*idx)} (on the turn: pay Coffee to raise it; Generate: move it)"),
        "transfer": lambda: (f"Transfer {_insight(idx[0], idx[1])} to {QUALITIES[idx[2]]} (on the turn: pay Coffee "
                             "to change it)"),
        "card": lambda: (f"Research card {c.card_ids[i] if i < len(c.card_ids) else f'{i} (unused by this content)'}: "
                         "play it, swap it out, set it aside as the quill Volume or use it as a Volume (by the decision)"),
        "inkpot": lambda: f"move the inkpot, adjusted by {i - INKPOT_MAX_ADJ:+d} Bright Ideas (A-UM-30)",
        "quality": lambda: f"Generate a {QUALITIES[i]} Insight",
        "level": lambda: (f"take the free tile from the level {_LEVEL[i]} stack" if decision == "D_FREE_TILE" else
                          f"take a Notebook tile from the level {_LEVEL[i]} market row"),
        "row": lambda: f"place the Notebook tile in row {i + 1}",
        "replace": lambda: f"replace the Notebook tile in space {i + 1} with the new one",
        "display": lambda: f"swap with display slot {i + 1}",
        "publish": lambda: f"publish the Treatise in display slot {i + 1}",
        "cite": lambda: f"cite Treatise {i} (its owner gains the citation payoff)",
        "advance": lambda: f"advance {'Freud' if decision == 'D_FREUD' else 'the Professor'} {i + 1} Location(s)",
        "trigger": lambda: (f"trigger the Location once per {('figure', 'tag')[idx[1]]}"
                            + (" (+Bright Idea)" if idx[0] == 1 else "")),
        "effect": lambda: f"take the Location's effect {i + 1}",
        "column": lambda: f"activate Notebook column {i + 1}",
        "ring": lambda: f"take the player-colour Insight from the {QUALITIES[idx[0]]} {LEVELS[idx[1]]} ring",
        "tile": lambda: f"resolve the main effect of the Notebook tile in row {idx[0] + 1}, space {idx[1] + 1}",
        "section": lambda: f"take reputation-track action {i + 1}",
        "bonus": lambda: f"take Location bonus {idx[1] + 1} at {_WHOSE[idx[0]]} Location",
        "district": lambda: f"take the district bonus of slot {idx[1] + 1} at {_WHOSE[idx[0]]} Location",
        "room": lambda: _ROOM.get(decision, "the client in room {0}").format(i + 1),
        "routine": lambda: f"take the Routine client in display slot {i + 1}",
        "case": lambda: f"take the Case Study client in display slot {i + 1}",
        "dream": lambda: f"take the manifest dream in display slot {i + 1}",
    }[fam]
    return text()
