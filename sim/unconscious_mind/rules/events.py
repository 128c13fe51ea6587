"""Gains, payments and the event log of Unconscious Mind: every Coffee, VP, Bright Idea and heart-box change
goes through these helpers, which also write the event row (columns from :mod:`meeplelab.sim.unconscious_mind.logcols`).
VP always equals the sum of the ``vp`` events (research UM §7 categories; ``add_vp``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from meeplelab.sim.core.logs import begin_event_row

from ..codes import C_BONUS, C_END_BRIGHT, C_NONE, EV_BRIGHT, EV_CGAIN, EV_CSPEND, EV_HEART, EV_VP
from ..cols import BRIGHT, COFFEE, HEARTS, TO_ACT, TURN, T_CGAIN, T_CSPENT, T_VP, VP, VP_CAT, VP_EV
from ..logcols import EV_AMOUNT, EV_CATEGORY, EV_COST, EV_COUNT, EV_ITEM, EV_TARGET_SEAT


@njit(cache=True, inline="always", _nrt=False)
def ev(S, C, prm, g, kind, seat, cat, amount, target, item, cost, count):
    """Append one event row (core columns then category, amount, target_seat, item, cost, count)."""
    b = S.event_buf
    # np.int64: one compiled begin_event_row for every kind and seat (a literal argument compiles a copy each)
    r = begin_event_row(b, S.event_n, g, S.ply[g], S.game[g, TURN], np.int64(seat), np.int64(kind))
    b[g, r, EV_CATEGORY] = cat
    b[g, r, EV_AMOUNT] = amount
    b[g, r, EV_TARGET_SEAT] = target
    b[g, r, EV_ITEM] = item
    b[g, r, EV_COST] = cost
    b[g, r, EV_COUNT] = count


@njit(cache=True, inline="always", _nrt=False)
def gain_coffee(S, C, prm, g, p, n, cat):
    """Seat p gains ``n`` Coffee (a ``coffee_gain`` event of category ``cat``)."""
    if n <= 0:
        return
    S.seat[g, p, COFFEE] += n
    if p == S.game[g, TO_ACT]:
        S.game[g, T_CGAIN] += n
    ev(S, C, prm, g, EV_CGAIN, p, cat, n, -1, -1, 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def spend_coffee(S, C, prm, g, p, n, cat, item):
    """Seat p pays ``n`` Coffee for ``item`` (a ``coffee_spend`` event; seed 000 §Gaining Notebook tiles: paid in
    full each time)."""
    if n <= 0:
        return
    S.seat[g, p, COFFEE] -= n
    if p == S.game[g, TO_ACT]:
        S.game[g, T_CSPENT] += n
    ev(S, C, prm, g, EV_CSPEND, p, cat, n, -1, item, n, 0)


@njit(cache=True, inline="always", _nrt=False)
def add_vp(S, C, prm, g, p, n, cat, item):
    """Every VP change goes through here: VP, the running sum of VP events, the category, and the event."""
    if n == 0:
        return
    if cat == C_NONE or cat > C_END_BRIGHT:
        cat = C_BONUS  # VP from district slots, goals and other bonuses
    S.seat[g, p, VP] += n
    S.seat[g, p, VP_EV] += n
    S.seat[g, p, VP_CAT + cat] += n
    if p == S.game[g, TO_ACT]:
        S.game[g, T_VP] += n
    ev(S, C, prm, g, EV_VP, p, cat, n, -1, item, 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def gain_bright(S, C, prm, g, p, n, cat, src):
    """Seat p gains ``n`` Bright Ideas (``src``: the seat that caused it, e.g. the citer, seed 000 §Citing
    Treatises)."""
    if n <= 0:
        return
    S.seat[g, p, BRIGHT] += n
    ev(S, C, prm, g, EV_BRIGHT, p, cat, n, src, -1, 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def gain_heart(S, C, prm, g, p, n, cat):
    """Seat p gains ``n`` heart-shaped boxes (research UM §4)."""
    if n <= 0:
        return
    S.seat[g, p, HEARTS] += n
    ev(S, C, prm, g, EV_HEART, p, cat, n, -1, -1, 0, 0)
