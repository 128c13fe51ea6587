"""Benchmark entry point (``meeplelab bench`` or ``python -m meeplelab.benchmarks.bench``).

Measures, for each game: complete games per second at 2 and 4 seats with the game's benchmark
strategy, logs written and not written, batch sizes 1 / 64 / 512 / 4096, n_jobs 1 and 2; peak
resident memory of a whole ``simulate`` process for 10k and 200k games; Parquet bytes per game;
a cProfile of one batch per game; and the sweep at scale (50 variants x 10,000 Unconscious Mind
games, timed end to end). ``--only`` picks parts (throughput, memory, sweep, profile, compile: the cold compile of the rule kernels, compiled: compiled play against the Python loop side by side, baseline: compiled play against the
Python-loop path of commit ``PRE_COMPILED_BASE``, the last before compiled play, same run; search: ``ismcts`` inside the
play kernel against ``heuristic``, beside the ``--python-loop`` search and the Python search of commit
``search_bench.SEARCH_BASE``, with the search's targets: ``benchmarks/search_bench.py``); every
measured row is stored in ``benchmarks/results.json`` (rows of a part measured again replace the
old ones) and ``benchmarks/RESULTS.md`` is rendered from all stored rows, with the machine, the
date of each measurement and the hand-written analysis in ``benchmarks/notes.md`` appended.
Timings live here, never as assertions in tests.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from meeplelab.benchmarks import composite_bench, search_bench, startup_bench
from meeplelab.benchmarks.rows import (BASELINE_DIR, BENCH_STRATEGY, PRE_COMPILED_BASE, ROOT, Row, _refuse, _strategy,  # noqa: F401
                                       baseline_tree)
from meeplelab.play.batch import play_batch
from meeplelab.play.config import RunConfig
from meeplelab.play.runfolder import write_atomic
from meeplelab.play.runner import simulate
from meeplelab.sim.core.cycles import cycles_per_second
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.registry import make_game
from meeplelab.strategies.registry import make_strategy

def machine() -> dict:
    """CPU model, cores, memory, Python and numpy build."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(next(x for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal")).split()[1])
        mem = f"{kb / 2**20:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    import numba

    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg.get("Build Dependencies", {}).get("blas", {})
        np_build = f"numpy {np.__version__} ({blas.get('name', '?')} {blas.get('version', '')})"
    except Exception:  # older numpy without mode="dicts"
        np_build = f"numpy {np.__version__}"
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "python": platform.python_version(),
            "numpy": np_build, "numba": numba.__version__, "platform": platform.platform()}


def time_simulate(game: str, players: int, games: int, batch: int, n_jobs: int, logs: bool, seed: int = 1,
                  chunk: int | None = None, compiled: bool = True, out: Path | None = None) -> Row:
    """One ``simulate`` call into ``out`` (a temporary folder when None; compile already warmed up);
    ``compiled`` False plays on the Python loop (``meeplelab simulate --python-loop``)."""
    with tempfile.TemporaryDirectory() as d:
        where = Path(out) if out is not None else Path(d) / "run"
        cfg = RunConfig(game=game, players=players, strategies=tuple(_strategy(game, players).split(",")), games=games,
                        seed=seed,
                        batch_size=batch, chunk_size=chunk, n_jobs=n_jobs, out=str(where),
                        log_turns=logs, log_events=logs, compiled=compiled)
        t0 = time.perf_counter()
        simulate(cfg)
        secs = time.perf_counter() - t0
        m = json.loads((where / "manifest.json").read_text())
        size = m["totals"]["bytes"]
    return Row(game, "throughput", players, batch, n_jobs, logs, games, secs,
               {"bytes_per_game": size / games, "path": _path_name(compiled)})


def peak_memory(game: str, players: int, games: int, batch: int) -> Row:
    """Peak RSS of a separate ``meeplelab simulate`` process (MiB), seats fixed: one seat order, so every batch
    holds ``batch`` games whatever the number of games (under rotated seating 10,000 games split into seat
    orders of 416 and play smaller batches than 200,000 do, which compares batch sizes, not game counts)."""
    with tempfile.TemporaryDirectory() as d:
        code = ("import resource, sys; from meeplelab.cli import main; sys.argv=['meeplelab']+sys.argv[1:]\n"
                "try:\n    main()\nexcept SystemExit:\n    pass\n"
                "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        cmd = [sys.executable, "-c", code, "simulate", "--game", game, "--players", str(players), "--strategies",
               _strategy(game, players), "--games", str(games), "--batch-size", str(batch), "--n-jobs", "1",
               "--seating", "fixed",
               "--out", str(Path(d) / "run"), "--no-progress"]
        t0 = time.perf_counter()
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
        secs = time.perf_counter() - t0
        peak = int(res.stdout.strip().splitlines()[-1].split()[1]) / 1024
    return Row(game, "memory", players, batch, 1, True, games, secs, {"peak_mib": peak})


