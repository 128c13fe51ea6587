"""Search rule numbers for designer targets (``meeplelab balance``), with Optuna.

``--vary name=LOW..HIGH`` names the rule numbers to search (an int or float parameter in its range;
a tuple parameter as ``0,4,8..0,6,12``, searched along the line between the two tuples like a
plausible range; a choice parameter as ``first_player_rule=rotate,first-to-pass,fewest-vp``, an Optuna
categorical). ``--target`` names what a designer wants, each a registered metric of the games
of the study's rotated fields (panels ``field-P``: the scripted strategies in balanced rotation at P
seats, see :mod:`meeplelab.analysis.studies`):

- ``seat-spread<=3``: best minus worst seat win rate, percentage points, at every field's seat count
  (``seat-spread:4<=3`` for one count);
- ``strategy-excess<=5``: the best strategy's rotated win rate minus fair share (``100/P``), points,
  in the largest field;
- ``length=120..150``: mean game length in turns (all seats), largest field;
- a study conclusion's quantity, e.g. ``abjure-cycle-3=-1..1`` (the paired VP effect of Abjuring in
  Cycle 3 within 1 VP of 0: Abjuring a real choice), played on that conclusion's panels.

Each candidate is played on the same seeds as every other (common random numbers), so candidates
differ by their rules, not by their luck. When every varied parameter is discrete (choices, int ranges)
and ``trials`` covers the whole grid, Optuna's BruteForceSampler plays every candidate once (the search
stops there); otherwise Optuna's TPE sampler (seeded: the search is repeatable)
minimises, per target, the metric (``<=`` targets) or its distance outside the range (``a..b``
targets); several targets give a multi-objective search and a Pareto table. A candidate whose
values contradict each other (``Params.check``) is pruned. The ``recheck`` best distinct candidates (all
targets met on the search seeds first, then the smallest total excess) are played again on fresh
seeds with ``recheck_factor`` times the games; their metrics get 95% bootstrap intervals (over
games) and the proposal is the re-checked candidate that meets the most targets on fresh seeds
(point estimates), then the smallest excess, then the most targets whose whole interval lies inside
(``met_interval``; ties are common when several candidates meet every target), then the smallest
excess of the intervals' far ends. It is written as a ``--set`` line and as ``proposal.toml`` (a run config
with ``game`` and ``[params]``: ``meeplelab simulate --config proposal.toml --out RUN`` plays it).

``out/search.json`` records the request, the metrics of every candidate played (written as each one
finishes) and of every re-check, and a status (``running``, ``interrupted``, ``failed``, ``complete``).
``resume`` completes an interrupted search: the seeded sampler proposes the same candidates again, the
saved ones are read instead of played, and the files written are the ones an uninterrupted search writes;
a search whose options differ from the saved ones is refused, the first difference named.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal

import polars as pl
import tomli_w

from meeplelab.analysis.conclusions import Conclusion
from meeplelab.play.plan import validated
from meeplelab.studies.trials import optimize
from meeplelab.play import runfolder as rf
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.sim.core.params import _parse as parse_value
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.plausible import Range, format_value

from . import balance_retune
from .balance_fields import METRICS, SIDE, _fields, bootstrap, field_configs, mean_length, seat_spread, strategy_excess  # noqa: F401
from meeplelab.analysis.balance_report import build
from meeplelab.analysis.compare import _csv, COLUMNS, delta_table
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.studies import study_for
from meeplelab.analysis.tables import canonical_json, write_table
from meeplelab.analysis.versions import versions
from meeplelab.play.parallel import check_backend
from meeplelab.play.progress import bar
from meeplelab.play.runner import _check_resumable, simulate
from meeplelab.sim.registry import get_game_class
from meeplelab.studies.robustness import evaluate_lineups

FRESH_SEED_OFFSET = 1_000_003
#: relative tolerance (of the bound) within which a metric meets a target: sums of win shares differ from
#: the exact rational answer in the 15th digit, far below any interval (a 4-seat game's win share is k/4)
MET_TOLERANCE = 1e-9
#: how re-checked candidates are ranked: targets met (point estimate), total excess, targets whose whole
#: 95% interval is inside, the intervals' total excess (their far ends), then the earlier trial
RECHECK_ORDER = ["met", "excess", "met_interval", "excess_interval", "trial"]
#: the saved search (the request, every candidate's metrics, every re-check row and a status): ``--resume``
#: replays the seeded Optuna search reading the saved metrics instead of playing those candidates again
STATE = "search.json"
OUR = ("balance.json", "trials.parquet", "recheck.parquet", "proposal.toml", "report", STATE,
       "config.toml",  # config.toml: the command's settings (play/settings.py)
       SIDE, "side_effects.csv", "side_effects.parquet", "retuned.parquet", "retuned_effects.parquet",
       "retuned_effects.csv")


# ------------------------------------------------------------------------------------------- targets
def _field_panels(lineups) -> dict[int, str]:
    return {int(lu.panel.split("-")[1]): lu.panel for lu in lineups if re.fullmatch(r"field-\d+", lu.panel)}


@dataclass(frozen=True)
class Target:
    """One designer target: ``metric`` over ``panels`` (worst of them) ``<= hi`` or within ``lo..hi``."""

    text: str
    metric: str
    panels: tuple[str, ...]
    lo: float | None
    hi: float
    conclusion: Conclusion | None = None

    def value(self, g: pl.DataFrame) -> float:
        """The metric (worst over the panels: largest for ``<=``, farthest outside for ranges); for a
        conclusion target, the conclusion's quantity (its frame read from the same games)."""
        if self.conclusion is not None:
            c = self.conclusion
            return float(c.measure(g, c.frame(g))[0])
        fn = METRICS[self.metric][0]
        vals = [fn(g, p) for p in self.panels]
        if self.lo is None:
            return max(vals)
        return max(vals, key=lambda v: self.excess(v))

    def excess(self, v: float) -> float:
        """How far ``v`` is outside the target (0 when met). A metric within :data:`MET_TOLERANCE` of a bound
        (floating-point noise of averaged win shares: 5.000000000000002 against ``<= 5``) meets it."""
        e = max(0.0, v - self.hi) if self.lo is None else max(0.0, self.lo - v, v - self.hi)
        return 0.0 if e <= MET_TOLERANCE * max(1.0, abs(self.hi)) else e

    def objective(self, v: float) -> float:
        """What the search minimises: the metric for ``<=`` targets, the excess for ranges."""
        return v if self.lo is None else self.excess(v)


