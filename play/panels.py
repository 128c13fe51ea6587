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
from typing import Callable, Sequence

import numpy as np
import polars as pl

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.rng import stream_keys, strategy_stream
from meeplelab.play.batch import DRAIN_FRACTION, compiled_plies, plies, uses_compiled_play
from meeplelab.sim.schema import ranks

#: treatments by (game id, name): ``fn(game, state, rows, seat)`` changes the state of games ``rows``
#: for ``seat`` right after setup (before the first decision)
TREATMENTS: dict[tuple[str, str], Callable] = {}
#: the module that registered each treatment (built-in: a module its game's spec names)
_ORIGIN: dict[tuple[str, str], str] = {}


def register_treatment(game: str, name: str, fn: Callable) -> None:
    """Register a setup treatment for one seat (``fn(game, state, rows, seat)``, in place).

    A game's own treatments belong in a module its spec names (``GameSpec.treatments``): every process
    imports those before looking a treatment up. One registered anywhere else (a script, a test) is
    sent to the workers with the work (:mod:`meeplelab.play.shipping`).
    """
    import sys

    TREATMENTS[(game, name)] = fn
    _ORIGIN[(game, name)] = sys._getframe(1).f_globals.get("__name__", "")


def load_treatments(game: str) -> None:
    """Import the modules that register ``game``'s built-in treatments (its spec's ``treatments``)."""
    import importlib

    from meeplelab.sim.registry import get_spec

    try:
        mods = get_spec(game).treatments
    except ConfigError:
        return
    for m in mods:
        for name, fn in getattr(importlib.import_module(m), "TREATMENTS", {}).items():
            if (game, name) not in TREATMENTS:
                TREATMENTS[(game, name)] = fn
                _ORIGIN[(game, name)] = m


def shipped_treatments(game: str, names) -> list[tuple[str, str, Callable]]:
    """``(game, name, fn)`` of the treatments ``names`` that were registered outside the game's spec
    modules (a worker would not have them), for :mod:`meeplelab.play.shipping`."""
    from meeplelab.sim.registry import get_spec

    load_treatments(game)
    try:
        builtin = set(get_spec(game).treatments)
    except ConfigError:
        builtin = set()
    return [(game, n, TREATMENTS[(game, n)]) for n in dict.fromkeys(names)
            if (game, n) in TREATMENTS and _ORIGIN.get((game, n)) not in builtin]


def start_resources(game: str) -> tuple:
    """The start resources ``game``'s spec declares (``GameSpec.start_resources``; () for a game without a spec)."""
    from meeplelab.sim.registry import get_spec

    try:
        return tuple(get_spec(game).start_resources)
    except ConfigError:
        return ()


def treatment_fn(game: str, name: str) -> Callable | None:
    """The treatment ``name`` of ``game``: a registered one, else one generated from a declared start resource
    (``coins+2``: two more start Coins, :mod:`meeplelab.sim.core.start`), else None."""
    load_treatments(game)
    fn = TREATMENTS.get((game, name))
    if fn is not None:
        return fn
    res = start_resources(game)
    if not res:
        return None
    from meeplelab.sim.core import start

    try:
        r, n = start.parse(name, res, game)
    except ConfigError:
        return None
    return lambda g, state, rows, seat: r.add(state, rows, seat, n)


def _unknown_treatment(game: str, name: str) -> ConfigError:
    from meeplelab.sim.core import start

    allowed = sorted(n for g, n in TREATMENTS if g == game)
    res = start_resources(game)
    if res:
        allowed.append(f"NAME+n or NAME-n with NAME one of {start.names(res)}")
    return ConfigError(f"unknown treatment {name!r} for {game}: allowed {', '.join(allowed) or 'none'}")


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


