"""Seat compensation: per-seat start bonuses that bring the seat spread within a target
(``meeplelab compensate``).

A compensation is a rule: the game's ``Params`` fields ``seat_<resource>_<P>p`` (Galileo's Truth
``seat_vp``, ``seat_coins``, ``seat_research``, A-GT-34; Unconscious Mind ``seat_vp``, ``seat_coffee``,
A-UM-35) give seat ``s`` of a ``P``-player game that much more of the resource at setup
(:func:`meeplelab.sim.core.start.apply_seat_bonus`). The solve proposes one tuple per player count:

1. **Search seeds.** At each player count the study's rotated field (every seat order, every strategy
   in every seat equally often, so strategy strength cancels) is played with the current candidate
   (the first: no compensation) and each seat's win rate measured; the seat spread is the best minus
   the worst seat's win rate (percentage points, :func:`meeplelab.analysis.seats.seat_spread`).
2. **Next candidate.** For VP the candidate's own games predict any other VP bonus exactly as long as
   nobody plays differently: every seat's final VP is re-scored with the change and the winners counted
   again (a tie on the new scores is shared). For other resources a linear model predicts each seat's
   win rate from the bonus, its slope (win points per unit given to one seat) fitted to the candidates
   played so far (the first step gives the worst seat one unit). The next candidate is the integer
   bonus (least seat 0, none above ``max_bonus``) with the smallest predicted spread (a local search).
3. The search stops when a candidate is within half the target on the search seeds (a margin for the
   search seeds' own luck), when it is within the target and its seats are not told apart (the best-worst
   pair's Holm-adjusted p-value of :func:`meeplelab.analysis.seats.seat_spread` at least 0.05: compensating further
   would chase the search seeds' luck), when the prediction names a candidate already played (the
   predicted best was played), or after ``iterations`` candidates; the candidate with the smallest spread
   played is kept.
4. **Fresh seeds.** The proposal and the uncompensated rules are played again on fresh seeds
   (``seed + meeplelab.studies.balance.FRESH_SEED_OFFSET``) with ``verify_factor`` times the games, both on the same
   seeds: the proposal's seat spread with its paired 95% interval (met: the point estimate within the
   target; ``met_interval``: the whole interval), and the side effects, every strategy's win rate, VP,
   rank, score categories, actions, events, the seat spread and game length, paired against the
   uncompensated rules (:func:`meeplelab.analysis.compare.delta_table`, Holm-adjusted).

Folder layout::

    OUT/compensate.json        the request, every candidate played with its seat win rates, a status
    OUT/search/p2-0_3/         a candidate's run on the search seeds (2 seats, Seat 2 +3)
    OUT/verify/p2-none/        the uncompensated rules on fresh seeds
    OUT/verify/p2-proposal/    the proposal on fresh seeds (the same seeds)
    OUT/proposal.toml          ``game`` and ``[params]``: ``meeplelab simulate --config OUT/proposal.toml`` plays it
    OUT/compensation.md        the summary; OUT/side_effects.csv/.parquet the side-effect table; OUT/report/

``--resume`` completes an interrupted solve (finished runs are read, not played again); ``--overwrite``
replaces one.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any, Callable, cast

import numpy as np

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.analysis.compare import _csv, changed_lines, delta_table
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.report import build_report
from meeplelab.analysis.retune import retuned_lines
from meeplelab.analysis.retune import section as retune_section
from meeplelab.analysis.retune import with_sections
from meeplelab.analysis.seats import games_frame, seat_spread
from meeplelab.analysis.tables import write_table
from meeplelab.analysis.versions import versions
from meeplelab.play.progress import bar
from meeplelab.play.runner import _check_resumable, simulate
from meeplelab.play.treatments import start_resources
from meeplelab.sim.core.params import _parse, apply_overrides
from meeplelab.sim.registry import get_game_class
from meeplelab.studies.balance import FRESH_SEED_OFFSET
from meeplelab.studies.compare import rosters
from meeplelab.studies.retune import FOLDER, clear, run_retuned
from meeplelab.studies.retune import check as check_tunable

STATE = "compensate.json"
OURS = ("search", "verify", "proposal.toml", "compensation.md", "side_effects.csv", "side_effects.parquet", "report",
        STATE, rf.SETTINGS, FOLDER, "retuned-p2.json", "retuned-p3.json", "retuned-p4.json")
#: games per lineup per trial of ``compensate --retune``'s tunings
RETUNE_GAMES_PER_TRIAL = 25


def _tag(bonus) -> str:
    return "_".join(str(int(x)) for x in bonus).replace("-", "m")


def compensable(game: str) -> list:
    """The start resources of ``game`` with per-seat compensation fields in its ``Params``."""
    import dataclasses as dc

    fields = {f.name for f in dc.fields(get_game_class(game).Params)}
    return [r for r in start_resources(game) if r.seat_param and all(r.seat_field(p) in fields for p in (2, 3, 4))]


def _resource(game: str, name: str):
    res = compensable(game)
    for r in res:
        if r.name == name:
            return r
    raise ConfigError(f"--resource {name!r}: {game} has no seat compensation in {name!r}; allowed "
                      f"{', '.join(r.name for r in res) or 'none'}")


# ------------------------------------------------------------------ measuring a candidate
def seat_rates(folder: Path) -> dict:
    """A run's seat win rates (percent, seat order 0..P-1), seat spread with its paired 95% interval, games."""
    runs = load_runs([folder])
    df = games_frame(runs)
    rates = df.group_by("seat", maintain_order=True).agg(pl_mean("win_share")).sort("seat")["win_share"].to_list()
    sp = seat_spread(df).row(0, named=True)
    return {"rates": [100.0 * r for r in rates], "spread": float(sp["spread"]), "spread_low": float(sp["spread_low"]),
            "spread_high": float(sp["spread_high"]), "games": int(sp["games"]), "best_seat": int(sp["best_seat"]),
            "worst_seat": int(sp["worst_seat"]), "p_holm": float(sp["p_holm"])}


