"""The compiled ISMCTS of tests.toy: not provided (its ISMCTS seats decide on the Python path).

Written by ``python -m meeplelab.sim.core.generate`` from ``sim/core/data/ismcts_stub.py.tmpl`` (the engine's ``features``
module has no ``VALUE_FEATURES``); ``tests/test_compiled_play.py`` checks this file against it. Do not edit by hand.
"""

from numba import njit

#: this engine has no compiled ISMCTS (meeplelab.sim.core.ismcts.search_specs)
COMPILED_SEARCH = False
VALUE_FEATURES = ()

__all__ = ["COMPILED_SEARCH", "VALUE_FEATURES", "ismcts_choice"]


@njit(cache=True, _nrt=False)
def ismcts_choice(S, C, prm, g, p, mask, key, ctr, H, T):
    """Never called (no seat searches inside the play kernel here): -1."""
    return -1
