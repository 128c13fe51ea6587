"""Play one batch of games to the end with one strategy per seat, collecting the log tables.

This is the inner loop of the runner, usable on its own (notebooks, tournaments, tests):

    result = play_batch(game, [make_strategy(g, "random")] * 2, np.arange(512), seed=7)
    result.games      # pyarrow.Table, one row per (game, seat)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

import numpy as np
import pyarrow as pa

from .core.game import Game
from .core.logs import drain
from .core.rng import stream_keys, strategy_stream
from .core.state import BatchState
from .schema import games_table

#: turns/events buffers are drained when any game has used more than this share of them
DRAIN_FRACTION = 0.5


@dataclass
class BatchResult:
    """Tables of one played batch: ``games`` (per game and seat), ``turns``, ``events``."""

    games: pa.Table
    turns: pa.Table
    events: pa.Table
    state: BatchState


#: who decides at a seat: ``plan[s]`` lists ``(strategy, where)`` pairs, ``where`` a ``bool[B]`` of the
#: games in which that strategy holds seat ``s`` (``None``: every game of the batch)
SeatPlan = Sequence[Sequence[tuple]]


def plies(game: Game, state: BatchState, plan: SeatPlan, seat_keys: Sequence[np.ndarray]) -> Iterator[BatchState]:
    """Advance every game of ``state`` one ply at a time until all have ended, yielding the state
    after each step (the one play loop: :func:`play_batch` and the panels of ``sim/panels.py`` use it).

    Each live game's action comes from the strategy seated at its acting seat, with that decision's
    stream keyed by (run seed, game, seat, ply): ``seat_keys[s]`` is ``uint64[B, 2]`` (or the keys of
    :func:`sim.core.rng.stream_keys`), never by the game's position in the batch.

    Args:
        game: the engine.
        state: ``B`` games, advanced in place.
        plan: per seat, ``(strategy, where)`` pairs (:data:`SeatPlan`).
        seat_keys: per seat, the strategy stream keys of the ``B`` games.

    Raises:
        IllegalActionError, PlyLimitError: a strategy or the engine broke the rules.
    """
    from strategies.base import StrategyRNG, View

    acts = np.empty(state.batch_size, np.int64)
    while True:
        done = game.done(state)
        if done.all():
            return
        mask = game.legal_action_mask(state)
        seat = game.to_act(state)
        acts.fill(-1)
        live = ~done
        for s, seated in enumerate(plan):
            here = live & (seat == s)
            for strategy, where in seated:
                idx = np.flatnonzero(here if where is None else here & where)
                if idx.size:
                    rng = StrategyRNG.for_decision(seat_keys[s][idx], state.ply[idx])  # (seed, game, seat, ply)
                    acts[idx] = strategy.act(View(game, state, idx, s), mask[idx], rng)
        game.step(state, acts, mask)
        yield state


def play_batch(game: Game, strategies: Sequence, game_ids: np.ndarray, seed: int, *,
               log_turns: bool = True, log_events: bool = True, params_id: str = "",
               on_step: Callable[[BatchState], None] | None = None) -> BatchResult:
    """Play games ``game_ids`` of run ``seed`` to the end.

    Args:
        game: the engine.
        strategies: one strategy per seat (``len == num_players``).
        game_ids: ``int64[B]`` game indices.
        seed: run seed (game and strategy streams are keyed by (seed, game index)).
        log_turns, log_events: keep the turns / events tables (empty tables otherwise).
        params_id: short id of the parameter values, stored in the games table.
        on_step: called with the state after every step (invariant checks in tests).

    Returns:
        :class:`BatchResult`.

    Raises:
        IllegalActionError, PlyLimitError: a strategy or engine broke the rules.
    """
    players = len(strategies)
    state = game.init(np.asarray(game_ids, np.int64), seed, players)
    seat_keys = [stream_keys(seed, state.game_id, strategy_stream(s)) for s in range(players)]
    tspec, espec = game.turn_spec(), game.event_spec()
    tlim = int(game.turn_capacity * DRAIN_FRACTION)
    elim = int(game.event_capacity * DRAIN_FRACTION)
    turn_parts: list[tuple[np.ndarray, np.ndarray]] = []
    event_parts: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in plies(game, state, [[(strategies[s], None)] for s in range(players)], seat_keys):
        if on_step is not None:
            on_step(state)
        if state.turn_n.max() > tlim:
            gids, rows = drain(state.turn_buf, state.turn_n, state.game_id)
            if log_turns:
                turn_parts.append((gids, rows))
        if state.event_n.max() > elim:
            gids, rows = drain(state.event_buf, state.event_n, state.game_id)
            if log_events:
                event_parts.append((gids, rows))
    for buf, n, parts, keep in ((state.turn_buf, state.turn_n, turn_parts, log_turns),
                                (state.event_buf, state.event_n, event_parts, log_events)):
        gids, rows = drain(buf, n, state.game_id)
        if keep:
            parts.append((gids, rows))
    turns = _sorted_table(tspec, turn_parts)
    events = _sorted_table(espec, event_parts)
    ids = [s.id for s in strategies]
    return BatchResult(games_table(game, state, ids, params_id), turns, events, state)


def _sorted_table(spec, parts) -> pa.Table:
    if not parts:
        return spec.empty_table()
    gids = np.concatenate([p[0] for p in parts])
    rows = np.concatenate([p[1] for p in parts])
    order = np.argsort(gids, kind="stable")  # (game, time) order: drains are in time order
    return spec.to_table(gids[order], rows[order])
