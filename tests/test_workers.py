"""Worker processes see what the parent registered, end with their parent, and say what happened.

Every test plays real games on real worker processes (loky, a Dask LocalCluster) and waits on files
or processes with a deadline, never a fixed sleep; no process is left behind."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from meeplelab.play.config import RunConfig
from meeplelab.sim.core.errors import ConfigError
from meeplelab.play.runner import simulate
from meeplelab.strategies.base import RandomStrategy
from meeplelab.strategies.registry import register_strategy
from tests.pausing import Pause

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def games_of(out: Path) -> pl.DataFrame:
    return pl.read_parquet(str(out / "games" / "*.parquet")).sort("game", "seat")


# ------------------------------------------------------------- item 1: registrations reach the workers
class LastLegal(RandomStrategy):
    """Always the highest legal action id (registered by a test below, outside the built-in modules)."""

    name = "last-legal"

    def act(self, view, legal_mask, rng):
        return (legal_mask.shape[1] - 1 - np.argmax(legal_mask[:, ::-1], axis=1)).astype(np.int64)


@pytest.fixture
def last_legal():
    """``last-legal`` registered for the toy game during one test, removed after it (the other tests of this
    process, such as the CLI's list of allowed strategies, see the registry without it)."""
    from meeplelab.strategies import registry

    register_strategy("last-legal", LastLegal, games=("toy",), doc="Highest legal action (tests).")
    yield
    registry._REGISTRY.pop(("last-legal", ("toy",)), None)


def test_a_strategy_registered_by_the_caller_plays_on_loky_workers(tmp_path, last_legal):
    # registered in this process only: no module a worker imports registers it
    kw = dict(game="toy", players=2, strategies=["last-legal", "random"], games=24, seed=4, batch_size=4,
              chunk_size=4, log_events=False)
    simulate(RunConfig(**kw, n_jobs=2, backend="loky", out=str(tmp_path / "loky")))
    simulate(RunConfig(**kw, n_jobs=1, out=str(tmp_path / "one")))
    a, b = games_of(tmp_path / "loky"), games_of(tmp_path / "one")
    assert a.height == 48 and a.equals(b)


def test_a_treatment_of_the_games_spec_reaches_robustness_workers(tmp_path):
    """Unconscious Mind's coffee+1 at n_jobs 2 (exit 2 "unknown treatment 'coffee+1' ... allowed none" before)."""
    from meeplelab.analysis.conclusions import Study, paired_effect
    from meeplelab.play.panels import panel
    from meeplelab.sim.plausible import load_plausible
    from meeplelab.studies.robustness import run_robustness

    field = ("coffee-engine", "publisher", "citer", "curer")
    study = Study("unconscious-mind", tuple(panel("field-4", field) + panel("coffee", field, treatment="coffee+1")),
                  (paired_effect("coffee", "Value of Coffee", ("coffee", None, True), ("field-4", None, None),
                                 "One extra start Coffee"),), default_games=1)
    ranges = load_plausible("unconscious-mind")
    one = next(n for n, r in ranges.items() if r.varies)
    ranges = {one: ranges[one]}  # one factor: 5 points of 8 lineups x 1 game
    res = {}
    for n_jobs in (2, 1):
        out = tmp_path / f"r{n_jobs}"
        run_robustness("unconscious-mind", out, 40, games=1, seed=74, n_jobs=n_jobs, study=study, ranges=ranges)
        res[n_jobs] = [pl.read_parquet(p) for p in sorted((out / "points").glob("p*.parquet"))]
    assert len(res[2]) == 5 and all(a.equals(b) for a, b in zip(res[2], res[1]))
    treated = res[2][0].filter(pl.col("treated"))
    assert treated.height == 4  # one treated seat in each of the coffee panel's 4 rotations


def test_a_strategy_of_the_calling_script_plays_on_workers(tmp_path):
    """A strategy registered in ``__main__`` (the script) goes to the workers by value."""
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""
        import sys
        import numpy as np
        import tests.toygame
        from meeplelab.strategies.base import RandomStrategy
        from meeplelab.strategies.registry import register_strategy
        from meeplelab.play.config import RunConfig
        from meeplelab.play.runner import simulate

        class LastLegal(RandomStrategy):
            name = "last-legal"
            def act(self, view, legal_mask, rng):
                return (legal_mask.shape[1] - 1 - np.argmax(legal_mask[:, ::-1], axis=1)).astype(np.int64)

        register_strategy("last-legal", LastLegal, games=("toy",))
        if __name__ == "__main__":
            simulate(RunConfig(game="toy", players=2, strategies=["last-legal", "random"], games=16, seed=4,
                               batch_size=4, chunk_size=4, n_jobs=int(sys.argv[2]), out=sys.argv[1]))
    """))
    for n_jobs in (2, 1):
        r = subprocess.run([sys.executable, str(script), str(tmp_path / f"o{n_jobs}"), str(n_jobs)], cwd=ROOT, env=ENV,
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
    assert games_of(tmp_path / "o2").equals(games_of(tmp_path / "o1"))


def test_a_registration_workers_cannot_import_is_refused_before_play(tmp_path):
    """A strategy whose module was loaded from a file by a name not on the Python path: one line, nothing played."""
    import importlib.util

    src = tmp_path / "hidden" / "my_private_strats.py"
    src.parent.mkdir()
    src.write_text(textwrap.dedent("""
        import numpy as np
        from meeplelab.strategies.base import RandomStrategy
        from meeplelab.strategies.registry import register_strategy

        class FirstLegal(RandomStrategy):
            name = "first-legal"
            def act(self, view, legal_mask, rng):
                return np.argmax(legal_mask, axis=1).astype(np.int64)

        register_strategy("first-legal", FirstLegal, games=("toy",))
    """))
    spec = importlib.util.spec_from_file_location("my_private_strats", src)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["my_private_strats"] = mod
    try:
        spec.loader.exec_module(mod)
        out = tmp_path / "run"
        with pytest.raises(ConfigError) as e:
            simulate(RunConfig(game="toy", players=2, strategies=["first-legal", "random"], games=8, seed=1,
                               n_jobs=2, out=str(out)))
        msg = str(e.value)
        assert "\n" not in msg
        assert msg.startswith("strategy 'first-legal' of toy is defined in module 'my_private_strats'")
        assert "which worker processes cannot import: put it in an importable module" in msg
        assert not out.exists()  # refused before anything was written or played
        simulate(RunConfig(game="toy", players=2, strategies=["first-legal", "random"], games=8, seed=1,
                           n_jobs=1, out=str(out)))  # in this process it plays
        assert games_of(out).height == 16
    finally:
        sys.modules.pop("my_private_strats", None)
        from meeplelab.strategies import registry

        registry._REGISTRY.pop(("first-legal", ("toy",)), None)


# ------------------------------------------------------------- item 11: workers end with their parent
def _wait_for(cond, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def _done_chunks(out: Path) -> int:
    try:
        return sum(c["status"] == "done" for c in json.loads((out / "manifest.json").read_text())["chunks"])
    except (OSError, ValueError, KeyError):
        return 0


def _parts(out: Path) -> set[str]:
    return {p.name for p in (out / "games").glob("part-*.parquet")} if (out / "games").is_dir() else set()


@pytest.mark.slow
def test_loky_workers_exit_when_their_parent_is_killed(tmp_path):
    import psutil

    out = tmp_path / "run"
    cmd = [sys.executable, "-c", "import tests.toygame; from cli import main; main()", "simulate", "--game", "toy",
           "--players", "2", "--strategies", "slow-random:ms=6", "--games", "80", "--batch-size", "4", "--chunk-size",
           "4", "--n-jobs", "2", "--seed", "8", "--no-events", "--out", str(out), "--no-progress"]
    pause = Pause(tmp_path, 60)  # each worker held inside a move at its 60th decision: the kill lands mid-run
    proc = subprocess.Popen(cmd, cwd=ROOT, env=pause.env(ENV), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        pause.wait(proc, lambda: _done_chunks(out) >= 2, processes=2, timeout=300)
        family = psutil.Process(proc.pid).children(recursive=True)
        assert len([p for p in family if "loky" in " ".join(p.cmdline())]) >= 2  # the workers, running
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        pause.release()  # a worker that outlived its parent would now play on: none must
        gone, alive = psutil.wait_procs(family, timeout=15)
        assert not alive, f"processes of the killed run still running: {[p.pid for p in alive]}"
        assert proc.stdout.read() == b""  # the pipe is closed: nobody holds it open
        parts = _parts(out)
        assert len(parts) < 20  # not every chunk was finished by orphans
        assert len(parts) - _done_chunks(out) <= 2  # at most a chunk per worker finished as the parent died
        assert _parts(out) == parts  # no process of the run is left that could write one
    finally:
        pause.release()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        for p in locals().get("family", []):  # the run's own processes only (none when the fix holds)
            with contextlib.suppress(psutil.NoSuchProcess):
                p.kill()


# ------------------------------------------------------------- item 12: a Dask cluster that lost its workers
@pytest.mark.slow
def test_a_dask_cluster_that_lost_its_workers_is_named_and_the_run_plays_locally(tmp_path, capsys, monkeypatch):
    import threading

    from dask.distributed import Client, LocalCluster

    monkeypatch.setattr("meeplelab.play.runner.DASK_GRACE", 2.0)  # the wait before playing here (10 s by default)
    kw = dict(game="toy", players=2, strategies=["slow-random:ms=2", "random"], games=48, seed=6, batch_size=4,
              chunk_size=4, log_events=False)
    simulate(RunConfig(**kw, n_jobs=1, out=str(tmp_path / "here")))
    capsys.readouterr()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster.scheduler_address) as client:
        dask = dict(backend="dask", scheduler=cluster.scheduler_address)
        said = f"warning: the Dask cluster at {cluster.scheduler_address} has lost its workers (none left for 2 s)"
        cluster.scale(1)  # one worker thread: the chunks still play on the cluster, not silently in this process
        _wait_for(lambda: len(client.scheduler_info()["workers"]) == 1, 60, "1 worker")
        simulate(RunConfig(**kw, **dask, out=str(tmp_path / "one")))
        assert capsys.readouterr().err == ""  # played on the cluster: nothing to say
        cluster.scale(2)
        _wait_for(lambda: len(client.scheduler_info()["workers"]) == 2, 60, "2 workers")
        lost = tmp_path / "lost"

        def lose_every_worker():  # the cluster's last worker goes while the run has chunks left
            _wait_for(lambda: _done_chunks(lost) >= 2, 300, "2 finished chunks")
            cluster.scale(0)

        t = threading.Thread(target=lose_every_worker, daemon=True)
        t.start()
        simulate(RunConfig(**kw, **dask, out=str(lost)))
        t.join(60)
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(said), err
        assert "remaining chunks run locally in this process" in err[0]
        assert len(client.scheduler_info()["workers"]) == 0
        none = tmp_path / "none"  # no worker from the start
        simulate(RunConfig(**kw, **dask, out=str(none)))
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [said + ", so the 12 remaining chunks run locally in this process (same games, not in parallel); "
                              "start workers to use the cluster"]
    for name in ("one", "lost", "none"):
        assert games_of(tmp_path / name).equals(games_of(tmp_path / "here")), name


# ------------------------------------------------------------- item 13: loky's resource tracker killed
@pytest.mark.slow
def test_a_killed_resource_tracker_costs_the_run_nothing_and_says_at_most_one_line(tmp_path):
    import psutil

    out = tmp_path / "run"
    args = ["--game", "toy", "--players", "2", "--strategies", "slow-random:ms=3", "--games", "80", "--batch-size", "4",
            "--chunk-size", "4", "--seed", "8", "--no-events", "--no-progress"]
    cmd = [sys.executable, "-c", "import tests.toygame; from cli import main; main()", "simulate", *args]
    pause = Pause(tmp_path, 60)  # each worker held at its 60th decision: the tracker is killed mid-run
    proc = subprocess.Popen(cmd + ["--n-jobs", "2", "--out", str(out)], cwd=ROOT, env=pause.env(ENV),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        pause.wait(proc, lambda: _done_chunks(out) >= 2, processes=2, timeout=300)
        trackers = [p for p in psutil.Process(proc.pid).children(recursive=True)
                    if "loky" in " ".join(p.cmdline()) and "popen_loky" not in " ".join(p.cmdline())
                    or "meeplelab.play.tracker" in " ".join(p.cmdline())]
        assert len(trackers) == 1, [p.cmdline() for p in trackers]
        os.kill(trackers[0].pid, signal.SIGKILL)
        pause.release()  # the run goes on without its tracker
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        pause.release()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, stderr
    assert "completed" in stdout or "wrote 80 games of toy" in stdout
    assert "Traceback" not in stderr and "KeyError" not in stderr, stderr
    assert len(stderr.strip().splitlines()) <= 1, stderr
    assert _done_chunks(out) == 20
    fresh = tmp_path / "fresh"
    r = subprocess.run(cmd + ["--n-jobs", "1", "--out", str(fresh)], cwd=ROOT, env=ENV, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert games_of(out).equals(games_of(fresh))  # identical results


# ------------------------------------------------------------- no worker outlives the suite
def test_ending_the_workers_leaves_no_child_process():
    """What the suite does when it ends (tests/conftest.py): loky's reusable executor and its resource tracker
    are gone afterwards, read from psutil and from /proc alike."""
    from joblib.externals.loky import get_reusable_executor

    from tests.processes import _proc_children, children, end_workers

    worker = get_reusable_executor(max_workers=1).submit(os.getpid).result()
    assert worker in children() and worker in _proc_children(os.getpid())
    assert end_workers() == {}
    assert worker not in _proc_children(os.getpid())
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert _proc_children(os.getpid()) == {sleeper.pid: f"{sys.executable} -c import time; time.sleep(60)"}
        assert end_workers(timeout=0.2) == {sleeper.pid: f"{sys.executable} -c import time; time.sleep(60)"}
    finally:
        sleeper.kill()
        sleeper.wait()
    assert children() == {}


def test_a_pool_started_before_the_run_is_the_one_it_plays_on_and_stop_pool_ends_it(tmp_path):
    """The command line starts a large run's workers before it resolves the run
    (play.workers.prestart); the run plays on those same processes, its games those of one process, and
    stop_pool ends them at once (the command line's exit: killed, not waited for)."""
    import psutil

    from meeplelab.play import workers

    workers.prestart(2)
    warmed = workers.take_prestarted()
    assert warmed and os.getpid() not in warmed and all(psutil.pid_exists(p) for p in warmed)
    cfg = dict(game="galileos-truth", players=2, strategies=("writer", "observer"), games=64, chunk_size=16,
               batch_size=16)
    simulate(RunConfig(**cfg, n_jobs=2, out=str(tmp_path / "pool")))
    with workers.loky_config():
        from joblib import Parallel, delayed

        ran_on = set(Parallel(n_jobs=2)(delayed(os.getpid)() for _ in range(8)))
    assert ran_on <= warmed  # joblib reused the pool started early
    simulate(RunConfig(**cfg, n_jobs=1, out=str(tmp_path / "one")))
    assert games_of(tmp_path / "pool").equals(games_of(tmp_path / "one"))
    workers.stop_pool()
    _wait_for(lambda: not any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE
                              for p in warmed), 30, "the workers to end")


def test_a_large_run_refused_after_its_workers_started_says_one_line_and_writes_nothing(tmp_path):
    """A run big enough to start its workers before it is resolved (play.workers.WORKERS_AT_GAMES games), with a
    strategy that does not exist: one line, exit 2, no run folder."""
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "meeplelab.cli", "simulate", "--game", "galileos-truth", "--games", "20000",
                        "--strategies", "writer,nobody", "--players", "2", "--out", str(out)], cwd=ROOT, env=ENV,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "nobody" in r.stderr, r.stderr
    assert not out.exists()


