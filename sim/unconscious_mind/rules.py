"""Rule kernels of Unconscious Mind: scalar per-game numba code over the batch.

Each game carries a decision stack ``stk[g, i] = (kind, a, b, c)``. Kinds ``D_*`` wait for the seat's
action; kinds ``K_*`` run automatically. :func:`advance` pops and runs automatic entries until a decision is
on top (decisions whose only legal action is DONE are skipped). A turn starts as the stack
``[K_FINISH, K_CLIENTS, D_HEARTS, D_TURN]`` (top last); every rule pushes its sub-steps on top.

``S`` is a namedtuple of arrays: ``S.M`` (``int64[B, W]``, every rule field of every game, see
:mod:`sim.unconscious_mind.state`), ``S.K`` (the content arrays, flat) and the core log buffers / streams.
``C`` is an ``int64`` vector of offsets and parameters indexed by the ``X_*`` constants of
:mod:`sim.unconscious_mind.consts`: ``S.M[g, C[X_so_coffee] + p]`` is seat p's Coffee and
``S.K[C[X_o_card_col] + c]`` card c's Volume colour. (The code was written with one numba argument per array;
a hundred array arguments made numba compile for many minutes, so the fields were packed.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.logs import begin_event_row, begin_turn_row
from sim.core.rng import chance_shuffle

from .consts import *  # noqa: F401,F403  X_* indices into C
from .logcols import (EV_AMOUNT, EV_CATEGORY, EV_COST, EV_COUNT, EV_ITEM, EV_TARGET_SEAT, TURN_COFFEE_AFTER,
                      TURN_COFFEE_GAINED, TURN_COFFEE_SPENT, TURN_CURED_AFTER, TURN_INSIGHT_AFTER, TURN_MT_ACTION,
                      TURN_OPTION, TURN_VP_AFTER, TURN_VP_GAINED)
from .actions import (CARD0, CH0, DONE, MODE0, MODE_BRIGHT, MODE_NORMAL, NUM_ACTIONS, PASS, PLACE0,
                      POS0, RECALL, TREAT, XFER0)

# ---------------------------------------------------------------- decision kinds
D_TURN = 1
D_MODE = 2
K_PERFORM = 3
K_INKPOT_START = 4
D_INKPOT = 5
K_INKPOT = 6
D_ELXF = 7
D_GENQ = 8
D_TILE_SRC = 9
D_ORDER = 10
D_FREE_TILE = 11
D_PLACE = 12
K_EFFECT = 13
D_SWAP = 14
D_SWAP2 = 15
D_RESPLAY = 16
D_PLAYN = 17
D_QUILL = 18
D_GATHER = 19
K_PUBLISH = 20
D_PROF = 21
D_FREUD = 22
D_LOCTRIG = 23
D_LOCEFF = 24
D_RECALLB = 25
D_TREAT = 26
D_THERAPY = 27
D_HEARTS = 28
K_CLIENTS = 29
D_NEWCLIENT = 30
D_MANIFEST = 31
D_REPACT = 32
K_FINISH = 33
D_COLUMN = 34
K_GENQL = 35
D_TILEORDER = 36
D_GENANY = 37
D_COLOUR = 38


# Meeting Table actions
MT_STACK, MT_CENTER, MT_RIGHT, MT_GEN, MT_ELEV, MT_DRAW, MT_PLAY, MT_PROF, MT_FREUD = 0, 1, 2, 3, 4, 5, 6, 7, 8

# effect opcodes (content.OP)
OP_COFFEE, OP_VP, OP_BRIGHT, OP_HEART, OP_REP, OP_GEN, OP_ELEV, OP_XFER = 1, 2, 3, 4, 5, 6, 7, 8
OP_DRAW, OP_PLAY, OP_TILE, OP_THERAPY, OP_HEARTS = 9, 10, 11, 12, 13

# research card / treatise locations
L_DECK, L_DISPLAY, L_HAND, L_INPLAY, L_TREATISE = 0, 1, 2, 3, 4

# inkpot kinds
INK_PLAIN, INK_ROW, INK_COLUMN, INK_REP = 0, 1, 2, 3

# D_COLOUR purposes (the stack entry's a)
COLOUR_PUBLISH, COLOUR_DISTRICT = 0, 1

# choice offsets
CH_TO_FREUD = 5        # D_PROF: move straight to Freud
CH_MANIFEST_DECK = 5   # D_MANIFEST: top of the manifest deck
CH_HEART_CONV = 0      # D_TURN: minor+median+major Insight -> heart box

# ---------------------------------------------------------------- event kinds and categories
EVENT_KINDS = ("coffee_gain", "coffee_spend", "vp", "bright", "heart_box", "insight", "reputation", "freud",
               "tile", "card", "publish", "cite", "client", "catharsis", "cure", "idea", "goal", "bonus", "move",
               "end")
(EV_CGAIN, EV_CSPEND, EV_VP, EV_BRIGHT, EV_HEART, EV_INSIGHT, EV_REP, EV_FREUD, EV_TILE, EV_CARD, EV_PUBLISH,
 EV_CITE, EV_CLIENT, EV_CATH, EV_CURE, EV_IDEA, EV_GOAL, EV_BONUS, EV_MOVE, EV_END) = range(len(EVENT_KINDS))

CATS = ("none", "tile", "card", "location", "bonus", "client", "reputation_track", "treatise", "cited",
        "empty_space", "end_trigger", "end_reputation", "end_track_bonus", "end_districts", "end_rows", "end_tags",
        "end_case_study", "end_hearts", "end_bright", "recall", "tile_cost", "conversion", "tile_stack",
        "tile_center", "tile_right", "free", "replace", "discard", "district", "goal", "notebook_full",
        "solo_schedule", "round_limit", "effect", "generate", "elevate", "transfer", "pay", "publish", "treat",
        "inkpot", "professor", "freud", "research_draw", "research_swap", "cited_bright")
(C_NONE, C_TILE, C_CARD, C_LOCATION, C_BONUS, C_CLIENT, C_REPTRACK, C_TREATISE, C_CITED, C_EMPTY, C_END_TRIGGER,
 C_END_REP, C_END_TRACK, C_END_DISTRICTS, C_END_ROWS, C_END_TAGS, C_END_CASE, C_END_HEARTS, C_END_BRIGHT, C_RECALL,
 C_TILE_COST, C_CONVERSION, C_TILE_STACK, C_TILE_CENTER, C_TILE_RIGHT, C_FREE, C_REPLACE, C_DISCARD, C_DISTRICT,
 C_GOAL, C_NB_FULL, C_SOLO, C_ROUND_LIMIT, C_EFFECT, C_GENERATE, C_ELEVATE, C_TRANSFER, C_PAY, C_PUBLISH, C_TREAT,
 C_INKPOT, C_PROFESSOR, C_FREUD, C_RDRAW, C_RSWAP, C_CITED_BRIGHT) = range(len(CATS))
VP_CATEGORIES = CATS[1:19]

OPT_PASS, OPT_STATE, OPT_RECALL, OPT_TREAT = 0, 1, 2, 3



# ================================================================= small helpers
@njit(cache=True)
def ev(S, C, g, kind, seat, cat, amount, target, item, cost, count):
    """Append one event row (core columns then category, amount, target_seat, item, cost, count)."""
    b = S.event_buf
    r = begin_event_row(b, S.event_n, g, S.ply[g], S.M[g, C[X_so_turn]], seat, kind)
    b[g, r, EV_CATEGORY] = cat
    b[g, r, EV_AMOUNT] = amount
    b[g, r, EV_TARGET_SEAT] = target
    b[g, r, EV_ITEM] = item
    b[g, r, EV_COST] = cost
    b[g, r, EV_COUNT] = count


@njit(cache=True)
def push(S, C, g, kind, a, b, c):
    sp = S.M[g, C[X_so_sp]]
    if sp >= C[X_sd1_stk]:
        raise RuntimeError("decision stack overflow")
    S.M[g, C[X_so_stk] + sp * C[X_sw_stk] + 0] = kind
    S.M[g, C[X_so_stk] + sp * C[X_sw_stk] + 1] = a
    S.M[g, C[X_so_stk] + sp * C[X_sw_stk] + 2] = b
    S.M[g, C[X_so_stk] + sp * C[X_sw_stk] + 3] = c
    S.M[g, C[X_so_sp]] = sp + 1


@njit(cache=True)
def gain_coffee(S, C, g, p, n, cat):
    if n <= 0:
        return
    S.M[g, C[X_so_coffee] + p] += n
    if p == S.M[g, C[X_so_seat]]:
        S.M[g, C[X_so_t_cgain]] += n
    ev(S, C, g, EV_CGAIN, p, cat, n, -1, -1, 0, 0)


@njit(cache=True)
def spend_coffee(S, C, g, p, n, cat, item):
    if n <= 0:
        return
    S.M[g, C[X_so_coffee] + p] -= n
    if p == S.M[g, C[X_so_seat]]:
        S.M[g, C[X_so_t_cspent]] += n
    ev(S, C, g, EV_CSPEND, p, cat, n, -1, item, n, 0)


@njit(cache=True)
def add_vp(S, C, g, p, n, cat, item):
    """Every VP change goes through here: VP, the running sum of VP events, the category, and the event."""
    if n == 0:
        return
    if cat == C_NONE or cat > C_END_BRIGHT:
        cat = C_BONUS  # VP from district slots, goals and other bonuses
    S.M[g, C[X_so_vp] + p] += n
    S.M[g, C[X_so_vp_ev] + p] += n
    S.M[g, C[X_so_vp_cat] + p * C[X_sw_vp_cat] + cat] += n
    if p == S.M[g, C[X_so_seat]]:
        S.M[g, C[X_so_t_vp]] += n
    ev(S, C, g, EV_VP, p, cat, n, -1, item, 0, 0)


@njit(cache=True)
def gain_bright(S, C, g, p, n, cat, src):
    if n <= 0:
        return
    S.M[g, C[X_so_bright] + p] += n
    ev(S, C, g, EV_BRIGHT, p, cat, n, src, -1, 0, 0)


@njit(cache=True)
def gain_heart(S, C, g, p, n, cat):
    if n <= 0:
        return
    S.M[g, C[X_so_hearts] + p] += n
    ev(S, C, g, EV_HEART, p, cat, n, -1, -1, 0, 0)


# ----------------------------------------------------------------- Insight dial
@njit(cache=True)
def tok_at(S, C, g, p, pos):
    return S.M[g, C[X_so_dial_w] + p * C[X_sw_dial_w] + pos] + S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + pos]


@njit(cache=True)
def tok_move(S, C, g, p, src, dst):
    """Move one token (white first) from dial position ``src`` to ``dst`` (0 = reserve, 1+q*3+l)."""
    if S.M[g, C[X_so_dial_w] + p * C[X_sw_dial_w] + src] > 0:
        S.M[g, C[X_so_dial_w] + p * C[X_sw_dial_w] + src] -= 1
        S.M[g, C[X_so_dial_w] + p * C[X_sw_dial_w] + dst] += 1
        return True
    if S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + src] > 0:
        S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + src] -= 1
        S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + dst] += 1
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
        if S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + i] > 0:
            return True
    return False


@njit(cache=True)
def colour_sources(S, C, g, p):
    """How many dial positions (reserve or a ring) hold a player-colour Insight of seat p."""
    n = 0
    for i in range(10):
        if S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + i] > 0:
            n += 1
    return n


@njit(cache=True)
def take_colour_at(S, C, g, p, pos, why):
    """Remove a player-colour Insight of seat p from dial position ``pos`` (0 = reserve, 1+q*3+l); an
    ``insight`` event (category publish or district, item = q*3+l, -1 for the reserve) records where from."""
    if S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + pos] <= 0:
        return False
    S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + pos] -= 1
    S.M[g, C[X_so_col_spent] + p] += 1
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
        if S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + i] > 0:
            return take_colour_at(S, C, g, p, i, why)
    return False


# ----------------------------------------------------------------- reputation clock
@njit(cache=True)
def face_crossed(S, C, old, new):
    n = 0
    for fi in range(C[X_n_face_lines]):
        f = S.K[C[X_o_face_lines] + fi]
        if old < f <= new:
            n += 1
    return n


@njit(cache=True)
def freud_step(S, C, g, causer):
    """Freud's reputation marker advances one space (always first); reaching the end triggers the end."""
    if S.M[g, C[X_so_freud_rep]] >= C[X_track_len]:
        return
    old = S.M[g, C[X_so_freud_rep]]
    S.M[g, C[X_so_freud_rep]] = old + 1
    ev(S, C, g, EV_FREUD, causer if causer >= 0 else S.M[g, C[X_so_seat]], C_NONE, 1, -1, old + 1, 0, 0)
    k = face_crossed(S, C, old, old + 1)
    if k > 0:
        S.M[g, C[X_so_freud_loc]] = (S.M[g, C[X_so_freud_loc]] + k) % C[X_n_loc_dist]
        ev(S, C, g, EV_MOVE, S.M[g, C[X_so_seat]], C_FREUD, k, -1, S.M[g, C[X_so_freud_loc]], 0, 0)
    if S.M[g, C[X_so_freud_rep]] >= C[X_track_len] and S.M[g, C[X_so_end_trig]] == 0:
        S.M[g, C[X_so_end_trig]] = 1
        S.M[g, C[X_so_last_round]] = S.M[g, C[X_so_rnd]] + 1
        ev(S, C, g, EV_END, causer if causer >= 0 else S.M[g, C[X_so_seat]], C_END_TRIGGER, 0, causer, S.M[g, C[X_so_rnd]], 0, 0)
        if causer >= 0:
            add_vp(S, C, g, causer, C[X_end_vp], C_END_TRIGGER, -1)


