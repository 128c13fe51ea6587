"""Run folders that move and reconcile.

A run folder is self-contained: paths relative to the folder and a copy of custom content, so a
moved folder resumes in place and replays with the original content folder gone. Readers and
``--resume`` reconcile the part files with the manifest, and a dead worker ends in one line naming
its games and the resume command."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import polars as pl
import pytest

from meeplelab import cli
from meeplelab.play import runfolder as rf

ROOT = Path(__file__).resolve().parents[1]
SIM = ["simulate", "--no-progress"]


def run_cli(argv, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["meeplelab", *argv])
    with pytest.raises(SystemExit) as e:
        cli.main()
    cap = capsys.readouterr()
    return e.value.code, cap.out, cap.err


def manifest(run: Path) -> dict:
    return json.loads((run / rf.MANIFEST).read_text())


# ------------------------------------------------------------------ folders that move
def test_a_moved_run_folder_resumes_in_place_and_replays_without_its_content_folder(tmp_path, capsys, monkeypatch):
    content = tmp_path / "my-content"
    shutil.copytree(ROOT / "sim" / "unconscious_mind" / "data", content)
    out = (tmp_path / "runs" / "um").resolve()
    code, _, err = run_cli(SIM + ["--game", "unconscious-mind", "--players", "2", "--games", "4", "--batch-size", "2",
                                  "--chunk-size", "2", "--seed", "3", "--n-jobs", "1", "--content", str(content.resolve()), "--out", str(out)],
                           capsys, monkeypatch)
    assert code == 0, err
    toml, man = (out / "run.toml").read_text(), (out / rf.MANIFEST).read_text()
    assert str(tmp_path) not in toml and str(tmp_path) not in man  # no absolute path is stored
    m = json.loads(man)
    assert m["config"]["out"] == "." and m["config"]["content"] == "content"
    from meeplelab.sim.unconscious_mind.content import FILES  # the content files (plausible.toml is parameter metadata)
    assert sorted(p.name for p in (out / "content").iterdir()) == sorted(FILES)
    before = replay_lines(out, capsys, monkeypatch)
    moved = tmp_path / "elsewhere" / "um-moved"
    moved.parent.mkdir()
    shutil.move(str(out), moved)
    shutil.rmtree(content)
    # replay reads the folder's own copy of the content
    assert replay_lines(moved, capsys, monkeypatch) == [before[0].replace("run um ", "run um-moved ")] + before[1:]
    # resume from the moved folder's run.toml writes into the moved folder, never the old place
    m = manifest(moved)  # as Ctrl-C leaves it: the second chunk not done, its parts absent
    m["status"], m["chunks"][1]["status"] = "interrupted", "pending"
    (moved / rf.MANIFEST).write_text(json.dumps(m))
    for t in rf.TABLES:
        (moved / t / rf.part_name(1)).unlink()
    code, stdout, err = run_cli(SIM + ["--config", str(moved / "run.toml"), "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert f"completed 4 games of unconscious-mind to {moved}" in stdout
    assert not out.exists()
    assert (moved / "games" / rf.part_name(1)).is_file()
    assert pl.read_parquet(str(moved / "games" / "*.parquet"))["game"].n_unique() == 4


def replay_lines(run: Path, capsys, monkeypatch) -> list[str]:
    code, stdout, err = run_cli(["replay", str(run), "--game-id", "2"], capsys, monkeypatch)
    assert code == 0, err
    return stdout.splitlines()


# ------------------------------------------------------------------ files and manifest reconcile
@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished 2,048-game run in chunks of 128 games (16 parts per table)."""
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    out = tmp_path_factory.mktemp("fin") / "run"
    simulate(RunConfig(game="toy", players=3, strategies=("random",), games=2048, seed=4, batch_size=128,
                       chunk_size=128, n_jobs=1, out=str(out)))
    return out


