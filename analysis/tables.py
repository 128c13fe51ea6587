"""Stored tables that are the same bytes for the same games.

polars aggregates groups in parallel, so a float sum or mean (``game_fair``, a win rate, a mean VP)
can differ in its last bits from one run to the next on the same input (0.3333333333333332 /
0.33333333333333337), and a different row order or chunking of the same games changes the summation
order too. Every written summary therefore goes through :func:`canonical`: float columns are rounded
to :data:`SIG_FIGS` significant digits (far below any interval's width, far above the last-bit
noise of a sum of at most millions of terms) and the rows put in a fixed order, and JSON summaries
through :func:`canonical_json`. :func:`write_table` writes such a table atomically.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import polars as pl
from meeplelab.play.runfolder import write_frame

#: significant digits kept of every float in a stored summary
SIG_FIGS = 12


def canonical(df: pl.DataFrame, by: Sequence[str] | None = None, descending: bool | Sequence[bool] = False) -> pl.DataFrame:
    """``df`` with every float column rounded to :data:`SIG_FIGS` significant digits, then sorted by
    ``by`` (stable; after rounding, so values equal but for last-bit noise sort alike). Without ``by``
    the row order is kept (a table sorted by its own keys)."""
    floats = [c for c, t in df.schema.items() if t in (pl.Float64, pl.Float32)]
    out = df.with_columns([pl.col(c).round_sig_figs(SIG_FIGS) for c in floats]) if floats else df
    if by:
        out = out.sort(list(by), descending=descending, maintain_order=True, nulls_last=True)
    return out


def round_float(x: float) -> float:
    """One float rounded to :data:`SIG_FIGS` significant digits (nan and infinities unchanged)."""
    return float(f"{x:.{SIG_FIGS}g}") if isinstance(x, float) and math.isfinite(x) else x


def canonical_json(obj):
    """``obj`` (dicts, lists, tuples, numbers) with every float rounded like :func:`canonical`."""
    if isinstance(obj, float):
        return round_float(obj)
    if isinstance(obj, dict):
        return {k: canonical_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [canonical_json(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item) and getattr(obj, "ndim", 1) == 0:  # numpy scalar
        return canonical_json(obj.item())
    return obj


def write_table(df: pl.DataFrame, path: Path | str) -> Path:
    """Write ``canonical(df)`` (row order kept) to ``path`` through a temporary file and a rename."""
    path = Path(path)
    write_frame(path, canonical(df))  # atomic; a full disk is an OSError naming the path
    return path


__all__ = ["SIG_FIGS", "canonical", "canonical_json", "round_float", "write_table"]
