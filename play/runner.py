"""``simulate(config)``: play a run's games in chunks, in parallel, into a run folder.

Game indices ``0..games-1`` are split into chunks of ``batch_size`` games. Each chunk is one
joblib task (loky processes by default, threads, or a Dask cluster through joblib's dask
backend); it plays its games as one batch and writes its own part files atomically. The parent
process records each finished chunk in ``manifest.json``, so an interrupted run (Ctrl-C, a
killed process) is completed by ``simulate(config, resume=True)``: finished chunks are kept,
the others are played again, and every game appears exactly once.

Because every game draws from its own streams keyed by (seed, game seed), the tables do not
depend on batch size, chunking, n_jobs or backend. Under seating (:mod:`meeplelab.play.seating`) game index
``i`` maps to a seat order and a game seed; a batch holds games of one seat order, played with their
game seeds, and its tables are written with the run's game indices.

Inside :func:`terminate_as_interrupt` (:mod:`meeplelab.play.interrupts`; every CLI command that plays games
runs in it) a SIGTERM is handled like Ctrl-C: it raises :class:`Terminated`, a ``KeyboardInterrupt``, so the manifest is
marked ``interrupted`` and the run can be resumed; the CLI then exits with code 143 (128 + SIGTERM)
instead of Ctrl-C's 130.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterable, Iterator

import numpy as np
import pyarrow as pa

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig, dump_toml
from meeplelab.sim.core.arrow import from_numpy, to_numpy
from meeplelab.sim.core.errors import ConfigError, RunFolderError, UserError, is_environment_error, os_error_of
from meeplelab.sim.core.extras import MissingExtra
from meeplelab.sim.core.extras import message as extra_message
from meeplelab.sim.core.params import describe, params_hash, to_dict
from meeplelab.sim.core.rng import GAME_STREAM, strategy_stream
from meeplelab.play.plan import RunPlan, chunk_bounds, resolve  # noqa: F401 (chunk_bounds: public here too)
from meeplelab.play.shipping import in_folder
from meeplelab.play.workers import (WORKERS_AT_GAMES, loky_config, quiet_pool_teardown, stop_pool,
                                    take_prestarted)
from meeplelab.play.batch import play_batch
from meeplelab.play.deny import Denial, denied_position, DeniedStrategy
from meeplelab.play.interrupts import Terminated, interrupt_exit_code, terminate_as_interrupt  # noqa: F401 (public here too)
from meeplelab.play.progress import bar
from meeplelab.play.treatments import start_resources
from meeplelab.play.warmup import warm_for_run
from meeplelab.sim.core.start import find
from meeplelab.strategies.fromfile import file_name
from meeplelab.strategies.registry import make_strategy


@dataclass
class RunSummary:
    """What a finished :func:`simulate` call did: folder, games played now, seconds, games/s."""

    out: Path
    games: int
    games_played_now: int
    seconds: float
    resumed: bool

    @property
    def games_per_second(self) -> float:
        """Games played in this call per wall-clock second."""
        return self.games_played_now / self.seconds if self.seconds > 0 else float("nan")


class ChunkFailed(Exception):
    """An exception inside :func:`run_chunk` (in a worker), carrying the chunk and its game range.

    Args (also ``.args``, so it pickles back from a worker process): chunk id, first game, last game
    + 1, ``"Type: message"`` of the original exception, its formatted traceback.
    """

    def __init__(self, chunk: int, lo: int, hi: int, what: str, trace: str = "", errno: int | None = None,
                 pid: int | None = None):
        pid = os.getpid() if pid is None else pid
        super().__init__(chunk, lo, hi, what, trace, errno, pid)
        self.chunk, self.lo, self.hi, self.what, self.trace = chunk, lo, hi, what, trace
        self.errno = errno  # the errno of a file-system error (a full disk in the worker), else None
        self.pid = pid  # the process the chunk failed in (this one, or a worker)

    def __str__(self) -> str:
        return f"chunk {self.chunk} (games {self.lo} to {self.hi - 1}): {self.what}"


class WorkerFailed(RunFolderError):
    """A chunk failed in a worker (an exception in it) or a worker process died: the run is marked
    ``failed`` with the finished chunks kept; the message names the games and the resume command."""


def _game_ranges(chunks: list[dict[str, Any]]) -> str:
    """``"games 192 to 299"`` (adjacent chunks merged; several ranges joined by commas)."""
    spans: list[list[int]] = []
    for c in sorted(chunks, key=lambda c: c["lo"]):
        if spans and spans[-1][1] == c["lo"]:
            spans[-1][1] = c["hi"]
        else:
            spans.append([c["lo"], c["hi"]])
    return "games " + ", ".join(f"{lo} to {hi - 1}" for lo, hi in spans)


def _worker_failure(out: Path, manifest: dict[str, Any], e: BaseException) -> WorkerFailed | OSError:
    """The one-line error for a chunk that failed in a worker or a worker that died; the manifest
    gets the error (and the worker's traceback) and is marked ``failed`` by the caller."""
    import re
    import traceback

    hint = f"the finished chunks are kept; complete the run with: {rf.resume_hint(out)}"
    if isinstance(e, ChunkFailed) and e.errno is not None and is_environment_error(OSError(e.errno, "")):
        manifest["error"] = str(e)  # a full or read-only disk: the CLI's one line for it, exit 1
        manifest["traceback"] = e.trace
        return OSError(e.errno, os.strerror(e.errno), str(out))
    if isinstance(e, ChunkFailed):
        manifest["error"] = str(e)
        manifest["traceback"] = e.trace
        return WorkerFailed(f"{e} {'in a worker' if e.pid != os.getpid() else 'in this process'}; {hint}")
    left = [c for c in manifest["chunks"] if c["status"] != "done"]
    codes = re.search(r"exit codes of the workers are \{([^}]*)\}", str(e))
    why = f"{type(e).__name__}" + (f", exit code {codes.group(1)}" if codes else "")
    manifest["error"] = f"{type(e).__name__}: {e}"
    manifest["traceback"] = "".join(traceback.format_exception(e))
    return WorkerFailed(f"a worker process died ({why}) while {_game_ranges(left)} were not finished; {hint}")


def run_chunk(plan: RunPlan, chunk: int, lo: int, hi: int, out: str) -> dict[str, Any]:
    """Play games ``lo..hi-1`` of a run and write their part files (a joblib task).

    ``plan`` is the run resolved once (:mod:`meeplelab.play.plan`); unpickling it in a worker imports the game's
    module, so games registered by plugins exist in worker processes.

    Returns:
        ``{"chunk", "rows": {table: n}, "bytes": {table: n}, "sha256": {table: hex}, "seconds"}``.

    Raises:
        ChunkFailed: any exception but a :class:`UserError` (kept as it is), naming the chunk.
    """
    try:
        return _run_chunk(plan, chunk, lo, hi, out)
    except UserError:
        raise
    except Exception as e:
        import traceback

        err = os_error_of(e)
        raise ChunkFailed(chunk, lo, hi, f"{type(e).__name__}: {e}", "".join(traceback.format_exception(e)),
                          err.errno if err is not None else None) from None


def _run_chunk(run: RunPlan, chunk: int, lo: int, hi: int, out: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    if run.registrations is not None:  # what the parent registered outside the built-in modules
        run.registrations.install()
    cfg, params, game, plan = run.config, run.params, run.game, run.seating
    seated: dict[int, list] = {}  # seat order -> one strategy instance per seat
    parts: dict[str, list] = {"games": [], "turns": [], "events": []}
    pid = params_hash(params)
    gidx = np.arange(lo, hi, dtype=np.int64)
    order_of, seed_of = plan.locate(gidx)
    for o in np.unique(order_of):
        o = int(o)
        if o not in seated:
            seated[o] = [make_strategy(cfg.game, s) for s in plan.strategies(o)]
        sel_g, sel_s = gidx[order_of == o], seed_of[order_of == o]
        for b in range(0, sel_g.size, cfg.batch_size):
            glob, seeds = sel_g[b:b + cfg.batch_size], sel_s[b:b + cfg.batch_size]
            for played, strategies, keep in _treated_batches(cfg, game, plan, o, seated[o], seeds):
                g_, s_ = glob[keep], seeds[keep]
                res = play_batch(played, strategies, s_, cfg.seed, log_turns=cfg.log_turns,
                                 log_events=cfg.log_events, params_id=pid, compiled=cfg.compiled)
                parts["games"].append(_seat_columns(_global_games(res.games, s_, g_), o))
                parts["turns"].append(_global_games(res.turns, s_, g_))
                parts["events"].append(_global_games(res.events, s_, g_))
                del res  # its batch state (log buffers included) goes before the next batch allocates its own
    folder = Path(out)
    rows, size, digest = {}, {}, {}
    for name in rf.TABLES:
        pieces, parts[name] = parts[name], []
        table = pa.concat_tables(pieces) if len(pieces) > 1 else pieces[0]  # chunked: no copy yet
        del pieces
        if table.num_columns and table.column("game").num_chunks > 1:  # (game, time) whatever the seat orders' interleaving
            order = np.argsort(to_numpy(table.column("game")), kind="stable")
            table = table.take(from_numpy(np.asarray(order)))  # the one copy: the chunked input is released as it is replaced
        size[name], digest[name] = rf.write_part(folder, name, chunk, table)
        rows[name] = table.num_rows
        del table
    pa.default_memory_pool().release_unused()  # give the chunk's log tables back: peak memory flat in the games
    return {"chunk": chunk, "rows": rows, "bytes": size, "sha256": digest, "seconds": time.perf_counter() - t0}


def _treated_batches(cfg, game, plan, order: int, strategies: list, seeds: np.ndarray):
    """The games ``seeds`` of seat order ``order`` as ``(game, strategies, keep)`` batches to play: one batch
    of every game (no treatment, or a start-resource treatment: the game wrapped in :class:`_Treated`), or for
    a deny treatment (:mod:`meeplelab.play.deny`) one batch per denied roster position (game seed mod P), the
    denied seat's strategy wrapped; ``keep`` is ``bool[len(seeds)]``, ascending seeds kept in order."""
    t = cfg.treatment
    if not t:
        return [(game, strategies, np.ones(seeds.size, np.bool_))]
    if "deny" not in t:
        return [(_Treated(game, plan.orders[order].index(t["position"]), t["field"], t["add"]), strategies,
                 np.ones(seeds.size, np.bool_))]

    denial = Denial(game, t["deny"])
    pos = denied_position(seeds, len(strategies))
    out = []
    for k in np.unique(pos):
        keep = pos == k
        seat = plan.orders[order].index(int(k))
        seated = list(strategies)
        seated[seat] = DeniedStrategy(strategies[seat], denial, seat, np.ones(int(keep.sum()), np.bool_))
        out.append((game, seated, keep))
    return out


class _Treated:
    """The game with one seat's start value raised at setup (an experiment's treatment: ``coins`` +1 for the
    seat holding the treated roster entry): a start resource the game's spec declares
    (:mod:`meeplelab.sim.core.start`; VP also counts toward the seat's VP events), else, for a game that declares
    none, its per-seat state array ``field``. Everything else is the game's."""

    def __init__(self, game, seat: int, field: str, add: int):
        self._game, self._seat, self._field, self._add = game, seat, field, add
        res = start_resources(game.name)
        self._res = find(res, field, game.name) if res else None

    def __getattr__(self, name):
        return getattr(self._game, name)

    def init(self, *a, **kw):
        state = self._game.init(*a, **kw)
        if self._res is not None:
            self._res.add(state, slice(None), self._seat, self._add)
        else:
            getattr(state, self._field)[:, self._seat] += self._add
        return state


def _global_games(table: pa.Table, seeds: np.ndarray, glob: np.ndarray) -> pa.Table:
    """``table`` with its ``game`` column (the game seeds a batch was played with, ascending) replaced
    by the run's global game indices ``glob`` (same length and order as ``seeds``)."""
    if table.num_rows == 0 or np.array_equal(seeds, glob):
        return table
    col = to_numpy(table.column("game"))
    i = table.schema.get_field_index("game")
    return table.set_column(i, table.schema.field(i), from_numpy(glob[np.searchsorted(seeds, col)]))


def _seat_columns(games: pa.Table, order: int) -> pa.Table:
    """The games table with its ``seat_order`` set (``game_seed`` already holds the stream key)."""
    if order == 0 or "seat_order" not in games.column_names:
        return games
    i = games.schema.get_field_index("seat_order")
    return games.set_column(i, games.schema.field(i), from_numpy(np.full(games.num_rows, order, np.int16)))


def _polars_version() -> str:
    """polars' version without importing it (a run writes its tables with pyarrow: 0.1 s of start-up saved)."""
    import sys
    from importlib.metadata import PackageNotFoundError, version

    if "polars" in sys.modules:
        return sys.modules["polars"].__version__
    try:
        return version("polars")
    except PackageNotFoundError:
        import polars

        return polars.__version__


def _versions() -> dict[str, str]:
    import joblib
    import numba
    import pyarrow

    from importlib.metadata import PackageNotFoundError, version

    try:
        mine = version("meeplelab")
    except PackageNotFoundError:  # a source tree that was never installed
        mine = "0+unknown"
    return {"meeplelab": mine, "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "polars": _polars_version(), "pyarrow": pyarrow.__version__,
            "joblib": joblib.__version__}


def new_manifest(run: RunPlan) -> dict[str, Any]:
    """Manifest of a run about to start (every chunk pending); its config holds paths relative to
    the run folder (:func:`meeplelab.play.runfolder.stored_config`)."""
    cfg, params, game, plan = run.config, run.params, run.game, run.seating
    return {
        "format": rf.FORMAT_VERSION,
        "status": "running",
        "created": rf.now(),
        "config": rf.stored_config(cfg.to_dict()),
        "versions": _versions(),
        "machine": {"platform": platform.platform(), "processor": platform.processor() or platform.machine()},
        "game": {
            "name": game.name, "title": game.title, "params": to_dict(params), "params_hash": params_hash(params),
            "params_changed": {k: v for k, v in cfg.params.items()},
            "assumed_params": [d["name"] for d in describe(params) if d["assumed"]],
            "content_hash": game.content_hash(),
            "content_files": [str(p.name) for p in game.content_files()],
        },
        "seeds": {"run_seed": cfg.seed, "game_stream": GAME_STREAM,
                  "strategy_streams": {str(s): strategy_stream(s) for s in range(cfg.players)},
                  "key": "stream key = f(run_seed, game seed, stream id); see sim/core/rng.py; the game seed of "
                         "game i is the games table's game_seed (play/seating.py)"},
        "seating": plan.to_dict(),
        "strategy_files": strategy_files(cfg.strategies),
        "chunks": [{"id": i, "lo": lo, "hi": hi, "status": "pending"} for i, (lo, hi) in enumerate(run.chunks)],
    }


def strategy_files(strategies) -> dict[str, dict]:
    """Per strategy id read from a file (``mybot.py:MyBot``, :mod:`meeplelab.strategies.fromfile`): the file's absolute
    path and sha256, so the manifest says which code played (an edited bot is another strategy) and a resume of an
    edited one is refused."""
    import hashlib

    out = {}
    for s in dict.fromkeys(strategies):
        f = file_name(s)
        if f is None:
            continue
        path = Path(f[0].rsplit(":", 1)[0]).resolve()
        out[s] = {"path": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None}
    return out


def _check_resumable(old: dict[str, Any], run: RunPlan | RunConfig) -> None:
    """RunFolderError unless the run in the folder (its manifest ``old``) is this run: the same
    result-determining settings and the same content files."""
    run = run if isinstance(run, RunPlan) else resolve(run)
    cfg = run.config
    old_cfg = RunConfig.from_dict(old["config"])
    a, b = old_cfg.result_key(), cfg.result_key()
    for d in (a, b):  # content is compared by its hash below, not by where it lies
        d["content"] = "custom" if d.get("content") is not None else None
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            raise RunFolderError(
                f"cannot resume: the run in the folder has {k}={a.get(k)!r}, this config has {k}={b.get(k)!r}")
    if old["game"]["content_hash"] != run.game.content_hash():
        raise RunFolderError("cannot resume: the content files changed since the run started")
    for sid, was in (old.get("strategy_files") or {}).items():
        now = strategy_files([sid]).get(sid, {})
        if now.get("sha256") != was.get("sha256"):
            raise RunFolderError(f"cannot resume: the strategy file of {sid!r} changed since the run started "
                                 f"({was.get('path')}); restore it, or use --overwrite to play the new code")


def check_runs_resumable(configs, what: str) -> None:
    """Before resuming a tournament or sweep: every member run folder that already holds a run must be
    that member's run (:func:`_check_resumable`); RunFolderError naming the member (``what`` is
    ``lineup`` or ``variant``) otherwise."""
    for cfg in configs:
        folder = Path(cfg.out)
        if (folder / rf.MANIFEST).is_file():
            try:
                _check_resumable(rf.read_manifest(folder), cfg)
            except RunFolderError as e:
                raise RunFolderError(f"{what} {folder.name!r}: {e}") from None


def _reopen_bad_chunks(out: Path, manifest: dict[str, Any]) -> list[int]:
    """Mark pending every chunk marked done whose part files do not match the manifest (missing, a folder in
    a part's place, a footer that does not read, another row count, size or sha256, a games part breaking the
    table's invariants: :func:`meeplelab.play.runfolder.verify_chunks`), move its bad parts into
    ``out/stray/`` and delete its other parts; returns their ids. The resumed run then plays them again; one
    note line on stderr names what was moved and why."""
    bad = rf.verify_chunks(out, manifest)
    moved = []
    for c in manifest["chunks"]:
        cid = int(c["id"])
        if cid in bad:
            for t in rf.TABLES:
                why = bad[cid].get(t)
                name = f"{t}/{rf.part_name(cid)}"
                if why is not None and why != "missing":
                    rf.move_to_stray(out, name)
                    moved.append(f"{name} {why}")
                elif why is None:
                    (out / name).unlink(missing_ok=True)
            c["status"] = "pending"
            for k in ("rows", "bytes", "sha256", "seconds"):
                c.pop(k, None)
    if bad:
        manifest.setdefault("repaired", []).append({"at": rf.now(), "chunks": sorted(bad)})
    if moved:
        n = len(moved)
        print(f"note: moved {n} part file{'s' if n != 1 else ''} that did not match the manifest into "
              f"{str(out / rf.STRAY)!r} ({'; '.join(moved[:3])}{f'; and {n - 3} more' if n > 3 else ''}); "
              f"{'its chunk is' if len(bad) == 1 else 'their chunks are'} played again", file=sys.stderr, flush=True)
    return sorted(bad)


#: seconds a Dask cluster may have no worker (before the run, or while chunks are pending) before the
#: remaining chunks are played in this process
DASK_GRACE = 10.0


def _dask_results(client, scheduler: str | None, run: RunPlan, todo: list[dict[str, Any]], out: str,
                  grace: float = DASK_GRACE) -> Iterator[dict[str, Any]]:
    """The results of ``todo``'s chunks played on a Dask cluster, in the order they finish.

    Each chunk is one task (``run_chunk``; an exception in it is raised here, as joblib did); ``run`` and ``out``
    hold absolute paths and the task carries this working folder (:func:`meeplelab.play.shipping.in_folder`), since
    a worker runs in its own. When the cluster has no worker for ``grace`` seconds while chunks are pending (it
    lost its last worker, or had none to start with), the pending tasks are cancelled and those chunks are played
    here, after one warning line on stderr saying so (the games are the same wherever they are played).
    """
    here = os.getcwd()  # the workers read relative preset paths against this folder (their own is another)
    futures = {client.submit(in_folder, here, run_chunk, run, c["id"], c["lo"], c["hi"], out, pure=False): c
               for c in todo}
    pending = list(futures)
    alone_since = None
    while pending:
        done = [f for f in pending if f.done()]  # this client's futures (distributed.wait needs a default client)
        pending = [f for f in pending if f not in done]
        for f in done:
            try:  # a finished task whose worker died before its result was gathered is done but has no result
                res = f.result(timeout=1.0)
            except TimeoutError:
                pending.append(f)  # still pending: played here if the cluster stays without workers
                continue
            yield res
        if not pending:
            break
        if not any(f.status == "finished" for f in done):
            time.sleep(0.05)
        if sum(client.ncores().values()) > 0:
            alone_since = None
            continue
        alone_since = alone_since if alone_since is not None else time.monotonic()
        if time.monotonic() - alone_since < grace:
            continue
        left = sorted((futures[f] for f in pending), key=lambda c: c["lo"])
        for f in pending:
            f.cancel()
        print(f"warning: the Dask cluster at {scheduler} has lost its workers (none left for {grace:.0f} s), so the "
              f"{len(left)} remaining chunks run locally in this process (same games, not in parallel); start "
              "workers to use the cluster", file=sys.stderr, flush=True)
        for c in left:
            yield run_chunk(run, c["id"], c["lo"], c["hi"], out)
        return


@contextlib.contextmanager
def _backend(cfg: RunConfig | SimpleNamespace) -> Iterator[tuple[int, Any]]:
    """joblib backend context for ``cfg``'s ``backend``, ``scheduler`` and ``n_jobs`` (a run's config, or those
    three alone: :func:`meeplelab.play.parallel.map_unordered`); yields the n_jobs to pass to Parallel and, for
    ``dask``, the client (the chunks are submitted to it directly: :func:`_dask_results`)."""
    import joblib

    if cfg.backend == "dask":
        try:
            from dask.distributed import Client
        except ImportError:  # checked before (meeplelab.play.plan.check): installed, yet it does not import
            raise MissingExtra(extra_message("dask", "--backend dask")) from None
        try:
            client = Client(cfg.scheduler, timeout="10s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as e:
            raise ConfigError(f"cannot reach Dask scheduler {cfg.scheduler!r} within 10 s: {type(e).__name__}"
                              " (addresses look like tcp://host:8786)") from None
        try:
            yield -1, client
        finally:
            client.close()
    elif cfg.backend == "loky":  # workers that end with this process (play/workers.py)
        with loky_config():
            yield cfg.n_jobs, None
    else:
        with joblib.parallel_config(backend=cfg.backend):
            yield cfg.n_jobs, None


def _open_folder(out: Path, run: RunPlan, blobs: dict[str, bytes] | None, *, resume: bool,
                 overwrite: bool) -> tuple[Path, bool, dict[str, Any], RunPlan]:
    """Prepare the folder a run is written into (:func:`meeplelab.play.runfolder.prepare_out`: ``out``, or for an
    ``overwrite`` of a run already in ``out`` its staging sibling), its content copy (``blobs``), run.toml and
    manifest (a resumed one checked, its bad chunks reopened, stray parts moved aside).

    Returns:
        ``(folder, resumed, manifest, run)``; ``run`` plays from the folder's own content copy.

    Raises:
        RunFolderError: as :func:`meeplelab.play.runfolder.prepare_out`, or the folder's run is not this one. A staging
            folder that got no manifest is removed again (nothing in it to resume).
    """
    folder, resumed = rf.prepare_out(out, resume=resume, overwrite=overwrite)
    try:
        # a process killed while writing leaves its temporary files (``.run.toml.tmp-PID``), also in a folder
        # it had not yet given a manifest (a resumed study starts that run afresh): none survives a new start
        rf.remove_temp_files(folder)
        if resumed:
            manifest = rf.read_manifest(folder)
            _check_resumable(manifest, run)
            _reopen_bad_chunks(folder, manifest)
            stray = rf.move_stray_parts(folder, manifest)
            if stray:  # said in one line; the tables are read from the manifest's chunks only
                print(rf.stray_note(folder, stray), file=sys.stderr, flush=True)
            manifest["status"] = "running"
            manifest.pop("error", None)
            manifest.pop("traceback", None)
            manifest.setdefault("resumed", []).append(rf.now())
        else:
            manifest = new_manifest(run)
        if blobs is not None and not (resumed and (folder / rf.CONTENT).is_dir()):
            rf.write_content(folder, blobs)
        if not resumed:
            stored = RunConfig.from_dict(rf.stored_config(run.config.to_dict()))
            rf.write_atomic(folder / rf.RUN_TOML, dump_toml(stored).encode())
        if blobs is not None:  # the workers play from the folder's own copy
            run = run.with_content(str((folder / rf.CONTENT).resolve()))
        rf.write_manifest(folder, manifest)
    except BaseException:
        if folder != out and not (folder / rf.MANIFEST).is_file():  # a staging folder that never held a run
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder, resumed, manifest, run


def simulate(config: RunConfig | RunPlan, *, resume: bool = False, overwrite: bool = False,
             progress: bool = False, label: str | None = None) -> RunSummary:
    """Run (or complete) a simulation into ``config.out``.

    Args:
        config: the run: a :class:`RunConfig`, resolved here, or a :class:`RunPlan` a caller already resolved
            (the CLI: resolved once, checked before anything is said), used as it is.
        resume: complete the run already in ``config.out``: every part file the manifest lists is
            checked (present, footer, row count) and the chunks whose parts are missing or damaged
            are played again with the chunks not done.
        overwrite: replace a run already in ``config.out``: the new run is built beside it (the hidden sibling
            ``.NAME.new``, :func:`meeplelab.play.runfolder.staging_folder`) and swapped in when complete, so the old
            run survives any failure, Ctrl-C or kill until then; ``resume`` completes such an interrupted overwrite.
        progress: draw a games bar on stderr (:mod:`meeplelab.play.progress`; the caller decides, e.g. with
            :func:`meeplelab.play.progress.wanted`); inside a drawn display (a sweep's) the bar is a row of it anyway.
        label: the bar's label (default: the game id).

    Returns:
        :class:`RunSummary`.

    Raises:
        ConfigError: bad config (unknown game/strategy, players, parameters, backend...).
        RunFolderError: the output folder holds another run, is not writable, or cannot be resumed.
        KeyboardInterrupt: after marking the manifest ``interrupted``.
    """
    run = config if isinstance(config, RunPlan) else resolve(config)  # the one place it is checked, parsed, planned
    cfg = run.config
    game0 = run.game  # content files validated before anything is written
    # custom content is copied into the run folder (read first: it may lie in the folder being replaced)
    blobs = rf.content_blobs(game0.content_files(), game0.content_dir) if cfg.content is not None else None
    with _backend(cfg) as (n_jobs, client):  # connect first: an unreachable scheduler leaves nothing behind
        out = Path(cfg.out)
        # ``folder`` is ``out``, or for an --overwrite of a run already there its staging sibling, swapped in at the end
        folder, resumed, manifest, run = _open_folder(out, run, blobs, resume=resume, overwrite=overwrite)
        cfg = run.config
        todo = [c for c in manifest["chunks"] if c["status"] != "done"]
        done_games = sum(c["hi"] - c["lo"] for c in manifest["chunks"] if c["status"] == "done")
        total = manifest["chunks"][-1]["hi"]
        if todo and cfg.backend == "loky" and n_jobs > 1:
            # compile (or load) every kernel a chunk plays once here, so worker processes load them from the
            # on-disk cache instead of each compiling them at the same time (and the compile notice and its
            # progress are said once, here); at the default n_jobs = -1 the first chunk, played here, does it
            # (_auto_results)

            warm_for_run(run.game, cfg.players, cfg.seed, cfg.compiled,
                         [make_strategy(cfg.game, s) for s in run.seating.strategies(0)])
        t0 = time.perf_counter()
        played = 0
        where = {"in_process": n_jobs == 1 or cfg.backend == "threading"}
        results: Iterable[dict[str, Any]] | None = None
        try:
            with _progress(progress, total, done_games, label or cfg.game) as bar:
                results = _chunk_results(run, todo, folder, n_jobs, client, where)
                played = _collect(results, out, folder, manifest, bar)
        except KeyboardInterrupt:
            if hasattr(results, "close"):
                _close_quietly(results)  # the chunks still queued are cancelled; the interrupt's line is said
            manifest["status"] = "interrupted"
            rf.write_manifest(folder, manifest)
            raise
        except BaseException as e:
            if hasattr(results, "close"):
                _close_quietly(results)
            manifest["status"] = "failed"
            if not isinstance(e, UserError):
                manifest["error"] = f"{type(e).__name__}: {e}"
            rf.write_manifest(folder, manifest)
            raise
    secs = time.perf_counter() - t0
    _complete_manifest(manifest, cfg, played, secs, in_process=where["in_process"] if client is None else False)
    rf.write_manifest(folder, manifest)
    if folder != out:  # the new run is complete: it replaces the old one in two renames
        rf.swap_in(folder, out)
    return RunSummary(out, total, played, secs, resumed)


def _chunk_results(run: RunPlan, todo: list[dict], folder: Path, n_jobs: int, client,
                   where: dict) -> Iterable[dict[str, Any]]:
    """The results of the chunks ``todo`` (manifest chunk entries) played into ``folder``, as they finish (any
    order): on the Dask ``client``, on loky workers (at ``n_jobs`` < 0 only when they pay off: ``where`` says
    whether every chunk was played in this process) or on threads; an empty list when nothing is left."""
    from joblib import Parallel, delayed

    cfg = run.config
    tasks = (delayed(run_chunk)(run, c["id"], c["lo"], c["hi"], str(folder)) for c in todo)
    if not todo:
        return []
    if client is not None:  # on the cluster, or here when it has no worker (said in one line)
        # its workers run in their own working folder: every path they are sent is absolute
        return _dask_results(client, cfg.scheduler, run.for_elsewhere(), todo, os.path.abspath(folder), DASK_GRACE)
    if cfg.backend == "loky" and n_jobs < 0:  # the default: workers only when they pay off
        return _auto_results(run, todo, str(folder), n_jobs, where)
    if cfg.backend == "loky":  # the workers' initializer is told now whether the notice was said
        with loky_config():  # read by Parallel when it starts; the generator runs on outside it
            return Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)
    return Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)


def _collect(results: Iterable[dict[str, Any]], out: Path, folder: Path, manifest: dict, bar) -> int:
    """Mark each finished chunk of ``results`` done in ``manifest`` (written to ``folder`` after every chunk) and
    advance ``bar``; returns the games played.

    Raises:
        RunFolderError: an exception in a chunk or a worker process that died (:func:`_worker_failure`; a
            KeyboardInterrupt or a UserError is raised as it is).
    """
    played = 0
    by_id = {c["id"]: c for c in manifest["chunks"]}
    it = iter(results)
    while True:
        try:
            r = next(it)
        except StopIteration:
            break
        except (KeyboardInterrupt, UserError):
            raise
        except Exception as e:  # an exception in a chunk, or a worker process that died
            raise _worker_failure(out, manifest, e) from None
        c = by_id[r["chunk"]]
        c.update(status="done", rows=r["rows"], bytes=r["bytes"], sha256=r["sha256"],
                 seconds=round(r["seconds"], 3))
        rf.write_manifest(folder, manifest)
        played += c["hi"] - c["lo"]
        bar.advance(c["hi"] - c["lo"])
    return played


def _complete_manifest(manifest: dict, cfg: RunConfig, played: int, secs: float, *, in_process: bool) -> None:
    """Mark ``manifest`` complete (in place) with its table totals (rows per table, bytes) and this call's
    figures (games played now, seconds, games/s, n_jobs, backend, whether workers played)."""
    manifest["status"] = "complete"
    manifest["totals"] = {t: sum(c["rows"][t] for c in manifest["chunks"]) for t in rf.TABLES}
    manifest["totals"]["bytes"] = sum(sum(c["bytes"].values()) for c in manifest["chunks"])
    manifest["last_call"] = {"games_played": played, "seconds": round(secs, 3),
                             "games_per_second": round(played / secs, 1) if secs > 0 else None,
                             "n_jobs": cfg.n_jobs, "backend": cfg.backend,
                             "workers": not in_process}


#: seconds that starting loky workers costs a run from the command line (spawn, imports, the kernels loaded from
#: the cache: about 3 s on the 2-core development machine, benchmarks/RESULTS.md "Start-up"): the default
#: ``--n-jobs -1`` plays the rest of a run on workers only when it would take longer than this in this process
WORKERS_PAY_OFF_S = 2.0


def _close_quietly(gen) -> None:
    """Close a joblib result generator whose run stops (its one line is said by the caller), without joblib's
    warning about the tasks it cancels."""
    import warnings

    quiet_pool_teardown()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gen.close()


def _auto_results(run: RunPlan, todo: list[dict], out: str, n_jobs: int, where: dict):
    """The chunks' results at the default ``n_jobs = -1``: the first chunk in this process, then the rest here too
    when at that pace they take at most :data:`WORKERS_PAY_OFF_S`, else on loky workers; a run of
    :data:`WORKERS_AT_GAMES` games or more starts its workers before the first chunk (they load their kernels
    while it plays; from the command line they were started before the run was resolved, and this run takes them
    over: :func:`meeplelab.play.workers.prestart`). The games are the same either way (every draw is keyed by game, never by process);
    ``where["in_process"]`` says which it was (the manifest's ``last_call.workers``)."""
    from joblib import Parallel, delayed

    first = todo[0]
    if sum(c["hi"] - c["lo"] for c in todo) >= WORKERS_AT_GAMES and len(todo) > 1:
        # a large run: the workers start now (or started while the command line resolved the run:
        # play.workers.prestart) and take the chunks after their warm-up, while this process plays the first chunk
        with loky_config():
            rest = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                delayed(run_chunk)(run, c["id"], c["lo"], c["hi"], out) for c in todo[1:])
        try:
            mine = run_chunk(run, first["id"], first["lo"], first["hi"], out)
        except BaseException:  # the first chunk failed here (or Ctrl-C): the workers' chunks are cancelled quietly
            _close_quietly(rest)
            stop_pool()
            raise
        yield mine
        take_prestarted()
        yield from rest
        return
    take_prestarted()  # a pool started early for a run that turned out small: its warm-up is let finish
    t = time.perf_counter()
    yield run_chunk(run, first["id"], first["lo"], first["hi"], out)
    per_game = (time.perf_counter() - t) / max(1, first["hi"] - first["lo"])
    rest = todo[1:]
    if per_game * sum(c["hi"] - c["lo"] for c in rest) <= WORKERS_PAY_OFF_S:
        where["in_process"] = True
        for c in rest:
            yield run_chunk(run, c["id"], c["lo"], c["hi"], out)
        return
    with loky_config():
        yield from Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
            delayed(run_chunk)(run, c["id"], c["lo"], c["hi"], out) for c in rest)


def _progress(on: bool, total: int, done: int, label: str):
    """A games bar of the shared progress display (:func:`meeplelab.play.progress.bar`)."""
    return bar(label, total, done=done, unit="games", on=on)
