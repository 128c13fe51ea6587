"""The decision routers of Unconscious Mind: the legal action mask and the application of one pending decision, as
the play loop, the compiled heuristic and the ISMCTS call them (``legal_at``, ``apply_at``; docs/engine_guide.md).

Kept apart from ``features.py`` (which reads the state and never runs a rule): these link the rule handlers
(rules.loop), so a rule edit recompiles them and what calls them, not the feature and score kernels.
Both are inlined into their callers (``inline="always"``: numba's IR inlining), so the play loop, the
heuristic and the ISMCTS link the dispatchers themselves and no separate router library re-optimises the whole
engine once more after a rule edit.
"""

from numba import njit, typeof, types

from .rules import dispatch, inkpot, notebook, research, scoring
from .rules.clients import therapy_move
from .rules.insight import generate
from .rules.reputation import freud_step
from .rules.loop import advance, apply_one, batch_setup, mask_row


@njit(cache=True, _nrt=False, inline="always")
def legal_at(kind, S, C, prm, g, out):
    """The legal action mask (``bool[A]``, overwritten) of the decision on top of game ``g``'s stack
    (``rules.loop.mask_row``: never empty, DONE when nothing else, A-UM-20); ``kind`` is that decision."""
    mask_row(S, C, prm, g, out)


@njit(cache=True, _nrt=False, inline="always")
def apply_at(kind, S, C, prm, g, a, scratch):
    """Apply action ``a`` to the decision on top of game ``g``'s stack and run the automatic entries up to the
    next decision (``rules.loop.apply_one``, ``advance``; ``scratch``: a free ``bool[A]``), as
    ``UnconsciousMind.step`` does. Returns True when ``scratch`` then holds the next decision's legal action
    mask (``advance`` computed it to skip forced decisions), so the play loop need not compute it again."""
    apply_one(S, C, prm, g, a)
    return advance(S, C, prm, g, scratch)


def compile_parts(S, C, prm, mask) -> tuple[list, list]:
    """The rule kernels a cold start compiles ahead in two processes at once
    (:func:`meeplelab.play.warmup.compiling_apart`), as ``(dispatcher, argument types)`` pairs with the types
    ``apply_one``, ``advance`` and ``mask_row`` call them with (``kind`` and the entry's ``a, b, c``: the ``stk``
    group's integer type; the seat: the ``game`` group's; ``g`` and the action int64; ``mask``: a ``bool[A]``):
    ``(apart, here)``: the apply dispatcher, then the setup (which links both dispatchers; this process has the
    legal one cached by then) in the second process; in this one first the largest helpers only the apply
    dispatcher reaches (cached before the second process gets to them, which then loads them: the two halves
    about equal), then the legal-mask dispatcher."""
    i, e, s, ctx = types.int64, typeof(S.stk).dtype, typeof(S.game).dtype, (typeof(S), typeof(C), typeof(prm))
    apart = [(dispatch.apply, (e, *ctx, i, s, i, e, e, e)), (batch_setup, (*ctx, i))]
    helpers = [(scoring.final_scoring, (*ctx, i)), (notebook.place_tile, (*ctx, i, i, i, i)),
               (therapy_move, (*ctx, i, i, i, i)), (inkpot.inkpot_move, (*ctx, i, i, i)),
               (research._apply_play_cards, (*ctx, i, i, i, i, i, i, i)), (generate, (*ctx, i, i, i, i)),
               (freud_step, (*ctx, i, i))]
    return apart, helpers + [(dispatch.legal, (e, *ctx, i, s, e, e, typeof(mask)))]
