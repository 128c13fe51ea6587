"""Analysis of run folders: tables, statistics, figures and reports."""

if __name__ == "analysis":  # this folder imported by its old top-level name (a source checkout on sys.path)
    raise ImportError("import meeplelab.analysis, not analysis: the folder analysis/ is installed as "
                      "meeplelab.analysis (imported as analysis it is a second copy, whose errors and classes are "
                      "not meeplelab's)")
