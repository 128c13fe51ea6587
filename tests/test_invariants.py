"""Invariant fuzzing and state-copy integrity for every registered game.

Random games across player counts with ``game.check_invariants`` after every step. CI plays
``MEEPLELAB_FUZZ_GAMES`` games per engine (default 20,000, spread over the player counts); the
documented slow run sets it to 1,000,000 and records the result in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from meeplelab.sim.core.rng import Streams
from meeplelab.sim.fuzz import fuzz
from meeplelab.sim.registry import available_games, make_game

GAMES = available_games()
FUZZ_GAMES = int(os.environ.get("MEEPLELAB_FUZZ_GAMES", "20000"))
FUZZ_BATCH = int(os.environ.get("MEEPLELAB_FUZZ_BATCH", "2500"))


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_every_invariant_and_end_within_the_ply_bound(name):
    game = make_game(name)
    counts = list(range(game.min_players, game.max_players + 1))
    per = max(1, FUZZ_GAMES // len(counts))
    total = 0
    for players in counts:
        for lo in range(0, per, FUZZ_BATCH):
            ids = np.arange(lo, min(lo + FUZZ_BATCH, per), dtype=np.int64)
            res = fuzz(game, players, ids, seed=1000 + players)
            assert not res.violations, f"{name} {players}p: {res.violations[:3]}"
            assert res.max_ply <= game.max_plies(players)
            total += ids.size
    assert total >= FUZZ_GAMES - len(counts)


@pytest.mark.parametrize("name", GAMES)
def test_a_copy_taken_mid_game_evolves_identically_to_the_original(name):
    game = make_game(name)
    players = game.max_players
    state = game.init(np.arange(16), 21, players)
    streams = Streams.for_games(21, state.game_id, 1)
    for _ in range(25):
        mask = game.legal_action_mask(state)
        live = np.flatnonzero(~game.done(state))
        acts = np.full(16, -1, np.int64)
        acts[live] = streams.choose_legal(live, mask[live])
        game.step(state, acts, mask)
        state.turn_n[:] = 0
        state.event_n[:] = 0
    copy = state.copy()
    assert copy.equals(state)
    s_orig, s_copy = streams.copy(), streams.copy()
    for _ in range(60):
        for st, rs in ((state, s_orig), (copy, s_copy)):
            mask = game.legal_action_mask(st)
            live = np.flatnonzero(~game.done(st))
            acts = np.full(16, -1, np.int64)
            acts[live] = rs.choose_legal(live, mask[live])
            game.step(st, acts, mask)
        assert copy.equals(state), f"copy diverged in {copy.diff_fields(state)}"
        for st in (state, copy):
            st.turn_n[:] = 0
            st.event_n[:] = 0


@pytest.mark.parametrize("name", GAMES)
def test_take_and_put_round_trip_a_subset_of_games(name):
    game = make_game(name)
    state = game.init(np.arange(8), 3, game.min_players)
    sub = state.take(np.array([5, 2]))
    assert sub.batch_size == 2 and int(sub.game_id[0]) == 5
    other = state.copy()
    other.put(np.array([5, 2]), sub)
    assert other.equals(state)
