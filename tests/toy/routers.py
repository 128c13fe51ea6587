"""The decision routers of the toy: the legal action mask and the application of one pending decision, as
the play loop, the compiled heuristic and the ISMCTS call them (``legal_at``, ``apply_at``; docs/engine_guide.md).

Kept apart from ``features.py`` (which reads the state and never runs a rule): these link the rule handlers
(dispatch), so a rule edit recompiles them and what calls them, not the feature and score kernels.
Both are inlined into their callers (``inline="always"``: numba's IR inlining), so the play loop, the
heuristic and the ISMCTS link the dispatchers themselves and no separate router library re-optimises the whole
engine once more after a rule edit.
"""

from numba import njit

from . import dispatch


@njit(cache=True, _nrt=False, inline="always")
def legal_at(kind, S, C, prm, g, out):
    """The legal action mask (``bool[2]``, overwritten) of game ``g`` waiting for decision ``kind``."""
    out[:] = False
    dispatch.legal(kind, S, C, prm, g, out)


@njit(cache=True, _nrt=False, inline="always")
def apply_at(kind, S, C, prm, g, a, scratch):
    """Apply action ``a`` to game ``g`` waiting for decision ``kind`` (``scratch`` unused); False: the next
    decision's legal action mask is not computed here."""
    dispatch.apply(kind, S, C, prm, g, a)
    return False