@njit(cache=True)
def gain_rep(S, C, g, p, n, cat):
    for _ in range(n):
        freud_step(S, C, g, p)
        if S.M[g, C[X_so_rep] + p] < C[X_track_len]:
            old = S.M[g, C[X_so_rep] + p]
            S.M[g, C[X_so_rep] + p] = old + 1
            S.M[g, C[X_so_rep_seq]] += 1
            S.M[g, C[X_so_rep_order] + p] = S.M[g, C[X_so_rep_seq]]
            ev(S, C, g, EV_REP, p, cat, 1, -1, old + 1, 0, 0)
            k = face_crossed(S, C, old, old + 1)
            if k > 0:
                S.M[g, C[X_so_freud_loc]] = (S.M[g, C[X_so_freud_loc]] + k) % C[X_n_loc_dist]
                ev(S, C, g, EV_MOVE, p, C_FREUD, k, -1, S.M[g, C[X_so_freud_loc]], 0, 0)


@njit(cache=True)
def marker_ahead(S, C, g, a, b):
    """True when seat a's reputation marker is ahead of seat b's: further along the track, or on the same space
    and underneath it (arrived earlier). The one definition of "ahead" (end-of-track bonus, tie-break; A-UM-25)."""
    ra = S.M[g, C[X_so_rep] + a]
    rb = S.M[g, C[X_so_rep] + b]
    if ra != rb:
        return ra > rb
    return S.M[g, C[X_so_rep_order] + a] < S.M[g, C[X_so_rep_order] + b]


@njit(cache=True)
def batch_markers_ahead(S, C, out):
    """``out[g, p]``: how many seats' reputation markers are ahead of seat p's (:func:`marker_ahead`)."""
    P = C[X_sd1_vp]
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
    for i in range(C[X_n_sec_first]):
        if pos >= S.K[C[X_o_sec_first] + i]:
            s = i
    return s


# ----------------------------------------------------------------- tags
@njit(cache=True)
def tags_at(S, C, g, p, loc):
    n = 0
    for c in range(C[X_n_card_tag]):
        if S.M[g, C[X_so_card_loc] + c] == L_INPLAY and S.M[g, C[X_so_card_own] + c] == p and S.K[C[X_o_card_tag] + c] == loc:
            n += 1
    for t in range(C[X_n_tr_len]):
        if S.M[g, C[X_so_tr_owner] + t] == p:
            for k in range(2):
                if S.K[C[X_o_tr_tags] + t * C[X_w_tr_tags] + k] == loc:
                    n += 1
    for cl in range(C[X_n_cl_tag]):
        if S.M[g, C[X_so_cl_owner] + cl] == p and S.K[C[X_o_cl_tag] + cl] == loc:
            n += 1
    for i in range(C[X_sd1_goal_id]):
        if S.M[g, C[X_so_goal_id] + i] >= 0 and S.M[g, C[X_so_goal_owner] + i] == p and S.K[C[X_o_goal_tag] + (S.M[g, C[X_so_goal_id] + i])] == loc:
            n += 1
    return n


@njit(cache=True)
def district_tags(S, C, g, p, d):
    n = 0
    for loc in range(C[X_n_loc_dist]):
        if S.K[C[X_o_loc_dist] + loc] == d:
            n += tags_at(S, C, g, p, loc)
    return n


# ----------------------------------------------------------------- research cards
@njit(cache=True)
def draw_card(S, C, g, p):
    """Draw the top Research card into the hand (nothing when the deck is empty, A-UM-23)."""
    if S.M[g, C[X_so_rtop]] >= C[X_sd1_rdeck]:
        return
    c = S.M[g, C[X_so_rdeck] + (S.M[g, C[X_so_rtop]])]
    S.M[g, C[X_so_rtop]] += 1
    S.M[g, C[X_so_card_loc] + c] = L_HAND
    S.M[g, C[X_so_card_own] + c] = p
    ev(S, C, g, EV_CARD, p, C_RDRAW, 1, -1, c, 0, 0)


@njit(cache=True)
def hand_size(S, C, g, p):
    n = 0
    for c in range(C[X_sd1_card_loc]):
        if S.M[g, C[X_so_card_loc] + c] == L_HAND and S.M[g, C[X_so_card_own] + c] == p:
            n += 1
    return n


