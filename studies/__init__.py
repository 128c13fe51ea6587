"""Studies: searches over runs that read their analysis (tune, robustness, balance).

The top floor below the command line: studies import running games and analysis, never the reverse."""

if __name__ == "studies":  # this folder imported by its old top-level name (a source checkout on sys.path)
    raise ImportError("import meeplelab.studies, not studies: the folder studies/ is installed as meeplelab.studies "
                      "(imported as studies it is a second copy, whose errors and classes are not meeplelab's)")
