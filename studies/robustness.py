"""Global sensitivity of balance conclusions to the assumed rule numbers (``meeplelab robustness``).

The factors are the assumed parameters that vary in their plausible ranges (:mod:`meeplelab.sim.plausible`),
in unit coordinates. Two stages, both from SALib (Morris is not in scipy.stats.qmc; see
``docs/robustness.md``):

1. **Morris screening**: ``r`` trajectories of ``k + 1`` points on a 4-level grid
   (``SALib.sample.morris``); for each conclusion the mean elementary effect ``mu`` (the change of
   the conclusion's quantity from the low to the high end of a range, linearised), ``mu*`` (mean
   absolute effect) with its bootstrap interval, and ``sigma`` (interaction / non-linearity).
2. **Sobol indices** (``SALib.sample.sobol``, Saltelli's scheme, first-order ``S1`` and total
   ``ST`` with bootstrap intervals) for the factors that matter: those whose ``mu*`` interval
   excludes 0 for some conclusion (at most ``sobol_max``, largest normalised ``mu*`` first), the
   other factors held at their defaults.

Each design point is one rule variant; it is played as the study's panels (:mod:`meeplelab.play.panels`,
every lineup on the same seeds, and the same seeds at every point: common random numbers across
the whole design, so differences between points are not seed noise). Point 0 is the default rules.

The budget is in games: point 0 plus the Morris stage take about ``morris_share`` (half) of it (``r``
as large as fits, 2 to ``MAX_TRAJECTORIES``), the Sobol stage the largest power-of-two base sample
(at least 8) that fits the rest; with less left the Sobol stage is skipped and the report says so.

Folder ``out``: ``robustness.json`` (the design and its status), ``points/p00000.parquet`` (the
games of each point, written atomically as it finishes), ``conclusions.parquet`` (per point and
conclusion), ``results.json`` and ``report/``. ``resume`` plays only the missing points of the same
design (a different game, budget, seed, games per lineup, ranges or lineups is refused, named).
Results do not depend on ``n_jobs``.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import polars as pl

from meeplelab.play import runfolder as rf
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.sim.core.params import apply_overrides
from meeplelab.play.parallel import map_unordered
from meeplelab.sim.plausible import Range, format_value, load_plausible
from meeplelab.analysis.robustness import analyse, conclusion_values, morris_indices
from meeplelab.analysis.robustness_report import build
from meeplelab.analysis.studies import study_for
from meeplelab.analysis.tables import canonical_json, write_table
from meeplelab.play.panels import play_lineups
from meeplelab.play.parallel import check_backend
from meeplelab.play.progress import bar
from meeplelab.play.shipping import collect
from meeplelab.play.warmup import warm_for_run
from meeplelab.sim.registry import get_game_class

META = "robustness.json"
LEVELS = 4
#: Morris trajectories at most (screening needs few; the rest of the budget goes to Sobol)
MAX_TRAJECTORIES = 10
OUR_FILES = (META, "conclusions.parquet", "results.json", rf.SETTINGS)
OUR_DIRS = ("points", "report")


@dataclass
class Design:
    """The design of a robustness run (saved in ``robustness.json``)."""

    game: str
    budget: int
    games: int  # per lineup per point
    seed: int
    factors: list[str]
    ranges: dict[str, str]
    lineups: list[list]
    r: int
    morris_X: list[list[float]]
    sobol_max: int
    sobol_factors: list[str] | None = None
    sobol_N: int = 0
    sobol_X: list[list[float]] | None = None
    status: str = "running"

    @property
    def games_per_point(self) -> int:
        return self.games * len(self.lineups)

    def points(self) -> list[dict[str, float]]:
        """Every point as ``{factor: u}`` (factors absent: default value); point 0 is the defaults."""
        pts: list[dict[str, float]] = [{}]
        pts += [dict(zip(self.factors, x)) for x in self.morris_X]
        if self.sobol_X and self.sobol_factors:  # set together
            pts += [dict(zip(self.sobol_factors, x)) for x in self.sobol_X]
        return pts


def _lineup_key(lu) -> list:
    return [lu.panel, lu.rot, list(lu.strategies), lu.treatment, lu.treated_seat]


def plan(game: str, budget: int, *, games: int | None = None, seed: int = 0, study=None,
         ranges: dict[str, Range] | None = None, morris_share: float = 0.5, sobol_max: int = 5) -> Design:
    """The Morris design that fits ``budget`` games.

    Raises:
        ConfigError: budget too small for point 0 and two Morris trajectories (the minimum named),
            games < 1, or no factor varies.
    """
    from SALib.sample import morris as morris_sample

    study = study or study_for(game)
    ranges = ranges if ranges is not None else load_plausible(game, study.plausible)
    factors = [n for n, r in ranges.items() if r.varies]
    if not factors:
        raise ConfigError(f"{game}: no assumed parameter varies in its plausible range")
    games = games if games is not None else study.default_games
    if not isinstance(games, int) or games < 1:
        raise ConfigError(f"--games-per-lineup {games}: must be >= 1")
    g = games * len(study.lineups)
    k = len(factors)
    need = g * (1 + 2 * (k + 1))
    if budget < need:
        raise ConfigError(f"--budget {budget:,} games is too small: at least {need:,} for the defaults and 2 Morris "
                          f"trajectories of {k} factors at {g:,} games per point ({len(study.lineups)} lineups x {games})")
    r = min(MAX_TRAJECTORIES, max(2, int((morris_share * budget - g) // (g * (k + 1)))))
    problem = {"num_vars": k, "names": factors, "bounds": [[0.0, 1.0]] * k}
    X = morris_sample.sample(problem, N=r, num_levels=LEVELS, seed=seed)
    return Design(game, int(budget), games, int(seed), factors, {n: ranges[n].text() for n in ranges},
                  [_lineup_key(lu) for lu in study.lineups], r, X.round(12).tolist(), sobol_max)


def _overrides(ranges: dict[str, Range], point: dict[str, float]) -> dict[str, Any]:
    return {n: ranges[n].value(u) for n, u in point.items()}


def evaluate_point(game_cls, overrides: dict, lineups, games: int, seed: int, batch_size: int = 4096) -> pl.DataFrame:
    """Play the study's lineups under ``overrides`` (values, not unit coordinates); see :func:`meeplelab.play.panels.play_lineups`."""
    params = apply_overrides(game_cls.Params(), overrides)
    return play_lineups(game_cls(params=params), lineups, games, seed, batch_size=batch_size)


