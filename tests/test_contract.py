"""Contract every registered game must pass (pgx ``api_test``, TAG ``ForwardModelTester``)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplelab.sim.core.rng import Streams
from meeplelab.sim.registry import available_games, make_game

GAMES = available_games()


def _players(game):
    return list(range(game.min_players, game.max_players + 1))


@pytest.mark.parametrize("name", GAMES)
def test_random_play_ends_with_nonempty_masks_and_final_scores(name):
    game = make_game(name)
    for players in _players(game):
        for seed in (1, 2, 3):
            state = game.init(np.arange(6), seed, players)
            streams = Streams.for_games(seed, state.game_id, 1)
            bound = game.max_plies(players)
            steps = 0
            while not game.done(state).all():
                done = game.done(state)
                mask = game.legal_action_mask(state)
                assert mask.shape == (6, game.num_actions) and mask.dtype == np.bool_
                live = np.flatnonzero(~done)
                assert mask[live].any(axis=1).all(), f"{name}: empty legal mask in a running game"
                assert not mask[done].any(), f"{name}: finished game has legal actions"
                seat = game.to_act(state)
                assert ((seat[live] >= 0) & (seat[live] < players)).all()
                acts = np.full(6, -1, np.int64)
                acts[live] = streams.choose_legal(live, mask[live])
                ply_before = state.ply.copy()
                game.step(state, acts, mask)
                assert (state.ply[live] == ply_before[live] + 1).all()
                assert (state.ply[done] == ply_before[done]).all()
                assert not game.check_invariants(state), game.check_invariants(state)
                state.turn_n[:] = 0
                state.event_n[:] = 0
                steps += 1
                assert steps <= bound
            scores = game.final_scores(state)
            assert scores.shape == (6, players)
            # final scores are final: stepping a finished batch changes nothing
            again = state.copy()
            game.step(again, np.full(6, -1))
            assert again.equals(state)
            bd = game.score_breakdown(state)
            if bd:
                assert np.array_equal(sum(bd.values()), scores), f"{name}: score breakdown does not sum to final VP"


@pytest.mark.parametrize("name", GAMES)
def test_state_copy_is_independent_of_the_original(name):
    game = make_game(name)
    players = min(2, game.max_players)
    state = game.init(np.arange(4), 5, players)
    streams = Streams.for_games(5, state.game_id, 1)
    for _ in range(7):
        mask = game.legal_action_mask(state)
        live = np.flatnonzero(~game.done(state))
        acts = np.full(4, -1, np.int64)
        acts[live] = streams.choose_legal(live, mask[live])
        game.step(state, acts, mask)
        state.turn_n[:] = 0
        state.event_n[:] = 0
    snap = state.copy()
    copy = state.copy()
    # drive the copy forward: the original must not change
    s2 = streams.copy()
    for _ in range(20):
        mask = game.legal_action_mask(copy)
        live = np.flatnonzero(~game.done(copy))
        if live.size == 0:
            break
        acts = np.full(4, -1, np.int64)
        acts[live] = s2.choose_legal(live, mask[live])
        game.step(copy, acts, mask)
        copy.turn_n[:] = 0
        copy.event_n[:] = 0
    assert state.equals(snap), f"stepping a copy changed the original: {state.diff_fields(snap)}"
    assert not copy.equals(snap)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game_in_any_batch(name):
    game = make_game(name)
    players = game.max_players
    big = game.play_random(np.arange(9), 11, players)
    one = game.play_random(np.array([4]), 11, players)
    assert np.array_equal(game.final_scores(big)[4], game.final_scores(one)[0])
    assert big.ply[4] == one.ply[0]
