"""Invariant fuzzing: random legal play with the game's invariant checker after every step.

Used by ``tests/test_invariants.py`` (20,000 games per engine in CI) and by the slow run
``python -m meeplelab.benchmarks.fuzz`` (1,000,000 games per engine, recorded in benchmarks/RESULTS.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meeplelab.sim.core.game import Game
from meeplelab.sim.core.rng import Streams


@dataclass
class FuzzResult:
    """Outcome of one fuzzed batch.

    ``plies`` counts decisions taken (one per live game per step); ``violations`` holds the
    checker's messages for the first step that broke an invariant (empty when none broke);
    ``max_ply`` is the longest game in plies, to compare with ``Game.max_plies``.
    """

    plies: int
    violations: list[str]
    max_ply: int


def fuzz(game: Game, players: int, game_ids: np.ndarray, seed: int) -> FuzzResult:
    """Play random games ``game_ids`` ``[B]`` to the end, checking invariants after every step.

    Actions are drawn uniformly from each game's legal action mask with the counter-based stream
    keyed by (``seed``, game id), so a game's trajectory does not depend on the batch it is in.
    Stops at the first step with a violation. Once half the batch has ended, the running games go on
    alone (``take``: the same games, their streams with them); an ended game was checked after the
    step that ended it and is stepped no more.

    Raises:
        AssertionError: a running game has an empty legal mask, or a game passes its ply bound.
    """
    state = game.init(game_ids, seed, players)
    streams = Streams.for_games(seed, state.game_id, 1)
    bound = game.max_plies(players)
    plies = 0
    while True:
        done = game.done(state)
        if done.all():
            break
        if 2 * np.count_nonzero(~done) <= done.size:  # half the batch has ended: play the running games alone
            keep = np.flatnonzero(~done)
            state, streams = state.take(keep), streams.take(keep)
            continue
        mask = game.legal_action_mask(state)
        live = np.flatnonzero(~done)
        assert mask[live].any(axis=1).all(), "empty legal mask in a running game"
        acts = np.full(state.batch_size, -1, np.int64)
        acts[live] = streams.choose_legal(live, mask[live])
        game.step(state, acts, mask)
        plies += live.size
        bad = game.check_invariants(state)
        if bad:
            return FuzzResult(plies, bad, int(state.ply.max()))
        state.turn_n[:] = 0
        state.event_n[:] = 0
        assert state.ply.max() <= bound, f"a game passed its ply bound {bound}"
    return FuzzResult(plies, [], int(state.ply.max()))
