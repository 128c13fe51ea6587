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


def watch_parent(parent: int) -> None:
    """Worker initializer: end this process as soon as ``parent`` is no longer its parent."""
    if os.getppid() != parent:
        os._exit(1)
    quiet_resource_tracker()
    threading.Thread(target=_watch, args=(parent,), name="meeplelab-watch-parent", daemon=True).start()


def loky_kwargs() -> dict:
    """Arguments of a loky backend whose workers end with this process."""
    return {"initializer": watch_parent, "initargs": (os.getpid(),)}


@contextlib.contextmanager
def loky_config() -> Iterator[None]:
    """``joblib.parallel_config`` of a loky backend whose workers end with this process."""
    import joblib

    quiet_resource_tracker()
    with joblib.parallel_config(backend="loky", **loky_kwargs()):
        yield
