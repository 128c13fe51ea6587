"""One import name: the wheel installs only ``meeplelab`` (and its console script), and the package
list in pyproject.toml names every package folder of the tree."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_lists_every_package_folder_under_meeplelab():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapping, listed = cfg["package-dir"], set(cfg["packages"])
    found = {"meeplelab"}
    for name, folder in mapping.items():
        if name == "meeplelab":
            continue
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *rel)))
    assert found == listed
    assert all(n == "meeplelab" or n.startswith("meeplelab.") for n in listed)


def test_the_face_is_light_and_names_its_api():
    out = subprocess.run([sys.executable, "-c", "import sys, meeplelab; print(meeplelab.__version__); "
                          "print(sorted(m for m in sys.modules if m.startswith('meeplelab') or m == 'numba'))"],
                         capture_output=True, text=True, check=True, cwd="/")
    version, mods = out.stdout.splitlines()
    assert version == "0.1.0" and mods == "['meeplelab']"  # nothing compiled or imported on `import meeplelab`
    import meeplelab

    assert meeplelab.simulate.__module__ == "meeplelab.play.runner"
    with pytest.raises(AttributeError, match="the public API: RunConfig"):
        meeplelab.nope


@pytest.mark.slow
def test_the_wheel_installs_only_meeplelab(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                    str(ROOT)], check=True, capture_output=True, timeout=600)
    (wheel,) = tmp_path.glob("meeplelab-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"meeplelab", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"}
    for must in ("meeplelab/cli.py", "meeplelab/sim/core/data/play_module.py.tmpl", "meeplelab/play/runner.py",
                 "meeplelab/studies/balance.py", "meeplelab/sim/galileos_truth/data/board.toml", "meeplelab/analysis/templates/report.css",
                 "meeplelab/presets/galileos-truth-heuristic-tuned.toml", "meeplelab/presets/unconscious-mind-heuristic-tuned.toml"):
        assert must in names
    entry = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "meeplelab = meeplelab.cli:main" in entry
    # installed into a target folder, the wheel imports itself with nothing of the checkout on the path
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=600)
    assert sorted(p.name for p in target.iterdir() if not p.name.endswith(".dist-info")) in (["bin", "meeplelab"], ["meeplelab"])
    # the strong field's tuned preset (meeplelab stronger, --field strong) is found in the installed copy
    pre = subprocess.run([sys.executable, "-c", "from meeplelab.strategies.fields import tuned_preset; "
                          "print(tuned_preset('galileos-truth'))"], env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert pre.stdout.strip() == str(target / "meeplelab/presets/galileos-truth-heuristic-tuned.toml"), pre.stderr[-2000:]
    got = subprocess.run([sys.executable, "-c", "import meeplelab.sim.core.source as s, meeplelab.cli as c; "
                          "print(s.module_file('meeplelab.sim.galileos_truth.state')); print(c.__file__); "
                          "import meeplelab.analysis.pages as p; print(p.environment().get_template('report.html.j2').filename)"],
                         env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr[-2000:]
    state, cli, template = got.stdout.splitlines()
    assert template == str(target / "meeplelab/analysis/templates/report.html.j2")  # the report's templates load
    assert state == str(target / "meeplelab/sim/galileos_truth/state.py") and cli == str(target / "meeplelab/cli.py")
