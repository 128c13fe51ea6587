"""Clients and dreams: therapy, catharsis, cure, heart boxes, new clients at the end of the turn
(research UM §4; A-UM-19, A-UM-24, A-UM-34). Decisions: ``D_TREAT``, ``D_THERAPY``, ``D_HEARTS``,
``D_NEWCLIENT``, ``D_MANIFEST``, ``K_CLIENTS``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler, plain

from ..codes import (C_CLIENT, C_NONE, C_PAY, C_TREAT, D_HEARTS, D_MANIFEST, D_NEWCLIENT, D_TREAT,
                     EV_CATH, EV_CLIENT, EV_CURE, EV_HEART, EV_INSIGHT, K_EFFECT)
from ..cols import (CDECK_CL, CDISP_CL, CL_OWNER, CL_WHERE, CTOP_CL, CURED, DR_GONE, END_TRIG, HEARTS, LAST_ROUND,
                    LDECK, LTOP, MDECK, MDISP, MTOP, RDECK_CL, RDISP_CL, RND, ROOM_CATH, ROOM_CLIENT, ROOM_LATENT,
                    ROOM_MANIFEST, ROOM_OPEN, ROOM_THER, RTOP_CL, TO_ACT)
from ..kcols import (CL_ABIL, CL_CATH, CL_START, CL_SYM, CL_VP, DR_CL, DR_CQ, DR_EFF, DR_SYM, I_N_CASE, I_N_LATENT,
                     I_N_MANIFEST, I_N_ROUTINE)
from ..pcols import (PRM_CASE_DISPLAY, PRM_CATHARSIS_SPACE, PRM_MANIFEST_DISPLAY, PRM_ROUTINE_DISPLAY,
                     PRM_SYMBOL_MATCH_HEARTS, PRM_THERAPY_MAX)
from ..actions import CH_CASE, CH_DREAM, CH_DREAM_DECK, CH_ROOM, CH_ROUTINE, DONE, N_ROOMS
from ..content_layout import KCLIENT, KDREAM
from .events import add_vp, ev, gain_heart
from .stack import push
from .insight import pay_pos, tok_move


@njit(cache=True, _nrt=False)
def catharsis(S, C, prm, g, p, room):
    """The client in ``room`` reaches catharsis: its grief bonus and ability resolve once, room 2 opens (research UM
    §4; A-UM-24)."""
    cl = S.seat[g, p, ROOM_CLIENT + room]
    S.seat[g, p, ROOM_CATH + room] = 1
    ev(S, C, prm, g, EV_CATH, p, C_CLIENT, 0, -1, cl, 0, room)
    if S.seat[g, p, ROOM_OPEN + 1] == 0:
        S.seat[g, p, ROOM_OPEN + 1] = 1
    # ability (unlocked at once, A-UM-24: a one-time effect) below the grief bonus on the stack
    push(S, C, prm, g, K_EFFECT, C.K[KCLIENT, cl, CL_ABIL], C_CLIENT, room)
    push(S, C, prm, g, K_EFFECT, C.K[KCLIENT, cl, CL_CATH], C_CLIENT, room)


@njit(cache=True, _nrt=False)
def cure(S, C, prm, g, p, room):
    """The client in ``room`` is cured: its VP, the room empties, its dreams leave the game (research UM §4)."""
    cl = S.seat[g, p, ROOM_CLIENT + room]
    S.client[g, cl, CL_OWNER] = p
    S.client[g, cl, CL_WHERE] = 3
    S.seat[g, p, CURED] += 1
    ev(S, C, prm, g, EV_CURE, p, C_CLIENT, C.K[KCLIENT, cl, CL_VP], -1, cl, 0, room)
    add_vp(S, C, prm, g, p, C.K[KCLIENT, cl, CL_VP], C_CLIENT, cl)
    if S.seat[g, p, ROOM_MANIFEST + room] >= 0:
        S.game[g, DR_GONE] += 1
        S.seat[g, p, ROOM_MANIFEST + room] = -1
    if S.seat[g, p, ROOM_LATENT + room] >= 0:
        S.game[g, DR_GONE] += 1
        S.seat[g, p, ROOM_LATENT + room] = -1
    S.seat[g, p, ROOM_CLIENT + room] = -1
    S.seat[g, p, ROOM_THER + room] = 0


@plain
def therapy_move(S, C, prm, g, p, room, n):
    """n therapy points on the client in ``room``: catharsis passing the star, cure at 0, excess -> boxes."""
    for _ in range(n):
        if S.seat[g, p, ROOM_CLIENT + room] < 0:
            gain_heart(S, C, prm, g, p, 1, C_CLIENT)
            continue
        S.seat[g, p, ROOM_THER + room] -= 1
        if S.seat[g, p, ROOM_CATH + room] == 0 and S.seat[g, p, ROOM_THER + room] <= prm[PRM_CATHARSIS_SPACE]:
            catharsis(S, C, prm, g, p, room)
        if S.seat[g, p, ROOM_THER + room] <= 0:
            cure(S, C, prm, g, p, room)


@njit(cache=True, _nrt=False)
def room_treatable(S, C, prm, g, p, room):
    """True when seat p can pay the top dream of the client in ``room`` (research UM §4)."""
    if S.seat[g, p, ROOM_CLIENT + room] < 0:
        return False
    d = S.seat[g, p, ROOM_MANIFEST + room]
    if d < 0:
        d = S.seat[g, p, ROOM_LATENT + room]
    if d < 0:
        return False
    return pay_pos(S, C, prm, g, p, C.K[KDREAM, d, DR_CQ], C.K[KDREAM, d, DR_CL]) >= 0


@njit(cache=True, _nrt=False)
def draw_latent(S, C, prm, g):
    """The top latent dream, or -1 when the deck is empty (research UM §4)."""
    if S.game[g, LTOP] < C.cnt[I_N_LATENT]:
        d = S.pile[g, LDECK, (S.game[g, LTOP])]
        S.game[g, LTOP] += 1
        return d
    return -1


@njit(cache=True, _nrt=False)
def draw_manifest(S, C, prm, g):
    """The top manifest dream, or -1 when the deck is empty (research UM §4)."""
    if S.game[g, MTOP] < C.cnt[I_N_MANIFEST]:
        d = S.pile[g, MDECK, (S.game[g, MTOP])]
        S.game[g, MTOP] += 1
        return d
    return -1


@handler
def end_clients(S, C, prm, g, p, act, a, b, c):
    """End of turn: take a new client for each empty open room (never in the final round).

    ``K_CLIENTS`` handler: new clients and dreams at the end of the turn, none in the final round (research UM §4; A-UM-19)."""
    p = S.game[g, TO_ACT]
    final = S.game[g, END_TRIG] == 1 and S.game[g, RND] >= S.game[g, LAST_ROUND]
    for room in range(1, -1, -1):
        if S.seat[g, p, ROOM_OPEN + room] == 0:
            continue
        if S.seat[g, p, ROOM_CLIENT + room] < 0:
            if final:
                continue
            avail = False
            for k in range(prm[PRM_ROUTINE_DISPLAY]):
                if S.pile[g, RDISP_CL, k] >= 0:
                    avail = True
            for k in range(prm[PRM_CASE_DISPLAY]):
                if S.pile[g, CDISP_CL, k] >= 0:
                    avail = True
            if avail:
                push(S, C, prm, g, D_NEWCLIENT, room, 0, 0)
        elif S.seat[g, p, ROOM_MANIFEST + room] < 0 and S.seat[g, p, ROOM_LATENT + room] < 0:
            S.seat[g, p, ROOM_LATENT + room] = draw_latent(S, C, prm, g)  # A-UM-19


@handler
def legal_treat(S, C, prm, g, p, a, b, out):
    """Rooms whose client's top dream the seat can pay (research UM §4)."""
    for room in range(N_ROOMS):
        if (a >> room) & 1 == 0 and room_treatable(S, C, prm, g, p, room):
            out[CH_ROOM + room] = True
    if a != 0:
        out[DONE] = True


