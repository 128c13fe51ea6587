"""meeplelab command line (typer): simulate, report, sweep, experiment, content-value, compare, exchange-rates, compensate, tournament, ladder, tune, robustness, balance, replay, games,
strategies, params, actions.

Every bad input prints one line ``error: ...`` naming the bad value and what is allowed, and
exits with code 2. A write the environment refuses (a read-only folder, a full disk) prints one line
naming the path and what to do and exits with code 1; the earlier output stays whole (docs/architecture.md,
"Failures the user sees"). Ctrl-C during a command that plays games (simulate, sweep, experiment, content-value, compare, exchange-rates,
compensate, tournament, ladder, stronger, tune, robustness, balance) marks its folder ``interrupted`` (a run's manifest; a sweep's sweep.json, an experiment's
experiment.json, a tournament's tournament.json, a ladder's ladder.json, stronger.json, robustness.json, a tune or balance folder's search.json), prints
one line saying how to complete it and exits with code 130; SIGTERM is handled the same way but exits with code
143. ``--resume`` completes any of them and refuses (one line, exit 2) when the options differ from the saved ones.
Each of them takes ``--config FILE.toml`` (its settings, validated by the command's model in play/settings.py; options
given on the command line beat the file) and writes its resolved settings into its folder (``config.toml``; a run's
``run.toml``), so ``--config OUT/config.toml --out NEW`` repeats it exactly.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from enum import Enum
from typing import Callable, List, NoReturn, Optional

import typer

from meeplelab.play.interrupts import interrupt_exit_code, terminate_as_interrupt
from meeplelab.play.progress import note as _progress_note
from meeplelab.play.progress import wanted as _progress_wanted

# typer may vendor click; take its exception base from typer's own BadParameter
_ClickException = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")

app = typer.Typer(add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, help="Monte Carlo strategy analysis for Unconscious Mind and Galileo's Truth.")


def package_version() -> str:
    """The installed distribution's version (``pyproject.toml``), or ``0+unknown`` for an uninstalled tree."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("meeplelab")
    except PackageNotFoundError:
        return "0+unknown"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"meeplelab {package_version()}")
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                       help="Print the meeplelab version and exit.")) -> None:
    """Monte Carlo strategy analysis for Unconscious Mind and Galileo's Truth."""


class Seating(str, Enum):
    """``--seating``: how strategies take the seats (meeplelab.play.seating)."""

    rotate = "rotate"
    random = "random"
    fixed = "fixed"


class Field(str, Enum):
    """``--field``: who plays, a rung of the skill ladder or each in turn (meeplelab.strategies.fields.FIELDS)."""

    scripted = "scripted"
    heuristic = "heuristic"
    tuned = "tuned"
    strong = "strong"
    ladder = "ladder"


class Backend(str, Enum):
    """``--backend``: the joblib backend that runs the chunks."""

    loky = "loky"
    threading = "threading"
    dask = "dask"


#: the options every command that plays games shares, defined once: (flag, help). Each command takes them
#: through :func:`shared`, so their names, help and choices are the same everywhere (docs/architecture.md).
SHARED_OPTIONS = {
    "n_jobs": ("--n-jobs", "Parallel workers, -1 = all cores (a run too small to pay for starting workers plays in this process; the games are the same)."),
    "backend": ("--backend", "Where the games run: loky worker processes, threads, or a Dask cluster (with --scheduler)."),
    "scheduler": ("--scheduler", "Dask scheduler address (tcp://HOST:8786); only with --backend dask."),
    "batch_size": ("--batch-size", "Games advanced together in one batch (a run's part files hold whole batches); the "
                                   "games do not depend on it."),
    "seed": ("--seed", "Run seed: every game's shuffles and decisions are keyed by it, so variants, arms and lineups "
                       "play on common seeds."),
    "progress": ("--progress/--no-progress", "Draw progress bars on stderr (only on a terminal; MEEPLELAB_PROGRESS=1 "
                                             "draws them anywhere, MEEPLELAB_PROGRESS=0 never)."),
    "seating": ("--seating", "rotate: every strategy in every seat equally often, on common game seeds; random: a seat "
                             "order drawn per game; fixed: strategy k in seat k."),
    "field": ("--field", "Who plays, a rung of the skill ladder. scripted: the command's own strategies (--strategies, "
                         "tune: --against, or the command's default); heuristic: the heuristic with its default "
                         "weights at every seat; tuned: the tuned heuristic (the preset GAME-heuristic-tuned.toml "
                         "installed with meeplelab) at every seat; strong: the game's strong field, the tuned "
                         "heuristic and the compiled search ismcts, alternating over the seats and rotated through "
                         "them (docs/strategies.md, 'The strong field'); heuristic, tuned and strong not together "
                         "with --strategies. ladder: each rung in turn into OUT/rung-RUNG/, then OUT/ladder.md with "
                         "every headline answer at every rung (balance, compare, compensate, content-value, experiment, "
                         "robustness; docs/balance.md, 'A study at every rung')."),
    "rungs": ("--rungs", "With --field ladder: the rungs to play, two or more of scripted, heuristic, tuned, strong "
                         "(comma-separated; played weakest first); default every rung."),
}


def _complete_games(incomplete: str) -> list[str]:
    """Shell completion of ``--game``: the registered game ids (built-in and installed) starting with ``incomplete``."""
    # start-up: numba, imported when the command runs
    from meeplelab.sim.registry import available_games

    return [g for g in available_games() if g.startswith(incomplete)]


@functools.lru_cache(maxsize=None)
def game_choices() -> str:
    """``--game``'s choices as the help shows them (``[unconscious-mind|galileos-truth|...]``): the installed games,
    this project's first, read from the distributions' entry points (no engine is imported). The registry checks
    the value given (a game registered at run time is accepted too)."""
    from importlib.metadata import entry_points

    eps = sorted(entry_points(group="meeplelab.games"), key=lambda e: getattr(e.dist, "name", "") != "meeplelab")
    names = list(dict.fromkeys(e.name for e in eps))
    return f"[{'|'.join(names)}]" if names else "GAME"


def game_argument():
    """The GAME argument of ``strategies``, ``params`` and ``actions``: its help lists the games, the shell completes
    them."""
    return typer.Argument(..., help=f"Game id, one of {game_choices()}.", metavar="GAME", autocompletion=_complete_games)


def game_option():
    """The ``--game`` option of every command: its help shows the games as choices, the shell completes them."""
    return typer.Option(..., "--game", help="Game id (meeplelab games describes them).", metavar=game_choices(),
                        autocompletion=_complete_games)


def shared(name: str, default=None, *, shown: str | None = None):
    """The typer option ``name`` of :data:`SHARED_OPTIONS` with this command's ``default`` (``shown``: the
    default to print in the help when ``default`` is None because a config file may give it)."""
    flag, text = SHARED_OPTIONS[name]
    return typer.Option(default, flag, help=text, show_default=shown if shown is not None else True)


def rate_text(gps: float) -> str:
    """A rate in games/s as printed after a run: whole numbers from 10 up (``"1,234"``), two significant figures
    below (``"0.18"``, ``"3.4"``), so a short run that mostly compiled never reads ``0 games/s``."""
    if gps >= 10:
        return f"{gps:,.0f}"
    return f"{gps:.2g}" if gps > 0 else "0"


def _draw(progress: bool) -> bool:
    """Whether to draw progress bars (``--progress/--no-progress``, stderr a terminal; meeplelab.play.progress.wanted)."""
    # start-up: numba, imported when the command runs
    from meeplelab.sim.jitcache import compile_progress

    compile_progress(progress)  # --no-progress: no compile progress line either (the notice is said anyway)
    return _progress_wanted(progress)


def _note(text: str) -> None:
    """A line on stderr, above the progress bars when they are drawn (meeplelab.play.progress.note)."""
    _progress_note(text)


def _plain(choice):
    """An enum choice as its plain string (None stays None): what the run config stores."""
    return None if choice is None else getattr(choice, "value", choice)


def _fail(msg: str, code: int = 2) -> NoReturn:
    """One line ``error: MSG`` on stderr, then exit ``code`` (2: bad input)."""
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(code)


def reads_once(fn: Callable) -> Callable:
    """Run ``fn`` reading each run's tables once: every table it reads is kept in memory until it returns
    (:func:`meeplelab.analysis.load.shared_reads`; the same rows, so the same outputs). The reports use it: they
    read the same tables many times."""

    @functools.wraps(fn)
    def wrapper(*a, **kw):
        # start-up: polars and numba, imported when the command runs
        from meeplelab.analysis.load import shared_reads

        with shared_reads():
            return fn(*a, **kw)

    return wrapper


def user_errors(fn: Callable) -> Callable:
    """Every command's one-line failures: a :class:`UserError` (bad input) exits 2; a write the environment
    refuses (a read-only folder, a full disk: an ``OSError``, or a polars/pyarrow error carrying one) exits 1
    with the path and what to do. The writers write under temporary names and rename, so an earlier good
    output is left intact."""

    @functools.wraps(fn)
    def wrapper(*a, **kw):
        # start-up: numba, imported when the command runs
        from meeplelab.sim.core.errors import UserError, environment_message, os_error_of

        try:
            _probe_writable(kw.get("out"))
            return fn(*a, **kw)
        except UserError as e:
            _fail(str(e))
        except (typer.Exit, _ClickException):
            raise
        except Exception as e:
            err = os_error_of(e)
            if err is None:
                raise
            _fail(environment_message(err, _output_of(kw), _again(fn.__name__, kw)), code=1)

    return wrapper


def _probe_writable(out: Optional[Path]) -> None:
    """Raise the OSError of a read-only ``--out`` before anything is played or printed: a file is created and
    removed in the nearest existing folder of ``out`` (nothing else is created)."""
    import os
    import tempfile

    # start-up: numba, imported when the command runs
    from meeplelab.sim.core.errors import is_environment_error

    if out is None:
        return
    d = Path(out)
    while not d.exists() and d != d.parent:
        d = d.parent
    if not d.is_dir():
        return  # a file in the way: the command names it (bad input)
    try:
        fd, name = tempfile.mkstemp(prefix=".write-probe-", dir=d)
        os.close(fd)
        os.unlink(name)
    except OSError as e:
        if is_environment_error(e):
            raise OSError(e.errno, e.strerror, str(d)) from None


def _output_of(kw: dict) -> Optional[Path]:
    """The folder a command writes (for an error that names no file): its --out, else its run folder."""
    for k in ("out", "run"):
        if kw.get(k) is not None:
            return kw[k]
    runs = kw.get("runs")
    return Path(runs[0]) / "report" if runs else None


