"""Registry of games by id: ``meeplelab games`` lists it, ``--game`` looks it up.

Every game is a :class:`meeplelab.sim.core.spec.GameSpec`. Games register through the entry point group
``meeplelab.games`` (the built-in ones in this project's ``pyproject.toml``; a third-party package
declares its own), or at run time with :func:`register_spec` / :func:`register_game` from a module
named in ``MEEPLELAB_PLUGINS`` (the test-only games do this). Specs and engines are imported on
first use; listing the games imports nothing.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import os
from importlib.metadata import EntryPoint, entry_points

from .core.errors import ConfigError
from .core.game import Game
from .core.spec import GameSpec

#: entry point group of game specs
GROUP = "meeplelab.games"
_SPECS: dict[str, GameSpec] = {}
_CLASSES: dict[str, type[Game]] = {}
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


@functools.lru_cache(maxsize=1)
def _entry_points() -> dict[str, EntryPoint]:
    """The installed game entry points by game id, this project's own first (in declaration order); read
    once per process (the installed distributions' metadata does not change while it runs, and reading it
    took 7 ms, paid by every strategy a study made)."""
    eps = list(entry_points(group=GROUP))
    own = [e for e in eps if e.dist is not None and e.dist.name == "meeplelab"]
    if not own:
        raise ConfigError("meeplelab's games are not registered: install the project (pip install -e .) so "
                          f"its entry points ({GROUP}) exist")
    return {e.name: e for e in own + [e for e in eps if e not in own]}


def builtin_games() -> list[str]:
    """Ids of the games this project ships (its own entry points)."""
    return [n for n, e in _entry_points().items() if e.dist is not None and e.dist.name == "meeplelab"]


def register_spec(spec: GameSpec) -> GameSpec:
    """Register a game spec at run time (a plugin module, a test game)."""
    _SPECS[spec.name] = spec
    _CLASSES.pop(spec.name, None)
    return spec


def register_game(cls: type[Game]) -> type[Game]:
    """Register an engine class under ``cls.name`` with a spec holding only the engine (usable as a
    decorator)."""
    register_spec(GameSpec(cls.name, cls))
    _CLASSES[cls.name] = cls
    return cls


def available_games() -> list[str]:
    """Ids of every known game, built-in first."""
    _load_plugins()
    eps = _entry_points()
    return list(eps) + [n for n in _SPECS if n not in eps]


def _unknown(name: str) -> ConfigError:
    allowed = available_games()
    close = difflib.get_close_matches(name, allowed, n=2, cutoff=0.4)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    return ConfigError(f"unknown game {name!r}: {hint}allowed: {', '.join(allowed)}")


def get_spec(name: str) -> GameSpec:
    """The :class:`GameSpec` of ``name``.

    Raises:
        ConfigError: unknown id (the message names close matches and every allowed id), or an entry
            point that does not hold a spec of that name.
    """
    _load_plugins()
    if name in _SPECS:
        return _SPECS[name]
    ep = _entry_points().get(name)
    if ep is None:
        raise _unknown(name)
    spec = ep.load()
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise ConfigError(f"entry point {name!r} = {ep.value!r} of group {GROUP} is not a GameSpec named {name!r}")
    _SPECS[name] = spec
    return spec


def all_specs() -> list[GameSpec]:
    """Every known game's spec (imports the spec modules, not the engines)."""
    return [get_spec(n) for n in available_games()]


def get_game_class(name: str) -> type[Game]:
    """The engine class for ``name``.

    Raises:
        ConfigError: unknown id; the message names close matches and every allowed id.
    """
    if name not in _CLASSES:
        _CLASSES[name] = get_spec(name).engine_class()
    return _CLASSES[name]


def make_game(name: str, params=None, content_dir=None) -> Game:
    """An engine instance for ``name`` with ``params`` (defaults) and content."""
    return get_game_class(name)(params=params, content_dir=content_dir)
