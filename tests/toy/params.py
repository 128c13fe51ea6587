"""Rule numbers of the toy game, each with its unit, source (an assumption ID A-TOY-nn) and range.

The kernels read them as ``prm[PRM_<FIELD>]`` (``pcols.py``, written from this dataclass by
``python -m meeplelab.sim.core.generate``): nothing else lists them."""

from __future__ import annotations

from dataclasses import dataclass

from meeplelab.sim.core import param


@dataclass(frozen=True)
class ToyParams:
    """Parameters of the toy press-your-luck game (tests/toy/__init__.py)."""

    copies: int = param(4, unit="cards", source="A-TOY-01", doc="Copies of each card value.", lo=1, hi=20)
    max_value: int = param(3, unit="VP", source="A-TOY-02", doc="Highest card value.", lo=1, hi=9)
    max_draws: int = param(3, unit="cards", source="A-TOY-03", doc="Draws allowed per turn.", lo=1, hi=10)
    rounds: int = param(4, unit="rounds", source="A-TOY-04", doc="Rounds in a game.", lo=1, hi=50)

