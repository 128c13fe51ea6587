"""Read run folders lazily with polars.

    runs = load_runs(["runs/a", "runs/b"])     # one or many (sweeps)
    runs.games.collect()                       # polars DataFrame; .to_pandas() for pandas
    turns = scan_run("runs/a", "turns")        # one table of one run, as written (no run column)

Never glob a table folder (``pl.scan_parquet("RUN/turns/*.parquet")``): that also reads part files
no chunk of the manifest lists (a part copied in from another run, a chunk finished after Ctrl-C).

Each table gets a ``run`` column (the folder name) so many runs can be compared; ``manifest``
holds each run's provenance.

Readers take the manifest's list: the part files of the chunks marked done, nothing else. Hidden
and temporary files (``._part-000002.parquet``, ``.part-000003.parquet.tmp-123``) are never read;
part files of chunks the manifest does not list (finished after Ctrl-C, or written by a worker
that outlived its parent) are left out; a listed part that is missing leaves its chunk out. Both
are said in ``Runs.notes``, and the run's manifest in ``Runs.manifests`` then shows the chunk as
``missing`` and the run as not complete, so no count claims games the tables do not hold.

With ``check`` (the default) every listed part is first checked against the manifest before anything is
read: its row count, its size and its sha256 (recorded when the part was written; a manifest written before
parts were hashed gets the other checks), and the games table's own invariants (one row per game and seat,
every game of the run's player count, within its chunk). A part that does not match is one
``RunFolderError`` naming it, what differs and the repair (``meeplelab simulate --out RUN --resume`` moves
it into ``RUN/stray/`` and plays its chunk again); a folder in a part's place is the same error. The checks
cost about 0.1 s for a 20,000-game Unconscious Mind run (60 parts, 44 MB).

Inside ``with shared_reads():`` (what ``meeplelab report`` and ``meeplelab stronger`` run in) each table of each
run is read from its part files and sorted once, at the first ``collect`` that needs it, then kept in memory: every
later :func:`load_runs` of that run and every ``collect`` of its lazy tables reads the same rows from memory (the
same rows in the same order, so the same bits), and a run's parts are checked once. A part file whose size or
modification time changed since is read and checked again.
"""

from __future__ import annotations

import contextlib
import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import polars as pl

from meeplelab.play import runfolder as rf
from meeplelab.sim.core.errors import RunFolderError
from meeplelab.play.runfolder import TABLES, read_manifest


@dataclass
class Runs:
    """Lazy tables of one or more run folders.

    Attributes:
        games, turns, events: ``polars.LazyFrame`` with a leading ``run`` column.
        manifests: ``{run name: manifest dict}``.
        paths: ``{run name: folder}``.
        notes: ``{run name: [sentence]}`` where the files and the manifest disagree (parts left out).
    """

    games: pl.LazyFrame
    turns: pl.LazyFrame
    events: pl.LazyFrame
    manifests: dict[str, dict]
    paths: dict[str, Path]
    notes: dict[str, list[str]] = field(default_factory=dict)

    @property
    def game_names(self) -> set[str]:
        """Game ids present in these runs."""
        return {m["config"]["game"] for m in self.manifests.values()}


def _parts(run: Path, table: str, manifest: dict) -> list[Path]:
    """The part files of ``table`` the manifest lists (chunks marked done) and that exist."""
    return [run / table / rf.part_name(int(c["id"])) for c in manifest.get("chunks") or []
            if c.get("status") == "done" and (run / table / rf.part_name(int(c["id"]))).is_file()]


#: the order of each table's rows as read: by game, then seat (games) or ply (turns, events; a ply's events as
#: logged)
ROW_ORDER = {"games": ("game", "seat"), "turns": ("game", "ply"), "events": ("game", "ply")}


