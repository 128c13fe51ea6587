"""Turn and Cycle flow: turns, passing, Cycle start and end, the next pending decision, setup (A-GT-01..06,
A-GT-31)."""

from __future__ import annotations

from meeplelab.sim.core.logs import begin_turn_row
from meeplelab.sim.core.rng import chance_below, chance_shuffle

from ..cols import (ACT_VP, BAG_1, BAG_N, BOOKS, COINS, COPER, CYCLE, DECK_0, DECK_N, FIRST, FIRST_PASS, FR_N,
                    FR_SEL, FR_SET, FR_USED, GRAD, INQ_UP, INV_DECK_1, INV_DECK_N, INV_OWNER, INV_TAPPED, NSLOTS,
                    OBS_TILE, PASSED, PEN_N, PEN_PILE, PHASE, PHIL, RESEARCH, SLOT_CTYPE, SLOT_CZONE, SPACE_USED,
                    STACK_N, SUSP, TO_ACT, TURN, TURN_CARDS, TURN_MAIN, TURN_VP0, VP, WS_DIRTY)
from ..content import K_ICONS, MATHEMATICS, PHYSICS
from meeplelab.sim.core.jit import rule
from ..logcols import (TURN_CARDS_PLAYED, TURN_COINS_AFTER, TURN_MAIN_ACTION, TURN_PRINCIPLE_AFTER,
                       TURN_RESEARCH_AFTER, TURN_SUSPICION_AFTER, TURN_VP_AFTER, TURN_VP_GAINED)
from ..state import (C_GAINED, C_NONE, C_OBSERVATION, E_INQUISITION, E_PENANCE, IT_INCOME, MAX_LEVEL, O_BOOK_ANY,
                     O_BOOK_DIFF, O_BOOK_UP, O_NONE,
                     PH_LYING, PH_ON_SPACE, PH_PRISON, PH_STANDING, P_GROUP, P_MAIN, P_SEC, RZ_BAG, RZ_DECK, RZ_GRAD,
                     RZ_INV, RZ_PENANCE, SEL_A, SEL_B, SEP_NONE, SEP_PRINC, Z_DECK, Z_DISCARD, Z_HAND, Z_PLAY)
from ..pcols import (FIRST_PLAYER_RULE_FEWEST_VP, FIRST_PLAYER_RULE_FIRST_TO_PASS, FIRST_PLAYER_RULE_FIXED, PRM_CYCLES,
                     PRM_FIRST_PLAYER_RULE, PRM_HAND_SIZE, PRM_INCOME_COINS_BY_LEVEL,
                     PRM_INCOME_RESEARCH_BY_LEVEL, PRM_INQUISITION_FLIP_CYCLE, PRM_OBSERVE_BONUS_COINS,
                     PRM_OBSERVE_BONUS_VP, PRM_PENANCE_THRESHOLD)
from .cards import draw_n, new_card
from .icons import (EFF_GO, N_ICONS, OBS_BONUS, PEND_EFFECTS, apply_iset_simple, apply_simple, book_icon_can_act,
                    open_effect, order_matters, pay_now_ok, pending_effects, start_book_icon)
from .ledger import add_vp, book_level, ev
from .scoring import final_scoring
from .secondary import frame_sec_kinds
from .workshop import refill_workshop


@rule
def start_turn(S, g):
    """Start the turn of the seat to act: a Main Action is pending; the turn's counters reset (A-GT-03)."""
    S.game[g, PHASE] = P_MAIN
    S.game[g, TURN_VP0] = S.seat[g, S.game[g, TO_ACT], VP]
    S.game[g, ACT_VP] = 0
    S.game[g, TURN_CARDS] = 0
    S.game[g, TURN_MAIN] = 0
    S.game[g, STACK_N] = 0
    S.game[g, FR_N] = 0


