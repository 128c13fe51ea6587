"""Counter-based random streams, one per (run seed, game index, stream).

Every random draw in meeplelab comes from here; there is no global RNG anywhere.

A stream is a 64-bit *key* plus a 64-bit *counter*. Draw ``n`` of a stream is
``mix64(key + n * GOLDEN)``: SplitMix64 evaluated at an explicit counter, so the value of a
draw depends only on (run seed, game index, stream id, draw number). Because each game keeps
its own counter (an array ``uint64[B]`` inside the batch state), a game's trajectory is the same
whether it is played alone, in a batch of 10,000, in any chunk, on any worker or backend.

Stream ids: :data:`GAME_STREAM` (0) for the rules (shuffles, bag draws), and
:func:`strategy_stream` (seat) for the strategy sitting at that seat, so a strategy's random
choices never shift the game's shuffles (TAG's separate ``redeterminisationRnd``).

Chance events of the rules are keyed by what they are, not by their place in one shared
sequence: a *zone* (an engine-defined integer: "seat 1's deck", "the Level II bag") and how
many times that zone has had a chance event (``counts[g, zone]``, kept in the state as
``rng_ctr``). Event ``n`` of ``zone`` uses the key :func:`event_key` (game key, zone, n), so what
one seat does never moves another seat's shuffles (:func:`chance_shuffle`, :func:`chance_below`).

Strategy draws are keyed by decision: :func:`decision_keys` (the seat's stream key, the game's
decision number ``ply``) gives a fresh stream per decision, so a strategy's draws never depend
on the batch, on how many draws earlier decisions took, or on the other games in the call.

Two faces of the same arithmetic:
- numba kernels (:func:`draw_u64`, :func:`draw_below`, :func:`shuffle_range`) for rule code, which
  take the batch's ``keys``/``counters`` arrays and a game index ``g``;
- :class:`Streams`, a vectorized numpy view used by Python strategies on a subset of games.
"""

from __future__ import annotations

import numpy as np
from numba import config as _numba_config
from numba import njit

from .jit import plain

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_ONE = np.uint64(1)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53

GAME_STREAM = 0
"""Stream id of the rules themselves (setup shuffles, draws, bags)."""


def strategy_stream(seat: int) -> int:
    """Stream id of the strategy at ``seat`` (0-based); distinct from :data:`GAME_STREAM`."""
    return 1 + int(seat)


ROLLOUT_STREAM_BASE = 1000
"""Stream ids from here on are for search strategies' redeterminisation and rollouts."""


@njit(cache=True, _nrt=False)
def mix64(z):
    """SplitMix64 finaliser of one ``uint64``; a bijection with good avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def _mix64_np(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


def stream_keys(seed: int, game_ids: np.ndarray, stream: int) -> np.ndarray:
    """Keys of the streams for ``game_ids`` under run ``seed``.

    Args:
        seed: run seed, any integer in [0, 2**63).
        game_ids: ``int64[B]`` game indices within the run.
        stream: stream id (:data:`GAME_STREAM`, :func:`strategy_stream`, ...).

    Returns:
        ``uint64[B]`` keys; with counters starting at 0 they define the streams.
    """
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    ids = np.asarray(game_ids, dtype=np.int64).astype(np.uint64)
    with np.errstate(over="ignore"):
        s = _mix64_np(np.full(ids.shape, np.uint64(seed & 0xFFFFFFFFFFFFFFFF)) ^ np.uint64(0x5851F42D4C957F2D))
        k = _mix64_np(s + ids * GOLDEN)
        k = _mix64_np(k ^ (np.uint64(stream) * _M2 + _ONE))
    return k


@njit(cache=True, _nrt=False)
def draw_u64(keys, counters, g):
    """Next ``uint64`` of game ``g``'s stream; advances its counter by one."""
    counters[g] += _ONE
    return mix64(keys[g] + counters[g] * GOLDEN)


@njit(cache=True, _nrt=False)
def draw_uniform(keys, counters, g):
    """Next float in [0, 1) of game ``g``'s stream (53 random bits)."""
    return float(draw_u64(keys, counters, g) >> _S11) * _INV53


@plain
def draw_below(keys, counters, g, n):
    """Uniform integer in [0, n) for game ``g`` (``n`` >= 1)."""
    return int(draw_uniform(keys, counters, g) * n)


