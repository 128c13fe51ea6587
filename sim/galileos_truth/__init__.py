"""Galileo's Truth engine: see ``docs/rules/galileos_truth.md``.

``GalileosTruth`` and ``Params`` are imported on first use, so reading the game's spec (``spec.py``, what the game
registry lists) never imports the engine and its kernels."""

__all__ = ["GalileosTruth", "Params"]


def __getattr__(name):
    if name == "GalileosTruth":
        from .engine import GalileosTruth

        return GalileosTruth
    if name == "Params":
        from .params import Params

        return Params
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
