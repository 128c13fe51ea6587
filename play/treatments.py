"""Setup treatments of panels and experiments, by game: registered, loaded from the game's spec, or made from a
declared start resource (``coins+2``). Kept apart from :mod:`meeplelab.play.panels` so that every process that only
looks a treatment up (a ``simulate``'s resolve, a worker) stays free of the panels' imports (start-up)."""

from __future__ import annotations

from typing import Callable

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core import start
from meeplelab.sim.registry import get_spec


#: treatments by (game id, name): ``fn(game, state, rows, seat)`` changes the state of games ``rows``
#: for ``seat`` right after setup (before the first decision)
TREATMENTS: dict[tuple[str, str], Callable] = {}
#: the module that registered each treatment (built-in: a module its game's spec names)
_ORIGIN: dict[tuple[str, str], str] = {}


def register_treatment(game: str, name: str, fn: Callable) -> None:
    """Register a setup treatment for one seat (``fn(game, state, rows, seat)``, in place).

    A game's own treatments belong in a module its spec names (``GameSpec.treatments``): every process
    imports those before looking a treatment up. One registered anywhere else (a script, a test) is
    sent to the workers with the work (:mod:`meeplelab.play.shipping`).
    """
    import sys

    TREATMENTS[(game, name)] = fn
    _ORIGIN[(game, name)] = sys._getframe(1).f_globals.get("__name__", "")


def load_treatments(game: str) -> None:
    """Import the modules that register ``game``'s built-in treatments (its spec's ``treatments``)."""
    import importlib

    try:
        mods = get_spec(game).treatments
    except ConfigError:
        return
    for m in mods:
        for name, fn in getattr(importlib.import_module(m), "TREATMENTS", {}).items():
            if (game, name) not in TREATMENTS:
                TREATMENTS[(game, name)] = fn
                _ORIGIN[(game, name)] = m


def shipped_treatments(game: str, names) -> list[tuple[str, str, Callable]]:
    """``(game, name, fn)`` of the treatments ``names`` that were registered outside the game's spec
    modules (a worker would not have them), for :mod:`meeplelab.play.shipping`."""
    load_treatments(game)
    try:
        builtin = set(get_spec(game).treatments)
    except ConfigError:
        builtin = set()
    return [(game, n, TREATMENTS[(game, n)]) for n in dict.fromkeys(names)
            if (game, n) in TREATMENTS and _ORIGIN.get((game, n)) not in builtin]


def start_resources(game: str) -> tuple:
    """The start resources ``game``'s spec declares (``GameSpec.start_resources``; () for a game without a spec)."""
    try:
        return tuple(get_spec(game).start_resources)
    except ConfigError:
        return ()


def treatment_fn(game: str, name: str) -> Callable | None:
    """The treatment ``name`` of ``game``: a registered one, else one generated from a declared start resource
    (``coins+2``: two more start Coins, :mod:`meeplelab.sim.core.start`), else None."""
    load_treatments(game)
    fn = TREATMENTS.get((game, name))
    if fn is not None:
        return fn
    res = start_resources(game)
    if not res:
        return None

    try:
        r, n = start.parse(name, res, game)
    except ConfigError:
        return None
    return lambda g, state, rows, seat: r.add(state, rows, seat, n)


def _unknown_treatment(game: str, name: str) -> ConfigError:
    allowed = sorted(n for g, n in TREATMENTS if g == game)
    res = start_resources(game)
    if res:
        allowed.append(f"NAME+n or NAME-n with NAME one of {start.names(res)}")
    return ConfigError(f"unknown treatment {name!r} for {game}: allowed {', '.join(allowed) or 'none'}")
