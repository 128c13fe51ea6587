"""What an Unconscious Mind seat cannot see of the Research cards: the ``conceal`` hook of the game's observation
(``spec.py`` ``OBSERVATION``; :mod:`meeplelab.sim.core.observation`).

It hides what the re-sampling kernel (``hidden.py``) re-samples for the observing seat, and nothing it keeps. The
*pool* is the Research deck (from ``rtop`` on) with the other seats' unknown hand cards (every card in another
seat's hand except those it took face up from the display, ``card_known``): ``hidden.py`` shuffles it and re-deals
it in the same counts. A pooled card's place (``card_loc``) and holder (``card_own``) are hidden (``-2``), and so is
every position of the Research deck pile that holds a pooled card (the deck's order, and which card another seat
drew blind). ``hidden_hand[p]`` says how many pooled cards seat ``p`` holds (hand sizes are public). The other
face-down decks and stacks are :class:`~meeplelab.sim.core.observation.Order` ranges of the spec.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.observation import HIDDEN

from .codes import L_HAND


def conceal(fields: dict[str, np.ndarray], seat: int, num_players: int) -> dict[str, np.ndarray]:
    """Mask in ``fields`` (one game's observation fields, changed in place) what ``seat`` cannot know (-1: the
    public observer, who knows no hand).

    Returns ``{"hidden_hand": int64[P]}``: each other seat's unknown Research hand cards (0 for ``seat``).
    """
    loc, own, known, rdeck = fields["card_loc"], fields["card_own"], fields["card_known"], fields["rdeck"]
    pool = (loc == L_HAND) & (own != seat) & (own >= 0) & (known == 0)
    hidden_hand = np.bincount(own[pool], minlength=num_players).astype(np.int64)
    pool[rdeck[int(fields["rtop"]):]] = True
    loc[pool] = HIDDEN
    own[pool] = HIDDEN
    rdeck[np.isin(rdeck, np.flatnonzero(pool))] = HIDDEN
    return {"hidden_hand": hidden_hand}
