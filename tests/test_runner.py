"""The runner: chunking, n_jobs and backends give identical tables; manifests; resume after
SIGKILL; atomic part files; Ctrl-C marks the run incomplete; sweeps replace an earlier sweep whole."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.sim.core.errors import RunFolderError
from meeplelab.play.runner import WorkerFailed, simulate
from tests.pausing import Pause

ROOT = Path(__file__).resolve().parents[1]


def cfg(out, **kw) -> RunConfig:
    base = dict(game="toy", players=3, strategies=("random",), games=300, seed=11, batch_size=64, n_jobs=1, out=str(out))
    base.update(kw)
    base.setdefault("chunk_size", base["batch_size"])
    return RunConfig(**base)


def tables(run: Path) -> dict[str, pl.DataFrame]:
    out = {}
    for t in rf.TABLES:
        df = pl.read_parquet(str(run / t / "*.parquet"))
        keys = ["game", "seat"] if t == "games" else ["game", "ply"] + (["kind"] if t == "events" else [])
        out[t] = df.sort(keys, maintain_order=True)
    return out


def assert_same_tables(a: Path, b: Path):
    ta, tb = tables(a), tables(b)
    for t in rf.TABLES:
        assert ta[t].height > 0
        assert ta[t].equals(tb[t]), f"{t} differs between {a.name} and {b.name}"


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "run"
    simulate(cfg(out, batch_size=300))
    return out


@pytest.mark.parametrize("batch_size,chunk_size,n_jobs,backend", [
    pytest.param(1, 1, 1, "loky", marks=pytest.mark.slow),  # 55 s under load (docs/testing.md); (1, 40) stays fast
    (1, 40, 1, "loky"), (64, 64, 2, "loky"), (64, 192, 2, "loky"), (512, 512, 1, "loky"),
    (64, 64, 2, "threading"), (7, 21, 1, "threading")])
def test_tables_identical_for_any_batch_size_chunking_n_jobs_and_backend(tmp_path, reference, batch_size, chunk_size,
                                                                        n_jobs, backend):
    out = tmp_path / "run"
    simulate(cfg(out, batch_size=batch_size, chunk_size=chunk_size, n_jobs=n_jobs, backend=backend))
    assert_same_tables(reference, out)


@pytest.mark.slow
def test_dask_backend_on_a_local_cluster_gives_identical_tables(tmp_path, reference):
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        out = tmp_path / "run"
        simulate(cfg(out, backend="dask", scheduler=cluster.scheduler_address))
    assert_same_tables(reference, out)
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


@pytest.mark.slow
def test_unreachable_dask_scheduler_is_a_clear_error(tmp_path):
    from meeplelab.sim.core.errors import ConfigError

    t0 = time.monotonic()
    with pytest.raises(ConfigError, match=r"cannot reach Dask scheduler 'tcp://127.0.0.1:9' within 10 s"):
        simulate(cfg(tmp_path / "run", backend="dask", scheduler="tcp://127.0.0.1:9"))
    assert time.monotonic() - t0 < 30


def test_manifest_records_config_versions_params_seeds_and_chunks(tmp_path):
    out = tmp_path / "run"
    simulate(cfg(out, games=130, batch_size=50, params={"rounds": 5}))
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete"
    assert m["config"]["games"] == 130 and m["config"]["params"] == {"rounds": 5}
    assert {"numpy", "polars", "pyarrow", "numba", "meeplelab"} <= set(m["versions"])
    assert m["game"]["params"]["rounds"] == 5 and m["game"]["params_changed"] == {"rounds": 5}
    assert [(c["lo"], c["hi"]) for c in m["chunks"]] == [(0, 50), (50, 100), (100, 130)]
    assert all(c["status"] == "done" for c in m["chunks"])
    assert sum(c["rows"]["games"] for c in m["chunks"]) == 130 * 3 == m["totals"]["games"]
    assert m["seeds"]["run_seed"] == 11 and m["seeds"]["strategy_streams"] == {"0": 1, "1": 2, "2": 3}
    assert sorted(p.name for p in (out / "games").iterdir()) == [rf.part_name(i) for i in range(3)]


def test_run_is_repeatable_from_its_run_toml(tmp_path):
    from meeplelab.play.config import load_toml

    a = tmp_path / "a"
    simulate(cfg(a, params={"max_draws": 2}))
    d = load_toml(a / "run.toml")
    d["out"] = str(tmp_path / "b")
    simulate(RunConfig.from_dict(d))
    assert_same_tables(a, tmp_path / "b")


def test_part_files_are_written_atomically(tmp_path, monkeypatch):
    calls = {"n": 0}
    real = pq.write_table

    def failing(table, where, **kw):
        calls["n"] += 1
        if calls["n"] == 3:  # fail while writing a part: half a file under its temp name
            Path(where).write_bytes(b"PAR1 half")
            raise OSError("disk full")
        return real(table, where, **kw)

    monkeypatch.setattr(pq, "write_table", failing)
    out = tmp_path / "run"
    with pytest.raises(WorkerFailed, match=r"^chunk 0 \(games 0 to 49\): OSError: .*disk full: '.*part-000000\.parquet' in this process; "):
        simulate(cfg(out, games=200, batch_size=50))
    assert not list((out / "events").glob("*.parquet")), "a failed write left a visible part file"
    for t in ("games", "turns"):
        for p in (out / t).glob("*.parquet"):
            pq.read_metadata(p)  # every visible part is complete
    assert json.loads((out / "manifest.json").read_text())["status"] == "failed"
    monkeypatch.setattr(pq, "write_table", real)
    simulate(cfg(out, games=200, batch_size=50), resume=True)
    assert not [p for p in out.rglob(".*") if p.is_file()]  # temp files cleaned up
    assert pl.read_parquet(str(out / "games" / "*.parquet")).height == 600


@pytest.mark.slow
def test_resume_after_sigkill_yields_every_game_exactly_once(tmp_path):
    out = tmp_path / "killed"
    cmd = [sys.executable, "-c", "import tests.toygame; from cli import main; main()", "simulate", "--game", "toy",
           "--players", "2", "--strategies", "slow-random:ms=0", "--games", "60", "--batch-size", "3", "--chunk-size", "3", "--n-jobs", "1",
           "--seed", "5", "--out", str(out), "--no-progress"]
    def done() -> int:
        try:
            return sum(c["status"] == "done" for c in json.loads((out / "manifest.json").read_text())["chunks"])
        except (OSError, json.JSONDecodeError):
            return 0

    # held inside a move at slow-random's 100th decision (about the 5th of 20 chunks): the kill lands mid-run
    pause = Pause(tmp_path, 100)
    proc = subprocess.Popen(cmd, cwd=ROOT, env=pause.env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        pause.wait(proc, lambda: done() >= 4, timeout=120)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        pause.release()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "running", "the killed run must not claim to be complete"
    n_done = sum(c["status"] == "done" for c in m["chunks"])
    assert 0 < n_done < len(m["chunks"]), "kill should land mid-run"
    res = subprocess.run(cmd + ["--resume"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "completed 60 games" in res.stdout
    fresh = tmp_path / "fresh"
    subprocess.run(cmd[:-3] + ["--out", str(fresh), "--no-progress"], cwd=ROOT, check=True, capture_output=True, timeout=300)
    g = pl.read_parquet(str(out / "games" / "*.parquet"))
    assert g.group_by("game", "seat").len()["len"].max() == 1 and g["game"].n_unique() == 60
    assert_same_tables(out, fresh)
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_ctrl_c_stops_cleanly_and_manifest_says_incomplete(tmp_path):
    import tests.toygame as toy

    toy.Interrupting.calls = 0
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        simulate(cfg(out, strategies=("interrupting:after=40",), games=200, batch_size=10))
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "interrupted"
    assert any(c["status"] == "pending" for c in m["chunks"])
    toy.Interrupting.calls = -10**9  # never again
    simulate(cfg(out, strategies=("interrupting:after=40",), games=200, batch_size=10), resume=True)
    assert pl.read_parquet(str(out / "games" / "*.parquet")).height == 600


def test_output_folder_holding_another_run_is_refused_unless_resume_or_overwrite(tmp_path):
    out = tmp_path / "run"
    simulate(cfg(out, games=20))
    with pytest.raises(RunFolderError, match=r"holds another run: use --resume to complete it or --overwrite to replace it"):
        simulate(cfg(out, games=20))
    simulate(cfg(out, games=30), overwrite=True)
    assert pl.read_parquet(str(out / "games" / "*.parquet"))["game"].n_unique() == 30


def test_sweep_overwrite_leaves_no_variant_of_a_larger_earlier_sweep(tmp_path):
    from meeplelab.play.sweep import read_sweep, run_sweep

    out = tmp_path / "sw"
    base = cfg(out, games=20)
    run_sweep(base, {"rounds": ["1", "2", "3", "4"]}, out)
    (out / "report").mkdir()
    (out / "report" / "report.html").write_text("<html>old</html>")
    with pytest.raises(RunFolderError, match="holds another sweep: use --resume to complete it, --overwrite to replace it or choose a new --out"):
        run_sweep(base, {"rounds": ["1", "2"]}, out)
    run_sweep(base, {"rounds": ["1", "2"]}, out, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == ["rounds=1", "rounds=2", "sweep.json"]
    assert [v["folder"] for v in read_sweep(out)["variants"]] == ["rounds=1", "rounds=2"]
    # a folder left by older versions: sweep.json lists two variants, two stale variant runs beside them
    run_sweep(base, {"rounds": ["1", "2", "3", "4"]}, out, overwrite=True)
    meta = read_sweep(out)
    meta["variants"] = meta["variants"][:2]
    (out / "sweep.json").write_text(json.dumps(meta))
    run_sweep(base, {"rounds": ["2", "3"]}, out, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == ["rounds=2", "rounds=3", "sweep.json"]


def test_sweep_never_deletes_or_writes_into_a_folder_that_is_not_a_sweep(tmp_path):
    from meeplelab.play.sweep import run_sweep

    victim = tmp_path / "victim"
    (victim / "rounds=1").mkdir(parents=True)
    (victim / "important.txt").write_text("keep me")
    for kw in ({}, {"overwrite": True}, {"resume": True}):
        with pytest.raises(RunFolderError, match=re.escape(f"output folder '{victim}' is not empty and not a sweep folder "
                                                           "(holds 'important.txt'): choose a new --out")):
            run_sweep(cfg(victim, games=20), {"rounds": ["1", "2"]}, victim, **kw)
    assert sorted(p.name for p in victim.rglob("*")) == ["important.txt", "rounds=1"]
    # an earlier sweep whose variant folder holds other files: refused before anything is deleted
    out = tmp_path / "sw"
    run_sweep(cfg(out, games=20), {"rounds": ["1", "2", "3"]}, out)
    (out / "rounds=3" / "notes.txt").write_text("mine")
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    with pytest.raises(RunFolderError, match=re.escape(f"'{out / 'rounds=3'}' is not a run folder (holds 'notes.txt')")):
        run_sweep(cfg(out, games=20), {"rounds": ["1", "2"]}, out, overwrite=True)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before


def test_resume_with_a_different_config_is_refused(tmp_path):
    out = tmp_path / "run"
    simulate(cfg(out, games=20))
    with pytest.raises(RunFolderError, match=r"cannot resume: the run in the folder has seed=11, this config has seed=12"):
        simulate(cfg(out, games=20, seed=12), resume=True)


def test_scan_parquet_reads_each_table_lazily(tmp_path):
    out = tmp_path / "run"
    simulate(cfg(out, games=100))
    lf = pl.scan_parquet(out / "turns" / "*.parquet")
    assert lf.select(pl.len()).collect().item() > 100
    schema = pq.read_schema(next((out / "events").glob("*.parquet")))
    assert str(schema.field("kind").type).startswith("dictionary")
    meta = pq.read_metadata(next((out / "turns").glob("*.parquet")))
    assert meta.row_group(0).column(0).compression == "ZSTD"


def test_with_two_workers_a_short_run_is_cut_into_four_chunks_per_worker():
    """The default chunk (``RunConfig.chunk_games``): 1024 games or more with one worker, but never fewer chunks
    than 4 per worker when there are several (800 games at batch 50 were one chunk, one worker idle)."""
    from meeplelab.play.config import RunConfig
    from meeplelab.play.plan import resolve

    def chunks(**kw):
        cfg = RunConfig(game="toy", players=2, strategies=("random", "greedy-vp"), seed=1, out="unused", **kw)
        return [hi - lo for lo, hi in resolve(cfg).chunks]

    assert chunks(games=800, batch_size=50, n_jobs=1) == [800]
    assert chunks(games=800, batch_size=50, n_jobs=2) == [100] * 8
    assert chunks(games=800, batch_size=64, n_jobs=2) == [128] * 6 + [32]  # whole batches
    assert chunks(games=5000, batch_size=50, n_jobs=2) == [650] * 7 + [450]  # 1050 > 5000 / 8: 650, 13 batches
    assert chunks(games=8000, batch_size=50, n_jobs=2) == [1000] * 8  # already 8 chunks of 1000
    # rotated seating with fewer seeds per seat order than a batch: whole seat orders (2 of 120 seeds), so no
    # batch is cut short at an order's end, even when that gives fewer chunks than 4 per worker
    assert chunks(games=240, batch_size=200, n_jobs=2, seating="rotate") == [120, 120]
    assert chunks(games=240, batch_size=200, n_jobs=1, seating="rotate") == [240]
