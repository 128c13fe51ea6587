"""Exchange rates: what one more unit of every start resource is worth to every strategy
(``meeplelab exchange-rates``; issue 29 item 3).

For a roster (default: the game study's 4-seat field) the study plays one untreated control run and,
for every start resource the game declares (``GameSpec.start_resources``: Galileo's Truth Coins,
Research, Suspicion, Books of each Subject, VP; Unconscious Mind Coffee, Bright Ideas, Ideas, white
Insights, VP) and every roster entry, one run in which that entry starts with ``units`` more of it
(the treatment ``NAME+units`` of :mod:`meeplelab.sim.core.start`, following the entry through every seat of the
rotation). Every run has the same seed, roster and seat orders, so game ``i`` of a treated run is game
``i`` of the control with one seat's start changed: the treated strategy's final VP and win share minus
its own in the control game is one paired difference (common random numbers), reported per unit with
its 95% interval (VP: t; win share: Agresti-Min), the unpaired interval beside it, the games needed and
a Holm adjustment over every (resource, strategy) of the table (``meeplelab.analysis.exchange``).

Folder layout::

    OUT/exchange.json            the request, the runs and a status
    OUT/control/                 the untreated roster
    OUT/coins+1@writer/          writer starts with one more Coin (one run per resource and strategy)
    OUT/exchange_rates.parquet   the table (also .csv and exchange_rates.md)

``--resume`` completes an interrupted study; ``--overwrite`` replaces one.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Callable

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError

EXCHANGE_FILE = rf.EXCHANGE_FILE
OURS = ("exchange_rates.parquet", "exchange_rates.csv", "exchange_rates.md")


def _folder(resource: str, units: int, strategy: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+@-]", "_", f"{resource}{units:+d}@{strategy}")


def plan_exchange(base: RunConfig, resources: list[str] | None = None, units: int = 1) -> tuple[list[dict], list[RunConfig]]:
    """The arms (control first) and their run configs, validated before anything runs.

    Args:
        base: game, players, roster (``strategies``: distinct ids, one per seat), games per run, seed, ``out``,
            fixed ``--set`` values.
        resources: names of declared start resources (None: every one).
        units: the treatment size (``units`` more of the resource; negative: fewer).

    Raises:
        ConfigError: a game that declares no start resources, an unknown resource (the declared ones
            listed), ``units`` 0, a roster repeating a strategy or not one per seat, a treated start value
            the rules do not allow (``suspicion+6`` at Prison), or anything :meth:`RunConfig.validated` refuses.
    """
    from meeplelab.sim.core import start
    from meeplelab.play.experiment import _check_treated_start
    from meeplelab.play.treatments import start_resources

    res = start_resources(base.game)
    if not res:
        raise ConfigError(f"{base.game} declares no start resources (GameSpec.start_resources): nothing to price")
    chosen = [start.find(res, r, base.game, what="--resources") for r in resources] if resources else list(res)
    if len({r.name for r in chosen}) != len(chosen):
        raise ConfigError("--resources names a resource twice: name each once")
    if units == 0:
        raise ConfigError("--units 0: give the number of extra units (1: one more; -1: one fewer)")
    roster = tuple(base.strategies)
    if len(roster) != base.players:
        raise ConfigError(f"--strategies gives {len(roster)} strategies for {base.players} seats: exchange rates need "
                          "one per seat")
    if len(set(roster)) != len(roster):
        dup = next(s for i, s in enumerate(roster) if s in roster[:i])
        raise ConfigError(f"--strategies repeats {dup!r}: exchange rates are measured per strategy, so give distinct "
                          "strategies (each is treated in its own run)")
    base = dataclasses.replace(base, seating="rotate")
    arms = [{"label": "control", "folder": "control", "resource": None, "strategy": None, "position": None}]
    configs = [validated(dataclasses.replace(base, out=str(Path(base.out) / "control")))]
    for r in chosen:
        t = {"position": 0, "field": r.name, "add": int(units)}
        try:
            _check_treated_start(base, t, f"{r.name}{units:+d}")
        except ConfigError as e:  # the option given here is --units, not --treat
            raise ConfigError(f"--units {units}: for {r.name}, " + str(e).split(": ", 1)[1]) from None
        for k, s in enumerate(roster):
            folder = _folder(r.name, units, s)
            arms.append({"label": f"{r.name}{units:+d} for {s}", "folder": folder, "resource": r.name, "unit": r.unit,
                         "strategy": s, "position": k})
            configs.append(validated(dataclasses.replace(base, treatment={"position": k, "field": r.name, "add": int(units)},
                                               out=str(Path(base.out) / folder))))
    return arms, configs


def run_exchange(base: RunConfig, resources: list[str] | None = None, units: int = 1, *, overwrite: bool = False,
                 resume: bool = False, on_run: Callable[[int, int, RunConfig], None] | None = None,
                 progress: bool = False, settings: str | None = None) -> dict:
    """Plan, play and tabulate (module docstring); returns ``{"table", "arms", "configs", "paths"}``.
    ``base``'s execution fields (``n_jobs``, ``backend``, ``scheduler``, ``batch_size``) are every run's;
    ``progress`` and ``settings``: see :func:`meeplelab.studies.compare.play_folders`.

    Raises:
        ConfigError: see :func:`plan_exchange` (nothing written then).
        RunFolderError, KeyboardInterrupt: see :func:`meeplelab.studies.compare.play_folders`.
    """
    from meeplelab.analysis.exchange import write_outputs

    from meeplelab.studies.compare import play_folders, study

    arms, configs = plan_exchange(base, resources, units)
    out = Path(base.out)
    meta = {"kind": "exchange-rates", "game": base.game, "players": base.players, "strategies": list(base.strategies),
            "games": base.games, "seed": base.seed, "units": int(units),
            "params": {k: str(v) for k, v in sorted(base.params.items())}, "arms": arms,
            "runs": [a["folder"] for a in arms], "seating_plan": configs[0].plan_for().describe()}
    what = "exchange-rate study"
    with study(out, EXCHANGE_FILE, OURS, what, resume=resume, overwrite=overwrite) as work:
        play_folders(configs, out, meta, EXCHANGE_FILE, ours=OURS, overwrite=overwrite, resume=resume, what=what,
                     on_run=on_run, progress=progress, settings=settings)
        table, paths = write_outputs(work)  # swapped in with the runs
    return {"table": table, "arms": arms, "configs": configs,
            "paths": {k: Path(rf.rebase(v, work, out)) for k, v in paths.items()}}
