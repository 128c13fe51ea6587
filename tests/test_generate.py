"""One regeneration command (issue 25 item 2): ``python -m meeplelab.sim.core.generate`` writes every generated module
of every engine from any folder, run as a real subprocess; no generator imports the package it writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ["meeplelab.sim.galileos_truth", "meeplelab.sim.unconscious_mind", "tests.toy"]
GENERATED = ["sim/galileos_truth/cols.py", "sim/galileos_truth/rules/dispatch.py", "sim/galileos_truth/choice.py",
             "sim/galileos_truth/lookahead.py", "sim/galileos_truth/play.py", "sim/unconscious_mind/cols.py",
             "sim/unconscious_mind/kcols.py", "sim/unconscious_mind/rules/dispatch.py", "sim/unconscious_mind/choice.py",
             "sim/unconscious_mind/lookahead.py", "sim/unconscious_mind/play.py", "tests/toy/cols.py",
             "tests/toy/dispatch.py", "tests/toy/choice.py", "tests/toy/lookahead.py", "tests/toy/play.py"]


def _face(tree):
    """The package face and pyproject.toml beside a copied ``sim/``: the copy imports itself as ``meeplelab.sim``."""
    (tree / "meeplelab").mkdir(parents=True)
    shutil.copy(ROOT / "meeplelab" / "__init__.py", tree / "meeplelab")
    shutil.copy(ROOT / "pyproject.toml", tree)


def _run(args, cwd, env=None):
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_check_from_another_folder_finds_every_engine_current(tmp_path):
    r = _run(["-m", "meeplelab.sim.core.generate", "--check"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"current: every generated module of {', '.join(ENGINES)}"


def test_the_command_writes_every_module_in_a_tree_whose_written_modules_are_missing(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "sim", tree / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    _face(tree)
    (tree / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "__init__.py", tree / "tests")
    shutil.copytree(ROOT / "tests" / "toy", tree / "tests" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    for rel in GENERATED:  # the packages import these: a generator that imported its package could not start
        (tree / rel).unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["NUMBA_DISABLE_JIT"] = "1"  # nothing is compiled: the generators only read declarations
    r = _run([str(tree / "sim" / "core" / "generate.py")], elsewhere, env)
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()[1::2]) == sorted(GENERATED)
    for rel in GENERATED:
        assert (tree / rel).read_text() == (ROOT / rel).read_text(), rel
    again = _run([str(tree / "sim" / "core" / "generate.py"), "--check"], elsewhere, env)
    assert again.returncode == 0 and again.stdout.startswith("current:")
    stamp = (tree / GENERATED[0]).stat().st_mtime_ns
    _run([str(tree / "sim" / "core" / "generate.py")], elsewhere, env)
    assert (tree / GENERATED[0]).stat().st_mtime_ns == stamp  # an unchanged module is not rewritten (numba's cache)


def test_check_names_a_stale_module_and_exits_1(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "sim", tree / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    _face(tree)
    (tree / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "__init__.py", tree / "tests")
    shutil.copytree(ROOT / "tests" / "toy", tree / "tests" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    with open(tree / "tests" / "toy" / "cols.py", "a") as f:
        f.write("# edited by hand\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = _run([str(tree / "sim" / "core" / "generate.py"), "--check", "tests.toy"], tmp_path, env)
    assert r.returncode == 1 and r.stdout.strip() == "stale: tests/toy/cols.py"
    assert r.stderr.strip() == "run: python -m meeplelab.sim.core.generate"
    bad = _run([str(tree / "sim" / "core" / "generate.py"), "meeplelab.sim.nosuch"], tmp_path, env)
    assert bad.returncode == 2 and bad.stderr.strip() == (
        f"error: 'meeplelab.sim.nosuch' is not an engine package with a generate.toml: allowed {', '.join(ENGINES)}")


def test_the_single_layout_command_runs_as_a_module(tmp_path):
    """``python -m meeplelab.sim.core.layout module:LAYOUT path`` failed for every layout ("no Layout named ..."): run as
    ``__main__`` the module defined a second Layout class. A relative path is the tree's, from any folder."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "sim", tree / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    _face(tree)
    shutil.copy(ROOT / "tests" / "__init__.py", (tree / "tests").mkdir() or tree / "tests")
    shutil.copytree(ROOT / "tests" / "toy", tree / "tests" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tree)  # the copy, never the checkout: no test rewrites the tree it runs from
    for ref, written in (("meeplelab.sim.galileos_truth.state:LAYOUT", "sim/galileos_truth/cols.py"),
                         ("meeplelab.sim.unconscious_mind.content_layout:CONTENT", "sim/unconscious_mind/kcols.py"),
                         ("tests.toy.state:LAYOUT", "tests/toy/cols.py")):
        (tree / written).unlink()
        r = _run(["-m", "meeplelab.sim.core.layout", ref, written], tmp_path, env)
        assert r.returncode == 0, r.stderr
        assert not (tmp_path / written).exists()
        assert (tree / written).read_text() == (ROOT / written).read_text()
