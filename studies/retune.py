"""``meeplelab sweep --retune BUDGET`` and ``meeplelab experiment --retune BUDGET`` (a rule-parameter axis): players
who adapt to each rule variant.

A sweep plays every variant with the same players, so a rule change shows only its arithmetic. With
``--retune BUDGET`` each variant is also played by **re-tuned players**: before measuring, every tunable entry of
the roster (a strategy with arguments to search: heuristic weights, plan thresholds; :func:`tunable`) is tuned
under that variant's rules against the other entries with the ``tune`` machinery (:func:`meeplelab.studies.tune.tune`:
Optuna TPE, common seeds, ``BUDGET`` games per entry and variant, a small held-out check), written as a preset,
and the variant is played again with the tuned presets in place (``OUT/retuned/<variant>/run``, the same seed,
games and seat orders as the fixed-players run). ``OUT/retuned.json`` records the presets and runs;
:mod:`meeplelab.analysis.retune` reports each effect twice, players fixed and players re-tuned.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Callable

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError
from .tune import search_space, tune
from meeplelab.play.runner import simulate
from meeplelab.play.sweep import SWEEP_FILE, read_sweep
from meeplelab.strategies.registry import make_strategy, parse_id
from meeplelab.strategies.restricted import split_restrictions

FILE = "retuned.json"
FOLDER = "retuned"


def tunable(game: str, sid: str) -> bool:
    """Whether strategy id ``sid`` has arguments :func:`meeplelab.studies.tune.search_space` would search (those it
    fixes itself are not; a restricted id, ``heuristic+never:abjure``, is played as given)."""
    name, fixed = parse_id(sid)
    if "preset" in fixed or split_restrictions(sid)[1]:
        return False
    try:
        return any(d.name not in fixed for d in search_space(game, name))
    except ConfigError:
        return False


def min_budget(players: int, field: int, games_per_trial: int) -> int:
    """The smallest ``--retune`` budget: two trials of ``games_per_trial`` games per lineup x ``field`` x ``players``."""
    return 2 * games_per_trial * field * players


def check(base: RunConfig, budget: int, games_per_trial: int) -> list[int]:
    """The roster positions ``--retune`` tunes, checked before any game is played.

    Raises:
        ConfigError: a budget below two trials, a one-strategy roster (a mirror: nothing to tune against), or
            no tunable strategy in the roster (naming the roster).
    """
    roster = list(base.strategies)
    if len(roster) < 2:
        raise ConfigError("--retune needs a roster of one strategy per seat (a mirror has no field to tune against)")
    if len(set(roster)) < len(roster):
        raise ConfigError(f"--retune needs distinct strategies in --strategies, got {', '.join(roster)}: an entry "
                          "given twice would be tuned against itself")
    pos = [i for i, s in enumerate(roster) if tunable(base.game, s)]
    if not pos:
        raise ConfigError(f"--retune: no strategy of --strategies ({', '.join(roster)}) has arguments to tune; allowed: "
                          "a heuristic or a plan with searchable arguments")
    need = min_budget(base.players, len(roster) - 1, games_per_trial)
    if budget < need:
        raise ConfigError(f"--retune {budget}: one re-tuning plays at least {need:,} games (two trials of "
                          f"{games_per_trial} games per lineup x {len(roster) - 1} field x {base.players} seats); "
                          f"give at least {need}")
    return pos


def clear(out: Path | str, file: str = FILE) -> None:
    """Remove a re-tuning saved in ``out`` (``retuned.json`` and ``retuned/``; ``file`` a glob pattern such as
    ``retuned-p*.json`` for the studies that save one record per player count): a command run again without
    ``--retune`` must not report stale re-tuned runs."""
    out = Path(out)
    if (out / FOLDER).is_dir() and not (out / FOLDER).is_symlink():
        shutil.rmtree(out / FOLDER)
    for p in out.glob(file):
        p.unlink(missing_ok=True)


def check_resume(out: Path | str, budget: int) -> None:
    """A ``--resume`` of a sweep whose re-tuning was saved with another budget (or a re-tuned sweep resumed
    without ``--retune``) is refused, naming both.

    Raises:
        ConfigError: the saved budget differs from ``budget``.
    """
    p = rf.study_resume_folder(out) / FILE  # an interrupted --overwrite's new sweep, when there is one
    if not p.is_file():
        return
    saved = int(json.loads(p.read_text()).get("budget", 0))
    if saved != budget:
        raise ConfigError(f"--retune {budget}: the sweep in {str(out)!r} was re-tuned with --retune {saved}; resume it "
                          f"with --retune {saved}, or use --overwrite")


def check_request(base: RunConfig, budget: int, out: Path | str, *, resume: bool,
                  games_per_trial: int = 25) -> None:
    """Every check of a command's ``--retune BUDGET`` before any game is played: a budget of 0 (players fixed)
    or one :func:`check` accepts, and (``resume``) :func:`check_resume`.

    Raises:
        ConfigError: a negative budget, or what :func:`check` and :func:`check_resume` refuse.
    """
    if budget < 0:
        raise ConfigError(f"--retune {budget}: allowed 0 (players fixed) or the games of each re-tuning")
    if budget:
        check(base, budget, games_per_trial)
    if resume:
        check_resume(out, budget)


def run_retuned(base: RunConfig, combos: list[dict], folders: list[str], out: Path | str, budget: int, *,
                games_per_trial: int = 25, eval_games: int = 10, progress: bool = False,
                say: Callable[[str], None] | None = None, tune_seed: int | None = None, file: str = FILE,
                fresh: bool = True, contents: list[str | None] | None = None,
                shown: list[dict] | None = None) -> dict:
    """Re-tune and play every variant (module docstring).

    Args:
        base: the sweep's base run (roster, players, games, seed, seating, fixed parameters, execution).
        combos: each variant's varied values (``{name: value}``), the first the control, as the sweep played them.
        folders: each variant's folder name in the sweep (``OUT/retuned/<folder>/``).
        budget: games of each re-tuning (one per tunable roster entry and variant).
        games_per_trial, eval_games: the tuning's games per lineup per trial and in its held-out check.
        tune_seed: the run seed of the tunings (default ``base.seed``; ``balance --retune`` tunes on the search
            seeds and measures on the fresh ones).
        file: the record's name in ``out`` (``balance --retune`` writes one per rotated field).
        fresh: remove ``OUT/retuned/`` first (False: keep the other fields' re-tunings of one balance search).
        contents: each variant's content folder (None: ``base.content``), tuned and played with it
            (``content-value --retune``: a removal arm's edited content; ``exchange-rates --arm content=PATH``).
        shown: each variant's ``values`` as recorded and reported (default ``combos``; a content version is shown
            by what it changes, ``{"remove": "invention:telescope"}``, with no rule value in ``combos``).

    Returns:
        what ``OUT/retuned.json`` holds: ``budget``, ``positions`` (tuned roster entries), per variant its
        ``values``, ``folder``, ``strategies`` (the re-tuned roster as played: a tuned entry with its preset's
        arguments, ``heuristic:end_vp=0.69,...``) and ``presets`` (each tuned entry's preset file, relative to
        ``out``).

    Raises:
        ConfigError: see :func:`check`.
    """
    pos = check(base, budget, games_per_trial)
    say = say or (lambda s: None)
    out = Path(out)
    where = out / FOLDER
    if fresh and where.is_dir():
        shutil.rmtree(where)  # re-tuned from scratch: the tuning depends on the variant's rules only
    roster = list(base.strategies)
    variants = []
    for k, (c, folder) in enumerate(zip(combos, folders)):
        params = {**base.params, **c}
        content = base.content if contents is None or contents[k] is None else contents[k]
        specs, presets = list(roster), {}
        for i in pos:
            field = [s for j, s in enumerate(roster) if j != i]
            say(f"re-tuning {roster[i]} for {folder} against {', '.join(field)} ({budget:,} games)")
            tdir = where / folder / f"tune-{i}"
            tune(base.game, roster[i], field, budget=budget, games_per_trial=games_per_trial,
                 seed=base.seed if tune_seed is None else tune_seed,
                 players=base.players, eval_games=eval_games, params=params, out=tdir, n_jobs=base.n_jobs,
                 backend=base.backend, scheduler=base.scheduler, batch_size=base.batch_size, content=content)
            name = roster[i].split(":", 1)[0]
            # played with the preset's arguments in its id: no path into the study folder, which an --overwrite
            # builds beside the old one and then renames (and a user may move)
            specs[i] = make_strategy(base.game, f"{name}:preset={(tdir / 'preset.toml').resolve()}").id
            presets[str(i)] = str((tdir / "preset.toml").relative_to(out))
        cfg = validated(dataclasses.replace(base, strategies=tuple(specs), params=params, content=content,
                                            out=str(where / folder / "run")))
        say(f"playing {folder} with the re-tuned players ({base.games:,} games)")
        simulate(cfg, overwrite=True, progress=progress, label=f"{folder} re-tuned")
        variants.append({"values": c if shown is None else shown[k], "folder": folder, "strategies": specs,
                         "presets": presets})
    meta = {"game": base.game, "budget": budget, "games_per_trial": games_per_trial, "positions": pos, "roster": roster,
            "variants": variants}
    rf.write_atomic(out / file, json.dumps(meta, indent=1).encode())
    return meta


__all__ = ["FILE", "FOLDER", "check", "check_request", "check_resume", "clear", "min_budget", "run_retuned", "tunable"]


def retune_sweep(base: RunConfig, work: Path, retune: int, *, progress: bool = False,
                 say: Callable[[str], None] | None = None) -> None:
    """``sweep --retune``: every variant of the sweep in ``work`` (the folder it is built in) re-tuned with ``retune``
    games and played again (:func:`run_retuned`); ``sweep.json`` is marked running, then complete (interrupted or
    failed when it stops), so the sweep is not complete until the re-tuned runs are."""
    done = read_sweep(work)

    def mark(status: str) -> None:
        rf.write_atomic(work / SWEEP_FILE, json.dumps({**done, "status": status}, indent=1).encode())

    mark("running")
    try:
        run_retuned(base, [x["values"] for x in done["variants"]], [x["folder"] for x in done["variants"]],
                    work, retune, progress=progress, say=say)
    except BaseException as e:
        mark("interrupted" if isinstance(e, KeyboardInterrupt) else "failed")
        raise
    mark("complete")
