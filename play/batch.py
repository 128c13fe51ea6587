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

from meeplelab.sim.core.game import Game
from meeplelab.sim.core.logs import drain
from meeplelab.sim.core.rng import stream_keys, strategy_stream
from meeplelab.sim.core.state import BatchState
from meeplelab.sim.schema import games_table
from meeplelab.sim.core.compiled import ST_BOUND, ST_OVER, ST_PYTHON, ST_STUCK
from meeplelab.sim.core.errors import PlyLimitError
from meeplelab.sim.core.ismcts import search_specs
from meeplelab.sim.core.lookahead import heuristic_specs
from meeplelab.strategies.base import StrategyRNG, View
from meeplelab.strategies.compiled import heuristic_tables, search_tables
from meeplelab.strategies.plans import compile_plans, CompiledPlan, Plan
from meeplelab.strategies.restricted import restriction_tables, unwrap

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
    after each step (the one play loop: :func:`play_batch` and the panels of ``play/panels.py`` use it).

    Each live game's action comes from the strategy seated at its acting seat, with that decision's
    stream keyed by (run seed, game, seat, ply): ``seat_keys[s]`` is ``uint64[B, 2]`` (or the keys of
    :func:`meeplelab.sim.core.rng.stream_keys`), never by the game's position in the batch.

    Args:
        game: the engine.
        state: ``B`` games, advanced in place.
        plan: per seat, ``(strategy, where)`` pairs (:data:`SeatPlan`).
        seat_keys: per seat, the strategy stream keys of the ``B`` games.

    Raises:
        IllegalActionError, PlyLimitError: a strategy or the engine broke the rules.
    """
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


def check_kernel_profile(game: Game, kernel_profile) -> None:
    """Check a ``kernel_profile`` argument (:func:`play_batch`, :func:`compiled_plies`) before any game is played:
    a writable C-contiguous ``numpy.uint64`` array of shape ``(K, 4)``, with K above every decision kind code of
    ``game``'s play kernel (``game.compiled_module().KINDS``; any K >= 1 for an engine without one), which the
    kernel indexes as ``prof[kind, :]``.

    Raises:
        ValueError: any other value, in one line naming what is wrong and what is allowed.
    """
    mod = game.compiled_module()
    k_min = max(mod.KINDS.values()) + 1 if mod is not None and mod.KINDS else 1
    allowed = f"allowed: a writable C-contiguous numpy uint64 array of shape (K, 4) with K >= {k_min}"
    p = kernel_profile
    if not isinstance(p, np.ndarray):
        bad = f"is a {type(p).__name__}, not a numpy array"
    elif p.dtype != np.uint64:
        bad = f"has dtype {p.dtype}"
    elif p.ndim != 2 or p.shape[1] != 4:
        bad = f"has shape {p.shape}"
    elif p.shape[0] < k_min:
        bad = f"has {p.shape[0]} rows, too few for the decision kind codes up to {k_min - 1} of the play kernel"
    elif not p.flags.c_contiguous:
        bad = "is not C-contiguous"
    elif not p.flags.writeable:
        bad = "is read-only"
    else:
        return
    raise ValueError(f"kernel_profile {bad}: {allowed}")


def compiled_plies(game: Game, state: BatchState, strategies: Sequence, seat_keys: Sequence[np.ndarray],
                   tlim: int, elim: int, kernel_profile: np.ndarray | None = None) -> Iterator[BatchState]:
    """Advance every game of ``state`` to its end on the compiled path, yielding the state
    whenever the play kernel returns (log buffers to drain, a Python seat to act, all games over).

    Seats holding a :class:`meeplelab.strategies.plans.CompiledPlan` are played inside the engine's play kernel
    (``game.compiled_module().play_kernel``: the play loop with only the choosers seated), and so are seats
    holding a heuristic with a compiled form (:func:`meeplelab.strategies.compiled.heuristic_tables`) or an ISMCTS
    with one (:func:`meeplelab.strategies.compiled.search_tables`); any other strategy decides its plies here, one
    ply at a time, as on :func:`plies`. Games are identical to :func:`plies` with the same strategies: every decision is drawn
    from the same (run seed, game, seat, ply) stream.

    Args:
        tlim, elim: a game leaves the kernel when its turn / event buffer holds more rows than this.
        kernel_profile: ``uint64[K, 4]`` (K above every decision kind code) the kernel adds, per decision
            kind, the CPU cycles of the legal action mask, the choice and the application, and the count of
            decisions (:mod:`meeplelab.sim.core.cycles`); None: not measured.

    Raises:
        ValueError: a bad ``kernel_profile`` (:func:`check_kernel_profile`), before any ply is played.
        PlyLimitError: a game reached its ply bound unfinished.
        RuntimeError: an unfinished game with no legal action (an engine fault).
    """
    if kernel_profile is not None:
        check_kernel_profile(game, kernel_profile)
    mod = game.compiled_module()
    searches = search_specs(game, strategies)
    heur_seat, H = heuristic_tables(game, state, strategies, [sp.heuristic if sp else None for sp in searches])
    search_seat, T = search_tables(game, strategies, searches)
    base = [unwrap(s) for s in strategies]  # a restricted plan plays its plan in the kernel, narrowed there (R)
    compiled_seat = np.array([isinstance(s, CompiledPlan) for s in base], np.bool_) | heur_seat | search_seat
    tables = compile_plans([s.resolved(game) if isinstance(s, CompiledPlan) else Plan("python") for s in base],
                           mod.KINDS, mod.FEATURES, game.num_actions, mod.SCORES)
    R = restriction_tables(game, strategies)
    keys = np.ascontiguousarray(np.stack([np.asarray(k, np.uint64) for k in seat_keys]))
    ctx = mod.kernel_context(game, state)
    bound = game.max_plies(state.num_players)
    status = np.zeros(state.batch_size, np.int64)
    prof = np.zeros((0, 4), np.uint64) if kernel_profile is None else kernel_profile
    scratch = (np.zeros(game.num_actions, np.bool_), np.zeros(len(mod.FEATURES), np.int64),
               np.zeros(game.num_actions, np.int64), np.zeros(1, np.uint64),
               np.zeros(1, np.uint64))  # mask, features, action score, decision stream key, counter
    kernel = mod.play_kernel(bool(heur_seat.any()), bool(search_seat.any()))  # compiles only the choosers seated
    while True:
        kernel(*ctx, tables.rules, tables.conds, tables.acts, tables.seat_rules, compiled_seat, keys, bound,
                 tlim, elim, status, *scratch, heur_seat, H, search_seat, T, R, prof)
        if (status == ST_BOUND).any():
            g = int(np.flatnonzero(status == ST_BOUND)[0])
            raise PlyLimitError(f"game {int(state.game_id[g])} reached its ply bound {bound} without ending")
        if (status == ST_STUCK).any():
            g = int(np.flatnonzero(status == ST_STUCK)[0])
            raise RuntimeError(f"game {int(state.game_id[g])} (ply {int(state.ply[g])}) is unfinished with no "
                               f"legal action: an engine fault")
        py = status == ST_PYTHON
        if py.any():
            mask = game.legal_action_mask(state)
            seat = game.to_act(state)
            acts = np.full(state.batch_size, -1, np.int64)
            for s, strategy in enumerate(strategies):
                idx = np.flatnonzero(py & (seat == s))
                if idx.size:
                    rng = StrategyRNG.for_decision(seat_keys[s][idx], state.ply[idx])
                    acts[idx] = strategy.act(View(game, state, idx, s), mask[idx], rng)
            game.step(state, acts, mask, where=py)
        yield state
        if (status == ST_OVER).all() and not py.any():
            return


def uses_compiled_play(game: Game, strategies: Sequence) -> bool:
    """True when ``game`` has compiled play and at least one seat holds a compiled plan, a heuristic with a
    compiled form (:meth:`meeplelab.strategies.generic.Heuristic.compiled`) or an ISMCTS with one
    (:meth:`meeplelab.strategies.ismcts.ISMCTS.compiled_search`)."""
    if game.compiled_play is None:
        return False
    if any(isinstance(unwrap(s), CompiledPlan) for s in strategies):
        return True

    return (any(sp is not None for sp in heuristic_specs(game, strategies))
            or any(sp is not None for sp in search_specs(game, strategies)))


def play_batch(game: Game, strategies: Sequence, game_ids: np.ndarray, seed: int, *,
               log_turns: bool = True, log_events: bool = True, params_id: str = "",
               on_step: Callable[[BatchState], None] | None = None, compiled: bool = True,
               kernel_profile: np.ndarray | None = None) -> BatchResult:
    """Play games ``game_ids`` of run ``seed`` to the end.

    Args:
        game: the engine.
        strategies: one strategy per seat (``len == num_players``).
        game_ids: ``int64[B]`` game indices.
        seed: run seed (game and strategy streams are keyed by (seed, game index)).
        log_turns, log_events: keep the turns / events tables (empty tables otherwise).
        params_id: short id of the parameter values, stored in the games table.
        on_step: called with the state after every step (invariant checks in tests); forces the
            Python-loop path.
        compiled: play compiled-plan seats inside the engine's play kernel (:func:`compiled_plies`) when
            the engine has one; False plays every seat on the Python loop (:func:`plies`). The games
            are the same either way.
        kernel_profile: on the compiled path, ``uint64[K, 4]`` cycles per decision kind the play kernel adds to
            (:func:`compiled_plies`; ``meeplelab bench --only profile``), checked by :func:`check_kernel_profile`
            whichever path plays.

    Returns:
        :class:`BatchResult`.

    Raises:
        ValueError: a bad ``kernel_profile`` (one line, before any game is played).
        IllegalActionError, PlyLimitError: a strategy or engine broke the rules.
    """
    if kernel_profile is not None:
        check_kernel_profile(game, kernel_profile)
    players = len(strategies)
    state = game.init(np.asarray(game_ids, np.int64), seed, players)
    seat_keys = [stream_keys(seed, state.game_id, strategy_stream(s)) for s in range(players)]
    tspec, espec = game.turn_spec(), game.event_spec()
    tlim = int(game.turn_capacity * DRAIN_FRACTION)
    elim = int(game.event_capacity * DRAIN_FRACTION)
    turn_parts: list[tuple[np.ndarray, np.ndarray]] = []
    event_parts: list[tuple[np.ndarray, np.ndarray]] = []
    if compiled and on_step is None and uses_compiled_play(game, strategies):
        loop = compiled_plies(game, state, strategies, seat_keys, tlim, elim, kernel_profile)
    else:
        loop = plies(game, state, [[(strategies[s], None)] for s in range(players)], seat_keys)
    for _ in loop:
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
