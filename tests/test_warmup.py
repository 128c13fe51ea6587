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
import tests.toygame  # noqa: F401  registers the test-only game "toy"
from meeplelab.play import warmup
from meeplelab.play.warmup import _steps
from meeplelab.sim.registry import make_game

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


SPLIT = """
import json
from numba import typeof, types
from numba.core import event
import tests.toygame
from meeplelab.play.warmup import warm_for_run
from meeplelab.sim.registry import make_game
from meeplelab.strategies.registry import make_strategy
from tests.toy import dispatch, routers
i = types.int64
def parts(S, C, prm, mask):
    ctx = (typeof(S.game).dtype, typeof(S), typeof(C), typeof(prm), i)
    return [(dispatch.apply, (*ctx, i))], [(dispatch.legal, (*ctx, typeof(mask)))]
routers.compile_parts = parts
compiled = []
class Seen(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass
event.register("numba:compile", Seen())
warm_for_run(make_game("toy"), 2, 1, True, [make_strategy("toy", "empty-plan")] * 2)
print(json.dumps({"compiled": compiled, "apply": len(dispatch.apply.signatures)}))
"""


def _split_run(cache: Path) -> tuple[dict, str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    r = subprocess.run([sys.executable, "-c", SPLIT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1]), r.stderr


@pytest.mark.slow  # two cold compiles of the toy in fresh processes
def test_a_cold_start_compiles_the_named_kernels_in_a_second_process_and_says_the_notice_once(tmp_path):
    cold, err = _split_run(tmp_path / "cache")
    # the apply dispatcher compiled in the second process: this one loaded it from the cache, compiled the rest
    assert "apply" not in cold["compiled"] and {"legal", "play_plans", "setup"} <= set(cold["compiled"]), cold
    assert cold["apply"] == 1, cold
    assert err.count("compiling the rule kernels") == 1, err
    warm, err = _split_run(tmp_path / "cache")
    assert warm == {"compiled": [], "apply": 0} and "compiling" not in err, (warm, err)  # all cached: nothing compiles


def test_the_heuristic_warm_up_adds_the_heuristic_play_loop_after_the_plan_loops():
    game = make_game("toy")
    plain = [what for what, _ in _steps(game, False)]
    assert [what for what, _ in _steps(game, False, heuristic=True)] == plain + ["play kernel with the heuristic"]
    assert "play kernel with the heuristic" not in [what for what, _ in _steps(game, True, heuristic=True)]


def test_several_games_warming_at_once_each_compile_alone_and_one_game_may_split(monkeypatch):
    """``python -m meeplelab.play.warmup`` of several games starts one process per game with the no-split variable
    set (their processes fill the cores already); of one game, without it (its cold compile may take two)."""
    started: list[dict] = []

    class Done:
        def __init__(self, cmd, env=None):
            started.append(env if env is not None else dict(os.environ))

        def wait(self):
            return 0

    monkeypatch.delenv(warmup.NO_SPLIT, raising=False)
    monkeypatch.setattr(warmup.subprocess, "Popen", Done)
    assert warmup.main(["unconscious-mind", "galileos-truth"]) == 0
    assert [e.get(warmup.NO_SPLIT) for e in started] == ["1", "1"]
    started.clear()
    assert warmup.main(["galileos-truth"]) == 0
    assert [e.get(warmup.NO_SPLIT) for e in started] == [None]
