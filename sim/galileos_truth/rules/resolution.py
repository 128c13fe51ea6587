"""Decisions while an icon set resolves: the group, the Secondary Actions, a Book's Subject (seed 001 §Resolving
icons, §Effects)."""

from __future__ import annotations

from ..cols import BOOKS, CUR_A, CUR_B, CUR_BIT, CUR_C, CUR_OP, FR_N, FR_SEL, FR_SET, FR_USED, PHASE, TO_ACT
from ..content import K_ICONS, N_SECONDARY, N_SUBJECTS
from meeplelab.sim.core.jit import handler
from ..state import (A_DONE, A_EFFECTS, A_GROUP, A_ICON, A_SEC, A_SUBJ, BOOK_LEVELS, C_S_LINE, O_BOOK_ANY,
                     O_BOOK_DIFF, O_BOOK_UP, O_COPY, O_DRAW, O_FIRST_SECONDARY, O_INVENT, O_NONE, O_OBSERVE, O_READ,
                     O_WRITE, P_OLEVEL, P_REMOVE, P_SLOT, P_TARGET, SEL_A, SEL_B, SEL_BOTH, SEP_SUSP)
from ..pcols import PRM_BOOK_LEVEL_STARTS
from .cards import diff_subjects_in_play, draw_one
from .flow import advance
from .icons import (EFF_GO, N_ICONS, PEND_PAYMENT, apply_simple, book_icon_can_act, group_ok, open_effect,
                    open_icon, order_matters, pay_now_ok, pending_effects, start_book_icon)
from .ledger import add_books, add_susp, book_level
from .secondary import frame_sec_kinds, sec_ok


@handler
def resolve_icon(S, C, prm, g, i):
    """Resolve pending Effect icon ``i`` (= group * K_ICONS + position) of the top frame now (A-GT-25)."""
    p = S.game[g, TO_ACT]
    k = S.game[g, FR_N] - 1
    iset = S.game[g, FR_SET + k]
    gi = i // K_ICONS
    j = i % K_ICONS
    bit = 1 << i
    op = C.ISET_OP[iset, gi, j]
    if op == O_BOOK_ANY or op == O_BOOK_DIFF or op == O_BOOK_UP:
        if book_icon_can_act(S, C, prm, g, p, op):
            start_book_icon(S, g, op, C.ISET_ARG[iset, gi, j, 0], bit)
            return
        S.game[g, FR_USED + k] |= bit
    else:
        S.game[g, FR_USED + k] |= bit
        apply_simple(S, C, prm, g, p, op, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                     C.ISET_ARG[iset, gi, j, 2], C.ISET_ARG[iset, gi, j, 3], iset)
    advance(S, C, prm, g)


@handler
def start_secondary(S, C, prm, g, kind):
    """Mark the first open icon of ``kind`` in the top frame as used and begin that Secondary Action."""
    p = S.game[g, TO_ACT]
    k = S.game[g, FR_N] - 1
    iset = S.game[g, FR_SET + k]
    op_want = kind + O_FIRST_SECONDARY
    for i in range(N_ICONS):
        gi, j = i // K_ICONS, i % K_ICONS
        if open_icon(S, C, g, k, i) == op_want and sec_ok(S, C, prm, g, p, kind, C.ISET_ARG[iset, gi, j, 0],
                                                          C.ISET_ARG[iset, gi, j, 1], C.ISET_ARG[iset, gi, j, 2]):
            S.game[g, FR_USED + k] |= 1 << i
            S.game[g, CUR_OP] = op_want
            S.game[g, CUR_A] = C.ISET_ARG[iset, gi, j, 0]
            S.game[g, CUR_B] = C.ISET_ARG[iset, gi, j, 1]
            S.game[g, CUR_C] = C.ISET_ARG[iset, gi, j, 2]
            if op_want == O_DRAW:
                draw_one(S, g, p)
                advance(S, C, prm, g)
            elif op_want == O_WRITE or op_want == O_COPY or op_want == O_READ:
                S.game[g, PHASE] = P_TARGET
            elif op_want == O_INVENT:
                S.game[g, PHASE] = P_SLOT
            elif op_want == O_OBSERVE:
                S.game[g, PHASE] = P_OLEVEL
            else:
                S.game[g, PHASE] = P_REMOVE
            return


