"""The compiled heuristic of tests.toy: not provided (its heuristic seats decide on the Python path).

Written by ``python -m meeplelab.sim.core.compiled tests.toy`` from ``sim/core/data/lookahead_stub.py.tmpl`` (the engine's
``features`` module has no ``VALUE_FEATURES``); ``tests/test_compiled_play.py`` checks this file against it.
Do not edit by hand.
"""

from numba import njit

#: this engine has no compiled heuristic (meeplelab.strategies.compiled.heuristic_tables)
COMPILED_HEURISTIC = False
VALUE_FEATURES = ()

__all__ = ["COMPILED_HEURISTIC", "VALUE_FEATURES", "heuristic_choice"]


@njit(cache=True, _nrt=False)
def heuristic_choice(S, C, prm, g, p, mask, key, ctr, H):
    """Never called (no seat is a compiled heuristic here): -1."""
    return -1
