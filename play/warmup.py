"""Compile (and cache) every engine's numba kernels ahead of use: ``python -m meeplelab.play.warmup``.

Numba compiles a kernel on its first call and caches it on disk (``cache=True``). A fresh
checkout pays that once per engine; this module pays it up front, one process per game in
parallel, so the test suite and the first simulation start warm (``--heuristic``: and the first ``meeplelab
stronger``; ``--all``: every kernel). A cold engine's play loop compiles in two processes at once
(:func:`compiling_apart`), here and in the first run of a command (:func:`warm_for_run`), unless several games
warm up at once here: their processes fill the cores already, so each compiles alone (:data:`NO_SPLIT`).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from numba import typeof, types

from meeplelab.sim import jitcache
from meeplelab.play.batch import play_batch, uses_compiled_play
from meeplelab.sim.registry import builtin_games, make_game
from meeplelab.strategies.plans import CompiledPlan, Plan


def warm(name: str, say=None, everything: bool = False, heuristic: bool = False) -> float:
    """Compile (or load) the kernels a scripted run of ``name`` plays, at every player count; returns seconds.

    An engine with compiled play (docs/compiled_play.md) plays one game of compiled plans per player count: the
    setup kernels and the play loop of plan seats (``play_plans``), what ``simulate`` with scripted strategies
    runs. The rest compiles on first use: the Python-loop rule kernels (``legal_action_mask``, ``step``: Python
    strategies, ``--python-loop``), the play loops with the compiled heuristic and the ISMCTS (``play_heuristic``,
    ``play``). ``everything`` compiles those too (the test suite's warm-up); ``heuristic`` the play loop with the
    compiled heuristic (``play_heuristic``: what ``meeplelab stronger`` and a heuristic seat play). An engine without
    compiled play plays one random game per player count (its rule kernels).

    ``say(text)``, when given, is called before each step with ``warming NAME: step n of m (what)``."""
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game = make_game(name)
        steps = _steps(game, everything, heuristic)
        for k, (what, run) in enumerate(steps):
            if say is not None:
                say(f"warming {name}: step {k + 1} of {len(steps)} ({what})")
            run()
    return time.perf_counter() - t0


def _steps(game, everything: bool, heuristic: bool = False) -> list:
    """The warm-up steps of ``game``: ``(what, call)`` pairs (:func:`warm`)."""
    counts = list(range(game.min_players, game.max_players + 1))
    ids = np.arange(2)

    def plans(players: int, compiled: bool):
        return lambda: play_batch(game, [CompiledPlan(Plan("warmup"))] * players, ids, 1, compiled=compiled)

    def apart(players: int):  # the first compile of the play loop: in two processes when cold
        def run():
            with compiling_apart(game):
                plans(players, True)()
        return run

    def rules(players: int):
        return lambda: game.play_random(ids, 1, players)

    if not game.compiled_play:
        return [(f"rule kernels, {p} players", rules(p)) for p in counts]
    steps = [(f"compiled play kernel, {p} players", apart(p) if p == counts[0] else plans(p, True)) for p in counts]
    if everything:
        steps += [(f"Python-loop rule kernels, {p} players", rules(p)) for p in counts]
        steps += [("plans on the Python loop", plans(game.min_players, False)),
                  ("play kernels with the heuristic and the ISMCTS", lambda: _choosers(game))]
    elif heuristic:
        steps.append(("play kernel with the heuristic", lambda: _choosers(game, search=False)))
    return steps


def _choosers(game, search: bool = True) -> None:
    """Compile the play loops with the compiled heuristic and (``search``) the ISMCTS on the argument types of the
    plan loop."""
    mod = game.compiled_module()
    for sig in mod.play_plans.signatures:
        mod.play_heuristic.compile(sig)
        if search:
            mod.play.compile(sig)


def warm_for_run(game, players: int, seed: int, compiled: bool = True, strategies=None) -> None:
    """Compile (or load) in this process every engine kernel a run of ``game`` (an engine instance) at
    ``players`` seats plays: when ``compiled`` and the engine has compiled play, its play kernel (one game in
    which every seat whose strategy in ``strategies`` plays inside the kernel, a compiled plan or a heuristic
    with a compiled form, keeps it and every other seat plays a compiled plan, so no Python-side search is
    played here), and the Python-loop rule kernels (one random game) only when a seat is decided in Python
    (or ``strategies`` is not given, or not ``compiled``): a run of compiled seats never calls them. The
    runner calls it before starting loky workers, so they load the kernels from the on-disk cache instead of
    each compiling them at once, and the compile notice and its progress are said once, here
    (:mod:`meeplelab.sim.jitcache`). Nothing is written; the games of the run do not depend on it (their
    streams are keyed by game)."""
    seats = given = None
    if compiled and game.compiled_play:
        given = list(strategies) if strategies is not None and len(strategies) == players else [None] * players
        seats = [s if s is not None and uses_compiled_play(game, [s]) else CompiledPlan(Plan("warmup")) for s in given]
    # the kernels depend on the engine and the kinds of the seats' compiled strategies, not on the rule numbers,
    # the content or the seed: once per process (a tournament or a study warms before each of its many runs)
    # a seat decided in Python (or seats not known) plays on the Python-loop rule kernels: compile them too
    python_seat = seats is None or any(s is None or not uses_compiled_play(game, [s]) for s in given or ())
    key = (type(game), players, tuple(type(s).__name__ for s in seats) if seats is not None else None, python_seat)
    if key in _WARMED:
        return
    with compiling_apart(game, plans=seats is not None):
        if python_seat:
            game.play_random(np.arange(1), seed, players)
        if seats is not None:
            play_batch(game, seats, np.arange(1), seed, compiled=True, log_turns=False, log_events=False)
    _WARMED.add(key)


#: set (to anything) in the environment, a cold engine compiles in this process alone (:func:`_parts_apart` names
#: nothing): :func:`main` sets it for the processes of several games compiling at once
NO_SPLIT = "MEEPLELAB_COMPILE_ALONE"
#: this interpreter as the processes this module starts run it: with ``-P`` when this process has it (``python -P -m
#: meeplelab.play.warmup``: the installed package, not the folders of the checkout it was started in), so they import
#: and compile the same package
_PYTHON = (sys.executable, *(["-P"] if sys.flags.safe_path else []))
#: (engine class, seats, compiled strategy kinds) warmed in this process (:func:`warm_for_run`)
_WARMED: set = set()


def _parts_apart(game, plans: bool = True) -> tuple[list, list]:
    """The kernels a cold start of ``game``'s engine compiles ahead, ``(apart, here)``: ``(dispatcher, argument
    types)`` pairs not in the on-disk cache, ``apart`` for a second process (its routers' ``compile_parts``: the
    apply dispatcher, ...), ``here`` for this one (the rest it names, the legal-mask dispatcher, and with ``plans``
    the plan choice the play loop links: :func:`_plan_parts`). Both empty for an engine without compiled play or without
    ``compile_parts``, and when the plan play loop has a cache index already (not a cold start: this costs
    nothing then; after a rule edit the kernels compile as they are called). Typed on a blank state
    (:meth:`meeplelab.sim.core.game.Game.blank_state`): nothing compiles here."""
    mod = game.compiled_module() if game.compiled_play else None
    if mod is None or os.environ.get(NO_SPLIT) or _has_index(mod.play_plans):  # NUMBA_DISABLE_JIT: no cache
        return [], []
    parts = getattr(importlib.import_module(mod.legal_at.py_func.__module__), "compile_parts", None)
    if parts is None:
        return [], []
    S, C, prm = mod.kernel_context(game, game.blank_state(game.min_players))
    apart, here = parts(S, C, prm, np.zeros(game.num_actions, np.bool_))
    here = here + (_plan_parts(mod, S, C, prm) if plans else [])
    return [(d, s) for d, s in apart if not _cached(d, s)], [(d, s) for d, s in here if not _cached(d, s)]


def _plan_parts(mod, S, C, prm) -> list:
    """The plan-choice kernels of play module ``mod`` (``sim/core/data/play_module.py.tmpl``) with the argument types
    its play loop calls them with: the feature vector, the plan's choice and the restriction (compiled ahead
    while the second process compiles; a type that differs only costs time, the loop compiles its own)."""
    i, ctx = types.int64, (typeof(S), typeof(C), typeof(prm))
    vec, b1, u1 = types.int64[::1], types.bool_[::1], types.uint64[::1]
    return [(mod.features, (*ctx, i, i, vec)),
            (mod.restricted_mask, (*ctx, i, i, i, types.int64[:, ::1], types.bool_[:, ::1], i, i, vec, vec, b1)),
            (mod.plan_choice, (*ctx, i, i, types.int64[:, ::1], types.int64[:, ::1], vec, i, i, i, vec, b1, vec, u1,
                               u1, i))]


def _has_index(disp) -> bool:
    """Whether numba's on-disk cache has an index file for ``disp`` (some signature of it was cached once)."""
    try:
        return Path(disp._cache._cache_file._index_path).exists()
    except AttributeError:  # no on-disk cache (NUMBA_DISABLE_JIT, no locator): nothing to share
        return True


