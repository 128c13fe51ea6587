"""The Workshop: Period decks, refills and what a slot costs (seed 001 §Create an Invention; A-GT-17)."""

from __future__ import annotations

from ..cols import BOOKS, COINS, CYCLE, INV_DECK_1, INV_DECK_N, RESEARCH, WORKSHOP, WS_DIRTY
from ..content import N_SUBJECTS
from meeplelab.sim.core.jit import rule
from ..state import TR_INVENT, WORKSHOP_SLOTS
from ..pcols import PRM_PERIOD2_FIRST_CYCLE, PRM_PERIOD3_FIRST_CYCLE, PRM_WORKSHOP_SLOT_COINS
from .icons import group_ok, trig_gain


@rule
def period_of(prm, cycle):
    """Period (1..3) of Cycle ``cycle`` (A-GT-01)."""
    if cycle >= prm[PRM_PERIOD3_FIRST_CYCLE]:
        return 3
    if cycle >= prm[PRM_PERIOD2_FIRST_CYCLE]:
        return 2
    return 1


@rule
def refill_workshop(S, prm, g):
    """Slide the Workshop down to fill gaps; reveal new cards in the top slots from the current Period's deck."""
    n = WORKSHOP_SLOTS
    w = n - 1
    for r in range(n - 1, -1, -1):
        if S.game[g, WORKSHOP + r] >= 0:
            S.game[g, WORKSHOP + w] = S.game[g, WORKSHOP + r]
            if w != r:
                S.game[g, WORKSHOP + r] = -1
            w -= 1
    per = period_of(prm, S.game[g, CYCLE]) - 1
    while w >= 0:
        if S.game[g, INV_DECK_N + per] > 0:
            S.game[g, INV_DECK_N + per] -= 1
            S.game[g, WORKSHOP + w] = S.pile[g, INV_DECK_1 + per, S.game[g, INV_DECK_N + per]]
        else:
            S.game[g, WORKSHOP + w] = -1
        w -= 1
    S.game[g, WS_DIRTY] = False


@rule
def slot_ok(S, C, prm, g, p, w):
    """Seat ``p`` can buy the Invention in Workshop slot ``w``: slot and Invention costs, Books, and the
    payments of its bottom icons (seed 001 §Create an Invention; A-GT-17, A-GT-24)."""
    i = S.game[g, WORKSHOP + w]
    if i < 0:
        return False
    if S.seat[g, p, COINS] < prm[PRM_WORKSHOP_SLOT_COINS + w] + C.INV_COINS[i] or S.seat[g, p, RESEARCH] < C.INV_RES[i]:
        return False
    for s in range(N_SUBJECTS):
        if S.seat[g, p, BOOKS + s] < C.INV_BOOKS[i, s]:
            return False
    # Create 2: the bottom-right icons are activated after the costs; their payments must be met too
    return group_ok(S, C, prm, g, p, C.INV_BOTTOM[i], 1, -1, 0,
                    trig_gain(S, C, g, p, TR_INVENT, False) - prm[PRM_WORKSHOP_SLOT_COINS + w] - C.INV_COINS[i],
                    trig_gain(S, C, g, p, TR_INVENT, True) - C.INV_RES[i], i, TR_INVENT)
