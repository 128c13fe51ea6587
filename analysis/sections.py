"""Game-specific report sections, by game id.

Each entry is a function ``(runs) -> list[Section]``. Games without their own analyses get only
the generic sections.
"""

from __future__ import annotations

import importlib
from typing import Callable

_MODULES = {"unconscious-mind": "analysis.unconscious_mind", "galileos-truth": "analysis.galileos_truth"}


def game_sections(game: str) -> list[Callable]:
    """Section builders for ``game`` (the module's ``SECTIONS`` list; empty when it has none)."""
    mod = _MODULES.get(game)
    if mod is None:
        return []
    try:
        m = importlib.import_module(mod)
    except ModuleNotFoundError as e:
        if e.name == mod:
            return []
        raise
    return list(getattr(m, "SECTIONS", []))
