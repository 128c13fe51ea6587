"""The ``Game`` protocol every engine implements, and the bookkeeping every game shares.

A game is played as a *batch*: ``B`` independent games advanced together, one decision (ply)
per call of :meth:`Game.step`. The action space is fixed and discrete (``num_actions`` = A);
multi-part choices become short sequences of simple decisions (a per-game pending-decision
stack inside the engine).

Template methods here do the shared work (pgx ``Env.step``, TAG ``StandardForwardModel``):
player-count check, illegal-action check naming the game, the action and the legal set, the ply
counter, and the max-ply guard that raises instead of truncating. Engines implement the
underscore hooks with numba kernels that loop over the games of the batch.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from . import rng as _rng
from .content import content_hash
from .errors import ConfigError, IllegalActionError, PlyLimitError
from .logs import TURN_BASE, Column, LogSpec, alloc_buffers, drain, event_base
from .params import describe, param_vector
from .state import BatchState
from .context import kernel_context


class Game(abc.ABC):
    """Base class of a vectorized game engine.

    Class attributes an engine sets:
        name: registry id (``unconscious-mind``).
        title: display name (``Unconscious Mind``).
        min_players, max_players: supported seat counts.
        num_actions: A, the size of the fixed discrete action space.
        Params: the frozen parameters dataclass (every rule number).
        turn_columns: columns the game adds to the core turn columns (ply, turn, round, seat).
        event_kinds: vocabulary of the ``kind`` column of the events table.
        event_columns: payload columns the game adds to the core event columns.
        score_categories: final-score categories; the games table has a ``vp_<category>`` column each.
        turn_capacity, event_capacity: rows per game buffered between drains.
        compiled_play: dotted name of the engine's written play module (``sim/core/compiled.py``), or
            None when the engine has no compiled play.
        chance_zones: Z, the number of chance zones (decks, bags, piles, each seat's own) whose
            chance events are counted apart in ``state.rng_ctr`` (``uint64[B, Z]``), so each event
            is keyed by what it is (:func:`meeplelab.sim.core.rng.chance_shuffle`).

    Args:
        params: a ``Params`` value (defaults when None).
        content_dir: folder of content data files (the game's packaged ``data/`` when None).

    Raises:
        ContentError: a content file fails validation.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    num_actions: ClassVar[int]
    Params: ClassVar[type]
    turn_columns: ClassVar[tuple[Column, ...]] = ()
    event_kinds: ClassVar[tuple[str, ...]] = ()
    event_columns: ClassVar[tuple[Column, ...]] = ()
    score_categories: ClassVar[tuple[str, ...]] = ()
    turn_capacity: ClassVar[int] = 64
    event_capacity: ClassVar[int] = 512
    chance_zones: ClassVar[int] = 1
    compiled_play: ClassVar[str | None] = None

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        # the game a Params class belongs to, for messages about its rule numbers (sim/core/params.apply_overrides)
        if "name" in cls.__dict__ and "Params" in cls.__dict__:
            cls.Params.game_id = cls.name

    def __init__(self, params: Any = None, content_dir: Path | str | None = None):
        self.params = params if params is not None else self.Params()
        self.content_dir = Path(content_dir) if content_dir is not None else self.default_content_dir()
        self.content = self.load_content(self.content_dir)

    # ------------------------------------------------------------------ description
    @classmethod
    def turn_spec(cls) -> LogSpec:
        """Columns of a turns-table row (core columns then the game's)."""
        return LogSpec(TURN_BASE + tuple(cls.turn_columns))

    @classmethod
    def event_spec(cls) -> LogSpec:
        """Columns of an events-table row (core columns then the game's payload)."""
        return LogSpec(event_base(tuple(cls.event_kinds)) + tuple(cls.event_columns))

    @classmethod
    def default_content_dir(cls) -> Path:
        """The packaged content folder (``sim/<game>/data``)."""
        import importlib

        mod = importlib.import_module(cls.__module__)
        return Path(str(mod.__file__)).resolve().parent / "data"

    def load_content(self, content_dir: Path) -> Any:
        """Load and validate content files; engines without content return None."""
        return None

    def content_files(self) -> list[Path]:
        """The content files this game read, in a fixed order (hashed into the manifest)."""
        return []

    def content_hash(self) -> str:
        """Hash of the content files' bytes (``"none"`` for a game without content)."""
        files = self.content_files()
        return content_hash(files) if files else "none"

    def describe_params(self) -> list[dict]:
        """Every parameter with value, default, unit, source or assumption ID (see ``meeplelab params``)."""
        return describe(self.params)

    @functools.cached_property
    def param_vector(self) -> np.ndarray:
        """``int64[PARAM_WIDTH]``: the parameters as the kernels read them (``prm[PRM_<FIELD>]``), in the columns
        the ``Params`` dataclass defines (:func:`meeplelab.sim.core.params.param_vector`).

        Raises:
            ConfigError: a tuple parameter of the wrong length.
        """
        return param_vector(self.params)

    #: the content arrays the kernels read as ``C`` (an engine's content namedtuple); engines set it in ``__init__``
    kernel_content: Any = None

    def kernel_state(self, state: BatchState):
        """The kernels' ``S`` for ``state``: the namedtuple of its arrays (engines with kernels define it)."""
        raise NotImplementedError(f"{type(self).__name__} has no kernels")

    def kernel_context(self, state: BatchState):
        """The kernels' leading arguments ``(S, C, prm)`` for ``state`` (:mod:`meeplelab.sim.core.context`)."""

        return kernel_context(self, state)

    def position_builders(self) -> dict:
        """Named builders of this engine's content for :class:`meeplelab.sim.core.position.Position`
        (``pos.give(name, seat, ...)``): ``{name: fn(game, state, g, seat, ...)}``; none by default."""
        return {}

    def compiled_module(self):
        """The engine's compiled play module (``compiled_play``), or None (Python-loop play only)."""
        if not self.compiled_play:
            return None
        import importlib

        return importlib.import_module(self.compiled_play)

    # ------------------------------------------------------------------ hooks (engines)
    @abc.abstractmethod
    def max_plies(self, num_players: int) -> int:
        """Upper bound on decisions in one game; passing it raises :class:`PlyLimitError`."""

    @abc.abstractmethod
    def _init(self, base: dict, num_players: int) -> BatchState:
        """Build the batch state from the core fields in ``base`` (setup shuffles from ``rng_key``)."""

    @abc.abstractmethod
    def legal_action_mask(self, state: BatchState) -> np.ndarray:
        """``bool[B, A]``: legal actions of the seat to act; all False for a finished game."""

    @abc.abstractmethod
    def to_act(self, state: BatchState) -> np.ndarray:
        """``int[B]``: the seat that takes the next decision (meaningless for finished games)."""

    @abc.abstractmethod
    def _apply(self, state: BatchState, actions: np.ndarray, active: np.ndarray) -> None:
        """Apply ``actions[g]`` to every game ``g`` with ``active[g]``; actions are already legal."""

    @abc.abstractmethod
    def done(self, state: BatchState) -> np.ndarray:
        """``bool[B]``: the game has ended and its final scores are settled."""

    @abc.abstractmethod
    def final_scores(self, state: BatchState) -> np.ndarray:
        """``int[B, P]`` final VP of each seat (valid once ``done``)."""

    def score_breakdown(self, state: BatchState) -> dict[str, np.ndarray]:
        """``{category: int[B, P]}`` final VP by category (sums to :meth:`final_scores`)."""
        return {}

    def tiebreak(self, state: BatchState) -> np.ndarray:
        """``int[B, P]`` tie-break key, or ``int[B, P, K]`` keys compared in order (higher wins), among seats
        tied on VP; zeros by default."""
        return np.zeros((state.batch_size, state.num_players), np.int64)

    #: how a game can end: ``{reason: meaning}`` (the games table's ``end_reason`` column)
    end_reasons: dict = {"end": "The game's end condition."}
    #: the reasons that are safety stops, not the rules' own end (``safety_stop`` in the games table)
    safety_stops: tuple = ()

    def end_reason(self, state: BatchState) -> np.ndarray:
        """``int[B]`` index into :attr:`end_reasons` of how each finished game ended (0 by default)."""
        return np.zeros(state.batch_size, np.int64)

    def vp(self, state: BatchState) -> np.ndarray:
        """``int[B, P]`` VP held now (greedy and heuristic strategies); final scores by default."""
        return self.final_scores(state)

    def features(self, state: BatchState) -> dict[str, np.ndarray]:
        """``{name: float[B, P]}`` state features heuristic strategies weigh (VP by default)."""
        return {"vp": self.vp(state).astype(np.float64)}

    def redeterminize(self, state: BatchState, seat: np.ndarray, streams) -> None:
        """Make ``state`` (search copies, ``B`` games) an honest sample of what ``seat[g]`` knows.

        Every future chance event of copy ``g`` then comes from ``streams`` (the searching seat's,
        one per copy), never from the game's own chance stream: ``rng_key[g]`` is replaced by a
        draw of stream ``g`` (copies sharing a stream key share their future luck: common random
        numbers). Then :meth:`_redeterminize` re-samples what ``seat[g]`` cannot know.

        Args:
            state: the copies (changed in place).
            seat: ``int[B]`` the searching seat of each copy.
            streams: a :class:`meeplelab.sim.core.rng.Streams` with ``B`` streams.
        """
        state.rng_key[:] = streams.u64(np.arange(state.batch_size))
        self._redeterminize(state, np.ascontiguousarray(seat, np.int64), streams)

    def _redeterminize(self, state: BatchState, seat: np.ndarray, streams) -> None:
        """Re-sample, in place, everything game ``g`` hides from ``seat[g]`` (deck orders, bags,
        face-down stacks, unknown cards in other hands) from ``streams``, keeping everything the
        seat knows (TAG's redeterminisation). Games without hidden information keep this default,
        which changes nothing.
        """

    def progress(self, state: BatchState) -> tuple[np.ndarray, np.ndarray]:
        """``(turns int[B], rounds int[B])`` played so far (games table)."""
        z = np.zeros(state.batch_size, np.int64)
        return z, z

    def check_invariants(self, state: BatchState) -> list[str]:
        """Rule invariants that must hold after every step (test mode, fuzzing).

        Returns one message per broken invariant, naming the game index (empty list when all hold):
        resources never negative, components conserved, VP equal to the sum of VP events, ...
        """
        return []

    @abc.abstractmethod
    def action_label(self, action: int) -> str:
        """Short name of an action id (``take-tile:center:row2``), whatever the decision."""

    #: the engine's action vocabulary (:class:`meeplelab.sim.core.actions.Vocabulary`), or None
    vocabulary = None

    def action_label_at(self, action: int, decision: str | None) -> str:
        """The label of ``action`` under the pending decision named ``decision`` (its name in the decision table):
        a choice id by its meaning there (``case:1``, ``to-freud``; the vocabulary's per-decision choices), else
        :meth:`action_label`."""
        if self.vocabulary is not None and decision is not None:
            return self.vocabulary.label(action, decision)
        return self.action_label(action)

    def describe_action(self, state: BatchState, g: int, action: int) -> str:
        """The action in words a player recognises, in game ``g``'s current situation (replay)."""
        return self.action_label(action)

    def action_meaning(self, action: int, decision: str | None = None) -> str:
        """What taking ``action`` does, in words, without a game state (``meeplelab actions GAME``): a choice id
        by its meaning under the pending decision named ``decision``; "" when the engine says nothing more than
        its label. An engine binds its own (``sim/<game>/action_meanings.py``)."""
        return ""

    def describe_event(self, row: dict) -> str:
        """One event-table row in words (replay); a plain key=value rendering by default."""
        return ", ".join(f"{k}={v}" for k, v in row.items() if k not in ("game", "ply", "turn"))

    # ------------------------------------------------------------------ template methods
    def check_players(self, num_players: int) -> None:
        """Raise ConfigError unless ``min_players <= num_players <= max_players``."""
        if not (self.min_players <= int(num_players) <= self.max_players):
            raise ConfigError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, got {num_players}")

    #: False while :meth:`blank_state` builds a state: an engine's ``_init`` then skips its setup kernel
    _set_up = True

    def blank_state(self, num_players: int) -> BatchState:
        """One game as :meth:`init` allocates it, before the engine's setup kernel runs (an engine whose ``_init``
        reads :attr:`_set_up`; any other sets it up): arrays of the kernels' argument types, not a game to play.
        A cold start types the kernels it compiles ahead with it (``meeplelab.play.warmup.compiling_apart``)."""
        self._set_up = False
        try:
            return self.init(np.zeros(1, np.int64), 0, num_players)
        finally:
            del self._set_up

    def init(self, game_ids: np.ndarray, seed: int, num_players: int) -> BatchState:
        """New batch of games at their first decision.

        Args:
            game_ids: ``int64[B]`` game indices (keys of the games' random streams).
            seed: run seed.
            num_players: seats per game.

        Raises:
            ConfigError: unsupported player count.
        """
        self.check_players(num_players)
        game_ids = np.ascontiguousarray(game_ids, dtype=np.int64)
        b = game_ids.shape[0]
        tb, tn = alloc_buffers(b, self.turn_capacity, self.turn_spec().width)
        eb, en = alloc_buffers(b, self.event_capacity, self.event_spec().width)
        base = dict(
            num_players=int(num_players), game_id=game_ids, ply=np.zeros(b, np.int32),
            rng_key=_rng.stream_keys(seed, game_ids, _rng.GAME_STREAM),
            rng_ctr=np.zeros((b, self.chance_zones), np.uint64),
            turn_buf=tb, turn_n=tn, event_buf=eb, event_n=en)
        return self._init(base, int(num_players))

    def step(self, state: BatchState, actions: np.ndarray, mask: np.ndarray | None = None,
             where: np.ndarray | None = None) -> None:
        """Advance every unfinished game by one decision, in place.

        The rules append log rows to the state's turn and event buffers. A loop that never drains them
        still works: before a step, a buffer that a stepped game has filled past half (past what one step
        may add) is enlarged (:meth:`_make_log_room`), so every row of the game stays in the state until it
        is taken out with :meth:`drain_logs`. The runner (:func:`meeplelab.play.batch.play_batch`) drains at half full
        and never sees an enlarged buffer; the rows are the same either way. An OpenSpiel-style loop::

            state = game.init(np.arange(1), seed, players)
            streams = Streams.for_games(seed, state.game_id, 1)
            while not game.done(state).all():
                mask = game.legal_action_mask(state)
                game.step(state, streams.choose_legal(np.arange(1), mask), mask)
            turns, events = game.drain_logs(state)   # the turns and events tables (pyarrow)

        Args:
            state: the batch.
            actions: ``int[B]`` chosen action per game (ignored for finished games).
            mask: the legal action mask already computed for this state (recomputed when None).
            where: ``bool[B]``: advance only these games (search strategies); all when None.

        Raises:
            IllegalActionError: an action outside the legal mask (names game, action, legal set).
            PlyLimitError: an unfinished game already at its ply bound.
        """
        actions = np.asarray(actions, dtype=np.int64)
        active = ~self.done(state)
        if where is not None:
            active &= where
        if not active.any():
            return
        if mask is None:
            mask = self.legal_action_mask(state)
        rows = np.flatnonzero(active)
        a = actions[rows]
        inrange = (a >= 0) & (a < self.num_actions)
        ok = inrange.copy()
        ok[inrange] = mask[rows[inrange], a[inrange]]
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            g, bad = int(rows[i]), int(a[i])
            legal = np.flatnonzero(mask[g]).tolist()
            lbl = self.action_label(bad) if 0 <= bad < self.num_actions else "out of range"
            raise IllegalActionError(
                f"game {int(state.game_id[g])} (ply {int(state.ply[g])}): action {bad} ({lbl}) is not legal; "
                f"legal actions: {legal} ({', '.join(self.action_label(x) for x in legal[:12])}"
                f"{', ...' if len(legal) > 12 else ''})")
        bound = self.max_plies(state.num_players)
        over = rows[state.ply[rows] >= bound]
        if over.size:
            g = int(over[0])
            raise PlyLimitError(f"game {int(state.game_id[g])} reached its ply bound {bound} without ending")
        self._make_log_room(state, rows)
        self._apply(state, actions, active)
        state.ply[rows] += 1

    def _make_log_room(self, state: BatchState, rows: np.ndarray) -> None:
        """Enlarge (double, as often as needed) a log buffer of ``state`` in which a game of ``rows`` has fewer
        free rows than one step may add (half the class capacity: docs/engine_guide.md, "Conventions the runner
        relies on"); the rows already written are kept in place. Buffers drained at half full, as the runner
        drains them, are never enlarged."""
        for buf_name, n_name, cap in (("turn_buf", "turn_n", self.turn_capacity),
                                      ("event_buf", "event_n", self.event_capacity)):
            buf, n = getattr(state, buf_name), getattr(state, n_name)
            room = cap // 2
            used = int(n[rows].max())
            if used <= buf.shape[1] - room:
                continue
            size = buf.shape[1]
            while used > size - room:
                size *= 2
            grown = np.zeros((buf.shape[0], size, buf.shape[2]), buf.dtype)
            grown[:, :buf.shape[1]] = buf
            setattr(state, buf_name, grown)

    def drain_logs(self, state: BatchState) -> tuple:
        """Take every buffered log row out of ``state``: ``(turns, events)`` as pyarrow tables in the schemas of
        the run folder's turns and events tables, rows in (game, time) order; the buffers are left empty.
        After a loop over :meth:`step` that never drained, they hold the games' whole logs."""
        tg, tr = drain(state.turn_buf, state.turn_n, state.game_id)
        eg, er = drain(state.event_buf, state.event_n, state.game_id)
        return self.turn_spec().to_table(tg, tr), self.event_spec().to_table(eg, er)

    def play_random(self, game_ids: np.ndarray, seed: int, num_players: int, *, stream: int = 1) -> BatchState:
        """Play a batch to the end with uniform random legal actions (tests, fuzzing).

        Random choices come from stream ``stream`` of each game, separate from the rules stream.
        """
        state = self.init(game_ids, seed, num_players)
        streams = _rng.Streams.for_games(seed, state.game_id, stream)
        allidx = np.arange(state.batch_size)
        while True:
            d = self.done(state)
            if d.all():
                return state
            mask = self.legal_action_mask(state)
            acts = np.full(state.batch_size, -1, np.int64)
            live = allidx[~d]
            acts[live] = streams.choose_legal(live, mask[live])
            self.step(state, acts, mask)
            # keep the buffers from filling in long random games
            state.turn_n[:] = 0
            state.event_n[:] = 0


def params_of(game: Game) -> dict:
    """Parameter values of a game as a dict (manifest)."""
    return {f.name: getattr(game.params, f.name) for f in dataclasses.fields(game.params)}
