"""Rule kernels of Galileo's Truth: scalar per-game numba code looping over the batch.

``S`` is the state namedtuple (:data:`state.SArr`), ``C`` the compiled content
(:class:`content.Content`), ``PR`` the int64 parameter vector (``state.I_*`` indices).
The acting seat is ``S.game[g, TO_ACT]``; every decision in a game is taken by that seat.
"""

from __future__ import annotations

from numba import njit

from sim.core.logs import begin_event_row, begin_turn_row
from sim.core.rng import chance_below, chance_shuffle

from .jit import rule

from .cols import (ABJURE_CYCLE, ACT_VP, BAGDISC_1, BAGDISC_N, BAG_1, BAG_N, BESIDE, BOOKS, COINS, COPER, CUR_A,
                   CUR_B, CUR_BIT, CUR_C, CUR_CARD, CUR_OP, CYCLE, DECK_0, DECK_N, END_LOSS, FIRST, FIRST_PASS, FR_N,
                   FR_SEL, FR_SET, FR_USED, GRAD, INQ_UP, INV_DECK_1, INV_DECK_N, INV_OWNER, INV_TAPPED, LEVEL,
                   LVL_SEAL, LVL_SEAL_W, MASTERY, MENTOR, NSLOTS, OBS_CELL, OBS_LEVEL, OBS_TILE, OBS_TILES, OVER,
                   PASSED, PEN_N, PEN_PILE, PHASE, PHIL, PHIL_SPACE, RESEARCH, SLOT_CTYPE, SLOT_CZONE, SLOT_KNOWN,
                   SPACE_USED, STACK, STACK_N, STACK_SUBJ, SUSP, TO_ACT, TSEAL, TSEAL_W, TURN, TURN_CARDS, TURN_MAIN,
                   TURN_VP0, VP, VP_CAT, VP_EV, WINDOW, WINDOW_W, WORKSHOP, WS_DIRTY)
from .content import (ASTRONOMY, K_ICONS, MATHEMATICS, NB, PHYSICS, PURPLE, SEAL_SPACES, WCOLS, WROWS)
from .logcols import (EV_AFTER, EV_AMOUNT, EV_BEFORE, EV_CATEGORY, EV_CYCLE, EV_ITEM, EV_TARGET_SEAT,
                      TURN_CARDS_PLAYED, TURN_COINS_AFTER, TURN_MAIN_ACTION, TURN_PRINCIPLE_AFTER,
                      TURN_RESEARCH_AFTER, TURN_SUSPICION_AFTER, TURN_VP_GAINED)
from .state import (A_ABJURE, A_BOARD, A_CARD, A_DECKTOP, A_DONE, A_EFFECTS, A_GROUP, A_ICON, A_INV, A_KEEP,
                    A_OLEVEL, A_PASS, A_PAY, A_RMDISC, A_RMPLAY, A_SEC, A_SLOT, A_SPACE, A_SUBJ, A_UPGRADE, A_WIN,
                    C_END_LOSS, C_GAINED, C_ICONS, C_INVENTION, C_LEVEL, C_MASTERY, C_NONE, C_OBSERVATION, C_PAID,
                    C_SEALS, C_SUSPICION, C_S_ABJURE, C_S_ABJURE_OTHER, C_S_COPERNICANS, C_S_ICON, C_S_LINE,
                    C_S_OTHERS, C_S_PENANCE, C_TREATISE, C_TRUTH, D_FRAMES, E_ABJURE, E_COPY, E_INQUISITION,
                    E_INVENT, E_OBSERVE, E_PENANCE, E_PRISON, E_READ, E_STAKE, E_SUSP, E_UPGRADE, E_USE_INV, E_VP,
                    E_WRITE, IT_ENDGAME, IT_INCOME, IT_ONCE, IT_ONGOING, I_ABJ_DROP, I_ABJ_RISE, I_BAND_START,
                    I_BAND_VP, I_BESIDE_VP, I_BOOK_LV, I_BOOK_MAX, I_CYCLES, I_FIRST_RULE, I_HAND, I_INC_COINS,
                    I_INC_RES, I_INQ, I_LVL_VP, I_OBS_COINS, I_OBS_DRAW, I_OBS_VP, I_P2, I_P3, I_PEN_DROP, I_PEN_THR,
                    I_PRISON, I_STAKE, I_STAKE_VP, I_SUSP_MAX, I_TRUTH_FLAT, I_TRUTH_TILE, I_VP_PER_LEVEL,
                    I_WRITE_RES, I_WS_COINS, LEVEL_SEAL_SPACES, M_ABJURE, M_INVENTION, M_PASS, M_PENANCE,
                    M_PHILOSOPHER, M_PLAY, M_UPGRADE, O_BOOKS, O_BOOKS_PAY, O_BOOK_ANY, O_BOOK_DIFF, O_BOOK_UP,
                    O_COINS, O_COPY, O_DRAW, O_FIRST_SECONDARY, O_INCOME_MATH, O_INCOME_PHYS, O_INVENT, O_MASTERY,
                    O_MENTOR_SEAL, O_OBSERVE, O_PHIL_BACK, O_READ, O_REMOVE, O_RESEARCH, O_SUSP_DOWN,
                    O_SUSP_DOWN_DIFF, O_SUSP_UP, O_SUSP_UP_COP, O_SUSP_UP_OTHERS, O_VP, O_VP_END, O_VP_LVL,
                    O_VP_PLUS, O_VP_X2, O_VP_XLEVEL, O_WRITE, PH_LYING, PH_ON_SPACE, PH_PRISON, PH_STAKE,
                    PH_STANDING, P_BOOKSUBJ, P_GROUP, P_MAIN, P_OKEEP, P_OLEVEL, P_OORDER, P_OSPACE, P_OVER,
                    P_PENPAY, P_PLACE, P_PURPLE, P_REMOVE, P_SEC, P_SLOT, P_STACK, P_TARGET, RZ_BAG, RZ_DECK,
                    RZ_GRAD, RZ_INV, RZ_PENANCE, SEP_NONE, SEP_PRINC, SEP_SUSP, TR_COPY, TR_INVENT, TR_OBSERVE,
                    TR_PLAY, TR_READ, TR_UPGRADE, TR_WRITE, WORKSHOP_SLOTS, Z_DECK, Z_DISCARD, Z_HAND, Z_NONE,
                    Z_PLAY, Z_REMOVED)

# ====================================================================== small helpers


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
def add_susp(S, PR, g, p, d, cause, target):
    """Move a Suspicion marker (clamped to the track); Prison / Stake when reached going up."""
    before = S.seat[g, p, SUSP]
    after = before + d
    if after < 0:
        after = 0
    if after > PR[I_SUSP_MAX]:
        after = PR[I_SUSP_MAX]
    if after == before:
        return
    S.seat[g, p, SUSP] = after
    ev(S, g, p, E_SUSP, cause, after - before, target, -1, before, after)
    if after > before:
        if S.seat[g, p, PHIL] != PH_STAKE and before < PR[I_STAKE] <= after:
            S.seat[g, p, PHIL] = PH_STAKE
            ev(S, g, p, E_STAKE, cause, 0, -1, -1, before, after)
        elif S.seat[g, p, PHIL] != PH_STAKE and S.seat[g, p, PHIL] != PH_PRISON and before < PR[I_PRISON] <= after:
            S.seat[g, p, PHIL] = PH_PRISON
            ev(S, g, p, E_PRISON, cause, 0, -1, -1, before, after)


@rule
def book_level(PR, n):
    """Book-track Level (1..3) of ``n`` Books."""
    if n >= PR[I_BOOK_LV + 2]:
        return 3
    if n >= PR[I_BOOK_LV + 1]:
        return 2
    return 1


@rule
def add_books(S, PR, g, p, s, n):
    v = S.seat[g, p, BOOKS + s] + n
    if v > PR[I_BOOK_MAX]:
        v = PR[I_BOOK_MAX]
    if v < 0:
        v = 0
    S.seat[g, p, BOOKS + s] = v


@rule
def pay(S, g, p, col, n):
    """Pay ``n`` of the seat column ``col`` (``COINS``, ``RESEARCH``), never below zero."""
    v = S.seat[g, p, col] - n
    S.seat[g, p, col] = v if v > 0 else 0


@rule
def seals_left(S, g, p):
    t = 0
    for m in range(S.mentors.shape[2]):
        t += S.mentors[g, p, m, MENTOR]
    return t


@rule
def take_seal(S, g, p):
    """Take a Wax Seal from a Mentor (the first with seals left; Mentors are interchangeable, A-GT-14)."""
    for m in range(S.mentors.shape[2]):
        if S.mentors[g, p, m, MENTOR] > 0:
            S.mentors[g, p, m, MENTOR] -= 1
            return True
    return False


@rule
def diff_subjects_in_play(S, C, g, p):
    """Treatises of different Subjects in the play area (purple and Penance ignored), at most 4."""
    seen = 0
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CZONE] == Z_PLAY:
            t = S.slot[g, p, c, SLOT_CTYPE]
            s = C.CARD_SUBJ[t]
            if 0 <= s < PURPLE:
                seen |= 1 << s
    n = 0
    for s in range(4):
        if seen & (1 << s):
            n += 1
    return n if n < 4 else 4


@rule
def count_tiles(S, g, p):
    n = 0
    for r in range(WROWS):
        for c in range(WCOLS):
            if S.seat[g, p, WINDOW + r * WINDOW_W + c] >= 0:
                n += 1
    return n


@rule
def count_treatise_seals(S, g, p):
    n = 0
    for b in range(NB):
        for i in range(SEAL_SPACES):
            if S.game[g, TSEAL + b * TSEAL_W + i] == p:
                n += 1
    return n


@rule
def count_inventions(S, g, p):
    n = 0
    for i in range(S.inv.shape[1]):
        if S.inv[g, i, INV_OWNER] == p:
            n += 1
    return n


