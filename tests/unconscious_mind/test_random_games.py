"""Random play for 1-4 players: every game ends within the ply bound with zero invariant breaks."""

import numpy as np
import pytest

from meeplelab.sim.core.rng import Streams

from .util import game


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_end_within_ply_bound_with_no_invariant_breaks(players):
    gm = game()
    B = 200
    s = gm.init(np.arange(B), 100 + players, players)
    st = Streams.for_games(100 + players, s.game_id, 1)
    bound = gm.max_plies(players)
    steps = 0
    while not gm.done(s).all():
        d = gm.done(s)
        m = gm.legal_action_mask(s)
        live = np.flatnonzero(~d)
        assert m[live].any(axis=1).all()
        acts = np.full(B, -1, np.int64)
        acts[live] = st.choose_legal(live, m[live])
        gm.step(s, acts, m)
        assert s.event_n.max() <= gm.event_capacity // 2 and s.turn_n.max() <= gm.turn_capacity // 2
        s.event_n[:] = 0
        s.turn_n[:] = 0
        if steps % 7 == 0:
            bad = gm.check_invariants(s)
            assert not bad, bad
        steps += 1
        assert steps <= bound
    assert not gm.check_invariants(s)
    assert (s.ply < bound // 4).all()  # far from the bound
    scores = gm.final_scores(s)
    bd = gm.score_breakdown(s)
    assert np.array_equal(sum(bd.values()), scores)
    # the reputation clock, not the safety round limit, ends most games
    assert (s.end_trig == 1).mean() > 0.5


def test_turn_and_event_logs_are_consistent():
    gm = game()
    s = gm.init(np.arange(3), 9, 3)
    st = Streams.for_games(9, s.game_id, 1)
    vp_ev = np.zeros((3, 3), np.int64)
    turns = 0
    ki = gm.event_spec().index("kind")
    amt = gm.event_spec().index("amount")
    seat = gm.event_spec().index("seat")
    from meeplelab.sim.unconscious_mind import codes as R
    while not gm.done(s).all():
        m = gm.legal_action_mask(s)
        live = np.flatnonzero(~gm.done(s))
        acts = np.full(3, -1, np.int64)
        acts[live] = st.choose_legal(live, m[live])
        gm.step(s, acts, m)
        for g in range(3):
            for row in s.event_buf[g, :s.event_n[g]]:
                if row[ki] == R.EV_VP:
                    vp_ev[g, row[seat]] += row[amt]
        turns += int(s.turn_n.sum())
        s.event_n[:] = 0
        s.turn_n[:] = 0
    assert np.array_equal(vp_ev, gm.final_scores(s))
    assert turns == int(s.turn.sum())
    t, r = gm.progress(s)
    assert (t == s.turn).all() and (r >= 1).all()
