"""Notebook tiles: the market, placement, refills and replacement (seed 000 §Gaining Notebook tiles,
§Replacing Notebook tiles, §Completing rows and columns; A-UM-18, A-UM-28). Decisions: ``D_TILE_SRC``,
``D_ORDER``, ``D_FREE_TILE``, ``D_PLACE``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler

from ..codes import (C_DISCARD, C_EMPTY, C_FREE, C_NB_FULL, C_NONE, C_REPLACE, C_TILE, C_TILE_STACK, D_ORDER,
                     D_PLACE, EV_INSIGHT, EV_TILE, K_EFFECT)
from ..cols import (COL_BOARD, COL_DONE, CURED, DIAL_C, ICONS, MARKET, MARKET_W, NB, NB_FULL, ROW_DONE, TDISC,
                    TSTACK_I, TTOP)
from ..kcols import I_TILES_LVL, TILE_BANNER, TILE_MAIN
from ..pcols import PRM_EMPTY_SPACE_VP, PRM_ICON_CURED_NEEDED, PRM_NOTEBOOK_FULL_REPUTATION, PRM_TILE_COST
from ..actions import CH_BANNER_FIRST, CH_FREE_TILE, CH_MAIN_FIRST, CH_PLACE_REPLACE, CH_PLACE_ROW, CH_TILE_SRC, DONE, NB_COLS, NB_ROWS, N_MARKET_LEVELS
from ..content_layout import KTILE
from .events import add_vp, ev
from .stack import push
from .reputation import gain_rep


@njit(cache=True, _nrt=False)
def next_col(S, C, prm, g, p, r):
    """The leftmost empty space of row r of seat p's Notebook, or 3 when full (seed 000 §Gaining Notebook tiles:
    Placing the tile)."""
    for c in range(3):
        if S.seat[g, p, NB + (r * 3 + c)] < 0:
            return c
    return -1


@njit(cache=True, _nrt=False)
def can_place_row(S, C, prm, g, p, r):
    """True when the tile fits row r: an empty space, and an icon space needs the Cured Clients of
    ``Params.icon_cured_needed`` (seed 000 §Gaining Notebook tiles; A-UM-18)."""
    c = next_col(S, C, prm, g, p, r)
    if c < 0:
        return False
    if c == 2:  # icon space (A-UM-18: the third space of each row)
        k = S.seat[g, p, ICONS]
        if k >= 3 or S.seat[g, p, CURED] < prm[PRM_ICON_CURED_NEEDED + k]:
            return False
    return True


@njit(cache=True, _nrt=False)
def place_tile(S, C, prm, g, p, r, tile):
    """Place ``tile`` in row r; complete rows / columns release their player-colour Insight, a full Notebook gains
    reputation (seed 000 §Gaining Notebook tiles, §Completing rows and columns)."""
    c = next_col(S, C, prm, g, p, r)
    S.seat[g, p, NB + (r * 3 + c)] = tile
    if c == 2:
        S.seat[g, p, ICONS] += 1
    ev(S, C, prm, g, EV_TILE, p, C_NONE, 0, -1, tile, 0, r * 3 + c)
    # completed rows and columns release their player-colour Insight into the reserve
    for rr in range(3):
        if S.seat[g, p, ROW_DONE + rr] == 0 and S.seat[g, p, NB + (rr * 3)] >= 0 and S.seat[g, p, NB + (rr * 3 + 1)] >= 0 \
                and S.seat[g, p, NB + (rr * 3 + 2)] >= 0:
            S.seat[g, p, ROW_DONE + rr] = 1
            S.seat[g, p, COL_BOARD] -= 1
            S.seat[g, p, DIAL_C + 0] += 1
            ev(S, C, prm, g, EV_INSIGHT, p, C_TILE, 1, -1, 100 + rr, 0, 0)
    for cc in range(3):
        if S.seat[g, p, COL_DONE + cc] == 0 and S.seat[g, p, NB + cc] >= 0 and S.seat[g, p, NB + (3 + cc)] >= 0 \
                and S.seat[g, p, NB + (6 + cc)] >= 0:
            S.seat[g, p, COL_DONE + cc] = 1
            S.seat[g, p, COL_BOARD] -= 1
            S.seat[g, p, DIAL_C + 0] += 1
            ev(S, C, prm, g, EV_INSIGHT, p, C_TILE, 1, -1, 200 + cc, 0, 0)
    if S.seat[g, p, NB_FULL] == 0:
        full = True
        for i in range(9):
            if S.seat[g, p, NB + i] < 0:
                full = False
        if full:
            S.seat[g, p, NB_FULL] = 1
            gain_rep(S, C, prm, g, p, prm[PRM_NOTEBOOK_FULL_REPUTATION], C_NB_FULL)


@njit(cache=True, _nrt=False)
def stack_draw(S, C, prm, g, lvl):
    """The top tile of the level ``lvl`` stack, or -1 when exhausted (seed 000 §Gaining Notebook tiles:
    Refilling)."""
    if S.game[g, TTOP + lvl] < C.cnt[I_TILES_LVL + lvl]:
        t = S.pile[g, TSTACK_I + lvl, (S.game[g, TTOP + lvl])]
        S.game[g, TTOP + lvl] += 1
        return t
    return -1


@njit(cache=True, _nrt=False)
def refill_market(S, C, prm, g, lvl):
    """Right takes the center slid across, then the center takes the stack top (banner side up)."""
    for _ in range(2):
        if S.game[g, MARKET + lvl * MARKET_W + 1] < 0 and S.game[g, MARKET + lvl * MARKET_W + 0] >= 0:
            S.game[g, MARKET + lvl * MARKET_W + 1] = S.game[g, MARKET + lvl * MARKET_W + 0]
            S.game[g, MARKET + lvl * MARKET_W + 0] = -1
        if S.game[g, MARKET + lvl * MARKET_W + 0] < 0:
            S.game[g, MARKET + lvl * MARKET_W + 0] = stack_draw(S, C, prm, g, lvl)


@handler
def legal_tile_src(S, C, prm, g, p, a, b, out):
    """Market spaces of the tile action taken (seed 000 §Gaining Notebook tiles), an empty one included (it scores
    its printed VP, A-UM-01)."""
    for lvl in range(N_MARKET_LEVELS):
        out[CH_TILE_SRC + lvl] = True


@handler
def legal_order(S, C, prm, g, p, a, b, out):
    """Main effect first or banner first (seed 000 §Gaining Notebook tiles: right column, either order)."""
    out[CH_MAIN_FIRST] = True
    out[CH_BANNER_FIRST] = True


@handler
def legal_free_tile(S, C, prm, g, p, a, b, out):
    """Which stack a free tile comes from (seed 000 §Gaining Notebook tiles: free, from the top of the level I or II
    stack)."""
    for lvl in range(N_MARKET_LEVELS):
        if S.game[g, TTOP + lvl] < C.cnt[I_TILES_LVL + lvl]:
            out[CH_FREE_TILE + lvl] = True
    out[DONE] = not (out[CH_FREE_TILE] or out[CH_FREE_TILE + 1])


@handler
def legal_place(S, C, prm, g, p, a, b, out):
    """Rows where the tile fits (leftmost empty space, icon spaces need Cured Clients: seed 000 §Gaining Notebook
    tiles); replacing only when it fits nowhere (seed 000 §Replacing Notebook tiles); DONE discards it."""
    anyr = False
    for r in range(NB_ROWS):
        if can_place_row(S, C, prm, g, p, r):
            out[CH_PLACE_ROW + r] = True
            anyr = True
    if not anyr:
        for i in range(NB_ROWS * NB_COLS):
            if S.seat[g, p, NB + i] >= 0:
                out[CH_PLACE_REPLACE + i] = True
        out[DONE] = True


@handler
def apply_tile_src(S, C, prm, g, p, act, a, b, c):
    """Take the tile (seed 000 §Gaining Notebook tiles): the stack top triggers nothing, center its banner, right
    both in either order (``D_ORDER``); an empty space scores its VP only; refill the market. Effects resolve before
    placement (A-UM-28)."""
    lvl = act - CH_TILE_SRC
    col = a  # 0 stack, 1 center, 2 right
    tile = -1
    if col == 0:
        tile = stack_draw(S, C, prm, g, lvl)
    elif col == 1:
        tile = S.game[g, MARKET + lvl * MARKET_W + 0]
        if tile >= 0:
            S.game[g, MARKET + lvl * MARKET_W + 0] = -1
            refill_market(S, C, prm, g, lvl)
    else:
        tile = S.game[g, MARKET + lvl * MARKET_W + 1]
        if tile >= 0:
            S.game[g, MARKET + lvl * MARKET_W + 1] = -1
            refill_market(S, C, prm, g, lvl)
    if tile < 0:
        add_vp(S, C, prm, g, p, prm[PRM_EMPTY_SPACE_VP + col], C_EMPTY, col * 2 + lvl)
        return
    ev(S, C, prm, g, EV_TILE, p, C_TILE_STACK + col, 0, -1, tile, prm[PRM_TILE_COST + col], -1)
    push(S, C, prm, g, D_PLACE, tile, 0, 0)
    if col == 1:
        push(S, C, prm, g, K_EFFECT, C.K[KTILE, tile, TILE_BANNER], C_TILE, -1)
    elif col == 2:
        push(S, C, prm, g, D_ORDER, tile, 0, 0)


@handler
def apply_order(S, C, prm, g, p, act, a, b, c):
    """Push the tile's main and banner effects in the chosen order (seed 000 §Gaining Notebook tiles)."""
    if act == CH_MAIN_FIRST:
        push(S, C, prm, g, K_EFFECT, C.K[KTILE, a, TILE_BANNER], C_TILE, -1)
        push(S, C, prm, g, K_EFFECT, C.K[KTILE, a, TILE_MAIN], C_TILE, -1)
    else:
        push(S, C, prm, g, K_EFFECT, C.K[KTILE, a, TILE_MAIN], C_TILE, -1)
        push(S, C, prm, g, K_EFFECT, C.K[KTILE, a, TILE_BANNER], C_TILE, -1)


