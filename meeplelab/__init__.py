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
    runs = meeplelab.load_runs(["runs/gt"])             # its tables (polars, lazy)
    games = meeplelab.load_table("runs/gt", "games", as_pandas=True)   # one table, as pandas
    meeplelab.report(["runs/gt"], "runs/gt/report")     # the balance report (HTML + Markdown)

Every name, by what it is for (``help(meeplelab.NAME)`` for each; the notebooks in ``notebooks/`` use only these):

- running games: ``RunConfig``, ``simulate``, ``play_batch``, ``plan_experiment``, ``run_experiment``,
  ``run_sweep``, ``run_tournament``, ``run_robustness``, ``run_balance``, ``study_for``, ``plausible_ranges``;
- reading and measuring runs (polars tables; ``.to_pandas()`` or ``load_table(..., as_pandas=True)`` for pandas):
  ``load_runs``, ``scan_run``, ``load_table``, ``win_rates``, ``mean_by``, ``effects``, ``sweep_table``,
  ``solve_target``, ``report``; charts (matplotlib figures): ``win_rate_chart``, ``effects_chart``, ``sweep_charts``;
- one game's measures: Unconscious Mind ``coffee_purchases``, ``vp_per_coffee``, ``vp_per_coffee_chart``,
  ``citation_payoffs``, ``citation_gains``, ``citation_gains_chart``; Galileo's Truth ``abjure_removed``,
  ``suspicion_by_cycle``, ``suspicion_chart``;
- writing a bot (``docs/bots.md``): ``Strategy``, ``View``, ``StrategyRNG``, ``game_table``, ``make_game``,
  ``games``, ``make_strategy``, ``register_strategy``, ``action_table`` (every action id, its label and meaning:
  ``meeplelab actions GAME``), ``state_fields`` (the fields of ``view.state``).
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
    # running games
    "RunConfig": "meeplelab.play.config:RunConfig",
    "simulate": "meeplelab.play.runner:simulate",
    "play_batch": "meeplelab.play.batch:play_batch",
    "plan_experiment": "meeplelab.play.experiment:plan_experiment",
    "run_experiment": "meeplelab.play.experiment:run_experiment",
    "run_sweep": "meeplelab.play.sweep:run_sweep",
    "run_tournament": "meeplelab.studies.tournament:run_tournament",
    "run_robustness": "meeplelab.studies.robustness:run_robustness",
    "run_balance": "meeplelab.studies.balance:run_balance",
    "study_for": "meeplelab.analysis.studies:study_for",
    "plausible_ranges": "meeplelab.sim.plausible:load_plausible",
    # reading and measuring runs
    "load_runs": "meeplelab.analysis.load:load_runs",
    "scan_run": "meeplelab.analysis.load:scan_run",
    "win_rates": "meeplelab.analysis.metrics:win_rates",
    "mean_by": "meeplelab.analysis.metrics:mean_by",
    "effects": "meeplelab.analysis.experiment:effects",
    "sweep_table": "meeplelab.analysis.sweep:strategy_table",
    "solve_target": "meeplelab.analysis.sweep:solve_target",
    "report": "meeplelab.analysis.report:build_report",
    "win_rate_chart": "meeplelab.analysis.figures:win_rate_chart",
    "effects_chart": "meeplelab.analysis.experiment:effects_chart",
    "sweep_charts": "meeplelab.analysis.sweep:strategy_charts",
    # one game's measures
    "coffee_purchases": "meeplelab.analysis.unconscious_mind:coffee_purchases",
    "vp_per_coffee": "meeplelab.analysis.unconscious_mind:vp_per_coffee",
    "vp_per_coffee_chart": "meeplelab.analysis.unconscious_mind:vp_per_coffee_chart",
    "citation_payoffs": "meeplelab.analysis.unconscious_mind:citation_payoffs",
    "citation_gains": "meeplelab.analysis.unconscious_mind:citation_gains",
    "citation_gains_chart": "meeplelab.analysis.unconscious_mind:citation_gains_chart",
    "abjure_removed": "meeplelab.analysis.experiment:abjure_removed",
    "suspicion_by_cycle": "meeplelab.analysis.galileos_truth:suspicion_by_cycle",
    "suspicion_chart": "meeplelab.analysis.galileos_truth:trajectory_chart",
    # writing a bot (docs/bots.md)
    "Strategy": "meeplelab.strategies.base:Strategy",
    "View": "meeplelab.strategies.base:View",
    "StrategyRNG": "meeplelab.strategies.base:StrategyRNG",
    "game_table": "meeplelab.strategies.base:game_table",
    "make_game": "meeplelab.sim.registry:make_game",
    "games": "meeplelab.sim.registry:builtin_games",
    "make_strategy": "meeplelab.strategies.registry:make_strategy",
    "register_strategy": "meeplelab.strategies.registry:register_strategy",
}

