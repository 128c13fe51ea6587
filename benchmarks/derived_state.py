"""Would Galileo's Truth's payability be worth keeping incrementally?

The kernel profile (``meeplelab bench --only profile``) shows the Main-Action (P_MAIN), stack (P_STACK) and
Secondary-Action (P_SEC) masks spending most of their time on payability checks (``iset_ok``, ``stack_card_ok``).
A kept copy of a seat's payable spaces and cards only saves work when it is read again before its inputs change.
This counts, at every such decision, whether the inputs of the acting seat's payability are the same as at that
seat's previous decision of the same kind in the same game: the seat's Coins, Research, Books, Suspicion, Level,
Copernican side and Natural Philosopher, the card types in its hand, its untapped Inventions, the spaces in use,
the Cycle and the stack (count and Subject). A hit is a decision a cache keyed by those inputs could answer::

    python -m meeplelab.benchmarks.derived_state --games 500

Prints, per decision kind: decisions, hits and the hit rate ``[games, 4 seats, the benchmark strategies]``.
No timing; the figures are quoted in benchmarks/notes.md.
"""

from __future__ import annotations

import argparse

import numpy as np
import meeplelab.sim.galileos_truth.state as K
from meeplelab.play.batch import play_batch
from meeplelab.sim.galileos_truth.cols import (BOOKS, COINS, COPER, CYCLE, INV_OWNER, INV_TAPPED, LEVEL, NSLOTS, PHASE,
                                               PHIL, RESEARCH, SLOT_CTYPE, SLOT_CZONE, SPACE_USED, STACK_N, STACK_SUBJ,
                                               SUSP, TO_ACT)
from meeplelab.sim.galileos_truth.state import Z_HAND
from meeplelab.sim.registry import make_game
from meeplelab.strategies.registry import make_strategy

#: the benchmark strategies of Galileo's Truth, seat by seat (benchmarks/bench.py BENCH_STRATEGY)
STRATEGIES = ("writer", "observer", "inventor", "never-abjure")


def payability_inputs(st, b: int, p: int) -> tuple:
    """What the payability of seat ``p`` in game row ``b`` of ``st`` reads (see the module docstring)."""
    sr = st.seat[b, p]
    ns = int(sr[NSLOTS])
    zone, ctype = st.slot[b, p, :ns, SLOT_CZONE], st.slot[b, p, :ns, SLOT_CTYPE]
    hand = tuple(sorted(int(t) for z, t in zip(zone, ctype) if z == Z_HAND))
    inv = tuple((st.inv[b, :, INV_OWNER] == p) & (st.inv[b, :, INV_TAPPED] == 0))
    return (int(sr[COINS]), int(sr[RESEARCH]), tuple(int(x) for x in sr[BOOKS:BOOKS + 6]), int(sr[SUSP]),
            int(sr[LEVEL]), int(sr[COPER]), int(sr[PHIL]), hand, inv, tuple(st.space[b, :, SPACE_USED]),
            int(st.game[b, CYCLE]), int(st.game[b, STACK_N]), int(st.game[b, STACK_SUBJ]))


def cache_hits(games: int, seed: int = 1) -> dict[str, tuple[int, int]]:
    """``{kind: (decisions, hits)}`` over games ``0..games-1`` of run ``seed`` (4 seats, :data:`STRATEGIES`),
    played on the Python loop so every state is seen."""
    game = make_game("galileos-truth")
    kinds = {"P_MAIN": K.P_MAIN, "P_STACK": K.P_STACK, "P_SEC": K.P_SEC}
    last: dict = {}
    count = {k: [0, 0] for k in kinds}

    def on_step(st):
        ph = st.game[:, PHASE]
        for name, k in kinds.items():
            for b in np.flatnonzero(ph == k):
                p = int(st.game[b, TO_ACT])
                key = payability_inputs(st, b, p)
                at = (int(st.game_id[b]), p, name)
                count[name][0] += 1
                count[name][1] += last.get(at) == key
                last[at] = key

    strategies = [make_strategy("galileos-truth", s) for s in STRATEGIES]
    play_batch(game, strategies, np.arange(games, dtype=np.int64), seed, on_step=on_step)
    return {k: (n, h) for k, (n, h) in count.items()}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if a.games < 1:
        ap.error(f"--games {a.games}: allowed 1 or more")
    print(f"| decision | decisions | cache hits | hit rate |  ({a.games} games, seed {a.seed})")
    print("|---|---|---|---|")
    for k, (n, h) in cache_hits(a.games, a.seed).items():
        print(f"| {k} | {n:,} | {h:,} | {h / max(n, 1):.1%} |")


if __name__ == "__main__":
    main()
