"""How the game ends (research UM §7, A-UM-13, A-UM-36) and who is ahead on the reputation track (A-UM-25)."""

import numpy as np
import pyarrow.compute as pc
import pytest

from meeplelab.sim.core.rng import Streams
from meeplelab.play.batch import play_batch
from meeplelab.sim.schema import games_table, ranks
from meeplelab.sim.unconscious_mind import UnconsciousMind
from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.params import Params
from meeplelab.sim.unconscious_mind.rules.scoring import final_scoring
from meeplelab.strategies import make_strategy

from .util import new, step, top


def first_legal(gm, s):
    m = gm.legal_action_mask(s)
    return np.array([int(np.flatnonzero(r)[0]) if r.any() else 0 for r in m])


# ------------------------------------------------------------------ ahead on the reputation track
def _same_space_position(gm, s):
    """Four seats: seats 1 and 2 share reputation space 7, seat 2 arrived first (underneath), seats 0 and 3
    behind; equal VP and heart boxes."""
    s.rep[:] = np.array([5, 7, 7, 2])
    s.rep_order[:] = np.array([4, 12, 9, 1])  # arrival sequence: seat 2 reached space 7 before seat 1
    s.rep_seq[:] = 12
    s.hearts[:] = 1
    s.vp[:] = 40


def test_same_space_markers_the_one_underneath_is_ahead_for_the_tiebreak_and_the_track_bonus():
    gm, s = new(P=4, B=2)
    _same_space_position(gm, s)
    s.over[:] = 1
    t = games_table(gm, s, ["publisher"] * 4, "x")
    win = t.column("win").to_numpy(zero_copy_only=False).reshape(2, 4)
    share = t.column("win_share").to_numpy().reshape(2, 4)
    rank = t.column("rank").to_numpy().reshape(2, 4)
    assert win[:, 2].all() and win.sum() == 2  # seat 2 wins alone: no shared win
    assert (share[:, 2] == 1.0).all()
    assert (rank == np.array([3, 2, 1, 4])).all()
    # the end-of-track bonus uses the same order: seat 2 first, seat 1 second
    gm, s = new(P=4, B=2)
    _same_space_position(gm, s)
    s.vp[:] = 0
    s.vp_ev[:] = 0
    s.cured[:] = 1
    S, C, prm = gm.kernel_context(s)
    for g in range(2):
        final_scoring(S, C, prm, g)
    bd = gm.score_breakdown(s)
    p = gm.params
    assert (bd["end_track_bonus"] == np.array([0, p.track_bonus_second, p.track_bonus_first, 0])).all()


def test_ranks_compare_keys_in_order_not_by_a_weighted_sum():
    scores = np.array([[10, 10, 10]])
    # a huge second key never outweighs the first
    tb = np.array([[[0, 5000], [1, 0], [1, 0]]])
    assert ranks(scores, tb).tolist() == [[3, 1, 1]]
    assert ranks(np.array([[2000, 1999]]), np.array([[-5, 10 ** 9]])).tolist() == [[1, 2]]
    # tie-break keys are never clipped or scaled: a large key still decides
    assert ranks(np.array([[10, 10]]), np.array([[600_000, 700_000]])).tolist() == [[2, 1]]


# ------------------------------------------------------------------ how the game ended
def test_games_table_tells_clock_ends_from_round_limit_stops_in_two_seat_random_games():
    """The issue's kind: 2 seats, random seats, 200 games, seed 7; the games with rounds = round_limit
    (30) are split by end_reason, and the column agrees with the end events and the reputation clock."""
    gm = UnconsciousMind()
    rnd = make_strategy("unconscious-mind", "random")
    res = play_batch(gm, [rnd, rnd], np.arange(200), 7)
    g = res.games.filter(pc.equal(res.games.column("seat"), 0))
    reason = np.array(g.column("end_reason").to_pylist())
    rounds = g.column("rounds").to_numpy()
    safety = g.column("safety_stop").to_numpy(zero_copy_only=False)
    at_limit = rounds == gm.params.round_limit
    assert set(reason) == {"clock", "round_limit"}
    assert (reason[at_limit] == "clock").sum() > 0 and (reason[at_limit] == "round_limit").sum() > 0
    assert (safety == (reason == "round_limit")).all()
    assert (rounds[reason == "round_limit"] == gm.params.round_limit).all()
    ev = res.events
    lim = pc.and_(pc.equal(ev.column("kind"), "end"), pc.equal(ev.column("category"), "round_limit"))
    stopped = set(ev.filter(lim).column("game").to_pylist())
    assert stopped == set(g.column("game").to_numpy()[reason == "round_limit"].tolist())
    # clock ends: Freud reached the end of the track; round-limit stops: it did not (limit_round_trigger=finish)
    assert (res.state.freud_rep[reason == "clock"] == gm.params.track_length).all()
    assert (res.state.end_trig[reason == "round_limit"] == 0).all()
    # --no-events: the column is still there
    quiet = play_batch(gm, [rnd, rnd], np.arange(40), 7, log_events=False)
    assert quiet.games.column("end_reason").to_pylist()[::2] == reason[:40].tolist()


