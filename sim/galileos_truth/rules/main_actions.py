"""The Main Action of a turn (seed 001 §Main Actions; A-GT-02, A-GT-03)."""

from __future__ import annotations

from ..cols import (ABJURE_CYCLE, COPER, CUR_CARD, CYCLE, FIRST_PASS, GRAD, INQ_UP, INV_OWNER, INV_TAPPED, LEVEL, LVL_SEAL,
                    LVL_SEAL_W, PASSED, PHASE, PHIL, PHIL_SPACE, SLOT_CZONE, SPACE_USED, STACK, STACK_N, STACK_SUBJ,
                    SUSP, TO_ACT, TURN_CARDS, TURN_MAIN)
from ..content import CK_NONE, CK_PENANCE, PURPLE
from meeplelab.sim.core.jit import handler, rule
from ..state import (A_ABJURE, A_CARD, A_INV, A_PASS, A_SPACE, A_UPGRADE, C_LEVEL, C_NONE, C_S_ABJURE,
                     C_S_ABJURE_OTHER, C_S_PENANCE, E_ABJURE, E_ASSIGN, E_PENANCE, E_PLAY, E_UPGRADE, E_USE_INV,
                     IT_ONCE, LEVEL_SEAL_SPACES, MAX_LEVEL, M_ABJURE, M_INVENTION, M_PASS, M_PENANCE, M_PHILOSOPHER,
                     M_PLAY, M_UPGRADE, PH_ON_SPACE, PH_STANDING, P_PENPAY, P_STACK, TR_UPGRADE, Z_HAND, Z_PLAY)
from ..pcols import (PRM_ABJURE_OTHER_RISE, PRM_ABJURE_SUSPICION_DROP, PRM_LEVEL_SPACE_VP_2,
                     PRM_PENANCE_SUSPICION_DROP, PRM_PERIOD3_FIRST_CYCLE)
from .academy import take_seal, upgrade_ok
from .cards import hand_types, has_in_zone
from .flow import advance, end_turn
from .icons import iset_ok, push_frame, trigger
from .ledger import add_susp, add_vp, ev
from .play import stack_card_ok


@rule
def space_ok(S, C, prm, g, p, sp):
    """Seat ``p`` may assign its standing Natural Philosopher to space ``sp``: Level, exclusivity, payable icons
    (seed 001 §Assign your Natural Philosopher; A-GT-16)."""
    if S.seat[g, p, PHIL] != PH_STANDING or C.SPACE_LEVEL[sp] > S.seat[g, p, LEVEL]:
        return False
    if C.SPACE_EXCL[sp] and S.space[g, sp, SPACE_USED] > 0:
        return False
    return iset_ok(S, C, prm, g, p, C.SPACE_ISET[sp], -1, 0, 0, 0, -1)


