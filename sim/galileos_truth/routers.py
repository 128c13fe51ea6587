"""The decision routers of Galileo's Truth: the legal action mask and the application of one pending decision, as
the play loop, the compiled heuristic and the ISMCTS call them (``legal_at``, ``apply_at``; docs/engine_guide.md).

Kept apart from ``features.py`` (which reads the state and never runs a rule): these link the rule handlers
(rules.dispatch), so a rule edit recompiles them and what calls them, not the feature and score kernels.
Both are inlined into their callers (``inline="always"``: numba's IR inlining), so the play loop, the
heuristic and the ISMCTS link the dispatchers themselves and no separate router library re-optimises the whole
engine once more after a rule edit.
"""

from numba import njit, typeof, types

from .rules import dispatch, setup_kernel


@njit(cache=True, _nrt=False, inline="always")
def legal_at(kind, S, C, prm, g, out):
    """The legal action mask (``bool[A]``, overwritten) of game ``g`` waiting for phase ``kind``."""
    out[:] = False
    dispatch.legal(kind, S, C, prm, g, out)


@njit(cache=True, _nrt=False, inline="always")
def apply_at(kind, S, C, prm, g, a, scratch):
    """Apply action ``a`` to game ``g`` waiting for phase ``kind`` (``scratch`` unused); False: the next
    decision's legal action mask is not computed here."""
    dispatch.apply(kind, S, C, prm, g, a)
    return False


def compile_parts(S, C, prm, mask) -> tuple[list, list]:
    """The rule kernels a cold start compiles ahead in two processes at once
    (:func:`meeplelab.play.warmup.compiling_apart`), as ``(dispatcher, argument types)`` pairs with the types the
    play loop and the setup call them with (``kind``: the ``game`` group's integer type, as ``pending`` reads it;
    ``g`` and the action int64; ``mask``: a ``bool[A]``): ``(apart, here)``, the apply dispatcher and the setup
    kernel in the second process, the legal-mask dispatcher in this one (about equal halves)."""
    i, kind, ctx = types.int64, typeof(S.game).dtype, (typeof(S), typeof(C), typeof(prm))
    apart = [(dispatch.apply, (kind, *ctx, i, i)), (setup_kernel, ctx)]
    return apart, [(dispatch.legal, (kind, *ctx, i, typeof(mask)))]
