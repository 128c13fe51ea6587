"""Publishing and citing Treatises (seed 000 §Publishing a Treatise, §Citing Treatises; A-UM-33):
feasibility of the Volumes, the quill Volume, gathering (own in-play cards or citations) and the finish.
Decisions: ``D_QUILL``, ``D_GATHER``, ``K_PUBLISH``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler

from ..codes import (COLOUR_PUBLISH, C_CITED, C_CITED_BRIGHT, C_TREATISE, D_GATHER, EV_CITE, EV_PUBLISH, K_PUBLISH,
                     L_INPLAY, L_TREATISE)
from ..cols import CARD_LOC, CARD_OWN, PUB_CITED, PUB_FILL, PUB_T, TRDECK, TRDISP, TRTOP, TR_CARDS, TR_N, TR_OWNER
from ..kcols import CARD_COL, TR_CITE_VP, TR_COLS, TR_LEN, TR_VP
from ..pcols import PRM_CITE_BRIGHT_IDEAS, PRM_TREATISE_DISPLAY
from ..actions import CARD0, CH_CITE
from ..state import MAX_VOLUMES, WK_CF_CAND, WK_CF_NEED, WK_CF_TAKE, WK_NEED, WK_OWN
from ..content_layout import KCARD, KTR
from .events import add_vp, ev, gain_bright
from .stack import push
from .insight import has_colour, take_colour


@njit(cache=True, _nrt=False)
def own_counts(S, C, prm, g, p, out):
    """``out[colour]`` (``int64[4]``) += seat p's in-play Research cards of each colour (seed 000 §Publishing a
    Treatise step 3)."""
    for k in range(4):
        out[k] = 0
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p:
            out[C.K[KCARD, c, CARD_COL]] += 1


@njit(cache=True, _nrt=False)
def covered(need, own):
    """True when ``own`` (``int64[4]`` per colour) covers ``need`` (seed 000 §Publishing a Treatise step 3: exact
    colours)."""
    for c in range(4):
        if need[c] > own[c]:
            return False
    return True


@njit(cache=True, _nrt=False)
def cite_feasible(S, C, prm, g, p, need0, own):
    """Can the Volumes ``need0`` be gathered from own in-play cards ``own`` plus citations?

    Citations take the rightmost card of another player's Treatise, working inward, only Volumes still
    needed. Iterative depth-first search over how many Volumes to take from each citable Treatise. Works in
    the scratch rows ``S.work[WK_CF_NEED]``, ``[WK_CF_CAND]``, ``[WK_CF_TAKE]`` (``need0`` and ``own`` must be
    other rows or arrays).
    """
    need = S.work[WK_CF_NEED]
    for col in range(4):
        need[col] = need0[col]
    if covered(need, own):
        return True
    nt = S.treatise.shape[1]
    cand = S.work[WK_CF_CAND]
    nc = 0
    for k in range(nt):
        q = S.treatise[g, k, TR_OWNER]
        if q >= 0 and q != p and S.treatise[g, k, TR_N] > 0:
            cand[nc] = k
            nc += 1
    if nc == 0:
        return False
    m = S.work[WK_CF_TAKE]
    m[0] = 0
    d = 0
    while True:
        if covered(need, own):
            return True
        if d + 1 < nc:
            d += 1
            m[d] = 0
            continue
        # deepest level: take one more Volume here, or undo and backtrack
        while d >= 0:
            k = cand[d]
            n = S.treatise[g, k, TR_N]
            if m[d] < n:
                col = C.K[KCARD, S.treatise[g, k, TR_CARDS + (n - 1 - m[d])], CARD_COL]
                if need[col] > 0:
                    need[col] -= 1
                    m[d] += 1
                    break
            for j in range(m[d]):
                need[C.K[KCARD, S.treatise[g, k, TR_CARDS + (n - 1 - j)], CARD_COL]] += 1
            m[d] = 0
            d -= 1
        if d < 0:
            return False


@njit(cache=True, _nrt=False)
def need_counts(S, C, prm, g, t, out):
    """``out[colour]`` (``int64[4]``) += Volumes of Treatise t still to gather (seed 000 §Publishing a Treatise step
    3)."""
    for k in range(4):
        out[k] = 0
    for i in range(C.K[KTR, t, TR_LEN]):
        if S.game[g, PUB_FILL + i] < 0:
            out[C.K[KTR, t, TR_COLS + i]] += 1


@njit(cache=True, _nrt=False)
def publishable(S, C, prm, g, p, t):
    """Treatise t can be published by p: a colour Insight, a quill card, and the rest gatherable (scratch rows
    ``S.work[WK_OWN]``, ``[WK_NEED]``)."""
    if t < 0 or not has_colour(S, C, prm, g, p):
        return False
    own = S.work[WK_OWN]
    own_counts(S, C, prm, g, p, own)
    qc = C.K[KTR, t, TR_COLS + 0]
    if own[qc] < 1:
        return False
    own[qc] -= 1
    need = S.work[WK_NEED]
    for k in range(4):
        need[k] = 0
    for i in range(1, C.K[KTR, t, TR_LEN]):
        need[C.K[KTR, t, TR_COLS + i]] += 1
    return cite_feasible(S, C, prm, g, p, need, own)


@njit(cache=True, _nrt=False)
def fill_slot(S, C, prm, g, t, card):
    """Put ``card`` in the leftmost free Volume slot of its colour of the Treatise being published (seed 000
    §Publishing a Treatise step 4; A-UM-33)."""
    col = C.K[KCARD, card, CARD_COL]
    for i in range(C.K[KTR, t, TR_LEN]):
        if S.game[g, PUB_FILL + i] < 0 and C.K[KTR, t, TR_COLS + i] == col:
            S.game[g, PUB_FILL + i] = card
            S.treatise[g, t, TR_CARDS + i] = card
            S.card[g, card, CARD_LOC] = L_TREATISE
            S.card[g, card, CARD_OWN] = t
            return
    raise RuntimeError("no Volume slot for the card")


@njit(cache=True, _nrt=False)
def gather_left(S, C, prm, g, t):
    """Volume slots of Treatise t still empty (seed 000 §Publishing a Treatise step 3)."""
    n = 0
    for i in range(C.K[KTR, t, TR_LEN]):
        if S.game[g, PUB_FILL + i] < 0:
            n += 1
    return n


@handler
def publish_finish(S, C, prm, g, p, act, t, b, c):
    """``K_PUBLISH`` handler: finish publishing Treatise ``t`` (seed 000 §Publishing a Treatise steps 4-6, §Citing
    Treatises: one Bright Idea per cited player)."""
    S.treatise[g, t, TR_OWNER] = p
    S.treatise[g, t, TR_N] = C.K[KTR, t, TR_LEN]
    take_colour(S, C, prm, g, p, COLOUR_PUBLISH)
    ev(S, C, prm, g, EV_PUBLISH, p, C_TREATISE, C.K[KTR, t, TR_VP], -1, t, 0, C.K[KTR, t, TR_LEN])
    add_vp(S, C, prm, g, p, C.K[KTR, t, TR_VP], C_TREATISE, t)
    for q in range(S.seat.shape[1]):
        if S.seat[g, q, PUB_CITED] > 0:
            gain_bright(S, C, prm, g, q, prm[PRM_CITE_BRIGHT_IDEAS], C_CITED_BRIGHT, p)
            S.seat[g, q, PUB_CITED] = 0
    for i in range(MAX_VOLUMES):
        S.game[g, PUB_FILL + i] = -1
    S.game[g, PUB_T] = -1
    # refill the display slot left empty
    for k in range(prm[PRM_TREATISE_DISPLAY]):
        if S.pile[g, TRDISP, k] < 0 and S.game[g, TRTOP] < S.treatise.shape[1]:
            S.pile[g, TRDISP, k] = S.pile[g, TRDECK, (S.game[g, TRTOP])]
            S.game[g, TRTOP] += 1


@handler
def legal_quill(S, C, prm, g, p, a, b, out):
    """In-play cards of the quill (leftmost) Volume's colour (seed 000 §Publishing a Treatise step 2)."""
    qc = C.K[KTR, a, TR_COLS + 0]
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p and C.K[KCARD, c, CARD_COL] == qc:
            out[CARD0 + c] = True


