"""The compiled heuristic of meeplelab.sim.galileos_truth: one-step lookahead inside the play kernel.

Written by ``python -m meeplelab.sim.core.compiled meeplelab.sim.galileos_truth`` from ``sim/core/data/lookahead_module.py.tmpl``;
``tests/test_compiled_play.py`` checks this file against it. Do not edit by hand.

:func:`heuristic_choice` makes the choice of :class:`meeplelab.strategies.generic.Heuristic` (and its games' subclasses)
for one decision, on the same streams and with the same float arithmetic: for every legal action, in action
order, a copy of the game in a scratch slot (fresh logs), hidden information re-sampled from the candidate's
stream (the decision stream's first draw mixed with the action: ``search.derived_streams``), the action
applied, the seat's turn finished by the seat's finishing plan from the same stream, the copy valued by the
weighted feature margin (``search.value``); the best by ``search.pick_best`` with the decision stream's
second draw. The engine provides ``features.VALUE_FEATURES``, ``value_features``, ``turn_of`` and
``hidden.redeterminize_one``.
"""

import numpy as np
from numba import njit

from meeplelab.sim.core.lookahead import (copy_game, only_legal, pick_best_one, uniform_pick, weighted_margin,
                                         weighted_value)
from meeplelab.sim.core.rng import candidate_key, draw_u64, draw_uniform
from meeplelab.sim.galileos_truth.choice import plan_choice
from meeplelab.sim.galileos_truth.cols import OVER, TO_ACT
from meeplelab.sim.galileos_truth.features import VALUE_FEATURES, features, pending, turn_of, value_features
from meeplelab.sim.galileos_truth.routers import apply_at, legal_at
from meeplelab.sim.galileos_truth.hidden import redeterminize_one

#: this engine plays the heuristic inside the play kernel (meeplelab.strategies.compiled.heuristic_tables)
COMPILED_HEURISTIC = True

__all__ = ["COMPILED_HEURISTIC", "VALUE_FEATURES", "heuristic_choice", "heuristic_scores"]


@njit(cache=True, _nrt=False)
def finish_turn(D, C, prm, p, t0, rules, conds, acts, r0, r1, max_plies, hmask, hfv, hsc, ckey, cctr, fresh):
    """Play seat ``p``'s turn (begun at turn counter ``t0``) to its end in scratch game 0 with the plan of rule
    rows ``r0:r1``, for at most ``max_plies`` plies, drawing from ``ckey``/``cctr`` (``finish_turn`` of the
    Python heuristic: log counters emptied after every ply). ``fresh``: ``hmask`` (``bool[A]``) already holds the
    pending decision's legal actions (``apply_at`` computed them), so its first ply does not compute them again.
    The empty plan (no rule rows: uniform sub-decisions) draws as ``plan_choice`` does, through
    :func:`meeplelab.sim.core.lookahead.uniform_pick` (one pass over the mask), without the plan's features."""
    z = np.int64(0)  # game 0 and stream 0 as a variable: a literal 0 would compile every callee a second time
    for _ in range(max_plies):
        if D.game[0, OVER] != 0 or turn_of(D, z) != t0 or D.game[0, TO_ACT] != p:
            return
        kind = pending(D, z)
        if not fresh:
            legal_at(kind, D, C, prm, z, hmask)
        if r1 > r0:
            features(D, C, prm, z, p, hfv)
            b = plan_choice(D, C, prm, z, p, rules, conds, acts, r0, r1, kind, hfv, hmask, hsc, ckey, cctr, z)
        else:
            b = uniform_pick(hmask, hsc, ckey, cctr, z)
        if b < 0:
            return
        fresh = apply_at(kind, D, C, prm, z, b, hmask)
        D.ply[0] += 1
        D.turn_n[0] = 0
        D.event_n[0] = 0


@njit(cache=True, _nrt=False)
def heuristic_scores(S, C, prm, g, p, mask, key, ctr, H):
    """The heuristic's score of every legal action (``mask``, ``bool[A]``) for seat ``p`` in game ``g``, written to
    ``H``'s ``scores`` (``float64[A]``; other entries left as they were), drawing from the decision stream
    ``key``/``ctr`` (``uint64[1]``): its next draw is the base of every candidate's stream, the one after it is
    returned (the tie-break uniform of ``search.pick_best``). ``H`` from :func:`meeplelab.strategies.compiled.heuristic_tables`
    (seat ``p``'s rows: its weights, finishing plan and plies). The root candidates of the compiled ISMCTS
    (``meeplelab.sim.galileos_truth.ismcts``) are the best of these scores."""
    (D, rules, conds, acts, seat_rules, max_plies, widx, wval, finish, hmask, hfv, pool, vf, vals, scores,
     ckey, cctr, hsc) = H
    z = np.int64(0)  # game 0 and stream 0 as a variable (see finish_turn)
    base = draw_u64(key, ctr, z)
    u = draw_uniform(key, ctr, z)
    P = vals.shape[0]
    for a in range(mask.shape[0]):
        if not mask[a]:
            continue
        ckey[0] = candidate_key(base, a)
        cctr[0] = 0
        copy_game(S, g, D, z)
        t0 = turn_of(D, z)
        D.rng_key[0] = draw_u64(ckey, cctr, z)
        redeterminize_one(D, C, prm, z, p, ckey, cctr, z, pool)
        fresh = apply_at(pending(D, z), D, C, prm, z, a, hmask)
        D.ply[0] += 1
        if finish[p]:
            finish_turn(D, C, prm, p, t0, rules, conds, acts, seat_rules[p], seat_rules[p + 1], max_plies[p], hmask,
                        hfv, hsc, ckey, cctr, fresh)
        for q in range(P):
            value_features(D, C, prm, z, q, vf)
            vals[q] = weighted_value(vf, widx, wval, p)
        scores[a] = weighted_margin(vals, p)
    return u


@njit(cache=True, _nrt=False)
def heuristic_choice(S, C, prm, g, p, mask, key, ctr, H):
    """The heuristic's action for seat ``p`` in game ``g`` with legal actions ``mask`` (``bool[A]``), drawing
    from the decision stream ``key``/``ctr`` (``uint64[1]``, counter at 0); ``H`` from
    :func:`meeplelab.strategies.compiled.heuristic_tables`. -1 when nothing is legal. The only legal action is
    taken without valuing it (the scores only rank the legal actions; the decision stream is the decision's own)."""
    only = only_legal(mask)
    if only != -2:
        return only
    u = heuristic_scores(S, C, prm, g, p, mask, key, ctr, H)
    return pick_best_one(H[14], mask, u)