def _again(command: str, kw: dict) -> str:
    """How to repeat ``command`` once the disk has room: with --resume where the command has it (in place of
    --overwrite, which kept the earlier run or study: play/runfolder.py prepare_out and study_folder)."""
    if kw.get("overwrite") and "resume" in kw:
        kept = f"; the earlier {'run' if command == 'simulate' else 'study'} stays until the new one is complete"
        return f"run the same command again with --resume in place of --overwrite (the finished part is kept{kept})"
    return ("run the same command again with --resume (the finished part is kept)" if "resume" in kw
            else "run the command again")


def _bad_option_value(e: Exception) -> Optional[str]:
    """typer's message for an option value it could not convert, with the value and what is allowed (typer
    says only 'Input should be a valid integer'); None for other usage errors."""
    from pydantic import ValidationError

    # start-up: numba, imported when the command runs
    from meeplelab.sim.core.errors import allowed_by

    cause = e.__cause__
    if not isinstance(e, typer.BadParameter) or not isinstance(cause, ValidationError) or not cause.errors():
        return None
    err = cause.errors()[0]
    hint = e.param_hint if e.param_hint is not None else (e.param.opts[0] if e.param is not None and e.param.opts else None)
    if isinstance(hint, (list, tuple)):
        hint = " / ".join(hint)
    name = f"'{hint}'" if hint and not str(hint).startswith("'") else str(hint)
    if err.get("type") == "value_error":  # a choice (enum): the validator's own sentence names value and choices
        return f"Invalid value for {name}: {str(err.get('msg', '')).removeprefix('Value error, ').rstrip('.')}"
    return f"Invalid value for {name}: {err.get('input')!r} is not {allowed_by(err)}"


def _strategies(s: Optional[str]) -> Optional[tuple[str, ...]]:
    """``--strategies`` as ids: ``heuristic:vp=1,coins=0.3,random`` -> two ids (see split_strategies)."""
    # start-up: numba, imported when the command runs
    from meeplelab.play.settings import split_strategies

    return None if s is None else split_strategies(s)


def _params(set_: Optional[List[str]]) -> dict:
    """``--set name=value`` entries as a params dict (:func:`meeplelab.sim.core.params.parse_set_options`).

    Raises:
        ConfigError: a bad entry (no ``=``, an empty name).
    """
    # start-up: numba, imported when the command runs
    from meeplelab.sim.core.params import parse_set_options

    return parse_set_options(set_)


def _run_config(set_: Optional[List[str]], **fields):
    """A study's base run config: :class:`meeplelab.play.config.RunConfig` of ``fields``, its params from ``--set``.

    Raises:
        ConfigError: a bad ``--set`` entry or field (unknown game, seats out of range...).
    """
    # start-up: numba, imported when the command runs
    from meeplelab.play.config import RunConfig

    return RunConfig(**fields, params=_params(set_))


def _interrupted(e: KeyboardInterrupt, what: str) -> None:
    """One line on stderr, then exit 130 (Ctrl-C) or 143 (SIGTERM)."""
    typer.echo(f"interrupted: {what}", err=True)
    raise typer.Exit(interrupt_exit_code(e))


def _study_note(out: Path, what: str) -> str:
    """What an interrupted study command says about ``out``: its study is incomplete, or an interrupted --overwrite
    kept the earlier study (play/runfolder.py study_note)."""
    # start-up: numba, imported when the command runs
    from meeplelab.play.runfolder import study_note

    return study_note(out, what)


# --- --config FILE.toml for the commands that play games (play/settings.py; docs/architecture.md) --------------
# A command's settings file is read by the eager --config option before any other option: its values,
# validated by the command's model (meeplelab.play.settings), become the options' defaults (click's default_map), so an
# option given on the command line beats the file and the file beats the option's default; a required option
# may come from the file. The file's params table is kept aside and merged name by name under --set. The
# resolved settings (every option, validated by the model again) go to the command's output folder as
# config.toml: `meeplelab CMD --config OUT/config.toml --out NEW` repeats the command.

#: options of a command that are not its run settings (what to do with the folder, what to show)
_NOT_SETTINGS = ("config", "resume", "overwrite", "progress", "list_", "docs", "docs_file")  # docs: where a result is copied
_FILE_PARAMS = "meeplelab.config_params"  # ctx.meta keys
_SETTINGS = "meeplelab.settings"


class _ConfigFileError(_ClickException):
    """A bad settings file, raised while the options are parsed: one line (``main`` prints it, exit 2)."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message


def _param_text(v) -> str:
    """A TOML parameter value as ``--set`` text (``0,4,8``, ``true``, ``3``)."""
    if isinstance(v, (list, tuple)):
        return ",".join(map(_param_text, v))
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _current_context():
    """The running command's click context (typer may vendor click)."""
    import importlib

    return importlib.import_module(typer.Context.__mro__[1].__module__.rsplit(".", 1)[0] + ".globals").get_current_context()


def _read_settings_file(ctx: typer.Context, param, value: Optional[Path]) -> Optional[Path]:
    """The eager ``--config`` callback: the file's settings become the defaults of the command's options."""
    # start-up: numba, imported when the command runs
    from meeplelab.play.config import load_toml
    from meeplelab.sim.core.errors import UserError
    from meeplelab.play.settings import MODELS, split_or_none, validate

    ctx.meta[_FILE_PARAMS] = {}
    if value is None or ctx.resilient_parsing:
        return value
    model = MODELS[ctx.info_name]
    try:
        data = load_toml(value)
        validate(model, data, partial=True)
        if "params" in data:
            ctx.meta[_FILE_PARAMS] = {str(k): _param_text(v) for k, v in data["params"].items()}
    except UserError as e:
        raise _ConfigFileError(str(e)) from None
    names = {p.name for p in ctx.command.params}
    defaults = {}
    for k, v in data.items():
        if k == "params" or k not in names:
            continue
        if k in ("strategies", "against") and isinstance(v, list):
            v = ",".join(v)  # the option's text: split again the same way, into the same ids
            if split_or_none(v) != tuple(data[k]):
                raise _ConfigFileError(f"config field {k!r} is {data[k]!r}: each item must be one strategy id with "
                                       'its arguments (as "heuristic:vp=1,coins=0.3")')
        defaults[k] = v
    ctx.default_map = {**(ctx.default_map or {}), **defaults}
    return value


#: ``--config`` of the commands that play games (simulate reads its run.toml itself)
CONFIG_OPTION = typer.Option(None, "--config", callback=_read_settings_file, is_eager=True,
                             help="Settings TOML (e.g. OUT/config.toml, which every run writes): its values are the "
                                  "options' defaults; options given here override it (--set name by name).")


def _field_options() -> dict:
    """Per command: its strategies option and the ids a played rung (``--field heuristic|tuned|strong``) puts there
    (``fn(options) -> ids``): the rung's roster where the option is one id per seat, its distinct players where it
    is a list of distinct strategies the command seats itself (tournament, tune, compare and compensate at several
    seat counts); experiment's: the seats besides the focal player with --control, else every seat;
    exchange-rates': one distinct strategy per seat, so the strong field's two players at 2 seats only (a mirror
    rung, heuristic or tuned, has one: refused)."""
    # start-up: numba, imported when the command runs
    from meeplelab.strategies import fields

    def roster(kw):
        return fields.roster(kw["game"], kw["field"], kw["players"])

    def both(kw):
        return fields.members(kw["game"], kw["field"])

    def tournament(kw):
        if kw["field"] != fields.STRONG:
            _fail(f"--field {kw['field']}: a tournament needs at least two strategies and this rung is one "
                  "player at every seat: allowed --field scripted or strong")
        return both(kw)

    def experiment(kw):
        focal = kw.get("control") is not None or kw.get("treat") is not None
        seats = kw["players"] - 1 if focal else kw["players"]
        if kw["field"] == fields.STRONG and focal and seats < 2:
            _fail(f"--field strong with --control at --players {kw['players']}: the strong field takes the "
                  "seats besides the focal player and has two players (tuned heuristic, ismcts): allowed "
                  "--players 3 or more")
        return fields.roster(kw["game"], kw["field"], seats)

    def exchange(kw):
        if kw["field"] != fields.STRONG:
            _fail(f"--field {kw['field']}: exchange rates are measured per strategy, one distinct strategy "
                  "per seat, and this rung is one player at every seat: allowed --field scripted or strong")
        if kw["players"] != 2:
            _fail(f"--field strong at --players {kw['players']}: exchange rates are measured per strategy, "
                  "one distinct strategy per seat, and the strong field has two players (tuned heuristic, "
                  "ismcts): allowed --players 2")
        return fields.strong_roster(kw["game"], 2)

    return {"sweep": ("strategies", roster), "experiment": ("strategies", experiment),
            "content-value": ("strategies", roster), "tournament": ("strategies", tournament), "tune": ("against", both),
            "compare": ("strategies", both), "compensate": ("strategies", both),
            "exchange-rates": ("strategies", exchange)}


def _source(ctx, name: str) -> str:
    """Where option ``name``'s value came from: ``COMMANDLINE``, ``DEFAULT_MAP`` (a --config file), ``DEFAULT``..."""
    src = ctx.get_parameter_source(name)
    return getattr(src, "name", str(src))


def strong_refusal(option: str, given: str, field: str = "strong") -> str:
    """The one line refusing a played rung (``--field strong``, ``heuristic`` or ``tuned``) with explicit strategies
    (``option``: --strategies or --against)."""
    # start-up: numba, imported when the command runs
    from meeplelab.strategies.fields import WORDS

    return (f"--field {field} and {option} {given} are given together: --field {field} plays {WORDS[field]}; "
            f"allowed: --field {field} without {option}, or {option} with --field scripted (the default)")


def _field_ids(ctx, command: str, kw: dict) -> None:
    """A played rung (``--field heuristic|tuned|strong``): its ids into the command's strategies option (``kw``, in
    place), so the command plays them and its settings record them.

    Raises:
        typer.Exit: (code 2, one line) the option given on the command line as well (:func:`strong_refusal`), or a
            --config file whose field is strong holding other strategies.
        ConfigError: no strong field for the game.
    """
    # start-up: numba, imported when the command runs
    from meeplelab.play.settings import split_or_none

    field = _plain(kw.get("field"))
    if field in (None, Field.scripted.value, Field.ladder.value) or command not in _field_options():
        return
    option, ids_of = _field_options()[command]
    given = kw.get(option)
    flag = "--" + option
    if given is not None and _source(ctx, option) == "COMMANDLINE":
        _fail(strong_refusal(flag, given, field))
    ids = ids_of({**kw, "field": field})
    if (given is not None and _source(ctx, option) == "DEFAULT_MAP" and _source(ctx, "field") == "DEFAULT_MAP"
            and not set(split_or_none(given) or (given,)) <= set(ids)):
        _fail(f"config fields 'field' is {field!r} and {option!r} is {given!r}: with field {field} the "
              f"{option} are the field's ({', '.join(dict.fromkeys(ids))}); allowed: leave "
              f"{option} out, or field = \"scripted\"")
    kw[option] = ",".join(ids)