def cold_compile(game: str) -> Row:
    """Seconds to compile from nothing the kernels a scripted run of ``game`` plays (setup and the plan play loop at
    every seat count; the Python-loop, heuristic and ISMCTS kernels compile on first use):
    ``python -m meeplelab.play.warmup --one GAME`` in a separate process whose numba cache folder
    (``NUMBA_CACHE_DIR``) is new and empty, so no cached kernel is found (target: :data:`COLD_COMPILE_BOUND`
    seconds or less per engine)."""
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "meeplelab.play.warmup", "--one", game], cwd=ROOT, env=env, check=True,
                       capture_output=True, text=True)
        secs = time.perf_counter() - t0
        cached = sum(1 for _ in Path(d).rglob("*.nbi"))
    load = os.getloadavg()[0]
    return Row(game, "compile", 0, 0, 1, False, 0, secs, {"kernels_cached": cached, "load_after": round(load, 1)})


def side_by_side(game: str, players: int, games: int, batch: int, n_jobs: int, logs: bool, seed: int = 1) -> list[Row]:
    """Compiled play against the Python loop, one after the other in one run on the same seeds and
    strategies: ``simulate`` (Parquet written when ``logs``) with ``compiled`` True, then False. Rows
    ``measure="compiled"`` with ``extra["path"]`` and, on the compiled row, ``extra["ratio"]`` (compiled games/s
    over Python-loop games/s)."""
    out = []
    for compiled in (True, False):
        r = time_simulate(game, players, games, batch, n_jobs, logs, seed, chunk=batch, compiled=compiled)
        r.measure = "compiled"
        out.append(r)
    out[0].extra["ratio"] = out[0].gps / out[1].gps
    return out


#: ``python -m sim.warmup`` of the baseline tree's layout (``meeplelab.play.warmup`` in a checkout standing in for it)
_BASELINE_WARMUP = ("import importlib.util, runpy, sys\n"
                    "try:  # a checkout's sim/ refuses the top-level name sim (sim/__init__.py)\n"
                    "    m = 'sim.warmup' if importlib.util.find_spec('sim.warmup') else 'meeplelab.play.warmup'\n"
                    "except ImportError:\n    m = 'meeplelab.play.warmup'\n"
                    "sys.argv[0] = m\nrunpy.run_module(m, run_name='__main__', alter_sys=True)\n")

#: run inside the baseline tree: warm up (compile, worker pool), then time one ``simulate``; prints JSON
_BASELINE_DRIVER = """
import json, sys, time
from pathlib import Path
try:  # the baseline tree's own layout (before the one import name); a checkout standing in for it (tests) has meeplelab
    from sim.config import RunConfig
    from sim.runner import simulate
except ImportError:
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate
game, players, strategies, games, batch, n_jobs, logs, seed, out = sys.argv[1:]
players, games, batch, n_jobs, seed, logs = int(players), int(games), int(batch), int(n_jobs), int(seed), logs == "1"
def cfg(n, where, chunk):
    return RunConfig(game=game, players=players, strategies=tuple(strategies.split(",")), games=n, seed=seed,
                     batch_size=chunk, chunk_size=chunk, n_jobs=n_jobs, out=where, log_turns=logs, log_events=logs)
simulate(cfg(64 * n_jobs, out + "-warm", 64))
t0 = time.perf_counter()
simulate(cfg(games, out, batch))
secs = time.perf_counter() - t0
m = json.loads((Path(out) / "manifest.json").read_text())
print(json.dumps({"seconds": secs, "bytes": m["totals"]["bytes"]}))
"""


def warm_baseline(tree: Path, game: str) -> float:
    """Compile (or load from the tree's cache) ``game``'s rule kernels of the baseline tree in a separate process
    (``python -m sim.warmup --one GAME`` there: the baseline tree's layout); seconds taken.

    Raises:
        RuntimeError: the warm-up failed (its last lines of stderr)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", _BASELINE_WARMUP, "--one", game], cwd=tree, env=env,
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"baseline warm-up failed: {res.stderr[-2000:]}")
    return time.perf_counter() - t0


def time_baseline(tree: Path, game: str, players: int, games: int, batch: int, n_jobs: int, logs: bool,
                  out: Path, seed: int = 1) -> Row:
    """``simulate`` of the baseline tree (:data:`PRE_COMPILED_BASE`) in a separate process with this interpreter
    (same packages), the tree first on the path; only the timed ``simulate`` counts (the process warms up
    first). The run is written to ``out`` (its games table is compared with compiled play's)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", _BASELINE_DRIVER, game, str(players), _strategy(game, players), str(games),
           str(batch), str(n_jobs), "1" if logs else "0", str(seed), str(out)]
    res = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"baseline simulate failed: {res.stderr[-2000:]}")
    got = json.loads(res.stdout.strip().splitlines()[-1])
    return Row(game, "baseline", players, batch, n_jobs, logs, games, got["seconds"],
               {"bytes_per_game": got["bytes"] / games, "path": "issue-16 base"})


def same_games(a: Path, b: Path) -> bool:
    """True when runs ``a`` and ``b`` hold the same games: every (game, seat) row of their games tables
    equal on the columns both have (final VP, rank, ...)."""
    import pyarrow.dataset as ds

    ta, tb = ds.dataset(a / "games").to_table(), ds.dataset(b / "games").to_table()
    cols = [c for c in ta.column_names if c in tb.column_names and c not in ("params_id",)]
    if ta.num_rows != tb.num_rows or not cols:
        return False
    key = [("game", "ascending"), ("seat", "ascending")]
    return ta.select(cols).sort_by(key).equals(tb.select(cols).sort_by(key))


