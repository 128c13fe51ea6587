"""Run folders that move and reconcile (issue 14 fault 5; issue 18 items 5 and 6).

A run folder is self-contained: paths relative to the folder and a copy of custom content, so a
moved folder resumes in place and replays with the original content folder gone. Readers and
``--resume`` reconcile the part files with the manifest, and a dead worker ends in one line naming
its games and the resume command."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import polars as pl
import pytest

import cli
from sim import runfolder as rf

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


# ------------------------------------------------------------------ issue 14 fault 5: folders that move
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
    assert sorted(p.name for p in (out / "content").iterdir()) == sorted(p.name for p in content.iterdir())
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