def configured(fn: Callable) -> Callable:
    """A command whose options are its run settings (``meeplelab.play.settings.MODELS[name]``): ``--set`` merged over the
    ``--config`` file's params, the resolved settings validated by the model and kept for ``_settings_text``.
    Put it below ``user_errors`` (its errors are one line)."""

    @functools.wraps(fn)
    def wrapper(*a, **kw):
        # start-up: numba, imported when the command runs
        from meeplelab.play.settings import MODELS, split_strategies, validate

        ctx = _current_context()
        if _plain(kw.get("field")) == "ladder":  # each rung in turn, every one an ordinary run of this command
            return _field_ladder(ctx.info_name, wrapper, a, kw)
        if kw.get("rungs") is not None and "field" in kw:  # stronger's own --rungs (no --field) names its rungs
            _rungs_refusal(kw)
        _field_ids(ctx, ctx.info_name, kw)
        if "set_" in kw:
            merged = {**ctx.meta.get(_FILE_PARAMS, {}), **_params(kw["set_"])}
            kw["set_"] = [f"{k}={v}" for k, v in merged.items()] or None
        model = MODELS[ctx.info_name]
        given = {("params" if k == "set_" else k): v for k, v in kw.items() if k not in _NOT_SETTINGS}
        if "params" in given:
            given["params"] = _params(given["params"])
        given = {k: (str(v) if isinstance(v, Path) else _plain(v)) for k, v in given.items() if v is not None}
        for k in ("strategies", "against"):
            if isinstance(given.get(k), str):  # split here, so a bad list names its option
                given[k] = split_strategies(given[k], f"--{k}")
        # an option the model lacks is left out (tests/test_settings.py fails on one: it would not be repeated)
        ctx.meta[_SETTINGS] = validate(model, {k: v for k, v in given.items() if k in model.model_fields})
        return fn(*a, **kw)

    return wrapper


def _field_ladder(command: str, run: Callable, a: tuple, kw: dict) -> None:
    """``--field ladder``: ``run`` (the configured command) once per rung into ``OUT/rung-<rung>/`` with the same
    options (``--strategies``/``--against`` for the scripted rung only), then the ladder table of the command's
    headline answers (:func:`meeplelab.studies.field_ladder.write_ladder`), printed and written to OUT.

    Raises:
        ConfigError: a command without headline answers (the ones with them named), or no --out.
    """
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies import field_ladder

    rungs = field_ladder.check_command(command, kw.get("out"), kw)
    out = Path(kw["out"])
    option, ids_of = _field_options().get(command, ("strategies", None))
    for rung in rungs:  # a rung that cannot be seated is refused before any rung plays
        if ids_of is not None and rung != Field.scripted.value:
            ids_of({**kw, "field": rung})
    for rung in rungs:
        _note(f"--field ladder: rung {rung} into {out / field_ladder.rung_folder(rung)}")
        run(*a, **{**kw, "field": rung, **({"rungs": None} if "rungs" in kw else {}),
                   "out": out / field_ladder.rung_folder(rung),
                   **({} if rung == Field.scripted.value else {option: None})})
    for line in field_ladder.write_ladder(command, out, rungs):
        typer.echo(line)


def _rungs_refusal(kw: dict) -> NoReturn:
    """The one-line refusal of ``--rungs`` given with a single rung (``--field`` other than ``ladder``): exit 2."""
    field = _plain(kw.get("field")) or Field.scripted.value
    _fail(f"--rungs {kw['rungs']} with --field {field}: --rungs picks the rungs of --field ladder; "
          f"allowed: --rungs with --field ladder, or --field {field} without --rungs")


def _settings_text() -> Optional[str]:
    """The running command's resolved settings as the TOML its output folder keeps (``config.toml``)."""
    # start-up: numba, imported when the command runs
    from meeplelab.play.settings import settings_toml

    s = _current_context().meta.get(_SETTINGS)
    return None if s is None else settings_toml(s)


@app.command()
@user_errors
def simulate(
    game: Optional[str] = typer.Option(None, "--game", help="Game id (meeplelab games describes them).",
                                       metavar=game_choices(), autocompletion=_complete_games),
    players: Optional[int] = typer.Option(None, "--players", help="Seats per game (default 4)."),
    strategies: Optional[str] = typer.Option(None, "--strategies", help="One strategy id per seat, comma separated, or one for all seats (a mirror match; default random), or a pool of more distinct ids than --players (rotated or random seating: every ordered choice of P of them); arguments follow the id: heuristic:vp=1,finish=0,random."),
    games: Optional[int] = typer.Option(None, "--games", help="Number of games in total, over all seat orders (default 2000); rotate rounds it down to a whole number of games per seat order."),
    seating: Optional[Seating] = shared("seating", shown="rotate"),
    field: Optional[Field] = shared("field", shown="scripted"),
    seed: Optional[int] = shared("seed", shown="0"),
    batch_size: Optional[int] = shared("batch_size", shown="1024"),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Games per task and part file (default: batches filling at least 1024 games)."),
    n_jobs: Optional[int] = shared("n_jobs", shown="-1"),
    backend: Optional[Backend] = shared("backend", shown="loky"),
    scheduler: Optional[str] = shared("scheduler"),
    out: Optional[Path] = typer.Option(None, "--out", help="Run folder to write."),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Parameter override name=value (repeatable)."),
    content: Optional[Path] = typer.Option(None, "--content", help="Folder of content files replacing the packaged ones."),
    config: Optional[Path] = typer.Option(None, "--config", help="Run config TOML (e.g. RUN/run.toml); options given here override it."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted run in --out."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the run in --out."),
    no_turns: bool = typer.Option(False, "--no-turns", help="Do not write the turns table."),
    no_events: bool = typer.Option(False, "--no-events", help="Do not write the events table."),
    python_loop: bool = typer.Option(False, "--python-loop", help="Play every ply on the Python loop instead of the engine's compiled play kernel (same games, slower: benchmarks, debugging)."),
    quiet: bool = typer.Option(False, "--quiet", help="Leave out the result table (win rate per strategy with its 95% interval, seat spread) printed after the run."),
    progress: bool = shared("progress", True),
) -> None:
    """Play games and write a run folder (games/, turns/, events/ Parquet, manifest.json, run.toml), then print
    the result: win rate per strategy with its 95% interval and the seat spread (--quiet leaves them out)."""
    # start-up: numba, imported when the command runs
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runfolder import simulate_base

    base = simulate_base(config, resume=resume, game=game, out=out)
    file_strategies = base.get("strategies")
    given = {"game": game, "players": players, "strategies": _strategies(strategies), "games": games, "seed": seed,
             "seating": _plain(seating),
             "batch_size": batch_size, "chunk_size": chunk_size, "n_jobs": n_jobs, "backend": _plain(backend), "scheduler": scheduler,
             "out": str(out) if out is not None else None, "content": str(content) if content is not None else None}
    _simulate_options(base, given, backend=backend, scheduler=scheduler, set_=set_, no_turns=no_turns,
                      no_events=no_events, python_loop=python_loop)
    _simulate_defaults(base, field, strategies, file_strategies)
    cfg = RunConfig.from_dict(base)
    plan, summary = _simulate_play(cfg, resume=resume, overwrite=overwrite, progress=progress)
    verb = "completed" if summary.resumed else "wrote"
    typer.echo(f"{verb} {summary.games:,} games of {cfg.game} to {summary.out} "
               f"({summary.games_played_now:,} played now in {summary.seconds:.1f} s, {rate_text(summary.games_per_second)} games/s)")
    typer.echo(plan.seating.describe())
    if not quiet:
        # start-up: polars and numba, imported when the command runs
        from meeplelab.analysis.run_summary import result_lines

        typer.echo("\n".join(result_lines(summary.out)))


def _simulate_options(base: dict, given: dict, *, backend, scheduler: Optional[str], set_: Optional[List[str]],
                      no_turns: bool, no_events: bool, python_loop: bool) -> None:
    """simulate: the command-line options over the config ``base`` (in place); ``given`` maps run config fields
    to option values (None = not given, so the config's value stays).

    Raises:
        ConfigError: a bad ``--set`` entry (:func:`meeplelab.sim.core.params.parse_set_options`).
    """
    for k, v in given.items():
        if v is not None:
            base[k] = v
    if backend is not None and _plain(backend) != "dask" and scheduler is None:
        base.pop("scheduler", None)  # a config's Dask address does not follow a run moved to another backend
    if set_:
        base["params"] = {**dict(base.get("params") or {}), **_params(set_)}
    if no_turns:
        base["log_turns"] = False
    if no_events:
        base["log_events"] = False
    if python_loop:
        base["compiled"] = False


def _simulate_defaults(base: dict, field, strategies: Optional[str], file_strategies) -> None:
    """simulate: the defaults for what neither the options nor the config gave, and ``--field`` (in place).

    Args:
        field: ``--field`` as given (None = the config's, else scripted).
        strategies: ``--strategies`` as given on the command line.
        file_strategies: the config file's strategies (None without one).

    Raises:
        typer.Exit: (code 2) no game or no output folder, from the options or the config.
        ConfigError: a strong field that cannot be seated (:func:`_strong_run`).
    """
    defaults = {"players": 4, "strategies": ("random",), "games": 2000, "seed": 0, "batch_size": 1024, "n_jobs": -1,
                "seating": "rotate"}
    for k, v in defaults.items():
        base.setdefault(k, v)
    if "game" not in base:
        _fail("--game is required: unconscious-mind or galileos-truth (see 'meeplelab games')")
    if "out" not in base:
        _fail("--out is required: the run folder to write")
    if field is not None:
        base["field"] = _plain(field)
    if base.get("field") == Field.ladder.value:
        # start-up: polars and numba, imported when the command runs
        from meeplelab.studies.field_ladder import ladder_refusal

        _fail(ladder_refusal("simulate"))
    if base.get("field") in (Field.heuristic.value, Field.tuned.value, Field.strong.value):
        _strong_run(base, strategies, file_strategies if field is None else None)


def _simulate_play(cfg, *, resume: bool, overwrite: bool, progress: bool):
    """simulate: play the run ``cfg`` (a RunConfig) and write its folder; returns (the resolved plan, the run's
    summary). A large loky run starts its workers while the run is resolved; they are stopped afterwards.

    Raises:
        ConfigError: bad input, content files too (reported before any game is played).
        typer.Exit: (code 130) interrupted; the note says what is kept and how to complete the run.
    """
    # start-up: numba, imported when the command runs
    from meeplelab.play import workers
    from meeplelab.play.runfolder import incomplete_note

    if cfg.backend == "loky" and cfg.n_jobs < 0 and cfg.games >= workers.WORKERS_AT_GAMES and not resume:
        workers.prestart(cfg.n_jobs)  # a large run: its workers start now, while the run is resolved here
    try:
        # start-up: numba, imported when the command runs
        from meeplelab.play.plan import resolve
        from meeplelab.play.runner import simulate as run

        plan = resolve(cfg)  # the run resolved once: simulate and the summary below use this plan
        plan.game  # bad input (content files too) is reported in one line before anything else is said
        # the compile notice (sim/jitcache.py) is said when numba really starts compiling, after every check
        try:
            with terminate_as_interrupt():
                summary = run(plan, resume=resume, overwrite=overwrite, progress=_draw(progress))
        except KeyboardInterrupt as e:
            _interrupted(e, incomplete_note(Path(cfg.out)))  # an interrupted --overwrite keeps the old run
    finally:
        workers.stop_pool()  # the run is written (or refused): its idle workers are ended, not waited for
    return plan, summary


