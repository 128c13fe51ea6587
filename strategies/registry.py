"""Strategies by string id with arguments: ``random``, ``greedy-vp``, ``abjure-at:cycle=3``.

An id is ``name`` or ``name:arg=value,arg=value``; ``name:preset=FILE`` takes the arguments from a
preset TOML file (:func:`read_preset`, written by ``meeplelab tune``). Any id may end in restriction
suffixes, ``heuristic+never:abjure``, ``heuristic+force:abjure@suspicion>=6`` (restricted play:
:mod:`meeplelab.strategies.restricted`). :func:`make_strategy` parses and checks it for a game; an unknown
name, argument, restricted action or condition field raises :class:`ConfigError` naming the allowed ones.
"""

from __future__ import annotations

import contextvars
import difflib
import importlib
import math
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.registry import all_specs, get_spec

from . import fromfile
from .base import RandomStrategy, Strategy
from .restricted import Restricted, split_restrictions


@dataclass(frozen=True)
class Arg:
    """An argument of a strategy: type (int/float/str), default, doc, optional bounds."""

    type: type
    default: Any
    doc: str
    lo: float | None = None
    hi: float | None = None


@dataclass(frozen=True)
class StrategyInfo:
    """Registry entry: name, the games it plays (None = every game), factory, arguments, doc."""

    name: str
    factory: Callable[..., Strategy]
    games: tuple[str, ...] | None
    args: dict[str, Arg] = field(default_factory=dict)
    doc: str = ""
    module: str = ""  # the module that called register_strategy (built-in or not: see shipped_strategies)


_REGISTRY: dict[tuple[str, tuple[str, ...] | None], StrategyInfo] = {}


def register_strategy(name: str, factory: Callable[..., Strategy], *, games: tuple[str, ...] | None = None,
                      args: dict[str, Arg] | None = None, doc: str = "") -> None:
    """Add a strategy to the registry (``games`` limits it to those game ids).

    A game-specific entry overrides a generic one of the same name for its games.
    """
    _add(name, factory, games, args, doc, sys._getframe(1).f_globals.get("__name__", ""))


def _add(name: str, factory: Callable[..., Strategy], games: tuple[str, ...] | None, args: dict[str, Arg] | None,
         doc: str, origin: str) -> None:
    """Store an entry; ``origin`` is the module it counts as registered from (:func:`shipped_strategies`)."""
    _REGISTRY[(name, tuple(games) if games else None)] = StrategyInfo(name, factory, games, dict(args or {}), doc,
                                                                      origin)


def _builtin_modules() -> set[str]:
    """The modules every process imports before looking a strategy up (:func:`_load_builtins`)."""
    return {__name__, "meeplelab.strategies.generic", "meeplelab.strategies.ismcts", *(m for sp in all_specs() for m in sp.strategies)}


def _load_builtins(game: str | None = None) -> None:
    """Import the built-in strategy modules: the generic ones, the game's own (the modules its spec names; every
    game's when ``game`` is None), then the tree search. A run of one game never imports another game's
    strategies, nor so that game's engine (start-up)."""
    specs = all_specs() if game is None else [get_spec(game)]
    for mod in ("meeplelab.strategies.generic", *(m for sp in specs for m in sp.strategies), "meeplelab.strategies.ismcts"):
        if mod not in _LOADED:
            importlib.import_module(mod)
            _LOADED.add(mod)


#: the built-in strategy modules imported in this process (:func:`_load_builtins`)
_LOADED: set[str] = set()


def shipped_strategies(game: str, ids) -> list[tuple[tuple, StrategyInfo]]:
    """``(registry key, entry)`` of the strategies of ``ids`` (strategy ids of ``game``) that a worker
    would not have: registered outside the built-in modules (a script, a test, a plugin), for
    :mod:`meeplelab.play.shipping`. Unknown names are left to :func:`make_strategy`."""
    _load_builtins(game)
    builtin = _builtin_modules()
    avail = {s.name: s for s in strategies_for(game)}
    keys = {id(v): k for k, v in _REGISTRY.items()}
    out = []
    for name in dict.fromkeys(parse_id(i)[0] for i in ids):
        info = avail.get(name)
        if info is not None and info.module not in builtin:
            out.append((keys[id(info)], info))
    return out


def install_strategies(entries) -> None:
    """Register ``(key, entry)`` pairs shipped from the parent (after this process's built-ins, so a
    shipped entry wins as it did in the parent)."""
    _load_builtins()
    for key, info in entries:
        _REGISTRY[key] = info


def strategies_for(game: str) -> list[StrategyInfo]:
    """Registry entries usable in ``game``, sorted by name."""
    _load_builtins(game)
    chosen: dict[str, StrategyInfo] = {}
    for s in _REGISTRY.values():
        if s.games is None:
            chosen.setdefault(s.name, s)
    for s in _REGISTRY.values():
        if s.games is not None and game in s.games:
            chosen[s.name] = s
    return sorted(chosen.values(), key=lambda s: s.name)