@rule
def start_cycle(S, C, prm, g):
    """Inquisition flip, Income Phase, hands drawn up to ``hand_size``; first player opens."""
    P = S.seat.shape[1]
    if S.game[g, CYCLE] == prm[PRM_INQUISITION_FLIP_CYCLE] and not S.game[g, INQ_UP]:
        S.game[g, INQ_UP] = True
        ev(S, g, S.game[g, FIRST], E_INQUISITION, C_NONE, 0, -1, -1, 0, 1)
    S.game[g, FIRST_PASS] = -1
    for p in range(P):
        S.seat[g, p, PASSED] = False
        S.seat[g, p, COINS] += prm[PRM_INCOME_COINS_BY_LEVEL + book_level(prm, S.seat[g, p, BOOKS + PHYSICS]) - 1]
        S.seat[g, p, RESEARCH] += prm[PRM_INCOME_RESEARCH_BY_LEVEL + book_level(prm, S.seat[g, p, BOOKS + MATHEMATICS]) - 1]
        for i in range(C.INV_TYPE.shape[0]):
            if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_INCOME:
                apply_iset_simple(S, C, prm, g, p, C.INV_ISET[i], i)
        held = 0
        for c in range(S.seat[g, p, NSLOTS]):
            if S.slot[g, p, c, SLOT_CZONE] == Z_HAND:
                held += 1
        if held < prm[PRM_HAND_SIZE]:
            draw_n(S, g, p, prm[PRM_HAND_SIZE] - held)     # up to the hand size (A-GT-04)
    S.game[g, TO_ACT] = S.game[g, FIRST]
    start_turn(S, g)


@rule
def next_first_player(S, prm, g):
    """Seat that opens the next Cycle (A-GT-31, ``first_player_rule``): rotate = the next seat
    clockwise; first-to-pass = the first seat that passed this Cycle; fewest-vp = the seat with the
    fewest VP, ties clockwise from the next seat; fixed = the seat that opened this Cycle."""
    P = S.seat.shape[1]
    f = S.game[g, FIRST]
    fp = prm[PRM_FIRST_PLAYER_RULE]
    if fp == FIRST_PLAYER_RULE_FIRST_TO_PASS and S.game[g, FIRST_PASS] >= 0:
        return S.game[g, FIRST_PASS]
    if fp == FIRST_PLAYER_RULE_FEWEST_VP:
        best = (f + 1) % P
        for k in range(2, P + 1):
            q = (f + k) % P
            if S.seat[g, q, VP] < S.seat[g, best, VP]:
                best = q
        return best
    if fp == FIRST_PLAYER_RULE_FIXED:
        return f
    return (f + 1) % P


@rule
def end_cycle(S, C, prm, g):
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
        if S.seat[g, p, COPER] and S.seat[g, p, SUSP] >= prm[PRM_PENANCE_THRESHOLD] and S.game[g, PEN_N] > 0:
            S.game[g, PEN_N] -= 1
            t = S.pile[g, PEN_PILE, S.game[g, PEN_N]]
            c = new_card(S, g, p, t)
            S.slot[g, p, c, SLOT_CZONE] = Z_DISCARD
            ev(S, g, p, E_PENANCE, C_GAINED, 0, -1, t, S.seat[g, p, SUSP], S.seat[g, p, SUSP])
    for i in range(S.inv.shape[1]):
        S.inv[g, i, INV_TAPPED] = False
    for sp in range(S.space.shape[1]):
        S.space[g, sp, SPACE_USED] = 0
    if S.game[g, CYCLE] >= prm[PRM_CYCLES]:
        final_scoring(S, C, prm, g)
        return
    S.game[g, CYCLE] += 1
    S.game[g, FIRST] = next_first_player(S, prm, g)
    start_cycle(S, C, prm, g)


@rule
def end_turn(S, C, prm, g):
    """End the turn: Workshop refill, the turn's log row, then the next seat that has not passed, or the end of
    the Cycle (A-GT-02)."""
    p = S.game[g, TO_ACT]
    if S.game[g, WS_DIRTY]:
        refill_workshop(S, prm, g)
    b = S.turn_buf
    r = begin_turn_row(b, S.turn_n, g, S.ply[g] + 1, S.game[g, TURN], S.game[g, CYCLE], p)
    b[g, r, TURN_MAIN_ACTION] = S.game[g, TURN_MAIN]
    b[g, r, TURN_VP_GAINED] = S.seat[g, p, VP] - S.game[g, TURN_VP0]
    b[g, r, TURN_SUSPICION_AFTER] = S.seat[g, p, SUSP]
    b[g, r, TURN_PRINCIPLE_AFTER] = 0 if S.seat[g, p, COPER] else 1
    b[g, r, TURN_COINS_AFTER] = S.seat[g, p, COINS]
    b[g, r, TURN_RESEARCH_AFTER] = S.seat[g, p, RESEARCH]
    b[g, r, TURN_CARDS_PLAYED] = S.game[g, TURN_CARDS]
    b[g, r, TURN_VP_AFTER] = S.seat[g, p, VP]  # in-game VP at every turn: the game-arc metrics
    S.game[g, TURN] += 1
    P = S.seat.shape[1]
    for k in range(1, P + 1):
        q = (p + k) % P
        if not S.seat[g, q, PASSED]:
            S.game[g, TO_ACT] = q
            start_turn(S, g)
            return
    end_cycle(S, C, prm, g)


