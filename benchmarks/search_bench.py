"""The ``search`` part of ``meeplelab bench``: ISMCTS inside the compiled play kernel.

For each game, in one run on the same seeds and seat orders (2 seats, ``ismcts`` with its default arguments against
``heuristic``, rotated seating, every log written):

- **compiled**: ``simulate`` with the compiled search (``n_jobs`` 2), :data:`GAMES` games;
- **python-loop**: the same with ``--python-loop`` (this commit's Python search, the readable reference), on the
  first :data:`REF_GAMES` game seeds of the compiled run (both seat orders);
- **f4477e4**: the Python search as it was at commit :data:`SEARCH_BASE` (before the search was compiled), unpacked with
  ``git archive`` into ``.bench/`` like the ``baseline`` part's tree and played there in a separate process with the
  same interpreter, on the first :data:`BASE_GAMES` game seeds.

Each row carries games/s, the ``ismcts`` seats' win rate (win shares summed, ties shared) with its 95% Wilson
interval, the rate from each seat, the mean VP margin with its t interval, and whether its games equal the
compiled run's on the seeds both played. :func:`targets` turns the stored rows into the search's targets table.
Timings live here, never in tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from meeplelab.benchmarks.rows import Row, baseline_tree
from meeplelab.analysis.load import scan_run
from meeplelab.analysis.stats import mean_t, wilson
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from meeplelab.strategies.ismcts import GAME_DEFAULTS


#: the commit whose Python ISMCTS the compiled search is measured against ("ismcts as it is at f4477e4")
SEARCH_BASE = "f4477e4f70ce507306bd45064cd7d3b288617a7c"
#: the search and its opponent (the search with its default arguments)
SEARCH, OPPONENT = "ismcts", "heuristic"
#: games of each path (both seat orders; rotated seating: half as many game seeds)
GAMES, REF_GAMES, BASE_GAMES = 800, 400, 100
#: the search's bars: games/s (2 seats, logs written, n_jobs 2), win rate, its Wilson lower bound, speed-up over SEARCH_BASE
TARGET_GPS = {"galileos-truth": 100, "unconscious-mind": 40}
TARGET_WIN, TARGET_LOW, TARGET_RATIO, MIN_GAMES = 0.70, 0.65, 20.0, 800

#: run inside the SEARCH_BASE tree: warm up (compile, worker pool), then time one ``simulate``; prints JSON
_DRIVER = """
import json, sys, time
try:  # the base tree's own layout (before the one import name)
    from sim.config import RunConfig
    from sim.runner import simulate
except ImportError:
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate
game, strategies, games, batch, n_jobs, seed, out, chunk = sys.argv[1:]
def cfg(n, where, chunk=None):
    return RunConfig(game=game, players=2, strategies=tuple(strategies.split("|")), games=n, seed=int(seed),
                     seating="rotate", batch_size=int(batch), n_jobs=int(n_jobs), out=where, chunk_size=chunk)
simulate(cfg(4 * int(n_jobs), out + "-warm", 1))  # one-game chunks: every worker loads the kernels

t0 = time.perf_counter()
simulate(cfg(int(games), out, int(chunk)))
print(json.dumps({"seconds": time.perf_counter() - t0}))
"""


#: ``sitecustomize`` of the base tree's processes: the installed package's ``meeplelab.games`` entry points name this
#: commit's specs (``meeplelab.sim...``), which the base tree's registry refuses as foreign; its own built-in specs are
#: registered first, so it never reads them
_SITE = """
try:
    import sim.registry as _r
    from sim.galileos_truth.spec import SPEC as _gt
    from sim.unconscious_mind.spec import SPEC as _um
    _r._SPECS.setdefault(_gt.name, _gt)
    _r._SPECS.setdefault(_um.name, _um)
except ImportError:  # a tree with the one import name
    pass
