"""Compile (and cache) every engine's numba kernels ahead of use: ``python -m meeplelab.play.warmup``.

Numba compiles a kernel on its first call and caches it on disk (``cache=True``). A fresh
checkout pays that once per engine; this module pays it up front, one process per game in
parallel, so the test suite and the first simulation start warm.
"""

from __future__ import annotations

import subprocess
import sys
import time
import warnings

import numpy as np
from meeplelab.play.batch import play_batch, uses_compiled_play
from meeplelab.sim.registry import builtin_games, make_game
from meeplelab.strategies.plans import CompiledPlan, Plan


def warm(name: str, say=None, everything: bool = False) -> float:
    """Compile (or load) the kernels a scripted run of ``name`` plays, at every player count; returns seconds.

    An engine with compiled play (docs/compiled_play.md) plays one game of compiled plans per player count: the
    setup kernels and the play loop of plan seats (``play_plans``), what ``simulate`` with scripted strategies
    runs. The rest compiles on first use: the Python-loop rule kernels (``legal_action_mask``, ``step``: Python
    strategies, ``--python-loop``), the play loops with the compiled heuristic and the ISMCTS (``play_heuristic``,
    ``play``). ``everything`` compiles those too (the test suite's warm-up). An engine without compiled play plays
    one random game per player count (its rule kernels).

    ``say(text)``, when given, is called before each step with ``warming NAME: step n of m (what)``."""
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game = make_game(name)
        steps = _steps(game, everything)
        for k, (what, run) in enumerate(steps):
            if say is not None:
                say(f"warming {name}: step {k + 1} of {len(steps)} ({what})")
            run()
    return time.perf_counter() - t0


def _steps(game, everything: bool) -> list:
    """The warm-up steps of ``game``: ``(what, call)`` pairs (:func:`warm`)."""
    counts = list(range(game.min_players, game.max_players + 1))
    ids = np.arange(2)

    def plans(players: int, compiled: bool):
        return lambda: play_batch(game, [CompiledPlan(Plan("warmup"))] * players, ids, 1, compiled=compiled)

    def rules(players: int):
        return lambda: game.play_random(ids, 1, players)

    if not game.compiled_play:
        return [(f"rule kernels, {p} players", rules(p)) for p in counts]
    steps = [(f"compiled play kernel, {p} players", plans(p, True)) for p in counts]
    if everything:
        steps += [(f"Python-loop rule kernels, {p} players", rules(p)) for p in counts]
        steps += [("plans on the Python loop", plans(game.min_players, False)),
                  ("play kernels with the heuristic and the ISMCTS", lambda: _choosers(game))]
    return steps


def _choosers(game) -> None:
    """Compile the play loops with the compiled heuristic and the ISMCTS on the argument types of the plan loop."""
    mod = game.compiled_module()
    for sig in mod.play_plans.signatures:
        mod.play_heuristic.compile(sig)
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
    if python_seat:
        game.play_random(np.arange(1), seed, players)
    if seats is not None:
        play_batch(game, seats, np.arange(1), seed, compiled=True, log_turns=False, log_events=False)
    _WARMED.add(key)


#: (engine class, seats, compiled strategy kinds) warmed in this process (:func:`warm_for_run`)
_WARMED: set = set()


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    everything = "--all" in args  # also the Python-loop, heuristic and ISMCTS kernels (the test suite's warm-up)
    args = [a for a in args if a != "--all"]
    if args and args[0] == "--one":
        secs = warm(args[1], say=lambda t: print(t, flush=True), everything=everything)
        print(f"warmed {args[1]} in {secs:.0f} s", flush=True)
        return 0
    names = args or builtin_games()
    procs = [subprocess.Popen([sys.executable, "-m", "meeplelab.play.warmup", "--one", n] + ["--all"] * everything)
             for n in names]
    return max(p.wait() for p in procs)


if __name__ == "__main__":
    sys.exit(main())
