"""Strategy protocol: ``act(view, legal_mask, rng) -> int[n]``, vectorized over games.

A strategy sits at one seat. Each time that seat must decide in some games of the batch, the
runner calls :meth:`Strategy.act` once for all of them with

- ``view``: a :class:`View` (the game, the batch state, the indices ``idx`` of the deciding games,
  the seat). Treat the state as read-only; search strategies work on ``state.take(idx)`` copies.
- ``legal_mask``: ``bool[n, A]``, the legal actions of those ``n`` games.
- ``rng``: a :class:`StrategyRNG`, the stream of this decision for each of those games, keyed by
  (run seed, game, seat, decision number) (:meth:`StrategyRNG.for_decision`; separate from the
  game's chance events, so a strategy's randomness never changes the shuffles, and independent of
  the batch, so a game's result never depends on which games share its call).

It returns ``int[n]`` legal actions. Per-step work should stay narrow (no wide per-step numpy
passes over ``[B, A]``) or be compiled with numba.
"""

from __future__ import annotations

import abc
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from meeplelab.sim.core.rng import Streams, decision_keys

if TYPE_CHECKING:  # pragma: no cover
    from meeplelab.sim.core import BatchState, Game


@dataclass
class View:
    """What a strategy sees when it decides.

    Attributes:
        game: the engine (rules, ``vp``, ``action_label``...).
        state: the whole batch state (read-only for strategies).
        idx: ``int64[n]`` indices into the batch of the games where this seat decides now.
        seat: the seat (0-based).
    """

    game: "Game"
    state: "BatchState"
    idx: np.ndarray
    seat: int
    #: per-decision scratch space for rules that share a derived array (e.g. the pending decision
    #: kind); valid while this one ``act`` call runs, since the state does not change meanwhile
    cache: dict = field(default_factory=dict, compare=False, repr=False)


class StrategyRNG:
    """A seat's random streams restricted to the deciding games ``idx``.

    Every method draws exactly once per game in ``idx`` and advances only those games' counters.
    """

    __slots__ = ("streams", "idx")

    def __init__(self, streams: Streams, idx: np.ndarray):
        self.streams = streams
        self.idx = np.asarray(idx, dtype=np.int64)

    @classmethod
    def for_decision(cls, seat_keys: np.ndarray, decision: np.ndarray) -> "StrategyRNG":
        """Fresh streams of one decision in each deciding game.

        Args:
            seat_keys: ``uint64[n]`` the deciding seat's stream key in each deciding game
                (``stream_keys(seed, game_ids, strategy_stream(seat))`` taken at those games).
            decision: ``int[n]`` each game's decision number (``state.ply``).
        """
        return cls(Streams(decision_keys(seat_keys, decision)), np.arange(len(seat_keys), dtype=np.int64))

    def random(self) -> np.ndarray:
        """``float64[n]`` uniform in [0, 1)."""
        return self.streams.random(self.idx)

    def integers(self, n) -> np.ndarray:
        """``int64[n_games]`` uniform in [0, n)."""
        return self.streams.integers(self.idx, n)

    def choose_legal(self, mask: np.ndarray) -> np.ndarray:
        """A uniformly random True column per row of ``mask`` (``bool[n, A]``)."""
        return self.streams.choose_legal(self.idx, mask)

    def subset(self, rows: np.ndarray) -> "StrategyRNG":
        """The same streams for a subset of the deciding games (``rows`` index into ``idx``)."""
        return StrategyRNG(self.streams, self.idx[rows])


class Strategy(abc.ABC):
    """Base class of strategies. Subclasses set ``name`` and implement :meth:`act`.

    Attributes:
        name: registry name (``random``, ``greedy-vp``...).
        args: the parsed arguments of the strategy id.
    """

    name: str = "?"

    def __init__(self, **args: Any):
        self.args = args

    @property
    def id(self) -> str:
        """Full strategy id with arguments, as written in logs (``abjure-at:cycle=3``)."""
        if not self.args:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.args.items())

    @abc.abstractmethod
    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        """``int64[n]`` chosen legal actions for the games ``view.idx``."""

    def __repr__(self) -> str:
        return f"<strategy {self.id}>"


class RandomStrategy(Strategy):
    """Uniform over the legal actions (the baseline)."""

    name = "random"

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        return rng.choose_legal(legal_mask)


_GAME_TABLES: weakref.WeakKeyDictionary | None = None  # game -> {name: table}, created on first use


def game_table(game: "Game", name: str, build):
    """A constant table derived from a game's content (``build(game)``), computed once per engine object.

    Held in a weak dictionary keyed by the engine itself, so a table never outlives its game and a new
    engine (other content or parameters) never receives an old one's table (an ``id(game)`` key could:
    ids are reused after garbage collection).
    """
    global _GAME_TABLES
    if _GAME_TABLES is None:
        _GAME_TABLES = weakref.WeakKeyDictionary()
    tables = _GAME_TABLES.setdefault(game, {})
    if name not in tables:
        tables[name] = build(game)
    return tables[name]
