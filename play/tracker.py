"""loky's resource tracker, quiet about what a killed tracker held (started by :mod:`meeplelab.play.workers`).

When loky's resource tracker process is killed during a run, the parent starts a new one; the run's
processes then release (``UNREGISTER``, ``MAYBE_UNLINK``) resources the new tracker never registered,
and loky's tracker prints a ``KeyError`` traceback for each. This ``main`` is loky's with those
releases passed over silently; every other error is printed as before. It is launched as
``from meeplelab.play.tracker import main; main(fd, verbose)`` (loky names the module of its ``main``).
"""

from __future__ import annotations

import sys


def main(fd, verbose=0):
    """Run loky's resource tracker, ignoring releases of resources it never registered."""
    from joblib.externals.loky.backend import resource_tracker as rt

    hook = sys.excepthook

    def excepthook(kind, value, tb):
        if issubclass(kind, KeyError):
            return  # released here, registered with the tracker that died: nothing of ours to clean up
        hook(kind, value, tb)

    sys.excepthook = excepthook
    return rt.main(fd, verbose)