@njit(cache=True)
def own_counts(S, C, g, p, out):
    for k in range(4):
        out[k] = 0
    for c in range(C[X_sd1_card_loc]):
        if S.M[g, C[X_so_card_loc] + c] == L_INPLAY and S.M[g, C[X_so_card_own] + c] == p:
            out[S.K[C[X_o_card_col] + c]] += 1


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
    nt = C[X_sd1_tr_owner]
    cand = np.zeros(nt, np.int64)
    nc = 0
    for k in range(nt):
        q = S.M[g, C[X_so_tr_owner] + k]
        if q >= 0 and q != p and S.M[g, C[X_so_tr_n] + k] > 0:
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
            n = S.M[g, C[X_so_tr_n] + k]
            if m[d] < n:
                col = S.K[C[X_o_card_col] + (S.M[g, C[X_so_tr_cards] + k * C[X_sw_tr_cards] + (n - 1 - m[d])])]
                if need[col] > 0:
                    need[col] -= 1
                    m[d] += 1
                    break
            for j in range(m[d]):
                need[S.K[C[X_o_card_col] + (S.M[g, C[X_so_tr_cards] + k * C[X_sw_tr_cards] + (n - 1 - j)])]] += 1
            m[d] = 0
            d -= 1
        if d < 0:
            return False


@njit(cache=True)
def need_counts(S, C, g, t, out):
    for k in range(4):
        out[k] = 0
    for i in range(S.K[C[X_o_tr_len] + t]):
        if S.M[g, C[X_so_pub_fill] + i] < 0:
            out[S.K[C[X_o_tr_cols] + t * C[X_w_tr_cols] + i]] += 1


@njit(cache=True)
def publishable(S, C, g, p, t):
    """Treatise t can be published by p: a colour Insight, a quill card, and the rest gatherable."""
    if t < 0 or not has_colour(S, C, g, p):
        return False
    own = np.zeros(4, np.int64)
    own_counts(S, C, g, p, own)
    qc = S.K[C[X_o_tr_cols] + t * C[X_w_tr_cols] + 0]
    if own[qc] < 1:
        return False
    own[qc] -= 1
    need = np.zeros(4, np.int64)
    for i in range(1, S.K[C[X_o_tr_len] + t]):
        need[S.K[C[X_o_tr_cols] + t * C[X_w_tr_cols] + i]] += 1
    return cite_feasible(S, C, g, p, need, own)


@njit(cache=True)
def fill_slot(S, C, g, t, card):
    col = S.K[C[X_o_card_col] + card]
    for i in range(S.K[C[X_o_tr_len] + t]):
        if S.M[g, C[X_so_pub_fill] + i] < 0 and S.K[C[X_o_tr_cols] + t * C[X_w_tr_cols] + i] == col:
            S.M[g, C[X_so_pub_fill] + i] = card
            S.M[g, C[X_so_tr_cards] + t * C[X_sw_tr_cards] + i] = card
            S.M[g, C[X_so_card_loc] + card] = L_TREATISE
            S.M[g, C[X_so_card_own] + card] = t
            return
    raise RuntimeError("no Volume slot for the card")


@njit(cache=True)
def gather_left(S, C, g, t):
    n = 0
    for i in range(S.K[C[X_o_tr_len] + t]):
        if S.M[g, C[X_so_pub_fill] + i] < 0:
            n += 1
    return n


# ----------------------------------------------------------------- notebook
@njit(cache=True)
def next_col(S, C, g, p, r):
    for c in range(3):
        if S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (r * 3 + c)] < 0:
            return c
    return -1


@njit(cache=True)
def can_place_row(S, C, g, p, r):
    c = next_col(S, C, g, p, r)
    if c < 0:
        return False
    if c == 2:  # icon space (A-UM-18: the third space of each row)
        k = S.M[g, C[X_so_icons] + p]
        if k >= 3 or S.M[g, C[X_so_cured] + p] < S.K[C[X_o_icon_req] + k]:
            return False
    return True


@njit(cache=True)
def place_tile(S, C, g, p, r, tile):
    c = next_col(S, C, g, p, r)
    S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (r * 3 + c)] = tile
    if c == 2:
        S.M[g, C[X_so_icons] + p] += 1
    ev(S, C, g, EV_TILE, p, C_NONE, 0, -1, tile, 0, r * 3 + c)
    # completed rows and columns release their player-colour Insight into the reserve
    for rr in range(3):
        if S.M[g, C[X_so_row_done] + p * C[X_sw_row_done] + rr] == 0 and S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (rr * 3)] >= 0 and S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (rr * 3 + 1)] >= 0 \
                and S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (rr * 3 + 2)] >= 0:
            S.M[g, C[X_so_row_done] + p * C[X_sw_row_done] + rr] = 1
            S.M[g, C[X_so_col_board] + p] -= 1
            S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + 0] += 1
            ev(S, C, g, EV_INSIGHT, p, C_TILE, 1, -1, 100 + rr, 0, 0)
    for cc in range(3):
        if S.M[g, C[X_so_col_done] + p * C[X_sw_col_done] + cc] == 0 and S.M[g, C[X_so_nb] + p * C[X_sw_nb] + cc] >= 0 and S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (3 + cc)] >= 0 \
                and S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (6 + cc)] >= 0:
            S.M[g, C[X_so_col_done] + p * C[X_sw_col_done] + cc] = 1
            S.M[g, C[X_so_col_board] + p] -= 1
            S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + 0] += 1
            ev(S, C, g, EV_INSIGHT, p, C_TILE, 1, -1, 200 + cc, 0, 0)
    if S.M[g, C[X_so_nb_full] + p] == 0:
        full = True
        for i in range(9):
            if S.M[g, C[X_so_nb] + p * C[X_sw_nb] + i] < 0:
                full = False
        if full:
            S.M[g, C[X_so_nb_full] + p] = 1
            gain_rep(S, C, g, p, C[X_full_rep], C_NB_FULL)


@njit(cache=True)
def stack_draw(S, C, g, lvl):
    if S.M[g, C[X_so_ttop] + lvl] < S.K[C[X_o_tiles_per_level] + lvl]:
        t = S.M[g, C[X_so_tstack] + lvl * C[X_sw_tstack] + (S.M[g, C[X_so_ttop] + lvl])]
        S.M[g, C[X_so_ttop] + lvl] += 1
        return t
    return -1


@njit(cache=True)
def refill_market(S, C, g, lvl):
    """Right takes the center slid across, then the center takes the stack top (banner side up)."""
    for _ in range(2):
        if S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 1] < 0 and S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 0] >= 0:
            S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 1] = S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 0]
            S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 0] = -1
        if S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 0] < 0:
            S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 0] = stack_draw(S, C, g, lvl)


# ----------------------------------------------------------------- clients
@njit(cache=True)
def catharsis(S, C, g, p, room):
    cl = S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room]
    S.M[g, C[X_so_room_cath] + p * C[X_sw_room_cath] + room] = 1
    ev(S, C, g, EV_CATH, p, C_CLIENT, 0, -1, cl, 0, room)
    if S.M[g, C[X_so_room_open] + p * C[X_sw_room_open] + 1] == 0:
        S.M[g, C[X_so_room_open] + p * C[X_sw_room_open] + 1] = 1
    # ability (unlocked at once, A-UM-24: a one-time effect) below the grief bonus on the stack
    push(S, C, g, K_EFFECT, S.K[C[X_o_cl_abil] + cl], C_CLIENT, room)
    push(S, C, g, K_EFFECT, S.K[C[X_o_cl_cath] + cl], C_CLIENT, room)


@njit(cache=True)
def cure(S, C, g, p, room):
    cl = S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room]
    S.M[g, C[X_so_cl_owner] + cl] = p
    S.M[g, C[X_so_cl_where] + cl] = 3
    S.M[g, C[X_so_cured] + p] += 1
    ev(S, C, g, EV_CURE, p, C_CLIENT, S.K[C[X_o_cl_vp] + cl], -1, cl, 0, room)
    add_vp(S, C, g, p, S.K[C[X_o_cl_vp] + cl], C_CLIENT, cl)
    if S.M[g, C[X_so_room_manifest] + p * C[X_sw_room_manifest] + room] >= 0:
        S.M[g, C[X_so_dr_gone]] += 1
        S.M[g, C[X_so_room_manifest] + p * C[X_sw_room_manifest] + room] = -1
    if S.M[g, C[X_so_room_latent] + p * C[X_sw_room_latent] + room] >= 0:
        S.M[g, C[X_so_dr_gone]] += 1
        S.M[g, C[X_so_room_latent] + p * C[X_sw_room_latent] + room] = -1
    S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room] = -1
    S.M[g, C[X_so_room_ther] + p * C[X_sw_room_ther] + room] = 0


@njit(cache=True)
def apply_therapy(S, C, g, p, room, n):
    """n therapy points on the client in ``room``: catharsis passing the star, cure at 0, excess -> boxes."""
    for _ in range(n):
        if S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room] < 0:
            gain_heart(S, C, g, p, 1, C_CLIENT)
            continue
        S.M[g, C[X_so_room_ther] + p * C[X_sw_room_ther] + room] -= 1
        if S.M[g, C[X_so_room_cath] + p * C[X_sw_room_cath] + room] == 0 and S.M[g, C[X_so_room_ther] + p * C[X_sw_room_ther] + room] <= C[X_cath_space]:
            catharsis(S, C, g, p, room)
        if S.M[g, C[X_so_room_ther] + p * C[X_sw_room_ther] + room] <= 0:
            cure(S, C, g, p, room)


@njit(cache=True)
def room_treatable(S, C, g, p, room):
    if S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room] < 0:
        return False
    d = S.M[g, C[X_so_room_manifest] + p * C[X_sw_room_manifest] + room]
    if d < 0:
        d = S.M[g, C[X_so_room_latent] + p * C[X_sw_room_latent] + room]
    if d < 0:
        return False
    return pay_pos(S, C, g, p, S.K[C[X_o_dr_cq] + d], S.K[C[X_o_dr_cl] + d]) >= 0


