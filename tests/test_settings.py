"""``--config FILE.toml`` for every command that plays games, validated by one pydantic model per command
(play/settings.py): the resolved settings are written into the output folder
and ``meeplelab CMD --config OUT/config.toml --out NEW`` writes the same tables; the command line beats the
file; a bad file is one line (exit 2) and nothing is written. Real commands on the toy games."""

from __future__ import annotations

import hashlib
import json
import tomllib
from enum import Enum
from pathlib import Path

import pytest
import typer

from meeplelab import cli
from meeplelab.play.config import RunConfig
from meeplelab.sim.core.errors import ConfigError
from meeplelab.analysis.load import scan_run
from meeplelab.play.settings import MODELS, SweepSettings, TuneSettings, validate
from tests.cli_run import run_cli

#: one small run of every command that plays games, and the settings file it leaves in its folder
COMMANDS = {
    "simulate": (["simulate", "--game", "toy", "--players", "2", "--strategies", "random,always-draw", "--games", "20",
                  "--batch-size", "10", "--n-jobs", "1", "--seed", "2", "--set", "rounds=3", "--no-progress"], "run.toml"),
    "sweep": (["sweep", "--game", "toy", "--players", "2", "--strategies", "random,always-draw", "--games", "20",
               "--vary", "rounds=2,3", "--set", "max_value=4", "--batch-size", "10", "--n-jobs", "1"], "config.toml"),
    "experiment": (["experiment", "--game", "toy", "--players", "2", "--strategies", "slow-random:ms=0", "--control", "random",
                    "--vary", "strategy=always-draw,bank-at", "--games", "20", "--batch-size", "10", "--n-jobs", "1",
                    "--seed", "5"], "config.toml"),
    "tournament": (["tournament", "--game", "toy", "--strategies", "random,always-draw", "--games", "10", "--n-jobs",
                    "1", "--seed", "3", "--no-report", "--no-progress"], "config.toml"),
    "tune": (["tune", "--game", "toy", "--strategy", "rollout", "--against", "random", "--budget", "32",
              "--games-per-trial", "8", "--eval-games", "4", "--no-progress"], "config.toml"),
    "robustness": (["robustness", "--game", "toy-robust", "--budget", "5000", "--games-per-lineup", "50"],
                   "config.toml"),
    "balance": (["balance", "--game", "toy-robust", "--vary", "rounds=4..5", "--target", "length=9..11", "--trials",
                 "2", "--games-per-lineup", "4"], "config.toml"),
}


