import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tests.toygame  # noqa: E402,F401  registers the test-only game "toy"
import tests.toy_robust  # noqa: E402,F401  registers "toy-robust" (robustness tests), in every worker alike
