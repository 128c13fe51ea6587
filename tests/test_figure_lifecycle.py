"""Clean library behaviour of the charts: importing the analysis code leaves the
caller's matplotlib backend alone, and a report build that fails leaves no figure open."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from meeplelab.play.config import RunConfig
from meeplelab.sim.core.errors import RunFolderError
from meeplelab.play.runner import simulate

ROOT = Path(__file__).resolve().parents[1]


def test_importing_the_analysis_code_keeps_the_callers_backend():
    code = ("import matplotlib; matplotlib.use('svg')\n"
            "import meeplelab.analysis.figures, meeplelab.analysis.report, meeplelab.analysis.sweep, meeplelab.analysis.unconscious_mind, "
            "meeplelab.analysis.galileos_truth\n"
            "from meeplelab.analysis.figures import histogram\n"
            "fig = histogram([1, 2, 2, 3], title='t', xlabel='turns')\n"
            "import matplotlib.pyplot as plt\n"
            "print(matplotlib.get_backend(), len(plt.get_fignums()), type(fig).__module__)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("MPLBACKEND", None)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["svg", "0", "matplotlib.figure"]


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("fig") / "run"
    simulate(RunConfig(game="toy", players=3, strategies=("random",), games=60, seed=5, batch_size=60, n_jobs=1,
                       out=str(out)))
    return out


def test_a_failing_report_build_leaves_no_figure_open(toy_run, tmp_path):
    from meeplelab.analysis.report import build_report

    plt.close("all")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for _ in range(2):  # neither failed build leaves a report figure open
        with pytest.raises(RunFolderError, match="cannot write the report"):
            build_report([toy_run], blocker / "report")
    assert plt.get_fignums() == []
    # a failure while the page is written (a table that is not a table): figures saved so far and
    # those not yet saved are all released
    from meeplelab.analysis import figures as F
    from meeplelab.analysis.page import Section

    made = []

    def sections(runs):
        a = F.histogram([1, 2, 3], title="a", xlabel="turns")
        b = F.histogram([1, 2, 3], title="b", xlabel="turns")
        made.extend([a, b])
        return [Section("one", "", [("a", a, "a")]), Section("two", "", [("b", b, "b")], [("bad", None)])]

    with pytest.raises(AttributeError):
        build_report([toy_run], tmp_path / "rep", sections=sections)
    assert plt.get_fignums() == []
    assert all(f.axes == [] for f in made)  # released (cleared), also the one written before the failure
    assert not (tmp_path / "rep").exists()
