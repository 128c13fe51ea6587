"""Every study command's ``--overwrite`` builds the new study beside the old one (the hidden sibling ``.NAME.new``,
``play/runfolder.py`` ``study_folder``) and swaps it in when complete: the old study survives an error, Ctrl-C,
kill -9 and a full disk (a real tmpfs) byte for byte; ``--resume`` completes the interrupted overwrite and swaps it
in, with the files of an uninterrupted run; a kill between the swap's two renames is finished by the next command.
Real commands, processes and Parquet files on the toy game."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.sweep import run_sweep
from meeplelab.sim.core.errors import RunFolderError
from meeplelab.studies.tournament import run_tournament

from tests.cli_run import run_cli
from tests.fsfaults import full_disk  # noqa: F401  (fixture)
from tests.pausing import Pause

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "import tests.toygame; from cli import main; main()"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

EXPERIMENT = ["experiment", "--game", "toy", "--players", "2", "--strategies", "slow-random:ms=0", "--control",
              "random", "--vary", "strategy=always-draw,bank-at", "--n-jobs", "1", "--no-progress", "--no-report"]
COMPARE = ["compare", "--game", "toy", "--players", "2", "--strategies", "slow-random:ms=0,always-draw", "--arm",
           "default", "--arm", "rounds=2", "--batch-size", "4", "--n-jobs", "1", "--no-progress"]


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its path inside it, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def results(folder: Path) -> dict[str, bytes]:
    """:func:`files` without what holds times or names the folder itself (run manifests, the command's
    config.toml) and without reports: the tables, parts and state files a study's results are."""
    return {k: v for k, v in files(folder).items()
            if Path(k).name not in (rf.MANIFEST, rf.SETTINGS) and "report" not in Path(k).parts}


def siblings(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name)


def names_no_staging(out: Path) -> None:
    """No file of the swapped-in study names the folder it was built in (status files, configs, run manifests)."""
    staged = rf.staging_folder(out).name.encode()
    bad = [k for k, v in files(out).items() if staged in v]
    assert bad == [], bad


