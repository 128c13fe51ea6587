"""The compiled ISMCTS of meeplelab.sim.unconscious_mind: information-set MCTS inside the play kernel.

Written by ``python -m meeplelab.sim.core.generate`` from ``sim/core/data/ismcts_module.py.tmpl``; ``tests/test_compiled_play.py``
checks this file against it. Do not edit by hand.

:func:`ismcts_choice` makes the choice of :class:`meeplelab.strategies.ismcts.ISMCTS` (and its games' subclasses) for one
decision, on the same streams and with the same arithmetic (``meeplelab.sim.core.ismcts``): the root candidates from the
compiled heuristic's scores (``meeplelab.sim.unconscious_mind.lookahead.heuristic_scores``); then, for every iteration, a copy of the game in
the heuristic's scratch slot with everything the seat cannot know re-sampled from the iteration's stream (keyed by
game, seat, decision and iteration), a walk down the tree (UCT with availability counts, one expansion), a rollout
of ``horizon`` turns with the seat's rollout plan at every seat, and a reward per seat; rewards backed up at the end
of each group of ``par`` iterations. The search stops as soon as the most visited root child leads the others by
more than the iterations left (the root plays the most visited, so the choice is that of every iteration). The tree
lives in ``T`` (``meeplelab.strategies.compiled.search_tables``), preallocated once per batch: nothing is allocated and nothing
returns to Python.
"""

import numpy as np
from numba import njit

from meeplelab.sim.core.ismcts import (A_CAP, A_C, A_DEPTH, A_GAP, A_HORIZON, A_ITERS, A_PAR, A_PRIOR, A_SCALE, A_SUB, A_TOP,
                             A_VP, A_WIDEN, best_root, decided, is_searched, iteration_key, reward_of, rotated_legal, seed_root,
                             select_node, select_root, top_candidates, top_two_gap, tree_clear)
from meeplelab.sim.core.lookahead import pick_best_one
from meeplelab.sim.core.lookahead import copy_game, weighted_value
from meeplelab.sim.core.rng import draw_u64, draw_uniform
from meeplelab.sim.unconscious_mind.choice import plan_choice
from meeplelab.sim.unconscious_mind.cols import OVER, TO_ACT
from meeplelab.sim.unconscious_mind.features import VALUE_FEATURES, features, pending, turn_of, value_features
from meeplelab.sim.unconscious_mind.routers import apply_at, legal_at
from meeplelab.sim.unconscious_mind.hidden import redeterminize_one
from meeplelab.sim.unconscious_mind.lookahead import heuristic_scores

#: this engine plays ISMCTS inside the play kernel (meeplelab.sim.core.ismcts.search_specs)
COMPILED_SEARCH = True

__all__ = ["COMPILED_SEARCH", "VALUE_FEATURES", "ismcts_choice", "rollout"]


@njit(cache=True, _nrt=False)
def rollout(D, C, prm, t0, horizon, cap, rules, conds, acts, r0, r1, mask, fv, sc, ikey, ictr):
    """Play scratch game 0 on until ``horizon`` turns past turn ``t0`` (or its end), every seat by the plan of rule
    rows ``r0:r1`` drawing from the iteration stream ``ikey``/``ictr``, for at most ``cap`` plies
    (``meeplelab.strategies.search.continue_for``; log counters emptied after every ply)."""
    z = np.int64(0)  # game 0 and stream 0 as a variable: a literal 0 would compile every callee a second time
    fresh = False
    for _ in range(cap):
        if D.game[0, OVER] != 0 or turn_of(D, z) - t0 >= horizon:
            return
        kind = pending(D, z)
        if not fresh:
            legal_at(kind, D, C, prm, z, mask)
        q = D.game[0, TO_ACT]
        features(D, C, prm, z, q, fv)
        b = plan_choice(D, C, prm, z, q, rules, conds, acts, r0, r1, kind, fv, mask, sc, ikey, ictr, z)
        if b < 0:
            return
        fresh = apply_at(kind, D, C, prm, z, b, mask)
        D.ply[0] += 1
        D.turn_n[0] = 0
        D.event_n[0] = 0


