"""Analysis of run folders: tables, statistics, figures and reports.

Every query here runs on polars' in-memory engine (set when this package is imported): the streaming engine
aggregates and joins in parallel morsels whose order changes from one collect to the next, so a float sum or
mean (a win rate, a mean Suspicion) could differ in its last bits between two reports of the same games.
With the in-memory engine, tables read in one order (:mod:`meeplelab.analysis.load`) and every ``group_by`` and
``unique`` keeping its order, the same games give the same bytes (``tests/test_bit_identical.py``).
"""

if __name__ == "analysis":  # this folder imported by its old top-level name (a source checkout on sys.path)
    raise ImportError("import meeplelab.analysis, not analysis: the folder analysis/ is installed as "
                      "meeplelab.analysis (imported as analysis it is a second copy, whose errors and classes are "
                      "not meeplelab's)")

import polars as pl

pl.Config.set_engine_affinity("in-memory")
