"""One import name: the repository's folders ``sim/``, ``strategies/``, ``play/``, ``analysis/`` and ``studies/`` are the
packages ``meeplelab.sim`` ... (``pyproject.toml`` package-dir). With a source checkout on ``sys.path`` (pytest's
rootdir, a script run from the checkout) the old top-level names would load a second copy of the engine beside
``meeplelab.sim``, whose ``IllegalActionError`` an ``except`` of the engine's class would miss; each folder refuses
its old name in one line saying what to import, and everything under ``meeplelab`` (pytest, the tools) works."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OLD_NAMES = ("sim", "strategies", "play", "analysis", "studies")


@pytest.mark.parametrize("name", OLD_NAMES)
def test_an_old_top_level_name_is_refused_in_one_line_naming_the_import(name):
    assert str(ROOT) in sys.path  # the checkout is on sys.path here (tests/conftest.py)
    for target in (name, f"{name}.__nothing__"):
        with pytest.raises(ImportError) as e:
            importlib.import_module(target)
        msg = str(e.value)
        assert msg.startswith(f"import meeplelab.{name}, not {name}: the folder {name}/ is installed as "
                              f"meeplelab.{name}") and "\n" not in msg, msg
        assert name not in sys.modules
    assert importlib.import_module(f"meeplelab.{name}").__name__ == f"meeplelab.{name}"


@pytest.mark.slow
def test_from_the_checkout_the_engines_errors_are_caught_by_meeplelabs_class_and_tools_run(tmp_path):
    """A script run from the checkout's folder (the folder first on ``sys.path``): ``from sim.core.errors import
    IllegalActionError`` fails in one line, the engine's error is caught by ``meeplelab.sim.core.errors``'s class, and
    a tool (``python -m meeplelab.sim.core.layout``) writes the same constants module as the checkout holds."""
    script = tmp_path / "probe.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "try:\n"
        "    from sim.core.errors import IllegalActionError\n"
        "except ImportError as e:\n"
        "    print('refused:', e)\n"
        "from meeplelab.sim.core.errors import IllegalActionError\n"
        "from meeplelab.sim.core.position import Position\n"
        "from tests.toygame import ToyGame\n"
        "pos = Position.start(ToyGame(), players=1, seed=2)\n"
        "while not pos.over():\n"
        "    pos.act('stop')\n"
        "try:\n"
        "    pos.act(0)\n"
        "except IllegalActionError as e:\n"
        "    print('caught:', e)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sim', 'strategies', 'play', 'analysis', "
        "'studies')))\n")
    run = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    refused = ("refused: import meeplelab.sim, not sim: the folder sim/ is installed as meeplelab.sim (imported as sim "
               "it is a second copy, whose errors and classes are not meeplelab's)")
    assert lines == [refused, "caught: action 0: the game is over", "[]"], run.stdout
    out = tmp_path / "cols.py"
    tool = subprocess.run([sys.executable, "-m", "meeplelab.sim.core.layout",
                           "meeplelab.sim.galileos_truth.state:LAYOUT", str(out)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert tool.returncode == 0, tool.stderr[-3000:]
    written = out.read_text().replace(str(out), "sim/galileos_truth/cols.py")  # the header names the path given
    assert written == (ROOT / "sim" / "galileos_truth" / "cols.py").read_text()
