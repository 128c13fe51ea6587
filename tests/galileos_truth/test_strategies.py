"""Galileo's Truth strategies: scripted plans play legal complete games, Abjure timing, the
heuristic's features, redeterminisation."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from sim.core.rng import Streams
from sim.galileos_truth import GalileosTruth
from sim.galileos_truth.state import P_MAIN, Z_DECK, Z_DISCARD, Z_HAND, Z_PLAY, Z_REMOVED
from sim.play import play_batch
from strategies.base import StrategyRNG, View
from strategies.plans import CompiledPlan
from strategies.registry import make_strategy, strategies_for

G = "galileos-truth"
SCRIPTED = ["abjure-at:cycle=1", "abjure-at:cycle=2", "abjure-at:cycle=3", "abjure-at:cycle=4", "never-abjure",
            "inventor", "observer", "writer", "suspicion-averse"]


@pytest.fixture(scope="module")
def game():
    return GalileosTruth()


def _play(game, ids, n=48, seed=4, check=False):
    strats = [make_strategy(G, s) for s in ids]
    errors = []

    def on_step(state):
        errors.extend(game.check_invariants(state))

    r = play_batch(game, strats, np.arange(n), seed, on_step=on_step if check else None)
    assert not errors, errors[:3]
    return r


def test_registered_for_the_game():
    names = {s.name for s in strategies_for(G)}
    assert {"abjure-at", "never-abjure", "inventor", "observer", "writer", "suspicion-averse", "heuristic"} <= names
    assert make_strategy(G, "abjure-at:cycle=2").id == "abjure-at:cycle=2"
    h = make_strategy(G, "heuristic:vp=2,coins=0.5")
    assert h.weights["vp"] == 2.0 and h.weights["coins"] == 0.5 and "end_vp" in h.weights


@pytest.mark.parametrize("sid", SCRIPTED)
def test_scripted_plays_complete_legal_games(game, sid):
    r = _play(game, [sid, "random"], n=32, check=True)
    g = pl.from_arrow(r.games)
    assert r.state.over.all() and g.height == 64
    s = make_strategy(G, sid)
    assert isinstance(s, CompiledPlan) and len(s.plan.rules) <= 40  # a plan as data, played compiled
    assert s.explain()[-3:] == ["otherwise any action but Abjure, pass or skip", "... else any action but Abjure",
                                "otherwise: random"]


@pytest.mark.parametrize("cycle", [1, 2, 3, 4])
def test_abjure_at_cycle(game, cycle):
    r = _play(game, [f"abjure-at:cycle={cycle}", "never-abjure"], n=64, seed=cycle)
    ab = pl.from_arrow(r.events).filter(pl.col("kind") == "abjure")
    mine = ab.filter(pl.col("seat") == 0)
    assert (mine["cycle"] == cycle).all()            # only in its Cycle, never in Cycle 5
    assert mine.height >= 0.8 * 64                   # in most games (legal while still Copernican)
    assert ab.filter(pl.col("seat") == 1).height == 0  # never-abjure never does
    assert (r.state.abjure_cycle[:, 0][r.state.abjure_cycle[:, 0] > 0] == cycle).all()


def test_never_abjure_and_no_abjure_in_cycle_five(game):
    r = _play(game, ["never-abjure", "suspicion-averse"], n=64, seed=9)
    ab = pl.from_arrow(r.events).filter(pl.col("kind") == "abjure")
    assert ab.filter(pl.col("seat") == 0).height == 0
    assert (ab["cycle"] < 5).all()
    assert r.state.coper[:, 0].all()


def test_suspicion_averse_keeps_suspicion_lower(game):
    r = _play(game, ["suspicion-averse", "never-abjure"], n=64, seed=5)
    t = pl.from_arrow(r.turns)
    m = t.group_by("seat").agg(pl.col("suspicion_after").mean()).sort("seat")["suspicion_after"].to_list()
    assert m[0] < m[1]
    both = pl.from_arrow(r.events).filter((pl.col("kind") == "suspicion") & (pl.col("category") == "suspicion-line"))
    assert both.filter(pl.col("seat") == 0).height == 0


def test_scripted_beats_random(game):
    r = _play(game, ["writer", "random"], n=64, seed=2)
    g = pl.from_arrow(r.games)
    assert g.filter(pl.col("seat") == 0)["win_share"].mean() > 0.8


class _Recorder:
    """Wraps a strategy and keeps a copy of the state at its first decision."""

    def __init__(self, inner):
        self.inner, self.first, self.id = inner, None, inner.id

    def act(self, view, legal, rng):
        if self.first is None:
            self.first = view.state.take(np.arange(view.state.batch_size))
        return self.inner.act(view, legal, rng)


def test_strategy_randomness_never_changes_the_shuffles(game):
    a = game.init(np.arange(16), 7, 2)
    b = game.init(np.arange(16), 7, 2)
    assert a.equals(b)
    setups = []
    for ids in (["writer", "random"], ["inventor", "abjure-at:cycle=1"]):
        rec = _Recorder(make_strategy(G, ids[0]))
        play_batch(game, [rec, make_strategy(G, ids[1])], np.arange(16), 7)
        setups.append(rec.first)
    # the state the first decision sees (the setup) is the same whatever the strategies
    assert setups[0].equals(setups[1]) and setups[0].equals(a)
    # strategies draw only from their own streams: a strategy consuming extra randomness does not
    # alter the game's stream (same seed and actions -> same state)
    st1, st2 = game.init(np.arange(8), 3, 2), game.init(np.arange(8), 3, 2)
    strat = make_strategy(G, "writer")
    for _ in range(60):
        if st1.over.all():
            break
        m1, m2 = game.legal_action_mask(st1), game.legal_action_mask(st2)
        idx = np.arange(8)
        sr1 = Streams.for_games(3, st1.game_id, 1)
        sr2 = Streams.for_games(3, st2.game_id, 1)
        sr2.random(idx)  # an extra draw in the strategy stream only
        act1 = strat.act(View(game, st1, idx, 0), m1, StrategyRNG(sr1, idx))
        strat.act(View(game, st2, idx, 0), m2, StrategyRNG(sr2, idx))
        game.step(st1, act1, m1)
        game.step(st2, act1, m2)
        st1.turn_n[:] = st2.turn_n[:] = 0
        st1.event_n[:] = st2.event_n[:] = 0
    assert st1.equals(st2)


def _mid_game_state(game, n=24, seed=6, plies=120):
    s = game.init(np.arange(n), seed, 3)
    rng = Streams.for_games(seed, s.game_id, 1)
    for _ in range(plies):
        m = game.legal_action_mask(s)
        live = ~game.done(s)
        idx = np.flatnonzero(live)
        a = np.full(n, -1, np.int64)
        a[idx] = rng.choose_legal(idx, m[idx])
        game.step(s, a, m, where=live)
        s.turn_n[:] = 0
        s.event_n[:] = 0
    return s


def _zone_multiset(s, g, p, zone):
    used = np.arange(s.ctype.shape[2]) < s.nslots[g, p]
    return sorted(s.ctype[g, p][used & (s.czone[g, p] == zone)].tolist())


def test_redeterminize_keeps_invariants_and_what_the_seat_sees(game):
    s = _mid_game_state(game)
    seat = s.to_act.astype(np.int64)
    r = s.take(np.arange(s.batch_size))
    game.redeterminize(r, seat, Streams(np.arange(1, s.batch_size + 1, dtype=np.uint64) * np.uint64(977)))
    assert game.check_invariants(r) == []
    for f in ("vp", "coins", "research", "books", "susp", "coper", "level", "tseal", "window", "workshop",
              "inv_owner", "mastery", "lvl_seal", "phase", "seat", "cycle", "ctype", "deck_n", "bag_n", "inv_deck_n",
              "pen_n", "bagdisc", "known"):
        assert np.array_equal(getattr(r, f), getattr(s, f)), f
    changed = False
    for g in range(s.batch_size):
        p = int(seat[g])
        assert np.array_equal(r.czone[g, p], s.czone[g, p])  # own hand, discard, play: same slots
        for q in range(s.num_players):
            for z in (Z_DISCARD, Z_PLAY, Z_REMOVED):  # public zones untouched
                assert _zone_multiset(r, g, q, z) == _zone_multiset(s, g, q, z)
            # hand size kept; hand + deck conserved
            assert len(_zone_multiset(r, g, q, Z_HAND)) == len(_zone_multiset(s, g, q, Z_HAND))
            assert (sorted(_zone_multiset(r, g, q, Z_HAND) + _zone_multiset(r, g, q, Z_DECK))
                    == sorted(_zone_multiset(s, g, q, Z_HAND) + _zone_multiset(s, g, q, Z_DECK)))
        n = s.pen_n[g]  # the face-down Penance supply: same cards, re-sampled order
        assert sorted(r.pen_pile[g, :n]) == sorted(s.pen_pile[g, :n])
        for lv in range(3):
            n = s.bag_n[g, lv]
            assert sorted(r.bag[g, lv, :n]) == sorted(s.bag[g, lv, :n])
            changed |= not np.array_equal(r.bag[g, lv, :n], s.bag[g, lv, :n])
        changed |= not np.array_equal(r.deck[g], s.deck[g])
    assert changed
    # the game keeps playing legally from the re-sampled state
    m = game.legal_action_mask(r)
    assert m[r.over == 0].any(axis=1).all()


def test_features(game):
    s = _mid_game_state(game, n=8, plies=60)
    f = game.features(s)
    for k in ("vp", "end_vp", "coins", "research", "books", "suspicion", "level", "seals_left", "cards", "tiles",
              "inventions", "treatises"):
        assert f[k].shape == (8, 3) and f[k].dtype == np.float64, k
    assert np.array_equal(f["vp"], s.vp)
    assert np.array_equal(f["books"], s.books.sum(2))
    assert (f["end_vp"][s.coper == 0] <= 0).all()


def test_heuristic_and_rollout_play_legal_games(game):
    _play(game, ["heuristic", "writer"], n=8, check=True)
    _play(game, ["rollout:k=2,top=2,horizon=1", "heuristic"], n=4)


def test_strategies_decide_only_in_their_phase(game):
    s = game.init(np.arange(4), 1, 2)
    assert (s.phase == P_MAIN).all()
    m = game.legal_action_mask(s)
    idx = np.arange(4)
    for sid in SCRIPTED:
        a = make_strategy(G, sid).act(View(game, s, idx, 0), m, StrategyRNG(Streams.for_games(1, s.game_id, 1), idx))
        assert m[idx, a].all()