def pl_mean(col: str):
    import polars as pl

    return pl.col(col).mean()


def _scores(folder: Path) -> tuple[np.ndarray, np.ndarray]:
    """``(vp int[G, P], original win share float[G, P])`` of a run, seats in order."""
    g = load_runs([folder]).games.select("game", "seat", "vp", "win_share").collect().sort("game", "seat")
    p = int(cast(int, g["seat"].max())) + 1
    return g["vp"].to_numpy().reshape(-1, p).astype(np.int64), g["win_share"].to_numpy().reshape(-1, p)


def rescored_rates(vp: np.ndarray, share: np.ndarray, delta) -> np.ndarray:
    """Seat win rates (percent) if every seat's final VP moved by ``delta[s]`` and nobody played differently:
    the top new score wins; a tie on it is shared, except among seats the played game already ranked
    (seats tied on VP before keep their tie-break outcome)."""
    d = np.asarray(delta, dtype=np.int64)
    if not d.any():
        return 100.0 * share.mean(axis=0)
    new = vp + d[None, :]
    top = new.max(axis=1, keepdims=True)
    lead = new == top
    # among the leaders, the played tie-break decides only between seats whose VP was equal before
    same = (vp[:, :, None] == vp[:, None, :]) & lead[:, :, None] & lead[:, None, :]
    keep = share > 0
    beaten = (same & keep[:, None, :] & ~keep[:, :, None]).any(axis=2)
    win = lead & ~beaten
    return 100.0 * (win / win.sum(axis=1, keepdims=True)).mean(axis=0)


def _spread(rates) -> float:
    r = np.asarray(rates, dtype=float)
    return float(r.max() - r.min())


def _local_search(predict: Callable[[tuple], np.ndarray], start: tuple, max_bonus: int, low: int = 0) -> tuple:
    """The integer bonus (least seat ``low``, every seat at most ``max_bonus``) with the smallest predicted
    spread reachable from ``start`` by moves of one seat (+-1, +-2, +-4); ties: the smaller total bonus."""
    def norm(b):
        b = np.asarray(b, dtype=np.int64)
        b = b - b.min() + low
        return tuple(int(x) for x in np.clip(b, low, max_bonus))

    def cost(b):
        return (round(_spread(predict(b)), 9), sum(b))

    best = norm(start)
    best_c = cost(best)
    for _ in range(200):
        improved = False
        for s in range(len(best)):
            for step in (1, -1, 2, -2, 4, -4):
                cand = list(best)
                cand[s] += step
                cand = norm(cand)
                c = cost(cand)
                if c < best_c:
                    best, best_c, improved = cand, c, True
        if not improved:
            break
    return best


