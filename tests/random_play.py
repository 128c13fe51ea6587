"""Random play to mid-game states for tests that compare two computations on the same states."""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.rng import Streams


def random_plies(game, state, seed: int, stream: int, plies: int, every: int | None = None) -> list:
    """Advance ``state`` (in place) by up to ``plies`` uniformly random legal plies drawn from the streams
    ``(seed, game, stream)``, emptying the log buffers after each; stops early when every game has ended.
    Returns copies of the state taken every ``every`` plies (empty when ``every`` is None)."""
    rng = Streams.for_games(seed, state.game_id, stream)
    snaps = []
    for k in range(plies):
        m = game.legal_action_mask(state)
        live = ~game.done(state)
        idx = np.flatnonzero(live)
        if not idx.size:
            break
        a = np.full(state.batch_size, -1, np.int64)
        a[idx] = rng.choose_legal(idx, m[idx])
        game.step(state, a, m, where=live)
        state.turn_n[:] = 0
        state.event_n[:] = 0
        if every and k % every == every - 1:
            snaps.append(state.copy())
    return snaps