"""


def _config(game: str, games: int, batch: int, n_jobs: int, compiled: bool, out: Path, seed: int):
    return RunConfig(game=game, players=2, strategies=(SEARCH, OPPONENT), games=games, seed=seed, seating="rotate",
                     batch_size=batch, n_jobs=n_jobs, out=str(out), compiled=compiled)


def games_of(run: Path):
    """The games table of run folder ``run`` (pandas), from the parts its manifest lists."""
    return scan_run(str(run), "games").collect().to_pandas()


def strength(df) -> dict:
    """The search's results in a games table ``df`` (2 seats): ``games``, ``win`` (win shares of its seats summed
    over the games, ties shared, / games) with its 95% Wilson interval ``lo``/``hi``, the rate from each seat
    (``seat0``, ``seat1``) and the mean VP margin over the opponent with its t interval."""
    mine = df.strategy.astype(str).str.split(":").str[0] == SEARCH
    me = df[mine].sort_values("game")
    op = df[~mine].sort_values("game")
    n = len(me)
    _, lo, hi = wilson(float(me.win_share.sum()), n)
    m = mean_t(me.vp.to_numpy() - op.vp.to_numpy())
    out = {"games_played": n, "win": float(me.win_share.mean()), "lo": float(lo), "hi": float(hi),
           "margin": float(m[0]), "margin_lo": float(m[1]), "margin_hi": float(m[2])}
    for s in (0, 1):
        out[f"seat{s}"] = float(me[me.seat == s].win_share.mean())
    return out


def same_games(a, b) -> tuple[int, int]:
    """``(equal, common)``: of the games (game seed and seat order) both games tables ``a`` and ``b`` played,
    how many agree on VP, win share, plies and strategy of every seat, and how many there are."""
    key = ["seat_order", "game_seed"]
    cols = key + ["seat", "strategy", "vp", "win_share", "plies"]
    x = a[cols].astype({"strategy": str})
    y = b[cols].astype({"strategy": str})
    m = x.merge(y, on=key + ["seat"], suffixes=("_a", "_b"))
    if m.empty:
        return 0, 0
    seat_ok = ((m.strategy_a == m.strategy_b) & (m.vp_a == m.vp_b) & (m.win_share_a == m.win_share_b)
               & (m.plies_a == m.plies_b))
    per_game = seat_ok.groupby([m.seat_order, m.game_seed]).all()
    return int(per_game.sum()), int(len(per_game))


def base_tree(repo: Path, into: Path) -> Path:
    """The source tree of :data:`SEARCH_BASE`, unpacked once (``meeplelab.benchmarks.bench.baseline_tree``)."""
    return baseline_tree(SEARCH_BASE, repo, into)


#: the arguments :data:`SEARCH_BASE`'s ``ismcts`` knows (its later ones, ``kinds``, ``gap``, ``sub``, ``weights``,
#: do not exist there)
BASE_ARGS = ("iters", "ms", "c", "top", "horizon", "scale", "prior", "depth", "par", "widen")


def base_spec(game: str) -> tuple[str, list[str]]:
    """``(id, dropped)``: the search with this commit's default arguments for ``game`` spelled out, as far as
    :data:`SEARCH_BASE`'s ``ismcts`` knows them, and the default arguments it cannot take (``kinds``: the base
    searches every decision kind; ``weights``: it values leaves with the heuristic's default weights)."""
    d = GAME_DEFAULTS.get(game, {})
    kept = [f"{k}={v}" for k, v in d.items() if k in BASE_ARGS]
    return SEARCH + (":" + ",".join(kept) if kept else ""), [k for k in d if k not in BASE_ARGS]


def time_base(tree: Path, game: str, games: int, batch: int, n_jobs: int, out: Path, seed: int) -> float:
    """Seconds of one ``simulate`` of the search against its opponent in the :data:`SEARCH_BASE` tree (a separate
    process, this interpreter, the tree first on the path; it warms up first and writes ``out``).

    Raises:
        RuntimeError: the run failed (the last lines of its stderr)."""
    site = Path(tree) / ".bench-site"  # every process of the run (loky workers too) registers the tree's games
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(_SITE)
    env = dict(os.environ, PYTHONPATH=f"{tree}{os.pathsep}{site}")
    # the chunks this commit's runner cuts the same games into (the base's own rule made one chunk of fewer than
    # 1024 games: its second worker idle), so both paths use every worker
    chunk = _config(game, games, batch, n_jobs, False, out, seed).chunk_games()
    cmd = [sys.executable, "-c", _DRIVER, game, f"{base_spec(game)[0]}|{OPPONENT}", str(games), str(batch), str(n_jobs),
           str(seed), str(out), str(chunk)]
    res = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"search baseline simulate failed: {res.stderr[-2000:]}")
    return float(json.loads(res.stdout.strip().splitlines()[-1])["seconds"])


