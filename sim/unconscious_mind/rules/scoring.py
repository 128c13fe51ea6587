"""Final scoring (research UM §7; A-UM-11, A-UM-12, A-UM-25).
"""

from __future__ import annotations

from numba import njit

from ..codes import (CLIENT_CASE, C_END_BRIGHT, C_END_CASE, C_END_DISTRICTS, C_END_HEARTS, C_END_REP, C_END_ROWS,
                     C_END_TAGS, C_END_TRACK, END_PER_CURED, END_PER_HEART, END_PER_INPLAY, END_PER_TREATISE,
                     L_INPLAY)
from ..cols import (BRIGHT, CARD_LOC, CARD_OWN, CL_OWNER, COFFEE, CURED, DIST_SLOT, DIST_SLOT_W, HEARTS, REP,
                    ROW_DONE, TR_OWNER)
from ..kcols import CL_END, CL_END_W, CL_KIND
from ..pcols import (PRM_BRIGHT_VP, PRM_COFFEE_PER_BRIGHT, PRM_DISTRICT_VP, PRM_FULL_ROWS_VP, PRM_HEART_BOX_VP,
                     PRM_REPUTATION_VP, PRM_TRACK_BONUS_FIRST, PRM_TRACK_BONUS_SECOND, PRM_UNIQUE_TAGS_VP)
from ..state import N_LOCATIONS, WK_ORDER
from ..content_layout import KCLIENT
from .events import add_vp
from .reputation import marker_ahead
from .city import tags_at


@njit(cache=True, _nrt=False)
def final_scoring(S, C, prm, g):
    """Final scoring of game g (research UM §7; A-UM-11, A-UM-12, A-UM-25): reputation space, end-of-track bonus,
    districts, full rows, tags, Case Study scoring, heart boxes, Coffee to Bright Ideas (scratch row
    ``S.work[WK_ORDER]``)."""
    P = S.seat.shape[1]
    # end-of-track bonus: furthest and second furthest marker (arrived earlier = underneath = ahead)
    order = S.work[WK_ORDER]
    for i in range(P):
        order[i] = i
    for i in range(P):
        for j in range(P - 1 - i):
            a = order[j]
            b = order[j + 1]
            if marker_ahead(S, C, prm, g, b, a):
                order[j] = b
                order[j + 1] = a
    for p in range(P):
        add_vp(S, C, prm, g, p, prm[PRM_REPUTATION_VP + (S.seat[g, p, REP])], C_END_REP, S.seat[g, p, REP])
    for k in range(min(2, P)):
        p = order[k]
        ntr = 0
        for t in range(S.treatise.shape[1]):
            if S.treatise[g, t, TR_OWNER] == p:
                ntr += 1
        per = prm[PRM_TRACK_BONUS_FIRST] if k == 0 else prm[PRM_TRACK_BONUS_SECOND]
        add_vp(S, C, prm, g, p, per * (ntr + S.seat[g, p, CURED]), C_END_TRACK, k)
    for p in range(P):
        nd = 0
        for d in range(3):
            has = False
            for s in range(4):
                if S.game[g, DIST_SLOT + d * DIST_SLOT_W + s] == p:
                    has = True
            if has:
                nd += 1
        add_vp(S, C, prm, g, p, prm[PRM_DISTRICT_VP + nd], C_END_DISTRICTS, nd)
        rows = 0
        for r in range(3):
            rows += S.seat[g, p, ROW_DONE + r]
        add_vp(S, C, prm, g, p, prm[PRM_FULL_ROWS_VP + rows], C_END_ROWS, rows)
        uniq = 0
        for loc in range(N_LOCATIONS):
            if tags_at(S, C, prm, g, p, loc) > 0:
                uniq += 1
        add_vp(S, C, prm, g, p, prm[PRM_UNIQUE_TAGS_VP + uniq], C_END_TAGS, uniq)
        case_vp = 0
        for cl in range(S.client.shape[1]):
            if S.client[g, cl, CL_OWNER] == p and C.K[KCLIENT, cl, CL_KIND] == CLIENT_CASE:
                for j in range(2):
                    op = C.K[KCLIENT, cl, CL_END + j * CL_END_W + 0]
                    n = C.K[KCLIENT, cl, CL_END + j * CL_END_W + 1]
                    if op == END_PER_CURED:
                        case_vp += n * S.seat[g, p, CURED]
                    elif op == END_PER_TREATISE:
                        for t in range(S.treatise.shape[1]):
                            if S.treatise[g, t, TR_OWNER] == p:
                                case_vp += n
                    elif op == END_PER_INPLAY:
                        for c in range(S.card.shape[1]):
                            if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p:
                                case_vp += n
                    elif op == END_PER_HEART:
                        case_vp += n * S.seat[g, p, HEARTS]
        add_vp(S, C, prm, g, p, case_vp, C_END_CASE, -1)
        add_vp(S, C, prm, g, p, prm[PRM_HEART_BOX_VP] * S.seat[g, p, HEARTS], C_END_HEARTS, S.seat[g, p, HEARTS])
        nb = S.seat[g, p, COFFEE] // prm[PRM_COFFEE_PER_BRIGHT] + S.seat[g, p, BRIGHT]
        add_vp(S, C, prm, g, p, prm[PRM_BRIGHT_VP] * nb, C_END_BRIGHT, nb)
