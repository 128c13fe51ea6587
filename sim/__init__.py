"""meeplelab simulators: the shared core and one vectorized engine per game."""

from . import jitcache as _jitcache

_jitcache.install()  # before any kernel module: cached kernels keyed by what they import (sim/jitcache.py)


