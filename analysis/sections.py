"""Game-specific report sections, by game id (the module named by the game's spec, ``sim/<game>/spec.py``).

Each entry is a function ``(runs) -> list[Section]``. Games without their own analyses get only
the generic sections.
"""

from __future__ import annotations

import importlib
from typing import Callable
from meeplelab.sim.registry import get_spec

def game_sections(game: str) -> list[Callable]:
    """Section builders for ``game`` (the ``SECTIONS`` list of the module its spec names; empty when
    it names none)."""
    mod = get_spec(game).sections
    if mod is None:
        return []
    try:
        m = importlib.import_module(mod)
    except ModuleNotFoundError as e:
        if e.name == mod:
            return []
        raise
    return list(getattr(m, "SECTIONS", []))