def _in_order(lf: pl.LazyFrame, table: str) -> pl.LazyFrame:
    """``lf`` sorted (stably) by :data:`ROW_ORDER`: the same rows in the same order and in one contiguous chunk
    however the games were split into part files (batch size, n_jobs, a resume), so every sum and mean over them
    adds in the same order and gives the same bits."""
    names = lf.collect_schema().names()
    keys = [k for k in ROW_ORDER.get(table, ()) if k in names]
    return lf.sort(keys, maintain_order=True) if keys else lf


#: the tables read in the current :func:`shared_reads` scope (None: outside one): ``{(table, parts' stats): frame}``
#: and ``{("check", manifest, parts' stats): None}`` for the runs checked
_SHARED: dict | None = None


@contextlib.contextmanager
def shared_reads() -> Iterator[None]:
    """Within: each run's table is read from its part files once and kept in memory (module docstring); the
    memory is released when the outermost scope ends. Nested scopes share the outer one's tables."""
    global _SHARED
    outer = _SHARED
    if outer is None:
        _SHARED = {}
    try:
        yield
    finally:
        if outer is None:
            _SHARED = None


def _stats(folder: Path, paths: list[Path]) -> tuple:
    """What identifies the contents of ``paths`` (files under ``folder``) while they are not rewritten: the folder
    resolved, and each file's path in it, size and modification time (ns)."""
    out = [str(folder.resolve())]
    for p in paths:
        st = p.stat()
        out.append((str(p.relative_to(folder)), st.st_size, st.st_mtime_ns))
    return tuple(out)


def _read(run: Path, table: str, parts: list[Path], name: str) -> pl.LazyFrame:
    """``table`` of ``run`` from ``parts`` in :data:`ROW_ORDER` with the ``run`` column ``name``: a lazy scan, or
    inside :func:`shared_reads` the rows read at the first ``collect`` that needs them and kept."""
    shared = _SHARED
    key = (table, _stats(run, parts)) if shared is not None else None
    if shared is not None and key in shared:
        return shared[key].lazy().with_columns(pl.lit(name).alias("run"))
    lf = pl.scan_parquet([str(p) for p in parts]).with_columns(pl.col(pl.Categorical).cast(pl.String))
    if shared is None:
        return _in_order(lf.with_columns(pl.lit(name).alias("run")), table)
    ordered = _in_order(lf, table)  # sorted as read, before the run column (not a sort key)

    def rows() -> pl.DataFrame:  # at the first collect that reads the table
        if key not in shared:
            shared[key] = ordered.collect()
        return shared[key]

    return pl.defer(rows, schema=ordered.collect_schema()).with_columns(pl.lit(name).alias("run"))


def _check_once(run: Path, m: dict) -> None:
    """:func:`check_parts`, inside :func:`shared_reads` once for the same manifest and part files."""
    if _SHARED is None:
        check_parts(run, m)
        return
    listed = [run / t / rf.part_name(int(c["id"])) for c in m.get("chunks") or [] for t in TABLES]
    key = ("check", repr(m), _stats(run, [p for p in listed if p.exists()]))
    if key not in _SHARED:
        check_parts(run, m)
        _SHARED[key] = None


def check_parts(run: Path, manifest: dict | None = None) -> None:
    """Check every part file the manifest lists against it (:func:`meeplelab.play.runfolder.part_problem`: a
    file, its footer, row count, size, sha256, and the games table's invariants); RunFolderError naming the
    first part that does not match, what differs, and the repair. A listed part that is missing is left out
    and said in :attr:`Runs.notes` instead.

    Raises:
        RunFolderError: a listed part that is a folder, not valid Parquet, or holds other rows or bytes than
            the manifest recorded, or a games part whose rows break the table's invariants.
    """
    run = Path(run)
    m = read_manifest(run) if manifest is None else manifest
    chunks = {int(c["id"]): c for c in m.get("chunks") or []}
    for cid, bad in sorted(rf.verify_chunks(run, m).items()):
        for t, why in bad.items():
            if why != "missing":  # a missing part is left out and said in Runs.notes
                raise RunFolderError(rf.part_error(run, t, chunks[cid], why))


