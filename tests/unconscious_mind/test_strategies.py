"""Unconscious Mind strategies: scripted plans play legally, publish and cite; redeterminisation hides only
what is hidden; strategy randomness never touches the game's shuffles."""

import numpy as np
import polars as pl
import pytest

from meeplelab.sim.core.rng import Streams
from meeplelab.play.batch import play_batch
from meeplelab.sim.core.errors import ConfigError
from tests.random_play import random_plies
from meeplelab.strategies.base import RandomStrategy
from meeplelab.strategies.registry import make_strategy, strategies_for
from meeplelab.strategies.unconscious_mind import Plan, UMHeuristic, UMRollout

from .util import game

G = "unconscious-mind"
SCRIPTED = ("coffee-engine", "publisher", "citer", "curer", "city-walker")


def _check(state):
    bad = game().check_invariants(state)
    assert not bad, bad


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", SCRIPTED)
def test_scripted_strategy_plays_complete_games_legally(name, players):
    gm = game()
    others = ["random", "publisher", "curer"][: players - 1]
    strats = [make_strategy(G, name)] + [make_strategy(G, o) for o in others]
    steps = [0]

    def on_step(state):
        steps[0] += 1
        if steps[0] % 25 == 0:
            _check(state)

    r = play_batch(gm, strats, np.arange(6), seed=31 + players, on_step=on_step)
    assert gm.done(r.state).all()
    _check(r.state)
    g = pl.from_arrow(r.games)
    assert g.height == 6 * players
    assert set(g.filter(pl.col("seat") == 0)["strategy"]) == {name}


def test_registry_lists_the_game_strategies_with_readable_plans():
    names = {s.name for s in strategies_for(G)}
    assert set(SCRIPTED) | {"heuristic", "rollout", "random", "greedy-vp"} <= names
    for n in SCRIPTED:
        s = make_strategy(G, n)
        assert isinstance(s, Plan) and s.id == n
        plan = s.explain()
        assert plan[-1] == "otherwise: random" and len(plan) >= 5
    h = make_strategy(G, "heuristic:vp=2,coffee=0.5")
    assert isinstance(h, UMHeuristic) and h.weights["vp"] == 2.0 and h.weights["coffee"] == 0.5
    assert h.weights["tiles"] == UMHeuristic.default_weights["tiles"]
    assert isinstance(make_strategy(G, "rollout:k=2,top=2,horizon=1"), UMRollout)
    assert isinstance(make_strategy(G, "rollout:policy=random").policy, RandomStrategy)
    with pytest.raises(ConfigError):
        make_strategy(G, "rollout:policy=nobody")


def _events(names, B=48, seed=3):
    gm = game()
    r = play_batch(gm, [make_strategy(G, n) for n in names], np.arange(B), seed=seed, log_turns=False)
    return pl.from_arrow(r.events), B


def test_publisher_publishes_and_citer_cites_in_most_games():
    e, B = _events(["citer", "publisher"])
    pub = e.filter((pl.col("kind") == "publish") & (pl.col("seat") == 1))
    cite = e.filter((pl.col("kind") == "cite") & (pl.col("seat") == 0))
    assert pub["game"].n_unique() > 0.7 * B
    assert cite["game"].n_unique() > 0.5 * B
    # citations go to the other seat, 2 VP per Volume, and the citer's publish follows in the same game
    assert (cite["target_seat"] == 1).all() and (cite["amount"] == 2).all()
    # random play almost never publishes
    e2, _ = _events(["random", "random"])
    assert e2.filter(pl.col("kind") == "publish")["game"].n_unique() < 0.25 * B


def test_scripted_plans_beat_random():
    gm = game()
    r = play_batch(gm, [make_strategy(G, "publisher"), make_strategy(G, "random")], np.arange(40), seed=8,
                   log_turns=False, log_events=False)
    g = pl.from_arrow(r.games)
    assert g.filter(pl.col("seat") == 0)["win"].mean() > 0.75


SETUP_FIELDS = ("tstack", "rdeck", "trdeck", "rdeck_cl", "cdeck_cl", "ldeck", "mdeck", "goal_id")


def test_strategy_randomness_never_changes_the_setup_shuffles():
    gm = game()
    ids = np.arange(8)
    a = play_batch(gm, [make_strategy(G, "random"), make_strategy(G, "citer")], ids, seed=77,
                   log_turns=False, log_events=False).state
    b = play_batch(gm, [make_strategy(G, "curer"), make_strategy(G, "coffee-engine")], ids, seed=77,
                   log_turns=False, log_events=False).state
    init = gm.init(ids, 77, 2)
    for f in SETUP_FIELDS:  # deck orders are never rewritten by play (only their tops move)
        assert np.array_equal(getattr(a, f), getattr(init, f)), f
        assert np.array_equal(getattr(b, f), getattr(init, f)), f
    # and the games really differed
    assert not np.array_equal(a.vp, b.vp)


