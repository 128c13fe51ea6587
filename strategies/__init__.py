"""Strategies: the protocol, the registry by string id, and the built-in players."""

if __name__ == "strategies":  # this folder imported by its old top-level name (a source checkout on sys.path)
    raise ImportError("import meeplelab.strategies, not strategies: the folder strategies/ is installed as "
                      "meeplelab.strategies (imported as strategies it is a second copy, whose errors and classes are "
                      "not meeplelab's)")

from .base import RandomStrategy, Strategy, StrategyRNG, View
from .registry import Arg, make_strategy, register_strategy, strategies_for

__all__ = ["Arg", "RandomStrategy", "Strategy", "StrategyRNG", "View", "make_strategy", "register_strategy",
           "strategies_for"]
