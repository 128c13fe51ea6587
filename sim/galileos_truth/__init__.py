"""Galileo's Truth engine (issue 4): see ``docs/rules/galileos_truth.md``."""

from .engine import GalileosTruth
from .params import Params

__all__ = ["GalileosTruth", "Params"]
