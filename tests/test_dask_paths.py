"""Dask with a relative ``--out`` (and a relative preset path): a real LocalCluster whose worker processes were
started in another folder (A) than the command's (B). Every path shipped to a worker is absolute, so the parts of
``simulate --backend dask --out rel`` land under B/rel, and a study's analysis step reads them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import polars as pl
import pytest

from meeplelab.play import runfolder as rf
from meeplelab.play.parallel import map_unordered
from tests.cli_run import run_cli


def preset_args(spec: str) -> tuple[str, str]:
    """A Dask task: the strategy ``spec`` made in the worker (its preset read there), its id and the worker's folder."""
    from meeplelab.strategies.registry import make_strategy

    return make_strategy("toy", spec).id, os.getcwd()


def _parts(run: Path) -> list[str]:
    return sorted(str(p.relative_to(run)) for p in run.rglob("*.parquet"))


@pytest.fixture
def cluster_in_another_folder(tmp_path, monkeypatch):
    """(scheduler address, folder A the workers run in, folder B for the command); B is the working folder."""
    from dask.distributed import Client, LocalCluster

    a, b = tmp_path / "A", tmp_path / "B"
    a.mkdir()
    b.mkdir()
    monkeypatch.chdir(a)  # the worker processes start here
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster.scheduler_address, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=120)
        assert set(client.run(os.getcwd).values()) == {str(a)}  # the workers really run in A
        monkeypatch.chdir(b)
        yield cluster.scheduler_address, a, b


@pytest.mark.slow  # a Dask cluster, a study with its report
def test_simulate_and_a_study_with_a_relative_out_write_under_the_commands_folder(cluster_in_another_folder, capsys,
                                                                                  monkeypatch):
    address, a, b = cluster_in_another_folder
    preset = b / "presets" / "bank.toml"  # a preset named by a relative path: read by the workers
    preset.parent.mkdir()
    preset.write_text('strategy = "bank-at"\ngame = "toy"\n[args]\nn = 3\n')
    dask = ["--n-jobs", "2", "--backend", "dask", "--scheduler", address, "--no-progress"]
    toy = ["simulate", "--game", "toy", "--players", "2", "--games", "40", "--batch-size", "4", "--seating", "fixed"]
    code, stdout, err = run_cli(toy + ["--strategies", "random,bank-at:n=3", "--chunk-size", "8", "--out", "bot_v4",
                                       *dask], capsys, monkeypatch)
    assert code == 0, err
    assert "wrote 40 games of toy to bot_v4" in stdout
    run = b / "bot_v4"
    assert _parts(run) == sorted(f"{t}/{rf.part_name(i)}" for t in rf.TABLES for i in range(5))
    assert not list(a.rglob("*.parquet")) and not (a / "bot_v4").exists()  # nothing in the workers' folder
    m = json.loads((run / rf.MANIFEST).read_text())
    assert m["status"] == "complete" and m["last_call"]["backend"] == "dask"
    # a strategy whose preset file is named by a relative path: the workers read the same file
    code, _, err = run_cli(toy + ["--strategies", "random,bank-at:preset=presets/bank.toml", "--chunk-size", "8",
                                  "--out", "preset", *dask], capsys, monkeypatch)
    assert code == 0, err
    games = pl.read_parquet(b / "preset" / "games" / "*.parquet").with_columns(pl.col("strategy").cast(pl.String))
    assert games.height == 80 and sorted(set(games["strategy"])) == ["bank-at:n=3", "random"]
    assert games.sort("game", "seat").equals(pl.read_parquet(run / "games" / "*.parquet")
                                             .with_columns(pl.col("strategy").cast(pl.String)).sort("game", "seat"))
    code, _, err = run_cli(toy + ["--strategies", "random,bank-at:preset=presets/bank.toml", "--n-jobs", "1", "--out",
                                  "here", "--no-progress"], capsys, monkeypatch)
    assert code == 0, err  # the same games as played here, in this process
    here = pl.read_parquet(b / "here" / "games" / "*.parquet").sort("game", "seat")
    assert here.equals(pl.read_parquet(b / "preset" / "games" / "*.parquet").sort("game", "seat"))

    # a study's own tasks (robustness, balance, tune: meeplelab.play.parallel) read relative presets the same way
    got = dict(map_unordered(preset_args, [("bank-at:preset=presets/bank.toml",), ("bank-at:n=2",)], backend="dask",
                             scheduler=address))
    assert got == {0: ("bank-at:n=3", str(a)), 1: ("bank-at:n=2", str(a))}

    code, stdout, err = run_cli(["experiment", "--game", "toy", "--players", "2", "--strategies", "random",
                                 "--control", "always-draw", "--vary", "strategy=bank-at", "--games", "16",
                                 "--batch-size", "4", "--out", "exp", *dask], capsys, monkeypatch)
    assert code == 0, err
    exp = b / "exp"
    assert "wrote 2 arms to exp" in stdout and (exp / "report" / "report.html").is_file()
    assert json.loads((exp / "experiment.json").read_text())["status"] == "complete"
    for arm in ("control", "bank-at"):
        assert pl.read_parquet(exp / arm / "games" / "*.parquet").height == 32  # 16 games x 2 seats, under B
    assert not list(a.rglob("*.parquet"))
