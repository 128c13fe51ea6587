"""The compiled heuristic against the Python-loop heuristic: games/s side by side, same run, seeds
and strategies (``meeplelab.play.batch.play_batch`` with ``compiled`` True, then False; n_jobs 1, one batch, logs kept,
no Parquet). Small by design (seconds); the figures in docs/compiled_play.md come from::

    python -m meeplelab.benchmarks.heuristic --games 128
    python -m meeplelab.benchmarks.heuristic --game unconscious-mind --games 128

Each line: the seats, the games, compiled games/s, Python-loop games/s and their ratio. The ``random`` seat is
a Python strategy: its plies leave the play kernel (``ST_PYTHON``) on the compiled path.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from meeplelab.play.batch import play_batch
from meeplelab.sim.registry import make_game
from meeplelab.strategies.registry import make_strategy

#: seatings measured by default, by game
SEATINGS = {
    "galileos-truth": ("heuristic+random", "heuristic+observer", "observer+heuristic+writer+inventor",
                       "heuristic+heuristic+heuristic+heuristic"),
    "unconscious-mind": ("heuristic+random", "heuristic+publisher", "publisher+heuristic+citer+curer",
                         "heuristic+heuristic+heuristic+heuristic"),
}


def side_by_side(game_name: str, seating: str, games: int, seed: int = 1) -> tuple[float, float]:
    """``(compiled games/s, Python-loop games/s)`` of games ``1000..1000+games-1`` of run ``seed``, both paths
    warmed first (kernels compiled or loaded from the cache)."""
    g = make_game(game_name)
    seats = [make_strategy(game_name, s) for s in seating.split("+")]
    for compiled in (True, False):
        play_batch(g, seats, np.arange(4), seed, compiled=compiled)
    out = []
    for compiled in (True, False):
        t0 = time.perf_counter()
        play_batch(g, seats, np.arange(1000, 1000 + games), seed, compiled=compiled)
        out.append(games / (time.perf_counter() - t0))
    return out[0], out[1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=128, help="games per seating and path (default 128)")
    ap.add_argument("--game", default="galileos-truth", help="a registered game (default: %(default)s)")
    ap.add_argument("seatings", nargs="*", help="seats joined by + (default: the game's SEATINGS)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games {args.games}: allowed: an integer >= 1")
    if not args.seatings and args.game not in SEATINGS:
        ap.error(f"--game {args.game} has no default seatings: name them, or use one of {', '.join(SEATINGS)}")
    print("| seats | games | compiled games/s | Python-loop games/s | ratio |\n|---|---|---|---|---|")
    for s in args.seatings or SEATINGS[args.game]:
        c, p = side_by_side(args.game, s, args.games)
        print(f"| {s} | {args.games} | {c:,.0f} | {p:,.1f} | {c / p:.1f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