def _path_name(compiled: bool) -> str:
    """The ``extra["path"]`` of a row of this commit's ``simulate``: compiled play or the Python loop."""
    return "compiled" if compiled else "python-loop"


def against_baseline(game: str, players: int, games: int, batch: int, n_jobs: int, logs: bool, tree: Path,
                     seed: int = 1) -> list[Row]:
    """Compiled play, today's Python loop and the Python loop of :data:`PRE_COMPILED_BASE`, one after the other in
    one run on the same seeds, strategies and seat order (``simulate``, Parquet written when ``logs``): rows
    ``measure="baseline"`` with ``extra["path"]``; the compiled row carries ``extra["ratio"]`` (over the
    baseline) and ``extra["same_games"]`` (the three runs' games tables equal)."""
    out = []
    with tempfile.TemporaryDirectory() as d:
        for compiled in (True, False):
            r = time_simulate(game, players, games, batch, n_jobs, logs, seed, chunk=batch, compiled=compiled,
                              out=Path(d) / _path_name(compiled))
            r.measure = "baseline"
            out.append(r)
        out.append(time_baseline(tree, game, players, games, batch, n_jobs, logs, Path(d) / "base", seed))
        same = same_games(Path(d) / "compiled", Path(d) / "base") and same_games(Path(d) / "compiled",
                                                                                    Path(d) / "python-loop")
    out[0].extra["ratio"] = out[0].gps / out[2].gps
    out[0].extra["same_games"] = same
    return out


#: the throughput bar and aim (games/s, 4 seats, scripted strategies, logs written, n_jobs 2)
TARGET_GPS = {"unconscious-mind": 2000, "galileos-truth": 1000}
TARGET_AIM = {"unconscious-mind": 5000, "galileos-truth": 2000}
#: the bound on one engine's cold compile (seconds, :func:`cold_compile`)
COLD_COMPILE_BOUND = 60


def targets(rows: list[Row], game: str) -> list[tuple[str, str, str, bool | None]]:
    """Compiled play's targets for ``game`` from its stored rows: ``(target, measured, bar, met)``, ``met`` None for a
    figure shown beside the targets without a bar; a target whose part was not measured is left out."""
    out = []
    cp = [r for r in rows if r.measure == "compiled"]
    c4 = {r.n_jobs: r for r in cp if r.players == 4 and r.logs and r.extra.get("path") == "compiled"}
    p4 = {r.n_jobs: r for r in cp if r.players == 4 and r.logs and r.extra.get("path") == "python-loop"}
    if 2 in c4 and game in TARGET_GPS:
        out.append(("games/s, 4 seats, logs written, n_jobs 2 (compiled)", f"{c4[2].gps:,.0f}",
                    f">= {TARGET_GPS[game]:,} (aim {TARGET_AIM[game]:,})", c4[2].gps >= TARGET_GPS[game]))
    for j in sorted(c4):
        if j in p4:
            ratio = c4[j].gps / p4[j].gps
            out.append((f"compiled / this commit's --python-loop (same compiled kernels and plan choice), 4 seats, "
                        f"logs written, n_jobs {j}", f"{ratio:.2f}x", "none: the loop's own cost (the 3x bar is "
                        f"against commit {PRE_COMPILED_BASE[:7]}, below)", None))
    bl = [r for r in rows if r.measure == "baseline" and r.players == 4 and r.logs]
    bc = {r.n_jobs: r for r in bl if r.extra.get("path") == "compiled"}
    bb = {r.n_jobs: r for r in bl if r.extra.get("path") == "issue-16 base"}
    for j in sorted(bc):
        if j in bb:
            ratio = bc[j].gps / bb[j].gps
            out.append((f"compiled / the Python-loop path before compiled play (commit {PRE_COMPILED_BASE[:7]}), 4 seats, logs written, "
                        f"n_jobs {j}, same run", f"{ratio:.2f}x", ">= 3x", ratio >= 3))
    if bc:
        every = [r for r in rows if r.measure == "baseline" and r.extra.get("path") == "compiled"]
        same = all(r.extra.get("same_games", False) for r in every)
        out.append((f"same games as the numpy plans of commit {PRE_COMPILED_BASE[:7]} (every baseline row)",
                    "yes" if same else "no", "identical games tables", same))
    if 1 in c4 and 2 in c4:
        sc = c4[2].gps / c4[1].gps
        out.append(("n_jobs 2 / n_jobs 1 (compiled, 4 seats, logs written)", f"{sc:.2f}x", ">= 1.8x", sc >= 1.8))
    mem = sorted((r for r in rows if r.measure == "memory"), key=lambda r: r.games)
    if len(mem) >= 2:
        grow = mem[-1].extra["peak_mib"] / mem[0].extra["peak_mib"]
        out.append((f"peak memory {mem[-1].games:,} / {mem[0].games:,} games", f"{grow:.2f}x "
                    f"({mem[0].extra['peak_mib']:.0f} -> {mem[-1].extra['peak_mib']:.0f} MiB)", "flat (<= 1.10x)",
                    grow <= 1.10))
    if 2 in c4:
        b = c4[2].extra.get("bytes_per_game", 0)
        out.append(("Parquet bytes per game (4 seats, every log)", f"{b:,.0f}", "<= 2,048", b <= 2048))
    for r in rows:
        if r.measure == "compile":
            out.append(("cold compile of the engine (s)", f"{r.seconds:.0f}", f"<= {COLD_COMPILE_BOUND}",
                        r.seconds <= COLD_COMPILE_BOUND))
    return out


