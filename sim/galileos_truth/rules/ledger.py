"""VP, Suspicion, Books and payments: every change of a seat's tracks, with its event row."""

from __future__ import annotations

from meeplelab.sim.core.logs import begin_event_row

from ..cols import ACT_VP, BOOKS, CYCLE, PHIL, SUSP, TO_ACT, TURN, VP, VP_CAT, VP_EV
from meeplelab.sim.core.jit import rule
from ..logcols import EV_AFTER, EV_AMOUNT, EV_BEFORE, EV_CATEGORY, EV_CYCLE, EV_ITEM, EV_TARGET_SEAT
from ..state import E_PRISON, E_STAKE, E_SUSP, E_VP, PH_PRISON, PH_STAKE
from ..pcols import PRM_BOOK_LEVEL_STARTS, PRM_BOOK_TRACK_MAX, PRM_PRISON_AT, PRM_STAKE_AT, PRM_SUSPICION_MAX


@rule
def ev(S, g, seat, kind, cat, amount, target, item, before, after):
    """Append one event row (core ply, turn, seat, kind + category, amount, target, item, cycle, before, after)."""
    b = S.event_buf
    r = begin_event_row(b, S.event_n, g, S.ply[g], S.game[g, TURN], seat, kind)
    b[g, r, EV_CATEGORY] = cat
    b[g, r, EV_AMOUNT] = amount
    b[g, r, EV_TARGET_SEAT] = target
    b[g, r, EV_ITEM] = item
    b[g, r, EV_CYCLE] = S.game[g, CYCLE]
    b[g, r, EV_BEFORE] = before
    b[g, r, EV_AFTER] = after


@rule
def add_vp(S, g, p, n, cat, item):
    """Every VP change goes through here: total, category, running event sum, and a ``vp`` event."""
    if n == 0:
        return
    before = S.seat[g, p, VP]
    S.seat[g, p, VP] += n
    S.seat[g, p, VP_CAT + cat] += n
    S.seat[g, p, VP_EV] += n
    if p == S.game[g, TO_ACT]:
        S.game[g, ACT_VP] += n
    ev(S, g, p, E_VP, cat, n, -1, item, before, S.seat[g, p, VP])


@rule
def add_susp(S, prm, g, p, d, cause, target):
    """Move a Suspicion marker (clamped to the track); Prison / Stake when reached going up."""
    before = S.seat[g, p, SUSP]
    after = before + d
    if after < 0:
        after = 0
    if after > prm[PRM_SUSPICION_MAX]:
        after = prm[PRM_SUSPICION_MAX]
    if after == before:
        return
    S.seat[g, p, SUSP] = after
    ev(S, g, p, E_SUSP, cause, after - before, target, -1, before, after)
    if after > before:
        if S.seat[g, p, PHIL] != PH_STAKE and before < prm[PRM_STAKE_AT] <= after:
            S.seat[g, p, PHIL] = PH_STAKE
            ev(S, g, p, E_STAKE, cause, 0, -1, -1, before, after)
        elif S.seat[g, p, PHIL] != PH_STAKE and S.seat[g, p, PHIL] != PH_PRISON and before < prm[PRM_PRISON_AT] <= after:
            S.seat[g, p, PHIL] = PH_PRISON
            ev(S, g, p, E_PRISON, cause, 0, -1, -1, before, after)


@rule
def book_level(prm, n):
    """Book-track Level (1..3) of ``n`` Books."""
    if n >= prm[PRM_BOOK_LEVEL_STARTS + 2]:
        return 3
    if n >= prm[PRM_BOOK_LEVEL_STARTS + 1]:
        return 2
    return 1


@rule
def add_books(S, prm, g, p, s, n):
    """Move seat ``p``'s marker on Subject ``s``'s Book track by ``n`` Books, kept within 0..book_track_max
    (A-GT-07)."""
    v = S.seat[g, p, BOOKS + s] + n
    if v > prm[PRM_BOOK_TRACK_MAX]:
        v = prm[PRM_BOOK_TRACK_MAX]
    if v < 0:
        v = 0
    S.seat[g, p, BOOKS + s] = v


@rule
def pay(S, g, p, col, n):
    """Pay ``n`` of the seat column ``col`` (``COINS``, ``RESEARCH``), never below zero."""
    v = S.seat[g, p, col] - n
    S.seat[g, p, col] = v if v > 0 else 0
