"""``python -m meeplelab.benchmarks.fuzz`` writes its table into the working folder (or ``--out``), never into the
installed package's folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import meeplelab.benchmarks.fuzz as fuzz_mod

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(fuzz_mod.__file__).resolve().parent  # the benchmarks folder of the installed package


def _package_files() -> set[str]:
    return {p.name for p in PACKAGE.iterdir()}


def test_main_writes_the_table_into_the_working_folder(tmp_path, monkeypatch, capsys):
    before = _package_files()
    monkeypatch.chdir(tmp_path)
    assert fuzz_mod.main(["--game", "toy", "--games", "4", "--batch", "4"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fuzz_toy.md"]
    assert ": toy, 4 random games" in (tmp_path / "fuzz_toy.md").read_text()
    assert _package_files() == before


@pytest.mark.slow  # two fresh processes (about 10 s)
def test_the_fuzz_module_run_as_a_program_writes_to_the_working_folder_or_out(tmp_path):
    env = dict(os.environ, MEEPLELAB_PLUGINS="tests.toygame", PYTHONPATH=str(ROOT))
    before = _package_files()
    work = tmp_path / "work"
    work.mkdir()
    cmd = [sys.executable, "-m", "meeplelab.benchmarks.fuzz", "--game", "toy", "--games", "8", "--batch", "4"]
    r = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in work.iterdir()) == ["fuzz_toy.md"]
    table = (work / "fuzz_toy.md").read_text()
    assert "Fuzz run " in table and ": toy, 8 random games" in table and table in r.stdout
    rows = [x for x in table.splitlines() if x.startswith("| toy |")]
    assert [x.split(" | ")[1:3] for x in rows] == [["1", "2"], ["2", "2"], ["3", "2"], ["4", "2"]]  # seats, games
    assert all(x.split(" | ")[6] == "0" for x in rows)  # no invariant broke
    out = tmp_path / "elsewhere" / "table.md"
    out.parent.mkdir()
    r = subprocess.run(cmd + ["--out", str(out)], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr

    def counts(text: str) -> list[str]:  # the table's rows without their last column (seconds: a timing)
        return [row.rsplit(" | ", 1)[0] for row in text.splitlines()[2:]]

    assert counts(out.read_text()) == counts(table)  # the same games (the first line has the time)
    assert sorted(p.name for p in work.iterdir()) == ["fuzz_toy.md"] and sorted(os.listdir(out.parent)) == ["table.md"]
    assert _package_files() == before and not (PACKAGE / "fuzz_toy.md").exists()