def run_robustness(game: str, out: Path | str, budget: int, *, games: int | None = None, seed: int = 0,
                   n_jobs: int = 1, resume: bool = False, overwrite: bool = False, study=None,
                   ranges: dict[str, Range] | None = None, batch_size: int = 4096, sobol_max: int = 5,
                   progress: Callable[[str], None] | None = None, command: str = "",
                   settings: str | None = None, backend: str = "loky", scheduler: str | None = None,
                   progress_bar: bool = False) -> dict:
    """Plan (or resume), play every design point, analyse and write the report (``out/report``, with
    ``command`` as the line that reproduces it; ``settings``, the command's resolved settings TOML, as
    ``out/config.toml``); returns ``{"json": results, "points": per point, "page": html}``.

    ``progress(line)`` is called after each design point; ``progress_bar`` draws a bar of points per stage
    (:mod:`meeplelab.play.progress`). ``n_jobs``, ``backend`` and ``scheduler`` say where the points are played
    (:func:`meeplelab.play.parallel.map_unordered`); the results do not depend on them, nor on ``batch_size``.

    Raises:
        ConfigError: bad budget/games/ranges (before anything is written).
        RunFolderError: ``out`` holds another robustness run (without resume/overwrite), is not empty and
            not a robustness folder, or (resume) holds a different design.
        KeyboardInterrupt: after marking ``robustness.json`` ``interrupted`` (finished points are kept).
    """
    out = Path(out)
    study = study or study_for(game)
    ranges = ranges if ranges is not None else load_plausible(game, study.plausible)
    cls = get_game_class(game)

    check_backend(backend, scheduler, n_jobs)
    d = plan(game, budget, games=games, seed=seed, study=study, ranges=ranges, sobol_max=sobol_max)
    with rf.study_folder(out, STUDY_FOLDER, resume=resume, overwrite=overwrite) as work:
        res = _run(work, d, cls, study, ranges, resume=resume, n_jobs=n_jobs, batch_size=batch_size,
                   say=progress or (lambda s: None), command=command, settings=settings, backend=backend,
                   scheduler=scheduler, progress_bar=progress_bar)
    res["page"] = Path(rf.rebase(res["page"], work, out))
    return res


