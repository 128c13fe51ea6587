"""Running games: run plans, seating, the parallel runner, experiments, sweeps and tournaments.

Below ``meeplelab.analysis``: nothing here imports analysis or studies (``tests/test_floors.py``)."""
