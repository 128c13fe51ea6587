"""Unconscious Mind search copies keep what the player knows: a Research card
another player took from the face-up display stays in that player's hand in every copy; the unknown hand
cards are still re-sampled; a copy's chance key is the searching seat's, never the game's."""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.rng import Streams
from meeplelab.play.batch import play_batch
from meeplelab.sim.unconscious_mind.codes import L_DISPLAY, L_HAND
from meeplelab.strategies.registry import make_strategy

from .util import game

G = "unconscious-mind"


def _taken_from_display(gm, n=24, seed=8):
    """One-game states right after a seat swapped a display card into its hand: (states, seat, card)."""
    prev = {}
    snaps = []

    def on_step(state):
        for g in range(state.batch_size):
            gid = int(state.game_id[g])
            loc, own = state.card_loc[g].copy(), state.card_own[g].copy()
            if gid in prev and len(snaps) < 200:
                took = np.flatnonzero((prev[gid] == L_DISPLAY) & (loc == L_HAND))
                for c in took:
                    snaps.append((state.take(np.array([g]), fresh_logs=True), int(own[c]), int(c)))
            prev[gid] = loc

    play_batch(gm, [make_strategy(G, "random")] * 3, np.arange(n), seed, log_turns=False, log_events=False,
               on_step=on_step)
    states = [s for s, _, _ in snaps]
    out = states[0].take(np.zeros(len(states), np.int64))
    for i, s in enumerate(states):
        out.put(np.array([i]), s)
    return out, np.array([p for _, p, _ in snaps]), np.array([c for _, _, c in snaps])


def test_a_card_taken_from_the_display_stays_in_that_hand_in_every_copy():
    gm = game()
    s, owner, card = _taken_from_display(gm)
    assert s.batch_size >= 10, s.batch_size
    k = 16
    c = s.repeat(k)
    searcher = np.repeat((owner + 1) % s.num_players, k)
    keys = (np.arange(c.batch_size, dtype=np.uint64) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15)
    gm.redeterminize(c, searcher, Streams(keys))
    b = np.arange(c.batch_size)
    cc, oo = np.repeat(card, k), np.repeat(owner, k)
    kept = (c.card_loc[b, cc] == L_HAND) & (c.card_own[b, cc] == oo)
    assert kept.all(), f"{kept.mean():.0%} of the copies keep it"
    # the owner's other (unknown) hand cards are still re-sampled in some copies
    real = s.repeat(k)
    moved = [set(np.flatnonzero((c.card_loc[g] == L_HAND) & (c.card_own[g] == oo[g])))
             != set(np.flatnonzero((real.card_loc[g] == L_HAND) & (real.card_own[g] == oo[g])))
             for g in range(c.batch_size)]
    assert np.mean(moved) > 0.3
    assert not np.isin(c.rng_key, real.rng_key).any()
