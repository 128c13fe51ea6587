"""Plan choices of meeplelab.sim.unconscious_mind: a compiled plan's action for one decision, with the engine's action scores.

Written by ``python -m meeplelab.sim.core.compiled meeplelab.sim.unconscious_mind`` from ``sim/core/data/choice_module.py.tmpl``;
``tests/test_compiled_play.py`` checks this file against it. Do not edit by hand. Imported by the engine's
play module (the play loop, ``choose_batch``) and its lookahead module (the compiled heuristic's finishing plan).
"""

from numba import njit

from meeplelab.sim.core.compiled import ANY_KIND, RESTRICT_KIND, conditions_hold, restrict, rule_choice, uniform_choice
from meeplelab.sim.unconscious_mind.features import action_scores

__all__ = ["plan_choice"]


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
