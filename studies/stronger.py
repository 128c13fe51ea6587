"""``meeplelab stronger``: do a report's headline conclusions hold for stronger players?

Every conclusion of a balance report holds among the strategies played. This study re-measures the headline
ones with the **strong field** (:data:`STRONG`: the game's tuned heuristic preset, ``docs/presets/GAME-heuristic-
tuned.toml``, the strongest rung of the skill ladder a 4-seat study can afford; docs/strategies.md) and puts
each beside the scripted-field figure it re-checks:

- **seat spread per player count**: the field runs' best minus worst seat (rotated seats) against a mirror of
  the strong player at that count (every seat the same player, so any difference is the rules');
- **the top strategy's edge**: the scripted field's top strategy (highest rotated win rate at the largest
  count) minus the fair share, against the same strategy among strong players (it in one seat, the strong
  player in the others, rotated);
- **every experiment given** (Abjure by Cycle, one more Coffee, citing, citation payoffs...): played again on
  the same seed with the same axis, every field entry replaced by the strong player (the focal player keeps
  its plan; a rule-parameter roster is all strong players), the focal win-rate effect (a rule parameter: every
  seat's pooled VP effect) against the scripted one.

Each line says **holds** (the difference of the two estimates is not resolved), **changes by X [interval]**
(resolved; the two are independent measurements, so the interval is of the difference of independent
estimates, normal approximation from the two 95% intervals) or **reverses** (both resolved, opposite signs),
judged as the report judges it (:func:`judged`): a difference under the metric's resolution is never a change, a
focal experiment's line shows the focal plan's base rate, and a focal plan on the win-rate floor (under 5% in its
control arm at a rung) is judged by its VP effect, and its line says so.

Outputs: ``OUT/stronger.json`` (every figure), ``OUT/stronger.md`` (the lines), the run folders it played
(``OUT/mirror-Pp``, ``OUT/top-Pp``, ``OUT/<experiment>``); ``meeplelab report RUNS --stronger OUT`` puts the
lines in the balance report's section "Does it hold for stronger players?".

``stronger.json`` holds the study's status (running, interrupted, failed, complete) and its request (the game,
the sources as absolute paths, ``--games``, ``--mirror-games``, ``--seed``). ``--resume`` completes an
interrupted study: the request must be the same (the first difference named), finished runs and experiments are
kept and the others completed where they stopped, so the tables are those of an uninterrupted study, byte for
byte. ``--overwrite`` builds the new study beside the earlier one and replaces it (its files and the run and
experiment folders in it) once complete (:func:`meeplelab.play.runfolder.study_folder`).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Callable, Sequence

from meeplelab.analysis.experiment import _games, effects, paired
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.seats import games_frame, seat_spread, seed_clusters, strategy_rates
from meeplelab.analysis.stats import paired_shares
from meeplelab.analysis.stronger import intro
from meeplelab.analysis.tables import canonical_json
from meeplelab.play.config import RunConfig
from meeplelab.play.experiment import plan_experiment, read_experiment, run_experiment
from meeplelab.play.plan import validated
from meeplelab.play.runner import simulate
from meeplelab.sim.registry import get_spec
from meeplelab.strategies.registry import make_strategy
from meeplelab.studies.ladder import default_tuned

import polars as pl

from meeplelab.analysis.mechanics import KEY as MECHANICS
from meeplelab.analysis.mechanics import forced_line
from meeplelab.analysis.stronger import FILE, compare, enrich, line, rung_folder
from meeplelab.studies.mechanics import forced_checks
from meeplelab.studies.restricted_questions import restricted_answers
from meeplelab.analysis.restricted_answers import KEY as RESTRICTED
from meeplelab.analysis.restricted_answers import answer_line
from meeplelab.play import runfolder as rf
from meeplelab.sim.core.errors import ConfigError, RunFolderError

def strong_player(game: str) -> str:
    """The strong field's player of ``game``: ``heuristic:preset=<project>/docs/presets/<game>-heuristic-tuned.toml``.

    Raises:
        ConfigError: the game has no tuned preset in the project.
    """

    p = default_tuned(game)
    if p is None:
        raise ConfigError(f"game {game!r} has no tuned heuristic preset (docs/presets/{game}-heuristic-tuned.toml): "
                          "tune one with meeplelab tune first")
    return f"heuristic:preset={p}"


#: what the strong field is, in words (reports)
STRONG = "the tuned heuristic (docs/presets/GAME-heuristic-tuned.toml)"

#: the rungs of the skill ladder a study measures by default, weakest first (``--rungs``): the heuristic with its
#: default weights and the tuned heuristic; the scripted field is the rung below them all
DEFAULT_RUNGS = ("heuristic", "tuned")


def ladder_rungs(game: str, rungs: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """``[(label, strategy id)]`` of the rungs ``rungs`` names, weakest first (the last is the strongest, the
    strong field of every line): ``tuned`` is the game's tuned heuristic (:func:`strong_player`, label ``tuned
    heuristic``), ``heuristic`` the heuristic with its default weights, any other name a strategy id of the game
    (its own label).

    Raises:
        ConfigError: no rung, a rung named twice, an unknown strategy id, or ``tuned`` for a game without a preset.
    """
    names = list(DEFAULT_RUNGS if rungs is None else rungs)
    if not names:
        raise ConfigError("--rungs: name at least one rung (allowed: heuristic, tuned or a strategy id)")
    if len(set(names)) < len(names):
        raise ConfigError(f"--rungs {','.join(names)}: a rung is named twice; allowed: each rung once, weakest first")
    out = []
    for r in names:
        if r == "tuned":
            out.append(("tuned heuristic", strong_player(game)))
            continue
        try:
            make_strategy(game, r)
        except ConfigError as e:
            raise ConfigError(f"--rungs {r!r}: {e}; allowed: heuristic, tuned or a strategy id of {game}") from None
        out.append((r, r))
    return out


def rung_words(game: str, rungs: list[tuple[str, str]]) -> str:
    """The strongest rung in words (every line's strong field): :data:`STRONG` for the tuned heuristic, else its
    label and strategy id."""
    label, sid = rungs[-1]
    return STRONG.replace("GAME", game) if label == "tuned heuristic" else f"the {label} ({sid})"


# ----------------------------------------------------------------------------------------- sources
def _sources(paths: Sequence[Path | str]) -> tuple[list[Path], list[Path]]:
    runs, exps = [], []
    for p in map(Path, paths):
        if (p / "experiment.json").is_file():
            exps.append(p)
        elif (p / rf.MANIFEST).is_file():
            runs.append(p)
        elif p.is_dir() and any((q / rf.MANIFEST).is_file() for q in p.iterdir() if q.is_dir()):
            runs += sorted(q for q in p.iterdir() if (q / rf.MANIFEST).is_file())  # runs/gt holding 2p, 3p, 4p
        else:
            raise ConfigError(f"--from {str(p)!r}: not a run folder, a folder of run folders or an experiment folder")
    return runs, exps


def _seat_pair(df: pl.DataFrame, players: int, b: int, w: int) -> dict:
    """Seat ``b`` minus seat ``w`` (1-based) in win share, points, paired game by game (Agresti-Min), the interval
    over the game seeds (:func:`meeplelab.analysis.stats.cluster_means`)."""

    sub = df.filter(pl.col("players") == players)
    idx = ["run", "game"] + (["game_seed"] if "game_seed" in sub.columns else [])
    wide = sub.pivot(on="seat", index=idx, values="win_share", aggregate_function="sum").sort("run", "game")
    r = paired_shares(wide[str(b - 1)].to_numpy(), wide[str(w - 1)].to_numpy(), cluster=seed_clusters(wide))
    return {"est": r["est"] * 100, "low": r["low"] * 100, "high": r["high"] * 100, "n": int(r["n"])}


def _spread(df: pl.DataFrame, players: int) -> dict:

    r = seat_spread(df.filter(pl.col("players") == players)).row(0, named=True)
    return {"est": r["spread"], "low": r["spread_low"], "high": r["spread_high"], "n": int(r["games"]),
            "best_seat": int(r["best_seat"]) + 1, "worst_seat": int(r["worst_seat"]) + 1}


def _play(cfg, draw: bool, resume: bool) -> Path:
    """Play run ``cfg`` into ``cfg.out``; with ``resume`` a finished run there is kept and an unfinished one
    completed."""

    folder = Path(cfg.out)
    has = (folder / rf.MANIFEST).is_file()
    if resume and has and rf.read_manifest(folder).get("status") == "complete":
        return folder
    simulate(cfg, resume=resume and has, progress=draw, label=f"stronger {folder.name}")
    return folder


def _strong_experiment(src: Path, dest: Path, strong: str, games: int, execution: dict, draw: bool,
                       resume: bool = False) -> Path:
    """Play experiment ``src`` again into ``dest`` with the strong field (module docstring), from its config.toml;
    with ``resume`` a finished one in ``dest`` is kept and an unfinished one completed."""

    try:
        cfg = tomllib.loads((src / "config.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise RunFolderError(f"experiment {str(src)!r}: its config.toml cannot be read ({e}): run it again") from None
    has = (dest / "experiment.json").is_file()
    if resume and has and read_experiment(dest).get("status") == "complete":
        return dest
    players = int(cfg["players"])
    field = [strong] * len(cfg["strategies"])
    # the focal player keeps its strategy (an experiment refuses a field repeating the focal id: the seat orders
    # of every arm must be the same), so a treatment measures the resource's value for that plan among strong
    # players; a rule-parameter roster is all strong players
    treat, control, vary = cfg.get("treat"), cfg.get("control"), cfg.get("vary")
    base = RunConfig(game=cfg["game"], players=players, strategies=tuple(field), games=games,
                     seed=int(cfg.get("seed", 0)), seating=cfg.get("seating", "rotate"),
                     params=dict(cfg.get("params") or {}), out=str(dest), **execution)  # checked by plan_experiment
    arms = plan_experiment(base, vary=vary, control=control, treat=treat)
    run_experiment(arms, dest, resume=resume and has, progress=draw)
    return dest


def _pooled_vp(folder: Path) -> list[dict]:
    """Per arm of a rule-parameter experiment: the mean VP of a game's seats, arm minus control, paired game by
    game (the seats of one game are not independent, so each game is one paired difference)."""

    meta = read_experiment(folder)
    ctrl = _games(folder / meta["arms"][0]["folder"])
    out = []
    for a in meta["arms"][1:]:
        per = lambda g: g.group_by("game", maintain_order=True).agg(pl.col("vp").cast(pl.Float64).mean())  # noqa: E731
        j = per(_games(folder / a["folder"])).join(per(ctrl), on="game", suffix="_c").sort("game")
        r = paired(j["vp"].to_numpy(), j["vp_c"].to_numpy())
        out.append({"arm": a["label"], "est": r["est"], "low": r["low"], "high": r["high"], "n": int(r["n"])})
    return out


def _focal_win(folder: Path) -> list[dict]:

    df = effects(folder).filter(pl.col("metric") == "win")
    return [{"arm": r["arm"], "est": r["est"], "low": r["low"], "high": r["high"], "n": int(r["n"])}
            for r in df.iter_rows(named=True)]


def _experiment_checks(src: Path, strong_dir: Path) -> list[dict]:

    meta = read_experiment(src)
    focal = meta.get("focal_position") is not None
    a, b = (_focal_win(src), _focal_win(strong_dir)) if focal else (_pooled_vp(src), _pooled_vp(strong_dir))
    ctrl = meta["arms"][0]
    what = (f"{ctrl['change'].get('strategy', '')}" if focal else
            f"{ctrl['change'].get('param')}={ctrl['change'].get('value')}")
    unit = "focal player's win rate (points)" if focal else "a game's mean final VP"
    strong_meta = read_experiment(strong_dir)
    labels = {x["label"]: y["label"] for x, y in zip(meta["arms"], strong_meta["arms"])}
    by = {r["arm"]: r for r in b}
    checks = []
    for r in a:
        t = by.get(labels.get(r["arm"], r["arm"]))
        if t is None:
            continue
        verdict, diff = compare(r, t)
        checks.append({"kind": "experiment", "source": src.name, "arm": r["arm"],
                       "conclusion": f"{src.name}: {r['arm']} against {what}, {unit}",
                       "scripted": r, "strong": t, "verdict": verdict, "difference": diff})
    return checks


def _seat_checks(df: pl.DataFrame, out: Path, game: str, strong: str, mirror_games: int, seed: int,
                 execution: dict, draw: bool, resume: bool, say: Callable[[str], None]) -> list[dict]:
    """Per player count of the field runs (``df``: their games frame): the seat spread against a strong mirror."""

    checks = []
    for p in sorted(set(df["players"].to_list())):
        say(f"mirror of the strong player at {p} seats ({mirror_games:,} games)")
        folder = _play(validated(RunConfig(game=game, players=p, strategies=(strong,), games=mirror_games, seed=seed,
                                 out=str(out / f"mirror-{p}p"), **execution)), draw, resume)
        mirror = games_frame(load_runs([folder]))
        spread = _spread(df, p)
        b, w = spread["best_seat"], spread["worst_seat"]
        s, t = _seat_pair(df, p, b, w), _seat_pair(mirror, p, b, w)
        verdict, diff = compare(s, t)
        ms = _spread(mirror, p)
        checks.append({"kind": "seat spread", "players": p, "spread": spread, "strong_spread": ms,
                       "conclusion": f"seat {b} minus seat {w} at {p} seats (the scripted field's best and worst "
                                     f"seats, win rate points; the strong mirror's best is seat {ms['best_seat']}, "
                                     f"worst seat {ms['worst_seat']}, spread {ms['est']:.1f} [{ms['low']:.1f}, "
                                     f"{ms['high']:.1f}])",
                       "scripted": s, "strong": t, "verdict": verdict, "difference": diff})
    return checks


def _top_check(df: pl.DataFrame, out: Path, game: str, strong: str, games: int, seed: int, execution: dict,
               draw: bool, resume: bool, say: Callable[[str], None]) -> dict:
    """The scripted field's top strategy at its largest player count (``df``: the field runs' games frame) against
    the same strategy among strong players."""

    p = max(df["players"].to_list())
    rates = strategy_rates(df.filter(pl.col("players") == p)).sort("est", descending=True)
    top = rates.row(0, named=True)
    fair = 100.0 / p
    s = {"est": top["est"] * 100 - fair, "low": top["low"] * 100 - fair, "high": top["high"] * 100 - fair,
         "n": int(top["games"])}
    say(f"{top['strategy']} among strong players at {p} seats ({games:,} games)")
    folder = _play(validated(RunConfig(game=game, players=p, strategies=(top["strategy"],) + (strong,) * (p - 1),
                             games=games, seed=seed, seating="rotate", out=str(out / f"top-{p}p"),
                             **execution)), draw, resume)
    r = strategy_rates(games_frame(load_runs([folder]))).filter(pl.col("strategy") == top["strategy"]).row(0, named=True)
    t = {"est": r["est"] * 100 - fair, "low": r["low"] * 100 - fair, "high": r["high"] * 100 - fair,
         "n": int(r["games"])}
    verdict, diff = compare(s, t)
    return {"kind": "top strategy", "players": p, "strategy": top["strategy"],
            "conclusion": f"{top['strategy']}'s edge at {p} seats (its win rate minus the fair "
                          f"{fair:.0f}%, points; scripted: among the field played, strong: against "
                          f"{p - 1} strong player{'s' if p > 2 else ''})",
            "scripted": s, "strong": t, "verdict": verdict, "difference": diff}


def _checked_sources(game: str, sources: Sequence[Path | str], rungs: Sequence[str] | None = None):
    """``(run folders, the runs loaded, experiment folders, the ladder's rungs)`` of ``sources``, all of ``game``
    (a folder given twice, unreadable parts: refused here, by the load), and ``rungs`` (:func:`ladder_rungs`).

    Raises:
        ConfigError: no source, a source that is not a run or experiment folder, or one of another game; a bad
            rung, or ``tuned`` for a game without a tuned preset (:func:`ladder_rungs`).
    """

    runs_f, exps = _sources(list(sources))
    if not runs_f and not exps:
        raise ConfigError("--from: give the scripted field's run folders and/or experiment folders")
    get_spec(game)  # an unknown game is named with the allowed ones
    ladder = ladder_rungs(game, rungs)
    runs = load_runs(runs_f) if runs_f else None
    if runs is not None:
        other = sorted({m["game"]["name"] for m in runs.manifests.values()} - {game})
        if other:
            raise ConfigError(f"--from: runs of {other[0]!r}, not {game!r}")
    for src in exps:
        if read_experiment(src)["game"] != game:
            raise ConfigError(f"--from {str(src)!r}: an experiment of {read_experiment(src)['game']!r}, not {game!r}")
    return runs_f, runs, exps, ladder


#: the request's keys as the options a resume must repeat
_OPTIONS = {"game": "--game", "sources": "--from", "games": "--games", "mirror_games": "--mirror-games",
            "seed": "--seed", "rungs": "--rungs"}


def _open(out: Path, request: dict, *, overwrite: bool = False, resume: bool = False) -> list[Path]:
    """Accept ``out`` for the study ``request`` (module docstring: ``--resume``, ``--overwrite``; the ``check`` of
    :func:`meeplelab.play.runfolder.study_folder`), nothing changed. Returns, with ``overwrite``, the entries of the
    earlier study (its files, and the runs and experiments it played), which the new one replaces.

    Raises:
        RunFolderError: ``out`` is not empty and not a stronger-players study; a study without ``overwrite`` or
            ``resume``; (``resume``) nothing to resume, or a saved request that differs (the first difference).
    """
    entries = rf.folder_entries(out, resume=resume, overwrite=overwrite)
    if resume:
        if not (out / FILE).is_file():
            raise RunFolderError(f"nothing to resume: {str(out)!r} holds no stronger-players study (no {FILE})")
        old = rf.read_state(out / FILE, "a saved stronger-players study").get("request") or {}
        for k, flag in _OPTIONS.items():
            if old.get(k) != request[k]:
                was = " ".join(old[k]) if k == "sources" and k in old else old.get(k, "(not saved)")
                now = " ".join(request[k]) if k == "sources" else request[k]
                raise RunFolderError(f"cannot resume: the stronger-players study in the folder has {flag} {was}, "
                                     f"this study has {flag} {now}: use the same options or --overwrite")
        return []
    if not entries:
        return []
    if not (out / FILE).is_file():
        raise RunFolderError(f"output folder {str(out)!r} is not empty and not a stronger-players study: "
                             "choose a new --out")
    if not overwrite:
        raise RunFolderError(f"output folder {str(out)!r} holds a stronger-players study: use --resume to complete "
                             "it, --overwrite to replace it or a new --out")
    # the earlier study: its files, and the runs and experiments it played
    return [e for e in entries if e.name in (FILE, "stronger.md", rf.SETTINGS)
            or (e.is_dir() and ((e / rf.MANIFEST).is_file() or (e / "experiment.json").is_file()
                                or e.name.endswith("-restricted")  # restricted-play arms (restricted_questions)
                                or e.name.startswith("rung-")))]  # the lower rungs' runs (rung_folder)


def run_stronger(game: str, sources: Sequence[Path | str], out: Path | str, *, games: int = 800,
                 mirror_games: int = 1200, seed: int = 0, n_jobs: int = -1, batch_size: int = 1024,
                 backend: str = "loky", scheduler: str | None = None, overwrite: bool = False,
                 resume: bool = False, progress: Callable[[str], None] | None = None, draw: bool = False,
                 settings: str | None = None, rungs: Sequence[str] | None = None) -> dict:
    """Re-measure the headline conclusions of ``sources`` with the strong field (module docstring).

    Args:
        game: the game of every source.
        sources: the scripted field's run folders (or a folder holding them: ``runs/gt`` with ``2p``, ``3p``,
            ``4p``) and experiment folders (``runs/gt-abjure``), as the README main job writes them.
        out: the study folder (created; ``overwrite`` replaces a study there, ``resume`` completes it).
        games: games per arm of each strong experiment and of each top-strategy run (both seat orders sets).
        mirror_games: games of each strong mirror (one per player count of the field runs).
        seed: run seed of the strong runs (the experiments keep their own).
        n_jobs, batch_size, backend, scheduler: where and how games are played (results do not depend on them).
        progress: called with a line per step; ``draw``: progress bars.
        settings: the command's resolved settings TOML, written as ``OUT/config.toml``.
        rungs: the skill ladder's rungs above the scripted field, weakest first (:func:`ladder_rungs`; default
            :data:`DEFAULT_RUNGS`): the last is the strong field of every line; each lower rung plays the mirrors,
            the top strategy's run and the experiments again (``OUT/rung-<label>/``), and every check gains its
            figure there (``ladder``).

    Returns:
        ``{"game", "strong", "rungs", "checks": [...], "lines": [...]}`` (also ``OUT/stronger.json``; the lines in
        ``OUT/stronger.md``).

    Raises:
        ConfigError: a source that is not a run or experiment folder, of another game, or no source at all;
            bad game counts.
        RunFolderError: ``out`` holds something else, or a study without ``overwrite`` or ``resume``; (``resume``)
            nothing to resume or a study of other options.
        KeyboardInterrupt: after marking ``stronger.json`` ``interrupted`` (other errors: ``failed``).
    """
    if games < 2 or mirror_games < 2:
        raise ConfigError(f"--games {games} / --mirror-games {mirror_games}: each must be >= 2")
    runs_f, runs, exps, ladder = _checked_sources(game, sources, rungs)
    out = Path(out)
    request = {"game": game, "sources": [str(Path(x).resolve()) for x in sources], "games": games,
               "mirror_games": mirror_games, "seed": seed, "rungs": [sid for _, sid in ladder]}
    check = lambda folder, **kw: _open(folder, request, **kw)  # noqa: E731
    with rf.study_folder(out, marker=FILE, check=check, resume=resume, overwrite=overwrite) as work:
        return _study(work, game, sources, request, runs_f, runs, exps, ladder, resume=resume, draw=draw,
                      say=progress or (lambda s: None), settings=settings,
                      execution={"n_jobs": n_jobs, "batch_size": batch_size, "backend": backend, "scheduler": scheduler})


def _rung_checks(runs, exps, out: Path, game: str, sid: str, label: str, request: dict, execution: dict, draw: bool,
                 resume: bool, say: Callable[[str], None]) -> list[dict]:
    """The seat, top-strategy and experiment checks of a lower rung of the ladder, ``sid`` the strong player, its
    runs in ``out`` (the strongest rung's forced mechanics and restricted play are not repeated)."""
    out.mkdir(parents=True, exist_ok=True)
    said = lambda m: say(f"{m}, rung {label}")  # noqa: E731
    games, mirror_games, seed = request["games"], request["mirror_games"], request["seed"]
    checks: list[dict] = []
    if runs is not None:
        df = games_frame(runs)
        checks += _seat_checks(df, out, game, sid, mirror_games, seed, execution, draw, resume, said)
        checks.append(_top_check(df, out, game, sid, games, seed, execution, draw, resume, said))
    for src in exps:
        said(f"experiment {src.name} with the strong field ({games:,} games per arm)")
        checks += _experiment_checks(src, _strong_experiment(src, out / src.name, sid, games, execution, draw, resume))
    return checks


def _check_key(c: dict) -> tuple:
    return (c["kind"], c.get("players"), c.get("source"), c.get("arm"))


def _attach(checks: list[dict], lower: list[dict], label: str) -> None:
    """Put each lower-rung check's strong figure beside the same check of the strongest rung, as an entry
    ``{"rung": label, est, low, high, n}`` of its ``ladder`` (weakest rung first)."""
    by = {_check_key(c): c for c in lower}
    for c in checks:
        low = by.get(_check_key(c))
        if low is not None:
            c.setdefault("ladder", []).append({"rung": label, **low["strong"]})


def _study(out: Path, game: str, sources, request: dict, runs_f, runs, exps, ladder: list[tuple[str, str]], *,
           resume: bool, draw: bool, say: Callable[[str], None], settings: str | None, execution: dict) -> dict:
    """:func:`run_stronger` in the folder ``out`` it is built in."""

    games, mirror_games, seed = request["games"], request["mirror_games"], request["seed"]
    strong, words = ladder[-1][1], rung_words(game, ladder)
    out.mkdir(parents=True, exist_ok=True)
    state = {"game": game, "status": "running", "request": request}
    rf.write_atomic(out / FILE, json.dumps(state, indent=1).encode())  # ours from now on
    rf.write_settings(out, settings)
    checks: list[dict] = []
    forced: list[dict] = []  # the mechanics strong players skip, forced (studies/mechanics.py)
    asked: list[dict] = []  # the experiments' questions asked by restricted play (studies/restricted_questions.py)
    try:
        if runs is not None:
            df = games_frame(runs)
            checks += _seat_checks(df, out, game, strong, mirror_games, seed, execution, draw, resume, say)
            checks.append(_top_check(df, out, game, strong, games, seed, execution, draw, resume, say))
            forced = forced_checks(runs, {p: out / f"mirror-{p}p" for p in sorted(set(df["players"].to_list()))}, out,
                                   game, strong, games, seed, execution, lambda c: _play(c, draw, resume), say)
        for src in exps:
            say(f"experiment {src.name} with the strong field ({games:,} games per arm)")
            dest = _strong_experiment(src, out / src.name, strong, games, execution, draw, resume)
            checks += _experiment_checks(src, dest)
            a = restricted_answers(src, out, strong, words, games, seed, execution,
                                   lambda c: _play(c, draw, resume), say)
            asked += [a] if a is not None else []
        for label, sid in ladder[:-1]:  # the lower rungs: the same checks, each figure put beside the strong one
            lower = _rung_checks(runs, exps, out / rung_folder(label), game, sid, label, request, execution, draw,
                                 resume, say)
            _attach(checks, lower, label)
    except BaseException as e:
        state["status"] = "interrupted" if isinstance(e, KeyboardInterrupt) else "failed"
        rf.write_atomic(out / FILE, json.dumps(state, indent=1).encode())
        raise
    result = judged({"game": game, "status": "complete", "strong": strong,
                     "rungs": [{"label": label, "strategy": sid} for label, sid in ladder],
                     "runs": sorted(str(Path(r).resolve()) for r in runs_f), "strong_words": words, "games": games,
                     "mirror_games": mirror_games, "seed": seed, "sources": [str(Path(s)) for s in sources],
                     "request": request, "checks": checks, MECHANICS: forced, RESTRICTED: asked}, out)
    rf.write_atomic(out / FILE, json.dumps(canonical_json(result), indent=1, default=float).encode())
    rf.write_atomic(out / "stronger.md", markdown(result).encode())
    return result


def judged(result: dict, out: Path) -> dict:
    """The study ``result`` (its checks as measured) with every check judged as the report judges it
    (:func:`meeplelab.analysis.stronger.enrich`: the metric's resolution; a focal experiment's base rate and VP
    effect read from the run folders in ``out``, and on the win-rate floor its verdict is the VP effect's) and
    ``lines``, one per check in the study's own ids (:func:`meeplelab.analysis.stronger.line`), which the command
    prints and ``stronger.md`` lists. A check whose folders are not in ``out`` keeps the figures it carries."""
    d = enrich(result, out)
    checks = [{k: v for k, v in c.items() if k != "line"} for c in d["checks"]]  # the report words its own
    return {**d, "checks": checks, "lines": [line(c) for c in checks]}


def markdown(result: dict) -> str:
    """``OUT/stronger.md`` of a judged study (:func:`judged`): the intro, the lines, the mechanics strong players
    skip, forced, and each experiment's questions asked by restricted play."""
    md = [f"# Does it hold for stronger players? {result['game']}", "", intro(result), ""]
    md += [f"- {x}" for x in result["lines"]]
    forced, asked = result.get(MECHANICS) or [], result.get(RESTRICTED) or []
    md += ["", "## Mechanics strong players skip, forced", ""] + [f"- {forced_line(c)}" for c in forced] if forced else []
    for a in asked:  # meeplelab report EXPERIMENT --stronger OUT puts them in the experiment's report
        md += ["", f"## {a['source']} asked by restricted play", ""] + [f"- {answer_line(r)}" for r in a["rows"]]
    return "\n".join(md) + "\n"


__all__ = ["DEFAULT_RUNGS", "STRONG", "judged", "ladder_rungs", "markdown", "run_stronger", "rung_words",
           "strong_player"]