@pytest.mark.parametrize("rule", ["finish", "stop"])
def test_end_triggered_in_the_limit_round_follows_limit_round_trigger(rule):
    """Freud reaches the end in the limit round: 'finish' plays the round out and one more (A-UM-36); 'stop'
    ends after the limit round (a safety stop)."""
    gm = UnconsciousMind(Params(round_limit=30, limit_round_trigger=rule))
    s = gm.init(np.arange(4), 7, 2)
    s.goal_id[:] = -1
    s.rnd[:] = 30
    s.end_trig[:] = 1
    s.last_round[:] = 31  # triggered in round 30
    seen_newclient_rounds = set()
    while not gm.done(s).all():
        if top(s) == R.D_NEWCLIENT:
            seen_newclient_rounds.add(int(s.rnd[0]))
        step(gm, s, first_legal(gm, s))
    reason = np.array(list(gm.end_reasons))[gm.end_reason(s)]
    if rule == "finish":
        assert (s.rnd == 31).all() and (s.turn == 4).all() and (reason == "clock").all()
        assert 31 not in seen_newclient_rounds  # the final round takes no new clients
    else:
        assert (s.rnd == 30).all() and (s.turn == 2).all() and (reason == "round_limit").all()


def _random_from_round_three(rule):
    """300 two-seat random games with round_limit = 3, started in round 3 with Freud's reputation at 9 (one
    reputation gain triggers the end in the limit round)."""
    gm = UnconsciousMind(Params(round_limit=3, limit_round_trigger=rule))
    s = gm.init(np.arange(300), 7, 2)
    s.rnd[:] = 3
    s.freud_rep[:] = 9
    st = Streams.for_games(7, s.game_id, 1)
    trig_round = np.zeros(300, np.int64)
    while not gm.done(s).all():
        m = gm.legal_action_mask(s)
        live = np.flatnonzero(~gm.done(s))
        acts = np.full(300, -1, np.int64)
        acts[live] = st.choose_legal(live, m[live])
        gm.step(s, acts, m)
        new = (trig_round == 0) & (s.end_trig == 1)
        trig_round[new] = s.rnd[new]
        s.event_n[:] = 0
        s.turn_n[:] = 0
    reason = np.array(list(gm.end_reasons))[gm.end_reason(s)]
    return trig_round, gm.progress(s)[1], reason


def test_round_limit_three_two_seat_random_games_end_triggered_in_round_three_play_round_four():
    """The issue's kind: round_limit = 3, 300 two-seat random games, Freud's reputation 9 -> 10 in round 3. Under
    'finish' (default) those games play round 4 and end on the clock; under 'stop' they stop after round 3
    (recorded as round_limit). Identical play up to the end of round 3 (common seeds)."""
    tf, rounds_f, reason_f = _random_from_round_three("finish")
    ts, rounds_s, reason_s = _random_from_round_three("stop")
    trig = tf == 3
    assert np.array_equal(trig, ts == 3) and 0 < trig.sum() < 300
    assert (rounds_f[trig] == 4).all() and (reason_f[trig] == "clock").all()
    assert (rounds_s[trig] == 3).all() and (reason_s[trig] == "round_limit").all()
    assert (rounds_f[~trig] == 3).all() and (reason_f[~trig] == "round_limit").all()