def _strong_run(base: dict, strategies: Optional[str], old) -> None:
    """simulate with a played rung (``--field heuristic|tuned|strong``): its roster at ``base``'s seats into
    ``base["strategies"]`` (in place).

    Args:
        strategies: ``--strategies`` as given on the command line.
        old: the strategies of a run config whose field (strong) came from it as well, else None.

    Raises:
        typer.Exit: (code 2, one line) ``--strategies`` given as well (:func:`strong_refusal`), a run config whose
            field is a played rung holding other strategies.
        ConfigError: no players for the rung (no tuned preset for the game).
    """
    # start-up: numba, imported when the command runs
    from meeplelab.strategies.fields import roster

    field = base["field"]
    if strategies is not None:
        _fail(strong_refusal("--strategies", strategies, field))
    ids = roster(base["game"], field, base["players"])
    if old is not None and not set(old) <= set(ids):
        _fail(f"config fields 'field' is {field!r} and 'strategies' is {list(old)!r}: with field {field} the "
              f"strategies are the field's ({', '.join(dict.fromkeys(ids))}); allowed: leave strategies out, or "
              'field = "scripted"')
    base["strategies"] = ids


@app.command()
@user_errors
@reads_once
def report(
    runs: List[Path] = typer.Argument(..., help="Run folder(s), one experiment folder, or one tournament folder (reported as a whole)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Report folder (default RUN/report)."),
    stronger: Optional[Path] = typer.Option(None, "--stronger", help="A meeplelab stronger folder: its lines fill the "
                                            "section 'Does it hold for stronger players?' of a balance report; "
                                            "with an experiment folder, its restricted-play answers fill the "
                                            "section 'Asked by restricted play (tuned heuristic)'."),
    progress: bool = shared("progress", True),
) -> None:
    """Write a balance report (HTML and Markdown with charts) for one or more run folders or a tournament."""
    draw = _draw(progress)
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.reports import report_folders

    warnings, lines = report_folders(runs, out, stronger, draw)
    for line in warnings:
        typer.echo(line, err=True)
    for line in lines:
        typer.echo(line)


@app.command()
@user_errors
@configured
def sweep(
    game: str = game_option(),
    vary: List[str] = typer.Option(..., "--vary", help="name=v1,v2,... (repeatable; the cartesian product is run)."),
    players: int = typer.Option(4, "--players", help="Seats per game."),
    strategies: str = typer.Option("random", "--strategies", help="One strategy id per seat, comma separated, or one for all. Use scripted strategies for rule effects: random seats rarely react to a rule."),
    games: int = typer.Option(1000, "--games", help="Games per variant (in total over all seat orders)."),
    seating: Seating = shared("seating", Seating.rotate),
    field: Field = shared("field", Field.scripted),
    target: Optional[str] = typer.Option(None, "--target", help="STRATEGY=RATE: solve for the value of the first swept parameter that brings the strategy to the win rate (percent or fraction), with an interval from the paired data."),
    retune: int = typer.Option(0, "--retune", help="Games of each re-tuning: every tunable strategy of the roster is tuned under each variant's rules against the others and the variant played again, so the report gives each effect with the players fixed and re-tuned (0 = players fixed only)."),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed parameter override name=value (repeatable)."),
    out: Path = typer.Option(..., "--out", help="Sweep folder (one run folder per variant, plus report/)."),
    resume: bool = typer.Option(False, "--resume",
                                help="Complete the interrupted sweep in --out (the same options; a different sweep is refused)."),
    overwrite: bool = typer.Option(False, "--overwrite",
                                   help="Replace the sweep in --out (its variant folders and report are deleted)."),
    config: Optional[Path] = CONFIG_OPTION,
    progress: bool = shared("progress", True),
) -> None:
    """Run parameter variants on common seeds and chart each metric against the parameter."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.analysis.sweep import write_report
    from meeplelab.play.sweep import parse_vary, run_sweep
    from meeplelab.studies.retune import check_request, retune_sweep

    base = _run_config(set_, game=game, players=players, strategies=_strategies(strategies) or ("random",),
                       games=games, seed=seed, batch_size=batch_size, n_jobs=n_jobs, backend=_plain(backend),
                       scheduler=scheduler, out=str(out), seating=_plain(seating))
    v = parse_vary(vary)
    goal = None
    if target is not None:
        sid, _, rate = target.rpartition("=")
        try:
            r = float(rate)
        except ValueError:
            r = -1.0
        r = r / 100 if r > 1 else r
        if not sid or not 0 <= r <= 1:
            _fail(f"--target {target!r} needs the form STRATEGY=RATE with a win rate from 0 to 100 "
                  "(percent) or 0 to 1 (e.g. writer=25)")
        if sid not in base.strategies:  # checked before any variant is played
            _fail(f"--target: strategy {sid!r} is not in this sweep: allowed "
                  f"{', '.join(dict.fromkeys(base.strategies))}")
        goal = (sid, r)
    check_request(base, retune, out, resume=resume)  # before any game is played
    draw = _draw(progress)
    try:
        with terminate_as_interrupt():
            run_sweep(base, v, out, resume=resume, overwrite=overwrite, progress=draw, settings=_settings_text(),
                      on_variant=lambda i, n, name: _note(f"variant {i + 1}/{n}: {name}"),
                      finish=(lambda work: retune_sweep(base, work, retune, progress=draw, say=_note)) if retune else None)
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "sweep"))
    try:
        with terminate_as_interrupt():
            variants, page = write_report(out, goal, progress=draw)
    except KeyboardInterrupt as e:
        _interrupted(e, f"the sweep's games in {out} are complete but its report was not written; write it with the "
                        "same command and --resume")
    typer.echo(f"wrote {variants} variants to {out}; report {page}")


@app.command()
@user_errors
@configured
def experiment(
    game: str = game_option(),
    strategies: Optional[str] = typer.Option(None, "--strategies", help="With --control: the field, one strategy per other seat; with a rule-parameter --vary: the roster (one per seat, or one for all). Required unless --field strong."),
    vary: Optional[str] = typer.Option(None, "--vary", help="One axis: strategy.argument=v1,v2 (abjure-at.cycle=1,2,3,4, against --control), strategy=id1,id2 (strategy=citer against --control never-cite) or parameter=v1,v2 (the first value is the control)."),
    control: Optional[str] = typer.Option(None, "--control", help="The focal player's control strategy (never-abjure) for a strategy-argument axis or a treatment."),
    treat: Optional[str] = typer.Option(None, "--treat", help="Treatment of the focal player against the untreated control: NAME+n or NAME-n for a start resource of the game (coffee+1 = one more start Coffee; a bad name lists them)."),
    players: int = typer.Option(4, "--players", help="Seats per game."),
    games: int = typer.Option(2400, "--games", help="Games per arm in total over all seat orders."),
    seed: int = shared("seed", 0),
    seating: Seating = shared("seating", Seating.rotate),
    field: Field = shared("field", Field.scripted),
    rungs: Optional[str] = shared("rungs"),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed parameter override name=value (repeatable)."),
    out: Path = typer.Option(..., "--out", help="Experiment folder (one run folder per arm, plus report/)."),
    resume: bool = typer.Option(False, "--resume",
                                help="Complete the interrupted experiment in --out (the same options; a different experiment is refused)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the experiment in --out."),
    retune: int = typer.Option(0, "--retune", help="With a rule-parameter --vary: games of each re-tuning (every tunable strategy of the roster tuned under each arm's rules, the arm played again; the report gives each effect with the players fixed and re-tuned). 0 = players fixed only."),
    report: bool = typer.Option(True, "--report/--no-report",
                                help="Write the experiment report into --out/report (with --no-report, `meeplelab report "
                                     "OUT` writes the same report later)."),
    config: Optional[Path] = CONFIG_OPTION,
    progress: bool = shared("progress", True),
) -> None:
    """Effects by intervention: a control and its variants on common seeds in every seat order, reported as
    paired differences against the control (with the unpaired interval beside them)."""
    # start-up: numba, imported when the command runs
    from meeplelab.play.experiment import plan_experiment

    if strategies is None:
        _fail("Missing option '--strategies' (or give --field strong).")
    base = _run_config(set_, game=game, players=players, strategies=_strategies(strategies) or (), games=games,
                       seed=seed, batch_size=batch_size, n_jobs=n_jobs, backend=_plain(backend), scheduler=scheduler,
                       out=str(out), seating=_plain(seating))
    arms = plan_experiment(base, vary=vary, control=control, treat=treat)

    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.retune import check_request

    if retune > 0 and any("param" not in a.change for a in arms):
        _fail("--retune takes a rule-parameter --vary (parameter=v1,v2): with a strategy axis or a "
              "treatment the rules do not change between arms")
    check_request(base, retune, out, resume=resume)  # before any game is played
    draw = _draw(progress)
    _experiment_play(base, arms, out, retune=retune, overwrite=overwrite, resume=resume, draw=draw)
    if not report:
        typer.echo(f"wrote {len(arms)} arms to {out} ({arms[0].config.plan_for().describe()}); no report (write it "
                   f"with: meeplelab report {out})")
        return
    page = _experiment_report(arms, out, draw)
    typer.echo(f"wrote {len(arms)} arms to {out} ({arms[0].config.plan_for().describe()}); report {page}")


def _experiment_play(base, arms: list, out: Path, *, retune: int, overwrite: bool, resume: bool, draw: bool) -> None:
    """experiment: play every arm of ``arms`` (from :func:`meeplelab.play.experiment.plan_experiment`) into the
    experiment folder ``out``, with ``retune`` > 0 also every arm re-tuned and played again.

    Raises:
        typer.Exit: (code 130) interrupted; the note says what is kept and how to complete the experiment.
    """
    # start-up: numba, imported when the command runs
    from meeplelab.play.experiment import run_experiment

    def on_arm(i: int, n: int, name: str) -> None:
        if i == 0:  # the folder and a resume are checked by now: a refusal stays one line
            _note(f"{len(arms)} arms, {arms[0].config.plan_for().describe()}")
        _note(f"arm {i + 1}/{n}: {name}")

    try:
        with terminate_as_interrupt():
            # start-up: polars and numba, imported when the command runs
            from meeplelab.studies.retune import clear, run_retuned

            def retuned(work: Path) -> None:  # in the folder the experiment is built in, before it replaces another
                run_retuned(base, [{a.change["param"]: a.change["value"]} for a in arms],
                            [Path(a.config.out).name for a in arms], work, retune, progress=draw, say=_note)

            run_experiment(arms, out, overwrite=overwrite, resume=resume, on_variant=on_arm, progress=draw,
                           settings=_settings_text(), finish=retuned if retune else None if resume else clear)
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "experiment"))


@reads_once
def _experiment_report(arms: list, out: Path, draw: bool) -> Path:
    """experiment: the experiment report of the played ``arms`` into ``out``/report; returns the page's path.

    Raises:
        typer.Exit: (code 130) interrupted; the note says how to write the report later.
    """
    # start-up: polars and numba, imported when the command runs
    from meeplelab.analysis.experiment import write_report

    try:
        with terminate_as_interrupt():
            page = write_report([Path(a.config.out) for a in arms], out, progress=draw)
    except KeyboardInterrupt as e:
        from shlex import quote

        _interrupted(e, f"the experiment's games in {out} are complete but its report was not written; write it with: "
                        f"meeplelab report {quote(str(out))} (or run the same command again with --resume)")
    return page


class ContentMode(str, Enum):
    """``content-value --mode``: how an item's value is measured."""

    remove = "remove"
    deny = "deny"
    both = "both"


