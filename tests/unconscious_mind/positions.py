"""The Unconscious Mind rule tests' shared start: a 2-seat position by name (sim/core/position.py)."""

from meeplelab.sim.core.position import Position
from meeplelab.sim.unconscious_mind import UnconsciousMind

GAME = UnconsciousMind()
#: the four shuffled games (ids 0-3, seed 7) a scenario is checked on where it holds whatever the shuffle
GAMES = range(4)


def start(game_id: int = 0, players: int = 2, goals: bool = False, game=None) -> Position:
    """Seat 0's first decision (D_TURN) of game ``game_id`` of run seed 7 (``game``: :data:`GAME` unless given), logs
    empty; the goal tiles removed unless ``goals``, so that a scenario does not claim one by accident."""
    pos = Position.start(GAME if game is None else game, players=players, seed=7, game_id=game_id)
    return pos if goals else pos.set(goal_id=-1)


def top(pos: Position) -> tuple:
    """The decision on top of the stack: its name and its arguments a, b, c."""
    i = pos.get("sp") - 1
    return (pos.pending().decision, pos.get("stk_a")[i], pos.get("stk_b")[i], pos.get("stk_c")[i])
