"""Rule kernels of Unconscious Mind: scalar per-game numba code over the batch.

Each game carries a decision stack ``S.stk[g, i, STK_KIND..STK_C]`` (kind, a, b, c). Kinds ``D_*`` wait for the
seat's action; kinds ``K_*`` run automatically (:mod:`sim.unconscious_mind.codes`). :func:`advance` pops and runs
automatic entries until a decision is on top (decisions whose only legal action is DONE are skipped). A turn
starts as the stack ``[K_FINISH, K_CLIENTS, D_HEARTS, D_TURN]`` (top last); every rule pushes its sub-steps on top.

``S`` is :class:`sim.unconscious_mind.state.Arrays`: the state groups (``S.seat[g, p, COFFEE]`` is seat p's
Coffee, columns from :mod:`sim.unconscious_mind.cols`), the content groups (``S.kcard[c, CARD_COL]`` card c's
Volume colour, columns from :mod:`sim.unconscious_mind.kcols`), ``S.eff`` (effect rows) and the core log buffers
and streams. ``C`` is the ``int64`` parameter vector (``C[I_ROUND_LIMIT]``, also from ``kcols``).
Sizes come from array shapes (``S.card.shape[1]`` Research cards, ``S.seat.shape[1]`` seats).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.logs import begin_event_row, begin_turn_row
from sim.core.rng import chance_shuffle

from .codes import (CATS, CH_HEART_CONV, CH_MANIFEST_DECK, CH_TO_FREUD, COLOUR_DISTRICT, COLOUR_PUBLISH, C_BONUS,
    C_CARD, C_CITED, C_CITED_BRIGHT, C_CLIENT, C_CONVERSION, C_DISCARD, C_DISTRICT, C_EFFECT, C_ELEVATE, C_EMPTY,
    C_END_BRIGHT, C_END_CASE, C_END_DISTRICTS, C_END_HEARTS, C_END_REP, C_END_ROWS, C_END_TAGS, C_END_TRACK,
    C_END_TRIGGER, C_FREE, C_FREUD, C_GENERATE, C_GOAL, C_INKPOT, C_LOCATION, C_NB_FULL, C_NONE, C_PAY, C_PROFESSOR,
    C_PUBLISH, C_RDRAW, C_RECALL, C_REPLACE, C_REPTRACK, C_ROUND_LIMIT, C_RSWAP, C_SOLO, C_TILE, C_TILE_CENTER,
    C_TILE_COST, C_TILE_RIGHT, C_TILE_STACK, C_TRANSFER, C_TREAT, C_TREATISE, D_COLOUR, D_COLUMN, D_ELXF,
    D_FREE_TILE, D_FREUD, D_GATHER, D_GENANY, D_GENQ, D_HEARTS, D_INKPOT, D_LOCEFF, D_LOCTRIG, D_MANIFEST, D_MODE,
    D_NEWCLIENT, D_ORDER, D_PLACE, D_PLAYN, D_PROF, D_QUILL, D_RECALLB, D_REPACT, D_RESPLAY, D_SWAP, D_SWAP2,
    D_THERAPY, D_TILEORDER, D_TILE_SRC, D_TREAT, D_TURN, EVENT_KINDS, EV_BONUS, EV_BRIGHT, EV_CARD, EV_CATH,
    EV_CGAIN, EV_CITE, EV_CLIENT, EV_CSPEND, EV_CURE, EV_END, EV_FREUD, EV_GOAL, EV_HEART, EV_IDEA, EV_INSIGHT,
    EV_MOVE, EV_PUBLISH, EV_REP, EV_TILE, EV_VP, INK_COLUMN, INK_PLAIN, INK_REP, INK_ROW, K_CLIENTS, K_EFFECT,
    K_FINISH, K_GENQL, K_INKPOT, K_INKPOT_START, K_PERFORM, K_PUBLISH, L_DECK, L_DISPLAY, L_HAND, L_INPLAY,
    L_TREATISE, MT_CENTER, MT_DRAW, MT_ELEV, MT_FREUD, MT_GEN, MT_PLAY, MT_PROF, MT_RIGHT, MT_STACK, N_CHANCE_ZONES,
    OPT_PASS, OPT_RECALL, OPT_STATE, OPT_TREAT, OP_BRIGHT, OP_COFFEE, OP_DRAW, OP_ELEV, OP_GEN, OP_HEART, OP_HEARTS,
    OP_PLAY, OP_REP, OP_THERAPY, OP_TILE, OP_VP, OP_XFER, RZ_CDECK_CL, RZ_GOALS, RZ_LDECK, RZ_MDECK, RZ_RDECK,
    RZ_RDECK_CL, RZ_TRDECK, RZ_TSTACK, VP_CATEGORIES)  # noqa: F401  (re-exported: R.D_TURN, R.CATS, ...)
from .cols import (BRIGHT, CARD_KNOWN, CARD_LOC, CARD_OWN, CDECK_CL, CDISP_CL, CL_OWNER, CL_WHERE, COFFEE,
    COL_BOARD, COL_DONE, COL_SPENT, CTOP_CL, CURED, DIAL_C, DIAL_W, DIST_LEFT, DIST_SLOT, DIST_SLOT_W, DR_GONE,
    END_TRIG, FREUD_LOC, FREUD_REP, GOAL_ID, GOAL_OWNER, HEARTS, ICONS, IDEAS_HAND, IDEAS_LOCKED, INKPOT,
    LAST_ROUND, LDECK, LOC_COV, LOC_COV_W, LTOP, MARKET, MARKET_W, MDECK, MDISP, MTOP, NB, NB_FULL, OVER, PROF_LOC,
    PUB_CITED, PUB_FILL, PUB_T, RDECK, RDECK_CL, RDISP, RDISP_CL, REP, REP_ORDER, REP_SEQ, RND, ROOM_CATH,
    ROOM_CLIENT, ROOM_LATENT, ROOM_MANIFEST, ROOM_OPEN, ROOM_THER, ROW_DONE, RTOP, RTOP_CL, SP, SPACE_ACT,
    SPACE_BRIGHT, SPACE_N, SPACE_OWNER, STK_A, STK_B, STK_C, STK_KIND, TDISC, TO_ACT, TRDECK, TRDISP, TRTOP,
    TR_CARDS, TR_N, TR_OWNER, TSTACK_I, TTOP, TURN, T_ACT, T_CGAIN, T_CSPENT, T_OPT, T_VP, VP, VP_CAT, VP_EV)
from .kcols import (ACT_MOVE, CARD_COL, CARD_EFF, CARD_TAG, CL_ABIL, CL_CATH, CL_END, CL_END_W, CL_KIND, CL_START,
    CL_SYM, CL_TAG, CL_VP, DIST_REW, DR_CL, DR_CQ, DR_EFF, DR_SYM, GOAL_COND, GOAL_REP, GOAL_TAG, INK_GEN, INK_IDEA,
    INK_KIND, INK_NB_ROW, I_BRIGHT_VP, I_CATH_SPACE, I_CDISP_CL_N, I_CITE_BRIGHT, I_COFFEE_PER_BRIGHT, I_COL_LVL,
    I_CONV_COFFEE, I_DISTRICT_VP, I_DIST_REP_TOKENS, I_DIST_THR, I_DIST_TOKENS, I_EMPTY_VP, I_END_VP, I_FACE_LINES,
    I_FREUD_MAX, I_FULL_REP, I_HEART_VP, I_ICON_REQ, I_INS_ELEV, I_INS_XFER, I_LIMIT_STOP, I_LOC_BRIGHT, I_LOC_CAP,
    I_MDISP_N, I_N_CASE, I_N_FACE_LINES, I_N_GOAL_TILES, I_N_INKPOTS, I_N_LATENT, I_N_MANIFEST, I_N_ROUTINE,
    I_N_SECTIONS, I_PLAY_MAX, I_PROF_MAX, I_RDISP_CL_N, I_RDISP_N, I_RECALL_COFFEE, I_REP_VP, I_ROUND_LIMIT,
    I_ROWS_VP, I_ROW_ELEV, I_SOLO_EVERY, I_SYM_HEARTS, I_TAGS_VP, I_THER_MAX, I_TILES_LVL, I_TILE_COST,
    I_TRACK_FIRST, I_TRACK_LEN, I_TRACK_SECOND, I_TRDISP_N, LOC_BON, LOC_DIST, LOC_EFF, SEC_ACTION, SEC_FIRST,
    SEC_REWARD, SPACE_MT, TILE_BANNER, TILE_MAIN, TR_CITE_VP, TR_COLS, TR_LEN, TR_TAGS, TR_VP)
from .state import MAX_VOLUMES, N_LOCATIONS
from .logcols import (EV_AMOUNT, EV_CATEGORY, EV_COST, EV_COUNT, EV_ITEM, EV_TARGET_SEAT, TURN_COFFEE_AFTER,
                      TURN_COFFEE_GAINED, TURN_COFFEE_SPENT, TURN_CURED_AFTER, TURN_INSIGHT_AFTER, TURN_MT_ACTION,
                      TURN_OPTION, TURN_VP_AFTER, TURN_VP_GAINED)
from .actions import (CARD0, CH0, DONE, MODE0, MODE_BRIGHT, MODE_NORMAL, NUM_ACTIONS, PASS, PLACE0,
                      POS0, RECALL, TREAT, XFER0)




# ================================================================= small helpers
@njit(cache=True)
def ev(S, C, g, kind, seat, cat, amount, target, item, cost, count):
    """Append one event row (core columns then category, amount, target_seat, item, cost, count)."""
    b = S.event_buf
    r = begin_event_row(b, S.event_n, g, S.ply[g], S.game[g, TURN], seat, kind)
    b[g, r, EV_CATEGORY] = cat
    b[g, r, EV_AMOUNT] = amount
    b[g, r, EV_TARGET_SEAT] = target
    b[g, r, EV_ITEM] = item
    b[g, r, EV_COST] = cost
    b[g, r, EV_COUNT] = count


@njit(cache=True)
def push(S, C, g, kind, a, b, c):
    sp = S.game[g, SP]
    if sp >= S.stk.shape[1]:
        raise RuntimeError("decision stack overflow")
    S.stk[g, sp, STK_KIND] = kind
    S.stk[g, sp, STK_A] = a
    S.stk[g, sp, STK_B] = b
    S.stk[g, sp, STK_C] = c
    S.game[g, SP] = sp + 1


@njit(cache=True)
def gain_coffee(S, C, g, p, n, cat):
    if n <= 0:
        return
    S.seat[g, p, COFFEE] += n
    if p == S.game[g, TO_ACT]:
        S.game[g, T_CGAIN] += n
    ev(S, C, g, EV_CGAIN, p, cat, n, -1, -1, 0, 0)


@njit(cache=True)
def spend_coffee(S, C, g, p, n, cat, item):
    if n <= 0:
        return
    S.seat[g, p, COFFEE] -= n
    if p == S.game[g, TO_ACT]:
        S.game[g, T_CSPENT] += n
    ev(S, C, g, EV_CSPEND, p, cat, n, -1, item, n, 0)


@njit(cache=True)
def add_vp(S, C, g, p, n, cat, item):
    """Every VP change goes through here: VP, the running sum of VP events, the category, and the event."""
    if n == 0:
        return
    if cat == C_NONE or cat > C_END_BRIGHT:
        cat = C_BONUS  # VP from district slots, goals and other bonuses
    S.seat[g, p, VP] += n
    S.seat[g, p, VP_EV] += n
    S.seat[g, p, VP_CAT + cat] += n
    if p == S.game[g, TO_ACT]:
        S.game[g, T_VP] += n
    ev(S, C, g, EV_VP, p, cat, n, -1, item, 0, 0)


@njit(cache=True)
def gain_bright(S, C, g, p, n, cat, src):
    if n <= 0:
        return
    S.seat[g, p, BRIGHT] += n
    ev(S, C, g, EV_BRIGHT, p, cat, n, src, -1, 0, 0)


@njit(cache=True)
def gain_heart(S, C, g, p, n, cat):
    if n <= 0:
        return
    S.seat[g, p, HEARTS] += n
    ev(S, C, g, EV_HEART, p, cat, n, -1, -1, 0, 0)


# ----------------------------------------------------------------- Insight dial
@njit(cache=True)
def tok_at(S, C, g, p, pos):
    return S.seat[g, p, DIAL_W + pos] + S.seat[g, p, DIAL_C + pos]


@njit(cache=True)
def tok_move(S, C, g, p, src, dst):
    """Move one token (white first) from dial position ``src`` to ``dst`` (0 = reserve, 1+q*3+l)."""
    if S.seat[g, p, DIAL_W + src] > 0:
        S.seat[g, p, DIAL_W + src] -= 1
        S.seat[g, p, DIAL_W + dst] += 1
        return True
    if S.seat[g, p, DIAL_C + src] > 0:
        S.seat[g, p, DIAL_C + src] -= 1
        S.seat[g, p, DIAL_C + dst] += 1
        return True
    return False


@njit(cache=True)
def generate(S, C, g, p, q, lvl):
    """Generate: a reserve token into wedge q, ring lvl. With an empty reserve the seat may take a token from
    anywhere on its dial instead (a D_GENANY decision, research UM §3)."""
    dst = 1 + q * 3 + lvl
    if tok_at(S, C, g, p, 0) > 0:
        tok_move(S, C, g, p, 0, dst)
        ev(S, C, g, EV_INSIGHT, p, C_GENERATE, 1, -1, q * 3 + lvl, 0, 0)
        return
    for i in range(1, 10):
        if i != dst and tok_at(S, C, g, p, i) > 0:
            push(S, C, g, D_GENANY, dst, 0, 0)
            return


@njit(cache=True)
def pay_pos(S, C, g, p, cq, cl):
    """Dial position paying an Insight cost (quality cq, 3 = any; level cl): lowest sufficient level first."""
    for lv in range(cl, 3):
        for q in range(3):
            if (cq == 3 or q == cq) and tok_at(S, C, g, p, 1 + q * 3 + lv) > 0:
                return 1 + q * 3 + lv
    return -1


@njit(cache=True)
def level_pos(S, C, g, p, lv):
    """A dial position holding a token of exactly level lv (lowest quality index), or -1."""
    for q in range(3):
        if tok_at(S, C, g, p, 1 + q * 3 + lv) > 0:
            return 1 + q * 3 + lv
    return -1


@njit(cache=True)
def has_colour(S, C, g, p):
    for i in range(10):
        if S.seat[g, p, DIAL_C + i] > 0:
            return True
    return False


@njit(cache=True)
def colour_sources(S, C, g, p):
    """How many dial positions (reserve or a ring) hold a player-colour Insight of seat p."""
    n = 0
    for i in range(10):
        if S.seat[g, p, DIAL_C + i] > 0:
            n += 1
    return n


@njit(cache=True)
def take_colour_at(S, C, g, p, pos, why):
    """Remove a player-colour Insight of seat p from dial position ``pos`` (0 = reserve, 1+q*3+l); an
    ``insight`` event (category publish or district, item = q*3+l, -1 for the reserve) records where from."""
    if S.seat[g, p, DIAL_C + pos] <= 0:
        return False
    S.seat[g, p, DIAL_C + pos] -= 1
    S.seat[g, p, COL_SPENT] += 1
    ev(S, C, g, EV_INSIGHT, p, C_PUBLISH if why == COLOUR_PUBLISH else C_DISTRICT, -1, -1, pos - 1, 0, 0)
    return True


@njit(cache=True)
def take_colour(S, C, g, p, why):
    """Put a player-colour Insight from the dial (reserve or any ring, seed §Publishing a Treatise step 5) on a
    Treatise or district slot: the seat chooses where from (a D_COLOUR decision) when two or more dial
    positions hold one; with one position it is taken from there (A-UM-22)."""
    if colour_sources(S, C, g, p) >= 2:
        push(S, C, g, D_COLOUR, why, 0, 0)
        return True
    for i in range(10):
        if S.seat[g, p, DIAL_C + i] > 0:
            return take_colour_at(S, C, g, p, i, why)
    return False


# ----------------------------------------------------------------- reputation clock
@njit(cache=True)
def face_crossed(S, C, old, new):
    n = 0
    for fi in range(C[I_N_FACE_LINES]):
        f = C[I_FACE_LINES + fi]
        if old < f <= new:
            n += 1
    return n


@njit(cache=True)
def freud_step(S, C, g, causer):
    """Freud's reputation marker advances one space (always first); reaching the end triggers the end."""
    if S.game[g, FREUD_REP] >= C[I_TRACK_LEN]:
        return
    old = S.game[g, FREUD_REP]
    S.game[g, FREUD_REP] = old + 1
    ev(S, C, g, EV_FREUD, causer if causer >= 0 else S.game[g, TO_ACT], C_NONE, 1, -1, old + 1, 0, 0)
    k = face_crossed(S, C, old, old + 1)
    if k > 0:
        S.game[g, FREUD_LOC] = (S.game[g, FREUD_LOC] + k) % N_LOCATIONS
        ev(S, C, g, EV_MOVE, S.game[g, TO_ACT], C_FREUD, k, -1, S.game[g, FREUD_LOC], 0, 0)
    if S.game[g, FREUD_REP] >= C[I_TRACK_LEN] and S.game[g, END_TRIG] == 0:
        S.game[g, END_TRIG] = 1
        S.game[g, LAST_ROUND] = S.game[g, RND] + 1
        ev(S, C, g, EV_END, causer if causer >= 0 else S.game[g, TO_ACT], C_END_TRIGGER, 0, causer, S.game[g, RND], 0, 0)
        if causer >= 0:
            add_vp(S, C, g, causer, C[I_END_VP], C_END_TRIGGER, -1)