@app.command("content-value")
@user_errors
@configured
def content_value(
    game: str = game_option(),
    items: Optional[str] = typer.Option(None, "--items", help="Content items, one arm each (per mode): kind:id,kind:id (invention:telescope; a bare id when one kind has it). --list names them."),
    mode: ContentMode = typer.Option(ContentMode.remove, "--mode", help="remove: the item deleted from the content (every seat loses it); deny: the content unchanged, the item denied to one seat of every game (rotated so every seat is denied equally; any kind, also those that cannot be removed); both: a removal and a deny arm per item."),
    list_: bool = typer.Option(False, "--list", help="Print every content item of the game (kind, id, removable) and exit."),
    strategies: str = typer.Option("heuristic", "--strategies", help="The roster: one strategy per seat, or one for all seats."),
    players: int = typer.Option(4, "--players", help="Seats per game."),
    games: int = typer.Option(2400, "--games", help="Games per arm in total over all seat orders."),
    seed: int = shared("seed", 0),
    seating: Seating = shared("seating", Seating.rotate),
    field: Field = shared("field", Field.scripted),
    rungs: Optional[str] = shared("rungs"),
    content: Optional[Path] = typer.Option(None, "--content", help="The control's content folder (default: the packaged content); items are removed from it."),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed parameter override name=value (repeatable)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Experiment folder (one run folder per arm, plus report/)."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted content-value experiment in --out (the same options)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the experiment in --out."),
    retune: int = typer.Option(0, "--retune", help="Games of each re-tuning: every tunable strategy of --strategies is tuned under each arm's content (the control's and each removal's) against the others and the arm played again, so the report gives each item's value with the players fixed and re-tuned and what changed in the re-tuned players' play (--mode remove; 0 = players fixed only)."),
    config: Optional[Path] = CONFIG_OPTION,
    progress: bool = shared("progress", True),
) -> None:
    """The causal value of content items: each item removed from the content (--mode remove) and/or denied to
    one seat per game (--mode deny) in its own arm, played on common seeds in every seat order against the
    unchanged content and reported as paired differences."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.content_value import item_list, parse_items, report_lines, run_content_value

    if list_:
        for kind, ident, removable in item_list(game, content):
            typer.echo(f"{kind}:{ident}\t{'removable' if removable else 'fixed (--mode deny only)'}")
        return
    if items is None:
        _fail("--items is required (kind:id,kind:id, e.g. invention:telescope); --list names the items")
    if out is None:
        _fail("--out is required: the experiment folder to write")
    how = _plain(mode)
    chosen = parse_items(game, items, content, removable=how != "deny")
    base = _run_config(set_, game=game, players=players, strategies=_strategies(strategies) or (), games=games,
                       seed=seed, batch_size=batch_size, n_jobs=n_jobs, backend=_plain(backend), scheduler=scheduler,
                       out=str(out), seating=_plain(seating),
                       content=None if content is None else str(content))
    draw = _draw(progress)

    def on_arm(i: int, n: int, name: str) -> None:
        _note(f"arm {i + 1}/{n}: {name}")

    try:
        with terminate_as_interrupt():
            run_content_value(base, chosen, mode=how, overwrite=overwrite, resume=resume, on_variant=on_arm,
                              progress=draw, settings=_settings_text(), retune=retune, say=_note)
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "content-value experiment"))
    for line in report_lines(out, retune=retune, progress=draw):
        typer.echo(line)


@app.command()
@user_errors
@configured
def compare(
    game: str = game_option(),
    arm: List[str] = typer.Option(..., "--arm", help="One version (repeatable; the first is the reference): default, content=PATH (a folder of the game's content files, e.g. a copy of the packaged data folder with one card edited), a rule parameter NAME=VALUE, or several joined by ';' (content=packs/v2;printing_house=shared)."),
    players: str = typer.Option("4", "--players", help="Seats per game, or a list (2,3,4): every arm is played at each count."),
    strategies: Optional[str] = typer.Option(None, "--strategies", help="The roster, one strategy per seat or one for all (a mirror); default: the game study's rotated field at each seat count."),
    games: int = typer.Option(2400, "--games", help="Games per arm and seat count, in total over all seat orders."),
    field: Field = shared("field", Field.scripted),
    rungs: Optional[str] = shared("rungs"),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Parameter override every arm shares, name=value (repeatable)."),
    out: Path = typer.Option(..., "--out", help="Comparison folder (one run folder per arm and seat count, deltas.csv, report/)."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted comparison in --out (the same options)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the comparison in --out."),
    retune: int = typer.Option(0, "--retune", help="Games of each re-tuning: every tunable strategy of --strategies is tuned under each arm's rules against the others and the arm played again, so the report gives each change with the players fixed and re-tuned and what changed in the re-tuned players' play (arms of rule parameters; 0 = players fixed only)."),
    config: Optional[Path] = CONFIG_OPTION,
    progress: bool = shared("progress", True),
) -> None:
    """Rule and content versions side by side: every arm on the same seeds in every seat order, a verdict
    per version, then one paired delta table of everything (win rate, VP, rank, score categories, action and
    space use, events, Abjure/citation rates, seat spread, game length), each with its interval and games
    needed; the rows that changed (Holm-adjusted) are printed."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.compare import parse_players, result_lines, run_compare

    counts = parse_players(players)
    base = _run_config(set_, game=game, players=counts[0], strategies=("random",), games=games, seed=seed,
                       batch_size=batch_size, n_jobs=n_jobs, backend=_plain(backend), scheduler=scheduler, out=str(out))
    draw = _draw(progress)

    def on_run(i: int, n: int, cfg) -> None:
        _note(f"run {i + 1}/{n}: {Path(cfg.out).name} ({cfg.plan_for().describe()})")

    try:
        with terminate_as_interrupt():
            res = run_compare(base, list(arm), counts, None if _plain(field) != "scripted" else _strategies(strategies),
                              field=_plain(field), overwrite=overwrite, resume=resume,
                              on_run=on_run, progress=draw, settings=_settings_text(), retune=retune, say=_note)
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "comparison"))
    for line in result_lines(res, out, counts, retune):
        typer.echo(line)


def _exchange_curves(base, arms: list[str], names, doses: str, on_run, draw, *, resume: bool, overwrite: bool,
                     retune: int = 0) -> None:
    """``exchange-rates --arm``: play the curves (:func:`meeplelab.studies.exchange.run_curves`), print who gains
    first, then where everything was written."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.exchange import curve_lines, parse_doses, run_curves

    dose_list = parse_doses(doses)
    try:
        with terminate_as_interrupt():
            res = run_curves(base, arms, names, dose_list, overwrite=overwrite, resume=resume, on_run=on_run,
                             progress=draw, settings=_settings_text(), retune=retune, say=_note)
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(Path(base.out), "exchange-rate study"))
    for line in curve_lines(res, base.out, retune):
        typer.echo(line)


@app.command("exchange-rates")
@user_errors
@configured
def exchange_rates(
    game: str = game_option(),
    players: int = typer.Option(4, "--players", help="Seats per game."),
    strategies: Optional[str] = typer.Option(None, "--strategies", help="The roster, one distinct strategy per seat (default: the game study's rotated field)."),
    resources: Optional[str] = typer.Option(None, "--resources", help="Start resources to price, comma separated (default: every one the game declares; a bad name lists them)."),
    units: int = typer.Option(1, "--units", help="Extra units in each treated run (the table is per unit)."),
    arm: Optional[List[str]] = typer.Option(None, "--arm", help="A rules/content version as compare takes it (repeatable; the first is the reference): default, content=PATH, NAME=VALUE, or several joined by ';'. With --arm: dose-response curves per version and the paired change between versions."),
    doses: Optional[str] = typer.Option(None, "--doses", help="Extra start units per treated run, comma separated (default with --arm 0,1,2,3; 0, the control, is always played); implies --arm default when no --arm is given."),
    games: int = typer.Option(2400, "--games", help="Games per run (control and each treated run), in total over all seat orders."),
    field: Field = shared("field", Field.scripted),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed parameter override name=value (repeatable)."),
    out: Path = typer.Option(..., "--out", help="Study folder (control/, one run per resource and strategy, exchange_rates.md/.csv/.parquet)."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted study in --out (the same options)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the study in --out."),
    retune: int = typer.Option(0, "--retune", help="With two or more --arm: games of each re-tuning (every tunable strategy of the roster tuned under each version's rules and content against the others and the version's control played again; the report gives each strategy's change between the versions with the players fixed and re-tuned and what changed in the re-tuned players' play). 0 = players fixed only."),
    config: Optional[Path] = CONFIG_OPTION,
    progress: bool = shared("progress", True),
) -> None:
    """The exchange-rate table: for every start resource and every strategy, what one more unit at the start is
    worth in final VP and in points of win rate, paired on common seeds in every seat order, with intervals."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.compare import default_roster
    from meeplelab.studies.exchange import run_exchange, table_lines

    roster = _strategies(strategies) or default_roster(game, players)
    base = _run_config(set_, game=game, players=players, strategies=roster, games=games, seed=seed,
                       batch_size=batch_size, n_jobs=n_jobs, backend=_plain(backend), scheduler=scheduler, out=str(out),
                       log_turns=False, log_events=False)
    names = [x.strip() for x in resources.split(",") if x.strip()] if resources else None
    draw = _draw(progress)

    def on_run(i: int, n: int, cfg) -> None:
        if i == 0:
            _note(f"{n} runs, {cfg.plan_for().describe()}")
        _note(f"run {i + 1}/{n}: {Path(cfg.out).name}")

    if arm or doses is not None:  # curves between versions
        if units != 1:
            _fail(f"--units {units} with --arm/--doses: the curves take their sizes from --doses (e.g. "
                  "0,1,2,3); --units is the one-dose table's")
        _exchange_curves(base, list(arm or ["default"]), names, doses or "0,1,2,3", on_run, draw,
                         resume=resume, overwrite=overwrite, retune=retune)
        return
    if retune:
        _fail(f"--retune {retune}: the players are re-tuned to each rules/content version; give at least "
              "two --arm (the one-dose table has one version)")
    try:
        with terminate_as_interrupt():
            res = run_exchange(base, names, units, overwrite=overwrite, resume=resume, on_run=on_run, progress=draw,
                               settings=_settings_text())
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "exchange-rate study"))
    for line in table_lines(res, out):
        typer.echo(line)


