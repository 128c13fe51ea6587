"""--resume for every command that plays games: experiment, balance and tune, like
simulate, sweep, tournament and robustness. A command killed (kill -9) or stopped (SIGTERM) once some
of its progress is on disk, then resumed, writes the same bytes as the uninterrupted command; a resume
with other options is refused in one line (exit 2). Real subprocesses and files, on the toy games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import meeplelab.studies.tune as tune_mod
from meeplelab.play import runfolder as rf
from meeplelab.studies.balance import run_balance
from tests.pausing import Pause
from tests.test_cli_errors import expect_error, run_cli

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "import tests.toygame, tests.toy_robust; from cli import main; main()"]


def _json(p: Path) -> dict:
    try:
        return json.loads(p.read_text())
    except (OSError, ValueError):  # not written yet, or being replaced
        return {}


def start_until(argv: list[str], ready, sig: int, gate: Path, step: int) -> tuple[int, str]:
    """Start the CLI with ``argv`` and a pause gate in the new folder ``gate`` (tests/pausing.py), hold it inside
    a decision of slow-random every ``step`` decisions until ``ready()`` holds there, then send ``sig``; returns
    (exit code, stderr). The process is always gone afterwards."""
    gate.mkdir()
    pause = Pause(gate, after=step)
    proc = subprocess.Popen(CLI + argv, cwd=ROOT, env=pause.env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    return pause.signal(proc, lambda: pause.wait_stepping(proc, ready, step, timeout=120), sig)


def start_polling(argv: list[str], ready, sig: int) -> tuple[int, str]:
    """Start the CLI with ``argv``, send ``sig`` once ``ready()`` holds (polled, 120 s deadline; for a command
    slow-random does not play in); returns (exit code, stderr). The process is always gone afterwards."""
    proc = subprocess.Popen(CLI + argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and not ready():
            time.sleep(0.02)
        assert proc.poll() is None, "the command ended before the signal: " + proc.stderr.read()
        assert ready(), "no progress on disk within 120 s"
        os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err


def files_of(folder: Path, skip=("report",)) -> dict[str, bytes]:
    """Every file under ``folder`` by its relative path (manifests aside: they hold times and paths)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != rf.MANIFEST and p.relative_to(folder).parts[0] not in skip}


# ---------------------------------------------------------------------------------------------- experiment
EXP = ["experiment", "--game", "toy", "--players", "2", "--strategies", "slow-random:ms=0", "--control", "random",
       "--vary", "strategy=always-draw,bank-at", "--games", "40", "--batch-size", "4", "--n-jobs", "1", "--seed", "5"]


def _status(run: Path) -> str | None:
    return _json(run / rf.MANIFEST).get("status")


