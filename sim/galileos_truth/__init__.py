"""Galileo's Truth engine: see ``docs/rules/galileos_truth.md``.

``GalileosTruth`` and ``Params`` are imported on first use, so reading the game's spec (``spec.py``, what the game
registry lists) never imports the engine and its kernels."""

__all__ = ["GalileosTruth", "Params"]


def __getattr__(name):
    if name == "GalileosTruth":
        # start-up: the engine and its kernels load on first use (module docstring)
        from .engine import GalileosTruth

        return GalileosTruth
    if name == "Params":
        # start-up: the rule numbers load on first use (module docstring)
        from .params import Params

        return Params
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