@njit(cache=True)
def draw_latent(S, C, g):
    if S.M[g, C[X_so_ltop]] < C[X_sd1_ldeck]:
        d = S.M[g, C[X_so_ldeck] + (S.M[g, C[X_so_ltop]])]
        S.M[g, C[X_so_ltop]] += 1
        return d
    return -1


@njit(cache=True)
def draw_manifest(S, C, g):
    if S.M[g, C[X_so_mtop]] < C[X_sd1_mdeck]:
        d = S.M[g, C[X_so_mdeck] + (S.M[g, C[X_so_mtop]])]
        S.M[g, C[X_so_mtop]] += 1
        return d
    return -1


# ----------------------------------------------------------------- effects
@njit(cache=True)
def run_effect(S, C, g, p, e, cat, ctx):
    """Apply effect row ``e``: immediate opcodes at once, choices pushed (first op on top)."""
    ck = np.zeros(4, np.int64)
    ca = np.zeros(4, np.int64)
    nc = 0
    for i in range(C[X_w_effects]):
        op = S.K[C[X_o_effects] + (e * C[X_w_effects] + i) * C[X_w2_effects] + 0]
        a = S.K[C[X_o_effects] + (e * C[X_w_effects] + i) * C[X_w2_effects] + 1]
        b = S.K[C[X_o_effects] + (e * C[X_w_effects] + i) * C[X_w2_effects] + 2]
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
    for s in range(C[X_sd1_space_owner]):
        if S.M[g, C[X_so_space_owner] + s] == p and S.M[g, C[X_so_space_act] + s] == act:
            return True
    return False


@njit(cache=True)
def can_perform(S, C, g, p, act, times):
    if act <= MT_RIGHT:
        return S.M[g, C[X_so_coffee] + p] >= S.K[C[X_o_tile_cost] + act] * times
    if act == MT_PLAY:
        if hand_size(S, C, g, p) > 0:
            return True
        for k in range(C[X_sd1_trdisp]):
            if publishable(S, C, g, p, S.M[g, C[X_so_trdisp] + k]):
                return True
        return False
    return True


@njit(cache=True)
def perform(S, C, g, p, act):
    if act <= MT_RIGHT:
        spend_coffee(S, C, g, p, S.K[C[X_o_tile_cost] + act], C_TILE_COST, act)
        push(S, C, g, D_TILE_SRC, act, 0, 0)
    elif act == MT_GEN:
        for q in range(3):
            generate(S, C, g, p, q, 0)
    elif act == MT_ELEV:
        push(S, C, g, D_ELXF, C[X_ins_elev], C[X_ins_xfer], 0)
    elif act == MT_DRAW:
        draw_card(S, C, g, p)
        push(S, C, g, D_SWAP, 0, 0, 0)
    elif act == MT_PLAY:
        push(S, C, g, D_RESPLAY, C[X_play_max], 0, 0)
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
        t = S.M[g, C[X_so_nb] + p * C[X_sw_nb] + last]
        push(S, C, g, K_EFFECT, S.K[C[X_o_tile_main] + t], C_TILE, -1)
    elif n > 1:
        push(S, C, g, D_TILEORDER, rem, 0, 0)


@njit(cache=True)
def inkpot_move(S, C, g, p, dist):
    n = C[X_n_ink_kind]
    pos = S.M[g, C[X_so_inkpot] + p]
    for _ in range(dist):
        pos = (pos + 1) % n
        if S.K[C[X_o_ink_idea] + pos] == 1 and S.M[g, C[X_so_ideas_locked] + p] > 0:
            S.M[g, C[X_so_ideas_locked] + p] -= 1
            S.M[g, C[X_so_ideas_hand] + p] += 1
            ev(S, C, g, EV_IDEA, p, C_INKPOT, 1, -1, pos, 0, 0)
    S.M[g, C[X_so_inkpot] + p] = pos
    kind = S.K[C[X_o_ink_kind] + pos]
    if kind == INK_ROW:
        r = S.K[C[X_o_ink_row] + pos]
        if S.M[g, C[X_so_row_done] + p * C[X_sw_row_done] + r] == 1 and C[X_row_elev] > 0:
            push(S, C, g, D_ELXF, C[X_row_elev], 0, 0)
        rem = 0
        for c in range(3):
            if S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (r * 3 + c)] >= 0:
                rem |= 1 << (r * 3 + c)
        push_tiles(S, C, g, p, rem)
        push(S, C, g, K_EFFECT, S.K[C[X_o_ink_gen] + pos], C_INKPOT, -1)
    elif kind == INK_COLUMN:
        push(S, C, g, D_COLUMN, 0, 0, 0)
    elif kind == INK_REP:
        s = section_of(S, C, S.M[g, C[X_so_rep] + p])
        push(S, C, g, D_REPACT, section_of(S, C, S.M[g, C[X_so_freud_rep]]), 0, 0)
        push(S, C, g, K_EFFECT, S.K[C[X_o_sec_reward] + s], C_REPTRACK, -1)


# ----------------------------------------------------------------- turn structure
@njit(cache=True)
def start_turn(S, C, g):
    S.M[g, C[X_so_t_opt]] = OPT_PASS
    S.M[g, C[X_so_t_act]] = -1
    S.M[g, C[X_so_t_cspent]] = 0
    S.M[g, C[X_so_t_cgain]] = 0
    S.M[g, C[X_so_t_vp]] = 0
    push(S, C, g, K_FINISH, 0, 0, 0)
    push(S, C, g, K_CLIENTS, 0, 0, 0)
    push(S, C, g, D_HEARTS, 0, 0, 0)
    push(S, C, g, D_TURN, 0, 0, 0)


@njit(cache=True)
def goal_met(S, C, g, p, gid):
    op = S.K[C[X_o_goal_cond] + gid * C[X_w_goal_cond] + 0]
    a = S.K[C[X_o_goal_cond] + gid * C[X_w_goal_cond] + 1]
    n = S.K[C[X_o_goal_cond] + gid * C[X_w_goal_cond] + 2]
    if op == 1:
        return tags_at(S, C, g, p, a) >= n
    if op == 2:
        return S.M[g, C[X_so_cured] + p] >= n
    if op == 3:
        k = 0
        for t in range(C[X_sd1_tr_owner]):
            if S.M[g, C[X_so_tr_owner] + t] == p:
                k += 1
        return k >= n
    k = 0
    for c in range(C[X_sd1_card_loc]):
        if S.M[g, C[X_so_card_loc] + c] == L_INPLAY and S.M[g, C[X_so_card_own] + c] == p:
            k += 1
    return k >= n


@njit(cache=True)
def check_goals(S, C, g, p):
    for i in range(C[X_sd1_goal_id]):
        gid = S.M[g, C[X_so_goal_id] + i]
        if gid >= 0 and S.M[g, C[X_so_goal_owner] + i] < 0 and goal_met(S, C, g, p, gid):
            S.M[g, C[X_so_goal_owner] + i] = p
            ev(S, C, g, EV_GOAL, p, C_GOAL, S.K[C[X_o_goal_rep] + gid], -1, gid, 0, 0)
            gain_rep(S, C, g, p, S.K[C[X_o_goal_rep] + gid], C_GOAL)


@njit(cache=True)
def final_scoring(S, C, g):
    P = C[X_sd1_vp]
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
        add_vp(S, C, g, p, S.K[C[X_o_rep_vp] + (S.M[g, C[X_so_rep] + p])], C_END_REP, S.M[g, C[X_so_rep] + p])
    for k in range(min(2, P)):
        p = order[k]
        ntr = 0
        for t in range(C[X_sd1_tr_owner]):
            if S.M[g, C[X_so_tr_owner] + t] == p:
                ntr += 1
        per = C[X_track_first] if k == 0 else C[X_track_second]
        add_vp(S, C, g, p, per * (ntr + S.M[g, C[X_so_cured] + p]), C_END_TRACK, k)
    for p in range(P):
        nd = 0
        for d in range(3):
            has = False
            for s in range(4):
                if S.M[g, C[X_so_dist_slot] + d * C[X_sw_dist_slot] + s] == p:
                    has = True
            if has:
                nd += 1
        add_vp(S, C, g, p, S.K[C[X_o_district_vp] + nd], C_END_DISTRICTS, nd)
        rows = 0
        for r in range(3):
            rows += S.M[g, C[X_so_row_done] + p * C[X_sw_row_done] + r]
        add_vp(S, C, g, p, S.K[C[X_o_rows_vp] + rows], C_END_ROWS, rows)
        uniq = 0
        for loc in range(C[X_n_loc_dist]):
            if tags_at(S, C, g, p, loc) > 0:
                uniq += 1
        add_vp(S, C, g, p, S.K[C[X_o_tags_vp] + uniq], C_END_TAGS, uniq)
        case_vp = 0
        for cl in range(C[X_n_cl_kind]):
            if S.M[g, C[X_so_cl_owner] + cl] == p and S.K[C[X_o_cl_kind] + cl] == 1:
                for j in range(2):
                    op = S.K[C[X_o_cl_end] + (cl * C[X_w_cl_end] + j) * C[X_w2_cl_end] + 0]
                    n = S.K[C[X_o_cl_end] + (cl * C[X_w_cl_end] + j) * C[X_w2_cl_end] + 1]
                    if op == 1:
                        case_vp += n * S.M[g, C[X_so_cured] + p]
                    elif op == 2:
                        for t in range(C[X_sd1_tr_owner]):
                            if S.M[g, C[X_so_tr_owner] + t] == p:
                                case_vp += n
                    elif op == 3:
                        for c in range(C[X_sd1_card_loc]):
                            if S.M[g, C[X_so_card_loc] + c] == L_INPLAY and S.M[g, C[X_so_card_own] + c] == p:
                                case_vp += n
                    elif op == 4:
                        case_vp += n * S.M[g, C[X_so_hearts] + p]
        add_vp(S, C, g, p, case_vp, C_END_CASE, -1)
        add_vp(S, C, g, p, C[X_heart_vp] * S.M[g, C[X_so_hearts] + p], C_END_HEARTS, S.M[g, C[X_so_hearts] + p])
        nb = S.M[g, C[X_so_coffee] + p] // C[X_coffee_per_bright] + S.M[g, C[X_so_bright] + p]
        add_vp(S, C, g, p, C[X_bright_vp] * nb, C_END_BRIGHT, nb)