@app.command()
@user_errors
@configured
def compensate(
    game: str = game_option(),
    players: str = typer.Option("2,3,4", "--players", help="Seat counts to compensate (2, 3 and/or 4)."),
    target: float = typer.Option(5.0, "--target", help="Seat spread wanted: best minus worst seat win rate, percentage points."),
    resource: str = typer.Option("vp", "--resource", help="What the seats get at setup (vp; Galileo's Truth also coins, research; Unconscious Mind also coffee)."),
    strategies: Optional[str] = typer.Option(None, "--strategies", help="One strategy for a mirror at every count; default: the game study's rotated field at each count."),
    games: int = typer.Option(2400, "--games", help="Games per candidate and seat count on the search seeds (every seat order)."),
    iterations: int = typer.Option(6, "--iterations", help="Most candidates played per seat count."),
    max_bonus: int = typer.Option(20, "--max-bonus", help="Largest bonus one seat may get."),
    verify_factor: int = typer.Option(2, "--verify-factor", help="The fresh-seed check plays this many times --games."),
    field: Field = shared("field", Field.scripted),
    rungs: Optional[str] = shared("rungs"),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed parameter override name=value (repeatable; not the compensation fields)."),
    out: Path = typer.Option(..., "--out", help="Compensation folder (search/, verify/, proposal.toml, compensation.md, side_effects.csv, report/)."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted solve in --out (the same options)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the solve in --out."),
    retune: int = typer.Option(0, "--retune", help="Games of each re-tuning: at every seat count every tunable strategy of the roster is tuned to the uncompensated rules and to the proposal against the others and both fresh-seed runs played again, so the report gives the proposal's effect on every strategy with the players fixed and re-tuned and what changed in the re-tuned players' play (0 = players fixed only)."),
    config: Optional[Path] = CONFIG_OPTION,
    progress: bool = shared("progress", True),
) -> None:
    """Propose per-seat start bonuses (seat_<resource>_<P>p rule fields) that bring the seat spread within
    --target at every seat count, verified on fresh seeds with its side effects (every strategy's win rate,
    VP, score categories, game length ... paired against no compensation)."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.compare import parse_players
    from meeplelab.studies.compensate import plan_compensate, result_lines, run_compensate

    # start-up: numba, imported when the command runs
    from meeplelab.play.parallel import check_backend

    check_backend(_plain(backend), scheduler, 1)  # the dask extra, the scheduler (--n-jobs is checked later)
    req = plan_compensate(game, parse_players(players), target, resource, games=games, seed=seed,
                          iterations=iterations, max_bonus=max_bonus, verify_factor=verify_factor,
                          strategies=None if _plain(field) != "scripted" else _strategies(strategies),
                          field=_plain(field), fixed=_params(set_), retune=retune)
    try:
        with terminate_as_interrupt():
            st = run_compensate(req, out, n_jobs=n_jobs, batch_size=batch_size, overwrite=overwrite, resume=resume,
                                progress=_note, backend=_plain(backend), scheduler=scheduler, draw=_draw(progress),
                                settings=_settings_text())
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "compensation solve"))
    for line in result_lines(st, req, out, retune):
        typer.echo(line)


@app.command()
@user_errors
@configured
def tournament(
    game: str = game_option(),
    strategies: Optional[str] = typer.Option(None, "--strategies", help="Strategy ids to compare, comma separated (two or more); required unless --field strong (its two players)."),
    players: Optional[int] = typer.Option(None, "--players", help="Seats per game, at least 2 (default: one per strategy)."),
    games: int = typer.Option(1000, "--games", help="Games per lineup (seat arrangement); every lineup plays the same seeds."),
    seed: int = shared("seed", 0),
    seating: Seating = shared("seating", Seating.rotate),
    field: Field = shared("field", Field.scripted),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Parameter override name=value (repeatable)."),
    every_profile: bool = typer.Option(False, "--every-profile",
                                       help="Also play lineups where a strategy holds several seats (the metagame needs them at 3+ seats)."),
    out: Path = typer.Option(..., "--out", help="Tournament folder (one run folder per lineup)."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted tournament in --out (the same options)."),
    overwrite: bool = typer.Option(False, "--overwrite",
                                   help="Replace the tournament in --out (its lineup folders are deleted)."),
    report: bool = typer.Option(True, "--report/--no-report", help="Write the tournament report into --out/report."),
    progress: bool = shared("progress", True),
    config: Optional[Path] = CONFIG_OPTION,
) -> None:
    """Every seat arrangement (lineup) of the strategies on common seeds: win rate against the fair share,
    head-to-head, ratings, seat effect and the metagame (report in --out/report).
    """
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.tournament import interrupted_note, result_lines, run_tournament

    if strategies is None:
        _fail("Missing option '--strategies' (or give --field strong).")
    if report:  # its metagame needs OpenSpiel: said before any game is played
        # start-up: numba, imported when the command runs
        from meeplelab.sim.core.extras import require

        require("openspiel", "the tournament report (its metagame; --no-report plays without it)")
    ids = list(_strategies(strategies) or ())
    n = players if players is not None else len(ids)
    try:
        with terminate_as_interrupt():
            tables = run_tournament(game, ids, n, games, seed, out, batch_size=batch_size, n_jobs=n_jobs,
                                    settings=_settings_text(),
                                    backend=_plain(backend), scheduler=scheduler, seating=_plain(seating),
                                    params=_params(set_), overwrite=overwrite, resume=resume,
                                    every_profile=every_profile, progress=_draw(progress), report=report,
                                    on_lineup=lambda i, k, u: _note(f"lineup {i + 1}/{k}: {', '.join(u)}"))
    except KeyboardInterrupt as e:
        _interrupted(e, interrupted_note(out))
    for line in result_lines(tables, out, games, n, report):
        typer.echo(line)


def _replay_command(argv: list[str]) -> str:
    """The ``meeplelab ladder`` command that plays these games again: ``argv`` without the options that only
    say how to write (--resume, --overwrite, --docs, --docs-file, --progress)."""
    import shlex

    keep, skip = [], False
    for a in map(str, argv):
        if skip:
            skip = False
            continue
        name = a.split("=", 1)[0]
        if name in ("--resume", "--overwrite", "--docs", "--progress", "--no-progress"):
            continue
        if name == "--docs-file":
            skip = "=" not in a
            continue
        keep.append(a)
    return shlex.join(["meeplelab", "ladder", *keep])


@app.command()
@user_errors
@configured
def ladder(
    game: str = game_option(),
    players: int = typer.Option(2, "--players", help="Seats per game: the rung in one seat, its opponent in the others."),
    budget: int = typer.Option(64, "--budget", help="Highest search budget (iterations per decision): the search rungs are --start-iters doubled up to it; 0 = no search rungs."),
    start_iters: int = typer.Option(8, "--start-iters", help="Iterations of the first search rung."),
    search: str = typer.Option("ismcts:par=8", "--search", help="The search strategy whose iters doubles, with its other arguments."),
    plans: Optional[str] = typer.Option(None, "--plans", help="The middle rungs: strategy ids, comma separated, usually scripted plans (default: every scripted plan of the game; random and heuristic are always rungs)."),
    tuned: Optional[str] = typer.Option(None, "--tuned", help="Preset file of the tuned heuristic (default docs/presets/GAME-heuristic-tuned.toml when it exists; none = no tuned rung)."),
    games_per_rung: int = typer.Option(200, "--games-per-rung", help="Games of each pairing over its seat orders (a multiple of --players)."),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 64),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Parameter override name=value (repeatable)."),
    out: Path = typer.Option(..., "--out", help="Ladder folder (one run folder per pairing, tables, chart, ladder.md)."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted ladder in --out (the same options)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the ladder in --out (its pairing folders are deleted)."),
    docs: bool = typer.Option(False, "--docs", help="Rewrite this game's ladder block in --docs-file with the result."),
    docs_file: Path = typer.Option(Path(__file__).resolve().parent / "docs" / "strategies.md", "--docs-file",
                                   help="Markdown file holding the '<!-- ladder GAME -->' blocks (default docs/strategies.md)."),
    progress: bool = shared("progress", True),
    config: Optional[Path] = CONFIG_OPTION,
) -> None:
    """The skill trace: every rung (random, each scripted plan, heuristic, tuned preset, the search at doubling
    budgets) against the heuristic and the rung below, every seat order on common seeds; where search strength
    stops rising; luck against skill (tables, ladder.png and ladder.md in --out)."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.analysis.ladder import check_docs, update_docs
    from meeplelab.studies.ladder import run_ladder

    if docs:
        check_docs(docs_file, game)  # before any game is played
    ids = None if plans is None else list(_strategies(plans) or ())
    command = _replay_command(sys.argv[2:]) if sys.argv[1:2] == ["ladder"] else "meeplelab ladder"
    try:
        with terminate_as_interrupt():
            meta = run_ladder(game, players=players, games_per_rung=games_per_rung, seed=seed, budget=budget,
                              start=start_iters, search=search, plans=ids, tuned="default" if tuned is None else tuned,
                              batch_size=batch_size, n_jobs=n_jobs, params=_params(set_), out=out,
                              overwrite=overwrite, resume=resume, progress=_draw(progress),
                              command=command, backend=_plain(backend), scheduler=scheduler,
                              settings=_settings_text(), on_pair=lambda i, k, p: _note(f"pairing {i + 1}/{k}: {p.focal} against {p.opponent}"))
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "ladder"))
    typer.echo(meta["report"])
    typer.echo(f"wrote {out / 'rungs.parquet'} (and .csv), pairs.parquet, luck.parquet, ladder.png and ladder.md")
    if docs:
        update_docs(docs_file, game, meta["report"])
        typer.echo(f"updated the {game} ladder block in {docs_file}")


