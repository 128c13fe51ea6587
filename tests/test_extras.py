"""A light install: ``pip install meeplelab`` is what the main job needs; OpenSpiel, Dask, the RL environments and
Jupyter are extras, and a feature whose extra is missing says so in one line (exit 2), before anything is written.

Each check runs in a child process that cannot import the extras' modules (:mod:`tests.no_extras`), as on a bare
install. The main job itself runs there too: ``tests/test_readme_commands.py``.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from meeplelab.sim.core.extras import EXTRAS, MissingExtra, message, require

from tests import no_extras

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _names(reqs: list[str]) -> set[str]:
    """The distribution names of requirement strings (``"dask[distributed]>=2024.1"`` -> ``dask``)."""
    return {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower().replace("_", "-") for r in reqs}


def test_the_extras_are_declared_and_none_of_their_packages_is_a_dependency():
    extras = PROJECT["optional-dependencies"]
    assert set(EXTRAS) <= set(extras), "an extra of sim/core/extras.py is not declared in pyproject.toml"
    assert _names(extras["openspiel"]) == {"open-spiel", "networkx"}
    assert _names(extras["dask"]) == {"dask"} and "distributed" in extras["dask"][0]
    assert _names(extras["rl"]) == {"pettingzoo", "gymnasium"}
    assert _names(extras["notebooks"]) >= {"jupyterlab", "ipykernel"}
    hard = _names(PROJECT["dependencies"])
    for name in ("open-spiel", "networkx", "dask", "distributed", "pettingzoo", "gymnasium", "jupyterlab"):
        assert name not in hard, f"{name} is a hard dependency"
    assert "pandas" in hard  # the tables handed over on request (meeplelab.load_table(..., as_pandas=True))


def test_the_test_extra_installs_every_other_extra_so_ci_tests_everything():
    test = PROJECT["optional-dependencies"]["test"]
    own = [r for r in test if r.startswith("meeplelab[")]
    assert len(own) == 1
    assert set(own[0][len("meeplelab["):-1].split(",")) == set(EXTRAS)


def test_require_names_the_extra_and_the_command_that_installs_it(monkeypatch):
    assert message("dask", "--backend dask") == "--backend dask needs the dask extra: pip install 'meeplelab[dask]'"
    require("dask", "--backend dask")  # installed here: nothing raised
    monkeypatch.setitem(EXTRAS, "dask", ("dask", "no_such_module_meeplelab"))
    with pytest.raises(MissingExtra, match=r"^--backend dask needs the dask extra: pip install 'meeplelab\[dask\]'$"):
        require("dask", "--backend dask")


def _cli(args: list[str], tmp_path: Path, extras=None):
    return no_extras.run(["-m", "meeplelab.cli", *args], cwd=tmp_path, extras=extras)


@pytest.mark.slow
@pytest.mark.parametrize("scheduler", [["--scheduler", "tcp://127.0.0.1:8786"], []], ids=["scheduler", "none"])
def test_backend_dask_without_the_dask_extra_is_one_line_and_writes_nothing(tmp_path, scheduler):
    res = _cli(["simulate", "--game", "galileos-truth", "--games", "8", "--backend", "dask", *scheduler,
                "--out", "run"], tmp_path, extras=["dask"])
    assert res.returncode == 2, res.stderr
    assert res.stderr == "error: --backend dask needs the dask extra: pip install 'meeplelab[dask]'\n"
    assert res.stdout == "" and not (tmp_path / "run").exists()


@pytest.mark.slow
def test_a_study_on_dask_without_the_dask_extra_is_the_same_line(tmp_path):
    res = _cli(["tune", "--game", "galileos-truth", "--against", "writer", "--budget", "8", "--backend", "dask",
                "--scheduler", "tcp://127.0.0.1:8786", "--out", "tune"], tmp_path, extras=["dask"])
    assert res.returncode == 2, res.stderr
    assert res.stderr == "error: --backend dask needs the dask extra: pip install 'meeplelab[dask]'\n"
    assert not (tmp_path / "tune").exists()


@pytest.mark.slow
def test_a_tournament_without_openspiel_says_so_before_any_game(tmp_path):
    res = _cli(["tournament", "--game", "galileos-truth", "--strategies", "writer,random", "--games", "8",
                "--out", "t"], tmp_path, extras=["openspiel"])
    assert res.returncode == 2, res.stderr
    assert res.stderr == ("error: the tournament report (its metagame; --no-report plays without it) needs the "
                          "openspiel extra: pip install 'meeplelab[openspiel]'\n")
    assert not (tmp_path / "t").exists()


@pytest.mark.slow
def test_the_metagame_without_openspiel_raises_the_one_line():
    code = """
import numpy as np
from meeplelab.analysis.metagame import PayoffTable, alpha_rank, symmetric_nash
from meeplelab.sim.core.extras import MissingExtra
t2 = PayoffTable(["a", "b"], 2, np.array([[2, 0], [1, 1], [0, 2]]), np.array([[.5, np.nan], [.6, .4], [np.nan, .5]]),
                 np.array([[0, 0], [10, 10], [0, 0]]))
t3 = PayoffTable(["a", "b"], 3, np.array([[3, 0], [2, 1], [1, 2], [0, 3]]),
                 np.array([[1/3, np.nan], [.3, .4], [.35, .3], [np.nan, 1/3]]), np.array([[0, 0], [9, 9], [9, 9], [0, 0]]))
print(symmetric_nash(t2).round(3).tolist())  # 2 seats: a linear program, no OpenSpiel
for f, t in ((alpha_rank, t2), (symmetric_nash, t3)):
    try:
        f(t)
    except MissingExtra as e:
        print(e)
"""
    res = no_extras.run(["-c", code], cwd=ROOT, extras=["openspiel"])
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 3 and lines[0].startswith("[")
    assert lines[1] == lines[2] == ("a tournament's metagame (Nash mix, alpha-rank; meeplelab report TOURNAMENT) "
                                    "needs the openspiel extra: pip install 'meeplelab[openspiel]'")


WALK = """
import importlib, pkgutil, re
from pathlib import Path
import meeplelab
names = ["meeplelab." + p.stem for p in sorted(Path(meeplelab.__file__).parent.glob("*.py")) if p.stem != "__init__"]
for pkg in ("sim", "strategies", "play", "analysis", "studies", "benchmarks"):
    mod = importlib.import_module("meeplelab." + pkg)
    names += [m.name for m in pkgutil.walk_packages(mod.__path__, mod.__name__ + ".")]
said = re.compile(r"needs the (\\w+) extra: pip install 'meeplelab\\[(\\w+)\\]'$")
for n in names:
    try:
        importlib.import_module(n)
        print("ok", n)
    except Exception as e:
        m = said.search(str(e))
        print("extra" if m and m.group(1) == m.group(2) and "\\n" not in str(e) else "FAILED", n, repr(e))
"""


@pytest.mark.slow
def test_every_module_imports_without_the_extras_or_says_which_to_install():
    res = no_extras.run(["-c", WALK], cwd=ROOT)
    assert res.returncode == 0, res.stderr
    rows = [ln.split(" ", 2) for ln in res.stdout.splitlines()]
    assert len(rows) > 150 and {"meeplelab.cli", "meeplelab.play.runner", "meeplelab.analysis.report",
                                "meeplelab.studies.stronger"} <= {r[1] for r in rows if r[0] == "ok"}
    assert [r for r in rows if r[0] not in ("ok", "extra")] == []
