"""Decisions of the Treatise Secondary Actions: the board, where the new card goes, the card removed (seed 001
§Write a Treatise, §Copy a Treatise, §Read a Treatise, §Remove a Treatise Card)."""

from __future__ import annotations

from ..cols import (COINS, CUR_A, CUR_B, CUR_BIT, CUR_C, CUR_CARD, CUR_OP, PHASE, RESEARCH, SLOT_CTYPE, SLOT_CZONE,
                    TO_ACT, TSEAL, TSEAL_W)
from ..content import CK_BASIC, CK_PYRAMID, NB, N_SUBJECTS, PURPLE
from meeplelab.sim.core.jit import handler
from ..state import (A_BOARD, A_CARD, A_DECKTOP, A_RMDISC, A_RMPLAY, C_TREATISE, E_COPY, E_READ, E_WRITE, O_BOOK_ANY,
                     O_COPY, O_WRITE, P_BOOKSUBJ, TR_COPY, TR_READ, TR_WRITE, Z_DISCARD, Z_HAND, Z_PLAY, Z_REMOVED)
from .academy import take_seal
from .boards import board_free_space, board_leftmost_owner, copy_ok, read_ok, take_card, write_ok, write_research
from .cards import has_in_zone, put_on_deck, removable
from .flow import advance
from .icons import push_frame, trigger
from .ledger import add_books, add_vp, ev, pay


@handler
def legal_target(S, C, prm, g, out):
    """Legal actions of P_TARGET, §Write a Treatise, §Copy a Treatise, §Read a Treatise: the Treatise board.

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    for b in range(NB):
        if S.game[g, CUR_OP] == O_WRITE:
            out[A_BOARD + b] = write_ok(S, C, prm, g, p, b)
        elif S.game[g, CUR_OP] == O_COPY:
            out[A_BOARD + b] = copy_ok(S, C, g, p, b, S.game[g, CUR_A], S.game[g, CUR_B])
        else:
            out[A_BOARD + b] = read_ok(S, C, prm, g, p, b, S.game[g, CUR_A], S.game[g, CUR_B])


@handler
def apply_target(S, C, prm, g, a):
    """Apply action ``a`` of P_TARGET to game ``g``: §Write a Treatise, §Copy a Treatise, §Read a Treatise: the
    Treatise board."""
    p = S.game[g, TO_ACT]
    b = a - A_BOARD
    op = S.game[g, CUR_OP]
    if op == O_WRITE:
        for s in range(N_SUBJECTS):
            add_books(S, prm, g, p, s, -C.BOARD_BOOKS[b, s])
        pay(S, g, p, RESEARCH, write_research(S, C, prm, g, p, b))
        take_seal(S, g, p)
        i = board_free_space(S, g, b, True)
        S.game[g, TSEAL + b * TSEAL_W + i] = p
        ev(S, g, p, E_WRITE, C_TREATISE, C.BOARD_SEALVP[b, i], p, b, i, 0)
        add_vp(S, g, p, C.BOARD_SEALVP[b, i], C_TREATISE, b)
        trigger(S, C, prm, g, p, TR_WRITE)
        take_card(S, C, prm, g, p, C.BOARD_CARD[b], 0, b, 0)
    elif op == O_COPY:
        pay(S, g, p, COINS, S.game[g, CUR_B])
        take_seal(S, g, p)
        owner = board_leftmost_owner(S, g, b)
        i = board_free_space(S, g, b, False)
        S.game[g, TSEAL + b * TSEAL_W + i] = p
        ev(S, g, p, E_COPY, C_TREATISE, S.game[g, CUR_C], owner, b, i, 0)
        add_vp(S, g, owner, S.game[g, CUR_C], C_TREATISE, b)
        trigger(S, C, prm, g, p, TR_COPY)
        take_card(S, C, prm, g, p, C.BOARD_CARD[b], 1, b, 0)
    else:
        pay(S, g, p, COINS, S.game[g, CUR_B])
        owner = board_leftmost_owner(S, g, b)
        ev(S, g, p, E_READ, C_TREATISE, S.game[g, CUR_C] if owner != p else 0, owner, b, 0, 0)
        if owner != p:
            add_vp(S, g, owner, S.game[g, CUR_C], C_TREATISE, b)
        trigger(S, C, prm, g, p, TR_READ)
        push_frame(S, C, g, C.CARD_ISET[C.BOARD_CARD[b]])
        advance(S, C, prm, g)


@handler
def legal_place(S, C, prm, g, out):
    """Legal actions of P_PLACE, §Copy a Treatise, §Write a Treatise: the new card on top of the deck, or into the
    hand by discarding another Treatise.

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    nt = C.CARD_SUBJ.shape[0]
    out[A_DECKTOP] = True
    nt_new = S.slot[g, p, S.game[g, CUR_CARD], SLOT_CTYPE]
    for t in range(nt):
        if C.CARD_KIND[t] == CK_BASIC or C.CARD_KIND[t] == CK_PYRAMID:
            out[A_CARD + t] = t != nt_new and has_in_zone(S, C, g, p, t, Z_HAND) >= 0


@handler
def apply_place(S, C, prm, g, a):
    """Apply action ``a`` of P_PLACE to game ``g``: §Copy a Treatise, §Write a Treatise: the new card on top of the
    deck, or into the hand by discarding another Treatise."""
    p = S.game[g, TO_ACT]
    c = S.game[g, CUR_CARD]
    if a == A_DECKTOP:
        put_on_deck(S, g, p, c)
    else:
        d = has_in_zone(S, C, g, p, a - A_CARD, Z_HAND)
        S.slot[g, p, d, SLOT_CZONE] = Z_DISCARD
    advance(S, C, prm, g)


@handler
def legal_remove(S, C, prm, g, out):
    """Legal actions of P_REMOVE, §Remove a Treatise Card: the card removed, from hand, discard pile or play area.

    Fills ``out`` (``bool[NUM_ACTIONS]``, all False on entry) for game ``g``."""
    p = S.game[g, TO_ACT]
    nt = C.CARD_SUBJ.shape[0]
    for t in range(nt):
        if C.CARD_KIND[t] == CK_BASIC or C.CARD_KIND[t] == CK_PYRAMID:
            out[A_CARD + t] = removable(S, C, g, p, t, Z_HAND)
            out[A_RMDISC + t] = removable(S, C, g, p, t, Z_DISCARD)
            out[A_RMPLAY + t] = removable(S, C, g, p, t, Z_PLAY)


@handler
def apply_remove(S, C, prm, g, a):
    """Apply action ``a`` of P_REMOVE to game ``g``: §Remove a Treatise Card: the card removed, from hand, discard
    pile or play area."""
    p = S.game[g, TO_ACT]
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
        add_books(S, prm, g, p, s, C.CARD_BOOKS[t])
        advance(S, C, prm, g)
    else:      # a purple spine: its Books in one chosen Subject (A-GT-07)
        S.game[g, CUR_OP] = O_BOOK_ANY
        S.game[g, CUR_A] = C.CARD_BOOKS[t]
        S.game[g, CUR_BIT] = 0
        S.game[g, PHASE] = P_BOOKSUBJ