@handler
def legal_gather(S, C, prm, g, p, a, b, out):
    """Own in-play cards or citations that keep the Treatise completable, exact colours, no spare Volume (seed 000
    §Publishing a Treatise step 3, §Citing Treatises). Scratch rows ``S.work[WK_NEED]``, ``[WK_OWN]``."""
    t = a
    need = S.work[WK_NEED]
    own = S.work[WK_OWN]
    need_counts(S, C, prm, g, t, need)
    own_counts(S, C, prm, g, p, own)
    for col in range(4):
        if need[col] > 0 and own[col] > 0:
            need[col] -= 1
            own[col] -= 1
            if cite_feasible(S, C, prm, g, p, need, own):
                for c in range(S.card.shape[1]):
                    if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p and C.K[KCARD, c, CARD_COL] == col:
                        out[CARD0 + c] = True
            need[col] += 1
            own[col] += 1
    for k in range(S.treatise.shape[1]):
        q = S.treatise[g, k, TR_OWNER]
        if q < 0 or q == p or S.treatise[g, k, TR_N] == 0:
            continue
        col = C.K[KCARD, S.treatise[g, k, TR_CARDS + (S.treatise[g, k, TR_N] - 1)], CARD_COL]
        if need[col] <= 0:
            continue
        need[col] -= 1
        S.treatise[g, k, TR_N] -= 1
        if cite_feasible(S, C, prm, g, p, need, own):
            out[CH_CITE + k] = True
        S.treatise[g, k, TR_N] += 1
        need[col] += 1