@rule
def has_in_zone(S, C, g, p, t, zone):
    """Slot of a card of type ``t`` in ``zone`` (-1: none)."""
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CTYPE] == t and S.slot[g, p, c, SLOT_CZONE] == zone:
            return c
    return -1


@rule
def hand_types(S, g, p):
    """Bitmask of the card types in seat ``p``'s hand (one scan for a whole mask)."""
    bits = 0
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CZONE] == Z_HAND:
            bits |= 1 << S.slot[g, p, c, SLOT_CTYPE]
    return bits


@rule
def penance_in_hand(S, C, g, p):
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CZONE] == Z_HAND and C.CARD_KIND[S.slot[g, p, c, SLOT_CTYPE]] == 2:
            return True
    return False


# ====================================================================== cards


@rule
def reshuffle(S, g, p):
    """Shuffle the discard pile into a new deck (called when the deck is empty)."""
    n = S.seat[g, p, DECK_N]
    lo = n
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CZONE] == Z_DISCARD:
            S.slot[g, p, c, SLOT_CZONE] = Z_DECK
            S.slot[g, p, c, SLOT_KNOWN] = False
            S.pile[g, DECK_0 + p, n] = c
            n += 1
    chance_shuffle(S.rng_key, S.rng_ctr, g, RZ_DECK + p, S.pile[g, DECK_0 + p], lo, n)
    S.seat[g, p, DECK_N] = n


@rule
def draw_one(S, g, p):
    """Draw one card; an empty deck reshuffles the discard first. False when nothing could be drawn."""
    if S.seat[g, p, DECK_N] == 0:
        reshuffle(S, g, p)
    if S.seat[g, p, DECK_N] == 0:
        return False
    S.seat[g, p, DECK_N] -= 1
    c = S.pile[g, DECK_0 + p, S.seat[g, p, DECK_N]]
    S.pile[g, DECK_0 + p, S.seat[g, p, DECK_N]] = -1
    S.slot[g, p, c, SLOT_CZONE] = Z_HAND
    return True


@rule
def draw_n(S, g, p, n):
    got = 0
    for _ in range(n):
        if draw_one(S, g, p):
            got += 1
        else:
            break
    return got


@rule
def put_on_deck(S, g, p, c):
    S.pile[g, DECK_0 + p, S.seat[g, p, DECK_N]] = c
    S.seat[g, p, DECK_N] += 1
    S.slot[g, p, c, SLOT_CZONE] = Z_DECK


@rule
def new_card(S, g, p, t):
    c = S.seat[g, p, NSLOTS]
    S.slot[g, p, c, SLOT_CTYPE] = t
    S.slot[g, p, c, SLOT_CZONE] = Z_NONE
    S.seat[g, p, NSLOTS] = c + 1
    return c


# ====================================================================== icon effects


@rule
def group_ok(S, C, PR, g, p, iset, sel, xsubj, xbooks, dc, dr, inv, trig):
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
    for gi in range(2):
        if not (sel & (1 << gi)):
            continue
        for j in range(K_ICONS):
            op = C.ISET_OP[iset, gi, j]
            a = C.ISET_ARG[iset, gi, j, 0]
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
    for s in range(4):
        gain = 0
        need = 0
        for gi in range(2):
            if not (sel & (1 << gi)):
                continue
            for j in range(K_ICONS):
                op = C.ISET_OP[iset, gi, j]
                if op == O_BOOKS and C.ISET_ARG[iset, gi, j, 0] == s:
                    gain += C.ISET_ARG[iset, gi, j, 1]
                elif op == O_BOOKS_PAY and C.ISET_ARG[iset, gi, j, 0] == s:
                    need += C.ISET_ARG[iset, gi, j, 1]
                    if S.seat[g, p, LEVEL] < C.ISET_ARG[iset, gi, j, 2]:
                        return False
        have = S.seat[g, p, BOOKS + s] + (xbooks if s == xsubj else 0) - (C.INV_BOOKS[inv, s] if inv >= 0 else 0)
        if trig >= 0:
            have += trig_books(S, C, g, p, trig, s)
        if have > PR[I_BOOK_MAX]:
            have = PR[I_BOOK_MAX]     # the track stops at its end before the page's gains
        if have + gain < need:
            return False
    return True


@rule
def iset_ok(S, C, PR, g, p, iset, xsubj, xbooks, dc, dr, trig):
    """Some legal group choice of icon set ``iset`` can be paid (offsets as in :func:`group_ok`);
    across a Suspicion line that includes doing both groups."""
    sep = C.ISET_SEP[iset]
    if sep == SEP_NONE:
        return group_ok(S, C, PR, g, p, iset, 1, xsubj, xbooks, dc, dr, -1, trig)
    if sep == SEP_PRINC:
        return group_ok(S, C, PR, g, p, iset, 1 if S.seat[g, p, COPER] else 2, xsubj, xbooks, dc, dr, -1, trig)
    if group_ok(S, C, PR, g, p, iset, 1, xsubj, xbooks, dc, dr, -1, trig) or group_ok(S, C, PR, g, p, iset, 2, xsubj,
                                                                                        xbooks, dc, dr, -1, trig):
        return True
    return sep == SEP_SUSP and group_ok(S, C, PR, g, p, iset, 3, xsubj, xbooks, dc, dr, -1, trig)


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
def mastery_seal(S, C, g, p, t):
    """Seal on the leftmost free space of Mastery track ``t`` and score it (nothing if full or no seal)."""
    for i in range(S.track.shape[2]):
        if C.MASTERY_VP[t, i] == -999:
            return
        if S.track[g, t, i, MASTERY] == -1:
            if take_seal(S, g, p):
                S.track[g, t, i, MASTERY] = p
                add_vp(S, g, p, C.MASTERY_VP[t, i], C_MASTERY, t)
            return


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
def apply_simple(S, C, PR, g, p, op, a0, a1, a2, a3, item):
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
        add_vp(S, g, p, PR[I_VP_PER_LEVEL] * (S.seat[g, p, LEVEL] - 1), C_ICONS, item)
    elif op == O_VP_LVL:
        lv = S.seat[g, p, LEVEL]
        v = a0 if lv == 1 else (a1 if lv == 2 else (a2 if lv == 3 else a3))
        add_vp(S, g, p, v, C_ICONS, item)
    elif op == O_SUSP_DOWN:
        add_susp(S, PR, g, p, -a0, C_S_ICON, -1)
    elif op == O_SUSP_DOWN_DIFF:
        add_susp(S, PR, g, p, -diff_subjects_in_play(S, C, g, p), C_S_ICON, -1)
    elif op == O_SUSP_UP:
        add_susp(S, PR, g, p, a0, C_S_ICON, -1)
    elif op == O_SUSP_UP_OTHERS:
        for q in range(S.seat.shape[1]):
            if q != p:
                add_susp(S, PR, g, q, a0, C_S_OTHERS, p)
    elif op == O_SUSP_UP_COP:
        for q in range(S.seat.shape[1]):
            if S.seat[g, q, COPER]:
                add_susp(S, PR, g, q, a0, C_S_COPERNICANS, p)
    elif op == O_BOOKS:
        add_books(S, PR, g, p, a0, a1)
    elif op == O_BOOKS_PAY:
        add_books(S, PR, g, p, a0, -a1)
    elif op == O_MASTERY:
        mastery_seal(S, C, g, p, a0)
    elif op == O_MENTOR_SEAL:
        if take_seal(S, g, p):
            S.seat[g, p, BESIDE] += 1
    elif op == O_PHIL_BACK:
        if S.seat[g, p, PHIL] == PH_ON_SPACE:
            S.seat[g, p, PHIL] = PH_STANDING
    elif op == O_INCOME_PHYS:
        S.seat[g, p, COINS] += PR[I_INC_COINS + book_level(PR, S.seat[g, p, BOOKS + PHYSICS]) - 1]
    elif op == O_INCOME_MATH:
        S.seat[g, p, RESEARCH] += PR[I_INC_RES + book_level(PR, S.seat[g, p, BOOKS + MATHEMATICS]) - 1]


@rule
def apply_iset_simple(S, C, PR, g, p, iset, item):
    """All icons of group A of a no-choice icon set (Income / Ongoing Inventions, Invention bottoms), in
    printed order; a payment that cannot be made yet waits for the gains after it (A-GT-24)."""
    done = 0
    for j in range(K_ICONS):
        op = C.ISET_OP[iset, 0, j]
        if op != 0 and pay_now_ok(S, g, p, op, C.ISET_ARG[iset, 0, j, 0], C.ISET_ARG[iset, 0, j, 1]):
            done |= 1 << j
            apply_simple(S, C, PR, g, p, op, C.ISET_ARG[iset, 0, j, 0], C.ISET_ARG[iset, 0, j, 1],
                         C.ISET_ARG[iset, 0, j, 2], C.ISET_ARG[iset, 0, j, 3], item)
    for j in range(K_ICONS):
        op = C.ISET_OP[iset, 0, j]
        if op != 0 and not (done & (1 << j)):
            apply_simple(S, C, PR, g, p, op, C.ISET_ARG[iset, 0, j, 0], C.ISET_ARG[iset, 0, j, 1],
                         C.ISET_ARG[iset, 0, j, 2], C.ISET_ARG[iset, 0, j, 3], item)


@rule
def trigger(S, C, PR, g, p, trig):
    """Ongoing Inventions of ``p`` whose condition is ``trig``."""
    for i in range(C.INV_TYPE.shape[0]):
        if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_ONGOING and C.INV_TRIG[i] == trig:
            apply_iset_simple(S, C, PR, g, p, C.INV_ISET[i], i)


