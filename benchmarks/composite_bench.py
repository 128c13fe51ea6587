"""The ``composite`` part of ``meeplelab bench``: the commands built on many small runs at
engine speed.

For each game, in one run, every composite command (``robustness``, ``balance``, ``tune``, ``sweep``,
``experiment``, ``tournament``) is played once from the command line on a realistic small budget (:data:`CASES`,
n_jobs 2, 4 seats where the command takes a seat count), and right after it ``simulate`` plays the same number
of games with the same strategies at the same seat counts (:func:`reference_runs`; rotated seating, every log
written, one run per seat count, n_jobs 2). Both are timed from the outside as a user sees them (a fresh
process: start-up, compile-cache load, workers, the command's analysis and report included), and each command's
games are counted from what it wrote (:func:`games_played`). The row keeps both games/s and their ratio
(``simulate`` games/s over the command's); the bar is 1.5x.

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

from meeplelab.benchmarks.rows import Row

#: the bar: the command's games/s at least simulate's / 1.5
TARGET_RATIO = 1.5
N_JOBS = 2
#: commands timed without their report (``--no-report``), as ``simulate`` writes none: the report's fixed cost
#: (figures, replays for the game-arc metrics) does not grow with the games
NO_REPORT = ("experiment", "tournament")
#: of those, the commands whose report ``meeplelab report OUT`` writes later: timed on its own, in its own column
REPORT_SEPARATELY = ("experiment",)
#: the scripted field of each game (the README main job's strategies of the balance studies)
FIELD = {"galileos-truth": ["writer", "observer", "inventor", "never-abjure"],
         "unconscious-mind": ["coffee-engine", "publisher", "citer", "curer"]}
#: per game: command -> its arguments after ``--game G`` (``--out``, ``--n-jobs`` and ``--no-progress`` added)
CASES = {
    "galileos-truth": {
        "robustness": ["--budget", "12600", "--games-per-lineup", "8"],
        "balance": ["--vary", "first_player_rule=rotate,first-to-pass,fewest-vp", "--target", "seat-spread:4<=5",
                    "--trials", "3", "--games-per-lineup", "200", "--recheck", "1", "--recheck-factor", "2"],
        "tune": ["--strategy", "heuristic", "--against", "writer,observer,inventor", "--players", "4",
                 "--budget", "2400"],
        "sweep": ["--vary", "truth_vp_per_tile=0,2,4", "--players", "4", "--strategies", ",".join(FIELD["galileos-truth"]),
                  "--games", "2400"],
        "experiment": ["--players", "4", "--strategies", "writer,observer,inventor", "--control", "never-abjure",
                       "--vary", "abjure-at.cycle=1,2", "--games", "2400"],
        "tournament": ["--strategies", ",".join(FIELD["galileos-truth"]), "--players", "4", "--games", "240"],
    },
    "unconscious-mind": {
        "robustness": ["--budget", "12600", "--games-per-lineup", "8"],
        "balance": ["--vary", "cite_bright_ideas=0..2", "--target", "seat-spread:4<=5", "--trials", "3",
                    "--games-per-lineup", "200", "--recheck", "1", "--recheck-factor", "2"],
        "tune": ["--strategy", "heuristic", "--against", "coffee-engine,publisher,citer", "--players", "4",
                 "--budget", "2400"],
        "sweep": ["--vary", "cite_bright_ideas=0,1,2", "--players", "4", "--strategies",
                  ",".join(FIELD["unconscious-mind"]), "--games", "2400"],
        "experiment": ["--players", "4", "--strategies", "publisher,citer,curer", "--control", "coffee-engine",
                       "--treat", "coffee+1", "--games", "2400"],
        "tournament": ["--strategies", ",".join(FIELD["unconscious-mind"]), "--players", "4", "--games", "240"],
    },
}


def _cli(args: list[str], cwd: Path) -> float:
    """Seconds of one ``meeplelab`` command in a fresh process (this interpreter); RuntimeError on failure."""
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", "from meeplelab.cli import main; main()", *args], cwd=cwd,
                         capture_output=True, text=True)
    secs = time.perf_counter() - t0
    if res.returncode != 0:
        raise RuntimeError(f"meeplelab {' '.join(args)} failed ({res.returncode}): {res.stderr[-1500:]}")
    return secs


def _manifest_games(folder: Path) -> dict[int, int]:
    """Games by seat count of every complete run folder under ``folder``."""
    out: dict[int, int] = {}
    for m in folder.rglob("manifest.json"):
        d = json.loads(m.read_text())
        if d.get("status") == "complete":
            c = d["config"]
            out[int(c["players"])] = out.get(int(c["players"]), 0) + int(c["games"])
    return out


def games_played(command: str, out: Path) -> dict[int, int]:
    """Games the command played into ``out``, by seat count, counted from its own files: run folders'
    manifests (sweep, experiment, tournament, balance's side-effect runs), ``robustness.json`` (design points x
    lineups x games per lineup), ``balance.json`` (candidates and re-checks x lineups x games), ``tune.json``
    (trials x games per trial, plus the held-out games)."""
    games = _manifest_games(out)
    if command == "robustness":
        d = json.loads((out / "robustness.json").read_text())
        points = len(d["morris_X"]) + len(d.get("sobol_X") or []) + 1  # + the defaults
        for lu in d["lineups"]:
            p = len(lu[2]) if isinstance(lu, list) else len(lu["strategies"])
            games[p] = games.get(p, 0) + points * int(d["games"])
    elif command == "balance":
        d = json.loads((out / "balance.json").read_text())
        n_re = json.loads((out / "search.json").read_text())
        lineups = n_re["lineups"]
        for lu in lineups:
            p = len(lu[2])
            games[p] = games.get(p, 0) + len(n_re["evaluated"]) * int(d["games_per_lineup"]) \
                + len(n_re["rechecked"]) * int(d["recheck_games_per_lineup"])
    elif command == "tune":
        d = json.loads((out / "tune.json").read_text())
        p = int(d["players"])
        field = len(d["field"])
        trial = int(d["games_per_trial"]) * field * p
        held = int(d["heldout"]["games_per_lineup"]) * (2 * field + 1) * p
        games[p] = games.get(p, 0) + len(d["trials"]) * trial + held
    return games


def reference_strategies(game: str, command: str, players: int) -> list[str]:
    """The strategies ``simulate`` plays for the reference of ``command`` at ``players`` seats: the field the
    command played (tune: the tuned strategy and its field; otherwise the game's :data:`FIELD`, its first
    ``players`` at fewer seats)."""
    if command == "tune":
        args = CASES[game]["tune"]
        return [args[args.index("--strategy") + 1]] + args[args.index("--against") + 1].split(",")
    return FIELD[game][:players]


def reference_runs(game: str, command: str, games: dict[int, int], where: Path, cwd: Path) -> float:
    """Seconds of ``simulate`` playing ``games`` (by seat count) with the command's strategies, rotated seating,
    every log written, n_jobs :data:`N_JOBS`: one run per seat count, each in a fresh process."""
    secs = 0.0
    for p, n in sorted(games.items()):
        secs += _cli(["simulate", "--game", game, "--players", str(p), "--strategies",
                      ",".join(reference_strategies(game, command, p)), "--games", str(n), "--seating", "rotate",
                      "--n-jobs", str(N_JOBS), "--out", str(where / f"ref-{command}-{p}p"), "--overwrite",
                      "--no-progress"], cwd)
    return secs


def measure(game: str, *, root: Path, quick: bool = False, echo=print) -> list:
    """One row per composite command of ``game`` (``measure="composite"``): the command's games and seconds, and
    in ``extra`` the reference simulate's seconds and games/s and the ratio."""

    rows = []
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        # warm: compile or load the kernels once and start nothing else (the timed runs each start their own)
        _cli(["simulate", "--game", game, "--players", "2", "--strategies", ",".join(FIELD[game][:2]), "--games",
              "8", "--n-jobs", "1", "--out", str(d / "warm"), "--no-progress"], root)
        for command, args in CASES[game].items():
            if quick and command not in ("sweep", "experiment"):
                continue
            out = d / command
            extra = ["--n-jobs", str(N_JOBS), "--out", str(out), "--no-progress"]
            if command in NO_REPORT:
                extra += ["--no-report"]  # its report is timed on its own (REPORT_SEPARATELY), not as play
            secs = _cli([command, "--game", game, *args, *extra], root)
            report_secs = _cli(["report", str(out), "--no-progress"], root) if command in REPORT_SEPARATELY else None
            games = games_played(command, out)
            total = sum(games.values())
            ref = reference_runs(game, command, games, d, root)
            ratio = (total / ref) / (total / secs)
            rows.append(Row(game, "composite", max(games), 0, N_JOBS, True, total, secs,
                            {"command": command, "args": " ".join(args), "by_players": {str(k): v for k, v in games.items()},
                             "ref_seconds": ref, "ref_gps": total / ref, "ratio": ratio,
                             "load": round(os.getloadavg()[0], 1), "report_seconds": report_secs}))
            echo(f"  {game} {command}: {total:,} games {secs:.1f} s ({total / secs:,.0f} games/s); simulate "
                 f"{ref:.1f} s ({total / ref:,.0f} games/s): {ratio:.2f}x")
    return rows


