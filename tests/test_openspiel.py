"""meeplelab's games as OpenSpiel games (sim/openspiel.py, meeplelab/openspiel.py, docs/openspiel.md): OpenSpiel's
own checks (``random_sim_test`` with and without serialization, ``serialize_game_and_state``), observations and
information states, OpenSpiel's bots (ISMCTS, MCTS on re-sampled worlds) and meeplelab's strategies as bots; and the
raw ``Game.step`` loop of OpenSpiel habit, which keeps every log row without draining."""

import copy
import pickle

import numpy as np
import pyspiel
import pytest

from open_spiel.python import observation as os_observation
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots import uniform_random

from meeplelab.openspiel import DeterminizedMCTSBot, ISMCTSBot, StrategyBot
from meeplelab.play.batch import play_batch
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.rng import stream_keys, strategy_stream
from meeplelab.sim.openspiel import (DEAL_BASE, DEAL_DIGITS, PREFIX, deal_digits, dealt_state, load_game, register,
                                     short_name, win_share)
from meeplelab.sim.registry import make_game
from meeplelab.strategies.base import StrategyRNG
from meeplelab.strategies.fields import strong_field
from meeplelab.strategies.registry import make_strategy
from tests import no_extras
from tests.toy.params import ToyParams

ENGINES = ("toy", "unconscious-mind", "galileos-truth")
REAL = ("unconscious-mind", "galileos-truth")
#: toy games long enough to fill its buffers (8 turn rows) without a drain
LONG_TOY = ToyParams(rounds=12, copies=12)


def strategy_actions(game, state, seed):
    """The ``random`` strategy's choice in each game of ``state``, from the stream ``play_batch`` gives it
    (run seed, game, seat, ply)."""
    mask = game.legal_action_mask(state)
    seat = game.to_act(state)
    acts = np.full(state.batch_size, -1, np.int64)
    for g in np.flatnonzero(~game.done(state)):
        keys = stream_keys(seed, state.game_id[g:g + 1], strategy_stream(int(seat[g])))
        acts[g] = StrategyRNG.for_decision(keys, state.ply[g:g + 1]).choose_legal(mask[g:g + 1])[0]
    return acts, mask


# ---------------------------------------------------------------------------- the raw Game.step loop
@pytest.mark.parametrize("name,games", [("toy", 3), ("unconscious-mind", 1), ("galileos-truth", 1)])
def test_a_raw_step_loop_that_never_drains_keeps_the_runners_log_rows(name, games):
    game = make_game(name, params=LONG_TOY) if name == "toy" else make_game(name)
    seed, players = 5, 2
    state = game.init(np.arange(games), seed, players)
    while not game.done(state).all():
        acts, mask = strategy_actions(game, state, seed)
        game.step(state, acts, mask)  # no drain: the buffers must make room themselves
    turns, events = game.drain_logs(state)
    assert state.turn_n.sum() == 0 and state.event_n.sum() == 0
    # the loop would have overflowed a buffer of the class capacity ("log buffer full"): it was enlarged
    assert state.turn_buf.shape[1] > game.turn_capacity or state.event_buf.shape[1] > game.event_capacity
    ref = play_batch(game, [make_strategy(name, "random")] * players, np.arange(games), seed)
    assert turns.equals(ref.turns)
    assert events.equals(ref.events)
    assert np.array_equal(game.final_scores(state), game.final_scores(ref.state))


def test_the_runner_never_enlarges_a_log_buffer():
    # play_batch drains at half full, so Game.step never needs to make room: its buffers keep the class size
    game = make_game("unconscious-mind")
    res = play_batch(game, [make_strategy("unconscious-mind", "random")] * 2, np.arange(2), 3)
    assert res.state.turn_buf.shape[1] == game.turn_capacity
    assert res.state.event_buf.shape[1] == game.event_capacity


