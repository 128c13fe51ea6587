"""meeplelab command line (typer): simulate, report, replay, games, strategies, params, robustness, balance.

Every bad input prints one line ``error: ...`` naming the bad value and what is allowed, and
exits with code 2. Ctrl-C during simulate, sweep or tournament marks the run folder's manifest (and a
sweep's sweep.json) ``interrupted``, prints one line saying how to complete it and exits with code
130; SIGTERM is handled the same way but exits with code 143. ``--resume`` completes a run or sweep.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Callable, List, Optional

import typer

# typer may vendor click; take its exception base from typer's own BadParameter
_ClickException = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, help="Monte Carlo strategy analysis for Unconscious Mind and Galileo's Truth.")


def _fail(msg: str, code: int = 2) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(code)


def user_errors(fn: Callable) -> Callable:
    """Turn UserError into a one-line message and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*a, **kw):
        from sim.core.errors import UserError

        try:
            return fn(*a, **kw)
        except UserError as e:
            _fail(str(e))

    return wrapper


def _strategies(s: Optional[str]) -> Optional[tuple[str, ...]]:
    """``--strategies`` as ids: ``heuristic:vp=1,coins=0.3,random`` -> two ids (see split_strategies)."""
    from sim.config import split_strategies

    return None if s is None else split_strategies(s)


def _interrupted(e: KeyboardInterrupt, what: str) -> None:
    """One line on stderr, then exit 130 (Ctrl-C) or 143 (SIGTERM)."""
    from sim.runner import interrupt_exit_code

    typer.echo(f"interrupted: {what}", err=True)
    raise typer.Exit(interrupt_exit_code(e))


