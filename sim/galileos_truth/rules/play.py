"""Playing Treatise Cards: the stack, its Subject and its Active card (seed 001 §Play Treatise Cards, §Play a
Penance Card)."""

from __future__ import annotations

from ..cols import (COINS, CUR_CARD, NSLOTS, PHASE, SLOT_CTYPE, SLOT_CZONE, STACK, STACK_N, STACK_SUBJ, SUSP, TO_ACT,
                    TURN_CARDS)
from ..content import CK_BASIC, CK_PENANCE, CK_PYRAMID, N_SUBJECTS, PURPLE
from meeplelab.sim.core.jit import handler, rule
from ..state import (A_CARD, A_DONE, A_PAY, A_SUBJ, C_NONE, C_PAID, E_PENANCE, E_PLAY, P_PURPLE, TR_PLAY, Z_HAND, Z_PLAY,
                     Z_REMOVED)
from .cards import hand_types, has_in_zone
from .flow import advance, end_turn
from .icons import iset_ok, push_frame, trig_gain, trigger
from .ledger import add_books, ev, pay


@rule
def top_ok(S, C, prm, g, p, t, subj, xb):
    """Card type ``t`` as the Active card of a stack whose spines give ``xb`` Books in Subject ``subj``
    (-1: only purple, the Subject is still to be chosen: any one that works) can have its page paid,
    after what Ongoing Inventions give on a play."""
    iset = C.CARD_ISET[t]
    if not C.ISET_PAY[iset]:
        return True
    dc = trig_gain(S, C, g, p, TR_PLAY, False)
    dr = trig_gain(S, C, g, p, TR_PLAY, True)
    if subj >= 0:
        return iset_ok(S, C, prm, g, p, iset, subj, xb, dc, dr, TR_PLAY)
    for s in range(N_SUBJECTS):
        if iset_ok(S, C, prm, g, p, iset, s, xb, dc, dr, TR_PLAY):
            return True
    return False


@rule
def stack_books(S, C, g, p):
    """Books on the spines of the stack being played (seed 001 §Play Treatise Cards, step 2)."""
    xb = 0
    for i in range(S.game[g, STACK_N]):
        xb += C.CARD_BOOKS[S.slot[g, p, S.pile[g, STACK, i], SLOT_CTYPE]]
    return xb


@rule
def stack_card_ok(S, C, prm, g, p, t, hand):
    """Card type ``t`` in hand (``hand`` bitmask) can go on the current stack: the Subject rule, and the
    stack can still be finished with an Active card whose page can be paid. Only the Active card's page
    is activated (seed Play 3: other cards' pages are ignored), so a card whose own page cannot be paid
    may go under one that can."""
    if not (hand >> t) & 1:
        return False
    s = C.CARD_SUBJ[t]
    if C.CARD_KIND[t] == CK_PENANCE:
        return False
    ss = S.game[g, STACK_SUBJ] if S.game[g, STACK_N] > 0 else -1
    if ss >= 0 and s != PURPLE and s != ss:
        return False
    subj = ss if ss >= 0 else (s if s < PURPLE else -1)
    xb = C.CARD_BOOKS[t] + stack_books(S, C, g, p)
    if top_ok(S, C, prm, g, p, t, subj, xb):      # done right after: t is the Active card
        return True
    # or more cards follow: every other fitting card in hand goes under a last one, the Active card
    for s4 in range(N_SUBJECTS):
        if subj >= 0 and s4 != subj:
            continue
        more = 0
        skip = True
        for c in range(S.seat[g, p, NSLOTS]):
            u = S.slot[g, p, c, SLOT_CTYPE]
            if S.slot[g, p, c, SLOT_CZONE] != Z_HAND or C.CARD_KIND[u] == CK_PENANCE:
                continue
            if u == t and skip:
                skip = False          # the copy of t being played
                continue
            if C.CARD_SUBJ[u] == PURPLE or C.CARD_SUBJ[u] == s4:
                more += C.CARD_BOOKS[u]
        skip = True
        for c in range(S.seat[g, p, NSLOTS]):
            u = S.slot[g, p, c, SLOT_CTYPE]
            if S.slot[g, p, c, SLOT_CZONE] != Z_HAND or C.CARD_KIND[u] == CK_PENANCE:
                continue
            if u == t and skip:
                skip = False
                continue
            if (C.CARD_SUBJ[u] == PURPLE or C.CARD_SUBJ[u] == s4) and top_ok(S, C, prm, g, p, u, s4, xb + more):
                return True
    return False