def next_candidate(resource, history: list[dict], max_bonus: int, vp_games=None) -> tuple:
    """The next bonus to play at one player count from the candidates played so far (module docstring).

    Args:
        resource: the compensated start resource.
        history: played candidates, each ``{"bonus": [...], "rates": [...]}`` (percent), in play order.
        max_bonus: largest bonus of one seat.
        vp_games: ``(vp, share)`` of the last candidate's games (VP compensation: the re-scoring predictor).
    """
    last = history[-1]
    b0 = np.asarray(last["bonus"], dtype=np.int64)
    w0 = np.asarray(last["rates"], dtype=float)
    p = b0.size
    # the linear model: w_s(b) = w_s(b0) + c * (d_s - mean(d)), d = b - b0 (win rates sum to 100 over the seats)
    if resource.vp and vp_games is not None:
        vp, share = vp_games

        def predict(b):
            return rescored_rates(vp, share, np.asarray(b) - b0)

        # the starting guess uses the re-scoring's own slope (one VP more for one seat, averaged over the seats)
        own = float(np.mean([rescored_rates(vp, share, np.eye(p, dtype=np.int64)[s])[s] - w0[s] for s in range(p)]))
        c = own * p / (p - 1) if p > 1 else math.nan
    else:
        dx: list[float] = []
        dy: list[float] = []
        for a, b in zip(history, history[1:]):
            d = np.asarray(b["bonus"], float) - np.asarray(a["bonus"], float)
            dx.extend(d - d.mean())
            dy.extend(np.asarray(b["rates"], float) - np.asarray(a["rates"], float))
        xs, ys = np.asarray(dx), np.asarray(dy)
        c = float((xs * ys).sum() / (xs * xs).sum()) if xs.size and (xs * xs).sum() > 0 else math.nan
        if not (math.isfinite(c) and c > 0):
            worst = int(np.argmin(w0))  # no usable slope yet: one unit more for the worst seat
            step = b0.copy()
            step[worst] += 1
            return tuple(int(x) for x in (step - step.min()).clip(0, max_bonus))

        def predict(b):
            d = np.asarray(b, float) - b0
            return w0 + c * (d - d.mean())

    guess = b0 + np.round((w0.mean() - w0) / c).astype(np.int64) if math.isfinite(c) and c > 0 else b0
    return _local_search(predict, tuple(int(x) for x in guess), max_bonus)


# ------------------------------------------------------------------ the solve
@dataclasses.dataclass(frozen=True)
class Request:
    """What ``meeplelab compensate`` was asked (saved in ``compensate.json``; ``--resume`` compares it)."""

    game: str
    players: tuple[int, ...]
    target: float
    resource: str
    games: int
    seed: int
    iterations: int
    max_bonus: int
    verify_factor: int
    strategies: dict
    fixed: dict
    retune: int = 0


def plan_compensate(game: str, players: list[int], target: float, resource: str = "vp", *, games: int = 2400,
                    seed: int = 0, iterations: int = 6, max_bonus: int = 20, verify_factor: int = 2,
                    strategies: tuple[str, ...] | None = None, field: str = "scripted",
                    fixed: dict | None = None, retune: int = 0) -> Request:
    """The request, checked before anything is played (``strategies`` and ``field``: the rosters of
    :func:`meeplelab.studies.compare.rosters`; ``retune``: games of each re-tuning, 0 = players fixed, see
    :func:`retune_verified`).

    Raises:
        ConfigError: a target not above 0, a resource without compensation fields (the allowed named), a
            seat count the compensation fields do not cover (allowed 2, 3, 4), iterations, games or factors
            below 1, a roster the study cannot give, or ``--set`` values the game refuses (a compensation
            field set there too); with ``retune``, a negative budget or a roster
            :func:`meeplelab.studies.retune.check` refuses at some count (no tunable strategy, a budget below two
            trials).
    """
    if not (isinstance(target, (int, float)) and math.isfinite(target) and target > 0):
        raise ConfigError(f"--target {target!r}: allowed a seat spread above 0 percentage points (e.g. 5)")
    r = _resource(game, resource)
    bad = [p for p in players if p not in (2, 3, 4)]
    if bad:
        raise ConfigError(f"--players {bad[0]}: compensation fields exist for 2, 3 and 4 seats; allowed 2, 3, 4")
    for name, v in (("--iterations", iterations), ("--games", games), ("--verify-factor", verify_factor),
                    ("--max-bonus", max_bonus)):
        if not isinstance(v, int) or v < 1:
            raise ConfigError(f"{name} {v!r}: allowed a whole number of 1 or more")
    fixed = dict(fixed or {})
    clash = sorted(k for k in fixed if k.startswith("seat_"))
    if clash:
        raise ConfigError(f"--set {clash[0]}: the compensation fields are what compensate proposes; leave them out "
                          "of --set")
    apply_overrides(get_game_class(game).Params(), fixed)
    ros = rosters(game, list(players), strategies, field)
    if retune < 0:
        raise ConfigError(f"--retune {retune}: allowed 0 (players fixed) or the games of each re-tuning")
    for p in sorted(players) if retune else []:
        check_tunable(RunConfig(game=game, players=p, strategies=tuple(ros[p]), games=games, params=fixed), retune,
                      RETUNE_GAMES_PER_TRIAL)
    return Request(game, tuple(sorted(players)), float(target), r.name, games, seed, iterations, max_bonus,
                   verify_factor, {str(p): list(v) for p, v in ros.items()}, {k: str(v) for k, v in fixed.items()},
                   retune)


