"""Shared reads (analysis/load.py ``shared_reads``): inside the scope each run's table is read from its part files
once and kept; every read gives the rows a plain lazy read gives, in the same order; a part rewritten since is read
again; nothing is kept after the scope."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from meeplelab.analysis import load
from meeplelab.analysis.load import load_runs, shared_reads
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate


@pytest.fixture(scope="module")
def toy_runs(tmp_path_factory) -> list[Path]:
    """Two 192-game toy runs in chunks of 64 games (3 parts per table)."""
    out = []
    for seed in (3, 4):
        run = tmp_path_factory.mktemp("shared") / f"run{seed}"
        simulate(
            RunConfig(
                game="toy",
                players=3,
                strategies=("random", "always-draw", "random"),
                games=192,
                seed=seed,
                batch_size=64,
                chunk_size=64,
                n_jobs=1,
                out=str(run),
            )
        )
        out.append(run)
    return out


def _summary(runs) -> pl.DataFrame:
    """Per run and seat: turns and summed final VP (whole numbers), read through a join of the games and turns tables (whose
    rows come in no set order: sorted after)."""
    return (
        runs.turns.join(runs.games.select("run", "game", "seat", "vp"), on=["run", "game", "seat"])
        .group_by("run", "seat")
        .agg(pl.len().alias("turns"), pl.col("vp").sum().alias("vp"))
        .sort("run", "seat")
        .collect()
    )


def test_shared_reads_give_the_plain_reads_rows_in_order_and_read_each_part_file_once(toy_runs, monkeypatch):
    plain = load_runs(toy_runs)
    want = {t: getattr(plain, t).collect() for t in ("games", "turns", "events")}
    want_summary = _summary(plain)
    scans = []
    real = pl.scan_parquet
    monkeypatch.setattr(pl, "scan_parquet", lambda paths, *a, **k: scans.append(len(paths)) or real(paths, *a, **k))
    with shared_reads():
        for _ in range(3):
            runs = load_runs(toy_runs)
            for t, df in want.items():
                assert getattr(runs, t).collect().equals(df)
            assert _summary(runs).equals(want_summary)
    # the first load scans each table of each run (3 parts each); later loads read the rows kept
    assert scans == [3] * 6
    assert load._SHARED is None


def test_a_part_rewritten_inside_the_scope_is_read_again(toy_runs, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    for sub in toy_runs[0].iterdir():
        target = run / sub.name
        if sub.is_dir():
            target.mkdir()
            for f in sub.iterdir():
                target.joinpath(f.name).write_bytes(f.read_bytes())
        else:
            target.write_bytes(sub.read_bytes())
    part = run / "games" / "part-000000.parquet"
    with shared_reads():
        before = load_runs([run]).games.collect()
        assert before.height == 192 * 3
        pl.read_parquet(part).filter(pl.col("game") < 10).write_parquet(part)  # another size: not the rows kept
        after = load_runs([run], check=False).games.collect()
        assert after.height == before.height - (64 - 10) * 3
        with pytest.raises(Exception, match="part-000000"):  # and checked again against the manifest
            load_runs([run])


def test_nothing_is_kept_after_the_scope_even_when_it_ends_in_an_error(toy_runs):
    with pytest.raises(RuntimeError, match="stop"):
        with shared_reads():
            load_runs(toy_runs[:1]).games.collect()
            with shared_reads():  # a nested scope shares the outer one's tables
                assert load_runs(toy_runs[:1]).games.collect().height == 192 * 3
            assert load._SHARED
            raise RuntimeError("stop")
    assert load._SHARED is None
    lf = load_runs(toy_runs[:1]).games  # outside a scope: a lazy scan of the part files
    assert "parquet" in lf.explain().lower()