def _run(out: Path, d: Design, cls, study, ranges, *, resume: bool, n_jobs: int, batch_size: int, say,
         command: str, settings: str | None, backend: str, scheduler: str | None, progress_bar: bool) -> dict:
    """:func:`run_robustness` in the folder ``out`` it is built in."""
    if resume and (out / META).is_file():
        old = _read(out)
        _check_same(old, d)
        d = old
    (out / "points").mkdir(parents=True, exist_ok=True)
    try:
        d.status = "running"
        _save(out, d)
        rf.write_settings(out, settings)
        _play_points(out, d, cls, study, ranges, n_jobs, batch_size, say, stage="morris", backend=backend,
                     scheduler=scheduler, progress_bar=progress_bar)
        tables = _load_points(out, d)
        if d.sobol_X is None:
            _plan_sobol(d, study, ranges, tables)
            _save(out, d)
        if d.sobol_X:
            _play_points(out, d, cls, study, ranges, n_jobs, batch_size, say, stage="sobol", backend=backend,
                         scheduler=scheduler, progress_bar=progress_bar)
            tables = _load_points(out, d)
        d.status = "done"
        _save(out, d)
    except KeyboardInterrupt:
        d.status = "interrupted"
        _save(out, d)
        raise
    except BaseException:
        d.status = "failed"
        _save(out, d)
        raise

    res = analyse(d, study, ranges, tables)

    res["json"] = canonical_json(res["json"])  # rounded: the same games give the same bytes
    rf.write_atomic(out / "results.json", json.dumps(res["json"], indent=1, default=float).encode())
    write_table(res["points"], out / "conclusions.parquet")

    res["page"] = build(out, res["json"], command)
    return res


def evaluate_lineups(game_cls, overrides: dict, lineups, games: int, seed: int, batch_size: int = 4096, *,
                     n_jobs: int = 1, backend: str = "loky", scheduler: str | None = None) -> pl.DataFrame:
    """:func:`evaluate_point` with each lineup played as its own task (:func:`meeplelab.play.parallel.map_unordered`):
    the same frame (``lineup`` indexes ``lineups``; sorted by lineup, game, seat) for any ``n_jobs`` and
    backend, since every game is keyed by (seed, game) and its lineup, not by the batch it is played in.

    Raises:
        ConfigError: bad backend options, unknown strategies or treatments (see :func:`evaluate_point`).
    """
    if (n_jobs == 1 and backend != "dask") or len(lineups) == 1:
        return evaluate_point(game_cls, overrides, lineups, games, seed, batch_size)

    if backend == "loky":
        _warm(game_cls, lineups, seed)
    regs = collect(game_cls.name, [s for lu in lineups for s in lu.strategies],
                   [lu.treatment for lu in lineups if lu.treatment])
    tasks = [(regs, game_cls, overrides, (lu,), games, seed, batch_size) for lu in lineups]
    frames: list = [None] * len(lineups)
    for i, df in map_unordered(_point_task, tasks, n_jobs=n_jobs, backend=backend, scheduler=scheduler):
        frames[i] = df.with_columns(pl.lit(i, pl.Int32).alias("lineup"))
    return pl.concat(frames).sort("lineup", "game", "seat")


def _warm(cls, lineups, seed: int) -> None:
    """Compile (or load) the rule kernels here at every seat count of ``lineups`` before loky workers start
    (:func:`meeplelab.play.warmup.warm_for_run`): the workers load them, and the compile notice is said once."""
    game = cls()
    for players in sorted({len(lu.strategies) for lu in lineups}):
        warm_for_run(game, players, seed, compiled=False)


def _point_task(regs, cls, overrides, lineups, games: int, seed: int, batch_size: int):
    """One design point in a worker: install what the parent registered (play/shipping.py), then play it."""
    if regs is not None:
        regs.install()
    return evaluate_point(cls, overrides, lineups, games, seed, batch_size)


