"""Inputs a newcomer found accepted until after games were played (or never refused): each is now refused
in one line before anything is played or written."""

from __future__ import annotations

import pytest

from tests.cli_run import run_cli


@pytest.mark.parametrize("argv,message", [
    (["sweep", "--game", "toy", "--players", "2", "--games", "20", "--vary", "rounds=1,2", "--strategies",
      "random,always-draw", "--target", "nobody=30"],
     "error: --target: strategy 'nobody' is not in this sweep: allowed random, always-draw"),
    (["tune", "--game", "toy", "--strategy", "random", "--against", "always-draw", "--budget", "200", "--set", "zz=1"],
     "error: unknown parameter 'zz'"),
    (["experiment", "--game", "unconscious-mind", "--players", "2", "--strategies", "publisher", "--control",
      "coffee-engine", "--treat", "coffee-99", "--games", "20"],
     "error: --treat 'coffee-99': a seat would start with -97 coffee; allowed: a start value of 0 or more "
     "(coffee starts at 2 here, so at most coffee-2)"),
])
def test_refused_in_one_line_before_anything_is_played(argv, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, _, err = run_cli([*argv, "--out", out], capsys, monkeypatch)
    assert code == 2 and err.startswith(message) and len(err.strip().splitlines()) == 1, err
    assert not out.exists()