def parse_target(text: str, lineups, conclusions=()) -> Target:
    """``seat-spread<=3``, ``seat-spread:2,4<=3``, ``strategy-excess<=5``, ``length=120..150``, or a study
    conclusion's quantity (``abjure-cycle-3=-1..1``: the paired Abjure effect within 1 VP of 0).

    Raises:
        ConfigError: unknown metric, bad bound, or a seat count without a rotated field in the study.
    """
    named = {c.name: c for c in conclusions}
    m = re.fullmatch(r"\s*([a-z][a-z0-9-]*?)(?::([\d,]+))?\s*(<=|=)\s*(-?\d+(?:\.\d+)?)(?:\.\.(-?\d+(?:\.\d+)?))?\s*", text)
    allowed = "seat-spread<=P, strategy-excess<=P, length=LOW..HIGH (seat-spread:2,3<=P for some seat counts)"
    if not m:
        raise ConfigError(f"--target {text!r}: expected one of {allowed}")
    name, counts, op, a, b = m.groups()
    if name not in METRICS and name not in named:
        extra = f"; or a conclusion: {', '.join(named)}" if named else ""
        raise ConfigError(f"--target {text!r}: unknown metric {name!r}; allowed {', '.join(METRICS)}{extra}")
    try:
        a_f = float(a)
        b_f = float(b) if b is not None else None
    except ValueError:
        raise ConfigError(f"--target {text!r}: the bound is not a number; expected {allowed}") from None
    if (op == "<=") != (b_f is None) or (b_f is not None and b_f < a_f):
        raise ConfigError(f"--target {text!r}: use <= with one bound or = with LOW..HIGH (LOW <= HIGH)")
    if name in ("seat-spread", "length") and min(a_f, b_f if b_f is not None else a_f) < 0:
        raise ConfigError(f"--target {text!r}: a {name} is never negative; give a bound >= 0")
    if name in named:
        c = named[name]
        return Target(text.strip(), name, c.panels or tuple(dict.fromkeys(lu.panel for lu in lineups)),
                      None if b_f is None else a_f, b_f if b_f is not None else a_f, c)
    fields = _field_panels(lineups)
    if not fields:
        raise ConfigError("this study has no rotated field panels (field-P) to measure targets on")
    if counts:
        want = [int(x) for x in counts.split(",") if x]
        bad = [c for c in want if c not in fields]
        if bad:
            raise ConfigError(f"--target {text!r}: no rotated field at {bad[0]} seats; allowed "
                              f"{', '.join(map(str, sorted(fields)))}")
        panels = tuple(fields[c] for c in want)
    elif name == "seat-spread":
        panels = tuple(fields[c] for c in sorted(fields))
    else:
        panels = (fields[max(fields)],)
    return Target(text.strip(), name, panels, None if b_f is None else a_f, b_f if b_f is not None else a_f)


