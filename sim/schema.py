"""The ``games`` table: one row per (game, seat), declared once here.

Core columns are listed in :data:`GAMES_COLUMNS`; each game adds ``vp_<category>`` columns for its
``score_categories`` (the final-score breakdown).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .core.arrow import dictionary, from_numpy
from .core.game import Game
from .core.logs import Column
from .core.state import BatchState

GAMES_COLUMNS: tuple[Column, ...] = (
    Column("game", "int64", "index", "Game index within the run (its random streams are keyed by `game_seed`)."),
    Column("seat", "int8", "seat", "Seat, 0 = first player."),
    Column("players", "int8", "seats", "Seats in the game."),
    Column("strategy", "str", "-", "Strategy id at this seat, with its arguments."),
    Column("vp", "int32", "VP", "Final score."),
    Column("rank", "int8", "place", "Final place, 1 = best; seats tied on VP and tie-break share a place."),
    Column("win", "bool", "-", "True when the seat finished in first place (shared on a full tie)."),
    Column("win_share", "float64", "wins", "1/k for each of k seats sharing first place, else 0."),
    Column("margin", "int32", "VP", "VP minus the best VP among the other seats (0 for solo)."),
    Column("plies", "int32", "decisions", "Decisions taken in the game (all seats)."),
    Column("turns", "int32", "turns", "Turns taken in the game (all seats)."),
    Column("rounds", "int16", "rounds", "Rounds (Cycles) played."),
    Column("end_reason", "str", "-", "How the game ended (the game's end reasons are listed in its section "
           "below)."),
    Column("safety_stop", "bool", "-", "True when the game was ended by a safety stop (e.g. Unconscious Mind's "
           "round_limit) rather than by the rules' own end; reports count them and can exclude them."),
    Column("params_id", "str", "-", "Hash of the parameter values the game ran with."),
    Column("seat_order", "int16", "index", "Seat order the game was played in (index into the manifest's "
           "`seating.orders`; 0 under fixed seating)."),
    Column("game_seed", "int64", "index", "Key of the game's random streams: games of different seat orders with "
           "the same `game_seed` share their shuffles (common random numbers)."),
)


def games_schema(game: Game) -> pa.Schema:
    """Arrow schema of the games table for ``game``."""
    fields = [pa.field(c.name, c.arrow_type()) for c in GAMES_COLUMNS]
    fields += [pa.field(f"vp_{c}", pa.int32()) for c in game.score_categories]
    return pa.schema(fields)


def ranks(scores: np.ndarray, tiebreak: np.ndarray) -> np.ndarray:
    """``int[B, P]`` places (1 = best) by VP, then the tie-break key(s) (``int[B, P]`` or ``int[B, P, K]``),
    compared in order (never combined by arithmetic); seats equal on every key share the better place."""
    tb = np.asarray(tiebreak, np.int64)
    if tb.ndim == 2:
        tb = tb[:, :, None]
    keys = np.concatenate([np.asarray(scores, np.int64)[:, :, None], tb], axis=2)  # [B, P, 1 + K]
    b, p, nk = keys.shape
    # better[g, i, j]: seat j's keys beat seat i's in lexicographic order
    better = np.zeros((b, p, p), bool)
    equal = np.ones((b, p, p), bool)
    for k in range(nk):
        kj = keys[:, None, :, k]
        ki = keys[:, :, None, k]
        better |= equal & (kj > ki)
        equal &= kj == ki
    # place = 1 + number of seats with strictly better keys
    return 1 + better.sum(axis=2)


def games_table(game: Game, state: BatchState, strategy_ids: list[str], params_id: str) -> pa.Table:
    """The games table of a finished batch (rows in (game, seat) order)."""
    b, p = state.batch_size, state.num_players
    scores = np.asarray(game.final_scores(state), np.int64)
    rk = ranks(scores, np.asarray(game.tiebreak(state), np.int64))
    win = rk == 1
    share = np.where(win, 1.0 / win.sum(axis=1, keepdims=True), 0.0)
    if p > 1:
        other = np.where(np.eye(p, dtype=bool)[None], np.iinfo(np.int64).min, scores[:, None, :]).max(axis=2)
        margin = scores - other
    else:
        margin = np.zeros_like(scores)
    turns, rounds = game.progress(state)
    reasons = list(game.end_reasons)
    end = np.asarray(game.end_reason(state), np.int64)
    safety = [reasons.index(r) for r in game.safety_stops]
    rep = lambda a: np.repeat(np.asarray(a), p)  # noqa: E731
    strat_codes = np.tile(np.arange(p), b)
    vocab = list(dict.fromkeys(strategy_ids))
    codes = np.array([vocab.index(s) for s in strategy_ids], np.int16)[strat_codes]
    cols = {
        "game": from_numpy(rep(state.game_id).astype(np.int64)),
        "seat": from_numpy(np.tile(np.arange(p, dtype=np.int8), b)),
        "players": from_numpy(np.full(b * p, p, np.int8)),
        "strategy": dictionary(codes, vocab),
        "vp": from_numpy(scores.reshape(-1).astype(np.int32)),
        "rank": from_numpy(rk.reshape(-1).astype(np.int8)),
        "win": from_numpy(win.reshape(-1)),
        "win_share": from_numpy(np.asarray(share, np.float64).reshape(-1)),
        "margin": from_numpy(margin.reshape(-1).astype(np.int32)),
        "plies": from_numpy(rep(state.ply).astype(np.int32)),
        "turns": from_numpy(rep(turns).astype(np.int32)),
        "rounds": from_numpy(rep(rounds).astype(np.int16)),
        "end_reason": dictionary(rep(end).astype(np.int16), reasons),
        "safety_stop": from_numpy(rep(np.isin(end, safety))),
        "params_id": dictionary(np.zeros(b * p, np.int16), [params_id]),
        "seat_order": from_numpy(np.zeros(b * p, np.int16)),
        "game_seed": from_numpy(rep(state.game_id).astype(np.int64)),
    }
    bd = game.score_breakdown(state)
    for c in game.score_categories:
        cols[f"vp_{c}"] = from_numpy(np.asarray(bd[c]).reshape(-1).astype(np.int32))
    return pa.Table.from_arrays(list(cols.values()), schema=games_schema(game))
