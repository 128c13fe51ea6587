"""The benchmark entry point runs and records what it measured (no timing is asserted here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench(tmp_path: Path, only: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, MEEPLELAB_PLUGINS="tests.toygame", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "benchmarks.bench", "--games", "toy", "--quick", "--only", only,
                           "--out", str(tmp_path / "RESULTS.md")], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


def test_bench_writes_results_and_keeps_parts_not_measured_again(tmp_path):
    (tmp_path / "notes.md").write_text("## Analysis\n\nhand-written notes stay at the end\n")
    r = _bench(tmp_path, "throughput")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "RESULTS.md").read_text()
    assert "## Machine" in text and "- cores:" in text
    assert "| 4 | 4096 | 1 | written |" in text and "4 seats: batch 4096 is" in text
    assert "n_jobs 2 is" in text and text.rstrip().endswith("hand-written notes stay at the end")
    rows = json.loads((tmp_path / "results.json").read_text())
    n_tp = sum(r["measure"] == "throughput" for r in rows)
    assert n_tp == 2 * (4 * 2 + 2) and all(r["games"] > 0 and r["seconds"] > 0 for r in rows)

    r = _bench(tmp_path, "profile")
    assert r.returncode == 0, r.stderr
    rows = json.loads((tmp_path / "results.json").read_text())
    assert sum(r["measure"] == "throughput" for r in rows) == n_tp      # kept from the first run
    prof = [r for r in rows if r["measure"] == "profile"]
    assert 0 < len(prof) <= 12 and 0 < sum(p["extra"]["share"] for p in prof) <= 1.0 + 1e-9
    text = (tmp_path / "RESULTS.md").read_text()
    assert "### toy: profile" in text and "| 4 | 4096 | 1 | written |" in text
    # the play kernel's cycle-counter profile: the toy's one decision kind, every game's decisions counted
    kern = [r for r in rows if r["measure"] == "kernel"]
    assert [k["extra"]["kind"] for k in kern] == ["D_TURN"] and kern[0]["extra"]["per_game"] > 1
    assert kern[0]["extra"]["apply_ns"] > 0 and abs(kern[0]["extra"]["share"] - 1.0) < 1e-9
    assert "### toy: play kernel by decision kind" in text and "| D_TURN |" in text


def test_bench_refuses_an_unknown_part(tmp_path):
    r = _bench(tmp_path, "speed")
    assert r.returncode != 0 and "unknown bench part 'speed': allowed throughput, memory, sweep, profile" in r.stderr
    assert not (tmp_path / "RESULTS.md").exists()


@pytest.mark.slow
def test_bench_measures_the_cold_compile_in_an_empty_numba_cache(tmp_path):
    r = _bench(tmp_path, "compile")
    assert r.returncode == 0, r.stderr
    rows = [x for x in json.loads((tmp_path / "results.json").read_text()) if x["measure"] == "compile"]
    assert len(rows) == 1 and rows[0]["seconds"] > 0 and rows[0]["extra"]["kernels_cached"] > 0
    text = (tmp_path / "RESULTS.md").read_text()
    assert "### toy: cold compile of the rule kernels" in text and "Target (issue 15): 90 s or less." in text


@pytest.mark.slow
def test_bench_compares_compiled_play_with_the_python_loop_and_writes_the_targets(tmp_path):
    r = _bench(tmp_path, "compiled")
    assert r.returncode == 0, r.stderr
    rows = [x for x in json.loads((tmp_path / "results.json").read_text()) if x["measure"] == "compiled"]
    # 2 and 4 seats x logs written and not x n_jobs 1 and 2, each on both paths
    assert len(rows) == 16
    assert {(x["players"], x["logs"], x["n_jobs"]) for x in rows} == {(p, lg, j) for p in (2, 4)
                                                                       for lg in (True, False) for j in (1, 2)}
    assert [x["extra"]["path"] for x in rows[:2]] == ["compiled", "python-loop"]
    assert all(x["seconds"] > 0 for x in rows) and rows[0]["extra"]["ratio"] > 0
    text = (tmp_path / "RESULTS.md").read_text()
    assert "### toy: compiled play against the Python loop, same run, seeds and strategies" in text
    assert "| compiled / Python loop, 4 seats, logs written, n_jobs 2 |" in text
    assert "| n_jobs 2 / n_jobs 1 (compiled, 4 seats, logs written) |" in text
