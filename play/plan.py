"""A run resolved once: the :class:`RunPlan` every part of a run works from.

``meeplelab simulate`` and :func:`meeplelab.play.runner.simulate` take a :class:`meeplelab.play.config.RunConfig` (what the
user asked for, as text and numbers) and resolve it here, once: the config validated with one
strategy per seat, the game class looked up, the parameter overrides parsed into the game's
``Params``, the seating plan and the chunks. The runner, the manifest writer, the resume check and
every worker (the plan is pickled into each joblib task) use these values and never parse or look
anything up again.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from meeplelab.play.config import BACKENDS, RunConfig, check_scheduler
from meeplelab.play.deny import Denial
from meeplelab.play.settings import SimulateSettings, validate
from meeplelab.play.shipping import collect
from meeplelab.play.treatments import start_resources
from meeplelab.sim.core import start
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.extras import require as require_extra
from meeplelab.sim.core.game import Game
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.registry import get_game_class, make_game
from meeplelab.strategies.fields import check_field
from meeplelab.strategies.registry import make_strategy


@dataclass(frozen=True)
class RunPlan:
    """One run, resolved.

    Attributes:
        config: the validated config (``strategies`` one per seat).
        game_cls: the engine class (pickled by reference: a worker imports its module, so games
            registered by plugins or tests exist there too).
        params: the game's ``Params`` with the overrides applied (parsed once, checked by
            ``Params.check``).
        seating: the :class:`meeplelab.play.seating.SeatingPlan` (which seat order and game seed each game index plays).
        chunks: ``((lo, hi), ...)`` game index ranges, one per joblib task and part file.
        registrations: the strategies the run uses that a worker process would not have (registered
            outside the built-in modules: a script, a test), pickled (:mod:`meeplelab.play.shipping`); installed by
            each worker before its first chunk. None when there are none or the run plays in this process.
    """

    config: RunConfig
    game_cls: type
    params: Any
    seating: Any
    chunks: tuple
    registrations: Any = None

    @cached_property
    def game(self):
        """The engine instance (made once per process; content files read and validated)."""
        return self.game_cls(params=self.params, content_dir=self.config.content)

    def with_content(self, content: str | None) -> "RunPlan":
        """The same plan playing from another content folder (the run folder's own copy)."""
        return dataclasses.replace(self, config=dataclasses.replace(self.config, content=content))

    def for_elsewhere(self) -> "RunPlan":
        """The same plan for a worker whose working folder is another (a Dask worker): the run folder and the content
        folder as absolute paths (relative preset paths travel with the task: :func:`meeplelab.play.shipping.in_folder`)."""
        cfg = self.config
        return dataclasses.replace(self, config=dataclasses.replace(
            cfg, out=os.path.abspath(cfg.out), content=None if cfg.content is None else os.path.abspath(cfg.content)))

    def __getstate__(self):  # the engine instance is made again where the plan is unpickled
        d = dict(self.__dict__)
        d.pop("game", None)
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)


def chunk_bounds(games: int, size: int) -> list[tuple[int, int]]:
    """``[(lo, hi), ...]`` game index ranges of ``size`` games (the last may be shorter)."""
    return [(lo, min(lo + size, games)) for lo in range(0, games, size)]


def resolve(config: RunConfig) -> RunPlan:
    """Validate ``config`` and resolve it into a :class:`RunPlan` (the one place a run's game class,
    parameters, seating and chunks are worked out).

    Raises:
        ConfigError: any bad value of the config (one line naming it and what is allowed).
    """
    cfg, cls = check(config)  # the game class looked up once
    params = apply_overrides(cls.Params(), cfg.params)
    seating = cfg.plan_for()
    regs = None
    if cfg.backend == "dask" or (cfg.backend == "loky" and cfg.n_jobs != 1):  # played in other processes
        regs = collect(cfg.game, cfg.strategies)
    plan = RunPlan(cfg, cls, params, seating, tuple(chunk_bounds(seating.games, cfg.chunk_games(seating))), regs)
    if cfg.treatment is not None:
        check_treatment(cfg, plan.game)
    return plan


def validated(config: RunConfig) -> RunConfig:
    """``config`` with strategies expanded to one per seat; ConfigError on any bad value (the checks of
    :func:`resolve`, which also parses the parameters and plans the seating)."""
    return resolve(config).config


def check(config: RunConfig) -> tuple[RunConfig, type[Game]]:
    """The checks that need no parameter parsing or seating plan: ``config`` with strategies expanded to one per
    seat, and the game class it looked up (:func:`resolve` looks it up once).

    Raises:
        ConfigError: a field of the wrong type (an int field holding a string, float or bool, as ``seed = "7"``
            in a config file; a bool field holding anything but true or false, as ``compiled = "false"``; a
            text field holding a number; ``params`` or ``treatment`` not a table; ``strategies`` not a list of
            strings; the types are :class:`meeplelab.play.settings.SimulateSettings`'s, the one validation path of
            a run's settings), a bad game, player count, strategy, count, seed, backend or content folder.
    """
    if isinstance(config.strategies, str):  # a RunConfig holds one id per entry; a config file may give text
        raise ConfigError(f"config field 'strategies' is {config.strategies!r}: it must be a list of strategy ids "
                          '(strings, as ["publisher", "citer"]) or one comma-separated string')
    validate(SimulateSettings, {f.name: getattr(config, f.name) for f in dataclasses.fields(config)})
    cls = get_game_class(config.game)
    if not isinstance(config.players, int) or not (cls.min_players <= config.players <= cls.max_players):
        raise ConfigError(f"{config.game} takes {cls.min_players} to {cls.max_players} players, got {config.players}")
    strategies = _roster(config)
    for s in strategies:
        make_strategy(config.game, s)
    _check_numbers(config)
    if config.content is not None and not os.path.isdir(config.content):
        raise ConfigError(f"content folder {config.content!r} does not exist")
    check_field(config.field)
    return dataclasses.replace(config, strategies=strategies), cls