@handler
def legal_therapy(S, C, prm, g, p, a, b, out):
    """Rooms whose client can take therapy (research UM §4)."""
    for room in range(N_ROOMS):
        if S.seat[g, p, ROOM_CLIENT + room] >= 0:
            out[CH_ROOM + room] = True
    if not (out[CH_ROOM] or out[CH_ROOM + 1]):
        out[DONE] = True


@handler
def legal_hearts(S, C, prm, g, p, a, b, out):
    """Rooms where a heart box may be spent at the end of the turn (research UM §4)."""
    if S.seat[g, p, HEARTS] > 0:
        for room in range(N_ROOMS):
            if S.seat[g, p, ROOM_CLIENT + room] >= 0:
                out[CH_ROOM + room] = True
    out[DONE] = True


@handler
def legal_newclient(S, C, prm, g, p, a, b, out):
    """A face-up Routine or Case Study client for an empty open room (research UM §4)."""
    for k in range(prm[PRM_ROUTINE_DISPLAY]):
        if S.pile[g, RDISP_CL, k] >= 0:
            out[CH_ROUTINE + k] = True
    for k in range(prm[PRM_CASE_DISPLAY]):
        if S.pile[g, CDISP_CL, k] >= 0:
            out[CH_CASE + k] = True


@handler
def legal_manifest(S, C, prm, g, p, a, b, out):
    """A face-up manifest dream or the top of the deck (research UM §4)."""
    for k in range(prm[PRM_MANIFEST_DISPLAY]):
        if S.pile[g, MDISP, k] >= 0:
            out[CH_DREAM + k] = True
    if S.game[g, MTOP] < C.cnt[I_N_MANIFEST]:
        out[CH_DREAM_DECK] = True
    anyl = False
    for i in range(out.shape[0]):
        if out[i]:
            anyl = True
    if not anyl:
        out[DONE] = True