@rule
def push_frame(S, C, g, iset):
    """Start resolving an icon set (ignored when it has no icons)."""
    empty = True
    for gi in range(2):
        for j in range(K_ICONS):
            if C.ISET_OP[iset, gi, j] != 0:
                empty = False
    if empty or S.game[g, FR_N] >= D_FRAMES:
        return
    k = S.game[g, FR_N]
    S.game[g, FR_SET + k] = iset
    S.game[g, FR_SEL + k] = 0
    S.game[g, FR_USED + k] = 0
    S.game[g, FR_N] = k + 1


# ====================================================================== feasibility of choices


@rule
def write_research(S, C, PR, g, p, b):
    if C.BOARD_ROW[b] == 0:
        return PR[I_WRITE_RES]
    r = 0
    for side in range(2):
        below = C.BOARD_BELOW[b, side]
        mine = False
        for i in range(SEAL_SPACES):
            if S.game[g, TSEAL + below * TSEAL_W + i] == p:
                mine = True
        if not mine:
            r += C.BOARD_RES[b, side]
    return r


@rule
def board_has_seal_of(S, g, b, p):
    for i in range(SEAL_SPACES):
        if S.game[g, TSEAL + b * TSEAL_W + i] == p:
            return True
    return False


@rule
def board_free_space(S, g, b, leftmost):
    n = SEAL_SPACES
    for k in range(n):
        i = k if leftmost else n - 1 - k
        if S.game[g, TSEAL + b * TSEAL_W + i] == -1:
            return i
    return -1


@rule
def board_leftmost_owner(S, g, b):
    for i in range(SEAL_SPACES):
        if S.game[g, TSEAL + b * TSEAL_W + i] >= 0:
            return S.game[g, TSEAL + b * TSEAL_W + i]
    return -1


@rule
def write_ok(S, C, PR, g, p, b):
    if board_has_seal_of(S, g, b, p) or board_free_space(S, g, b, True) < 0 or seals_left(S, g, p) == 0:
        return False
    for s in range(4):
        if S.seat[g, p, BOOKS + s] < C.BOARD_BOOKS[b, s]:
            return False
    return S.seat[g, p, RESEARCH] >= write_research(S, C, PR, g, p, b)


@rule
def copy_ok(S, C, g, p, b, lvl, coins):
    if C.BOARD_ROW[b] + 1 > lvl or board_has_seal_of(S, g, b, p) or board_free_space(S, g, b, False) < 0:
        return False
    if board_leftmost_owner(S, g, b) < 0 or seals_left(S, g, p) == 0:
        return False
    return S.seat[g, p, COINS] >= coins


@rule
def read_ok(S, C, PR, g, p, b, lvl, coins):
    """Read: Level cap, any seal, the Coins, and the page's payments as if it were played (seed Read 2)
    after the Coins and what Ongoing Inventions give on a Read."""
    if C.BOARD_ROW[b] + 1 > lvl or board_leftmost_owner(S, g, b) < 0:
        return False
    if S.seat[g, p, COINS] < coins:
        return False
    iset = C.CARD_ISET[C.BOARD_CARD[b]]
    return (not C.ISET_PAY[iset]) or iset_ok(S, C, PR, g, p, iset, -1, 0,
                                             trig_gain(S, C, g, p, TR_READ, False) - coins,
                                             trig_gain(S, C, g, p, TR_READ, True), TR_READ)


@rule
def slot_ok(S, C, PR, g, p, w):
    i = S.game[g, WORKSHOP + w]
    if i < 0:
        return False
    if S.seat[g, p, COINS] < PR[I_WS_COINS + w] + C.INV_COINS[i] or S.seat[g, p, RESEARCH] < C.INV_RES[i]:
        return False
    for s in range(4):
        if S.seat[g, p, BOOKS + s] < C.INV_BOOKS[i, s]:
            return False
    # Create 2: the bottom-right icons are activated after the costs; their payments must be met too
    return group_ok(S, C, PR, g, p, C.INV_BOTTOM[i], 1, -1, 0,
                    trig_gain(S, C, g, p, TR_INVENT, False) - PR[I_WS_COINS + w] - C.INV_COINS[i],
                    trig_gain(S, C, g, p, TR_INVENT, True) - C.INV_RES[i], i, TR_INVENT)


@rule
def cell_ok(S, C, PR, g, p, r, c):
    """Window space (r, c) is empty, placeable (start space first, then orthogonally adjacent) and paid,
    and the space's own icons can be paid after its cost (the tile's gains are not counted: the tile
    is not known when the Level is chosen, and tiles carry no payments, A-GT-24)."""
    if S.seat[g, p, WINDOW + r * WINDOW_W + c] >= 0:
        return False
    if count_tiles(S, g, p) == 0:
        if r != 0 or c != 0:
            return False
    else:
        adj = False
        if r > 0 and S.seat[g, p, WINDOW + (r - 1) * WINDOW_W + c] >= 0:
            adj = True
        if r < WROWS - 1 and S.seat[g, p, WINDOW + (r + 1) * WINDOW_W + c] >= 0:
            adj = True
        if c > 0 and S.seat[g, p, WINDOW + r * WINDOW_W + (c - 1)] >= 0:
            adj = True
        if c < WCOLS - 1 and S.seat[g, p, WINDOW + r * WINDOW_W + (c + 1)] >= 0:
            adj = True
        if not adj:
            return False
    if S.seat[g, p, RESEARCH] < C.WIN_RES[r, c] or S.seat[g, p, BOOKS + ASTRONOMY] < C.WIN_ASTRO[r, c]:
        return False
    iset = C.WIN_ISET[r, c]
    return (not C.ISET_PAY[iset]) or iset_ok(S, C, PR, g, p, iset, ASTRONOMY, -C.WIN_ASTRO[r, c],
                                             trig_gain(S, C, g, p, TR_OBSERVE, False),
                                             trig_gain(S, C, g, p, TR_OBSERVE, True) - C.WIN_RES[r, c], TR_OBSERVE)


@rule
def obs_level_ok(S, C, PR, g, p, lv):
    if S.game[g, BAG_N + (lv - 1)] + S.game[g, BAGDISC_N + (lv - 1)] == 0:
        return False
    for c in range(WCOLS):
        if cell_ok(S, C, PR, g, p, lv - 1, c):
            return True
    return False


@rule
def removable(S, C, g, p, t, zone):
    return C.CARD_KIND[t] != 2 and has_in_zone(S, C, g, p, t, zone) >= 0


@rule
def sec_ok(S, C, PR, g, p, kind, a0, a1, a2):
    """The Secondary Action of ``kind`` (with icon args) has at least one legal way to be done."""
    op = kind + O_FIRST_SECONDARY
    if op == O_DRAW:
        return True
    if op == O_WRITE:
        for b in range(NB):
            if write_ok(S, C, PR, g, p, b):
                return True
        return False
    if op == O_COPY:
        for b in range(NB):
            if copy_ok(S, C, g, p, b, a0, a1):
                return True
        return False
    if op == O_READ:
        for b in range(NB):
            if read_ok(S, C, PR, g, p, b, a0, a1):
                return True
        return False
    if op == O_INVENT:
        for w in range(WORKSHOP_SLOTS):
            if slot_ok(S, C, PR, g, p, w):
                return True
        return False
    if op == O_OBSERVE:
        for lv in range(1, 4):
            if obs_level_ok(S, C, PR, g, p, lv):
                return True
        return False
    if op == O_REMOVE:
        for c in range(S.seat[g, p, NSLOTS]):
            z = S.slot[g, p, c, SLOT_CZONE]
            if (z == Z_HAND or z == Z_DISCARD or z == Z_PLAY) and C.CARD_KIND[S.slot[g, p, c, SLOT_CTYPE]] != 2:
                return True
        return False
    return False


@rule
def frame_sec_kinds(S, C, PR, g):
    """Bitmask of Secondary Action kinds still open (and doable) in the top frame."""
    k = S.game[g, FR_N] - 1
    iset = S.game[g, FR_SET + k]
    sel = S.game[g, FR_SEL + k]
    used = S.game[g, FR_USED + k]
    p = S.game[g, TO_ACT]
    out = 0
    for gi in range(2):
        if not (sel & (1 << gi)):
            continue
        for j in range(K_ICONS):
            op = C.ISET_OP[iset, gi, j]
            if op >= O_FIRST_SECONDARY and not (used & (1 << (gi * K_ICONS + j))):
                kind = op - O_FIRST_SECONDARY
                if sec_ok(S, C, PR, g, p, kind, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                          C.ISET_ARG[iset, gi, j, 2]):
                    out |= 1 << kind
    return out


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
    sel = S.game[g, FR_SEL + k]
    out = 0
    for gi in range(2):
        if not (sel & (1 << gi)):
            continue
        for j in range(K_ICONS):
            op = C.ISET_OP[iset, gi, j]
            if op == 0 or op >= O_FIRST_SECONDARY or (S.game[g, FR_USED + k] & (1 << (gi * K_ICONS + j))):
                continue
            out |= PEND_EFFECTS
            if op == O_BOOKS_PAY or ((op == O_COINS or op == O_RESEARCH) and C.ISET_ARG[iset, gi, j, 0] < 0):
                out |= PEND_PAYMENT
    return out