@dataclasses.dataclass(frozen=True)
class Execution:
    """How the runs of a solve are executed; never what they hold (the games are the same for any of these):
    ``n_jobs`` workers (-1 = all cores), ``backend`` (loky, threading, dask with ``scheduler``),
    ``batch_size`` games per batch."""

    n_jobs: int = -1
    batch_size: int = 1024
    backend: str = "loky"
    scheduler: str | None = None


def _config(req: Request, players: int, bonus, seed: int, games: int, out: Path, *, logs: bool,
            run: Execution) -> RunConfig:
    r = _resource(req.game, req.resource)
    params = {**req.fixed, r.seat_field(players): ",".join(str(int(x)) for x in bonus)}
    return validated(RunConfig(game=req.game, players=players, strategies=tuple(req.strategies[str(players)]), games=games,
                     seed=seed, batch_size=run.batch_size, n_jobs=run.n_jobs, backend=run.backend,
                     scheduler=run.scheduler, out=str(out), params=params, seating="rotate",
                     log_turns=logs, log_events=logs))


def _play(cfg: RunConfig, resume: bool, draw: bool = False) -> None:
    folder = Path(cfg.out)
    label = f"{folder.parent.name}/{folder.name}"
    if (folder / rf.MANIFEST).is_file():
        m = rf.read_manifest(folder)
        _check_resumable(m, cfg)  # a resumed solve reads only its own runs
        if m.get("status") == "complete":
            return
        simulate(cfg, resume=True, progress=draw, label=label)
        return
    simulate(cfg, progress=draw, label=label)


def run_compensate(req: Request, out: Path | str, *, n_jobs: int = -1, batch_size: int = 1024, overwrite: bool = False,
                   resume: bool = False, progress: Callable[[str], None] | None = None, backend: str = "loky",
                   scheduler: str | None = None, draw: bool = False, settings: str | None = None) -> dict:
    """Solve, verify on fresh seeds, write the proposal, the side-effect table and the summary (module
    docstring); returns the saved state with ``proposal``, ``verified`` and ``page``.

    Args:
        n_jobs, batch_size, backend, scheduler: how every run is executed (:class:`Execution`; the results do
            not depend on them).
        progress: called with one line per candidate and per verified count.
        draw: draw progress bars (a bar of seat counts and each run's games, :mod:`meeplelab.play.progress`).
        settings: the command's resolved settings TOML, written as ``out/config.toml``.

    Raises:
        RunFolderError: ``out`` holds something else, or a solve without ``overwrite``/``resume``;
            (``resume``) nothing to resume or the saved request differs (named).
        KeyboardInterrupt: after marking ``compensate.json`` ``interrupted`` (other errors: ``failed``).
    """
    out = Path(out)
    with rf.study_folder(out, STUDY_FOLDER, resume=resume, overwrite=overwrite) as work:
        state = _solve(req, work, out, resume=resume, run=Execution(n_jobs, batch_size, backend, scheduler),
                       say=progress or (lambda s: None), draw=draw, settings=settings)
    return {**state, "page": rf.rebase(state["page"], work, out)}