def random_walk(state, seed: int, plies: int | None = None):
    """Apply uniform random actions (OpenSpiel's chance outcomes at chance nodes) until the end or ``plies`` player
    decisions; returns the state."""
    rng = np.random.RandomState(seed)
    n = 0
    while not state.is_terminal() and (plies is None or n < plies):
        if state.is_chance_node():
            state.apply_action(int(rng.randint(DEAL_BASE)))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
        n += 1
    return state


# ---------------------------------------------------------------------------- registration and game info
def test_register_names_the_built_in_games_and_is_idempotent():
    names = register()
    assert sorted(names) == sorted(short_name(n) for n in ("unconscious-mind", "galileos-truth"))
    assert register() == names
    assert all(n.startswith(PREFIX) and n in pyspiel.registered_names() for n in names)
    assert register("toy") == ["python_meeplelab_toy"]


@pytest.mark.parametrize("name", ENGINES)
def test_the_game_type_and_info_follow_the_engine(name):
    engine = make_game(name)
    game = load_game(name, players=engine.min_players, seed=1)
    t = game.get_type()
    assert t.short_name == short_name(name)
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (t.min_num_players, t.max_num_players) == (engine.min_players, engine.max_players)
    observed = name != "toy"  # the toy declares no observation (GameSpec.observation)
    assert [t.provides_observation_string, t.provides_information_state_string, t.provides_observation_tensor,
            t.provides_information_state_tensor] == [observed] * 4
    assert game.num_distinct_actions() == engine.num_actions
    assert game.num_players() == engine.min_players
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.max_game_length() == engine.max_plies(engine.min_players)
    assert game.max_chance_outcomes() == DEAL_BASE
    if observed:
        assert game.observation_tensor_shape() == [game.observer.size]
        assert game.information_state_tensor_shape() == [game.observer.size + game.num_players() * engine.num_actions]


def test_rule_overrides_reach_the_engine_and_bad_ones_are_refused():
    game = load_game("toy", players=2, set="rounds:2; max_draws:1")
    assert (game.engine.params.rounds, game.engine.params.max_draws) == (2, 1)
    gt = load_game("galileos-truth", set="cycles:4;seat_coins_2p:0/1")  # the doc's example: a tuple's elements by /
    assert (gt.engine.params.cycles, gt.engine.params.seat_coins_2p) == (4, (0, 1))
    with pytest.raises(ConfigError, match=r"set 'cycles=4' holds '=', which OpenSpiel's game strings cannot: allowed"):
        load_game("galileos-truth", set="cycles=4")
    with pytest.raises(ConfigError, match=r"set item 'cycles' needs the form name:value"):
        load_game("galileos-truth", set="cycles")
    with pytest.raises(Exception, match="rounds"):
        load_game("toy", players=2, set="rounds:0")
    with pytest.raises(Exception, match="players"):
        load_game("toy", players=9)


# ---------------------------------------------------------------------------- the deal and the state
def test_the_deal_is_four_chance_nodes_choosing_the_game_index():
    game = load_game("galileos-truth", players=2, seed=3, game=100)
    st = game.new_initial_state()
    for k, digit in enumerate(deal_digits(70000)):
        assert st.is_chance_node() and st.current_player() == pyspiel.PlayerId.CHANCE
        outcomes = st.chance_outcomes()
        assert [a for a, _ in outcomes] == list(range(DEAL_BASE))
        assert all(p == pytest.approx(1 / DEAL_BASE) for _, p in outcomes)
        assert st.action_to_string(pyspiel.PlayerId.CHANCE, digit) == f"deal digit {k + 1} of {DEAL_DIGITS}: {digit}"
        st.apply_action(digit)
    assert deal_digits(70000) == [112, 17, 1, 0]
    assert not st.is_chance_node() and int(st.batch.game_id[0]) == 100 + 70000
    assert st.history() == [112, 17, 1, 0] and st.chance_outcomes() == []
    with pytest.raises(ConfigError, match=r"deal -1 is out of range: allowed 0 to 4294967295"):
        dealt_state(game, -1)