@rule
def order_matters(S, C, PR, g):
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
    iset = S.game[g, FR_SET + k]
    sel = S.game[g, FR_SEL + k]
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
    for gi in range(2):
        if not (sel & (1 << gi)):
            continue
        for j in range(K_ICONS):
            op = C.ISET_OP[iset, gi, j]
            if op == 0 or op >= O_FIRST_SECONDARY or (S.game[g, FR_USED + k] & (1 << (gi * K_ICONS + j))):
                continue
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
    if n < 2:
        return False
    if x2 > 0 and vpgain > 0:
        return True
    if up > 0 and down > 0:
        v = S.seat[g, p, SUSP]
        if v - down < 0 or v + up > PR[I_SUSP_MAX]:
            return True
        if v - down < PR[I_PRISON] <= v + up or v - down < PR[I_STAKE] <= v + up:
            return True
    if takers >= 2 and seals_left(S, g, p) < takers and (mentor + tracks) >= 2:
        return True
    if (income > 0 and bookchg > 0) or (bookup > 0 and bookchg >= 2):
        return True
    if bookchg >= 2:
        for sb in range(4):
            gsum = 0
            psum = 0
            for gi in range(2):
                if not (sel & (1 << gi)):
                    continue
                for j in range(K_ICONS):
                    op = C.ISET_OP[iset, gi, j]
                    if (S.game[g, FR_USED + k] & (1 << (gi * K_ICONS + j))) or C.ISET_ARG[iset, gi, j, 0] != sb:
                        continue
                    if op == O_BOOKS:
                        gsum += C.ISET_ARG[iset, gi, j, 1]
                    elif op == O_BOOKS_PAY:
                        psum += C.ISET_ARG[iset, gi, j, 1]
            if gsum > 0 and psum > 0 and S.seat[g, p, BOOKS + sb] + gsum > PR[I_BOOK_MAX]:
                return True
    return False


@rule
def grad_ok(S, C, g, p, tile):
    r = C.GRAD_REQ[tile]
    books = 0
    for s in range(4):
        books += S.seat[g, p, BOOKS + s]
    return (count_treatise_seals(S, g, p) >= r[0] and count_tiles(S, g, p) >= r[1]
            and count_inventions(S, g, p) >= r[2] and books >= r[3] and S.seat[g, p, RESEARCH] >= r[4]
            and S.seat[g, p, COINS] >= r[5])


@rule
def upgrade_ok(S, C, g, p):
    lv = S.seat[g, p, LEVEL]
    if lv >= 4 or seals_left(S, g, p) == 0:
        return False
    free = False
    for i in range(LEVEL_SEAL_SPACES):
        if S.game[g, LVL_SEAL + (lv - 1) * LVL_SEAL_W + i] == -1:
            free = True
    return free and grad_ok(S, C, g, p, S.game[g, GRAD + (lv - 1)])


@rule
def top_ok(S, C, PR, g, p, t, subj, xb):
    """Card type ``t`` as the Active card of a stack whose spines give ``xb`` Books in Subject ``subj``
    (-1: only purple, the Subject is still to be chosen: any one that works) can have its page paid,
    after what Ongoing Inventions give on a play."""
    iset = C.CARD_ISET[t]
    if not C.ISET_PAY[iset]:
        return True
    dc = trig_gain(S, C, g, p, TR_PLAY, False)
    dr = trig_gain(S, C, g, p, TR_PLAY, True)
    if subj >= 0:
        return iset_ok(S, C, PR, g, p, iset, subj, xb, dc, dr, TR_PLAY)
    for s in range(4):
        if iset_ok(S, C, PR, g, p, iset, s, xb, dc, dr, TR_PLAY):
            return True
    return False


@rule
def stack_books(S, C, g, p):
    xb = 0
    for i in range(S.game[g, STACK_N]):
        xb += C.CARD_BOOKS[S.slot[g, p, S.pile[g, STACK, i], SLOT_CTYPE]]
    return xb


@rule
def stack_card_ok(S, C, PR, g, p, t, hand):
    """Card type ``t`` in hand (``hand`` bitmask) can go on the current stack: the Subject rule, and the
    stack can still be finished with an Active card whose page can be paid. Only the Active card's page
    is activated (seed Play 3: other cards' pages are ignored), so a card whose own page cannot be paid
    may go under one that can."""
    if not (hand >> t) & 1:
        return False
    s = C.CARD_SUBJ[t]
    if C.CARD_KIND[t] == 2:
        return False
    ss = S.game[g, STACK_SUBJ] if S.game[g, STACK_N] > 0 else -1
    if ss >= 0 and s != PURPLE and s != ss:
        return False
    subj = ss if ss >= 0 else (s if s < PURPLE else -1)
    xb = C.CARD_BOOKS[t] + stack_books(S, C, g, p)
    if top_ok(S, C, PR, g, p, t, subj, xb):      # done right after: t is the Active card
        return True
    # or more cards follow: every other fitting card in hand goes under a last one, the Active card
    for s4 in range(4):
        if subj >= 0 and s4 != subj:
            continue
        more = 0
        skip = True
        for c in range(S.seat[g, p, NSLOTS]):
            u = S.slot[g, p, c, SLOT_CTYPE]
            if S.slot[g, p, c, SLOT_CZONE] != Z_HAND or C.CARD_KIND[u] == 2:
                continue
            if u == t and skip:
                skip = False          # the copy of t being played
                continue
            if C.CARD_SUBJ[u] == PURPLE or C.CARD_SUBJ[u] == s4:
                more += C.CARD_BOOKS[u]
        skip = True
        for c in range(S.seat[g, p, NSLOTS]):
            u = S.slot[g, p, c, SLOT_CTYPE]
            if S.slot[g, p, c, SLOT_CZONE] != Z_HAND or C.CARD_KIND[u] == 2:
                continue
            if u == t and skip:
                skip = False
                continue
            if (C.CARD_SUBJ[u] == PURPLE or C.CARD_SUBJ[u] == s4) and top_ok(S, C, PR, g, p, u, s4, xb + more):
                return True
    return False


@rule
def space_ok(S, C, PR, g, p, sp):
    if S.seat[g, p, PHIL] != PH_STANDING or C.SPACE_LEVEL[sp] > S.seat[g, p, LEVEL]:
        return False
    if C.SPACE_EXCL[sp] and S.space[g, sp, SPACE_USED] > 0:
        return False
    return iset_ok(S, C, PR, g, p, C.SPACE_ISET[sp], -1, 0, 0, 0, -1)


# ====================================================================== legal mask


@rule
def mask_game(S, C, PR, g, out):
    # ``out`` arrives all False (legal_action_mask allocates it zeroed)
    if S.game[g, OVER]:
        return
    p = S.game[g, TO_ACT]
    ph = S.game[g, PHASE]
    nt = C.CARD_SUBJ.shape[0]
    if ph == P_MAIN or ph == P_STACK:
        hand = hand_types(S, g, p)
    else:
        hand = 0
    if ph == P_MAIN:
        # cheap inline tests first: every helper call copies the state tuple, so call only when needed
        pen_bits = 0
        for t in range(nt):
            if C.CARD_KIND[t] == 2:
                pen_bits |= 1 << t
        out[A_PASS] = (hand & pen_bits) == 0
        out[A_ABJURE] = S.seat[g, p, COPER] and S.game[g, CYCLE] < PR[I_P3]
        if S.seat[g, p, LEVEL] < 4:
            out[A_UPGRADE] = upgrade_ok(S, C, g, p)
        for t in range(nt):
            if not (hand >> t) & 1:
                continue
            k = C.CARD_KIND[t]
            if k == 2:
                out[A_CARD + t] = True
            elif k >= 0:
                if C.ISET_PAY[C.CARD_ISET[t]]:
                    out[A_CARD + t] = stack_card_ok(S, C, PR, g, p, t, hand)
                else:
                    out[A_CARD + t] = True
        for i in range(C.INV_TYPE.shape[0]):
            if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_ONCE and not S.inv[g, i, INV_TAPPED]:
                iset = C.INV_ISET[i]
                out[A_INV + i] = (not C.ISET_PAY[iset]) or iset_ok(S, C, PR, g, p, iset, -1, 0, 0, 0, -1)
        if S.seat[g, p, PHIL] == PH_STANDING:
            lv = S.seat[g, p, LEVEL]
            for sp in range(C.SPACE_LEVEL.shape[0]):
                if C.SPACE_LEVEL[sp] > lv or (C.SPACE_EXCL[sp] and S.space[g, sp, SPACE_USED] > 0):
                    continue
                iset = C.SPACE_ISET[sp]
                out[A_SPACE + sp] = (not C.ISET_PAY[iset]) or iset_ok(S, C, PR, g, p, iset, -1, 0, 0, 0, -1)
    elif ph == P_STACK:
        # the Active (top) card's page must be payable to finish (only its icons activate)
        top_t = S.slot[g, p, S.pile[g, STACK, S.game[g, STACK_N] - 1], SLOT_CTYPE]
        out[A_DONE] = top_ok(S, C, PR, g, p, top_t, S.game[g, STACK_SUBJ], stack_books(S, C, g, p))
        for t in range(nt):
            if (hand >> t) & 1 and (C.CARD_KIND[t] == 0 or C.CARD_KIND[t] == 1):
                out[A_CARD + t] = stack_card_ok(S, C, PR, g, p, t, hand)
    elif ph == P_PURPLE:
        top_t = S.slot[g, p, S.pile[g, STACK, S.game[g, STACK_N] - 1], SLOT_CTYPE]
        xb = stack_books(S, C, g, p)
        for s in range(4):
            out[A_SUBJ + s] = top_ok(S, C, PR, g, p, top_t, s, xb)
    elif ph == P_PENPAY:
        out[A_DONE] = True
        out[A_PAY] = S.seat[g, p, COINS] >= C.CARD_PEN_COINS[S.slot[g, p, S.game[g, CUR_CARD], SLOT_CTYPE]]
    elif ph == P_GROUP:
        k = S.game[g, FR_N] - 1
        iset = S.game[g, FR_SET + k]
        a_ok = group_ok(S, C, PR, g, p, iset, 1, -1, 0, 0, 0, -1, -1)
        b_ok = group_ok(S, C, PR, g, p, iset, 2, -1, 0, 0, 0, -1, -1)
        both = C.ISET_SEP[iset] == SEP_SUSP and group_ok(S, C, PR, g, p, iset, 3, -1, 0, 0, 0, -1, -1)
        if not (a_ok or b_ok or both):
            a_ok = True
            b_ok = True   # unreachable: every path checks the payments before it starts (A-GT-24)
        out[A_GROUP] = a_ok
        out[A_GROUP + 1] = b_ok
        out[A_GROUP + 2] = both
    elif ph == P_SEC:
        pend = pending_effects(S, C, g)
        out[A_DONE] = pend == 0
        out[A_EFFECTS] = pend != 0
        kinds = frame_sec_kinds(S, C, PR, g) if (pend & PEND_PAYMENT) == 0 else 0
        for kd in range(7):
            out[A_SEC + kd] = (kinds >> kd) & 1 == 1
        if pend != 0 and order_matters(S, C, PR, g):   # one pending Effect now, the rest later (A-GT-25)
            k = S.game[g, FR_N] - 1
            iset = S.game[g, FR_SET + k]
            sel = S.game[g, FR_SEL + k]
            for gi in range(2):
                if not (sel & (1 << gi)):
                    continue
                for j in range(K_ICONS):
                    op = C.ISET_OP[iset, gi, j]
                    if op == 0 or op >= O_FIRST_SECONDARY or (S.game[g, FR_USED + k] & (1 << (gi * K_ICONS + j))):
                        continue
                    out[A_ICON + gi * K_ICONS + j] = pay_now_ok(S, g, p, op, C.ISET_ARG[iset, gi, j, 0],
                                                                C.ISET_ARG[iset, gi, j, 1])
    elif ph == P_BOOKSUBJ:
        for s in range(4):
            if S.game[g, CUR_OP] == O_BOOK_UP:
                out[A_SUBJ + s] = book_level(PR, S.seat[g, p, BOOKS + s]) < 3
            else:
                out[A_SUBJ + s] = True
    elif ph == P_TARGET:
        for b in range(NB):
            if S.game[g, CUR_OP] == O_WRITE:
                out[A_BOARD + b] = write_ok(S, C, PR, g, p, b)
            elif S.game[g, CUR_OP] == O_COPY:
                out[A_BOARD + b] = copy_ok(S, C, g, p, b, S.game[g, CUR_A], S.game[g, CUR_B])
            else:
                out[A_BOARD + b] = read_ok(S, C, PR, g, p, b, S.game[g, CUR_A], S.game[g, CUR_B])
    elif ph == P_PLACE:
        out[A_DECKTOP] = True
        nt_new = S.slot[g, p, S.game[g, CUR_CARD], SLOT_CTYPE]
        for t in range(nt):
            if C.CARD_KIND[t] == 0 or C.CARD_KIND[t] == 1:
                out[A_CARD + t] = t != nt_new and has_in_zone(S, C, g, p, t, Z_HAND) >= 0
    elif ph == P_SLOT:
        for w in range(WORKSHOP_SLOTS):
            out[A_SLOT + w] = slot_ok(S, C, PR, g, p, w)
    elif ph == P_OLEVEL:
        for lv in range(1, 4):
            out[A_OLEVEL + lv - 1] = obs_level_ok(S, C, PR, g, p, lv)
    elif ph == P_OKEEP or ph == P_OORDER:
        out[A_KEEP] = True
        out[A_KEEP + 1] = True
    elif ph == P_OSPACE:
        r = S.game[g, OBS_LEVEL] - 1
        for c in range(WCOLS):
            out[A_WIN + r * WCOLS + c] = cell_ok(S, C, PR, g, p, r, c)
    elif ph == P_REMOVE:
        for t in range(nt):
            if C.CARD_KIND[t] == 0 or C.CARD_KIND[t] == 1:
                out[A_CARD + t] = removable(S, C, g, p, t, Z_HAND)
                out[A_RMDISC + t] = removable(S, C, g, p, t, Z_DISCARD)
                out[A_RMPLAY + t] = removable(S, C, g, p, t, Z_PLAY)


