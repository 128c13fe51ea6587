"""Run settings of every command that plays games, as pydantic models: one validation path.

Each command's settings (``meeplelab simulate``, ``sweep``, ``experiment``, ``tournament``, ``tune``,
``robustness``, ``balance``, ``content-value``, ``compare``, ``exchange-rates``, ``compensate``) are one model below; the fields every command shares (``game``, ``seed``,
``out``) are in :class:`CommandSettings`. A field's name is the command's option without its dashes
(``--games-per-lineup`` is ``games_per_lineup``), except ``--set name=value``, which is the ``params``
table, and for ``simulate`` the fields of :class:`meeplelab.play.config.RunConfig` (``--no-turns`` is
``log_turns = false``, ``--python-loop`` is ``compiled = false``).

Every model has ``field`` (``--field``: a rung of the skill ladder, ``scripted``, ``heuristic``, ``tuned`` or
``strong``, :mod:`meeplelab.strategies.fields`); with a rung other than ``scripted`` the resolved settings hold the
rung's ids in ``strategies`` (``tune``: ``against``) as well, so the folder says both what was asked and what was
played. ``--field ladder`` runs the command once per rung, each rung's folder keeping its own settings; the models
of the commands that take ``--field ladder`` have ``rungs`` too (``--rungs``: the rungs it plays, default every rung).

The values a user gives, from the command line and from a ``--config FILE.toml``, are validated by
the command's model (:func:`validate`): a key the model does not have is refused in one line naming
the key and listing the allowed ones, a value of the wrong type in one line naming the field, the
value and the type allowed (``config field 'seed' is '7' (str): it must be an integer``). Every count (games,
batch and chunk sizes, workers, trials, iterations...) has an upper bound declared once here (:data:`BOUNDS`,
the field types :data:`Games`, :data:`BatchSize`...): a value above it is refused in one line saying the bound and
why (``--games 1000000000000: at most 10,000,000 games: ...``) when the settings are validated, before anything
is allocated or written. Lower bounds and names (a game, a strategy, a parameter) are checked where they are
used, in one line each.
The resolved settings are written into the command's output folder as ``config.toml``
(:func:`settings_toml`; ``simulate``'s are its ``run.toml``), so ``meeplelab CMD --config
OUT/config.toml --out NEW`` repeats the command exactly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any, NamedTuple, Optional

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, StrictBool, StrictFloat, StrictInt, StrictStr, \
    ValidationError
from pydantic_core import PydanticCustomError

from meeplelab.sim.core.errors import ConfigError, allowed_by

#: the name of the resolved settings file in a command's output folder
SETTINGS_FILE = "config.toml"


def _fspath(v):
    return os.fspath(v) if isinstance(v, os.PathLike) else v


def split_strategies(text: str, option: str = "--strategies") -> tuple[str, ...]:
    """Strategy ids of a comma-separated list, each keeping its own arguments.

    ``"heuristic:vp=1,coins=0.3,random"`` -> ``("heuristic:vp=1,coins=0.3", "random")``: a token of the
    form ``name=value`` (an ``=`` before any ``:``; strategy ids never contain ``=``) continues the
    argument list of the strategy before it. Empty tokens are skipped.

    Raises:
        ConfigError: an argument with no strategy before it, or after a strategy without ``:``.
    """
    out: list[str] = []
    for tok in (t.strip() for t in text.split(",")):
        if not tok:
            continue
        is_arg = "=" in tok and ":" not in tok.split("=", 1)[0]
        if not is_arg:
            out.append(tok)
        elif not out:
            raise ConfigError(f"{option} {text!r}: argument {tok!r} has no strategy before it: "
                              f"write it after the strategy id, as in heuristic:{tok}")
        elif ":" not in out[-1]:
            raise ConfigError(f"{option} {text!r}: argument {tok!r} follows {out[-1]!r}, which has no argument list: "
                              f"write {out[-1]}:{tok}")
        else:
            out[-1] = f"{out[-1]},{tok}"
    return tuple(out)


def split_or_none(text: str) -> tuple[str, ...] | None:
    """:func:`split_strategies` of ``text``, or None when it does not split (an argument with no strategy before it)."""
    try:
        return split_strategies(text)
    except ConfigError:
        return None


def _ids(v):
    """A comma-separated string of strategy ids as the ids (:func:`split_strategies`)."""
    if isinstance(v, str):
        return split_strategies(v, "strategies")
    return v


def _one_or_list(v):
    return [v] if isinstance(v, str) else v


#: a path or text (a path object is taken as its string)
Text = Annotated[StrictStr, BeforeValidator(_fspath)]
#: strategy ids: a list of strings, or one comma-separated string (split keeping each id's arguments)
Ids = Annotated[tuple[StrictStr, ...], BeforeValidator(_ids)]
#: repeatable option values (``--vary``, ``--target``): a list of strings, or one string
Items = Annotated[tuple[StrictStr, ...], BeforeValidator(_one_or_list)]
#: a TOML table
Table = dict[str, Any]

#: fields holding strategy ids (their type error names both forms allowed)
ID_FIELDS = ("strategies", "against")


# --- upper bounds of the counts --------------------------------------------------------------------------------
#: where the costs below are measured: benchmarks/RESULTS.md (about 4,000 games/s on two cores, up to 2.2 KB of
#: Parquet a game with every log, 650 MiB peak per playing process)
_GAMES_WHY = ("about 45 minutes of play at 4,000 games/s and 20 GB of Parquet with every log: split more over "
              "several runs with different --seed")


class Bound(NamedTuple):
    """An upper bound, said in the refusal: the largest value allowed (``most``), what it counts (``unit``:
    ``games``) and why (``why``: what a larger value would cost)."""

    most: int
    unit: str
    why: str


#: the upper bound of every count field, by field name (a command's option is the name with dashes)
BOUNDS: dict[str, Bound] = {
    "games": Bound(10_000_000, "games", _GAMES_WHY),
    "batch_size": Bound(65_536, "games per batch", "a batch's states, log buffers and tables are held in memory at "
                        "once (about 100 KB a game with every log: over 6 GB at the bound)"),
    "chunk_size": Bound(100_000, "games per chunk", "a chunk's tables stay in memory until its part files are "
                        "written (about 40 KB a game with every log: 4 GB at the bound)"),
    "n_jobs": Bound(1_024, "workers", "each is a process of its own (up to 650 MiB while playing) and more workers "
                    "than cores play no faster; -1 uses every core"),
    "trials": Bound(10_000, "candidates", "each plays its games on every lineup"),
    "recheck": Bound(1_000, "candidates", "each is played again on fresh seeds"),
    "factor": Bound(100, "times the games", "the games of each check are multiplied by it"),
    "iterations": Bound(1_000, "candidates", "each plays --games games at every seat count"),
    "units": Bound(1_000, "units", "far beyond any start resource the rules hand out (a table per unit of a start "
                   "no game reaches)"),
    "sobol_max": Bound(100, "assumptions", "the Sobol stage plays (k + 2) x N design points for k assumptions"),
    "iters": Bound(100_000, "iterations per decision", "the search strategy (ismcts) takes at most 100,000 "
                   "(strategy argument iters)"),
    "players": Bound(64, "players", "no game seats more (each game's own range is checked as well)"),
}


def too_large_text(name: str, value, bound: Bound) -> str:
    """The one line refusing count field ``name`` (a command's option without dashes) at ``value`` above ``bound``."""
    return f"--{name.replace('_', '-')} {value}: at most {bound.most:,} {bound.unit}: {bound.why}"


def _refused(text: str) -> PydanticCustomError:
    """A validation error whose message is the whole one-line refusal (:func:`error_text` says it as it is)."""
    return PydanticCustomError("bound", "{text}", {"text": text})


def _at_most(kind: str):
    """A validator refusing a value above ``BOUNDS[kind]`` (:func:`too_large_text`, naming the field)."""
    bound = BOUNDS[kind]

    def check(v, info):
        if isinstance(v, int) and v > bound.most:
            raise _refused(too_large_text(info.field_name, v, bound))
        return v

    return AfterValidator(check)


#: the largest run seed (a seed is a 63-bit key of every game's streams)
SEED_MAX = 2**63 - 1


def _seed(v):
    if isinstance(v, int) and not 0 <= v <= SEED_MAX:
        raise _refused(f"--seed must be an integer from 0 to 2**63-1, got {v}")
    return v


#: count fields, each with its upper bound (:data:`BOUNDS`)
Games = Annotated[StrictInt, _at_most("games")]
BatchSize = Annotated[StrictInt, _at_most("batch_size")]
ChunkSize = Annotated[StrictInt, _at_most("chunk_size")]
Jobs = Annotated[StrictInt, _at_most("n_jobs")]
Trials = Annotated[StrictInt, _at_most("trials")]
Recheck = Annotated[StrictInt, _at_most("recheck")]
Factor = Annotated[StrictInt, _at_most("factor")]
Iterations = Annotated[StrictInt, _at_most("iterations")]
Units = Annotated[StrictInt, _at_most("units")]
SobolMax = Annotated[StrictInt, _at_most("sobol_max")]
Iters = Annotated[StrictInt, _at_most("iters")]
Players = Annotated[StrictInt, _at_most("players")]
#: a run seed, 0 to 2**63-1
Seed = Annotated[StrictInt, AfterValidator(_seed)]


class CommandSettings(BaseModel):
    """The settings every command that plays games shares.

    Attributes:
        game: game id (``meeplelab games``).
        seed: run seed (>= 0): every game's streams are keyed by it (common random numbers).
        out: the output folder (a folder's own ``config.toml`` stores ``"."``: the folder itself).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: StrictStr
    seed: Seed = 0
    out: Text


class SimulateSettings(CommandSettings):
    """``meeplelab simulate``: the fields of :class:`meeplelab.play.config.RunConfig` (see there), a run's ``run.toml``."""

    players: Players
    strategies: Ids
    games: Games
    batch_size: BatchSize = 1024
    chunk_size: Optional[ChunkSize] = None
    n_jobs: Jobs = 1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    out: Text = "runs/run"
    params: Table = {}
    content: Optional[Text] = None
    log_turns: StrictBool = True
    log_events: StrictBool = True
    seating: Text = "fixed"
    treatment: Optional[Table] = None
    compiled: StrictBool = True
    field: Text = "scripted"


class SweepSettings(CommandSettings):
    """``meeplelab sweep``: parameter variants on common seeds (``vary``: ``name=v1,v2`` items)."""

    vary: Items
    players: Players = 4
    strategies: Ids = ("random",)
    games: Games = 1000
    seating: Text = "rotate"
    target: Optional[Text] = None
    batch_size: BatchSize = 1024
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    retune: Games = 0


class ExperimentSettings(CommandSettings):
    """``meeplelab experiment``: a control and its variants (``vary``, ``control``, ``treat``); ``strategies``
    required unless ``field`` is ``strong``."""

    strategies: Optional[Ids] = None
    vary: Optional[Text] = None
    control: Optional[Text] = None
    treat: Optional[Text] = None
    players: Players = 4
    games: Games = 2400
    seating: Text = "rotate"
    batch_size: BatchSize = 1024
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    rungs: Optional[Text] = None
    retune: Games = 0
    report: StrictBool = True


class TournamentSettings(CommandSettings):
    """``meeplelab tournament``: every lineup of ``strategies`` (``players``: default one per strategy); ``strategies``
    required unless ``field`` is ``strong``."""

    strategies: Optional[Ids] = None
    players: Optional[Players] = None
    games: Games = 1000
    seating: Text = "rotate"
    batch_size: BatchSize = 1024
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    every_profile: StrictBool = False
    report: StrictBool = True
    field: Text = "scripted"


class TuneSettings(CommandSettings):
    """``meeplelab tune``: ``strategy``'s arguments searched against the field ``against`` (required unless
    ``field`` is ``strong``: then the strong field), from the preset ``start`` (None: the defaults)."""

    strategy: Text = "heuristic"
    against: Optional[Ids] = None
    start: Optional[Text] = None
    budget: Games = 4000
    games_per_trial: Games = 50
    eval_games: Games = 200
    players: Players = 2
    batch_size: BatchSize = 1024
    n_jobs: Jobs = 1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"


class RobustnessSettings(CommandSettings):
    """``meeplelab robustness``: Morris then Sobol over the plausible ranges, ``budget`` games in all."""

    budget: Games
    games_per_lineup: Optional[Games] = None
    batch_size: BatchSize = 4096
    n_jobs: Jobs = 1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    sobol_max: SobolMax = 5
    field: Text = "scripted"
    rungs: Optional[Text] = None
    strategies: Optional[Ids] = None


class BalanceSettings(CommandSettings):
    """``meeplelab balance``: rule numbers (``vary``: ``name=LOW..HIGH``) searched for ``target``s."""

    vary: Items
    target: Items
    trials: Trials = 30
    games_per_lineup: Optional[Games] = None
    recheck: Recheck = 3
    recheck_factor: Factor = 2
    batch_size: BatchSize = 4096
    n_jobs: Jobs = 1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    rungs: Optional[Text] = None
    strategies: Optional[Ids] = None
    retune: Games = 0


#: a number: an integer or a float (a TOML ``5`` or ``5.0``), not a string or a bool
Number = StrictInt | StrictFloat


class ContentValueSettings(CommandSettings):
    """``meeplelab content-value``: ``items`` (``kind:id,...``) removed and/or denied to one seat (``mode``)."""

    items: Optional[Text] = None
    mode: Text = "remove"
    strategies: Ids = ("heuristic",)
    players: Players = 4
    games: Games = 2400
    seating: Text = "rotate"
    content: Optional[Text] = None
    batch_size: BatchSize = 1024
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    out: Optional[Text] = None  # type: ignore[assignment]  # a pydantic field may narrow: content-value's is optional
    field: Text = "scripted"
    rungs: Optional[Text] = None
    retune: Games = 0


class CompareSettings(CommandSettings):
    """``meeplelab compare``: rule and content versions (``arm``: one item per ``--arm``) side by side."""

    arm: Items
    players: Text = "4"
    strategies: Optional[Ids] = None
    games: Games = 2400
    batch_size: BatchSize = 1024
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    rungs: Optional[Text] = None
    retune: Games = 0


class ExchangeRatesSettings(CommandSettings):
    """``meeplelab exchange-rates``: what ``units`` more of each start resource is worth to each strategy; with
    ``arm`` (one item per ``--arm``, as compare's) and ``doses``, dose-response curves per version."""

    players: Players = 4
    strategies: Optional[Ids] = None
    resources: Optional[Text] = None
    units: Units = 1
    arm: Optional[Items] = None
    doses: Optional[Text] = None
    games: Games = 2400
    batch_size: BatchSize = 1024
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    retune: Games = 0


class CompensateSettings(CommandSettings):
    """``meeplelab compensate``: per-seat start bonuses solved for a seat-spread ``target`` (points)."""

    players: Text = "2,3,4"
    target: Number = 5.0
    resource: Text = "vp"
    strategies: Optional[Ids] = None
    games: Games = 2400
    iterations: Iterations = 6
    max_bonus: Units = 20
    verify_factor: Factor = 2
    batch_size: BatchSize = 1024
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    rungs: Optional[Text] = None
    retune: Games = 0


#: the settings model of each command
class LadderSettings(CommandSettings):
    """``meeplelab ladder``: the skill trace (rungs against the heuristic and the rung below)."""

    players: Players = 2
    budget: Iters = 64
    start_iters: Iters = 8
    search: Text = "ismcts:par=8"
    plans: Optional[Text] = None
    tuned: Optional[Text] = None
    games_per_rung: Games = 200
    batch_size: BatchSize = 64
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}