def parse_id(spec: str) -> tuple[str, dict[str, str]]:
    """``"name:a=1,b=2"`` -> ``("name", {"a": "1", "b": "2"})``; a strategy in a file keeps its file in the
    name: ``"bots/mybot.py:MyBot"`` -> ``("bots/mybot.py:MyBot", {})`` (:mod:`meeplelab.strategies.fromfile`).
    Restriction suffixes (``+never:abjure``) are left out (:func:`meeplelab.strategies.restricted.split_restrictions`).

    Raises:
        ConfigError: an argument not of the form ``name=value``, or one given twice (``vp=1,vp=2``); a malformed
            restriction suffix.
    """
    spec = split_restrictions(spec)[0]
    name, _, rest = spec.partition(":")
    if fromfile.file_name(spec) is not None:
        name, rest = fromfile.file_name(spec)
    args: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            if "=" not in part:
                raise ConfigError(f"strategy {spec!r}: argument {part!r} needs the form name=value")
            k, v = part.split("=", 1)
            k = k.strip()
            if k in args:
                raise ConfigError(f"strategy {spec!r}: argument {k!r} is given twice ({k}={args[k]}, {k}={v.strip()}): "
                                  f"allowed once")
            args[k] = v.strip()
    return name.strip(), args


def make_strategy(game: str, spec: str) -> Strategy:
    """A strategy instance for ``game`` from its id.

    Heuristic weights must be finite numbers from -1e6 to 1e6 (:data:`meeplelab.strategies.generic.WEIGHT_BOUND`).

    An id ``FILE.py:NAME`` loads the class or function ``NAME`` of the file ``FILE.py`` and registers it
    under that id first (:mod:`meeplelab.strategies.fromfile`).

    An id with restriction suffixes (``heuristic+never:abjure``) is the strategy of the id before them, restricted
    (:class:`meeplelab.strategies.restricted.Restricted`).

    Raises:
        ConfigError: unknown strategy (close matches named), a strategy file that is missing or does not load,
            a name missing from it or not a strategy, unknown argument, an argument given twice, a bad
            value (a number out of its range, a weight that is not finite or beyond 1e6 in size); a malformed
            restriction, an unknown restricted action or condition field, a condition that can never be met.
    """
    base, restrictions = split_restrictions(spec)
    if restrictions:
        return Restricted(make_strategy(game, base), restrictions, get_spec(game).engine_class())
    name, raw = parse_id(spec)
    avail = {s.name: s for s in strategies_for(game)}
    if name.partition(":")[0].endswith(".py"):  # your own bot: FILE.py:NAME
        if fromfile.needs_loading(name, avail.get(name)):
            factory, doc = fromfile.file_strategy(name)
            _add(name, factory, None, None, doc, fromfile.__name__)  # shipped to workers: not a built-in module
            avail = {s.name: s for s in strategies_for(game)}
    if name not in avail:
        close = difflib.get_close_matches(name, list(avail), n=3, cutoff=0.5)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise ConfigError(f"unknown strategy {name!r} for {game}: {hint}allowed: {', '.join(avail)}")
    info = avail[name]
    if "preset" in raw:
        raw = {**read_preset(raw.pop("preset"), game, name), **raw}  # arguments given in the id win
    args: dict[str, Any] = {}
    for k, v in raw.items():
        if k not in info.args:
            close = difflib.get_close_matches(k, list(info.args), n=2, cutoff=0.5)
            hint = f"did you mean {', '.join(close)}? " if close else ""
            allowed = ", ".join(info.args) or "none"
            raise ConfigError(f"strategy {name!r} has no argument {k!r}: {hint}allowed: {allowed}")
        a = info.args[k]
        try:
            val = a.type(v)
        except ValueError:
            raise ConfigError(f"strategy {name!r}: argument {k}={v!r} must be {a.type.__name__}") from None
        if isinstance(val, float) and not math.isfinite(val):  # nan, inf and overflowing literals like 1e400
            raise ConfigError(f"strategy {name!r}: argument {k}={v!r} must be a finite number")
        if (a.lo is not None and val < a.lo) or (a.hi is not None and val > a.hi):
            raise ConfigError(f"strategy {name!r}: argument {k}={v!r} is out of range: allowed {a.lo} to {a.hi}")
        args[k] = val
    return info.factory(**args)


#: the folder a relative ``preset=FILE`` path is read against (None: the working folder). A Dask worker runs in a
#: folder of its own, so each task sent to one carries the sending command's folder
#: (:func:`meeplelab.play.shipping.in_folder`)
PRESET_FOLDER: contextvars.ContextVar[str | None] = contextvars.ContextVar("meeplelab_preset_folder", default=None)


def read_preset(path: str, game: str, name: str) -> dict[str, str]:
    """Arguments of a preset file (``meeplelab tune`` writes them): a TOML file with ``strategy``,
    ``game`` and an ``[args]`` table; used as ``heuristic:preset=tuned.toml`` (further arguments in
    the id override the preset's).

    Raises:
        ConfigError: a missing or unreadable file, or a preset of another strategy or game.
    """
    p = Path(path)
    if PRESET_FOLDER.get() is not None and not p.is_absolute():
        p = Path(PRESET_FOLDER.get()) / p
    try:
        data = tomllib.loads(p.read_text())
    except FileNotFoundError:
        raise ConfigError(f"strategy {name!r}: preset file {path!r} does not exist") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"strategy {name!r}: preset file {path!r} is unreadable: {e}") from None
    if data.get("strategy") != name or data.get("game") != game or not isinstance(data.get("args"), dict):
        raise ConfigError(f"strategy {name!r}: preset file {path!r} is not a {name} preset for {game} (it holds "
                          f"strategy={data.get('strategy')!r}, game={data.get('game')!r}; an [args] table is needed)")
    return {str(k): str(v) for k, v in data["args"].items()}


register_strategy("random", RandomStrategy, doc="Uniform over the legal actions (baseline).")
