"""Run the ``meeplelab`` CLI in-process for a test: ``run_cli(argv, capsys, monkeypatch) -> (exit code, stdout, stderr)``."""

from __future__ import annotations

import sys

import pytest

from meeplelab import cli


def run_cli(argv, capsys, monkeypatch) -> tuple[int, str, str]:
    """``meeplelab *argv`` through ``cli.main`` (its exit code, and what it printed)."""
    monkeypatch.setattr(sys, "argv", ["meeplelab", *map(str, argv)])
    with pytest.raises(SystemExit) as e:
        cli.main()
    cap = capsys.readouterr()
    return e.value.code, cap.out, cap.err
