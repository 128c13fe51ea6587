"""The inkpot rondel: moving it, gain-idea spaces, row / column / reputation activations (research UM §2;
seed 000 §Completing rows and columns; A-UM-27). Decisions: ``D_INKPOT``, ``K_INKPOT_START``, ``K_INKPOT``,
``D_COLUMN``, ``D_TILEORDER``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler, plain

from ..codes import (C_INKPOT, C_REPTRACK, C_TILE, D_COLUMN, D_ELXF, D_INKPOT, D_REPACT, D_TILEORDER, EV_IDEA,
                     INK_COLUMN, INK_REP, INK_ROW, K_EFFECT, K_GENQL, K_INKPOT)
from ..cols import COL_DONE, FREUD_REP, IDEAS_HAND, IDEAS_LOCKED, INKPOT, NB, REP, ROW_DONE
from ..kcols import INK_GEN, INK_IDEA, INK_KIND, INK_NB_ROW, I_N_INKPOTS, SEC_REWARD, TILE_MAIN
from ..pcols import PRM_COLUMN_BONUS_LEVEL, PRM_ROW_BONUS_ELEVATIONS
from ..actions import CH_COLUMN, CH_INKPOT, CH_TILEORDER, INKPOT_MAX_ADJ
from ..content_layout import KBOARD, KTILE
from .events import ev
from .stack import push
from .reputation import section_of


@plain
def push_tiles(S, C, prm, g, p, rem):
    """Resolve the main effects of the Notebook tiles in bit set ``rem`` (spaces 0..8) in an order the seat
    chooses: a D_TILEORDER decision while two or more remain."""
    n = 0
    last = -1
    for i in range(9):
        if (rem >> i) & 1:
            n += 1
            last = i
    if n == 1:
        t = S.seat[g, p, NB + last]
        push(S, C, prm, g, K_EFFECT, C.K[KTILE, t, TILE_MAIN], C_TILE, -1)
    elif n > 1:
        push(S, C, prm, g, D_TILEORDER, rem, 0, 0)


@njit(cache=True, _nrt=False)
def inkpot_move(S, C, prm, g, p, dist):
    """Move seat p's inkpot ``dist`` spaces: gain-idea spaces passed unlock an Idea; the space reached activates its
    row, column or reputation action (research UM §2; A-UM-27)."""
    n = C.cnt[I_N_INKPOTS]
    pos = S.seat[g, p, INKPOT]
    for _ in range(dist):
        pos = (pos + 1) % n
        if C.K[KBOARD, pos, INK_IDEA] == 1 and S.seat[g, p, IDEAS_LOCKED] > 0:
            S.seat[g, p, IDEAS_LOCKED] -= 1
            S.seat[g, p, IDEAS_HAND] += 1
            ev(S, C, prm, g, EV_IDEA, p, C_INKPOT, 1, -1, pos, 0, 0)
    S.seat[g, p, INKPOT] = pos
    kind = C.K[KBOARD, pos, INK_KIND]
    if kind == INK_ROW:
        r = C.K[KBOARD, pos, INK_NB_ROW]
        if S.seat[g, p, ROW_DONE + r] == 1 and prm[PRM_ROW_BONUS_ELEVATIONS] > 0:
            push(S, C, prm, g, D_ELXF, prm[PRM_ROW_BONUS_ELEVATIONS], 0, 0)
        rem = 0
        for c in range(3):
            if S.seat[g, p, NB + (r * 3 + c)] >= 0:
                rem |= 1 << (r * 3 + c)
        push_tiles(S, C, prm, g, p, rem)
        push(S, C, prm, g, K_EFFECT, C.K[KBOARD, pos, INK_GEN], C_INKPOT, -1)
    elif kind == INK_COLUMN:
        push(S, C, prm, g, D_COLUMN, 0, 0, 0)
    elif kind == INK_REP:
        s = section_of(S, C, prm, S.seat[g, p, REP])
        push(S, C, prm, g, D_REPACT, section_of(S, C, prm, S.game[g, FREUD_REP]), 0, 0)
        push(S, C, prm, g, K_EFFECT, C.K[KBOARD, s, SEC_REWARD], C_REPTRACK, -1)


@handler
def legal_inkpot(S, C, prm, g, p, a, b, out):
    """The inkpot move adjusted by +-1 per Bright Idea placed, never below 1 (research UM §2, A-UM-30)."""
    for k in range(5):
        adj = k - 2
        if abs(adj) <= a and b + adj >= 1:
            out[CH_INKPOT + k] = True


@handler
def legal_column(S, C, prm, g, p, a, b, out):
    """A Notebook column to activate (research UM §2; the 'no idea above it' condition is ignored, A-UM-27)."""
    for k in range(3):
        out[CH_COLUMN + k] = True


@handler
def legal_tileorder(S, C, prm, g, p, a, b, out):
    """The next tile of an activated row or column to resolve (research UM §2: any order; A-UM-27)."""
    for i in range(9):
        if (a >> i) & 1:
            out[CH_TILEORDER + i] = True


@handler
def apply_inkpot(S, C, prm, g, p, act, a, b, c):
    """Move the inkpot by the chosen distance (research UM §2)."""
    push(S, C, prm, g, K_INKPOT, b + (act - CH_INKPOT) - INKPOT_MAX_ADJ, 0, 0)


@handler
def apply_column(S, C, prm, g, p, act, a, b, c):
    """Activate the column: its tiles' main effects in the chosen order, then its Generate if unlocked (seed 000
    §Completing rows and columns; A-UM-27, A-UM-02)."""
    c = act - CH_COLUMN
    if S.seat[g, p, COL_DONE + c] == 1:
        push(S, C, prm, g, K_GENQL, c, prm[PRM_COLUMN_BONUS_LEVEL], 0)
    rem = 0
    for r in range(3):
        if S.seat[g, p, NB + (r * 3 + c)] >= 0:
            rem |= 1 << (r * 3 + c)
    push_tiles(S, C, prm, g, p, rem)


@handler
def apply_tileorder(S, C, prm, g, p, act, a, b, c):
    """Resolve the chosen tile's main effect (A-UM-27)."""
    i = act - CH_TILEORDER
    push_tiles(S, C, prm, g, p, a & ~(1 << i))
    t = S.seat[g, p, NB + i]
    push(S, C, prm, g, K_EFFECT, C.K[KTILE, t, TILE_MAIN], C_TILE, -1)


@njit(cache=True, inline="always", _nrt=False)
def auto_inkpot_start(S, C, prm, g, p, act, a, b, c):
    """``K_INKPOT_START``: move the inkpot by the row value ``b``, or ask for the +-1 adjustment when ``a``
    Bright Ideas were placed (research UM §2)."""
    if a > 0:
        push(S, C, prm, g, D_INKPOT, a, b, 0)
    else:
        inkpot_move(S, C, prm, g, p, b)


@njit(cache=True, inline="always", _nrt=False)
def auto_inkpot(S, C, prm, g, p, act, a, b, c):
    """``K_INKPOT``: move the inkpot ``a`` spaces and activate the space it stops on (research UM §2)."""
    inkpot_move(S, C, prm, g, p, a)
