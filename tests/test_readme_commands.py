"""The README is tested: its main job (section "Set up") runs as written after a bare ``pip install`` (no extra
importable: :mod:`tests.no_extras`), then every command line of its section "Use" runs, in order, in the same folder
(``runs/gt/2p`` and the rest are the folders the main job wrote), on small sizes: each command's size options
(:data:`SMALL`) are set small, everything else is as written.

The lines are read from README.md itself, so a line that stops working, or a new line, is tested as it stands.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()

#: per command, the options set small for CI (replaced where the line has them, else added); n-jobs 1 keeps the
#: shared machine's cores free (the games do not depend on it)
SMALL: dict[str, dict[str, str]] = {
    "simulate": {"--games": "24", "--n-jobs": "1"},
    "tournament": {"--games": "8", "--n-jobs": "1"},
    "sweep": {"--games": "24", "--n-jobs": "1"},
    "experiment": {"--games": "24", "--n-jobs": "1"},
    "content-value": {"--games": "24", "--n-jobs": "1"},
    "stronger": {"--games": "8", "--mirror-games": "8", "--n-jobs": "1"},
    "tune": {"--budget": "64", "--games-per-trial": "8", "--eval-games": "8", "--n-jobs": "1"},
    "ladder": {"--budget": "4", "--start-iters": "2", "--games-per-rung": "8", "--n-jobs": "1"},
    # the smallest Morris design of Galileo's Truth's 30 factors (63 points of 25 lineups x 1 game)
    "robustness": {"--budget": "1600", "--games-per-lineup": "1", "--sobol-max": "1", "--n-jobs": "1"},
    "balance": {"--trials": "2", "--games-per-lineup": "2", "--recheck": "1", "--n-jobs": "1"},
    "compare": {"--games": "24", "--n-jobs": "1"},
    "exchange-rates": {"--games": "12", "--units": "1", "--n-jobs": "1"},
    "compensate": {"--games": "24", "--iterations": "2", "--verify-factor": "1", "--n-jobs": "1"},
    "bench": {"--only": "profile", "--quick": "", "--games": "galileos-truth"},
    "meeplelab.benchmarks.fuzz": {"--games": "100"},
}
#: the options of a line the settings file it names already gives (adding them would override the file)
FROM_CONFIG = ("--games", "--n-jobs")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end]


def use_lines() -> list[str]:
    """The command lines of the section "Use", continuation lines joined and comments dropped."""
    (block,) = re.findall(r"```bash\n(.*?)```", section("Use"), re.S)
    lines = []
    for line in block.replace("\\\n", " ").splitlines():
        cmd = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
        if cmd:
            lines.append(cmd)
    return lines


def main_job() -> list[str]:
    """The main job of the section "Set up": its commands after the virtualenv and the install."""
    block = next(b for b in re.findall(r"```bash\n(.*?)```", section("Set up"), re.S) if "meeplelab simulate" in b)
    steps = [s.strip() for s in block.strip().split(" && ")]
    assert steps[:3] == ["python3 -m venv .venv", ". .venv/bin/activate", "pip install ."], steps[:3]
    return steps[3:]


def small(cmd: str) -> str:
    """``cmd`` with the size options of its command set small (:data:`SMALL`)."""
    words = shlex.split(cmd, posix=False)
    if words[0] == "meeplelab":
        name = words[1]
    elif words[:2] == ["python", "-m"]:
        name = words[2]
    else:
        return cmd
    for opt, value in SMALL.get(name, {}).items():
        if opt in FROM_CONFIG and "--config" in words:
            continue
        if opt in words:
            i = words.index(opt)
            if value:
                words[i + 1] = value
        else:
            words += [opt, value] if value else [opt]
    return " ".join(words)


MARK = "@@ README line: "


def run_script(lines: list[str], cwd: Path, env: dict, timeout: float) -> subprocess.CompletedProcess:
    """The lines as one bash script (stopping at the first that fails, which it echoes), in ``cwd``."""
    script = "set -e\n" + "".join(f"echo {shlex.quote(MARK + ln)}\n{ln}\n" for ln in lines)
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)


def test_the_lines_are_read_from_the_readme_and_set_small():
    lines = use_lines()
    assert lines[0] == "meeplelab games" and len(lines) >= 30
    assert "meeplelab simulate --config runs/gt/2p/run.toml --out runs/gt-again" in lines  # a folder the main job writes
    assert small("meeplelab sweep --game g --games 4800 --out runs/s") == \
        "meeplelab sweep --game g --games 24 --out runs/s --n-jobs 1"
    assert small("meeplelab sweep --config runs/s/config.toml --out runs/s2") == \
        "meeplelab sweep --config runs/s/config.toml --out runs/s2"
    job = main_job()
    # every kernel the job plays, compiled up front; -P: the installed package's kernels (what the meeplelab commands
    # run), not the checkout's folders, which the job's own folder would put first on the path
    assert job[0] == "python -P -m meeplelab.play.warmup --heuristic"
    assert job[1].startswith("S=") and job[-1].startswith("meeplelab report runs/gt/2p runs/gt/3p runs/gt/4p")
    assert sum(s.startswith("meeplelab ") for s in job) == 17


def _env(tmp_path: Path) -> dict:
    """The test's environment: the installed ``meeplelab`` on the PATH, ``$EDITOR`` editing one card (the content-pack
    line), the checkout's ``sim/`` reachable from the folder (that line copies ``sim/galileos_truth/data``)."""
    editor = tmp_path / "edit-one-card"
    editor.write_text("#!/bin/sh\nsed -i '0,/^books = 1$/s//books = 2/' \"$1\"\n")
    editor.chmod(0o755)
    (tmp_path / "sim").symlink_to(ROOT / "sim")
    env = {**os.environ, "EDITOR": str(editor), "MEEPLELAB_PROGRESS": "0"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


@pytest.mark.slow
def test_the_main_job_runs_without_any_extra_then_every_use_line_runs(tmp_path):
    from distributed import LocalCluster

    env = _env(tmp_path)
    # the main job as after a bare `pip install .`: meeplelab runs in a process that cannot import any extra
    bare = {**env, "PYTHONPATH": str(ROOT)}
    shim = f'meeplelab() {{ {shlex.quote(sys.executable)} -m tests.no_extras -m meeplelab.cli "$@"; }}'
    res = run_script([shim, *map(small, main_job())], tmp_path, bare, timeout=3600)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    for d in ("runs/um/report/report.html", "runs/gt/report/report.html", "runs/um-stronger", "runs/gt-stronger",
              "runs/gt/2p/run.toml", "runs/um-citing/report"):
        assert (tmp_path / d).exists(), d
    (tmp_path / "mybot.py").write_text(_strategies_doc_bot())
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        lines = [small(ln).replace("tcp://HOST:8786", cluster.scheduler_address) for ln in use_lines()]
        res = run_script(lines, tmp_path, env, timeout=5400)
    finally:
        cluster.close()
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert [ln[len(MARK):] for ln in res.stdout.splitlines() if ln.startswith(MARK)] == lines  # every line ran
    for d in ("runs/gt3/manifest.json", "runs/gt-again/manifest.json", "runs/gt3-dask/manifest.json",
              "runs/t/report/report.html", "runs/tune/preset.toml", "runs/mine/manifest.json", "runs/compare",
              "runs/sweep2/sweep.json", "packs/v2/treatises.toml", "RESULTS.md", "results.json"):
        assert (tmp_path / d).exists(), d
    again = (tmp_path / "runs/gt-again/games").glob("*.parquet")
    first = (tmp_path / "runs/gt/2p/games").glob("*.parquet")
    assert sorted(p.read_bytes() for p in again) == sorted(p.read_bytes() for p in first)  # repeated exactly


def _strategies_doc_bot() -> str:
    """The bot file of docs/strategies.md ("Your own bot from a file"), which the README's mybot.py line plays."""
    text = (ROOT / "docs" / "strategies.md").read_text()
    part = text[text.index("## Your own bot from a file"):text.index("## Your own strategy")]
    return re.findall(r"```python\n(.*?)```", part, re.S)[0]
