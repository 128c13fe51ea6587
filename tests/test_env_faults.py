"""Every command that writes an output folder fails cleanly when the environment refuses the write.

A read-only ``--out`` and a full disk (real tmpfs mounts, tests/fsfaults.py) give exit 1 and exactly one
line on stderr naming the path and what to do, no traceback; an earlier good output on the same disk is
left byte for byte as it was, and the failed command leaves no half-written file (no temporary file, every
visible Parquet and JSON file reads whole). Bad option values and content fields name the value and what
is allowed (exit 2); ``replay`` of a run whose games part is truncated names the part and the repair.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from meeplelab import cli
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from tests.fsfaults import full_disk, readonly_dir  # noqa: F401  (fixtures)


def run_cli(argv, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["meeplelab", *[str(a) for a in argv]])
    with pytest.raises(SystemExit) as e:
        cli.main()
    cap = capsys.readouterr()
    return e.value.code, cap.out, cap.err


# every command that writes an output folder, with the smallest budget that plays real games
COMMANDS = {
    "simulate": ["simulate", "--no-progress", "--game", "toy", "--players", "2", "--games", "40", "--batch-size", "10",
                 "--n-jobs", "1"],
    "sweep": ["sweep", "--game", "toy", "--players", "2", "--vary", "rounds=1,2", "--games", "20", "--n-jobs", "1"],
    "experiment": ["experiment", "--game", "toy", "--players", "2", "--strategies", "always-draw", "--control", "random",
                   "--treat", "vp+3", "--games", "20", "--n-jobs", "1"],
    "content-value": ["content-value", "--game", "galileos-truth", "--players", "2", "--strategies", "writer,observer",
                      "--items", "invention:compass", "--games", "8", "--batch-size", "4", "--n-jobs", "1"],
    "tournament": ["tournament", "--game", "toy", "--strategies", "random,always-draw", "--games", "10", "--n-jobs", "1"],
    "ladder": ["ladder", "--game", "toy", "--plans", "always-draw", "--tuned", "none", "--budget", "0",
               "--games-per-rung", "8", "--batch-size", "4", "--n-jobs", "1", "--no-progress"],
    "tune": ["tune", "--game", "toy", "--strategy", "rollout", "--against", "random", "--budget", "32",
             "--games-per-trial", "8", "--eval-games", "10", "--no-progress"],
    "robustness": ["robustness", "--game", "toy-robust", "--budget", "5000", "--games-per-lineup", "50"],
    "balance": ["balance", "--game", "toy-robust", "--vary", "rounds=2..8", "--target", "length=9..11", "--trials", "2",
                "--recheck", "1", "--games-per-lineup", "10"],
}


@pytest.fixture(scope="module")
def earlier_run(tmp_path_factory):
    """A complete run folder with its report: the earlier good output."""
    run = tmp_path_factory.mktemp("earlier") / "run"
    simulate(RunConfig(game="toy", players=2, strategies=("random",), games=20, seed=1, batch_size=10, chunk_size=10,
                       n_jobs=1, out=str(run)))  # two chunks: games 0 to 9 and 10 to 19
    from meeplelab.analysis.report import build_report

    build_report([run], run / "report")
    return run


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` by relative path -> sha256 of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_one_line(code: int, err: str, want_code: int, *needles: str, progress: bool = False) -> str:
    """Exactly one line on stderr, ``error: ...`` (with ``progress``: the progress lines a command printed
    before the disk filled may come first; still exactly one error line, the last), no traceback."""
    lines = err.strip().splitlines()
    assert code == want_code, err
    assert "Traceback" not in err and "During handling" not in err, err
    errors = [ln for ln in lines if ln.startswith("error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], err
    if not progress:
        assert len(lines) == 1, err
    for n in needles:
        assert n in errors[0], (n, errors[0])
    return errors[0]


def assert_nothing_half_written(folder: Path) -> None:
    """No temporary file is left, and every visible Parquet and JSON file reads whole."""
    if not folder.exists():
        return
    for p in folder.rglob("*"):
        assert ".tmp" not in p.name, p
        if p.is_file() and p.suffix == ".parquet":
            pq.read_table(p)
        elif p.is_file() and p.suffix == ".json":
            json.loads(p.read_text())


def outputs(name: str, run: Path, out: Path) -> list:
    if name in ("report", "export"):
        return [name, run, "--out", out]
    return COMMANDS[name] + ["--out", out]


ALL = list(COMMANDS) + ["report", "export"]


@pytest.mark.parametrize("name", ALL)
def test_a_read_only_out_is_one_line_exit_1(name, readonly_dir, earlier_run, capsys, monkeypatch):
    out = readonly_dir / "new"
    code, _, err = run_cli(outputs(name, earlier_run, out), capsys, monkeypatch)
    line = assert_one_line(code, err, 1, "Read-only file system", "choose a writable --out")
    assert str(readonly_dir) in line
    assert list(readonly_dir.iterdir()) == []


def test_bench_refuses_a_read_only_out_before_measuring(readonly_dir, capsys, monkeypatch):
    out = readonly_dir / "RESULTS.md"
    code, stdout, err = run_cli(["bench", "--only", "compile", "--games", "toy", "--out", out], capsys, monkeypatch)
    assert_one_line(code, err, 1, repr(str(readonly_dir)), "Read-only file system", "choose a writable --out")
    assert stdout == "" and list(readonly_dir.iterdir()) == []


@pytest.mark.parametrize("name", ALL)
def test_a_full_disk_is_one_line_exit_1_and_the_earlier_output_stays(name, full_disk, earlier_run, capsys, monkeypatch):
    earlier = full_disk.path / "earlier"
    shutil.copytree(earlier_run, earlier)
    before = snapshot(earlier)
    full_disk.fill()
    out = full_disk.path / "new"
    code, _, err = run_cli(outputs(name, earlier, out), capsys, monkeypatch)
    line = assert_one_line(code, err, 1, "No space left on device", "free space there", progress=True)
    assert str(full_disk.path) in line
    assert snapshot(earlier) == before
    assert_nothing_half_written(out)


def test_report_into_the_run_folder_on_a_full_disk_keeps_the_earlier_report(full_disk, earlier_run, capsys,
                                                                             monkeypatch):
    run = full_disk.path / "run"
    shutil.copytree(earlier_run, run)
    before = snapshot(run)
    full_disk.fill()
    code, _, err = run_cli(["report", run], capsys, monkeypatch)
    line = assert_one_line(code, err, 1, "No space left on device", "free space there", "run the command again")
    assert str(run) in line
    assert snapshot(run) == before  # the earlier report whole, no temporary folder left beside it
    assert sorted(p.name for p in run.iterdir()) == sorted(p.name for p in earlier_run.iterdir())


# --- bad values: the option or field, the value given and what is allowed -------------------------------------

@pytest.mark.parametrize("argv,message", [
    (["simulate", "--game", "toy", "--seed", "abc"], "Invalid value for '--seed': 'abc' is not an integer (a whole number such as 3)"),
    (["simulate", "--game", "toy", "--players", "four"],
     "Invalid value for '--players': 'four' is not an integer (a whole number such as 3)"),
    (["sweep", "--game", "toy", "--vary", "rounds=1,2", "--games", "2.5"],
     "Invalid value for '--games': '2.5' is not an integer (a whole number such as 3)"),
    (["tournament", "--game", "toy", "--strategies", "random,always-draw", "--n-jobs", "all"],
     "Invalid value for '--n-jobs': 'all' is not an integer (a whole number such as 3)"),
    (["robustness", "--game", "toy-robust", "--budget", "lots"],
     "Invalid value for '--budget': 'lots' is not an integer (a whole number such as 3)"),
    (["bench", "--scale", "big"], "Invalid value for '--scale': 'big' is not a number (such as 0.5)"),
    (["replay", "RUN", "--game-id", "x"], "Invalid value for '--game-id': 'x' is not an integer (a whole number such as 3)"),
])
def test_an_option_value_of_the_wrong_type_is_named_with_what_is_allowed(argv, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "o"
    if argv[0] not in ("replay", "bench"):
        argv = argv + ["--out", out]
    code, _, err = run_cli(argv, capsys, monkeypatch)
    assert code == 2 and err == f"error: {message}\n"
    assert not out.exists()


def test_a_content_field_of_the_wrong_type_names_the_value(tmp_path, capsys, monkeypatch):
    from meeplelab.sim.registry import get_game_class

    src = Path(sys.modules[get_game_class("galileos-truth").__module__].__file__).parent / "data"
    d = tmp_path / "content"
    shutil.copytree(src, d)
    p = d / "penance.toml"
    text = p.read_text()
    assert "coins = 2" in text
    p.write_text(text.replace("coins = 2", 'coins = "two"', 1))
    code, _, err = run_cli(["simulate", "--game", "galileos-truth", "--content", d, "--out", tmp_path / "o"], capsys,
                           monkeypatch)
    assert code == 2 and err.startswith("error: penance.toml: [[penance]] entry ")
    assert err.strip().endswith("field 'coins' is 'two' (str): allowed an integer (a whole number such as 3)")
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "o").exists()


# --- replay of a damaged run ----------------------------------------------------------------------------------

def test_replay_of_a_truncated_games_part_names_the_part_and_the_repair(earlier_run, tmp_path, capsys, monkeypatch):
    run = tmp_path / "run"
    shutil.copytree(earlier_run, run)
    part = run / "games" / "part-000001.parquet"  # games 10 to 19
    part.write_bytes(part.read_bytes()[:200])
    code, stdout, err = run_cli(["replay", run, "--game-id", "12"], capsys, monkeypatch)
    assert code == 2 and stdout == ""
    assert err == (f"error: games part '{part}' is corrupt (ArrowInvalid): game 12 cannot be checked against its "
                   f"logged final scores; repair the run with: meeplelab simulate --out '{run}' --resume\n")
    code, stdout, _ = run_cli(["replay", run, "--game-id", "3"], capsys, monkeypatch)  # another part: checked
    assert code == 0 and stdout.strip().endswith("(matches the logged final scores)")
    part.unlink()
    code, _, err = run_cli(["replay", run, "--game-id", "12"], capsys, monkeypatch)
    assert code == 2 and err.startswith(f"error: games part '{part}' is missing: game 12 cannot be checked")


def test_a_disk_that_fills_during_a_run_is_one_line_and_resume_completes_it(full_disk, capsys, monkeypatch):
    full_disk.fill(left=96 * 1024)  # room for the first parts only
    out = full_disk.path / "run"
    argv = ["simulate", "--no-progress", "--game", "toy", "--players", "2", "--games", "4000", "--batch-size", "10",
            "--n-jobs", "1", "--seed", "5", "--out", out]
    code, _, err = run_cli(argv, capsys, monkeypatch)
    line = assert_one_line(code, err, 1, "No space left on device", "--resume (the finished part is kept)")
    assert line.startswith(f"error: cannot write '{out}")
    m = json.loads((out / "manifest.json").read_text())
    done = [c for c in m["chunks"] if c["status"] == "done"]
    assert 0 < len(done) < len(m["chunks"]) and "No space left on device" in m["error"]
    assert_nothing_half_written(out)
    full_disk.filler.unlink()
    code, stdout, err = run_cli(argv + ["--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert "completed 4,000 games of toy" in stdout
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


@pytest.mark.parametrize("make", [
    lambda: OSError(28, "No space left on device", "/d/out/games/part-000003.parquet"),
    lambda: OSError("Error writing bytes to file. Detail: [errno 28] No space left on device"),  # pyarrow's shape
    lambda: __import__("polars").exceptions.ComputeError(
        "parquet: File out of specification: underlying IO error: No space left on device (os error 28)"),
])
def test_every_shape_of_a_full_disk_error_is_the_same_one_line(make):
    from meeplelab.sim.core.errors import environment_message, os_error_of

    err = os_error_of(make())
    assert err is not None and err.errno == 28
    where = err.filename or "/d/out"
    assert environment_message(err, "/d/out") == (f"cannot write {where!r}: No space left on device; free space there "
                                                  "or choose an --out on another disk, then run the command again")


def test_an_error_raised_while_handling_a_disk_error_is_not_taken_for_one():
    from meeplelab.sim.core.errors import os_error_of

    try:
        try:
            raise OSError(28, "No space left on device")
        except OSError:
            raise ValueError("a bug in the handler")
    except ValueError as e:
        assert os_error_of(e) is None


def test_a_content_copy_on_a_full_disk_leaves_no_half_copy(full_disk, tmp_path, capsys, monkeypatch):
    from meeplelab.sim.registry import get_game_class

    src = Path(sys.modules[get_game_class("galileos-truth").__module__].__file__).parent / "data"
    d = tmp_path / "content"
    shutil.copytree(src, d)
    full_disk.fill()
    out = full_disk.path / "new"
    code, _, err = run_cli(["simulate", "--no-progress", "--game", "galileos-truth", "--players", "2", "--games", "4",
                            "--n-jobs", "1", "--content", d, "--out", out], capsys, monkeypatch)
    assert_one_line(code, err, 1, "No space left on device", repr(str(out)), progress=True)  # after a compile notice
    assert_nothing_half_written(out)
    assert not (out / "content").exists()