# --------------------------------------------------------------------------------------------- vary
def parse_vary_range(items: list[str], params_cls) -> dict[str, Range]:
    """``["prison_at=6..9", "suspicion_band_vp=0,-3,-7,-14..0,-1,-3,-6", "first_player_rule=rotate,fewest-vp"]``
    as ranges: a number or tuple parameter as ``LOW..HIGH``, a choice parameter (a string field with
    allowed values, e.g. ``first_player_rule``, A-GT-31, or a true/false field) as a list of two or more
    of its values separated by ``,`` (or ``|``, as ``meeplelab params`` shows choices), searched as an
    Optuna categorical.

    Raises:
        ConfigError: malformed item, unknown parameter, a choice parameter given as a range or a number
            parameter as a list, a value the parameter does not allow (the allowed values named), a choice
            given twice or only one, low above high, a bound outside the parameter's range, or a parameter
            given twice.
    """
    import dataclasses

    fields = {f.name: f for f in dataclasses.fields(params_cls)}
    out: dict[str, Range] = {}
    for it in items:
        if "=" not in it:
            raise ConfigError(f"--vary {it!r} needs the form name=LOW..HIGH (numbers) or name=A,B,... (choices)")
        name, rest = (x.strip() for x in it.split("=", 1))
        if name not in fields:
            apply_overrides(params_cls(), {name: "0"})  # names close matches
        if name in out:
            raise ConfigError(f"parameter {name!r} is given in two --vary options: give it once")
        f = fields[name]
        if isinstance(f.default, (str, bool)):
            out[name] = _choice_range(it, f, rest, params_cls)
            continue
        if ".." not in rest:
            raise ConfigError(f"--vary {it!r} needs the form name=LOW..HIGH ({name} is a number parameter)")
        lo_s, hi_s = rest.split("..", 1)
        lo, hi = parse_value(name, lo_s, f.default), parse_value(name, hi_s, f.default)
        for v in (lo, hi):
            apply_overrides(params_cls(), {name: v})  # type, length, bounds
        los, his = (lo if isinstance(lo, tuple) else (lo,)), (hi if isinstance(hi, tuple) else (hi,))
        if any(a > b for a, b in zip(los, his)) or lo == hi:
            raise ConfigError(f"--vary {it!r}: LOW must be below HIGH (element by element)")
        out[name] = Range(name, f.metadata.get("source", ""), f.default, low=lo, high=hi, reason="--vary")
    if not out:
        raise ConfigError("balance needs at least one --vary name=LOW..HIGH")
    return out


def _choice_range(it: str, f, rest: str, params_cls) -> Range:
    """The ``--vary name=A,B,...`` choices of a string or true/false field, each checked by the parameter."""
    allowed = f.metadata.get("choices") or ((True, False) if isinstance(f.default, bool) else None)
    listed = ", ".join(map(str, allowed)) if allowed else "any text"
    if ".." in rest:
        raise ConfigError(f"--vary {it!r}: {f.name} is a choice, not a number: give two or more of {listed} "
                          "separated by commas")
    vals = []
    for raw in (x.strip() for x in re.split(r"[,|]", rest)):  # "|" as Range.text() and `meeplelab params` show it
        try:
            v = parse_value(f.name, raw, f.default)
            apply_overrides(params_cls(), {f.name: v})
        except ConfigError as e:
            raise ConfigError(f"--vary {it!r}: {e}") from None
        if v in vals:
            raise ConfigError(f"--vary {it!r}: {raw!r} is given twice; give each choice once")
        vals.append(v)
    if len(vals) < 2:
        raise ConfigError(f"--vary {it!r}: give two or more choices separated by commas (allowed {listed})")
    return Range(f.name, f.metadata.get("source", ""), f.default, choices=tuple(vals), reason="--vary")


def _suggest(trial, r: Range) -> Any:
    if r.choices is not None:
        return trial.suggest_categorical(r.name, list(r.choices))
    if isinstance(r.default, tuple):
        return r.value(trial.suggest_float(r.name + ".u", 0.0, 1.0))
    if isinstance(r.default, int):
        return trial.suggest_int(r.name, r.low, r.high)
    return trial.suggest_float(r.name, r.low, r.high)


