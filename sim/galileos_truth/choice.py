"""Plan choices of meeplelab.sim.galileos_truth: a compiled plan's action for one decision, with the engine's action scores.

Written by ``python -m meeplelab.sim.core.compiled meeplelab.sim.galileos_truth`` from ``sim/core/data/choice_module.py.tmpl``;
``tests/test_compiled_play.py`` checks this file against it. Do not edit by hand. Imported by the engine's
play module (the play loop, ``choose_batch``) and its lookahead module (the compiled heuristic's finishing plan);
``restricted_mask`` narrows a restricted seat's legal actions (``meeplelab.sim.core.restrict``) before any chooser.
"""

from numba import njit

from meeplelab.sim.core.compiled import (ANY_KIND, RESTRICT_KIND, compare, conditions_hold, restrict, rule_choice,
                                         uniform_choice)
from meeplelab.sim.core.restrict import RR_FEAT, RR_KIND, RR_MODE, RR_OP, RR_SCORE, RR_SET, RR_VAL, narrow
from meeplelab.sim.galileos_truth.features import action_scores, features

__all__ = ["plan_choice", "restricted_mask"]


@njit(cache=True, _nrt=False)
def plan_choice(S, C, prm, g, p, rules, conds, acts, r0, r1, kind, fv, mask, sc, keys, counters, row):
    """The action of seat ``p``'s plan (rule rows ``r0:r1``) in game ``g`` waiting for decision ``kind``:
    the plan's restriction (a ``RESTRICT_KIND`` row: ``mask`` is narrowed in place), then the first rule
    whose kind matches, whose conditions hold on ``fv`` and which keeps a legal preferred action decides
    (its action score, if any, filled into the scratch ``sc``, ``int64[A]``); otherwise uniform over
    ``mask``. One draw of stream ``row`` of ``keys``/``counters``; -1 when nothing is legal."""
    for r in range(r0, r1):
        k = rules[r, 0]
        if k == RESTRICT_KIND:
            action_scores(S, C, prm, g, p, rules[r, 5], sc)
            restrict(mask, sc)
            continue
        if k != ANY_KIND and k != kind:
            continue
        if not conditions_hold(conds, rules[r, 1], rules[r, 2], fv):
            continue
        if rules[r, 5] >= 0:
            action_scores(S, C, prm, g, p, rules[r, 5], sc)
        a = rule_choice(acts, rules[r, 3], rules[r, 4], rules[r, 6], sc, mask, keys, counters, row)
        if a >= 0:
            return a
    return uniform_choice(mask, keys, counters, row)


@njit(cache=True, _nrt=False)
def restricted_mask(S, C, prm, g, p, kind, rrows, rsets, r0, r1, fv, sc, mask):
    """Narrow ``mask`` (``bool[A]``, the legal actions of seat ``p`` in game ``g`` waiting for decision ``kind``) in
    place by the restriction rows ``r0:r1`` of ``rrows`` (their action sets in ``rsets``, ``bool[S, A]``), in order:
    a row applies at its kind (or every kind) when its condition holds on the seat's features (computed into the
    scratch ``fv`` once, when a row has a condition); its action score, if any, goes to the scratch ``sc``
    (``int64[A]``). A legal mask is never emptied (``meeplelab.sim.core.restrict.narrow``); nothing is drawn."""
    have_fv = False
    for r in range(r0, r1):
        k = rrows[r, RR_KIND]
        if k != ANY_KIND and k != kind:
            continue
        f = rrows[r, RR_FEAT]
        if f >= 0:
            if not have_fv:
                features(S, C, prm, g, p, fv)
                have_fv = True
            if not compare(fv[f], rrows[r, RR_OP], rrows[r, RR_VAL]):
                continue
        s = rrows[r, RR_SCORE]
        if s >= 0:
            action_scores(S, C, prm, g, p, s, sc)
        narrow(rrows[r, RR_MODE], rsets[rrows[r, RR_SET]], s >= 0, sc, mask)