def render(rows: list, game: str, when: str = "") -> list[str]:
    """Markdown lines of the ``composite`` part of ``game``: one row per command with its reference and ratio."""
    rs = [r for r in rows if r.measure == "composite" and r.game == game]
    if not rs:
        return []
    out = ["", f"### {game}: composite commands against simulate on the same games (n_jobs {rs[0].n_jobs}){when}", "",
           "Each command once from the command line (a fresh process: start-up, workers and its analysis included; "
           "robustness, balance, tune and sweep with their reports, experiment and tournament with `--no-report`, as "
           "`simulate` writes none; the experiment's report then timed on its own with `meeplelab report OUT`, in the "
           "last column), then `simulate` playing the same number of games with "
           "the same strategies at the same seat counts (rotated seating, every log written, one run per seat "
           "count). Ratio: simulate's games/s over the command's (at most 1.5x).", "",
           "| command | arguments | games (by seats) | seconds | games/s | simulate seconds | simulate games/s | "
           "ratio | within 1.5x | load | report seconds (separate) |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rs:
        x = r.extra
        by = ", ".join(f"{int(k)}: {v:,}" for k, v in sorted(x["by_players"].items()))
        out.append(f"| `{x['command']}` | `{x['args']}` | {r.games:,} ({by}) | {r.seconds:.1f} | {r.gps:,.0f} | "
                   f"{x['ref_seconds']:.1f} | {x['ref_gps']:,.0f} | {x['ratio']:.2f}x | "
                   f"{'yes' if x['ratio'] <= TARGET_RATIO else '**no**'} | {x.get('load', '-')} | "
                   + (f"{x['report_seconds']:.1f} |" if x.get("report_seconds") is not None else "- |"))
    return out
