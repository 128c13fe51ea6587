"""Resolving icons: groups, payments, simple Effects, triggers and the frame stack (seed 001 §Resolving icons,
§Effects; A-GT-24, A-GT-25)."""

from __future__ import annotations

from ..cols import (ACT_VP, BESIDE, BOOKS, COINS, COPER, CUR_A, CUR_BIT, CUR_OP, END_LOSS, FR_N, FR_SEL, FR_SET,
                    FR_USED, INV_OWNER, LEVEL, PHASE, PHIL, RESEARCH, SUSP, TO_ACT)
from ..content import K_ICONS, MATHEMATICS, N_GROUPS, N_SUBJECTS, PHYSICS
from meeplelab.sim.core.jit import rule
from ..state import (BOOK_LEVELS, C_ICONS, C_S_COPERNICANS, C_S_ICON, C_S_OTHERS, D_FRAMES, IT_ONGOING, O_BOOKS,
                     O_BOOKS_PAY, O_BOOK_ANY, O_BOOK_DIFF, O_BOOK_UP, O_COINS, O_FIRST_SECONDARY, O_INCOME_MATH,
                     O_INCOME_PHYS, O_MASTERY, O_MENTOR_SEAL, O_NONE, O_PHIL_BACK, O_RESEARCH, O_SUSP_DOWN,
                     O_SUSP_DOWN_DIFF, O_SUSP_UP, O_SUSP_UP_COP, O_SUSP_UP_OTHERS, O_VP, O_VP_END, O_VP_LVL,
                     O_VP_PLUS, O_VP_X2, O_VP_XLEVEL, PH_ON_SPACE, PH_STANDING, P_BOOKSUBJ, SEL_A, SEL_B, SEL_BOTH,
                     SEP_NONE, SEP_PRINC, SEP_SUSP)
from ..pcols import (PRM_BOOK_TRACK_MAX, PRM_INCOME_COINS_BY_LEVEL, PRM_INCOME_RESEARCH_BY_LEVEL, PRM_PRISON_AT,
                     PRM_STAKE_AT, PRM_SUSPICION_MAX, PRM_VP_PER_LEVEL_GAINED)
from .academy import mastery_seal, seals_left, take_seal
from .cards import diff_subjects_in_play
from .ledger import add_books, add_susp, add_vp, book_level, pay


#: icons of an icon set, both groups: an icon's index ``i`` is ``group * K_ICONS + position`` (printed order)
N_ICONS = N_GROUPS * K_ICONS


@rule
def selected_icon(C, iset, sel, i):
    """The opcode of icon ``i`` of icon set ``iset`` when its group is among the groups chosen (``sel``, bits
    ``SEL_A``/``SEL_B``), ``O_NONE`` otherwise (seed 001 §Resolving icons: the icons of the chosen groups)."""
    gi = i // K_ICONS
    if not (sel & (1 << gi)):
        return O_NONE
    return C.ISET_OP[iset, gi, i % K_ICONS]


@rule
def open_icon(S, C, g, k, i):
    """The opcode of icon ``i`` (``group * K_ICONS + position``, groups in printed order) of frame ``k``'s icon set
    while it is still open: its group chosen and the icon not resolved yet; ``O_NONE`` otherwise (seed 001
    §Resolving icons). Every loop over "each icon of the chosen groups" reads the icons through it."""
    if S.game[g, FR_USED + k] & (1 << i):
        return O_NONE
    return selected_icon(C, S.game[g, FR_SET + k], S.game[g, FR_SEL + k], i)


@rule
def open_effect(S, C, g, k, i):
    """:func:`open_icon` when it is an Effect (not a Secondary Action), else ``O_NONE`` (seed 001 §Resolving icons)."""
    op = open_icon(S, C, g, k, i)
    return O_NONE if op >= O_FIRST_SECONDARY else op