@njit(cache=True, _nrt=False)
def ismcts_choice(S, C, prm, g, p, mask, key, ctr, H, T):
    """The ISMCTS action of seat ``p`` in game ``g`` with legal actions ``mask`` (``bool[A]``), drawing from the
    decision stream ``key``/``ctr`` (``uint64[1]``, counter at 0): its first draw keys the iterations, the next
    ones are the heuristic's (root candidates). A decision of a kind not in ``kinds`` is searched with ``sub``
    iterations; one with no iterations (``sub=0``), or whose heuristic's best two scores are ``gap`` or more apart,
    gets the heuristic's choice on those draws. ``H`` from :func:`meeplelab.strategies.compiled.heuristic_tables` (its scratch
    game slot holds the iteration's copy; seat ``p``'s rows: the search's heuristic), ``T`` from
    :func:`meeplelab.strategies.compiled.search_tables`. The only legal action without a search; -1 when nothing is legal."""
    (sprm, kmask, prules, pconds, pacts, pseat, nn, nw, nav, nact, nfirst, nnext, cnt, pnode, pmover, plen, rew,
     cand, marg, used, tmask, pmask, fv, sc, vf, vals, vps, ikey, ictr) = T
    D = H[0]
    pool = H[11]
    scores = H[14]
    widx = H[6]
    wval = H[7]
    z = np.int64(0)  # game 0 and stream 0 as a variable (see rollout)
    A = mask.shape[0]
    nl = 0
    only = -1
    for a in range(A):
        if mask[a]:
            nl += 1
            only = a
    if nl <= 1:
        return only
    top = np.int64(sprm[p, A_TOP])
    horizon = np.int64(sprm[p, A_HORIZON])
    c = sprm[p, A_C]
    scale = sprm[p, A_SCALE]
    prior = sprm[p, A_PRIOR]
    depth = np.int64(sprm[p, A_DEPTH])
    par = np.int64(sprm[p, A_PAR])
    widen = sprm[p, A_WIDEN]
    cap = np.int64(sprm[p, A_CAP])
    ivp = np.int64(sprm[p, A_VP])
    r0 = pseat[p]
    r1 = pseat[p + 1]
    P = vals.shape[0]
    base = draw_u64(key, ctr, z)  # one draw per decision keys every iteration
    iters = np.int64(sprm[p, A_ITERS] if is_searched(kmask, sprm, p, pending(S, g)) else sprm[p, A_SUB])
    if top > 0 or iters == 0:
        u = heuristic_scores(S, C, prm, g, p, mask, key, ctr, H)
        if iters == 0 or (sprm[p, A_GAP] > 0 and top > 0 and top_two_gap(scores, mask) >= sprm[p, A_GAP]):
            return pick_best_one(scores, mask, u)  # left to the heuristic: its choice
        k = top_candidates(scores, mask, top, cand, marg)
    else:
        k = rotated_legal(mask, draw_uniform(key, ctr, z), cand)
    tree_clear(nn, nw, nav, nact, nfirst, nnext, cnt)
    if prior > 0 and top > 0:
        seed_root(nn, nw, nav, nact, nfirst, nnext, cnt, cand, marg, k, prior, scale)
    it0 = np.int64(0)
    while it0 < iters:
        m = min(par, iters - it0)  # a group: visits count at once (virtual loss), rewards at the group's end
        for j in range(m):
            ikey[0] = iteration_key(base, it0 + j)
            ictr[0] = 0
            copy_game(S, g, D, z)
            D.rng_key[0] = draw_u64(ikey, ictr, z)  # every chance event of the copy from the searcher's stream
            redeterminize_one(D, C, prm, z, p, ikey, ictr, z, pool)
            t_root = turn_of(D, z)
            node = np.int64(0)
            n_path = 0
            for _ in range(depth):
                if D.game[0, OVER] != 0:
                    break
                kind = pending(D, z)
                legal_at(kind, D, C, prm, z, tmask)
                who = D.game[0, TO_ACT]
                u = draw_uniform(ikey, ictr, z)
                if node == 0:
                    a, ch, expanded = select_root(nn, nw, nav, nact, nfirst, nnext, cnt, cand, k, c)
                else:
                    pa = np.int64(-1)
                    if widen > 0:  # the rollout plan's action, expanded first below the root
                        for b in range(A):
                            pmask[b] = tmask[b]
                        features(D, C, prm, z, who, fv)
                        pa = plan_choice(D, C, prm, z, who, prules, pconds, pacts, r0, r1, kind, fv, pmask, sc, ikey,
                                         ictr, z)
                    a, ch, expanded = select_node(nn, nw, nav, nact, nfirst, nnext, cnt, node, tmask, used, u, c,
                                                  widen, pa)
                nn[ch] += 1.0  # a visit now (virtual loss until the group's rewards are backed up)
                pnode[j, n_path] = ch
                pmover[j, n_path] = who
                n_path += 1
                apply_at(kind, D, C, prm, z, a, tmask)
                D.ply[0] += 1
                D.turn_n[0] = 0
                D.event_n[0] = 0
                if expanded:
                    break
                node = ch
            plen[j] = n_path
            # with widening the horizon counts from the root's turn, otherwise from the expanded node's
            t0 = t_root if widen > 0 else turn_of(D, z)
            rollout(D, C, prm, t0, horizon, cap, prules, pconds, pacts, r0, r1, tmask, fv, sc, ikey, ictr)
            for q in range(P):
                value_features(D, C, prm, z, q, vf)
                vals[q] = weighted_value(vf, widx, wval, p)
                vps[q] = vf[ivp]
            over = D.game[0, OVER] != 0
            for q in range(P):
                rew[j, q] = reward_of(vals, vps, q, over, scale)
            if decided(nn, nfirst, nnext, iters - it0 - j - 1):
                return best_root(nn, nw, nact, nfirst, nnext, cand[0])  # the rest cannot change the choice
        for j in range(m):
            for i in range(plen[j]):
                nw[pnode[j, i]] += rew[j, pmover[j, i]]
        it0 += m
    return best_root(nn, nw, nact, nfirst, nnext, cand[0])