def grid_size(ranges: dict[str, Range]) -> int | None:
    """Candidates in the search space when every range is discrete (choices, int ranges), else None."""
    n = 1
    for r in ranges.values():
        if r.choices is not None:
            n *= len(r.choices)
        elif isinstance(r.default, int) and not isinstance(r.default, bool):
            n *= r.high - r.low + 1
        else:
            return None
    return n


def _enqueued(r: Range) -> tuple[str, Any]:
    """The Optuna distribution name and value that put the default first."""
    if r.choices is None and isinstance(r.default, tuple):
        return r.name + ".u", r.unit_of(r.default)
    return r.name, r.default


# ---------------------------------------------------------------------------------------------- run
def run_balance(game: str, vary: list[str], targets: list[str], out: Path | str, *, trials: int = 30,
                games: int | None = None, seed: int = 0, recheck: int = 3, recheck_factor: int = 2,
                fixed: dict | None = None, overwrite: bool = False, resume: bool = False, study=None,
                progress: Callable[[str], None] | None = None, settings: str | None = None, n_jobs: int = 1,
                backend: str = "loky", scheduler: str | None = None, batch_size: int = 4096,
                progress_bar: bool = False, retune: int = 0) -> dict:
    """Search, re-check, propose (see module docstring); returns the summary (also ``balance.json``).

    Args:
        game: game id.
        vary: ``name=LOW..HIGH`` items.
        targets: target texts.
        out: folder to write.
        trials: Optuna trials (candidates), each ``games`` games per field lineup.
        recheck: the best distinct candidates re-played on fresh seeds.
        recheck_factor: the re-check plays ``games * recheck_factor`` games per lineup.
        fixed: ``--set`` overrides held fixed.
        resume: complete the interrupted search in ``out`` (the same options).
        settings: the command's resolved settings TOML, written as ``out/config.toml``.
        progress: called with a line per candidate and per re-check; ``progress_bar``: draw bars of the
            trials and the re-checks (:mod:`meeplelab.play.progress`).
        retune: games of each re-tuning: the proposal and the defaults re-checked with re-tuned players
            (:mod:`meeplelab.studies.balance_retune`); 0 = players fixed only.
        n_jobs, backend, scheduler: where a candidate's lineups are played, one task per lineup
            (:func:`meeplelab.studies.robustness.evaluate_lineups`); ``batch_size``: games advanced together. The
            results depend on none of them.

    Raises:
        ConfigError: bad vary/target/trials/games/retune (before anything is written).
        RunFolderError: ``out`` is not empty and not a balance folder, or holds one without ``overwrite``
            or ``resume``; (``resume``) nothing to resume or the saved search differs (named).
        KeyboardInterrupt: after marking ``search.json`` ``interrupted`` (other errors mark it ``failed``).
    """
    cls = get_game_class(game)

    check_backend(backend, scheduler, n_jobs)
    if batch_size < 1:
        raise ConfigError(f"--batch-size {batch_size}: must be >= 1")
    study = study or study_for(game)
    ranges = parse_vary_range(vary, cls.Params)
    fixed = dict(fixed or {})
    both = [k for k in ranges if k in fixed]
    if both:
        raise ConfigError(f"parameter {both[0]!r} is given both in --vary and --set: give it in one of them")
    apply_overrides(cls.Params(), fixed)
    if not targets:
        raise ConfigError("balance needs at least one --target (e.g. seat-spread<=3)")
    tgs = [parse_target(t, study.lineups, study.conclusions) for t in targets]
    seen = [t.text.replace(" ", "") for t in tgs]
    dup = next((t for i, t in enumerate(seen) if t in seen[:i]), None)
    if dup:
        raise ConfigError(f"--target {dup!r} is given twice: give each target once")
    if trials < 1:
        raise ConfigError(f"--trials {trials}: must be >= 1")
    games = games if games is not None else study.default_games
    if games < 1:
        raise ConfigError(f"--games-per-lineup {games}: must be >= 1")
    need = {p for t in tgs for p in t.panels}
    lineups = tuple(lu for lu in study.lineups if lu.panel in need)
    par = {"n_jobs": n_jobs, "backend": backend, "scheduler": scheduler, "batch_size": batch_size}
    balance_retune.check(game, lineups, retune, games, par)
    out = Path(out)
    request = {"retune": retune, "game": game, "vary": {n: r.text() for n, r in ranges.items()}, "targets": [t.text for t in tgs],
               "trials": trials, "games_per_lineup": games, "seed": seed, "recheck": recheck,
               "recheck_factor": recheck_factor, "fixed": {k: format_value(v) for k, v in fixed.items()},
               "lineups": [[lu.panel, lu.rot, list(lu.strategies), lu.treatment, lu.treated_seat] for lu in lineups]}
    with rf.study_folder(out, STUDY_FOLDER, resume=resume, overwrite=overwrite) as work:
        state = {**request, "status": "running", "evaluated": [], "rechecked": []}
        if resume:
            old = _read_state(work)
            _check_same(old, request)
            state["evaluated"], state["rechecked"] = list(old.get("evaluated") or []), list(old.get("rechecked") or [])
        work.mkdir(parents=True, exist_ok=True)
        _save_state(work, state)
        rf.write_settings(work, settings)
        with rf.status_marked(state, lambda: _save_state(work, state)):
            s = _search(work, state, _Search(cls, game, ranges, fixed, tgs, lineups, trials, games, seed, recheck,
                                             recheck_factor, par, progress_bar, retune), progress)
    return {**s, "page": rf.rebase(s["page"], work, out)}  # an overwrite was built beside the earlier search


