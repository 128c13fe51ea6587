"""Ctrl-C (SIGINT) and SIGTERM during simulate and sweep: the run folder (and sweep.json) is marked
interrupted, one line says how to complete it, the exit code is 130 (SIGINT) or 143 (SIGTERM), and
--resume completes it. Real subprocesses, on the toy game's slow-random strategy."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from meeplelab.play.runner import Terminated, terminate_as_interrupt
from tests.pausing import Pause

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "import tests.toygame; from cli import main; main()"]


def done_chunks(run: Path) -> int:
    try:
        m = json.loads((run / "manifest.json").read_text())
    except (OSError, json.JSONDecodeError):
        return 0
    return sum(c["status"] == "done" for c in m["chunks"])


def start_and_signal(cmd: list[str], run: Path, sig: int, after: int = 100) -> tuple[int, str]:
    """Start ``cmd``, send ``sig`` while it is held mid-run (slow-random's ``after``-th decision, about a
    fifth of the 60 games below) with two finished chunks on disk; returns (exit code, stderr)."""
    pause = Pause(run.parent, after)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=pause.env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    return pause.signal(proc, lambda: pause.wait(proc, lambda: done_chunks(run) >= 2, timeout=120), sig)


def test_sigterm_handler_raises_terminated_and_is_restored():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated) as e:
        with terminate_as_interrupt():
            assert signal.getsignal(signal.SIGTERM) is not before
            os.kill(os.getpid(), signal.SIGTERM)
            deadline = time.monotonic() + 30  # the handler raises at once: a deadline, not a wait
            while time.monotonic() < deadline:
                time.sleep(0.01)
    assert isinstance(e.value, KeyboardInterrupt)
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.slow
def test_simulate_killed_with_sigterm_is_marked_interrupted_and_resumes(tmp_path):
    out = tmp_path / "run"
    cmd = CLI + ["simulate", "--game", "toy", "--players", "2", "--strategies", "slow-random:ms=0", "--games", "60",
                 "--batch-size", "3", "--chunk-size", "3", "--n-jobs", "1", "--seed", "5", "--out", str(out),
                 "--no-progress"]
    code, err = start_and_signal(cmd, out, signal.SIGTERM)
    assert code == 143, err
    assert err.strip().splitlines()[-1] == f"interrupted: the run in {out} is incomplete; complete it with --resume"
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "interrupted"
    assert 0 < sum(c["status"] == "done" for c in m["chunks"]) < len(m["chunks"])
    res = subprocess.run(cmd + ["--resume"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "completed 60 games" in res.stdout
    g = pl.read_parquet(str(out / "games" / "*.parquet"))
    assert g.height == 120 and g["game"].n_unique() == 60


@pytest.mark.slow
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupted_sweep_is_marked_interrupted_and_resumes(tmp_path, sig, code):
    out = tmp_path / "sw"
    cmd = CLI + ["sweep", "--game", "toy", "--players", "2", "--strategies", "slow-random:ms=0", "--vary",
                 "rounds=1,2", "--games", "60", "--batch-size", "3", "--n-jobs", "1", "--seed", "5", "--out", str(out)]
    # the sweep CLI has no --chunk-size (a variant is one chunk here): signal while the first variant is held
    # inside a move (slow-random's 30th decision), its manifest written
    pause = Pause(tmp_path, 30)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=pause.env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        pause.wait(proc, lambda: (out / "rounds=1" / "manifest.json").is_file(), timeout=120)
        os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=120)
    finally:
        pause.release()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == (f"interrupted: the sweep in {out} is incomplete; complete it with the "
                                            "same command and --resume")
    assert json.loads((out / "sweep.json").read_text())["status"] == "interrupted"
    assert json.loads((out / "rounds=1" / "manifest.json").read_text())["status"] == "interrupted"
    assert not (out / "rounds=2").exists()
    if sig == signal.SIGINT:
        res = subprocess.run(cmd + ["--resume"], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert json.loads((out / "sweep.json").read_text())["status"] == "complete"
        for v in ("rounds=1", "rounds=2"):
            assert json.loads((out / v / "manifest.json").read_text())["status"] == "complete"
            assert pl.read_parquet(str(out / v / "games" / "*.parquet"))["game"].n_unique() == 60
