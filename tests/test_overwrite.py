"""``simulate --overwrite`` builds the new run beside the old one (the hidden sibling ``.NAME.new``) and swaps it
in when it is complete: the old run survives a full disk (a real tmpfs), Ctrl-C and kill -9, and ``--resume``
completes the interrupted overwrite and then swaps it in."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from meeplelab.analysis.load import load_runs
from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate

from tests.cli_run import run_cli
from tests.fsfaults import full_disk  # noqa: F401  (fixture)
from tests.pausing import Pause

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "import tests.toygame; from cli import main; main()"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
OLD = dict(game="toy", players=2, strategies=("random",), games=40, seed=1, batch_size=10, chunk_size=10, n_jobs=1)


def files(run: Path) -> dict[str, bytes]:
    """Every file of a run folder by its path inside it, with its bytes."""
    return {str(p.relative_to(run)): p.read_bytes() for p in sorted(run.rglob("*")) if p.is_file()}


def tables(run: Path) -> dict:
    runs = load_runs([run])  # checked: sizes, sha256, invariants
    return {t: getattr(runs, t).drop("run").collect() for t in rf.TABLES}


def siblings(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name)


def test_an_overwrite_replaces_the_run_whole_and_leaves_nothing_beside_it(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    simulate(RunConfig(**OLD, out=str(out)))
    (out / "report").mkdir()
    (out / "report" / "report.md").write_text("the old run's report")
    argv = ["simulate", "--no-progress", "--quiet", "--game", "toy", "--players", "2", "--games", "30", "--batch-size",
            "10", "--n-jobs", "1", "--seed", "2", "--out", out]
    code, stdout, err = run_cli([*argv, "--overwrite"], capsys, monkeypatch)
    assert code == 0 and err == "" and f"wrote 30 games of toy to {out}" in stdout
    assert siblings(out) == [] and not (out / "report").exists()
    ref = tmp_path / "ref" / "run"
    simulate(RunConfig(**{**OLD, "games": 30, "seed": 2, "chunk_size": None}, out=str(ref)))
    assert all(a.equals(b) for a, b in zip(tables(out).values(), tables(ref).values()))


@pytest.mark.slow  # two command processes on a real tmpfs: about 30 s
def test_an_overwrite_on_a_full_disk_keeps_the_old_run_and_ends_in_one_line(full_disk, tmp_path):  # noqa: F811
    out = full_disk.path / "run"
    simulate(RunConfig(**OLD, out=str(out)))
    before = files(out)
    full_disk.fill(left=96 * 1024)  # room for the new run's first parts only
    cmd = [*CLI, "simulate", "--game", "toy", "--players", "2", "--games", "4000", "--batch-size", "10", "--n-jobs",
           "1", "--seed", "5", "--out", str(out), "--quiet"]
    res = subprocess.run([*cmd, "--overwrite"], cwd=ROOT, env={**ENV, "MEEPLELAB_PROGRESS": "1"}, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 1 and res.stdout == ""
    lines = [ln for ln in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", res.stderr).replace("\r", "\n").splitlines() if ln.strip()]
    assert lines[-1] == (f"error: cannot write '{out}': No space left on device; free space there or choose an --out on "
                         "another disk, then run the same command again with --resume in place of --overwrite (the "
                         "finished part is kept; the earlier run stays until the new one is complete)")
    assert lines[:-1] and all(re.fullmatch(r"toy .* \d+/4000 games .*", ln) for ln in lines[:-1]), lines[:-1]
    assert files(out) == before  # the old run, byte for byte
    assert tables(out)["games"]["game"].n_unique() == 40
    staged = rf.staging_folder(out)
    assert json.loads((staged / rf.MANIFEST).read_text())["status"] == "failed"
    full_disk.filler.unlink()
    res = subprocess.run([*cmd, "--resume", "--no-progress"], cwd=ROOT, env=ENV, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr
    assert f"completed 4,000 games of toy to {out}" in res.stdout
    assert siblings(out) == [] and rf.read_manifest(out)["status"] == "complete"
    assert tables(out)["games"]["game"].n_unique() == 4000


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_an_overwrite_stopped_mid_run_keeps_the_old_run_and_resume_swaps_in_the_new(sig, tmp_path, capsys,
                                                                                    monkeypatch):
    out = tmp_path / "runs" / "run"  # the pause gate's files stay out of its folder
    simulate(RunConfig(**OLD, out=str(out)))
    before = files(out)
    staged = rf.staging_folder(out)
    argv = ["simulate", "--game", "toy", "--players", "2", "--strategies", "slow-random:ms=0", "--games", "60",
            "--batch-size", "4", "--chunk-size", "4", "--n-jobs", "1", "--seed", "8", "--out", str(out), "--no-progress",
            "--quiet", "--overwrite"]

    def done() -> int:
        try:
            return sum(c["status"] == "done" for c in json.loads((staged / rf.MANIFEST).read_text())["chunks"])
        except (OSError, ValueError):
            return 0

    pause = Pause(tmp_path, 90)  # held inside a move of the new run, a few chunks in
    proc = subprocess.Popen([*CLI, *argv], cwd=ROOT, env=pause.env(ENV), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        pause.wait(proc, lambda: done() >= 2, processes=1, timeout=300)
        os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=300)
    finally:
        pause.release()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if sig == signal.SIGINT:
        assert proc.returncode == 130
        assert err == (f"interrupted: the run in {out} is kept as it was; the new run is incomplete in {staged}: complete "
                       f"it with --resume (it then replaces the run in {out}), or start it again with --overwrite\n")
    else:
        assert proc.returncode == -signal.SIGKILL
    assert files(out) == before  # the old run, byte for byte, and it reads
    assert tables(out)["games"]["game"].n_unique() == 40
    assert 2 <= done() < 15
    code, stdout, err = run_cli(["simulate", "--no-progress", "--quiet", "--out", out, "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert f"completed 60 games of toy to {out}" in stdout
    assert siblings(out) == []
    ref = tmp_path / "ref"
    simulate(RunConfig(game="toy", players=2, strategies=("slow-random:ms=0",), games=60, seed=8, batch_size=4,
                       chunk_size=4, n_jobs=1, out=str(ref)))
    assert all(a.equals(b) for a, b in zip(tables(out).values(), tables(ref).values()))


@pytest.mark.parametrize("complete", [True, False], ids=["new-complete", "new-incomplete"])
def test_a_swap_killed_between_its_renames_is_finished_by_the_next_simulate(complete, tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    simulate(RunConfig(**OLD, out=str(out)))
    staged = rf.staging_folder(out)
    simulate(RunConfig(**{**OLD, "seed": 3}, out=str(staged)))
    new = tables(staged)
    if not complete:  # as an interrupted overwrite leaves it: resumable
        m = rf.read_manifest(staged)
        m["status"], m["chunks"][3]["status"] = "interrupted", "pending"
        rf.write_manifest(staged, m)
    os.replace(out, tmp_path / ".run.old-99999")  # the swap's first rename done, its second not
    code, stdout, err = run_cli(["simulate", "--no-progress", "--quiet", "--out", out, "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert f"completed 40 games of toy to {out} ({0 if complete else 10} played now" in stdout
    assert siblings(out) == [] and rf.read_manifest(out)["config"]["seed"] == 3
    assert all(a.equals(b) for a, b in zip(tables(out).values(), new.values()))
