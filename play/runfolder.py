"""Run folders: ``manifest.json``, ``run.toml`` and Parquet part files, written atomically.

Layout of a run folder::

    RUN/manifest.json          config, versions, params and content hashes, seeds, chunk status
    RUN/run.toml               the config, to repeat the run (simulate --config RUN/run.toml --out NEW)
    RUN/content/               a copy of custom content files (runs with --content only)
    RUN/games/part-000000.parquet   one row per (game, seat)
    RUN/turns/part-000000.parquet   one row per turn
    RUN/events/part-000000.parquet  one row per event
    RUN/stray/games/part-000099.parquet  part files no chunk of the manifest lists, moved out of the
                               tables by --resume (copied in from another run, or finished after Ctrl-C)

Every file is written under a temporary name that no ``*.parquet`` glob matches and then renamed
(``os.replace``), so a reader never sees a half-written file. The manifest records each part's rows, bytes
and sha256, and every read checks them (:func:`part_problem`); ``--overwrite`` of a run builds the new run in
the hidden sibling ``.NAME.new`` and swaps it in when complete (:func:`prepare_out`, :func:`swap_in`), and every study
command's ``--overwrite`` does the same for its whole folder (:func:`study_folder`). Part files are Parquet, zstd,
dictionary-encoded strings. Read a run through its manifest (``meeplelab.analysis.load.scan_run(RUN, "turns")`` or
``load_runs``), which reads only the parts of the chunks marked done; a glob of the table folder would
also read a part no chunk lists until ``--resume`` has moved it into ``RUN/stray/``.

A run folder is self-contained and can be moved: ``run.toml`` and the manifest's config hold paths
relative to the run folder (``out = "."``, ``content = "content"``), custom content is copied into
``RUN/content/`` (its hash is in the manifest), and paths in a config file are read relative to
that file's folder (:func:`meeplelab.play.config.load_toml`). :func:`run_config` gives a run's config with
those paths resolved.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Callable, Iterator

import glob
import hashlib
import json
import os
import re
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from meeplelab.play.config import RunConfig, load_toml, resolve_paths
from meeplelab.sim.core.arrow import to_numpy
from meeplelab.sim.core.errors import RunFolderError, is_environment_error, os_error_of

TABLES = ("games", "turns", "events")
MANIFEST = "manifest.json"
RUN_TOML = "run.toml"
#: a command's resolved settings in its output folder (play/settings.py); a run folder's are its run.toml
SETTINGS = "config.toml"
CONTENT = "content"
STRAY = "stray"
FORMAT_VERSION = 1


def now() -> str:
    """UTC timestamp, ISO 8601."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary name and a rename.

    On any failure (a full disk) the temporary file is removed and ``path`` keeps what it held; the error
    is an ``OSError`` naming ``path``."""
    path = Path(path)
    with replacing(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())


def write_frame(path: Path, df) -> None:
    """Write a polars DataFrame as Parquet to ``path`` atomically (see :func:`write_atomic`); a polars
    error that carries a file-system error (``ComputeError: ... (os error 28)``) becomes that ``OSError``."""
    path = Path(path)
    with replacing(path) as tmp:
        df.write_parquet(tmp)


class replacing:
    """``with replacing(path) as tmp``: write ``tmp`` (hidden, no ``*.parquet`` glob matches it), then it
    replaces ``path``; on an exception ``tmp`` is removed and a file-system error is raised as an
    ``OSError`` naming ``path``."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.tmp = self.path.with_name(f".{self.path.name}.tmp-{os.getpid()}")

    def __enter__(self) -> Path:
        return self.tmp

    def __exit__(self, kind, e, tb) -> Literal[False]:
        if e is None:
            try:
                os.replace(self.tmp, self.path)
                return False
            except OSError as failed:
                e = failed
        try:
            self.tmp.unlink(missing_ok=True)
        except OSError:
            pass
        err = os_error_of(e) if isinstance(e, Exception) else None
        if err is not None and (is_environment_error(err) or err.filename is None or not isinstance(e, OSError)):
            # named by the file being written, never by its hidden temporary name
            raise OSError(err.errno, os.strerror(err.errno) if err.errno else (err.strerror or str(err)),
                          str(self.path)) from None
        if kind is None:  # the rename itself failed
            raise e
        return False


def stored_config(config: dict[str, Any]) -> dict[str, Any]:
    """A config dict as a run folder stores it: ``out`` is the run folder itself (``"."``) and
    custom content is the folder's own copy (``"content"``), so nothing points outside the folder."""
    d = dict(config)
    d["out"] = "."
    if d.get("content") is not None:
        d["content"] = CONTENT
    return d


def run_config(run: Path, manifest: dict[str, Any] | None = None):
    """The :class:`~meeplelab.play.config.RunConfig` of a run folder, its paths resolved against the folder.

    Raises:
        RunFolderError: not a run folder (see :func:`read_manifest`).
        ConfigError: the stored config is not valid.
    """
    m = read_manifest(run) if manifest is None else manifest
    return RunConfig.from_dict(resolve_paths(m["config"], Path(run)))


def content_blobs(files: list[Path], root: Path) -> dict[str, bytes]:
    """The bytes of content ``files`` by their path relative to the content folder ``root``."""
    return {str(Path(f).resolve().relative_to(Path(root).resolve())): Path(f).read_bytes() for f in files}


