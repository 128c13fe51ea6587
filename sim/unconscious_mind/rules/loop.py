"""The kernels the engine calls: one game's legal action mask, applying one action, running automatic stack
entries, and the batch entry points with setup.

``S`` is :class:`meeplelab.sim.unconscious_mind.state.Arrays`, ``C`` the parameter vector (:mod:`meeplelab.sim.unconscious_mind.kcols`).
Decision kinds are routed by the dispatchers written from the decision table
(:mod:`meeplelab.sim.unconscious_mind.rules.dispatch`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from meeplelab.sim.core.rng import chance_shuffle

from ..codes import (K_CLIENTS, K_EFFECT, K_FINISH, K_GENQL, K_INKPOT, K_INKPOT_START, K_PERFORM, K_PUBLISH,
                     L_DISPLAY, RZ_CDECK_CL, RZ_GOALS, RZ_LDECK, RZ_MDECK, RZ_RDECK, RZ_RDECK_CL, RZ_TRDECK,
                     RZ_TSTACK)
from ..cols import (CARD_LOC, CDECK_CL, CDISP_CL, CTOP_CL, GOAL_ID, LDECK, MARKET, MARKET_W, MDECK, MDISP, OVER,
                    RDECK, RDECK_CL, RDISP, RDISP_CL, RTOP, RTOP_CL, SP, STK_A, STK_B, STK_C, STK_KIND, TO_ACT,
                    TRDECK, TRDISP, TRTOP, TSTACK_I)
from ..kcols import I_N_CASE, I_N_GOAL_TILES, I_N_LATENT, I_N_MANIFEST, I_N_ROUTINE, I_TILES_LVL
from ..pcols import (PRM_CASE_DISPLAY, PRM_MANIFEST_DISPLAY, PRM_RESEARCH_DISPLAY, PRM_ROUTINE_DISPLAY,
                     PRM_TREATISE_DISPLAY)
from ..actions import DONE, NUM_ACTIONS
from .city import check_goals
from .research import draw_card
from .notebook import stack_draw
from .clients import draw_manifest
from .turn_flow import start_turn
from .dispatch import apply, legal


@njit(cache=True, inline="always", _nrt=False)
def automatic(kind):
    """True for the ``K_*`` kinds, which run without a decision (the decision table's rows without a legality
    handler; ``tests/unconscious_mind/test_decisions_table.py`` checks the two agree)."""
    return (kind == K_EFFECT or kind == K_PERFORM or kind == K_INKPOT_START or kind == K_INKPOT
            or kind == K_PUBLISH or kind == K_CLIENTS or kind == K_FINISH or kind == K_GENQL)


@njit(cache=True, inline="always", _nrt=False)
def mask_row(S, C, prm, g, out):
    """Fill ``out`` (``bool[NUM_ACTIONS]``) with game g's legal actions for the decision on top of its stack
    (:func:`dispatch.legal`); never empty: a decision with no option can be declined (DONE, A-UM-20)."""
    for i in range(out.shape[0]):
        out[i] = False
    if S.game[g, OVER] == 1 or S.game[g, SP] == 0:
        return
    p = S.game[g, TO_ACT]
    top = S.game[g, SP] - 1
    kind = S.stk[g, top, STK_KIND]
    legal(kind, S, C, prm, g, p, S.stk[g, top, STK_A], S.stk[g, top, STK_B], out)
    anyl = False
    for i in range(out.shape[0]):
        if out[i]:
            anyl = True
            break
    if not anyl:
        out[DONE] = True


@njit(cache=True, inline="always", _nrt=False)
def only_done(out):
    """True when DONE is the only legal action (the decision is skipped)."""
    if not out[DONE]:
        return False
    for i in range(out.shape[0]):
        if out[i] and i != DONE:
            return False
    return True


@njit(cache=True, inline="always", _nrt=False)
def advance(S, C, prm, g, scratch):
    """Run automatic entries until a decision with a real choice is on top (or the game is over); goal tiles
    are claimed as soon as their condition holds, checked at every decision (A-UM-29). Returns True when
    ``scratch`` (``bool[NUM_ACTIONS]``) holds the legal action mask of the decision now on top (no goal was
    claimed after it was computed): compiled play then skips a second mask pass (docs/compiled_play.md)."""
    while S.game[g, OVER] == 0:
        if S.game[g, SP] == 0:
            start_turn(S, C, prm, g)
        top = S.game[g, SP] - 1
        kind = S.stk[g, top, STK_KIND]
        if automatic(kind):
            S.game[g, SP] = top
            # act -1 as np.int64 (not a literal): one compiled apply and one of each handler
            apply(kind, S, C, prm, g, S.game[g, TO_ACT], np.int64(-1), S.stk[g, top, STK_A], S.stk[g, top, STK_B],
                  S.stk[g, top, STK_C])
            continue
        mask_row(S, C, prm, g, scratch)
        if only_done(scratch):
            S.game[g, SP] = top
            continue
        claimed = check_goals(S, C, prm, g, S.game[g, TO_ACT])
        if S.game[g, OVER] == 0 and S.game[g, SP] > 0:
            return claimed == 0
    return False


@njit(cache=True, inline="always", _nrt=False)
def apply_one(S, C, prm, g, act):
    """Apply action ``act`` of the seat to act to the decision on top of game g's stack: pop it, then its
    application handler (:func:`dispatch.apply`) pushes what follows (research UM §2 turn structure)."""
    p = S.game[g, TO_ACT]
    top = S.game[g, SP] - 1
    kind = S.stk[g, top, STK_KIND]
    S.game[g, SP] = top  # pop; handlers push what follows
    apply(kind, S, C, prm, g, p, act, S.stk[g, top, STK_A], S.stk[g, top, STK_B], S.stk[g, top, STK_C])


@njit(cache=True, _nrt=False)
def batch_mask(S, C, prm, out):
    """``out`` (``bool[B, NUM_ACTIONS]``): every game's legal action mask (A-UM-20: never empty)."""
    for g in range(out.shape[0]):
        mask_row(S, C, prm, g, out[g])


