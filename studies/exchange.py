"""Exchange rates: what one more unit of every start resource is worth to every strategy
(``meeplelab exchange-rates``).

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

**Curves between versions** (``--arm``, ``--doses``; :func:`run_curves`): every ``--arm`` is a rules/content version
in ``meeplelab compare``'s syntax (:func:`meeplelab.studies.compare.parse_arms`: ``default``, ``NAME=VALUE``,
``content=PATH``, ``;``-joined), labelled A, B, ... For each version the study plays its control and, for every
resource, strategy and non-zero dose, the run in which that strategy starts with that many more units; every run of
every version has the same seed and seat orders, so a game index is the same deal everywhere and the dose-response
curves, the price per unit and the change between versions are all paired game by game
(:func:`meeplelab.analysis.exchange.curve_tables`). Folder layout::

    OUT/exchange.json                 the request (versions, doses), the runs and a status
    OUT/A-control/                    version A untreated
    OUT/A-coins+2@writer/             version A, writer starts with two more Coins (one run per resource, strategy, dose)
    OUT/exchange_prices.csv           price per unit per version and its change (also .parquet), the printed table
    OUT/exchange_curves.csv           the dose-response points per version (also .parquet)
    OUT/exchange_deltas.csv           the paired change between versions per dose (also .parquet)
    OUT/report/                       the report: the prices, one chart per resource, the tables
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from meeplelab.analysis.exchange import CURVE_FILES, markdown, who_gains_lines, write_curve_outputs
from meeplelab.analysis.retune import record_lines
from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError
from meeplelab.studies.compare import Arm, parse_arms, play_folders, read_state, study
from meeplelab.analysis.exchange import write_outputs
from meeplelab.play.experiment import _check_treated_start
from meeplelab.play.treatments import start_resources
from meeplelab.sim.core import start
from meeplelab.studies.retune import FILE, FOLDER, check_request, clear, run_retuned

EXCHANGE_FILE = rf.EXCHANGE_FILE
#: the files a study writes beside its runs (either kind: an overwrite replaces the other kind's too)
OURS = ("exchange_rates.parquet", "exchange_rates.csv", "exchange_rates.md", *CURVE_FILES, FOLDER, FILE)
#: games per lineup per trial of ``exchange-rates --retune``'s tunings
RETUNE_GAMES_PER_TRIAL = 25


def _folder(resource: str, units: int, strategy: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+@-]", "_", f"{resource}{units:+d}@{strategy}")


def plan_exchange(base: RunConfig, resources: list[str] | None = None, units: int = 1,
                  option: str | None = None) -> tuple[list[dict], list[RunConfig]]:
    """The arms (control first) and their run configs, validated before anything runs.

    Args:
        base: game, players, roster (``strategies``: distinct ids, one per seat), games per run, seed, ``out``,
            fixed ``--set`` values.
        resources: names of declared start resources (None: every one).
        units: the treatment size (``units`` more of the resource; negative: fewer).
        option: how a refused treatment size is named in the error (default ``--units N``).

    Raises:
        ConfigError: a game that declares no start resources, an unknown resource (the declared ones
            listed), ``units`` 0, a roster repeating a strategy or not one per seat, a treated start value
            the rules do not allow (``suspicion+6`` at Prison), or anything :func:`meeplelab.play.plan.validated` refuses.
    """
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
    arms: list[dict[str, Any]] = [{"label": "control", "folder": "control", "resource": None, "strategy": None,
                                   "position": None}]
    configs = [validated(dataclasses.replace(base, out=str(Path(base.out) / "control")))]
    for r in chosen:
        t = {"position": 0, "field": r.name, "add": int(units)}
        try:
            _check_treated_start(base, t, f"{r.name}{units:+d}")
        except ConfigError as e:  # the option given here is --units, not --treat
            raise ConfigError(f"{option or f'--units {units}'}: for {r.name}, " + str(e).split(": ", 1)[1]) from None
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


def parse_doses(text: str) -> list[int]:
    """``"0,1,2,3"`` -> ``[0, 1, 2, 3]``: the extra units per treated run (negative: fewer), sorted, with 0 (the
    control) added when absent.

    Raises:
        ConfigError: not whole numbers, a dose given twice, or no dose but 0.
    """
    allowed = "distinct whole numbers of extra units, comma separated, with one besides 0 (e.g. 0,1,2,3)"
    try:
        doses = [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        raise ConfigError(f"--doses {text!r}: allowed {allowed}") from None
    if len(set(doses)) != len(doses) or not any(doses):
        raise ConfigError(f"--doses {text!r}: allowed {allowed}")
    return sorted({0, *doses})


def plan_curves(base: RunConfig, arm_texts: list[str], resources: list[str] | None,
                doses: list[int]) -> tuple[list[Arm], list[dict], list[RunConfig]]:
    """The versions, the runs (per version its control, then one per resource, strategy and non-zero dose: the dicts
    of :func:`plan_exchange` with ``version`` and ``dose``) and their configs under ``base.out``, all validated
    before anything runs.

    Raises:
        ConfigError: a bad ``--arm`` (:func:`meeplelab.studies.compare.parse_arms`), no ``--arm``, or anything
            :func:`plan_exchange` refuses at any dose under any version (a dose that starts a seat in Prison names it).
    """
    if not arm_texts:
        raise ConfigError("exchange-rates curves need an --arm (default, NAME=VALUE, content=PATH, or several "
                          "joined by ';')")
    versions = parse_arms(base, list(arm_texts), "exchange-rates")
    shown = ",".join(map(str, doses))
    runs: list[dict] = []
    configs: list[RunConfig] = []
    for v in versions:
        vbase = dataclasses.replace(base, params=dict(v.params), content=v.content)
        for d in (x for x in doses if x):
            arms, cfgs = plan_exchange(vbase, resources, d, option=f"--doses {shown} (dose {d}, --arm {v.spec!r})")
            for a, c in zip(arms, cfgs):
                if a["resource"] is None and any(r["version"] == v.label for r in runs):
                    continue  # one control per version, whatever the dose
                folder = f"{v.label}-{a['folder']}"
                runs.append({**a, "folder": folder, "version": v.label, "dose": 0 if a["resource"] is None else d,
                             "label": f"{v.label}: {a['label']}"})
                configs.append(dataclasses.replace(c, out=str(Path(base.out) / folder)))
    return versions, runs, configs


def run_curves(base: RunConfig, arm_texts: list[str], resources: list[str] | None = None,
               doses: Sequence[int] = (0, 1, 2, 3), *, overwrite: bool = False, resume: bool = False,
               on_run: Callable[[int, int, RunConfig], None] | None = None, progress: bool = False,
               settings: str | None = None, retune: int = 0, say: Callable[[str], None] | None = None) -> dict:
    """Plan, play and tabulate the curves between versions (module docstring); returns ``{"versions", "runs",
    "configs", "tables" (prices, curves, deltas), "paths", "page"}``. ``base`` as :func:`run_exchange`'s (its
    ``params``: the ``--set`` values every version shares).

    ``retune`` (games of each re-tuning; 0: players fixed): every tunable roster entry is re-tuned to each version's
    rules and content and the version's control played again on the same games
    (:func:`meeplelab.studies.retune.run_retuned`: ``OUT/retuned/<V>-control/run``, recorded in ``OUT/retuned.json``),
    so the report gives each strategy's change between the versions with the players fixed and re-tuned; ``say``
    receives a line per re-tuning. Without it a re-tuning an earlier study left is removed.

    Raises:
        ConfigError: see :func:`plan_curves` and :func:`check_retune` (nothing written then).
        RunFolderError, KeyboardInterrupt: see :func:`meeplelab.studies.compare.play_folders`.
    """
    versions, runs, configs = plan_curves(base, arm_texts, resources, list(doses))
    check_retune(configs[0], versions, retune, resume=resume)
    out = Path(base.out)
    meta = {"kind": "exchange-rates", "mode": "curves", "game": base.game, "players": base.players,
            "strategies": list(base.strategies), "games": base.games, "seed": base.seed, "doses": list(doses),
            "params": {k: str(v) for k, v in sorted(base.params.items())},
            "versions": [{"label": v.label, "spec": v.spec, "params": v.params, "content": v.content} for v in versions],
            "arms": runs, "runs": [r["folder"] for r in runs], "seating_plan": configs[0].plan_for().describe()}
    if retune:
        meta["retune"] = retune  # a resume with another budget is refused by the saved request
    what = "exchange-rate study"
    with study(out, EXCHANGE_FILE, OURS, what, resume=resume, overwrite=overwrite) as work:
        play_folders(configs, out, meta, EXCHANGE_FILE, ours=OURS, overwrite=overwrite, resume=resume, what=what,
                     on_run=on_run, progress=progress, settings=settings)
        if retune:  # each version's control played again with the players re-tuned to its rules and content
            own = [{k: v for k, v in x.params.items() if k not in base.params} for x in versions]
            run_retuned(dataclasses.replace(configs[0], params=dict(base.params), content=None), own,
                        [f"{x.label}-control" for x in versions], work, retune,
                        games_per_trial=RETUNE_GAMES_PER_TRIAL, progress=progress, say=say,
                        contents=[x.content for x in versions],
                        shown=[{**o, **({"content": x.content} if x.content else {})} for o, x in zip(own, versions)])
        elif not resume:
            clear(work)
        tables, paths, page = write_curve_outputs(work, progress=progress)  # swapped in with the runs
    return {"versions": versions, "runs": runs, "configs": configs, "tables": tables,
            "paths": {k: Path(rf.rebase(v, work, out)) for k, v in paths.items()}, "page": Path(rf.rebase(page, work, out))}


def check_retune(control: RunConfig, versions: list[Arm], retune: int, *, resume: bool = False) -> None:
    """``exchange-rates --retune BUDGET`` checked before any game: 0 (players fixed), or at least two versions (the
    change between them is what the re-tuning re-reads) and the first version's control run accepted by
    :func:`meeplelab.studies.retune.check_request` (a tunable strategy among distinct ones, a budget of two trials;
    a resume with the budget it was re-tuned with).

    Raises:
        ConfigError: one version, or what that check refuses.
    """
    if retune and len(versions) < 2:
        raise ConfigError(f"--retune {retune}: the players are re-tuned to each version and the change between versions "
                          "read again; give at least two --arm (the one-dose table without --arm has no version to "
                          "re-tune to)")
    check_request(control, retune, Path(control.out).parent, resume=resume)  # the control's folder is under OUT


__all__ = ["EXCHANGE_FILE", "OURS", "check_retune", "parse_doses", "plan_curves", "plan_exchange", "run_curves", "run_exchange"]


def table_lines(res: dict, out: Path | str) -> list[str]:
    """What ``meeplelab exchange-rates`` says after :func:`run_exchange` returned ``res`` for the study in ``out``:
    the exchange-rate table (Markdown), then the files it was written to."""
    table = markdown(res["table"], read_state(out, EXCHANGE_FILE, "exchange-rate study")).rstrip()
    return [table, f"wrote {res['paths']['md']}, {res['paths']['csv']} and {res['paths']['parquet']}"]


def curve_lines(res: dict, out: Path | str, retune: int) -> Iterator[str]:
    """What ``meeplelab exchange-rates --arm/--doses`` says after :func:`run_curves` returned ``res`` for the study in
    ``out``: who gains between the versions first, with ``retune`` the players' re-tuned record, then where
    everything was written (lines, one at a time as they are known)."""
    yield from who_gains_lines(res["tables"]["prices"], read_state(out, EXCHANGE_FILE, "exchange-rate study"))
    yield from (record_lines(out, to="each version's rules and content") if retune else [])
    p = res["paths"]
    yield (f"wrote {len(res['configs'])} runs to {out}; prices {p['prices_csv']}, curves {p['curves_csv']}, "
           f"changes between versions {p['deltas_csv']}; report {res['page']}")
