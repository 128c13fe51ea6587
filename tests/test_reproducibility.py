"""Reproducibility matrix on the real engines: one config and seed give identical games,
turns and events tables for n_jobs 1 and 2, batch sizes 1, 64 and 512, and the loky, threading and
Dask (LocalCluster) backends."""

from __future__ import annotations

import pytest

from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from tests.test_runner import assert_same_tables

GAMES = {"unconscious-mind": ("greedy-vp", "random", "random"), "galileos-truth": ("never-abjure", "random", "random")}
N = 48


def config(game, out, **kw):
    base = dict(game=game, players=3, strategies=GAMES[game], games=N, seed=123, batch_size=N, chunk_size=N, n_jobs=1,
                out=str(out))
    base.update(kw)
    return RunConfig(**base)


@pytest.fixture(scope="module", params=list(GAMES))
def reference(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / request.param
    simulate(config(request.param, out))
    return request.param, out


@pytest.mark.parametrize("batch_size,chunk_size,n_jobs,backend", [
    (1, 8, 1, "loky"), (64, 64, 1, "loky"), (512, 512, 1, "loky"), (16, 16, 2, "loky"), (16, 16, 2, "threading")])
def test_real_game_tables_identical_across_batch_size_n_jobs_and_backend(reference, tmp_path, batch_size, chunk_size,
                                                                         n_jobs, backend):
    game, ref = reference
    out = tmp_path / "run"
    simulate(config(game, out, batch_size=batch_size, chunk_size=chunk_size, n_jobs=n_jobs, backend=backend))
    assert_same_tables(ref, out)


@pytest.mark.slow
def test_real_game_tables_identical_on_a_dask_local_cluster(reference, tmp_path):
    from dask.distributed import LocalCluster

    game, ref = reference
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        out = tmp_path / "run"
        simulate(config(game, out, batch_size=16, chunk_size=16, backend="dask", scheduler=cluster.scheduler_address))
    assert_same_tables(ref, out)
