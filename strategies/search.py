"""Lookahead machinery shared by greedy, heuristic and rollout strategies.

Candidates are (deciding game, legal action) pairs. Each candidate gets its own copy of its
game (``state.take``), with everything hidden from the deciding seat re-sampled first
(``game.redeterminize``), so lookahead never peeks at deck orders or bags, and from then on every
chance event of the copy comes from the searching seat's stream, never the game's own. Random
choices made while looking ahead come from streams derived from the decision's stream and keyed by
the candidate's identity (its action, its continuation number), never by its position in the call's
batch, so a game's result never depends on which games share its batch.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.rng import Streams, candidate_keys

from .base import StrategyRNG, View


def candidates(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, actions, starts)``: every True entry of ``mask`` in row-major order, and where
    each row's run of candidates starts."""
    rows, acts = np.nonzero(mask)
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]]) if rows.size else np.zeros(0, np.int64)
    return rows, acts.astype(np.int64), starts


def derived_streams(rng: StrategyRNG, rows: np.ndarray, tags: np.ndarray) -> Streams:
    """One fresh stream per candidate ``i``: keyed by one draw of its deciding game's stream
    (``rows[i]`` indexes the deciding games) and by the candidate's identity ``tags[i]`` (its
    action id; action and continuation number for rollouts; equal tags give equal streams).

    Args:
        rng: the decision's streams (``n`` deciding games); each game's stream advances by one draw.
        rows: ``int[m]`` deciding game of each candidate (index into ``rng``'s games).
        tags: ``int[m]`` candidate identity within its game, never its position in the batch.

    Returns:
        ``Streams`` of ``m`` streams, counters at 0.
    """
    base = rng.streams.u64(rng.idx)
    return Streams(candidate_keys(base[np.asarray(rows, np.int64)], tags))


def pick_best(scores: np.ndarray, rows: np.ndarray, acts: np.ndarray, starts: np.ndarray, n: int,
              u: np.ndarray, eps: float = 1e-9) -> np.ndarray:
    """Per row, the action with the highest score; ties broken by ``u`` (uniform per row)."""
    rowmax = np.maximum.reduceat(scores, starts)
    best = scores >= rowmax[rows] - eps
    cnt = np.add.reduceat(best.astype(np.int64), starts)
    k = np.minimum((u * cnt).astype(np.int64), cnt - 1)
    csum = np.cumsum(best) - best  # best candidates before this one overall
    rank_in_row = csum - csum[starts][rows]
    chosen = best & (rank_in_row == k[rows])
    out = np.full(n, -1, np.int64)
    out[rows[chosen]] = acts[chosen]
    return out


def advance(game, state, streams: Streams, seat: np.ndarray, *, until_turn_ends: bool, max_plies: int,
            turns0: np.ndarray | None = None) -> None:
    """Play copies forward with uniform random legal actions.

    With ``until_turn_ends``: only while the deciding seat is still in the same turn (finish a
    multi-part decision); otherwise for up to ``max_plies`` plies or to the end.
    """
    if turns0 is None:
        turns0 = game.progress(state)[0].copy()
    for _ in range(max_plies):
        done = game.done(state)
        live = ~done
        if until_turn_ends:
            live &= (game.progress(state)[0] == turns0) & (game.to_act(state) == seat)
        if not live.any():
            return
        mask = game.legal_action_mask(state)
        li = np.flatnonzero(live)
        a = np.full(state.batch_size, -1, np.int64)
        a[li] = streams.choose_legal(li, mask[li])
        game.step(state, a, mask, where=live)
        state.turn_n[:] = 0
        state.event_n[:] = 0


def value(game, state, seat: np.ndarray, weights: dict[str, float] | None) -> np.ndarray:
    """``float[B]``: weighted feature value of ``seat[g]`` minus the best other seat's (margin).

    ``weights=None`` scores VP alone.
    """
    feats = game.features(state)
    if weights is None:
        v = feats["vp"]
    else:
        v = sum(w * feats[k] for k, w in weights.items() if w)
        if not isinstance(v, np.ndarray):
            v = np.zeros((state.batch_size, state.num_players))
    b = np.arange(state.batch_size)
    own = v[b, seat]
    if state.num_players == 1:
        return own
    other = v.copy()
    other[b, seat] = -np.inf
    return own - other.max(axis=1)


def policy_step(game, sub, streams: Streams, live: np.ndarray, policy=None) -> None:
    """One decision in every ``live`` copy: uniform random legal actions (``policy=None``) or the
    given strategy at every seat, drawing from ``streams``."""
    mask = game.legal_action_mask(sub)
    a = np.full(sub.batch_size, -1, np.int64)
    if policy is None:
        li = np.flatnonzero(live)
        a[li] = streams.choose_legal(li, mask[li])
    else:
        who = game.to_act(sub)
        for q in range(sub.num_players):
            li = np.flatnonzero(live & (who == q))
            if li.size:
                a[li] = policy.act(View(game, sub, li, q), mask[li], StrategyRNG(streams, li))
    game.step(sub, a, mask, where=live)
    sub.turn_n[:] = 0
    sub.event_n[:] = 0


def continue_for(game, sub, streams: Streams, turns0: np.ndarray, horizon: int, policy=None, cap: int = 64) -> None:
    """Play copies on for ``horizon`` turns past ``turns0`` (or to the end) with ``policy``."""
    for _ in range(horizon * max(sub.num_players, 1) * cap):
        live = ~game.done(sub) & (game.progress(sub)[0] - turns0 < horizon)
        if not live.any():
            return
        policy_step(game, sub, streams, live, policy)
