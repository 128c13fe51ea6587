"""Turn structure: the turn choice, the start and the end of a turn, rounds and the end of the game
(research UM §2, §7; A-UM-13, A-UM-14, A-UM-20, A-UM-31, A-UM-35, A-UM-36). Decisions: ``D_TURN``, ``K_FINISH``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler

from meeplelab.sim.core.logs import begin_turn_row

from ..codes import (C_CONVERSION, C_RECALL, C_ROUND_LIMIT, D_HEARTS, D_MODE, D_RECALLB, D_TREAT,
                     D_TURN, EV_END, EV_IDEA, EV_INSIGHT, K_CLIENTS, K_FINISH, OPT_PASS, OPT_RECALL, OPT_TREAT)
from ..cols import (BRIGHT, COFFEE, CURED, END_TRIG, IDEAS_HAND, LAST_ROUND, OVER, RND, SPACE_ACT, SPACE_BRIGHT,
                    SPACE_N, SPACE_OWNER, TO_ACT, TURN, T_ACT, T_CGAIN, T_CSPENT, T_OPT, T_VP, VP)
from ..kcols import SPACE_MT
from ..pcols import (LIMIT_ROUND_TRIGGER_STOP, PRM_CONVERSION_COFFEE, PRM_LIMIT_ROUND_TRIGGER,
                     PRM_RECALL_COFFEE_PER_SPACE, PRM_ROUND_LIMIT, PRM_SOLO_FREUD_EVERY)
from ..actions import CH0, CH_HEART_BOX, MODE0, PASS, PLACE0, POS0, RECALL, TREAT, XFER0
from ..logcols import (TURN_COFFEE_AFTER, TURN_COFFEE_GAINED, TURN_COFFEE_SPENT, TURN_CURED_AFTER,
                       TURN_INSIGHT_AFTER, TURN_MT_ACTION, TURN_OPTION, TURN_VP_AFTER, TURN_VP_GAINED)
from ..content_layout import KBOARD
from .events import ev, gain_coffee, gain_heart, spend_coffee
from .stack import push
from .insight import level_pos, tok_at, tok_move
from .reputation import freud_step
from .city import check_goals
from .clients import room_treatable
from .meeting_table import can_perform
from .scoring import final_scoring


@njit(cache=True, _nrt=False)
def start_turn(S, C, prm, g):
    """Start the turn of the seat to act: the stack ``[K_FINISH, K_CLIENTS, D_HEARTS, D_TURN]`` (research UM §2)."""
    S.game[g, T_OPT] = OPT_PASS
    S.game[g, T_ACT] = -1
    S.game[g, T_CSPENT] = 0
    S.game[g, T_CGAIN] = 0
    S.game[g, T_VP] = 0
    push(S, C, prm, g, K_FINISH, 0, 0, 0)
    push(S, C, prm, g, K_CLIENTS, 0, 0, 0)
    push(S, C, prm, g, D_HEARTS, 0, 0, 0)
    push(S, C, prm, g, D_TURN, 0, 0, 0)


@handler
def finish_turn(S, C, prm, g, p, act, a, b, c):
    """``K_FINISH`` handler: end the turn, the round and maybe the game (research UM §2, §7; A-UM-13, A-UM-14,
    A-UM-35, A-UM-36)."""
    p = S.game[g, TO_ACT]
    # Bright Ideas placed this turn return to the supply
    for s in range(S.space.shape[1]):
        if S.space[g, s, SPACE_BRIGHT] > 0:
            S.space[g, s, SPACE_BRIGHT] = 0
            if S.space[g, s, SPACE_N] == 0:
                S.space[g, s, SPACE_OWNER] = -1
                S.space[g, s, SPACE_ACT] = -1
    check_goals(S, C, prm, g, p)
    P = S.seat.shape[1]
    if P == 1 and (S.game[g, TURN] + 1) % prm[PRM_SOLO_FREUD_EVERY] == 0:
        freud_step(S, C, prm, g, -1)
    # turn log row
    tb = S.turn_buf
    r = begin_turn_row(tb, S.turn_n, g, S.ply[g] + 1, S.game[g, TURN], S.game[g, RND], p)
    tb[g, r, TURN_OPTION] = S.game[g, T_OPT]
    tb[g, r, TURN_MT_ACTION] = S.game[g, T_ACT] + 1
    tb[g, r, TURN_COFFEE_SPENT] = S.game[g, T_CSPENT]
    tb[g, r, TURN_COFFEE_GAINED] = S.game[g, T_CGAIN]
    tb[g, r, TURN_VP_GAINED] = S.game[g, T_VP]
    tb[g, r, TURN_VP_AFTER] = S.seat[g, p, VP]
    tb[g, r, TURN_COFFEE_AFTER] = S.seat[g, p, COFFEE]
    ins = 0
    for i in range(1, 10):
        ins += tok_at(S, C, prm, g, p, i)
    tb[g, r, TURN_INSIGHT_AFTER] = ins
    tb[g, r, TURN_CURED_AFTER] = S.seat[g, p, CURED]
    S.game[g, TURN] += 1
    S.game[g, TO_ACT] = (p + 1) % P
    if S.game[g, TO_ACT] == 0:
        done_round = S.game[g, RND]
        S.game[g, RND] += 1
        end = False
        if S.game[g, END_TRIG] == 1 and done_round >= S.game[g, LAST_ROUND]:
            end = True
        elif done_round >= prm[PRM_ROUND_LIMIT] and (S.game[g, END_TRIG] == 0 or prm[PRM_LIMIT_ROUND_TRIGGER] == LIMIT_ROUND_TRIGGER_STOP):
            end = True  # safety stop (A-UM-13); an end already triggered is played out unless limit_stop (A-UM-36)
            ev(S, C, prm, g, EV_END, 0, C_ROUND_LIMIT, 0, -1, done_round, 0, 0)
        if end:
            S.game[g, RND] = done_round
            S.game[g, OVER] = 1
            final_scoring(S, C, prm, g)
            return
    start_turn(S, C, prm, g)


@handler
def legal_turn(S, C, prm, g, p, a, b, out):
    """Turn choice (research UM §2): State Ideas on an empty idea space at an action the seat's own Ideas do not
    point at and can pay, Recall, Treat Clients; PASS only when none is possible (A-UM-20); Coffee conversions and
    the heart-box conversion (research UM §3, A-UM-31)."""
    any_opt = False
    has_idea = S.seat[g, p, IDEAS_HAND] > 0 or S.seat[g, p, BRIGHT] > 0
    if has_idea:
        # bit ``act`` of ``own``: one of p's Ideas points at action ``act`` (own_points_at); ``asked`` / ``can``:
        # can_perform(act, 1) evaluated once per action, not once per space pointing at it
        own = 0
        for s in range(S.space.shape[1]):
            if S.space[g, s, SPACE_OWNER] == p and S.space[g, s, SPACE_ACT] >= 0:
                own |= 1 << S.space[g, s, SPACE_ACT]
        asked = 0
        can = 0
        for s in range(S.space.shape[1]):
            if S.space[g, s, SPACE_OWNER] >= 0:
                continue
            for d in range(4):
                act = C.K[KBOARD, s, SPACE_MT + d]
                if act < 0 or (own >> act) & 1:
                    continue
                if not (asked >> act) & 1:
                    asked |= 1 << act
                    if can_perform(S, C, prm, g, p, act, 1):
                        can |= 1 << act
                if (can >> act) & 1:
                    out[PLACE0 + s * 4 + d] = True
                    any_opt = True
    for s in range(S.space.shape[1]):
        if S.space[g, s, SPACE_OWNER] == p and S.space[g, s, SPACE_N] > 0:
            out[RECALL] = True
            any_opt = True
            break
    for room in range(2):
        if room_treatable(S, C, prm, g, p, room):
            out[TREAT] = True
            any_opt = True
    if not any_opt:
        out[PASS] = True
    if S.seat[g, p, COFFEE] >= prm[PRM_CONVERSION_COFFEE]:
        for i in range(9):
            if tok_at(S, C, prm, g, p, 1 + i) > 0:
                if i % 3 < 2:
                    out[POS0 + i] = True
                for q2 in range(3):
                    if q2 != i // 3:
                        out[XFER0 + i * 3 + q2] = True
    if level_pos(S, C, prm, g, p, 0) >= 0 and level_pos(S, C, prm, g, p, 1) >= 0 and level_pos(S, C, prm, g, p, 2) >= 0:
        out[CH_HEART_BOX] = True


@handler
def apply_turn(S, C, prm, g, p, act, a, b, c):
    """Apply the turn choice (research UM §2): State Ideas pushes ``D_MODE``; Recall returns the Ideas, gains Coffee
    per space and offers a bonus (``D_RECALLB``); Treat pushes ``D_TREAT``; conversions (research UM §3, A-UM-31)
    return to ``D_TURN``."""
    if PLACE0 <= act < MODE0:
        s = (act - PLACE0) // 4
        mt = C.K[KBOARD, s, SPACE_MT + ((act - PLACE0) % 4)]
        push(S, C, prm, g, D_MODE, s, mt, 0)
    elif act == RECALL:
        S.game[g, T_OPT] = OPT_RECALL
        n = 0
        for s in range(S.space.shape[1]):
            if S.space[g, s, SPACE_OWNER] == p:
                n += 1
                S.seat[g, p, IDEAS_HAND] += S.space[g, s, SPACE_N]
                S.space[g, s, SPACE_OWNER] = -1
                S.space[g, s, SPACE_ACT] = -1
                S.space[g, s, SPACE_N] = 0
        ev(S, C, prm, g, EV_IDEA, p, C_RECALL, n, -1, -1, 0, n)
        gain_coffee(S, C, prm, g, p, n * prm[PRM_RECALL_COFFEE_PER_SPACE], C_RECALL)
        push(S, C, prm, g, D_RECALLB, 0, 0, 0)
    elif act == TREAT:
        S.game[g, T_OPT] = OPT_TREAT
        push(S, C, prm, g, D_TREAT, 0, 0, 0)
    elif act == PASS:
        S.game[g, T_OPT] = OPT_PASS
    elif POS0 <= act < XFER0:
        i = act - POS0
        spend_coffee(S, C, prm, g, p, prm[PRM_CONVERSION_COFFEE], C_CONVERSION, i)
        tok_move(S, C, prm, g, p, 1 + i, 2 + i)
        ev(S, C, prm, g, EV_INSIGHT, p, C_CONVERSION, 1, -1, i + 1, prm[PRM_CONVERSION_COFFEE], 0)
        push(S, C, prm, g, D_TURN, 0, 0, 0)
    elif XFER0 <= act < CH0:
        i = (act - XFER0) // 3
        q2 = (act - XFER0) % 3
        spend_coffee(S, C, prm, g, p, prm[PRM_CONVERSION_COFFEE], C_CONVERSION, i)
        tok_move(S, C, prm, g, p, 1 + i, 1 + q2 * 3 + i % 3)
        ev(S, C, prm, g, EV_INSIGHT, p, C_CONVERSION, 1, -1, q2 * 3 + i % 3, prm[PRM_CONVERSION_COFFEE], 0)
        push(S, C, prm, g, D_TURN, 0, 0, 0)
    elif act == CH_HEART_BOX:
        for lv in range(3):
            tok_move(S, C, prm, g, p, level_pos(S, C, prm, g, p, lv), 0)
        gain_heart(S, C, prm, g, p, 1, C_CONVERSION)
        push(S, C, prm, g, D_TURN, 0, 0, 0)
