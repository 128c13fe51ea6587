"""Read run folders lazily with polars.

    runs = load_runs(["runs/a", "runs/b"])     # one or many (sweeps)
    runs.games.collect()                       # polars DataFrame; .to_pandas() for pandas

Each table gets a ``run`` column (the folder name) so many runs can be compared; ``manifest``
holds each run's provenance. Only complete chunks' part files exist under ``*.parquet``, so a
reader never sees a half-written file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import polars as pl
import pyarrow.parquet as pq

from sim.core.errors import RunFolderError
from sim.runfolder import TABLES, read_manifest


@dataclass
class Runs:
    """Lazy tables of one or more run folders.

    Attributes:
        games, turns, events: ``polars.LazyFrame`` with a leading ``run`` column.
        manifests: ``{run name: manifest dict}``.
        paths: ``{run name: folder}``.
    """

    games: pl.LazyFrame
    turns: pl.LazyFrame
    events: pl.LazyFrame
    manifests: dict[str, dict]
    paths: dict[str, Path]

    @property
    def game_names(self) -> set[str]:
        """Game ids present in these runs."""
        return {m["config"]["game"] for m in self.manifests.values()}


def _parts(run: Path, table: str) -> list[Path]:
    return sorted((run / table).glob("*.parquet"))


def check_parts(run: Path) -> None:
    """Open every part file's footer; RunFolderError naming the first corrupt part.

    Raises:
        RunFolderError: a part file that is not valid Parquet.
    """
    for t in TABLES:
        for p in _parts(run, t):
            try:
                pq.read_metadata(p)
            except Exception as e:  # pyarrow raises ArrowInvalid / OSError on corrupt files
                raise RunFolderError(f"corrupt Parquet part {str(p)!r}: {type(e).__name__}") from None


def load_runs(folders: Sequence[Path | str], *, check: bool = True) -> Runs:
    """Lazy tables over one or more run folders.

    Raises:
        RunFolderError: no folder given, the same folder given twice (compared resolved), a folder
            that is not a run, a run without games, a corrupt part file (named), or runs of different games.
    """
    folders = list(folders)
    if not folders:
        raise RunFolderError("no run folder given")
    manifests: dict[str, dict] = {}
    paths: dict[str, Path] = {}
    frames: dict[str, list[pl.LazyFrame]] = {t: [] for t in TABLES}
    given: dict[Path, Path] = {}
    for f in folders:
        run = Path(f)
        first = given.setdefault(run.resolve(), run)
        if first is not run:
            same = "twice" if str(first) == str(run) else f"twice (as {str(first)!r} and {str(run)!r})"
            raise RunFolderError(f"run folder {str(run)!r} is given {same}: give each run once")
    for f in folders:
        run = Path(f)
        m = read_manifest(run)
        name = run.resolve().name
        if name in manifests:
            name = str(run)
        if not _parts(run, "games"):
            raise RunFolderError(f"run folder {str(run)!r} holds no games yet (status {m.get('status')!r})")
        if check:
            check_parts(run)
        manifests[name] = m
        paths[name] = run
        for t in TABLES:
            parts = _parts(run, t)
            if parts:
                lf = pl.scan_parquet([str(p) for p in parts]).with_columns(
                    pl.col(pl.Categorical).cast(pl.String)).with_columns(pl.lit(name).alias("run"))
                frames[t].append(lf)
    games_in = {m["config"]["game"] for m in manifests.values()}
    if len(games_in) > 1:
        raise RunFolderError(f"runs of different games cannot be combined: {', '.join(sorted(games_in))}")
    out = {}
    for t in TABLES:
        fr = frames[t]
        out[t] = pl.concat(fr, how="diagonal_relaxed") if fr else pl.LazyFrame({"run": []}, schema={"run": pl.String})
    return Runs(out["games"], out["turns"], out["events"], manifests, paths)
