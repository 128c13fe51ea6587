"""Worker processes that end with their parent, and a loky pool that keeps quiet about its own machinery.

Loky workers are separate processes: killed with ``kill -9`` (or dying any other way that runs no
clean-up), the parent leaves them running their chunks, holding memory, the terminal's pipe (``|
cat`` waits for them) and writing part files nobody records. :func:`loky_config` starts every loky
pool of the project with :func:`watch_parent` as its initializer: a daemon thread in each worker
that checks every :data:`POLL` seconds whether the process that started it is still its parent and
ends the worker at once (``os._exit``) when it is not (a dead parent's children are re-parented).

loky's resource tracker (a process that deletes the pool's temporary files and semaphores if the
run's processes do not) is started from :mod:`meeplelab.play.tracker`, and when it dies during a run (``kill
-9``) the one line :data:`TRACKER_DIED` replaces loky's warning and the new tracker's tracebacks:
the games are not affected.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import warnings
from typing import Iterator

#: seconds between a worker's checks of its parent
POLL = 0.2
#: at the default ``--n-jobs -1``, a run of at least this many games starts its workers at once (the command line
#: before it resolves the run: :func:`prestart`), while the parent plays the first chunk (a 40,000-game run:
#: benchmarks/RESULTS.md "a large run"); used by :func:`meeplelab.play.runner._auto_results`
WORKERS_AT_GAMES = 16_384


def _watch(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(1)  # no clean-up: the parent that would record this worker's work is gone
        time.sleep(POLL)


#: said once per process when loky's resource tracker died and was started again
TRACKER_DIED = ("warning: joblib's resource tracker process died during the run and was started again; the games "
                "are not affected, but temporary files it was tracking may be left in /dev/shm or the temp folder")
_TRACKER_SAID = False


def quiet_resource_tracker() -> None:
    """Start loky's resource tracker from :mod:`meeplelab.play.tracker`, and replace loky's warning about a dead
    tracker by the one line :data:`TRACKER_DIED` (once per process)."""
    from joblib.externals.loky.backend import resource_tracker as rt

    if getattr(rt, "_meeplelab", False):
        return
    # start-up: a worker or the resource tracker imports it when it starts (the parent never needs it)
    from meeplelab.play.tracker import main

    tracker = getattr(rt, "_resource_tracker", None)
    teardown = getattr(tracker, "_teardown_dead_process", None)
    if tracker is None or teardown is None or not hasattr(rt, "main"):
        return  # another loky: leave it as it is
    rt.main = main  # launched as "from meeplelab.play.tracker import main; main(fd, verbose)"
    warnings.filterwarnings("ignore", message="resource_tracker: process died unexpectedly")

    def said_once():
        global _TRACKER_SAID
        teardown()
        if not _TRACKER_SAID:
            _TRACKER_SAID = True
            print(TRACKER_DIED, file=sys.stderr, flush=True)

    tracker._teardown_dead_process = said_once
    rt._meeplelab = True


def watch_parent(parent: int, parent_noticed: bool = False) -> None:
    """Worker initializer: end this process as soon as ``parent`` is no longer its parent; compile progress
    is the parent's to draw, and the compile notice too when the parent said it (``parent_noticed``,
    :func:`meeplelab.sim.jitcache.worker_mode`)."""
    if os.getppid() != parent:
        os._exit(1)
    # start-up: a worker or the resource tracker imports it when it starts (the parent never needs it)
    from meeplelab.sim import jitcache

    jitcache.worker_mode(parent_noticed)
    quiet_resource_tracker()
    threading.Thread(target=_watch, args=(parent,), name="meeplelab-watch-parent", daemon=True).start()


def loky_kwargs() -> dict:
    """Arguments of a loky backend whose workers end with this process."""
    # start-up: a worker or the resource tracker imports it when it starts (the parent never needs it)
    from meeplelab.sim import jitcache

    return {"initializer": watch_parent, "initargs": (os.getpid(), jitcache.noticed() or _PARENT_SPEAKS)}


@contextlib.contextmanager
def loky_config() -> Iterator[None]:
    """``joblib.parallel_config`` of a loky backend whose workers end with this process."""
    import joblib

    quiet_resource_tracker()
    with joblib.parallel_config(backend="loky", **loky_kwargs()):
        yield


_PRESTARTED: list = []  # the warm-up generator of a pool started early (prestart), until the run takes it
#: a pool started early (prestart) is started before any compile: its workers are told the parent says the compile
#: notice (the parent's first chunk compiles what the chunks need), so a cold large run says it once, not 3 times
_PARENT_SPEAKS = False


def warm_imports() -> int:
    """A worker's warm-up task when its pool starts before the run is resolved (:func:`prestart`): the imports every
    chunk needs and numba's CPU target set up (its implementation registries: about 0.2 s on the development
    machine), no kernel loaded (a kernel not yet cached is compiled once by the parent's first chunk), no config
    resolved, nothing written. Returns the worker's pid."""
    import pyarrow.parquet  # noqa: F401  (the chunks' Parquet writer)
    from numba.core.registry import cpu_target

    # start-up: what a chunk plays with, imported in the worker while the parent resolves the run (the runner,
    # which imports this module, comes with the first chunk)
    from meeplelab.play import batch, plan, runfolder  # noqa: F401

    cpu_target.target_context.refresh()
    return os.getpid()


def prestart(n_jobs: int) -> None:
    """Start the loky pool a large run will use now, while this process still imports and resolves the run: each
    worker runs :func:`warm_imports`. The pool is the one :func:`meeplelab.play.runner.simulate` then plays on (the
    same ``n_jobs`` and :func:`loky_config`, so joblib reuses it); :func:`take_prestarted` hands the warm-up over.
    The games do not depend on it."""
    import joblib
    from joblib import Parallel, delayed

    global _PARENT_SPEAKS
    _PARENT_SPEAKS = True
    with loky_config():
        gen = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
            delayed(warm_imports)() for _ in range(joblib.effective_n_jobs(n_jobs)))
    _PRESTARTED.append(gen)


