"""The Meeting Table: which actions a seat may take and performing them (seed 000 §Meeting Table
Actions; research UM §2; A-UM-30). Decisions: ``D_MODE`` (how many Ideas / Bright Ideas), ``K_PERFORM``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler, plain

from ..codes import (C_NONE, C_TILE_COST, D_ELXF, D_FREUD, D_PROF, D_RESPLAY, D_SWAP, D_TILE_SRC, EV_IDEA,
                     K_INKPOT_START, K_PERFORM, MT_DRAW, MT_ELEV, MT_GEN, MT_PLAY, MT_PROF, MT_RIGHT, OPT_STATE)
from ..cols import BRIGHT, COFFEE, IDEAS_HAND, SPACE_ACT, SPACE_BRIGHT, SPACE_N, SPACE_OWNER, TRDISP, T_ACT, T_OPT
from ..kcols import ACT_MOVE
from ..pcols import (PRM_INSIGHT_ELEVATIONS, PRM_INSIGHT_TRANSFERS, PRM_RESEARCH_PLAY_MAX, PRM_TILE_COST,
                     PRM_TREATISE_DISPLAY)
from ..actions import MODE0, MODE_BRIGHT, MODE_NORMAL
from ..content_layout import KBOARD
from .events import ev, spend_coffee
from .stack import push
from .insight import generate
from .research import draw_card, hand_size
from .treatises import publishable


@njit(cache=True, _nrt=False)
def own_points_at(S, C, prm, g, p, act):
    """True when one of seat p's Ideas already points at Meeting Table action ``act`` (research UM §2)."""
    for s in range(S.space.shape[1]):
        if S.space[g, s, SPACE_OWNER] == p and S.space[g, s, SPACE_ACT] == act:
            return True
    return False


@plain
def can_perform(S, C, prm, g, p, act, times):
    """True when seat p can perform action ``act`` ``times`` times (Coffee for tile spaces paid in full each time:
    seed 000 §Gaining Notebook tiles; A-UM-30)."""
    if act <= MT_RIGHT:
        return S.seat[g, p, COFFEE] >= prm[PRM_TILE_COST + act] * times
    if act == MT_PLAY:
        if hand_size(S, C, prm, g, p) > 0:
            return True
        for k in range(prm[PRM_TREATISE_DISPLAY]):
            if publishable(S, C, prm, g, p, S.pile[g, TRDISP, k]):
                return True
        return False
    return True


@handler
def perform(S, C, prm, g, p, act, mt, b, c):
    """``K_PERFORM`` handler: perform Meeting Table action ``mt`` once, paid in full each time (seed 000 §Meeting
    Table Actions, §Gaining Notebook tiles)."""
    if mt <= MT_RIGHT:
        spend_coffee(S, C, prm, g, p, prm[PRM_TILE_COST + mt], C_TILE_COST, mt)
        push(S, C, prm, g, D_TILE_SRC, mt, 0, 0)
    elif mt == MT_GEN:
        for q in range(3):
            generate(S, C, prm, g, p, q, 0)
    elif mt == MT_ELEV:
        push(S, C, prm, g, D_ELXF, prm[PRM_INSIGHT_ELEVATIONS], prm[PRM_INSIGHT_TRANSFERS], 0)
    elif mt == MT_DRAW:
        draw_card(S, C, prm, g, p)
        push(S, C, prm, g, D_SWAP, 0, 0, 0)
    elif mt == MT_PLAY:
        push(S, C, prm, g, D_RESPLAY, prm[PRM_RESEARCH_PLAY_MAX], 0, 0)
    elif mt == MT_PROF:
        push(S, C, prm, g, D_PROF, 0, 0, 0)
    else:
        push(S, C, prm, g, D_FREUD, 0, 0, 0)


@handler
def legal_mode(S, C, prm, g, p, a, b, out):
    """How many Ideas / Bright Ideas to place (research UM §2); two Ideas on a Coffee action need Coffee for both at
    placement (A-UM-30)."""
    act = b
    for m in range(5):
        nn = MODE_NORMAL[m]
        nbr = MODE_BRIGHT[m]
        if nn <= S.seat[g, p, IDEAS_HAND] and nbr <= S.seat[g, p, BRIGHT] and can_perform(S, C, prm, g, p, act, nn + nbr):
            out[MODE0 + m] = True


@handler
def apply_mode(S, C, prm, g, p, act, a, b, c):
    """Place the Ideas (research UM §2), then perform the action once per Idea (``K_PERFORM``) and move the inkpot
    (``K_INKPOT_START``)."""
    m = act - MODE0
    nn = MODE_NORMAL[m]
    nbr = MODE_BRIGHT[m]
    s = a
    mt = b
    S.game[g, T_OPT] = OPT_STATE
    S.game[g, T_ACT] = mt
    S.space[g, s, SPACE_OWNER] = p
    S.space[g, s, SPACE_ACT] = mt
    S.space[g, s, SPACE_N] = nn
    S.space[g, s, SPACE_BRIGHT] = nbr
    S.seat[g, p, IDEAS_HAND] -= nn
    S.seat[g, p, BRIGHT] -= nbr
    ev(S, C, prm, g, EV_IDEA, p, C_NONE, nn + nbr, -1, s, nbr, mt)
    push(S, C, prm, g, K_INKPOT_START, nbr, C.K[KBOARD, mt, ACT_MOVE], 0)
    for _ in range(nn + nbr):
        push(S, C, prm, g, K_PERFORM, mt, 0, 0)
