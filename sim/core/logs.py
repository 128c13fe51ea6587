"""Log schemas and buffers: the ``games``, ``turns`` and ``events`` tables of a run folder.

Schemas are declared once, in code, as :class:`Column` tuples. A game declares the columns it
adds to the core ones (``Game.turn_columns``, ``Game.event_columns``, ``Game.event_kinds``);
:class:`LogSpec` joins them and turns buffered rows into Arrow tables.

During play a rule kernel appends integer rows to ``int32[B, C, K]`` buffers held in the state
(``turn_buf``/``event_buf``, counts in ``turn_n``/``event_n``) with :func:`alloc_row`. The
runner drains the buffers (:func:`drain`) whenever they fill past half, and at the end of a
chunk. Categorical columns (``vocab``) are stored as codes and written as dictionary-encoded
strings.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numba import njit
from .arrow import dictionary, from_numpy

_PA_TYPES = {
    "int8": pa.int8(),
    "int16": pa.int16(),
    "int32": pa.int32(),
    "int64": pa.int64(),
    "float64": pa.float64(),
    "bool": pa.bool_(),
}


@dataclass(frozen=True)
class Column:
    """One column of a log table.

    Attributes:
        name: column name (snake_case, the games' own words).
        dtype: ``int8``/``int16``/``int32``/``int64``/``float64``/``bool``, or ``str`` for a
            categorical stored as codes into ``vocab`` and written dictionary-encoded.
        unit: unit of the value (``VP``, ``Coffee``, ``seat``, ``count``, ``-`` for none).
        doc: one sentence: what the value means.
        vocab: labels for a ``str`` column, indexed by code.
    """

    name: str
    dtype: str
    unit: str
    doc: str
    vocab: tuple[str, ...] | None = None

    def arrow_type(self) -> pa.DataType:
        """Arrow type of the column as written to Parquet."""
        if self.dtype == "str":
            return pa.dictionary(pa.int16(), pa.string())
        return _PA_TYPES[self.dtype]


GAME_COL = Column("game", "int64", "index", "Game index within the run (the games table's `game_seed` keys its random streams).")

TURN_BASE: tuple[Column, ...] = (
    Column("ply", "int32", "decisions", "Decisions taken in the game before this turn ended (exclusive)."),
    Column("turn", "int32", "turns", "Turn number within the game, from 0."),
    Column("round", "int16", "rounds", "Round (Unconscious Mind) or Cycle (Galileo's Truth) of the turn, from 1."),
    Column("seat", "int8", "seat", "Seat that took the turn, 0 = first player."),
)

EVENT_BASE_NAMES = ("ply", "turn", "seat", "kind")

# buffer columns of the core columns, in the order of TURN_BASE and event_base (tests/test_logcols.py
# checks them against the schemas); a game's own columns follow, named in sim/<game>/logcols.py
T_PLY, T_TURN, T_ROUND, T_SEAT = 0, 1, 2, 3
E_PLY, E_TURN, E_SEAT, E_KIND = 0, 1, 2, 3


def event_base(kinds: tuple[str, ...]) -> tuple[Column, ...]:
    """Core event columns; ``kind`` takes the game's declared event kinds as its vocabulary."""
    return (
        Column("ply", "int32", "decisions", "Decisions taken in the game when the event happened."),
        Column("turn", "int32", "turns", "Turn number within the game, from 0."),
        Column("seat", "int8", "seat", "Seat the event is about (the one who gains, pays or acts)."),
        Column("kind", "str", "-", "What happened; see the game's event kinds.", kinds),
    )


@dataclass(frozen=True)
class LogSpec:
    """Columns of one buffered log table (without the ``game`` column, added on drain)."""

    columns: tuple[Column, ...]

    @property
    def width(self) -> int:
        """K, the number of int32 columns in a buffer row."""
        return len(self.columns)

    def index(self, name: str) -> int:
        """Buffer column of ``name`` (KeyError naming the known columns)."""
        for i, c in enumerate(self.columns):
            if c.name == name:
                return i
        raise KeyError(f"unknown log column {name!r}; known: {[c.name for c in self.columns]}")

    def schema(self) -> pa.Schema:
        """Arrow schema of the table as written (``game`` first)."""
        return pa.schema([pa.field(GAME_COL.name, GAME_COL.arrow_type())] + [pa.field(c.name, c.arrow_type()) for c in self.columns])

    def to_table(self, game: np.ndarray, rows: np.ndarray) -> pa.Table:
        """Arrow table from ``game: int64[N]`` and buffered ``rows: int32[N, K]``."""

        arrays = [from_numpy(np.asarray(game, dtype=np.int64))]
        for i, c in enumerate(self.columns):
            col = rows[:, i]
            if c.dtype == "str":
                assert c.vocab is not None
                arrays.append(dictionary(col.astype(np.int16), list(c.vocab)))
            elif c.dtype == "bool":
                arrays.append(from_numpy(col != 0))
            else:
                arrays.append(from_numpy(col.astype(c.dtype)))
        return pa.Table.from_arrays(arrays, schema=self.schema())

    def empty_table(self) -> pa.Table:
        """A table with this schema and no rows."""
        return self.to_table(np.zeros(0, np.int64), np.zeros((0, self.width), np.int32))


def alloc_buffers(batch: int, capacity: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """``int32[B, capacity, width]`` row buffer and ``int32[B]`` counts."""
    return np.zeros((batch, capacity, width), np.int32), np.zeros(batch, np.int32)


@njit(cache=True)
def alloc_row(buf, n, g):
    """Index of a fresh row of game ``g`` in ``buf`` (raises when the buffer is full)."""
    r = n[g]
    if r >= buf.shape[1]:
        raise RuntimeError("log buffer full: drain more often or raise the capacity")
    n[g] = r + 1
    for k in range(buf.shape[2]):
        buf[g, r, k] = 0
    return r


@njit(cache=True)
def begin_row(buf, n, g, c0, c1, c2, c3):
    """Append a row of game ``g`` with its four core columns set to ``c0..c3`` and the game's columns
    0; returns the row, for the game to fill its own columns by their names (``sim/<game>/logcols.py``).
    The one writer of log rows; call it through :func:`begin_turn_row` /
    :func:`begin_event_row`, which name the core columns.

    Args:
        buf: ``int32[B, capacity, K]`` buffer; n: ``int32[B]`` rows used per game.

    Raises:
        RuntimeError: the buffer is full (:func:`alloc_row`).
    """
    r = alloc_row(buf, n, g)
    buf[g, r, 0] = c0  # T_PLY == E_PLY
    buf[g, r, 1] = c1  # T_TURN == E_TURN
    buf[g, r, 2] = c2  # T_ROUND / E_SEAT
    buf[g, r, 3] = c3  # T_SEAT / E_KIND
    return r


@njit(cache=True)
def begin_turn_row(buf, n, g, ply, turn, rnd, seat):
    """A new turns-table row with ply, turn, round and seat set (:func:`begin_row`)."""
    return begin_row(buf, n, g, ply, turn, rnd, seat)


@njit(cache=True)
def begin_event_row(buf, n, g, ply, turn, seat, kind):
    """A new events-table row with ply, turn, seat and kind code set (:func:`begin_row`)."""
    return begin_row(buf, n, g, ply, turn, seat, kind)


def drain(buf: np.ndarray, n: np.ndarray, game_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Take every pending row out of a buffer, in (game, row) order, and reset the counts.

    Returns:
        ``(game int64[N], rows int32[N, K])``.
    """
    cap = buf.shape[1]
    m = np.arange(cap)[None, :] < n[:, None]
    rows = buf[m]
    game = np.repeat(np.asarray(game_ids, np.int64), n.astype(np.int64))
    n[:] = 0
    return game, rows