def test_a_first_chunk_failing_beside_early_started_workers_says_one_line(tmp_path):
    """The first chunk of a large run plays in the parent while the workers started early play theirs; when it
    fails, the queued chunks are cancelled quietly: one line naming the chunk and where it failed, exit 2."""
    bot = tmp_path / "bot.py"
    bot.write_text("def act(view, legal_mask, rng):\n    raise ValueError('bot exploded')\n")
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "meeplelab.cli", "simulate", "--game", "galileos-truth", "--games", "17000",
                        "--strategies", f"writer,{bot}:act", "--players", "2", "--out", str(out)], cwd=ROOT, env=ENV,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2, r.stderr
    lines = [ln for ln in r.stderr.strip().splitlines() if not ln.startswith("compiling the rule kernels")]
    assert len(lines) == 1 and "ValueError: bot exploded in this process" in lines[0], r.stderr
    assert "--resume" in lines[0]


def test_a_resource_tracker_loky_forgot_is_ended_with_the_suite():
    """A tracker whose write end this process still holds but loky no longer knows of (the CI failure of
    2026-12-02: ``meeplelab.play.tracker`` still running at the end of a pytest-xdist worker) is ended by
    :func:`tests.processes.end_workers`, which closes that write end; nothing else of this process is closed."""
    from joblib.externals.loky.backend.resource_tracker import ResourceTracker

    from tests.processes import children, end_workers

    lost = ResourceTracker()
    lost.ensure_running()
    pid, fd = lost._pid, lost._fd
    lost._fd = lost._pid = None  # loky forgets it: its own stop and __del__ now do nothing
    # between its fork and its exec the child's command line is still empty: wait for the exec (the event)
    deadline = time.monotonic() + 60
    while "tracker import main" not in children().get(pid, "") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "tracker import main" in children()[pid]
    other_r, other_w = os.pipe()  # a pipe of this process no tracker reads: left open
    try:
        assert end_workers() == {}
        with pytest.raises(OSError):
            os.fstat(fd)  # the forgotten write end was closed ...
        os.fstat(other_w)  # ... and only that
        assert pid not in children()
    finally:
        os.close(other_r)
        os.close(other_w)