@app.command()
@user_errors
def simulate(
    game: Optional[str] = typer.Option(None, "--game", help="Game id: unconscious-mind or galileos-truth."),
    players: Optional[int] = typer.Option(None, "--players", help="Seats per game (default 4)."),
    strategies: Optional[str] = typer.Option(None, "--strategies", help="One strategy id per seat, comma separated, or one for all seats (default random); arguments follow the id: heuristic:vp=1,finish=0,random."),
    games: Optional[int] = typer.Option(None, "--games", help="Number of games (default 2000)."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Run seed (default 0)."),
    batch_size: Optional[int] = typer.Option(None, "--batch-size", help="Games per batch and per part file (default 1024)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Games per task and part file (default: batches filling at least 1024 games)."),
    n_jobs: Optional[int] = typer.Option(None, "--n-jobs", help="Parallel workers, -1 = all cores (default -1)."),
    backend: Optional[str] = typer.Option(None, "--backend", help="loky (default), threading or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address for --backend dask."),
    out: Optional[Path] = typer.Option(None, "--out", help="Run folder to write."),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Parameter override name=value (repeatable)."),
    content: Optional[Path] = typer.Option(None, "--content", help="Folder of content files replacing the packaged ones."),
    config: Optional[Path] = typer.Option(None, "--config", help="Run config TOML (e.g. RUN/run.toml); options given here override it."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted run in --out."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the run in --out."),
    no_turns: bool = typer.Option(False, "--no-turns", help="Do not write the turns table."),
    no_events: bool = typer.Option(False, "--no-events", help="Do not write the events table."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """Play games and write a run folder (games/, turns/, events/ Parquet, manifest.json, run.toml)."""
    from sim.config import RunConfig, load_toml
    from sim.core.params import parse_set_options
    from sim.runner import simulate as run
    from sim.runner import terminate_as_interrupt

    if config is None and resume and game is None and out is not None and (out / "run.toml").is_file():
        config = out / "run.toml"  # --resume alone: the run's own config
    base: dict = load_toml(config) if config is not None else {}
    given = {"game": game, "players": players, "strategies": _strategies(strategies), "games": games, "seed": seed,
             "batch_size": batch_size, "chunk_size": chunk_size, "n_jobs": n_jobs, "backend": backend, "scheduler": scheduler,
             "out": str(out) if out is not None else None, "content": str(content) if content is not None else None}
    for k, v in given.items():
        if v is not None:
            base[k] = v
    if set_:
        base["params"] = {**dict(base.get("params") or {}), **parse_set_options(set_)}
    if no_turns:
        base["log_turns"] = False
    if no_events:
        base["log_events"] = False
    defaults = {"players": 4, "strategies": ("random",), "games": 2000, "seed": 0, "batch_size": 1024, "n_jobs": -1}
    for k, v in defaults.items():
        base.setdefault(k, v)
    if "game" not in base:
        _fail("--game is required: unconscious-mind or galileos-truth (see 'meeplelab games')")
    if "out" not in base:
        _fail("--out is required: the run folder to write")
    cfg = RunConfig.from_dict(base)
    cfg.validated()  # bad input is reported before anything else is said
    if not _kernels_cached(cfg.game):
        typer.echo(f"compiling the {cfg.game} rule kernels (first run on this machine: a few minutes; cached after)",
                   err=True)
    try:
        with terminate_as_interrupt():
            summary = run(cfg, resume=resume, overwrite=overwrite, progress=progress and sys.stderr.isatty())
    except KeyboardInterrupt as e:
        _interrupted(e, f"the run in {cfg.out} is incomplete; complete it with --resume")
    verb = "completed" if summary.resumed else "wrote"
    typer.echo(f"{verb} {summary.games} games of {cfg.game} to {summary.out} "
               f"({summary.games_played_now} played now in {summary.seconds:.1f} s, {summary.games_per_second:,.0f} games/s)")


def _kernels_cached(game: str) -> bool:
    """True when numba's on-disk cache holds a current compile of every rule kernel of the game.

    Reads each cached dispatcher's index (numba checks it against the source file's stamp), so a
    compile that was killed part-way, or stale cache files of an older source, count as not cached."""
    import importlib

    from sim.registry import get_game_class

    try:
        mod = sys.modules[get_game_class(game).__module__]
    except Exception:  # unknown game: the run reports it
        return True
    try:
        rules = importlib.import_module(mod.__name__.rsplit(".", 1)[0] + ".rules")
    except ImportError:
        rules = mod
    found = False
    for v in list(vars(rules).values()):
        cache_file = getattr(getattr(v, "_cache", None), "_cache_file", None)
        if cache_file is None or getattr(getattr(v, "py_func", None), "__module__", None) != rules.__name__:
            continue
        if getattr(v, "targetoptions", {}).get("no_cpython_wrapper"):
            continue  # an inner helper: compiled (and cached) with the kernels that call it
        found = True
        try:
            if not cache_file._load_index():
                return False
        except Exception:  # numba internals differ: fall back to the presence of index files
            return any((Path(rules.__file__).resolve().parent / "__pycache__").glob("*.nbi"))
    return found or any((Path(mod.__file__).resolve().parent / "__pycache__").glob("*.nbi"))


@app.command()
@user_errors
def report(
    runs: List[Path] = typer.Argument(..., help="Run folder(s)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Report folder (default RUN/report)."),
) -> None:
    """Write a balance report (HTML and Markdown with charts) for one or more run folders."""
    from analysis.report import build_report

    from analysis.load import load_runs
    from analysis.metrics import games_needed_summary

    dest = out if out is not None else runs[0] / "report"
    page = build_report(runs, dest)
    need = games_needed_summary(load_runs(runs, check=False).games)
    typer.echo(f"wrote {page}")
    typer.echo(f"games needed: {need['games_for_rate']:,} per group for a win rate +-{need['rate_width'] * 50:.0f} point; "
               f"{need['games_for_vp']:,} seat-results for mean VP +-{need['vp_width'] / 2:.1f} (VP sd {need['vp_sd']:.1f})")


@app.command()
@user_errors
def sweep(
    game: str = typer.Option(..., "--game", help="Game id."),
    vary: List[str] = typer.Option(..., "--vary", help="name=v1,v2,... (repeatable; the cartesian product is run)."),
    players: int = typer.Option(4, "--players", help="Seats per game."),
    strategies: str = typer.Option("random", "--strategies", help="One strategy id per seat, comma separated, or one for all."),
    games: int = typer.Option(1000, "--games", help="Games per variant."),
    seed: int = typer.Option(0, "--seed", help="Seed shared by every variant (common random numbers)."),
    batch_size: int = typer.Option(1024, "--batch-size"),
    n_jobs: int = typer.Option(-1, "--n-jobs"),
    backend: str = typer.Option("loky", "--backend"),
    scheduler: Optional[str] = typer.Option(None, "--scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed parameter override name=value (repeatable)."),
    out: Path = typer.Option(..., "--out", help="Sweep folder (one run folder per variant, plus report/)."),
    resume: bool = typer.Option(False, "--resume",
                                help="Complete the interrupted sweep in --out (the same options; a different sweep is refused)."),
    overwrite: bool = typer.Option(False, "--overwrite",
                                   help="Replace the sweep in --out (its variant folders and report are deleted)."),
) -> None:
    """Run parameter variants on common seeds and chart each metric against the parameter."""
    from analysis.report import build_report
    from analysis.sweep import sweep_sections
    from sim.config import RunConfig
    from sim.core.params import parse_set_options
    from sim.runner import terminate_as_interrupt
    from sim.sweep import parse_vary, read_sweep, run_sweep

    base = RunConfig(game=game, players=players, strategies=_strategies(strategies) or ("random",), games=games,
                     seed=seed, batch_size=batch_size, n_jobs=n_jobs, backend=backend, scheduler=scheduler,
                     out=str(out), params=parse_set_options(set_))
    v = parse_vary(vary)
    try:
        with terminate_as_interrupt():
            run_sweep(base, v, out, resume=resume, overwrite=overwrite,
                      on_variant=lambda i, n, name: typer.echo(f"variant {i + 1}/{n}: {name}", err=True))
    except KeyboardInterrupt as e:
        _interrupted(e, f"the sweep in {out} is incomplete; complete it with the same command and --resume")
    meta = read_sweep(out)
    page = build_report([out / x["folder"] for x in meta["variants"]], out / "report", sections=sweep_sections(out))
    typer.echo(f"wrote {len(meta['variants'])} variants to {out}; report {page}")


@app.command()
@user_errors
def tournament(
    game: str = typer.Option(..., "--game", help="Game id."),
    strategies: str = typer.Option(..., "--strategies", help="Strategy ids to compare, comma separated (two or more)."),
    players: Optional[int] = typer.Option(None, "--players", help="Seats per game, at least 2 (default: one per strategy)."),
    games: int = typer.Option(1000, "--games", help="Games per seat arrangement."),
    seed: int = typer.Option(0, "--seed", help="Seed shared by every arrangement (common random numbers)."),
    batch_size: int = typer.Option(1024, "--batch-size"),
    n_jobs: int = typer.Option(-1, "--n-jobs"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Parameter override name=value (repeatable)."),
    out: Path = typer.Option(..., "--out", help="Tournament folder (one run folder per seat arrangement)."),
    overwrite: bool = typer.Option(False, "--overwrite",
                                   help="Replace the tournament in --out (its lineup folders are deleted)."),
) -> None:
    """Every seat arrangement of the strategies on common seeds: win rates, VP and margins with intervals.

    A tournament is written whole and cannot be resumed; --overwrite replaces an earlier one.
    """
    from sim.core.params import parse_set_options
    from sim.runner import terminate_as_interrupt
    from strategies.tournament import format_table, run_tournament

    ids = list(_strategies(strategies) or ())
    n = players if players is not None else len(ids)
    try:
        with terminate_as_interrupt():
            tables = run_tournament(game, ids, n, games, seed, out, batch_size=batch_size, n_jobs=n_jobs,
                                    params=parse_set_options(set_), overwrite=overwrite,
                                    on_lineup=lambda i, k, u: typer.echo(f"lineup {i + 1}/{k}: {', '.join(u)}", err=True))
    except KeyboardInterrupt as e:
        _interrupted(e, f"the tournament in {out} is incomplete (tournaments cannot be resumed); "
                        "run it again with --overwrite")
    typer.echo(format_table(tables["summary"]))
    typer.echo("")
    typer.echo(format_table(tables["seats"]))
    typer.echo(f"\nwrote {out / 'summary.parquet'} and {out / 'seats.parquet'}")


@app.command()
@user_errors
def replay(
    run: Path = typer.Argument(..., help="Run folder."),
    game_id: int = typer.Option(..., "--game-id", help="Game index within the run."),
) -> None:
    """Print one logged game turn by turn, in words a player recognises."""
    from analysis.replay import replay_text

    for line in replay_text(run, game_id):
        typer.echo(line)


@app.command()
@user_errors
def bench(
    games: str = typer.Option("unconscious-mind,galileos-truth", "--games", help="Games to measure, comma separated."),
    quick: bool = typer.Option(False, "--quick", help="Smaller game counts (smoke run)."),
    memory: bool = typer.Option(True, "--memory/--no-memory", help="Measure peak memory of 10k and 200k-game runs."),
    only: str = typer.Option("throughput,memory,sweep,profile", "--only",
                             help="Parts to measure: throughput, memory, sweep, profile (comma separated)."),
    scale: float = typer.Option(1.0, "--scale", help="Scale the throughput game counts."),
    out: Path = typer.Option(Path("benchmarks/RESULTS.md"), "--out", help="Results file (Markdown)."),
) -> None:
    """Measure games/s, batch and n_jobs scaling, peak memory, Parquet bytes per game, a profile and the
    sweep at scale; stores rows in results.json beside --out and renders the Markdown from all of them."""
    from benchmarks.bench import PARTS
    from benchmarks.bench import main as bench_main
    from sim.core.errors import ConfigError

    bad = [x for x in only.split(",") if x and x not in PARTS]
    if bad:
        raise ConfigError(f"--only: unknown part {bad[0]!r}; allowed {', '.join(PARTS)}")
    if scale <= 0:
        raise ConfigError(f"--scale {scale}: must be > 0")
    args = (["--games", games, "--out", str(out), "--only", only, "--scale", str(scale)]
            + (["--quick"] if quick else []) + ([] if memory else ["--no-memory"]))
    bench_main(args)


@app.command("games")
def games_cmd() -> None:
    """List the games."""
    from sim.registry import available_games, get_game_class

    for name in available_games():
        try:
            cls = get_game_class(name)
            typer.echo(f"{name:18s} {cls.title} ({cls.min_players}-{cls.max_players} players, {cls.num_actions} actions)")
        except (ImportError, AttributeError) as e:  # an engine that is not installed or failed to import
            typer.echo(f"{name:18s} (unavailable: {e})")


@app.command("strategies")
@user_errors
def strategies_cmd(game: str = typer.Argument(..., help="Game id.")) -> None:
    """List the strategies for a game, with their arguments."""
    from sim.registry import get_game_class
    from strategies.registry import strategies_for

    get_game_class(game)
    for s in strategies_for(game):
        typer.echo(f"{s.name}: {s.doc}")
        for k, a in s.args.items():
            rng = f" [{a.lo}..{a.hi}]" if a.lo is not None or a.hi is not None else ""
            typer.echo(f"    {k}={a.default} ({a.type.__name__}{rng}): {a.doc}")


@app.command()
@user_errors
def robustness(
    game: str = typer.Option(..., "--game", help="Game id."),
    budget: int = typer.Option(..., "--budget", help="Games to play in all (defaults, Morris and Sobol stages)."),
    out: Path = typer.Option(..., "--out", help="Robustness folder (design, points/, results, report/)."),
    games_per_lineup: Optional[int] = typer.Option(None, "--games-per-lineup",
                                                   help="Games per lineup at each design point (default: the study's)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the design and of every game (common random numbers)."),
    n_jobs: int = typer.Option(1, "--n-jobs", help="Worker processes (design points in parallel)."),
    sobol_max: int = typer.Option(5, "--sobol-max", help="Most assumptions taken into the Sobol stage."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted run in --out (same options)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the robustness run in --out."),
) -> None:
    """Which balance conclusions survive the assumed rule numbers: Morris screening then Sobol indices over
    the plausible ranges (sim/<game>/data/plausible.toml), scripted strategies in rotated seats on common
    seeds; a verdict per conclusion in out/report/robustness.html and .md."""
    from sim.core.errors import ConfigError
    from sim.robustness import run_robustness
    from sim.runner import terminate_as_interrupt

    if budget < 1:
        raise ConfigError(f"--budget {budget}: must be a number of games >= 1")
    if n_jobs == 0 or n_jobs < -1:
        raise ConfigError(f"--n-jobs {n_jobs}: allowed -1 (all cores) or a number >= 1")
    if sobol_max < 1:
        raise ConfigError(f"--sobol-max {sobol_max}: must be >= 1")
    cmd = (f"meeplelab robustness --game {game} --budget {budget} --out {out} --seed {seed}"
           + (f" --games-per-lineup {games_per_lineup}" if games_per_lineup is not None else "")
           + (f" --sobol-max {sobol_max}" if sobol_max != 5 else ""))
    try:
        with terminate_as_interrupt():
            res = run_robustness(game, out, budget, games=games_per_lineup, seed=seed, n_jobs=n_jobs,
                                 resume=resume, overwrite=overwrite, sobol_max=sobol_max,
                                 progress=lambda s: typer.echo(s, err=True), command=cmd)
    except KeyboardInterrupt as e:
        _interrupted(e, f"the robustness run in {out} is incomplete; complete it with the same command and --resume")
    page = res["page"]
    for c in res["json"]["conclusions"]:
        typer.echo(f"{c['title']}: {c['statement']}: {c['verdict']}")
    typer.echo(f"wrote {page}")


@app.command()
@user_errors
def balance(
    game: str = typer.Option(..., "--game", help="Game id."),
    vary: List[str] = typer.Option(..., "--vary", help="name=LOW..HIGH to search (repeatable; tuples as 0,4,8..0,6,12)."),
    target: List[str] = typer.Option(..., "--target",
                                     help="seat-spread<=P, strategy-excess<=P, length=LOW..HIGH, or a conclusion of "
                                          "the study: abjure-cycle-3=-1..1 (repeatable; docs/robustness.md)."),
    out: Path = typer.Option(..., "--out", help="Balance folder (trials, re-check, proposal.toml, report/)."),
    trials: int = typer.Option(30, "--trials", help="Candidates to evaluate (Optuna TPE)."),
    games_per_lineup: Optional[int] = typer.Option(None, "--games-per-lineup",
                                                   help="Games per rotated lineup per candidate (default: the study's)."),
    recheck: int = typer.Option(3, "--recheck", help="Best candidates re-played on fresh seeds."),
    seed: int = typer.Option(0, "--seed", help="Seed of the search and of its games (fresh seeds are derived)."),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed parameter override name=value (repeatable)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the balance search in --out."),
) -> None:
    """Search rule numbers for designer targets on common seeds (Optuna), re-check the best on fresh seeds,
    and propose a parameter set as a --set line and proposal.toml (simulate --config accepts it)."""
    from sim.balance import run_balance
    from sim.core.errors import ConfigError
    from sim.core.params import parse_set_options
    from sim.runner import terminate_as_interrupt

    if recheck < 1:
        raise ConfigError(f"--recheck {recheck}: must be >= 1")
    try:
        with terminate_as_interrupt():
            s = run_balance(game, list(vary), list(target), out, trials=trials, games=games_per_lineup, seed=seed,
                            recheck=recheck, fixed=parse_set_options(set_), overwrite=overwrite,
                            progress=lambda m: typer.echo(m, err=True))
    except KeyboardInterrupt as e:
        _interrupted(e, f"the balance search in {out} is incomplete (it cannot be resumed); run it again with --overwrite")
    p = s["proposal"]
    typer.echo(f"proposal (trial {p['trial']}) meets {p['met']} of {len(s['targets'])} targets on fresh seeds: "
               + "; ".join(f"{t} {p[t]:.2f} [{p[t + ' low']:.2f}, {p[t + ' high']:.2f}]" for t in s["targets"]))
    typer.echo(s["set_line"])
    typer.echo(f"wrote {out / 'proposal.toml'} and {s['page']}")


@app.command("params")
@user_errors
def params_cmd(game: str = typer.Argument(..., help="Game id.")) -> None:
    """List every rule parameter of a game: default, unit, source or assumption ID, and for assumptions the
    plausible range and its reason (sim/<game>/data/plausible.toml)."""
    from sim.core.params import describe
    from sim.registry import get_game_class

    cls = get_game_class(game)
    ranges = _plausible_or_none(cls)
    for d in describe(cls.Params()):
        v = ",".join(map(str, d["default"])) if isinstance(d["default"], tuple) else d["default"]
        r = ranges.get(d["name"])
        extra = f" | plausible {r.text()}: {r.reason}" if r is not None else ""
        typer.echo(f"{d['name']} = {v} [{d['unit']}] ({d['source']}): {d['doc']}{extra}")


def _plausible_or_none(cls) -> dict:
    """The game's plausible ranges (``sim/plausible.py``), or {} for a game without a plausible.toml."""
    from sim.core.errors import ConfigError
    from sim.plausible import load_plausible, plausible_path

    if not plausible_path(cls).is_file():
        return {}
    try:
        return load_plausible(cls)
    except ConfigError as e:  # e.g. a new assumption without a range yet: list the others, say what is missing
        typer.echo(f"warning: {e}", err=True)
        return load_plausible(cls, strict=False)


def main() -> None:
    """Console-script entry point: run the app, usage errors as one line with exit code 2."""
    try:
        rc = app(standalone_mode=False)
    except _ClickException as e:
        typer.echo(f"error: {e.format_message()}", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    sys.exit(rc if isinstance(rc, int) else 0)


if __name__ == "__main__":
    main()