def _solve(req: Request, out: Path, shown: Path, *, resume: bool, run: Execution, say: Callable[[str], None],
           draw: bool, settings: str | None) -> dict:
    """:func:`run_compensate` in the folder ``out`` the solve is built in (``shown``: the folder it is written to,
    as the summary names it); returns the saved state with ``page`` (under ``out``)."""
    state = _start_state(req, out, resume)
    out.mkdir(parents=True, exist_ok=True)
    rf.save_state(out / STATE, state)
    rf.write_settings(out, settings)
    res = _resource(req.game, req.resource)

    try:
        with bar("compensate", 2 * len(req.players), unit="steps", on=draw) as steps:
            proposal = {}
            for p in req.players:
                proposal[p] = _search_seats(req, p, out, state, res, run, resume=resume, draw=draw, say=say)
                steps.advance(1)
            state["proposal"] = {res.seat_field(p): list(b) for p, b in proposal.items()}
            rf.save_state(out / STATE, state)
            verify_runs = []
            for p in req.players:
                verify_runs += _verify_seats(req, p, proposal[p], out, state, res, run, resume=resume, draw=draw,
                                             say=say)
                steps.advance(1)
        retune_verified(req, out, state, run, draw=draw, say=say)
        page = _write_outputs(out, req, state, verify_runs, draw, shown=shown)
    except KeyboardInterrupt:
        state["status"] = "interrupted"
        rf.save_state(out / STATE, state)
        raise
    except BaseException:
        state["status"] = "failed"
        rf.save_state(out / STATE, state)
        raise
    state["status"] = "complete"
    rf.save_state(out / STATE, state)
    return {**state, "page": str(page)}


def _start_state(req: Request, out: Path, resume: bool) -> dict[str, Any]:
    """The solve's state to save (``compensate.json``): the request, status running, no candidates yet.

    Raises:
        RunFolderError: (``resume``) nothing to resume, or the saved request differs from ``req`` (named).
    """
    request = {k: (list(v) if isinstance(v, tuple) else v) for k, v in dataclasses.asdict(req).items()
               if k != "retune" or v}  # a solve with --retune saves its budget (a resume with another is refused)
    state: dict[str, Any] = {"request": request, "status": "running", "candidates": {}, "verified": {}}
    if resume:
        old = rf.read_state(out / STATE, "a saved compensation solve")
        for k, v in request.items():
            if old.get("request", {}).get(k) != v:
                raise RunFolderError(f"cannot resume: the compensation solve in {str(out)!r} was started with {k} = "
                                     f"{json.dumps(old.get('request', {}).get(k))}, this one has {k} = {json.dumps(v)}: "
                                     "use the same options or --overwrite")
        saved = int(old.get("request", {}).get("retune", 0))
        if saved != req.retune:  # also a re-tuned solve resumed without --retune
            raise RunFolderError(f"cannot resume: the compensation solve in {str(out)!r} was started with --retune "
                                 f"{saved}, this one has --retune {req.retune}: use the same options or --overwrite")
    return state


def _search_seats(req: Request, p: int, out: Path, state: dict, res, run: Execution, *, resume: bool, draw: bool,
                  say: Callable[[str], None]) -> tuple:
    """The search at ``p`` seats on the search seeds: candidates from no compensation on, each predicted from
    the ones before (:func:`next_candidate`), until the spread is well inside the target, the seats are not told
    apart, the prediction repeats a candidate or ``req.iterations`` run out; every candidate is saved in
    ``state["candidates"]``. Returns the best candidate's bonus per seat (least spread, then least bonus)."""
    hist: list[dict] = []
    bonus = (0,) * p
    for it in range(req.iterations):
        folder = out / "search" / f"p{p}-{_tag(bonus)}"
        cfg = _config(req, p, bonus, req.seed, req.games, folder, logs=False, run=run)
        _play(cfg, resume, draw)
        m = seat_rates(folder)
        hist.append({"bonus": list(bonus), **m, "run": str(folder.relative_to(out))})
        state["candidates"][str(p)] = hist
        rf.save_state(out / STATE, state)
        say(f"{p} seats, candidate {it + 1}: {res.seat_field(p)}={','.join(map(str, bonus))} -> seat win rates "
            + ", ".join(f"{x:.1f}" for x in m["rates"]) + f"%, spread {m['spread']:.1f} points "
            f"[{m['spread_low']:.1f}, {m['spread_high']:.1f}] (search seeds, {m['games']:,} games)")
        if m["spread"] <= req.target / 2 or it == req.iterations - 1:
            break  # well inside the target on the search seeds (or out of candidates)
        if m["spread"] <= req.target and m["p_holm"] >= 0.05:
            say(f"{p} seats: the spread is within the target and the seats are not told apart (best against "
                f"worst seat, Holm-adjusted p = {m['p_holm']:.2g}): nothing left to compensate")
            break
        nxt = next_candidate(res, hist, req.max_bonus, _scores(folder) if res.vp else None)
        if list(nxt) in [h["bonus"] for h in hist]:
            say(f"{p} seats: the prediction names a candidate already played ({','.join(map(str, nxt))}); "
                "search ends")
            break
        bonus = nxt
    best = min(hist, key=lambda h: (h["spread"], sum(h["bonus"])))
    return tuple(best["bonus"])


