"""The reputation clock: Freud's and the seats' markers, face lines, the end trigger and the
reputation-track sections (research UM §7, §2; A-UM-10, A-UM-25). Decision: ``D_REPACT``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler, plain

from ..codes import C_END_TRIGGER, C_FREUD, C_NONE, C_REPTRACK, EV_END, EV_FREUD, EV_MOVE, EV_REP, K_EFFECT
from ..cols import END_TRIG, FREUD_LOC, FREUD_REP, LAST_ROUND, REP, REP_ORDER, REP_SEQ, RND, TO_ACT
from ..kcols import I_N_SECTIONS, SEC_ACTION, SEC_FIRST
from ..pcols import PRM_END_TRIGGER_VP, PRM_FACE_LINES, PRM_FACE_LINES_N, PRM_TRACK_LENGTH
from ..actions import CH_REPACT, DONE
from ..state import N_LOCATIONS
from ..content_layout import KBOARD
from .events import add_vp, ev
from .stack import push


@njit(cache=True, _nrt=False)
def face_crossed(S, C, prm, old, new):
    """Face lines (``Params.face_lines``, A-UM-10) crossed moving a reputation marker from ``old`` to ``new``."""
    n = 0
    for fi in range(prm[PRM_FACE_LINES_N]):
        f = prm[PRM_FACE_LINES + fi]
        if old < f <= new:
            n += 1
    return n


@plain
def freud_step(S, C, prm, g, causer):
    """Freud's reputation marker advances one space (always first); reaching the end triggers the end."""
    if S.game[g, FREUD_REP] >= prm[PRM_TRACK_LENGTH]:
        return
    old = S.game[g, FREUD_REP]
    S.game[g, FREUD_REP] = old + 1
    ev(S, C, prm, g, EV_FREUD, causer if causer >= 0 else S.game[g, TO_ACT], C_NONE, 1, -1, old + 1, 0, 0)
    k = face_crossed(S, C, prm, old, old + 1)
    if k > 0:
        S.game[g, FREUD_LOC] = (S.game[g, FREUD_LOC] + k) % N_LOCATIONS
        ev(S, C, prm, g, EV_MOVE, S.game[g, TO_ACT], C_FREUD, k, -1, S.game[g, FREUD_LOC], 0, 0)
    if S.game[g, FREUD_REP] >= prm[PRM_TRACK_LENGTH] and S.game[g, END_TRIG] == 0:
        S.game[g, END_TRIG] = 1
        S.game[g, LAST_ROUND] = S.game[g, RND] + 1
        ev(S, C, prm, g, EV_END, causer if causer >= 0 else S.game[g, TO_ACT], C_END_TRIGGER, 0, causer, S.game[g, RND], 0, 0)
        if causer >= 0:
            add_vp(S, C, prm, g, causer, prm[PRM_END_TRIGGER_VP], C_END_TRIGGER, -1)


@plain
def gain_rep(S, C, prm, g, p, n, cat):
    """Seat p gains ``n`` reputation: Freud's marker steps first each time; face lines move Freud's figure (research
    UM §7, A-UM-10)."""
    for _ in range(n):
        freud_step(S, C, prm, g, p)
        if S.seat[g, p, REP] < prm[PRM_TRACK_LENGTH]:
            old = S.seat[g, p, REP]
            S.seat[g, p, REP] = old + 1
            S.game[g, REP_SEQ] += 1
            S.seat[g, p, REP_ORDER] = S.game[g, REP_SEQ]
            ev(S, C, prm, g, EV_REP, p, cat, 1, -1, old + 1, 0, 0)
            k = face_crossed(S, C, prm, old, old + 1)
            if k > 0:
                S.game[g, FREUD_LOC] = (S.game[g, FREUD_LOC] + k) % N_LOCATIONS
                ev(S, C, prm, g, EV_MOVE, p, C_FREUD, k, -1, S.game[g, FREUD_LOC], 0, 0)


@njit(cache=True, _nrt=False)
def marker_ahead(S, C, prm, g, a, b):
    """True when seat a's reputation marker is ahead of seat b's: further along the track, or on the same space
    and underneath it (arrived earlier). The one definition of "ahead" (end-of-track bonus, tie-break; A-UM-25)."""
    ra = S.seat[g, a, REP]
    rb = S.seat[g, b, REP]
    if ra != rb:
        return ra > rb
    return S.seat[g, a, REP_ORDER] < S.seat[g, b, REP_ORDER]


@njit(cache=True, _nrt=False)
def batch_markers_ahead(S, C, prm, out):
    """``out[g, p]``: how many seats' reputation markers are ahead of seat p's (:func:`marker_ahead`)."""
    P = S.seat.shape[1]
    for g in range(out.shape[0]):
        for p in range(P):
            n = 0
            for q in range(P):
                if q != p and marker_ahead(S, C, prm, g, q, p):
                    n += 1
            out[g, p] = n


@njit(cache=True, _nrt=False)
def section_of(S, C, prm, pos):
    """The reputation-track section (content ``sec_first``) of space ``pos`` (research UM §2, A-UM-17)."""
    s = 0
    for i in range(C.cnt[I_N_SECTIONS]):
        if pos >= C.K[KBOARD, i, SEC_FIRST]:
            s = i
    return s


@handler
def legal_repact(S, C, prm, g, p, a, b, out):
    """The action of the reputation-track section Freud is in, or decline (research UM §2)."""
    for k in range(a + 1):
        out[CH_REPACT + k] = True
    out[DONE] = True


@handler
def apply_repact(S, C, prm, g, p, act, a, b, c):
    """Resolve the section action (research UM §2)."""
    if act == DONE:
        return
    push(S, C, prm, g, K_EFFECT, C.K[KBOARD, act - CH_REPACT, SEC_ACTION], C_REPTRACK, -1)