@handler
def legal_main(S, C, prm, g, out):
    """Legal actions of P_MAIN, the Main Action of the turn: pass (A-GT-02), §Abjure, §Play Treatise Cards, §Play a
    Penance Card, §Use an Invention, §Upgrade your Academic Level, §Assign your Natural Philosopher.

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    nt = C.CARD_SUBJ.shape[0]
    hand = hand_types(S, g, p)
    pen_bits = 0
    for t in range(nt):
        if C.CARD_KIND[t] == CK_PENANCE:
            pen_bits |= 1 << t
    out[A_PASS] = (hand & pen_bits) == 0
    out[A_ABJURE] = S.seat[g, p, COPER] and S.game[g, CYCLE] < prm[PRM_PERIOD3_FIRST_CYCLE]
    if S.seat[g, p, LEVEL] < MAX_LEVEL:
        out[A_UPGRADE] = upgrade_ok(S, C, g, p)
    for t in range(nt):
        if not (hand >> t) & 1:
            continue
        k = C.CARD_KIND[t]
        if k == CK_PENANCE:
            out[A_CARD + t] = True
        elif k != CK_NONE:
            if C.ISET_PAY[C.CARD_ISET[t]]:
                out[A_CARD + t] = stack_card_ok(S, C, prm, g, p, t, hand)
            else:
                out[A_CARD + t] = True
    for i in range(C.INV_TYPE.shape[0]):
        if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_ONCE and not S.inv[g, i, INV_TAPPED]:
            iset = C.INV_ISET[i]
            out[A_INV + i] = (not C.ISET_PAY[iset]) or iset_ok(S, C, prm, g, p, iset, -1, 0, 0, 0, -1)
    if S.seat[g, p, PHIL] == PH_STANDING:
        lv = S.seat[g, p, LEVEL]
        for sp in range(C.SPACE_LEVEL.shape[0]):
            if C.SPACE_LEVEL[sp] > lv or (C.SPACE_EXCL[sp] and S.space[g, sp, SPACE_USED] > 0):
                continue
            iset = C.SPACE_ISET[sp]
            out[A_SPACE + sp] = (not C.ISET_PAY[iset]) or iset_ok(S, C, prm, g, p, iset, -1, 0, 0, 0, -1)


@handler
def apply_main(S, C, prm, g, a):
    """Apply action ``a`` of P_MAIN to game ``g``: the Main Action of the turn: pass (A-GT-02), §Abjure, §Play
    Treatise Cards, §Play a Penance Card, §Use an Invention, §Upgrade your Academic Level, §Assign your Natural
    Philosopher."""
    p = S.game[g, TO_ACT]
    nt = C.CARD_SUBJ.shape[0]
    if a == A_PASS:
        S.seat[g, p, PASSED] = True
        if S.game[g, FIRST_PASS] < 0:
            S.game[g, FIRST_PASS] = p
        S.game[g, TURN_MAIN] = M_PASS
        end_turn(S, C, prm, g)
    elif a == A_ABJURE:
        S.game[g, TURN_MAIN] = M_ABJURE
        before = S.seat[g, p, SUSP]
        S.seat[g, p, COPER] = False
        S.seat[g, p, ABJURE_CYCLE] = S.game[g, CYCLE]
        add_susp(S, prm, g, p, -prm[PRM_ABJURE_SUSPICION_DROP], C_S_ABJURE, -1)
        hit = 0
        for q in range(S.seat.shape[1]):
            if q != p and S.seat[g, q, COPER]:
                hit += 1
        ev(S, g, p, E_ABJURE, C_S_ABJURE, hit, -1, -1, before, S.seat[g, p, SUSP])
        for q in range(S.seat.shape[1]):
            if q != p and S.seat[g, q, COPER]:
                add_susp(S, prm, g, q, prm[PRM_ABJURE_OTHER_RISE], C_S_ABJURE_OTHER, p)
        end_turn(S, C, prm, g)
    elif a == A_UPGRADE:
        S.game[g, TURN_MAIN] = M_UPGRADE
        lv = S.seat[g, p, LEVEL]
        take_seal(S, g, p)
        for i in range(LEVEL_SEAL_SPACES):
            if S.game[g, LVL_SEAL + (lv - 1) * LVL_SEAL_W + i] == -1:
                S.game[g, LVL_SEAL + (lv - 1) * LVL_SEAL_W + i] = p
                S.seat[g, p, LEVEL] = lv + 1
                # item: the Graduation tile met (the content-strength table counts it; the Level is `after`)
                ev(S, g, p, E_UPGRADE, C_LEVEL, i, -1, S.game[g, GRAD + (lv - 1)], lv, lv + 1)
                add_vp(S, g, p, prm[PRM_LEVEL_SPACE_VP_2 + 4 * (lv - 1) + i], C_LEVEL, lv + 1)
                break
        trigger(S, C, prm, g, p, TR_UPGRADE)
        end_turn(S, C, prm, g)
    elif A_CARD <= a < A_CARD + nt:
        t = a - A_CARD
        c = has_in_zone(S, C, g, p, t, Z_HAND)
        S.slot[g, p, c, SLOT_CZONE] = Z_PLAY
        S.game[g, TURN_CARDS] += 1
        ev(S, g, p, E_PLAY, C_NONE, 0, -1, t, -1, -1)  # which card type was played from hand (content strength)
        if C.CARD_KIND[t] == CK_PENANCE:
            S.game[g, TURN_MAIN] = M_PENANCE
            S.game[g, CUR_CARD] = c
            before = S.seat[g, p, SUSP]
            if not S.game[g, INQ_UP]:
                add_susp(S, prm, g, p, -prm[PRM_PENANCE_SUSPICION_DROP], C_S_PENANCE, -1)
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
        advance(S, C, prm, g)
    elif A_SPACE <= a < A_SPACE + S.space.shape[1]:
        sp = a - A_SPACE
        S.game[g, TURN_MAIN] = M_PHILOSOPHER
        S.seat[g, p, PHIL] = PH_ON_SPACE
        S.seat[g, p, PHIL_SPACE] = sp
        S.space[g, sp, SPACE_USED] += 1
        ev(S, g, p, E_ASSIGN, C_NONE, 0, -1, sp, 0, 0)
        push_frame(S, C, g, C.SPACE_ISET[sp])
        advance(S, C, prm, g)
