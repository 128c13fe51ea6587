"""Run settings of every command that plays games, as pydantic models: one validation path.

Each command's settings (``meeplelab simulate``, ``sweep``, ``experiment``, ``tournament``, ``tune``,
``robustness``, ``balance``, ``content-value``, ``compare``, ``exchange-rates``, ``compensate``) are one model below; the fields every command shares (``game``, ``seed``,
``out``) are in :class:`CommandSettings`. A field's name is the command's option without its dashes
(``--games-per-lineup`` is ``games_per_lineup``), except ``--set name=value``, which is the ``params``
table, and for ``simulate`` the fields of :class:`meeplelab.play.config.RunConfig` (``--no-turns`` is
``log_turns = false``, ``--python-loop`` is ``compiled = false``).

Every model has ``field`` (``--field``: ``scripted`` or ``strong``, :mod:`meeplelab.strategies.fields`); with
``strong`` the resolved settings hold the strong field's ids in ``strategies`` (``tune``: ``against``) as well,
so the folder says both what was asked and what was played.

The values a user gives, from the command line and from a ``--config FILE.toml``, are validated by
the command's model (:func:`validate`): a key the model does not have is refused in one line naming
the key and listing the allowed ones, a value of the wrong type in one line naming the field, the
value and the type allowed (``config field 'seed' is '7' (str): it must be an integer``). Ranges and
names (a game, a strategy, a parameter) are checked where they are used, as before, in one line each.
The resolved settings are written into the command's output folder as ``config.toml``
(:func:`settings_toml`; ``simulate``'s are its ``run.toml``), so ``meeplelab CMD --config
OUT/config.toml --out NEW`` repeats the command exactly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, StrictBool, StrictFloat, StrictInt, StrictStr, ValidationError

from meeplelab.sim.core.errors import ConfigError, allowed_by

#: the name of the resolved settings file in a command's output folder
SETTINGS_FILE = "config.toml"


def _fspath(v):
    return os.fspath(v) if isinstance(v, os.PathLike) else v


def _ids(v):
    """A comma-separated string of strategy ids as the ids (``meeplelab.play.config.split_strategies``)."""
    if isinstance(v, str):
        from meeplelab.play.config import split_strategies

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


class CommandSettings(BaseModel):
    """The settings every command that plays games shares.

    Attributes:
        game: game id (``meeplelab games``).
        seed: run seed (>= 0): every game's streams are keyed by it (common random numbers).
        out: the output folder (a folder's own ``config.toml`` stores ``"."``: the folder itself).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: StrictStr
    seed: StrictInt = 0
    out: Text


class SimulateSettings(CommandSettings):
    """``meeplelab simulate``: the fields of :class:`meeplelab.play.config.RunConfig` (see there), a run's ``run.toml``."""

    players: StrictInt
    strategies: Ids
    games: StrictInt
    batch_size: StrictInt = 1024
    chunk_size: Optional[StrictInt] = None
    n_jobs: StrictInt = 1
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
    players: StrictInt = 4
    strategies: Ids = ("random",)
    games: StrictInt = 1000
    seating: Text = "rotate"
    target: Optional[Text] = None
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    retune: StrictInt = 0


class ExperimentSettings(CommandSettings):
    """``meeplelab experiment``: a control and its variants (``vary``, ``control``, ``treat``); ``strategies``
    required unless ``field`` is ``strong``."""

    strategies: Optional[Ids] = None
    vary: Optional[Text] = None
    control: Optional[Text] = None
    treat: Optional[Text] = None
    players: StrictInt = 4
    games: StrictInt = 2400
    seating: Text = "rotate"
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    retune: StrictInt = 0
    report: StrictBool = True


class TournamentSettings(CommandSettings):
    """``meeplelab tournament``: every lineup of ``strategies`` (``players``: default one per strategy); ``strategies``
    required unless ``field`` is ``strong``."""

    strategies: Optional[Ids] = None
    players: Optional[StrictInt] = None
    games: StrictInt = 1000
    seating: Text = "rotate"
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    every_profile: StrictBool = False
    report: StrictBool = True
    field: Text = "scripted"


class TuneSettings(CommandSettings):
    """``meeplelab tune``: ``strategy``'s arguments searched against the field ``against`` (required unless
    ``field`` is ``strong``: then the strong field)."""

    strategy: Text = "heuristic"
    against: Optional[Ids] = None
    budget: StrictInt = 4000
    games_per_trial: StrictInt = 50
    eval_games: StrictInt = 200
    players: StrictInt = 2
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = 1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"


class RobustnessSettings(CommandSettings):
    """``meeplelab robustness``: Morris then Sobol over the plausible ranges, ``budget`` games in all."""

    budget: StrictInt
    games_per_lineup: Optional[StrictInt] = None
    batch_size: StrictInt = 4096
    n_jobs: StrictInt = 1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    sobol_max: StrictInt = 5
    field: Text = "scripted"


class BalanceSettings(CommandSettings):
    """``meeplelab balance``: rule numbers (``vary``: ``name=LOW..HIGH``) searched for ``target``s."""

    vary: Items
    target: Items
    trials: StrictInt = 30
    games_per_lineup: Optional[StrictInt] = None
    recheck: StrictInt = 3
    recheck_factor: StrictInt = 2
    batch_size: StrictInt = 4096
    n_jobs: StrictInt = 1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"
    strategies: Optional[Ids] = None
    retune: StrictInt = 0


#: a number: an integer or a float (a TOML ``5`` or ``5.0``), not a string or a bool
Number = StrictInt | StrictFloat


class ContentValueSettings(CommandSettings):
    """``meeplelab content-value``: ``items`` (``kind:id,...``) removed and/or denied to one seat (``mode``)."""

    items: Optional[Text] = None
    mode: Text = "remove"
    strategies: Ids = ("heuristic",)
    players: StrictInt = 4
    games: StrictInt = 2400
    seating: Text = "rotate"
    content: Optional[Text] = None
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    out: Optional[Text] = None
    field: Text = "scripted"


class CompareSettings(CommandSettings):
    """``meeplelab compare``: rule and content versions (``arm``: one item per ``--arm``) side by side."""

    arm: Items
    players: Text = "4"
    strategies: Optional[Ids] = None
    games: StrictInt = 2400
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"


class ExchangeRatesSettings(CommandSettings):
    """``meeplelab exchange-rates``: what ``units`` more of each start resource is worth to each strategy."""

    players: StrictInt = 4
    strategies: Optional[Ids] = None
    resources: Optional[Text] = None
    units: StrictInt = 1
    games: StrictInt = 2400
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"


class CompensateSettings(CommandSettings):
    """``meeplelab compensate``: per-seat start bonuses solved for a seat-spread ``target`` (points)."""

    players: Text = "2,3,4"
    target: Number = 5.0
    resource: Text = "vp"
    strategies: Optional[Ids] = None
    games: StrictInt = 2400
    iterations: StrictInt = 6
    max_bonus: StrictInt = 20
    verify_factor: StrictInt = 2
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None
    params: Table = {}
    field: Text = "scripted"


#: the settings model of each command
class LadderSettings(CommandSettings):
    """``meeplelab ladder``: the skill trace (rungs against the heuristic and the rung below)."""

    players: StrictInt = 2
    budget: StrictInt = 64
    start_iters: StrictInt = 8
    search: Text = "ismcts:par=8"
    plans: Optional[Text] = None
    tuned: Optional[Text] = None
    games_per_rung: StrictInt = 200
    batch_size: StrictInt = 64
    n_jobs: StrictInt = -1
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
    games: StrictInt = 800
    mirror_games: StrictInt = 1200
    batch_size: StrictInt = 1024
    n_jobs: StrictInt = -1
    backend: Text = "loky"
    scheduler: Optional[Text] = None


MODELS: dict[str, type[CommandSettings]] = {
    "simulate": SimulateSettings, "sweep": SweepSettings, "experiment": ExperimentSettings,
    "tournament": TournamentSettings, "tune": TuneSettings, "robustness": RobustnessSettings,
    "balance": BalanceSettings, "content-value": ContentValueSettings, "compare": CompareSettings,
    "exchange-rates": ExchangeRatesSettings, "compensate": CompensateSettings, "ladder": LadderSettings,
    "stronger": StrongerSettings,
}


def _type_text(key: str, err: dict) -> str:
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
    a missing one, or a value of the wrong type (named with the type allowed); None when ``missing_ok``
    and only required fields are missing."""
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
            value of the wrong type (``config field 'games' is 20.0 (float): it must be an integer``), or
            strategy ids that do not split (``meeplelab.play.config.split_strategies``).
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
