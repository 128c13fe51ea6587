"""The sky: Observation bags and Window spaces (seed 001 §Observe the Sky; A-GT-18, A-GT-29)."""

from __future__ import annotations

from meeplelab.sim.core.rng import chance_shuffle

from ..cols import BAGDISC_1, BAGDISC_N, BAG_1, BAG_N, BOOKS, RESEARCH, WINDOW, WINDOW_W
from ..content import ASTRONOMY, WCOLS, WROWS
from meeplelab.sim.core.jit import rule
from ..state import RZ_BAG, TR_OBSERVE
from .academy import count_tiles
from .icons import iset_ok, trig_gain


@rule
def cell_ok(S, C, prm, g, p, r, c):
    """Window space (r, c) is empty, placeable (start space first, then orthogonally adjacent) and paid,
    and the space's own icons can be paid after its cost (the tile's gains are not counted: the tile
    is not known when the Level is chosen, and tiles carry no payments, A-GT-24)."""
    if S.seat[g, p, WINDOW + r * WINDOW_W + c] >= 0:
        return False
    if count_tiles(S, g, p) == 0:
        if r != 0 or c != 0:
            return False
    else:
        adj = False
        if r > 0 and S.seat[g, p, WINDOW + (r - 1) * WINDOW_W + c] >= 0:
            adj = True
        if r < WROWS - 1 and S.seat[g, p, WINDOW + (r + 1) * WINDOW_W + c] >= 0:
            adj = True
        if c > 0 and S.seat[g, p, WINDOW + r * WINDOW_W + (c - 1)] >= 0:
            adj = True
        if c < WCOLS - 1 and S.seat[g, p, WINDOW + r * WINDOW_W + (c + 1)] >= 0:
            adj = True
        if not adj:
            return False
    if S.seat[g, p, RESEARCH] < C.WIN_RES[r, c] or S.seat[g, p, BOOKS + ASTRONOMY] < C.WIN_ASTRO[r, c]:
        return False
    iset = C.WIN_ISET[r, c]
    return (not C.ISET_PAY[iset]) or iset_ok(S, C, prm, g, p, iset, ASTRONOMY, -C.WIN_ASTRO[r, c],
                                             trig_gain(S, C, g, p, TR_OBSERVE, False),
                                             trig_gain(S, C, g, p, TR_OBSERVE, True) - C.WIN_RES[r, c], TR_OBSERVE)


@rule
def obs_level_ok(S, C, prm, g, p, lv):
    """Seat ``p`` can Observe at Level ``lv``: tiles left in the bag (or its discards) and a Window space it can
    pay (seed 001 §Observe the Sky)."""
    if S.game[g, BAG_N + (lv - 1)] + S.game[g, BAGDISC_N + (lv - 1)] == 0:
        return False
    for c in range(WCOLS):
        if cell_ok(S, C, prm, g, p, lv - 1, c):
            return True
    return False


@rule
def bag_draw(S, g, lv):
    """One tile of Level ``lv`` (an empty bag is refilled from that Level's discards); -1 if none."""
    i = lv - 1
    if S.game[g, BAG_N + i] == 0:
        n = 0
        for k in range(S.game[g, BAGDISC_N + i]):
            S.pile[g, BAG_1 + i, n] = S.pile[g, BAGDISC_1 + i, k]
            n += 1
        S.game[g, BAGDISC_N + i] = 0
        chance_shuffle(S.rng_key, S.rng_ctr, g, RZ_BAG + i, S.pile[g, BAG_1 + i], 0, n)
        S.game[g, BAG_N + i] = n
    if S.game[g, BAG_N + i] == 0:
        return -1
    S.game[g, BAG_N + i] -= 1
    return S.pile[g, BAG_1 + i, S.game[g, BAG_N + i]]


@rule
def tile_discard(S, g, lv, t):
    """Observation tile ``t`` to Level ``lv``'s discards (A-GT-29)."""
    i = lv - 1
    S.pile[g, BAGDISC_1 + i, S.game[g, BAGDISC_N + i]] = t
    S.game[g, BAGDISC_N + i] += 1