def _copy(run: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "run"
    shutil.copytree(run, dst)
    return dst


def _report(run, tmp_path, capsys, monkeypatch, name="rep"):
    code, stdout, err = run_cli(["report", str(run), "--out", str(tmp_path / name)], capsys, monkeypatch)
    md = (tmp_path / name / "report.md").read_text() if code == 0 else ""
    return code, err, md


def _games(run) -> int:
    from meeplelab.analysis.load import load_runs

    return load_runs([run]).games.select(pl.col("game").n_unique()).collect().item()


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_a_deleted_part_is_said_and_left_out_and_resume_replays_it(finished, tmp_path, capsys, monkeypatch):
    run = _copy(finished, tmp_path)
    original = pl.read_parquet(run / "games" / rf.part_name(1))
    (run / "games" / rf.part_name(1)).unlink()
    code, err, md = _report(run, tmp_path, capsys, monkeypatch)
    assert code == 0, err
    assert err.splitlines() == [f"warning: run run: games/part-000001.parquet listed in the manifest is missing: games "
                                f"128 to 255 are left out; meeplelab simulate --out '{run}' --resume replays them"]
    assert "Run run: 1,920 of 2,048 games (run incomplete) of toy" in md and "2,048 games of toy" not in md
    assert _games(run) == 1920  # the count the report gives is the count the tables hold
    code, stdout, err = run_cli(SIM + ["--out", str(run), "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert f"completed 2,048 games of toy to {run} (128 played now" in stdout
    assert pl.read_parquet(run / "games" / rf.part_name(1)).equals(original)
    assert manifest(run)["repaired"][0]["chunks"] == [1]
    code, err, md = _report(run, tmp_path, capsys, monkeypatch, "rep2")
    assert code == 0 and err == "" and "Run run: 2,048 games of toy" in md
    assert _games(run) == 2048


def test_resume_replays_a_truncated_part_of_an_interrupted_run(finished, tmp_path, capsys, monkeypatch):
    run = _copy(finished, tmp_path)
    m = manifest(run)
    m["status"] = "interrupted"
    for c in m["chunks"][12:]:  # the chunks an interruption left unplayed
        c["status"] = "pending"
        for t in rf.TABLES:
            (run / t / rf.part_name(c["id"])).unlink()
    (run / rf.MANIFEST).write_text(json.dumps(m))
    part = run / "turns" / rf.part_name(3)
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])  # truncated: no footer
    code, stdout, err = run_cli(SIM + ["--out", str(run), "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert f"completed 2,048 games of toy to {run} ({5 * 128} played now" in stdout
    code, err, md = _report(run, tmp_path, capsys, monkeypatch)
    assert code == 0, err
    assert "Run run: 2,048 games of toy" in md
    ref = pl.read_parquet(finished / "turns" / rf.part_name(3))
    assert pl.read_parquet(part).equals(ref)


def test_a_listed_part_with_another_row_count_is_named_and_replayed(finished, tmp_path, capsys, monkeypatch):
    run = _copy(finished, tmp_path)
    shutil.copy(run / "games" / rf.part_name(2), run / "games" / rf.part_name(5))  # 384 rows, but of other games
    m = manifest(run)
    m["chunks"][5]["rows"]["games"] = 383
    (run / rf.MANIFEST).write_text(json.dumps(m))
    code, err, _ = _report(run, tmp_path, capsys, monkeypatch)
    assert code == 2
    assert err.strip() == (f"error: Parquet part '{run / 'games' / rf.part_name(5)}' holds 384 rows where the manifest "
                           f"lists 383; meeplelab simulate --out '{run}' --resume moves it to '{run / 'stray'}' and plays "
                           "chunk 5 (games 640 to 767) again")


def test_hidden_and_stray_files_are_ignored(finished, tmp_path, capsys, monkeypatch):
    run = _copy(finished, tmp_path)
    (run / "games" / "._part-000002.parquet").write_bytes(b"\x00\x05\x16\x07 AppleDouble junk")
    (run / "turns" / ".part-000004.parquet.tmp-999").write_bytes(b"PAR1 half")
    code, err, md = _report(run, tmp_path, capsys, monkeypatch)
    assert code == 0, err
    assert err == "" and "Run run: 2,048 games of toy" in md
    assert _games(run) == 2048


def test_parts_not_listed_as_done_are_left_out_and_said(finished, tmp_path, capsys, monkeypatch):
    # a chunk that finished after Ctrl-C (or in a worker that outlived its parent) wrote its parts,
    # but the manifest never marked it done
    run = _copy(finished, tmp_path)
    m = manifest(run)
    m["status"] = "interrupted"
    m["chunks"][15]["status"] = "pending"
    (run / rf.MANIFEST).write_text(json.dumps(m))
    code, err, md = _report(run, tmp_path, capsys, monkeypatch)
    assert code == 0, err
    assert err.splitlines() == [f"warning: run run: 3 part file(s) not listed in the manifest as done were left out "
                                f"(e.g. games/part-000015.parquet: a chunk that finished after an interruption, or one still running); "
                                f"meeplelab simulate --out '{run}' --resume completes the run"]
    assert "Run run: 1,920 of 2,048 games (run incomplete) of toy" in md
    assert _games(run) == 1920
    code, stdout, err = run_cli(SIM + ["--out", str(run), "--resume"], capsys, monkeypatch)
    assert code == 0 and "(128 played now" in stdout, err
    assert _games(run) == 2048


# ------------------------------------------------------------------ a part no chunk lists
def test_a_part_copied_in_from_another_run_is_moved_aside_by_resume_and_never_read(finished, tmp_path, capsys,
                                                                                  monkeypatch):
    import warnings

    from meeplelab.analysis.load import scan_run

    run = _copy(finished, tmp_path)
    other = tmp_path / "other"
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    simulate(RunConfig(game="toy", players=3, strategies=("random",), games=128, seed=9, batch_size=128,
                       chunk_size=128, n_jobs=1, out=str(other)))
    for t in rf.TABLES:  # a valid part of another run, under a chunk id this run does not have
        shutil.copy(other / t / rf.part_name(0), run / t / rf.part_name(99))
    assert pl.scan_parquet(str(run / "games" / "*.parquet")).collect().height == 2048 * 3 + 128 * 3  # a glob reads it
    with pytest.warns(UserWarning, match="3 part file.s. not listed in the manifest as done were left out"):
        g = scan_run(run, "games").collect()
    assert g.height == 2048 * 3 and "run" not in g.columns  # the manifest-aware read does not
    assert g.equals(scan_run(finished, "games").collect())
    code, stdout, err = run_cli(SIM + ["--out", str(run), "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert err.splitlines() == [f"note: moved 3 part files that no finished chunk of the manifest lists out of the "
                                f"tables into '{run / 'stray'}' (games/part-000099.parquet, turns/part-000099.parquet, "
                                "events/part-000099.parquet); the run's own chunks not done are played again"]
    assert "(0 played now" in stdout
    for t in rf.TABLES:
        assert not (run / t / rf.part_name(99)).exists()
        moved = run / "stray" / t / rf.part_name(99)
        assert moved.read_bytes() == (other / t / rf.part_name(0)).read_bytes()
    assert pl.scan_parquet(str(run / "games" / "*.parquet")).collect().height == 2048 * 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every later read is clean: nothing tells the user to resume again
        assert scan_run(run, "turns").collect().equals(scan_run(finished, "turns").collect())
    code, err, md = _report(run, tmp_path, capsys, monkeypatch)
    assert code == 0 and err == "" and "Run run: 2,048 games of toy" in md
    # a second copy under the same name is kept beside the first; --overwrite removes stray/ with the run
    shutil.copy(other / "games" / rf.part_name(0), run / "games" / rf.part_name(99))
    code, _, err = run_cli(SIM + ["--out", str(run), "--resume"], capsys, monkeypatch)
    assert code == 0 and "moved 1 part file " in err, err
    assert sorted(p.name for p in (run / "stray" / "games").iterdir()) == ["part-000099-1.parquet", "part-000099.parquet"]
    # a file of any other name in a table folder is moved aside too (a glob would read it)
    shutil.copy(other / "games" / rf.part_name(0), run / "games" / "part-stray-um.parquet")
    code, _, err = run_cli(SIM + ["--out", str(run), "--resume"], capsys, monkeypatch)
    assert code == 0 and "moved 1 part file " in err and "games/part-stray-um.parquet" in err, err
    assert (run / "stray" / "games" / "part-stray-um.parquet").is_file()
    assert pl.scan_parquet(str(run / "games" / "*.parquet")).collect().height == 2048 * 3
    code, _, err = run_cli(SIM + ["--game", "toy", "--players", "3", "--games", "8", "--batch-size", "8", "--n-jobs", "1",
                                  "--out", str(run), "--overwrite"], capsys, monkeypatch)
    assert code == 0, err
    assert not (run / "stray").exists()


def test_resume_moves_aside_the_parts_of_chunks_not_done_and_plays_them_again(finished, tmp_path, capsys, monkeypatch):
    run = _copy(finished, tmp_path)
    m = manifest(run)
    m["status"] = "interrupted"
    m["chunks"][15]["status"] = "pending"  # finished after Ctrl-C: its parts are on disk, not listed
    (run / rf.MANIFEST).write_text(json.dumps(m))
    code, stdout, err = run_cli(SIM + ["--out", str(run), "--resume"], capsys, monkeypatch)
    assert code == 0 and "(128 played now" in stdout, err
    assert "note: moved 3 part files" in err and len(err.splitlines()) == 1
    for t in rf.TABLES:
        assert (run / t / rf.part_name(15)).read_bytes() == (finished / t / rf.part_name(15)).read_bytes()
        assert (run / "stray" / t / rf.part_name(15)).is_file()


@pytest.mark.slow
# ------------------------------------------------------------------ a dead worker
@pytest.mark.parametrize("exit_", [1, 0], ids=["worker-exits", "exception-in-worker"])
def test_a_dead_worker_ends_in_one_line_and_resume_completes_the_run(exit_, tmp_path):
    import os
    import subprocess

    out = tmp_path / "run"
    flag = tmp_path / "crash"
    flag.write_text("")
    env = {**os.environ, "MEEPLELAB_TEST_CRASH": str(flag),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-c", "import tests.toygame; from cli import main; main()", "simulate", "--game", "toy",
           "--players", "2", "--strategies", f"crashing:game=200,exit={exit_}", "--games", "300", "--batch-size", "50",
           "--chunk-size", "50", "--n-jobs", "2", "--seed", "6", "--out", str(out), "--no-progress"]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    hint = f"the finished chunks are kept; complete the run with: meeplelab simulate --out '{out}' --resume"
    if exit_:
        assert re.fullmatch(r"error: a worker process died \(TerminatedWorkerError, exit code [^)]*EXIT\(3\)[^)]*\) "
                            r"while games [0-9, to]+ were not finished; " + re.escape(hint), lines[0]), lines[0]
        left = re.search(r"while games (.*) were not finished", lines[0]).group(1)
        assert any(int(a) <= 200 <= int(b) for a, b in re.findall(r"(\d+) to (\d+)", left))
    else:
        assert lines[0] == ("error: chunk 4 (games 200 to 249): RuntimeError: crashing strategy in game 200 in a "
                            f"worker; {hint}")
    m = manifest(out)
    assert m["status"] == "failed" and m["error"] and m["traceback"]
    assert m["chunks"][4]["status"] != "done"
    flag.unlink()
    res = subprocess.run(cmd + ["--resume"], cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert res.returncode == 0, res.stderr
    assert f"completed 300 games of toy to {out}" in res.stdout
    m = manifest(out)
    assert m["status"] == "complete" and "error" not in m
    g = pl.read_parquet([str(out / "games" / rf.part_name(i)) for i in range(6)])
    assert g["game"].n_unique() == 300 and g.height == 600


@pytest.mark.slow
def test_parts_written_by_workers_that_outlive_a_killed_parent_are_reconciled(tmp_path, capsys, monkeypatch):
    import os
    import signal
    import subprocess

    from meeplelab.analysis.load import load_runs

    out = tmp_path / "run"
    cmd = [sys.executable, "-c", "import tests.toygame; from cli import main; main()", "simulate", "--game", "toy",
           "--players", "2", "--strategies", "slow-random:ms=4", "--games", "80", "--batch-size", "4", "--chunk-size", "4",
           "--n-jobs", "2", "--seed", "8", "--out", str(out), "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    from tests.pausing import Pause

    def done() -> int:
        try:
            return sum(c["status"] == "done" for c in manifest(out)["chunks"])
        except (OSError, ValueError):
            return 0

    # each worker held inside a move at its 70th slow-random decision (about its 3rd chunk): killed mid-run
    pause = Pause(tmp_path, 70)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=pause.env(env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        pause.wait(proc, lambda: done() >= 3, processes=2, timeout=300)
        os.kill(proc.pid, signal.SIGKILL)  # its loky workers end with it (play/workers.py)
        proc.wait()
    finally:
        pause.release()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # what a worker that outlived its parent did before they ended with it: finish chunks nobody records
    from meeplelab.play.config import RunConfig
    from meeplelab.play.plan import resolve
    from meeplelab.play.runner import run_chunk

    m = manifest(out)
    plan = resolve(RunConfig.from_dict({**m["config"], "out": str(out)}))
    for c in [c for c in m["chunks"] if c["status"] != "done"][:3]:
        run_chunk(plan, c["id"], c["lo"], c["hi"], str(out))
    m = manifest(out)
    listed = {c["id"] for c in m["chunks"] if c["status"] == "done"}
    assert 3 <= len(listed) < 20
    on_disk = {int(p.name[5:11]) for p in (out / "games").glob("part-*.parquet")}
    runs = load_runs([out])
    n = runs.games.select(pl.col("game").n_unique()).collect().item()
    assert n == 4 * len(listed)  # the tables hold exactly the games the manifest counts
    extra = on_disk - listed
    assert extra, "parts no manifest lists (the case under test)"
    assert bool(runs.notes) == bool(extra)
    code, stdout, err = run_cli(SIM + ["--out", str(out), "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert "completed 80 games of toy" in stdout
    assert load_runs([out]).games.select(pl.col("game").n_unique()).collect().item() == 80


def test_a_fresh_run_into_a_folder_a_killed_process_left_temporary_files_in_removes_them(tmp_path):
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    out = tmp_path / "arm"
    out.mkdir()
    (out / ".run.toml.tmp-15966").write_text("half a run.toml")  # killed before it wrote a manifest
    (out / ".manifest.json.tmp-15966").write_text("{")
    simulate(RunConfig(game="toy", players=2, strategies=("random",), games=8, seed=1, batch_size=8, n_jobs=1,
                       out=str(out)))
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert rf.read_manifest(out)["status"] == "complete"