def _paths(v):
    """A path or a list of paths as absolute paths (a settings file written into an output folder repeats from any folder)."""
    return [os.path.abspath(os.fspath(x)) for x in _one_or_list(v)] if isinstance(v, (str, list, tuple)) or hasattr(v, "__fspath__") \
        else v


class StrongerSettings(CommandSettings):
    """``meeplelab stronger``: the scripted field's runs and experiments (``sources``, as absolute paths, so the
    study repeats from any folder) re-measured with the strong field."""

    sources: Annotated[tuple[StrictStr, ...], BeforeValidator(_paths)]
    games: Games = 800
    mirror_games: Games = 1200
    rungs: Text = "heuristic,tuned"
    batch_size: BatchSize = 1024
    n_jobs: Jobs = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None


MODELS: dict[str, type[CommandSettings]] = {
    "simulate": SimulateSettings, "sweep": SweepSettings, "experiment": ExperimentSettings,
    "tournament": TournamentSettings, "tune": TuneSettings, "robustness": RobustnessSettings,
    "balance": BalanceSettings, "content-value": ContentValueSettings, "compare": CompareSettings,
    "exchange-rates": ExchangeRatesSettings, "compensate": CompensateSettings, "ladder": LadderSettings,
    "stronger": StrongerSettings,
}


