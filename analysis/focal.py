"""The seat-games of one roster entry of a run, found by the seat it sat in, not by the id the games table logs.

The games table logs each seat's strategy as its instance writes its id (``make_strategy(game, id).id``): a preset
id (``heuristic:preset=FILE``) is logged expanded into all its arguments, so an id as the roster gave it need not
appear in the table. The run's manifest keeps the roster as given, per seat order
(``seating.order_strategies[seat_order][seat]``), and every games row carries its ``seat_order`` and ``seat``:
those two name the roster entry whatever its id became, and two entries that are the same player under different
spellings stay apart.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
from meeplelab.play.runfolder import read_manifest
from meeplelab.sim.core.errors import RunFolderError


def entry_seats(manifest: dict, entry: str) -> pl.DataFrame:
    """``seat_order, seat`` (Int64): where the roster entry ``entry`` (its id as the roster gives it) sits in each
    seat order of the run of ``manifest``; empty when no seat order seats it."""
    orders = (manifest.get("seating") or {}).get("order_strategies") or []
    rows = [
        (o, s)
        for o, ids in enumerate(orders)
        for s, sid in enumerate(ids)
        if sid == entry
    ]
    return pl.DataFrame(
        rows, schema={"seat_order": pl.Int64, "seat": pl.Int64}, orient="row"
    )


def match_entry(games: pl.LazyFrame, manifest: dict, entry: str) -> pl.LazyFrame:
    """The rows of ``games`` (one run's games table, lazily) of the roster entry ``entry`` (the id as the roster
    gives it, a preset id unexpanded), matched by ``seat_order`` and ``seat`` against the manifest's roster; a run
    without them (no ``seat_order`` column or no ``seating.order_strategies``) on the logged ``strategy`` id.
    Possibly empty."""
    orders = (manifest.get("seating") or {}).get("order_strategies")
    if "seat_order" not in games.collect_schema().names() or not orders:
        return games.filter(pl.col("strategy") == entry)
    key = [
        pl.col("seat_order").cast(pl.Int64).alias("_order"),
        pl.col("seat").cast(pl.Int64).alias("_seat"),
    ]
    seats = (
        entry_seats(manifest, entry)
        .rename({"seat_order": "_order", "seat": "_seat"})
        .lazy()
    )
    return (
        games.with_columns(key)
        .join(seats, on=["_order", "_seat"], how="semi")
        .drop("_order", "_seat")
    )


def entry_games(
    games: pl.DataFrame | pl.LazyFrame,
    manifest: dict,
    entry: str,
    where: str = "the run",
):
    """:func:`match_entry` of ``games`` (one run's games table), of the same kind as ``games``.

    Raises:
        RunFolderError: no games row is ``entry``'s (not in the run's roster): names ``entry``, ``where`` and the
            ids the run played, never an empty result.
    """
    out = match_entry(games.lazy(), manifest, entry)
    if out.select(pl.len()).collect().item() == 0:
        seating = (manifest.get("seating") or {}).get("order_strategies") or []
        roster = list(dict.fromkeys(sid for ids in seating for sid in ids)) or list(
            (manifest.get("config") or {}).get("strategies") or []
        )
        raise RunFolderError(
            f"{where} has no games of the focal player {entry!r}: it played "
            f"{', '.join(map(repr, roster)) or 'no strategies'}"
        )
    return out if isinstance(games, pl.LazyFrame) else out.collect()


def run_entry_games(run: Path | str, games: pl.DataFrame | pl.LazyFrame, entry: str):
    """:func:`entry_games` of run folder ``run`` (its manifest read from the folder)."""
    return entry_games(games, read_manifest(Path(run)), entry, where=f"run {Path(run)}")