@pytest.mark.parametrize("name", ENGINES)
def test_a_dealt_state_plays_the_same_game_as_play_batch(name):
    # the random strategy's actions applied through OpenSpiel give play_batch's game: same scores, win share
    seed, gi = 7, 4
    game = load_game(name, players=2, seed=seed)
    engine = game.engine
    st = dealt_state(game, gi)
    assert st.current_player() == 0
    while not st.is_terminal():
        acts, mask = strategy_actions(engine, st.batch, seed)
        assert st.legal_actions() == np.flatnonzero(mask[0]).tolist()
        assert st.current_player() == int(engine.to_act(st.batch)[0])
        st.apply_action(int(acts[0]))
    assert st.current_player() == pyspiel.PlayerId.TERMINAL and st.legal_actions() == []
    ref = play_batch(engine, [make_strategy(name, "random")] * 2, np.array([gi]), seed)
    assert st.returns() == ref.games.column("win_share").to_pylist()
    assert np.array_equal(engine.final_scores(st.batch), engine.final_scores(ref.state))
    assert sum(st.returns()) == pytest.approx(1.0)
    assert len(st.history()) == DEAL_DIGITS + int(ref.state.ply[0])


def test_returns_are_the_win_share_split_on_ties():
    engine = make_game("toy")
    state = engine.play_random(np.arange(40), 2, 3)
    ws = win_share(engine, state)
    assert np.allclose(ws.sum(axis=1), 1.0)
    ties = (ws > 0).sum(axis=1) > 1
    assert ties.any() and np.all(ws[ties][ws[ties] > 0] < 1)


def test_clones_are_independent_and_a_state_is_its_history():
    game = load_game("toy", players=2, seed=3, game=10)
    a = dealt_state(game, 2)
    a.apply_action(a.legal_actions()[0])
    c = a.clone()
    d = a.child(a.legal_actions()[-1])
    assert str(c) == str(a) and c.history() == a.history()
    c.apply_action(c.legal_actions()[0])
    assert int(a.batch.ply[0]) == 1 and int(c.batch.ply[0]) == 2 and int(d.batch.ply[0]) == 2
    assert a.batch.game_id[0] == c.batch.game_id[0] == 12 and c.batch is not a.batch
    # a new state replaying the history is the same game (the game holds no state of its own)
    again = game.new_initial_state()
    for x in c.history():
        again.apply_action(x)
    assert again.batch.equals(c.batch)
    half = game.new_initial_state()
    half.apply_action(5)
    assert half.clone().history() == [5] and half.clone().is_chance_node()


def test_states_and_games_pickle():
    game = load_game("toy", players=2, seed=3)
    st = random_walk(game.new_initial_state(), 1, plies=3)
    for other in (pickle.loads(pickle.dumps(st)), copy.deepcopy(st)):
        assert str(other) == str(st) and other.history() == st.history()
        assert other.batch.equals(st.batch)
    g2 = pickle.loads(pickle.dumps(game))
    assert str(g2) == str(game) and str(dealt_state(g2, 9)) == str(dealt_state(game, 9))


def test_action_strings_are_the_engines_action_labels():
    game = load_game("galileos-truth", players=2, seed=1)
    st = dealt_state(game, 0)
    for a in st.legal_actions():
        assert st.action_to_string(a) == game.engine.action_label(a)


# ---------------------------------------------------------------------------- OpenSpiel's checks
@pytest.mark.parametrize("serialize", [False, True])
def test_openspiels_random_simulation_test_passes_on_the_toy(serialize):
    for players in (2, 4):
        pyspiel.random_sim_test(load_game("toy", players=players, seed=11), num_sims=10, serialize=serialize,
                                verbose=False)