def play_lineups(game, lineups: Sequence[Lineup], games: int, seed: int, *, batch_size: int = 4096) -> pl.DataFrame:
    """Play ``games`` games of every lineup on common seeds and return one row per (lineup, game, seat).

    Args:
        game: an engine instance (its parameters are the rules played).
        lineups: the lineups (any seat counts).
        games: games per lineup (game ids ``0..games-1`` in every lineup).
        seed: run seed.
        batch_size: most games advanced together.

    Returns:
        polars DataFrame ``[len(lineups) * games * P]`` with columns ``lineup`` (index into
        ``lineups``), ``panel``, ``rot``, ``game``, ``seat``, ``players``, ``strategy``, ``treated``,
        ``vp`` (VP), ``win_share`` (wins), ``turns``, ``rounds``.

    Raises:
        ConfigError: unknown strategy or treatment, or a seat count the game does not take.
        IllegalActionError, PlyLimitError: a strategy or the engine broke the rules.
    """
    from meeplelab.strategies.registry import make_strategy

    if games < 1:
        raise ConfigError(f"games per lineup must be >= 1, got {games}")
    treat = {}
    for lu in lineups:
        if lu.treatment and lu.treatment not in treat:
            treat[lu.treatment] = treatment_fn(game.name, lu.treatment)
            if treat[lu.treatment] is None:
                raise _unknown_treatment(game.name, lu.treatment)
    frames = []
    by_players: dict[tuple, list[int]] = {}
    searching = _searching(game, lineups, make_strategy)
    for i, lu in enumerate(lineups):  # a lineup holding a search plays alone: its batches take the compiled path
        by_players.setdefault((len(lu.strategies), i if i in searching else None), []).append(i)
    for (players, alone), idxs in by_players.items():
        rows = [(i, g) for i in idxs for g in range(games)]
        for start in range(0, len(rows), batch_size):
            part = rows[start:start + batch_size]
            lu_idx = np.array([r[0] for r in part], np.int64)
            gids = np.array([r[1] for r in part], np.int64)
            frames.append(_play(game, [lineups[i] for i in range(len(lineups))], lu_idx, gids, seed, players,
                                make_strategy, treat, compiled=alone is not None))
    return pl.concat(frames).sort("lineup", "game", "seat")


def _searching(game, lineups, make_strategy) -> set[int]:
    """Indices of the lineups with a seat holding a search that has a compiled form (``ismcts``: the strong
    field): :func:`play_lineups` plays each of them in batches of its own, on the engine's compiled play kernel
    (:func:`meeplelab.play.batch.compiled_plies`, the same games as the Python loop, many times faster)."""
    if game.compiled_play is None:
        return set()
    from meeplelab.sim.core.ismcts import search_specs

    made: dict[str, object] = {}
    out = set()
    for i, lu in enumerate(lineups):
        strategies = [made.setdefault(sid, make_strategy(game.name, sid)) for sid in lu.strategies]
        if any(sp is not None for sp in search_specs(game, strategies)):
            out.add(i)
    return out


def _play(game, lineups, lu_idx, gids, seed, players, make_strategy, treat, *, compiled: bool = False) -> pl.DataFrame:
    state = game.init(gids, seed, players)
    b = state.batch_size
    for li in np.unique(lu_idx):
        lu = lineups[li]
        if lu.treatment:
            treat[lu.treatment](game, state, np.flatnonzero(lu_idx == li), lu.treated_seat)
    seat_keys = [stream_keys(seed, state.game_id, strategy_stream(s)) for s in range(players)]  # keyed by (seed, game, seat)
    # per seat: distinct strategy id -> (instance, bool[B] games where it sits there)
    plan = []
    for s in range(players):
        ids = np.array([lineups[li].strategies[s] for li in lu_idx], dtype=object)
        plan.append([(make_strategy(game.name, sid), ids == sid) for sid in dict.fromkeys(ids.tolist())])
    single = [seated[0][0] for seated in plan if len(seated) == 1]
    if compiled and len(single) == players and uses_compiled_play(game, single):  # a search's lineup alone
        loop = compiled_plies(game, state, single, seat_keys, int(game.turn_capacity * DRAIN_FRACTION),
                              int(game.event_capacity * DRAIN_FRACTION))
    else:
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
