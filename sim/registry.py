"""Registry of games by id: ``meeplelab games`` lists it, ``--game`` looks it up.

Built-in engines are named here as ``module:Class`` and imported on first use; other code
(plugins, the test-only game) adds to it with :func:`register_game`.
"""

from __future__ import annotations

import difflib
import importlib
import os

from .core.errors import ConfigError
from .core.game import Game

_BUILTIN: dict[str, str] = {
    "unconscious-mind": "sim.unconscious_mind:UnconsciousMind",
    "galileos-truth": "sim.galileos_truth:GalileosTruth",
}
_REGISTERED: dict[str, type[Game]] = {}


_PLUGINS_LOADED = False


def _load_plugins() -> None:
    """Import the modules named in ``MEEPLELAB_PLUGINS`` (comma separated); each registers games."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    for mod in filter(None, (m.strip() for m in os.environ.get("MEEPLELAB_PLUGINS", "").split(","))):
        try:
            importlib.import_module(mod)
        except ImportError as e:
            raise ConfigError(f"MEEPLELAB_PLUGINS names {mod!r}, which cannot be imported: {e}") from None


def register_game(cls: type[Game]) -> type[Game]:
    """Register an engine class under ``cls.name`` (usable as a decorator)."""
    _REGISTERED[cls.name] = cls
    return cls


def available_games() -> list[str]:
    """Ids of every known game, built-in first."""
    _load_plugins()
    return list(_BUILTIN) + [n for n in _REGISTERED if n not in _BUILTIN]


def get_game_class(name: str) -> type[Game]:
    """The engine class for ``name``.

    Raises:
        ConfigError: unknown id; the message names close matches and every allowed id.
    """
    _load_plugins()
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name in _BUILTIN:
        mod, cls = _BUILTIN[name].split(":")
        c = getattr(importlib.import_module(mod), cls)
        _REGISTERED[name] = c
        return c
    allowed = available_games()
    close = difflib.get_close_matches(name, allowed, n=2, cutoff=0.4)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    raise ConfigError(f"unknown game {name!r}: {hint}allowed: {', '.join(allowed)}")


def make_game(name: str, params=None, content_dir=None) -> Game:
    """An engine instance for ``name`` with ``params`` (defaults) and content."""
    return get_game_class(name)(params=params, content_dir=content_dir)
