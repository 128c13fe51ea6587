"""SIGTERM handled like Ctrl-C, and the exit code of an interrupted command (no engine, no numpy: the CLI imports it
at start-up).

Inside :func:`terminate_as_interrupt` (every CLI command that plays games runs in it) a SIGTERM raises
:class:`Terminated`, a ``KeyboardInterrupt``, so a run's manifest or a study's state file is marked ``interrupted``
and can be resumed; :func:`interrupt_exit_code` gives 143 (128 + SIGTERM) for it, 130 for Ctrl-C.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator


class Terminated(KeyboardInterrupt):
    """SIGTERM received inside :func:`terminate_as_interrupt`: handled like Ctrl-C (exit code 143)."""

    exit_code = 128 + signal.SIGTERM


def interrupt_exit_code(e: KeyboardInterrupt) -> int:
    """Exit code for an interrupted command: 143 after SIGTERM, 130 after Ctrl-C (SIGINT)."""
    return e.exit_code if isinstance(e, Terminated) else 130


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` (a KeyboardInterrupt) in the main thread.

    The previous handler is restored on exit, and as soon as the first SIGTERM arrives, so a second
    SIGTERM acts as it did before (by default: ends the process at once). Outside the main thread
    (where handlers cannot be installed) this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)

    def handler(signum, frame):
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
        raise Terminated()

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
