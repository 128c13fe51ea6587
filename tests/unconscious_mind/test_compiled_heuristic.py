"""The compiled heuristic: Unconscious Mind's ``heuristic`` decides inside the play kernel and makes
exactly the choices of the Python heuristic (``meeplelab.strategies.generic.Heuristic.scores``, the turn finished by uniform
random sub-decisions), decision by decision and whole games, on several seeds, seat counts and weights."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from numba import njit

from meeplelab.sim.core.lookahead import copy_game, heuristic_specs
from meeplelab.strategies.compiled import heuristic_tables
from meeplelab.sim.core.rng import Streams, decision_keys, stream_keys, strategy_stream
from meeplelab.play.batch import play_batch, uses_compiled_play
from meeplelab.sim.unconscious_mind import UnconsciousMind, hidden
from meeplelab.sim.unconscious_mind import lookahead as look
from meeplelab.sim.unconscious_mind.features import VALUE_FEATURES, turn_of, value_features
from meeplelab.strategies.base import StrategyRNG, View
from meeplelab.strategies.plans import Plan
from meeplelab.strategies.registry import make_strategy
from meeplelab.strategies.unconscious_mind import UMHeuristic
from tests.random_play import random_plies

G = "unconscious-mind"


@pytest.fixture(scope="module")
def game():
    return UnconsciousMind()


def _mid_game_states(game, players, n=8, seed=6, plies=(2, 40, 160)):
    """States of ``n`` games after random play for each number of ``plies`` (early, mid and late decisions:
    turns, sub-decisions, publishing, clients)."""
    out = []
    for k in plies:
        s = game.init(np.arange(n), seed + k, players)
        random_plies(game, s, seed, 1, k)
        out.append(s)
    return out


def _S(game, s):
    return game.kernel_context(s)


@njit(cache=False)
def _copy(S, g, D, d):
    copy_game(S, g, D, d)


@njit(cache=False)
def _turn(S, g):
    return turn_of(S, g)


def test_the_value_features_are_the_engines_features_in_order(game):
    seen = set()
    for players in (1, 2, 4):
        for s in _mid_game_states(game, players):
            feats = game.features(s)
            assert tuple(feats) == VALUE_FEATURES
            S, C, prm = _S(game, s)
            out = np.zeros(len(VALUE_FEATURES))
            for g in range(s.batch_size):
                assert _turn(S, g) == game.progress(s)[0][g]
                for p in range(players):
                    value_features(S, C, prm, g, p, out)
                    assert out.tolist() == [float(feats[k][g, p]) for k in VALUE_FEATURES], (players, g, p)
                    seen |= {k for k, v in zip(VALUE_FEATURES, out) if v}
    assert seen >= {"vp", "coffee", "insight", "colour", "tiles", "inplay", "hand", "rep", "ideas", "clients"}, seen


def test_the_in_kernel_copy_is_take_with_fresh_logs_and_leaves_content_and_scratch_alone(game):
    s = _mid_game_states(game, 3, plies=(40,))[0]
    s.turn_n[:] = 3
    s.event_n[:] = 7
    before = s.copy()
    D = s.take([0], fresh_logs=True)
    D.turn_n[:] = 9
    D.event_n[:] = 9
    SD, C, _ = _S(game, D)
    K0, eff0 = C.K.copy(), C.eff.copy()
    SD.work[:] = 5
    for g, copy in ((0, _copy), (5, _copy), (7, _copy), (6, copy_game)):  # copy_game: the uncompiled twin
        # g beyond work's first axis: it must not be indexed by game (the content is C, never copied)
        copy(_S(game, s)[0], g, SD, 0)
        want = s.take([g], fresh_logs=True)
        # buffers are only ever written by the rules; game_id is not among the kernels' arrays
        assert set(D.diff_fields(want)) <= {"turn_buf", "event_buf", "game_id"}
        assert D.turn_n[0] == 0 and D.event_n[0] == 0
        assert np.array_equal(C.K, K0) and np.array_equal(C.eff, eff0) and (SD.work == 5).all()
    assert s.equals(before)


@pytest.mark.parametrize("players", [2, 4])
def test_one_game_redeterminize_draws_as_the_batch_kernel(game, players):
    s = _mid_game_states(game, players, plies=(40, 160))[1]
    keys = np.arange(1, s.batch_size + 1, dtype=np.uint64) * np.uint64(977)
    seat = s.to_act.astype(np.int64)
    a = s.copy()
    ca = np.zeros(s.batch_size, np.uint64)
    game.redeterminize(a, seat, Streams(keys.copy(), ca))
    b = s.copy()
    cb = np.zeros(s.batch_size, np.uint64)
    S, C, prm = _S(game, b)
    pool = np.zeros(b.card.shape[1], np.int64)
    for g in range(s.batch_size):
        b.rng_key[g] = Streams(keys, cb).u64(np.array([g]))[0]
        hidden.redeterminize_one(S, C, prm, g, seat[g], keys, cb, g, pool)
    assert a.equals(b) and np.array_equal(ca, cb)
    assert not a.equals(s)  # something was re-sampled
    moved = (a.card_own != s.card_own) & (s.card_own >= 0)
    assert moved.any()  # another seat's unknown hand cards were re-dealt


@pytest.mark.parametrize("players,spec", [(2, "heuristic"), (3, "heuristic:finish=0"), (4, "heuristic"),
                                          (1, "heuristic"), (2, "heuristic:vp=0.5,coffee=1.0,therapy=0,tiles=2.5"),
                                          (4, "heuristic:finish=0,hand=1.0,bright=0")])
def test_every_compiled_choice_is_the_python_heuristics_choice(game, players, spec):
    h = make_strategy(G, spec)
    assert isinstance(h, UMHeuristic)
    seats = [h] * players
    assert heuristic_specs(game, seats) == [h.compiled(game)] * players
    n = 0
    for s in _mid_game_states(game, players):
        heur_seat, H = heuristic_tables(game, s, seats)
        assert heur_seat.all()
        S, C, prm = _S(game, s)
        mask = game.legal_action_mask(s)
        before = s.copy()
        for g in np.flatnonzero(~game.done(s)):
            p = int(s.to_act[g])
            seat_key = stream_keys(7, s.game_id[[g]], strategy_stream(p))
            py = h.act(View(game, s, np.array([g]), p), mask[[g]], StrategyRNG.for_decision(seat_key, s.ply[[g]]))
            key = decision_keys(seat_key, s.ply[[g]]).astype(np.uint64)
            got = look.heuristic_choice(S, C, prm, g, p, mask[g], key, np.zeros(1, np.uint64), H)
            assert got == py[0], (players, spec, g)
            n += 1
        assert s.equals(before)  # lookahead never changes the real games
    assert n >= 16


def test_the_heuristics_finish_is_the_uniform_plan_of_32_plies(game):
    spec = make_strategy(G, "heuristic").compiled(game)
    assert spec.finish and spec.max_plies == 32 and spec.plan == Plan("random-finish")
    assert spec.weights == UMHeuristic.default_weights
    assert make_strategy(G, "heuristic:finish=0").compiled(game).finish is False


def test_rollouts_and_heuristics_scored_otherwise_stay_on_the_python_path(game):
    class Custom(UMHeuristic):
        def scores(self, view, legal_mask, rng):
            return super().scores(view, legal_mask, rng)

    seats = [Custom(), make_strategy(G, "rollout"), make_strategy(G, "random")]
    assert heuristic_specs(game, seats) == [None, None, None]
    assert not uses_compiled_play(game, [Custom(), make_strategy(G, "random")])


@pytest.mark.parametrize("ids,n,seed", [(("heuristic", "publisher"), 3, 1),
                                        (("city-walker", "heuristic", "heuristic:finish=0"), 2, 2),
                                        (("heuristic:vp=2,coffee=0", "random", "heuristic", "curer"), 2, 4)])
def test_compiled_and_python_loop_heuristic_games_are_identical(game, ids, n, seed):
    seats = [make_strategy(G, s) for s in ids]
    assert uses_compiled_play(game, seats)
    assert [sp is not None for sp in heuristic_specs(game, seats)] == [i.startswith("heuristic") for i in ids]
    a = play_batch(game, seats, np.arange(n), seed)
    b = play_batch(game, seats, np.arange(n), seed, compiled=False)
    assert a.games.equals(b.games) and a.turns.equals(b.turns) and a.events.equals(b.events)
    assert a.turns.num_rows > 20 * n


def test_compiled_heuristic_games_do_not_depend_on_the_batch(game):
    seats = [make_strategy(G, s) for s in ("heuristic", "citer")]
    whole = play_batch(game, seats, np.arange(4), 3)
    for split in ([1] * 4, [3, 1]):
        parts, b = [], 0
        for n in split:
            parts.append(play_batch(game, seats, np.arange(b, b + n), 3))
            b += n
        games = pa.concat_tables([p.games for p in parts])
        events = pa.concat_tables([p.events for p in parts])
        assert games.equals(whole.games) and events.equals(whole.events), split
