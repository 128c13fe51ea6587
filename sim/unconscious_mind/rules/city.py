"""The City: tags, Locations, districts and goal tiles (seed 000 §Moving your Professor or Freud;
research UM §5; A-UM-26, A-UM-29, A-UM-32, A-UM-33). Decisions: ``D_PROF``, ``D_FREUD``, ``D_LOCTRIG``,
``D_LOCEFF``, ``D_RECALLB`` (the Location or district bonus after Recall).
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler

from ..codes import (COLOUR_DISTRICT, C_BONUS, C_DISTRICT, C_FREUD, C_GOAL, C_LOCATION, C_PROFESSOR,
                     D_LOCEFF, D_LOCTRIG, EV_BONUS, EV_BRIGHT, EV_GOAL, EV_MOVE, GOAL_CURED, GOAL_TAGS,
                     GOAL_TREATISES, K_EFFECT, L_INPLAY)
from ..cols import (BRIGHT, CARD_LOC, CARD_OWN, CL_OWNER, CURED, DIST_LEFT, DIST_SLOT, DIST_SLOT_W, FREUD_LOC,
                    GOAL_ID, GOAL_OWNER, LOC_COV, LOC_COV_W, PROF_LOC, SP, STK_A, STK_B, STK_KIND, TR_OWNER)
from ..kcols import CARD_TAG, CL_TAG, DIST_REW, GOAL_COND, GOAL_REP, GOAL_TAG, LOC_BON, LOC_DIST, LOC_EFF, TR_TAGS
from ..pcols import (LOCATION_EFFECTS_ANY, LOCATION_EFFECTS_DISTINCT, LOCATION_EFFECTS_ORDER,
                     PRM_DISTRICT_REP_TOKENS, PRM_DISTRICT_THRESHOLDS, PRM_DISTRICT_TOKENS, PRM_FREUD_MAX_MOVE,
                     PRM_LOCATION_BRIGHT_BONUS, PRM_LOCATION_CAP, PRM_LOCATION_EFFECTS, PRM_PROFESSOR_MAX_MOVE)
from ..actions import CH_FREUD_ADVANCE, CH_LOCEFF, CH_LOCTRIG, CH_PROF_ADVANCE, CH_RECALL_BONUS, CH_RECALL_DISTRICT, CH_TO_FREUD, DONE, N_DISTRICT_SLOTS, N_LOC_BONUS, N_LOC_EFFECTS
from ..state import N_LOCATIONS, WK_TAGS
from ..content_layout import KBOARD, KCARD, KCLIENT, KTR
from .events import ev
from .stack import push
from .insight import has_colour, take_colour
from .reputation import gain_rep


@njit(cache=True, _nrt=False)
def tags_at(S, C, prm, g, p, loc):
    """Seat p's tags of Location ``loc``: in-play cards, own Treatises, cured clients, claimed goal tiles (A-UM-32;
    seed 000 §Publishing a Treatise: covered cards' tags no longer count)."""
    n = 0
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p and C.K[KCARD, c, CARD_TAG] == loc:
            n += 1
    for t in range(S.treatise.shape[1]):
        if S.treatise[g, t, TR_OWNER] == p:
            for k in range(2):
                if C.K[KTR, t, TR_TAGS + k] == loc:
                    n += 1
    for cl in range(S.client.shape[1]):
        if S.client[g, cl, CL_OWNER] == p and C.K[KCLIENT, cl, CL_TAG] == loc:
            n += 1
    for i in range(S.goal.shape[1]):
        if S.goal[g, i, GOAL_ID] >= 0 and S.goal[g, i, GOAL_OWNER] == p and C.K[KBOARD, S.goal[g, i, GOAL_ID], GOAL_TAG] == loc:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def district_tags(S, C, prm, g, p, d):
    """Seat p's tags of the Locations of district ``d`` (research UM §5)."""
    n = 0
    for loc in range(N_LOCATIONS):
        if C.K[KBOARD, loc, LOC_DIST] == d:
            n += tags_at(S, C, prm, g, p, loc)
    return n