def _cached(disp, sig: tuple) -> bool:
    """Whether numba's on-disk cache (or this process) holds ``disp`` compiled for ``sig``; reads the cache's index
    only (never loads machine code)."""
    if sig in disp.overloads:
        return True
    cache = disp._cache
    try:
        return cache._index_key(sig, disp.targetctx.codegen()) in cache._cache_file._load_index()
    except (AttributeError, OSError):  # no on-disk cache (NUMBA_DISABLE_JIT, no locator): nothing to share
        return True


@contextlib.contextmanager
def compiling_apart(game, plans: bool = True):
    """Compile a cold engine's kernels in two processes at once (two cores), around a block that compiles them.

    The kernels the engine names (:func:`_parts_apart`: the apply dispatcher and what it reaches, about half of the
    play loop's cold compile) compile in a second process (``python -m meeplelab.play.warmup --compile``, quiet: the
    compile notice is said here, once), while this process compiles the rest ahead (the legal-mask dispatcher, the
    plan choice), then runs the block; the moment the block needs one of the named kernels this process waits for
    the second and loads the kernel from the on-disk cache (numba writes each cache file whole, under a temporary
    name then renamed). Warm (every named kernel cached) or an engine naming none: the block runs alone. A second
    process that fails only costs time: this process then compiles the kernel itself. The games are unchanged.
    ``plans`` False: the block plays no compiled plan (the Python-loop rule kernels only), the plan choice is left
    out."""
    parts, here = _parts_apart(game, plans)
    if not parts:
        yield
        return
    jitcache.say_compiling(jitcache.compile_notice(getattr(parts[0][0]._cache, "_cache_path", None)))
    names = [(d.py_func.__module__, d.py_func.__qualname__, sig) for d, sig in parts]
    proc = subprocess.Popen([*_PYTHON, "-m", "meeplelab.play.warmup", "--compile"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stdin = proc.stdin
    assert stdin is not None  # stdin=PIPE
    try:
        stdin.write(pickle.dumps(names))
        stdin.close()
    except OSError:
        pass  # it ended early: this process compiles everything
    caches = list({id(d._cache): d._cache for d, _ in parts}.values())
    for c in caches:
        c.load_overload = _waiting(c.load_overload, proc)
    try:
        for d, sig in here:
            d.compile(sig)
        yield
    except BaseException:
        proc.kill()  # interrupted: leave no process behind
        raise
    finally:
        for c in caches:
            del c.load_overload
        proc.wait()  # its kernels are cached for the next run even when this block did not need them


def _waiting(load, proc):
    """``load`` (a cache's ``load_overload``) called once ``proc`` has ended."""

    def load_overload(sig, target_context):
        proc.wait()
        return load(sig, target_context)

    return load_overload


def _compile_named() -> None:
    """``--compile``: compile the kernels named on stdin (pickled ``(module, name, argument types)`` triples) into the
    on-disk cache, saying nothing (the parent said the compile notice: :func:`compiling_apart`)."""
    jitcache.worker_mode(True)
    for module, name, sig in pickle.loads(sys.stdin.buffer.read()):
        getattr(importlib.import_module(module), name).compile(sig)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    everything = "--all" in args  # also the Python-loop, heuristic and ISMCTS kernels (the test suite's warm-up)
    heuristic = "--heuristic" in args  # also the play loop with the compiled heuristic (meeplelab stronger)
    flags = ["--all"] * everything + ["--heuristic"] * heuristic
    args = [a for a in args if a not in ("--all", "--heuristic")]
    if args == ["--compile"]:
        _compile_named()
        return 0
    if args and args[0] == "--one":
        secs = warm(args[1], say=lambda t: print(t, flush=True), everything=everything, heuristic=heuristic)
        print(f"warmed {args[1]} in {secs:.0f} s", flush=True)
        return 0
    names = args or builtin_games()
    # several games compile at once, one process each, and fill the cores already: none splits its own compile
    env = dict(os.environ, **({NO_SPLIT: "1"} if len(names) > 1 else {}))
    procs = [subprocess.Popen([*_PYTHON, "-m", "meeplelab.play.warmup", "--one", n] + flags, env=env)
             for n in names]
    return max(p.wait() for p in procs)


if __name__ == "__main__":
    sys.exit(main())
