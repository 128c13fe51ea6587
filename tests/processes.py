"""No worker process outlives the test suite (issue 25 item 8).

loky's reusable executor keeps its idle workers for 300 s, and its resource tracker as long as its parent
holds it open; a test process that ends without shutting them down (pytest-xdist's workers end that way)
leaves both running minutes after the suite. :func:`end_workers` shuts the executor and the trackers down
and returns the child processes still alive after that; ``tests/conftest.py`` calls it when each test
process's session ends and fails the session when any remain.
"""

from __future__ import annotations

import os
import time


def children(pid: int | None = None) -> dict[int, str]:
    """``{pid: command line}`` of every living descendant of ``pid`` (default: this process), zombies aside.

    Read with psutil when installed, else from ``/proc``."""
    pid = os.getpid() if pid is None else pid
    try:
        import psutil
    except ImportError:
        return _proc_children(pid)
    out = {}
    try:
        family = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return {}
    for p in family:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                out[p.pid] = " ".join(p.cmdline())
        except psutil.NoSuchProcess:
            pass
    return out


def _proc_children(pid: int) -> dict[int, str]:
    """:func:`children` from ``/proc`` (Linux without psutil)."""
    parent, cmd = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
            with open(f"/proc/{d}/cmdline", "rb") as f:
                line = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (name) ": state, ppid, ...
        if fields[0] != "Z":
            parent[int(d)], cmd[int(d)] = int(fields[1]), line
    found, todo = {}, [pid]
    while todo:
        p = todo.pop()
        for c, pp in parent.items():
            if pp == p and c not in found:
                found[c] = cmd[c]
                todo.append(c)
    return found


def end_workers(timeout: float = 15.0) -> dict[int, str]:
    """Shut down loky's reusable executor (waiting for its workers) and stop loky's and multiprocessing's
    resource trackers; returns :func:`children` still alive ``timeout`` seconds later (none when every
    test cleaned up after itself)."""
    import sys

    if "joblib" in sys.modules or "joblib.externals.loky" in sys.modules:
        from joblib.externals.loky import reusable_executor

        executor = reusable_executor._executor
        if executor is not None:
            executor.shutdown(wait=True)
        from joblib.externals.loky.backend import resource_tracker as loky_tracker

        loky_tracker._resource_tracker._stop()
    if "multiprocessing.resource_tracker" in sys.modules:
        from multiprocessing import resource_tracker

        resource_tracker._resource_tracker._stop()
    deadline = time.monotonic() + timeout
    left = children()
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = children()
    return left