__all__ = ["__version__", "action_table", "load_table", "state_fields", *_API]


def load_table(runs, table: str = "games", *, as_pandas: bool = False):
    """One table of one or more run folders, read whole (what the run's manifest lists; ``load_runs``).

    Args:
        runs: a run folder, or a list of them (each table then has a ``run`` column: the folder's name).
        table: ``games`` (one row per seat and game), ``turns`` or ``events`` (docs/logs.md).
        as_pandas: a pandas DataFrame instead of a polars one.

    Raises:
        ValueError: ``table`` is not games, turns or events.
        RunFolderError: a folder is not a readable run folder.
    """
    # start-up: the public API imports on first use (`import meeplelab` compiles nothing)
    from meeplelab.analysis.load import load_runs  # the public API imports on first use: `import meeplelab` is light

    if table not in ("games", "turns", "events"):
        raise ValueError(f"unknown table {table!r}: allowed: games, turns, events")
    folders = [runs] if isinstance(runs, (str, Path)) else list(runs)
    df = getattr(load_runs(folders), table).collect()
    return df.to_pandas() if as_pandas else df


def action_table(game: str, *, as_pandas: bool = False):
    """Every action id of ``game`` with its label and meaning (``meeplelab actions GAME``): columns ``id, label,
    decision, meaning``; the rows with a ``decision`` give a choice id's meaning under that pending decision.

    Raises:
        ConfigError: an unknown game.
    """
    import polars as pl  # the public API imports on first use: `import meeplelab` is light

    # start-up: the public API imports on first use (`import meeplelab` compiles nothing)
    from meeplelab.sim.action_table import action_rows
    from meeplelab.sim.registry import make_game

    df = pl.DataFrame(action_rows(make_game(game)))
    return df.to_pandas() if as_pandas else df


def state_fields(game: str, *, as_pandas: bool = False):
    """The named fields of a game's state: what ``view.state.<field>`` reads in a strategy (docs/bots.md).

    Returns:
        columns ``field``, ``group`` (the state array holding it: ``game``, ``seat``, ``card``...), ``view`` (the
        shape ``view.state.<field>`` has: ``[n]`` one value per game of the batch, ``[n, P]`` one per seat,
        ``[n, cards]`` one per content item, more axes for a field spanning several columns or a pile) and ``doc``
        (what it holds, with its unit or code meaning); polars, or pandas with ``as_pandas``.

    Raises:
        ConfigError: an unknown game.
    """
    import numpy as np  # the public API imports on first use: `import meeplelab` is light
    import polars as pl

    # start-up: the public API imports on first use (`import meeplelab` compiles nothing)
    from meeplelab.sim.registry import make_game

    g = make_game(game)
    layout = type(g.init(np.zeros(1, np.int64), 0, g.min_players)).LAYOUT

    def axes(*parts) -> str:
        flat = [a for p in parts for a in (p if isinstance(p, tuple) else () if p is None else (p,))]
        return "[" + ", ".join(["n", *map(str, flat)]) + "]"

    rows = []
    for grp in layout.groups:
        rows += [{"field": f.name, "group": grp.name, "view": axes(grp.rows, tuple(f.shape)), "doc": f.doc}
                 for f in grp.fields]
        rows += [{"field": p.name, "group": grp.name, "view": axes(p.length), "doc": p.doc} for p in grp.piles]
    df = pl.DataFrame(rows)
    return df.to_pandas() if as_pandas else df


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
