"""What every benchmark part shares: the measured :class:`Row`, the benchmark strategies, the checkout's root and
the source tree of an earlier commit (:func:`baseline_tree`), below :mod:`meeplelab.benchmarks.bench` and its parts
(``search_bench``, ``composite_bench``, ``startup_bench``)."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: scripted strategies per game for the throughput figures, seat by seat; cycled when fewer
BENCH_STRATEGY = {
    "unconscious-mind": ("coffee-engine", "publisher", "citer", "curer"),
    "galileos-truth": ("writer", "observer", "inventor", "never-abjure"),
    "toy": ("bank-at:n=4", "random"),
}


@dataclass
class Row:
    """One measurement: ``games`` played in ``seconds`` (wall time) by one configuration; ``extra`` holds the part's
    own figures (ratios, bytes, paths)."""

    game: str
    measure: str
    players: int
    batch: int
    n_jobs: int
    logs: bool
    games: int
    seconds: float
    extra: dict = field(default_factory=dict)

    @property
    def gps(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")


def _strategy(game: str, players: int = 4) -> str:
    """Comma-separated strategy ids for ``players`` seats."""
    ids = BENCH_STRATEGY.get(game, ("random",))
    return ",".join(ids[i % len(ids)] for i in range(players))


#: the last commit before compiled play: its Python-loop path, scripted plans as numpy priority lists (strategies/priority.py) stepped by the Python loop over
#: batch rule kernels of that day. The ``baseline`` part plays it in the same run as compiled play.
PRE_COMPILED_BASE = "26d39a8bee851afe7978da54d157b4305fb669fc"
BASELINE_DIR = ROOT / ".bench"


def baseline_tree(sha: str = PRE_COMPILED_BASE, repo: Path = ROOT, into: Path = BASELINE_DIR) -> Path:
    """The source tree of commit ``sha`` of ``repo``, unpacked once into ``into/<sha[:12]>`` (``git archive``;
    kept between bench runs, with its numba cache).

    Raises:
        SystemExit: (exit 2, one line on stderr) when ``sha`` is not in ``repo``'s history (a shallow clone or an export without
            ``.git``) or git is missing.
    """
    tree = Path(into) / sha[:12]
    if (tree / ".complete").is_file():
        return tree
    for f in (Path(into), tree):
        if f.exists() and not f.is_dir():
            _refuse(f"bench part 'baseline' unpacks commit {sha[:12]} into {tree}, but {f} is a file: move it away")
    try:
        res = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", sha], capture_output=True,
                             check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        err = getattr(e, "stderr", b"") or str(e).encode()
        _refuse(f"bench part 'baseline' needs commit {sha[:12]} in the git history of {repo} (a full clone; "
                f"or leave the part out): {(err.decode(errors='replace').strip().splitlines() or ['git failed'])[-1]}")
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(res.stdout)) as tar:
        tar.extractall(tree, filter="data")
    (tree / ".complete").write_text(sha + "\n")
    return tree


def _refuse(line: str) -> None:
    """Bad input: one line on stderr, exit 2."""
    print(line, file=sys.stderr)
    raise SystemExit(2)