@njit(cache=True)
def mask_kernel(S, C, PR, out):
    for g in range(out.shape[0]):
        mask_game(S, C, PR, g, out[g])


# ====================================================================== turn / cycle flow


@rule
def start_turn(S, g):
    S.game[g, PHASE] = P_MAIN
    S.game[g, TURN_VP0] = S.seat[g, S.game[g, TO_ACT], VP]
    S.game[g, ACT_VP] = 0
    S.game[g, TURN_CARDS] = 0
    S.game[g, TURN_MAIN] = 0
    S.game[g, STACK_N] = 0
    S.game[g, FR_N] = 0


@rule
def period_of(PR, cycle):
    if cycle >= PR[I_P3]:
        return 3
    if cycle >= PR[I_P2]:
        return 2
    return 1


@rule
def refill_workshop(S, PR, g):
    """Slide the Workshop down to fill gaps; reveal new cards in the top slots from the current Period's deck."""
    n = WORKSHOP_SLOTS
    w = n - 1
    for r in range(n - 1, -1, -1):
        if S.game[g, WORKSHOP + r] >= 0:
            S.game[g, WORKSHOP + w] = S.game[g, WORKSHOP + r]
            if w != r:
                S.game[g, WORKSHOP + r] = -1
            w -= 1
    per = period_of(PR, S.game[g, CYCLE]) - 1
    while w >= 0:
        if S.game[g, INV_DECK_N + per] > 0:
            S.game[g, INV_DECK_N + per] -= 1
            S.game[g, WORKSHOP + w] = S.pile[g, INV_DECK_1 + per, S.game[g, INV_DECK_N + per]]
        else:
            S.game[g, WORKSHOP + w] = -1
        w -= 1
    S.game[g, WS_DIRTY] = False


@rule
def start_cycle(S, C, PR, g):
    """Inquisition flip, Income Phase, hands drawn up to ``hand_size``; first player opens."""
    P = S.seat.shape[1]
    if S.game[g, CYCLE] == PR[I_INQ] and not S.game[g, INQ_UP]:
        S.game[g, INQ_UP] = True
        ev(S, g, S.game[g, FIRST], E_INQUISITION, C_NONE, 0, -1, -1, 0, 1)
    S.game[g, FIRST_PASS] = -1
    for p in range(P):
        S.seat[g, p, PASSED] = False
        S.seat[g, p, COINS] += PR[I_INC_COINS + book_level(PR, S.seat[g, p, BOOKS + PHYSICS]) - 1]
        S.seat[g, p, RESEARCH] += PR[I_INC_RES + book_level(PR, S.seat[g, p, BOOKS + MATHEMATICS]) - 1]
        for i in range(C.INV_TYPE.shape[0]):
            if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_INCOME:
                apply_iset_simple(S, C, PR, g, p, C.INV_ISET[i], i)
        held = 0
        for c in range(S.seat[g, p, NSLOTS]):
            if S.slot[g, p, c, SLOT_CZONE] == Z_HAND:
                held += 1
        if held < PR[I_HAND]:
            draw_n(S, g, p, PR[I_HAND] - held)     # up to the hand size (A-GT-04)
    S.game[g, TO_ACT] = S.game[g, FIRST]
    start_turn(S, g)


@rule
def final_scoring(S, C, PR, g):
    P = S.seat.shape[1]
    for p in range(P):
        for i in range(C.INV_TYPE.shape[0]):
            if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_ENDGAME:
                k = C.INV_END_KIND[i]
                n = C.INV_END_N[i]
                if k == 0:
                    v = n
                elif k == 1:
                    v = n * count_tiles(S, g, p)
                elif k == 2:
                    v = n * count_treatise_seals(S, g, p)
                elif k == 3:
                    v = n * count_inventions(S, g, p)
                else:
                    v = n * S.seat[g, p, LEVEL]
                add_vp(S, g, p, v, C_INVENTION, i)
        if S.seat[g, p, COPER]:
            add_vp(S, g, p, PR[I_TRUTH_FLAT] + PR[I_TRUTH_TILE] * count_tiles(S, g, p), C_TRUTH, -1)
        if S.seat[g, p, PHIL] == PH_STAKE:
            add_vp(S, g, p, PR[I_STAKE_VP], C_SUSPICION, -1)
        else:
            band = 0
            for k in range(4):
                if S.seat[g, p, SUSP] >= PR[I_BAND_START + k]:
                    band = k
            add_vp(S, g, p, PR[I_BAND_VP + band], C_SUSPICION, -1)
        add_vp(S, g, p, -S.seat[g, p, END_LOSS], C_END_LOSS, -1)
        add_vp(S, g, p, S.seat[g, p, BESIDE] * PR[I_BESIDE_VP], C_SEALS, -1)
    S.game[g, OVER] = True
    S.game[g, PHASE] = P_OVER


@rule
def next_first_player(S, PR, g):
    """Seat that opens the next Cycle (A-GT-31, ``first_player_rule``): rotate = the next seat
    clockwise; first-to-pass = the first seat that passed this Cycle; fewest-vp = the seat with the
    fewest VP, ties clockwise from the next seat; fixed = the seat that opened this Cycle."""
    P = S.seat.shape[1]
    f = S.game[g, FIRST]
    rule = PR[I_FIRST_RULE]
    if rule == 1 and S.game[g, FIRST_PASS] >= 0:
        return S.game[g, FIRST_PASS]
    if rule == 2:
        best = (f + 1) % P
        for k in range(2, P + 1):
            q = (f + k) % P
            if S.seat[g, q, VP] < S.seat[g, best, VP]:
                best = q
        return best
    if rule == 3:
        return f
    return (f + 1) % P


