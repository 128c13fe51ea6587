"""Dispatchers of the toy game's decisions (tests/toy/decisions.py).

Written by ``python -m meeplelab.sim.core.decisions tests.toy.decisions`` from its table;
``tests/test_decisions.py`` checks this file against it. Do not edit by hand.
"""

from numba import njit

from tests.toy.state import D_TURN
from tests.toy.rules import legal_turn, apply_turn


@njit(cache=True, _nrt=False)
def legal(kind, S, C, prm, g, out):
    """Fill the legal action mask of one game waiting for decision ``kind``."""
    if kind == D_TURN:
        legal_turn(S, C, prm, g, out)
    else:
        raise RuntimeError("no legal handler for this decision kind")


@njit(cache=True, _nrt=False)
def apply(kind, S, C, prm, g, a):
    """Apply the action of one game waiting for decision ``kind``."""
    if kind == D_TURN:
        apply_turn(S, C, prm, g, a)
    else:
        raise RuntimeError("no apply handler for this decision kind")
