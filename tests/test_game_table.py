"""meeplelab.strategies.base.game_table: content tables cached per engine object, never by a reusable id."""

from __future__ import annotations

import gc

import meeplelab.strategies.base as base
from meeplelab.sim.registry import make_game
import tests.toygame as toy


def test_a_table_is_built_once_per_engine_and_dropped_with_it():
    calls = []

    def build(game):
        calls.append(game.params)
        return len(calls)

    g1, g2 = make_game("toy"), make_game("toy", toy.ToyParams(copies=2))
    assert base.game_table(g1, "t", build) == 1 and base.game_table(g1, "t", build) == 1
    assert base.game_table(g2, "t", build) == 2  # another engine gets its own table
    n = len(base._GAME_TABLES)
    del g1
    gc.collect()
    assert len(base._GAME_TABLES) == n - 1
