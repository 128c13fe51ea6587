"""meeplelab simulators: the shared core and one vectorized engine per game."""

if __name__ == "sim":  # this folder imported by its old top-level name (a source checkout on sys.path)
    raise ImportError("import meeplelab.sim, not sim: the folder sim/ is installed as meeplelab.sim "
                      "(imported as sim it is a second copy, whose errors and classes are not meeplelab's)")

from . import jitcache as _jitcache

_jitcache.install()  # before any kernel module: cached kernels keyed by what they import (sim/jitcache.py)


