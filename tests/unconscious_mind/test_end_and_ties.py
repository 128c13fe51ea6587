"""How the game ends (research UM §7, A-UM-13, A-UM-36) and who is ahead on the reputation track (A-UM-25)."""

import numpy as np
import pyarrow.compute as pc
import pytest

from meeplelab.sim.core.position import Position
from meeplelab.sim.core.rng import Streams
from meeplelab.play.batch import play_batch
from meeplelab.sim.schema import games_table, ranks
from meeplelab.sim.unconscious_mind import UnconsciousMind
from meeplelab.sim.unconscious_mind.params import Params
from meeplelab.sim.unconscious_mind.rules.scoring import final_scoring
from meeplelab.strategies import make_strategy

from .positions import start


def end_reason(pos: Position) -> str:
    """How the finished game ended, by name (``game.end_reasons``: clock or round_limit)."""
    return list(pos.game.end_reasons)[int(pos.game.end_reason(pos.state)[0])]


# ------------------------------------------------------------------ ahead on the reputation track
def _same_space_position(pos):
    """Four seats: seats 1 and 2 share reputation space 7, seat 2 arrived first (underneath), seats 0 and 3
    behind; equal VP and heart boxes."""
    for seat, (rep, order) in enumerate(((5, 4), (7, 12), (7, 9), (2, 1))):
        # arrival sequence: seat 2 reached space 7 before seat 1
        pos.set(seat=seat, rep=rep, rep_order=order, hearts=1, vp=40)
    return pos.set(rep_seq=12)


def test_same_space_markers_the_one_underneath_is_ahead_for_the_tiebreak_and_the_track_bonus():
    gm = UnconsciousMind()
    p = gm.params
    for g in range(2):
        pos = _same_space_position(start(g, players=4, game=gm)).set(over=1)
        t = games_table(gm, pos.state, ["publisher"] * 4, "x")
        win = t.column("win").to_pylist()
        share = t.column("win_share").to_pylist()
        rank = t.column("rank").to_pylist()
        assert win[2] and sum(win) == 1  # seat 2 wins alone: no shared win
        assert share[2] == 1.0
        assert rank == [3, 2, 1, 4]
        # the end-of-track bonus uses the same order: seat 2 first, seat 1 second
        pos = _same_space_position(start(g, players=4, game=gm))
        for seat in range(4):
            pos.set(seat=seat, vp=0, vp_ev=0, cured=1)
        # final scoring alone (the kernel), without a turn played that could move the markers
        final_scoring(*gm.kernel_context(pos.state), 0)
        assert pos.scores()["end_track_bonus"] == [0, p.track_bonus_second, p.track_bonus_first, 0]


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
    for g in range(4):
        pos = start(g, players=2, game=gm).set(rnd=30, end_trig=1, last_round=31)  # triggered in round 30
        seen_newclient_rounds = set()
        while not pos.over():
            if pos.pending().decision == "D_NEWCLIENT":
                seen_newclient_rounds.add(pos.get("rnd"))
            pos.act(pos.legal()[0])
        if rule == "finish":
            assert pos.get("rnd") == 31 and pos.get("turn") == 4 and end_reason(pos) == "clock"
            assert 31 not in seen_newclient_rounds  # the final round takes no new clients
        else:
            assert pos.get("rnd") == 30 and pos.get("turn") == 2 and end_reason(pos) == "round_limit"


def _random_from_round_three(rule):
    """300 two-seat random games with round_limit = 3, started in round 3 with Freud's reputation at 9 (one
    reputation gain triggers the end in the limit round)."""
    gm = UnconsciousMind(Params(round_limit=3, limit_round_trigger=rule))
    trig_round = np.zeros(300, np.int64)
    rounds = np.zeros(300, np.int64)
    reason = []
    for g in range(300):
        pos = start(g, players=2, goals=True, game=gm).set(rnd=3, freud_rep=9)
        st = Streams.for_games(7, np.array([g]), 1)  # game g's random stream, as in a batch of all 300
        while not pos.over():
            pos.act(int(st.choose_legal(np.array([0]), gm.legal_action_mask(pos.state))[0]))
            if trig_round[g] == 0 and pos.get("end_trig"):
                trig_round[g] = pos.get("rnd")
        rounds[g] = pos.get("rnd")  # the game is over: rnd is the last round played
        reason.append(end_reason(pos))
    return trig_round, rounds, np.array(reason)


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