@njit(cache=True)
def finish_turn(S, C, g):
    p = S.M[g, C[X_so_seat]]
    # Bright Ideas placed this turn return to the supply
    for s in range(C[X_sd1_space_owner]):
        if S.M[g, C[X_so_space_bright] + s] > 0:
            S.M[g, C[X_so_space_bright] + s] = 0
            if S.M[g, C[X_so_space_n] + s] == 0:
                S.M[g, C[X_so_space_owner] + s] = -1
                S.M[g, C[X_so_space_act] + s] = -1
    check_goals(S, C, g, p)
    P = C[X_sd1_vp]
    if P == 1 and (S.M[g, C[X_so_turn]] + 1) % C[X_solo_every] == 0:
        freud_step(S, C, g, -1)
    # turn log row
    tb = S.turn_buf
    r = begin_turn_row(tb, S.turn_n, g, S.ply[g] + 1, S.M[g, C[X_so_turn]], S.M[g, C[X_so_rnd]], p)
    tb[g, r, TURN_OPTION] = S.M[g, C[X_so_t_opt]]
    tb[g, r, TURN_MT_ACTION] = S.M[g, C[X_so_t_act]] + 1
    tb[g, r, TURN_COFFEE_SPENT] = S.M[g, C[X_so_t_cspent]]
    tb[g, r, TURN_COFFEE_GAINED] = S.M[g, C[X_so_t_cgain]]
    tb[g, r, TURN_VP_GAINED] = S.M[g, C[X_so_t_vp]]
    tb[g, r, TURN_VP_AFTER] = S.M[g, C[X_so_vp] + p]
    tb[g, r, TURN_COFFEE_AFTER] = S.M[g, C[X_so_coffee] + p]
    ins = 0
    for i in range(1, 10):
        ins += tok_at(S, C, g, p, i)
    tb[g, r, TURN_INSIGHT_AFTER] = ins
    tb[g, r, TURN_CURED_AFTER] = S.M[g, C[X_so_cured] + p]
    S.M[g, C[X_so_turn]] += 1
    S.M[g, C[X_so_seat]] = (p + 1) % P
    if S.M[g, C[X_so_seat]] == 0:
        done_round = S.M[g, C[X_so_rnd]]
        S.M[g, C[X_so_rnd]] += 1
        end = False
        if S.M[g, C[X_so_end_trig]] == 1 and done_round >= S.M[g, C[X_so_last_round]]:
            end = True
        elif done_round >= C[X_round_limit] and (S.M[g, C[X_so_end_trig]] == 0 or C[X_limit_stop] == 1):
            end = True  # safety stop (A-UM-13); an end already triggered is played out unless limit_stop (A-UM-36)
            ev(S, C, g, EV_END, 0, C_ROUND_LIMIT, 0, -1, done_round, 0, 0)
        if end:
            S.M[g, C[X_so_rnd]] = done_round
            S.M[g, C[X_so_over]] = 1
            final_scoring(S, C, g)
            return
    start_turn(S, C, g)


@njit(cache=True)
def end_clients(S, C, g):
    """End of turn: take a new client for each empty open room (never in the final round)."""
    p = S.M[g, C[X_so_seat]]
    final = S.M[g, C[X_so_end_trig]] == 1 and S.M[g, C[X_so_rnd]] >= S.M[g, C[X_so_last_round]]
    for room in range(1, -1, -1):
        if S.M[g, C[X_so_room_open] + p * C[X_sw_room_open] + room] == 0:
            continue
        if S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room] < 0:
            if final:
                continue
            avail = False
            for k in range(C[X_sd1_rdisp_cl]):
                if S.M[g, C[X_so_rdisp_cl] + k] >= 0:
                    avail = True
            for k in range(C[X_sd1_cdisp_cl]):
                if S.M[g, C[X_so_cdisp_cl] + k] >= 0:
                    avail = True
            if avail:
                push(S, C, g, D_NEWCLIENT, room, 0, 0)
        elif S.M[g, C[X_so_room_manifest] + p * C[X_sw_room_manifest] + room] < 0 and S.M[g, C[X_so_room_latent] + p * C[X_sw_room_latent] + room] < 0:
            S.M[g, C[X_so_room_latent] + p * C[X_sw_room_latent] + room] = draw_latent(S, C, g)  # A-UM-19


@njit(cache=True)
def run_auto(S, C, g, kind, a, b, c):
    p = S.M[g, C[X_so_seat]]
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
    S.M[g, C[X_so_tr_owner] + t] = p
    S.M[g, C[X_so_tr_n] + t] = S.K[C[X_o_tr_len] + t]
    take_colour(S, C, g, p, COLOUR_PUBLISH)
    ev(S, C, g, EV_PUBLISH, p, C_TREATISE, S.K[C[X_o_tr_vp] + t], -1, t, 0, S.K[C[X_o_tr_len] + t])
    add_vp(S, C, g, p, S.K[C[X_o_tr_vp] + t], C_TREATISE, t)
    for q in range(C[X_sd1_pub_cited]):
        if S.M[g, C[X_so_pub_cited] + q] > 0:
            gain_bright(S, C, g, q, C[X_cite_bright], C_CITED_BRIGHT, p)
            S.M[g, C[X_so_pub_cited] + q] = 0
    for i in range(C[X_sd1_pub_fill]):
        S.M[g, C[X_so_pub_fill] + i] = -1
    S.M[g, C[X_so_pub_t]] = -1
    # refill the display slot left empty
    for k in range(C[X_sd1_trdisp]):
        if S.M[g, C[X_so_trdisp] + k] < 0 and S.M[g, C[X_so_trtop]] < C[X_sd1_trdeck]:
            S.M[g, C[X_so_trdisp] + k] = S.M[g, C[X_so_trdeck] + (S.M[g, C[X_so_trtop]])]
            S.M[g, C[X_so_trtop]] += 1


# ================================================================= the legal mask of one game
@njit(cache=True)
def _mask_row_turn(S, C, g, p, kind, a, b, out):
    any_opt = False
    has_idea = S.M[g, C[X_so_ideas_hand] + p] > 0 or S.M[g, C[X_so_bright] + p] > 0
    for s in range(C[X_sd1_space_owner]):
        if S.M[g, C[X_so_space_owner] + s] >= 0 or not has_idea:
            continue
        for d in range(4):
            act = S.K[C[X_o_space_act] + s * C[X_w_space_act] + d]
            if act < 0 or own_points_at(S, C, g, p, act):
                continue
            if can_perform(S, C, g, p, act, 1):
                out[PLACE0 + s * 4 + d] = True
                any_opt = True
    for s in range(C[X_sd1_space_owner]):
        if S.M[g, C[X_so_space_owner] + s] == p and S.M[g, C[X_so_space_n] + s] > 0:
            out[RECALL] = True
            any_opt = True
            break
    for room in range(2):
        if room_treatable(S, C, g, p, room):
            out[TREAT] = True
            any_opt = True
    if not any_opt:
        out[PASS] = True
    if S.M[g, C[X_so_coffee] + p] >= C[X_conv_coffee]:
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
        if nn <= S.M[g, C[X_so_ideas_hand] + p] and nbr <= S.M[g, C[X_so_bright] + p] and can_perform(S, C, g, p, act, nn + nbr):
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
        if S.M[g, C[X_so_ttop] + lvl] < S.K[C[X_o_tiles_per_level] + lvl]:
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
            if S.M[g, C[X_so_nb] + p * C[X_sw_nb] + i] >= 0:
                out[CH0 + 3 + i] = True
        out[DONE] = True