def _mid_game(P=3, B=24, plies=150, seed=5):
    gm = game()
    s = gm.init(np.arange(B), seed, P)
    random_plies(gm, s, seed, 9, plies)
    return gm, s


HIDDEN = ("tstack", "rdeck", "card_loc", "card_own", "trdeck", "rdeck_cl", "cdeck_cl", "ldeck", "mdeck")


def test_redeterminize_keeps_invariants_and_what_the_seat_sees():
    gm, s = _mid_game()
    seat = gm.to_act(s)
    before = s.take(np.arange(s.batch_size))
    gm.redeterminize(s, seat, Streams(np.arange(1, s.batch_size + 1, dtype=np.uint64) * np.uint64(7919)))
    _check(s)
    for grp in s.LAYOUT.groups:  # everything else untouched
        for f in grp.fields or grp.piles:
            if f.name not in HIDDEN and f.name not in ("tstack_i", "tstack_ii"):
                assert np.array_equal(getattr(s, f.name), getattr(before, f.name)), f.name
    P = s.num_players
    changed = 0
    for g in range(s.batch_size):
        me = seat[g]
        for f, top in (("rdeck", "rtop"), ("trdeck", "trtop"), ("rdeck_cl", "rtop_cl"), ("cdeck_cl", "ctop_cl"),
                       ("ldeck", "ltop"), ("mdeck", "mtop")):
            t = int(getattr(s, top)[g])
            assert np.array_equal(getattr(s, f)[g, :t], getattr(before, f)[g, :t])  # drawn part unchanged
            assert sorted(getattr(s, f)[g, t:]) == sorted(getattr(before, f)[g, t:]) or f == "rdeck"
        for lvl in range(2):
            t = int(s.ttop[g, lvl])
            assert np.array_equal(s.tstack[g, lvl, :t], before.tstack[g, lvl, :t])
            assert sorted(s.tstack[g, lvl, t:]) == sorted(before.tstack[g, lvl, t:])
        loc, own = s.card_loc[g], s.card_own[g]
        loc0, own0 = before.card_loc[g], before.card_own[g]
        visible = ~((loc0 == 0) | ((loc0 == 2) & (own0 != me)))
        assert np.array_equal(loc[visible], loc0[visible]) and np.array_equal(own[visible], own0[visible])
        for q in range(P):  # hand sizes kept, own hand identical
            assert ((loc == 2) & (own == q)).sum() == ((loc0 == 2) & (own0 == q)).sum()
        assert set(np.flatnonzero((loc == 2) & (own == me))) == set(np.flatnonzero((loc0 == 2) & (own0 == me)))
        deck = s.rdeck[g, int(s.rtop[g]):]
        assert (loc[deck] == 0).all() and (own[deck] == -1).all()
        changed += any(not np.array_equal(getattr(s, n)[g], getattr(before, n)[g]) for n in s.LAYOUT.names)
    assert changed > s.batch_size // 2
    # the game goes on legally from a redeterminized state
    m = gm.legal_action_mask(s)
    live = ~gm.done(s)
    assert m[live].any(axis=1).all()


def test_features_have_one_value_per_seat():
    gm, s = _mid_game(P=2, B=6, plies=80)
    f = gm.features(s)
    for k in ("vp", "coffee", "bright", "insight", "colour", "cured", "tiles", "inplay", "hand", "rep"):
        assert f[k].shape == (6, 2) and f[k].dtype == np.float64
    assert np.array_equal(f["vp"], s.vp)
    assert np.array_equal(f["tiles"], (s.nb >= 0).sum(axis=2))


def test_heuristic_and_rollout_play_legally():
    gm = game()
    r = play_batch(gm, [make_strategy(G, "heuristic"), make_strategy(G, "publisher")], np.arange(4), seed=2,
                   log_turns=False, log_events=False)
    assert gm.done(r.state).all()
    _check(r.state)
    r = play_batch(gm, [make_strategy(G, "citer"), make_strategy(G, "rollout:k=2,top=2,horizon=1")], np.arange(2),
                   seed=2, log_turns=False, log_events=False)
    assert gm.done(r.state).all()
    _check(r.state)