@app.command()
@user_errors
@configured
def stronger(
    game: str = game_option(),
    sources: List[Path] = typer.Option(..., "--from", help="The scripted field's run folders (or a folder of them, "
                                       "runs/gt) and experiment folders (runs/gt-abjure), as the main job writes them "
                                       "(repeatable)."),
    games: int = typer.Option(800, "--games", help="Games per arm of each strong experiment and of the top strategy's run."),
    mirror_games: int = typer.Option(1200, "--mirror-games", help="Games of each strong mirror (one per player count)."),
    rungs: str = typer.Option("heuristic,tuned", "--rungs", help="The skill ladder's rungs above the scripted plans, "
                              "weakest first, comma separated: heuristic (default weights), tuned (the tuned "
                              "heuristic) or any strategy id; the last is the strong field of every line, each lower "
                              "rung re-measures the same conclusions beside it."),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", -1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    out: Path = typer.Option(..., "--out", help="Study folder (stronger.json, stronger.md and the runs it plays)."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted study in --out (the same options)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the study in --out."),
    progress: bool = shared("progress", True),
    config: Optional[Path] = CONFIG_OPTION,
) -> None:
    """Does it hold for stronger players? Re-measure the headline conclusions of scripted-field runs and
    experiments at every rung of the skill ladder (--rungs; default the heuristic, then the tuned heuristic, the
    strong field): seat spread per player count from mirrors, the top strategy's edge among them, every
    experiment's effect with them as the field; one line each: holds / changes by X [interval] / reverses at the
    strongest rung, and across the ladder: holds at every rung / depends on skill / only among scripted plans
    (meeplelab report RUNS --stronger OUT puts them in the report)."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.stronger import run_stronger

    try:
        with terminate_as_interrupt():
            r = run_stronger(game, sources, out, games=games, mirror_games=mirror_games, seed=seed, n_jobs=n_jobs,
                             batch_size=batch_size, backend=_plain(backend), scheduler=scheduler, overwrite=overwrite,
                             resume=resume, progress=_note, draw=_draw(progress), settings=_settings_text(),
                             rungs=[x.strip() for x in rungs.split(",") if x.strip()])
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "study"))
    for x in r["lines"]:
        typer.echo(x)
    typer.echo(f"wrote {Path(out) / 'stronger.json'} and stronger.md (meeplelab report RUNS --stronger {out})")


@app.command()
@user_errors
@configured
def tune(
    game: str = game_option(),
    strategy: str = typer.Option("heuristic", "--strategy", help="Strategy whose arguments are searched (e.g. heuristic)."),
    against: Optional[str] = typer.Option(None, "--against", help="The field: strategy ids it plays against, comma separated; required unless --field strong (the strong field)."),
    budget: int = typer.Option(4000, "--budget", help="Games for the search (all trials together)."),
    games_per_trial: int = typer.Option(50, "--games-per-trial", help="Games per lineup for each candidate."),
    eval_games: int = typer.Option(200, "--eval-games", help="Games per lineup in the held-out evaluation (fresh seeds)."),
    players: int = typer.Option(2, "--players", help="Seats per game (the candidate sits in every seat in turn)."),
    field: Field = shared("field", Field.scripted),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 1024),
    n_jobs: int = shared("n_jobs", 1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Parameter override name=value (repeatable)."),
    out: Path = typer.Option(..., "--out", help="Folder for preset.toml, tune.json and search.json."),
    resume: bool = typer.Option(False, "--resume",
                                help="Complete the interrupted tuning in --out (the same options; a different tuning is refused)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the files in --out."),
    start: Optional[Path] = typer.Option(None, "--start", help="A preset of --strategy to start from (e.g. OUT/preset.toml of an earlier tuning): it is the first candidate and the held-out evaluation's untuned strategy, and each weight w is searched in [w/2, 3w/2] (default: the strategy's defaults, a weight in [0, 2w])."),
    progress: bool = shared("progress", True),
    config: Optional[Path] = CONFIG_OPTION,
) -> None:
    """Search a strategy's arguments with Optuna on common seeds in all seat orders; write a preset
    (--strategies heuristic:preset=OUT/preset.toml) and evaluate it on fresh seeds (run seed --seed + 1)
    against the field and the untuned strategy. Each (field member, seat) pair of a trial is one task for
    --n-jobs workers."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.tune import summary_lines, tune as run_tune

    if against is None:
        _fail("Missing option '--against' (or give --field strong).")
    if players < 2:
        _fail(f"--players {players}: tuning needs at least 2 seats")
    for k, v in (("--budget", budget), ("--games-per-trial", games_per_trial), ("--eval-games", eval_games)):
        if v < 1:
            _fail(f"{k} {v}: must be at least 1")
    opponents = list(_strategies(against) or ())
    try:
        with terminate_as_interrupt():
            res = run_tune(game, strategy, opponents, budget=budget, games_per_trial=games_per_trial, seed=seed,
                           settings=_settings_text(),
                           players=players, eval_games=eval_games, params=_params(set_), out=out,
                           overwrite=overwrite, resume=resume, progress=_draw(progress), log=_note,
                           n_jobs=n_jobs, backend=_plain(backend), scheduler=scheduler, batch_size=batch_size,
                           start=None if start is None else str(start))
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "tuning"))
    typer.echo(f"tuned {res.strategy}: {', '.join(f'{k}={v}' for k, v in res.best_args.items())}")
    for line in summary_lines(res):
        typer.echo(line)
    typer.echo(f"wrote {out / 'preset.toml'} (use --strategies {res.strategy}:preset={out / 'preset.toml'}) "
               f"and {out / 'tune.json'}")


@app.command()
@user_errors
def replay(
    run: Path = typer.Argument(..., help="Run folder."),
    game_id: int = typer.Option(..., "--game-id", help="Game index within the run."),
) -> None:
    """Print one logged game turn by turn, in words a player recognises."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.analysis.replay import replay_text

    for line in replay_text(run, game_id):
        typer.echo(line)


class ExportFormat(str, Enum):
    """The file formats of ``meeplelab export``."""

    csv = "csv"
    json = "json"
    parquet = "parquet"


@app.command()
@user_errors
def export(
    run: Path = typer.Argument(..., help="Run folder (simulate --out)."),
    fmt: ExportFormat = typer.Option(ExportFormat.csv, "--format", help="File format of the tables."),
    out: Optional[Path] = typer.Option(None, "--out", help="Folder to write (default RUN/export-FORMAT)."),
    table: Optional[List[str]] = typer.Option(None, "--table", help="games, turns or events (repeat; default all three)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an earlier export in --out."),
) -> None:
    """Write a run's games, turns and events tables as CSV, JSON or Parquet files (only the parts its manifest lists)."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.analysis.export import export_run

    dest = out if out is not None else run / f"export-{fmt.value}"
    for path in export_run(run, dest, fmt.value, overwrite=overwrite, **({"tables": tuple(table)} if table else {})):
        typer.echo(f"wrote {path}")


@app.command()
@user_errors
def bench(
    games: str = typer.Option("unconscious-mind,galileos-truth", "--games", help="Games to measure, comma separated."),
    quick: bool = typer.Option(False, "--quick", help="Smaller game counts (smoke run)."),
    memory: bool = typer.Option(True, "--memory/--no-memory", help="Measure peak memory of 10k and 200k-game runs."),
    only: str = typer.Option("throughput,memory,sweep,profile", "--only",
                             help="Parts to measure: throughput, memory, sweep, profile, compile, compiled, baseline (compiled play "
                                  "against the Python-loop path of the last commit before compiled play), search "
                                  "(ismcts against the heuristic), composite (robustness, balance, tune, sweep, experiment and "
                                  "tournament against simulate on the same games) (comma separated)."),
    scale: float = typer.Option(1.0, "--scale", help="Scale the throughput game counts."),
    out: Optional[Path] = typer.Option(None, "--out", help="Results file (Markdown); results.json is kept beside it.",
                                       show_default="benchmarks/RESULTS.md when the current folder has a benchmarks "
                                                    "folder (a checkout's root), else RESULTS.md here"),
) -> None:
    """Measure games/s, batch and n_jobs scaling, peak memory, Parquet bytes per game, a profile and the
    sweep at scale; stores rows in results.json beside --out and renders the Markdown from all of them."""
    if out is None:  # any folder: a checkout's root keeps its results in benchmarks/, elsewhere they land here
        out = Path("benchmarks/RESULTS.md") if Path("benchmarks").is_dir() else Path("RESULTS.md")
    # start-up: numba, imported when the command runs
    from meeplelab.benchmarks.bench import PARTS, SCALE_MAX, scale_refusal, main as bench_main

    bad = [x for x in only.split(",") if x and x not in PARTS]
    if bad:
        _fail(f"--only: unknown part {bad[0]!r}; allowed {', '.join(PARTS)}")
    if not 0 < scale <= SCALE_MAX:  # nan too
        _fail(scale_refusal(scale))
    if not out.parent.is_dir():
        _fail(f"--out {out}: folder {out.parent} does not exist; allowed a file in an existing folder")
    args = (["--games", games, "--out", str(out), "--only", only, "--scale", str(scale)]
            + (["--quick"] if quick else []) + ([] if memory else ["--no-memory"]))
    bench_main(args)


@app.command("games")
def games_cmd() -> None:
    """List the games."""
    # start-up: numba, imported when the command runs
    from meeplelab.sim.registry import available_games, get_game_class

    for name in available_games():
        try:
            cls = get_game_class(name)
            typer.echo(f"{name:18s} {cls.title} ({cls.min_players}-{cls.max_players} players, {cls.num_actions} actions)")
        except (ImportError, AttributeError) as e:  # an engine that is not installed or failed to import
            typer.echo(f"{name:18s} (unavailable: {e})")


@app.command("strategies")
@user_errors
def strategies_cmd(game: str = game_argument()) -> None:
    """List the strategies for a game, with their arguments."""
    # start-up: numba, imported when the command runs
    from meeplelab.sim.registry import get_game_class
    from meeplelab.strategies.registry import strategies_for

    get_game_class(game)
    for s in strategies_for(game):
        typer.echo(f"{s.name}: {s.doc}")
        for k, a in s.args.items():
            rng = f" [{a.lo}..{a.hi}]" if a.lo is not None or a.hi is not None else ""
            typer.echo(f"    {k}={a.default} ({a.type.__name__}{rng}): {a.doc}")


@app.command("actions")
@user_errors
def actions_cmd(game: str = game_argument()) -> None:
    """List every action id of a game: its label (what a bot matches on) and what taking it does."""
    # start-up: numba, imported when the command runs
    from meeplelab.sim.action_table import action_rows, format_rows
    from meeplelab.sim.registry import make_game

    g = make_game(game)
    typer.echo(format_rows(g, action_rows(g)))


