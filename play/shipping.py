"""Registrations that travel with the work: what the parent registered reaches every worker.

Built-in strategies and treatments are registered by modules every process imports before a look-up
(the modules a game's spec names: ``GameSpec.strategies``, ``GameSpec.treatments``). Anything else a
run uses — a strategy or treatment registered by the calling script, a notebook, a test, a plugin —
exists only in the process that registered it. :func:`collect` gathers those entries in the parent
and pickles them (cloudpickle: a class or function of ``__main__`` goes by value, one of an
importable module by reference); the plan (or task) carries the bytes and :meth:`Registrations.install`
registers them in the worker before its first look-up, on loky, thread and Dask workers alike.

A registration a worker could not load — its code in a module loaded from a file by a name that is
not on the Python path, or made in memory — is refused in the parent before any game is played, in
one line saying to put it in an importable module.

A Dask worker runs in its own working folder, which need not be this process's: every path that travels
to it is absolute (:meth:`meeplelab.play.plan.RunPlan.for_elsewhere`: the run folder and the content folder),
and each task carries this process's working folder, against which the worker reads the relative preset paths
of strategy ids (:func:`in_folder`; the ids themselves, and so the tables, are unchanged).
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass

from meeplelab.sim.core.errors import ConfigError
from meeplelab.strategies.registry import PRESET_FOLDER
from meeplelab.play.treatments import shipped_treatments, TREATMENTS
from meeplelab.strategies.registry import install_strategies, shipped_strategies

#: blobs already installed in this process (by digest)
_INSTALLED: set[str] = set()


@dataclass(frozen=True)
class Registrations:
    """Pickled strategy and treatment registrations for the workers; ``what`` names them."""

    blob: bytes
    what: tuple[str, ...]

    def install(self) -> None:
        """Register the shipped entries in this process (once per process)."""
        digest = hashlib.sha256(self.blob).hexdigest()
        if digest in _INSTALLED:
            return
        import cloudpickle

        try:
            strategies, treatments = cloudpickle.loads(self.blob)
        except (ImportError, AttributeError) as e:
            raise ConfigError(f"{', '.join(self.what)} cannot be loaded in this worker ({type(e).__name__}: {e}): put "
                              "its code in a module the workers can import (an installed package, or a .py file "
                              "on their PYTHONPATH)") from None
        install_strategies(strategies)
        for game, name, fn in treatments:
            TREATMENTS[(game, name)] = fn
        _INSTALLED.add(digest)


def in_folder(folder: str, fn, *args):
    """``fn(*args)`` with the relative ``preset=FILE`` paths of strategy ids read against ``folder`` (the sending
    command's working folder): what a task sent to a Dask worker runs (``client.submit(in_folder, os.getcwd(), fn,
    ...)``)."""
    token = PRESET_FOLDER.set(folder)
    try:
        return fn(*args)
    finally:
        PRESET_FOLDER.reset(token)


def _module_of(obj) -> str | None:
    return getattr(obj, "__module__", None)


def _findable(modname: str) -> bool:
    """Whether a fresh process can import ``modname`` by name (``__main__`` goes by value: yes)."""
    if modname in (None, "", "__main__"):
        return True
    mod = sys.modules.get(modname)
    if mod is not None and getattr(mod, "__spec__", None) is None:
        return False  # made in memory
    top = modname.partition(".")[0]
    for finder in sys.meta_path:  # the import system's finders, without the sys.modules shortcut
        find = getattr(finder, "find_spec", None)
        try:
            if find is not None and find(top, None) is not None:
                return True
        except Exception:  # a finder that does not take this call
            continue
    return False


def collect(game: str, strategy_ids=(), treatments=()) -> Registrations | None:
    """The registrations of ``game`` that a worker would not have (None: none), pickled.

    Raises:
        ConfigError: one of them lives in a module a worker cannot import, or does not pickle
            (one line: which, and to put it in an importable module).
    """
    strategies = shipped_strategies(game, strategy_ids)
    treats = shipped_treatments(game, treatments)
    if not strategies and not treats:
        return None
    items = [(f"strategy {info.name!r}", info.factory) for _, info in strategies]
    items += [(f"treatment {name!r}", fn) for _, name, fn in treats]
    for what, obj in items:
        mod = _module_of(obj)
        if mod is not None and not _findable(mod):  # no module name: nothing to import
            where = getattr(sys.modules.get(mod), "__file__", None)
            raise ConfigError(f"{what} of {game} is defined in module {mod!r}" + (f" ({where})" if where else "") +
                              ", which worker processes cannot import: put it in an importable module (a .py file on "
                              "the Python path or an installed package, or name it in MEEPLELAB_PLUGINS) and import "
                              "it from there, or use --n-jobs 1")
    import cloudpickle

    try:
        blob = cloudpickle.dumps((strategies, treats))
    except Exception as e:
        raise ConfigError(f"{', '.join(w for w, _ in items)} of {game} cannot be sent to worker processes "
                          f"({type(e).__name__}: {e}): define it at the top level of an importable module, or use "
                          "--n-jobs 1") from None
    return Registrations(blob, tuple(w for w, _ in items))
