"""Decisions of Observe the Sky (seed 001 §Observe the Sky)."""

from __future__ import annotations

from ..cols import (FR_N, FR_USED, OBS_CELL, OBS_LEVEL, OBS_TILE, OBS_TILES, PHASE, RESEARCH, TO_ACT, WINDOW,
                    WINDOW_W)
from ..content import ASTRONOMY, WCOLS
from meeplelab.sim.core.jit import handler
from ..state import (A_KEEP_TILE, A_OLEVEL, A_SPACE_FIRST, A_TILE_FIRST, A_WIN, C_OBSERVATION, E_OBSERVE,
                     N_OBS_LEVELS, P_OKEEP, P_OORDER, P_OSPACE, TR_OBSERVE)
from ..pcols import PRM_OBSERVE_DRAW
from .flow import advance
from .icons import OBS_BONUS, push_frame, trigger
from .ledger import add_books, ev, pay
from .sky import bag_draw, cell_ok, obs_level_ok, tile_discard


@handler
def legal_level(S, C, prm, g, out):
    """Legal actions of P_OLEVEL, §Observe the Sky: the Level observed.

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    for lv in range(1, N_OBS_LEVELS + 1):
        out[A_OLEVEL + lv - 1] = obs_level_ok(S, C, prm, g, p, lv)


@handler
def apply_level(S, C, prm, g, a):
    """Apply action ``a`` of P_OLEVEL to game ``g``: §Observe the Sky: the Level observed."""
    lv = a - A_OLEVEL + 1
    S.game[g, OBS_LEVEL] = lv
    t1 = bag_draw(S, g, lv)
    t2 = -1
    if prm[PRM_OBSERVE_DRAW] >= 2:
        t2 = bag_draw(S, g, lv)
    if t2 >= 0:
        S.game[g, OBS_TILES + 0] = t1
        S.game[g, OBS_TILES + 1] = t2
        S.game[g, PHASE] = P_OKEEP
    else:
        S.game[g, OBS_TILE] = t1
        S.game[g, PHASE] = P_OSPACE


@handler
def legal_keep(S, C, prm, g, out):
    """Legal actions of P_OKEEP, §Observe the Sky: the tile kept of the two drawn (A-GT-29).

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    out[A_KEEP_TILE] = True
    out[A_KEEP_TILE + 1] = True


@handler
def apply_keep(S, C, prm, g, a):
    """Apply action ``a`` of P_OKEEP to game ``g``: §Observe the Sky: the tile kept of the two drawn (A-GT-29)."""
    i = a - A_KEEP_TILE
    S.game[g, OBS_TILE] = S.game[g, OBS_TILES + i]
    tile_discard(S, g, S.game[g, OBS_LEVEL], S.game[g, OBS_TILES + (1 - i)])
    S.game[g, PHASE] = P_OSPACE


@handler
def legal_space(S, C, prm, g, out):
    """Legal actions of P_OSPACE, §Observe the Sky: the Window space the tile goes to.

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    r = S.game[g, OBS_LEVEL] - 1
    for c in range(WCOLS):
        out[A_WIN + r * WCOLS + c] = cell_ok(S, C, prm, g, p, r, c)


@handler
def apply_space(S, C, prm, g, a):
    """Apply action ``a`` of P_OSPACE to game ``g``: §Observe the Sky: the Window space the tile goes to."""
    p = S.game[g, TO_ACT]
    cell = a - A_WIN
    r = cell // WCOLS
    c = cell % WCOLS
    pay(S, g, p, RESEARCH, C.WIN_RES[r, c])
    add_books(S, prm, g, p, ASTRONOMY, -C.WIN_ASTRO[r, c])
    S.seat[g, p, WINDOW + r * WINDOW_W + c] = S.game[g, OBS_TILE]
    S.game[g, OBS_CELL] = cell
    ev(S, g, p, E_OBSERVE, C_OBSERVATION, S.game[g, OBS_LEVEL], -1, S.game[g, OBS_TILE], cell, 0)
    trigger(S, C, prm, g, p, TR_OBSERVE)
    S.game[g, PHASE] = P_OORDER


@handler
def legal_order(S, C, prm, g, out):
    """Legal actions of P_OORDER, §Observe the Sky: the space's icons or the tile's icons first (A-GT-25).

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    out[A_SPACE_FIRST] = True
    out[A_TILE_FIRST] = True


@handler
def apply_order(S, C, prm, g, a):
    """Apply action ``a`` of P_OORDER to game ``g``: §Observe the Sky: the space's icons or the tile's icons first
    (A-GT-25)."""
    cell = S.game[g, OBS_CELL]
    sp_iset = C.WIN_ISET[cell // WCOLS, cell % WCOLS]
    tl_iset = C.TILE_ISET[S.game[g, OBS_TILE]]
    # seed step 6: the bonus comes after both icon sets; the frame that started Observe pays it
    # out when it is on top again (see advance)
    S.game[g, FR_USED + (S.game[g, FR_N] - 1)] |= OBS_BONUS
    if a == A_SPACE_FIRST:  # space icons first: push the tile's frame underneath
        push_frame(S, C, g, tl_iset)
        push_frame(S, C, g, sp_iset)
    else:
        push_frame(S, C, g, sp_iset)
        push_frame(S, C, g, tl_iset)
    advance(S, C, prm, g)
