"""Compiled play of tests.toy: the play loop in one kernel, and plan choices for the Python loop.

Written by ``python -m meeplelab.sim.core.compiled tests.toy`` from ``sim/core/data/play_module.py.tmpl``;
``tests/test_compiled_play.py`` checks this file against it. Do not edit by hand.
"""

import numpy as np
from numba import njit

from meeplelab.sim.core.compiled import ST_BOUND, ST_DRAIN, ST_OVER, ST_PYTHON, ST_STUCK, decision_key
from meeplelab.sim.core.cycles import cycles
from tests.toy.decisions import TABLE
from tests.toy.cols import OVER, TO_ACT
from meeplelab.sim.core.context import kernel_context
from tests.toy.choice import plan_choice, restricted_mask
from tests.toy.features import FEATURES, SCORES, features, pending
from tests.toy.routers import apply_at, legal_at
from tests.toy.ismcts import ismcts_choice
from tests.toy.lookahead import heuristic_choice

#: decision kind codes by name (for meeplelab.strategies.plans.compile_plans)
KINDS = TABLE.kind_codes()
N_FEATURES = len(FEATURES)

__all__ = ["KINDS", "FEATURES", "SCORES", "kernel_context", "play", "play_heuristic", "play_plans", "play_kernel",
           "choose_batch", "restrict_batch"]


@njit(cache=True)
def to_act(S, g):
    """The seat to act in game ``g`` (the ``to_act`` column of the game group)."""
    return S.game[g, TO_ACT]


@njit(cache=True)
def is_over(S, g):
    """True when game ``g`` has ended (the ``over`` column of the game group)."""
    return S.game[g, OVER] != 0


def _play_kernel(heuristic: bool, search: bool):
    """The play loop compiled with the compiled heuristic (``heuristic``) and the compiled ISMCTS (``search``) or
    without them: a chooser left out is not compiled into the kernel (numba drops the branch on the constant), so a
    run of plan seats alone compiles neither, and neither recompiles after a rule edit."""

    def play(S, C, prm, rules, conds, acts, seat_rules, compiled_seat, seat_keys, bound, tlim, elim, status, mask, fv, sc,
             key, ctr, heur_seat, H, search_seat, T, R, prof):
        """Play every game of the batch until it ends or must leave the loop (``status[g]``: ST_OVER,
        ST_DRAIN (a log buffer passed ``tlim``/``elim`` rows), ST_PYTHON (a Python seat acts), ST_BOUND
        (ply bound reached unfinished), ST_STUCK (no legal action)). ``seat_keys``: ``uint64[P, B]``;
        ``compiled_seat``: ``bool[P]``; scratch ``mask`` (``bool[A]``), ``fv`` (``int64[len(FEATURES)]``),
        ``sc`` (``int64[A]``: an action score), ``key`` and ``ctr`` (``uint64[1]``: the decision's fresh
        stream). A seat with ``heur_seat[p]`` (``bool[P]``, compiled too) decides by the compiled heuristic
        (``tests.toy.lookahead``, its tables and scratch ``H``: ``meeplelab.strategies.compiled.heuristic_tables``) instead of
        its plan, and a seat with ``search_seat[p]`` (``bool[P]``) by the compiled ISMCTS (``tests.toy.ismcts``, its
        tables ``T``: ``meeplelab.strategies.compiled.search_tables``; its heuristic's rows in ``H``). ``R`` = ``(rseat
        int64[P + 1], rrows, rsets)``, the restriction table (``meeplelab.strategies.restricted.restriction_tables``):
        a seat with rows has its legal actions narrowed (``restricted_mask``) before its chooser sees them.
        ``prof`` (``uint64[K, 4]``, K > the largest decision kind code; K = 0: off) accumulates, per decision kind, the cycles
        (:mod:`meeplelab.sim.core.cycles`) of the legal action mask, the choice and the application, and the decisions taken.
        It allocates nothing itself (compiled without reference counting unless the engine's handlers allocate).
        Returns the plies played."""
        timed = prof.shape[0] > 0
        rseat, rrows, rsets = R
        t0 = t1 = t2 = cycles()
        row0 = np.int64(0)  # the decision stream's row, typed int64 as in choose_batch (a literal compiles again)
        plies = 0
        for g in range(S.ply.shape[0]):
            status[g] = ST_OVER
            fresh = False  # mask holds game g's pending decision's legal actions (apply_at computed them)
            while not is_over(S, g):
                if S.turn_n[g] > tlim or S.event_n[g] > elim:
                    status[g] = ST_DRAIN
                    break
                p = to_act(S, g)
                if not compiled_seat[p]:
                    status[g] = ST_PYTHON
                    break
                if S.ply[g] >= bound:
                    status[g] = ST_BOUND
                    break
                kind = pending(S, g)
                if timed:
                    t0 = cycles()
                if not fresh:
                    legal_at(kind, S, C, prm, g, mask)
                if rseat[p + 1] > rseat[p]:  # a restricted seat (meeplelab.sim.core.restrict): no draw
                    restricted_mask(S, C, prm, g, p, kind, rrows, rsets, rseat[p], rseat[p + 1], fv, sc, mask)
                if timed:
                    t1 = cycles()
                key[0] = decision_key(seat_keys[p, g], S.ply[g])
                ctr[0] = 0
                if search and search_seat[p]:
                    a = ismcts_choice(S, C, prm, g, p, mask, key, ctr, H, T)
                elif heuristic and heur_seat[p]:
                    a = heuristic_choice(S, C, prm, g, p, mask, key, ctr, H)
                else:
                    features(S, C, prm, g, p, fv)
                    a = plan_choice(S, C, prm, g, p, rules, conds, acts, seat_rules[p], seat_rules[p + 1], kind, fv, mask, sc,
                                    key, ctr, row0)
                if a < 0:
                    status[g] = ST_STUCK
                    break
                if timed:
                    t2 = cycles()
                fresh = apply_at(kind, S, C, prm, g, a, mask)
                if timed:
                    t3 = cycles()
                    prof[kind, 0] += t1 - t0
                    prof[kind, 1] += t2 - t1
                    prof[kind, 2] += t3 - t2
                    prof[kind, 3] += 1
                S.ply[g] += 1
                plies += 1
        return plies

    play.__name__ = play.__qualname__ = "play" if search else "play_heuristic" if heuristic else "play_plans"
    return njit(cache=True, _nrt=False)(play)


