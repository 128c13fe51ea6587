"""The decision routers of Unconscious Mind: the legal action mask and the application of one pending decision, as
the play loop, the compiled heuristic and the ISMCTS call them (``legal_at``, ``apply_at``; docs/engine_guide.md).

Kept apart from ``features.py`` (which reads the state and never runs a rule): these link the rule handlers
(rules.loop), so a rule edit recompiles them and what calls them, not the feature and score kernels (issue 25
item 3). Both are inlined into their callers (``inline="always"``: numba's IR inlining), so the play loop, the
heuristic and the ISMCTS link the dispatchers themselves and no separate router library re-optimises the whole
engine once more after a rule edit.
"""

from numba import njit

from .rules.loop import advance, apply_one, mask_row


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
