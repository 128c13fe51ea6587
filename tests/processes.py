"""No worker process outlives the test suite.

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
        close_lost_tracker_pipes(left)
        time.sleep(0.1)
        left = children()
    return {pid: cmd + _pipe_holders(pid) if _is_tracker(cmd) else cmd for pid, cmd in left.items()}


def _is_tracker(cmd: str) -> bool:
    """Whether a command line is a resource tracker's (multiprocessing's, loky's, or :mod:`meeplelab.play.tracker`)."""
    return "resource_tracker import main" in cmd or "tracker import main" in cmd


def _tracker_fd(cmd: str) -> int | None:
    """The file descriptor a resource tracker reads its pipe from (``main(20, ...)`` in its command line), or
    None for a command line that is not a tracker's."""
    import re

    m = re.search(r"tracker import main;\s*main\((\d+)", cmd)
    return int(m.group(1)) if m else None


def _pipes(pid: int) -> dict[str, int]:
    """``{"pipe:[inode]": fd}`` of the pipes process ``pid`` has open (empty when it cannot be read)."""
    out = {}
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("pipe:"):
                out[link] = int(fd)
    except OSError:
        pass
    return out


def close_lost_tracker_pipes(left: dict[int, str]) -> list[int]:
    """Close this process's ends of the pipes of the resource trackers in ``left`` (``{pid: command line}``).

    A resource tracker ends when every writer of its pipe has closed it. loky forgets a tracker it replaced
    (``_teardown_dead_process`` after a failed probe) or started twice, and its write end then stays open in
    this process, held by nothing: the tracker would run until this process ends. Closing it here lets that
    tracker end now; a tracker whose pipe another process still holds is left running (and reported).
    Returns the file descriptors closed."""
    mine: dict[str, list[int]] = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            link = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if link.startswith("pipe:") and int(fd) > 2:
            mine.setdefault(link, []).append(int(fd))
    closed = []
    for pid, cmd in left.items():
        read_end = _tracker_fd(cmd)
        if read_end is None:
            continue
        pipe = next((p for p, fd in _pipes(pid).items() if fd == read_end), None)
        for fd in mine.get(pipe, []) if pipe is not None else []:
            try:
                os.close(fd)
                closed.append(fd)
            except OSError:
                pass
        try:
            os.waitpid(pid, os.WNOHANG)  # reap it once it has ended (it is our child when we started it)
        except ChildProcessError:
            pass
    return closed


def _cmdline(pid: int) -> str:
    """The command line of process ``pid`` ("" when gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(bytes(1), b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _pipe_holders(pid: int) -> str:
    """`` (pipe also held by: pid cmd, ...)`` for a tracker still running, to say what keeps it alive."""
    read_end = _tracker_fd(cmd) if (cmd := _cmdline(pid)) else None
    pipes = {p for p, fd in _pipes(pid).items() if fd == read_end}
    holders = []
    for d in os.listdir("/proc"):
        if d.isdigit() and int(d) != pid and pipes & set(_pipes(int(d))):
            holders.append(f"{d} {_cmdline(int(d))}")
    return f" (pipe also held by: {', '.join(holders) or 'nobody readable'})"
