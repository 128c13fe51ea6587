"""What a Galileo's Truth seat cannot see of the cards: the ``conceal`` hook of the game's observation
(``spec.py`` ``OBSERVATION``; :mod:`meeplelab.sim.core.observation`).

It hides what the re-sampling kernel (``hidden.py``) re-samples for the observing seat, and nothing it keeps. For
every seat ``p`` the *pool* of hidden slots is the unknown part of its deck (below the known cards on top: cards
taken from a Treatise Board, ``known``) and, for another seat, its unknown hand cards. The pool is shown in
canonical form, as ``hidden.py`` re-samples from it: its slot ids ascending holding its card types ascending (which
hidden slot holds which type is hidden; the types a seat owns are public, every card was taken in view). Then:

- the observing seat's own unknown deck is shown in that canonical order (its contents are known, not its order);
- another seat's pooled slots have their zone ``czone`` hidden (``-2``: in hand or in the deck), their deck
  positions below the known top too, and ``hidden_hand[p]`` says how many of them are in its hand (hand sizes are
  public).
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.observation import HIDDEN

from .state import Z_HAND


def conceal(fields: dict[str, np.ndarray], seat: int, num_players: int) -> dict[str, np.ndarray]:
    """Mask in ``fields`` (one game's observation fields, changed in place) what ``seat`` cannot know (-1: the
    public observer, for whom every seat is another seat).

    Returns ``{"hidden_hand": int64[P]}``: each other seat's unknown hand cards (0 for ``seat``).
    """
    czone, known, ctype = fields["czone"], fields["known"], fields["ctype"]
    hidden_hand = np.zeros(num_players, np.int64)
    for p in range(num_players):
        deck = fields[f"deck_{p}"]
        top = int(fields["deck_n"][p])
        while top > 0 and known[p, deck[top - 1]]:
            top -= 1
        pool = np.zeros(czone.shape[1], bool)
        if p != seat:
            pool = (czone[p] == Z_HAND) & (known[p] == 0)
            hidden_hand[p] = int(pool.sum())
        pool[deck[:top]] = True
        slots = np.flatnonzero(pool)
        ctype[p, slots] = np.sort(ctype[p, slots])
        if p == seat:
            deck[:top] = slots
        else:
            czone[p, slots] = HIDDEN
            deck[:top] = HIDDEN
    return {"hidden_hand": hidden_hand}