PARTS = ("throughput", "memory", "sweep", "profile", "compile", "compiled", "baseline", "search", "composite", "startup")
RESULTS_JSON = ROOT / "benchmarks" / "results.json"
NOTES = ROOT / "benchmarks" / "notes.md"

#: the largest ``--scale``: each throughput run plays up to 32,768 x scale games
SCALE_MAX = 100


def scale_refusal(scale: float) -> str:
    """The one line refusing ``--scale`` at ``scale`` (not above 0, or above :data:`SCALE_MAX`)."""
    return (f"--scale {scale}: allowed a number above 0 and at most {SCALE_MAX} (each throughput run plays up to "
            f"32,768 x scale games: over 3 million at {SCALE_MAX})")


#: the sweep at scale: 5 x 10 = 50 variants of Unconscious Mind on common seeds
SWEEP_VARY = ("conversion_coffee=1,2,3,4,5", "end_trigger_vp=0,1,2,3,4,5,6,7,8,9")


def sweep_at_scale(games_per_variant: int = 10_000, n_jobs: int = 2, batch: int = 2048) -> Row:
    """Time ``meeplelab sweep`` end to end (50 variants x ``games_per_variant`` games, report included)."""
    game = "unconscious-mind"
    with tempfile.TemporaryDirectory() as d:
        code = ("import resource, sys; from meeplelab.cli import main; sys.argv=['meeplelab']+sys.argv[1:]\n"
                "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
                "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
                "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        cmd = [sys.executable, "-c", code, "sweep", "--game", game, "--players", "4", "--strategies",
               _strategy(game, 4), "--games", str(games_per_variant), "--batch-size", str(batch),
               "--n-jobs", str(n_jobs), "--out", str(Path(d) / "sweep")]
        for v in SWEEP_VARY:
            cmd += ["--vary", v]
        t0 = time.perf_counter()
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        secs = time.perf_counter() - t0
        if res.returncode != 0:
            raise RuntimeError(f"sweep failed: {res.stderr[-2000:]}")
        peak = [int(x) / 1024 for x in res.stdout.strip().splitlines()[-1].split()[1:]]
        variants = 1
        for v in SWEEP_VARY:
            variants *= len(v.split("=", 1)[1].split(","))
        size = sum(f.stat().st_size for f in (Path(d) / "sweep").rglob("*.parquet"))
    return Row(game, "sweep", 4, batch, n_jobs, True, variants * games_per_variant, secs,
               {"variants": variants, "peak_mib": max(peak), "vary": " x ".join(SWEEP_VARY),
                "bytes_per_game": size / (variants * games_per_variant)})


def profile(game: str, games: int = 2048, batch: int = 2048, top: int = 12) -> list[Row]:
    """cProfile of one ``simulate`` (4 seats, logs written): the ``top`` functions by own time."""
    import cProfile
    import pstats

    time_simulate(game, 4, 64, 64, 1, True)  # compile outside the profile
    pr = cProfile.Profile()
    pr.enable()
    r = time_simulate(game, 4, games, batch, 1, True)
    pr.disable()
    st = pstats.Stats(pr)
    total = sum(v[2] for v in st.stats.values())
    rows = []
    for (fname, line, func), (cc, nc, tt, ct, _) in sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]:
        where = f"{Path(fname).name}:{line} {func}" if fname != "~" else func
        if str(ROOT) in fname:
            where = f"{Path(fname).relative_to(ROOT)}:{line} {func}"
        rows.append(Row(game, "profile", 4, batch, 1, True, games, tt,
                        {"where": where, "calls": nc, "share": tt / total, "cumtime": ct, "gps": r.gps}))
    return rows


def kernel_profile(game: str, games: int = 2048, batch: int = 2048) -> list[Row]:
    """Cycle-counter profile of the play kernel (4 seats, the game's benchmark strategies): per decision kind,
    decisions per game and nanoseconds of the legal action mask, the choice and the application
    (``play_batch(kernel_profile=...)``, :mod:`meeplelab.sim.core.cycles`)."""
    g = make_game(game)
    if g.compiled_play is None:
        return []
    seats = [make_strategy(game, s) for s in _strategy(game, 4).split(",")]
    play_batch(g, seats, np.arange(8), 1)
    kinds = {v: k for k, v in g.compiled_module().KINDS.items()}
    prof = np.zeros((max(kinds) + 1, 4), np.uint64)
    t0 = time.perf_counter()
    for b in range(0, games, batch):
        play_batch(g, seats, np.arange(b, min(b + batch, games)), 1, kernel_profile=prof)
    secs = time.perf_counter() - t0
    hz = cycles_per_second()
    total = float(prof[:, :3].sum()) / hz
    rows = []
    for k in sorted(kinds):
        n = int(prof[k, 3])
        if n == 0:
            continue
        ns = [float(prof[k, i]) / hz / n * 1e9 for i in range(3)]
        rows.append(Row(game, "kernel", 4, batch, 1, True, games, float(prof[k, :3].sum()) / hz,
                        {"kind": kinds[k], "per_game": n / games, "legal_ns": ns[0], "choice_ns": ns[1],
                         "apply_ns": ns[2], "share": float(prof[k, :3].sum()) / hz / total,
                         "kernel_s": total, "wall_s": secs}))
    return rows