def _verify_seats(req: Request, p: int, bonus: tuple, out: Path, state: dict, res, run: Execution, *, resume: bool,
                  draw: bool, say: Callable[[str], None]) -> list[Path]:
    """The proposal ``bonus`` at ``p`` seats and no compensation, both played on fresh seeds with
    ``req.verify_factor`` times the games; saved in ``state["verified"]``. Returns the two run folders."""
    fresh = req.seed + FRESH_SEED_OFFSET
    games = req.games * req.verify_factor
    base = _config(req, p, (0,) * p, fresh, games, out / "verify" / f"p{p}-none", logs=True, run=run)
    prop = _config(req, p, bonus, fresh, games, out / "verify" / f"p{p}-proposal", logs=True, run=run)
    for c in (base, prop):
        _play(c, resume, draw)
    mb, mp = seat_rates(Path(base.out)), seat_rates(Path(prop.out))
    state["verified"][str(p)] = {"none": mb, "proposal": {**mp, "bonus": list(bonus)},
                                 "met": mp["spread"] <= req.target, "met_interval": mp["spread_high"] <= req.target,
                                 "seed": fresh}
    rf.save_state(out / STATE, state)
    say(f"{p} seats on fresh seeds ({mp['games']:,} games): no compensation {mb['spread']:.1f} points "
        f"[{mb['spread_low']:.1f}, {mb['spread_high']:.1f}]; proposal {res.seat_field(p)}="
        f"{','.join(map(str, bonus))}: {mp['spread']:.1f} [{mp['spread_low']:.1f}, {mp['spread_high']:.1f}]"
        f" ({'within' if mp['spread'] <= req.target else 'NOT within'} {req.target:g})")
    return [Path(base.out), Path(prop.out)]


def _write_outputs(out: Path, req: Request, state: dict, verify_runs: list[Path], draw: bool = False, *,
                   shown: Path | None = None) -> Path:
    """The proposal, side-effect table, summary and report of the solve in ``out`` (``shown``: the folder the
    summary names, where the solve is once complete; default ``out``); returns the summary's path."""
    import tomli_w

    fields = {f.name: f for f in dataclasses.fields(get_game_class(req.game).Params)}
    params = {k: _parse(k, v, fields[k].default) for k, v in req.fixed.items()}
    params.update({k: list(v) for k, v in state["proposal"].items()})
    rf.write_atomic(out / "proposal.toml", tomli_w.dumps(
        {"game": req.game, "params": {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}}).encode())
    runs = load_runs(verify_runs)
    t = delta_table(runs, versions(runs))
    write_table(t, out / "side_effects.parquet")
    rf.write_atomic(out / "side_effects.csv", _csv(t))
    lines = [f"# Seat compensation: {req.game}, {req.resource} by seat, target seat spread <= {req.target:g} points", "",
             "| seats | field | proposal | search seeds (candidates) | no compensation, fresh seeds | proposal, fresh seeds "
             "| games | within target |", "|---|---|---|---|---|---|---|---|"]
    res = _resource(req.game, req.resource)
    for p in req.players:
        v = state["verified"][str(p)]
        mp, mb = v["proposal"], v["none"]
        n = len(state["candidates"][str(p)])
        ok = ("yes, whole interval" if v["met_interval"] else "point estimate only") if v["met"] else "**no**"
        lines.append(f"| {p} | {', '.join(req.strategies[str(p)])} | `{res.seat_field(p)}={','.join(map(str, mp['bonus']))}` "
                     f"| {n} | {mb['spread']:.1f} [{mb['spread_low']:.1f}, {mb['spread_high']:.1f}] "
                     f"| {mp['spread']:.1f} [{mp['spread_low']:.1f}, {mp['spread_high']:.1f}] | {mp['games']:,} | {ok} |")
    lines += ["", "Seat spread: best minus worst seat win rate in percentage points with the paired 95% interval "
              "(Agresti-Min, best seat's win share minus the worst seat's game by game); fresh seeds: run seed "
              f"{state['verified'][str(req.players[0])]['seed']}, the proposal and the uncompensated rules on the "
              "same seeds and seat orders.", "",
              "Side effects (proposal minus no compensation, fresh seeds, paired; every row in side_effects.csv):", ""]
    lines += changed_lines(t, limit=30, csv="side_effects.csv") or ["(no row)"]
    lines += ["", f"Play it: `meeplelab simulate --config {(shown or out) / 'proposal.toml'} --players P --strategies ... "
              "--out RUN`"]
    rf.write_atomic(out / "compensation.md", ("\n".join(lines) + "\n").encode())
    again = [x for p in req.players
             if (x := retune_section(out, f"retuned-p{p}.json", f"Players fixed and players re-tuned ({p} players)"))]
    build_report(verify_runs, out / "report", progress=draw, sections=with_sections(None, again))
    return out / "compensation.md"


