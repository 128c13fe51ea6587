"""Tournaments: every seat arrangement (lineup) of the chosen strategies, on common seeds.

Each lineup is an ordinary run folder ``out/lineup-NN`` played with the same run seed, so game
``i`` of every lineup starts from the same shuffles (common random numbers) and seat advantage
cancels out over the lineups. ``games`` is the number of games *per lineup*: a tournament of
``L`` lineups plays ``L * games`` games and ``L * games * players`` seat-results.

A tournament folder holds only ``lineup-NN/`` run folders, ``tournament.json`` (the settings,
the lineups and a status) and the Parquet tables written by :mod:`meeplelab.analysis.tournament`.
``overwrite`` replaces an earlier tournament whole (its lineup folders are checked to be run
folders first), building the new one beside it and swapping it in when complete; ``resume`` keeps the finished lineups and completes the others (the saved settings
must match); a folder that is neither empty nor a tournament is refused, never written into or
deleted. ``meeplelab report TOURNAMENT`` reports the tournament as a whole.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import re
from pathlib import Path
from typing import Callable, Sequence


from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.play.runner import check_runs_resumable
from meeplelab.play.runner import simulate
from meeplelab.play.parallel import map_unordered
from meeplelab.play.progress import bar
from meeplelab.play.shipping import collect
from meeplelab.play.warmup import warm_for_run
from meeplelab.sim.registry import make_game
from meeplelab.strategies.registry import make_strategy

TOURNAMENT_FILE = "tournament.json"
TABLE_FILES = ("summary.parquet", "seats.parquet", "lineups.parquet", "pairwise.parquet")
LINEUP_DIR = re.compile(r"lineup-\d+")


def lineups(strategies: Sequence[str], players: int, *, every_profile: bool = False) -> list[tuple[str, ...]]:
    """Seat arrangements: every ordering of the strategies over the seats, each strategy seated.

    With as many strategies as seats: all permutations. With more seats than strategies: every
    arrangement in which each strategy holds at least one seat. With fewer seats: every ordered
    choice of ``players`` distinct strategies. With ``every_profile``: every arrangement of the
    strategies over the seats with repetition, except the mirror matches (one strategy in every
    seat, whose per-seat win share is 1/players by symmetry); the metagame
    (:mod:`meeplelab.analysis.metagame`) needs these profiles at 3+ seats.

    Raises:
        ConfigError: fewer than two seats, fewer than two strategies, or repeated ids.
    """
    s = list(strategies)
    if len(s) < 2:
        raise ConfigError(f"--strategies {','.join(s) or '(none)'}: a tournament needs at least two strategies, "
                          "comma separated")
    if len(set(s)) != len(s):
        raise ConfigError(f"strategies repeat in {','.join(s)}: list each once")
    if not isinstance(players, int) or players < 2:
        raise ConfigError(f"a tournament needs at least 2 players per game (strategies play against each other), "
                          f"got --players {players}")
    if every_profile:
        return [t for t in itertools.product(s, repeat=players) if len(set(t)) > 1]
    if players <= len(s):
        return list(itertools.permutations(s, players))
    return [t for t in itertools.product(s, repeat=players) if set(t) == set(s)]


SEATINGS = ("rotate",)


def check_seating(seating: str | None) -> None:
    """ConfigError unless ``seating`` is ``rotate`` (or None): a tournament's lineups are every seat
    arrangement of the strategies, each on the same seeds, so its seats are rotated by construction;
    ``random`` and ``fixed`` would confound a strategy with its seat (simulate takes them)."""
    if seating not in (None, *SEATINGS):
        raise ConfigError(f"--seating {seating}: a tournament plays every seat arrangement (lineup) on the same seeds, "
                          "so its seating is always rotate; allowed: rotate (for random or fixed seats play one run "
                          "with meeplelab simulate --seating)")


def play_tournament(game: str, strategies: Sequence[str], players: int, games: int, seed: int, out: Path | str, *,
                    batch_size: int = 1024, n_jobs: int = -1, backend: str = "loky", scheduler: str | None = None,
                    params: dict | None = None, overwrite: bool = False, resume: bool = False,
                    every_profile: bool = False, progress: bool = False,
                    on_lineup: Callable[[int, int, tuple], None] | None = None,
                    settings: str | None = None, seating: str = "rotate") -> tuple[list[Path], dict]:
    """Play every lineup for ``games`` games each (games per lineup); ``tournament.json`` says ``played``
    (``settings``, the command's resolved settings TOML, is written as ``out/config.toml``).

    The summary tables (and the status ``complete``) are written one floor up, by
    :func:`meeplelab.studies.tournament.run_tournament`: running games never imports analysis.

    Lineup ``i`` is played into ``out/lineup-<i>``. With ``overwrite`` the new tournament is built beside an
    earlier one in ``out`` and replaces it once complete (:func:`meeplelab.play.runfolder.study_folder`; inside
    :func:`meeplelab.studies.tournament.run_tournament`'s, once its tables are written); with ``resume`` finished
    lineups are kept and the rest completed (an interrupted overwrite's too, then swapped in).
    ``progress`` draws a bar of lineups and each lineup's games (:mod:`meeplelab.play.progress`).

    Returns:
        ``(lineup folders, tournament meta)``: the folders under ``out`` (where they are once the tournament is
        complete), the meta as written to ``tournament.json``.

    Raises:
        ConfigError: bad strategies, players, parameters or seating (before anything is written).
        RunFolderError: ``out`` holds another tournament (without ``overwrite``/``resume``), is not
            empty and not a tournament folder, an earlier lineup folder holds files other than a
            run's, or (``resume``) nothing to resume or the saved tournament differs from this one.
        KeyboardInterrupt: after marking ``tournament.json`` ``interrupted``.
    """
    out = Path(out)
    check_seating(seating)
    ups = lineups(strategies, players, every_profile=every_profile)
    base = RunConfig(game=game, players=players, strategies=tuple(ups[0]), games=games, seed=seed,
                     batch_size=batch_size, n_jobs=n_jobs, backend=backend, scheduler=scheduler, out=str(out),
                     params=dict(params or {}))
    cfgs = [validated(dataclasses.replace(base, strategies=tuple(u), out=str(out / f"lineup-{i:02d}")))
            for i, u in enumerate(ups)]
    meta = {"game": game, "strategies": list(strategies), "players": players, "games_per_lineup": games,
            "seed": seed, "params": {k: str(v) for k, v in sorted((params or {}).items())},
            "every_profile": every_profile, "lineups": [list(u) for u in ups], "status": "running"}
    with rf.study_folder(out, STUDY_FOLDER, resume=resume, overwrite=overwrite) as work:
        _play_lineups([dataclasses.replace(c, out=rf.rebase(c.out, out, work)) for c in cfgs], work, meta,
                      resume=resume, progress=progress, on_lineup=on_lineup, settings=settings)
    return [Path(c.out) for c in cfgs], meta


def _play_lineups(cfgs: list[RunConfig], out: Path, meta: dict, *, resume: bool, progress: bool, on_lineup,
                  settings: str | None) -> None:
    """:func:`play_tournament` in the folder ``out`` it is built in (lineup ``i``'s run ``cfgs[i]`` under it)."""
    if resume:
        _check_resumable(read_tournament(out), meta)
        check_runs_resumable(cfgs, "lineup")
    out.mkdir(parents=True, exist_ok=True)
    rf.write_atomic(out / TOURNAMENT_FILE, json.dumps(meta, indent=1).encode())
    rf.write_settings(out, settings)

    try:
        with bar("tournament", len(cfgs), unit="lineups", on=progress) as lineups_bar:
            todo = []
            for i, c in enumerate(cfgs):
                folder = Path(c.out)
                has = (folder / rf.MANIFEST).is_file()
                if not (resume and has and rf.read_manifest(folder).get("status") == "complete"):
                    todo.append((i, c, resume and has))
                elif on_lineup:
                    on_lineup(i, len(cfgs), c.strategies)
            if concurrent(cfgs[0], len(todo)):
                _play_concurrently(cfgs[0], todo, False, len(cfgs), on_lineup, lineups_bar)
            else:
                for i, c, again in todo:
                    if on_lineup:
                        on_lineup(i, len(cfgs), c.strategies)
                    simulate(c, resume=again, progress=progress, label=f"lineup {i + 1}/{len(cfgs)}")
                    lineups_bar.advance(1)
    except BaseException as e:
        meta["status"] = "interrupted" if isinstance(e, KeyboardInterrupt) else "failed"
        rf.write_atomic(out / TOURNAMENT_FILE, json.dumps(meta, indent=1).encode())
        raise
    meta["status"] = "played"
    rf.write_atomic(out / TOURNAMENT_FILE, json.dumps(meta, indent=1).encode())


def concurrent(cfg: RunConfig, runs: int) -> bool:
    """Whether a tournament's lineups are played side by side, one whole lineup per worker (24
    short runs one after the other kept both workers waiting on each run's start and end): two or more lineups to
    play, more than one job, and loky or threads (Dask keeps one run at a time, its chunks on the cluster). The games
    are the same either way: every game is keyed by (seed, game, seat), never by where it is played."""
    jobs = cfg.n_jobs if cfg.n_jobs > 0 else (os.cpu_count() or 1)
    return runs > 1 and jobs > 1 and cfg.backend in ("loky", "threading")


def _lineup_task(regs, cfg: RunConfig, resume: bool, overwrite: bool) -> str:
    """One lineup's run in a worker, its chunks one after the other there (``n_jobs`` 1): install what the parent
    registered (:mod:`meeplelab.play.shipping`), then play."""
    if regs is not None:
        regs.install()
    simulate(cfg, resume=resume, overwrite=overwrite)
    return cfg.out


def _play_concurrently(base: RunConfig, todo, overwrite: bool, total: int, on_lineup, lineups_bar) -> None:
    """Every lineup of ``todo`` (``(index, config, resume)``) as one task of :func:`meeplelab.play.parallel.map_unordered`
    on ``base``'s workers; ``on_lineup`` is told of each as it finishes. The kernels are compiled (or loaded) here
    first, so the workers load them from the cache and the compile notice is said once."""
    c0 = todo[0][1]
    if base.backend == "loky":
        warm_for_run(make_game(c0.game, c0.make_params(), c0.content), c0.players, c0.seed, c0.compiled,
                     [make_strategy(c0.game, s) for s in c0.strategies])
    regs = collect(base.game, sorted({s for _, c, _ in todo for s in c.strategies}))
    tasks = [(regs, dataclasses.replace(c, n_jobs=1), again, overwrite) for _, c, again in todo]
    try:
        for k, _ in map_unordered(_lineup_task, tasks, n_jobs=base.n_jobs, backend=base.backend,
                                  scheduler=base.scheduler):
            i, c, _ = todo[k]
            if on_lineup:
                on_lineup(i, total, c.strategies)
            lineups_bar.advance(1)
    except (KeyboardInterrupt, ConfigError, RunFolderError):
        raise
    except Exception as e:  # a lineup's failure or a worker process that died: one line and the way on
        raise RunFolderError(f"a lineup of the tournament failed ({type(e).__name__}: {e}); the finished lineups are "
                             "kept: run the same command again with --resume to complete it") from None


def read_tournament(out: Path | str) -> dict:
    """The ``tournament.json`` of a tournament folder.

    Raises:
        RunFolderError: missing or unreadable.
    """
    p = Path(out) / TOURNAMENT_FILE
    if not p.is_file():
        raise RunFolderError(f"{str(out)!r} is not a tournament folder: no {TOURNAMENT_FILE}")
    try:
        return json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"{str(p)!r} is unreadable: {e}") from None


def lineup_folders(out: Path | str) -> list[Path]:
    """The lineup run folders of a tournament, in lineup order (those that hold a run)."""
    meta = read_tournament(out)
    return [Path(out) / f"lineup-{i:02d}" for i in range(len(meta["lineups"]))
            if (Path(out) / f"lineup-{i:02d}" / rf.MANIFEST).is_file()]


def _check_resumable(old: dict, new: dict) -> None:
    """RunFolderError naming the first setting in which the saved tournament differs from ``new``."""
    for k in ("game", "strategies", "players", "games_per_lineup", "seed", "params", "every_profile"):
        a, b = old.get(k, False if k == "every_profile" else None), new[k]
        if k == "params" and a is None:
            a = {}
        if a != b:
            opt = {"games_per_lineup": "--games", "every_profile": "--every-profile",
                   "params": "--set"}.get(k, f"--{k}")
            raise RunFolderError(f"cannot resume: the tournament in the folder has {opt} {_show(a)}, "
                                 f"this tournament has {opt} {_show(b)}")


def _show(v) -> str:
    if isinstance(v, list):
        return ",".join(map(str, v))
    if isinstance(v, dict):
        return ",".join(f"{k}={x}" for k, x in v.items()) or "(none)"
    return str(v)


#: a tournament folder: tournament.json, its lineup runs, tables, report and settings, nothing else
STUDY_FOLDER = rf.StudyFolder("tournament", TOURNAMENT_FILE, (rf.SETTINGS, *TABLE_FILES, "report"),
                        run_dirs=LINEUP_DIR.pattern, status_required=False)


__all__ = ["LINEUP_DIR", "SEATINGS", "TABLE_FILES", "STUDY_FOLDER", "TOURNAMENT_FILE", "check_seating", "lineup_folders",
           "lineups", "play_tournament", "read_tournament"]
