"""What a Galileo's Truth player cannot know, re-sampled for search copies (redeterminisation).

A rules fact, so it lives with the engine: :meth:`GalileosTruth.redeterminize` calls
:func:`redeterminize_kernel` on copies of the deciding games. What stays as it is, because the
searching seat knows it (seed 001: "You may look through your discard pile and removed cards at
any time, but never through your deck"; Write/Copy: "put it on top of your deck, or add it to your
hand"): every public zone (discard piles, play areas, removed cards, Workshop, Windows, boards),
the seat's own hand, the cards taken from a Treatise Board (everyone saw where they went:
``known``) while they are on top of a deck or in a hand, and every count (deck and hand sizes,
bag sizes). What is re-sampled: the order of every deck below its known top, the other seats'
unknown hand cards (pooled with their unknown deck cards, redealt at the same hand size), the
Observation bags, the Invention decks and the face-down Penance supply.

Every re-sample starts from a canonical order (:mod:`meeplelab.sim.core.resample`), so a copy depends only on what
the seat knows and the stream: the hidden slots of a seat in ascending slot order, holding their card types in
ascending order (which hidden slot holds which type is itself hidden), then shuffled; the bags, Invention decks
and Penance supply in ascending id order, then shuffled.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from meeplelab.sim.core.resample import resample_range, sort_range
from meeplelab.sim.core.rng import shuffle_range

from .cols import (BAG_1, BAG_N, DECK_0, DECK_N, INV_DECK_1, INV_DECK_N, NSLOTS, PEN_N, PEN_PILE, SLOT_CTYPE,
                   SLOT_CZONE, SLOT_KNOWN)
from .state import Z_DECK, Z_HAND


@njit(cache=True)
def redeterminize_kernel(keys, counters, searcher, game, seat, slot, pile):
    """Re-sample in place, for every game ``g``, what ``searcher[g]`` cannot know.

    Args:
        keys, counters: ``uint64[B]`` the searching seat's copy streams (one per copy).
        searcher: ``int64[B]`` the searching seat of each copy.
        game, seat, slot, pile: the :class:`~meeplelab.sim.galileos_truth.state.GTState` groups of the copies
            (``int64[B, GAME_WIDTH]``, ``[B, P, SEAT_WIDTH]``, ``[B, P, NC, SLOT_WIDTH]``, ``[B, 15, L]``).

    Card slots keep their types (cards are conserved); every count is kept. Sources: seed 001
    §Remove a Treatise Card ("never through your deck"), §Copy a Treatise (where a taken card goes is public).
    """
    pool = np.empty(slot.shape[2], np.int64)
    for g in range(slot.shape[0]):
        redeterminize_game(keys, counters, g, searcher[g], game, seat, slot, pile, g, pool)


@njit(cache=True, _nrt=False)
def canonical_slots(slot, g, p, pool, n):
    """Put seat ``p``'s hidden slots ``pool[0:n]`` (game ``g``) into canonical order: the slot ids ascending, and
    their card types reassigned to them in ascending order (the same multiset of cards)."""
    sort_range(pool, 0, n)
    for i in range(1, n):
        v = slot[g, p, pool[i], SLOT_CTYPE]
        j = i - 1
        while j >= 0 and slot[g, p, pool[j], SLOT_CTYPE] > v:
            slot[g, p, pool[j + 1], SLOT_CTYPE] = slot[g, p, pool[j], SLOT_CTYPE]
            j -= 1
        slot[g, p, pool[j + 1], SLOT_CTYPE] = v


@njit(cache=True, _nrt=False)
def redeterminize_game(keys, counters, r, searcher, game, seat, slot, pile, g, pool):
    """Re-sample in place what seat ``searcher`` cannot know in game ``g`` (row ``g`` of the groups), drawing
    from stream ``r`` of ``keys``/``counters``; ``pool`` is ``int64[NC]`` scratch (allocation-free: the
    compiled heuristic calls it inside the play kernel). Same draws as one game of
    :func:`redeterminize_kernel`. Each hidden group starts from its canonical order (:func:`canonical_slots`,
    :func:`meeplelab.sim.core.resample.resample_range`), so the result depends on what ``searcher`` knows and
    the stream only."""
    P = slot.shape[1]
    for p in range(P):
        deck = pile[g, DECK_0 + p]
        top = seat[g, p, DECK_N]  # the known cards on top of the deck stay: only deck[0:top] is unknown
        while top > 0 and slot[g, p, deck[top - 1], SLOT_KNOWN]:
            top -= 1
        n = 0
        nh = 0
        if p != searcher:  # the other seats' unknown hand cards are pooled with their unknown deck cards
            for s in range(seat[g, p, NSLOTS]):
                if slot[g, p, s, SLOT_CZONE] == Z_HAND and not slot[g, p, s, SLOT_KNOWN]:
                    pool[n] = s
                    n += 1
                    nh += 1
        for k in range(top):
            pool[n] = deck[k]
            n += 1
        canonical_slots(slot, g, p, pool, n)
        shuffle_range(keys, counters, r, pool, 0, n)
        for i in range(nh):
            slot[g, p, pool[i], SLOT_CZONE] = Z_HAND
        for i in range(nh, n):
            slot[g, p, pool[i], SLOT_CZONE] = Z_DECK
            deck[i - nh] = pool[i]
    for lv in range(3):
        resample_range(keys, counters, r, pile[g, BAG_1 + lv], 0, game[g, BAG_N + lv])
    for per in range(3):
        resample_range(keys, counters, r, pile[g, INV_DECK_1 + per], 0, game[g, INV_DECK_N + per])
    resample_range(keys, counters, r, pile[g, PEN_PILE], 0, game[g, PEN_N])


@njit(cache=True, _nrt=False)
def redeterminize_one(S, C, prm, g, searcher, keys, counters, r, pool):
    """:func:`redeterminize_game` on the state tuple ``S`` (the compiled heuristic's engine hook; it takes the
    kernels' whole context, content ``C`` and parameters ``prm`` unused here)."""
    redeterminize_game(keys, counters, r, searcher, S.game, S.seat, S.slot, S.pile, g, pool)