@rule
def end_cycle(S, C, PR, g):
    """End of Cycle: hand and play area to discard, Inventions upright, Philosophers back, Penance, next Cycle."""
    P = S.seat.shape[1]
    for p in range(P):
        for c in range(S.seat[g, p, NSLOTS]):
            z = S.slot[g, p, c, SLOT_CZONE]
            if z == Z_HAND or z == Z_PLAY:
                S.slot[g, p, c, SLOT_CZONE] = Z_DISCARD
        if S.seat[g, p, PHIL] == PH_ON_SPACE:
            S.seat[g, p, PHIL] = PH_STANDING
        elif S.seat[g, p, PHIL] == PH_LYING:
            S.seat[g, p, PHIL] = PH_STANDING
        elif S.seat[g, p, PHIL] == PH_PRISON:
            S.seat[g, p, PHIL] = PH_LYING
        if S.seat[g, p, COPER] and S.seat[g, p, SUSP] >= PR[I_PEN_THR] and S.game[g, PEN_N] > 0:
            S.game[g, PEN_N] -= 1
            t = S.pile[g, PEN_PILE, S.game[g, PEN_N]]
            c = new_card(S, g, p, t)
            S.slot[g, p, c, SLOT_CZONE] = Z_DISCARD
            ev(S, g, p, E_PENANCE, C_GAINED, 0, -1, t, S.seat[g, p, SUSP], S.seat[g, p, SUSP])
    for i in range(S.inv.shape[1]):
        S.inv[g, i, INV_TAPPED] = False
    for sp in range(S.space.shape[1]):
        S.space[g, sp, SPACE_USED] = 0
    if S.game[g, CYCLE] >= PR[I_CYCLES]:
        final_scoring(S, C, PR, g)
        return
    S.game[g, CYCLE] += 1
    S.game[g, FIRST] = next_first_player(S, PR, g)
    start_cycle(S, C, PR, g)


@rule
def end_turn(S, C, PR, g):
    p = S.game[g, TO_ACT]
    if S.game[g, WS_DIRTY]:
        refill_workshop(S, PR, g)
    b = S.turn_buf
    r = begin_turn_row(b, S.turn_n, g, S.ply[g] + 1, S.game[g, TURN], S.game[g, CYCLE], p)
    b[g, r, TURN_MAIN_ACTION] = S.game[g, TURN_MAIN]
    b[g, r, TURN_VP_GAINED] = S.seat[g, p, VP] - S.game[g, TURN_VP0]
    b[g, r, TURN_SUSPICION_AFTER] = S.seat[g, p, SUSP]
    b[g, r, TURN_PRINCIPLE_AFTER] = 0 if S.seat[g, p, COPER] else 1
    b[g, r, TURN_COINS_AFTER] = S.seat[g, p, COINS]
    b[g, r, TURN_RESEARCH_AFTER] = S.seat[g, p, RESEARCH]
    b[g, r, TURN_CARDS_PLAYED] = S.game[g, TURN_CARDS]
    S.game[g, TURN] += 1
    P = S.seat.shape[1]
    for k in range(1, P + 1):
        q = (p + k) % P
        if not S.seat[g, q, PASSED]:
            S.game[g, TO_ACT] = q
            start_turn(S, g)
            return
    end_cycle(S, C, PR, g)


# ====================================================================== icon resolution machine


@rule
def advance(S, C, PR, g):
    """Resolve icons until a decision is needed; end the turn when the Main Action is complete."""
    p = S.game[g, TO_ACT]
    while True:
        n = S.game[g, FR_N]
        if n == 0:
            end_turn(S, C, PR, g)
            return
        k = n - 1
        if S.game[g, FR_USED + k] & OBS_BONUS:   # Observe the Sky, step 6: Bonus 2 VP, 1 Coin after the icons
            S.game[g, FR_USED + k] -= OBS_BONUS
            add_vp(S, g, p, PR[I_OBS_VP], C_OBSERVATION, S.game[g, OBS_TILE])
            S.seat[g, p, COINS] += PR[I_OBS_COINS]
        iset = S.game[g, FR_SET + k]
        if S.game[g, FR_SEL + k] == 0:
            sep = C.ISET_SEP[iset]
            if sep == SEP_NONE:
                S.game[g, FR_SEL + k] = 1
            elif sep == SEP_PRINC:
                S.game[g, FR_SEL + k] = 1 if S.seat[g, p, COPER] else 2
            else:
                S.game[g, PHASE] = P_GROUP
                return
        sel = S.game[g, FR_SEL + k]
        # icons activate in the order the player likes (A-GT-25): while mandatory Effects are pending
        # and a Secondary Action can be done now, the player chooses between them; a pending payment
        # is made first so that no Secondary Action spends what the Effect must pay
        if not (S.game[g, FR_USED + k] & EFF_GO):
            pend = pending_effects(S, C, g)
            if (pend == PEND_EFFECTS and frame_sec_kinds(S, C, PR, g) != 0) or (pend != 0 and order_matters(S, C, PR, g)):
                S.game[g, PHASE] = P_SEC
                return
            S.game[g, FR_USED + k] |= EFF_GO
        # mandatory Effects, gains and payments in printed order; choice Effects ask; a payment that
        # cannot be made in full yet waits for the gains printed after it (A-GT-24), then is paid
        for gi in range(2):
            if not (sel & (1 << gi)):
                continue
            for j in range(K_ICONS):
                bit = 1 << (gi * K_ICONS + j)
                op = C.ISET_OP[iset, gi, j]
                if op == 0 or op >= O_FIRST_SECONDARY or (S.game[g, FR_USED + k] & bit):
                    continue
                if op == O_BOOK_ANY or op == O_BOOK_DIFF or op == O_BOOK_UP:
                    if not book_icon_can_act(S, C, PR, g, p, op):
                        S.game[g, FR_USED + k] |= bit
                        continue
                    start_book_icon(S, g, op, C.ISET_ARG[iset, gi, j, 0], bit)
                    return
                if not pay_now_ok(S, g, p, op, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1]):
                    continue
                S.game[g, FR_USED + k] |= bit
                apply_simple(S, C, PR, g, p, op, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                             C.ISET_ARG[iset, gi, j, 2], C.ISET_ARG[iset, gi, j, 3], iset)
        for gi in range(2):     # the payments that waited; the gains came first
            if not (sel & (1 << gi)):
                continue
            for j in range(K_ICONS):
                bit = 1 << (gi * K_ICONS + j)
                op = C.ISET_OP[iset, gi, j]
                if op == 0 or op >= O_FIRST_SECONDARY or (S.game[g, FR_USED + k] & bit):
                    continue
                S.game[g, FR_USED + k] |= bit
                apply_simple(S, C, PR, g, p, op, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                             C.ISET_ARG[iset, gi, j, 2], C.ISET_ARG[iset, gi, j, 3], iset)
        if frame_sec_kinds(S, C, PR, g) != 0:
            S.game[g, PHASE] = P_SEC
            return
        S.game[g, FR_N] = k


@rule
def finish_stack(S, C, PR, g):
    """Books from every visible spine in the stack's Subject, then the Active (top) card's icons."""
    p = S.game[g, TO_ACT]
    total = 0
    for i in range(S.game[g, STACK_N]):
        total += C.CARD_BOOKS[S.slot[g, p, S.pile[g, STACK, i], SLOT_CTYPE]]
    add_books(S, PR, g, p, S.game[g, STACK_SUBJ], total)
    trigger(S, C, PR, g, p, TR_PLAY)
    top = S.pile[g, STACK, S.game[g, STACK_N] - 1]
    push_frame(S, C, g, C.CARD_ISET[S.slot[g, p, top, SLOT_CTYPE]])
    advance(S, C, PR, g)


@rule
def book_icon_can_act(S, C, PR, g, p, op):
    """Whether Book icon ``op`` (O_BOOK_ANY / O_BOOK_DIFF / O_BOOK_UP) has something to act on for seat
    ``p`` (seed §Effects, the Book icon; an icon with nothing to act on is skipped): "one Book per
    Treatise of a different Subject in play" needs such a Treatise (``diff_subjects_in_play``), "move a
    Subject Marker to ... its next Level" needs a track below Level 3."""
    if op == O_BOOK_DIFF:
        return diff_subjects_in_play(S, C, g, p) > 0
    if op == O_BOOK_UP:
        for s in range(4):
            if book_level(PR, S.seat[g, p, BOOKS + s]) < 3:
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


@rule
def resolve_icon(S, C, PR, g, i):
    """Resolve pending Effect icon ``i`` (= group * K_ICONS + position) of the top frame now (A-GT-25)."""
    p = S.game[g, TO_ACT]
    k = S.game[g, FR_N] - 1
    iset = S.game[g, FR_SET + k]
    gi = i // K_ICONS
    j = i % K_ICONS
    bit = 1 << i
    op = C.ISET_OP[iset, gi, j]
    if op == O_BOOK_ANY or op == O_BOOK_DIFF or op == O_BOOK_UP:
        if book_icon_can_act(S, C, PR, g, p, op):
            start_book_icon(S, g, op, C.ISET_ARG[iset, gi, j, 0], bit)
            return
        S.game[g, FR_USED + k] |= bit
    else:
        S.game[g, FR_USED + k] |= bit
        apply_simple(S, C, PR, g, p, op, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                     C.ISET_ARG[iset, gi, j, 2], C.ISET_ARG[iset, gi, j, 3], iset)
    advance(S, C, PR, g)


@rule
def start_secondary(S, C, PR, g, kind):
    """Mark the first open icon of ``kind`` in the top frame as used and begin that Secondary Action."""
    p = S.game[g, TO_ACT]
    k = S.game[g, FR_N] - 1
    iset = S.game[g, FR_SET + k]
    sel = S.game[g, FR_SEL + k]
    op_want = kind + O_FIRST_SECONDARY
    for gi in range(2):
        if not (sel & (1 << gi)):
            continue
        for j in range(K_ICONS):
            bit = 1 << (gi * K_ICONS + j)
            if C.ISET_OP[iset, gi, j] == op_want and not (S.game[g, FR_USED + k] & bit) and sec_ok(
                    S, C, PR, g, p, kind, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                    C.ISET_ARG[iset, gi, j, 2]):
                S.game[g, FR_USED + k] |= bit
                S.game[g, CUR_OP] = op_want
                S.game[g, CUR_A] = C.ISET_ARG[iset, gi, j, 0]
                S.game[g, CUR_B] = C.ISET_ARG[iset, gi, j, 1]
                S.game[g, CUR_C] = C.ISET_ARG[iset, gi, j, 2]
                if op_want == O_DRAW:
                    draw_one(S, g, p)
                    advance(S, C, PR, g)
                elif op_want == O_WRITE or op_want == O_COPY or op_want == O_READ:
                    S.game[g, PHASE] = P_TARGET
                elif op_want == O_INVENT:
                    S.game[g, PHASE] = P_SLOT
                elif op_want == O_OBSERVE:
                    S.game[g, PHASE] = P_OLEVEL
                else:
                    S.game[g, PHASE] = P_REMOVE
                return


