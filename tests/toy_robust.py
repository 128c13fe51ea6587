"""A toy game whose robustness answers are known (tests of ``meeplelab robustness`` and ``balance``).

``toy-robust`` is the press-your-luck toy (tests/toygame.py) with one more assumed parameter,
``table_colour``, that no rule reads: every index of it must be 0. The strategies ``always-draw``
(draw while legal) and ``draw-once`` (one card, then stop) duel in both seat orders. Expected values
per turn with card values 0..V (a 0 busts) and m draws: always-draw ``m (V+1)/2 (V/(V+1))^m``,
draw-once ``V/2``; with m = 3 always-draw scores more unless V = 1 (-0.125 VP a turn; m = 2 ties
with replacement, the default 12 copies make the deck close to that), so the conclusion "always-draw scores more than draw-once" flips exactly when
``max_value <= 1``. "draw-once scores VP" holds everywhere (V/2 > 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

import tests.toygame  # noqa: F401  registers "toy"
from meeplelab.analysis.conclusions import Conclusion, Study, game_length, mean_se, register_study, rows, seat_advantage
from meeplelab.sim.core import param
from meeplelab.play.panels import panel
from meeplelab.sim.registry import register_game
from meeplelab.strategies.base import RandomStrategy
from meeplelab.strategies.registry import register_strategy
from tests.toygame import DRAW, STOP, AlwaysDraw, ToyGame, ToyParams


@dataclass(frozen=True)
class ToyRobustParams(ToyParams):
    copies: int = param(12, unit="cards", source="A-TOY-01", doc="Copies of each card value.", lo=1, hi=20)
    rounds: int = param(6, unit="rounds", source="A-TOY-04", doc="Rounds in a game.", lo=1, hi=50)
    table_colour: int = param(0, unit="-", source="A-TOY-09", doc="Colour of the table: no rule reads it.", lo=0, hi=9)


@register_game
class ToyRobust(ToyGame):
    """The toy with an inert assumed parameter (see module docstring)."""

    name = "toy-robust"
    title = "Toy press-your-luck (robustness tests)"
    Params = ToyRobustParams


class DrawOnce(RandomStrategy):
    """Draw one card each turn, then stop."""

    name = "draw-once"

    def act(self, view, legal_mask, rng):
        first = view.state.draws[view.idx] == 0
        return np.where(first & legal_mask[:, DRAW], DRAW, STOP).astype(np.int64)


register_strategy("always-draw", AlwaysDraw, games=("toy-robust",), doc="Draw while legal (tests).")
register_strategy("draw-once", DrawOnce, games=("toy-robust",), doc="One card per turn (tests).")

PLAUSIBLE = {
    "copies": {"low": 8, "high": 16, "reason": "test"},
    "max_value": {"low": 1, "high": 4, "reason": "test"},
    "max_draws": {"low": 3, "high": 3, "reason": "test: fixed (not a factor)"},
    "rounds": {"low": 4, "high": 8, "reason": "test"},
    "table_colour": {"low": 0, "high": 5, "reason": "test: no rule reads it"},
}


def _always_minus_once(g: pl.DataFrame, f: dict):
    d = rows(g, "field-2")
    w = d.pivot(on="strategy", index=["rot", "game"], values="vp", aggregate_function="sum")
    return mean_se((w["always-draw"] - w["draw-once"]).cast(pl.Float64).to_numpy())


def _once_vp(g: pl.DataFrame, f: dict):
    return mean_se(rows(g, "field-2", "draw-once")["vp"].cast(pl.Float64).to_numpy())


def study() -> Study:
    return Study("toy-robust", tuple(panel("field-2", ("always-draw", "draw-once"))), (
        Conclusion("always-beats-once", "always-draw vs draw-once (VP)", _always_minus_once,
                   lambda f, q: f"always-draw scores {q:+.2f} VP more than draw-once", unit="VP"),
        Conclusion("once-scores", "draw-once scores VP", _once_vp,
                   lambda f, q: f"draw-once scores {q:.2f} VP", unit="VP"),
        seat_advantage("field-2", 2, "Seat advantage (2 seats)"),
        game_length("field-2", "Game length"),
    ), default_games=200, plausible=PLAUSIBLE)


register_study("toy-robust", study)