@rule
def group_ok(S, C, prm, g, p, iset, sel, xsubj, xbooks, dc, dr, inv, trig):
    """Can the mandatory payments of groups ``sel`` be met in full (gains counted first)?

    What happens before the icons resolve is passed as offsets: ``xbooks`` Books of Subject ``xsubj``
    (the stack's spines; negative: a cost), ``dc`` Coins and ``dr`` Research (Read's Coins, a Window
    space's cost, Ongoing Coins and Research), ``inv`` >= 0: that Invention's Book costs are paid first
    (Create), ``trig`` >= 0: the Books the Ongoing Inventions with that condition give come first.
    Every path that activates icons asks this before it starts (A-GT-24)."""
    if not C.ISET_PAY[iset]:
        return True
    cg = 0
    cp = 0
    rg = 0
    rp = 0
    for i in range(N_ICONS):
        op = selected_icon(C, iset, sel, i)
        a = C.ISET_ARG[iset, i // K_ICONS, i % K_ICONS, 0]
        if op == O_COINS:
            if a >= 0:
                cg += a
            else:
                cp -= a
        elif op == O_RESEARCH:
            if a >= 0:
                rg += a
            else:
                rp -= a
    if S.seat[g, p, COINS] + dc + cg < cp or S.seat[g, p, RESEARCH] + dr + rg < rp:
        return False
    for s in range(N_SUBJECTS):
        gain = 0
        need = 0
        for i in range(N_ICONS):
            op = selected_icon(C, iset, sel, i)
            gi, j = i // K_ICONS, i % K_ICONS
            if op == O_BOOKS and C.ISET_ARG[iset, gi, j, 0] == s:
                gain += C.ISET_ARG[iset, gi, j, 1]
            elif op == O_BOOKS_PAY and C.ISET_ARG[iset, gi, j, 0] == s:
                need += C.ISET_ARG[iset, gi, j, 1]
                if S.seat[g, p, LEVEL] < C.ISET_ARG[iset, gi, j, 2]:
                    return False
        have = S.seat[g, p, BOOKS + s] + (xbooks if s == xsubj else 0) - (C.INV_BOOKS[inv, s] if inv >= 0 else 0)
        if trig >= 0:
            have += trig_books(S, C, g, p, trig, s)
        if have > prm[PRM_BOOK_TRACK_MAX]:
            have = prm[PRM_BOOK_TRACK_MAX]     # the track stops at its end before the page's gains
        if have + gain < need:
            return False
    return True


@rule
def iset_ok(S, C, prm, g, p, iset, xsubj, xbooks, dc, dr, trig):
    """Some legal group choice of icon set ``iset`` can be paid (offsets as in :func:`group_ok`);
    across a Suspicion line that includes doing both groups."""
    sep = C.ISET_SEP[iset]
    if sep == SEP_NONE:
        return group_ok(S, C, prm, g, p, iset, SEL_A, xsubj, xbooks, dc, dr, -1, trig)
    if sep == SEP_PRINC:
        return group_ok(S, C, prm, g, p, iset, SEL_A if S.seat[g, p, COPER] else SEL_B, xsubj, xbooks, dc, dr, -1, trig)
    if (group_ok(S, C, prm, g, p, iset, SEL_A, xsubj, xbooks, dc, dr, -1, trig)
            or group_ok(S, C, prm, g, p, iset, SEL_B, xsubj, xbooks, dc, dr, -1, trig)):
        return True
    return sep == SEP_SUSP and group_ok(S, C, prm, g, p, iset, SEL_BOTH, xsubj, xbooks, dc, dr, -1, trig)


@rule
def trig_books(S, C, g, p, trig, s):
    """Books of Subject ``s`` the Ongoing Inventions of ``p`` with condition ``trig`` give."""
    n = 0
    for i in range(C.INV_TYPE.shape[0]):
        if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_ONGOING and C.INV_TRIG[i] == trig:
            iset = C.INV_ISET[i]
            for j in range(K_ICONS):
                if C.ISET_OP[iset, 0, j] == O_BOOKS and C.ISET_ARG[iset, 0, j, 0] == s:
                    n += C.ISET_ARG[iset, 0, j, 1]
    return n


@rule
def trig_gain(S, C, g, p, trig, research):
    """Coins (``research`` False) or Research the Ongoing Inventions of ``p`` with condition ``trig`` give
    before the icons they precede resolve (they carry no payments, A-GT-32)."""
    n = 0
    op_want = O_RESEARCH if research else O_COINS
    for i in range(C.INV_TYPE.shape[0]):
        if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_ONGOING and C.INV_TRIG[i] == trig:
            iset = C.INV_ISET[i]
            for j in range(K_ICONS):
                if C.ISET_OP[iset, 0, j] == op_want and C.ISET_ARG[iset, 0, j, 0] > 0:
                    n += C.ISET_ARG[iset, 0, j, 0]
    return n


@rule
def pay_now_ok(S, g, p, op, a0, a1):
    """The icon is no payment, or its payment (red Coins, Research, Books) can be made in full now."""
    if op == O_COINS and a0 < 0:
        return S.seat[g, p, COINS] >= -a0
    if op == O_RESEARCH and a0 < 0:
        return S.seat[g, p, RESEARCH] >= -a0
    if op == O_BOOKS_PAY:
        return S.seat[g, p, BOOKS + a0] >= a1
    return True


@rule
def apply_simple(S, C, prm, g, p, op, a0, a1, a2, a3, item):
    """One mandatory Effect that needs no choice."""
    if op == O_COINS:
        if a0 >= 0:
            S.seat[g, p, COINS] += a0
        else:
            pay(S, g, p, COINS, -a0)
    elif op == O_RESEARCH:
        if a0 >= 0:
            S.seat[g, p, RESEARCH] += a0
        else:
            pay(S, g, p, RESEARCH, -a0)
    elif op == O_VP or op == O_VP_PLUS:
        add_vp(S, g, p, a0, C_ICONS, item)
    elif op == O_VP_X2:
        if S.game[g, ACT_VP] > 0:
            add_vp(S, g, p, S.game[g, ACT_VP], C_ICONS, item)
    elif op == O_VP_END:
        S.seat[g, p, END_LOSS] += a0 if a0 > 0 else -a0
    elif op == O_VP_XLEVEL:
        add_vp(S, g, p, prm[PRM_VP_PER_LEVEL_GAINED] * (S.seat[g, p, LEVEL] - 1), C_ICONS, item)
    elif op == O_VP_LVL:
        lv = S.seat[g, p, LEVEL]
        v = a0 if lv == 1 else (a1 if lv == 2 else (a2 if lv == 3 else a3))
        add_vp(S, g, p, v, C_ICONS, item)
    elif op == O_SUSP_DOWN:
        add_susp(S, prm, g, p, -a0, C_S_ICON, -1)
    elif op == O_SUSP_DOWN_DIFF:
        add_susp(S, prm, g, p, -diff_subjects_in_play(S, C, g, p), C_S_ICON, -1)
    elif op == O_SUSP_UP:
        add_susp(S, prm, g, p, a0, C_S_ICON, -1)
    elif op == O_SUSP_UP_OTHERS:
        for q in range(S.seat.shape[1]):
            if q != p:
                add_susp(S, prm, g, q, a0, C_S_OTHERS, p)
    elif op == O_SUSP_UP_COP:
        for q in range(S.seat.shape[1]):
            if S.seat[g, q, COPER]:
                add_susp(S, prm, g, q, a0, C_S_COPERNICANS, p)
    elif op == O_BOOKS:
        add_books(S, prm, g, p, a0, a1)
    elif op == O_BOOKS_PAY:
        add_books(S, prm, g, p, a0, -a1)
    elif op == O_MASTERY:
        mastery_seal(S, C, g, p, a0)
    elif op == O_MENTOR_SEAL:
        if take_seal(S, g, p):
            S.seat[g, p, BESIDE] += 1
    elif op == O_PHIL_BACK:
        if S.seat[g, p, PHIL] == PH_ON_SPACE:
            S.seat[g, p, PHIL] = PH_STANDING
    elif op == O_INCOME_PHYS:
        S.seat[g, p, COINS] += prm[PRM_INCOME_COINS_BY_LEVEL + book_level(prm, S.seat[g, p, BOOKS + PHYSICS]) - 1]
    elif op == O_INCOME_MATH:
        S.seat[g, p, RESEARCH] += prm[PRM_INCOME_RESEARCH_BY_LEVEL + book_level(prm, S.seat[g, p, BOOKS + MATHEMATICS]) - 1]


@rule
def apply_iset_simple(S, C, prm, g, p, iset, item):
    """All icons of group A of a no-choice icon set (Income / Ongoing Inventions, Invention bottoms), in
    printed order; a payment that cannot be made yet waits for the gains after it (A-GT-24)."""
    done = 0
    for j in range(K_ICONS):
        op = C.ISET_OP[iset, 0, j]
        if op != O_NONE and pay_now_ok(S, g, p, op, C.ISET_ARG[iset, 0, j, 0], C.ISET_ARG[iset, 0, j, 1]):
            done |= 1 << j
            apply_simple(S, C, prm, g, p, op, C.ISET_ARG[iset, 0, j, 0], C.ISET_ARG[iset, 0, j, 1],
                         C.ISET_ARG[iset, 0, j, 2], C.ISET_ARG[iset, 0, j, 3], item)
    for j in range(K_ICONS):
        op = C.ISET_OP[iset, 0, j]
        if op != O_NONE and not (done & (1 << j)):
            apply_simple(S, C, prm, g, p, op, C.ISET_ARG[iset, 0, j, 0], C.ISET_ARG[iset, 0, j, 1],
                         C.ISET_ARG[iset, 0, j, 2], C.ISET_ARG[iset, 0, j, 3], item)


@rule
def trigger(S, C, prm, g, p, trig):
    """Ongoing Inventions of ``p`` whose condition is ``trig``."""
    for i in range(C.INV_TYPE.shape[0]):
        if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_ONGOING and C.INV_TRIG[i] == trig:
            apply_iset_simple(S, C, prm, g, p, C.INV_ISET[i], i)


@rule
def push_frame(S, C, g, iset):
    """Start resolving an icon set (ignored when it has no icons)."""
    empty = True
    for gi in range(N_GROUPS):
        for j in range(K_ICONS):
            if C.ISET_OP[iset, gi, j] != O_NONE:
                empty = False
    if empty or S.game[g, FR_N] >= D_FRAMES:
        return
    k = S.game[g, FR_N]
    S.game[g, FR_SET + k] = iset
    S.game[g, FR_SEL + k] = 0
    S.game[g, FR_USED + k] = 0
    S.game[g, FR_N] = k + 1


EFF_GO = 1 << (2 * K_ICONS)   # fr_used flag: the frame's mandatory Effects are being resolved (A-GT-25)


OBS_BONUS = 1 << (2 * K_ICONS + 1)   # fr_used flag: an Observation's bonus is due when this frame is on top again


PEND_EFFECTS, PEND_PAYMENT = 1, 2


@rule
def pending_effects(S, C, g):
    """Top frame: ``PEND_EFFECTS`` if a mandatory Effect of the chosen groups is still unresolved, plus
    ``PEND_PAYMENT`` if one of them is a payment (red Coins, Research or Books). 0 once they resolve."""
    k = S.game[g, FR_N] - 1
    if S.game[g, FR_USED + k] & EFF_GO:
        return 0
    iset = S.game[g, FR_SET + k]
    out = 0
    for i in range(N_ICONS):
        op = open_effect(S, C, g, k, i)
        if op == O_NONE:
            continue
        out |= PEND_EFFECTS
        if op == O_BOOKS_PAY or ((op == O_COINS or op == O_RESEARCH) and C.ISET_ARG[iset, i // K_ICONS, i % K_ICONS, 0] < 0):
            out |= PEND_PAYMENT
    return out


@rule
def pending_effect_counts(S, C, g, k, p):
    """Counts over frame ``k``'s pending mandatory Effects for seat ``p`` that :func:`order_matters` weighs, as
    ``(n, x2, vpgain, up, down, takers, mentor, tracks, income, bookup, bookchg)``: Effects pending; "x2" VP
    icons; VP icons that gain something; own Suspicion up and down (steps); Wax Seal takers, of which a Mentor
    seal (0/1) and the distinct Mastery tracks in a row; Income tubes; up-arrow Book icons; Book changes."""
    iset = S.game[g, FR_SET + k]
    n = 0
    x2 = 0
    vpgain = 0
    up = 0
    down = 0
    takers = 0
    mentor = 0
    track = -1
    tracks = 0
    income = 0
    bookup = 0
    bookchg = 0
    lv = S.seat[g, p, LEVEL]
    for i in range(N_ICONS):
        op = open_effect(S, C, g, k, i)
        if op == O_NONE:
            continue
        gi, j = i // K_ICONS, i % K_ICONS
        a0 = C.ISET_ARG[iset, gi, j, 0]
        n += 1
        if op == O_VP_X2:
            x2 += 1
        elif op == O_VP or op == O_VP_PLUS:
            vpgain += 1 if a0 != 0 else 0
        elif op == O_VP_XLEVEL:
            vpgain += 1 if lv > 1 else 0
        elif op == O_VP_LVL:
            vpgain += 1 if C.ISET_ARG[iset, gi, j, lv - 1] != 0 else 0
        elif op == O_MASTERY or op == O_MENTOR_SEAL:
            takers += 1
            if op == O_MASTERY:
                vpgain += 1
                if track != a0:
                    tracks += 1
                    track = a0
            else:
                mentor = 1
        elif op == O_SUSP_UP:
            up += a0
        elif op == O_SUSP_UP_COP:
            if S.seat[g, p, COPER]:
                up += a0
        elif op == O_SUSP_DOWN:
            down += a0
        elif op == O_SUSP_DOWN_DIFF:
            down += diff_subjects_in_play(S, C, g, p)
        elif op == O_INCOME_PHYS or op == O_INCOME_MATH:
            income += 1
        elif op == O_BOOK_UP:
            bookup += 1
            bookchg += 1
        elif op == O_BOOK_ANY or op == O_BOOK_DIFF:
            bookchg += 1
        elif op == O_BOOKS or op == O_BOOKS_PAY:
            bookchg += 1
    return n, x2, vpgain, up, down, takers, mentor, tracks, income, bookup, bookchg


@rule
def book_gain_passes_track_end(S, C, prm, g, k, p):
    """Whether some Subject has both a Book gain and a Book payment open in frame ``k`` and seat ``p``'s Books
    of it plus the gains pass the track's end (``PRM_BOOK_TRACK_MAX``): paying first keeps Books a gain loses."""
    iset = S.game[g, FR_SET + k]
    for sb in range(N_SUBJECTS):
        gsum = 0
        psum = 0
        for i in range(N_ICONS):
            op = open_icon(S, C, g, k, i)
            if op != O_BOOKS and op != O_BOOKS_PAY or C.ISET_ARG[iset, i // K_ICONS, i % K_ICONS, 0] != sb:
                continue
            if op == O_BOOKS:
                gsum += C.ISET_ARG[iset, i // K_ICONS, i % K_ICONS, 1]
            else:
                psum += C.ISET_ARG[iset, i // K_ICONS, i % K_ICONS, 1]
        if gsum > 0 and psum > 0 and S.seat[g, p, BOOKS + sb] + gsum > prm[PRM_BOOK_TRACK_MAX]:
            return True
    return False


@rule
def order_matters(S, C, prm, g):
    """Top frame: the order of its pending mandatory Effects can change the outcome, so the player picks
    them one by one (seed: icons activate in the order you like; A-GT-25). Pairs that interact: "x2" VP with
    another VP icon; own Suspicion up and down where the track's ends, Prison or the Stake lie in reach;
    Wax Seal takers when seals run short; Income tubes or the up-arrow Book with other Book changes, and a
    Book gain and payment where the track's end is in reach. Red Coins and Research never need it: a payment
    waits for the gains when it cannot be made first, and neither track has an end above."""
    k = S.game[g, FR_N] - 1
    if S.game[g, FR_USED + k] & EFF_GO:
        return False
    p = S.game[g, TO_ACT]
    n, x2, vpgain, up, down, takers, mentor, tracks, income, bookup, bookchg = pending_effect_counts(S, C, g, k, p)
    if n < 2:
        return False
    if x2 > 0 and vpgain > 0:
        return True
    if up > 0 and down > 0:
        v = S.seat[g, p, SUSP]
        if v - down < 0 or v + up > prm[PRM_SUSPICION_MAX]:
            return True
        if v - down < prm[PRM_PRISON_AT] <= v + up or v - down < prm[PRM_STAKE_AT] <= v + up:
            return True
    if takers >= 2 and seals_left(S, g, p) < takers and (mentor + tracks) >= 2:
        return True
    if (income > 0 and bookchg > 0) or (bookup > 0 and bookchg >= 2):
        return True
    if bookchg >= 2:
        return book_gain_passes_track_end(S, C, prm, g, k, p)
    return False


@rule
def book_icon_can_act(S, C, prm, g, p, op):
    """Whether Book icon ``op`` (O_BOOK_ANY / O_BOOK_DIFF / O_BOOK_UP) has something to act on for seat
    ``p`` (seed §Effects, the Book icon; an icon with nothing to act on is skipped): "one Book per
    Treatise of a different Subject in play" needs such a Treatise (``diff_subjects_in_play``), "move a
    Subject Marker to ... its next Level" needs a track below Level 3."""
    if op == O_BOOK_DIFF:
        return diff_subjects_in_play(S, C, g, p) > 0
    if op == O_BOOK_UP:
        for s in range(N_SUBJECTS):
            if book_level(prm, S.seat[g, p, BOOKS + s]) < BOOK_LEVELS:
                return True
        return False
    return True


@rule
def start_book_icon(S, g, op, arg, bit):
    """Start Book icon ``op`` (argument ``arg``, pending-icon ``bit``): the seat chooses its Subject next."""
    S.game[g, CUR_OP] = op
    S.game[g, CUR_A] = arg
    S.game[g, CUR_BIT] = bit
    S.game[g, PHASE] = P_BOOKSUBJ