@njit(cache=True)
def _mask_row_swap(S, C, g, p, kind, a, b, out):
    for c in range(C[X_sd1_card_loc]):
        if S.M[g, C[X_so_card_loc] + c] == L_HAND and S.M[g, C[X_so_card_own] + c] == p:
            out[CARD0 + c] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_swap2(S, C, g, p, kind, a, b, out):
    for k in range(C[X_sd1_rdisp]):
        if S.M[g, C[X_so_rdisp] + k] >= 0:
            out[CH0 + k] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_resplay(S, C, g, p, kind, a, b, out):
    for c in range(C[X_sd1_card_loc]):
        if S.M[g, C[X_so_card_loc] + c] == L_HAND and S.M[g, C[X_so_card_own] + c] == p:
            out[CARD0 + c] = True
    if kind == D_RESPLAY and b == 0:
        for k in range(C[X_sd1_trdisp]):
            if publishable(S, C, g, p, S.M[g, C[X_so_trdisp] + k]):
                out[CH0 + k] = True
    if kind == D_PLAYN or b > 0:
        out[DONE] = True


@njit(cache=True)
def _mask_row_quill(S, C, g, p, kind, a, b, out):
    qc = S.K[C[X_o_tr_cols] + a * C[X_w_tr_cols] + 0]
    for c in range(C[X_sd1_card_loc]):
        if S.M[g, C[X_so_card_loc] + c] == L_INPLAY and S.M[g, C[X_so_card_own] + c] == p and S.K[C[X_o_card_col] + c] == qc:
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
                for c in range(C[X_sd1_card_loc]):
                    if S.M[g, C[X_so_card_loc] + c] == L_INPLAY and S.M[g, C[X_so_card_own] + c] == p and S.K[C[X_o_card_col] + c] == col:
                        out[CARD0 + c] = True
            need[col] += 1
            own[col] += 1
    for k in range(C[X_sd1_tr_owner]):
        q = S.M[g, C[X_so_tr_owner] + k]
        if q < 0 or q == p or S.M[g, C[X_so_tr_n] + k] == 0:
            continue
        col = S.K[C[X_o_card_col] + (S.M[g, C[X_so_tr_cards] + k * C[X_sw_tr_cards] + (S.M[g, C[X_so_tr_n] + k] - 1)])]
        if need[col] <= 0:
            continue
        need[col] -= 1
        S.M[g, C[X_so_tr_n] + k] -= 1
        if cite_feasible(S, C, g, p, need, own):
            out[CH0 + k] = True
        S.M[g, C[X_so_tr_n] + k] += 1
        need[col] += 1


@njit(cache=True)
def _mask_row_prof(S, C, g, p, kind, a, b, out):
    for i in range(C[X_prof_max]):
        out[CH0 + i] = True
    if S.M[g, C[X_so_prof_loc] + p] != S.M[g, C[X_so_freud_loc]]:
        out[CH0 + CH_TO_FREUD] = True


@njit(cache=True)
def _mask_row_freud(S, C, g, p, kind, a, b, out):
    for i in range(C[X_freud_max]):
        out[CH0 + i] = True


@njit(cache=True)
def _mask_row_loctrig(S, C, g, p, kind, a, b, out):
    out[DONE] = True
    out[CH0 + 0] = True
    out[CH0 + 1] = True
    if S.M[g, C[X_so_bright] + p] > 0:
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
        if S.M[g, C[X_so_dial_c] + p * C[X_sw_dial_c] + i] > 0:
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
        loc = S.M[g, C[X_so_prof_loc] + p] if w == 0 else S.M[g, C[X_so_freud_loc]]
        d = S.K[C[X_o_loc_dist] + loc]
        if S.M[g, C[X_so_dist_left] + d] <= 0:
            continue
        for k in range(3):
            if S.M[g, C[X_so_loc_cov] + loc * C[X_sw_loc_cov] + k] == 0:
                out[CH0 + w * 3 + k] = True
        if has_colour(S, C, g, p):
            nt = district_tags(S, C, g, p, d)
            for s in range(4):
                if S.M[g, C[X_so_dist_slot] + d * C[X_sw_dist_slot] + s] < 0 and nt >= S.K[C[X_o_dist_thr] + s]:
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
        if S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room] >= 0:
            out[CH0 + room] = True
    if not (out[CH0] or out[CH0 + 1]):
        out[DONE] = True


@njit(cache=True)
def _mask_row_hearts(S, C, g, p, kind, a, b, out):
    if S.M[g, C[X_so_hearts] + p] > 0:
        for room in range(2):
            if S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room] >= 0:
                out[CH0 + room] = True
    out[DONE] = True


@njit(cache=True)
def _mask_row_newclient(S, C, g, p, kind, a, b, out):
    for k in range(C[X_sd1_rdisp_cl]):
        if S.M[g, C[X_so_rdisp_cl] + k] >= 0:
            out[CH0 + k] = True
    for k in range(C[X_sd1_cdisp_cl]):
        if S.M[g, C[X_so_cdisp_cl] + k] >= 0:
            out[CH0 + 3 + k] = True


@njit(cache=True)
def _mask_row_manifest(S, C, g, p, kind, a, b, out):
    for k in range(C[X_sd1_mdisp]):
        if S.M[g, C[X_so_mdisp] + k] >= 0:
            out[CH0 + k] = True
    if S.M[g, C[X_so_mtop]] < C[X_sd1_mdeck]:
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
    if S.M[g, C[X_so_over]] == 1 or S.M[g, C[X_so_sp]] == 0:
        return
    p = S.M[g, C[X_so_seat]]
    top = S.M[g, C[X_so_sp]] - 1
    kind = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 0]
    a = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 1]
    b = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 2]
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
    while S.M[g, C[X_so_over]] == 0:
        if S.M[g, C[X_so_sp]] == 0:
            start_turn(S, C, g)
        top = S.M[g, C[X_so_sp]] - 1
        kind = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 0]
        a = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 1]
        b = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 2]
        c = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 3]
        if kind == K_EFFECT or kind == K_PERFORM or kind == K_INKPOT_START or kind == K_INKPOT \
                or kind == K_PUBLISH or kind == K_CLIENTS or kind == K_FINISH or kind == K_GENQL:
            S.M[g, C[X_so_sp]] = top
            run_auto(S, C, g, kind, a, b, c)
            continue
        mask_row(S, C, g, scratch)
        if only_done(scratch):
            S.M[g, C[X_so_sp]] = top
            continue
        # goal tiles are claimed as soon as their condition holds (checked at every decision, A-UM-29)
        check_goals(S, C, g, S.M[g, C[X_so_seat]])
        if S.M[g, C[X_so_over]] == 0 and S.M[g, C[X_so_sp]] > 0:
            return


# ================================================================= applying one decision
@njit(cache=True)
def _apply_one_turn(S, C, g, p, act, kind, a, b, ch):
    if PLACE0 <= act < MODE0:
        s = (act - PLACE0) // 4
        mt = S.K[C[X_o_space_act] + s * C[X_w_space_act] + ((act - PLACE0) % 4)]
        push(S, C, g, D_MODE, s, mt, 0)
    elif act == RECALL:
        S.M[g, C[X_so_t_opt]] = OPT_RECALL
        n = 0
        for s in range(C[X_sd1_space_owner]):
            if S.M[g, C[X_so_space_owner] + s] == p:
                n += 1
                S.M[g, C[X_so_ideas_hand] + p] += S.M[g, C[X_so_space_n] + s]
                S.M[g, C[X_so_space_owner] + s] = -1
                S.M[g, C[X_so_space_act] + s] = -1
                S.M[g, C[X_so_space_n] + s] = 0
        ev(S, C, g, EV_IDEA, p, C_RECALL, n, -1, -1, 0, n)
        gain_coffee(S, C, g, p, n * C[X_recall_coffee], C_RECALL)
        push(S, C, g, D_RECALLB, 0, 0, 0)
    elif act == TREAT:
        S.M[g, C[X_so_t_opt]] = OPT_TREAT
        push(S, C, g, D_TREAT, 0, 0, 0)
    elif act == PASS:
        S.M[g, C[X_so_t_opt]] = OPT_PASS
    elif POS0 <= act < XFER0:
        i = act - POS0
        spend_coffee(S, C, g, p, C[X_conv_coffee], C_CONVERSION, i)
        tok_move(S, C, g, p, 1 + i, 2 + i)
        ev(S, C, g, EV_INSIGHT, p, C_CONVERSION, 1, -1, i + 1, C[X_conv_coffee], 0)
        push(S, C, g, D_TURN, 0, 0, 0)
    elif XFER0 <= act < CH0:
        i = (act - XFER0) // 3
        q2 = (act - XFER0) % 3
        spend_coffee(S, C, g, p, C[X_conv_coffee], C_CONVERSION, i)
        tok_move(S, C, g, p, 1 + i, 1 + q2 * 3 + i % 3)
        ev(S, C, g, EV_INSIGHT, p, C_CONVERSION, 1, -1, q2 * 3 + i % 3, C[X_conv_coffee], 0)
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
    S.M[g, C[X_so_t_opt]] = OPT_STATE
    S.M[g, C[X_so_t_act]] = mt
    S.M[g, C[X_so_space_owner] + s] = p
    S.M[g, C[X_so_space_act] + s] = mt
    S.M[g, C[X_so_space_n] + s] = nn
    S.M[g, C[X_so_space_bright] + s] = nbr
    S.M[g, C[X_so_ideas_hand] + p] -= nn
    S.M[g, C[X_so_bright] + p] -= nbr
    ev(S, C, g, EV_IDEA, p, C_NONE, nn + nbr, -1, s, nbr, mt)
    push(S, C, g, K_INKPOT_START, nbr, S.K[C[X_o_act_move] + mt], 0)
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
        tile = S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 0]
        if tile >= 0:
            S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 0] = -1
            refill_market(S, C, g, lvl)
    else:
        tile = S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 1]
        if tile >= 0:
            S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 1] = -1
            refill_market(S, C, g, lvl)
    if tile < 0:
        add_vp(S, C, g, p, S.K[C[X_o_empty_vp] + col], C_EMPTY, col * 2 + lvl)
        return
    ev(S, C, g, EV_TILE, p, C_TILE_STACK + col, 0, -1, tile, S.K[C[X_o_tile_cost] + col], -1)
    push(S, C, g, D_PLACE, tile, 0, 0)
    if col == 1:
        push(S, C, g, K_EFFECT, S.K[C[X_o_tile_banner] + tile], C_TILE, -1)
    elif col == 2:
        push(S, C, g, D_ORDER, tile, 0, 0)


