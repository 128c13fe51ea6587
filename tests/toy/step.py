"""Batch kernels of the toy game: one call per step for the whole batch, routed by decision kind."""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.rng import chance_shuffle

from . import dispatch
from .cols import DECISION, DECK, OVER

#: chance zone of the shared deck's shuffle (meeplelab.sim.core.rng.chance_shuffle)
Z_DECK = 0


@njit(cache=True)
def setup(S, C, prm, rng_key, rng_ctr):
    """Shuffle each game's deck (chance zone ``Z_DECK``). ``S.pile``: ``int64[B, 1, deck_size]``."""
    for g in range(S.pile.shape[0]):
        chance_shuffle(rng_key, rng_ctr, g, Z_DECK, S.pile[g, DECK], 0, S.pile.shape[2])


@njit(cache=True)
def legal_mask(S, C, prm, out):
    """Fill ``out`` (``bool[B, num_actions]``) with each game's legal actions; all False when over."""
    for g in range(out.shape[0]):
        out[g, :] = False
        if S.game[g, OVER] == 0:
            dispatch.legal(S.game[g, DECISION], S, C, prm, g, out[g])


@njit(cache=True)
def apply(S, C, prm, actions, active):
    """Apply ``actions[g]`` (``int64[B]``) to every game with ``active[g]``."""
    for g in range(actions.shape[0]):
        if active[g]:
            dispatch.apply(S.game[g, DECISION], S, C, prm, g, actions[g])

