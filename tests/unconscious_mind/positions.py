"""The Unconscious Mind rule tests' shared start: a 2-seat position by name (sim/core/position.py)."""

from meeplelab.sim.core.position import Position
from meeplelab.sim.unconscious_mind import UnconsciousMind

GAME = UnconsciousMind()
#: the four shuffled games (ids 0-3, seed 7) a scenario is checked on where it holds whatever the shuffle
GAMES = range(4)


def start(game_id: int = 0) -> Position:
    """Seat 0's first decision (D_TURN) of a 2-seat game, goal tiles removed so that a scenario does not claim one
    by accident."""
    pos = Position.start(GAME, players=2, seed=7, game_id=game_id)
    return pos.set(goal_id=[-1] * len(pos.get("goal_id")))


def top(pos: Position) -> tuple:
    """The decision on top of the stack: its name and its arguments a, b, c."""
    i = pos.get("sp") - 1
    return (pos.pending().decision, pos.get("stk_a")[i], pos.get("stk_b")[i], pos.get("stk_c")[i])