@njit(cache=True)
def gain_rep(S, C, g, p, n, cat):
    for _ in range(n):
        freud_step(S, C, g, p)
        if S.seat[g, p, REP] < C[I_TRACK_LEN]:
            old = S.seat[g, p, REP]
            S.seat[g, p, REP] = old + 1
            S.game[g, REP_SEQ] += 1
            S.seat[g, p, REP_ORDER] = S.game[g, REP_SEQ]
            ev(S, C, g, EV_REP, p, cat, 1, -1, old + 1, 0, 0)
            k = face_crossed(S, C, old, old + 1)
            if k > 0:
                S.game[g, FREUD_LOC] = (S.game[g, FREUD_LOC] + k) % N_LOCATIONS
                ev(S, C, g, EV_MOVE, p, C_FREUD, k, -1, S.game[g, FREUD_LOC], 0, 0)


@njit(cache=True)
def marker_ahead(S, C, g, a, b):
    """True when seat a's reputation marker is ahead of seat b's: further along the track, or on the same space
    and underneath it (arrived earlier). The one definition of "ahead" (end-of-track bonus, tie-break; A-UM-25)."""
    ra = S.seat[g, a, REP]
    rb = S.seat[g, b, REP]
    if ra != rb:
        return ra > rb
    return S.seat[g, a, REP_ORDER] < S.seat[g, b, REP_ORDER]


@njit(cache=True)
def batch_markers_ahead(S, C, out):
    """``out[g, p]``: how many seats' reputation markers are ahead of seat p's (:func:`marker_ahead`)."""
    P = S.seat.shape[1]
    for g in range(out.shape[0]):
        for p in range(P):
            n = 0
            for q in range(P):
                if q != p and marker_ahead(S, C, g, q, p):
                    n += 1
            out[g, p] = n


@njit(cache=True)
def section_of(S, C, pos):
    s = 0
    for i in range(C[I_N_SECTIONS]):
        if pos >= S.kboard[i, SEC_FIRST]:
            s = i
    return s


# ----------------------------------------------------------------- tags
@njit(cache=True)
def tags_at(S, C, g, p, loc):
    n = 0
    for c in range(S.kcard.shape[0]):
        if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p and S.kcard[c, CARD_TAG] == loc:
            n += 1
    for t in range(S.ktr.shape[0]):
        if S.treatise[g, t, TR_OWNER] == p:
            for k in range(2):
                if S.ktr[t, TR_TAGS + k] == loc:
                    n += 1
    for cl in range(S.kclient.shape[0]):
        if S.client[g, cl, CL_OWNER] == p and S.kclient[cl, CL_TAG] == loc:
            n += 1
    for i in range(S.goal.shape[1]):
        if S.goal[g, i, GOAL_ID] >= 0 and S.goal[g, i, GOAL_OWNER] == p and S.kboard[S.goal[g, i, GOAL_ID], GOAL_TAG] == loc:
            n += 1
    return n


@njit(cache=True)
def district_tags(S, C, g, p, d):
    n = 0
    for loc in range(N_LOCATIONS):
        if S.kboard[loc, LOC_DIST] == d:
            n += tags_at(S, C, g, p, loc)
    return n


# ----------------------------------------------------------------- research cards
@njit(cache=True)
def draw_card(S, C, g, p):
    """Draw the top Research card into the hand (nothing when the deck is empty, A-UM-23)."""
    if S.game[g, RTOP] >= S.card.shape[1]:
        return
    c = S.pile[g, RDECK, (S.game[g, RTOP])]
    S.game[g, RTOP] += 1
    S.card[g, c, CARD_LOC] = L_HAND
    S.card[g, c, CARD_OWN] = p
    ev(S, C, g, EV_CARD, p, C_RDRAW, 1, -1, c, 0, 0)


@njit(cache=True)
def hand_size(S, C, g, p):
    n = 0
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_HAND and S.card[g, c, CARD_OWN] == p:
            n += 1
    return n


@njit(cache=True)
def own_counts(S, C, g, p, out):
    for k in range(4):
        out[k] = 0
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p:
            out[S.kcard[c, CARD_COL]] += 1