def write_content(run: Path, blobs: dict[str, bytes]) -> None:
    """Write the copy of custom content into ``run/content`` (a whole folder, renamed into place)."""
    run = Path(run)
    tmp = run / f".{CONTENT}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        for name, data in blobs.items():
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / name).write_bytes(data)
    except BaseException:  # a full disk: no half copy left behind
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = run / f".{CONTENT}.old-{os.getpid()}"
    if (run / CONTENT).exists():
        os.replace(run / CONTENT, old)
    os.replace(tmp, run / CONTENT)
    shutil.rmtree(old, ignore_errors=True)


def part_name(chunk: int) -> str:
    """File name of a chunk's part file."""
    return f"part-{chunk:06d}.parquet"


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes (hex), read in 1 MiB blocks (a run's parts hash at about 250 MB/s)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def write_part(run: Path, table_name: str, chunk: int, table: pa.Table) -> tuple[int, str]:
    """Write one part file atomically; returns its size in bytes and its sha256 (hex), which the manifest
    records for the chunk (``bytes`` and ``sha256``, by table) and every reader checks (:func:`part_problem`)."""
    d = run / table_name
    d.mkdir(parents=True, exist_ok=True)
    final = d / part_name(chunk)
    with replacing(final) as tmp:
        pq.write_table(table, tmp, compression="zstd", compression_level=6, use_dictionary=True)
        size, digest = tmp.stat().st_size, file_sha256(tmp)  # the bytes that are renamed into place
    return size, digest


PART_RE = re.compile(r"part-(\d{6})\.parquet")


def resume_hint(run: Path) -> str:
    """The command that completes (or repairs) the run in ``run``."""
    return f"meeplelab simulate --out {str(run)!r} --resume"


def part_problem(run: Path, table: str, chunk: dict[str, Any], *, footer: bool = True,
                 players: int | None = None) -> str | None:
    """What is wrong with the part file of a chunk the manifest lists as done, or None.

    Checked in this order: the path is a file (``"missing"``; a folder in its place: ``"is a folder, not a
    file"``); with ``footer``: its Parquet footer reads (``"is corrupt (ArrowInvalid)"``) and holds the
    row count the manifest recorded (``"holds 384 rows where the manifest lists 383"``), its size and its
    sha256 are the manifest's (``"is 11,967 bytes where the manifest lists 12,066"``, ``"has sha256
    3fa2c1d4e5f6... where the manifest lists 9b1c0e2f1234..."``), and, for the games table with ``players``
    given, the table's own invariants hold (:func:`games_problem`). A manifest written before parts were
    hashed has no ``sha256``: its parts get every other check. The phrase follows the part's path in a
    message (:func:`part_error`).
    """
    p = Path(run) / table / part_name(int(chunk["id"]))
    if p.is_dir():
        return "is a folder, not a file"
    if not p.is_file():
        return "missing"
    if not footer:
        return None
    try:
        pf = pq.ParquetFile(p)  # its footer
    except Exception as e:  # pyarrow raises ArrowInvalid / OSError on a truncated or corrupt file
        return f"is corrupt ({type(e).__name__})"
    with pf:
        return _content_problem(p, pf, table, chunk, players)


def _content_problem(p: Path, pf: pq.ParquetFile, table: str, chunk: dict[str, Any], players: int | None) -> str | None:
    """:func:`part_problem`'s checks of a part whose footer reads (``pf``): rows, size, sha256, invariants."""
    rows = pf.metadata.num_rows
    want = (chunk.get("rows") or {}).get(table)
    if want is not None and rows != int(want):
        return f"holds {rows:,} rows where the manifest lists {int(want):,}"
    size, want = p.stat().st_size, (chunk.get("bytes") or {}).get(table)
    if want is not None and size != int(want):
        return f"is {size:,} bytes where the manifest lists {int(want):,}"
    want = (chunk.get("sha256") or {}).get(table)
    if want is not None:
        got = file_sha256(p)
        if got != want:
            return f"has sha256 {got[:12]}... where the manifest lists {str(want)[:12]}..."
    if table == "games" and players is not None:
        return games_problem(pf, int(chunk["lo"]), int(chunk["hi"]), players)
    return None


def games_problem(part: pq.ParquetFile, lo: int, hi: int, players: int) -> str | None:
    """What breaks the invariants of the games part ``part`` (opened) of the chunk of games ``lo..hi-1`` in a
    run of ``players`` seats, or None: every row's game lies in the chunk, its ``players`` column is
    ``players``, its seat is ``0..players-1``, and each game holds one row per seat. Reads the columns game,
    seat and players (a few ms a part)."""
    try:
        t = part.read(columns=["game", "seat", "players"])
        game, seat, pl_ = (to_numpy(t.column(c)).astype(np.int64) for c in ("game", "seat", "players"))
    except Exception as e:  # a column missing, a data page that does not decode, nulls or non-integers
        return f"is corrupt ({type(e).__name__})"
    bad = np.flatnonzero((game < lo) | (game >= hi))
    if bad.size:
        return f"holds game {int(game[bad[0]]):,}, outside its chunk's games {lo:,} to {hi - 1:,}"
    bad = np.flatnonzero(pl_ != players)
    if bad.size:
        return f"says game {int(game[bad[0]]):,} has {int(pl_[bad[0]])} players where the run has {players}"
    bad = np.flatnonzero((seat < 0) | (seat >= players))
    if bad.size:
        return f"holds seat {int(seat[bad[0]])} of game {int(game[bad[0]]):,} where the run has {players} players"
    per_game = np.bincount(game - lo, minlength=hi - lo)
    bad = np.flatnonzero((per_game != 0) & (per_game != players))
    if bad.size:
        return (f"holds {int(per_game[bad[0]])} seat rows of game {lo + int(bad[0]):,} where the run has {players} "
                "players (one row per game and seat)")
    per_seat = np.bincount((game - lo) * players + seat, minlength=(hi - lo) * players)
    bad = np.flatnonzero(per_seat > 1)
    if bad.size:
        g, s = divmod(int(bad[0]), players)
        return f"holds {int(per_seat[bad[0]])} rows of seat {s} of game {lo + g:,} (one row per game and seat)"
    return None


def part_error(run: Path, table: str, chunk: dict[str, Any], why: str) -> str:
    """The one line for a part file that does not match the manifest (``why`` from :func:`part_problem`):
    the part, what differs, and the repair (a resume moves it into ``RUN/stray/`` and plays its chunk again)."""
    run = Path(run)
    p = run / table / part_name(int(chunk["id"]))
    return (f"Parquet part {str(p)!r} {why}; {resume_hint(run)} moves it to {str(run / STRAY)!r} and plays chunk "
            f"{int(chunk['id'])} (games {int(chunk['lo']):,} to {int(chunk['hi']) - 1:,}) again")


def verify_chunks(run: Path, manifest: dict[str, Any], *, footer: bool = True) -> dict[int, dict[str, str]]:
    """Part files of the chunks marked done that do not match the manifest (:func:`part_problem`; with
    ``footer``, every check, the games table's invariants included).

    Returns:
        ``{chunk id: {table: problem}}`` (see :func:`part_problem`); empty when files and manifest agree.
    """
    out: dict[int, dict[str, str]] = {}
    players = int((manifest.get("config") or {}).get("players") or 0) or None
    for c in manifest.get("chunks") or []:
        if c.get("status") != "done":
            continue
        for t in TABLES:
            why = part_problem(run, t, c, footer=footer, players=players)
            if why is not None:
                out.setdefault(int(c["id"]), {})[t] = why
    return out


def unlisted_parts(run: Path, manifest: dict[str, Any]) -> list[str]:
    """Files of the table folders that are no part of a chunk the manifest lists as done: parts
    (``table/part-NNNNNN.parquet``) written by chunks that finished after Ctrl-C or by workers that outlived
    a killed parent, and any other file put there (``part-stray.parquet``, which a glob would read).
    Hidden and temporary files (``.*``) are not listed."""
    done = {int(c["id"]) for c in manifest.get("chunks") or [] if c.get("status") == "done"}
    out = []
    for t in TABLES:
        d = Path(run) / t
        if d.is_dir():
            for p in sorted(d.iterdir()):
                if p.name.startswith(".") or not p.is_file():
                    continue
                m = PART_RE.fullmatch(p.name)  # any other file (part-stray.parquet) is no part of this run either
                if m is None or int(m.group(1)) not in done:
                    out.append(f"{t}/{p.name}")
    return out


def move_stray_parts(run: Path, manifest: dict[str, Any]) -> list[str]:
    """Move the part files no chunk marked done lists (:func:`unlisted_parts`) out of the table folders
    into ``run/stray/<table>/`` (a name already there gets ``-1``, ``-2``... before ``.parquet``), so
    that nothing but the manifest's chunks is left where the tables are read; returns the moved
    names (``table/part-NNNNNN.parquet``). The chunks of the run that are not done are played again."""
    run = Path(run)
    moved = unlisted_parts(run, manifest)
    for name in moved:
        move_to_stray(run, name)
    return moved


def move_to_stray(run: Path, name: str) -> Path:
    """Move the entry ``name`` (``table/part-NNNNNN.parquet``, a file or a folder in its place) of the run
    folder ``run`` into ``run/stray/<table>/`` (a name already there gets ``-1``, ``-2``... before its
    suffix); returns where it went."""
    src = Path(run) / name
    dst = Path(run) / STRAY / name
    dst.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    while dst.exists():
        n += 1
        dst = dst.with_name(f"{src.stem}-{n}{src.suffix}")
    os.replace(src, dst)
    return dst


def stray_note(run: Path, moved: list[str]) -> str:
    """The one line that says which part files :func:`move_stray_parts` moved, and where."""
    k = len(moved)
    shown = ", ".join(moved[:3]) + (f" and {k - 3} more" if k > 3 else "")
    return (f"note: moved {k} part file{'s' if k != 1 else ''} that no finished chunk of the manifest lists out of the "
            f"tables into {str(Path(run) / STRAY)!r} ({shown}); the run's own chunks not done are played again")


def remove_temp_files(run: Path) -> int:
    """Delete leftover temporary files of an interrupted run; returns how many."""
    n = 0
    for sub in TABLES:
        d = run / sub
        if d.is_dir():
            for p in d.glob(".*.tmp-*"):
                p.unlink(missing_ok=True)
                n += 1
    for p in run.glob(".*.tmp-*"):
        p.unlink(missing_ok=True)
        n += 1
    return n


def read_manifest(run: Path) -> dict[str, Any]:
    """The manifest of a run folder.

    Raises:
        RunFolderError: no such folder, no manifest, or an unreadable manifest.
    """
    run = Path(run)
    if run.exists() and not run.is_dir():
        raise RunFolderError(f"{str(run)!r} is a file, not a run folder: give a folder written by meeplelab simulate")
    if not run.is_dir():
        raise RunFolderError(f"run folder {str(run)!r} does not exist")
    p = run / MANIFEST
    if not p.is_file():
        raise RunFolderError(_not_a_run(run))
    try:
        return json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"{str(p)!r} is unreadable: {e}") from None