def take_prestarted() -> set[int]:
    """Wait for the warm-up of a pool :func:`prestart` started and return the pids of the workers that warmed (a
    warm-up that failed is let go: the run's own tasks start the workers they need); an empty set when no pool was
    started early."""
    pids: set[int] = set()
    while _PRESTARTED:
        gen = _PRESTARTED.pop()
        try:
            pids.update(gen)
        except Exception:  # noqa: BLE001 - a worker lost during its warm-up: the run starts another
            pass
    return pids


_HOOKED = False


def quiet_pool_teardown() -> None:
    """From now on, an exception in loky's executor manager thread is not printed: a run that stops (a failed first
    chunk, Ctrl-C, the command line's exit) cancels its queued chunks and ends the pool, and loky's manager thread can
    then trip over a cancelled task (``KeyError`` in ``add_call_item_to_queue``) and print a traceback after the run's
    one line. Other threads' exceptions are printed as before. Idempotent."""
    global _HOOKED
    if _HOOKED:
        return
    _HOOKED = True
    before = threading.excepthook

    def hook(args):
        if getattr(args.thread, "name", "") == "ExecutorManagerThread":
            return
        before(args)

    threading.excepthook = hook


def stop_pool() -> None:
    """End the loky pool's workers now, without waiting for them to exit by themselves (the command line, once its
    run is written or refused: idle workers are killed instead of joined at exit, about 0.2 s on a 2-core
    machine). Nothing when no pool was started."""
    quiet_pool_teardown()
    with warnings.catch_warnings():  # a run refused during the warm-up: joblib would warn of the tasks it cancels
        warnings.simplefilter("ignore")
        while _PRESTARTED:
            _PRESTARTED.pop().close()
    from joblib.externals.loky import reusable_executor

    ex = getattr(reusable_executor, "_executor", None)
    if ex is not None:
        ex.shutdown(wait=True, kill_workers=True)  # killed, then the pool's temporary folders removed: ~10 ms
