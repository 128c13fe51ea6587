"""Running games: run plans, seating, the parallel runner, experiments, sweeps and tournaments.

Below ``meeplelab.analysis``: nothing here imports analysis or studies (``tests/test_floors.py``)."""

if __name__ == "play":  # this folder imported by its old top-level name (a source checkout on sys.path)
    raise ImportError("import meeplelab.play, not play: the folder play/ is installed as meeplelab.play "
                      "(imported as play it is a second copy, whose errors and classes are not meeplelab's)")
