"""Tournaments: every seat arrangement of the chosen strategies, on common seeds.

Each arrangement (lineup) is an ordinary run folder under ``out/`` played with the same seed, so
game ``i`` of every lineup starts from the same shuffles; seat advantage cancels out over the
lineups. The summary (win rate with Wilson 95% intervals, mean VP and margin with t intervals)
and a seat-by-seat table are written as Parquet and returned as polars DataFrames.

A tournament folder holds only ``lineup-NN/`` run folders, ``tournament.json`` and the Parquet
tables. ``overwrite`` replaces an earlier tournament whole (its lineup folders are checked to be
run folders first), so a smaller tournament leaves no stale lineup; a folder that is neither empty
nor a tournament is refused, never written into or deleted. There is no resume: rerun with
``overwrite`` or choose a new folder.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from pathlib import Path
from typing import Callable, Sequence

import polars as pl

from sim import runfolder as rf
from sim.config import RunConfig
from sim.core.errors import ConfigError, RunFolderError
from sim.runner import simulate

TOURNAMENT_FILE = "tournament.json"
TABLE_FILES = ("summary.parquet", "seats.parquet", "lineups.parquet")
LINEUP_DIR = re.compile(r"lineup-\d+")


def lineups(strategies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Seat arrangements: every ordering of the strategies over the seats, each strategy seated.

    With as many strategies as seats: all permutations. With more seats than strategies: every
    arrangement in which each strategy holds at least one seat. With fewer seats: every ordered
    choice of ``players`` distinct strategies.

    Raises:
        ConfigError: fewer than two seats, fewer than two strategies, or repeated ids.
    """
    s = list(strategies)
    if len(s) < 2:
        raise ConfigError("a tournament needs at least two strategies")
    if len(set(s)) != len(s):
        raise ConfigError(f"strategies repeat in {','.join(s)}: list each once")
    if not isinstance(players, int) or players < 2:
        raise ConfigError(f"a tournament needs at least 2 players per game (strategies play against each other), "
                          f"got --players {players}")
    if players <= len(s):
        return list(itertools.permutations(s, players))
    return [t for t in itertools.product(s, repeat=players) if set(t) == set(s)]


def run_tournament(game: str, strategies: Sequence[str], players: int, games: int, seed: int, out: Path | str, *,
                   batch_size: int = 1024, n_jobs: int = -1, backend: str = "loky", scheduler: str | None = None,
                   params: dict | None = None, overwrite: bool = False,
                   on_lineup: Callable[[int, int, tuple], None] | None = None) -> dict[str, pl.DataFrame]:
    """Play every lineup for ``games`` games each and summarise.

    Lineup ``i`` is played into ``out/lineup-<i>``. With ``overwrite`` an earlier tournament in
    ``out`` is deleted first.

    Returns:
        ``{"summary": per strategy, "seats": per strategy and seat, "lineups": per lineup}``.

    Raises:
        ConfigError: bad strategies, players or parameters (before anything is written).
        RunFolderError: ``out`` holds another tournament (without ``overwrite``), is not empty and
            not a tournament folder, or an earlier lineup folder holds files other than a run's.
    """
    out = Path(out)
    ups = lineups(strategies, players)
    base = RunConfig(game=game, players=players, strategies=tuple(ups[0]), games=games, seed=seed,
                     batch_size=batch_size, n_jobs=n_jobs, backend=backend, scheduler=scheduler, out=str(out),
                     params=dict(params or {}))
    cfgs = [dataclasses.replace(base, strategies=tuple(u), out=str(out / f"lineup-{i:02d}")).validated()
            for i, u in enumerate(ups)]
    _prepare_out(out, overwrite=overwrite)
    out.mkdir(parents=True, exist_ok=True)
    for i, c in enumerate(cfgs):
        if on_lineup:
            on_lineup(i, len(cfgs), c.strategies)
        simulate(c, overwrite=overwrite)
    tables = summarize([Path(c.out) for c in cfgs])
    for name, df in tables.items():
        df.write_parquet(out / f".{name}.parquet.tmp")
        (out / f".{name}.parquet.tmp").replace(out / f"{name}.parquet")
    rf.write_atomic(out / TOURNAMENT_FILE, json.dumps({"game": game, "strategies": list(strategies), "players": players,
                                                        "games_per_lineup": games, "seed": seed,
                                                        "lineups": [list(u) for u in ups]}, indent=1).encode())
    return tables


