"""What the warm-up compiles (play/warmup.py): a run of compiled seats compiles its play kernel and setup, never the
Python-loop rule kernels it does not call; a seat decided in Python compiles them too. Checked in a fresh process
(a kernel's signatures list what this process compiled or loaded), on the toy game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json, sys
import tests.toygame
from meeplelab.play.warmup import warm_for_run
from meeplelab.sim.registry import make_game
from meeplelab.strategies.registry import make_strategy
from tests.toy import play, step
game = make_game("toy")
warm_for_run(game, 2, 1, True, [make_strategy("toy", s) for s in sys.argv[1].split(",")])
print(json.dumps({n: len(k.signatures) for n, k in [("setup", step.setup), ("legal_mask", step.legal_mask),
                  ("apply", step.apply), ("play_plans", play.play_plans), ("play", play.play)]}))
"""


def _compiled_after_warm(strategies: str, cache: Path) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    r = subprocess.run([sys.executable, "-c", SCRIPT, strategies], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # two fresh processes loading (or compiling) the toy's kernels
def test_a_run_of_compiled_seats_warms_its_play_kernel_and_not_the_python_loop(tmp_path):
    plans = _compiled_after_warm("empty-plan,bank-at", tmp_path / "cache")
    assert plans == {"setup": 1, "legal_mask": 0, "apply": 0, "play_plans": 1, "play": 0}, plans
    mixed = _compiled_after_warm("empty-plan,random", tmp_path / "cache")
    assert mixed == {"setup": 1, "legal_mask": 1, "apply": 1, "play_plans": 1, "play": 0}, mixed
