"""``meeplelab replay`` on the test game: a header line whenever a round begins (games without
their own ``describe_round`` get a plain one)."""

from __future__ import annotations

import polars as pl

from meeplelab.analysis.replay import replay_text
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate


def test_replay_marks_each_round_of_a_game_without_its_own_header(tmp_path):
    out = tmp_path / "run"
    simulate(RunConfig(game="toy", players=2, strategies=("random",), games=4, seed=1, batch_size=4, n_jobs=1,
                       out=str(out)))
    lines = list(replay_text(out, 1))
    heads = [ln for ln in lines if ln.startswith("---")]
    rounds = pl.read_parquet(str(out / "games" / "*.parquet")).filter(pl.col("game") == 1)["rounds"][0]
    assert heads == [f"--- Round {r} ---" for r in range(1, rounds + 1)]
    # each header comes before the first decision of its round, by seat 1
    for h in heads:
        nxt = next(ln for ln in lines[lines.index(h) + 1:] if ln.startswith("ply"))
        assert " seat 1: " in nxt
    assert lines[-1] == "(matches the logged final scores)"