def test_openspiels_random_simulation_test_with_serialization_passes_on_a_real_game():
    pyspiel.random_sim_test(load_game("galileos-truth", players=2, seed=11), num_sims=1, serialize=True,
                            verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("serialize", [False, True])
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", REAL)
def test_openspiels_random_simulation_test_passes(name, players, serialize):
    # every ply: clones, legal actions, action strings, every seat's observation and information state (strings and
    # tensors of the declared sizes); with serialize, serialize_game_and_state round trips at ply 1..9 and 2^k
    pyspiel.random_sim_test(load_game(name, players=players, seed=11), num_sims=1, serialize=serialize,
                            verbose=False)


@pytest.mark.parametrize("name", REAL)
def test_serialize_game_and_state_round_trips_and_plays_on_the_same(name):
    game = load_game(name, players=3, seed=4, set="")
    st = random_walk(game.new_initial_state(), 2, plies=25)
    text = pyspiel.serialize_game_and_state(game, st)
    game2, st2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(st2) == str(st) and st2.history() == st.history()
    assert st2.batch.equals(st.batch)
    for p in range(3):
        assert st2.information_state_string(p) == st.information_state_string(p)
        assert st2.observation_tensor(p) == st.observation_tensor(p)
    random_walk(st, 9)
    random_walk(st2, 9)
    assert st2.returns() == st.returns() and st2.history() == st.history()


# ---------------------------------------------------------------------------- observations and information states
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", REAL)
def test_observations_round_trip_through_openspiels_observers(name, players):
    game = load_game(name, players=players, seed=5)
    obs = game.observer
    observation = os_observation.make_observation(game)
    info = os_observation.make_observation(game, os_observation.INFO_STATE_OBS_TYPE)
    public = os_observation.make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    assert list(observation.dict) == list(obs.names) and list(info.dict) == [*obs.names, "actions"]
    st = random_walk(game.new_initial_state(), 3, plies=30)
    for p in range(players):
        fields = st.information_fields(p, perfect_recall=False)
        observation.set_from(st, p)
        assert observation.tensor.tolist() == st.observation_tensor(p)
        assert all(np.array_equal(observation.dict[k], fields[k]) for k in obs.names)  # the named views decode it
        assert observation.string_from(st, p) == st.observation_string(p)
        info.set_from(st, p)
        assert info.tensor.tolist() == st.information_state_tensor(p)
        assert info.string_from(st, p) == st.information_state_string(p)
        public.set_from(st, p)
        assert public.string_from(st, p) == public.string_from(st, 0)  # the public view is nobody's
        assert public.dict["observer"].sum() == 0 and observation.dict["observer"][p] == 1
    # the action counts: every player decision is counted once, at its seat
    assert info.dict["actions"].sum() == len(st.history()) - DEAL_DIGITS
    assert st.information_state_string(0).endswith(
        "history: " + " ".join(str(a) for a in st.history()[DEAL_DIGITS:]))
    with pytest.raises(ValueError, match="private_info ALL_PLAYERS is not supported"):
        os_observation.make_observation(
            game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    with pytest.raises(ValueError, match="observation parameters are not supported"):
        os_observation.make_observation(game, None, {"x": 1})


def test_before_the_deal_the_observation_is_blank_but_for_the_observer():
    game = load_game("unconscious-mind", players=2, seed=5)
    st = game.new_initial_state()
    t = np.array(st.observation_tensor(1))
    assert t.shape == (game.observer.size,) and t.sum() == 1 and t[1] == 1
    assert st.information_state_string(0) == "dealing (0 of 4 digits)"


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", REAL)
def test_a_resampled_state_has_the_same_information_state_and_is_keyed_by_the_seed(name, players):
    # OpenSpiel's ResampleInfostateTest, in Python (its C++ test cannot reach a Python game's resample)
    game = load_game(name, players=players, seed=6)
    st = random_walk(game.new_initial_state(), 4, plies=12)
    twin = st.clone()
    moved = 0
    while not st.is_terminal() and moved < 40:
        for p in range(players):
            world = st.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert world.information_state_string(p) == st.information_state_string(p)
            assert world.information_state_tensor(p) == st.information_state_tensor(p)
            assert world.current_player() == st.current_player() and world.history() == st.history()
            moved += not world.batch.equals(st.batch)
        random_walk(st, moved, plies=7)
    assert moved >= 20
    # the worlds are keyed by (seed, game, seat, ply, draw number): the same calls on a twin give the same worlds
    a = [twin.resample_from_infostate(0, None).batch for _ in range(3)]
    fresh = random_walk(game.new_initial_state(), 4, plies=12)
    c = [fresh.resample_from_infostate(0, None).batch for _ in range(3)]
    assert all(x.equals(y) for x, y in zip(a, c)) and not a[0].equals(a[1])


# ---------------------------------------------------------------------------- bots
class SpyEvaluator(mcts.Evaluator):
    """An MCTS evaluator that records the chance key of every state the search evaluates (and values it at 1/P)."""

    def __init__(self, players):
        self.players, self.keys = players, []

    def evaluate(self, state):
        self.keys.append(int(state.batch.rng_key[0]))
        return np.full(self.players, 1.0 / self.players)

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize("name", REAL)
def test_mcts_on_resampled_worlds_never_searches_the_real_deck_orders(name):
    game = load_game(name, players=2, seed=8)
    st = random_walk(game.new_initial_state(), 5, plies=6)
    real = int(st.batch.rng_key[0])
    plain = SpyEvaluator(2)
    mcts.MCTSBot(game, 2.0, 6, plain, solve=False, random_state=np.random.RandomState(1)).step(st)
    assert set(plain.keys) == {real}  # OpenSpiel's MCTSBot alone clones the real state: its future luck included
    spy = SpyEvaluator(2)
    bot = DeterminizedMCTSBot(game, 2.0, 6, spy, worlds=3, random_state=np.random.RandomState(1))
    action = bot.step(st)
    assert action in st.legal_actions() and len(spy.keys) >= 3
    assert real not in spy.keys and len(set(spy.keys)) == 3  # three worlds, none the real one
    spy2 = SpyEvaluator(2)
    bot2 = DeterminizedMCTSBot(game, 2.0, 6, spy2, worlds=3, random_state=np.random.RandomState(1))
    assert bot2.step(random_walk(game.new_initial_state(), 5, plies=6)) == action and spy2.keys == spy.keys


@pytest.mark.parametrize("name", REAL)
def test_openspiels_ismcts_searches_resampled_worlds(name):
    game = load_game(name, players=2, seed=8)
    st = random_walk(game.new_initial_state(), 5, plies=6)
    spy = SpyEvaluator(2)
    bot = ISMCTSBot(game, spy, 2.0, 8, random_state=np.random.RandomState(2))
    assert bot.step(st) in st.legal_actions()
    assert len(spy.keys) >= 2 and int(st.batch.rng_key[0]) not in spy.keys and len(set(spy.keys)) > 1


def ismcts_game(name, players, seed):
    """One full game: OpenSpiel's ISMCTSBot (3 simulations, rollouts of 4 plies) at seat 0, uniform random bots."""
    game = load_game(name, players=players, seed=seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed), max_length=4)
    bots = [ISMCTSBot(game, evaluator, 2.0, 3, random_state=np.random.RandomState(seed + 1))]
    bots += [uniform_random.UniformRandomBot(p, np.random.RandomState(seed + 1 + p)) for p in range(1, players)]
    state = dealt_state(game, seed)
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(seed))
    return returns, state.history()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", REAL)
