"""The rule kernels run unchanged as plain Python under NUMBA_DISABLE_JIT=1 (debugging,
coverage) and give the same games as the compiled kernels."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from meeplelab.sim.registry import available_games, make_game

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json, sys, warnings
warnings.simplefilter("ignore")
import numpy as np, tests.toygame, tests.toy_robust
from meeplelab.sim.registry import make_game
g = make_game(sys.argv[1])
s = g.play_random(np.arange(3), 17, g.min_players + 1 if g.max_players > g.min_players else g.min_players)
print(json.dumps({"scores": g.final_scores(s).tolist(), "plies": s.ply.tolist()}))
"""


@pytest.mark.parametrize("name", available_games())
def test_kernels_run_uncompiled_and_match_the_compiled_games(name):
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    res = subprocess.run([sys.executable, "-c", SCRIPT, name], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    plain = json.loads(res.stdout.strip().splitlines()[-1])
    game = make_game(name)
    players = game.min_players + 1 if game.max_players > game.min_players else game.min_players
    s = game.play_random(np.arange(3), 17, players)
    assert plain == {"scores": game.final_scores(s).tolist(), "plies": s.ply.tolist()}


COMPILED_PLAY = """
import hashlib, warnings
warnings.simplefilter("error", RuntimeWarning)
import numpy as np, tests.toygame as toy
from meeplelab.sim.registry import make_game
from meeplelab.play.batch import play_batch
from meeplelab.strategies.base import RandomStrategy
r = play_batch(make_game("toy"), [toy.bank_at(3), RandomStrategy()], np.arange(30), 4)
print(hashlib.sha256(r.events.to_pandas().to_csv().encode()).hexdigest())
"""


def test_compiled_play_runs_uncompiled_and_gives_the_same_games():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run([sys.executable, "-c", COMPILED_PLAY], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=600)
    jit = subprocess.run([sys.executable, "-c", COMPILED_PLAY], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert plain.returncode == 0 and jit.returncode == 0, (plain.stderr[-2000:], jit.stderr[-2000:])
    assert plain.stdout.split()[-1] == jit.stdout.split()[-1]


COMPILED_HEURISTIC = """
import hashlib, sys, warnings
warnings.simplefilter("error", RuntimeWarning)
import numpy as np
from meeplelab.sim.registry import make_game
from meeplelab.play.batch import play_batch
from meeplelab.strategies.registry import make_strategy
name, seats, n = sys.argv[1], sys.argv[2].split("+"), int(sys.argv[3])
r = play_batch(make_game(name), [make_strategy(name, s) for s in seats], np.arange(n), 4)
print(hashlib.sha256(r.events.to_pandas().to_csv().encode()).hexdigest(), r.events.num_rows)
"""


@pytest.mark.parametrize("args", [("galileos-truth", "heuristic+observer", "2"),
                                  ("unconscious-mind", "heuristic+publisher", "1")])
def test_the_compiled_heuristic_runs_uncompiled_and_gives_the_same_games(args):
    # the in-kernel game copy is generated for numba; uncompiled, its plain-Python body does the same
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run([sys.executable, "-c", COMPILED_HEURISTIC, *args], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=600)
    jit = subprocess.run([sys.executable, "-c", COMPILED_HEURISTIC, *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert plain.returncode == 0 and jit.returncode == 0, (plain.stderr[-2000:], jit.stderr[-2000:])
    assert plain.stdout.split()[-2:] == jit.stdout.split()[-2:]
    assert int(jit.stdout.split()[-1]) > 100


def test_plan_conditions_against_rule_numbers_run_uncompiled_and_give_the_same_games():
    # abjure-at:margin compares Suspicion with the rules' penance_threshold and prison_at (reference features)
    args = ("galileos-truth", "abjure-at:margin=1+abjure-at:suspicion=4+never-abjure", "3")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    plain = subprocess.run([sys.executable, "-c", COMPILED_HEURISTIC, *args], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=600)
    jit = subprocess.run([sys.executable, "-c", COMPILED_HEURISTIC, *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert plain.returncode == 0 and jit.returncode == 0, (plain.stderr[-2000:], jit.stderr[-2000:])
    assert plain.stdout.split()[-2:] == jit.stdout.split()[-2:]
    assert int(jit.stdout.split()[-1]) > 100