@njit(cache=True, _nrt=False)
def goal_met(S, C, prm, g, p, gid):
    """True when seat p meets the condition of goal tile ``gid`` (A-UM-16)."""
    op = C.K[KBOARD, gid, GOAL_COND + 0]
    a = C.K[KBOARD, gid, GOAL_COND + 1]
    n = C.K[KBOARD, gid, GOAL_COND + 2]
    if op == GOAL_TAGS:
        return tags_at(S, C, prm, g, p, a) >= n
    if op == GOAL_CURED:
        return S.seat[g, p, CURED] >= n
    if op == GOAL_TREATISES:
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


@njit(cache=True, _nrt=False)
def tags_by_location(S, C, prm, g, p, out):
    """``out[loc]`` (``int64[N_LOCATIONS]``) = :func:`tags_at` of every Location, in one pass (A-UM-32)."""
    for loc in range(N_LOCATIONS):
        out[loc] = 0
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p:
            tag = C.K[KCARD, c, CARD_TAG]
            if 0 <= tag < N_LOCATIONS:
                out[tag] += 1
    for t in range(S.treatise.shape[1]):
        if S.treatise[g, t, TR_OWNER] == p:
            for k in range(2):
                tag = C.K[KTR, t, TR_TAGS + k]
                if 0 <= tag < N_LOCATIONS:
                    out[tag] += 1
    for cl in range(S.client.shape[1]):
        if S.client[g, cl, CL_OWNER] == p:
            tag = C.K[KCLIENT, cl, CL_TAG]
            if 0 <= tag < N_LOCATIONS:
                out[tag] += 1
    for i in range(S.goal.shape[1]):
        if S.goal[g, i, GOAL_ID] >= 0 and S.goal[g, i, GOAL_OWNER] == p:
            tag = C.K[KBOARD, S.goal[g, i, GOAL_ID], GOAL_TAG]
            if 0 <= tag < N_LOCATIONS:
                out[tag] += 1


@njit(cache=True, _nrt=False)
def check_goals(S, C, prm, g, p):
    """Seat p claims every goal tile whose condition it meets, gaining its reputation (research UM §7; A-UM-29).
    Returns the number of tiles claimed (0: the state is unchanged).

    Runs at every decision, so tag conditions read the seat's tags of every Location counted once
    (:func:`tags_by_location`, scratch row ``S.work[WK_TAGS]``), counted again after a claim (a claimed tile
    adds its own tag): the same result as :func:`goal_met` goal by goal."""
    tags = S.work[WK_TAGS]
    fresh = False
    claimed = 0
    for i in range(S.goal.shape[1]):
        gid = S.goal[g, i, GOAL_ID]
        if gid < 0 or S.goal[g, i, GOAL_OWNER] >= 0:
            continue
        if C.K[KBOARD, gid, GOAL_COND + 0] == GOAL_TAGS:
            loc = C.K[KBOARD, gid, GOAL_COND + 1]
            if not fresh:
                tags_by_location(S, C, prm, g, p, tags)
                fresh = True
            n = tags[loc] if 0 <= loc < N_LOCATIONS else 0
            met = n >= C.K[KBOARD, gid, GOAL_COND + 2]
        else:
            met = goal_met(S, C, prm, g, p, gid)
        if met:
            S.goal[g, i, GOAL_OWNER] = p
            ev(S, C, prm, g, EV_GOAL, p, C_GOAL, C.K[KBOARD, gid, GOAL_REP], -1, gid, 0, 0)
            gain_rep(S, C, prm, g, p, C.K[KBOARD, gid, GOAL_REP], C_GOAL)
            fresh = False
            claimed += 1
    return claimed


@handler
def legal_prof(S, C, prm, g, p, a, b, out):
    """Advance the Professor 1-2 Locations or straight to Freud's Location from elsewhere (seed 000 §Moving your
    Professor or Freud)."""
    for i in range(prm[PRM_PROFESSOR_MAX_MOVE]):
        out[CH_PROF_ADVANCE + i] = True
    if S.seat[g, p, PROF_LOC] != S.game[g, FREUD_LOC]:
        out[CH_TO_FREUD] = True