@dataclass(frozen=True)
class _Search:
    """What one balance search runs on (:func:`run_balance` resolves it from the options).

    Attributes:
        cls: the game class; ``game``: its id.
        ranges: the searched parameters (name -> Range); ``fixed``: the ``--set`` values held fixed.
        tgs: the targets; ``lineups``: the field lineups a candidate is played in.
        trials: Optuna trials; ``games``: games per lineup per candidate; ``seed``: the run seed.
        recheck: best distinct candidates re-played on fresh seeds, ``games * recheck_factor`` games per lineup.
        par: where the lineups are played (n_jobs, backend, scheduler, batch_size).
        progress_bar: draw bars of the trials and re-checks; ``retune``: games of each re-tuning (0 = none).
    """

    cls: type
    game: str
    ranges: dict
    fixed: dict
    tgs: list
    lineups: tuple
    trials: int
    games: int
    seed: int
    recheck: int
    recheck_factor: int
    par: dict
    progress_bar: bool = False
    retune: int = 0


def _search(out, state, sp: _Search, progress) -> dict:
    """The search, re-check and proposal of :func:`run_balance`; every candidate's metrics and every
    re-check row are saved in ``state`` (``search.json``) as they are computed, and read from it when
    saved before (a resumed search). ``progress``: called with a line per candidate and re-check, or None."""
    import optuna  # start-up: optuna takes 0.4 s to import; only the search uses it

    say = progress or (lambda s: None)
    sampler = _sampler(sp, say)
    ost, rows, defaults_first = _run_trials(out, state, sp, sampler, say)
    tab = pl.DataFrame(rows)

    write_table(tab, out / "trials.parquet")
    pareto = sorted({t.number for t in ost.best_trials})
    rc = pl.DataFrame(_recheck(out, state, sp, tab, say))
    write_table(rc, out / "recheck.parquet")
    best = rc.sort(RECHECK_ORDER, descending=[True, False, True, False, False]).row(0, named=True)
    values = {n: best[n] for n in sp.ranges}
    fixed, ranges, tgs, lineups, seed = sp.fixed, sp.ranges, sp.tgs, sp.lineups, sp.seed
    set_line = " ".join(f"--set {k}={v}" for k, v in {**{k: format_value(v) for k, v in fixed.items()}, **values}.items())

    params = {**fixed, **{n: parse_value(n, v, ranges[n].default) for n, v in values.items()}}
    rf.write_atomic(out / "proposal.toml", tomli_w.dumps(
        {"game": sp.game, "params": {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}}).encode())
    summary = {
        "game": sp.game, "targets": [t.text for t in tgs], "vary": {n: r.text() for n, r in ranges.items()},
        "fixed": {k: format_value(v) for k, v in fixed.items()}, "trials": len(ost.trials),
        "sampler": "BruteForceSampler (every candidate once)" if isinstance(sampler, optuna.samplers.BruteForceSampler) else "TPE", "games_per_lineup": sp.games,
        "lineups": len(lineups), "seed": seed, "fresh_seed": seed + FRESH_SEED_OFFSET,
        "recheck_games_per_lineup": sp.games * sp.recheck_factor, "pareto": pareto, "proposal": best, "set_line": set_line,
        "meets_all_on_fresh_seeds": best["met"] == len(tgs),
        "intervals_inside_all_on_fresh_seeds": best["met_interval"] == len(tgs),
        "defaults": rows[0] if rows and rows[0]["trial"] == 0 and defaults_first else None,
        "proposal_is_defaults": all(_same_value(ranges[n], v) for n, v in values.items()),
        "fields": _fields(lineups),
    }
    side = _side_and_retuned(out, sp, summary, params, best, say)
    summary = canonical_json(summary)  # rounded like the tables: the same games give the same bytes
    rf.write_atomic(out / "balance.json", json.dumps(summary, indent=1, default=str).encode())

    summary["page"] = str(build(out, summary, tab, rc, tgs, side))
    return summary