def test_openspiels_ismcts_bot_plays_full_games_the_same_for_the_same_seeds(name, players):
    returns, history = ismcts_game(name, players, 1)
    assert len(returns) == players and sum(returns) == pytest.approx(1.0) and all(0 <= r <= 1 for r in returns)
    assert ismcts_game(name, players, 1) == (returns, history)


@pytest.mark.parametrize("name", REAL)
def test_a_game_of_strategy_bots_is_play_batchs_game(name):
    seed, deal = 5, 3
    game = load_game(name, players=2, seed=seed)
    st = dealt_state(game, deal)
    bots = [StrategyBot(game, 0, "heuristic"), StrategyBot(game, 1, "random")]
    returns = evaluate_bots.evaluate_bots(st, bots, np.random.RandomState(0))
    ref = play_batch(game.engine, [make_strategy(name, "heuristic"), make_strategy(name, "random")],
                     np.array([deal]), seed)
    assert returns == ref.games.column("win_share").to_pylist()
    assert np.array_equal(game.engine.final_scores(st.batch), game.engine.final_scores(ref.state))
    with pytest.raises(ValueError, match="StrategyBot for seat 1 asked to act at a state where seat 0 is to act"):
        bots[1].step(dealt_state(game, deal))
    with pytest.raises(ConfigError, match="unknown strategy 'nope'"):
        StrategyBot(game, 0, "nope")


