"""What each Galileo's Truth action id does, in words, without a game state (``meeplelab actions galileos-truth``).

:func:`meaning` is the engine's ``action_meaning``: one sentence per action family (:data:`~meeplelab.sim.galileos_truth.state.VOCAB`),
with the index the label names (a card type, a Treatise, a Window cell) spelled out from the loaded content.
In a game, ``describe_action`` says the same for the situation at hand (which card the stack step adds, ...).
"""

from __future__ import annotations

from .state import SEC_NAMES, SUBJECTS, VOCAB

_FAMILY = {
    "pass": "pass for the rest of the Cycle",
    "done": "finish the current step: keep the Penance card (it cycles back into the deck), finish the stack (its "
            "top card is the Active Card) or skip the remaining Secondary Actions",
    "abjure": "Abjure: the Principle Coin turns to Ptolemaic and Suspicion drops by abjure_suspicion_drop",
    "upgrade": "upgrade to the next Academic Level",
    "pay": "pay Coins to remove the Penance card from the game",
    "decktop": "put the new Treatise on top of the deck",
    "effects": "resolve the icon set's pending mandatory Effects now (A-GT-25)",
    "keep": "a two-way choice: its meaning is the pending decision's (listed by decision below)",
}
_GROUPS = ("the Active Card's first icon group (A)", "its second icon group (B)",
           "both icon groups (+1 Suspicion)")


def _content_name(names, i: int, what: str) -> str:
    return f"{what} {names[i]}" if i < len(names) else f"{what} slot {i} (unused by this content)"


def meaning(game, action: int, decision: str | None = None) -> str:
    """What taking ``action`` does, in words, under the pending decision named ``decision`` (a ``keep`` id's
    meaning is its decision's; without one, the generic text).

    Raises:
        ValueError: ``action`` outside ``0 .. num_actions - 1``.
    """
    fam, idx = VOCAB.decode(action, decision)
    c = game.content
    if fam in _FAMILY:
        return _FAMILY[fam]
    i = idx[0] if idx else 0
    text = {
        "group": lambda: f"resolve {_GROUPS[i]}",
        "subject": lambda: f"choose the subject {SUBJECTS[i]}",
        "secondary": lambda: f"take the Secondary Action {SEC_NAMES[i].capitalize()}",
        "observe_level": lambda: f"observe the sky at Level {i + 1}",
        "card": lambda: (f"{_content_name(c.card_ids, i, 'the card type')} in hand: play it, add it to the stack, "
                         "discard it for the new card or remove it (by the step)"),
        "remove_discard": lambda: f"remove {_content_name(c.card_ids, i, 'the card type')} from the discard pile",
        "remove_play": lambda: f"remove {_content_name(c.card_ids, i, 'the card type')} from the play area",
        "treatise": lambda: (f"write, copy or read {_content_name(c.board_ids, i, 'the board Treatise')} "
                             "(by the Secondary Action under way)"),
        "invention": lambda: f"use {_content_name(c.inv_ids, i, 'the Invention')}",
        "slot": lambda: f"create the Invention in Workshop slot {i + 1} from the top",
        "philosopher": lambda: f"assign the Natural Philosopher to {_content_name(c.space_ids, i, 'the space')}",
        "window": lambda: f"lay the Observation tile on Window row {idx[0] + 1}, column {idx[1] + 1}",
        "icon": lambda: (f"resolve the pending Effect of group {'AB'[idx[0]]}, icon {idx[1] + 1} before the others "
                         "(A-GT-25)"),
        "tile": lambda: f"keep Observation tile {i + 1} of the two drawn (A-GT-29)",
        "space-first": lambda: "activate the Window space's icons first, then the tile's (A-GT-25)",
        "tile-first": lambda: "activate the tile's icons first, then the Window space's (A-GT-25)",
    }[fam]
    return text()