def _roster(config: RunConfig) -> tuple[str, ...]:
    """The strategy ids of ``config``, one per seat (a single id repeated) or a pool of more than ``players``.

    Raises:
        ConfigError: a pool under fixed seating or a treatment, a pool repeating an id, or a count that is neither
            one, one per seat nor a pool.
    """
    strategies, players = tuple(config.strategies), config.players
    if len(strategies) == 1:
        strategies = strategies * players
    if len(strategies) > players and len(strategies) > 1:  # a pool: P of them per game (play/seating.py)
        if config.seating == "fixed" or config.treatment:
            why = "--seating fixed" if config.seating == "fixed" else "a treatment (an experiment's focal seat)"
            raise ConfigError(f"{len(strategies)} strategies given for {players} players with {why}: give "
                              "one per seat, or seat a pool of more strategies than seats with --seating rotate "
                              "or random")
        if len(set(strategies)) != len(strategies):
            raise ConfigError(f"{len(strategies)} strategies given for {players} players repeat an id "
                              f"({','.join(strategies)}): a pool of more strategies than seats lists each once")
    elif len(strategies) != players:
        raise ConfigError(
            f"{len(strategies)} strategies given for {players} players: give one per seat, one for all, "
            "or (rotated or random seating) a pool of more strategies than seats, each once")
    return strategies


def _check_numbers(config: RunConfig) -> None:
    """ConfigError on a bad count, seed, worker count, backend or Dask scheduler of ``config``."""
    if not isinstance(config.games, int) or config.games < 1:
        raise ConfigError(f"--games must be at least 1, got {config.games}")
    if not isinstance(config.batch_size, int) or config.batch_size < 1:
        raise ConfigError(f"--batch-size must be at least 1, got {config.batch_size}")
    if config.chunk_size is not None and (not isinstance(config.chunk_size, int) or config.chunk_size < 1):
        raise ConfigError(f"--chunk-size must be at least 1, got {config.chunk_size}")
    if not isinstance(config.seed, int) or config.seed < 0 or config.seed >= 2**63:
        raise ConfigError(f"--seed must be an integer from 0 to 2**63-1, got {config.seed}")
    if not isinstance(config.n_jobs, int) or config.n_jobs == 0 or config.n_jobs < -1:
        raise ConfigError(f"--n-jobs must be a positive integer or -1 (all cores), got {config.n_jobs}")
    if config.backend not in BACKENDS:
        raise ConfigError(f"unknown backend {config.backend!r}: allowed: {', '.join(BACKENDS)}")
    if config.backend == "dask":
        require_extra("dask", "--backend dask")
        if not config.scheduler:
            raise ConfigError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    check_scheduler(config.backend, config.scheduler)


def check_treatment(config: RunConfig, game=None) -> None:
    """ConfigError unless ``config.treatment`` names a roster position and a start resource the game's spec
    declares (``GameSpec.start_resources``: the refusal lists them); for a game that declares none, a
    per-seat ``[B, P]`` integer array of its state (checked on one initialised game: ``game``, or one
    made here). ``{"deny": "kind:id"}`` is checked by :class:`meeplelab.play.deny.Denial`."""
    t, players = dict(config.treatment or {}), config.players
    if game is None:
        game = make_game(config.game, config.make_params(), config.content)
    if set(t) == {"deny"}:  # a content item denied to one seat per game (meeplelab.play.deny)
        Denial(game, t["deny"])
        return
    if set(t) != {"position", "field", "add"}:
        raise ConfigError(f"treatment {t!r} needs exactly the keys position, field, add (a start resource) or "
                          "the key deny (a content item kind:id denied to one seat)")
    if not isinstance(t["position"], int) or not 0 <= t["position"] < players:
        raise ConfigError(f"treatment position {t['position']!r} must be a roster position 0 to {players - 1}")
    if not isinstance(t["add"], int):
        raise ConfigError(f"treatment add {t['add']!r} must be an integer")
    res = start_resources(config.game)
    if res:
        start.find(res, str(t["field"]), config.game, what="treatment field")
        return
    state = game.init(np.zeros(1, np.int64), 0, players)
    arr = getattr(state, str(t["field"]), None)
    if not (isinstance(arr, np.ndarray) and arr.ndim == 2 and arr.shape[1] == players
            and np.issubdtype(arr.dtype, np.integer)):
        raise ConfigError(f"treatment field {t['field']!r} is not a per-seat integer array of the "
                          f"{config.game} state (e.g. coffee)")