@handler
def apply_treat(S, C, prm, g, p, act, a, b, c):
    """Pay the top dream (manifest first) and resolve its hearts; symbol match gains a heart box (research UM §4;
    A-UM-34)."""
    if act == DONE:
        return
    room = act - CH_ROOM
    push(S, C, prm, g, D_TREAT, a | (1 << room), 0, 0)
    d = S.seat[g, p, ROOM_MANIFEST + room]
    manifest = d >= 0
    if manifest:
        S.seat[g, p, ROOM_MANIFEST + room] = -1
    else:
        d = S.seat[g, p, ROOM_LATENT + room]
        S.seat[g, p, ROOM_LATENT + room] = -1
    pos = pay_pos(S, C, prm, g, p, C.K[KDREAM, d, DR_CQ], C.K[KDREAM, d, DR_CL])
    tok_move(S, C, prm, g, p, pos, 0)
    ev(S, C, prm, g, EV_INSIGHT, p, C_PAY, 1, -1, pos - 1, 0, d)
    S.game[g, DR_GONE] += 1
    cl = S.seat[g, p, ROOM_CLIENT + room]
    if manifest and C.K[KDREAM, d, DR_SYM] == C.K[KCLIENT, cl, CL_SYM]:
        gain_heart(S, C, prm, g, p, prm[PRM_SYMBOL_MATCH_HEARTS], C_CLIENT)
    ev(S, C, prm, g, EV_CLIENT, p, C_TREAT, 0, -1, cl, 0, d)
    push(S, C, prm, g, K_EFFECT, C.K[KDREAM, d, DR_EFF], C_CLIENT, room)


@handler
def apply_therapy(S, C, prm, g, p, act, a, b, c):
    """Therapy for the chosen room's client (research UM §4)."""
    if act == DONE:
        return
    therapy_move(S, C, prm, g, p, act - CH_ROOM, a)


@handler
def apply_hearts(S, C, prm, g, p, act, a, b, c):
    """Spend a heart box as therapy (research UM §4)."""
    ch = act - CH_ROOM
    if act == DONE:
        return
    S.seat[g, p, HEARTS] -= 1
    ev(S, C, prm, g, EV_HEART, p, C_TREAT, -1, -1, ch, 0, 0)
    push(S, C, prm, g, D_HEARTS, 0, 0, 0)
    therapy_move(S, C, prm, g, p, ch, 1)


@handler
def apply_newclient(S, C, prm, g, p, act, a, b, c):
    """Take the client with a latent dream, then choose its manifest dream (research UM §4; A-UM-19)."""
    room = a
    if act < CH_CASE:
        k = act - CH_ROUTINE
        cl = S.pile[g, RDISP_CL, k]
        S.pile[g, RDISP_CL, k] = -1
        if S.game[g, RTOP_CL] < C.cnt[I_N_ROUTINE]:
            S.pile[g, RDISP_CL, k] = S.pile[g, RDECK_CL, (S.game[g, RTOP_CL])]
            S.game[g, RTOP_CL] += 1
    else:
        k = act - CH_CASE
        cl = S.pile[g, CDISP_CL, k]
        S.pile[g, CDISP_CL, k] = -1
        if S.game[g, CTOP_CL] < C.cnt[I_N_CASE]:
            S.pile[g, CDISP_CL, k] = S.pile[g, CDECK_CL, (S.game[g, CTOP_CL])]
            S.game[g, CTOP_CL] += 1
    S.seat[g, p, ROOM_CLIENT + room] = cl
    S.client[g, cl, CL_WHERE] = 2
    S.seat[g, p, ROOM_THER + room] = min(C.K[KCLIENT, cl, CL_START], prm[PRM_THERAPY_MAX])
    S.seat[g, p, ROOM_CATH + room] = 0
    S.seat[g, p, ROOM_LATENT + room] = draw_latent(S, C, prm, g)
    ev(S, C, prm, g, EV_CLIENT, p, C_NONE, S.seat[g, p, ROOM_THER + room], -1, cl, 0, room)
    push(S, C, prm, g, D_MANIFEST, room, 0, 0)


@handler
def apply_manifest(S, C, prm, g, p, act, a, b, c):
    """Put the manifest dream on the new client (research UM §4)."""
    if act == DONE:
        return
    room = a
    if act == CH_DREAM_DECK:
        d = draw_manifest(S, C, prm, g)
    else:
        k = act - CH_DREAM
        d = S.pile[g, MDISP, k]
        S.pile[g, MDISP, k] = draw_manifest(S, C, prm, g)
    S.seat[g, p, ROOM_MANIFEST + room] = d