@rule
def bag_draw(S, g, lv):
    """One tile of Level ``lv`` (an empty bag is refilled from that Level's discards); -1 if none."""
    i = lv - 1
    if S.game[g, BAG_N + i] == 0:
        n = 0
        for k in range(S.game[g, BAGDISC_N + i]):
            S.pile[g, BAG_1 + i, n] = S.pile[g, BAGDISC_1 + i, k]
            n += 1
        S.game[g, BAGDISC_N + i] = 0
        chance_shuffle(S.rng_key, S.rng_ctr, g, RZ_BAG + i, S.pile[g, BAG_1 + i], 0, n)
        S.game[g, BAG_N + i] = n
    if S.game[g, BAG_N + i] == 0:
        return -1
    S.game[g, BAG_N + i] -= 1
    return S.pile[g, BAG_1 + i, S.game[g, BAG_N + i]]


@rule
def tile_discard(S, g, lv, t):
    i = lv - 1
    S.pile[g, BAGDISC_1 + i, S.game[g, BAGDISC_N + i]] = t
    S.game[g, BAGDISC_N + i] += 1


@rule
def take_card(S, C, PR, g, p, t, kind, b, before):
    """Write/Copy: a new card of type ``t``; the player then places it (deck top or hand)."""
    c = new_card(S, g, p, t)
    S.slot[g, p, c, SLOT_CZONE] = Z_HAND     # held while the player decides where it goes
    S.slot[g, p, c, SLOT_KNOWN] = True       # everyone saw it taken (search copies keep it where it goes)
    S.game[g, CUR_CARD] = c
    S.game[g, PHASE] = P_PLACE