#: the play loop for every kind of compiled seat: plans, the compiled heuristic and the compiled ISMCTS
play = _play_kernel(True, True)
#: the play loop for plan and heuristic seats (the ISMCTS not compiled in)
play_heuristic = _play_kernel(True, False)
#: the play loop for plan seats alone (neither the heuristic nor the ISMCTS compiled in)
play_plans = _play_kernel(False, False)


def play_kernel(heuristic: bool, search: bool):
    """The play loop compiling only the choosers the seats use: ``heuristic`` when a seat decides by the compiled
    heuristic, ``search`` when one decides by the compiled ISMCTS (the games are the same in each)."""
    return play if search else play_heuristic if heuristic else play_plans


@njit(cache=True)
def choose_batch(S, C, prm, rules, conds, acts, r0, r1, idx, masks, keys, counters, rows, out):
    """Plan choices (rule rows ``r0:r1``) of the games ``idx`` (``int64[n]``) with legal masks ``masks``
    (``bool[n, A]``) into ``out`` (``int64[n]``); game ``idx[i]`` draws from stream ``rows[i]`` of
    ``keys``/``counters`` (a :class:`meeplelab.sim.core.rng.Streams`, advanced as ``choose_legal`` advances it);
    ``masks`` is left as it is (a plan's restriction narrows a copy)."""
    fv = np.zeros(N_FEATURES, np.int64)
    mask = np.zeros(masks.shape[1], np.bool_)
    sc = np.zeros(masks.shape[1], np.int64)
    for i in range(idx.shape[0]):
        g = idx[i]
        p = to_act(S, g)
        features(S, C, prm, g, p, fv)
        mask[:] = masks[i]
        out[i] = plan_choice(S, C, prm, g, p, rules, conds, acts, r0, r1, pending(S, g), fv, mask, sc, keys, counters,
                             rows[i])


@njit(cache=True)
def restrict_batch(S, C, prm, idx, seat, rrows, rsets, r0, r1, masks):
    """The narrowing by restriction rows ``r0:r1`` of ``rrows`` (``restricted_mask``) of the legal masks ``masks``
    (``bool[n, A]``, changed in place) of seat ``seat`` deciding in the games ``idx`` (``int64[n]``): the Python-loop
    path of a restricted strategy (``meeplelab.strategies.restricted.Restricted``), the masks of the play kernel."""
    fv = np.zeros(N_FEATURES, np.int64)
    sc = np.zeros(masks.shape[1], np.int64)
    for i in range(idx.shape[0]):
        g = idx[i]
        restricted_mask(S, C, prm, g, seat, pending(S, g), rrows, rsets, r0, r1, fv, sc, masks[i])