def _run_compiled(g: str, scale: float, quick: bool, echo) -> list[Row]:
    """Compiled play against the Python loop side by side (2 and 4 seats, logs on and off, n_jobs 1 and 2)."""
    rows: list[Row] = []
    if make_game(g).compiled_play is None:
        echo(f"  {g}: no compiled play yet (Python loop only)")
        return rows
    for compiled in (True, False):  # compile both paths, start the worker pool
        time_simulate(g, 4, 64, 64, 1, True, compiled=compiled)
        time_simulate(g, 4, 256, 64, 2, True, chunk=64, compiled=compiled)
    for players in (2, 4):
        for logs in (True, False):
            for n_jobs in (1, 2):
                n = max(int(16384 * n_jobs * scale), 1024)
                pair = side_by_side(g, players, n, 2048 if not quick else 512, n_jobs, logs)
                rows += pair
                echo(f"  {g} {players}p logs {'on ' if logs else 'off'} n_jobs {n_jobs}: compiled "
                     f"{pair[0].gps:,.0f} games/s, Python loop {pair[1].gps:,.0f} games/s "
                     f"({pair[0].extra['ratio']:.2f}x)")
    return rows


def _run_baseline(g: str, scale: float, quick: bool, echo) -> list[Row]:
    """Compiled play against the Python-loop path of commit ``PRE_COMPILED_BASE`` (its tree unpacked and warmed)."""
    rows: list[Row] = []
    if make_game(g).compiled_play is None:
        echo(f"  {g}: no compiled play yet (Python loop only)")
        return rows
    tree = baseline_tree()
    echo(f"  {g}: against the Python loop of commit {PRE_COMPILED_BASE[:7]} (tree {tree}); compiling its "
         "rule kernels (first run: several minutes; cached in the tree after)")
    warm_baseline(tree, g)
    for players, logs, n_jobs in ((p, lg, j) for p in (2, 4) for lg in (True, False) for j in (1, 2)):
        n = max(int(8192 * n_jobs * scale), 1024)
        # compile this commit's paths and (re)start the worker pool right before each configuration
        time_simulate(g, players, 64 * n_jobs, 64, n_jobs, logs, chunk=64)
        time_simulate(g, players, 64 * n_jobs, 64, n_jobs, logs, chunk=64, compiled=False)
        trio = against_baseline(g, players, n, 2048 if not quick else 512, n_jobs, logs, tree)
        rows += trio
        echo(f"  {g} {players}p logs {'on ' if logs else 'off'} n_jobs {n_jobs}: compiled {trio[0].gps:,.0f}"
             f", Python loop now {trio[1].gps:,.0f}, at {PRE_COMPILED_BASE[:7]} {trio[2].gps:,.0f} games/s "
             f"({trio[0].extra['ratio']:.2f}x; same games: {trio[0].extra['same_games']})")
    return rows


def _run_search(g: str, quick: bool, echo) -> list[Row]:
    """ISMCTS in the play kernel (``benchmarks/search_bench.py``); ``quick``: small counts, no base tree."""
    sb = search_bench
    tree = None if quick else sb.base_tree(ROOT, BASELINE_DIR)
    if tree is not None:
        echo(f"  {g}: ISMCTS against the Python search of commit {sb.SEARCH_BASE[:7]} (tree {tree})")
    n = (16, 8, 8) if quick else (sb.GAMES, sb.REF_GAMES, sb.BASE_GAMES)
    return sb.measure(g, tree, games=n[0], ref_games=n[1], base_games=n[2], echo=echo)


def _run_throughput(g: str, scale: float, quick: bool, echo) -> list[Row]:
    """Games per second by seats, batch size and logs at n_jobs 1, then n_jobs 2 against 1 on one large run."""
    rows: list[Row] = []
    echo(f"{g}: warming up (compile, worker pool)")
    time_simulate(g, 4, 64, 64, 1, True)
    time_simulate(g, 4, 256, 64, 2, True, chunk=64)
    for players in (2, 4):
        for batch in (1, 64, 512, 4096):
            n = {1: 100, 64: 2048, 512: 8192, 4096: 16384}[batch]
            n = max(int(n * scale), batch if batch > 1 else 20)
            for logs in (True, False):
                r = time_simulate(g, players, n, batch, 1, logs)
                rows.append(r)
                echo(f"  {players}p batch {batch:5d} logs {'on ' if logs else 'off'} n_jobs 1: "
                     f"{r.gps:10.1f} games/s")
        n = max(int(32768 * scale), 4096)
        bj = 2048 if not quick else 512
        r = time_simulate(g, players, n, bj, 2, True, chunk=bj)
        rows.append(r)
        echo(f"  {players}p n_jobs 2: {r.gps:10.1f} games/s")
        r1 = time_simulate(g, players, n, bj, 1, True, chunk=bj)
        rows.append(r1)
        echo(f"  {players}p n_jobs 1 (same run): {r1.gps:10.1f} games/s")
    return rows


