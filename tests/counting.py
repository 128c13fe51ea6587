"""Count, in every process of a run, how often a run is resolved, its seating planned and its game class
looked up (once per run, workers included).

:func:`install` wraps :func:`meeplelab.play.plan.resolve`, :func:`meeplelab.play.seating.plan_seating` and
:func:`meeplelab.sim.registry.get_game_class` (and the names other modules imported them under) and the
chunk a process plays (``meeplelab.play.runner._run_chunk``), each call appending ``<what> <pid>`` to a
file. A worker process installs it when it imports :mod:`tests.toygame` (unpickling the toy game's class)
with ``MEEPLELAB_TEST_COUNT`` naming the file; ``tests/test_resolved_once.py`` installs it in its own process.
"""

from __future__ import annotations

import collections
import functools
import os
from pathlib import Path

#: (module, attribute, counted as) wrapped by :func:`install`; a module not imported yet is imported
TARGETS = (
    ("meeplelab.play.plan", "resolve", "resolve"),
    ("meeplelab.play.runner", "resolve", "resolve"),
    ("meeplelab.play.seating", "plan_seating", "plan_seating"),
    ("meeplelab.sim.registry", "get_game_class", "get_game_class"),
    ("meeplelab.play.config", "get_game_class", "get_game_class"),
    ("meeplelab.play.config", "plan_seating", "plan_seating"),
    ("meeplelab.play.plan", "get_game_class", "get_game_class"),
    ("meeplelab.play.sweep", "get_game_class", "get_game_class"),
    ("meeplelab.play.experiment", "get_game_class", "get_game_class"),
    ("meeplelab.play.runner", "_run_chunk", "chunk"),
)


def install(path: str | os.PathLike):
    """Count calls into ``path``; returns a function undoing it."""
    import importlib

    undo = []
    for mod_name, attr, what in TARGETS:
        mod = importlib.import_module(mod_name)
        fn = getattr(mod, attr, None)
        if fn is None or getattr(fn, "_counted", False):
            continue

        def counted(*a, _fn=fn, _what=what, **k):
            with open(path, "a") as f:
                f.write(f"{_what} {os.getpid()}\n")
            return _fn(*a, **k)

        counted._counted = True
        functools.update_wrapper(counted, fn)
        setattr(mod, attr, counted)
        undo.append((mod, attr, fn))

    def restore():
        for mod, attr, fn in undo:
            setattr(mod, attr, fn)

    return restore


def read(path: str | os.PathLike) -> dict[str, collections.Counter]:
    """``{what: Counter(pid -> calls)}`` written so far."""
    out: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    p = Path(path)
    for line in (p.read_text().splitlines() if p.is_file() else []):
        what, pid = line.split()
        out[what][int(pid)] += 1
    return out


def install_from_env() -> None:
    """:func:`install` into the file ``MEEPLELAB_TEST_COUNT`` names, when set (a worker process of a counted run)."""
    path = os.environ.get("MEEPLELAB_TEST_COUNT")
    if path:
        install(path)