def measure(game: str, tree: Path | None, *, games: int = GAMES, ref_games: int = REF_GAMES,
            base_games: int = BASE_GAMES, n_jobs: int = 2, seed: int = 0, echo=print) -> list:
    """The three rows of ``game`` (``measure="search"``, ``extra["path"]`` compiled, python-loop, the base commit),
    one after the other in this run (``tree``: the :data:`SEARCH_BASE` tree, None to leave that path out)."""
    rows = []
    batch = max(games // (8 * n_jobs), 1)  # several chunks per worker
    with tempfile.TemporaryDirectory() as d:
        # compile, start the workers and load the cached kernels in each of them (one-game chunks, several per
        # worker: the first chunk a worker plays loads the kernels from numba's cache, seconds)
        simulate(_config(game, 8 * n_jobs, 1, n_jobs, True, Path(d) / "warm", seed))
        paths = [("compiled", games, True), ("python-loop", ref_games, False)]
        frames = {}
        for name, n, compiled in paths:
            out = Path(d) / name
            t0 = time.perf_counter()
            simulate(_config(game, n, max(n // (8 * n_jobs), 1) if not compiled else batch, n_jobs, compiled, out,
                             seed))
            secs = time.perf_counter() - t0
            frames[name] = games_of(out)
            rows.append(Row(game, "search", 2, batch, n_jobs, True, n, secs,
                            {"path": name, "spec": f"{SEARCH} vs {OPPONENT}", "load": round(os.getloadavg()[0], 1),
                             **strength(frames[name])}))
            echo(f"  {game} {name}: {n} games {secs:.1f} s ({n / secs:,.1f} games/s), win "
                 f"{rows[-1].extra['win']:.1%} [{rows[-1].extra['lo']:.1%}, {rows[-1].extra['hi']:.1%}]")
        if tree is not None:
            out = Path(d) / "base"
            nb = max(base_games // (8 * n_jobs), 1)
            secs = time_base(tree, game, base_games, nb, n_jobs, out, seed)
            frames["base"] = games_of(out)
            spec, dropped = base_spec(game)
            rows.append(Row(game, "search", 2, nb, n_jobs, True, base_games, secs,
                            {"path": SEARCH_BASE[:7], "spec": f"{spec} vs {OPPONENT}", "dropped": dropped,
                             "load": round(os.getloadavg()[0], 1),
                             **strength(frames["base"])}))
            echo(f"  {game} at {SEARCH_BASE[:7]}: {base_games} games {secs:.1f} s ({base_games / secs:,.2f} games/s)")
        c = rows[0]
        for r, name in zip(rows[1:], ("python-loop", "base")):
            eq, common = same_games(frames["compiled"], frames[name])
            r.extra.update(equal_games=eq, common_games=common, same_games=common > 0 and eq == common)
        if tree is not None:
            c.extra["ratio"] = c.gps / rows[2].gps
    return rows


def targets(rows: list, game: str) -> list[tuple[str, str, str, bool | None]]:
    """The compiled search's targets for ``game`` from its stored ``search`` rows: ``(target, measured, bar, met)``."""
    rs = [r for r in rows if r.measure == "search" and r.game == game]
    by = {r.extra.get("path"): r for r in rs}
    out = []
    c = by.get("compiled")
    if c is None:
        return out
    x = c.extra
    if game in TARGET_GPS:
        out.append((f"games/s, compiled `{SEARCH}` (default arguments) vs `{OPPONENT}`, 2 seats, logs written, "
                    f"n_jobs {c.n_jobs}", f"{c.gps:,.1f}", f">= {TARGET_GPS[game]}", c.gps >= TARGET_GPS[game]))
    out.append((f"win rate of `{SEARCH}` ({c.games:,} games, both seat orders)", f"{x['win']:.1%}",
                f">= {TARGET_WIN:.0%}", x["win"] >= TARGET_WIN and c.games >= MIN_GAMES))
    out.append(("its 95% Wilson lower bound", f"{x['lo']:.1%}", f">= {TARGET_LOW:.0%}",
                x["lo"] >= TARGET_LOW and c.games >= MIN_GAMES))
    base = by.get(SEARCH_BASE[:7])
    if base is not None:
        ratio = c.gps / base.gps
        dropped = base.extra.get("dropped") or []
        note = (f"; the base has no {', '.join(dropped)} argument, so it plays without: "
                f"`{base.extra.get('spec', '')}`") if dropped else ""
        out.append((f"compiled / `{SEARCH}` at commit {SEARCH_BASE[:7]} (same arguments, seeds and seat orders, "
                     f"same run{note})", f"{ratio:.1f}x", f">= {TARGET_RATIO:.0f}x", ratio >= TARGET_RATIO))
    ref = by.get("python-loop")
    if ref is not None:
        inside = ref.extra["lo"] <= x["win"] <= ref.extra["hi"]
        out.append((f"as strong as the `--python-loop` reference ({ref.games:,} games): compiled rate inside its "
                    "interval", f"{x['win']:.1%} in [{ref.extra['lo']:.1%}, {ref.extra['hi']:.1%}]",
                    f"inside, {ref.games:,}+ games", inside and ref.games >= 400))
        # information, not a target (the strength test above is): the two paths draw
        # from the same streams, but a rare floating-point difference can split a near tie of two actions
        out.append(("(information) games of the reference equal to the compiled run's on the seeds both played",
                    _equal(ref.extra), "-", None))
    return out


def _equal(extra: dict) -> str:
    """``"399 of 400"``: a row's games equal to the compiled run's (rows stored before the counts: yes/no)."""
    if "common_games" in extra:
        return f"{extra['equal_games']:,} of {extra['common_games']:,}"
    return "yes" if extra.get("same_games") else "no"


def render(rows: list, game: str, when: str = "") -> list[str]:
    """Markdown lines of the ``search`` part of ``game``: the side-by-side table and the targets table."""
    rs = [r for r in rows if r.measure == "search" and r.game == game]
    if not rs:
        return []
    spec = rs[0].extra.get("spec", "")
    out = ["", f"### {game}: ISMCTS in the compiled play kernel (`{spec}`, default arguments, 2 seats, rotated seating, "
           f"every log written, n_jobs {rs[0].n_jobs}){when}", "",
           f"`f4477e4` is the Python search of commit {SEARCH_BASE[:7]} (the search before it was compiled) played from a "
           "`git archive` tree; `python-loop` is this commit's `--python-loop` (the readable reference). Win rate: "
           "the search's win shares (ties shared) over its games, 95% Wilson interval; margin: its VP minus the "
           "opponent's, 95% t interval; same games: how many of the games (seed and seat order) both paths played are equal to the compiled run's; load: the "
           "machine's 1-minute load average (2 cores) when the path ended.", "",
           "| path | games | seconds | games/s | win rate | from seat 1 | from seat 2 | margin (VP) | same games | load |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rs:
        x = r.extra
        same = "-" if x.get("path") == "compiled" else _equal(x)
        out.append(f"| {x.get('path')} | {r.games:,} | {r.seconds:.1f} | {r.gps:,.2f} | {x['win']:.1%} "
                   f"[{x['lo']:.1%}, {x['hi']:.1%}] | {x['seat0']:.1%} | {x['seat1']:.1%} | {x['margin']:+.1f} "
                   f"[{x['margin_lo']:+.1f}, {x['margin_hi']:+.1f}] | {same} | {x.get('load', '-')} |")
    tg = targets(rows, game)
    if tg:
        out += ["", f"### {game}: targets of the search", "", "| target | measured | bar | met |",
                "|---|---|---|---|"]
        out += [f"| {t} | {m} | {b} | {'-' if ok is None else 'yes' if ok else '**no**'} |" for t, m, b, ok in tg]
    return out