@rule
def apply_game(S, C, PR, g, a):
    p = S.game[g, TO_ACT]
    ph = S.game[g, PHASE]
    nt = C.CARD_SUBJ.shape[0]
    if ph == P_MAIN:
        if a == A_PASS:
            S.seat[g, p, PASSED] = True
            if S.game[g, FIRST_PASS] < 0:
                S.game[g, FIRST_PASS] = p
            S.game[g, TURN_MAIN] = M_PASS
            end_turn(S, C, PR, g)
        elif a == A_ABJURE:
            S.game[g, TURN_MAIN] = M_ABJURE
            before = S.seat[g, p, SUSP]
            S.seat[g, p, COPER] = False
            S.seat[g, p, ABJURE_CYCLE] = S.game[g, CYCLE]
            add_susp(S, PR, g, p, -PR[I_ABJ_DROP], C_S_ABJURE, -1)
            hit = 0
            for q in range(S.seat.shape[1]):
                if q != p and S.seat[g, q, COPER]:
                    hit += 1
            ev(S, g, p, E_ABJURE, C_S_ABJURE, hit, -1, -1, before, S.seat[g, p, SUSP])
            for q in range(S.seat.shape[1]):
                if q != p and S.seat[g, q, COPER]:
                    add_susp(S, PR, g, q, PR[I_ABJ_RISE], C_S_ABJURE_OTHER, p)
            end_turn(S, C, PR, g)
        elif a == A_UPGRADE:
            S.game[g, TURN_MAIN] = M_UPGRADE
            lv = S.seat[g, p, LEVEL]
            take_seal(S, g, p)
            for i in range(LEVEL_SEAL_SPACES):
                if S.game[g, LVL_SEAL + (lv - 1) * LVL_SEAL_W + i] == -1:
                    S.game[g, LVL_SEAL + (lv - 1) * LVL_SEAL_W + i] = p
                    S.seat[g, p, LEVEL] = lv + 1
                    ev(S, g, p, E_UPGRADE, C_LEVEL, i, -1, lv + 1, lv, lv + 1)
                    add_vp(S, g, p, PR[I_LVL_VP + 4 * (lv - 1) + i], C_LEVEL, lv + 1)
                    break
            trigger(S, C, PR, g, p, TR_UPGRADE)
            end_turn(S, C, PR, g)
        elif A_CARD <= a < A_CARD + nt:
            t = a - A_CARD
            c = has_in_zone(S, C, g, p, t, Z_HAND)
            S.slot[g, p, c, SLOT_CZONE] = Z_PLAY
            S.game[g, TURN_CARDS] += 1
            if C.CARD_KIND[t] == 2:
                S.game[g, TURN_MAIN] = M_PENANCE
                S.game[g, CUR_CARD] = c
                before = S.seat[g, p, SUSP]
                if not S.game[g, INQ_UP]:
                    add_susp(S, PR, g, p, -PR[I_PEN_DROP], C_S_PENANCE, -1)
                ev(S, g, p, E_PENANCE, C_NONE, 0, -1, t, before, S.seat[g, p, SUSP])
                S.game[g, PHASE] = P_PENPAY
            else:
                S.game[g, TURN_MAIN] = M_PLAY
                S.pile[g, STACK, 0] = c
                S.game[g, STACK_N] = 1
                S.game[g, STACK_SUBJ] = C.CARD_SUBJ[t] if C.CARD_SUBJ[t] < PURPLE else -1
                S.game[g, PHASE] = P_STACK
        elif A_INV <= a < A_INV + S.inv.shape[1]:
            i = a - A_INV
            S.game[g, TURN_MAIN] = M_INVENTION
            S.inv[g, i, INV_TAPPED] = True
            ev(S, g, p, E_USE_INV, C_NONE, 0, -1, i, 0, 0)
            push_frame(S, C, g, C.INV_ISET[i])
            advance(S, C, PR, g)
        elif A_SPACE <= a < A_SPACE + S.space.shape[1]:
            sp = a - A_SPACE
            S.game[g, TURN_MAIN] = M_PHILOSOPHER
            S.seat[g, p, PHIL] = PH_ON_SPACE
            S.seat[g, p, PHIL_SPACE] = sp
            S.space[g, sp, SPACE_USED] += 1
            push_frame(S, C, g, C.SPACE_ISET[sp])
            advance(S, C, PR, g)
    elif ph == P_STACK:
        if a == A_DONE:
            if S.game[g, STACK_SUBJ] < 0:
                S.game[g, PHASE] = P_PURPLE
            else:
                finish_stack(S, C, PR, g)
        else:
            t = a - A_CARD
            c = has_in_zone(S, C, g, p, t, Z_HAND)
            S.slot[g, p, c, SLOT_CZONE] = Z_PLAY
            S.game[g, TURN_CARDS] += 1
            S.pile[g, STACK, S.game[g, STACK_N]] = c
            S.game[g, STACK_N] += 1
            if S.game[g, STACK_SUBJ] < 0 and C.CARD_SUBJ[t] < PURPLE:
                S.game[g, STACK_SUBJ] = C.CARD_SUBJ[t]
    elif ph == P_PURPLE:
        S.game[g, STACK_SUBJ] = a - A_SUBJ
        finish_stack(S, C, PR, g)
    elif ph == P_PENPAY:
        c = S.game[g, CUR_CARD]
        t = S.slot[g, p, c, SLOT_CTYPE]
        if a == A_PAY:
            pay(S, g, p, COINS, C.CARD_PEN_COINS[t])
            S.slot[g, p, c, SLOT_CZONE] = Z_REMOVED
            ev(S, g, p, E_PENANCE, C_PAID, C.CARD_PEN_COINS[t], -1, t, S.seat[g, p, SUSP], S.seat[g, p, SUSP])
        end_turn(S, C, PR, g)
    elif ph == P_GROUP:
        k = S.game[g, FR_N] - 1
        if a == A_GROUP + 2:
            add_susp(S, PR, g, p, 1, C_S_LINE, -1)
            S.game[g, FR_SEL + k] = 3
        else:
            S.game[g, FR_SEL + k] = 1 if a == A_GROUP else 2
        advance(S, C, PR, g)
    elif ph == P_SEC:
        if a == A_DONE:
            S.game[g, FR_N] -= 1
            advance(S, C, PR, g)
        elif a == A_EFFECTS:
            S.game[g, FR_USED + (S.game[g, FR_N] - 1)] |= EFF_GO
            advance(S, C, PR, g)
        elif a >= A_ICON:
            resolve_icon(S, C, PR, g, a - A_ICON)
        else:
            start_secondary(S, C, PR, g, a - A_SEC)
    elif ph == P_BOOKSUBJ:
        s = a - A_SUBJ
        op = S.game[g, CUR_OP]
        if op == O_BOOK_ANY:
            add_books(S, PR, g, p, s, S.game[g, CUR_A])
        elif op == O_BOOK_DIFF:
            add_books(S, PR, g, p, s, diff_subjects_in_play(S, C, g, p))
        else:
            lv = book_level(PR, S.seat[g, p, BOOKS + s])
            S.seat[g, p, BOOKS + s] = PR[I_BOOK_LV + lv]
        if S.game[g, CUR_BIT] != 0 and S.game[g, FR_N] > 0:
            S.game[g, FR_USED + (S.game[g, FR_N] - 1)] |= S.game[g, CUR_BIT]
        S.game[g, CUR_BIT] = 0
        advance(S, C, PR, g)
    elif ph == P_TARGET:
        b = a - A_BOARD
        op = S.game[g, CUR_OP]
        if op == O_WRITE:
            for s in range(4):
                add_books(S, PR, g, p, s, -C.BOARD_BOOKS[b, s])
            pay(S, g, p, RESEARCH, write_research(S, C, PR, g, p, b))
            take_seal(S, g, p)
            i = board_free_space(S, g, b, True)
            S.game[g, TSEAL + b * TSEAL_W + i] = p
            ev(S, g, p, E_WRITE, C_TREATISE, C.BOARD_SEALVP[b, i], p, b, i, 0)
            add_vp(S, g, p, C.BOARD_SEALVP[b, i], C_TREATISE, b)
            trigger(S, C, PR, g, p, TR_WRITE)
            take_card(S, C, PR, g, p, C.BOARD_CARD[b], 0, b, 0)
        elif op == O_COPY:
            pay(S, g, p, COINS, S.game[g, CUR_B])
            take_seal(S, g, p)
            owner = board_leftmost_owner(S, g, b)
            i = board_free_space(S, g, b, False)
            S.game[g, TSEAL + b * TSEAL_W + i] = p
            ev(S, g, p, E_COPY, C_TREATISE, S.game[g, CUR_C], owner, b, i, 0)
            add_vp(S, g, owner, S.game[g, CUR_C], C_TREATISE, b)
            trigger(S, C, PR, g, p, TR_COPY)
            take_card(S, C, PR, g, p, C.BOARD_CARD[b], 1, b, 0)
        else:
            pay(S, g, p, COINS, S.game[g, CUR_B])
            owner = board_leftmost_owner(S, g, b)
            ev(S, g, p, E_READ, C_TREATISE, S.game[g, CUR_C] if owner != p else 0, owner, b, 0, 0)
            if owner != p:
                add_vp(S, g, owner, S.game[g, CUR_C], C_TREATISE, b)
            trigger(S, C, PR, g, p, TR_READ)
            push_frame(S, C, g, C.CARD_ISET[C.BOARD_CARD[b]])
            advance(S, C, PR, g)
    elif ph == P_PLACE:
        c = S.game[g, CUR_CARD]
        if a == A_DECKTOP:
            put_on_deck(S, g, p, c)
        else:
            d = has_in_zone(S, C, g, p, a - A_CARD, Z_HAND)
            S.slot[g, p, d, SLOT_CZONE] = Z_DISCARD
        advance(S, C, PR, g)
    elif ph == P_SLOT:
        w = a - A_SLOT
        i = S.game[g, WORKSHOP + w]
        pay(S, g, p, COINS, PR[I_WS_COINS + w] + C.INV_COINS[i])
        pay(S, g, p, RESEARCH, C.INV_RES[i])
        for s in range(4):
            add_books(S, PR, g, p, s, -C.INV_BOOKS[i, s])
        trigger(S, C, PR, g, p, TR_INVENT)
        S.inv[g, i, INV_OWNER] = p
        S.game[g, WORKSHOP + w] = -1
        S.game[g, WS_DIRTY] = True
        ev(S, g, p, E_INVENT, C_NONE, PR[I_WS_COINS + w] + C.INV_COINS[i], -1, i, w, 0)
        apply_iset_simple(S, C, PR, g, p, C.INV_BOTTOM[i], i)
        advance(S, C, PR, g)
    elif ph == P_OLEVEL:
        lv = a - A_OLEVEL + 1
        S.game[g, OBS_LEVEL] = lv
        t1 = bag_draw(S, g, lv)
        t2 = -1
        if PR[I_OBS_DRAW] >= 2:
            t2 = bag_draw(S, g, lv)
        if t2 >= 0:
            S.game[g, OBS_TILES + 0] = t1
            S.game[g, OBS_TILES + 1] = t2
            S.game[g, PHASE] = P_OKEEP
        else:
            S.game[g, OBS_TILE] = t1
            S.game[g, PHASE] = P_OSPACE
    elif ph == P_OKEEP:
        i = a - A_KEEP
        S.game[g, OBS_TILE] = S.game[g, OBS_TILES + i]
        tile_discard(S, g, S.game[g, OBS_LEVEL], S.game[g, OBS_TILES + (1 - i)])
        S.game[g, PHASE] = P_OSPACE
    elif ph == P_OSPACE:
        cell = a - A_WIN
        r = cell // WCOLS
        c = cell % WCOLS
        pay(S, g, p, RESEARCH, C.WIN_RES[r, c])
        add_books(S, PR, g, p, ASTRONOMY, -C.WIN_ASTRO[r, c])
        S.seat[g, p, WINDOW + r * WINDOW_W + c] = S.game[g, OBS_TILE]
        S.game[g, OBS_CELL] = cell
        ev(S, g, p, E_OBSERVE, C_OBSERVATION, S.game[g, OBS_LEVEL], -1, S.game[g, OBS_TILE], cell, 0)
        trigger(S, C, PR, g, p, TR_OBSERVE)
        S.game[g, PHASE] = P_OORDER
    elif ph == P_OORDER:
        cell = S.game[g, OBS_CELL]
        sp_iset = C.WIN_ISET[cell // WCOLS, cell % WCOLS]
        tl_iset = C.TILE_ISET[S.game[g, OBS_TILE]]
        # seed step 6: the bonus comes after both icon sets; the frame that started Observe pays it
        # out when it is on top again (see advance)
        S.game[g, FR_USED + (S.game[g, FR_N] - 1)] |= OBS_BONUS
        if a == A_KEEP:     # space icons first: push the tile's frame underneath
            push_frame(S, C, g, tl_iset)
            push_frame(S, C, g, sp_iset)
        else:
            push_frame(S, C, g, sp_iset)
            push_frame(S, C, g, tl_iset)
        advance(S, C, PR, g)
    elif ph == P_REMOVE:
        if a < A_RMDISC:
            t = a - A_CARD
            zone = Z_HAND
        elif a < A_RMPLAY:
            t = a - A_RMDISC
            zone = Z_DISCARD
        else:
            t = a - A_RMPLAY
            zone = Z_PLAY
        c = has_in_zone(S, C, g, p, t, zone)
        S.slot[g, p, c, SLOT_CZONE] = Z_REMOVED
        s = C.CARD_SUBJ[t]
        if s < PURPLE:
            add_books(S, PR, g, p, s, C.CARD_BOOKS[t])
            advance(S, C, PR, g)
        else:      # a purple spine: its Books in one chosen Subject (A-GT-07)
            S.game[g, CUR_OP] = O_BOOK_ANY
            S.game[g, CUR_A] = C.CARD_BOOKS[t]
            S.game[g, CUR_BIT] = 0
            S.game[g, PHASE] = P_BOOKSUBJ


@njit(cache=True)
def apply_kernel(S, C, PR, actions, active):
    for g in range(actions.shape[0]):
        if active[g]:
            apply_game(S, C, PR, g, actions[g])


# ====================================================================== setup


@rule
def ids_where(key, value, out):
    """Write the ids ``i`` with ``key[i] == value`` into ``out`` in id order; returns how many."""
    n = 0
    for i in range(key.shape[0]):
        if key[i] == value:
            out[n] = i
            n += 1
    return n


@njit(cache=True)
def setup_kernel(S, C, PR):
    """Shuffle decks, Workshop decks, bags, Penance pile; draw Graduation tiles; first Cycle starts."""
    B = S.game.shape[0]
    P = S.seat.shape[1]
    nbasic = C.BASIC_CARDS.shape[0]
    for g in range(B):
        for p in range(P):
            for i in range(nbasic):
                S.slot[g, p, i, SLOT_CTYPE] = C.BASIC_CARDS[i]
                S.slot[g, p, i, SLOT_CZONE] = Z_DECK
                S.pile[g, DECK_0 + p, i] = i
            S.seat[g, p, DECK_N] = nbasic
            S.seat[g, p, NSLOTS] = nbasic
            chance_shuffle(S.rng_key, S.rng_ctr, g, RZ_DECK + p, S.pile[g, DECK_0 + p], 0, nbasic)
        for per in range(3):  # one Invention deck per Period, shuffled
            n = ids_where(C.INV_PERIOD, per + 1, S.pile[g, INV_DECK_1 + per])
            S.game[g, INV_DECK_N + per] = n
            chance_shuffle(S.rng_key, S.rng_ctr, g, RZ_INV + per, S.pile[g, INV_DECK_1 + per], 0, n)
        for lv in range(3):  # one Observation bag per Level, shuffled
            n = ids_where(C.TILE_LEVEL, lv + 1, S.pile[g, BAG_1 + lv])
            S.game[g, BAG_N + lv] = n
            chance_shuffle(S.rng_key, S.rng_ctr, g, RZ_BAG + lv, S.pile[g, BAG_1 + lv], 0, n)
        npen = C.PEN_TYPES.shape[0]
        for i in range(npen):
            S.pile[g, PEN_PILE, i] = C.PEN_TYPES[i]
        S.game[g, PEN_N] = npen
        chance_shuffle(S.rng_key, S.rng_ctr, g, RZ_PENANCE, S.pile[g, PEN_PILE], 0, npen)
        for lv in range(2, 5):
            n = 0
            for i in range(C.GRAD_LEVEL.shape[0]):
                if C.GRAD_LEVEL[i] == lv:
                    n += 1
            k = 0
            if n > 1:
                k = chance_below(S.rng_key, S.rng_ctr, g, RZ_GRAD + lv - 2, n)
            for i in range(C.GRAD_LEVEL.shape[0]):
                if C.GRAD_LEVEL[i] == lv:
                    if k == 0:
                        S.game[g, GRAD + (lv - 2)] = i
                        break
                    k -= 1
        refill_workshop(S, PR, g)
        start_cycle(S, C, PR, g)
