"""Signal a run at a point known to be mid-run: wait on an event, never a fixed sleep.

The test strategy slow-random of the toy game holds its process at its ``after``-th decision while a gate file
exists (:func:`tests.toygame.pause_point`), and says so by writing ``<gate>.<pid>``. A test starts the command
with :meth:`Pause.env`, waits with :meth:`Pause.wait` until the wanted processes are held (polled, with a
deadline), signals or kills it, and :meth:`Pause.release`\\ s the gate before anything must run on (a resume
starts without the variable, so it never holds)::

    pause = Pause(tmp_path, after=100)
    proc = subprocess.Popen(cmd, env=pause.env(), ...)
    pause.wait(proc, lambda: done_chunks(out) >= 2)    # held inside a move, with 2 chunks on disk
    os.kill(proc.pid, signal.SIGTERM)

When the point is a state on disk rather than a decision count (an arm of an experiment complete, a trial
of a tuning saved), :meth:`Pause.wait_stepping` holds the run every ``step`` decisions until it is there.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path


class Pause:
    """The gate file of one run: slow-random holds each process of it at its ``after``-th decision."""

    def __init__(self, folder: Path, after: int):
        self.gate = Path(folder) / "pause-gate"
        self.gate.write_text(str(after))

    def env(self, base: dict | None = None) -> dict:
        """``base`` (default: this process's environment) with the gate named for the run's processes."""
        return {**(os.environ if base is None else base), "MEEPLELAB_TEST_PAUSE": str(self.gate)}

    def held(self) -> list[int]:
        """Process ids held at the gate so far."""
        return sorted(int(p.name.rsplit(".", 1)[1]) for p in self.gate.parent.glob(self.gate.name + ".*"))

    def wait(self, proc: subprocess.Popen, ready=lambda: True, processes: int = 1, timeout: float = 300) -> None:
        """Return once ``processes`` processes of the run are held and ``ready()`` holds (polled every 20 ms).

        Raises:
            AssertionError: the command ended first (with its stderr when piped), or the deadline passed.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                err = proc.stderr.read() if proc.stderr else ""
                raise AssertionError(f"the command ended (exit {proc.returncode}) before it was held mid-run: {err}")
            if len(self.held()) >= processes and ready():
                return
            time.sleep(0.02)
        raise AssertionError(f"not held mid-run within {timeout} s: {len(self.held())} of {processes} processes held")

    def wait_stepping(self, proc: subprocess.Popen, ready, step: int, timeout: float = 300) -> None:
        """Return once the run's one process is held at a decision where ``ready()`` holds; while it does not,
        move the gate ``step`` decisions on (the process goes on and holds again there). A step replaces the
        gate file whole (``os.replace``), so the process never reads it missing or half-written and runs on.

        Raises:
            AssertionError: as :meth:`wait`.
        """
        deadline = time.monotonic() + timeout
        while True:
            self.wait(proc, timeout=max(deadline - time.monotonic(), 0.1))
            if ready():
                return
            (marker,) = self.gate.parent.glob(self.gate.name + ".*")
            at = marker.read_text()
            while not at:  # created, its number not written yet
                time.sleep(0.005)
                at = marker.read_text()
            marker.unlink()
            step_file = self.gate.with_name(self.gate.name + "-next")
            step_file.write_text(str(int(at) + step))
            os.replace(step_file, self.gate)

    def release(self) -> None:
        """Let every held process go on (and none hold again)."""
        self.gate.unlink(missing_ok=True)

    def signal(self, proc: subprocess.Popen, wait, sig: int, timeout: float = 120) -> tuple[int, str]:
        """Call ``wait()`` (one of this gate's waits: ``proc`` held where the test wants it), send ``sig`` to
        ``proc``, release the gate and collect ``proc``; returns (exit code, stderr). ``proc`` is gone afterwards,
        killed if it outlived ``timeout`` seconds or ``wait()`` raised."""
        try:
            wait()
            os.kill(proc.pid, sig)
            _, err = proc.communicate(timeout=timeout)
        finally:
            self.release()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        return proc.returncode, err
