"""The compiled heuristic: Galileo's Truth's ``heuristic`` decides inside the play kernel and makes
exactly the choices of the Python heuristic (``meeplelab.strategies.generic.Heuristic.scores`` with the general-plan
finish), decision by decision and whole games, on several seeds, seat counts and weights."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from numba import njit

from meeplelab.sim.core.lookahead import copy_game, heuristic_specs, pick_best_one
from meeplelab.strategies.compiled import heuristic_tables
from meeplelab.sim.core.rng import candidate_key, candidate_keys, decision_keys, stream_keys, strategy_stream
from meeplelab.sim.galileos_truth import GalileosTruth, hidden
from meeplelab.sim.galileos_truth import lookahead as look
from meeplelab.sim.galileos_truth.features import VALUE_FEATURES, value_features
from meeplelab.sim.galileos_truth.state import arrays
from meeplelab.play.batch import play_batch, uses_compiled_play
from meeplelab.strategies.base import StrategyRNG, View
from meeplelab.strategies.generic import Heuristic
from meeplelab.strategies.registry import make_strategy
from meeplelab.strategies.search import pick_best
from tests.random_play import random_plies

G = "galileos-truth"


@pytest.fixture(scope="module")
def game():
    return GalileosTruth()


def _mid_game_states(game, players, n=12, seed=6, plies=(3, 15, 45)):
    """States of ``n`` games after random play for each number of ``plies`` (several phases and Cycles)."""
    out = []
    for k in plies:
        s = game.init(np.arange(n), seed + k, players)
        random_plies(game, s, seed, 1, k)
        out.append(s)
    return out


@njit(cache=False)
def _copy(S, g, D, d):
    copy_game(S, g, D, d)


def test_the_value_features_are_the_engines_features_in_order(game):
    for players in (1, 2, 4):
        for s in _mid_game_states(game, players):
            feats = game.features(s)
            assert tuple(feats) == VALUE_FEATURES
            out = np.zeros(len(VALUE_FEATURES))
            S = arrays(s)
            for g in range(s.batch_size):
                for p in range(players):
                    value_features(S, game.C, game.param_vector, g, p, out)
                    assert out.tolist() == [float(feats[k][g, p]) for k in VALUE_FEATURES], (players, g, p)


def test_the_in_kernel_copy_is_take_with_fresh_logs_and_never_touches_the_real_logs(game):
    s = _mid_game_states(game, 3, plies=(45,))[0]
    s.turn_n[:] = 3
    s.event_n[:] = 7
    s.turn_buf[:] = 5
    before = s.copy()
    D = s.take([0], fresh_logs=True)
    D.turn_n[:] = 9
    D.event_n[:] = 9
    for g in (0, 5, 11):
        _copy(arrays(s), g, arrays(D), 0)
        want = s.take([g], fresh_logs=True)
        assert set(D.diff_fields(want)) <= {"turn_buf", "event_buf"}  # buffers are only ever written by the rules
        assert D.turn_n[0] == 0 and D.event_n[0] == 0
    assert s.equals(before)


def test_one_game_redeterminize_draws_as_the_batch_kernel(game):
    s = _mid_game_states(game, 4, plies=(45,))[0]
    keys = np.arange(1, s.batch_size + 1, dtype=np.uint64) * np.uint64(977)
    seat = s.to_act.astype(np.int64)
    a = s.copy()
    ca = np.zeros(s.batch_size, np.uint64)
    hidden.redeterminize_kernel(keys, ca, seat, a.game, a.seat, a.slot, a.pile)
    b = s.copy()
    cb = np.zeros(s.batch_size, np.uint64)
    pool = np.zeros(b.slot.shape[2], np.int64)
    for g in range(s.batch_size):
        hidden.redeterminize_one(arrays(b), game.C, game.param_vector, g, seat[g], keys, cb, g, pool)
    assert a.equals(b) and np.array_equal(ca, cb)
    assert not a.equals(s)  # something was re-sampled


def test_candidate_key_and_pick_best_one_are_the_python_arithmetic():
    base = np.array([1, 2**63 + 5, 12345678901234567], np.uint64)
    tags = np.array([0, 7, 400], np.int64)
    want = candidate_keys(base, tags)
    assert [candidate_key(b, t) for b, t in zip(base, tags)] == want.tolist()
    rs = np.random.default_rng(0)
    for _ in range(200):
        A = 12
        mask = rs.random(A) < 0.6
        mask[rs.integers(A)] = True
        scores = np.round(rs.normal(size=A), 1)  # rounded: many ties
        scores[rs.integers(A)] += 1e-10  # within the tie tolerance
        u = rs.random()
        acts = np.flatnonzero(mask)
        rows = np.zeros(acts.size, np.int64)
        py = pick_best(scores[acts], rows, acts, np.zeros(1, np.int64), 1, np.array([u]))[0]
        assert pick_best_one(scores, mask, u) == py


@pytest.mark.parametrize("players,spec", [(2, "heuristic"), (3, "heuristic:finish=0"), (4, "heuristic"),
                                          (1, "heuristic"), (2, "heuristic:coins=1.0,copernican=0,vp=0.5"),
                                          (3, "generic")])
def test_every_compiled_choice_is_the_python_heuristics_choice(game, players, spec):
    # "generic": the engine-independent heuristic (VP only, the turn finished by uniform random plies)
    h = Heuristic() if spec == "generic" else make_strategy(G, spec)
    seats = [h] * players
    assert heuristic_specs(game, seats) == [h.compiled(game)] * players
    n = 0
    for s in _mid_game_states(game, players):
        heur_seat, H = heuristic_tables(game, s, seats)
        assert heur_seat.all()
        ctx = (arrays(s), game.C, game.param_vector)
        mask = game.legal_action_mask(s)
        before = s.copy()
        for g in np.flatnonzero(~game.done(s)):
            p = int(s.to_act[g])
            seat_key = stream_keys(7, s.game_id[[g]], strategy_stream(p))
            py = h.act(View(game, s, np.array([g]), p), mask[[g]], StrategyRNG.for_decision(seat_key, s.ply[[g]]))
            key = decision_keys(seat_key, s.ply[[g]]).astype(np.uint64)
            got = look.heuristic_choice(*ctx, g, p, mask[g], key, np.zeros(1, np.uint64), H)
            assert got == py[0], (players, spec, g)
            n += 1
        assert s.equals(before)  # lookahead never changes the real games
    assert n >= 24


@pytest.mark.parametrize("ids,n,seed", [(("heuristic", "observer"), 6, 1), (("writer", "heuristic", "heuristic"), 4, 2),
                                        (("heuristic", "random", "heuristic:finish=0", "inventor"), 3, 4)])
def test_compiled_and_python_loop_heuristic_games_are_identical(game, ids, n, seed):
    seats = [make_strategy(G, s) for s in ids]
    assert uses_compiled_play(game, seats)
    a = play_batch(game, seats, np.arange(n), seed)
    b = play_batch(game, seats, np.arange(n), seed, compiled=False)
    assert a.games.equals(b.games) and a.turns.equals(b.turns) and a.events.equals(b.events)
    assert a.turns.num_rows > 50 * n


def test_heuristics_without_a_compiled_form_stay_on_the_python_path(game):
    class Custom(Heuristic):
        def scores(self, view, legal_mask, rng):
            return super().scores(view, legal_mask, rng)

    rollout = make_strategy(G, "rollout")
    assert heuristic_specs(game, [Custom(), rollout, make_strategy(G, "random")]) == [None, None, None]
    assert not uses_compiled_play(game, [Custom(), make_strategy(G, "random")])
    # a weight on a feature the kernel does not value keeps the seat on the Python path
    odd = make_strategy(G, "heuristic")
    odd.weights = {**odd.weights, "not-a-feature": 1.0}
    assert heuristic_specs(game, [odd]) == [None]


def test_compiled_heuristic_games_do_not_depend_on_the_batch(game):
    seats = [make_strategy(G, s) for s in ("heuristic", "writer", "heuristic:finish=0")]
    whole = play_batch(game, seats, np.arange(6), 3)
    for split in ([1] * 6, [2, 4], [5, 1]):
        parts, b = [], 0
        for n in split:
            parts.append(play_batch(game, seats, np.arange(b, b + n), 3))
            b += n
        games = pa.concat_tables([p.games for p in parts])
        events = pa.concat_tables([p.events for p in parts])
        assert games.equals(whole.games) and events.equals(whole.events), split