# ----------------------------------------------------------------- treatise feasibility
@njit(cache=True)
def covered(need, own):
    for c in range(4):
        if need[c] > own[c]:
            return False
    return True


@njit(cache=True)
def cite_feasible(S, C, g, p, need0, own):
    """Can the Volumes ``need0`` be gathered from own in-play cards ``own`` plus citations?

    Citations take the rightmost card of another player's Treatise, working inward, only Volumes still
    needed. Iterative depth-first search over how many Volumes to take from each citable Treatise.
    """
    need = need0.copy()
    if covered(need, own):
        return True
    nt = S.treatise.shape[1]
    cand = np.zeros(nt, np.int64)
    nc = 0
    for k in range(nt):
        q = S.treatise[g, k, TR_OWNER]
        if q >= 0 and q != p and S.treatise[g, k, TR_N] > 0:
            cand[nc] = k
            nc += 1
    if nc == 0:
        return False
    m = np.zeros(nc, np.int64)
    d = 0
    while True:
        if covered(need, own):
            return True
        if d + 1 < nc:
            d += 1
            m[d] = 0
            continue
        # deepest level: take one more Volume here, or undo and backtrack
        while d >= 0:
            k = cand[d]
            n = S.treatise[g, k, TR_N]
            if m[d] < n:
                col = S.kcard[S.treatise[g, k, TR_CARDS + (n - 1 - m[d])], CARD_COL]
                if need[col] > 0:
                    need[col] -= 1
                    m[d] += 1
                    break
            for j in range(m[d]):
                need[S.kcard[S.treatise[g, k, TR_CARDS + (n - 1 - j)], CARD_COL]] += 1
            m[d] = 0
            d -= 1
        if d < 0:
            return False


@njit(cache=True)
def need_counts(S, C, g, t, out):
    for k in range(4):
        out[k] = 0
    for i in range(S.ktr[t, TR_LEN]):
        if S.game[g, PUB_FILL + i] < 0:
            out[S.ktr[t, TR_COLS + i]] += 1


@njit(cache=True)
def publishable(S, C, g, p, t):
    """Treatise t can be published by p: a colour Insight, a quill card, and the rest gatherable."""
    if t < 0 or not has_colour(S, C, g, p):
        return False
    own = np.zeros(4, np.int64)
    own_counts(S, C, g, p, own)
    qc = S.ktr[t, TR_COLS + 0]
    if own[qc] < 1:
        return False
    own[qc] -= 1
    need = np.zeros(4, np.int64)
    for i in range(1, S.ktr[t, TR_LEN]):
        need[S.ktr[t, TR_COLS + i]] += 1
    return cite_feasible(S, C, g, p, need, own)


@njit(cache=True)
def fill_slot(S, C, g, t, card):
    col = S.kcard[card, CARD_COL]
    for i in range(S.ktr[t, TR_LEN]):
        if S.game[g, PUB_FILL + i] < 0 and S.ktr[t, TR_COLS + i] == col:
            S.game[g, PUB_FILL + i] = card
            S.treatise[g, t, TR_CARDS + i] = card
            S.card[g, card, CARD_LOC] = L_TREATISE
            S.card[g, card, CARD_OWN] = t
            return
    raise RuntimeError("no Volume slot for the card")


@njit(cache=True)
def gather_left(S, C, g, t):
    n = 0
    for i in range(S.ktr[t, TR_LEN]):
        if S.game[g, PUB_FILL + i] < 0:
            n += 1
    return n


# ----------------------------------------------------------------- notebook
@njit(cache=True)
def next_col(S, C, g, p, r):
    for c in range(3):
        if S.seat[g, p, NB + (r * 3 + c)] < 0:
            return c
    return -1


@njit(cache=True)
def can_place_row(S, C, g, p, r):
    c = next_col(S, C, g, p, r)
    if c < 0:
        return False
    if c == 2:  # icon space (A-UM-18: the third space of each row)
        k = S.seat[g, p, ICONS]
        if k >= 3 or S.seat[g, p, CURED] < C[I_ICON_REQ + k]:
            return False
    return True


@njit(cache=True)
def place_tile(S, C, g, p, r, tile):
    c = next_col(S, C, g, p, r)
    S.seat[g, p, NB + (r * 3 + c)] = tile
    if c == 2:
        S.seat[g, p, ICONS] += 1
    ev(S, C, g, EV_TILE, p, C_NONE, 0, -1, tile, 0, r * 3 + c)
    # completed rows and columns release their player-colour Insight into the reserve
    for rr in range(3):
        if S.seat[g, p, ROW_DONE + rr] == 0 and S.seat[g, p, NB + (rr * 3)] >= 0 and S.seat[g, p, NB + (rr * 3 + 1)] >= 0 \
                and S.seat[g, p, NB + (rr * 3 + 2)] >= 0:
            S.seat[g, p, ROW_DONE + rr] = 1
            S.seat[g, p, COL_BOARD] -= 1
            S.seat[g, p, DIAL_C + 0] += 1
            ev(S, C, g, EV_INSIGHT, p, C_TILE, 1, -1, 100 + rr, 0, 0)
    for cc in range(3):
        if S.seat[g, p, COL_DONE + cc] == 0 and S.seat[g, p, NB + cc] >= 0 and S.seat[g, p, NB + (3 + cc)] >= 0 \
                and S.seat[g, p, NB + (6 + cc)] >= 0:
            S.seat[g, p, COL_DONE + cc] = 1
            S.seat[g, p, COL_BOARD] -= 1
            S.seat[g, p, DIAL_C + 0] += 1
            ev(S, C, g, EV_INSIGHT, p, C_TILE, 1, -1, 200 + cc, 0, 0)
    if S.seat[g, p, NB_FULL] == 0:
        full = True
        for i in range(9):
            if S.seat[g, p, NB + i] < 0:
                full = False
        if full:
            S.seat[g, p, NB_FULL] = 1
            gain_rep(S, C, g, p, C[I_FULL_REP], C_NB_FULL)


@njit(cache=True)
def stack_draw(S, C, g, lvl):
    if S.game[g, TTOP + lvl] < C[I_TILES_LVL + lvl]:
        t = S.pile[g, TSTACK_I + lvl, (S.game[g, TTOP + lvl])]
        S.game[g, TTOP + lvl] += 1
        return t
    return -1


@njit(cache=True)
def refill_market(S, C, g, lvl):
    """Right takes the center slid across, then the center takes the stack top (banner side up)."""
    for _ in range(2):
        if S.game[g, MARKET + lvl * MARKET_W + 1] < 0 and S.game[g, MARKET + lvl * MARKET_W + 0] >= 0:
            S.game[g, MARKET + lvl * MARKET_W + 1] = S.game[g, MARKET + lvl * MARKET_W + 0]
            S.game[g, MARKET + lvl * MARKET_W + 0] = -1
        if S.game[g, MARKET + lvl * MARKET_W + 0] < 0:
            S.game[g, MARKET + lvl * MARKET_W + 0] = stack_draw(S, C, g, lvl)


# ----------------------------------------------------------------- clients
@njit(cache=True)
def catharsis(S, C, g, p, room):
    cl = S.seat[g, p, ROOM_CLIENT + room]
    S.seat[g, p, ROOM_CATH + room] = 1
    ev(S, C, g, EV_CATH, p, C_CLIENT, 0, -1, cl, 0, room)
    if S.seat[g, p, ROOM_OPEN + 1] == 0:
        S.seat[g, p, ROOM_OPEN + 1] = 1
    # ability (unlocked at once, A-UM-24: a one-time effect) below the grief bonus on the stack
    push(S, C, g, K_EFFECT, S.kclient[cl, CL_ABIL], C_CLIENT, room)
    push(S, C, g, K_EFFECT, S.kclient[cl, CL_CATH], C_CLIENT, room)


@njit(cache=True)
def cure(S, C, g, p, room):
    cl = S.seat[g, p, ROOM_CLIENT + room]
    S.client[g, cl, CL_OWNER] = p
    S.client[g, cl, CL_WHERE] = 3
    S.seat[g, p, CURED] += 1
    ev(S, C, g, EV_CURE, p, C_CLIENT, S.kclient[cl, CL_VP], -1, cl, 0, room)
    add_vp(S, C, g, p, S.kclient[cl, CL_VP], C_CLIENT, cl)
    if S.seat[g, p, ROOM_MANIFEST + room] >= 0:
        S.game[g, DR_GONE] += 1
        S.seat[g, p, ROOM_MANIFEST + room] = -1
    if S.seat[g, p, ROOM_LATENT + room] >= 0:
        S.game[g, DR_GONE] += 1
        S.seat[g, p, ROOM_LATENT + room] = -1
    S.seat[g, p, ROOM_CLIENT + room] = -1
    S.seat[g, p, ROOM_THER + room] = 0


@njit(cache=True)
def apply_therapy(S, C, g, p, room, n):
    """n therapy points on the client in ``room``: catharsis passing the star, cure at 0, excess -> boxes."""
    for _ in range(n):
        if S.seat[g, p, ROOM_CLIENT + room] < 0:
            gain_heart(S, C, g, p, 1, C_CLIENT)
            continue
        S.seat[g, p, ROOM_THER + room] -= 1
        if S.seat[g, p, ROOM_CATH + room] == 0 and S.seat[g, p, ROOM_THER + room] <= C[I_CATH_SPACE]:
            catharsis(S, C, g, p, room)
        if S.seat[g, p, ROOM_THER + room] <= 0:
            cure(S, C, g, p, room)


@njit(cache=True)
def room_treatable(S, C, g, p, room):
    if S.seat[g, p, ROOM_CLIENT + room] < 0:
        return False
    d = S.seat[g, p, ROOM_MANIFEST + room]
    if d < 0:
        d = S.seat[g, p, ROOM_LATENT + room]
    if d < 0:
        return False
    return pay_pos(S, C, g, p, S.kdream[d, DR_CQ], S.kdream[d, DR_CL]) >= 0


@njit(cache=True)
def draw_latent(S, C, g):
    if S.game[g, LTOP] < C[I_N_LATENT]:
        d = S.pile[g, LDECK, (S.game[g, LTOP])]
        S.game[g, LTOP] += 1
        return d
    return -1


@njit(cache=True)
def draw_manifest(S, C, g):
    if S.game[g, MTOP] < C[I_N_MANIFEST]:
        d = S.pile[g, MDECK, (S.game[g, MTOP])]
        S.game[g, MTOP] += 1
        return d
    return -1


