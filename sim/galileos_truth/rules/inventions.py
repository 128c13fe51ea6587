"""Decisions of Create an Invention (seed 001 §Create an Invention)."""

from __future__ import annotations

from ..cols import COINS, INV_OWNER, RESEARCH, TO_ACT, WORKSHOP, WS_DIRTY
from ..content import N_SUBJECTS
from meeplelab.sim.core.jit import handler
from ..state import A_SLOT, C_NONE, E_INVENT, TR_INVENT, WORKSHOP_SLOTS
from ..pcols import PRM_WORKSHOP_SLOT_COINS
from .flow import advance
from .icons import apply_iset_simple, trigger
from .ledger import add_books, ev, pay
from .workshop import slot_ok


@handler
def legal_slot(S, C, prm, g, out):
    """Legal actions of P_SLOT, §Create an Invention: the Workshop slot bought (A-GT-17).

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    for w in range(WORKSHOP_SLOTS):
        out[A_SLOT + w] = slot_ok(S, C, prm, g, p, w)


@handler
def apply_slot(S, C, prm, g, a):
    """Apply action ``a`` of P_SLOT to game ``g``: §Create an Invention: the Workshop slot bought (A-GT-17)."""
    p = S.game[g, TO_ACT]
    w = a - A_SLOT
    i = S.game[g, WORKSHOP + w]
    pay(S, g, p, COINS, prm[PRM_WORKSHOP_SLOT_COINS + w] + C.INV_COINS[i])
    pay(S, g, p, RESEARCH, C.INV_RES[i])
    for s in range(N_SUBJECTS):
        add_books(S, prm, g, p, s, -C.INV_BOOKS[i, s])
    trigger(S, C, prm, g, p, TR_INVENT)
    S.inv[g, i, INV_OWNER] = p
    S.game[g, WORKSHOP + w] = -1
    S.game[g, WS_DIRTY] = True
    ev(S, g, p, E_INVENT, C_NONE, prm[PRM_WORKSHOP_SLOT_COINS + w] + C.INV_COINS[i], -1, i, w, 0)
    apply_iset_simple(S, C, prm, g, p, C.INV_BOTTOM[i], i)
    advance(S, C, prm, g)
