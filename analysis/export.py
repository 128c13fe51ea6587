"""``meeplelab export``: a run's tables (games, turns, events) as CSV, JSON or Parquet files for a
spreadsheet or another tool, read the manifest-aware way (:func:`meeplelab.analysis.load.load_runs`: only the
parts the manifest lists, each checked).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import polars as pl

from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.play.runfolder import TABLES

from .load import load_runs

#: the formats ``export`` writes, each with its file ending
FORMATS = {"csv": "csv", "json": "json", "parquet": "parquet"}


def _write(df: pl.DataFrame, path: Path, fmt: str) -> None:
    if fmt == "csv":
        df.write_csv(path)
    elif fmt == "json":
        df.write_json(path)  # one JSON array of row objects
    else:
        df.write_parquet(path)


def export_run(run: Path | str, out: Path | str, fmt: str = "csv", *, tables: tuple[str, ...] = TABLES,
               overwrite: bool = False) -> list[Path]:
    """Write ``out/<table>.<fmt>`` for each table of the run (rows as logged: one row a game, a turn or an
    event, every column of ``docs/logs.md``); the folder is written whole or not at all.

    Args:
        run: a run folder (``simulate --out``).
        out: the folder to write (new or empty, or an earlier export with ``overwrite``).
        fmt: ``csv``, ``json`` or ``parquet``.
        tables: which of ``games``, ``turns``, ``events``.

    Returns:
        the written files, in ``tables`` order.

    Raises:
        ConfigError: an unknown format or table.
        RunFolderError: the run cannot be read, or ``out`` exists and is not an empty folder (without ``overwrite``).
    """
    if fmt not in FORMATS:
        raise ConfigError(f"--format {fmt!r} is not known: allowed {', '.join(FORMATS)}")
    bad = [t for t in tables if t not in TABLES]
    if bad:
        raise ConfigError(f"table {bad[0]!r} is not known: allowed {', '.join(TABLES)}")
    out = Path(out)
    if out.exists() and not overwrite and not (out.is_dir() and not any(out.iterdir())):
        raise RunFolderError(f"export folder {str(out)!r} exists and is not empty: choose a new folder or use --overwrite")
    runs = load_runs([run])
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        written = []
        for t in tables:
            df = getattr(runs, t).drop("run").collect()
            path = tmp / f"{t}.{FORMATS[fmt]}"
            _write(df, path, fmt)
            written.append(out / path.name)
        os.chmod(tmp, 0o755)
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return written
