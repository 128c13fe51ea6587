"""One game of an engine, stepped one decision at a time: what the OpenSpiel games (:mod:`meeplelab.sim.openspiel`) and
the PettingZoo and Gymnasium environments (:mod:`meeplelab.env`) wrap.

:class:`OneGame` holds a batch of size 1 of the engine and what those interfaces ask for again and again: whether
the game is over, the legal action mask, the seat to act, each seat's action counts (the information state's
``actions``), and each seat's observation of the current position (kept until the next step). Its game is game
``index`` of run ``seed``, the same as ``meeplelab simulate``'s game of that index and seed under the same actions.
"""

from __future__ import annotations

import numpy as np

from .core.observation import Observer
from .core.rng import ROLLOUT_STREAM_BASE, Streams, candidate_keys, decision_keys, stream_keys

#: stream id of seat ``s``'s re-sampled worlds: ``RESAMPLE_STREAM + s`` (a search stream: ``rng.ROLLOUT_STREAM_BASE``)
RESAMPLE_STREAM = ROLLOUT_STREAM_BASE


def win_share(engine, state) -> np.ndarray:
    """``float64[B, P]`` the games table's ``win_share`` of finished games: ``1/k`` for each of the ``k`` seats
    first on VP and the game's tie-break keys (:func:`meeplelab.sim.schema.ranks`), else 0."""
    from .schema import ranks  # the games table's module imports pyarrow: only when a game ends

    rk = ranks(np.asarray(engine.final_scores(state), np.int64), np.asarray(engine.tiebreak(state), np.int64))
    win = rk == 1
    return np.where(win, 1.0 / win.sum(axis=1, keepdims=True), 0.0)


class OneGame:
    """One game of an engine (a batch of one, :attr:`state`) with what its interfaces ask for repeatedly.

    A deep copy (OpenSpiel's clone) copies the engine state (:meth:`BatchState.copy`), never the kept observations;
    pickling leaves them out too. The engine is not held (pass it to each call), so copies stay small.

    Attributes:
        state: the engine state, ``B`` = 1.
        over: the game has ended.
        mask: ``bool[A]`` the legal actions (all False once over).
        seat: the seat to act (-1 once over).
        counts: ``int64[P, A]`` how often each seat took each action.
        draws: ``{(seat, ply): n}`` worlds re-sampled from this position (:meth:`resample`).
    """

    __slots__ = ("cache", "counts", "draws", "mask", "over", "seat", "state")

    def __init__(self, state, counts, draws=None):
        self.state, self.counts, self.draws = state, counts, dict(draws or {})
        self.over, self.mask, self.seat, self.cache = False, None, -1, {}

    @classmethod
    def start(cls, engine, index: int, seed: int, players: int) -> OneGame:
        """Game ``index`` of run ``seed`` at its first decision.

        Raises:
            ConfigError: an unsupported player count.
        """
        g = cls(engine.init(np.array([index], np.int64), seed, players),
                np.zeros((players, engine.num_actions), np.int64))
        g.sync(engine)
        return g

    def step(self, engine, action: int) -> None:
        """Apply ``action`` for the seat to act.

        Raises:
            IllegalActionError: ``action`` is not legal (names the game, the action and the legal set).
        """
        engine.step(self.state, np.array([action], np.int64), self.mask[None, :])
        self.counts[self.seat, action] += 1
        self.sync(engine)

    def sync(self, engine) -> None:
        """Read the state after a step; the log buffers are emptied (these interfaces keep no logs)."""
        s = self.state
        s.turn_n[:] = 0
        s.event_n[:] = 0
        self.over = bool(engine.done(s)[0])
        self.mask = engine.legal_action_mask(s)[0]
        self.seat = -1 if self.over else int(engine.to_act(s)[0])
        self.cache = {}

    def returns(self, engine) -> list[float]:
        """Each seat's win share (0 for everyone before the end)."""
        if not self.over:
            return [0.0] * self.counts.shape[0]
        return win_share(engine, self.state)[0].tolist()

    def fields(self, obs: Observer, seat: int, perfect_recall: bool) -> dict:
        """``seat``'s observation fields (with ``actions``, the action counts, under ``perfect_recall``); -1: the
        public observer."""
        key = ("fields", seat)
        if key not in self.cache:
            self.cache[key] = obs.fields(self.state, 0, seat)
        out = self.cache[key]
        return dict(out, actions=self.counts.copy()) if perfect_recall else out

    def tensor(self, obs: Observer, seat: int, perfect_recall: bool) -> np.ndarray:
        """:meth:`fields` flattened (``float32``, read-only: it is kept for this position)."""
        key = ("tensor", seat, perfect_recall)
        if key not in self.cache:
            t = Observer.tensor(self.fields(obs, seat, perfect_recall))
            t.flags.writeable = False
            self.cache[key] = t
        return self.cache[key]

    def resample(self, other: OneGame, engine, seed: int, seat: int) -> None:
        """Re-sample ``other`` (a copy of this game) for ``seat`` (``Game.redeterminize``): a world ``seat`` cannot
        tell from this one. Keyed by (run seed, game index, seat, ply, worlds drawn here for that seat at that ply);
        the draw is counted here."""
        s = self.state
        n = self.draws.get((seat, int(s.ply[0])), 0)
        self.draws[(seat, int(s.ply[0]))] = n + 1
        seat_key = stream_keys(seed, s.game_id, RESAMPLE_STREAM + seat)
        key = candidate_keys(decision_keys(seat_key, s.ply), np.array([n], np.int64))
        engine.redeterminize(other.state, np.array([seat], np.int64), Streams(key))
        other.sync(engine)

    def __deepcopy__(self, memo):
        g = OneGame(self.state.copy(), self.counts.copy(), self.draws)
        g.over, g.mask, g.seat = self.over, self.mask.copy(), self.seat
        return g

    def __getstate__(self):
        return {k: getattr(self, k) for k in self.__slots__ if k != "cache"}

    def __setstate__(self, d):
        for k, v in d.items():
            setattr(self, k, v)
        self.cache = {}
