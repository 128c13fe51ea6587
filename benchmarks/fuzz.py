"""Slow invariant-fuzzing run: ``python -m meeplelab.benchmarks.fuzz --game NAME --games 1000000``.

Plays ``--games`` random games per engine, spread evenly over the game's player counts, with
``Game.check_invariants`` after every decision (the same loop as ``tests/test_invariants.py``, same
seeds: ``1000 + players``), and writes one Markdown table per engine to ``--out`` (default
``fuzz_<game>.md`` in the working folder, never into the installed package; paste it into RESULTS.md). Prints
progress per batch. Exit code 1 when any invariant breaks, with the game's player count and the checker's
messages.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from meeplelab.sim.fuzz import fuzz
from meeplelab.sim.registry import available_games, make_game


def run(name: str, games: int, batch: int) -> tuple[list[dict], list[str]]:
    """Fuzz ``games`` games of ``name``; returns one row per player count and any violations."""
    game = make_game(name)
    counts = list(range(game.min_players, game.max_players + 1))
    per = max(1, games // len(counts))
    rows, broken = [], []
    for players in counts:
        t0, plies, longest, done = time.perf_counter(), 0, 0, 0
        for lo in range(0, per, batch):
            ids = np.arange(lo, min(lo + batch, per), dtype=np.int64)
            res = fuzz(game, players, ids, seed=1000 + players)
            plies += res.plies
            longest = max(longest, res.max_ply)
            done += ids.size
            if res.violations:
                broken += [f"{name} {players}p games {lo}..{lo + ids.size - 1}: {v}" for v in res.violations]
                break
            print(f"{name} {players}p: {done:,}/{per:,} games, {plies:,} decisions, "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        rows.append(dict(game=name, players=players, games=done, plies=plies, longest=longest,
                         bound=game.max_plies(players), breaks=len(broken),
                         seconds=time.perf_counter() - t0))
    return rows, broken


def render(rows: list[dict]) -> str:
    """Markdown table of fuzz rows (games, decisions, longest game vs ply bound, breaks, seconds)."""
    out = ["| game | players | games | decisions | longest game (plies) | ply bound | invariant breaks | seconds |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['game']} | {r['players']} | {r['games']:,} | {r['plies']:,} | {r['longest']:,} | "
                   f"{r['bound']:,} | {r['breaks']} | {r['seconds']:.0f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", required=True, choices=available_games())
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--batch", type=int, default=int(os.environ.get("MEEPLELAB_FUZZ_BATCH", "2500")))
    ap.add_argument("--out", type=Path, default=None, help="the table's file (default: fuzz_<game>.md in the working "
                                                          "folder)")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    rows, broken = run(a.game, a.games, a.batch)
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = (f"Fuzz run {stamp}: {a.game}, {sum(r['games'] for r in rows):,} random games, "
            f"{time.perf_counter() - t0:.0f} s wall\n\n{render(rows)}\n")
    if broken:
        text += "\nViolations:\n" + "\n".join(f"- {b}" for b in broken) + "\n"
    out = a.out or Path.cwd() / f"fuzz_{a.game}.md"
    tmp = out.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(out)
    print(text)
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