@handler
def apply_free_tile(S, C, prm, g, p, act, a, b, c):
    """Take the free tile from the chosen stack top (seed 000 §Gaining Notebook tiles)."""
    if act == DONE:
        return
    tile = stack_draw(S, C, prm, g, act - CH_FREE_TILE)
    ev(S, C, prm, g, EV_TILE, p, C_FREE, 0, -1, tile, 0, -1)
    push(S, C, prm, g, D_PLACE, tile, 0, 0)


@handler
def apply_place(S, C, prm, g, p, act, a, b, c):
    """Place the tile in the chosen row or replace a tile, discarding the old one (seed 000 §Gaining Notebook tiles,
    §Replacing Notebook tiles)."""
    if act == DONE:
        S.game[g, TDISC] += 1
        ev(S, C, prm, g, EV_TILE, p, C_DISCARD, 0, -1, a, 0, -1)
    elif act < CH_PLACE_REPLACE:
        place_tile(S, C, prm, g, p, act - CH_PLACE_ROW, a)
    else:
        i = act - CH_PLACE_REPLACE
        ev(S, C, prm, g, EV_TILE, p, C_REPLACE, 0, -1, S.seat[g, p, NB + i], 0, i)
        S.seat[g, p, NB + i] = a
        S.game[g, TDISC] += 1
