"""One progress display for every long command: rich bars on stderr, nested, off when asked or not a terminal.

Every command that plays games or builds a big report draws its progress through this module, so
they look and behave alike (``docs/architecture.md``, "Progress and the compile notice"):

- :func:`wanted` decides whether to draw: never with ``--no-progress`` (``flag=False``); otherwise
  when stderr is a terminal. The environment variable ``MEEPLELAB_PROGRESS`` overrides the terminal
  test: ``1`` draws on any stderr (a pipe, a CI log, a test; rich then writes its terminal control
  codes), ``0`` never draws.
- :func:`bar` is a context manager yielding a :class:`Bar` (``advance``, ``update``). The first bar
  opened starts one rich live display on stderr; a bar opened while one is live (a sweep's variant
  bar, then each variant's games bar from :func:`meeplelab.play.runner.simulate`) is added as a row of the same
  display and removed when its ``with`` block ends, so nesting never raises rich's "only one live
  display" error and the inner bar needs no flag of its own.
- :func:`note` prints one line on stderr, above the bars while they are drawn (rich keeps the display
  below it), or plainly when nothing is drawn: the "variant 2/4: ..." lines of the commands.
- While a display is live, the numba compile progress of :mod:`meeplelab.sim.jitcache` (which kernel, how many
  functions so far) is one more row of it (:func:`_compile_row`); with no display the compile notice
  draws its own line (see :mod:`meeplelab.sim.jitcache`).

Nothing here changes what is played or written: a bar only counts.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import Any, Iterator

#: environment variable overriding the terminal test of :func:`wanted` (``1`` draw, ``0`` never)
ENV = "MEEPLELAB_PROGRESS"


def forced() -> bool | None:
    """``MEEPLELAB_PROGRESS`` as a decision: True (``1``, ``yes``, ``on``, ``always``), False (``0``, ``no``,
    ``off``, ``never``), None when unset or empty (then the terminal decides). Any other value is read as
    unset (a progress display is never worth an error)."""
    v = os.environ.get(ENV, "").strip().lower()
    if v in ("1", "yes", "on", "true", "always"):
        return True
    if v in ("0", "no", "off", "false", "never"):
        return False
    return None


def wanted(flag: bool = True, stream=None) -> bool:
    """Whether to draw progress: False when ``flag`` is False (``--no-progress``); else :func:`forced` when
    set; else whether ``stream`` (default ``sys.stderr``) is a terminal."""
    if not flag:
        return False
    f = forced()
    if f is not None:
        return f
    s = sys.stderr if stream is None else stream
    try:
        return bool(s.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


class Bar:
    """One row of the display: ``advance(n)`` adds ``n`` done units, ``update(...)`` changes the label,
    total or done count. A bar that is not drawn (progress off) accepts the same calls and does nothing."""

    def __init__(self, display: "_Display | None" = None, task=None):
        self._display, self._task = display, task

    def advance(self, n: float = 1) -> None:
        """Count ``n`` more units done."""
        if self._display is not None:
            self._display.progress.advance(self._task, n)

    def update(self, *, label: str | None = None, total: float | None = None, done: float | None = None) -> None:
        """Change the bar's label, total or done count (None: unchanged)."""
        if self._display is None:
            return
        kw: dict[str, Any] = {}
        if label is not None:
            kw["description"] = label
        if total is not None:
            kw["total"] = total
        if done is not None:
            kw["completed"] = done
        self._display.progress.update(self._task, **kw)

    @property
    def drawn(self) -> bool:
        """True when this bar is drawn on stderr."""
        return self._display is not None


class _Display:
    """The one live rich display of this process (stderr) and its rows."""

    def __init__(self):
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        console = Console(file=sys.stderr, force_terminal=True if forced() else None)
        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[unit]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=console, transient=False)
        self.depth = 0
        self.compile_task = None


_LOCK = threading.RLock()
_ACTIVE: _Display | None = None


@contextlib.contextmanager
def bar(label: str, total: float, *, done: float = 0, unit: str = "games", on: bool = True) -> Iterator[Bar]:
    """A progress bar for ``total`` units (``done`` of them already done: a resumed run).

    Args:
        label: what is counted, shown left of the bar (``sweep``, ``lineup 2/6``, the game id).
        total: units in all; ``unit``: their name after the count (``games``, ``variants``, ``points``).
        on: draw it (see :func:`wanted`). Ignored when a display is already live: the bar is then a row
            of that display (an inner step of a drawn command is drawn too).

    Yields:
        :class:`Bar`. Rows of an inner step are removed when its block ends; the outermost display
        stops (its last state stays on the screen) when its block ends, also on an exception or Ctrl-C.
    """
    global _ACTIVE
    with _LOCK:
        outer = _ACTIVE is None
        if outer and not on:
            display = None
        else:
            if _ACTIVE is None:  # outer
                _ACTIVE = _Display()
                _ACTIVE.progress.start()
            display = _ACTIVE
            display.depth += 1
    if display is None:
        yield Bar()
        return
    task = display.progress.add_task(label, total=total, completed=done, unit=unit)
    try:
        yield Bar(display, task)
    finally:
        with _LOCK:
            display.depth -= 1
            if outer:
                try:
                    display.progress.stop()
                finally:
                    _ACTIVE = None
            else:  # drawn once in its last state, then removed
                display.progress.refresh()
                display.progress.remove_task(task)


def active() -> bool:
    """True while a progress display is drawn in this process."""
    return _ACTIVE is not None


def note(text: str) -> None:
    """One line on stderr: printed above the bars while a display is drawn, plainly otherwise."""
    with _LOCK:
        d = _ACTIVE
    if d is None:
        print(text, file=sys.stderr, flush=True)
    else:
        d.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)


def _compile_row(state: str, count: int, name: str) -> bool:
    """The compile progress of :mod:`meeplelab.sim.jitcache` as a row of the live display; returns False when no display
    is live (jitcache then draws its own line). ``state``: ``start`` / ``tick`` / ``end`` of a top-level
    compile; ``count``: functions compiled so far in this process; ``name``: the function now compiling."""
    with _LOCK:
        d = _ACTIVE
        if d is None:
            return False
        p = d.progress
        if state == "end":
            if d.compile_task is not None:
                p.remove_task(d.compile_task)
                d.compile_task = None
            return True
        unit = f"functions compiled, now {name}"
        if d.compile_task is None:
            d.compile_task = p.add_task("compiling kernels", total=None, completed=count, unit=unit)
        else:
            p.update(d.compile_task, completed=count, unit=unit)
        return True


__all__ = ["Bar", "ENV", "active", "bar", "forced", "note", "wanted"]