@rule
def advance(S, C, prm, g):
    """Resolve icons until a decision is needed; end the turn when the Main Action is complete."""
    p = S.game[g, TO_ACT]
    while True:
        n = S.game[g, FR_N]
        if n == 0:
            end_turn(S, C, prm, g)
            return
        k = n - 1
        if S.game[g, FR_USED + k] & OBS_BONUS:   # Observe the Sky, step 6: Bonus 2 VP, 1 Coin after the icons
            S.game[g, FR_USED + k] -= OBS_BONUS
            add_vp(S, g, p, prm[PRM_OBSERVE_BONUS_VP], C_OBSERVATION, S.game[g, OBS_TILE])
            S.seat[g, p, COINS] += prm[PRM_OBSERVE_BONUS_COINS]
        iset = S.game[g, FR_SET + k]
        if S.game[g, FR_SEL + k] == 0:
            sep = C.ISET_SEP[iset]
            if sep == SEP_NONE:
                S.game[g, FR_SEL + k] = SEL_A
            elif sep == SEP_PRINC:
                S.game[g, FR_SEL + k] = SEL_A if S.seat[g, p, COPER] else SEL_B
            else:
                S.game[g, PHASE] = P_GROUP
                return
        # icons activate in the order the player likes (A-GT-25): while mandatory Effects are pending
        # and a Secondary Action can be done now, the player chooses between them; a pending payment
        # is made first so that no Secondary Action spends what the Effect must pay
        if not (S.game[g, FR_USED + k] & EFF_GO):
            pend = pending_effects(S, C, g)
            if (pend == PEND_EFFECTS and frame_sec_kinds(S, C, prm, g) != 0) or (pend != 0 and order_matters(S, C, prm, g)):
                S.game[g, PHASE] = P_SEC
                return
            S.game[g, FR_USED + k] |= EFF_GO
        # mandatory Effects, gains and payments in printed order; choice Effects ask; a payment that
        # cannot be made in full yet waits for the gains printed after it (A-GT-24), then is paid
        for i in range(N_ICONS):
            op = open_effect(S, C, g, k, i)
            if op == O_NONE:
                continue
            gi, j, bit = i // K_ICONS, i % K_ICONS, 1 << i
            if op == O_BOOK_ANY or op == O_BOOK_DIFF or op == O_BOOK_UP:
                if not book_icon_can_act(S, C, prm, g, p, op):
                    S.game[g, FR_USED + k] |= bit
                    continue
                start_book_icon(S, g, op, C.ISET_ARG[iset, gi, j, 0], bit)
                return
            if not pay_now_ok(S, g, p, op, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1]):
                continue
            S.game[g, FR_USED + k] |= bit
            apply_simple(S, C, prm, g, p, op, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                         C.ISET_ARG[iset, gi, j, 2], C.ISET_ARG[iset, gi, j, 3], iset)
        for i in range(N_ICONS):     # the payments that waited; the gains came first
            op = open_effect(S, C, g, k, i)
            if op == O_NONE:
                continue
            gi, j = i // K_ICONS, i % K_ICONS
            S.game[g, FR_USED + k] |= 1 << i
            apply_simple(S, C, prm, g, p, op, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                         C.ISET_ARG[iset, gi, j, 2], C.ISET_ARG[iset, gi, j, 3], iset)
        if frame_sec_kinds(S, C, prm, g) != 0:
            S.game[g, PHASE] = P_SEC
            return
        S.game[g, FR_N] = k


@rule
def ids_where(key, value, out):
    """Write the ids ``i`` with ``key[i] == value`` into ``out`` in id order; returns how many."""
    n = 0
    for i in range(key.shape[0]):
        if key[i] == value:
            out[n] = i
            n += 1
    return n


@rule
def setup_game(S, C, prm, g):
    """Set up game ``g``: shuffle the decks, Invention decks, bags and the Penance supply, draw the Graduation tiles, fill the Workshop, start the first Cycle (A-GT-05, A-GT-17, A-GT-18, A-GT-15)."""
    P = S.seat.shape[1]
    nbasic = C.BASIC_CARDS.shape[0]
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
    for lv in range(2, MAX_LEVEL + 1):
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
    refill_workshop(S, prm, g)
    start_cycle(S, C, prm, g)


@rule
def apply_over(S, C, prm, g, a):
    """Apply action ``a`` of P_OVER: the game has ended after its last Cycle (A-GT-01); nothing changes."""
    return
