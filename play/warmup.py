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


def warm(name: str) -> float:
    """Play a few random games of ``name`` at every player count, on the Python loop and, when the engine
    has compiled play, on its play kernel (docs/compiled_play.md); returns seconds."""
    import numpy as np

    from meeplelab.play.batch import play_batch
    from meeplelab.sim.registry import make_game
    from meeplelab.strategies.plans import CompiledPlan, Plan

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game = make_game(name)
        for players in range(game.min_players, game.max_players + 1):
            game.play_random(np.arange(2), 1, players)
        if game.compiled_play:
            seats = [CompiledPlan(Plan("warmup"))] * game.min_players
            for compiled in (True, False):  # the play kernel, then the plan choice of the Python loop
                play_batch(game, seats, np.arange(2), 1, compiled=compiled)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    from meeplelab.sim.registry import builtin_games

    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "--one":
        print(f"warmed {args[1]} in {warm(args[1]):.0f} s", flush=True)
        return 0
    names = args or builtin_games()
    procs = [subprocess.Popen([sys.executable, "-m", "meeplelab.play.warmup", "--one", n]) for n in names]
    return max(p.wait() for p in procs)


if __name__ == "__main__":
    sys.exit(main())