def _run_memory(g: str, quick: bool, echo) -> list[Row]:
    """Peak resident memory of one simulate process for a small and a large run."""
    rows: list[Row] = []
    for n in ((10_000, 200_000) if not quick else (2_000, 20_000)):
        r = peak_memory(g, 4, n, 4096 if not quick else 1024)
        rows.append(r)
        echo(f"  {g}: peak memory {n} games: {r.extra['peak_mib']:.0f} MiB")
    return rows


def _run_profile(g: str, quick: bool, echo) -> list[Row]:
    """The cProfile rows of one batch, then the play kernel's cycles by decision kind."""
    pr = profile(g, games=512 if quick else 2048, batch=512 if quick else 2048)
    rows = pr + kernel_profile(g, games=512 if quick else 2048)
    echo(f"  {g}: profiled ({pr[0].extra['gps']:.0f} games/s under the profiler)")
    return rows


def run(games: list[str], *, quick: bool = False, scale: float = 1.0, parts=PARTS, echo=print) -> list[Row]:
    """The benchmark matrix for ``parts`` (throughput, memory, sweep, profile, compile); ``quick`` shrinks it."""
    rows: list[Row] = []
    scale = 0.1 if quick else scale
    for g in games:
        if "compiled" in parts:
            rows += _run_compiled(g, scale, quick, echo)
        if "baseline" in parts:
            rows += _run_baseline(g, scale, quick, echo)
        if "search" in parts:
            rows += _run_search(g, quick, echo)
        if "composite" in parts:
            rows += composite_bench.measure(g, root=ROOT, quick=quick, echo=echo)
        if "startup" in parts:
            rows += startup_bench.measure(g, ROOT, quick=quick, echo=echo)
        if "compile" in parts:
            r = cold_compile(g)
            rows.append(r)
            echo(f"  {g}: cold compile {r.seconds:.0f} s ({r.extra['kernels_cached']} kernels cached)")
        if "throughput" in parts:
            rows += _run_throughput(g, scale, quick, echo)
        if "memory" in parts:
            rows += _run_memory(g, quick, echo)
        if "profile" in parts:
            rows += _run_profile(g, quick, echo)
        if "sweep" in parts and g == "unconscious-mind":
            r = sweep_at_scale(games_per_variant=200 if quick else 10_000)
            rows.append(r)
            echo(f"  sweep {r.extra['variants']} x {r.games // r.extra['variants']:,} games: {r.seconds:.0f} s "
                 f"({r.gps:.0f} games/s)")
    return rows


def merge(old: list[dict], new: list[Row]) -> list[dict]:
    """Replace the stored rows of every (game, measure) measured again; keep the others."""
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    fresh = {(r.game, r.measure) for r in new}
    kept = [r for r in old if (r["game"], r["measure"]) not in fresh]
    return kept + [dict(vars(r), when=stamp) for r in new]


def _throughput_section(gr: list[Row], g: str, at: Callable[[str, str], str]) -> list[str]:
    """RESULTS.md lines of game ``g``'s throughput table and its batch / n_jobs ratios (none without rows)."""
    tp = [r for r in gr if r.measure == "throughput"]
    if not tp:
        return []
    out = ["", f"## {g} (strategies by seat: `{_strategy(g, 4)}`; 2 seats: `{_strategy(g, 2)}`)", "",
           f"### Throughput (complete games per second){at(g, 'throughput')}", "",
           "| seats | batch | n_jobs | logs | games | seconds | games/s | Parquet bytes/game |",
           "|---|---|---|---|---|---|---|---|"]
    for r in tp:
        out.append(f"| {r.players} | {r.batch} | {r.n_jobs} | {'written' if r.logs else 'not written'} | "
                   f"{r.games} | {r.seconds:.2f} | {r.gps:,.1f} | {r.extra.get('bytes_per_game', 0):,.0f} |")
    for p in (2, 4):
        b1 = next((r for r in tp if r.players == p and r.batch == 1 and r.logs), None)
        b4 = next((r for r in tp if r.players == p and r.batch == 4096 and r.logs), None)
        j = [r for r in tp if r.players == p and r.batch in (512, 2048) and r.games >= 4096]
        j2 = next((r for r in j if r.n_jobs == 2), None)
        j1 = next((r for r in reversed(j) if r.n_jobs == 1 and r.games == (j2.games if j2 else -1)), None)
        if b1 and b4:
            out.append(f"\n{p} seats: batch 4096 is {b4.gps / b1.gps:.1f}x batch 1.")
        if j1 and j2:
            out.append(f"{p} seats: n_jobs 2 is {j2.gps / j1.gps:.2f}x n_jobs 1.")
    return out


def _compiled_section(gr: list[Row], g: str, at: Callable[[str, str], str]) -> list[str]:
    """RESULTS.md lines of compiled play against the Python loop (rows in pairs: compiled, Python loop)."""
    cp = [r for r in gr if r.measure == "compiled"]
    if not cp:
        return []
    out = ["", f"### {g}: compiled play against the Python loop, same run, seeds and strategies "
           f"(`meeplelab simulate` with and without `--python-loop`, batch {cp[0].batch}, Parquet written "
           f"when logs are){at(g, 'compiled')}", "",
           "| seats | logs | n_jobs | games | compiled games/s | Python-loop games/s | ratio | Parquet bytes/game |",
           "|---|---|---|---|---|---|---|---|"]
    for c, py in zip(cp[0::2], cp[1::2]):
        out.append(f"| {c.players} | {'written' if c.logs else 'not written'} | {c.n_jobs} | {c.games:,} | "
                   f"{c.gps:,.0f} | {py.gps:,.0f} | {c.gps / py.gps:.2f}x | "
                   f"{c.extra.get('bytes_per_game', 0):,.0f} |")
    return out


