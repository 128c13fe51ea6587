"""What a Galileo's Truth player cannot know, re-sampled for search copies (redeterminisation).

A rules fact, so it lives with the engine (issue 15): :meth:`GalileosTruth.redeterminize` calls
:func:`redeterminize_kernel` on copies of the deciding games. What stays as it is, because the
searching seat knows it (seed 001: "You may look through your discard pile and removed cards at
any time, but never through your deck"; Write/Copy: "put it on top of your deck, or add it to your
hand"): every public zone (discard piles, play areas, removed cards, Workshop, Windows, boards),
the seat's own hand, the cards taken from a Treatise Board (everyone saw where they went:
``known``) while they are on top of a deck or in a hand, and every count (deck and hand sizes,
bag sizes). What is re-sampled: the order of every deck below its known top, the other seats'
unknown hand cards (pooled with their unknown deck cards, redealt at the same hand size), the
Observation bags, the Invention decks and the face-down Penance supply.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.rng import shuffle_range

from .state import Z_DECK, Z_HAND


@njit(cache=True)
def redeterminize_kernel(keys, counters, seat, ctype, czone, known, deck, deck_n, nslots, bag, bag_n, inv_deck,
                         inv_deck_n, pen_pile, pen_n):
    """Re-sample in place, for every game ``g``, what ``seat[g]`` cannot know.

    Args:
        keys, counters: ``uint64[B]`` the searching seat's copy streams (one per copy).
        seat: ``int64[B]`` the searching seat of each copy.
        ctype, czone, known, deck, deck_n, nslots, bag, bag_n, inv_deck, inv_deck_n, pen_pile, pen_n:
            the :class:`~sim.galileos_truth.state.GTState` arrays of the copies (``[B, ...]``).

    Card slots keep their types (cards are conserved); every count is kept.
    """
    B, P, NC = ctype.shape
    pool = np.empty(NC, np.int64)
    for g in range(B):
        for p in range(P):
            top = deck_n[g, p]  # the known cards on top of the deck stay: only deck[0:top] is unknown
            while top > 0 and known[g, p, deck[g, p, top - 1]]:
                top -= 1
            if p == seat[g]:
                shuffle_range(keys, counters, g, deck[g, p], 0, top)
                continue
            n = 0
            nh = 0
            for s in range(nslots[g, p]):
                if czone[g, p, s] == Z_HAND and not known[g, p, s]:
                    pool[n] = s
                    n += 1
                    nh += 1
            for k in range(top):
                pool[n] = deck[g, p, k]
                n += 1
            shuffle_range(keys, counters, g, pool, 0, n)
            for i in range(nh):
                czone[g, p, pool[i]] = Z_HAND
            for i in range(nh, n):
                czone[g, p, pool[i]] = Z_DECK
                deck[g, p, i - nh] = pool[i]
        for lv in range(bag.shape[1]):
            shuffle_range(keys, counters, g, bag[g, lv], 0, bag_n[g, lv])
        for lv in range(inv_deck.shape[1]):
            shuffle_range(keys, counters, g, inv_deck[g, lv], 0, inv_deck_n[g, lv])
        shuffle_range(keys, counters, g, pen_pile[g], 0, pen_n[g])
