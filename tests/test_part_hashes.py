"""A run folder that lies is caught: every part's size and sha256 are in the manifest, every reader checks
them and the games table's invariants, and ``--resume`` moves a bad part into ``RUN/stray/`` and plays its
chunk again. Real Parquet parts of real runs, damaged the ways a user's disk or hand damages them."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest
from meeplelab.analysis.load import load_runs, scan_run
from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from meeplelab.sim.core.errors import RunFolderError

from tests.cli_run import run_cli

SIM = ["simulate", "--no-progress"]


def _run(out: Path, seed: int) -> Path:
    simulate(RunConfig(game="toy", players=2, strategies=("random",), games=60, seed=seed, batch_size=10,
                       chunk_size=10, n_jobs=1, out=str(out)))  # six chunks of 10 games: parts 0 to 5
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two finished 60-game toy runs of different seeds (same chunks, same row counts per games part)."""
    base = tmp_path_factory.mktemp("hashes")
    return _run(base / "a", 1), _run(base / "b", 2)


def manifest(run: Path) -> dict:
    return json.loads((run / rf.MANIFEST).read_text())


def _copy(run: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "run"
    shutil.copytree(run, dst)
    return dst


def _repair(run: Path, chunk: int, games: str) -> str:
    return (f"meeplelab simulate --out '{run}' --resume moves it to '{run / 'stray'}' and plays chunk {chunk} "
            f"(games {games}) again")


def flip_game_bit(part: Path, lo: int) -> None:
    """Flip the lowest bit of game ``lo``'s id in the games part's dictionary page (zstd keeps the ids'
    low bytes as literals: ``lo, 0, lo + 1, lo + 2``...), so the part still reads and game ``lo + 1`` then
    has twice its seat rows (the callers check both)."""
    data = bytearray(part.read_bytes())
    at = bytes(data).find(bytes([lo, 0, lo + 1, lo + 2]))
    assert at > 0, "the game ids of the part's dictionary page (the damage under test)"
    data[at] ^= 1
    part.write_bytes(bytes(data))


def test_the_manifest_records_the_size_and_sha256_of_every_part(runs):
    a, _ = runs
    m = manifest(a)
    assert [c["status"] for c in m["chunks"]] == ["done"] * 6
    for c in m["chunks"]:
        for t in rf.TABLES:
            p = a / t / rf.part_name(c["id"])
            assert c["bytes"][t] == p.stat().st_size
            assert c["sha256"][t] == hashlib.sha256(p.read_bytes()).hexdigest()


def test_a_part_swapped_for_another_seeds_part_is_refused_by_every_reader_and_repaired_by_resume(
        runs, tmp_path, capsys, monkeypatch):
    a, b = runs
    run = _copy(a, tmp_path)
    part = run / "games" / rf.part_name(4)
    original = part.read_bytes()
    shutil.copy(b / "games" / rf.part_name(4), part)  # games 40 to 49 of seed 2: a valid part, same row count
    assert pq.read_metadata(part).num_rows == manifest(run)["chunks"][4]["rows"]["games"] == 20
    size, want = part.stat().st_size, manifest(run)["chunks"][4]["bytes"]["games"]
    assert size != want
    line = f"Parquet part '{part}' is {size:,} bytes where the manifest lists {want:,}; {_repair(run, 4, '40 to 49')}"
    for argv in (["report", run, "--out", tmp_path / "rep", "--no-progress"], ["export", run, "--out", tmp_path / "exp"]):
        code, stdout, err = run_cli(argv, capsys, monkeypatch)
        assert (code, stdout, err) == (2, "", f"error: {line}\n"), argv
    assert not (tmp_path / "rep").exists() and not (tmp_path / "exp").exists()
    code, stdout, err = run_cli(["replay", run, "--game-id", "42"], capsys, monkeypatch)
    assert code == 2 and stdout == ""
    assert err == (f"error: games part '{part}' is {size:,} bytes where the manifest lists {want:,}: game 42 cannot be "
                   f"checked against its logged final scores; repair the run with: meeplelab simulate --out '{run}' "
                   "--resume\n")
    for read in (lambda: load_runs([run]), lambda: scan_run(run, "turns")):  # what every study reads runs with
        with pytest.raises(RunFolderError, match="is .* bytes where the manifest lists"):
            read()
    code, stdout, err = run_cli(SIM + ["--out", run, "--resume"], capsys, monkeypatch)
    assert code == 0 and f"completed 60 games of toy to {run} (10 played now" in stdout, err
    assert err == (f"note: moved 1 part file that did not match the manifest into '{run / 'stray'}' (games/part-000004"
                   f".parquet is {size:,} bytes where the manifest lists {want:,}); its chunk is played again\n")
    assert (run / "stray" / "games" / rf.part_name(4)).read_bytes() == (b / "games" / rf.part_name(4)).read_bytes()
    assert part.read_bytes() == original
    assert manifest(run)["repaired"][0]["chunks"] == [4]
    code, _, err = run_cli(["export", run, "--out", tmp_path / "exp"], capsys, monkeypatch)
    assert code == 0 and err == ""
    assert load_runs([run]).games.collect().equals(load_runs([a]).games.collect().with_columns(pl.lit("run").alias("run")))


def test_a_flipped_bit_that_still_reads_is_refused_and_repaired(runs, tmp_path, capsys, monkeypatch):
    a, _ = runs
    run = _copy(a, tmp_path)
    part = run / "games" / rf.part_name(4)
    flip_game_bit(part, 40)
    g = pl.read_parquet(part)  # it still reads: game 41 has 4 seat rows in a 2-player run
    assert g.height == 20 and g.filter(pl.col("game") == 41).height == 4
    got = hashlib.sha256(part.read_bytes()).hexdigest()
    want = manifest(run)["chunks"][4]["sha256"]["games"]
    line = (f"Parquet part '{part}' has sha256 {got[:12]}... where the manifest lists {want[:12]}...; "
            f"{_repair(run, 4, '40 to 49')}")
    for argv in (["report", run, "--out", tmp_path / "rep", "--no-progress"], ["export", run, "--out", tmp_path / "exp"]):
        code, stdout, err = run_cli(argv, capsys, monkeypatch)
        assert (code, err) == (2, f"error: {line}\n"), argv
    code, _, err = run_cli(["replay", run, "--game-id", "41"], capsys, monkeypatch)
    assert code == 2 and f"games part '{part}' has sha256 {got[:12]}..." in err
    code, stdout, err = run_cli(SIM + ["--out", run, "--resume"], capsys, monkeypatch)
    assert code == 0 and "(10 played now" in stdout and "has sha256" in err, err
    assert part.read_bytes() == (a / "games" / rf.part_name(4)).read_bytes()


def test_an_older_manifest_without_hashes_is_accepted_with_the_other_checks(runs, tmp_path, capsys, monkeypatch):
    a, _ = runs
    run = _copy(a, tmp_path)
    m = manifest(run)
    for c in m["chunks"]:
        del c["sha256"]  # as written before parts were hashed
    (run / rf.MANIFEST).write_text(json.dumps(m))
    code, _, err = run_cli(["export", run, "--out", tmp_path / "exp0"], capsys, monkeypatch)
    assert code == 0 and err == ""  # accepted: size, row count and the games table's invariants hold
    part = run / "games" / rf.part_name(4)
    flip_game_bit(part, 40)  # same size, same row count: the invariants catch it
    line = (f"Parquet part '{part}' holds 4 seat rows of game 41 where the run has 2 players (one row per game and "
            f"seat); {_repair(run, 4, '40 to 49')}")
    code, _, err = run_cli(["export", run, "--out", tmp_path / "exp"], capsys, monkeypatch)
    assert (code, err) == (2, f"error: {line}\n")
    code, stdout, err = run_cli(SIM + ["--out", run, "--resume"], capsys, monkeypatch)
    assert code == 0 and "(10 played now" in stdout and "holds 4 seat rows of game 41" in err, err
    assert "sha256" in manifest(run)["chunks"][4] and "sha256" not in manifest(run)["chunks"][3]
    assert load_runs([run]).games.collect().height == 120


def test_a_part_replaced_by_a_folder_is_an_error_and_resume_moves_it_aside(runs, tmp_path, capsys, monkeypatch):
    a, _ = runs
    run = _copy(a, tmp_path)
    part = run / "turns" / rf.part_name(2)
    part.unlink()
    part.mkdir()
    (part / "junk.parquet").write_bytes((a / "turns" / rf.part_name(2)).read_bytes())
    line = f"Parquet part '{part}' is a folder, not a file; {_repair(run, 2, '20 to 29')}"
    for argv in (["report", run, "--out", tmp_path / "rep", "--no-progress"], ["export", run, "--out", tmp_path / "exp"]):
        code, _, err = run_cli(argv, capsys, monkeypatch)
        assert (code, err) == (2, f"error: {line}\n"), argv
    code, stdout, err = run_cli(SIM + ["--out", run, "--resume"], capsys, monkeypatch)
    assert code == 0 and "(10 played now" in stdout, err
    assert "turns/part-000002.parquet is a folder, not a file" in err
    assert (run / "stray" / "turns" / rf.part_name(2) / "junk.parquet").is_file()
    assert part.read_bytes() == (a / "turns" / rf.part_name(2)).read_bytes()
    code, _, err = run_cli(["export", run, "--out", tmp_path / "exp"], capsys, monkeypatch)
    assert code == 0 and err == ""


def test_replay_names_the_part_whose_logged_scores_differ(runs, tmp_path, capsys, monkeypatch):
    a, _ = runs
    run = _copy(a, tmp_path)
    part = run / "games" / rf.part_name(1)
    g = pl.read_parquet(part)
    g.with_columns(pl.when(pl.col("game") == 13).then(pl.col("vp") + 5).otherwise(pl.col("vp")).alias("vp")) \
        .write_parquet(part)  # as if other code wrote the part: its manifest entry is the file's own
    m = manifest(run)
    m["chunks"][1]["bytes"]["games"] = part.stat().st_size
    m["chunks"][1]["sha256"]["games"] = hashlib.sha256(part.read_bytes()).hexdigest()
    (run / rf.MANIFEST).write_text(json.dumps(m))
    logged = g.filter(pl.col("game") == 13).sort("seat")["vp"].to_list()
    code, stdout, _ = run_cli(["replay", run, "--game-id", "13"], capsys, monkeypatch)
    assert code == 0
    assert stdout.splitlines()[-1] == (
        f"WARNING: logged final scores {[v + 5 for v in logged]} in '{part}' differ from the replay's {logged}: the part "
        "matches its manifest, so this code plays the game otherwise than the code that wrote it (the manifest's "
        "versions)")
