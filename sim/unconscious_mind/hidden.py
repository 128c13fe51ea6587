"""What an Unconscious Mind player cannot know, re-sampled for search copies (redeterminisation).

A rules fact, so it lives with the engine: :meth:`UnconsciousMind.redeterminize` calls
:func:`redeterminize_kernel` on copies of the deciding games; the compiled heuristic calls
:func:`redeterminize_one` on its scratch copy inside the play kernel. Both run :func:`redeterminize_game`, so
one game draws the same in both.

Kept, because the searching seat knows it: every face-up card and tile (displays, markets, Notebooks, in-play
cards, Treatises), the seat's own hand, every count (deck positions, hand sizes), and the Research cards other
players took from the face-up display ("swap any one card from your hand with either face-up card of the
display", seed 000: ``card_known``), which stay in their hands. Re-sampled: the order of the Notebook tile
stacks, of the Research, Treatise, client and dream decks, and the other players' unknown Research hand cards
(shuffled with the Research deck, re-dealt in the same counts).

Every re-sample starts from a canonical order, ascending card or tile ids
(:func:`meeplelab.sim.core.resample.resample_range`), so a copy depends only on what the seat knows and the stream,
never on the real order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from meeplelab.sim.core.resample import resample_range

from .cols import (CARD_KNOWN, CARD_LOC, CARD_OWN, CDECK_CL, CTOP_CL, LDECK, LTOP, MDECK, MTOP, RDECK, RDECK_CL,
                   RTOP, RTOP_CL, TRDECK, TRTOP, TSTACK_I, TTOP)
from .codes import L_DECK, L_HAND
from .kcols import I_N_CASE, I_N_LATENT, I_N_MANIFEST, I_N_ROUTINE, I_TILES_LVL
from .state import WK_HANDS


@njit(cache=True)
def redeterminize_kernel(game, card, pile, seat, keys, counters, dims):
    """Re-sample in place what game ``g`` hides from ``seat[g]``.

    Args:
        game: ``int64[B, GAME_WIDTH]``, card: ``int64[B, cards, 3]``, pile: ``int64[B, 13, L]`` the copies'
            state groups (:data:`meeplelab.sim.unconscious_mind.state.LAYOUT`).
        seat: ``int64[B]`` the searching seat of each copy.
        keys, counters: ``uint64[B]`` the searching seat's copy streams (game ``g`` draws from stream ``g``).
        dims: ``int64[8]`` Notebook tiles of level I and II, Treatises, Routine / Case Study clients,
            latent / manifest dreams, seats.

    Rule source: seed 000 §Gaining Research cards (a card swapped from the face-up display stays known);
    what else is hidden is listed in the module docstring. Each game: :func:`redeterminize_game`.
    """
    pool = np.empty(card.shape[1], np.int64)
    cnt = np.zeros(dims[7], np.int64)
    for g in range(game.shape[0]):
        redeterminize_game(game, card, pile, g, seat[g], keys, counters, g, dims, pool, cnt)


@njit(cache=True, _nrt=False)
def redeterminize_game(game, card, pile, g, me, keys, counters, r, dims, pool, cnt):
    """Re-sample in place what seat ``me`` cannot know in game ``g`` (row ``g`` of the groups ``game``, ``card``,
    ``pile``), drawing from stream ``r`` of ``keys``/``counters``; ``dims`` as in :func:`redeterminize_kernel`
    (any integer sequence of 8: a tuple inside the kernels). Scratch: ``pool`` ``int64[>= cards]``, ``cnt``
    ``int64[>= P]`` (allocation-free: the compiled heuristic calls it inside the play kernel).

    Draws, in order: the level I and II Notebook tile stacks; the Research deck pooled with the other seats'
    unknown hand cards (re-dealt to those seats in seat order, in the same counts, then to the deck); the
    Treatise, Routine client, Case Study client, latent and manifest dream decks. Each from ascending ids
    (:func:`meeplelab.sim.core.resample.resample_range`)."""
    nc = card.shape[1]
    P = dims[7]
    for lvl in range(2):  # Notebook tile stacks (face down)
        resample_range(keys, counters, r, pile[g, TSTACK_I + lvl], game[g, TTOP + lvl], dims[lvl])
    # Research deck plus the other players' unknown hand cards, re-dealt in the same counts
    rtop = game[g, RTOP]
    n = 0
    for i in range(rtop, nc):
        pool[n] = pile[g, RDECK, i]
        n += 1
    for q in range(P):
        cnt[q] = 0
    for c in range(nc):
        q = card[g, c, CARD_OWN]
        if card[g, c, CARD_LOC] == L_HAND and q != me and q >= 0 and card[g, c, CARD_KNOWN] == 0:
            cnt[q] += 1
            pool[n] = c
            n += 1
    resample_range(keys, counters, r, pool, 0, n)
    k = 0
    for q in range(P):
        if q == me:
            continue
        for _ in range(cnt[q]):
            c = pool[k]
            k += 1
            card[g, c, CARD_LOC] = L_HAND
            card[g, c, CARD_OWN] = q
    for i in range(rtop, nc):
        c = pool[k]
        k += 1
        pile[g, RDECK, i] = c
        card[g, c, CARD_LOC] = L_DECK
        card[g, c, CARD_OWN] = -1
    # Treatise, client and dream decks
    resample_range(keys, counters, r, pile[g, TRDECK], game[g, TRTOP], dims[2])
    resample_range(keys, counters, r, pile[g, RDECK_CL], game[g, RTOP_CL], dims[3])
    resample_range(keys, counters, r, pile[g, CDECK_CL], game[g, CTOP_CL], dims[4])
    resample_range(keys, counters, r, pile[g, LDECK], game[g, LTOP], dims[5])
    resample_range(keys, counters, r, pile[g, MDECK], game[g, MTOP], dims[6])


@njit(cache=True, _nrt=False)
def redeterminize_one(S, C, prm, g, searcher, keys, counters, r, pool):
    """:func:`redeterminize_game` on the kernels' context (the compiled heuristic's engine hook): the deck sizes
    from the parameter vector ``C`` and the Treatise group, ``pool`` ``int64[>= cards]`` scratch
    (:func:`meeplelab.strategies.compiled.heuristic_tables`: the largest per-game state row, at least the card group's
    ``3 * cards``), the per-seat counts in the scratch row ``S.work[WK_HANDS]``."""
    dims = (C.cnt[I_TILES_LVL], C.cnt[I_TILES_LVL + 1], S.treatise.shape[1], C.cnt[I_N_ROUTINE], C.cnt[I_N_CASE], C.cnt[I_N_LATENT],
            C.cnt[I_N_MANIFEST], S.seat.shape[1])
    redeterminize_game(S.game, S.card, S.pile, g, searcher, keys, counters, r, dims, pool, S.work[WK_HANDS])