def test_scripted_plans_and_heuristic_choose_where_the_colour_insight_comes_from():
    from meeplelab.strategies.base import StrategyRNG, View
    from meeplelab.sim.unconscious_mind import codes as R

    from meeplelab.sim.unconscious_mind.actions import CH_COLOUR

    from .util import new, push

    gm, s = new(P=2, B=3)
    s.dial_w[:, 0, :] = 0
    s.dial_w[:, 0, 0] = gm.params.start_white
    s.dial_c[:, 0, :] = 0
    s.dial_c[0, 0, [0, 1]] = 1  # reserve and growth minor: the reserve (an idle token)
    s.dial_c[1, 0, [1, 6]] = 1  # growth minor (the only Insight paying the client's dream) and freedom major
    s.dial_c[2, 0, [3, 4]] = 1  # growth major and freedom minor, no clients: the lowest level
    s.col_board[:, 0] = 4
    s.room_client[:, 0, :] = -1
    d = int(np.flatnonzero((gm.A["dr_cq"] == 0) & (gm.A["dr_cl"] == 0) & (gm.A["dr_kind"] == 0))[0])
    s.room_client[1, 0, 0] = 0
    s.room_latent[1, 0, 0] = d
    s.room_manifest[1, 0, 0] = -1
    push(s, R.D_COLOUR, R.COLOUR_PUBLISH)
    m = gm.legal_action_mask(s)
    idx = np.arange(3)
    rng = StrategyRNG(Streams.for_games(1, s.game_id, 9), idx)
    for name in SCRIPTED:
        acts = make_strategy(G, name).act(View(gm, s, idx, 0), m, rng)
        assert (acts - CH_COLOUR).tolist() == [0, 6, 4], name  # D_COLOUR dial positions: reserve, rings
    h = make_strategy(G, "heuristic:finish=0").act(View(gm, s, idx, 0), m, rng)
    assert h[0] == CH_COLOUR  # the reserve: the heuristic keeps its ring Insights too


def test_never_cite_seats_never_cite_while_citer_seats_in_the_same_games_do():
    """never-cite is the citer's plan on a legal mask without citations: 40 four-seat games with never-cite
    in two seats (each seat order of never-cite against citer and publisher), zero citations by never-cite
    (its forced-citation counter is zero, and every citation would be counted there), > 0 by citer."""
    from meeplelab.sim.unconscious_mind import codes as R
    from meeplelab.strategies.unconscious_mind import NeverCite

    gm = game()
    names = [("never-cite", "citer", "publisher", "never-cite"), ("citer", "never-cite", "never-cite", "publisher")]
    cites, pubs, forced = [], [], {}
    for k, lineup in enumerate(names):
        strats = [make_strategy(G, n) for n in lineup]
        r = play_batch(gm, strats, np.arange(20), seed=41 + k, log_turns=False)
        e = pl.from_arrow(r.events).with_columns(pl.col("seat").replace_strict(
            dict(enumerate(lineup)), return_dtype=pl.String).alias("who"))
        cites.append(e.filter(pl.col("kind") == "cite"))
        pubs.append(e.filter(pl.col("kind") == "publish"))
        for s in strats:
            if isinstance(s, NeverCite):
                for kind, n in s.forced.items():
                    forced[kind] = forced.get(kind, 0) + n
    cites, pubs = pl.concat(cites), pl.concat(pubs)
    by = dict(cites.group_by("who").len().iter_rows())
    assert by.get("never-cite", 0) == forced.get(R.D_GATHER, 0) == 0
    assert by["citer"] > 10  # 19 citations in these 40 games
    # never-cite still publishes (from its own Volumes) and is cited by the others
    assert pubs.filter(pl.col("who") == "never-cite").height > 10
    assert set(make_strategy(G, "never-cite").explain()) - set(make_strategy(G, "citer").explain()) == {
        "own Volumes, never a citation"}


def test_no_cite_mask_drops_every_citation_and_keeps_a_forced_one():
    from meeplelab.sim.unconscious_mind import codes as R
    from meeplelab.sim.unconscious_mind.actions import CARD0, CH_CITE, NUM_ACTIONS
    from meeplelab.strategies.base import View
    from meeplelab.strategies.unconscious_mind import no_cite_mask

    gm = game()
    s = gm.init(np.arange(2), 5, 4)
    g = np.arange(2)
    s.stk[g, s.sp[g]] = (R.D_GATHER, 0, 0, 0)
    s.sp[g] += 1
    legal = np.zeros((2, NUM_ACTIONS), bool)
    legal[:, CH_CITE + 3] = True  # a citation of Treatise 3
    legal[0, CARD0 + 7] = True  # game 0 also has an own Volume
    mask, forced = no_cite_mask(View(gm, s, g, 0), legal)
    assert mask[0].nonzero()[0].tolist() == [CARD0 + 7] and not forced[0]
    assert mask[1].nonzero()[0].tolist() == [CH_CITE + 3] and forced[1]