@handler
def finish_stack(S, C, prm, g):
    """Books from every visible spine in the stack's Subject, then the Active (top) card's icons."""
    p = S.game[g, TO_ACT]
    total = 0
    for i in range(S.game[g, STACK_N]):
        total += C.CARD_BOOKS[S.slot[g, p, S.pile[g, STACK, i], SLOT_CTYPE]]
    add_books(S, prm, g, p, S.game[g, STACK_SUBJ], total)
    trigger(S, C, prm, g, p, TR_PLAY)
    top = S.pile[g, STACK, S.game[g, STACK_N] - 1]
    push_frame(S, C, g, C.CARD_ISET[S.slot[g, p, top, SLOT_CTYPE]])
    advance(S, C, prm, g)


@handler
def legal_stack(S, C, prm, g, out):
    """Legal actions of P_STACK, §Play Treatise Cards: add a card of the stack's Subject (or purple) to the stack, or
    finish it (its top card is the Active Card).

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    nt = C.CARD_SUBJ.shape[0]
    hand = hand_types(S, g, p)
    top_t = S.slot[g, p, S.pile[g, STACK, S.game[g, STACK_N] - 1], SLOT_CTYPE]
    out[A_DONE] = top_ok(S, C, prm, g, p, top_t, S.game[g, STACK_SUBJ], stack_books(S, C, g, p))
    for t in range(nt):
        if (hand >> t) & 1 and (C.CARD_KIND[t] == CK_BASIC or C.CARD_KIND[t] == CK_PYRAMID):
            out[A_CARD + t] = stack_card_ok(S, C, prm, g, p, t, hand)


@handler
def apply_stack(S, C, prm, g, a):
    """Apply action ``a`` of P_STACK to game ``g``: §Play Treatise Cards: add a card of the stack's Subject (or
    purple) to the stack, or finish it (its top card is the Active Card)."""
    p = S.game[g, TO_ACT]
    if a == A_DONE:
        if S.game[g, STACK_SUBJ] < 0:
            S.game[g, PHASE] = P_PURPLE
        else:
            finish_stack(S, C, prm, g)
    else:
        t = a - A_CARD
        c = has_in_zone(S, C, g, p, t, Z_HAND)
        S.slot[g, p, c, SLOT_CZONE] = Z_PLAY
        S.game[g, TURN_CARDS] += 1
        ev(S, g, p, E_PLAY, C_NONE, 0, -1, t, -1, -1)  # which card type was played from hand (content strength)
        S.pile[g, STACK, S.game[g, STACK_N]] = c
        S.game[g, STACK_N] += 1
        if S.game[g, STACK_SUBJ] < 0 and C.CARD_SUBJ[t] < PURPLE:
            S.game[g, STACK_SUBJ] = C.CARD_SUBJ[t]


@handler
def legal_purple(S, C, prm, g, out):
    """Legal actions of P_PURPLE, §Play Treatise Cards: the Subject of a stack of purple cards only (A-GT-07).

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    top_t = S.slot[g, p, S.pile[g, STACK, S.game[g, STACK_N] - 1], SLOT_CTYPE]
    xb = stack_books(S, C, g, p)
    for s in range(N_SUBJECTS):
        out[A_SUBJ + s] = top_ok(S, C, prm, g, p, top_t, s, xb)


@handler
def apply_purple(S, C, prm, g, a):
    """Apply action ``a`` of P_PURPLE to game ``g``: §Play Treatise Cards: the Subject of a stack of purple cards
    only (A-GT-07)."""
    S.game[g, STACK_SUBJ] = a - A_SUBJ
    finish_stack(S, C, prm, g)


@handler
def legal_penpay(S, C, prm, g, out):
    """Legal actions of P_PENPAY, §Play a Penance Card: pay its Coins to remove it from the game, or keep it
    (A-GT-15).

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    out[A_DONE] = True
    out[A_PAY] = S.seat[g, p, COINS] >= C.CARD_PEN_COINS[S.slot[g, p, S.game[g, CUR_CARD], SLOT_CTYPE]]


@handler
def apply_penpay(S, C, prm, g, a):
    """Apply action ``a`` of P_PENPAY to game ``g``: §Play a Penance Card: pay its Coins to remove it from the game,
    or keep it (A-GT-15)."""
    p = S.game[g, TO_ACT]
    c = S.game[g, CUR_CARD]
    t = S.slot[g, p, c, SLOT_CTYPE]
    if a == A_PAY:
        pay(S, g, p, COINS, C.CARD_PEN_COINS[t])
        S.slot[g, p, c, SLOT_CZONE] = Z_REMOVED
        ev(S, g, p, E_PENANCE, C_PAID, C.CARD_PEN_COINS[t], -1, t, S.seat[g, p, SUSP], S.seat[g, p, SUSP])
    end_turn(S, C, prm, g)
