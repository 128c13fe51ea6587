"""Command-line inputs found by a newcomer: strategies with several arguments, repeated --vary/--set
values, sweep --resume with another sweep, report on the same run twice / a file / a sweep or
tournament folder, one-seat tournaments."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from meeplelab.play.config import RunConfig
from meeplelab.play.settings import split_strategies
from meeplelab.sim.core.errors import ConfigError
from meeplelab.play.runner import simulate
from meeplelab.play.sweep import run_sweep
from tests.test_cli_errors import SIM, expect_error, run_cli


def manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


# ------------------------------------------------------------------ strategies with several arguments
@pytest.mark.parametrize("text,ids", [
    ("random,random", ("random", "random")),
    ("random", ("random",)),
    ("heuristic:vp=1,coins=0.3", ("heuristic:vp=1,coins=0.3",)),
    ("rollout:k=1,top=1,horizon=1,random", ("rollout:k=1,top=1,horizon=1", "random")),
    (" abjure-at:cycle=2 , never-abjure,heuristic:vp=1, coins=0.3 ", ("abjure-at:cycle=2", "never-abjure",
                                                                        "heuristic:vp=1,coins=0.3")),
    ("rollout:k=4,policy=abjure-at:cycle=2,random", ("rollout:k=4,policy=abjure-at:cycle=2", "random")),
])
def test_split_strategies_keeps_each_strategys_arguments(text, ids):
    assert split_strategies(text) == ids


def test_a_toml_strategies_string_is_split_the_same_way():
    cfg = RunConfig.from_dict({"game": "toy", "players": 2, "games": 1, "strategies": "heuristic:vp=2,finish=0,random"})
    assert cfg.strategies == ("heuristic:vp=2,finish=0", "random")
    with pytest.raises(ConfigError, match="argument 'vp=2' has no strategy before it"):
        RunConfig.from_dict({"game": "toy", "players": 2, "games": 1, "strategies": "vp=2,random"})


def test_simulate_takes_strategies_with_several_arguments(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    code, stdout, err = run_cli(SIM + ["--game", "toy", "--players", "2", "--strategies",
                                       "heuristic:vp=2,finish=0,rollout:k=1,top=1,horizon=1", "--games", "4",
                                       "--seating", "fixed", "--n-jobs", "1", "--out", str(out)], capsys, monkeypatch)
    assert code == 0, err
    assert "wrote 4 games of toy" in stdout
    assert manifest(out)["config"]["strategies"] == ["heuristic:vp=2,finish=0", "rollout:k=1,top=1,horizon=1"]
    assert 'strategies = [\n    "heuristic:vp=2,finish=0",\n    "rollout:k=1,top=1,horizon=1",\n]' in \
        (out / "run.toml").read_text()
    g = pl.read_parquet(str(out / "games" / "*.parquet"))
    assert dict(g.select("seat", pl.col("strategy").cast(pl.String)).unique().sort("seat").iter_rows()) == {
        0: "heuristic:vp=2.0,finish=0", 1: "rollout:k=1,top=1,horizon=1"}
    # one id with several arguments for every seat; plain ids still work
    for text, want in (("heuristic:vp=2,finish=0", ["heuristic:vp=2,finish=0"] * 2), ("random,random", ["random"] * 2)):
        out = tmp_path / text.replace(":", "_").replace(",", "_")
        code, _, err = run_cli(SIM + ["--game", "toy", "--players", "2", "--strategies", text, "--games", "4",
                                      "--n-jobs", "1", "--out", str(out)], capsys, monkeypatch)
        assert code == 0, err
        assert manifest(out)["config"]["strategies"] == want


@pytest.mark.parametrize("text,message", [
    ("vp=2,heuristic", "--strategies 'vp=2,heuristic': argument 'vp=2' has no strategy before it: write it after the "
                       "strategy id, as in heuristic:vp=2"),
    ("random,vp=2", "--strategies 'random,vp=2': argument 'vp=2' follows 'random', which has no argument list: "
                    "write random:vp=2"),
])
def test_strategy_argument_without_its_strategy_is_one_line(text, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "o"
    for argv in (SIM + ["--game", "toy", "--players", "2", "--strategies", text],
                 ["sweep", "--game", "toy", "--vary", "rounds=1,2", "--strategies", text],
                 ["tournament", "--game", "toy", "--strategies", text]):
        expect_error(argv + ["--out", str(out)], message, capsys, monkeypatch)
        assert not out.exists()


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_tournament_and_sweep_take_strategies_with_several_arguments(tmp_path, capsys, monkeypatch):
    t = tmp_path / "t"
    code, _, err = run_cli(["tournament", "--game", "toy", "--strategies", "heuristic:vp=2,finish=0,random",
                            "--games", "4", "--n-jobs", "1", "--out", str(t)], capsys, monkeypatch)
    assert code == 0, err
    meta = json.loads((t / "tournament.json").read_text())
    assert meta["strategies"] == ["heuristic:vp=2,finish=0", "random"]
    assert meta["lineups"] == [["heuristic:vp=2,finish=0", "random"], ["random", "heuristic:vp=2,finish=0"]]
    assert manifest(t / "lineup-01")["config"]["strategies"] == ["random", "heuristic:vp=2,finish=0"]
    sw = tmp_path / "sw"
    code, _, err = run_cli(["sweep", "--game", "toy", "--players", "2", "--vary", "rounds=1,2", "--strategies",
                            "heuristic:vp=2,finish=0,random", "--games", "4", "--n-jobs", "1", "--out", str(sw)],
                           capsys, monkeypatch)
    assert code == 0, err
    for v in ("rounds=1", "rounds=2"):
        assert manifest(sw / v)["config"]["strategies"] == ["heuristic:vp=2,finish=0", "random"]


# ------------------------------------------------------------------ sweep: --vary and --set checks
@pytest.mark.parametrize("args,message", [
    (["--vary", "rounds=1,1"], "--vary 'rounds=1,1' lists the value '1' twice: list each value once"),
    (["--vary", "rounds=1,2,3,2"], "--vary 'rounds=1,2,3,2' lists the value '2' twice: list each value once"),
    (["--vary", "rounds=1,01"], "--vary rounds: the values '1' and '01' are the same value: list each value once"),
    (["--vary", "rounds=1,2", "--vary", "rounds=3,4"],
     "parameter 'rounds' is given in two --vary options (rounds=1,2 and rounds=3,4): list all its values in one, "
     "as rounds=1,2,3,4"),
    (["--vary", "rounds=1,2", "--set", "rounds=5"],
     "parameter 'rounds' is given both in --vary and --set: give it in one of them"),
    (["--vary", "rounds=1,2", "--set", "copies=2", "--set", "copies=3"],
     "parameter 'copies' is set twice (--set copies=2 and --set copies=3): set it once"),
])
def test_bad_vary_and_set_combinations_are_refused_before_anything_is_written(args, message, tmp_path, capsys,
                                                                              monkeypatch):
    out = tmp_path / "sw"
    expect_error(["sweep", "--game", "toy", "--games", "5", "--n-jobs", "1"] + args + ["--out", str(out)], message,
                 capsys, monkeypatch)
    assert not out.exists()


def test_a_parameter_set_twice_is_refused(tmp_path, capsys, monkeypatch):
    out = tmp_path / "o"
    msg = "parameter 'rounds' is set twice (--set rounds=8 and --set rounds=3): set it once"
    expect_error(SIM + ["--game", "toy", "--set", "rounds=8", "--set", "rounds=3", "--out", str(out)], msg, capsys,
                 monkeypatch)
    expect_error(["tournament", "--game", "toy", "--strategies", "random,always-draw", "--set", "rounds=8", "--set",
                  "rounds=3", "--out", str(out)], msg, capsys, monkeypatch)
    assert not out.exists()


def test_sweep_resume_refuses_a_different_sweep_and_names_the_difference(tmp_path, capsys, monkeypatch):
    out = tmp_path / "sw"
    base = RunConfig(game="toy", players=2, strategies=("random",), games=10, seed=3, batch_size=5, n_jobs=1,
                     out=str(out))
    run_sweep(base, {"rounds": ["1", "2"]}, out)
    meta = json.loads((out / "sweep.json").read_text())
    meta["status"] = "interrupted"
    (out / "sweep.json").write_text(json.dumps(meta))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    argv = ["sweep", "--game", "toy", "--players", "2", "--games", "10", "--seed", "3", "--batch-size", "5",
            "--n-jobs", "1", "--out", str(out), "--resume"]
    for change, message in [
        (["--vary", "rounds=1,3"], "cannot resume: the sweep in the folder has --vary rounds=1,2, this sweep has "
                                   "--vary rounds=1,3"),
        (["--vary", "rounds=1,2", "--vary", "copies=2,3"],
         "cannot resume: the sweep in the folder has --vary rounds=1,2, this sweep has --vary rounds=1,2 copies=2,3"),
        (["--vary", "rounds=1,2", "--games", "20"], "cannot resume: the sweep in the folder has games=10, this sweep "
                                                    "has games=20"),
        (["--vary", "rounds=1,2", "--set", "copies=2"],
         "cannot resume: the sweep in the folder has params={}, this sweep has params={'copies': '2'}"),
        (["--vary", "rounds=1,2", "--strategies", "always-draw"],
         "cannot resume: the sweep in the folder has strategies=['random', 'random'], this sweep has "
         "strategies=['always-draw', 'always-draw']"),
    ]:
        expect_error(argv + change, message, capsys, monkeypatch)
        assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    # a variant run that no longer matches (a sweep.json written before the base config was saved)
    del meta["base"]
    (out / "sweep.json").write_text(json.dumps(meta))
    expect_error(argv + ["--vary", "rounds=1,2", "--set", "copies=2"],
                 "variant 'rounds=1': cannot resume: the run in the folder has params={'rounds': '1'}, this config "
                 "has params={'copies': '2', 'rounds': '1'}", capsys, monkeypatch)
    code, stdout, err = run_cli(argv + ["--vary", "rounds=1,2"], capsys, monkeypatch)
    assert code == 0, err
    assert json.loads((out / "sweep.json").read_text())["status"] == "complete"


# ------------------------------------------------------------------ report inputs
@pytest.fixture
def small_run(tmp_path):
    out = tmp_path / "done"
    simulate(RunConfig(game="toy", players=2, strategies=("random",), games=20, seed=1, batch_size=10, out=str(out)))
    return out


def test_report_refuses_a_run_given_twice(small_run, tmp_path, capsys, monkeypatch):
    rep = tmp_path / "rep"
    expect_error(["report", str(small_run), str(small_run), "--out", str(rep)],
                 f"run folder '{small_run}' is given twice: give each run once", capsys, monkeypatch)
    other = small_run.parent / "x" / ".." / small_run.name
    (small_run.parent / "x").mkdir()
    expect_error(["report", str(small_run), str(other), "--out", str(rep)],
                 f"run folder '{other}' is given twice (as '{small_run}' and '{other}'): give each run once",
                 capsys, monkeypatch)
    assert not rep.exists() and not (small_run / "report").exists()


def test_report_on_a_file_says_it_is_a_file(tmp_path, capsys, monkeypatch):
    f = tmp_path / "afile"
    f.write_text("x")
    expect_error(["report", str(f)], f"'{f}' is a file, not a run folder: give a folder written by meeplelab simulate",
                 capsys, monkeypatch)
    assert f.read_text() == "x" and sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_report_on_a_tournament_or_sweep_folder_points_to_its_runs(tmp_path, capsys, monkeypatch):
    from meeplelab.studies.tournament import run_tournament

    t = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw"], 2, 10, 0, t, n_jobs=1)
    (t / "tournament.json").unlink()  # lineup folders without the tournament's settings: not reportable as a whole
    expect_error(["report", str(t)], f"'{t}' is a tournament folder, not a run folder: give its lineup folders "
                                     f"(2, e.g. '{t / 'lineup-00'}'); the tournament's tables are "
                                     f"'{t / 'summary.parquet'}' and seats.parquet beside it", capsys, monkeypatch)
    assert not (t / "report").exists()
    sw = tmp_path / "sw"
    code, _, err = run_cli(["sweep", "--game", "toy", "--players", "2", "--vary", "rounds=1,2,3", "--games", "10",
                            "--n-jobs", "1", "--out", str(sw)], capsys, monkeypatch)
    assert code == 0, err
    page = (sw / "report" / "report.html").read_text()
    expect_error(["report", str(sw)], f"'{sw}' is a sweep folder, not a run folder: give its variant folders "
                                      f"(3, e.g. '{sw / 'rounds=1'}'); the sweep's report is "
                                      f"'{sw / 'report' / 'report.html'}'", capsys, monkeypatch)
    assert (sw / "report" / "report.html").read_text() == page


# ------------------------------------------------------------------ tournaments need two seats
def test_tournament_with_one_seat_is_refused(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t"
    expect_error(["tournament", "--game", "toy", "--strategies", "random,always-draw", "--players", "1", "--out",
                  str(out)], "a tournament needs at least 2 players per game (strategies play against each other), "
                             "got --players 1", capsys, monkeypatch)
    assert not out.exists()