def hashes(folder: Path) -> dict[str, str]:
    """sha256 of every file a command wrote (every table part, summary and settings file), by relative path;
    manifests (start times) and reports (their provenance lines name the folder) aside."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != "manifest.json" and p.relative_to(folder).parts[0] != "report"}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_settings_file_in_the_output_folder_repeats_the_command_exactly(command, tmp_path, capsys, monkeypatch):
    argv, name = COMMANDS[command]
    first, again = tmp_path / "first", tmp_path / "again"
    code, _, err = run_cli([*argv, "--out", first], capsys, monkeypatch)
    assert code == 0, err
    settings = tomllib.loads((first / name).read_text())
    assert settings["game"] in ("toy", "toy-robust") and settings["out"] == "."
    code, _, err = run_cli([command, "--config", first / name, "--out", again], capsys, monkeypatch)
    assert code == 0, err
    want = hashes(first)
    assert name in want and len(want) >= 3  # the settings and the command's tables (tune: preset and evaluation)
    assert hashes(again) == want  # every table, byte for byte, and the same settings file
    # out = "." is the folder itself: the same settings complete (here: find complete) the run in place
    code, _, err = run_cli([command, "--config", first / name, "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert hashes(first) == want


def test_a_setting_given_on_the_command_line_beats_the_file_and_set_is_merged_by_name(tmp_path, capsys, monkeypatch):
    cfg = tmp_path / "mine.toml"
    cfg.write_text('game = "toy"\nstrategies = ["random", "always-draw"]\ngames = 10\nseed = 3\nn_jobs = 1\n'
                   'report = false\n[params]\nrounds = 3\nmax_value = 5\n')
    out = tmp_path / "t"
    code, _, err = run_cli(["tournament", "--config", cfg, "--games", "6", "--set", "max_value=4", "--out", out,
                            "--no-progress"], capsys, monkeypatch)
    assert code == 0, err
    meta = json.loads((out / "tournament.json").read_text())
    assert (meta["games_per_lineup"], meta["seed"]) == (6, 3)  # --games from the command line, seed from the file
    assert meta["params"] == {"max_value": "4", "rounds": "3"}  # the file's rounds, the command line's max_value
    assert not (out / "report").exists()  # report = false from the file
    saved = tomllib.loads((out / "config.toml").read_text())
    assert saved == {"game": "toy", "seed": 3, "out": ".", "strategies": ["random", "always-draw"], "games": 6,
                     "seating": "rotate", "batch_size": 1024, "n_jobs": 1, "backend": "loky",
                     "params": {"rounds": "3", "max_value": "4"}, "every_profile": False, "report": False,
                     "field": "scripted"}


SIM_RUN_TOML = ('game = "toy"\nplayers = 2\nstrategies = ["random"]\ngames = 20\nseed = 0\nbatch_size = 10\n'
                'n_jobs = 1\nbackend = "loky"\nout = "."\nlog_turns = true\n')


@pytest.mark.parametrize("command,text,message", [
    ("sweep", 'game = "toy"\nvaryy = ["rounds=1,2"]\n',
     "unknown config key 'varyy': allowed: backend, batch_size, field, game, games, n_jobs, out, params, players, "
     "retune, scheduler, seating, seed, strategies, target, vary"),
    ("sweep", SIM_RUN_TOML,  # a run's run.toml is not a sweep's settings
     "unknown config key 'log_turns': allowed: backend, batch_size, field, game, games, n_jobs, out, params, players, "
     "retune, scheduler, seating, seed, strategies, target, vary"),
    ("tune", 'game = "toy"\nagainst = ["random"]\nbudget = "32"\n',
     "config field 'budget' is '32' (str): it must be an integer"),
    ("tournament", 'game = "toy"\nstrategies = ["random", "always-draw"]\nevery_profile = "yes"\n',
     "config field 'every_profile' is 'yes' (str): allowed true or false"),
    ("balance", 'game = "toy-robust"\nvary = ["rounds=4..5"]\ntarget = [1]\n',
     'config field \'target\' is [1] (list): it must be a list of strings (as ["a", "b"]) or one string'),
    ("experiment", 'game = "toy"\nstrategies = 5\n',
     "config field 'strategies' is 5: it must be a list of strategy ids (strings, as [\"publisher\", \"citer\"]) or "
     "one comma-separated string"),
    ("robustness", 'game = "toy-robust"\nbudget = 5000\nparams = { rounds = 3 }\n',
     "unknown config key 'params': allowed: backend, batch_size, budget, field, game, games_per_lineup, n_jobs, out, "
     "rungs, scheduler, seed, sobol_max, strategies"),
    ("sweep", 'game = "toy"\nplayers = = 2\n', None),
])
def test_a_bad_settings_file_is_one_line_exit_2_and_nothing_is_written(command, text, message, tmp_path, capsys,
                                                                       monkeypatch):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(text)
    out = tmp_path / "out"
    code, _, err = run_cli([command, "--config", cfg, "--out", out], capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    if message is None:
        assert err.startswith(f"error: config file '{cfg}' has a TOML syntax error: ")
    else:
        assert err.strip() == f"error: {message}"
    assert not out.exists()


def test_a_missing_settings_file_and_a_required_option_are_one_line(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, _, err = run_cli(["balance", "--config", tmp_path / "none.toml", "--out", out], capsys, monkeypatch)
    assert (code, err.strip()) == (2, f"error: config file '{tmp_path / 'none.toml'}' not found")
    cfg = tmp_path / "part.toml"
    cfg.write_text('game = "toy-robust"\nvary = ["rounds=4..5"]\n')  # no target: the command line must give one
    code, _, err = run_cli(["balance", "--config", cfg, "--out", out], capsys, monkeypatch)
    assert (code, err.strip()) == (2, "error: Missing option '--target'.")
    assert not out.exists()


def _default(value):
    return value.value if isinstance(value, Enum) else value


def test_every_option_of_a_command_that_plays_games_is_a_field_of_its_model_with_the_same_default():
    group = typer.main.get_command(cli.app)
    for name, model in MODELS.items():
        if name == "simulate":  # its fields are RunConfig's (run.toml), merged by the command itself
            assert set(model.model_fields) == set(RunConfig.__dataclass_fields__)
            continue
        options = {p.name: p for p in group.commands[name].params if p.name not in cli._NOT_SETTINGS}
        fields = {"params" if k == "set_" else k: p for k, p in options.items()}
        assert set(fields) == set(model.model_fields), name
        for k, p in fields.items():
            f = model.model_fields[k]
            if p.required:
                assert f.is_required(), (name, k)
                continue
            want = f.get_default()
            got = _default(p.default)
            if k == "params":
                got = {}
            elif k in ("strategies", "against") and isinstance(got, str):
                got = tuple(got.split(","))
            assert got == want, (name, k, got, want)


def test_validate_names_the_bad_key_or_value_and_returns_the_settings():
    s = validate(SweepSettings, {"game": "toy", "vary": "rounds=1,2", "strategies": "heuristic:vp=1,coins=0.3,random",
                                 "out": Path("/tmp/x")})
    assert s.vary == ("rounds=1,2",) and s.strategies == ("heuristic:vp=1,coins=0.3", "random") and s.out == "/tmp/x"
    assert (s.games, s.seating, s.n_jobs, s.params) == (1000, "rotate", -1, {})
    with pytest.raises(ConfigError, match=r"^config is missing 'out'$"):
        validate(TuneSettings, {"game": "toy", "against": "random"})
    assert validate(TuneSettings, {"game": "toy"}, partial=True) is None  # a file may leave fields to the options
    with pytest.raises(ConfigError, match=r"^config field 'players' is True \(bool\): it must be an integer$"):
        validate(TuneSettings, {"game": "toy", "players": True}, partial=True)


def test_a_strategies_list_item_that_is_not_one_id_is_one_line(tmp_path, capsys, monkeypatch):
    cfg = tmp_path / "bad.toml"
    cfg.write_text('game = "toy"\nstrategies = ["random", "vp=2"]\n')
    code, _, err = run_cli(["tournament", "--config", cfg, "--out", tmp_path / "t"], capsys, monkeypatch)
    assert (code, err.strip()) == (2, "error: config field 'strategies' is ['random', 'vp=2']: each item must be one "
                                      'strategy id with its arguments (as "heuristic:vp=1,coins=0.3")')
    assert not (tmp_path / "t").exists()


def test_compare_repeats_from_its_settings_file_and_its_tables_do_not_depend_on_n_jobs_or_backend(tmp_path, capsys,
                                                                                                   monkeypatch):
    """The issue-29 studies take the shared options (``--n-jobs``, ``--backend``, ``--batch-size``, ...) and
    ``--config``: compare on the toy game, once on one loky worker and once on two threads, then repeated
    from the first folder's config.toml."""
    argv = ["compare", "--game", "toy", "--arm", "default", "--arm", "rounds=3", "--players", "2", "--strategies",
            "random,always-draw", "--games", "20", "--seed", "4", "--no-progress"]
    one, two, again = tmp_path / "one", tmp_path / "two", tmp_path / "again"
    code, _, err = run_cli([*argv, "--n-jobs", "1", "--batch-size", "10", "--out", one], capsys, monkeypatch)
    assert code == 0, err
    code, _, err = run_cli([*argv, "--n-jobs", "2", "--backend", "threading", "--batch-size", "4", "--out", two],
                           capsys, monkeypatch)
    assert code == 0, err

    def results(folder):  # the deltas and every games table; the part files' batching is an execution setting
        h = {"deltas.csv": (folder / "deltas.csv").read_bytes()}
        for run in ("A-p2", "B-p2"):
            h[run] = scan_run(folder / run, "games").collect().sort("game", "seat").to_dicts()
        return h

    assert results(one) == results(two)
    settings = tomllib.loads((one / "config.toml").read_text())
    assert settings["arm"] == ["default", "rounds=3"] and settings["n_jobs"] == 1 and settings["out"] == "."
    code, _, err = run_cli(["compare", "--config", one / "config.toml", "--out", again], capsys, monkeypatch)
    assert code == 0, err
    assert hashes(again) == hashes(one)


