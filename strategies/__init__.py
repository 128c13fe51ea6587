"""Strategies: the protocol, the registry by string id, and the built-in players."""

from .base import RandomStrategy, Strategy, StrategyRNG, View
from .registry import Arg, make_strategy, register_strategy, strategies_for

__all__ = ["Arg", "RandomStrategy", "Strategy", "StrategyRNG", "View", "make_strategy", "register_strategy",
           "strategies_for"]
