"""Run configuration: what ``meeplelab simulate`` runs, as one validated value.

A run is fully described by a :class:`RunConfig`; it is written into every run folder as
``run.toml`` so ``meeplelab simulate --config RUN/run.toml --out NEW`` repeats it exactly. Paths in
a config file are relative to the file's folder (see :func:`load_toml`).
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from meeplelab.play.seating import plan_seating
from meeplelab.play.settings import SimulateSettings, validate
from meeplelab.sim.core.content import not_utf8
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.registry import get_game_class

BACKENDS = ("loky", "threading", "dask")
#: games a chunk (joblib task, part file) holds at least by default: few part files for fast plans
CHUNK_GAMES = 1024
#: with more than one worker, a run of fewer games is cut into this many chunks per worker at least (never
#: one chunk for two workers: a search run of 800 games at 50 games/s would be played by one worker)
CHUNKS_PER_WORKER = 4


def check_scheduler(backend: str | None, scheduler: str | None) -> None:
    """ConfigError when a Dask scheduler address is given without the dask backend (it would be ignored).

    Raises:
        ConfigError: ``scheduler`` set and ``backend`` not ``dask``, naming both and what to do.
    """
    if scheduler and backend != "dask":
        raise ConfigError(f"--scheduler {scheduler} is used only with --backend dask (this command has --backend "
                          f"{backend or 'loky'}): add --backend dask, or leave --scheduler out to run on this machine")


@dataclass(frozen=True)
class RunConfig:
    """One simulation run.

    Attributes:
        game: game id (``unconscious-mind``, ``galileos-truth``).
        players: seats per game (the game's supported range).
        strategies: one strategy id per seat, the roster (a single id is repeated for every seat: a
            mirror match); under ``rotate`` or ``random`` seating also a *pool* of more distinct ids than
            seats, ``players`` of them seated per game (every ordered choice of ``players`` of the pool,
            :func:`meeplelab.play.seating.plan_seating`).
        games: number of games (>= 1), the total over all seat orders.
        seating: ``rotate`` (every strategy in every seat equally often, seat orders on common game
            seeds), ``random`` (a seat order drawn per game) or ``fixed`` (strategy k in seat k); see
            :mod:`meeplelab.play.seating`. The dataclass default is ``fixed`` (runs written before seating
            existed, tournament lineups); the CLI defaults to ``rotate``.
        treatment: ``{"position": k, "field": name, "add": n}``: the roster entry ``k`` (wherever the
            seat order puts it) starts with ``n`` more of the state's per-seat array ``name``
            (``coffee``: +1 start Coffee for one player); see :mod:`meeplelab.play.experiment`. Or
            ``{"deny": "kind:id"}``: that content item is denied to roster position ``game seed mod P``
            of every game (removed from its legal mask; :mod:`meeplelab.play.deny`).
        seed: run seed (>= 0); game ``i`` uses streams keyed by (seed, i).
        batch_size: games advanced together in one batch (the vector width of the kernels).
        chunk_size: games per joblib task and per part file (a whole number of batches; default: the
            smallest multiple of ``batch_size`` that is at least :data:`CHUNK_GAMES` (1024); under rotated
            seating with fewer game seeds per seat order than ``batch_size``, the smallest number of whole
            seat orders holding at least that many; with ``n_jobs`` above 1 (or -1 on a machine of several
            cores), no more than the whole batches (or seat orders) that cut the run into
            :data:`CHUNKS_PER_WORKER` chunks per worker). Chunks never change the games.
        n_jobs: joblib workers (-1 = all cores).
        backend: ``loky`` (processes), ``threading`` or ``dask`` (needs ``scheduler``).
        scheduler: Dask scheduler address (``tcp://host:8786``) for the dask backend.
        out: run folder (a run folder's own ``run.toml`` stores ``"."``: the folder itself).
        params: parameter overrides ``{name: value}`` applied to the game's defaults.
        content: folder of content files replacing the packaged ones (None = packaged); the run
            folder keeps a copy in ``content/`` and its ``run.toml`` stores ``"content"``.
        log_turns, log_events: write the turns / events tables.
        compiled: play the seats holding compiled plans inside the engine's play kernel
            (docs/compiled_play.md); False plays every ply on the Python loop. An execution setting: the
            games are identical either way.
        field: ``scripted`` (the default) or ``strong``: the field the strategies were chosen as
            (:mod:`meeplelab.strategies.fields`; ``--field strong`` writes the strong field's ids into
            ``strategies``). A record: the games are the strategies'. ``run.toml`` and the manifest hold it
            only when it is ``strong``.
    """

    game: str
    players: int
    strategies: tuple[str, ...]
    games: int
    seed: int = 0
    batch_size: int = 1024
    chunk_size: int | None = None
    n_jobs: int = 1
    backend: str = "loky"
    scheduler: str | None = None
    out: str = "runs/run"
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    content: str | None = None
    log_turns: bool = True
    log_events: bool = True
    seating: str = "fixed"
    treatment: dict | None = None
    compiled: bool = True
    field: str = "scripted"

    # fields that do not change a run's results (may differ on --resume)
    EXECUTION_FIELDS = ("n_jobs", "backend", "scheduler", "out", "batch_size", "chunk_size", "compiled")

    def plan_for(self, strategies: tuple[str, ...] | None = None):
        """The :class:`meeplelab.play.seating.SeatingPlan` of this run (ConfigError on a bad seating)."""
        roster = tuple(strategies if strategies is not None else self.strategies)
        if len(roster) == 1:
            roster = roster * self.players
        return plan_seating(self.seating, roster, self.games, self.seed, players=self.players)

    @property
    def games_per_chunk(self) -> int:
        """Games per chunk (task and part file)."""
        return self.chunk_games()

    def chunk_games(self, seating=None) -> int:
        """Games per chunk (task and part file), from ``seating`` (this run's
        :class:`meeplelab.play.seating.SeatingPlan`, planned here when not given)."""
        if self.chunk_size is not None:
            return self.chunk_size
        unit = self.batch_size
        if self.seating == "rotate":  # whole seat orders per chunk, so no batch is cut short at an order's end
            plan = seating if seating is not None else self.plan_for()
            m = plan.seeds_per_order or 1
            if m < self.batch_size:
                unit = m
        size = unit * max(1, -(-CHUNK_GAMES // unit))
        jobs = self.n_jobs if self.n_jobs > 0 else (os.cpu_count() or 1)
        if jobs > 1:  # enough chunks to keep every worker busy: a run of fewer games than one chunk is not serial
            games = (seating.games if seating is not None else self.games)
            size = min(size, unit * max(1, -(-games // (CHUNKS_PER_WORKER * jobs * unit))))
        return size

    def make_params(self):
        """The game's Params with this config's overrides applied."""
        cls = get_game_class(self.game)
        return apply_overrides(cls.Params(), self.params)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (TOML/JSON), None values dropped, and ``field`` unless it is ``strong`` (the runs written
        before ``--field`` existed keep their keys)."""
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["strategies"] = list(self.strategies)
        d["params"] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.params.items()}
        if d["field"] == "scripted":
            d["field"] = None
        return {k: v for k, v in d.items() if v is not None}

    def result_key(self) -> dict[str, Any]:
        """The fields that determine the results (everything but execution settings; the seating of a
        mirror match, which plays the same games under every seating)."""
        d = self.to_dict()
        for k in self.EXECUTION_FIELDS:
            d.pop(k, None)
        if len(set(self.strategies)) == 1:  # a mirror match: one seat order under every seating, the same games
            d.pop("seating", None)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RunConfig":
        """Build from a dict (a run.toml, a manifest's config), validated by
        :class:`meeplelab.play.settings.SimulateSettings`.

        Raises:
            ConfigError: an unknown key (the allowed ones named), a missing one (game, players,
                strategies, games), a value of the wrong type, or a strategies string that does not split.
        """
        m = validate(SimulateSettings, d)
        vals = {k: getattr(m, k) for k in d}  # the keys given, as validated (strategies split into a tuple)
        vals["params"] = dict(vals.get("params") or {})
        return cls(**vals)


def resolve_paths(config: dict[str, Any], base: Path) -> dict[str, Any]:
    """``config`` with relative ``out`` and ``content`` read against the folder ``base`` (absolute
    paths, as older run folders hold, are kept)."""
    d = dict(config)
    for k in ("out", "content"):
        v = d.get(k)
        if isinstance(v, str) and not Path(v).is_absolute():
            d[k] = str(Path(base) / v) if v not in ("", ".") else str(base)
    return d


def load_toml(path: Path) -> dict[str, Any]:
    """Read a run config TOML file (ConfigError on a missing file, a file that is not UTF-8 (its first bad byte and
    where it is named: :func:`meeplelab.sim.core.content.not_utf8`) or a syntax error).

    Relative ``out`` and ``content`` paths are read against the file's own folder (a run folder's
    ``run.toml`` holds ``out = "."`` and ``content = "content"``, so a moved run folder's config
    points into the moved folder); absolute paths are kept.
    """
    try:
        data = Path(path).read_bytes()
        return resolve_paths(tomllib.loads(data.decode("utf-8")), Path(path).parent)
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} not found") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {str(path)!r} has a TOML syntax error: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"config file {str(path)!r}: {not_utf8(data, e)}") from None
    except OSError as e:
        raise ConfigError(f"config file {str(path)!r} cannot be read: {type(e).__name__}") from None


def dump_toml(config: RunConfig) -> str:
    """TOML text of a config (``run.toml``)."""
    return tomli_w.dumps(config.to_dict())
