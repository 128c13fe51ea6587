"""A tournament as one command: every lineup played (:func:`meeplelab.play.tournament.play_tournament`), then
summarised (:func:`meeplelab.analysis.tournament.summarize`) into rounded, ordered Parquet tables beside the lineups,
and ``tournament.json`` marked ``complete`` (docs/metagame.md)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from meeplelab.analysis.tables import write_table
from meeplelab.analysis.tournament import summarize
from meeplelab.play import runfolder as rf
from meeplelab.play.tournament import TOURNAMENT_FILE, play_tournament


def run_tournament(game: str, strategies, players: int, games: int, seed: int, out: Path | str,
                   **options) -> dict[str, pl.DataFrame]:
    """Play every lineup for ``games`` games each (games per lineup) and summarise.

    Lineup ``i`` is played into ``out/lineup-<i>``; ``options`` are those of
    :func:`meeplelab.play.tournament.play_tournament` (batch size, n_jobs, backend, params, overwrite, resume, ...).

    Returns:
        the tables of :func:`meeplelab.analysis.tournament.summarize` (also written as Parquet into ``out``; the
        same games give the same bytes).

    Raises:
        the errors of :func:`~meeplelab.play.tournament.play_tournament`.
    """
    folders, meta = play_tournament(game, strategies, players, games, seed, out, **options)
    tables = summarize(folders)
    out = Path(out)
    for name, df in tables.items():  # rounded and ordered: the same games give the same bytes
        write_table(df, out / f"{name}.parquet")
    meta["status"] = "complete"
    rf.write_atomic(out / TOURNAMENT_FILE, json.dumps(meta, indent=1).encode())
    return tables
