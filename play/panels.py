"""Panels: fixed sets of seat arrangements (lineups) played on common seeds, many lineups in one batch.

A *panel* is a named list of strategies rotated over the seats (balanced rotation: a cyclic Latin
square, every strategy in every seat once; ``seating="all"`` for every permutation), optionally with
one strategy replaced (a variant panel: ``abjure-at:cycle=2`` instead of ``never-abjure``) or with a
*treatment* applied to one seat per rotation (``+1 start Coffee``; rotation ``r`` treats seat ``r``).
Rotation ``r`` of a variant or treated panel seats everyone exactly as rotation ``r`` of its base
panel, so a game of the two can be paired on ``(rot, game, seat)``.

:func:`play_lineups` plays ``games`` games of every lineup. Game ``i`` of every lineup uses the same
random streams (run seed, game index ``i``): common random numbers across lineups and across rule
variants played with the same seed. Lineups with the same seat count share one batch; each seat's
decisions are taken by one call per distinct strategy (a strategy instance sees only the games in
which it sits at that seat), so results are identical to playing each lineup alone.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import polars as pl

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.rng import stream_keys, strategy_stream
from meeplelab.play.batch import plies
from meeplelab.sim.schema import ranks

from meeplelab.play.treatments import (TREATMENTS, _ORIGIN, load_treatments, register_treatment,  # noqa: E402,F401
                                      shipped_treatments, start_resources, treatment_fn, _unknown_treatment)
from meeplelab.play.batch import compiled_plies, DRAIN_FRACTION, uses_compiled_play
from meeplelab.strategies.plans import CompiledPlan
from meeplelab.strategies.registry import make_strategy


@dataclass(frozen=True)
class Lineup:
    """One seat arrangement of a panel.

    Attributes:
        panel: panel name (``field-4``, ``abjure-2``).
        rot: rotation index within the panel (pairs games across panels).
        strategies: strategy id per seat (``[P]``).
        treatment: treatment name applied to ``treated_seat`` ("" for none).
        treated_seat: the treated seat (-1 for none).
    """

    panel: str
    rot: int
    strategies: tuple[str, ...]
    treatment: str = ""
    treated_seat: int = -1


def panel(name: str, strategies: Sequence[str], *, replace: dict[str, str] | None = None, treatment: str = "",
          seating: str = "latin") -> list[Lineup]:
    """The lineups of a panel.

    Args:
        name: panel name.
        strategies: one strategy per seat (the base arrangement, rotation 0).
        replace: strategy ids replaced in every rotation (``{"never-abjure": "abjure-at:cycle=2"}``).
        treatment: a registered treatment, or a start-resource treatment ``NAME+n`` of the game's declared
            start resources (:func:`treatment_fn`), given to seat ``r`` in rotation ``r`` (latin seating only).
        seating: ``latin`` (cyclic rotations, P lineups) or ``all`` (every permutation, P! lineups).

    Raises:
        ConfigError: unknown seating, a treatment with ``all`` seating, or a replaced id not in the panel.
    """
    s = list(strategies)
    rep = dict(replace or {})
    bad = [k for k in rep if k not in s]
    if bad:
        raise ConfigError(f"panel {name}: {bad[0]!r} is not among its strategies {','.join(s)}")
    if seating == "latin":
        orders = [tuple(s[(seat - r) % len(s)] for seat in range(len(s))) for r in range(len(s))]
    elif seating == "all":
        if treatment:
            raise ConfigError(f"panel {name}: a treatment needs latin seating (rotation r treats seat r)")
        orders = list(itertools.permutations(s))
    else:
        raise ConfigError(f"seating {seating!r}: allowed latin, all")
    return [Lineup(name, r, tuple(rep.get(x, x) for x in o), treatment, r if treatment else -1)
            for r, o in enumerate(orders)]


def play_lineups(game, lineups: Sequence[Lineup], games: int, seed: int, *, batch_size: int = 4096,
                 compiled: bool = True) -> pl.DataFrame:
    """Play ``games`` games of every lineup on common seeds and return one row per (lineup, game, seat).

    A lineup whose seats the engine's compiled play kernel can play (compiled plans, heuristics or searches
    in at least one seat: :func:`meeplelab.play.batch.uses_compiled_play`) is played on the compiled path, its
    games in batches of their own (every seat one strategy in the batch: the composite
    commands at engine speed); the other lineups of a seat count share Python-loop batches. The games are
    the same on both paths (every draw keyed by run seed, game, seat and ply).

    Args:
        game: an engine instance (its parameters are the rules played).
        lineups: the lineups (any seat counts).
        games: games per lineup (game ids ``0..games-1`` in every lineup).
        seed: run seed.
        batch_size: most games advanced together.
        compiled: False plays every lineup on the Python loop (the reference).

    Returns:
        polars DataFrame ``[len(lineups) * games * P]`` with columns ``lineup`` (index into
        ``lineups``), ``panel``, ``rot``, ``game``, ``seat``, ``players``, ``strategy``, ``treated``,
        ``vp`` (VP), ``win_share`` (wins), ``turns``, ``rounds``.

    Raises:
        ConfigError: unknown strategy or treatment, or a seat count the game does not take.
        IllegalActionError, PlyLimitError: a strategy or the engine broke the rules.
    """
    if games < 1:
        raise ConfigError(f"games per lineup must be >= 1, got {games}")
    treat = {}
    for lu in lineups:
        if lu.treatment and lu.treatment not in treat:
            treat[lu.treatment] = treatment_fn(game.name, lu.treatment)
            if treat[lu.treatment] is None:
                raise _unknown_treatment(game.name, lu.treatment)
    frames = []
    by_players: dict[int, list[int]] = {}
    for i, lu in enumerate(lineups):
        by_players.setdefault(len(lu.strategies), []).append(i)

    made: dict[str, object] = {}

    def make(sid: str):
        if sid not in made:
            made[sid] = make_strategy(game.name, sid)
        return made[sid]

    for players, idxs in by_players.items():
        fast = [i for i in idxs if compiled and uses_compiled_play(game, [make(x) for x in lineups[i].strategies])]
        for i in fast:
            for start in range(0, games, batch_size):
                gids = np.arange(start, min(start + batch_size, games), dtype=np.int64)
                frames.append(_play(game, lineups, np.full(gids.size, i, np.int64), gids, seed, players,
                                    make_strategy, treat, compiled=True, made=made))
        rows = [(i, g) for i in idxs if i not in fast for g in range(games)]
        for start in range(0, len(rows), batch_size):
            part = rows[start:start + batch_size]
            lu_idx = np.array([r[0] for r in part], np.int64)
            gids = np.array([r[1] for r in part], np.int64)
            frames.append(_play(game, [lineups[i] for i in range(len(lineups))], lu_idx, gids, seed, players,
                                make_strategy, treat))
    return pl.concat(frames).sort("lineup", "game", "seat")


def _play(game, lineups, lu_idx, gids, seed, players, make_strategy, treat, compiled: bool = False,
          made: dict | None = None) -> pl.DataFrame:
    """One batch: games ``gids`` of lineups ``lu_idx`` (``[B]`` each); ``compiled``: every game is of one lineup,
    played on the compiled path (:func:`meeplelab.play.batch.compiled_plies`), its compiled plans taken from
    ``made`` (``{strategy id: instance}``: a plan is data, and its instance caches its tables for ``game``)."""
    state = game.init(gids, seed, players)
    b = state.batch_size
    for li in np.unique(lu_idx):
        lu = lineups[li]
        if lu.treatment:
            treat[lu.treatment](game, state, np.flatnonzero(lu_idx == li), lu.treated_seat)
    seat_keys = [stream_keys(seed, state.game_id, strategy_stream(s)) for s in range(players)]  # keyed by (seed, game, seat)
    if compiled:
        made = made if made is not None else {}
        strategies = [made[sid] if isinstance(made.get(sid), CompiledPlan) else make_strategy(game.name, sid)
                      for sid in lineups[int(lu_idx[0])].strategies]
        loop = compiled_plies(game, state, strategies, seat_keys, int(game.turn_capacity * DRAIN_FRACTION),
                              int(game.event_capacity * DRAIN_FRACTION))
    else:
        # per seat: distinct strategy id -> (instance, bool[B] games where it sits there)
        plan = []
        for s in range(players):
            ids = np.array([lineups[li].strategies[s] for li in lu_idx], dtype=object)
            plan.append([(make_strategy(game.name, sid), ids == sid) for sid in dict.fromkeys(ids.tolist())])
        loop = plies(game, state, plan, seat_keys)
    for _ in loop:
        state.turn_n[:] = 0  # no logs kept: buffers emptied every step
        state.event_n[:] = 0
    scores = np.asarray(game.final_scores(state), np.int64)
    rk = ranks(scores, np.asarray(game.tiebreak(state), np.int64))
    win = rk == 1
    share = np.where(win, 1.0 / win.sum(axis=1, keepdims=True), 0.0)
    turns, rounds = game.progress(state)
    rep = lambda a: np.repeat(np.asarray(a), players)  # noqa: E731
    seats = np.tile(np.arange(players), b)
    lus = rep(lu_idx)
    return pl.DataFrame({
        "lineup": lus.astype(np.int32),
        "panel": [lineups[i].panel for i in lus],
        "rot": np.array([lineups[i].rot for i in lus], np.int32),
        "game": rep(gids).astype(np.int64),
        "seat": seats.astype(np.int8),
        "players": np.full(b * players, players, np.int8),
        "strategy": [lineups[i].strategies[s] for i, s in zip(lus, seats)],
        "treated": np.array([lineups[i].treated_seat == s for i, s in zip(lus, seats)]),
        "vp": scores.reshape(-1).astype(np.int32),
        "win_share": share.reshape(-1),
        "turns": rep(turns).astype(np.int32),
        "rounds": rep(rounds).astype(np.int16),
    })
