"""Golden tables: content hashes of the games, turns and events tables of fixed games.

A change meant to keep games identical (a refactor of the engine convention, compiled play) must leave
every hash here unchanged; ``tests/test_golden.py`` compares them. A change meant to alter games (a rule
fix) re-records them, in the same commit, with::

    python -m tests.golden --update

Each case plays games ``0..games-1`` of run ``seed`` through :func:`meeplelab.play.batch.play_batch` (the engine and
the strategies, no runner), with the default parameters and content, and hashes each table as CSV text
(SHA-256, first 16 hex digits), so any changed value, row or column shows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np
import polars as pl

GOLDEN = Path(__file__).with_name("golden.json")

# (game, strategies by seat, games, seed): several seeds, strategies and player counts of both engines
CASES: tuple[tuple[str, tuple[str, ...], int, int], ...] = (
    ("unconscious-mind", ("publisher", "citer"), 6, 1),
    ("unconscious-mind", ("coffee-engine", "publisher", "citer", "curer"), 4, 2),
    ("unconscious-mind", ("random", "heuristic", "city-walker"), 3, 3),
    ("unconscious-mind", ("never-cite", "city-walker", "citer", "publisher"), 4, 4),
    ("unconscious-mind", ("curer", "never-cite", "coffee-engine"), 4, 5),
    ("galileos-truth", ("writer", "never-abjure"), 6, 1),
    ("galileos-truth", ("abjure-at:cycle=2", "never-abjure", "writer", "suspicion-averse"), 4, 2),
    ("galileos-truth", ("random", "heuristic", "observer"), 3, 3),
)


def case_id(case: tuple) -> str:
    """A readable key for one case: ``game/strategies/games/seed``."""
    game, strategies, games, seed = case
    return f"{game}/{'+'.join(strategies)}/{games}/{seed}"


def table_hash(table) -> str:
    """SHA-256 (16 hex digits) of a pyarrow table's CSV text (header included)."""
    csv = pl.from_arrow(table).write_csv()
    return hashlib.sha256(csv.encode()).hexdigest()[:16]


def play_case(case: tuple, compiled: bool = True) -> dict[str, str]:
    """Hashes ``{"games", "turns", "events"}`` of one case's tables (``compiled=False``: every seat on the
    Python loop, compiled plans included)."""
    from meeplelab.play.batch import play_batch
    from meeplelab.sim.registry import make_game
    from meeplelab.strategies.registry import make_strategy

    game_id, strategies, games, seed = case
    game = make_game(game_id)
    seats = [make_strategy(game_id, s) for s in strategies]
    res = play_batch(game, seats, np.arange(games, dtype=np.int64), seed, compiled=compiled)
    return {"games": table_hash(res.games), "turns": table_hash(res.turns), "events": table_hash(res.events)}


def record() -> dict[str, dict[str, str]]:
    """Hashes of every case, keyed by :func:`case_id`."""
    return {case_id(c): play_case(c) for c in CASES}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="write tests/golden.json from the current code")
    args = ap.parse_args()
    got = record()
    if args.update:
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"wrote {GOLDEN} ({len(got)} cases)")
    else:
        print(json.dumps(got, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
