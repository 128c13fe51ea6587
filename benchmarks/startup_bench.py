"""Start-up and edit-to-first-game figures, measured side by side in one run.

Three measures per game, each from the outside (a fresh ``meeplelab`` process, as a user runs it):

- **start-up**: a 256-game ``meeplelab simulate`` (the default strategies) at the default ``--n-jobs`` and, beside
  it, at ``--n-jobs 1`` and ``--n-jobs 2``; the median of :data:`REPEATS` runs each (target: 2 s at the default);
- **a large run**: a 40,000-game ``simulate`` (4 seats, the benchmark's scripted strategies, every log written) from
  the command line against the same run played by :func:`meeplelab.play.runner.simulate` in an already warm
  process with n_jobs 2 (its workers started by a first call), :data:`LARGE_REPEATS` runs each, interleaved:
  the command's median games/s may be at most 1.25x below;
- **edit to first game**: a copy of the tree with its compiled kernels (the numba cache beside the sources), one
  decision handler edited (a statement appended to its first statement's line: :func:`edit_handler`), then a
  16-game ``simulate`` of the benchmark's scripted strategies from the copy: the seconds until its games are written (target: 30 s).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from meeplelab.benchmarks.rows import Row, _strategy
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate

#: runs of each start-up measure (the median is reported)
REPEATS = 5
#: the start-up targets
STARTUP_TARGET_S = 2.0
LARGE_RATIO = 1.25
#: runs of each side of the large-run measure (interleaved; the medians are compared)
LARGE_REPEATS = 3
EDIT_TARGET_S = 30.0
#: the decision handler edited for the edit-to-first-game measure, per game: (its module, its name)
EDITED = {"galileos-truth": ("sim/galileos_truth/rules/main_actions.py", "apply_main"),
          "unconscious-mind": ("sim/unconscious_mind/rules/turn_flow.py", "apply_turn")}
#: the statement the edit adds to the handler's first statement line (new bytecode, the same games)
EDIT_TEXT = "; _edited_for_the_benchmark = 0"


def edit_handler(path: Path, name: str) -> int:
    """Change the body of function ``name`` in ``path`` as a developer's edit would: :data:`EDIT_TEXT` appended to
    its first one-line plain statement (an assignment or a call, at any depth, after the docstring), on that line,
    so no line of the module moves and its bytecode changes (a comment or a docstring would change no compiled
    code). Returns the edited line number. Raises ``ValueError`` when the module has no such function or it has no plain statement."""
    import ast

    text = path.read_text()
    tree = ast.parse(text)
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if fn is None:
        raise ValueError(f"{path} has no function {name}")
    doc = fn.body[0] if fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant) \
        else None
    plain = [b for b in ast.walk(fn) if isinstance(b, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr))
             and b is not doc and b.lineno == b.end_lineno]
    st = min(plain, key=lambda b: (b.lineno, b.col_offset), default=None)
    if st is None:
        raise ValueError(f"{name} in {path} has no one-line plain statement to edit")
    lines = text.splitlines(keepends=True)
    line = lines[st.lineno - 1]
    cut = len(line.encode()[:st.end_col_offset].decode())
    lines[st.lineno - 1] = line[:cut] + EDIT_TEXT + line[cut:]
    path.write_text("".join(lines))
    return st.lineno


def _cli(args: list[str], cwd: Path, env: dict | None = None) -> float:
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "meeplelab.cli", *args], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=3600)
    secs = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(f"meeplelab {' '.join(args)} failed: {r.stderr.strip().splitlines()[-1:]}")
    return secs


def startup(game: str, games: int = 256, repeats: int = REPEATS, echo=print) -> list:
    """Median wall seconds of a ``games``-game ``simulate`` at the default ``--n-jobs``, 1 and 2 (rows)."""

    rows = []
    with tempfile.TemporaryDirectory() as d:
        _cli(["simulate", "--game", game, "--games", "16", "--out", f"{d}/warm"], Path(d))  # kernels loaded once
        for jobs in (None, 1, 2):
            times = []
            for i in range(repeats):
                args = ["simulate", "--game", game, "--games", str(games), "--out", f"{d}/r{jobs}-{i}"]
                times.append(_cli(args + ([] if jobs is None else ["--n-jobs", str(jobs)]), Path(d)))
            med = statistics.median(times)
            rows.append(Row(game, "startup", 4, 1024, -1 if jobs is None else jobs, True, games, med,
                            {"times": [round(t, 2) for t in times], "load": round(os.getloadavg()[0], 1)}))
            echo(f"  {game}: {games}-game simulate at --n-jobs {'default' if jobs is None else jobs}: median {med:.2f} s "
                 f"({', '.join(f'{t:.2f}' for t in times)})")
    return rows


def large_run(game: str, games: int = 40_000, repeats: int = LARGE_REPEATS, echo=print) -> list:
    """A ``games``-game simulate from the command line against the same run in a warm process, ``repeats`` times
    each, interleaved (in the process, then the command line), so a noisy spell of the machine falls on both
    sides; the medians are compared (rows)."""
    strategies = _strategy(game, 4)
    inproc_s, cli_s = [], []
    with tempfile.TemporaryDirectory() as d:
        def inproc(n, out):
            cfg = RunConfig(game=game, players=4, strategies=tuple(strategies.split(",")), games=n, n_jobs=2,
                            out=str(Path(d) / out))
            t = time.perf_counter()
            simulate(cfg)
            return time.perf_counter() - t, json.loads((Path(d) / out / "manifest.json").read_text())

        inproc(2048, "warm")  # kernels and the worker pool started
        for i in range(repeats):
            secs, m = inproc(games, f"inproc{i}")
            played = m["last_call"]["games_played"]
            inproc_s.append(secs)
            cli_s.append(_cli(["simulate", "--game", game, "--players", "4", "--strategies", strategies, "--games",
                               str(games), "--out", f"{d}/cli{i}"], Path(d)))
    secs, cli = statistics.median(inproc_s), statistics.median(cli_s)
    ratio = cli / secs
    echo(f"  {game}: {played:,} games: command line {played / cli:,.0f} games/s (median {cli:.1f} s of "
         f"{', '.join(f'{t:.1f}' for t in cli_s)}) against {played / secs:,.0f} in a warm process (median {secs:.1f} s "
         f"of {', '.join(f'{t:.1f}' for t in inproc_s)}): {ratio:.2f}x")
    return [Row(game, "large_run", 4, 1024, -1, True, played, cli,
                {"inproc_seconds": secs, "ratio": ratio, "cli_runs": [round(t, 2) for t in cli_s],
                 "inproc_runs": [round(t, 2) for t in inproc_s], "load": round(os.getloadavg()[0], 1)})]


def edit_to_first_game(game: str, root: Path, echo=print) -> list:
    """Seconds from an edited handler to the first games written, on a copy of the tree with its warm cache."""

    with tempfile.TemporaryDirectory() as d:
        tree = Path(d) / "tree"
        for part in ("sim", "strategies", "play", "analysis", "studies", "benchmarks", "meeplelab"):
            shutil.copytree(root / part, tree / part, symlinks=True)  # __pycache__ too: the warm kernels
        for f in ("cli.py", "pyproject.toml"):
            shutil.copy2(root / f, tree / f)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["PYTHONPATH"] = str(tree)
        args = ["simulate", "--game", game, "--players", "2", "--strategies", _strategy(game, 2), "--games", "16",
                "--n-jobs", "1"]
        warm = _cli(args + ["--out", f"{d}/before"], Path(d), env)  # the copy's kernels load from its cache
        module, handler = EDITED[game]
        edit_handler(tree / module, handler)
        secs = _cli(args + ["--out", f"{d}/after"], Path(d), env)
    echo(f"  {game}: edit of {handler} ({module}) to the first 16 games: {secs:.1f} s (unchanged tree: {warm:.1f} s)")
    return [Row(game, "edit_to_game", 2, 1024, 1, True, 16, secs,
                {"edited": f"{module}:{handler}", "unchanged_seconds": warm, "load": round(os.getloadavg()[0], 1)})]


def measure(game: str, root: Path, quick: bool = False, echo=print) -> list:
    """Every start-up measure of ``game`` (``quick``: 2 repeats, a 4,000-game large run, no edit measure)."""
    rows = startup(game, repeats=2 if quick else REPEATS, echo=echo)
    rows += large_run(game, games=4_000 if quick else 40_000, repeats=1 if quick else LARGE_REPEATS, echo=echo)
    if not quick:
        rows += edit_to_first_game(game, root, echo=echo)
    return rows


def render(rows: list, game: str, when: str = "") -> list[str]:
    """Markdown lines of the ``startup`` part of ``game``."""
    st = [r for r in rows if r.game == game and r.measure == "startup"]
    lg = [r for r in rows if r.game == game and r.measure == "large_run"]
    ed = [r for r in rows if r.game == game and r.measure == "edit_to_game"]
    if not (st or lg or ed):
        return []
    out = ["", f"### {game}: start-up, a large run and edit to first game{when}", ""]
    if st:
        out += [f"A {st[0].games}-game `meeplelab simulate` (default strategies) from the command line, median of "
                f"{len(st[0].extra['times'])} runs (target: {STARTUP_TARGET_S:.0f} s at the default `--n-jobs`, which "
                "plays a run this small in its own process).", "",
                "| --n-jobs | median s | runs (s) | within target | load |", "|---|---|---|---|---|"]
        for r in st:
            ok = "yes" if r.seconds <= STARTUP_TARGET_S else "**no**"
            out.append(f"| {'default (-1)' if r.n_jobs == -1 else r.n_jobs} | {r.seconds:.2f} | "
                       f"{', '.join(map(str, r.extra['times']))} | {ok if r.n_jobs == -1 else '-'} | {r.extra['load']} |")
    for r in lg:
        x = r.extra
        runs = (f"; runs {', '.join(map(str, x['cli_runs']))} s against {', '.join(map(str, x['inproc_runs']))} s, "
                "interleaved" if "cli_runs" in x else "")
        out += ["", f"A {r.games:,}-game run (4 seats, the benchmark strategies, every log written): the command line "
                f"{r.gps:,.0f} games/s ({r.seconds:.1f} s) against {r.games / x['inproc_seconds']:,.0f} games/s in a warm "
                f"process with n_jobs 2 ({x['inproc_seconds']:.1f} s){', medians' if 'cli_runs' in x else ''}: "
                f"**{x['ratio']:.2f}x** (target: at most {LARGE_RATIO}x; "
                f"{'met' if x['ratio'] <= LARGE_RATIO else 'not met'}; load {x['load']}{runs})."]
    for r in ed:
        x = r.extra
        module, _, fn = x["edited"].partition(":")
        what = (f"the decision handler `{fn}` of `{module}` given one more statement (`{EDIT_TEXT.lstrip('; ')}` on "
                "its first statement's line: new bytecode, no line moved)" if fn else f"`{module}` edited")
        out += ["", f"Edit to first game: {what} in a copy of the tree with its compiled kernels, then "
                f"a 16-game `simulate`: **{r.seconds:.1f} s** (the unchanged copy: {x['unchanged_seconds']:.1f} s; "
                f"target {EDIT_TARGET_S:.0f} s: {'met' if r.seconds <= EDIT_TARGET_S else 'not met'}; load {x['load']}). "
                "The kernel cache is keyed by each kernel's call graph (sim/jitcache.py), so only the kernels that "
                "reach the handler compile again (its dispatcher and the play loops, not the legal-mask, setup, "
                "feature or score kernels); an edit that moves lines also compiles again, once, the cached functions "
                "below it in that module (numba names a cache file by the function's first line)."]
    return out