@njit(cache=True, _nrt=False)
def batch_apply(S, C, prm, actions, active, scratch):
    """Apply ``actions`` (``int64[B]``) to the ``active`` (``bool[B]``) games and advance each to its next
    decision (research UM §2)."""
    for g in range(actions.shape[0]):
        if not active[g]:
            continue
        apply_one(S, C, prm, g, actions[g])
        advance(S, C, prm, g, scratch)


@njit(cache=True)
def batch_setup(S, C, prm, start_hand):
    """Set up every game of the batch (shuffled tile stacks, decks and goal tiles, displays, starting hands;
    research UM §1, A-UM-04, A-UM-08, A-UM-16) and advance it to seat 0's first decision."""
    scratch = np.zeros(NUM_ACTIONS, np.bool_)
    P = S.seat.shape[1]
    key = S.rng_key
    ctr = S.rng_ctr
    for g in range(S.game.shape[0]):
        for lvl in range(2):
            chance_shuffle(key, ctr, g, RZ_TSTACK + lvl, S.pile[g, TSTACK_I + lvl], 0, C.cnt[I_TILES_LVL + lvl])
            S.game[g, MARKET + lvl * MARKET_W + 1] = stack_draw(S, C, prm, g, lvl)
            S.game[g, MARKET + lvl * MARKET_W + 0] = stack_draw(S, C, prm, g, lvl)
        chance_shuffle(key, ctr, g, RZ_RDECK, S.pile[g, RDECK], 0, S.card.shape[1])
        for k in range(prm[PRM_RESEARCH_DISPLAY]):
            c = S.pile[g, RDECK, (S.game[g, RTOP])]
            S.game[g, RTOP] += 1
            S.pile[g, RDISP, k] = c
            S.card[g, c, CARD_LOC] = L_DISPLAY
        chance_shuffle(key, ctr, g, RZ_TRDECK, S.pile[g, TRDECK], 0, S.treatise.shape[1])
        for k in range(prm[PRM_TREATISE_DISPLAY]):
            if S.game[g, TRTOP] < S.treatise.shape[1]:
                S.pile[g, TRDISP, k] = S.pile[g, TRDECK, (S.game[g, TRTOP])]
                S.game[g, TRTOP] += 1
        chance_shuffle(key, ctr, g, RZ_RDECK_CL, S.pile[g, RDECK_CL], 0, C.cnt[I_N_ROUTINE])
        for k in range(prm[PRM_ROUTINE_DISPLAY]):
            if S.game[g, RTOP_CL] < C.cnt[I_N_ROUTINE]:
                S.pile[g, RDISP_CL, k] = S.pile[g, RDECK_CL, (S.game[g, RTOP_CL])]
                S.game[g, RTOP_CL] += 1
        chance_shuffle(key, ctr, g, RZ_CDECK_CL, S.pile[g, CDECK_CL], 0, C.cnt[I_N_CASE])
        for k in range(prm[PRM_CASE_DISPLAY]):
            if S.game[g, CTOP_CL] < C.cnt[I_N_CASE]:
                S.pile[g, CDISP_CL, k] = S.pile[g, CDECK_CL, (S.game[g, CTOP_CL])]
                S.game[g, CTOP_CL] += 1
        chance_shuffle(key, ctr, g, RZ_LDECK, S.pile[g, LDECK], 0, C.cnt[I_N_LATENT])
        chance_shuffle(key, ctr, g, RZ_MDECK, S.pile[g, MDECK], 0, C.cnt[I_N_MANIFEST])
        for k in range(prm[PRM_MANIFEST_DISPLAY]):
            S.pile[g, MDISP, k] = draw_manifest(S, C, prm, g)
        # goal tiles: the first n of a shuffled order
        ng = C.cnt[I_N_GOAL_TILES]
        order = np.arange(ng)
        chance_shuffle(key, ctr, g, RZ_GOALS, order, 0, ng)
        for i in range(S.goal.shape[1]):
            S.goal[g, i, GOAL_ID] = order[i] if i < ng else -1
        for p in range(P):
            for _ in range(start_hand):
                draw_card(S, C, prm, g, p)
        S.event_n[g] = 0
        start_turn(S, C, prm, g)
        advance(S, C, prm, g, scratch)