def start_held(argv: list[str], pause: Pause, ready, sig: int) -> tuple[int, str]:
    """Start the CLI with ``argv``, wait until it is held mid-run with ``ready()`` true, send ``sig``; returns
    (exit code, stderr). The process is gone afterwards."""
    proc = subprocess.Popen([*CLI, *map(str, argv)], cwd=ROOT, env=pause.env(ENV), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    return pause.signal(proc, lambda: pause.wait(proc, ready, processes=1, timeout=300), sig, timeout=300)


def done_chunks(run: Path) -> int:
    try:
        return sum(c["status"] == "done" for c in json.loads((run / rf.MANIFEST).read_text())["chunks"])
    except (OSError, ValueError, KeyError):
        return 0


def complete(run: Path) -> bool:
    try:
        return json.loads((run / rf.MANIFEST).read_text())["status"] == "complete"
    except (OSError, ValueError, KeyError):
        return False


def interrupted_line(out: Path, what: str) -> str:
    staged = rf.staging_folder(out)
    return (f"interrupted: the {what} in {out} is kept as it was; the new {what} is incomplete in {staged}: complete "
            f"it with the same command and --resume (it then replaces the {what} in {out}), or start it again with "
            "--overwrite\n")


# ------------------------------------------------------------------------------------- stopped mid-way (processes)
@pytest.mark.slow  # a command process and two in-process experiments: about 8 s
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_an_experiment_overwrite_stopped_mid_way_keeps_the_old_one_and_resume_swaps_in_the_new(sig, tmp_path, capsys,
                                                                                              monkeypatch):
    out = tmp_path / "studies" / "exp"  # the pause gate's files stay out of the studies' folder
    out.parent.mkdir()
    code, _, err = run_cli([*EXPERIMENT, "--games", "8", "--seed", "1", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    (out / "notes.txt").write_text("the user's notes")  # no file of an experiment: carried into the new one
    before = files(out)
    new = [*EXPERIMENT, "--games", "40", "--batch-size", "4", "--seed", "2", "--out", out]
    staged = rf.staging_folder(out)
    pause = Pause(tmp_path, 200)  # held inside a move of the new experiment's second arm (its first takes 126)
    code, err = start_held([*new, "--overwrite"], pause, lambda: complete(staged / "control"), sig)
    if sig == signal.SIGINT:
        assert code == 130 and err.endswith(interrupted_line(out, "experiment")), err
        assert json.loads((staged / "experiment.json").read_text())["status"] == "interrupted"
    else:
        assert code == -signal.SIGKILL
    assert files(out) == before  # the old experiment, byte for byte
    assert complete(staged / "control") and not complete(staged / "always-draw")
    assert not (staged / "bank-at").exists()
    code, stdout, err = run_cli([*new, "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert f"wrote 3 arms to {out}" in stdout and siblings(out) == []
    ref = tmp_path / "ref"
    code, _, err = run_cli([*EXPERIMENT, "--games", "40", "--batch-size", "4", "--seed", "2", "--out", ref], capsys,
                           monkeypatch)
    assert code == 0, err
    assert results(out) == {**results(ref), "notes.txt": b"the user's notes"}
    names_no_staging(out)


@pytest.mark.slow  # a command process and three in-process comparisons (two reports): about 20 s
def test_a_comparison_killed_mid_overwrite_keeps_the_old_one_and_resume_swaps_in_the_new(tmp_path, capsys, monkeypatch):
    out = tmp_path / "studies" / "cmp"
    out.parent.mkdir()
    code, _, err = run_cli([*COMPARE, "--games", "8", "--seed", "1", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    before = files(out)
    new = [*COMPARE, "--games", "40", "--seed", "2", "--out", out]
    staged = rf.staging_folder(out)
    pause = Pause(tmp_path, 180)  # held inside a move of the second run (the first takes 153)
    code, _ = start_held([*new, "--overwrite"], pause, lambda: complete(staged / "A-p2"), signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert files(out) == before
    assert json.loads((staged / "compare.json").read_text())["status"] == "running"  # kill -9: nothing marked it
    code, stdout, err = run_cli([*new, "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert f"wrote 2 runs to {out}; every delta in {out / 'deltas.csv'}; report {out / 'report' / 'report.html'}" in stdout
    assert siblings(out) == [] and (out / "report" / "report.html").is_file()
    ref = tmp_path / "ref"
    code, _, err = run_cli([*COMPARE, "--games", "40", "--seed", "2", "--out", ref], capsys, monkeypatch)
    assert code == 0, err
    assert results(out) == results(ref)
    names_no_staging(out)


# ------------------------------------------------------------------------------------------- injected failures
SWEEP = RunConfig(game="toy", players=2, strategies=("random", "always-draw"), games=12, seed=3, batch_size=4, n_jobs=1)


def test_a_sweep_overwrite_that_fails_keeps_the_old_sweep_and_resume_completes_the_new(tmp_path, monkeypatch):
    import meeplelab.play.sweep as sweep_mod

    out = tmp_path / "s"
    run_sweep(SWEEP, {"rounds": ["1", "2"]}, out)
    (out / "notes.txt").write_text("the user's notes")
    before = files(out)
    real, calls = sweep_mod.simulate, []

    def fail_second(cfg, **kw):
        calls.append(cfg.out)
        if len(calls) == 2:
            raise RuntimeError("injected")
        return real(cfg, **kw)

    monkeypatch.setattr(sweep_mod, "simulate", fail_second)
    new = {"rounds": ["1", "2", "3"]}
    with pytest.raises(RuntimeError, match="injected"):
        run_sweep(SWEEP, new, out, overwrite=True)
    assert calls[0] == str(rf.staging_folder(out) / "rounds=1")  # built beside the old sweep
    assert files(out) == before
    assert json.loads((rf.staging_folder(out) / "sweep.json").read_text())["status"] == "failed"
    monkeypatch.setattr(sweep_mod, "simulate", real)
    assert run_sweep(SWEEP, new, out, resume=True) == out
    assert siblings(out) == []
    run_sweep(SWEEP, new, tmp_path / "ref" / "s")
    assert results(out) == {**results(tmp_path / "ref" / "s"), "notes.txt": b"the user's notes"}
    names_no_staging(out)


def test_a_tournament_overwrite_that_fails_in_its_tables_keeps_the_old_one_and_resume_swaps_in_the_new(tmp_path,
                                                                                                     monkeypatch):
    import meeplelab.studies.tournament as tour_mod

    out, three = tmp_path / "t", ["random", "always-draw", "greedy-vp"]
    run_tournament("toy", ["random", "always-draw"], 2, 8, 5, out, n_jobs=1)
    before = files(out)

    def fail(folders):
        raise RuntimeError("injected")

    real = tour_mod.summarize
    monkeypatch.setattr(tour_mod, "summarize", fail)  # every lineup played (play_tournament's part), then a failure
    with pytest.raises(RuntimeError, match="injected"):
        run_tournament("toy", three, 2, 8, 5, out, n_jobs=1, overwrite=True)
    assert files(out) == before
    staged = rf.staging_folder(out)
    assert json.loads((staged / "tournament.json").read_text())["status"] == "played"
    assert all(complete(staged / f"lineup-{i:02d}") for i in range(6))
    monkeypatch.setattr(tour_mod, "summarize", real)
    run_tournament("toy", three, 2, 8, 5, out, n_jobs=1, resume=True)
    assert siblings(out) == [] and json.loads((out / "tournament.json").read_text())["status"] == "complete"
    run_tournament("toy", three, 2, 8, 5, tmp_path / "ref" / "t", n_jobs=1)
    assert results(out) == results(tmp_path / "ref" / "t")
    names_no_staging(out)


@pytest.mark.parametrize("complete", [True, False], ids=["new-complete", "new-incomplete"])
def test_a_study_swap_killed_between_its_renames_is_finished_by_the_next_command(complete, tmp_path):
    out = tmp_path / "s"
    run_sweep(SWEEP, {"rounds": ["1", "2"]}, out)
    staged = rf.staging_folder(out)
    new = {"rounds": ["3", "4"]}
    run_sweep(SWEEP, new, staged)  # what an overwrite built, its runs named inside it
    if not complete:  # the swap had not begun: resumable
        meta = json.loads((staged / "sweep.json").read_text())
        rf.write_atomic(staged / "sweep.json", json.dumps({**meta, "status": "interrupted"}).encode())
    os.replace(out, tmp_path / ".s.old-99999")  # the swap's first rename done, its second not
    run_sweep(SWEEP, new, out, resume=True)
    assert siblings(out) == [] and sorted(p.name for p in out.iterdir() if p.is_dir()) == ["rounds=3", "rounds=4"]
    assert json.loads((out / "sweep.json").read_text())["status"] == "complete"


def test_an_overwrite_of_the_folder_the_command_runs_in_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    out = tmp_path / "s"
    run_sweep(SWEEP, {"rounds": ["1", "2"]}, out)
    before = files(out)
    monkeypatch.chdir(out)
    with pytest.raises(RunFolderError, match=re.escape(f"--overwrite replaces '{out}' whole and the working folder is "
                                                       "in it: run the command from another folder")):
        run_sweep(SWEEP, {"rounds": ["3"]}, out, overwrite=True)
    assert files(out) == before and siblings(out) == []


# ------------------------------------------------------------------------------------------------- a full disk
@pytest.mark.slow  # two command processes on a real tmpfs: about 12 s
def test_an_experiment_overwrite_on_a_full_disk_keeps_the_old_one_and_ends_in_one_line(full_disk, tmp_path, capsys,  # noqa: F811
                                                                                      monkeypatch):
    out = full_disk.path / "exp"
    code, _, err = run_cli([*EXPERIMENT, "--games", "8", "--seed", "1", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    before = files(out)
    full_disk.fill(left=96 * 1024)  # room for the new experiment's first parts only
    new = [*CLI, *EXPERIMENT, "--games", "2400", "--batch-size", "200", "--seed", "5", "--out", str(out)]
    res = subprocess.run([*new, "--overwrite"], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600, check=False)
    assert res.returncode == 1 and res.stdout == ""
    lines = res.stderr.splitlines()
    assert re.fullmatch(r"error: cannot write '[^']+': No space left on device; free space there or choose an --out on "
                        r"another disk, then run the same command again with --resume in place of --overwrite \(the "
                        r"finished part is kept; the earlier study stays until the new one is complete\)", lines[-1])
    assert [ln for ln in lines[:-1] if not re.fullmatch(r"3 arms, .*|arm 1/3: control", ln)] == []  # notes, no trace
    assert files(out) == before  # the old experiment, byte for byte
    staged = rf.staging_folder(out)
    assert json.loads((staged / "experiment.json").read_text())["status"] == "failed"
    full_disk.filler.unlink()
    res = subprocess.run([*new, "--resume"], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600, check=False)
    assert res.returncode == 0, res.stderr
    assert f"wrote 3 arms to {out}" in res.stdout and siblings(out) == []
    assert [done_chunks(out / a) for a in ("control", "always-draw", "bank-at")] == [2, 2, 2]
    names_no_staging(out)