@handler
def apply_quill(S, C, prm, g, p, act, a, b, c):
    """Set the quill Volume aside and gather the rest (seed 000 §Publishing a Treatise steps 2-3)."""
    t = a
    fill_slot(S, C, prm, g, t, act - CARD0)
    if gather_left(S, C, prm, g, t) > 0:
        push(S, C, prm, g, D_GATHER, t, 0, 0)
    else:
        push(S, C, prm, g, K_PUBLISH, t, 0, 0)


@handler
def apply_gather(S, C, prm, g, p, act, a, b, c):
    """Use an in-play card as a Volume or cite the rightmost card of another player's Treatise, scoring its owner 2
    VP per Volume (seed 000 §Citing Treatises)."""
    t = a
    if act >= CARD0:
        fill_slot(S, C, prm, g, t, act - CARD0)
    else:
        k = act - CH_CITE
        n = S.treatise[g, k, TR_N] - 1
        card = S.treatise[g, k, TR_CARDS + n]
        S.treatise[g, k, TR_CARDS + n] = -1
        S.treatise[g, k, TR_N] = n
        q = S.treatise[g, k, TR_OWNER]
        fill_slot(S, C, prm, g, t, card)
        S.seat[g, q, PUB_CITED] += 1
        ev(S, C, prm, g, EV_CITE, p, C_CITED, C.K[KTR, k, TR_CITE_VP], q, k, t, 1)
        add_vp(S, C, prm, g, q, C.K[KTR, k, TR_CITE_VP], C_CITED, k)
    if gather_left(S, C, prm, g, t) > 0:
        push(S, C, prm, g, D_GATHER, t, 0, 0)
    else:
        push(S, C, prm, g, K_PUBLISH, t, 0, 0)