# ----------------------------------------------------------------- effects
@njit(cache=True)
def run_effect(S, C, g, p, e, cat, ctx):
    """Apply effect row ``e``: immediate opcodes at once, choices pushed (first op on top)."""
    ck = np.zeros(4, np.int64)
    ca = np.zeros(4, np.int64)
    nc = 0
    for i in range(S.eff.shape[1]):
        op = S.eff[e, i, 0]
        a = S.eff[e, i, 1]
        b = S.eff[e, i, 2]
        if op == 0:
            continue
        if op == OP_COFFEE:
            gain_coffee(S, C, g, p, a, cat)
        elif op == OP_VP:
            add_vp(S, C, g, p, a, cat, e)
        elif op == OP_BRIGHT:
            gain_bright(S, C, g, p, a, cat, -1)
        elif op == OP_HEART:
            gain_heart(S, C, g, p, a, cat)
        elif op == OP_REP:
            gain_rep(S, C, g, p, a, cat)
        elif op == OP_GEN:
            if a == 3:
                ck[nc] = D_GENQ
                ca[nc] = b
                nc += 1
            else:
                generate(S, C, g, p, a, b)
        elif op == OP_ELEV:
            ck[nc] = D_ELXF
            ca[nc] = a * 16
            nc += 1
        elif op == OP_XFER:
            ck[nc] = D_ELXF
            ca[nc] = a
            nc += 1
        elif op == OP_DRAW:
            for _ in range(a):
                draw_card(S, C, g, p)
        elif op == OP_PLAY:
            ck[nc] = D_PLAYN
            ca[nc] = a
            nc += 1
        elif op == OP_TILE:
            ck[nc] = D_FREE_TILE
            ca[nc] = a
            nc += 1
        elif op == OP_THERAPY:
            ck[nc] = D_THERAPY
            ca[nc] = a
            nc += 1
        elif op == OP_HEARTS:
            if ctx >= 0:
                apply_therapy(S, C, g, p, ctx, a)
    for j in range(nc - 1, -1, -1):
        if ck[j] == D_ELXF:
            push(S, C, g, D_ELXF, ca[j] // 16, ca[j] % 16, 0)
        elif ck[j] == D_FREE_TILE:
            for _ in range(ca[j]):
                push(S, C, g, D_FREE_TILE, 0, 0, 0)
        else:
            push(S, C, g, ck[j], ca[j], 0, 0)


# ----------------------------------------------------------------- Meeting Table
@njit(cache=True)
def own_points_at(S, C, g, p, act):
    for s in range(S.space.shape[1]):
        if S.space[g, s, SPACE_OWNER] == p and S.space[g, s, SPACE_ACT] == act:
            return True
    return False


@njit(cache=True)
def can_perform(S, C, g, p, act, times):
    if act <= MT_RIGHT:
        return S.seat[g, p, COFFEE] >= C[I_TILE_COST + act] * times
    if act == MT_PLAY:
        if hand_size(S, C, g, p) > 0:
            return True
        for k in range(C[I_TRDISP_N]):
            if publishable(S, C, g, p, S.pile[g, TRDISP, k]):
                return True
        return False
    return True


@njit(cache=True)
def perform(S, C, g, p, act):
    if act <= MT_RIGHT:
        spend_coffee(S, C, g, p, C[I_TILE_COST + act], C_TILE_COST, act)
        push(S, C, g, D_TILE_SRC, act, 0, 0)
    elif act == MT_GEN:
        for q in range(3):
            generate(S, C, g, p, q, 0)
    elif act == MT_ELEV:
        push(S, C, g, D_ELXF, C[I_INS_ELEV], C[I_INS_XFER], 0)
    elif act == MT_DRAW:
        draw_card(S, C, g, p)
        push(S, C, g, D_SWAP, 0, 0, 0)
    elif act == MT_PLAY:
        push(S, C, g, D_RESPLAY, C[I_PLAY_MAX], 0, 0)
    elif act == MT_PROF:
        push(S, C, g, D_PROF, 0, 0, 0)
    else:
        push(S, C, g, D_FREUD, 0, 0, 0)


@njit(cache=True)
def push_tiles(S, C, g, p, rem):
    """Resolve the main effects of the Notebook tiles in bit set ``rem`` (spaces 0..8) in an order the seat
    chooses: a D_TILEORDER decision while two or more remain."""
    n = 0
    last = -1
    for i in range(9):
        if (rem >> i) & 1:
            n += 1
            last = i
    if n == 1:
        t = S.seat[g, p, NB + last]
        push(S, C, g, K_EFFECT, S.ktile[t, TILE_MAIN], C_TILE, -1)
    elif n > 1:
        push(S, C, g, D_TILEORDER, rem, 0, 0)


@njit(cache=True)
def inkpot_move(S, C, g, p, dist):
    n = C[I_N_INKPOTS]
    pos = S.seat[g, p, INKPOT]
    for _ in range(dist):
        pos = (pos + 1) % n
        if S.kboard[pos, INK_IDEA] == 1 and S.seat[g, p, IDEAS_LOCKED] > 0:
            S.seat[g, p, IDEAS_LOCKED] -= 1
            S.seat[g, p, IDEAS_HAND] += 1
            ev(S, C, g, EV_IDEA, p, C_INKPOT, 1, -1, pos, 0, 0)
    S.seat[g, p, INKPOT] = pos
    kind = S.kboard[pos, INK_KIND]
    if kind == INK_ROW:
        r = S.kboard[pos, INK_NB_ROW]
        if S.seat[g, p, ROW_DONE + r] == 1 and C[I_ROW_ELEV] > 0:
            push(S, C, g, D_ELXF, C[I_ROW_ELEV], 0, 0)
        rem = 0
        for c in range(3):
            if S.seat[g, p, NB + (r * 3 + c)] >= 0:
                rem |= 1 << (r * 3 + c)
        push_tiles(S, C, g, p, rem)
        push(S, C, g, K_EFFECT, S.kboard[pos, INK_GEN], C_INKPOT, -1)
    elif kind == INK_COLUMN:
        push(S, C, g, D_COLUMN, 0, 0, 0)
    elif kind == INK_REP:
        s = section_of(S, C, S.seat[g, p, REP])
        push(S, C, g, D_REPACT, section_of(S, C, S.game[g, FREUD_REP]), 0, 0)
        push(S, C, g, K_EFFECT, S.kboard[s, SEC_REWARD], C_REPTRACK, -1)


# ----------------------------------------------------------------- turn structure
@njit(cache=True)
def start_turn(S, C, g):
    S.game[g, T_OPT] = OPT_PASS
    S.game[g, T_ACT] = -1
    S.game[g, T_CSPENT] = 0
    S.game[g, T_CGAIN] = 0
    S.game[g, T_VP] = 0
    push(S, C, g, K_FINISH, 0, 0, 0)
    push(S, C, g, K_CLIENTS, 0, 0, 0)
    push(S, C, g, D_HEARTS, 0, 0, 0)
    push(S, C, g, D_TURN, 0, 0, 0)


@njit(cache=True)
def goal_met(S, C, g, p, gid):
    op = S.kboard[gid, GOAL_COND + 0]
    a = S.kboard[gid, GOAL_COND + 1]
    n = S.kboard[gid, GOAL_COND + 2]
    if op == 1:
        return tags_at(S, C, g, p, a) >= n
    if op == 2:
        return S.seat[g, p, CURED] >= n
    if op == 3:
        k = 0
        for t in range(S.treatise.shape[1]):
            if S.treatise[g, t, TR_OWNER] == p:
                k += 1
        return k >= n
    k = 0
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p:
            k += 1
    return k >= n


@njit(cache=True)
def check_goals(S, C, g, p):
    for i in range(S.goal.shape[1]):
        gid = S.goal[g, i, GOAL_ID]
        if gid >= 0 and S.goal[g, i, GOAL_OWNER] < 0 and goal_met(S, C, g, p, gid):
            S.goal[g, i, GOAL_OWNER] = p
            ev(S, C, g, EV_GOAL, p, C_GOAL, S.kboard[gid, GOAL_REP], -1, gid, 0, 0)
            gain_rep(S, C, g, p, S.kboard[gid, GOAL_REP], C_GOAL)


@njit(cache=True)
def final_scoring(S, C, g):
    P = S.seat.shape[1]
    # end-of-track bonus: furthest and second furthest marker (arrived earlier = underneath = ahead)
    order = np.arange(P)
    for i in range(P):
        for j in range(P - 1 - i):
            a = order[j]
            b = order[j + 1]
            if marker_ahead(S, C, g, b, a):
                order[j] = b
                order[j + 1] = a
    for p in range(P):
        add_vp(S, C, g, p, C[I_REP_VP + (S.seat[g, p, REP])], C_END_REP, S.seat[g, p, REP])
    for k in range(min(2, P)):
        p = order[k]
        ntr = 0
        for t in range(S.treatise.shape[1]):
            if S.treatise[g, t, TR_OWNER] == p:
                ntr += 1
        per = C[I_TRACK_FIRST] if k == 0 else C[I_TRACK_SECOND]
        add_vp(S, C, g, p, per * (ntr + S.seat[g, p, CURED]), C_END_TRACK, k)
    for p in range(P):
        nd = 0
        for d in range(3):
            has = False
            for s in range(4):
                if S.game[g, DIST_SLOT + d * DIST_SLOT_W + s] == p:
                    has = True
            if has:
                nd += 1
        add_vp(S, C, g, p, C[I_DISTRICT_VP + nd], C_END_DISTRICTS, nd)
        rows = 0
        for r in range(3):
            rows += S.seat[g, p, ROW_DONE + r]
        add_vp(S, C, g, p, C[I_ROWS_VP + rows], C_END_ROWS, rows)
        uniq = 0
        for loc in range(N_LOCATIONS):
            if tags_at(S, C, g, p, loc) > 0:
                uniq += 1
        add_vp(S, C, g, p, C[I_TAGS_VP + uniq], C_END_TAGS, uniq)
        case_vp = 0
        for cl in range(S.kclient.shape[0]):
            if S.client[g, cl, CL_OWNER] == p and S.kclient[cl, CL_KIND] == 1:
                for j in range(2):
                    op = S.kclient[cl, CL_END + j * CL_END_W + 0]
                    n = S.kclient[cl, CL_END + j * CL_END_W + 1]
                    if op == 1:
                        case_vp += n * S.seat[g, p, CURED]
                    elif op == 2:
                        for t in range(S.treatise.shape[1]):
                            if S.treatise[g, t, TR_OWNER] == p:
                                case_vp += n
                    elif op == 3:
                        for c in range(S.card.shape[1]):
                            if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p:
                                case_vp += n
                    elif op == 4:
                        case_vp += n * S.seat[g, p, HEARTS]
        add_vp(S, C, g, p, case_vp, C_END_CASE, -1)
        add_vp(S, C, g, p, C[I_HEART_VP] * S.seat[g, p, HEARTS], C_END_HEARTS, S.seat[g, p, HEARTS])
        nb = S.seat[g, p, COFFEE] // C[I_COFFEE_PER_BRIGHT] + S.seat[g, p, BRIGHT]
        add_vp(S, C, g, p, C[I_BRIGHT_VP] * nb, C_END_BRIGHT, nb)


@njit(cache=True)
def finish_turn(S, C, g):
    p = S.game[g, TO_ACT]
    # Bright Ideas placed this turn return to the supply
    for s in range(S.space.shape[1]):
        if S.space[g, s, SPACE_BRIGHT] > 0:
            S.space[g, s, SPACE_BRIGHT] = 0
            if S.space[g, s, SPACE_N] == 0:
                S.space[g, s, SPACE_OWNER] = -1
                S.space[g, s, SPACE_ACT] = -1
    check_goals(S, C, g, p)
    P = S.seat.shape[1]
    if P == 1 and (S.game[g, TURN] + 1) % C[I_SOLO_EVERY] == 0:
        freud_step(S, C, g, -1)
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
        ins += tok_at(S, C, g, p, i)
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
        elif done_round >= C[I_ROUND_LIMIT] and (S.game[g, END_TRIG] == 0 or C[I_LIMIT_STOP] == 1):
            end = True  # safety stop (A-UM-13); an end already triggered is played out unless limit_stop (A-UM-36)
            ev(S, C, g, EV_END, 0, C_ROUND_LIMIT, 0, -1, done_round, 0, 0)
        if end:
            S.game[g, RND] = done_round
            S.game[g, OVER] = 1
            final_scoring(S, C, g)
            return
    start_turn(S, C, g)


@njit(cache=True)
def end_clients(S, C, g):
    """End of turn: take a new client for each empty open room (never in the final round)."""
    p = S.game[g, TO_ACT]
    final = S.game[g, END_TRIG] == 1 and S.game[g, RND] >= S.game[g, LAST_ROUND]
    for room in range(1, -1, -1):
        if S.seat[g, p, ROOM_OPEN + room] == 0:
            continue
        if S.seat[g, p, ROOM_CLIENT + room] < 0:
            if final:
                continue
            avail = False
            for k in range(C[I_RDISP_CL_N]):
                if S.pile[g, RDISP_CL, k] >= 0:
                    avail = True
            for k in range(C[I_CDISP_CL_N]):
                if S.pile[g, CDISP_CL, k] >= 0:
                    avail = True
            if avail:
                push(S, C, g, D_NEWCLIENT, room, 0, 0)
        elif S.seat[g, p, ROOM_MANIFEST + room] < 0 and S.seat[g, p, ROOM_LATENT + room] < 0:
            S.seat[g, p, ROOM_LATENT + room] = draw_latent(S, C, g)  # A-UM-19


@njit(cache=True)
def run_auto(S, C, g, kind, a, b, c):
    p = S.game[g, TO_ACT]
    if kind == K_EFFECT:
        run_effect(S, C, g, p, a, b, c)
    elif kind == K_PERFORM:
        perform(S, C, g, p, a)
    elif kind == K_INKPOT_START:
        if a > 0:
            push(S, C, g, D_INKPOT, a, b, 0)
        else:
            inkpot_move(S, C, g, p, b)
    elif kind == K_INKPOT:
        inkpot_move(S, C, g, p, a)
    elif kind == K_PUBLISH:
        publish_finish(S, C, g, p, a)
    elif kind == K_CLIENTS:
        end_clients(S, C, g)
    elif kind == K_FINISH:
        finish_turn(S, C, g)
    elif kind == K_GENQL:
        generate(S, C, g, p, a, b)


@njit(cache=True)
def publish_finish(S, C, g, p, t):
    S.treatise[g, t, TR_OWNER] = p
    S.treatise[g, t, TR_N] = S.ktr[t, TR_LEN]
    take_colour(S, C, g, p, COLOUR_PUBLISH)
    ev(S, C, g, EV_PUBLISH, p, C_TREATISE, S.ktr[t, TR_VP], -1, t, 0, S.ktr[t, TR_LEN])
    add_vp(S, C, g, p, S.ktr[t, TR_VP], C_TREATISE, t)
    for q in range(S.seat.shape[1]):
        if S.seat[g, q, PUB_CITED] > 0:
            gain_bright(S, C, g, q, C[I_CITE_BRIGHT], C_CITED_BRIGHT, p)
            S.seat[g, q, PUB_CITED] = 0
    for i in range(MAX_VOLUMES):
        S.game[g, PUB_FILL + i] = -1
    S.game[g, PUB_T] = -1
    # refill the display slot left empty
    for k in range(C[I_TRDISP_N]):
        if S.pile[g, TRDISP, k] < 0 and S.game[g, TRTOP] < S.treatise.shape[1]:
            S.pile[g, TRDISP, k] = S.pile[g, TRDECK, (S.game[g, TRTOP])]
            S.game[g, TRTOP] += 1


# ================================================================= the legal mask of one game
@njit(cache=True)
def _mask_row_turn(S, C, g, p, kind, a, b, out):
    any_opt = False
    has_idea = S.seat[g, p, IDEAS_HAND] > 0 or S.seat[g, p, BRIGHT] > 0
    for s in range(S.space.shape[1]):
        if S.space[g, s, SPACE_OWNER] >= 0 or not has_idea:
            continue
        for d in range(4):
            act = S.kboard[s, SPACE_MT + d]
            if act < 0 or own_points_at(S, C, g, p, act):
                continue
            if can_perform(S, C, g, p, act, 1):
                out[PLACE0 + s * 4 + d] = True
                any_opt = True
    for s in range(S.space.shape[1]):
        if S.space[g, s, SPACE_OWNER] == p and S.space[g, s, SPACE_N] > 0:
            out[RECALL] = True
            any_opt = True
            break
    for room in range(2):
        if room_treatable(S, C, g, p, room):
            out[TREAT] = True
            any_opt = True
    if not any_opt:
        out[PASS] = True
    if S.seat[g, p, COFFEE] >= C[I_CONV_COFFEE]:
        for i in range(9):
            if tok_at(S, C, g, p, 1 + i) > 0:
                if i % 3 < 2:
                    out[POS0 + i] = True
                for q2 in range(3):
                    if q2 != i // 3:
                        out[XFER0 + i * 3 + q2] = True
    if level_pos(S, C, g, p, 0) >= 0 and level_pos(S, C, g, p, 1) >= 0 and level_pos(S, C, g, p, 2) >= 0:
        out[CH0 + CH_HEART_CONV] = True


@njit(cache=True)
def _mask_row_mode(S, C, g, p, kind, a, b, out):
    act = b
    for m in range(5):
        nn = MODE_NORMAL[m]
        nbr = MODE_BRIGHT[m]
        if nn <= S.seat[g, p, IDEAS_HAND] and nbr <= S.seat[g, p, BRIGHT] and can_perform(S, C, g, p, act, nn + nbr):
            out[MODE0 + m] = True


@njit(cache=True)
def _mask_row_inkpot(S, C, g, p, kind, a, b, out):
    for k in range(5):
        adj = k - 2
        if abs(adj) <= a and b + adj >= 1:
            out[CH0 + k] = True


@njit(cache=True)
def _mask_row_elxf(S, C, g, p, kind, a, b, out):
    for i in range(9):
        if tok_at(S, C, g, p, 1 + i) > 0:
            if a > 0 and i % 3 < 2:
                out[POS0 + i] = True
            if b > 0:
                for q2 in range(3):
                    if q2 != i // 3:
                        out[XFER0 + i * 3 + q2] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_genq(S, C, g, p, kind, a, b, out):
    for q in range(3):
        out[CH0 + q] = True


@njit(cache=True)
def _mask_row_tile_src(S, C, g, p, kind, a, b, out):
    out[CH0 + 0] = True
    out[CH0 + 1] = True


@njit(cache=True)
def _mask_row_order(S, C, g, p, kind, a, b, out):
    out[CH0 + 0] = True
    out[CH0 + 1] = True


@njit(cache=True)
def _mask_row_free_tile(S, C, g, p, kind, a, b, out):
    for lvl in range(2):
        if S.game[g, TTOP + lvl] < C[I_TILES_LVL + lvl]:
            out[CH0 + lvl] = True
    out[DONE] = not (out[CH0] or out[CH0 + 1])


@njit(cache=True)
def _mask_row_place(S, C, g, p, kind, a, b, out):
    anyr = False
    for r in range(3):
        if can_place_row(S, C, g, p, r):
            out[CH0 + r] = True
            anyr = True
    if not anyr:
        for i in range(9):
            if S.seat[g, p, NB + i] >= 0:
                out[CH0 + 3 + i] = True
        out[DONE] = True


@njit(cache=True)
def _mask_row_swap(S, C, g, p, kind, a, b, out):
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_HAND and S.card[g, c, CARD_OWN] == p:
            out[CARD0 + c] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_swap2(S, C, g, p, kind, a, b, out):
    for k in range(C[I_RDISP_N]):
        if S.pile[g, RDISP, k] >= 0:
            out[CH0 + k] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_resplay(S, C, g, p, kind, a, b, out):
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_HAND and S.card[g, c, CARD_OWN] == p:
            out[CARD0 + c] = True
    if kind == D_RESPLAY and b == 0:
        for k in range(C[I_TRDISP_N]):
            if publishable(S, C, g, p, S.pile[g, TRDISP, k]):
                out[CH0 + k] = True
    if kind == D_PLAYN or b > 0:
        out[DONE] = True


@njit(cache=True)
def _mask_row_quill(S, C, g, p, kind, a, b, out):
    qc = S.ktr[a, TR_COLS + 0]
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p and S.kcard[c, CARD_COL] == qc:
            out[CARD0 + c] = True


@njit(cache=True)
def _mask_row_gather(S, C, g, p, kind, a, b, out):
    t = a
    need = np.zeros(4, np.int64)
    own = np.zeros(4, np.int64)
    need_counts(S, C, g, t, need)
    own_counts(S, C, g, p, own)
    for col in range(4):
        if need[col] > 0 and own[col] > 0:
            need[col] -= 1
            own[col] -= 1
            if cite_feasible(S, C, g, p, need, own):
                for c in range(S.card.shape[1]):
                    if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p and S.kcard[c, CARD_COL] == col:
                        out[CARD0 + c] = True
            need[col] += 1
            own[col] += 1
    for k in range(S.treatise.shape[1]):
        q = S.treatise[g, k, TR_OWNER]
        if q < 0 or q == p or S.treatise[g, k, TR_N] == 0:
            continue
        col = S.kcard[S.treatise[g, k, TR_CARDS + (S.treatise[g, k, TR_N] - 1)], CARD_COL]
        if need[col] <= 0:
            continue
        need[col] -= 1
        S.treatise[g, k, TR_N] -= 1
        if cite_feasible(S, C, g, p, need, own):
            out[CH0 + k] = True
        S.treatise[g, k, TR_N] += 1
        need[col] += 1


@njit(cache=True)
def _mask_row_prof(S, C, g, p, kind, a, b, out):
    for i in range(C[I_PROF_MAX]):
        out[CH0 + i] = True
    if S.seat[g, p, PROF_LOC] != S.game[g, FREUD_LOC]:
        out[CH0 + CH_TO_FREUD] = True


@njit(cache=True)
def _mask_row_freud(S, C, g, p, kind, a, b, out):
    for i in range(C[I_FREUD_MAX]):
        out[CH0 + i] = True


@njit(cache=True)
def _mask_row_loctrig(S, C, g, p, kind, a, b, out):
    out[DONE] = True
    out[CH0 + 0] = True
    out[CH0 + 1] = True
    if S.seat[g, p, BRIGHT] > 0:
        out[CH0 + 2] = True
        out[CH0 + 3] = True


@njit(cache=True)
def _mask_row_loceff(S, C, g, p, kind, a, b, out):
    for k in range(3):
        out[CH0 + k] = True


@njit(cache=True)
def _mask_row_column(S, C, g, p, kind, a, b, out):
    for k in range(3):
        out[CH0 + k] = True


@njit(cache=True)
def _mask_row_genany(S, C, g, p, kind, a, b, out):
    for i in range(9):
        if 1 + i != a and tok_at(S, C, g, p, 1 + i) > 0:
            out[POS0 + i] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_colour(S, C, g, p, kind, a, b, out):
    for i in range(10):
        if S.seat[g, p, DIAL_C + i] > 0:
            out[CH0 + i] = True


@njit(cache=True)
def _mask_row_tileorder(S, C, g, p, kind, a, b, out):
    for i in range(9):
        if (a >> i) & 1:
            out[CH0 + i] = True


@njit(cache=True)
def _mask_row_repact(S, C, g, p, kind, a, b, out):
    for k in range(a + 1):
        out[CH0 + k] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_recallb(S, C, g, p, kind, a, b, out):
    out[DONE] = True
    for w in range(2):
        loc = S.seat[g, p, PROF_LOC] if w == 0 else S.game[g, FREUD_LOC]
        d = S.kboard[loc, LOC_DIST]
        if S.game[g, DIST_LEFT + d] <= 0:
            continue
        for k in range(3):
            if S.game[g, LOC_COV + loc * LOC_COV_W + k] == 0:
                out[CH0 + w * 3 + k] = True
        if has_colour(S, C, g, p):
            nt = district_tags(S, C, g, p, d)
            for s in range(4):
                if S.game[g, DIST_SLOT + d * DIST_SLOT_W + s] < 0 and nt >= C[I_DIST_THR + s]:
                    out[CH0 + 6 + w * 4 + s] = True


@njit(cache=True)
def _mask_row_treat(S, C, g, p, kind, a, b, out):
    for room in range(2):
        if (a >> room) & 1 == 0 and room_treatable(S, C, g, p, room):
            out[CH0 + room] = True
    if a != 0:
        out[DONE] = True


@njit(cache=True)
def _mask_row_therapy(S, C, g, p, kind, a, b, out):
    for room in range(2):
        if S.seat[g, p, ROOM_CLIENT + room] >= 0:
            out[CH0 + room] = True
    if not (out[CH0] or out[CH0 + 1]):
        out[DONE] = True


@njit(cache=True)
def _mask_row_hearts(S, C, g, p, kind, a, b, out):
    if S.seat[g, p, HEARTS] > 0:
        for room in range(2):
            if S.seat[g, p, ROOM_CLIENT + room] >= 0:
                out[CH0 + room] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_newclient(S, C, g, p, kind, a, b, out):
    for k in range(C[I_RDISP_CL_N]):
        if S.pile[g, RDISP_CL, k] >= 0:
            out[CH0 + k] = True
    for k in range(C[I_CDISP_CL_N]):
        if S.pile[g, CDISP_CL, k] >= 0:
            out[CH0 + 3 + k] = True


@njit(cache=True)
def _mask_row_manifest(S, C, g, p, kind, a, b, out):
    for k in range(C[I_MDISP_N]):
        if S.pile[g, MDISP, k] >= 0:
            out[CH0 + k] = True
    if S.game[g, MTOP] < C[I_N_MANIFEST]:
        out[CH0 + CH_MANIFEST_DECK] = True
    anyl = False
    for i in range(out.shape[0]):
        if out[i]:
            anyl = True
    if not anyl:
        out[DONE] = True


@njit(cache=True)
def mask_row(S, C, g, out):
    for i in range(out.shape[0]):
        out[i] = False
    if S.game[g, OVER] == 1 or S.game[g, SP] == 0:
        return
    p = S.game[g, TO_ACT]
    top = S.game[g, SP] - 1
    kind = S.stk[g, top, STK_KIND]
    a = S.stk[g, top, STK_A]
    b = S.stk[g, top, STK_B]
    if kind == D_TURN:
        _mask_row_turn(S, C, g, p, kind, a, b, out)
    elif kind == D_MODE:
        _mask_row_mode(S, C, g, p, kind, a, b, out)
    elif kind == D_INKPOT:
        _mask_row_inkpot(S, C, g, p, kind, a, b, out)
    elif kind == D_ELXF:
        _mask_row_elxf(S, C, g, p, kind, a, b, out)
    elif kind == D_GENQ:
        _mask_row_genq(S, C, g, p, kind, a, b, out)
    elif kind == D_TILE_SRC:
        _mask_row_tile_src(S, C, g, p, kind, a, b, out)
    elif kind == D_ORDER:
        _mask_row_order(S, C, g, p, kind, a, b, out)
    elif kind == D_FREE_TILE:
        _mask_row_free_tile(S, C, g, p, kind, a, b, out)
    elif kind == D_PLACE:
        _mask_row_place(S, C, g, p, kind, a, b, out)
    elif kind == D_SWAP:
        _mask_row_swap(S, C, g, p, kind, a, b, out)
    elif kind == D_SWAP2:
        _mask_row_swap2(S, C, g, p, kind, a, b, out)
    elif kind == D_RESPLAY or kind == D_PLAYN:
        _mask_row_resplay(S, C, g, p, kind, a, b, out)
    elif kind == D_QUILL:
        _mask_row_quill(S, C, g, p, kind, a, b, out)
    elif kind == D_GATHER:
        _mask_row_gather(S, C, g, p, kind, a, b, out)
    elif kind == D_PROF:
        _mask_row_prof(S, C, g, p, kind, a, b, out)
    elif kind == D_FREUD:
        _mask_row_freud(S, C, g, p, kind, a, b, out)
    elif kind == D_LOCTRIG:
        _mask_row_loctrig(S, C, g, p, kind, a, b, out)
    elif kind == D_LOCEFF:
        _mask_row_loceff(S, C, g, p, kind, a, b, out)
    elif kind == D_COLUMN:
        _mask_row_column(S, C, g, p, kind, a, b, out)
    elif kind == D_GENANY:
        _mask_row_genany(S, C, g, p, kind, a, b, out)
    elif kind == D_COLOUR:
        _mask_row_colour(S, C, g, p, kind, a, b, out)
    elif kind == D_TILEORDER:
        _mask_row_tileorder(S, C, g, p, kind, a, b, out)
    elif kind == D_REPACT:
        _mask_row_repact(S, C, g, p, kind, a, b, out)
    elif kind == D_RECALLB:
        _mask_row_recallb(S, C, g, p, kind, a, b, out)
    elif kind == D_TREAT:
        _mask_row_treat(S, C, g, p, kind, a, b, out)
    elif kind == D_THERAPY:
        _mask_row_therapy(S, C, g, p, kind, a, b, out)
    elif kind == D_HEARTS:
        _mask_row_hearts(S, C, g, p, kind, a, b, out)
    elif kind == D_NEWCLIENT:
        _mask_row_newclient(S, C, g, p, kind, a, b, out)
    elif kind == D_MANIFEST:
        _mask_row_manifest(S, C, g, p, kind, a, b, out)
    # never empty: a decision with no option can be declined
    anyl = False
    for i in range(out.shape[0]):
        if out[i]:
            anyl = True
            break
    if not anyl:
        out[DONE] = True


@njit(cache=True)
def only_done(out):
    if not out[DONE]:
        return False
    for i in range(out.shape[0]):
        if out[i] and i != DONE:
            return False
    return True


@njit(cache=True)
def advance(S, C, g, scratch):
    """Run automatic entries until a decision with a real choice is on top (or the game is over)."""
    while S.game[g, OVER] == 0:
        if S.game[g, SP] == 0:
            start_turn(S, C, g)
        top = S.game[g, SP] - 1
        kind = S.stk[g, top, STK_KIND]
        a = S.stk[g, top, STK_A]
        b = S.stk[g, top, STK_B]
        c = S.stk[g, top, STK_C]
        if kind == K_EFFECT or kind == K_PERFORM or kind == K_INKPOT_START or kind == K_INKPOT \
                or kind == K_PUBLISH or kind == K_CLIENTS or kind == K_FINISH or kind == K_GENQL:
            S.game[g, SP] = top
            run_auto(S, C, g, kind, a, b, c)
            continue
        mask_row(S, C, g, scratch)
        if only_done(scratch):
            S.game[g, SP] = top
            continue
        # goal tiles are claimed as soon as their condition holds (checked at every decision, A-UM-29)
        check_goals(S, C, g, S.game[g, TO_ACT])
        if S.game[g, OVER] == 0 and S.game[g, SP] > 0:
            return


# ================================================================= applying one decision
@njit(cache=True)
def _apply_one_turn(S, C, g, p, act, kind, a, b, ch):
    if PLACE0 <= act < MODE0:
        s = (act - PLACE0) // 4
        mt = S.kboard[s, SPACE_MT + ((act - PLACE0) % 4)]
        push(S, C, g, D_MODE, s, mt, 0)
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
        ev(S, C, g, EV_IDEA, p, C_RECALL, n, -1, -1, 0, n)
        gain_coffee(S, C, g, p, n * C[I_RECALL_COFFEE], C_RECALL)
        push(S, C, g, D_RECALLB, 0, 0, 0)
    elif act == TREAT:
        S.game[g, T_OPT] = OPT_TREAT
        push(S, C, g, D_TREAT, 0, 0, 0)
    elif act == PASS:
        S.game[g, T_OPT] = OPT_PASS
    elif POS0 <= act < XFER0:
        i = act - POS0
        spend_coffee(S, C, g, p, C[I_CONV_COFFEE], C_CONVERSION, i)
        tok_move(S, C, g, p, 1 + i, 2 + i)
        ev(S, C, g, EV_INSIGHT, p, C_CONVERSION, 1, -1, i + 1, C[I_CONV_COFFEE], 0)
        push(S, C, g, D_TURN, 0, 0, 0)
    elif XFER0 <= act < CH0:
        i = (act - XFER0) // 3
        q2 = (act - XFER0) % 3
        spend_coffee(S, C, g, p, C[I_CONV_COFFEE], C_CONVERSION, i)
        tok_move(S, C, g, p, 1 + i, 1 + q2 * 3 + i % 3)
        ev(S, C, g, EV_INSIGHT, p, C_CONVERSION, 1, -1, q2 * 3 + i % 3, C[I_CONV_COFFEE], 0)
        push(S, C, g, D_TURN, 0, 0, 0)
    elif ch == CH_HEART_CONV:
        for lv in range(3):
            tok_move(S, C, g, p, level_pos(S, C, g, p, lv), 0)
        gain_heart(S, C, g, p, 1, C_CONVERSION)
        push(S, C, g, D_TURN, 0, 0, 0)


@njit(cache=True)
def _apply_one_mode(S, C, g, p, act, kind, a, b, ch):
    m = act - MODE0
    nn = MODE_NORMAL[m]
    nbr = MODE_BRIGHT[m]
    s = a
    mt = b
    S.game[g, T_OPT] = OPT_STATE
    S.game[g, T_ACT] = mt
    S.space[g, s, SPACE_OWNER] = p
    S.space[g, s, SPACE_ACT] = mt
    S.space[g, s, SPACE_N] = nn
    S.space[g, s, SPACE_BRIGHT] = nbr
    S.seat[g, p, IDEAS_HAND] -= nn
    S.seat[g, p, BRIGHT] -= nbr
    ev(S, C, g, EV_IDEA, p, C_NONE, nn + nbr, -1, s, nbr, mt)
    push(S, C, g, K_INKPOT_START, nbr, S.kboard[mt, ACT_MOVE], 0)
    for _ in range(nn + nbr):
        push(S, C, g, K_PERFORM, mt, 0, 0)


@njit(cache=True)
def _apply_one_inkpot(S, C, g, p, act, kind, a, b, ch):
    push(S, C, g, K_INKPOT, b + ch - 2, 0, 0)


@njit(cache=True)
def _apply_one_elxf(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    if POS0 <= act < XFER0:
        i = act - POS0
        tok_move(S, C, g, p, 1 + i, 2 + i)
        ev(S, C, g, EV_INSIGHT, p, C_ELEVATE, 1, -1, i + 1, 0, 0)
        a -= 1
    else:
        i = (act - XFER0) // 3
        q2 = (act - XFER0) % 3
        tok_move(S, C, g, p, 1 + i, 1 + q2 * 3 + i % 3)
        ev(S, C, g, EV_INSIGHT, p, C_TRANSFER, 1, -1, q2 * 3 + i % 3, 0, 0)
        b -= 1
    if a + b > 0:
        push(S, C, g, D_ELXF, a, b, 0)


@njit(cache=True)
def _apply_one_genq(S, C, g, p, act, kind, a, b, ch):
    generate(S, C, g, p, ch, a)


@njit(cache=True)
def _apply_one_tile_src(S, C, g, p, act, kind, a, b, ch):
    lvl = ch
    col = a  # 0 stack, 1 center, 2 right
    tile = -1
    if col == 0:
        tile = stack_draw(S, C, g, lvl)
    elif col == 1:
        tile = S.game[g, MARKET + lvl * MARKET_W + 0]
        if tile >= 0:
            S.game[g, MARKET + lvl * MARKET_W + 0] = -1
            refill_market(S, C, g, lvl)
    else:
        tile = S.game[g, MARKET + lvl * MARKET_W + 1]
        if tile >= 0:
            S.game[g, MARKET + lvl * MARKET_W + 1] = -1
            refill_market(S, C, g, lvl)
    if tile < 0:
        add_vp(S, C, g, p, C[I_EMPTY_VP + col], C_EMPTY, col * 2 + lvl)
        return
    ev(S, C, g, EV_TILE, p, C_TILE_STACK + col, 0, -1, tile, C[I_TILE_COST + col], -1)
    push(S, C, g, D_PLACE, tile, 0, 0)
    if col == 1:
        push(S, C, g, K_EFFECT, S.ktile[tile, TILE_BANNER], C_TILE, -1)
    elif col == 2:
        push(S, C, g, D_ORDER, tile, 0, 0)


@njit(cache=True)
def _apply_one_order(S, C, g, p, act, kind, a, b, ch):
    if ch == 0:  # main first
        push(S, C, g, K_EFFECT, S.ktile[a, TILE_BANNER], C_TILE, -1)
        push(S, C, g, K_EFFECT, S.ktile[a, TILE_MAIN], C_TILE, -1)
    else:
        push(S, C, g, K_EFFECT, S.ktile[a, TILE_MAIN], C_TILE, -1)
        push(S, C, g, K_EFFECT, S.ktile[a, TILE_BANNER], C_TILE, -1)


@njit(cache=True)
def _apply_one_free_tile(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    tile = stack_draw(S, C, g, ch)
    ev(S, C, g, EV_TILE, p, C_FREE, 0, -1, tile, 0, -1)
    push(S, C, g, D_PLACE, tile, 0, 0)


@njit(cache=True)
def _apply_one_place(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        S.game[g, TDISC] += 1
        ev(S, C, g, EV_TILE, p, C_DISCARD, 0, -1, a, 0, -1)
    elif ch < 3:
        place_tile(S, C, g, p, ch, a)
    else:
        i = ch - 3
        ev(S, C, g, EV_TILE, p, C_REPLACE, 0, -1, S.seat[g, p, NB + i], 0, i)
        S.seat[g, p, NB + i] = a
        S.game[g, TDISC] += 1


@njit(cache=True)
def _apply_one_swap(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    push(S, C, g, D_SWAP2, act - CARD0, 0, 0)


@njit(cache=True)
def _apply_one_swap2(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    c = a
    d = S.pile[g, RDISP, ch]
    S.pile[g, RDISP, ch] = c
    S.card[g, c, CARD_LOC] = L_DISPLAY
    S.card[g, c, CARD_OWN] = -1
    S.card[g, d, CARD_LOC] = L_HAND
    S.card[g, d, CARD_OWN] = p
    S.card[g, d, CARD_KNOWN] = 1  # taken from the face-up display: everyone knows where it is
    ev(S, C, g, EV_CARD, p, C_RSWAP, 0, -1, d, 0, c)


@njit(cache=True)
def _apply_one_resplay(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    if act >= CARD0:
        c = act - CARD0
        S.card[g, c, CARD_LOC] = L_INPLAY
        ev(S, C, g, EV_CARD, p, C_CARD, 0, -1, c, 0, 1)
        if a - 1 > 0:
            push(S, C, g, kind, a - 1, 1, 0)
        push(S, C, g, K_EFFECT, S.kcard[c, CARD_EFF], C_CARD, -1)
    else:
        t = S.pile[g, TRDISP, ch]
        S.pile[g, TRDISP, ch] = -1
        S.game[g, PUB_T] = t
        for i in range(MAX_VOLUMES):
            S.game[g, PUB_FILL + i] = -1
        push(S, C, g, D_QUILL, t, 0, 0)


@njit(cache=True)
def _apply_one_quill(S, C, g, p, act, kind, a, b, ch):
    t = a
    fill_slot(S, C, g, t, act - CARD0)
    if gather_left(S, C, g, t) > 0:
        push(S, C, g, D_GATHER, t, 0, 0)
    else:
        push(S, C, g, K_PUBLISH, t, 0, 0)


@njit(cache=True)
def _apply_one_gather(S, C, g, p, act, kind, a, b, ch):
    t = a
    if act >= CARD0:
        fill_slot(S, C, g, t, act - CARD0)
    else:
        k = ch
        n = S.treatise[g, k, TR_N] - 1
        card = S.treatise[g, k, TR_CARDS + n]
        S.treatise[g, k, TR_CARDS + n] = -1
        S.treatise[g, k, TR_N] = n
        q = S.treatise[g, k, TR_OWNER]
        fill_slot(S, C, g, t, card)
        S.seat[g, q, PUB_CITED] += 1
        ev(S, C, g, EV_CITE, p, C_CITED, S.ktr[k, TR_CITE_VP], q, k, t, 1)
        add_vp(S, C, g, q, S.ktr[k, TR_CITE_VP], C_CITED, k)
    if gather_left(S, C, g, t) > 0:
        push(S, C, g, D_GATHER, t, 0, 0)
    else:
        push(S, C, g, K_PUBLISH, t, 0, 0)


@njit(cache=True)
def _apply_one_prof(S, C, g, p, act, kind, a, b, ch):
    if ch == CH_TO_FREUD:
        S.seat[g, p, PROF_LOC] = S.game[g, FREUD_LOC]
    else:
        S.seat[g, p, PROF_LOC] = (S.seat[g, p, PROF_LOC] + ch + 1) % N_LOCATIONS
    ev(S, C, g, EV_MOVE, p, C_PROFESSOR, ch + 1 if ch != CH_TO_FREUD else 0, -1, S.seat[g, p, PROF_LOC], 0, 0)
    push(S, C, g, D_LOCTRIG, S.seat[g, p, PROF_LOC], 0, 0)


@njit(cache=True)
def _apply_one_freud(S, C, g, p, act, kind, a, b, ch):
    S.game[g, FREUD_LOC] = (S.game[g, FREUD_LOC] + ch + 1) % N_LOCATIONS
    ev(S, C, g, EV_MOVE, p, C_FREUD, ch + 1, -1, S.game[g, FREUD_LOC], 0, 0)
    push(S, C, g, D_LOCTRIG, S.game[g, FREUD_LOC], 0, 0)


@njit(cache=True)
def _apply_one_loctrig(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    loc = a
    if ch % 2 == 0:
        base = 0
        for q in range(S.seat.shape[1]):
            if S.seat[g, q, PROF_LOC] == loc:
                base += 1
        if S.game[g, FREUD_LOC] == loc:
            base += 1
    else:
        base = tags_at(S, C, g, p, loc)
    if ch >= 2:
        S.seat[g, p, BRIGHT] -= 1
        ev(S, C, g, EV_BRIGHT, p, C_LOCATION, -1, -1, loc, 0, 0)
        base += C[I_LOC_BRIGHT]
    n = min(base, C[I_LOC_CAP])
    for _ in range(n):
        push(S, C, g, D_LOCEFF, loc, 0, 0)


@njit(cache=True)
def _apply_one_loceff(S, C, g, p, act, kind, a, b, ch):
    push(S, C, g, K_EFFECT, S.kboard[a, LOC_EFF + ch], C_LOCATION, -1)


@njit(cache=True)
def _apply_one_column(S, C, g, p, act, kind, a, b, ch):
    c = ch
    if S.seat[g, p, COL_DONE + c] == 1:
        push(S, C, g, K_GENQL, c, C[I_COL_LVL], 0)
    rem = 0
    for r in range(3):
        if S.seat[g, p, NB + (r * 3 + c)] >= 0:
            rem |= 1 << (r * 3 + c)
    push_tiles(S, C, g, p, rem)


@njit(cache=True)
def _apply_one_genany(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    tok_move(S, C, g, p, 1 + act - POS0, a)
    ev(S, C, g, EV_INSIGHT, p, C_GENERATE, 1, -1, a - 1, 0, act - POS0 + 1)


@njit(cache=True)
def _apply_one_colour(S, C, g, p, act, kind, a, b, ch):
    take_colour_at(S, C, g, p, ch, a)


@njit(cache=True)
def _apply_one_tileorder(S, C, g, p, act, kind, a, b, ch):
    push_tiles(S, C, g, p, a & ~(1 << ch))
    t = S.seat[g, p, NB + ch]
    push(S, C, g, K_EFFECT, S.ktile[t, TILE_MAIN], C_TILE, -1)


@njit(cache=True)
def _apply_one_repact(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    push(S, C, g, K_EFFECT, S.kboard[ch, SEC_ACTION], C_REPTRACK, -1)


@njit(cache=True)
def _apply_one_recallb(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    w = 0 if (ch < 3 or (6 <= ch < 10)) else 1
    loc = S.seat[g, p, PROF_LOC] if w == 0 else S.game[g, FREUD_LOC]
    d = S.kboard[loc, LOC_DIST]
    token = C[I_DIST_TOKENS] - S.game[g, DIST_LEFT + d]
    S.game[g, DIST_LEFT + d] -= 1
    if ch < 6:
        k = ch % 3
        S.game[g, LOC_COV + loc * LOC_COV_W + k] = 1
        ev(S, C, g, EV_BONUS, p, C_BONUS, 0, -1, loc * 3 + k, 0, token)
        push(S, C, g, K_EFFECT, S.kboard[loc, LOC_BON + k], C_BONUS, -1)
        if token < C[I_DIST_REP_TOKENS]:
            gain_rep(S, C, g, p, 1, C_BONUS)
    else:
        s = (ch - 6) % 4
        S.game[g, DIST_SLOT + d * DIST_SLOT_W + s] = p
        ev(S, C, g, EV_BONUS, p, C_DISTRICT, 0, -1, d * 4 + s, 0, token)
        push(S, C, g, K_EFFECT, S.kboard[d, DIST_REW + s], C_DISTRICT, -1)
        take_colour(S, C, g, p, COLOUR_DISTRICT)  # after the push: a D_COLOUR choice comes before the reward


@njit(cache=True)
def _apply_one_treat(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    room = ch
    push(S, C, g, D_TREAT, a | (1 << room), 0, 0)
    d = S.seat[g, p, ROOM_MANIFEST + room]
    manifest = d >= 0
    if manifest:
        S.seat[g, p, ROOM_MANIFEST + room] = -1
    else:
        d = S.seat[g, p, ROOM_LATENT + room]
        S.seat[g, p, ROOM_LATENT + room] = -1
    pos = pay_pos(S, C, g, p, S.kdream[d, DR_CQ], S.kdream[d, DR_CL])
    tok_move(S, C, g, p, pos, 0)
    ev(S, C, g, EV_INSIGHT, p, C_PAY, 1, -1, pos - 1, 0, d)
    S.game[g, DR_GONE] += 1
    cl = S.seat[g, p, ROOM_CLIENT + room]
    if manifest and S.kdream[d, DR_SYM] == S.kclient[cl, CL_SYM]:
        gain_heart(S, C, g, p, C[I_SYM_HEARTS], C_CLIENT)
    ev(S, C, g, EV_CLIENT, p, C_TREAT, 0, -1, cl, 0, d)
    push(S, C, g, K_EFFECT, S.kdream[d, DR_EFF], C_CLIENT, room)


@njit(cache=True)
def _apply_one_therapy(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    apply_therapy(S, C, g, p, ch, a)


@njit(cache=True)
def _apply_one_hearts(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    S.seat[g, p, HEARTS] -= 1
    ev(S, C, g, EV_HEART, p, C_TREAT, -1, -1, ch, 0, 0)
    push(S, C, g, D_HEARTS, 0, 0, 0)
    apply_therapy(S, C, g, p, ch, 1)


@njit(cache=True)
def _apply_one_newclient(S, C, g, p, act, kind, a, b, ch):
    room = a
    if ch < 3:
        cl = S.pile[g, RDISP_CL, ch]
        S.pile[g, RDISP_CL, ch] = -1
        if S.game[g, RTOP_CL] < C[I_N_ROUTINE]:
            S.pile[g, RDISP_CL, ch] = S.pile[g, RDECK_CL, (S.game[g, RTOP_CL])]
            S.game[g, RTOP_CL] += 1
    else:
        k = ch - 3
        cl = S.pile[g, CDISP_CL, k]
        S.pile[g, CDISP_CL, k] = -1
        if S.game[g, CTOP_CL] < C[I_N_CASE]:
            S.pile[g, CDISP_CL, k] = S.pile[g, CDECK_CL, (S.game[g, CTOP_CL])]
            S.game[g, CTOP_CL] += 1
    S.seat[g, p, ROOM_CLIENT + room] = cl
    S.client[g, cl, CL_WHERE] = 2
    S.seat[g, p, ROOM_THER + room] = min(S.kclient[cl, CL_START], C[I_THER_MAX])
    S.seat[g, p, ROOM_CATH + room] = 0
    S.seat[g, p, ROOM_LATENT + room] = draw_latent(S, C, g)
    ev(S, C, g, EV_CLIENT, p, C_NONE, S.seat[g, p, ROOM_THER + room], -1, cl, 0, room)
    push(S, C, g, D_MANIFEST, room, 0, 0)


@njit(cache=True)
def _apply_one_manifest(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    room = a
    if ch == CH_MANIFEST_DECK:
        d = draw_manifest(S, C, g)
    else:
        d = S.pile[g, MDISP, ch]
        S.pile[g, MDISP, ch] = draw_manifest(S, C, g)
    S.seat[g, p, ROOM_MANIFEST + room] = d


@njit(cache=True)
def apply_one(S, C, g, act):
    p = S.game[g, TO_ACT]
    top = S.game[g, SP] - 1
    kind = S.stk[g, top, STK_KIND]
    a = S.stk[g, top, STK_A]
    b = S.stk[g, top, STK_B]
    S.game[g, SP] = top  # pop; handlers push what follows
    ch = act - CH0
    if kind == D_TURN:
        _apply_one_turn(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_MODE:
        _apply_one_mode(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_INKPOT:
        _apply_one_inkpot(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_ELXF:
        _apply_one_elxf(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_GENQ:
        _apply_one_genq(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_TILE_SRC:
        _apply_one_tile_src(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_ORDER:
        _apply_one_order(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_FREE_TILE:
        _apply_one_free_tile(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_PLACE:
        _apply_one_place(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_SWAP:
        _apply_one_swap(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_SWAP2:
        _apply_one_swap2(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_RESPLAY or kind == D_PLAYN:
        _apply_one_resplay(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_QUILL:
        _apply_one_quill(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_GATHER:
        _apply_one_gather(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_PROF:
        _apply_one_prof(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_FREUD:
        _apply_one_freud(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_LOCTRIG:
        _apply_one_loctrig(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_LOCEFF:
        _apply_one_loceff(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_COLUMN:
        _apply_one_column(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_GENANY:
        _apply_one_genany(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_COLOUR:
        _apply_one_colour(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_TILEORDER:
        _apply_one_tileorder(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_REPACT:
        _apply_one_repact(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_RECALLB:
        _apply_one_recallb(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_TREAT:
        _apply_one_treat(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_THERAPY:
        _apply_one_therapy(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_HEARTS:
        _apply_one_hearts(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_NEWCLIENT:
        _apply_one_newclient(S, C, g, p, act, kind, a, b, ch)
    elif kind == D_MANIFEST:
        _apply_one_manifest(S, C, g, p, act, kind, a, b, ch)
    else:
        raise RuntimeError("unknown decision kind")


# ================================================================= batch entry points
@njit(cache=True)
def batch_mask(S, C, out):
    for g in range(out.shape[0]):
        mask_row(S, C, g, out[g])


@njit(cache=True)
def batch_apply(S, C, actions, active, scratch):
    for g in range(actions.shape[0]):
        if not active[g]:
            continue
        apply_one(S, C, g, actions[g])
        advance(S, C, g, scratch)




@njit(cache=True)
def batch_setup(S, C, start_hand):
    scratch = np.zeros(NUM_ACTIONS, np.bool_)
    P = S.seat.shape[1]
    key = S.rng_key
    ctr = S.rng_ctr
    for g in range(S.game.shape[0]):
        for lvl in range(2):
            chance_shuffle(key, ctr, g, RZ_TSTACK + lvl, S.pile[g, TSTACK_I + lvl], 0, C[I_TILES_LVL + lvl])
            S.game[g, MARKET + lvl * MARKET_W + 1] = stack_draw(S, C, g, lvl)
            S.game[g, MARKET + lvl * MARKET_W + 0] = stack_draw(S, C, g, lvl)
        chance_shuffle(key, ctr, g, RZ_RDECK, S.pile[g, RDECK], 0, S.card.shape[1])
        for k in range(C[I_RDISP_N]):
            c = S.pile[g, RDECK, (S.game[g, RTOP])]
            S.game[g, RTOP] += 1
            S.pile[g, RDISP, k] = c
            S.card[g, c, CARD_LOC] = L_DISPLAY
        chance_shuffle(key, ctr, g, RZ_TRDECK, S.pile[g, TRDECK], 0, S.treatise.shape[1])
        for k in range(C[I_TRDISP_N]):
            if S.game[g, TRTOP] < S.treatise.shape[1]:
                S.pile[g, TRDISP, k] = S.pile[g, TRDECK, (S.game[g, TRTOP])]
                S.game[g, TRTOP] += 1
        chance_shuffle(key, ctr, g, RZ_RDECK_CL, S.pile[g, RDECK_CL], 0, C[I_N_ROUTINE])
        for k in range(C[I_RDISP_CL_N]):
            if S.game[g, RTOP_CL] < C[I_N_ROUTINE]:
                S.pile[g, RDISP_CL, k] = S.pile[g, RDECK_CL, (S.game[g, RTOP_CL])]
                S.game[g, RTOP_CL] += 1
        chance_shuffle(key, ctr, g, RZ_CDECK_CL, S.pile[g, CDECK_CL], 0, C[I_N_CASE])
        for k in range(C[I_CDISP_CL_N]):
            if S.game[g, CTOP_CL] < C[I_N_CASE]:
                S.pile[g, CDISP_CL, k] = S.pile[g, CDECK_CL, (S.game[g, CTOP_CL])]
                S.game[g, CTOP_CL] += 1
        chance_shuffle(key, ctr, g, RZ_LDECK, S.pile[g, LDECK], 0, C[I_N_LATENT])
        chance_shuffle(key, ctr, g, RZ_MDECK, S.pile[g, MDECK], 0, C[I_N_MANIFEST])
        for k in range(C[I_MDISP_N]):
            S.pile[g, MDISP, k] = draw_manifest(S, C, g)
        # goal tiles: the first n of a shuffled order
        ng = C[I_N_GOAL_TILES]
        order = np.arange(ng)
        chance_shuffle(key, ctr, g, RZ_GOALS, order, 0, ng)
        for i in range(S.goal.shape[1]):
            S.goal[g, i, GOAL_ID] = order[i] if i < ng else -1
        for p in range(P):
            for _ in range(start_hand):
                draw_card(S, C, g, p)
        S.event_n[g] = 0
        start_turn(S, C, g)
        advance(S, C, g, scratch)
