"""Unconscious Mind (Fantasia Games, 2024): a vectorized engine on sim/core."""

from .engine import UnconsciousMind
from .params import Params

__all__ = ["Params", "UnconsciousMind"]
