"""Columns of the kernels' parameter vector ``prm`` (``int64[PARAM_WIDTH]``), one per field of ``tests.toy.params.ToyParams``.

A kernel reads a rule number as ``prm[PRM_<FIELD>]`` (a tuple's element ``i``: ``prm[PRM_<FIELD> + i]``);
a string field's column holds the position of its value in the field's choices (the ``<FIELD>_<CHOICE>``
codes below). The vector is built by :func:`meeplelab.sim.core.params.param_vector`.

Written by ``python -m meeplelab.sim.core.generate`` from the dataclass; do not edit by hand.
"""

PRM_COPIES = 0  # cards; A-TOY-01: Copies of each card value.
PRM_MAX_VALUE = 1  # VP; A-TOY-02: Highest card value.
PRM_MAX_DRAWS = 2  # cards; A-TOY-03: Draws allowed per turn.
PRM_ROUNDS = 3  # rounds; A-TOY-04: Rounds in a game.

PARAM_WIDTH = 4  # columns of prm