def test_the_ladder_settings_file_repeats_its_games_and_tables(tmp_path, capsys, monkeypatch):
    # ladder.json and ladder.md record the command line and the date, rungs/pairs tables the games/s: the games
    # of every pairing and the settings file are compared
    first, again = tmp_path / "first", tmp_path / "again"
    argv = ["ladder", "--game", "toy", "--plans", "always-draw", "--tuned", "none", "--budget", "0",
            "--games-per-rung", "8", "--seed", "4", "--n-jobs", "1", "--batch-size", "4", "--no-progress"]
    code, _, err = run_cli([*argv, "--out", first], capsys, monkeypatch)
    assert code == 0, err
    settings = tomllib.loads((first / "config.toml").read_text())
    assert (settings["game"], settings["games_per_rung"], settings["seed"], settings["out"]) == ("toy", 8, 4, ".")
    code, _, err = run_cli(["ladder", "--config", first / "config.toml", "--out", again], capsys, monkeypatch)
    assert code == 0, err
    tables = [p for p in hashes(first) if (p.startswith("pair-") and p.endswith(".parquet")) or p == "config.toml"]
    assert len(tables) >= 3 and any(p.startswith("pair-") for p in tables)
    want, got = hashes(first), hashes(again)
    assert {p: got.get(p) for p in tables} == {p: want[p] for p in tables}