def _play_points(out, d: Design, cls, study, ranges, n_jobs, batch_size, say, stage, *, backend: str = "loky",
                 scheduler: str | None = None, progress_bar: bool = False) -> None:
    pts = d.points()
    lo = 0 if stage == "morris" else 1 + len(d.morris_X)
    hi = 1 + len(d.morris_X) if stage == "morris" else len(pts)
    todo = [i for i in range(lo, hi) if not (out / "points" / f"p{i:05d}.parquet").is_file()]
    total, gpp = len(pts), d.games_per_point
    done0 = sum((out / "points" / f"p{i:05d}.parquet").is_file() for i in range(total))
    t0, n = time.perf_counter(), 0
    regs = None
    if n_jobs != 1 or backend == "dask":
        # what the parent registered outside the built-in modules goes with every task (play/shipping.py)
        regs = collect(d.game, [s for lu in study.lineups for s in lu.strategies],
                       [lu.treatment for lu in study.lineups if lu.treatment])
    if len(todo) > 1 and backend == "loky" and n_jobs != 1:  # compiled once here, loaded by the workers
        _warm(cls, study.lineups, d.seed)
    jobs = [(i, _overrides(ranges, pts[i])) for i in todo]
    tasks = [(regs, cls, ov, study.lineups, d.games, d.seed, batch_size) for _, ov in jobs]
    with bar(f"robustness {stage}", hi - lo, done=(hi - lo) - len(todo), unit="points", on=progress_bar) as b:
        for k, df in map_unordered(_point_task, tasks, n_jobs=n_jobs, backend=backend, scheduler=scheduler):
            rf.write_frame(out / "points" / f"p{jobs[k][0]:05d}.parquet", df)
            n += 1
            b.advance(1)
            el = time.perf_counter() - t0
            rate = n * gpp / el if el > 0 else 0.0
            left = (len(todo) - n) * gpp
            say(f"{stage}: point {done0 + n}/{total} ({(done0 + n) * gpp:,} of {total * gpp:,} games planned), "
                f"{rate:,.0f} games/s, {left / rate / 60 if rate else 0:.1f} min left in this stage")


def _load_points(out, d: Design) -> list[pl.DataFrame | None]:
    res = []
    for i in range(len(d.points())):
        p = out / "points" / f"p{i:05d}.parquet"
        res.append(pl.read_parquet(p) if p.is_file() else None)
    return res


def _plan_sobol(d: Design, study, ranges, tables) -> None:
    """Choose the Sobol factors from the Morris results and the base sample size that fits the budget."""
    from SALib.sample import sobol as sobol_sample

    q = conclusion_values(study, tables[:1 + len(d.morris_X)])
    score: dict[str, float] = {}
    for c in study.conclusions:
        mi = morris_indices(d, q[c.name]["q"][1:])
        scale = float(np.nanstd(q[c.name]["q"])) or 1.0
        for f, ms, conf in zip(d.factors, mi["mu_star"], mi["mu_star_conf"]):
            if ms - conf > 0:
                score[f] = max(score.get(f, 0.0), ms / scale)
    chosen = sorted(score, key=lambda f: -score[f])[:d.sobol_max]
    d.sobol_factors = chosen
    left = d.budget - d.games_per_point * (1 + len(d.morris_X))
    m = len(chosen)
    if m == 0:
        d.sobol_X = []
        return
    n = 1
    while 2 * n * (m + 2) * d.games_per_point <= left:
        n *= 2
    if n < 8 or n * (m + 2) * d.games_per_point > left:
        d.sobol_X, d.sobol_N = [], 0  # not enough budget left: reported
        return
    problem = {"num_vars": m, "names": chosen, "bounds": [[0.0, 1.0]] * m}
    d.sobol_N = n
    d.sobol_X = sobol_sample.sample(problem, n, calc_second_order=False, seed=d.seed).round(12).tolist()


# ------------------------------------------------------------------------------------- folder
def _save(out: Path, d: Design) -> None:
    rf.write_atomic(out / META, json.dumps(dataclasses.asdict(d), indent=1).encode())


def _read(out: Path) -> Design:
    try:
        return Design(**json.loads((out / META).read_text()))
    except (OSError, json.JSONDecodeError, TypeError) as e:
        raise RunFolderError(f"{str(out / META)!r} is unreadable: {e}") from None


def _check_same(old: Design, new: Design) -> None:
    for k in ("game", "budget", "games", "seed", "factors", "ranges", "lineups", "sobol_max"):
        a, b = getattr(old, k), getattr(new, k)
        if a != b:
            show = (lambda v: v) if k in ("game", "budget", "games", "seed", "sobol_max") else (lambda v: "(differs)")
            raise RunFolderError(f"cannot resume: the robustness run in the folder has {k}={show(a)!r}, this one "
                                 f"{k}={show(b)!r}: use the same options or --overwrite")


#: a robustness folder: its files and folders (:data:`OUR_FILES`, :data:`OUR_DIRS`) and nothing else
STUDY_FOLDER = rf.StudyFolder("robustness run", META, OUR_FILES + OUR_DIRS)


def set_line(values: dict[str, Any]) -> str:
    """``--set a=1 --set b=0,4,8`` for ``values``."""
    return " ".join(f"--set {k}={format_value(v)}" for k, v in values.items())

