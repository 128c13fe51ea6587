import os
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
#: three times), scheduled before the rest (a stable sort: the order inside each group is kept)
LONGEST_FIRST = frozenset({
    "tests/test_readme_commands.py", "tests/test_notebooks.py", "tests/test_report_layout.py",
    "tests/test_bit_identical.py",
})


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
    # the longest files first, so that on 2 workers no single long test is left running alone at the end
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in LONGEST_FIRST)
