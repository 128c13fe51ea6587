"""``meeplelab tune``: search a strategy's arguments against a field with Optuna, then check on fresh seeds.

Each candidate (one Optuna trial) plays ``games_per_trial`` games per lineup: the candidate in every
seat against every member of the field (the field fills the other seats), on the *same* game indices
for every candidate (common random numbers, so candidates are compared on the same shuffles). The
objective is the candidate's mean win share per seat-result. The budget is in games: ``budget //
games per trial`` trials (Optuna's TPE sampler, seeded). The best candidate is written as a preset
file (``strategy``, ``game``, ``[args]``) usable as ``--strategies heuristic:preset=tuned.toml``.

Held-out evaluation: the tuned and the untuned strategy each play the field again on a fresh run
seed (``seed + 1``: new shuffles, never seen by the search), both in every seat order; the report
gives each win rate with its Wilson interval, the paired difference tuned minus untuned per game
(common seeds) with its t interval, and tuned against untuned head to head. TAG's NTBEA is the
anchor (an N-tuple bandit over discrete parameter values); Optuna's TPE takes the continuous weights
as they are and is a maintained library (see docs/strategies.md).

``out/search.json`` records the request, every trial's arguments and win rate (written as each trial
finishes), the held-out evaluation's games as they are played, and a status (``running``,
``interrupted``, ``failed``, ``complete``). ``resume`` completes an interrupted tuning: the seeded sampler
proposes the same candidates again, the saved trials are read instead of played, and the files written
are those of an uninterrupted run; different options are refused, the first difference named.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from meeplelab.studies.trials import optimize
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.analysis.stats import mean_t, wilson
from meeplelab.analysis.tables import canonical_json
from meeplelab.play import runfolder as rf
from meeplelab.play.batch import play_batch
from meeplelab.play.parallel import check_backend, map_unordered
from meeplelab.play.runner import _progress
from meeplelab.play.shipping import collect
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.registry import get_game_class, make_game
from meeplelab.strategies import make_strategy
from meeplelab.strategies.registry import parse_id, read_preset, strategies_for
from meeplelab.strategies.restricted import split_restrictions

#: never searched: switches (``finish``), and ``vp``, the unit of a heuristic's weighted sum (scaling
#: every weight together changes no decision, so one weight stays fixed)
SKIP = ("finish", "preset", "vp")


@dataclass(frozen=True)
class Dim:
    """One searched argument: name, type (float or int), bounds."""

    name: str
    type: type
    lo: float
    hi: float


def search_space(game: str, strategy: str, start: dict | None = None) -> list[Dim]:
    """The searched arguments of ``strategy`` in ``game``: every float argument (a weight ``w`` is
    searched in [0, 2w], a negative one in [2w, 0], a zero one in [-1, 1], within its declared bounds)
    and every bounded int argument over its bounds; switches (``finish``) and the unit weight ``vp``
    are kept at their default (see :data:`SKIP`), and an argument without a default (an optional
    condition such as ``abjure-at``'s ``suspicion`` and ``margin``) is left out.

    ``start`` (a starting point's arguments, e.g. a preset's, by name) narrows the float arguments it gives
    around its values: a weight ``w`` in [w/2, 3w/2] (a negative one in [3w/2, w/2], a zero one in
    [-0.5, 0.5]), within the declared bounds; int arguments keep their bounds.

    Raises:
        ConfigError: unknown strategy, or nothing to search.
    """
    name, _ = parse_id(strategy)
    avail = {s.name: s for s in strategies_for(game)}
    if name not in avail:
        raise ConfigError(f"unknown strategy {name!r} for {game}: allowed: {', '.join(avail)}")
    dims = []
    for k, a in avail[name].args.items():
        if k in SKIP or a.default is None:  # an optional condition (abjure-at's suspicion, margin) is not tuned
            continue
        if a.type is float:
            d = float(a.default)
            lo, hi = (0.0, 2 * d) if d > 0 else (2 * d, 0.0) if d < 0 else (-1.0, 1.0)
            if start is not None and k in start:
                w = float(start[k])
                lo, hi = sorted((w / 2, 3 * w / 2)) if w else (-0.5, 0.5)
            lo = max(lo, a.lo) if a.lo is not None else lo
            hi = min(hi, a.hi) if a.hi is not None else hi
            dims.append(Dim(k, float, lo, hi))
        elif a.type is int and a.lo is not None and a.hi is not None and a.hi > a.lo:
            dims.append(Dim(k, int, int(a.lo), int(min(a.hi, a.lo + 64))))
    if not dims:
        raise ConfigError(f"strategy {name!r} has no argument to tune (weights or bounded integers)")
    return dims


def spec_of(name: str, args: dict) -> str:
    """A strategy id from a name and argument values (floats to 4 significant digits)."""
    if not args:
        return name
    return name + ":" + ",".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in args.items())


def _field_task(regs, game: str, spec: str, opp: str, players: int, seat: int, games: int, seed: int,
                params: dict | None, batch_size: int, content: str | None = None) -> np.ndarray:
    """Win share ``float[games]`` of ``spec`` in ``seat`` against ``opp`` in every other seat (one task; ``content``:
    a content folder, None = packaged)."""
    if regs is not None:
        regs.install()
    g = make_game(game, apply_overrides(get_game_class(game).Params(), dict(params or {})), content)
    strats = [make_strategy(game, spec if s == seat else opp) for s in range(players)]
    out = np.zeros(games)
    for lo in range(0, games, batch_size):
        ids = np.arange(lo, min(games, lo + batch_size), dtype=np.int64)
        t = play_batch(g, strats, ids, seed, log_turns=False, log_events=False).games
        sel = np.asarray(t.column("seat").to_numpy()) == seat
        gid = np.asarray(t.column("game").to_numpy())[sel]
        out[gid] = np.asarray(t.column("win_share").to_numpy())[sel]
    return out


def play_field(game: str, spec: str, field: Sequence[str], players: int, games: int, seed: int, *,
               params: dict | None = None, on_games: Callable[[int], None] | None = None, n_jobs: int = 1,
               backend: str = "loky", scheduler: str | None = None, batch_size: int = 1024,
               content: str | None = None) -> np.ndarray:
    """Win share of ``spec`` in every seat against every field member, game by game, under the rules ``params``
    and the content folder ``content`` (None: the packaged content).

    Each (field member, seat) pair is one task (:func:`meeplelab.play.parallel.map_unordered` on ``n_jobs`` /
    ``backend`` / ``scheduler``), its games played ``batch_size`` at a time; the result depends on none
    of them (every game is keyed by (seed, game index) and seat).

    Returns:
        float[F, P, G]: field member x candidate seat x game index (game indices 0..G-1 of run
        ``seed``: the same shuffles for every candidate); the field member fills the other seats.
    """
    regs = None
    if n_jobs != 1 or backend == "dask":
        regs = collect(game, [spec, *field])
    tasks = [(regs, game, spec, opp, players, seat, games, seed, params, batch_size, content)
             for opp in field for seat in range(players)]
    out = np.zeros((len(field), players, games))
    for k, w in map_unordered(_field_task, tasks, n_jobs=n_jobs, backend=backend, scheduler=scheduler):
        out[k // players, k % players] = w
        if on_games:
            on_games(games)
    return out


@dataclass
class TuneResult:
    """Outcome of :func:`tune`: the best arguments, the trials and the held-out evaluation."""

    strategy: str
    best_args: dict
    best_train: float
    trials: list = field(default_factory=list)
    heldout: dict = field(default_factory=dict)


def _wilson(x: np.ndarray) -> dict:
    p, lo, hi = wilson(float(x.sum()), x.size)
    return {"win_rate": float(p), "low": float(lo), "high": float(hi), "seat_results": int(x.size)}


STATE = "search.json"
#: the files tune writes into its folder
OUR = ("preset.toml", "tune.json", STATE, "config.toml")  # config.toml: the command's settings (play/settings.py)
_OPTIONS = {"game": "--game", "strategy": "--strategy", "field": "--against", "players": "--players",
            "budget": "--budget", "games_per_trial": "--games-per-trial", "eval_games": "--eval-games",
            "seed": "--seed", "params": "--set", "start": "--start"}


def tune(game: str, strategy: str, field: Sequence[str], *, budget: int, games_per_trial: int, seed: int = 0,
         players: int = 2, eval_games: int = 200, params: dict | None = None, out: Path | str,
         overwrite: bool = False, resume: bool = False, progress: bool = False,
         log: Callable[[str], None] = lambda s: None, settings: str | None = None, n_jobs: int = 1,
         backend: str = "loky", scheduler: str | None = None, batch_size: int = 1024,
         content: str | None = None, start: str | None = None) -> TuneResult:
    """Search ``strategy``'s arguments against ``field`` and evaluate the best on fresh seeds.

    Args:
        budget: games for the search (trials = budget // (games_per_trial x |field| x players)).
        games_per_trial: games per lineup for each candidate.
        eval_games: games per lineup in the held-out evaluation (run seed ``seed + 1``).
        out: folder for ``preset.toml``, ``tune.json`` and ``search.json``.
        resume: complete the interrupted tuning in ``out`` (the same options).
        settings: the command's resolved settings TOML, written as ``out/config.toml``
            (:func:`meeplelab.play.runfolder.write_settings`).
        progress: draw a games bar on stderr (:mod:`meeplelab.play.progress`).
        n_jobs, backend, scheduler, batch_size: where and how many at a time the games are played
            (:func:`play_field`); the results depend on none of them.
        content: a content folder the games are played with (None: the packaged content; the studies that
            re-tune their players to an edited content, ``content-value --retune``).
        start: a preset file of ``strategy`` for ``game`` to start from: it is trial 0 and the held-out
            evaluation's "untuned" strategy (the search is measured against it), and the search is narrowed
            around its weights (:func:`search_space`); None: the strategy's defaults.

    Raises:
        ConfigError: unknown strategy or field member, nothing to tune, a budget below one trial, a ``start``
            that is missing, unreadable or not a preset of ``strategy`` for ``game``.
        RunFolderError: ``out`` holds files and neither ``overwrite`` nor ``resume`` is given, holds files
            other than tune's, or (``resume``) nothing to resume or the saved tuning differs (named).
        KeyboardInterrupt: after marking ``search.json`` ``interrupted`` (other errors mark it ``failed``).
    """
    check_backend(backend, scheduler, n_jobs)
    if batch_size < 1:
        raise ConfigError(f"--batch-size {batch_size}: must be >= 1")
    name, fixed = parse_id(strategy)
    if "preset" in fixed:
        raise ConfigError("tune: give the strategy without preset= (the search starts from its defaults; "
                          "start = PRESET starts it from a preset)")
    if split_restrictions(strategy)[1]:
        raise ConfigError(f"tune: {strategy!r} is restricted; give the strategy without +never/+force (tune the "
                          "unrestricted player, then restrict the tuned preset's id)")
    if not field:
        raise ConfigError("--against needs at least one strategy")
    for s in [strategy, *field]:
        make_strategy(game, s)  # bad ids are reported before any game
    if params:  # bad rule overrides too, before anything is written (not inside a trial)
        apply_overrides(get_game_class(game).Params(), params)
    fixed, dims, base = _searched(game, name, fixed, start)
    per_trial = games_per_trial * len(field) * players
    n_trials = budget // per_trial
    if n_trials < 2:
        raise ConfigError(f"--budget {budget}: a trial plays {per_trial} games ({games_per_trial} per lineup x "
                          f"{len(field)} field x {players} seats); give at least {2 * per_trial}")
    out = Path(out)
    request = {"game": game, "strategy": strategy, "field": list(field), "players": players, "budget": budget,
               "games_per_trial": games_per_trial, "eval_games": eval_games, "seed": seed,
               "params": {k: str(v) for k, v in sorted((params or {}).items())}}
    if content is not None:
        request["content"] = str(content)
    if start is not None:
        request["start"] = str(start)

    # an overwrite is built beside the earlier tuning and swapped in when complete (with the folder's other files)
    with rf.study_folder(out, marker=STATE, check=_check_folder, resume=resume, overwrite=overwrite) as work:
        state = {**request, "status": "running", "trials": [], "heldout": {}}
        if resume:
            old = _read_state(work)
            _check_same(old, request)
            state["trials"], state["heldout"] = list(old.get("trials") or []), dict(old.get("heldout") or {})
        work.mkdir(parents=True, exist_ok=True)
        _save_state(work, state)
        rf.write_settings(work, settings)
        with rf.status_marked(state, lambda: _save_state(work, state)):
            res = _tune(game, name, strategy, field, fixed, dims, n_trials, per_trial, budget, games_per_trial, seed,
                        players, eval_games, params, work, state, progress, log,
                        {"n_jobs": n_jobs, "backend": backend, "scheduler": scheduler, "batch_size": batch_size,
                         "content": content}, base)
    return res


def _searched(game: str, name: str, given: dict, start: str | None) -> tuple[dict, list[Dim], dict | None]:
    """The fixed arguments (typed: those ``given`` in the id, and the start's unsearched ones), the searched
    dimensions (:func:`search_space` around the start) and the start preset's typed arguments (None without
    ``start``). ConfigError as :func:`read_preset`, or for a start argument outside its declared range."""
    types = {a: info.args[a].type for info in strategies_for(game) if info.name == name for a in info.args}
    fixed = {k: types[k](v) for k, v in given.items()}
    base = None
    if start is not None:
        raw = read_preset(str(start), game, name)
        make_strategy(game, f"{name}:preset={start}")
        base = {k: types[k](v) if types[k] is not bool else v.lower() == "true" for k, v in raw.items()}
    dims = [d for d in search_space(game, name, base) if d.name not in fixed]
    names = {d.name for d in dims}
    return {**{k: v for k, v in (base or {}).items() if k not in names}, **fixed}, dims, base


def _tune(game, name, strategy, field, fixed, dims, n_trials, per_trial, budget, games_per_trial, seed, players,
          eval_games, params, out: Path, state: dict, progress, log, par: dict | None = None,
          base: dict | None = None) -> TuneResult:
    """The search and held-out evaluation of :func:`tune`; each trial and each held-out evaluation is
    saved in ``state`` (``search.json``) when it finishes and read from it when saved before. ``base``: the
    starting preset's arguments (trial 0 and the "untuned" strategy; None: the defaults)."""
    import optuna

    par = dict(par or {})
    saved = {int(t["number"]): t for t in state["trials"]}
    total = n_trials * per_trial + 2 * eval_games * len(field) * players + eval_games * players
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed % 2**32)  # Optuna takes 32 bits of the 63-bit run seed
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial({d.name: _default(game, name, d, base) for d in dims})  # the untuned (start) is trial 0
    trials = []
    with _progress(progress, total, 0, f"tune {name}") as bar:
        def objective(trial: optuna.Trial) -> float:
            args = dict(fixed)
            for d in dims:
                args[d.name] = (float(f"{trial.suggest_float(d.name, d.lo, d.hi):.4g}") if d.type is float
                                else trial.suggest_int(d.name, int(d.lo), int(d.hi)))
            done = saved.get(trial.number)
            if done is not None and done["args"] == args:  # played before the tuning was interrupted
                bar.advance(per_trial)
                trials.append(done)
                return float(done["win_rate"])
            w = play_field(game, spec_of(name, args), field, players, games_per_trial, seed, params=params,
                           on_games=bar.advance, **par)
            trials.append({"number": trial.number, "args": args, "win_rate": float(w.mean())})
            state["trials"] = [t for t in state["trials"] if t["number"] != trial.number] + [trials[-1]]
            _save_state(out, state)
            return float(w.mean())

        optimize(study, objective, n_trials)
        best = dict(max(trials, key=lambda t: (t["win_rate"], -t["number"]))["args"])  # the values played
        tuned = spec_of(name, best)
        untuned = spec_of(name, {**(base or {}), **fixed})
        log(f"best of {n_trials} trials: {tuned} ({study.best_value * 100:.1f}% on the search seeds)")
        ev = seed + 1

        def heldout_games(key: str, spec: str, opponents: list) -> np.ndarray:
            got = state["heldout"].get(key)
            if got is not None and got["spec"] == spec:  # played before the tuning was interrupted
                bar.advance(eval_games * len(opponents) * players)
                return np.asarray(got["win_share"], dtype=float)
            w = play_field(game, spec, opponents, players, eval_games, ev, params=params, on_games=bar.advance, **par)
            state["heldout"][key] = {"spec": spec, "win_share": w.tolist()}
            _save_state(out, state)
            return w

        wt = heldout_games("tuned", tuned, list(field))
        wu = heldout_games("untuned", untuned, list(field))
        wh = heldout_games("head_to_head", tuned, [untuned])

    d = (wt - wu).ravel()
    diff, dlo, dhi = mean_t(d)
    heldout = {"seed": ev, "games_per_lineup": eval_games,
               "tuned_vs_field": _wilson(wt.ravel()), "untuned_vs_field": _wilson(wu.ravel()),
               "paired_difference": {"est": diff, "low": dlo, "high": dhi, "games": int(d.size)},
               "tuned_vs_untuned": _wilson(wh.ravel()),
               "per_opponent": {f: {"tuned": _wilson(wt[i].ravel()), "untuned": _wilson(wu[i].ravel())}
                                for i, f in enumerate(field)}}
    res = TuneResult(name, best, float(study.best_value), trials, heldout)
    out.mkdir(parents=True, exist_ok=True)
    write_preset(out / "preset.toml", game, name, best, note=f"meeplelab tune --game {game} --strategy {strategy} "
                 f"--against {','.join(field)} --players {players} --budget {budget} --games-per-trial "
                 f"{games_per_trial} --eval-games {eval_games} --seed {seed}"
                 + "".join(f" --set {k}={v}" for k, v in sorted((params or {}).items()))
                 + (f" --start {state['start']}" if "start" in state else ""))

    rf.write_atomic(out / "tune.json", json.dumps(canonical_json({
        "game": game, "strategy": name, "field": list(field), "players": players, "budget": budget,
        "games_per_trial": games_per_trial, "seed": seed, "best_args": best, "best_train": res.best_train,
        "trials": trials, "heldout": heldout}), indent=1, default=float).encode())
    return res


def _save_state(out: Path, state: dict) -> None:
    rf.save_state(out / STATE, state)


def _read_state(out: Path) -> dict:
    return rf.read_state(out / STATE, "a saved tuning")


def _check_same(old: dict, new: dict) -> None:
    """RunFolderError naming the first option in which the saved tuning differs from ``new``."""
    def show(v) -> str:
        if isinstance(v, dict):
            return " ".join(f"{k}={x}" for k, x in v.items()) or "(none)"
        return ",".join(map(str, v)) if isinstance(v, list) else str(v)

    for k, opt in _OPTIONS.items():
        if old.get(k) != new.get(k):
            raise RunFolderError(f"cannot resume: the tuning in the folder has {opt} {show(old.get(k))}, this tuning "
                                 f"has {opt} {show(new.get(k))}: use the same options or --overwrite")


def _check_folder(out: Path, *, overwrite: bool = False, resume: bool = False) -> list[Path]:
    """Accept ``out`` for a tuning (the ``check`` of :func:`meeplelab.play.runfolder.study_folder`); nothing is
    changed. Returns, with ``overwrite``, tune's files in ``out`` (:data:`OUR`), which the new tuning replaces (the
    folder's other files are kept)."""
    entries = rf.folder_entries(out, resume=resume, overwrite=overwrite)
    if not entries:
        if resume:
            raise RunFolderError(f"nothing to resume: {str(out)!r} holds no tuning (no {STATE})")
        return []
    if resume:
        if not (out / STATE).is_file():
            raise RunFolderError(f"nothing to resume: {str(out)!r} holds no tuning (no {STATE}): start it without "
                                 "--resume in a new --out, or use --overwrite")
        others = sorted(p.name for p in entries if p.name not in OUR)
        if others:
            raise RunFolderError(f"output folder {str(out)!r} holds {others[0]!r}, not a file of tune: choose a new --out")
        return []
    if not overwrite:
        how = "--resume to complete it, " if (out / STATE).is_file() else ""
        raise RunFolderError(f"output folder {str(out)!r} is not empty: use {how}--overwrite or choose a new --out")
    return [out / n for n in OUR if (out / n).is_file() and not (out / n).is_symlink()]


def _default(game: str, name: str, d: Dim, base: dict | None = None):
    """Trial 0's value of ``d``: the start's (``base``) if it gives one, else the default, within ``d``'s bounds."""
    a = {s.name: s for s in strategies_for(game)}[name].args[d.name]
    return min(max((base or {}).get(d.name, a.default), d.lo), d.hi)


def write_preset(path: Path, game: str, name: str, args: dict, note: str = "") -> None:
    """Write a preset TOML (``strategy``, ``game``, ``[args]``) atomically."""
    import tomli_w

    body = tomli_w.dumps({"strategy": name, "game": game,
                          "args": {k: (round(v, 6) if isinstance(v, float) else v) for k, v in args.items()}})
    rf.write_atomic(Path(path), ((f"# {note}\n" if note else "") + body).encode())


def summary_lines(res: TuneResult) -> list[str]:
    """The held-out evaluation in words, one line each."""
    h = res.heldout

    def w(x: dict) -> str:
        return f"{x['win_rate'] * 100:.1f}% [{x['low'] * 100:.1f}, {x['high'] * 100:.1f}] of {x['seat_results']:,}"

    d = h["paired_difference"]
    lines = [f"held-out seeds (run seed {h['seed']}, {h['games_per_lineup']:,} games per lineup, every seat order):",
             f"  tuned vs field:    {w(h['tuned_vs_field'])} seat-results",
             f"  untuned vs field:  {w(h['untuned_vs_field'])} seat-results",
             f"  tuned - untuned:   {d['est'] * 100:+.1f} points [{d['low'] * 100:+.1f}, {d['high'] * 100:+.1f}] "
             f"(paired on {d['games']:,} common-seed games)",
             f"  tuned vs untuned:  {w(h['tuned_vs_untuned'])} seat-results head to head"]
    if not math.isfinite(d["low"]):
        lines.append("  (too few games for an interval)")
    if res.trials and res.best_args == res.trials[0]["args"]:
        lines.append("  no candidate beat the untuned strategy (trial 0) on the search seeds: the preset holds the "
                     "untuned arguments (the head-to-head above is a mirror match); a larger --games-per-trial or "
                     "--budget may find one")
    elif h["tuned_vs_untuned"]["low"] <= 0.5:
        lines.append("  the tuned preset does not beat the untuned strategy head to head at this size (its 95% "
                     "interval includes 50%)")
    return lines


__all__ = ["Dim", "TuneResult", "play_field", "search_space", "spec_of", "summary_lines", "tune", "write_preset"]