def _prepare_out(out: Path, *, overwrite: bool) -> None:
    """Check ``out``; with ``overwrite`` delete the earlier tournament in it (see :func:`run_tournament`)."""
    if out.exists() and not out.is_dir():
        raise RunFolderError(f"output path {str(out)!r} is a file, not a folder")
    entries = [p for p in out.iterdir() if not p.name.startswith(".")] if out.is_dir() else []
    if not entries:
        return
    ours = [p for p in entries if (p.name in (TOURNAMENT_FILE,) + TABLE_FILES and p.is_file() and not p.is_symlink())
            or (LINEUP_DIR.fullmatch(p.name) and p.is_dir() and not p.is_symlink())]
    others = sorted(p.name for p in entries if p not in ours)
    if others:
        raise RunFolderError(
            f"output folder {str(out)!r} is not empty and not a tournament folder (holds {others[0]!r}): choose a new --out")
    if not overwrite:
        raise RunFolderError(
            f"output folder {str(out)!r} holds another tournament: use --overwrite to replace it or choose a new --out")
    rf.remove_runs([p for p in ours if p.is_dir()])
    for p in ours:
        if p.is_file():
            p.unlink()


def summarize(folders: Sequence[Path]) -> dict[str, pl.DataFrame]:
    """Summary tables of a set of lineup run folders (see :func:`run_tournament`)."""
    from analysis.load import load_runs
    from analysis.metrics import mean_by, win_rates

    runs = load_runs(folders)
    g = runs.games
    wr = win_rates(g).select("strategy", "games", pl.col("est").alias("win_rate"), pl.col("low").alias("win_low"),
                             pl.col("high").alias("win_high"))
    vp = mean_by(g, "vp").select("strategy", pl.col("est").alias("vp"), pl.col("low").alias("vp_low"),
                                 pl.col("high").alias("vp_high"))
    mg = mean_by(g, "margin").select("strategy", pl.col("est").alias("margin"), pl.col("low").alias("margin_low"),
                                     pl.col("high").alias("margin_high"))
    summary = wr.join(vp, on="strategy").join(mg, on="strategy").sort("win_rate", descending=True)
    seats = win_rates(g, ("strategy", "seat")).select("strategy", "seat", "games", pl.col("est").alias("win_rate"),
                                                      pl.col("low").alias("win_low"), pl.col("high").alias("win_high"))
    seats = seats.join(mean_by(g, "vp", ("strategy", "seat")).select("strategy", "seat", pl.col("est").alias("vp")),
                       on=["strategy", "seat"]).sort("strategy", "seat")
    lu = win_rates(g, ("run", "strategy")).select("run", "strategy", "games", pl.col("est").alias("win_rate"))
    return {"summary": summary, "seats": seats, "lineups": lu}


def format_table(df: pl.DataFrame) -> str:
    """Plain-text table for the terminal (rates in percent; seats numbered from 1 = first player, as in
    reports and replays; the Parquet tables keep the 0-based ``seat``)."""
    cols = df.columns
    rows = []
    for r in df.iter_rows(named=True):
        cells = []
        for c in cols:
            v = r[c]
            if c == "seat" and isinstance(v, int):
                cells.append(str(v + 1))
            elif isinstance(v, float):
                cells.append(f"{v * 100:.1f}" if c.startswith("win") else f"{v:.2f}")
            else:
                cells.append(str(v))
        rows.append(cells)
    heads = [c + (" %" if c.startswith("win") else "") for c in cols]
    w = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    line = lambda cells: "  ".join(x.rjust(w[i]) if i else x.ljust(w[i]) for i, x in enumerate(cells))  # noqa: E731
    return "\n".join([line(heads), line(["-" * x for x in w])] + [line(r) for r in rows])
