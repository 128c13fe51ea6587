"""meeplelab: Monte Carlo strategy analysis for Unconscious Mind and Galileo's Truth.

Everything installs under this one name (``pyproject.toml`` maps the repository's ``sim/``, ``strategies/``,
``play/``, ``analysis/``, ``studies/`` and ``benchmarks/`` folders to ``meeplelab.sim``, ``meeplelab.strategies``,
...; ``cli.py`` is ``meeplelab.cli``). The floors, lowest first (``docs/architecture.md``; no import runs back up,
``tests/test_floors.py``):

========================  =============================================================
``meeplelab.sim.core``    the engine framework (state, rules by decision, kernels, streams)
``meeplelab.sim.*``       the two engines and engine-level tools (registry, params, schema)
``meeplelab.strategies``  scripted plans, the heuristic, search
``meeplelab.play``        running games: plan, seating, runner, experiment, sweep, tournament
``meeplelab.analysis``    reading run folders: metrics, intervals, reports
``meeplelab.studies``     searches over runs: tune, robustness, balance
``meeplelab.cli``         the ``meeplelab`` command
========================  =============================================================

The public API (imported on first use, so ``import meeplelab`` compiles nothing)::

    import meeplelab
    cfg = meeplelab.RunConfig(game="galileos-truth", players=2, strategies=("writer", "never-abjure"),
                              games=2000, seating="rotate", out="runs/gt")
    meeplelab.simulate(cfg, overwrite=True)            # a run folder of Parquet tables
    runs = meeplelab.load_runs(["runs/gt"])             # its tables (polars)
    meeplelab.report(["runs/gt"], "runs/gt/report")     # the balance report (HTML + Markdown)
"""

from __future__ import annotations

import importlib
from pathlib import Path

__version__ = "0.1.0"

# In a source checkout (not installed, or installed in editable mode) ``meeplelab.sim`` is the folder ``../sim``:
# the package-dir mapping of pyproject.toml, done here so a checkout or a copy of one imports itself. An installed
# wheel holds the folders inside this package, and nothing is added.
_TREE = Path(__file__).resolve().parent.parent
if (_TREE / "sim" / "core" / "__init__.py").is_file() and (_TREE / "pyproject.toml").is_file():
    __path__.append(str(_TREE))  # noqa: F821  (a package's __path__)

#: public name -> "module:attribute" (resolved lazily by :func:`__getattr__`)
_API = {
    "RunConfig": "meeplelab.play.config:RunConfig",
    "simulate": "meeplelab.play.runner:simulate",
    "play_batch": "meeplelab.play.batch:play_batch",
    "run_tournament": "meeplelab.studies.tournament:run_tournament",
    "make_game": "meeplelab.sim.registry:make_game",
    "games": "meeplelab.sim.registry:builtin_games",
    "make_strategy": "meeplelab.strategies.registry:make_strategy",
    "register_strategy": "meeplelab.strategies.registry:register_strategy",
    "load_runs": "meeplelab.analysis.load:load_runs",
    "scan_run": "meeplelab.analysis.load:scan_run",
    "win_rates": "meeplelab.analysis.metrics:win_rates",
    "report": "meeplelab.analysis.report:build_report",
}

__all__ = ["__version__", *_API]


def __getattr__(name: str):
    """The public API's objects, imported on first use (PEP 562).

    Raises:
        AttributeError: ``name`` is not part of the public API.
    """
    try:
        target = _API[name]
    except KeyError:
        raise AttributeError(f"module 'meeplelab' has no attribute {name!r}; the public API: "
                             f"{', '.join(sorted(_API))}") from None
    mod, attr = target.split(":")
    value = getattr(importlib.import_module(mod), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
