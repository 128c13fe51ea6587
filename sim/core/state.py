"""Batch state: a dataclass of numpy arrays with a leading batch axis ``B``.

Engines subclass :class:`BatchState` and add their own array fields (``[B]``, ``[B, P]``,
``[B, P, ...]``). Rule kernels receive the arrays themselves and update them in place; the
Python API stays one call per step for the whole batch.

Fields that are not numpy arrays (``num_players``, say) are batch-wide constants: ``copy`` and
``take`` pass them through unchanged.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np


_LOG_FIELDS = ("turn_buf", "turn_n", "event_buf", "event_n")


@dataclass
class BatchState:
    """Fields every game's state carries.

    Attributes:
        num_players: seats in every game of the batch (one player count per batch).
        game_id: ``int64[B]`` game index within the run (the key of the game's random stream).
        ply: ``int32[B]`` decisions taken so far (kept by :meth:`meeplelab.sim.core.game.Game.step`).
        rng_key: ``uint64[B]`` key of the game's rules stream (:mod:`meeplelab.sim.core.rng`).
        rng_ctr: ``uint64[B, Z]`` chance events so far in each of the game's Z chance zones (a
            seat's deck, a bag, ...): event ``n`` of zone ``z`` is keyed by (``rng_key``, ``z``, ``n``)
            (:func:`meeplelab.sim.core.rng.chance_shuffle`), never by a shared per-game sequence.
        turn_buf: ``int32[B, C, K]`` pending turn-log rows (columns of the game's turn spec).
        turn_n: ``int32[B]`` rows used in ``turn_buf``.
        event_buf: ``int32[B, C, K]`` pending event-log rows.
        event_n: ``int32[B]`` rows used in ``event_buf``.
    """

    num_players: int
    game_id: np.ndarray
    ply: np.ndarray
    rng_key: np.ndarray
    rng_ctr: np.ndarray
    turn_buf: np.ndarray
    turn_n: np.ndarray
    event_buf: np.ndarray
    event_n: np.ndarray

    @property
    def batch_size(self) -> int:
        """B, the number of games in the batch."""
        return int(self.game_id.shape[0])

    def copy(self) -> "BatchState":
        """Deep copy: every array copied, so stepping the copy never changes the original."""
        kw: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            kw[f.name] = v.copy() if isinstance(v, np.ndarray) else v
        return type(self)(**kw)

    def take(self, idx: np.ndarray, *, fresh_logs: bool = False) -> "BatchState":
        """A new state holding games ``idx`` (indices into the batch), arrays copied.

        With ``fresh_logs`` the log buffers start empty instead of being copied (lookahead and
        rollouts, whose logs are thrown away).
        """
        idx = np.asarray(idx, dtype=np.int64)
        kw: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if not isinstance(v, np.ndarray):
                kw[f.name] = v
            elif fresh_logs and f.name in _LOG_FIELDS:
                kw[f.name] = np.zeros((idx.shape[0],) + v.shape[1:], v.dtype)
            else:
                kw[f.name] = np.ascontiguousarray(v[idx])
        return type(self)(**kw)

    def repeat(self, k: int) -> "BatchState":
        """Each game repeated ``k`` times in a row (``[g0]*k + [g1]*k + ...``): rollout batches."""
        return self.take(np.repeat(np.arange(self.batch_size), k))

    def put(self, idx: np.ndarray, other: "BatchState") -> None:
        """Write ``other``'s games into rows ``idx`` of this state (inverse of :meth:`take`)."""
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if isinstance(v, np.ndarray):
                v[idx] = getattr(other, f.name)

    def equals(self, other: "BatchState") -> bool:
        """True when every field is identical (arrays compared element-wise)."""
        for f in dataclasses.fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray):
                if a.shape != b.shape or not np.array_equal(a, b):
                    return False
            elif a != b:
                return False
        return True

    def diff_fields(self, other: "BatchState") -> list[str]:
        """Names of the fields that differ between two states (for test messages)."""
        out = []
        for f in dataclasses.fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray):
                if a.shape != b.shape or not np.array_equal(a, b):
                    out.append(f.name)
            elif a != b:
                out.append(f.name)
        return out
