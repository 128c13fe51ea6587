"""Randomness keyed by what it is for: a game's result never depends on its batch,
whichever built-in strategy plays, and ``replay`` reproduces every logged game."""

from __future__ import annotations

import numpy as np
import pytest

from meeplelab.analysis.replay import replay_text
from meeplelab.play.config import RunConfig
from meeplelab.sim.core.rng import candidate_keys, chance_below, chance_shuffle, decision_keys, event_keys, stream_keys
from meeplelab.play.runner import simulate
from meeplelab.strategies.registry import strategies_for
from tests.test_runner import assert_same_tables

#: the partner seat of each game (a scripted plan)
PARTNER = {"galileos-truth": "writer", "unconscious-mind": "publisher"}
#: cheaper arguments where the defaults would make a slow test (same code paths)
CHEAP = {"rollout": "rollout:k=2,top=2,horizon=1", "ismcts": "ismcts:iters=6,top=2,horizon=1"}
CASES = [(g, CHEAP.get(i.name, i.name)) for g in PARTNER for i in strategies_for(g)]


@pytest.mark.parametrize("game,strategy", CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_every_builtin_strategy_gives_the_same_games_in_any_batch_and_replay_reproduces_them(tmp_path, game,
                                                                                             strategy):
    runs = {}
    for bs in (2, 1):
        runs[bs] = tmp_path / f"batch{bs}"
        simulate(RunConfig(game=game, players=2, strategies=(strategy, PARTNER[game]), games=2, seed=3, batch_size=bs,
                           chunk_size=2, n_jobs=1, out=str(runs[bs])))
    assert_same_tables(runs[2], runs[1])  # games, turns and events identical, batch of 2 or of 1
    assert list(replay_text(runs[2], 1))[-1] == "(matches the logged final scores)"


def test_decision_streams_depend_on_seat_key_and_decision_only():
    seat = stream_keys(3, np.arange(6), 2)
    a = decision_keys(seat, np.array([0, 5, 5, 9, 0, 1]))
    b = decision_keys(seat[[2, 4]], np.array([5, 0]))
    assert a[2] == b[0] and a[4] == b[1]
    assert len(set(decision_keys(seat[:1].repeat(50), np.arange(50)).tolist())) == 50  # one stream per decision


def test_candidate_streams_keyed_by_identity_not_position():
    base = np.array([11, 11, 22, 22], np.uint64)
    k = candidate_keys(base, np.array([3, 7, 3, 7]))
    assert len(set(k.tolist())) == 4
    assert candidate_keys(base[2:], np.array([7, 3]))[0] == k[3]


def test_chance_events_keyed_by_zone_and_event_number():
    keys = stream_keys(8, np.arange(2), 0)
    counts = np.zeros((2, 3), np.uint64)
    a = np.arange(20)
    chance_shuffle(keys, counts, 0, 1, a, 0, 20)
    counts2 = np.zeros((2, 3), np.uint64)
    chance_shuffle(keys, counts2, 0, 2, np.arange(5), 0, 5)  # another zone first: zone 1 is not moved
    b = np.arange(20)
    chance_shuffle(keys, counts2, 0, 1, b, 0, 20)
    assert np.array_equal(a, b) and counts[0, 1] == 1 and counts2[0].tolist() == [0, 1, 1]
    c = np.arange(20)
    chance_shuffle(keys, counts2, 0, 1, c, 0, 20)  # the zone's second event differs from its first
    assert sorted(c.tolist()) == list(range(20)) and not np.array_equal(b, c)
    d = [chance_below(keys, np.zeros((2, 3), np.uint64), 1, 0, 1000) for _ in range(3)]
    assert d[0] == d[1] == d[2]  # same (game, zone, event number): same draw
    assert event_keys(keys, 1, 0)[0] != event_keys(keys, 1, 1)[0] != event_keys(keys, 2, 0)[0]