def _reconcile(run: Path, m: dict) -> tuple[dict, list[str]]:
    """The manifest as the readers use it (chunks with a missing listed part marked ``missing``, the
    run then not complete) and the notes saying where files and manifest disagree."""
    notes = []
    extra = rf.unlisted_parts(run, m)
    missing = {cid: bad for cid, bad in rf.verify_chunks(run, m, footer=False).items()}
    if missing:
        m = copy.deepcopy(m)
        chunks = {int(c["id"]): c for c in m["chunks"]}
        for cid, bad in sorted(missing.items()):
            c = chunks[cid]
            c["status"] = "missing"
            notes.append(f"{', '.join(f'{t}/{rf.part_name(cid)}' for t in bad)} listed in the manifest "
                         f"{'is' if len(bad) == 1 else 'are'} missing: games {c['lo']} to {c['hi'] - 1} are left out; "
                         f"{rf.resume_hint(run)} replays them")
        m["status"] = f"{m.get('status')}, {len(missing)} chunk(s) missing"
    if extra:
        notes.append(f"{len(extra)} part file(s) not listed in the manifest as done were left out "
                     f"(e.g. {extra[0]}: a chunk that finished after an interruption, or one still running); "
                     f"{rf.resume_hint(run)} completes the run")
    return m, notes


def scan_run(run: Path | str, table: str = "games", *, check: bool = True) -> pl.LazyFrame:
    """One table of one run folder, lazily, read from the part files of the chunks the manifest marks
    done (the manifest-aware read of ``RUN/<table>/``; columns as written, no ``run`` column). Where the
    files and the manifest disagree the sentence of :attr:`Runs.notes` is given as a ``UserWarning``.

    Raises:
        RunFolderError: an unknown table (the allowed named), or as :func:`load_runs`.
    """
    if table not in TABLES:
        raise RunFolderError(f"unknown table {table!r}: allowed {', '.join(TABLES)}")
    runs = load_runs([run], check=check)
    for notes in runs.notes.values():
        for note in notes:
            import warnings

            warnings.warn(f"run {str(run)!r}: {note}", UserWarning, stacklevel=2)
    return getattr(runs, table).drop("run")


def load_runs(folders: Sequence[Path | str], *, check: bool = True) -> Runs:
    """Lazy tables over one or more run folders.

    Raises:
        RunFolderError: no folder given, the same folder given twice (compared resolved), a folder
            that is not a run, a run without games, a listed part file that does not match the manifest
            (a folder in its place, corrupt, another row count, size or sha256, a games part whose rows break
            the table's invariants: named, with what differs and the repair; ``check``), or runs of
            different games.
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
    notes: dict[str, list[str]] = {}
    for f in folders:
        run = Path(f)
        m = read_manifest(run)
        name = run.resolve().name
        if name in manifests:
            name = str(run)
        if check:
            _check_once(run, m)
        m, why = _reconcile(run, m)
        if not _parts(run, "games", m):
            yet = "" if str(m.get("status", "")).startswith("complete") else " yet"
            raise RunFolderError(f"run folder {str(run)!r} holds no games{yet} (status {m.get('status')!r})"
                                 + (f": {why[0]}" if why else ""))
        manifests[name] = m
        paths[name] = run
        if why:
            notes[name] = why
        for t in TABLES:
            parts = _parts(run, t, m)
            if parts:
                frames[t].append(_read(run, t, parts, name))
    games_in = {m["config"]["game"] for m in manifests.values()}
    if len(games_in) > 1:
        raise RunFolderError(f"runs of different games cannot be combined: {', '.join(sorted(games_in))}")
    out = {}
    for t in TABLES:
        fr = frames[t]
        out[t] = pl.concat(fr, how="diagonal_relaxed") if fr else pl.LazyFrame({"run": []}, schema={"run": pl.String})
    return Runs(out["games"], out["turns"], out["events"], manifests, paths, notes)
