"""The list of tests the fast tier leaves to the slow tier because they take long (``tests/slow_tier.txt``).

``python -m tests.slow_tier OUTPUT [SECONDS]`` rewrites the list from the output of a fast-tier run with
``--durations=N`` (every test whose setup or call took ``SECONDS``, default 1.5, or more). ``tests/conftest.py``
marks every listed node id ``slow`` at collection (:func:`listed`), so ``pytest`` (the fast tier) leaves them out
and CI (``-m ""``) runs them; a listed id that no longer exists is named by ``tests/test_docs.py``.
"""

from __future__ import annotations

import re
import sys
from datetime import datetime, timezone
from pathlib import Path

FILE = Path(__file__).with_name("slow_tier.txt")
_LINE = re.compile(r"^(\d+(?:\.\d+)?)s (setup|call|teardown)\s+(\S.*?)\s*$")


def listed(path: Path = FILE) -> dict[str, str]:
    """``{node id: why}`` of the listed tests (comments and blank lines skipped)."""
    out = {}
    for raw in path.read_text().splitlines():
        node, _, why = raw.partition("  # ")
        if node.strip() and not node.startswith("#"):
            out[node.strip()] = why.strip()
    return out


def from_durations(text: str, threshold: float = 1.5) -> dict[str, float]:
    """``{node id: seconds}`` of the ``--durations`` lines of ``text`` at ``threshold`` seconds or more."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = _LINE.match(line.strip())
        if m and float(m.group(1)) >= threshold and m.group(2) != "teardown":
            out[m.group(3)] = max(out.get(m.group(3), 0.0), float(m.group(1)))
    return out


def main(argv=None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m tests.slow_tier PYTEST_OUTPUT [SECONDS]", file=sys.stderr)
        return 2
    threshold = float(args[1]) if len(args) > 1 else 1.5
    found = from_durations(Path(args[0]).read_text(), threshold)
    keep = {k: v for k, v in listed().items() if k not in found} if FILE.exists() else {}
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = [f"# The fast tier's slowest tests, left to the slow tier: {threshold} s or more warm",
            "# (setup or call) in `python -m pytest -q -n 2 --durations=100` on the 2-core development machine",
            f"# (list rewritten {when}; docs/testing.md). tests/conftest.py marks every node id here `slow`; CI runs",
            "# them (`-m \"\"`). Rewrite with: python -m tests.slow_tier PYTEST_OUTPUT [SECONDS]", ""]
    lines = [f"{k}  # {v}" for k, v in keep.items()] + [f"{k}  # {s:.2f} s" for k, s in sorted(found.items())]
    FILE.write_text("\n".join(head + lines) + "\n")
    print(f"{FILE}: {len(keep) + len(found)} tests")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
