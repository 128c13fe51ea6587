"""A run is resolved once: during one ``simulate`` at n_jobs 2, from the API and from the
command line, the config is resolved once, the seating planned once and the game class looked up once, in
the parent and its loky workers together (counted in every process: ``tests/counting.py``)."""

from __future__ import annotations

import os
import sys

import pytest

from meeplelab.play.config import RunConfig
from tests.counting import install, read
from tests.processes import end_workers

ONCE = {"resolve": 1, "plan_seating": 1, "get_game_class": 1}


@pytest.fixture
def counted(tmp_path, monkeypatch):
    """The count file, counting in this process and in loky workers started from now on."""
    path = tmp_path / "calls.txt"
    end_workers()  # the workers of earlier tests do not count: fresh ones start with the variable set
    monkeypatch.setenv("MEEPLELAB_TEST_COUNT", str(path))
    restore = install(path)
    yield path
    restore()
    monkeypatch.delenv("MEEPLELAB_TEST_COUNT")
    end_workers()  # no counting worker outlives the test


def _totals(path) -> tuple[dict[str, int], set[int]]:
    calls = read(path)
    workers = set(calls.get("chunk", {})) - {os.getpid()}
    return {k: sum(calls[k].values()) for k in ONCE}, workers


def test_one_simulate_at_n_jobs_2_resolves_plans_and_looks_up_once_workers_included(counted, tmp_path, monkeypatch,
                                                                                    capsys):
    """From the API (a rotated seating without --chunk-size: the chunk size comes from the plan), then from the
    command line, on the same two workers."""
    import cli

    from meeplelab.play.runner import simulate

    cfg = RunConfig(game="toy", players=2, strategies=("random", "always-draw"), games=64, batch_size=4,
                    seating="rotate", n_jobs=2, seed=3, out=str(tmp_path / "api"))
    assert simulate(cfg).games == 64
    totals, workers = _totals(counted)
    assert workers, "no chunk was played in a worker process: the count would not include workers"
    assert totals == ONCE

    counted.unlink()
    monkeypatch.setattr(sys, "argv", ["meeplelab", "simulate", "--game", "toy", "--players", "2", "--strategies",
                                      "random,always-draw", "--games", "64", "--batch-size", "4", "--chunk-size",
                                      "8", "--n-jobs", "2", "--out", str(tmp_path / "cli"), "--no-progress"])
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code in (0, None), capsys.readouterr().err
    assert "wrote 64 games of toy" in capsys.readouterr().out
    totals, workers = _totals(counted)
    assert workers, "no chunk was played in a worker process: the count would not include workers"
    assert totals == ONCE