def _baseline_section(gr: list[Row], g: str, at: Callable[[str, str], str]) -> list[str]:
    """RESULTS.md lines of compiled play against commit ``PRE_COMPILED_BASE`` (rows in trios: compiled, now, base)."""
    bl = [r for r in gr if r.measure == "baseline"]
    if not bl:
        return []
    out = ["", f"### {g}: compiled play against the Python-loop path before it (commit {PRE_COMPILED_BASE[:7]}: "
           "numpy priority plans stepped by the Python loop), same run, seeds, strategies and seat order, "
           f"batch {bl[0].batch}, Parquet written when logs are{at(g, 'baseline')}", "",
           "`Python loop now` is this commit's `--python-loop`, which runs the same compiled rule kernels "
           "and compiled plan choice as compiled play; `same games`: the three runs' games tables are equal.",
           "", "| seats | logs | n_jobs | games | compiled games/s | Python loop now games/s | "
           f"{PRE_COMPILED_BASE[:7]} games/s | compiled / {PRE_COMPILED_BASE[:7]} | same games |",
           "|---|---|---|---|---|---|---|---|---|"]
    for c, now, base in zip(bl[0::3], bl[1::3], bl[2::3]):
        out.append(f"| {c.players} | {'written' if c.logs else 'not written'} | {c.n_jobs} | {c.games:,} | "
                   f"{c.gps:,.0f} | {now.gps:,.0f} | {base.gps:,.0f} | {c.gps / base.gps:.2f}x | "
                   f"{'yes' if c.extra.get('same_games') else '**no**'} |")
    return out


def _targets_section(gr: list[Row], g: str) -> list[str]:
    """RESULTS.md lines of the targets of compiled play (:func:`targets`; none without a target)."""
    tg = targets(gr, g)
    if not tg:
        return []
    out = ["", f"### {g}: targets of compiled play", "", "| target | measured | bar | met |", "|---|---|---|---|"]
    out += [f"| {t} | {m} | {b} | {'-' if ok is None else 'yes' if ok else '**no**'} |" for t, m, b, ok in tg]
    return out


def _compile_memory_sections(gr: list[Row], g: str, at: Callable[[str, str], str]) -> list[str]:
    """RESULTS.md lines of the cold compile (seconds) and the peak resident memory table (MiB)."""
    out: list[str] = []
    for r in (r for r in gr if r.measure == "compile"):
        out += ["", f"### {g}: cold compile of the rule kernels{at(g, 'compile')}", "",
                f"`python -m meeplelab.play.warmup --one {g}` with an empty numba cache folder: **{r.seconds:.0f} s** "
                f"({r.extra['kernels_cached']} kernels cached; load average {r.extra['load_after']} when it "
                f"ended). Target: {COLD_COMPILE_BOUND} s or less."]
    mem = [r for r in gr if r.measure == "memory"]
    if mem:
        out += ["", f"### {g}: peak resident memory of one simulate process (4 seats fixed, logs written){at(g, 'memory')}", "",
                "| games | batch | seconds | games/s | peak MiB |", "|---|---|---|---|---|"]
        out += [f"| {r.games:,} | {r.batch} | {r.seconds:.1f} | {r.gps:,.0f} | {r.extra['peak_mib']:.0f} |"
                for r in mem]
    return out


def _profile_sections(gr: list[Row], g: str, at: Callable[[str, str], str]) -> list[str]:
    """RESULTS.md lines of the cProfile table (own seconds) and the play kernel's table by decision kind (ns)."""
    out: list[str] = []
    prof = [r for r in gr if r.measure == "profile"]
    if prof:
        out += ["", f"### {g}: profile (cProfile, 4 seats, batch {prof[0].batch}, {prof[0].games:,} games, "
                f"{prof[0].extra['gps']:.0f} games/s under the profiler), functions by own time{at(g, 'profile')}", "",
                "| function | calls | own seconds | share |", "|---|---|---|---|"]
        out += [f"| `{r.extra['where']}` | {r.extra['calls']:,} | {r.seconds:.2f} | {r.extra['share']:.0%} |"
                for r in prof]
    kp = sorted((r for r in gr if r.measure == "kernel"), key=lambda r: -r.seconds)
    if kp:
        x = kp[0].extra
        out += ["", f"### {g}: play kernel by decision kind (CPU cycle counter, 4 seats, {kp[0].games:,} games; "
                f"{x['kernel_s']:.2f} s in the kernel's mask, choice and apply of {x['wall_s']:.2f} s){at(g, 'kernel')}",
                "", "Mask 0 ns: the decision's legal actions came with the previous apply (no second pass).", "",
                "| decision | per game | legal mask ns | choice ns | apply ns | share of kernel time |",
                "|---|---|---|---|---|---|"]
        out += [f"| {r.extra['kind']} | {r.extra['per_game']:.1f} | {r.extra['legal_ns']:,.0f} | "
                f"{r.extra['choice_ns']:,.0f} | {r.extra['apply_ns']:,.0f} | {r.extra['share']:.1%} |" for r in kp]
    return out