@pytest.mark.slow
@pytest.mark.parametrize("name", REAL)
def test_evaluate_bots_pits_the_tuned_heuristic_and_meeplelabs_search_against_openspiels(name):
    game = load_game(name, players=2, seed=3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1), max_length=8)
    tuned, search = strong_field(name)
    pairs = [(StrategyBot(game, 0, tuned), ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(2))),
             (StrategyBot(game, 0, search + ":iters=4"),
              DeterminizedMCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(2)))]
    for mine, theirs in pairs:
        returns = evaluate_bots.evaluate_bots(dealt_state(game, 1), [mine, theirs], np.random.RandomState(0))
        assert sum(returns) == pytest.approx(1.0) and all(0 <= r <= 1 for r in returns)


@pytest.mark.parametrize("name", ENGINES)
def test_openspiel_uniform_random_bots_play_full_games_from_the_deal(name):
    game = load_game(name, players=3, seed=2)
    rng = np.random.RandomState(4)
    bots = [uniform_random.UniformRandomBot(p, rng) for p in range(3)]
    for _ in range(2):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)  # the deal drawn by rng
        assert len(returns) == 3 and sum(returns) == pytest.approx(1.0)
        assert all(0.0 <= r <= 1.0 for r in returns) and max(returns) > 0


@pytest.mark.slow
def test_openspiel_mcts_bot_beats_random_on_the_toy():
    wins = 0.0
    for s in range(6):
        game = load_game("toy", players=2, seed=s)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(s + 1))
        bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=40, evaluator=evaluator, solve=False,
                             random_state=np.random.RandomState(s + 2)),
                uniform_random.UniformRandomBot(1, np.random.RandomState(s))]
        wins += evaluate_bots.evaluate_bots(dealt_state(game, s), bots, np.random.RandomState(s))[0]
    assert wins >= 3.5  # random against random: 3 of 6 expected


@pytest.mark.slow
def test_without_the_openspiel_extra_the_games_and_bots_say_which_extra_to_install():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    code = """
from meeplelab.sim.core.extras import MissingExtra
from meeplelab.sim.openspiel import load_game
try:
    load_game("galileos-truth")
except MissingExtra as e:
    print(e)
import meeplelab.openspiel
"""
    res = no_extras.run(["-c", code], cwd=root, extras=["openspiel"])
    assert res.returncode == 1
    assert res.stdout == ("registering meeplelab's games with OpenSpiel needs the openspiel extra: "
                          "pip install 'meeplelab[openspiel]'\n")
    assert res.stderr.strip().splitlines()[-1] == (
        "ImportError: meeplelab.openspiel needs the openspiel extra: pip install 'meeplelab[openspiel]'")


@pytest.mark.slow
def test_the_examples_of_the_openspiel_doc_run():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "openspiel.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3
    ns: dict = {}
    exec(compile(blocks[0], "openspiel.md#1", "exec"), ns)
    assert len(ns["returns"]) == 3 and sum(ns["returns"]) == pytest.approx(1.0)
    exec(compile(blocks[1], "openspiel.md#2", "exec"), ns)
    assert len(ns["returns"]) == 2 and sum(ns["returns"]) == pytest.approx(1.0)
    exec(compile(blocks[2], "openspiel.md#3", "exec"), ns)
    assert ns["turns"].num_rows > ns["game"].turn_capacity and ns["events"].num_rows > 0