def _sampler(sp: _Search, say: Callable[[str], None]):
    """The Optuna sampler of the search: every candidate once (BruteForceSampler) when the discrete space holds
    at most ``sp.trials`` candidates, else TPE; seeded with the run seed's low 32 bits."""
    import optuna  # start-up: optuna takes 0.4 s to import; only the search uses it

    grid = grid_size(sp.ranges)
    if grid is not None and grid <= sp.trials:  # a small discrete space: try every candidate once
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            sampler: optuna.samplers.BaseSampler = optuna.samplers.BruteForceSampler(seed=sp.seed % 2**32)  # Optuna takes 32 seed bits
        say(f"search: all {grid} candidates of the discrete space, each once (Optuna BruteForceSampler)")
    else:
        sampler = optuna.samplers.TPESampler(seed=sp.seed % 2**32,  # Optuna takes 32 bits of the 63-bit seed
                                             n_startup_trials=min(10, max(2, sp.trials // 3)))
    return sampler


def _run_trials(out, state, sp: _Search, sampler, say: Callable[[str], None]) -> tuple:
    """The Optuna search: ``sp.trials`` candidates (the defaults first when inside every range), each played
    in every lineup (or read from ``state`` when saved before). Returns (the Optuna study, one row per
    candidate the rules accept: trial, values, metric per target, met, excess; whether the defaults came first).

    Raises:
        ConfigError: every candidate refused by the rules' consistency check.
    """
    import optuna  # start-up: optuna takes 0.4 s to import; only the search uses it

    saved = {tuple(e["key"]): list(e["metrics"]) for e in state["evaluated"]}
    cls, ranges, fixed, tgs, trials = sp.cls, sp.ranges, sp.fixed, sp.tgs, sp.trials
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    directions: list[Literal["minimize", "maximize"]] = ["minimize"] * len(tgs)
    ost = optuna.create_study(directions=directions, sampler=sampler)
    rows: list[dict] = []
    seen: dict[tuple, list[float]] = {}

    def objective(trial):
        values = {n: _suggest(trial, r) for n, r in ranges.items()}
        try:
            apply_overrides(cls.Params(), {**fixed, **values})
        except ConfigError as e:
            trial.set_user_attr("refused", str(e))
            trials_bar.advance(1)
            raise optuna.TrialPruned() from None
        key = tuple(format_value(v) for v in values.values())
        if key not in seen and key in saved:  # played before the search was interrupted: the same games
            seen[key] = saved[key]
        if key not in seen:  # same rules, same seeds: the same games (a small discrete space repeats points)
            g = evaluate_lineups(cls, {**fixed, **values}, sp.lineups, sp.games, sp.seed, **sp.par)
            seen[key] = [t.value(g) for t in tgs]
            state["evaluated"].append({"key": list(key), "metrics": seen[key]})
            _save_state(out, state)
        ms = seen[key]
        rows.append({"trial": trial.number, **{n: format_value(v) for n, v in values.items()},
                     **{t.text: m for t, m in zip(tgs, ms)},
                     "met": sum(t.excess(m) == 0 for t, m in zip(tgs, ms)), "excess": sum(t.excess(m) for t, m in zip(tgs, ms))})
        trial.set_user_attr("values", {n: format_value(v) for n, v in values.items()})
        trials_bar.advance(1)
        say(f"trial {trial.number} ({trial.number + 1}/{trials}{', the defaults' if trial.number == 0 and defaults_first else ''}): " + ", ".join(f"{n}={format_value(v)}" for n, v in values.items())
            + " -> " + ", ".join(f"{t.metric} {m:.2f}" for t, m in zip(tgs, ms)))
        return tuple(t.objective(m) for t, m in zip(tgs, ms)) if len(tgs) > 1 else tgs[0].objective(ms[0])

    # the defaults first (when inside every range): the baseline every proposal is compared with
    defaults_first = all(_inside(r) for r in ranges.values())
    ost.enqueue_trial(dict(_enqueued(r) for r in ranges.values() if _inside(r)))
    with bar("balance trials", trials, unit="trials", on=sp.progress_bar) as trials_bar:
        optimize(ost, objective, trials)
    if not rows:
        raise ConfigError(f"every candidate was refused by the rules' consistency check ({trials} trials): narrow --vary")
    return ost, rows, defaults_first


def _recheck(out, state, sp: _Search, tab: pl.DataFrame, say: Callable[[str], None]) -> list[dict]:
    """The best ``sp.recheck`` distinct candidates of ``tab`` (most targets met, least excess) re-played on
    fresh seeds, ``sp.games * sp.recheck_factor`` games per lineup (a row saved in ``state`` before is read,
    not played again). Returns one row per candidate: values, each target's value with its bootstrap interval
    (``<target> low``/``high``), met, excess, met_interval, excess_interval."""
    ranges = sp.ranges
    saved_rc = {int(r["trial"]): r for r in state["rechecked"]}
    order = tab.sort(["met", "excess", "trial"], descending=[True, False, False])
    cand = order.unique(subset=list(ranges), keep="first", maintain_order=True).head(sp.recheck)["trial"].to_list()
    fresh = []
    with bar("balance re-check", len(cand), unit="candidates", on=sp.progress_bar) as rc_bar:
        for tr in cand:
            values = {n: parse_value(n, tab.filter(pl.col("trial") == tr)[n][0], ranges[n].default) for n in ranges}
            row = saved_rc.get(int(tr))
            if row is not None and all(row.get(n) == format_value(v) for n, v in values.items()):
                fresh.append(row)  # re-checked before the search was interrupted
                rc_bar.advance(1)
                continue
            row = _recheck_row(sp, tr, values)
            fresh.append(row)
            state["rechecked"].append(row)
            _save_state(out, state)
            rc_bar.advance(1)
            say(f"re-check on fresh seeds: trial {tr}: " + ", ".join(f"{t.metric} {row[t.text]:.2f} [{row[t.text + ' low']:.2f}, "
                                                                      f"{row[t.text + ' high']:.2f}]" for t in sp.tgs))
    return fresh


def _recheck_row(sp: _Search, tr: int, values: dict) -> dict:
    """One candidate (trial ``tr``, parameter ``values``) played on fresh seeds: its re-check row (see
    :func:`_recheck`)."""
    seed = sp.seed
    g = evaluate_lineups(sp.cls, {**sp.fixed, **values}, sp.lineups, sp.games * sp.recheck_factor,
                         seed + FRESH_SEED_OFFSET, **sp.par)
    row = {"trial": tr, **{n: format_value(v) for n, v in values.items()}}
    met = met_iv = 0
    exc = exc_iv = 0.0
    for t in sp.tgs:
        v = t.value(g)
        lo, hi = bootstrap(g, t, seed=seed + FRESH_SEED_OFFSET)
        row[t.text], row[t.text + " low"], row[t.text + " high"] = v, lo, hi
        met += t.excess(v) == 0
        exc += t.excess(v)
        met_iv += max(t.excess(lo), t.excess(hi)) == 0
        exc_iv += max(t.excess(lo), t.excess(hi))
    row["met"], row["excess"], row["met_interval"], row["excess_interval"] = met, exc, met_iv, exc_iv
    return row


def _side_and_retuned(out, sp: _Search, summary: dict, params: dict, best: dict, say: Callable[[str], None]):
    """A proposal other than the defaults: its side effects (:func:`side_effects`) and, with ``sp.retune``, its
    re-check with re-tuned players (:func:`meeplelab.studies.balance_retune.run`), added to ``summary`` (in
    place). Returns the side-effects table, or None for the defaults."""
    if summary["proposal_is_defaults"]:
        return None
    seed, games = sp.seed, sp.games * sp.recheck_factor
    side = side_effects(out, sp.game, sp.fixed, params, sp.lineups, games, seed + FRESH_SEED_OFFSET,
                        sp.par, sp.progress_bar)
    summary["side_effects"] = {"rows": side.height, "changed": int(side["changed"].sum()) if side.height else 0,
                               "runs": sorted(str(p.relative_to(out)) for p in (out / SIDE).iterdir()
                                              if p.is_dir() and p.name != "retuned")}
    if sp.retune:
        summary["retuned"] = balance_retune.run(out, sp.game, sp.cls, sp.fixed, params, sp.lineups, sp.tgs, games,
                                                seed + FRESH_SEED_OFFSET, seed, sp.retune, sp.par,
                                                progress_bar=sp.progress_bar, say=say, recheck=best)
    return side


def side_effects(out: Path, game: str, fixed: dict, params: dict, lineups, games_per_lineup: int, seed: int,
                 par: dict, progress_bar: bool = False) -> pl.DataFrame:
    """What the proposal changes beyond its targets: for every rotated field the search
    measured (panels ``field-P``), the field played under the defaults (the ``--set`` values only) and under
    the proposal (``params``) as two run folders ``out/side_effects/<panel>-defaults`` and
    ``<panel>-proposal`` on the same fresh seeds and seat orders (rotate; every log written), as many games as
    the re-check played in that field; then :func:`meeplelab.analysis.compare.delta_table` of the two: every
    strategy's win rate and VP, rank, seat spread per player count, game length, score categories, action and
    space use, events, the Abjure or citation rate, each proposal minus defaults with its paired 95% interval,
    games needed and Holm-adjusted p-value. Written as ``out/side_effects.parquet`` and ``.csv``.

    A folder already complete is read, not played again (a resumed search); the games depend on the
    seeds and rules only, not on ``par`` (n_jobs, backend, batch size).

    Returns:
        The delta table (columns of :data:`meeplelab.analysis.compare.COLUMNS`); empty when the search
        measured no rotated field (a conclusion's panels only).
    """
    text = lambda d: {k: format_value(v) for k, v in d.items()}  # noqa: E731
    folders = []
    arms = [field_configs(game, lineups, text(rules), games_per_lineup, seed, par, Path(out), name)
            for name, rules in (("defaults", fixed), ("proposal", params))]
    for (panel, d_cfg), (_, p_cfg) in zip(*arms):
        for name, cfg in (("defaults", d_cfg), ("proposal", p_cfg)):
            cfg = validated(cfg)
            folder = Path(cfg.out)
            label = f"side effects {panel} {name}"
            if (folder / rf.MANIFEST).is_file():
                m = rf.read_manifest(folder)
                _check_resumable(m, cfg)
                if m.get("status") != "complete":
                    simulate(cfg, resume=True, progress=progress_bar, label=label)
            else:
                simulate(cfg, progress=progress_bar, label=label)
            folders.append(folder)
    if not folders:
        return pl.DataFrame(schema={c: pl.String for c in COLUMNS})
    runs = load_runs(folders)
    vs = versions(runs)
    first = next(i for i, v in enumerate(vs) if any(r.endswith("-defaults") for r in v.runs))
    vs = [vs[first]] + [v for i, v in enumerate(vs) if i != first]
    t = delta_table(runs, vs)
    write_table(t, Path(out) / "side_effects.parquet")
    rf.write_atomic(Path(out) / "side_effects.csv", _csv(t))
    return t


def _inside(r: Range) -> bool:
    if r.choices is not None:
        return r.default in r.choices
    lows = r.low if isinstance(r.low, tuple) else (r.low,)
    highs = r.high if isinstance(r.high, tuple) else (r.high,)
    ds = r.default if isinstance(r.default, tuple) else (r.default,)
    return all(a <= d <= b for a, d, b in zip(lows, ds, highs)) and (not isinstance(r.default, tuple) or r.value(r.unit_of(r.default)) == r.default)


def _same_value(r: Range, text: str) -> bool:
    """Whether the proposed value ``text`` is the parameter's default."""
    return format_value(r.default) == str(text)


def _save_state(out: Path, state: dict) -> None:
    rf.save_state(out / STATE, state)


def _read_state(out: Path) -> dict:
    return rf.read_state(out / STATE, "a saved balance search")


_OPTIONS = {"retune": "--retune", "game": "--game", "vary": "--vary", "targets": "--target", "trials": "--trials",
            "games_per_lineup": "--games-per-lineup", "seed": "--seed", "recheck": "--recheck",
            "recheck_factor": "--recheck-factor", "fixed": "--set", "lineups": "the study's lineups"}


def _check_same(old: dict, new: dict) -> None:
    """RunFolderError naming the first option in which the saved search differs from ``new``."""
    def show(v) -> str:
        if isinstance(v, dict):
            return " ".join(f"{k}={x}" for k, x in v.items()) or "(none)"
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return " ".join(v)
        return str(v)

    for k, opt in _OPTIONS.items():
        a, b = old.get(k, 0 if k == "retune" else None), new[k]  # a search saved before --retune: 0
        if a != b:
            if k == "lineups":
                raise RunFolderError("cannot resume: the balance search in the folder was played on other lineups "
                                     "of the study: use --overwrite")
            raise RunFolderError(f"cannot resume: the balance search in the folder has {opt} {show(a)}, this search "
                                 f"has {opt} {show(b)}: use the same options or --overwrite")


#: a balance folder: the search's files (:data:`OUR`) and nothing else; without its state file, an interrupted search
#: that only --overwrite replaces
STUDY_FOLDER = rf.StudyFolder("balance search", STATE, OUR, status_required=False)