def _type_text(key: str, err: Mapping[str, Any]) -> str:
    """What a field allows, in the words of the one-line errors (after ``config field K is V (T): ``)."""
    kind = err.get("type", "")
    if len(err.get("loc", ())) > 1:  # an item of a list
        return 'it must be a list of strings (as ["a", "b"]) or one string'
    if kind == "bool_type":
        return "allowed true or false"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "it must be an integer"
    if kind == "string_type":
        return "it must be a string"
    if kind == "dict_type":
        return f"it must be a table ({key} = {{ name = value }})"
    if kind in ("tuple_type", "list_type"):
        return 'it must be a list of strings (as ["a", "b"]) or one string'
    return f"allowed {allowed_by(err)}"


def error_text(e: ValidationError, data: Mapping, model: type[BaseModel], *, missing_ok: bool = False) -> str | None:
    """One line for a pydantic error of ``model`` on ``data``: an unknown key (the allowed keys listed),
    a missing one, a count above its bound (:func:`too_large_text`) or a value of the wrong type (named with
    the type allowed); None when ``missing_ok`` and only required fields are missing."""
    errs = [x for x in e.errors() if not (missing_ok and x.get("type") == "missing")]
    if not errs:
        return None
    order = {"extra_forbidden": 0, "missing": 1}
    err = min(errs, key=lambda x: order.get(x.get("type"), 2))
    key = str(err["loc"][0]) if err.get("loc") else "?"
    kind = err.get("type")
    if kind == "extra_forbidden":
        return f"unknown config key {key!r}: allowed: {', '.join(sorted(model.model_fields))}"
    if kind == "missing":
        return f"config is missing {key!r}"
    v = data.get(key, err.get("input"))
    if kind == "bound":  # the validator's own line (a count above its bound, a seed out of range)
        return err["ctx"]["text"]
    if key in ID_FIELDS:
        return (f"config field {key!r} is {v!r}: it must be a list of strategy ids (strings, as "
                '["publisher", "citer"]) or one comma-separated string')
    return f"config field {key!r} is {v!r} ({type(v).__name__}): {_type_text(key, err)}"