def retune_verified(req: Request, out: Path, state: dict, run: Execution, *, draw: bool = False,
                    say: Callable[[str], None] = lambda s: None) -> None:
    """``compensate --retune BUDGET``: at every player count, every tunable roster entry re-tuned (on the search
    seeds) to the uncompensated rules and to the proposal, and both fresh-seed runs played again with the re-tuned
    players on the same games (:func:`meeplelab.studies.retune.run_retuned`: ``OUT/retuned/verify/p<P>-none/run``,
    ``.../p<P>-proposal/run``, recorded in ``OUT/retuned-p<P>.json``), so the proposal's effect on every strategy is
    read with the players fixed and re-tuned. Without ``req.retune``: removes a re-tuning left in ``out``."""
    if not req.retune:
        clear(out, "retuned-p*.json")
        return
    res = _resource(req.game, req.resource)
    for i, p in enumerate(req.players):
        v = state["verified"][str(p)]
        base = _config(req, p, (0,) * p, v["seed"], req.games * req.verify_factor, out / "verify" / f"p{p}-none",
                       logs=True, run=run)
        bonus = {res.seat_field(p): ",".join(str(int(x)) for x in v["proposal"]["bonus"])}
        run_retuned(base, [{}, bonus], [f"verify/p{p}-none", f"verify/p{p}-proposal"], out, req.retune,
                    games_per_trial=RETUNE_GAMES_PER_TRIAL, tune_seed=req.seed, progress=draw, say=say,
                    file=f"retuned-p{p}.json", fresh=i == 0)


#: a compensation folder: its entries (:data:`OURS`) and nothing else; search/ and verify/ hold only runs
STUDY_FOLDER = rf.StudyFolder("compensation solve", STATE, OURS, run_parents=("search", "verify"))


def result_lines(st: dict, req: Request, out: Path, retune: int) -> list[str]:
    """What ``meeplelab compensate`` says after :func:`run_compensate` returned ``st`` for the request ``req`` in
    ``out``: the proposal as ``--set`` options, per seat count its seat spread on fresh seeds against no compensation
    and whether it is within the target, with ``retune`` the players re-tuned to the proposal, then what was met and
    written."""
    met = [p for p, v in st["verified"].items() if v["met"]]
    lines = ["proposal: " + " ".join(f"--set {k}={','.join(map(str, v))}" for k, v in st["proposal"].items())]
    for p, v in st["verified"].items():
        m = v["proposal"]
        lines.append(f"{p} seats, fresh seeds: seat spread {m['spread']:.1f} points [{m['spread_low']:.1f}, "
                     f"{m['spread_high']:.1f}] over {m['games']:,} games (no compensation: {v['none']['spread']:.1f} "
                     f"[{v['none']['spread_low']:.1f}, {v['none']['spread_high']:.1f}]); "
                     + ("within the target" + (" (whole interval)" if v["met_interval"] else " (point estimate; the "
                                               "interval reaches past it)") if v["met"] else "NOT within the target"))
    lines += retuned_lines(out, list(req.players)) if retune else []  # the players re-tuned to the proposal
    lines.append(f"target {req.target:g} points met on fresh seeds at {len(met)} of {len(st['verified'])} seat counts; "
                 f"wrote {out / 'proposal.toml'}, {st['page']}, {out / 'side_effects.csv'} and {out / 'report'}")
    return lines
