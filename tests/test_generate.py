"""One regeneration command: ``python -m meeplelab.sim.core.generate`` writes every generated module
of every engine from any folder, run as a real subprocess; no generator imports the package it writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ["meeplelab.sim.galileos_truth", "meeplelab.sim.unconscious_mind", "tests.toy"]
GENERATED = ["sim/galileos_truth/cols.py", "sim/galileos_truth/pcols.py", "sim/unconscious_mind/pcols.py", "tests/toy/pcols.py", "sim/galileos_truth/rules/dispatch.py", "sim/galileos_truth/choice.py",
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


def _copy(tmp_path):
    """A copy of the tree (``sim/``, the package face, the toy engine): no test rewrites the checkout it runs from."""
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "sim", tree / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    _face(tree)
    (tree / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "__init__.py", tree / "tests")
    shutil.copytree(ROOT / "tests" / "toy", tree / "tests" / "toy", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tree)
    return tree, env


def test_the_module_form_detects_a_stale_module_of_a_real_engine_from_any_folder(tmp_path):
    """``python -m meeplelab.sim.core.generate --check`` (the documented form, not the script path) from a folder
    outside the tree names a hand-edited written module of a real engine and exits 1; writing repairs it."""
    tree, env = _copy(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    stale_file = tree / "sim" / "unconscious_mind" / "rules" / "dispatch.py"
    stale_file.write_text(stale_file.read_text().replace("def legal", "def  legal", 1))
    r = _run(["-m", "meeplelab.sim.core.generate", "--check"], elsewhere, env)
    assert r.returncode == 1, r.stderr
    assert r.stdout.strip() == "stale: sim/unconscious_mind/rules/dispatch.py"
    fixed = _run(["-m", "meeplelab.sim.core.generate"], elsewhere, env)
    assert fixed.returncode == 0 and fixed.stdout.strip() == "wrote sim/unconscious_mind/rules/dispatch.py", fixed.stderr
    assert stale_file.read_text() == (ROOT / "sim/unconscious_mind/rules/dispatch.py").read_text()
    again = _run(["-m", "meeplelab.sim.core.generate", "--check"], elsewhere, env)
    assert again.returncode == 0 and again.stdout.startswith("current:"), again.stdout + again.stderr


def test_no_generator_imports_the_package_it_writes(tmp_path):
    """After every generator has run, none of the engine packages (whose ``__init__`` imports the written modules)
    nor any written module is imported: the declarations were read from their source files alone."""
    probe = ("import sys; from meeplelab.sim.core import generate as g; "
             "assert not g.stale(g.engine_packages()); "
             "print('\\n'.join(sorted(m for m in sys.modules if m.startswith(('meeplelab', 'tests')))))")
    r = _run(["-c", probe], tmp_path)
    assert r.returncode == 0, r.stderr
    loaded = set(r.stdout.split())
    assert "meeplelab.sim.galileos_truth.state" in loaded  # the declarations were read ...
    written = {"cols", "kcols", "dispatch", "choice", "lookahead", "play"}
    for pkg in ENGINES:  # ... but neither the package nor anything it writes was imported
        assert pkg not in loaded, pkg
        assert not [m for m in loaded if m.startswith(pkg + ".") and m.rsplit(".", 1)[1] in written], pkg


def test_the_single_purpose_commands_write_the_same_files_from_any_folder(tmp_path):
    """The two other single-purpose commands the engine guide names, run as modules from outside the tree."""
    tree, env = _copy(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for rel in ("tests/toy/dispatch.py", "sim/galileos_truth/rules/dispatch.py"):
        (tree / rel).unlink()
    for mod in ("tests.toy.decisions", "meeplelab.sim.galileos_truth.rules.decisions"):
        r = _run(["-m", "meeplelab.sim.core.decisions", mod], elsewhere, env)
        assert r.returncode == 0, r.stderr
    for pkg, rels in (("tests.toy", ("tests/toy/choice.py", "tests/toy/lookahead.py", "tests/toy/play.py")),
                      ("meeplelab.sim.unconscious_mind", ("sim/unconscious_mind/choice.py",
                                                          "sim/unconscious_mind/lookahead.py",
                                                          "sim/unconscious_mind/play.py"))):
        for rel in rels:
            (tree / rel).unlink()
        r = _run(["-m", "meeplelab.sim.core.compiled", pkg], elsewhere, env)
        assert r.returncode == 0, r.stderr
    assert not list(elsewhere.iterdir())  # nothing landed in the working folder
    check = _run(["-m", "meeplelab.sim.core.generate", "--check"], elsewhere, env)
    assert check.returncode == 0, check.stdout + check.stderr