def _sweep_section(gr: list[Row], g: str, at: Callable[[str, str], str]) -> list[str]:
    """RESULTS.md lines of the sweep at scale (minutes end to end, games/s, MiB, Parquet bytes per game)."""
    out: list[str] = []
    for r in (r for r in gr if r.measure == "sweep"):
        out += ["", f"### {g}: sweep at scale{at(g, 'sweep')}", "",
                f"`meeplelab sweep` of {r.extra['variants']} variants ({r.extra['vary']}) x "
                f"{r.games // r.extra['variants']:,} games, 4 seats, n_jobs {r.n_jobs}, batch {r.batch}, "
                f"every log written, report included: **{r.seconds / 60:.1f} minutes** end to end "
                f"({r.gps:,.0f} games/s), peak memory {r.extra['peak_mib']:.0f} MiB per process, "
                f"{r.extra['bytes_per_game']:,.0f} Parquet bytes per game."]
    return out


def _game_sections(gr: list[Row], g: str, at: Callable[[str, str], str]) -> list[str]:
    """RESULTS.md lines of every measured part of game ``g`` (its rows ``gr``), in the page's order; ``at(game,
    measure)`` is the " (measured <UTC>)" suffix of a table's heading, "" when the row has no date."""
    out = _throughput_section(gr, g, at) + _compiled_section(gr, g, at) + _baseline_section(gr, g, at)
    out += _targets_section(gr, g)
    out += search_bench.render(gr, g, at(g, "search"))
    out += composite_bench.render(gr, g, at(g, "composite"))
    out += startup_bench.render(gr, g, at(g, "startup"))
    return out + _compile_memory_sections(gr, g, at) + _profile_sections(gr, g, at) + _sweep_section(gr, g, at)


def render(rows: list, info: dict, notes: str = "", store: str = "benchmarks/results.json") -> str:
    """Markdown of RESULTS.md from stored rows (dicts or :class:`Row`)."""
    when = {(r["game"], r["measure"]): r.get("when") for r in rows if isinstance(r, dict)}
    rows = [r if isinstance(r, Row) else Row(**{k: v for k, v in r.items() if k != "when"}) for r in rows]

    def at(game: str, measure: str) -> str:
        w = when.get((game, measure))
        return f" (measured {w})" if w else ""

    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Benchmark results", "", f"Rendered {date} by `meeplelab bench` (benchmarks/bench.py) from "
           f"`{store}`; each table says when it was measured (UTC).", "", "## Machine", ""]
    out += [f"- {k}: {v}" for k, v in info.items()]
    for g in dict.fromkeys(r.game for r in rows):
        out += _game_sections([r for r in rows if r.game == g], g, at)
    if notes:
        out += ["", notes.rstrip()]
    return "\n".join(out) + "\n"


def _shown(path: Path) -> str:
    """``path`` relative to the checkout when inside it (as RESULTS.md names it), else absolute."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(Path(path).resolve())


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="unconscious-mind,galileos-truth")
    ap.add_argument("--quick", action="store_true", help="game counts scaled to a tenth (smoke run)")
    ap.add_argument("--scale", type=float, default=1.0, help="scale the throughput game counts")
    ap.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts of {', '.join(PARTS)}")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "RESULTS.md"))
    ap.add_argument("--json", default=None, help="stored rows (default: results.json beside --out)")
    a = ap.parse_args(argv)
    parts = [x for x in a.only.split(",") if x]
    bad = [x for x in parts if x not in PARTS]
    if bad:
        _refuse(f"unknown bench part {bad[0]!r}: allowed {', '.join(PARTS)}")
    out = Path(a.out)
    store = Path(a.json) if a.json else out.with_name("results.json")
    for f in (out, store):  # refused before anything is measured, so nothing is half-written
        if not f.parent.is_dir() or not os.access(f.parent, os.W_OK):
            _refuse(f"--out/--json {f}: folder {f.parent} does not exist or is not writable: allowed a file in "
                    "an existing writable folder")
        if f.is_dir():
            _refuse(f"--out/--json {f}: is a folder: allowed a file in an existing writable folder")
    if not 0 < a.scale <= SCALE_MAX:  # nan too
        _refuse(scale_refusal(a.scale))

    for g in a.games.split(","):
        try:
            make_game(g)
        except ConfigError as e:
            _refuse(f"--games {g!r}: {e}")
    if a.no_memory:
        parts = [x for x in parts if x != "memory"]
    info = machine()
    rows = run(a.games.split(","), quick=a.quick, scale=a.scale, parts=parts)
    old = json.loads(store.read_text()) if store.exists() else []
    merged = merge(old, rows)
    notes_file = out.with_name("notes.md")
    notes = notes_file.read_text() if notes_file.exists() else ""

    for path, text in ((store, json.dumps(merged, indent=1)), (out, render(merged, info, notes, _shown(store)))):
        write_atomic(path, text.encode())  # a full disk leaves the earlier results whole
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

_ = (resource, shutil)
