"""Benchmark entry point (``meeplelab bench`` or ``python -m benchmarks.bench``).

Measures, for each game: complete games per second at 2 and 4 seats with the game's benchmark
strategy, logs written and not written, batch sizes 1 / 64 / 512 / 4096, n_jobs 1 and 2; peak
resident memory of a whole ``simulate`` process for 10k and 200k games; Parquet bytes per game;
and optionally a sweep at scale. Writes ``benchmarks/RESULTS.md`` with the machine and the date.
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
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

#: scripted strategies per game for the throughput figures (issue 7), seat by seat; cycled when fewer
BENCH_STRATEGY = {
    "unconscious-mind": ("coffee-engine", "publisher", "citer", "curer"),
    "galileos-truth": ("writer", "observer", "inventor", "never-abjure"),
    "toy": ("random",),
}


@dataclass
class Row:
    game: str
    measure: str
    players: int
    batch: int
    n_jobs: int
    logs: bool
    games: int
    seconds: float
    extra: dict = field(default_factory=dict)

    @property
    def gps(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("nan")


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


def _strategy(game: str, players: int = 4) -> str:
    """Comma-separated strategy ids for ``players`` seats."""
    ids = BENCH_STRATEGY.get(game, ("random",))
    return ",".join(ids[i % len(ids)] for i in range(players))


def time_simulate(game: str, players: int, games: int, batch: int, n_jobs: int, logs: bool, seed: int = 1,
                  chunk: int | None = None) -> Row:
    """One ``simulate`` call into a temporary folder (compile already warmed up)."""
    from sim.config import RunConfig
    from sim.runner import simulate

    with tempfile.TemporaryDirectory() as d:
        cfg = RunConfig(game=game, players=players, strategies=tuple(_strategy(game, players).split(",")), games=games,
                        seed=seed,
                        batch_size=batch, chunk_size=chunk, n_jobs=n_jobs, out=str(Path(d) / "run"),
                        log_turns=logs, log_events=logs)
        t0 = time.perf_counter()
        simulate(cfg)
        secs = time.perf_counter() - t0
        m = json.loads((Path(d) / "run" / "manifest.json").read_text())
        size = m["totals"]["bytes"]
    return Row(game, "throughput", players, batch, n_jobs, logs, games, secs, {"bytes_per_game": size / games})


def peak_memory(game: str, players: int, games: int, batch: int) -> Row:
    """Peak RSS of a separate ``meeplelab simulate`` process (MiB)."""
    with tempfile.TemporaryDirectory() as d:
        code = ("import resource, sys; from cli import main; sys.argv=['meeplelab']+sys.argv[1:]\n"
                "try:\n    main()\nexcept SystemExit:\n    pass\n"
                "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        cmd = [sys.executable, "-c", code, "simulate", "--game", game, "--players", str(players), "--strategies",
               _strategy(game, players), "--games", str(games), "--batch-size", str(batch), "--n-jobs", "1",
               "--out", str(Path(d) / "run"), "--no-progress"]
        t0 = time.perf_counter()
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
        secs = time.perf_counter() - t0
        peak = int(res.stdout.strip().splitlines()[-1].split()[1]) / 1024
    return Row(game, "memory", players, batch, 1, True, games, secs, {"peak_mib": peak})


def run(games: list[str], *, quick: bool = False, memory: bool = True, out: Path | None = None,
        echo=print) -> list[Row]:
    """The benchmark matrix; ``quick`` shrinks game counts for a smoke run."""
    rows: list[Row] = []
    scale = 0.1 if quick else 1.0
    for g in games:
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
                    echo(f"  {players}p batch {batch:5d} logs {'on ' if logs else 'off'} n_jobs 1: {r.gps:10.1f} games/s")
            n = max(int(32768 * scale), 4096)
            bj = 2048 if not quick else 512
            r = time_simulate(g, players, n, bj, 2, True, chunk=bj)
            rows.append(r)
            echo(f"  {players}p n_jobs 2: {r.gps:10.1f} games/s")
            r1 = time_simulate(g, players, n, bj, 1, True, chunk=bj)
            rows.append(r1)
            echo(f"  {players}p n_jobs 1 (same run): {r1.gps:10.1f} games/s")
        if memory:
            for n in ((10_000, 200_000) if not quick else (2_000, 20_000)):
                r = peak_memory(g, 4, n, 4096 if not quick else 1024)
                rows.append(r)
                echo(f"  peak memory {n} games: {r.extra['peak_mib']:.0f} MiB")
    return rows


def render(rows: list[Row], info: dict, notes: str = "") -> str:
    """Markdown of RESULTS.md."""
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Benchmark results", "", f"Measured {date} by `meeplelab bench` (benchmarks/bench.py).", "",
           "## Machine", ""]
    out += [f"- {k}: {v}" for k, v in info.items()]
    for g in dict.fromkeys(r.game for r in rows):
        gr = [r for r in rows if r.game == g]
        out += ["", f"## {g} (strategies by seat: `{_strategy(g, 4)}`; 2 seats: `{_strategy(g, 2)}`)", "", "### Throughput (complete games per second)", "",
                "| seats | batch | n_jobs | logs | games | seconds | games/s | Parquet bytes/game |", "|---|---|---|---|---|---|---|---|"]
        for r in gr:
            if r.measure == "throughput":
                bpg = r.extra.get("bytes_per_game", 0) if r.logs else r.extra.get("bytes_per_game", 0)
                out.append(f"| {r.players} | {r.batch} | {r.n_jobs} | {'written' if r.logs else 'not written'} | {r.games} "
                           f"| {r.seconds:.2f} | {r.gps:,.1f} | {bpg:,.0f} |")
        for p in (2, 4):
            b1 = next((r for r in gr if r.measure == "throughput" and r.players == p and r.batch == 1 and r.logs), None)
            b4 = next((r for r in gr if r.measure == "throughput" and r.players == p and r.batch == 4096 and r.logs), None)
            j = [r for r in gr if r.measure == "throughput" and r.players == p and r.batch in (512, 2048) and r.games >= 4096]
            j2 = next((r for r in j if r.n_jobs == 2), None)
            j1 = next((r for r in reversed(j) if r.n_jobs == 1 and r.games == (j2.games if j2 else -1)), None)
            if b1 and b4:
                out.append(f"\n{p} seats: batch 4096 is {b4.gps / b1.gps:.1f}x batch 1.")
            if j1 and j2:
                out.append(f"{p} seats: n_jobs 2 is {j2.gps / j1.gps:.2f}x n_jobs 1.")
        mem = [r for r in gr if r.measure == "memory"]
        if mem:
            out += ["", "### Peak resident memory of one simulate process (4 seats, logs written)", "",
                    "| games | batch | seconds | peak MiB |", "|---|---|---|---|"]
            out += [f"| {r.games:,} | {r.batch} | {r.seconds:.1f} | {r.extra['peak_mib']:.0f} |" for r in mem]
    if notes:
        out += ["", notes]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="unconscious-mind,galileos-truth")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "RESULTS.md"))
    a = ap.parse_args(argv)
    info = machine()
    rows = run(a.games.split(","), quick=a.quick, memory=not a.no_memory)
    text = render(rows, info)
    tmp = Path(a.out).with_suffix(".md.tmp")
    tmp.write_text(text)
    tmp.replace(a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()

_ = (resource, shutil)