@njit(cache=True)
def _apply_one_order(S, C, g, p, act, kind, a, b, ch):
    if ch == 0:  # main first
        push(S, C, g, K_EFFECT, S.K[C[X_o_tile_banner] + a], C_TILE, -1)
        push(S, C, g, K_EFFECT, S.K[C[X_o_tile_main] + a], C_TILE, -1)
    else:
        push(S, C, g, K_EFFECT, S.K[C[X_o_tile_main] + a], C_TILE, -1)
        push(S, C, g, K_EFFECT, S.K[C[X_o_tile_banner] + a], C_TILE, -1)


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
        S.M[g, C[X_so_tdisc]] += 1
        ev(S, C, g, EV_TILE, p, C_DISCARD, 0, -1, a, 0, -1)
    elif ch < 3:
        place_tile(S, C, g, p, ch, a)
    else:
        i = ch - 3
        ev(S, C, g, EV_TILE, p, C_REPLACE, 0, -1, S.M[g, C[X_so_nb] + p * C[X_sw_nb] + i], 0, i)
        S.M[g, C[X_so_nb] + p * C[X_sw_nb] + i] = a
        S.M[g, C[X_so_tdisc]] += 1


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
    d = S.M[g, C[X_so_rdisp] + ch]
    S.M[g, C[X_so_rdisp] + ch] = c
    S.M[g, C[X_so_card_loc] + c] = L_DISPLAY
    S.M[g, C[X_so_card_own] + c] = -1
    S.M[g, C[X_so_card_loc] + d] = L_HAND
    S.M[g, C[X_so_card_own] + d] = p
    S.M[g, C[X_so_card_known] + d] = 1  # taken from the face-up display: everyone knows where it is
    ev(S, C, g, EV_CARD, p, C_RSWAP, 0, -1, d, 0, c)