@app.command()
@user_errors
@configured
def robustness(
    game: str = game_option(),
    budget: int = typer.Option(..., "--budget", help="Games to play in all (defaults, Morris and Sobol stages)."),
    out: Path = typer.Option(..., "--out", help="Robustness folder (design, points/, results, report/)."),
    games_per_lineup: Optional[int] = typer.Option(None, "--games-per-lineup",
                                                   help="Games per lineup at each design point (default: the study's)."),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 4096),
    n_jobs: int = shared("n_jobs", 1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    sobol_max: int = typer.Option(5, "--sobol-max", help="Most assumptions taken into the Sobol stage."),
    field: Field = shared("field", Field.scripted),
    rungs: Optional[str] = shared("rungs"),
    strategies: Optional[str] = typer.Option(None, "--strategies",
                                             help="The roster the conclusions are measured among, one strategy per "
                                                  "seat of the largest field or one for all (e.g. the tuned heuristic "
                                                  "heuristic:preset=docs/presets/GAME-heuristic-tuned.toml); not "
                                                  "together with --field strong."),
    resume: bool = typer.Option(False, "--resume", help="Complete the interrupted run in --out (same options)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the robustness run in --out."),
    progress: bool = shared("progress", True),
    config: Optional[Path] = CONFIG_OPTION,
) -> None:
    """Which balance conclusions survive the assumed rule numbers: Morris screening then Sobol indices over
    the plausible ranges (sim/<game>/data/plausible.toml), scripted strategies in rotated seats on common
    seeds (--seed keys the design and every game; --field strong: the strong field in every seat order and the
    conclusions that name no scripted plan; --strategies: a roster you name, in rotated seats at every seat count
    up to its size); a verdict per conclusion in out/report/robustness.html
    and .md. Each design point is one task for --n-jobs workers; a line per point when no bar is drawn."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.robustness import run_robustness

    if budget < 1:
        _fail(f"--budget {budget}: must be a number of games >= 1")
    if n_jobs == 0 or n_jobs < -1:
        _fail(f"--n-jobs {n_jobs}: allowed -1 (all cores) or a number >= 1")
    if batch_size < 1:
        _fail(f"--batch-size {batch_size}: must be >= 1")
    if sobol_max < 1:
        _fail(f"--sobol-max {sobol_max}: must be >= 1")
    cmd = (f"meeplelab robustness --game {game} --budget {budget} --out {out} --seed {seed}"
           + (f" --games-per-lineup {games_per_lineup}" if games_per_lineup is not None else "")
           + (f" --sobol-max {sobol_max}" if sobol_max != 5 else "")
           + (f" --field {_plain(field)}" if _plain(field) != "scripted" else "")
           + (f" --strategies {strategies}" if strategies is not None else ""))
    study = _balance_study(game, _plain(field), strategies)
    try:
        with terminate_as_interrupt():
            draw = _draw(progress)
            res = run_robustness(game, out, budget, games=games_per_lineup, seed=seed, n_jobs=n_jobs, study=study,
                                 resume=resume, overwrite=overwrite, sobol_max=sobol_max, batch_size=batch_size,
                                 backend=_plain(backend), scheduler=scheduler, progress_bar=draw,
                                 settings=_settings_text(),
                                 progress=None if draw else _note, command=cmd)
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "robustness run"))
    page = res["page"]
    for c in res["json"]["conclusions"]:
        typer.echo(f"{c['title']}: {c['statement']}: {c['verdict']}")
    typer.echo(f"wrote {page}")


@app.command()
@user_errors
@configured
def balance(
    game: str = game_option(),
    vary: List[str] = typer.Option(..., "--vary", help="name=LOW..HIGH to search (repeatable; tuples as 0,4,8..0,6,12; a choice "
                                                        "parameter as name=A,B,...: first_player_rule=rotate,fewest-vp)."),
    target: List[str] = typer.Option(..., "--target",
                                     help="seat-spread<=P, strategy-excess<=P, length=LOW..HIGH, or a conclusion of "
                                          "the study: abjure-cycle-3=-1..1 (repeatable; docs/robustness.md)."),
    out: Path = typer.Option(..., "--out", help="Balance folder (trials, re-check, proposal.toml, report/)."),
    trials: int = typer.Option(30, "--trials", help="Candidates to evaluate (Optuna TPE)."),
    games_per_lineup: Optional[int] = typer.Option(None, "--games-per-lineup",
                                                   help="Games per rotated lineup per candidate (default: the study's)."),
    recheck: int = typer.Option(3, "--recheck", help="Best candidates re-played on fresh seeds."),
    recheck_factor: int = typer.Option(2, "--recheck-factor",
                                       help="The re-check plays this many times --games-per-lineup (narrower intervals)."),
    field: Field = shared("field", Field.scripted),
    rungs: Optional[str] = shared("rungs"),
    strategies: Optional[str] = typer.Option(None, "--strategies",
                                             help="The players the targets are measured among, one per seat of the "
                                                  "largest field (comma-separated ids): a rotated field at every seat "
                                                  "count up to their number, the first P of them at P seats (default: "
                                                  "the game's study; not together with --field strong)."),
    retune: int = typer.Option(0, "--retune", help="Games of each re-tuning: every tunable strategy of each rotated "
                                                   "field is tuned under the defaults and under the proposal, and both "
                                                   "are measured again, so the report gives the targets and side "
                                                   "effects with the players fixed and re-tuned (0 = players fixed "
                                                   "only)."),
    seed: int = shared("seed", 0),
    batch_size: int = shared("batch_size", 4096),
    n_jobs: int = shared("n_jobs", 1),
    backend: Backend = shared("backend", Backend.loky),
    scheduler: Optional[str] = shared("scheduler"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="Fixed parameter override name=value (repeatable)."),
    resume: bool = typer.Option(False, "--resume",
                                help="Complete the interrupted balance search in --out (the same options; a different search is refused)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace the balance search in --out."),
    progress: bool = shared("progress", True),
    config: Optional[Path] = CONFIG_OPTION,
) -> None:
    """Search rule numbers for designer targets on common seeds (Optuna; --seed keys the search and its games,
    the fresh seeds of the re-check are derived from it), re-check the best on fresh seeds, and propose a
    parameter set as a --set line and proposal.toml (simulate --config accepts it). Each lineup of a
    candidate is one task for --n-jobs workers; --field strong measures the targets on the strong field, --strategies
    on the players named; --retune BUDGET re-checks the proposal with players re-tuned to it."""
    # start-up: polars and numba, imported when the command runs
    from meeplelab.studies.balance import run_balance

    if recheck < 1:
        _fail(f"--recheck {recheck}: must be >= 1")
    if recheck_factor < 1:
        _fail(f"--recheck-factor {recheck_factor}: must be >= 1")
    try:
        with terminate_as_interrupt():
            s = run_balance(game, list(vary), list(target), out, trials=trials, games=games_per_lineup, seed=seed,
                            study=_balance_study(game, _plain(field), strategies, retune), retune=retune,
                            settings=_settings_text(),
                            recheck=recheck, recheck_factor=recheck_factor, fixed=_params(set_), overwrite=overwrite,
                            resume=resume, progress=_note, n_jobs=n_jobs, backend=_plain(backend), scheduler=scheduler,
                            batch_size=batch_size, progress_bar=_draw(progress))
    except KeyboardInterrupt as e:
        _interrupted(e, _study_note(out, "balance search"))
    p = s["proposal"]
    if p["met"] == 0:
        typer.echo("no candidate met any target on fresh seeds; the closest candidate"
                   + (" is the default rules" if s.get("proposal_is_defaults") else "") + ":")
    typer.echo(f"{'proposal' if p['met'] else 'closest candidate'} (trial {p['trial']}) meets {p['met']} of "
               f"{len(s['targets'])} targets on fresh seeds "
               f"(whole 95% interval inside for {p['met_interval']}): "
               + "; ".join(f"{t} {p[t]:.2f} [{p[t + ' low']:.2f}, {p[t + ' high']:.2f}]" for t in s["targets"]))
    r = s.get("retuned")
    if r:
        typer.echo(f"with the players re-tuned to the defaults and to the proposal ({r['budget']:,} games each "
                   f"re-tuning): meets {r['met']} of {r['measured']} re-measured targets on fresh seeds (whole 95% "
                   f"interval inside for {r['met_interval']}); see the report's 'Players fixed and players re-tuned'")
    typer.echo(s["set_line"])
    typer.echo(f"wrote {out / 'proposal.toml'} and {s['page']}")


def _balance_study(game: str, field: str, strategies: str | None, retune: int = 0):
    """balance's study: a played rung's (``--field heuristic|tuned|strong``), the roster named by ``--strategies``
    (:func:`meeplelab.analysis.studies.roster_study`), or None (the game's scripted study).

    Raises:
        typer.Exit: (code 2, one line) both given (:func:`strong_refusal`), or ``--retune`` with a tuned rung.
        ConfigError: a bad roster, no tuned preset for the game.
    """
    if strategies is not None and field != "scripted":
        _fail(strong_refusal("--strategies", strategies, field))
    if field in ("tuned", "strong") and retune:
        _fail(f"--retune {retune} and --field {field} are given together: the {field} field is tuned already (its "
              "heuristic is a preset); allowed: --retune with the scripted study or --strategies naming tunable players "
              "(e.g. heuristic,writer)")
    # start-up: polars and numba, imported when the command runs
    from meeplelab.analysis.studies import roster_study, strong_study

    if field != "scripted":  # the game's study played by the rung's players
        return strong_study(game, field)
    if strategies is not None:
        ids = [x.strip() for x in strategies.split(",") if x.strip()]
        return roster_study(game, ids)
    return None


@app.command("params")
@user_errors
def params_cmd(game: str = game_argument()) -> None:
    """List every rule parameter of a game: default, unit, source or assumption ID, and for assumptions the
    plausible range and its reason (sim/<game>/data/plausible.toml)."""
    # start-up: numba, imported when the command runs
    from meeplelab.sim.plausible import param_lines
    from meeplelab.sim.registry import get_game_class

    warnings, lines = param_lines(get_game_class(game))
    for line in warnings:
        typer.echo(line, err=True)
    for line in lines:
        typer.echo(line)


def main() -> None:
    """Console-script entry point: run the app, usage errors as one line with exit code 2."""
    if len(sys.argv) <= 1:  # bare `meeplelab`: the help on stdout, exit 0 (not a usage error)
        sys.argv.append("--help")
    try:
        rc = app(standalone_mode=False, prog_name="meeplelab")
    except _ClickException as e:
        typer.echo(f"error: {_bad_option_value(e) or e.format_message()}", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except RuntimeError as e:
        if "no locator available" not in str(e):
            raise
        # start-up: numba, imported only when numba could not cache a kernel anywhere
        from meeplelab.sim.jitcache import no_cache_message

        typer.echo(f"error: {no_cache_message()}", err=True)
        sys.exit(2)
    sys.exit(rc if isinstance(rc, int) else 0)


if __name__ == "__main__":
    main()
