"""The kernels' context: the same three leading arguments in every engine, declared once here.

Every rule kernel, feature, legal-mask and apply kernel of an engine takes ``S, C, prm`` first:

- ``S``, the **state**: the namedtuple of the batch state's group arrays (``S.seat[g, p, VP]``; the engine's
  ``state.py`` layout) and the core log buffers;
- ``C``, the **content**: the namedtuple of the validated content arrays (cards, tiles, board; the engine's
  ``content.py``), the same for every game of the batch;
- ``prm``, the **params**: ``int64[PARAM_WIDTH]``, the ``Params`` dataclass's values in the columns the
  dataclass itself defines (:func:`meeplelab.sim.core.params.param_vector`), read as ``prm[PRM_<FIELD>]``
  with the constants of the engine's written ``pcols.py``.

A new rule number is therefore a ``Params`` field and its use in one handler: the column, its constant and
the vector follow from the dataclass (``python -m meeplelab.sim.core.generate`` writes ``pcols.py``).
:func:`meeplelab.sim.core.compiled` checks that every engine's decision table declares exactly these names.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

#: the leading arguments of every kernel, as the decision tables write them (``legal_args = "S, C, prm, g, ..."``)
CONTEXT_ARGS = "S, C, prm"


class KernelContext(NamedTuple):
    """The kernels' leading arguments for one batch state (splat it: ``kernel(*ctx, g, out)``).

    Attributes:
        S: the state's arrays (an engine's state namedtuple; every array batch first, ``[B, ...]``).
        C: the content arrays (an engine's content namedtuple; no batch axis).
        prm: ``int64[PARAM_WIDTH]``: the parameter vector (``prm[PRM_<FIELD>]``).
    """

    S: Any
    C: Any
    prm: np.ndarray


def kernel_context(game, state) -> KernelContext:
    """``(S, C, prm)`` of ``state`` for ``game``: :meth:`Game.kernel_state`, :attr:`Game.kernel_content` and
    :attr:`Game.param_vector` (compiled play, sim/core/compiled.py; the engines' Python hooks)."""
    return KernelContext(game.kernel_state(state), game.kernel_content, game.param_vector)
