import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

try:
    import tests.toygame  # noqa: E402,F401  registers the test-only game "toy"
except ImportError as e:  # a kernel imports a constant or handler a stale written module lacks
    raise ImportError(f"{e}; if tests/toy/cols.py or tests/toy/dispatch.py is stale, rewrite them: python -m "
                      "sim.core.layout tests.toy.state:LAYOUT tests/toy/cols.py; python -m sim.core.decisions "
                      "tests.toy.decisions") from e
import tests.toy_robust  # noqa: E402,F401  registers "toy-robust" (robustness tests), in every worker alike
