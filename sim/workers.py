"""Worker processes that end with their parent, and a loky pool that keeps quiet about its own machinery.

Loky workers are separate processes: killed with ``kill -9`` (or dying any other way that runs no
clean-up), the parent leaves them running their chunks, holding memory, the terminal's pipe (``|
cat`` waits for them) and writing part files nobody records. :func:`loky_config` starts every loky
pool of the project with :func:`watch_parent` as its initializer: a daemon thread in each worker
that checks every :data:`POLL` seconds whether the process that started it is still its parent and
ends the worker at once (``os._exit``) when it is not (a dead parent's children are re-parented).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import Iterator

#: seconds between a worker's checks of its parent
POLL = 0.2


def _watch(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(1)  # no clean-up: the parent that would record this worker's work is gone
        time.sleep(POLL)


def watch_parent(parent: int) -> None:
    """Worker initializer: end this process as soon as ``parent`` is no longer its parent."""
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="meeplelab-watch-parent", daemon=True).start()


def loky_kwargs() -> dict:
    """Arguments of a loky backend whose workers end with this process."""
    return {"initializer": watch_parent, "initargs": (os.getpid(),)}


@contextlib.contextmanager
def loky_config() -> Iterator[None]:
    """``joblib.parallel_config`` of a loky backend whose workers end with this process."""
    import joblib

    with joblib.parallel_config(backend="loky", **loky_kwargs()):
        yield
