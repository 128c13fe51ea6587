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

from meeplelab.play.config import RunConfig
from meeplelab.sim.core.params import apply_overrides


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
    cfg, cls = config.checked_with_class()  # the game class looked up once
    params = apply_overrides(cls.Params(), cfg.params)
    seating = cfg.plan_for()
    regs = None
    if cfg.backend == "dask" or (cfg.backend == "loky" and cfg.n_jobs != 1):  # played in other processes
        from meeplelab.play.shipping import collect

        regs = collect(cfg.game, cfg.strategies)
    plan = RunPlan(cfg, cls, params, seating, tuple(chunk_bounds(seating.games, cfg.chunk_games(seating))), regs)
    if cfg.treatment is not None:
        cfg.check_treatment(cfg.players, plan.game)
    return plan