@handler
def legal_freud(S, C, prm, g, p, a, b, out):
    """Advance Freud 1-3 Locations clockwise (seed 000 §Moving your Professor or Freud)."""
    for i in range(prm[PRM_FREUD_MAX_MOVE]):
        out[CH_FREUD_ADVANCE + i] = True


@handler
def legal_loctrig(S, C, prm, g, p, a, b, out):
    """Trigger the Location once per figure or per tag, optionally +2 with a Bright Idea, or decline (seed 000
    §Moving your Professor or Freud; research UM §5)."""
    out[DONE] = True
    for per_tag in range(2):  # the trigger's index: 2 * (with a Bright Idea) + (per tag, not per figure)
        out[CH_LOCTRIG + per_tag] = True
        if S.seat[g, p, BRIGHT] > 0:
            out[CH_LOCTRIG + 2 + per_tag] = True


@handler
def legal_loceff(S, C, prm, g, p, a, b, out):
    """One of the Location's three effects (A-UM-26, ``location_effects``): any of them ('any', the same again
    allowed), one not taken yet in this trigger ('distinct', ``b``: bit k = effect k taken; none left: nothing, so
    the decision is skipped), or the next in printed order ('order', ``b``: resolutions done)."""
    rule = prm[PRM_LOCATION_EFFECTS]
    if rule == LOCATION_EFFECTS_ORDER:
        out[CH_LOCEFF + b % N_LOC_EFFECTS] = True
        return
    for k in range(N_LOC_EFFECTS):
        if rule == LOCATION_EFFECTS_ANY or (b >> k) & 1 == 0:
            out[CH_LOCEFF + k] = True


@handler
def legal_recallb(S, C, prm, g, p, a, b, out):
    """A Location bonus at the Professor's or Freud's Location, or a district bonus with enough tags and a
    player-colour Insight (research UM §2, §5; A-UM-33)."""
    out[DONE] = True
    for w in range(2):
        loc = S.seat[g, p, PROF_LOC] if w == 0 else S.game[g, FREUD_LOC]
        d = C.K[KBOARD, loc, LOC_DIST]
        if S.game[g, DIST_LEFT + d] <= 0:
            continue
        for k in range(N_LOC_BONUS):
            if S.game[g, LOC_COV + loc * LOC_COV_W + k] == 0:
                out[CH_RECALL_BONUS + w * N_LOC_BONUS + k] = True
        if has_colour(S, C, prm, g, p):
            nt = district_tags(S, C, prm, g, p, d)
            for s in range(N_DISTRICT_SLOTS):
                if S.game[g, DIST_SLOT + d * DIST_SLOT_W + s] < 0 and nt >= prm[PRM_DISTRICT_THRESHOLDS + s]:
                    out[CH_RECALL_DISTRICT + w * N_DISTRICT_SLOTS + s] = True


@handler
def apply_prof(S, C, prm, g, p, act, a, b, c):
    """Move the Professor, then offer the new Location's effects (seed 000 §Moving your Professor or Freud)."""
    ch = act - CH_PROF_ADVANCE
    if act == CH_TO_FREUD:
        S.seat[g, p, PROF_LOC] = S.game[g, FREUD_LOC]
    else:
        S.seat[g, p, PROF_LOC] = (S.seat[g, p, PROF_LOC] + ch + 1) % N_LOCATIONS
    ev(S, C, prm, g, EV_MOVE, p, C_PROFESSOR, ch + 1 if act != CH_TO_FREUD else 0, -1, S.seat[g, p, PROF_LOC], 0, 0)
    push(S, C, prm, g, D_LOCTRIG, S.seat[g, p, PROF_LOC], 0, 0)


@handler
def apply_freud(S, C, prm, g, p, act, a, b, c):
    """Move Freud, then offer the new Location's effects (seed 000 §Moving your Professor or Freud)."""
    ch = act - CH_FREUD_ADVANCE
    S.game[g, FREUD_LOC] = (S.game[g, FREUD_LOC] + ch + 1) % N_LOCATIONS
    ev(S, C, prm, g, EV_MOVE, p, C_FREUD, ch + 1, -1, S.game[g, FREUD_LOC], 0, 0)
    push(S, C, prm, g, D_LOCTRIG, S.game[g, FREUD_LOC], 0, 0)