def _not_a_run(run: Path) -> str:
    """Why ``run`` (a folder without a manifest) is not a run folder; points into a sweep or tournament."""
    subs = sorted(p.name for p in run.iterdir() if p.is_dir() and not p.name.startswith(".") and (p / MANIFEST).is_file())
    if (run / "sweep.json").is_file():
        kind, where = "sweep", "variant"
    elif (run / "tournament.json").is_file() or any(re.fullmatch(r"lineup-\d+", n) for n in subs):
        kind, where = "tournament", "lineup"
    elif subs:
        kind, where = "folder of runs", "run"
    else:
        return f"{str(run)!r} is not a run folder: no {MANIFEST}"
    what = "a folder of runs" if kind == "folder of runs" else f"a {kind} folder"
    if not subs:
        return f"{str(run)!r} is {what}, not a run folder, and holds no {where} runs yet"
    msg = (f"{str(run)!r} is {what}, not a run folder: give its {where} folders "
           f"({len(subs)}, e.g. {str(run / subs[0])!r})")
    if kind == "sweep" and (run / "report" / "report.html").is_file():
        msg += f"; the sweep's report is {str(run / 'report' / 'report.html')!r}"
    elif kind == "tournament" and (run / "summary.parquet").is_file():
        msg += f"; the tournament's tables are {str(run / 'summary.parquet')!r} and seats.parquet beside it"
    return msg


