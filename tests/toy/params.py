"""Rule numbers of the toy game, each with its unit, source (an assumption ID A-TOY-nn) and range."""

from __future__ import annotations

from dataclasses import dataclass, fields

from meeplelab.sim.core import param


@dataclass(frozen=True)
class ToyParams:
    """Parameters of the toy press-your-luck game (tests/toy/__init__.py)."""

    copies: int = param(4, unit="cards", source="A-TOY-01", doc="Copies of each card value.", lo=1, hi=20)
    max_value: int = param(3, unit="VP", source="A-TOY-02", doc="Highest card value.", lo=1, hi=9)
    max_draws: int = param(3, unit="cards", source="A-TOY-03", doc="Draws allowed per turn.", lo=1, hi=10)
    rounds: int = param(4, unit="rounds", source="A-TOY-04", doc="Rounds in a game.", lo=1, hi=50)


#: the scalar parameters the kernels read, in the order of the ``prm`` vector (:func:`param_vector`)
KERNEL_PARAMS = ("max_draws", "rounds")
I_MAX_DRAWS = 0
I_ROUNDS = 1
assert KERNEL_PARAMS.index("max_draws") == I_MAX_DRAWS and KERNEL_PARAMS.index("rounds") == I_ROUNDS
assert {f.name for f in fields(ToyParams)} >= set(KERNEL_PARAMS)


def param_vector(p: ToyParams):
    """``int64[len(KERNEL_PARAMS)]``: the parameters the kernels read, indexed by ``I_*``."""
    import numpy as np

    return np.array([getattr(p, n) for n in KERNEL_PARAMS], np.int64)
