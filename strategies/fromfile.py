"""Your own bot from a file: ``--strategies path/to/mybot.py:MyBot`` (Catanatron's ``--code mybot.py``).

A strategy id whose name is ``FILE.py:NAME`` plays the class or function ``NAME`` defined in the
Python file ``FILE.py`` (a path relative to the current folder, or absolute). ``NAME`` is one of

- a :class:`meeplelab.strategies.base.Strategy` subclass (``act(view, legal_mask, rng) -> int[n]``, the documented
  protocol, docs/strategies.md), made with no arguments (``NAME()``); any other class with such an
  ``act`` method is used the same way;
- a function ``act(view, legal_mask, rng) -> int[n]`` (the protocol as a plain function, vectorized over
  the deciding games);
- a function ``fn(game, state, g, seat, legal, rng) -> action`` deciding one game at a time (the slow
  path of :class:`meeplelab.strategies.priority.FunctionStrategy`).

The file is loaded once per process (:mod:`importlib`, under a module name of its own) the first time
the id is looked up, and the strategy is registered under the id as given, for every game; its games
carry that id in the ``strategy`` column. The registry entry's factory is a :class:`FileStrategy`,
which holds the file's absolute path: :mod:`meeplelab.play.shipping` sends it to loky and Dask workers, which load
the same file by that path (a Dask worker needs the file at that path on its machine); a resumed run
loads it again from the id. A missing file, a file that does not load, a missing name or an object that
is not a strategy is refused in one line naming it, before any game is played.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from meeplelab.sim.core.errors import ConfigError

from .base import Strategy
from .priority import FunctionStrategy

#: modules loaded from files in this process: (absolute path, mtime_ns, size) -> module
_LOADED: dict[tuple[str, int, int], object] = {}

EXAMPLE = "--strategies path/to/mybot.py:MyBot"


def file_name(spec: str) -> tuple[str, str] | None:
    """``("FILE.py:NAME", "args")`` when ``spec`` names a strategy in a file (the part before its first ``:``
    ends in ``.py``), else None: ``"bots/mybot.py:MyBot"`` -> ``("bots/mybot.py:MyBot", "")``;
    ``"bots/mybot.py:MyBot:k=2"`` -> ``("bots/mybot.py:MyBot", "k=2")``."""
    head, sep, rest = spec.strip().partition(":")
    if not head.endswith(".py"):
        return None
    attr, _, args = rest.partition(":")
    return f"{head}:{attr.strip()}", args


def _module(path: Path, shown: str):
    """The module of the Python file ``path`` (loaded once per process while the file is unchanged)."""
    if not path.is_file():
        what = "is a folder" if path.is_dir() else "does not exist"
        raise ConfigError(f"strategy file {shown!r} {what}: allowed a .py file defining a strategy class or "
                          f"function, as {EXAMPLE}")
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key in _LOADED:
        return _LOADED[key]
    name = "meeplelab_strategy_file_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # what a module's classes need while it runs (dataclasses, typing)
    try:
        spec.loader.exec_module(mod)
    except Exception as e:
        sys.modules.pop(name, None)
        where = f" (line {e.lineno})" if isinstance(e, SyntaxError) and e.lineno else ""
        raise ConfigError(f"strategy file {shown!r} cannot be loaded: {type(e).__name__}: "
                          f"{getattr(e, 'msg', None) or e}{where}") from None
    _LOADED[key] = mod
    return mod


def _kind(obj) -> str | None:
    """How ``obj`` plays: ``class`` (a Strategy or a class with ``act``), ``act`` (a function of the
    protocol), ``per-game`` (a function of one game), or None (not a strategy)."""
    if inspect.isclass(obj):
        if issubclass(obj, Strategy):
            return None if inspect.isabstract(obj) else "class"
        return "class" if callable(getattr(obj, "act", None)) else None
    if inspect.isfunction(obj):
        n = len([p for p in inspect.signature(obj).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
        return {3: "act", 6: "per-game"}.get(n)
    return None


def _candidates(mod) -> list[str]:
    """The names in a loaded file that could be played (defined in the file itself)."""
    return sorted(k for k, v in vars(mod).items() if not k.startswith("_") and _kind(v) is not None
                  and getattr(v, "__module__", None) == mod.__name__)


class _ActFunction(Strategy):
    """A function ``act(view, legal_mask, rng)`` as a strategy."""

    def __init__(self, fn, **args):
        super().__init__(**args)
        self.fn = fn

    def act(self, view, legal_mask, rng):
        return np.asarray(self.fn(view, legal_mask, rng), dtype=np.int64)


class _ActObject(Strategy):
    """An object with ``act(view, legal_mask, rng)`` that is not a :class:`Strategy` subclass."""

    def __init__(self, inner, **args):
        super().__init__(**args)
        self.inner = inner

    def act(self, view, legal_mask, rng):
        return np.asarray(self.inner.act(view, legal_mask, rng), dtype=np.int64)


@dataclass(frozen=True)
class FileStrategy:
    """The registry factory of a strategy in a file: loads ``path`` (absolute) and makes ``attr``'s strategy,
    named ``name`` (the id as given). Pickled by value of these three strings, so workers load the file."""

    name: str
    path: str
    attr: str

    def target(self):
        """The class or function ``attr`` of the file (ConfigError: missing, or not a strategy)."""
        file = self.name.rpartition(":")[0]
        mod = _module(Path(self.path), file)
        if not self.attr:
            raise ConfigError(f"strategy file {file!r}: name the class or function to play after it, as {file}:MyBot; "
                              f"allowed: {', '.join(_candidates(mod)) or 'none (no strategy is defined in it)'}")
        if not hasattr(mod, self.attr):
            raise ConfigError(f"strategy file {file!r} has no {self.attr!r}: allowed: "
                              f"{', '.join(_candidates(mod)) or 'none (no strategy class or function is defined in it)'}")
        obj = getattr(mod, self.attr)
        if _kind(obj) is None:
            raise ConfigError(f"{self.attr!r} in strategy file {file!r} is not a strategy ({type(obj).__name__}): "
                              "allowed a Strategy subclass with act(view, legal_mask, rng), a function act(view, "
                              "legal_mask, rng) or a function (game, state, g, seat, legal, rng)")
        return obj

    def __call__(self, **args) -> Strategy:
        obj = self.target()
        kind = _kind(obj)
        try:
            if kind == "class":
                inst = obj(**args)
                if not isinstance(inst, Strategy):
                    inst = _ActObject(inst, **args)
            elif kind == "act":
                inst = _ActFunction(obj, **args)
            else:
                inst = FunctionStrategy(obj, self.name, **args)
        except ConfigError:
            raise
        except Exception as e:
            raise ConfigError(f"strategy {self.name!r}: {self.attr}() raised {type(e).__name__}: {e}") from None
        inst.name = self.name  # the id as given names its games
        if not isinstance(getattr(inst, "args", None), dict):
            inst.args = dict(args)
        return inst


def needs_loading(name: str, info) -> bool:
    """Whether the id ``name`` (``FILE.py:NAME``) must be (re)registered here: not registered yet, or registered
    from another file than the one ``FILE.py`` names from the current folder, when that file exists (a test or
    notebook that changed folder). A worker in another folder keeps the entry its parent shipped."""
    if info is None:
        return True
    registered = getattr(info.factory, "path", None)
    here = Path(name.rpartition(":")[0]).expanduser().resolve()
    return registered is not None and str(here) != registered and here.is_file()


def file_strategy(name: str) -> tuple[FileStrategy, str]:
    """The factory and one-line doc of the strategy ``FILE.py:NAME`` (the name of an id, :func:`file_name`), for
    :func:`meeplelab.strategies.registry.make_strategy` to register under that name for every game.

    Raises:
        ConfigError: the file is missing or does not load, ``NAME`` is missing from it or is not a strategy.
    """
    file, _, attr = name.rpartition(":")
    factory = FileStrategy(name, str(Path(file).expanduser().resolve()), attr)
    obj = factory.target()
    doc = (inspect.getdoc(obj) or "").split("\n\n")[0].replace("\n", " ")
    return factory, doc or f"{attr} from {file}"
