"""What an Unconscious Mind player cannot know, re-sampled for search copies (redeterminisation).

A rules fact, so it lives with the engine (issue 15): :meth:`UnconsciousMind.redeterminize` calls
:func:`redeterminize_kernel` on copies of the deciding games. Kept, because the searching seat
knows it: every face-up card and tile (displays, markets, Notebooks, in-play cards, Treatises),
the seat's own hand, every count (deck positions, hand sizes), and the Research cards other
players took from the face-up display ("swap any one card from your hand with either face-up card
of the display", seed 000: ``card_known``), which stay in their hands. Re-sampled: the order of
the Notebook tile stacks, of the Research, Treatise, client and dream decks, and the other
players' unknown Research hand cards (shuffled with the Research deck, re-dealt in the same counts).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.rng import shuffle_range

#: state fields whose offsets in a row of ``M`` the kernel takes, in this order
OFFSET_FIELDS = ("tstack", "ttop", "rdeck", "rtop", "card_loc", "card_own", "trdeck", "trtop", "rdeck_cl", "rtop_cl",
                 "cdeck_cl", "ctop_cl", "ldeck", "ltop", "mdeck", "mtop", "card_known")


@njit(cache=True)
def redeterminize_kernel(M, seat, keys, counters, off, dims):
    """Re-sample in place what game ``g`` hides from ``seat[g]``.

    Args:
        M: ``int64[B, W]`` the copies' state matrices.
        seat: ``int64[B]`` the searching seat of each copy.
        keys, counters: ``uint64[B]`` the searching seat's copy streams.
        off: offsets in a row of ``M`` of :data:`OFFSET_FIELDS`.
        dims: tile-stack width, tiles of level I and II, Research cards, Treatises, Routine / Case Study
            clients, latent / manifest dreams, seats, L_DECK, L_HAND.
    """
    ntl = dims[0]
    nc = dims[3]
    P = dims[9]
    LD = dims[10]
    LH = dims[11]
    pool = np.empty(nc, np.int64)
    cnt = np.zeros(P, np.int64)
    for g in range(M.shape[0]):
        row = M[g]
        me = seat[g]
        for lvl in range(2):  # Notebook tile stacks (face down)
            lo = off[0] + lvl * ntl
            shuffle_range(keys, counters, g, row, lo + row[off[1] + lvl], lo + dims[1 + lvl])
        # Research deck plus the other players' unknown hand cards, re-dealt in the same counts
        rtop = row[off[3]]
        n = 0
        for i in range(rtop, nc):
            pool[n] = row[off[2] + i]
            n += 1
        for q in range(P):
            cnt[q] = 0
        for c in range(nc):
            q = row[off[5] + c]
            if row[off[4] + c] == LH and q != me and q >= 0 and row[off[16] + c] == 0:
                cnt[q] += 1
                pool[n] = c
                n += 1
        shuffle_range(keys, counters, g, pool, 0, n)
        k = 0
        for q in range(P):
            if q == me:
                continue
            for _ in range(cnt[q]):
                c = pool[k]
                k += 1
                row[off[4] + c] = LH
                row[off[5] + c] = q
        for i in range(rtop, nc):
            c = pool[k]
            k += 1
            row[off[2] + i] = c
            row[off[4] + c] = LD
            row[off[5] + c] = -1
        # Treatise, client and dream decks
        for j in range(4):
            d0 = off[6 + 2 * j]
            top = row[off[7 + 2 * j]]
            shuffle_range(keys, counters, g, row, d0 + top, d0 + dims[4 + j])
        d0 = off[14]
        shuffle_range(keys, counters, g, row, d0 + row[off[15]], d0 + dims[8])
