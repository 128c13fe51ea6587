import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

try:
    import tests.toygame  # noqa: E402,F401  registers the test-only game "toy"
except ImportError as e:  # a kernel imports a constant or handler a stale written module lacks
    raise ImportError(f"{e}; if a written module of tests/toy (cols.py, dispatch.py, play.py...) is stale, rewrite "
                      "every written module: python -m meeplelab.sim.core.generate") from e
import tests.toy_robust  # noqa: E402,F401  registers "toy-robust" (robustness tests), in every worker alike


import pytest  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def no_worker_process_outlives_the_suite():
    """When this test process's session ends (each pytest-xdist worker's too): loky's reusable executor is shut
    down and its resource tracker stopped, and no child process may be left (``tests/processes.py``)."""
    yield
    from tests.processes import end_workers

    left = end_workers()
    assert not left, f"child processes still running after the suite: {left}"


#: test files of minutes each (a whole README main job, every notebook, every report in a browser, every command
#: twice), with their seconds on CI's 2 workers (each file's first to last test on its worker: the README's from the
#: run of 339624a, 22 min 15 s, its own CPU about 260 s: 96 for the main job, 162 for the lines of "Use"; the
#: others from the 2026-12-07 run of 21 min 57 s): laid out so that each pytest-xdist worker starts on its share
#: of them (:func:`worker_shares`), the rest after
LONGEST_FIRST = {
    "tests/test_readme_commands.py": 322, "tests/test_bit_identical.py": 105, "tests/test_report_layout.py": 140,
    "tests/test_notebooks.py": 45,
}


def worker_shares(files: dict[str, float], workers: int) -> list[list[str]]:
    """``files`` (path: seconds) dealt to ``workers`` workers, the longest first, each to the worker with the fewest
    seconds so far; returns each worker's files."""
    shares: list[list[str]] = [[] for _ in range(max(workers, 1))]
    load = [0.0] * len(shares)
    for f in sorted(files, key=lambda f: -files[f]):
        k = load.index(min(load))
        shares[k].append(f)
        load[k] += files[f]
    return shares


def worker_layout(items: list, workers: int) -> list:
    """``items`` reordered for ``--dist worksteal`` on ``workers`` workers, which hands worker k the k-th of
    ``workers`` contiguous runs of the list (the first ``len // workers``, then half the rest...; then idle workers
    steal from the tail of busy ones): each run starts with that worker's share of :data:`LONGEST_FIRST`
    (:func:`worker_shares`), the other tests fill the runs in their order. So the long files run at once on every
    worker, and none is left alone at the end. With one worker the long files simply come first."""
    file_of = [item.nodeid.split("::")[0] for item in items]
    present = {f: LONGEST_FIRST[f] for f in LONGEST_FIRST if f in file_of}
    shares = worker_shares(present, workers)
    rest = [item for item, f in zip(items, file_of) if f not in present]
    out, left = [], len(items)
    for k, share in enumerate(shares):
        size = left // (len(shares) - k)  # worksteal's split: what is left, evenly among the workers left
        long = [item for f in share for item, g in zip(items, file_of) if g == f]
        take = max(size - len(long), 0)
        out += long + rest[:take]
        rest = rest[take:]
        left -= size
    return out + rest


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the tests listed in ``tests/slow_tier.txt`` (measured slow warm, :mod:`tests.slow_tier`) ``slow``, before
    the ``-m`` selection runs: the fast tier leaves them to the slow tier, which CI runs."""
    from tests.slow_tier import listed

    slow = listed()
    config.meeplelab_collected = {item.nodeid for item in items}  # before -m deselects (tests/test_slow_tier.py)
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)


class _Layout:
    """Lays the selected tests out for the workers, after ``-m`` deselected the others (:func:`worker_layout`;
    every pytest-xdist worker collects and lays out alike, as xdist requires)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        items[:] = worker_layout(items, getattr(config, "workerinput", {}).get("workercount", 1))


def pytest_configure(config):
    config.pluginmanager.register(_Layout(), "meeplelab-worker-layout")
