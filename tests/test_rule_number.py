"""A new rule number is two hand edits: its ``Params`` field and its use in one handler.

Each test copies the tree (no test rewrites the checkout it runs from), adds a throwaway rule number to the toy
engine and to Galileo's Truth by editing exactly two files by hand, runs the documented regeneration command
(``python -m meeplelab.sim.core.generate``) as a subprocess from another folder, and then plays the engine with the
new number set: the column, its ``PRM_*`` constant, the kernels' parameter vector, ``--set`` and (for an assumed
number) its plausible range and the rules doc table all follow from the dataclass.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _tree(tmp_path: Path) -> tuple[Path, dict]:
    """A copy of ``sim/``, the package face, ``docs/rules`` and the toy engine; the environment imports the copy."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "sim", tree / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "meeplelab").mkdir()
    shutil.copy(ROOT / "meeplelab" / "__init__.py", tree / "meeplelab")
    shutil.copy(ROOT / "pyproject.toml", tree)
    shutil.copytree(ROOT / "docs" / "rules", tree / "docs" / "rules")
    (tree / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "__init__.py", tree / "tests")
    shutil.copytree(ROOT / "tests" / "toy", tree / "tests" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tree)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")
    return tree, env


def _files(tree: Path) -> dict[str, bytes]:
    return {p.relative_to(tree).as_posix(): p.read_bytes() for p in sorted(tree.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def _edit(path: Path, anchor: str, new: str) -> None:
    """One hand edit: ``new`` in place of ``anchor`` (which must occur exactly once)."""
    text = path.read_text()
    assert text.count(anchor) == 1, (path, anchor)
    path.write_text(text.replace(anchor, new))


def _run(args, cwd, env, timeout=600):
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _changed(before: dict, after: dict) -> list[str]:
    return sorted(k for k in after if before.get(k) != after[k])


def _generate(tree: Path, tmp_path: Path, env: dict) -> list[str]:
    """Run the documented command from a folder outside the tree; the files it wrote."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    r = _run(["-m", "meeplelab.sim.core.generate"], elsewhere, env)
    assert r.returncode == 0, r.stderr
    wrote = sorted(line.split(" ", 1)[1] for line in r.stdout.splitlines() if line.startswith("wrote "))
    check = _run(["-m", "meeplelab.sim.core.generate", "--check"], elsewhere, env)
    assert check.returncode == 0, check.stdout + check.stderr
    return wrote


def test_a_new_toy_rule_number_is_two_hand_edits_and_plays(tmp_path):
    tree, env = _tree(tmp_path)
    before = _files(tree)
    # hand edit 1: the Params field, with its source and range
    _edit(tree / "tests/toy/params.py", '    rounds: int = param(',
          '    bust_penalty: int = param(0, unit="VP", source="A-TOY-02", doc="VP a seat loses when it busts.", '
          'lo=0, hi=9)\n    rounds: int = param(')
    # hand edit 2: its use in one handler (the file's import of the column constant included)
    rules = tree / "tests/toy/rules.py"
    _edit(rules, "from .pcols import PRM_MAX_DRAWS, PRM_ROUNDS", "from .pcols import PRM_BUST_PENALTY, PRM_MAX_DRAWS, PRM_ROUNDS")
    text = rules.read_text()
    rules.write_text(text.replace("            S.game[g, POT] = 0\n            end_turn(",
                                  "            S.game[g, POT] = 0\n            S.seat[g, s, VP] -= prm[PRM_BUST_PENALTY]\n"
                                  "            end_turn(", 1))
    assert _changed(before, _files(tree)) == ["tests/toy/params.py", "tests/toy/rules.py"]  # two files by hand

    wrote = _generate(tree, tmp_path, env)
    assert wrote == ["tests/toy/pcols.py"]  # the column constant: derived, not written by hand
    assert "PRM_BUST_PENALTY = 3  # VP; A-TOY-02" in (tree / "tests/toy/pcols.py").read_text()

    # compiled for real (numba, a cache of its own): the same random games, each bust now costs 2 VP
    probe = """
import json
import numpy as np
from meeplelab.sim.core.params import apply_overrides
from tests.toy.engine import ToyGame
from tests.toy.params import ToyParams
ids = np.arange(200)
base = ToyGame().play_random(ids, 11, 3)
game = ToyGame(apply_overrides(ToyParams(), {"bust_penalty": "2"}))
new = game.play_random(ids, 11, 3)
print(json.dumps({"base": base.seat[:, :, 0].tolist(), "new": new.seat[:, :, 0].tolist(),
                  "prm": game.param_vector.tolist()}))
"""
    r = _run(["-c", probe], tmp_path, env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["prm"] == [4, 3, 3, 2, 4]  # copies, max_value, max_draws, bust_penalty, rounds: the field order
    diffs = [b - n for rb, rn in zip(out["base"], out["new"]) for b, n in zip(rb, rn)]
    assert all(d >= 0 and d % 2 == 0 for d in diffs)  # random play never looks at VP: the same games
    assert sum(diffs) >= 2 * 100  # and busts happen (about one seat turn in four busts at max_value 3)


def test_a_new_assumed_rule_number_of_a_real_engine_is_two_hand_edits(tmp_path):
    tree, env = _tree(tmp_path)
    before = _files(tree)
    # hand edit 1: the Params field with its assumption ID and its plausible range beside it
    _edit(tree / "sim/galileos_truth/params.py", "    start_books: int = param(",
          '    setup_bonus_coins: int = param(0, unit="Coins", source="A-GT-05", doc="Extra Coins each seat gets at '
          'setup.", lo=0, hi=10, plausible={"low": 0, "high": 2, "reason": "A small start bonus; the seed gives none."})\n'
          "    start_books: int = param(")
    # hand edit 2: its use in the setup handler (rules/flow.py setup_game, which cites A-GT-05)
    flow = tree / "sim/galileos_truth/rules/flow.py"
    _edit(flow, "from ..pcols import (", "from ..pcols import (PRM_SETUP_BONUS_COINS, ")
    text = flow.read_text()
    flow.write_text(text.replace("        S.seat[g, p, NSLOTS] = nbasic\n",
                                 "        S.seat[g, p, NSLOTS] = nbasic\n        S.seat[g, p, COINS] += prm[PRM_SETUP_BONUS_COINS]\n", 1))
    assert _changed(before, _files(tree)) == ["sim/galileos_truth/params.py", "sim/galileos_truth/rules/flow.py"]

    wrote = _generate(tree, tmp_path, env)
    # derived: the column constants and the plausible-range table of the rules doc
    assert wrote == ["docs/rules/galileos_truth.md", "sim/galileos_truth/pcols.py"]
    assert "| `setup_bonus_coins` | A-GT-05 | 0 | 0..2 | A small start bonus" in (
        tree / "docs/rules/galileos_truth.md").read_text()

    probe = """
import json
import numpy as np
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.galileos_truth.engine import GalileosTruth
from meeplelab.sim.galileos_truth.params import Params
from meeplelab.sim.plausible import load_plausible
ids = np.arange(3)
base = GalileosTruth().init(ids, 5, 3)
new = GalileosTruth(apply_overrides(Params(), {"setup_bonus_coins": "2"})).init(ids, 5, 3)
print(json.dumps({"base": base.coins.tolist(), "new": new.coins.tolist(),
                  "range": load_plausible(GalileosTruth)["setup_bonus_coins"].text()}))
"""
    env = dict(env, NUMBA_DISABLE_JIT="1")  # a full compile of the engine is not the point here: the rules run as Python
    r = _run(["-c", probe], tmp_path, env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["range"] == "0..2"
    assert np.asarray(out["new"]).tolist() == (np.asarray(out["base"]) + 2).tolist()
    assert min(min(row) for row in out["base"]) >= 0

