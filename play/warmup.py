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
from meeplelab.play.batch import play_batch, uses_compiled_play
from meeplelab.sim.registry import builtin_games, make_game
from meeplelab.strategies.plans import CompiledPlan, Plan


def warm(name: str, say=None) -> float:
    """Play a few random games of ``name`` at every player count, on the Python loop and, when the engine
    has compiled play, on its play kernel (docs/compiled_play.md); returns seconds.

    ``say(text)``, when given, is called before each step with ``warming NAME: step n of m (what)``."""
    import numpy as np

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game = make_game(name)
        counts = list(range(game.min_players, game.max_players + 1))
        steps: list[tuple[str, int, bool | None]] = [(f"rule kernels, {p} players", p, None) for p in counts]
        if game.compiled_play:  # the play kernels (plans alone, with the heuristic, with ISMCTS), then the plan choice
            steps += [("compiled play kernel", game.min_players, True), ("plans on the Python loop", game.min_players, False)]
        for k, (what, players, compiled) in enumerate(steps):
            if say is not None:
                say(f"warming {name}: step {k + 1} of {len(steps)} ({what})")
            if compiled is None:
                game.play_random(np.arange(2), 1, players)
            else:
                play_batch(game, [CompiledPlan(Plan("warmup"))] * players, np.arange(2), 1, compiled=compiled)
                if compiled:  # the play loop with the heuristic and with ISMCTS, on the argument types just played
                    mod = game.compiled_module()
                    for sig in mod.play_plans.signatures:
                        mod.play_heuristic.compile(sig)
                        mod.play.compile(sig)
    return time.perf_counter() - t0


def warm_for_run(game, players: int, seed: int, compiled: bool = True, strategies=None) -> None:
    """Compile (or load) in this process every engine kernel a run of ``game`` (an engine instance) at
    ``players`` seats plays: the rule kernels (one random game) and, when ``compiled`` and the engine has
    compiled play, its play kernel (one game in which every seat whose strategy in ``strategies`` plays
    inside the kernel, a compiled plan or a heuristic with a compiled form, keeps it and every other seat
    plays a compiled plan, so no Python-side search is played here). The runner calls it before starting
    loky workers, so they load the kernels from the on-disk cache instead of each compiling them at once,
    and the compile notice and its progress are said once, here (:mod:`meeplelab.sim.jitcache`). Nothing is written;
    the games of the run do not depend on it (their streams are keyed by game)."""
    import numpy as np

    seats = None
    if compiled and game.compiled_play:
        given = list(strategies) if strategies is not None and len(strategies) == players else [None] * players
        seats = [s if s is not None and uses_compiled_play(game, [s]) else CompiledPlan(Plan("warmup")) for s in given]
    # the kernels depend on the engine and the kinds of the seats' compiled strategies, not on the rule numbers,
    # the content or the seed: once per process (a tournament or a study warms before each of its many runs)
    key = (type(game), players, tuple(type(s).__name__ for s in seats) if seats is not None else None)
    if key in _WARMED:
        return
    game.play_random(np.arange(1), seed, players)
    if seats is not None:
        play_batch(game, seats, np.arange(1), seed, compiled=True, log_turns=False, log_events=False)
    _WARMED.add(key)


#: (engine class, seats, compiled strategy kinds) warmed in this process (:func:`warm_for_run`)
_WARMED: set = set()


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "--one":
        print(f"warmed {args[1]} in {warm(args[1], say=lambda t: print(t, flush=True)):.0f} s", flush=True)
        return 0
    names = args or builtin_games()
    procs = [subprocess.Popen([sys.executable, "-m", "meeplelab.play.warmup", "--one", n]) for n in names]
    return max(p.wait() for p in procs)


if __name__ == "__main__":
    sys.exit(main())