@handler
def apply_loctrig(S, C, prm, g, p, act, a, b, c):
    """Count the resolutions (cap ``location_cap``, research UM §5) and push one ``D_LOCEFF`` per resolution."""
    if act == DONE:
        return
    loc = a
    bright, per_tag = (act - CH_LOCTRIG) // 2, (act - CH_LOCTRIG) % 2
    if per_tag == 0:
        base = 0
        for q in range(S.seat.shape[1]):
            if S.seat[g, q, PROF_LOC] == loc:
                base += 1
        if S.game[g, FREUD_LOC] == loc:
            base += 1
    else:
        base = tags_at(S, C, prm, g, p, loc)
    if bright == 1:
        S.seat[g, p, BRIGHT] -= 1
        ev(S, C, prm, g, EV_BRIGHT, p, C_LOCATION, -1, -1, loc, 0, 0)
        base += prm[PRM_LOCATION_BRIGHT_BONUS]
    n = min(base, prm[PRM_LOCATION_CAP])
    for _ in range(n):
        push(S, C, prm, g, D_LOCEFF, loc, 0, 0)


@handler
def apply_loceff(S, C, prm, g, p, act, a, b, c):
    """Resolve the chosen Location effect (A-UM-26). Unless any effect may come again ('any'), the trigger's
    remaining resolutions (the ``D_LOCEFF`` entries of Location ``a`` right below, pushed together) learn what was
    taken: the effect's bit ('distinct') or one more resolution done ('order')."""
    if act == DONE:
        return
    k = act - CH_LOCEFF
    rule = prm[PRM_LOCATION_EFFECTS]
    if rule != LOCATION_EFFECTS_ANY:
        i = S.game[g, SP] - 1
        while i >= 0 and S.stk[g, i, STK_KIND] == D_LOCEFF and S.stk[g, i, STK_A] == a:
            S.stk[g, i, STK_B] = b | (1 << k) if rule == LOCATION_EFFECTS_DISTINCT else b + 1
            i -= 1
    push(S, C, prm, g, K_EFFECT, C.K[KBOARD, a, LOC_EFF + k], C_LOCATION, -1)


@handler
def apply_recallb(S, C, prm, g, p, act, a, b, c):
    """Take the bonus: cover the Location slot (district token, reputation on the top tokens, A-UM-09) or take the
    district slot with a player-colour Insight (research UM §5; A-UM-22)."""
    if act == DONE:
        return
    bonus = act < CH_RECALL_DISTRICT
    i = act - CH_RECALL_BONUS if bonus else act - CH_RECALL_DISTRICT
    w = i // N_LOC_BONUS if bonus else i // N_DISTRICT_SLOTS  # 0 the Professor's Location, 1 Freud's
    loc = S.seat[g, p, PROF_LOC] if w == 0 else S.game[g, FREUD_LOC]
    d = C.K[KBOARD, loc, LOC_DIST]
    token = prm[PRM_DISTRICT_TOKENS] - S.game[g, DIST_LEFT + d]
    S.game[g, DIST_LEFT + d] -= 1
    if bonus:
        k = i % N_LOC_BONUS
        S.game[g, LOC_COV + loc * LOC_COV_W + k] = 1
        ev(S, C, prm, g, EV_BONUS, p, C_BONUS, 0, -1, loc * 3 + k, 0, token)
        push(S, C, prm, g, K_EFFECT, C.K[KBOARD, loc, LOC_BON + k], C_BONUS, -1)
        if token < prm[PRM_DISTRICT_REP_TOKENS]:
            gain_rep(S, C, prm, g, p, 1, C_BONUS)
    else:
        s = i % N_DISTRICT_SLOTS
        S.game[g, DIST_SLOT + d * DIST_SLOT_W + s] = p
        ev(S, C, prm, g, EV_BONUS, p, C_DISTRICT, 0, -1, d * 4 + s, 0, token)
        push(S, C, prm, g, K_EFFECT, C.K[KBOARD, d, DIST_REW + s], C_DISTRICT, -1)
        take_colour(S, C, prm, g, p, COLOUR_DISTRICT)  # after the push: a D_COLOUR choice comes before the reward