def write_manifest(run: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest atomically (updated timestamp refreshed)."""
    manifest["updated"] = now()
    write_atomic(Path(run) / MANIFEST, (json.dumps(manifest, indent=1, default=str) + "\n").encode())


def prepare_out(run: Path, *, resume: bool, overwrite: bool) -> tuple[Path, bool]:
    """Check and prepare the output folder ``run``; returns the folder to write the run into and whether an
    existing run is resumed.

    The folder is ``run`` itself, except for ``overwrite`` of a run already in ``run``: the new run is then
    built in the staging sibling :func:`staging_folder` (emptied first) and :func:`swap_in` replaces the old
    run with it once it is complete, so the old run survives any failure, Ctrl-C or kill before that.
    ``resume`` completes an interrupted overwrite first: when the staging sibling holds a run, it is resumed
    (and swapped in when complete); otherwise the run in ``run`` is. A swap a killed process left half done
    is finished (or undone) first (:func:`recover_swap`).

    Raises:
        RunFolderError: the folder holds another run (without --resume/--overwrite), holds
            other files, is not writable, or --resume finds nothing to resume.
    """
    run = Path(run)
    if resume and overwrite:
        raise RunFolderError("--resume and --overwrite exclude each other: choose one")
    recover_swap(run)
    has_manifest = (run / MANIFEST).is_file()
    if resume:
        staged = staging_folder(run)
        if (staged / MANIFEST).is_file():  # an interrupted --overwrite: the new run is completed, then swapped in
            _check_writable(staged)
            return staged, True
        if not has_manifest:
            raise RunFolderError(f"nothing to resume: {str(run)!r} holds no run (no {MANIFEST})")
        _check_writable(run)
        return run, True
    if run.exists() and not run.is_dir():
        raise RunFolderError(f"output path {str(run)!r} is a file, not a folder")
    if has_manifest and not overwrite:
        raise RunFolderError(
            f"output folder {str(run)!r} holds another run: use --resume to complete it or --overwrite to replace it")
    if run.is_dir():
        others = foreign_entries(run)
        if others:
            raise RunFolderError(
                f"output folder {str(run)!r} is not empty and not a run folder (holds {others[0]!r}): choose a new --out")
    _check_writable(run)
    if overwrite and has_manifest:
        staged = staging_folder(run)
        shutil.rmtree(staged, ignore_errors=True)  # an earlier interrupted overwrite starts afresh
        _check_writable(staged)
        return staged, False
    return run, False


def resume_folder(out: Path) -> Path:
    """The folder ``--resume`` of ``out`` completes: the staging sibling of an interrupted ``--overwrite`` when it
    holds a run (:func:`prepare_out`), else ``out``."""
    staged = staging_folder(out)
    return staged if (staged / MANIFEST).is_file() else Path(out)


def simulate_base(config: Path | None, *, resume: bool, game: str | None, out: Path | None) -> dict:
    """``meeplelab simulate``: the run config its options start from (a dict of run.toml fields; the ``config`` file's,
    empty without one).

    ``--resume`` alone (no ``config``, no ``game``) takes the interrupted run's own ``run.toml`` in ``out``
    (an interrupted ``--overwrite``'s: :func:`resume_folder`); a resumed run.toml written before seating existed is
    seated fixed.

    Raises:
        ConfigError: an unreadable or malformed config file (:func:`meeplelab.play.config.load_toml`).
    """
    if config is None and resume and game is None and out is not None and (resume_folder(out) / "run.toml").is_file():
        config = resume_folder(out) / "run.toml"  # --resume alone: the run's own config (an interrupted --overwrite's)
    base: dict = load_toml(config) if config is not None else {}
    if config is not None and resume and "seating" not in base:
        base["seating"] = "fixed"  # a run.toml written before seating existed: its games were seated fixed
    return base


def incomplete_note(out: Path) -> str:
    """What an interrupted ``simulate`` says about ``out``: its run is incomplete, or, for an interrupted
    ``--overwrite``, the old run is kept and the new one waits in the staging sibling for ``--resume``."""
    staged = resume_folder(out)
    if staged != Path(out):
        return (f"the run in {out} is kept as it was; the new run is incomplete in {staged}: complete it with --resume "
                f"(it then replaces the run in {out}), or start it again with --overwrite")
    return f"the run in {out} is incomplete; complete it with --resume"


def staging_folder(out: Path | str) -> Path:
    """The folder an ``--overwrite`` of the run in ``out`` builds its new run in: the hidden sibling
    ``.NAME.new`` (no glob of run folders matches it; on the same file system, so the swap is a rename)."""
    out = Path(os.path.abspath(out))
    return out.parent / f".{out.name}.new"


def _trash_folders(out: Path) -> list[Path]:
    """The ``.NAME.old-PID`` siblings :func:`swap_in` moves old runs to before deleting them."""
    out = Path(os.path.abspath(out))
    return sorted(out.parent.glob(f".{glob.escape(out.name)}.old-*")) if out.parent.is_dir() else []


def swap_in(new: Path, out: Path) -> None:
    """Replace the folder ``out`` by the complete folder ``new`` (its :func:`staging_folder`): ``out`` is renamed to
    the sibling ``.NAME.old-PID``, ``new`` to ``out``, then the old one is deleted. Each rename is atomic; a process
    killed between the two leaves both folders, and :func:`recover_swap` (run by the next :func:`prepare_out`)
    finishes the swap."""
    out = Path(os.path.abspath(out))
    trash = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        os.replace(out, trash)
    os.replace(new, out)
    shutil.rmtree(trash, ignore_errors=True)


def recover_swap(out: Path, marker: str = MANIFEST) -> None:
    """Finish what a process killed inside :func:`swap_in` left: with ``out`` gone, the complete staging folder (its
    ``marker`` file, a run's manifest or a study's state file, says ``"status": "complete"``) is renamed into place
    (else the old run or study is put back); old ones left beside a present ``out`` are deleted."""
    trash = _trash_folders(out)
    if not trash:
        return
    out = Path(os.path.abspath(out))
    if not out.exists():
        staged = staging_folder(out)
        try:
            done = json.loads((staged / marker).read_text()).get("status") == "complete"
        except (OSError, ValueError, AttributeError):
            done = False
        os.replace(staged if done else trash.pop(), out)
    for t in trash:
        shutil.rmtree(t, ignore_errors=True)


#: hidden entries the writers here leave beside what they write (staging siblings, old folders of a swap, temporary
#: files, write probes): never carried from an old study folder into the new one
_MACHINERY = re.compile(r"\..+\.(new|old-\d+|tmp-\d+)|\.write-probe-.*")

#: the study folders this process is building: ``{absolute out: the folder it is built in}`` (:func:`study_folder`)
_BUILDING: dict[str, Path] = {}


@contextlib.contextmanager
def study_folder(out: Path | str, spec: StudyFolder | None = None, *, marker: str = "",
                 check: Callable[..., Any] | None = None, resume: bool = False,
                 overwrite: bool = False) -> Iterator[Path]:
    """``with study_folder(OUT, ...) as work``: the folder a study command builds its study in; an ``overwrite`` of an
    earlier study is built beside it and swapped in when the block ends, so the old study survives any failure.

    The study writes everything under ``work`` (its state file ``marker``, its member runs, tables, report) and names
    its members relative to it (:func:`rebase`):

    - a new study (``out`` missing or empty), or ``resume`` of the study in ``out``: ``work`` is ``out``;
    - ``overwrite`` of a study in ``out``: ``work`` is the staging sibling ``.NAME.new`` (:func:`staging_folder`,
      emptied first). When the block returns, the entries of ``out`` that are no part of its study (those ``check``
      does not list: a user's notes) are copied into ``work``, which then replaces ``out`` by two renames
      (:func:`swap_in`). On an exception (a full disk, Ctrl-C) ``out`` is left as it was, byte for byte, and so it is
      after a kill;
    - ``resume`` when the staging sibling holds ``marker`` (an interrupted overwrite): ``work`` is the staging
      sibling; the study completes it there and it is swapped in as above.

    A swap a killed process left half done is finished first (:func:`recover_swap`); a staging folder that never got
    its ``marker`` is removed when the block fails, or by the next ``resume`` after a kill (nothing in it to resume).
    Entered again for the same ``out`` inside the block (a study that wraps another's steps: ``run_tournament``
    around ``play_tournament``), it yields the same folder and leaves the checks and the swap to the outer one.

    Args:
        out: the study folder the user named (``--out``).
        spec: the study's folder (:class:`StudyFolder`): its ``status_file`` is the ``marker`` and its
            :meth:`StudyFolder.check` the ``check``.
        marker: the study's state file (``experiment.json``, ...).
        check: the study's acceptance of a folder, ``check(folder, resume=..., overwrite=...)``: raises RunFolderError
            for what the study refuses (another kind of folder; a study without ``resume``/``overwrite``; nothing to
            resume); with ``overwrite`` it returns the entries of ``folder`` that belong to the earlier study.

    Raises:
        RunFolderError: ``resume`` with ``overwrite``, what ``check`` refuses, or a staging folder that cannot be made.
    """
    if spec is not None:
        marker, check = spec.status_file, spec.check
    assert check is not None and marker, "study_folder needs a spec, or a marker and a check"
    key = os.path.abspath(out)
    if key in _BUILDING:
        yield _BUILDING[key]
        return
    out = Path(out)
    if resume and overwrite:
        raise RunFolderError("--resume and --overwrite exclude each other: choose one")
    recover_swap(out, marker)
    staged = staging_folder(out)
    work, kept = out, []
    if resume and (staged / marker).is_file():  # an interrupted --overwrite: completed, then swapped in
        check(staged, resume=True, overwrite=False)
        work, kept = staged, _kept_entries(out, check)
    else:
        check(out, resume=resume, overwrite=overwrite)
        if resume and staged.is_dir():  # an overwrite killed before its state file was written: nothing to resume
            shutil.rmtree(staged, ignore_errors=True)
        if overwrite and out.is_dir() and any(not p.name.startswith(".") for p in out.iterdir()):
            if Path(os.getcwd()).resolve().is_relative_to(out.resolve()):
                raise RunFolderError(f"--overwrite replaces {str(out)!r} whole and the working folder is in it: run the "
                                     "command from another folder")
            work, kept = staged, _kept_entries(out, check)
            shutil.rmtree(staged, ignore_errors=True)  # an earlier interrupted overwrite starts afresh
            try:
                _check_writable(staged)
            except BaseException:
                shutil.rmtree(staged, ignore_errors=True)
                raise
    _BUILDING[key] = work
    try:
        yield work
    except BaseException:
        if work != out and not (work / marker).is_file():
            shutil.rmtree(work, ignore_errors=True)
        raise
    finally:
        _BUILDING.pop(key, None)
    if work != out:
        _carry(kept, work)
        swap_in(work, out)


def _kept_entries(out: Path, check: Callable[..., Any]) -> list[Path]:
    """The entries of the study folder ``out`` an overwrite carries into the new study: all but the earlier study's
    own (``check(out, resume=False, overwrite=True)``) and the writers' hidden temporary ones."""
    if not out.is_dir():
        return []
    owned = {Path(p).name for p in check(out, resume=False, overwrite=True) or ()}
    return sorted(p for p in out.iterdir() if p.name not in owned and not _MACHINERY.fullmatch(p.name))


def _carry(entries: list[Path], dest: Path) -> None:
    """Copy ``entries`` into the folder ``dest`` under their names (a symbolic link as a link), each through a hidden
    temporary name and a rename; a name the new study wrote itself stays the new study's."""
    for p in entries:
        target = dest / p.name
        if target.exists() or target.is_symlink() or not (p.exists() or p.is_symlink()):
            continue
        tmp = dest / f".{p.name}.tmp-{os.getpid()}"
        try:
            if p.is_symlink():
                os.symlink(os.readlink(p), tmp)
            elif p.is_dir():
                shutil.copytree(p, tmp, symlinks=True)
            else:
                shutil.copy2(p, tmp)
            os.replace(tmp, target)
        except BaseException:  # a full disk: no half copy left behind
            if tmp.is_dir() and not tmp.is_symlink():
                shutil.rmtree(tmp, ignore_errors=True)
            else:
                tmp.unlink(missing_ok=True)
            raise


def rebase(path: Path | str, out: Path | str, work: Path | str) -> str:
    """``path`` (a member of the study folder ``out``) as the same member of ``work``, the folder the study is built
    in (:func:`study_folder`); a path outside ``out`` is returned as it is. Both ways: ``rebase(p, work, out)`` names
    a member of the finished study."""
    a, o = os.path.abspath(path), os.path.abspath(out)
    if Path(o) == Path(os.path.abspath(work)) or not (a == o or a.startswith(o.rstrip(os.sep) + os.sep)):
        return str(path)
    return str(Path(work) / os.path.relpath(a, o)) if a != o else str(work)


def study_note(out: Path | str, what: str) -> str:
    """What an interrupted study command says about ``out`` (``what``: "experiment", "sweep", ...): its study is
    incomplete, or, for an interrupted ``--overwrite``, the earlier study is kept and the new one waits in the
    staging sibling for ``--resume`` (:func:`study_folder`)."""
    staged = staging_folder(out)
    if staged.is_dir():
        return (f"the {what} in {out} is kept as it was; the new {what} is incomplete in {staged}: complete it with "
                f"the same command and --resume (it then replaces the {what} in {out}), or start it again with "
                "--overwrite")
    return f"the {what} in {out} is incomplete; complete it with the same command and --resume"


def study_resume_folder(out: Path | str) -> Path:
    """The folder ``--resume`` of the study in ``out`` completes: the staging sibling of an interrupted
    ``--overwrite`` when it holds anything (:func:`study_folder`), else ``out``."""
    staged = staging_folder(out)
    return staged if staged.is_dir() and any(staged.iterdir()) else Path(out)


def foreign_entries(run: Path) -> list[str]:
    """Names in the folder ``run`` that a run folder does not hold (hidden temporary files aside), sorted."""
    return sorted(p.name for p in Path(run).iterdir()
                  if p.name not in TABLES + (MANIFEST, RUN_TOML, "report", CONTENT, STRAY) and not p.name.startswith("."))


def remove_runs(folders) -> int:
    """Delete the run folders of an earlier sweep or tournament (``--overwrite``); returns how many.

    Every existing folder is checked before anything is deleted: it must hold nothing but run files
    (manifest.json, run.toml, games/, turns/, events/, report/, content/, stray/, hidden temporary files). Missing
    folders are skipped.

    Raises:
        RunFolderError: one of them is a file or holds anything else (nothing is deleted then).
    """
    found = check_runs(folders)
    for f in found:
        shutil.rmtree(f)
    return len(found)


def check_runs(folders) -> list[Path]:
    """The existing ones of ``folders`` (the member runs of an earlier study an ``--overwrite`` replaces), each
    checked to hold nothing but run files (see :func:`remove_runs`); nothing is changed.

    Raises:
        RunFolderError: one of them is a file or holds anything else.
    """
    found = [Path(f) for f in folders if Path(f).exists() or Path(f).is_symlink()]
    for f in found:
        if f.is_symlink() or not f.is_dir():
            raise RunFolderError(f"{str(f)!r} is not a run folder: remove it or choose a new --out")
        others = foreign_entries(f)
        if others:
            raise RunFolderError(f"{str(f)!r} is not a run folder (holds {others[0]!r}): remove it or choose a new --out")
    return found


def _check_writable(run: Path) -> None:
    try:
        run.mkdir(parents=True, exist_ok=True)
        probe = run / f".write-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        if is_environment_error(e):  # a read-only or full file system: the CLI says so in one line, exit 1
            raise OSError(e.errno, e.strerror, str(run)) from None
        raise RunFolderError(f"cannot write to output folder {str(run)!r}: {e.strerror or e}") from None


@dataclasses.dataclass(frozen=True)
class StudyFolder:
    """What a study command accepts as its output folder (:func:`check_study_folder`), and what of it an
    ``--overwrite`` replaces.

    Attributes:
        noun: the study in messages ("tournament", "balance search").
        status_file: its state file (``tournament.json``); it marks the folder as the study's.
        own_names: the names of the study's own files and folders.
        run_dirs: pattern of the names of its member run folders (folders, each checked to hold only a run's files
            before an overwrite replaces them; :func:`check_runs`).
        run_parents: names of its folders whose entries are member run folders (checked the same way).
        members: the names of the earlier study's member run folders read from its state file (an experiment's
            arms), called on overwrite (it may raise RunFolderError); each is checked as ``run_dirs`` are.
        keeps_others: True: other entries (a user's notes) are accepted and an overwrite keeps them; False: a folder
            holding any is refused.
        status_required: True: a folder holding the study's entries without ``status_file`` is refused as another
            kind of folder; False: it is an incomplete study that only ``--overwrite`` replaces.
        same_options: with ``--resume``, raises RunFolderError when the saved study's options differ from this
            command's (called with the folder).
    """

    noun: str
    status_file: str
    own_names: tuple[str, ...] = ()
    run_dirs: str = ""
    run_parents: tuple[str, ...] = ()
    members: Callable[[Path], list[str]] | None = None
    keeps_others: bool = False
    status_required: bool = True
    same_options: Callable[[Path], None] | None = None

    def owns(self, p: Path) -> bool:
        """``p`` (an entry of the folder) is one of the study's own entries: its name fits ``own_names`` (a member run
        folder: ``run_dirs``, a folder); a symbolic link never is."""
        if p.is_symlink():
            return False
        if self.run_dirs and re.fullmatch(self.run_dirs, p.name):
            return p.is_dir()
        return p.name in (self.status_file, *self.own_names)

    def check(self, out: Path, *, resume: bool = False, overwrite: bool = False) -> list[Path]:
        """:func:`check_study_folder` of ``out`` for this study (the ``check`` of :func:`study_folder`)."""
        return check_study_folder(Path(out), self, resume=resume, overwrite=overwrite)


def check_study_folder(out: Path, spec: StudyFolder, *, resume: bool = False, overwrite: bool = False) -> list[Path]:
    """Accept ``out`` as the output folder of the study ``spec``; nothing is changed.

    Returns:
        with ``overwrite``, the entries of the earlier study in ``out`` (its own entries, member runs and
        ``spec.members``), which the new study replaces; else ``[]``.

    Raises:
        RunFolderError (one line naming ``out`` or the entry, and what to do): ``resume`` with ``overwrite``; ``out``
            is a file; a non-empty folder that is not the study's (an entry not its own, or no state file); a study
            without ``resume`` or ``overwrite``; (``resume``) nothing to resume, or options that differ; (overwrite) a
            member run folder holding more than a run's files.
    """
    entries = folder_entries(out, resume=resume, overwrite=overwrite)
    has_status = (out / spec.status_file).is_file()
    ours = [p for p in entries if spec.owns(p)]
    others = sorted(p.name for p in entries if p not in ours)
    if (others and not spec.keeps_others) or (entries and not has_status and spec.status_required):
        raise RunFolderError(f"output folder {str(out)!r} is not empty and not a {spec.noun} folder (holds "
                             f"{(others or sorted(p.name for p in entries))[0]!r}): choose a new --out")
    if resume and not has_status:
        raise RunFolderError(f"nothing to resume: {str(out)!r} holds no {spec.noun} (no {spec.status_file}): start it "
                             + ("with --overwrite instead" if entries else "without --resume"))
    if not entries:
        return []
    if resume:
        if spec.same_options is not None:
            spec.same_options(out)
        return []
    if not overwrite:
        raise RunFolderError(f"output folder {str(out)!r} holds " + (
            f"another {spec.noun}: use --resume to complete it, --overwrite to replace it" if has_status else
            f"an incomplete {spec.noun} (no {spec.status_file}): use --overwrite to replace it") + " or choose a new --out")
    members = [out / n for n in sorted(set(spec.members(out) if spec.members and has_status else ()))]
    check_runs([p for p in ours if spec.run_dirs and re.fullmatch(spec.run_dirs, p.name)] + members)
    for sub in spec.run_parents:
        if (out / sub).is_dir() and not (out / sub).is_symlink():
            check_runs([x for x in (out / sub).iterdir() if not x.name.startswith(".")])
    return ours + [p for p in members if p not in ours and (p.exists() or p.is_symlink())]


def folder_entries(out: Path, *, resume: bool = False, overwrite: bool = False) -> list[Path]:
    """The visible entries of a command's output folder ``out`` (empty when it does not exist), after the
    checks every folder-writing command shares.

    Raises:
        RunFolderError: ``resume`` with ``overwrite``, or ``out`` is a file.
    """
    if resume and overwrite:
        raise RunFolderError("--resume and --overwrite exclude each other: choose one")
    if out.exists() and not out.is_dir():
        raise RunFolderError(f"output path {str(out)!r} is a file, not a folder")
    return [p for p in out.iterdir() if not p.name.startswith(".")] if out.is_dir() else []


def write_settings(out: Path, text: str | None) -> None:
    """Write a command's resolved settings (``meeplelab.play.settings.settings_toml``) into its output folder ``out`` as
    ``config.toml`` (atomically), so ``meeplelab CMD --config OUT/config.toml`` repeats it; nothing when
    ``text`` is None (called from Python without settings). Called once the folder is accepted and the
    command's own status file is written, so a refused command writes nothing."""
    if text is not None:
        write_atomic(Path(out) / SETTINGS, text.encode())


def save_state(path: Path, state: dict) -> None:
    """Write a search's saved state (``search.json`` of tune and balance) atomically."""
    write_atomic(Path(path), json.dumps(state, indent=1).encode())


def read_state(path: Path, what: str) -> dict:
    """A search's saved state; ``what`` names it in the error (``a saved tuning``).

    Raises:
        RunFolderError: the file is unreadable or holds no saved state.
    """
    path = Path(path)
    try:
        d = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"{str(path)!r} is unreadable: {e}") from None
    if not isinstance(d, dict):
        raise RunFolderError(f"{str(path)!r} is unreadable: not {what}")
    return d


@contextlib.contextmanager
def status_marked(state: dict, save: Callable[[], None]):
    """Mark a study folder's ``state["status"]`` when the block ends: ``complete`` when it returns,
    ``interrupted`` on Ctrl-C, ``failed`` on any other error (then re-raised), calling ``save()`` each time
    (tune's and balance's ``search.json``)."""
    try:
        yield
    except KeyboardInterrupt:
        state["status"] = "interrupted"
        save()
        raise
    except BaseException:
        state["status"] = "failed"
        save()
        raise
    state["status"] = "complete"
    save()


#: the state files of the version-comparison studies (``meeplelab compare``, ``meeplelab exchange-rates``):
#: named here, on the running-games floor, so analysis reads the folders without importing the studies
COMPARE_FILE = "compare.json"
EXCHANGE_FILE = "exchange.json"


def read_study_state(out: Path | str, state_file: str, what: str) -> dict:
    """The saved state ``state_file`` of a study folder ``out`` (a ``what`` folder: "comparison", ...).

    Raises:
        RunFolderError: no such file, or it does not read.
    """
    out = Path(out)
    if not (out / state_file).is_file():
        raise RunFolderError(f"{str(out)!r} is not a {what} folder: no {state_file}")
    return read_state(out / state_file, f"a saved {what}")