@handler
def legal_group(S, C, prm, g, out):
    """Legal actions of P_GROUP, §Resolving icons: the icon group (plain line: one; Suspicion line: one, or both for
    +1 Suspicion).

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    k = S.game[g, FR_N] - 1
    iset = S.game[g, FR_SET + k]
    a_ok = group_ok(S, C, prm, g, p, iset, SEL_A, -1, 0, 0, 0, -1, -1)
    b_ok = group_ok(S, C, prm, g, p, iset, SEL_B, -1, 0, 0, 0, -1, -1)
    both = C.ISET_SEP[iset] == SEP_SUSP and group_ok(S, C, prm, g, p, iset, SEL_BOTH, -1, 0, 0, 0, -1, -1)
    if not (a_ok or b_ok or both):
        a_ok = True
        b_ok = True   # unreachable: every path checks the payments before it starts (A-GT-24)
    out[A_GROUP] = a_ok
    out[A_GROUP + 1] = b_ok
    out[A_GROUP + 2] = both


@handler
def apply_group(S, C, prm, g, a):
    """Apply action ``a`` of P_GROUP to game ``g``: §Resolving icons: the icon group (plain line: one; Suspicion
    line: one, or both for +1 Suspicion)."""
    p = S.game[g, TO_ACT]
    k = S.game[g, FR_N] - 1
    if a == A_GROUP + 2:
        add_susp(S, prm, g, p, 1, C_S_LINE, -1)
        S.game[g, FR_SEL + k] = SEL_BOTH
    else:
        S.game[g, FR_SEL + k] = SEL_A if a == A_GROUP else SEL_B
    advance(S, C, prm, g)


@handler
def legal_secondary(S, C, prm, g, out):
    """Legal actions of P_SEC, §Resolving icons, §Secondary Actions: a Secondary Action of the icon set, its pending
    Effects now or one Effect first (A-GT-25), or done.

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    pend = pending_effects(S, C, g)
    out[A_DONE] = pend == 0
    out[A_EFFECTS] = pend != 0
    kinds = frame_sec_kinds(S, C, prm, g) if (pend & PEND_PAYMENT) == 0 else 0
    for kd in range(N_SECONDARY):
        out[A_SEC + kd] = (kinds >> kd) & 1 == 1
    if pend != 0 and order_matters(S, C, prm, g):   # one pending Effect now, the rest later (A-GT-25)
        k = S.game[g, FR_N] - 1
        iset = S.game[g, FR_SET + k]
        for i in range(N_ICONS):
            op = open_effect(S, C, g, k, i)
            if op != O_NONE:
                out[A_ICON + i] = pay_now_ok(S, g, p, op, C.ISET_ARG[iset, i // K_ICONS, i % K_ICONS, 0],
                                             C.ISET_ARG[iset, i // K_ICONS, i % K_ICONS, 1])


@handler
def apply_secondary(S, C, prm, g, a):
    """Apply action ``a`` of P_SEC to game ``g``: §Resolving icons, §Secondary Actions: a Secondary Action of the
    icon set, its pending Effects now or one Effect first (A-GT-25), or done."""
    if a == A_DONE:
        S.game[g, FR_N] -= 1
        advance(S, C, prm, g)
    elif a == A_EFFECTS:
        S.game[g, FR_USED + (S.game[g, FR_N] - 1)] |= EFF_GO
        advance(S, C, prm, g)
    elif a >= A_ICON:
        resolve_icon(S, C, prm, g, a - A_ICON)
    else:
        start_secondary(S, C, prm, g, a - A_SEC)


@handler
def legal_book_subject(S, C, prm, g, out):
    """Legal actions of P_BOOKSUBJ, §Effects: the Subject of a Book icon (any Subject, one per different Subject, up
    arrow).

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    for s in range(N_SUBJECTS):
        if S.game[g, CUR_OP] == O_BOOK_UP:
            out[A_SUBJ + s] = book_level(prm, S.seat[g, p, BOOKS + s]) < BOOK_LEVELS
        else:
            out[A_SUBJ + s] = True


@handler
def apply_book_subject(S, C, prm, g, a):
    """Apply action ``a`` of P_BOOKSUBJ to game ``g``: §Effects: the Subject of a Book icon (any Subject, one per
    different Subject, up arrow)."""
    p = S.game[g, TO_ACT]
    s = a - A_SUBJ
    op = S.game[g, CUR_OP]
    if op == O_BOOK_ANY:
        add_books(S, prm, g, p, s, S.game[g, CUR_A])
    elif op == O_BOOK_DIFF:
        add_books(S, prm, g, p, s, diff_subjects_in_play(S, C, g, p))
    else:
        lv = book_level(prm, S.seat[g, p, BOOKS + s])
        S.seat[g, p, BOOKS + s] = prm[PRM_BOOK_LEVEL_STARTS + lv]
    if S.game[g, CUR_BIT] != 0 and S.game[g, FR_N] > 0:
        S.game[g, FR_USED + (S.game[g, FR_N] - 1)] |= S.game[g, CUR_BIT]
    S.game[g, CUR_BIT] = 0
    advance(S, C, prm, g)