def validate(model: type[CommandSettings], data: Mapping, *, partial: bool = False) -> CommandSettings | None:
    """``data`` validated as ``model`` (a command's settings).

    Args:
        data: ``{field: value}``, from a TOML file, the command line, or both merged.
        partial: check only the keys given (a config file that leaves required fields to the command
            line); returns None.

    Raises:
        ConfigError: one line: an unknown key (the allowed keys listed), a missing required field, a
            value of the wrong type (``config field 'games' is 20.0 (float): it must be an integer``), a count
            above its bound (:data:`BOUNDS`), or strategy ids that do not split
            (:func:`split_strategies`).
    """
    try:
        m = model.model_validate(dict(data))
    except ValidationError as e:
        text = error_text(e, data, model, missing_ok=partial)
        if text is not None:
            raise ConfigError(text) from None
        return None
    return None if partial else m


def plain(value):
    """A settings value as TOML holds it: tuples as lists, tables' tuples too."""
    if isinstance(value, tuple):
        return [plain(x) for x in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def settings_toml(settings: CommandSettings) -> str:
    """The TOML text of resolved settings as an output folder stores them (``config.toml``): every field
    with its value (defaults included, None left out: TOML has no null), ``out = "."`` (the folder
    itself, so a moved folder still repeats), tables and lists as TOML writes them."""
    import tomli_w

    d = {k: plain(v) for k, v in settings.model_dump().items() if v is not None}
    d["out"] = "."
    return tomli_w.dumps(d)