@plain
def shuffle_range(keys, counters, g, arr, lo, hi):
    """Fisher-Yates shuffle of ``arr[lo:hi]`` in place with game ``g``'s stream."""
    for i in range(hi - 1, lo, -1):
        j = lo + draw_below(keys, counters, g, i - lo + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@plain
def event_key(key, zone, count):
    """Key of chance event number ``count`` (0-based) of ``zone`` under a game's rules ``key``."""
    z = mix64(key ^ ((np.uint64(zone) + _ONE) * _M1))
    return mix64(z + (np.uint64(count) + _ONE) * GOLDEN)


@njit(cache=True, _nrt=False)
def _event_draw_below(k, d, n):
    """Uniform integer in [0, n) from draw ``d`` (>= 1) of event key ``k``."""
    return int(float(mix64(k + np.uint64(d) * GOLDEN) >> _S11) * _INV53 * n)


@plain
def chance_shuffle(keys, counts, g, zone, arr, lo, hi):
    """Fisher-Yates shuffle of ``arr[lo:hi]`` as the next chance event of ``zone`` in game ``g``.

    Args:
        keys: ``uint64[B]`` rules keys (``state.rng_key``).
        counts: ``uint64[B, Z]`` chance events so far per zone (``state.rng_ctr``); ``counts[g, zone]``
            is advanced by one.
        g: game row; zone: zone id in ``[0, Z)``; arr, lo, hi: the slice shuffled in place.

    The permutation depends only on (game key, zone, event number, ``hi - lo``).
    """
    k = event_key(keys[g], zone, counts[g, zone])
    counts[g, zone] += _ONE
    d = 0
    for i in range(hi - 1, lo, -1):
        d += 1
        j = lo + _event_draw_below(k, d, i - lo + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@njit(cache=True, _nrt=False)
def chance_below(keys, counts, g, zone, n):
    """Uniform integer in [0, n) as the next chance event of ``zone`` in game ``g`` (see :func:`chance_shuffle`)."""
    k = event_key(keys[g], zone, counts[g, zone])
    counts[g, zone] += _ONE
    return _event_draw_below(k, 1, n)


@njit(cache=True, _nrt=False)
def choose_legal(keys, counters, rows, mask, out):
    """Uniform choice among True entries of each ``mask`` row.

    ``rows[i]`` is the game index (into keys/counters) of mask row ``i``; ``out[i]`` receives the
    chosen action or -1 for an empty row.
    """
    n, a = mask.shape
    for i in range(n):
        c = 0
        for j in range(a):
            if mask[i, j]:
                c += 1
        if c == 0:
            out[i] = -1
            continue
        k = draw_below(keys, counters, rows[i], c)
        for j in range(a):
            if mask[i, j]:
                if k == 0:
                    out[i] = j
                    break
                k -= 1


if _numba_config.DISABLE_JIT:  # plain-Python twins: exact 64-bit wraparound without overflow warnings
    _MASK = (1 << 64) - 1

    def mix64(z):  # noqa: F811
        """SplitMix64 finaliser of one ``uint64`` (uncompiled twin)."""
        z = int(z)
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return np.uint64(z ^ (z >> 31))

    def draw_u64(keys, counters, g):  # noqa: F811
        """Next ``uint64`` of game ``g``'s stream (uncompiled twin)."""
        counters[g] = np.uint64((int(counters[g]) + 1) & _MASK)
        return mix64((int(keys[g]) + int(counters[g]) * 0x9E3779B97F4A7C15) & _MASK)

    def event_key(key, zone, count):  # noqa: F811
        """Key of a zone's chance event (uncompiled twin)."""
        z = int(mix64(int(key) ^ (((int(zone) + 1) * 0xBF58476D1CE4E5B9) & _MASK)))
        return mix64((z + (int(count) + 1) * 0x9E3779B97F4A7C15) & _MASK)

    def _event_draw_below(k, d, n):  # noqa: F811
        """Draw ``d`` of an event key (uncompiled twin)."""
        u = int(mix64((int(k) + int(d) * 0x9E3779B97F4A7C15) & _MASK))
        return int(float(u >> 11) * _INV53 * n)


def event_keys(keys: np.ndarray, zone: int, count) -> np.ndarray:
    """``uint64[B]``: numpy face of :func:`event_key` for a batch of rules keys (tests, audits)."""
    with np.errstate(over="ignore"):
        z = _mix64_np(np.asarray(keys, np.uint64) ^ ((np.uint64(zone) + _ONE) * _M1))
        return _mix64_np(z + (np.asarray(count, np.uint64) + _ONE) * GOLDEN)


def decision_keys(seat_keys: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """``uint64[n]`` keys of the streams of one decision per game.

    Args:
        seat_keys: ``uint64[n]`` keys of the deciding seat's stream in each game (:func:`stream_keys`
            with :func:`strategy_stream`).
        decision: ``int[n]`` the game's decision number (``state.ply``: decisions taken so far).

    A strategy draws from the stream of (run seed, game, seat, decision) with its counter starting at
    0, so its draws never depend on the batch or on the draws of earlier decisions.
    """
    with np.errstate(over="ignore"):
        d = np.asarray(decision, np.int64).astype(np.uint64)
        return _mix64_np(np.asarray(seat_keys, np.uint64) ^ _mix64_np((d + _ONE) * GOLDEN))


@njit(cache=True, _nrt=False)
def candidate_key(base, tag):
    """Key of one candidate's stream (kernel face of :func:`candidate_keys`): ``base`` (``uint64``) mixed with
    the candidate's identity ``tag`` (an int >= 0)."""
    return mix64(base ^ mix64((np.uint64(tag) + _ONE) * _M2))


if _numba_config.DISABLE_JIT:  # plain-Python twin: exact 64-bit wraparound
    def candidate_key(base, tag):  # noqa: F811
        """Key of one candidate's stream (uncompiled twin)."""
        return mix64(int(base) ^ int(mix64(((int(tag) + 1) * 0x94D049BB133111EB) & ((1 << 64) - 1))))


def candidate_keys(base: np.ndarray, tag: np.ndarray) -> np.ndarray:
    """``uint64[m]`` keys of per-candidate streams: ``base`` (one draw of the deciding game's decision
    stream, per candidate) mixed with the candidate's identity ``tag`` (its action id, or action and
    continuation number), never with its position in a batch."""
    with np.errstate(over="ignore"):
        t = np.asarray(tag, np.int64).astype(np.uint64)
        return _mix64_np(np.asarray(base, np.uint64) ^ _mix64_np((t + _ONE) * _M2))


class Streams:
    """A batch of counter-based streams, ``keys``/``counters`` of shape ``[B]``.

    Python-side face of the same streams kernels use; each method draws once for every game in
    ``idx`` (indices into the batch) and advances only those games' counters, so what a game
    draws never depends on which other games share the batch.
    """

    __slots__ = ("keys", "counters")

    def __init__(self, keys: np.ndarray, counters: np.ndarray | None = None):
        self.keys = np.ascontiguousarray(keys, dtype=np.uint64)
        self.counters = (
            np.zeros_like(self.keys) if counters is None else np.ascontiguousarray(counters, dtype=np.uint64)
        )

    @classmethod
    def for_games(cls, seed: int, game_ids: np.ndarray, stream: int) -> "Streams":
        """Fresh streams (counters at 0) for ``game_ids`` of run ``seed``."""
        return cls(stream_keys(seed, game_ids, stream))

    def copy(self) -> "Streams":
        """Independent copy (keys shared by value, counters copied)."""
        return Streams(self.keys.copy(), self.counters.copy())

    def take(self, idx: np.ndarray) -> "Streams":
        """Streams of a subset of games (copies)."""
        return Streams(self.keys[idx], self.counters[idx])

    def u64(self, idx: np.ndarray) -> np.ndarray:
        """``uint64[len(idx)]``: one draw per game in ``idx``."""
        idx = np.asarray(idx, dtype=np.int64)
        with np.errstate(over="ignore"):
            self.counters[idx] += _ONE
            return _mix64_np(self.keys[idx] + self.counters[idx] * GOLDEN)

    def random(self, idx: np.ndarray) -> np.ndarray:
        """``float64[len(idx)]`` uniform in [0, 1)."""
        return (self.u64(idx) >> _S11).astype(np.float64) * _INV53

    def integers(self, idx: np.ndarray, n) -> np.ndarray:
        """``int64[len(idx)]`` uniform in [0, n) (``n`` scalar or per-game array, >= 1)."""
        return (self.random(idx) * np.asarray(n)).astype(np.int64)

    def choose_legal(self, idx: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Uniform legal action per row of ``mask`` (``bool[len(idx), A]``); -1 for empty rows."""
        idx = np.ascontiguousarray(idx, dtype=np.int64)
        out = np.empty(len(idx), dtype=np.int64)
        choose_legal(self.keys, self.counters, idx, np.ascontiguousarray(mask), out)
        return out