@pytest.mark.slow
def test_an_experiment_killed_then_stopped_then_resumed_writes_the_uninterrupted_tables(tmp_path, capsys, monkeypatch):
    ref, out = tmp_path / "ref", tmp_path / "cut"
    code, _, err = run_cli(EXP + ["--out", str(ref)], capsys, monkeypatch)
    assert code == 0, err
    # held every 20 decisions of slow-random (113 in the control arm, 139 in always-draw, 84 in bank-at)
    code, _ = start_until(EXP + ["--out", str(out)], lambda: _status(out / "control") == "complete", signal.SIGKILL,
                          tmp_path / "gate1", 20)
    assert code == -signal.SIGKILL
    assert _json(out / "experiment.json")["status"] == "running"  # kill -9: nothing could mark it
    assert _status(out / "bank-at") is None
    code, err = start_until(EXP + ["--out", str(out), "--resume"], lambda: _status(out / "always-draw") == "complete",
                            signal.SIGTERM, tmp_path / "gate2", 20)
    assert code == 143, err
    assert err.strip().splitlines()[-1] == (f"interrupted: the experiment in {out} is incomplete; complete it with the "
                                            "same command and --resume")
    assert _json(out / "experiment.json")["status"] == "interrupted"
    code, stdout, err = run_cli(EXP + ["--out", str(out), "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert f"wrote 3 arms to {out}" in stdout
    want = files_of(ref)
    assert sorted(want) == sorted(files_of(out)) and len([k for k in want if k.endswith(".parquet")]) == 9
    assert files_of(out) == want  # every part of every arm and experiment.json, byte for byte
    def report(folder):  # the report's numbers (its provenance line holds the runs' start times)
        return [x.replace(str(folder), "F") for x in (folder / "report" / "report.md").read_text().splitlines()
                if "+00:00" not in x]

    assert "## Effects by intervention" in "\n".join(report(out)) and report(out) == report(ref)


def test_an_experiment_resume_with_other_options_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    fast = EXP  # slow-random:ms=0: nothing here waits for the run
    out = tmp_path / "e"
    code, _, err = run_cli(fast + ["--out", str(out)], capsys, monkeypatch)
    assert code == 0, err
    before = files_of(out, skip=())
    expect_error([a.replace("40", "42") for a in fast] + ["--out", str(out), "--resume"],
                 "cannot resume: the experiment in the folder has --games 40, this experiment has --games 42: use the "
                 "same options or --overwrite", capsys, monkeypatch)
    expect_error([a.replace("bank-at", "bank-at:n=4") for a in fast] + ["--out", str(out), "--resume"],
                 "cannot resume: the experiment in the folder has the arms control (random,slow-random:ms=0); "
                 "always-draw (always-draw,slow-random:ms=0); bank-at (bank-at,slow-random:ms=0), this experiment has "
                 "control (random,slow-random:ms=0); always-draw (always-draw,slow-random:ms=0); bank-at:n=4 "
                 "(bank-at:n=4,slow-random:ms=0): use the same options or --overwrite", capsys, monkeypatch)
    expect_error(fast + ["--out", str(out)], f"output folder {str(out)!r} holds another experiment: use --resume to "
                 "complete it, --overwrite to replace it or choose a new --out", capsys, monkeypatch)
    expect_error(fast + ["--out", str(tmp_path / "none"), "--resume"],
                 f"nothing to resume: {str(tmp_path / 'none')!r} holds no experiment (no experiment.json): start it without "
                 "--resume", capsys,
                 monkeypatch)
    assert files_of(out, skip=()) == before  # a refused resume writes nothing
    code, _, err = run_cli(fast + ["--out", str(out), "--resume"], capsys, monkeypatch)  # complete: nothing to play
    assert code == 0, err
    assert files_of(out) == {k: v for k, v in before.items() if not k.startswith("report")}


# ------------------------------------------------------------------------------------------------- balance
BAL = ["toy-robust", ["rounds=2..8", "max_value=1..6"], ["length=9..11", "seat-spread<=25"]]
BAL_KW = dict(trials=6, games=60, recheck=2)
BAL_FILES = ["trials.parquet", "recheck.parquet", "proposal.toml", "balance.json", "search.json",
             "report/balance.md", "report/balance.html"]


def _bytes(folder: Path, names) -> dict[str, bytes]:
    return {n: (folder / n).read_bytes() for n in names}


def test_a_balance_search_interrupted_anywhere_resumes_to_the_same_files(tmp_path):
    run_balance(*BAL, tmp_path / "ref", **BAL_KW)
    want = _bytes(tmp_path / "ref", BAL_FILES)
    for cut in (2, 7):  # in the search (after 2 candidates), in the re-check (after the first)
        said = []

        def stop(msg):
            said.append(msg)
            if len(said) == cut:
                raise KeyboardInterrupt

        out = tmp_path / f"cut{cut}"
        with pytest.raises(KeyboardInterrupt):
            run_balance(*BAL, out, progress=stop, **BAL_KW)
        state = json.loads((out / "search.json").read_text())
        assert state["status"] == "interrupted"
        assert (len(state["evaluated"]), len(state["rechecked"])) == ((2, 0) if cut == 2 else (6, 1))
        played = []
        s = run_balance(*BAL, out, resume=True, progress=played.append, **BAL_KW)
        assert _bytes(out, BAL_FILES) == want
        assert s["proposal"]["trial"] == json.loads(want["balance.json"])["proposal"]["trial"]


@pytest.mark.slow
def test_a_balance_search_killed_then_resumed_from_the_cli_writes_the_uninterrupted_files(tmp_path, capsys, monkeypatch):
    argv = ["balance", "--game", "toy-robust", "--vary", "rounds=2..8", "--vary", "max_value=1..6", "--target",
            "length=9..11", "--target", "seat-spread<=25", "--trials", "8", "--games-per-lineup", "2000", "--recheck", "3"]
    ref, out = tmp_path / "ref", tmp_path / "cut"
    code, _, err = run_cli(argv + ["--out", str(ref)], capsys, monkeypatch)
    assert code == 0, err
    code, _ = start_polling(argv + ["--out", str(out)], lambda: len(_json(out / "search.json").get("rechecked", [])) >= 1,
                            signal.SIGKILL)
    assert code == -signal.SIGKILL
    state = _json(out / "search.json")
    assert state["status"] == "running" and len(state["evaluated"]) == 8 and 1 <= len(state["rechecked"]) < 3
    code, stdout, err = run_cli(argv + ["--out", str(out), "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert "trial 7 (8/8)" in err and f"wrote {out / 'proposal.toml'}" in stdout
    assert _bytes(out, BAL_FILES[:-1]) == _bytes(ref, BAL_FILES[:-1])
    assert (out / "report" / "balance.html").read_text() == (ref / "report" / "balance.html").read_text()


def test_a_balance_resume_with_other_options_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    out = tmp_path / "b"
    argv = ["balance", "--game", "toy-robust", "--vary", "rounds=4..5", "--target", "length=9..11", "--trials", "2",
            "--games-per-lineup", "4", "--out", str(out)]
    code, _, err = run_cli(argv, capsys, monkeypatch)
    assert code == 0, err
    before = _bytes(out, BAL_FILES)
    expect_error([("rounds=4..6" if a == "rounds=4..5" else a) for a in argv] + ["--resume"],
                 "cannot resume: the balance search in the folder has --vary rounds=4..5, this search has --vary "
                 "rounds=4..6: use the same options or --overwrite", capsys, monkeypatch)
    expect_error(argv + ["--resume", "--seed", "1"], "cannot resume: the balance search in the folder has --seed 0, "
                 "this search has --seed 1: use the same options or --overwrite", capsys, monkeypatch)
    expect_error(argv + ["--resume", "--set", "max_value=4"], "cannot resume: the balance search in the folder has "
                 "--set (none), this search has --set max_value=4: use the same options or --overwrite", capsys, monkeypatch)
    expect_error(argv, f"output folder {str(out)!r} holds another balance search: use --resume to complete it, "
                 "--overwrite to replace it or choose a new --out", capsys, monkeypatch)
    expect_error(argv[:-1] + [str(tmp_path / "none"), "--resume"],
                 f"nothing to resume: {str(tmp_path / 'none')!r} holds no balance search (no search.json): start it "
                 "without --resume", capsys,
                 monkeypatch)
    assert _bytes(out, BAL_FILES) == before


# ---------------------------------------------------------------------------------------------------- tune
TUNE = ("toy", "rollout:top=2", ["random", "always-draw"])
TUNE_KW = dict(budget=5 * 2 * 2 * 8, games_per_trial=8, seed=2, eval_games=12)
TUNE_FILES = ["preset.toml", "tune.json", "search.json"]


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_a_tuning_interrupted_anywhere_resumes_to_the_same_files(tmp_path, monkeypatch):
    tune_mod.tune(*TUNE, out=tmp_path / "ref", **TUNE_KW)
    want = _bytes(tmp_path / "ref", TUNE_FILES)
    play = tune_mod.play_field
    for cut in (3, 7):  # in the search (after 2 trials), in the held-out evaluation (after the first)
        calls = []

        def counted(*a, **k):
            calls.append(1)
            if len(calls) == cut:
                raise KeyboardInterrupt
            return play(*a, **k)

        out = tmp_path / f"cut{cut}"
        monkeypatch.setattr(tune_mod, "play_field", counted)
        with pytest.raises(KeyboardInterrupt):
            tune_mod.tune(*TUNE, out=out, **TUNE_KW)
        state = json.loads((out / "search.json").read_text())
        assert state["status"] == "interrupted"
        assert (len(state["trials"]), list(state["heldout"])) == ((2, []) if cut == 3 else (5, ["tuned"]))
        monkeypatch.setattr(tune_mod, "play_field", play)
        tune_mod.tune(*TUNE, out=out, resume=True, **TUNE_KW)
        assert _bytes(out, TUNE_FILES) == want


@pytest.mark.slow
def test_a_tuning_killed_then_stopped_then_resumed_from_the_cli_writes_the_uninterrupted_files(tmp_path, capsys,
                                                                                             monkeypatch):
    argv = ["tune", "--game", "toy", "--strategy", "rollout:top=2", "--against", "slow-random:ms=0", "--budget", "96",
            "--games-per-trial", "8", "--eval-games", "8", "--seed", "4", "--no-progress"]
    ref, out = tmp_path / "ref", tmp_path / "cut"
    code, _, err = run_cli(argv + ["--out", str(ref)], capsys, monkeypatch)
    assert code == 0, err

    def trials() -> int:
        return len(_json(out / "search.json").get("trials", []))

    # held every 10 decisions of slow-random (about 33 a trial)
    code, _ = start_until(argv + ["--out", str(out)], lambda: trials() >= 2, signal.SIGKILL, tmp_path / "gate1", 10)
    assert code == -signal.SIGKILL
    assert _json(out / "search.json")["status"] == "running" and 2 <= trials() < 6
    n = trials()
    code, err = start_until(argv + ["--out", str(out), "--resume"], lambda: trials() > n, signal.SIGTERM,
                            tmp_path / "gate2", 10)
    assert code == 143, err
    assert err.strip().splitlines()[-1] == (f"interrupted: the tuning in {out} is incomplete; complete it with the same "
                                            "command and --resume")
    assert _json(out / "search.json")["status"] == "interrupted"
    code, stdout, err = run_cli(argv + ["--out", str(out), "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert _bytes(out, TUNE_FILES) == _bytes(ref, TUNE_FILES)


def test_a_tuning_resume_with_other_options_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t"
    argv = ["tune", "--game", "toy", "--strategy", "rollout", "--against", "random", "--budget", "32",
            "--games-per-trial", "8", "--eval-games", "4", "--out", str(out)]
    code, _, err = run_cli(argv, capsys, monkeypatch)
    assert code == 0, err
    before = _bytes(out, TUNE_FILES)
    expect_error([("48" if a == "32" else a) for a in argv] + ["--resume"], "cannot resume: the tuning in the folder has "
                 "--budget 32, this tuning has --budget 48: use the same options or --overwrite", capsys, monkeypatch)
    expect_error([("always-draw" if a == "random" else a) for a in argv] + ["--resume"], "cannot resume: the tuning "
                 "in the folder has --against random, this tuning has --against always-draw: use the same options "
                 "or --overwrite", capsys, monkeypatch)
    expect_error(argv, f"output folder {str(out)!r} is not empty: use --resume to complete it, --overwrite or choose a "
                 "new --out", capsys, monkeypatch)
    expect_error(argv[:-1] + [str(tmp_path / "none"), "--resume"],
                 f"nothing to resume: {str(tmp_path / 'none')!r} holds no tuning (no search.json)", capsys, monkeypatch)
    assert _bytes(out, TUNE_FILES) == before
    code, _, err = run_cli(argv + ["--resume"], capsys, monkeypatch)  # complete: nothing to play, the same files
    assert code == 0, err
    assert _bytes(out, TUNE_FILES) == before
