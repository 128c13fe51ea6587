"""Progress and notices: one progress display on every long
command (off with --no-progress and when stderr is not a terminal, forced with MEEPLELAB_PROGRESS=1), the
options every command that plays games shares (defined once), --scheduler without --backend dask refused,
an unknown experiment axis named before --control is questioned, and the compile notice said once, when
numba really compiles, after any one-line error, with which function compiles and how many have."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from meeplelab import cli
from meeplelab.studies.field_ladder import HEADLINES
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "import tests.toygame; from cli import main; main()"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

PLAYING = ("simulate", "sweep", "experiment", "tournament", "tune", "robustness", "balance")
SEATED = ("simulate", "sweep", "experiment", "tournament")
#: the commands of PLAYING that take --field ladder, so --rungs (every command of HEADLINES has it)
LADDERED = ("experiment", "robustness", "balance")


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "MEEPLELAB_PROGRESS"}
    env.update(PYTHONPATH=str(ROOT), **extra)
    return env


def _screen(err: str) -> list[str]:
    """The distinct lines a terminal showed: control codes removed, split at carriage returns and newlines."""
    seen: list[str] = []
    for piece in re.split(r"[\r\n]", ANSI.sub("", err)):
        piece = piece.strip()
        if piece and piece not in seen:
            seen.append(piece)
    return seen


# ------------------------------------------------------------------------------------------ shared options

def test_every_command_that_plays_games_has_the_shared_options_with_one_help_text():
    import typer

    cmd = typer.main.get_command(cli.app)
    for name in PLAYING:
        opts = {o: p for p in cmd.commands[name].params for o in p.opts + p.secondary_opts}
        for key, (flag, text) in cli.SHARED_OPTIONS.items():
            if key == "seating" and name not in SEATED:
                assert "--seating" not in opts, name  # tune, robustness, balance rotate by their study's design
                continue
            if key == "rungs" and name not in LADDERED:
                assert "--rungs" not in opts, name  # only the commands that take --field ladder pick its rungs
                continue
            first = flag.split("/")[0]
            assert first in opts, (name, first)
            assert opts[first].help == text, (name, first)
        assert "--no-progress" in opts, name
    report = {o for p in cmd.commands["report"].params for o in p.opts + p.secondary_opts}
    assert "--no-progress" in report
    for name in HEADLINES:  # every command that takes --field ladder picks its rungs with the one shared --rungs
        rungs = next(p for p in cmd.commands[name].params if "--rungs" in p.opts)
        assert rungs.help == cli.SHARED_OPTIONS["rungs"][1], name


@pytest.mark.parametrize("command", PLAYING)
def test_a_scheduler_without_the_dask_backend_is_refused_in_one_line(command, tmp_path, capsys, monkeypatch):
    out = tmp_path / "o"
    argv = {
        "simulate": ["simulate", "--game", "toy", "--players", "2", "--games", "4"],
        "sweep": ["sweep", "--game", "toy", "--players", "2", "--vary", "rounds=1,2", "--games", "4"],
        "experiment": ["experiment", "--game", "toy", "--players", "2", "--strategies", "always-draw", "--control",
                       "random", "--treat", "vp+3", "--games", "4"],
        "tournament": ["tournament", "--game", "toy", "--strategies", "random,always-draw", "--games", "4"],
        "tune": ["tune", "--game", "toy", "--strategy", "rollout", "--against", "random", "--budget", "32",
                 "--games-per-trial", "8"],
        "robustness": ["robustness", "--game", "toy-robust", "--budget", "5000"],
        "balance": ["balance", "--game", "toy-robust", "--vary", "rounds=2..8", "--target", "length=9..11"],
    }[command]
    code, _, err = run_cli(argv + ["--scheduler", "tcp://127.0.0.1:8786", "--out", out], capsys, monkeypatch)
    assert code == 2, err
    assert err.strip() == ("error: --scheduler tcp://127.0.0.1:8786 is used only with --backend dask (this command "
                           "has --backend loky): add --backend dask, or leave --scheduler out to run on this machine")
    assert not out.exists()


def test_a_tournament_takes_seating_rotate_and_refuses_the_others_in_one_line(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t"
    code, _, err = run_cli(["tournament", "--game", "toy", "--strategies", "random,always-draw", "--games", "4",
                            "--seating", "fixed", "--out", out], capsys, monkeypatch)
    assert code == 2
    assert err.strip().startswith("error: --seating fixed: a tournament plays every seat arrangement (lineup) on the "
                                  "same seeds, so its seating is always rotate; allowed: rotate")
    assert len(err.strip().splitlines()) == 1 and not out.exists()


def test_an_unknown_experiment_axis_is_named_with_what_is_allowed_even_with_control(tmp_path, capsys, monkeypatch):
    out = tmp_path / "e"
    code, _, err = run_cli(["experiment", "--game", "toy", "--players", "2", "--strategies", "random", "--vary",
                            "nope=1,2", "--control", "always-draw", "--out", out], capsys, monkeypatch)
    assert code == 2
    line = err.strip()
    assert line.startswith("error: --vary 'nope=1,2': 'nope' is not a rule parameter of toy; allowed: a rule "
                           "parameter (one of "), line
    assert "rounds" in line and "strategy.argument=v1,v2" in line and "strategy=id1,id2" in line
    assert "--control is for" not in line and len(line.splitlines()) == 1 and not out.exists()
    # a strategy given as the axis without its argument: its arguments are named
    code, _, err = run_cli(["experiment", "--game", "toy", "--players", "2", "--strategies", "random", "--vary",
                            "slow-random=1,2", "--control", "always-draw", "--out", out], capsys, monkeypatch)
    assert code == 2 and "'slow-random' is a strategy, not a rule parameter" in err and "(its arguments: ms)" in err


# ----------------------------------------------------------------------------------------- progress helper

def test_bars_nest_into_one_display_and_notes_print_above_them(capsys, monkeypatch):
    from meeplelab.play import progress

    monkeypatch.setenv(progress.ENV, "1")
    with progress.bar("sweep", 2, unit="variants", on=True) as outer:
        progress.note("variant 1/2: rounds=1")
        with progress.bar("rounds=1", 40, on=False) as inner:  # inside a drawn display: a row of it anyway
            assert inner.drawn
            inner.advance(40)
        outer.advance(2)
        assert progress.active()
    assert not progress.active()
    lines = _screen(capsys.readouterr().err)
    assert "variant 1/2: rounds=1" in lines
    assert any(ln.startswith("sweep") and "2/2" in ln and "variants" in ln for ln in lines), lines
    assert any(ln.startswith("rounds=1") and "40/40" in ln and "games" in ln for ln in lines), lines


def test_progress_is_off_with_the_flag_or_env_and_when_not_a_terminal(capsys, monkeypatch):
    from meeplelab.play import progress

    monkeypatch.delenv(progress.ENV, raising=False)
    assert progress.wanted(True) is False  # pytest's stderr is not a terminal
    monkeypatch.setenv(progress.ENV, "1")
    assert progress.wanted(True) is True and progress.wanted(False) is False
    monkeypatch.setenv(progress.ENV, "0")
    assert progress.wanted(True) is False
    with progress.bar("x", 3, on=False) as b:
        assert not b.drawn
        b.advance(3)
        progress.note("plain")
    assert capsys.readouterr().err == "plain\n"


def _sweep(tmp_path, *extra, env=None):
    out = tmp_path / "sw"
    cmd = CLI + ["sweep", "--game", "toy", "--players", "2", "--vary", "rounds=1,2", "--games", "20",
                 "--batch-size", "10", "--n-jobs", "1", "--out", str(out), *extra]
    r = subprocess.run(cmd, cwd=ROOT, env=env or _env(), capture_output=True, timeout=900)
    assert r.returncode == 0, r.stderr
    return r.stderr.decode()  # bytes: text mode would turn carriage returns into newlines


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_sweep_draws_variants_games_and_report_bars_when_forced_and_nothing_with_no_progress(tmp_path):
    drawn = _sweep(tmp_path, env=_env(MEEPLELAB_PROGRESS="1"))
    lines = _screen(drawn)
    assert "variant 1/2: rounds=1" in lines and "variant 2/2: rounds=2" in lines
    assert any(ln.startswith("sweep") and "2/2" in ln and "variants" in ln for ln in lines), lines
    assert any(ln.startswith("rounds=2") and "20/20" in ln and "games" in ln for ln in lines), lines
    assert any("report: writing sections" in ln and "steps" in ln for ln in lines), lines
    off = _sweep(tmp_path / "b", "--no-progress", env=_env(MEEPLELAB_PROGRESS="1"))
    assert off == "variant 1/2: rounds=1\nvariant 2/2: rounds=2\n"  # no control codes, no carriage returns
    piped = _sweep(tmp_path / "c")  # stderr a pipe, nothing forced: the same plain lines
    assert piped == "variant 1/2: rounds=1\nvariant 2/2: rounds=2\n"


# -------------------------------------------------------------------------------------------- parallel tasks

def test_a_tuning_field_and_a_balance_candidate_give_the_same_games_on_any_n_jobs_and_backend():
    from meeplelab.sim.registry import get_game_class
    from meeplelab.studies.robustness import evaluate_lineups
    from meeplelab.studies.tune import play_field
    from meeplelab.analysis.studies import study_for

    one = play_field("toy", "always-draw", ["random", "slow-random:ms=0"], 2, 30, 3, batch_size=7)
    two = play_field("toy", "always-draw", ["random", "slow-random:ms=0"], 2, 30, 3, n_jobs=2, backend="threading")
    assert one.shape == (2, 2, 30) and np.array_equal(one, two)
    assert 0 < one.mean() < 1
    cls = get_game_class("toy-robust")
    lineups = study_for("toy-robust").lineups
    a = evaluate_lineups(cls, {"rounds": 3}, lineups, 12, 5)
    b = evaluate_lineups(cls, {"rounds": 3}, lineups, 12, 5, n_jobs=2, backend="threading", batch_size=5)
    assert a.height == len(lineups) * 12 * 2 and a.equals(b)


@pytest.mark.slow
def test_study_tasks_give_the_same_games_on_loky_workers_and_a_dask_cluster():
    from dask.distributed import LocalCluster

    from meeplelab.play.parallel import map_unordered
    from meeplelab.studies.tune import play_field

    one = play_field("toy", "always-draw", ["random"], 2, 20, 4)
    assert np.array_equal(one, play_field("toy", "always-draw", ["random"], 2, 20, 4, n_jobs=2, backend="loky"))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        got = play_field("toy", "always-draw", ["random"], 2, 20, 4, backend="dask", scheduler=cluster.scheduler_address)
        assert np.array_equal(one, got)
        assert sorted(map_unordered(divmod, [(7, 2), (9, 4)], backend="dask", scheduler=cluster.scheduler_address)) == \
            [(0, (3, 1)), (1, (2, 1))]


# --------------------------------------------------------------------------------------------- compile notice

NOTICE = "compiling the rule kernels (first run on this machine or after a change: a few minutes; cached in "


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_on_a_cold_cache_a_one_line_error_comes_alone_and_the_notice_once_when_compiling_starts(tmp_path):
    cache = tmp_path / "numba-cache"
    env = _env(NUMBA_CACHE_DIR=str(cache))
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("not a run")
    base = ["simulate", "--game", "toy", "--players", "2", "--games", "8", "--batch-size", "4", "--n-jobs", "1",
            "--no-progress"]
    r = subprocess.run(CLI + base + ["--out", str(busy)], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("error: "), r.stderr  # no notice above it
    api = _api_run(tmp_path / "api", NUMBA_CACHE_DIR=str(cache), MEEPLELAB_PROGRESS="1")
    notices = [ln for ln in api.split("\n") if ln.startswith(NOTICE)]
    assert len(notices) == 1 and f"cached in {cache}/" in notices[0], api
    # the in-place progress line (forced: stderr is a pipe here) names the function and counts them
    assert re.search(r"\rcompiling (sim|tests)\.\S+: \d+ functions? compiled, \d+ s", api), api
    logged = [ln for ln in api.replace("\r", "\n").split("\n") if ln.startswith("log: compiled ")]
    assert logged and all("functions compiled in this process" in ln for ln in logged), api
    again = _api_run(tmp_path / "api2", NUMBA_CACHE_DIR=str(cache))
    assert "compiling" not in again  # cached: nothing to say


def _api_run(out: Path, **env) -> str:
    """stderr of a simulate through the API (as a notebook calls it), with INFO logging on stderr."""
    script = ("import logging, sys\n"
              "logging.basicConfig(level=logging.INFO, stream=sys.stderr, format='log: %(message)s')\n"
              "import tests.toygame\nfrom meeplelab.play.config import RunConfig\nfrom meeplelab.play.runner import simulate\n"
              "simulate(RunConfig(game='toy', players=2, strategies=('random',), games=8, batch_size=4, n_jobs=1, "
              f"out={str(out)!r}))\n")
    r = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=_env(**env), capture_output=True, timeout=900)
    err = r.stderr.decode()  # bytes: text mode would turn the progress line's carriage returns into newlines
    assert r.returncode == 0, err
    return err


@pytest.mark.slow
def test_loky_workers_say_no_second_notice_on_a_cold_cache(tmp_path):
    cache = tmp_path / "numba-cache"
    out = tmp_path / "run"
    # heuristic plays in the toy's compiled play kernel: on main (2839fde) each of the 2 workers compiled it
    # and said its own notice (3 notices, two run together on one line)
    r = subprocess.run(CLI + ["simulate", "--game", "toy", "--players", "2", "--strategies", "heuristic,random",
                              "--games", "16", "--batch-size", "4", "--chunk-size", "4", "--n-jobs", "2", "--out",
                              str(out), "--no-progress"],
                       cwd=ROOT, env=_env(NUMBA_CACHE_DIR=str(cache)), capture_output=True, timeout=1200)
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert err.count("compiling the rule kernels") == 1, err
    assert err.startswith(NOTICE) and err.count("\n") == 1 and "\r" not in err  # a pipe: the notice, no progress line


# ------------------------------------------------------------------------------- Ctrl-C in the report step

SLOW_REPORT = (
    "import sys, threading\nfrom pathlib import Path\nMARK = Path(sys.argv.pop(1))\nimport tests.toygame\n"
    "import meeplelab.analysis.report as R\norig = R.load_runs\n"
    "def held(*a, **k):  # the report step's first act: reading the runs\n"
    "    MARK.write_text('writing')\n"
    "    threading.Event().wait(600)  # until the test's SIGINT\n"
    "    return orig(*a, **k)\n"
    "R.load_runs = held\n"
    "from cli import main\nmain()\n")


@pytest.mark.slow
def test_ctrl_c_in_the_tournaments_report_step_says_the_report_is_not_written_and_how_to_write_it(tmp_path):
    out, marker = tmp_path / "t", tmp_path / "report-started"
    cmd = [sys.executable, "-c", SLOW_REPORT, str(marker), "tournament", "--game", "toy", "--strategies",
           "random,always-draw", "--games", "8", "--batch-size", "4", "--n-jobs", "1", "--out", str(out),
           "--no-progress"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 600
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # polling for the child's file: the event that it is writing the report
    assert marker.exists(), proc.communicate(timeout=60)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == (
        f"interrupted: the tournament's games in {out} are complete but its report was not written; write it with: "
        f"meeplelab report {out} (or run the same command again with --resume)")
    meta = json.loads((out / "tournament.json").read_text())
    assert meta["status"] == "interrupted"
    assert meta["report"] == "not written: interrupted while it was being written (the games are complete)"
    assert not (out / "report" / "report.html").exists()
    r = subprocess.run(CLI + ["report", str(out), "--no-progress"], cwd=ROOT, env=_env(), capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert (out / "report" / "report.html").is_file()
    meta = json.loads((out / "tournament.json").read_text())
    assert (meta["status"], meta["report"]) == ("complete", "written")
