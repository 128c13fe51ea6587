"""meeplelab simulators: the shared core and one vectorized engine per game."""

__version__ = "0.1.0"
