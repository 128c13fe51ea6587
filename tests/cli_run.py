"""Run the ``meeplelab`` CLI in-process for a test: ``run_cli(argv, capsys, monkeypatch) -> (exit code, stdout,
stderr)``, or :func:`cli_in_process` where no test fixture is at hand (a module fixture). A test not about the
process itself runs the command here: a fresh ``meeplelab`` process spends seconds of CPU importing numba, polars,
scipy and matplotlib before it reads its arguments."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout

import pytest

from meeplelab import cli


def run_cli(argv, capsys, monkeypatch) -> tuple[int, str, str]:
    """``meeplelab *argv`` through ``cli.main`` (its exit code, and what it printed)."""
    monkeypatch.setattr(sys, "argv", ["meeplelab", *map(str, argv)])
    with pytest.raises(SystemExit) as e:
        cli.main()
    cap = capsys.readouterr()
    return e.value.code, cap.out, cap.err


def cli_in_process(argv) -> tuple[int, str, str]:
    """``meeplelab *argv`` through ``cli.main`` in this process, without test fixtures: its exit code and what it
    wrote to stdout and stderr. An exception ``cli.main`` does not turn into an exit code propagates."""
    out, err = io.StringIO(), io.StringIO()
    argv_before = sys.argv
    sys.argv = ["meeplelab", *map(str, argv)]
    try:
        with redirect_stdout(out), redirect_stderr(err), pytest.raises(SystemExit) as e:
            cli.main()
    finally:
        sys.argv = argv_before
    return e.value.code, out.getvalue(), err.getvalue()