@njit(cache=True)
def _apply_one_resplay(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    if act >= CARD0:
        c = act - CARD0
        S.M[g, C[X_so_card_loc] + c] = L_INPLAY
        ev(S, C, g, EV_CARD, p, C_CARD, 0, -1, c, 0, 1)
        if a - 1 > 0:
            push(S, C, g, kind, a - 1, 1, 0)
        push(S, C, g, K_EFFECT, S.K[C[X_o_card_eff] + c], C_CARD, -1)
    else:
        t = S.M[g, C[X_so_trdisp] + ch]
        S.M[g, C[X_so_trdisp] + ch] = -1
        S.M[g, C[X_so_pub_t]] = t
        for i in range(C[X_sd1_pub_fill]):
            S.M[g, C[X_so_pub_fill] + i] = -1
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
        n = S.M[g, C[X_so_tr_n] + k] - 1
        card = S.M[g, C[X_so_tr_cards] + k * C[X_sw_tr_cards] + n]
        S.M[g, C[X_so_tr_cards] + k * C[X_sw_tr_cards] + n] = -1
        S.M[g, C[X_so_tr_n] + k] = n
        q = S.M[g, C[X_so_tr_owner] + k]
        fill_slot(S, C, g, t, card)
        S.M[g, C[X_so_pub_cited] + q] += 1
        ev(S, C, g, EV_CITE, p, C_CITED, S.K[C[X_o_tr_cite_vp] + k], q, k, t, 1)
        add_vp(S, C, g, q, S.K[C[X_o_tr_cite_vp] + k], C_CITED, k)
    if gather_left(S, C, g, t) > 0:
        push(S, C, g, D_GATHER, t, 0, 0)
    else:
        push(S, C, g, K_PUBLISH, t, 0, 0)


@njit(cache=True)
def _apply_one_prof(S, C, g, p, act, kind, a, b, ch):
    if ch == CH_TO_FREUD:
        S.M[g, C[X_so_prof_loc] + p] = S.M[g, C[X_so_freud_loc]]
    else:
        S.M[g, C[X_so_prof_loc] + p] = (S.M[g, C[X_so_prof_loc] + p] + ch + 1) % C[X_n_loc_dist]
    ev(S, C, g, EV_MOVE, p, C_PROFESSOR, ch + 1 if ch != CH_TO_FREUD else 0, -1, S.M[g, C[X_so_prof_loc] + p], 0, 0)
    push(S, C, g, D_LOCTRIG, S.M[g, C[X_so_prof_loc] + p], 0, 0)


@njit(cache=True)
def _apply_one_freud(S, C, g, p, act, kind, a, b, ch):
    S.M[g, C[X_so_freud_loc]] = (S.M[g, C[X_so_freud_loc]] + ch + 1) % C[X_n_loc_dist]
    ev(S, C, g, EV_MOVE, p, C_FREUD, ch + 1, -1, S.M[g, C[X_so_freud_loc]], 0, 0)
    push(S, C, g, D_LOCTRIG, S.M[g, C[X_so_freud_loc]], 0, 0)


@njit(cache=True)
def _apply_one_loctrig(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    loc = a
    if ch % 2 == 0:
        base = 0
        for q in range(C[X_sd1_prof_loc]):
            if S.M[g, C[X_so_prof_loc] + q] == loc:
                base += 1
        if S.M[g, C[X_so_freud_loc]] == loc:
            base += 1
    else:
        base = tags_at(S, C, g, p, loc)
    if ch >= 2:
        S.M[g, C[X_so_bright] + p] -= 1
        ev(S, C, g, EV_BRIGHT, p, C_LOCATION, -1, -1, loc, 0, 0)
        base += C[X_loc_bright]
    n = min(base, C[X_loc_cap])
    for _ in range(n):
        push(S, C, g, D_LOCEFF, loc, 0, 0)


@njit(cache=True)
def _apply_one_loceff(S, C, g, p, act, kind, a, b, ch):
    push(S, C, g, K_EFFECT, S.K[C[X_o_loc_eff] + a * C[X_w_loc_eff] + ch], C_LOCATION, -1)


@njit(cache=True)
def _apply_one_column(S, C, g, p, act, kind, a, b, ch):
    c = ch
    if S.M[g, C[X_so_col_done] + p * C[X_sw_col_done] + c] == 1:
        push(S, C, g, K_GENQL, c, C[X_col_lvl], 0)
    rem = 0
    for r in range(3):
        if S.M[g, C[X_so_nb] + p * C[X_sw_nb] + (r * 3 + c)] >= 0:
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
    t = S.M[g, C[X_so_nb] + p * C[X_sw_nb] + ch]
    push(S, C, g, K_EFFECT, S.K[C[X_o_tile_main] + t], C_TILE, -1)


@njit(cache=True)
def _apply_one_repact(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    push(S, C, g, K_EFFECT, S.K[C[X_o_sec_action] + ch], C_REPTRACK, -1)


@njit(cache=True)
def _apply_one_recallb(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    w = 0 if (ch < 3 or (6 <= ch < 10)) else 1
    loc = S.M[g, C[X_so_prof_loc] + p] if w == 0 else S.M[g, C[X_so_freud_loc]]
    d = S.K[C[X_o_loc_dist] + loc]
    token = C[X_dist_tokens] - S.M[g, C[X_so_dist_left] + d]
    S.M[g, C[X_so_dist_left] + d] -= 1
    if ch < 6:
        k = ch % 3
        S.M[g, C[X_so_loc_cov] + loc * C[X_sw_loc_cov] + k] = 1
        ev(S, C, g, EV_BONUS, p, C_BONUS, 0, -1, loc * 3 + k, 0, token)
        push(S, C, g, K_EFFECT, S.K[C[X_o_loc_bon] + loc * C[X_w_loc_bon] + k], C_BONUS, -1)
        if token < C[X_dist_rep_tokens]:
            gain_rep(S, C, g, p, 1, C_BONUS)
    else:
        s = (ch - 6) % 4
        S.M[g, C[X_so_dist_slot] + d * C[X_sw_dist_slot] + s] = p
        ev(S, C, g, EV_BONUS, p, C_DISTRICT, 0, -1, d * 4 + s, 0, token)
        push(S, C, g, K_EFFECT, S.K[C[X_o_dist_rew] + d * C[X_w_dist_rew] + s], C_DISTRICT, -1)
        take_colour(S, C, g, p, COLOUR_DISTRICT)  # after the push: a D_COLOUR choice comes before the reward


@njit(cache=True)
def _apply_one_treat(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    room = ch
    push(S, C, g, D_TREAT, a | (1 << room), 0, 0)
    d = S.M[g, C[X_so_room_manifest] + p * C[X_sw_room_manifest] + room]
    manifest = d >= 0
    if manifest:
        S.M[g, C[X_so_room_manifest] + p * C[X_sw_room_manifest] + room] = -1
    else:
        d = S.M[g, C[X_so_room_latent] + p * C[X_sw_room_latent] + room]
        S.M[g, C[X_so_room_latent] + p * C[X_sw_room_latent] + room] = -1
    pos = pay_pos(S, C, g, p, S.K[C[X_o_dr_cq] + d], S.K[C[X_o_dr_cl] + d])
    tok_move(S, C, g, p, pos, 0)
    ev(S, C, g, EV_INSIGHT, p, C_PAY, 1, -1, pos - 1, 0, d)
    S.M[g, C[X_so_dr_gone]] += 1
    cl = S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room]
    if manifest and S.K[C[X_o_dr_sym] + d] == S.K[C[X_o_cl_sym] + cl]:
        gain_heart(S, C, g, p, C[X_sym_hearts], C_CLIENT)
    ev(S, C, g, EV_CLIENT, p, C_TREAT, 0, -1, cl, 0, d)
    push(S, C, g, K_EFFECT, S.K[C[X_o_dr_eff] + d], C_CLIENT, room)


@njit(cache=True)
def _apply_one_therapy(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    apply_therapy(S, C, g, p, ch, a)


@njit(cache=True)
def _apply_one_hearts(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    S.M[g, C[X_so_hearts] + p] -= 1
    ev(S, C, g, EV_HEART, p, C_TREAT, -1, -1, ch, 0, 0)
    push(S, C, g, D_HEARTS, 0, 0, 0)
    apply_therapy(S, C, g, p, ch, 1)


@njit(cache=True)
def _apply_one_newclient(S, C, g, p, act, kind, a, b, ch):
    room = a
    if ch < 3:
        cl = S.M[g, C[X_so_rdisp_cl] + ch]
        S.M[g, C[X_so_rdisp_cl] + ch] = -1
        if S.M[g, C[X_so_rtop_cl]] < C[X_sd1_rdeck_cl]:
            S.M[g, C[X_so_rdisp_cl] + ch] = S.M[g, C[X_so_rdeck_cl] + (S.M[g, C[X_so_rtop_cl]])]
            S.M[g, C[X_so_rtop_cl]] += 1
    else:
        k = ch - 3
        cl = S.M[g, C[X_so_cdisp_cl] + k]
        S.M[g, C[X_so_cdisp_cl] + k] = -1
        if S.M[g, C[X_so_ctop_cl]] < C[X_sd1_cdeck_cl]:
            S.M[g, C[X_so_cdisp_cl] + k] = S.M[g, C[X_so_cdeck_cl] + (S.M[g, C[X_so_ctop_cl]])]
            S.M[g, C[X_so_ctop_cl]] += 1
    S.M[g, C[X_so_room_client] + p * C[X_sw_room_client] + room] = cl
    S.M[g, C[X_so_cl_where] + cl] = 2
    S.M[g, C[X_so_room_ther] + p * C[X_sw_room_ther] + room] = min(S.K[C[X_o_cl_start] + cl], C[X_ther_max])
    S.M[g, C[X_so_room_cath] + p * C[X_sw_room_cath] + room] = 0
    S.M[g, C[X_so_room_latent] + p * C[X_sw_room_latent] + room] = draw_latent(S, C, g)
    ev(S, C, g, EV_CLIENT, p, C_NONE, S.M[g, C[X_so_room_ther] + p * C[X_sw_room_ther] + room], -1, cl, 0, room)
    push(S, C, g, D_MANIFEST, room, 0, 0)


@njit(cache=True)
def _apply_one_manifest(S, C, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    room = a
    if ch == CH_MANIFEST_DECK:
        d = draw_manifest(S, C, g)
    else:
        d = S.M[g, C[X_so_mdisp] + ch]
        S.M[g, C[X_so_mdisp] + ch] = draw_manifest(S, C, g)
    S.M[g, C[X_so_room_manifest] + p * C[X_sw_room_manifest] + room] = d


@njit(cache=True)
def apply_one(S, C, g, act):
    p = S.M[g, C[X_so_seat]]
    top = S.M[g, C[X_so_sp]] - 1
    kind = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 0]
    a = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 1]
    b = S.M[g, C[X_so_stk] + top * C[X_sw_stk] + 2]
    S.M[g, C[X_so_sp]] = top  # pop; handlers push what follows
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


# chance zones (sim.core.rng.chance_shuffle): each setup shuffle keyed by what it shuffles
RZ_TSTACK = 0     # + level (0, 1): the Notebook tile stacks
RZ_RDECK, RZ_TRDECK, RZ_RDECK_CL, RZ_CDECK_CL, RZ_LDECK, RZ_MDECK, RZ_GOALS = 2, 3, 4, 5, 6, 7, 8
N_CHANCE_ZONES = 9


@njit(cache=True)
def batch_setup(S, C, start_hand):
    scratch = np.zeros(NUM_ACTIONS, np.bool_)
    P = C[X_sd1_vp]
    key = S.rng_key
    ctr = S.rng_ctr
    for g in range(S.M.shape[0]):
        for lvl in range(2):
            chance_shuffle(key, ctr, g, RZ_TSTACK + lvl, S.M[g, C[X_so_tstack] + lvl * C[X_sw_tstack]:C[X_so_tstack] + lvl * C[X_sw_tstack] + C[X_sw_tstack]], 0, S.K[C[X_o_tiles_per_level] + lvl])
            S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 1] = stack_draw(S, C, g, lvl)
            S.M[g, C[X_so_market] + lvl * C[X_sw_market] + 0] = stack_draw(S, C, g, lvl)
        chance_shuffle(key, ctr, g, RZ_RDECK, S.M[g, C[X_so_rdeck]:C[X_so_rdeck] + C[X_sd1_rdeck]], 0, C[X_sd1_rdeck])
        for k in range(C[X_sd1_rdisp]):
            c = S.M[g, C[X_so_rdeck] + (S.M[g, C[X_so_rtop]])]
            S.M[g, C[X_so_rtop]] += 1
            S.M[g, C[X_so_rdisp] + k] = c
            S.M[g, C[X_so_card_loc] + c] = L_DISPLAY
        chance_shuffle(key, ctr, g, RZ_TRDECK, S.M[g, C[X_so_trdeck]:C[X_so_trdeck] + C[X_sd1_trdeck]], 0, C[X_sd1_trdeck])
        for k in range(C[X_sd1_trdisp]):
            if S.M[g, C[X_so_trtop]] < C[X_sd1_trdeck]:
                S.M[g, C[X_so_trdisp] + k] = S.M[g, C[X_so_trdeck] + (S.M[g, C[X_so_trtop]])]
                S.M[g, C[X_so_trtop]] += 1
        chance_shuffle(key, ctr, g, RZ_RDECK_CL, S.M[g, C[X_so_rdeck_cl]:C[X_so_rdeck_cl] + C[X_sd1_rdeck_cl]], 0, C[X_sd1_rdeck_cl])
        for k in range(C[X_sd1_rdisp_cl]):
            if S.M[g, C[X_so_rtop_cl]] < C[X_sd1_rdeck_cl]:
                S.M[g, C[X_so_rdisp_cl] + k] = S.M[g, C[X_so_rdeck_cl] + (S.M[g, C[X_so_rtop_cl]])]
                S.M[g, C[X_so_rtop_cl]] += 1
        chance_shuffle(key, ctr, g, RZ_CDECK_CL, S.M[g, C[X_so_cdeck_cl]:C[X_so_cdeck_cl] + C[X_sd1_cdeck_cl]], 0, C[X_sd1_cdeck_cl])
        for k in range(C[X_sd1_cdisp_cl]):
            if S.M[g, C[X_so_ctop_cl]] < C[X_sd1_cdeck_cl]:
                S.M[g, C[X_so_cdisp_cl] + k] = S.M[g, C[X_so_cdeck_cl] + (S.M[g, C[X_so_ctop_cl]])]
                S.M[g, C[X_so_ctop_cl]] += 1
        chance_shuffle(key, ctr, g, RZ_LDECK, S.M[g, C[X_so_ldeck]:C[X_so_ldeck] + C[X_sd1_ldeck]], 0, C[X_sd1_ldeck])
        chance_shuffle(key, ctr, g, RZ_MDECK, S.M[g, C[X_so_mdeck]:C[X_so_mdeck] + C[X_sd1_mdeck]], 0, C[X_sd1_mdeck])
        for k in range(C[X_sd1_mdisp]):
            S.M[g, C[X_so_mdisp] + k] = draw_manifest(S, C, g)
        # goal tiles: the first n of a shuffled order
        ng = C[X_n_goal_rep]
        order = np.arange(ng)
        chance_shuffle(key, ctr, g, RZ_GOALS, order, 0, ng)
        for i in range(C[X_sd1_goal_id]):
            S.M[g, C[X_so_goal_id] + i] = order[i] if i < ng else -1
        for p in range(P):
            for _ in range(start_hand):
                draw_card(S, C, g, p)
        S.event_n[g] = 0
        start_turn(S, C, g)
        advance(S, C, g, scratch)


@njit(cache=True)
def layout_signature():
    """The constants' signature this compiled module was built with (see ``consts.X_LAYOUT_HASH``)."""
    return X_LAYOUT_HASH
