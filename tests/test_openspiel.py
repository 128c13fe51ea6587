"""meeplelab's games as OpenSpiel games (sim/openspiel.py, docs/openspiel.md; issue 26 item 4), and the raw
``Game.step`` loop of OpenSpiel habit, which keeps every log row without draining (issue 26 item 7)."""

import copy
import pickle

import numpy as np
import pyspiel
import pytest

from meeplelab.sim.core.rng import stream_keys, strategy_stream
from meeplelab.sim.openspiel import PREFIX, load_game, register, short_name, win_share
from meeplelab.play.batch import play_batch
from meeplelab.sim.registry import make_game
from meeplelab.strategies.base import StrategyRNG
from meeplelab.strategies.registry import make_strategy
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


# ---------------------------------------------------------------------------- the raw Game.step loop (item 7)
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
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (t.min_num_players, t.max_num_players) == (engine.min_players, engine.max_players)
    assert not (t.provides_observation_string or t.provides_information_state_string
                or t.provides_observation_tensor or t.provides_information_state_tensor)
    assert game.num_distinct_actions() == engine.num_actions
    assert game.num_players() == engine.min_players
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.max_game_length() == engine.max_plies(engine.min_players)
    assert game.max_chance_outcomes() == 0


def test_rule_overrides_reach_the_engine_and_bad_ones_are_refused():
    game = load_game("toy", players=2, set="rounds=2; max_draws=1")
    assert (game.engine.params.rounds, game.engine.params.max_draws) == (2, 1)
    um = load_game("unconscious-mind", set="round_limit=12;end_trigger_vp=5")  # the doc's example
    assert (um.engine.params.round_limit, um.engine.params.end_trigger_vp) == (12, 5)
    with pytest.raises(Exception, match="rounds"):
        load_game("toy", players=2, set="rounds=0")
    with pytest.raises(Exception, match="players"):
        load_game("toy", players=9)


# ---------------------------------------------------------------------------- the state wraps one engine game
@pytest.mark.parametrize("name", ENGINES)
def test_a_state_plays_the_same_game_as_play_batch(name):
    # the random strategy's actions applied through OpenSpiel give play_batch's game: same scores, win share
    seed, gi = 7, 4
    game = load_game(name, players=2, seed=seed)
    engine = game.engine
    st = game.new_initial_state(gi)
    assert not st.is_chance_node() and st.current_player() == 0
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
    assert len(st.history()) == int(ref.state.ply[0])


def test_returns_are_the_win_share_split_on_ties():
    engine = make_game("toy")
    state = engine.play_random(np.arange(40), 2, 3)
    ws = win_share(engine, state)
    assert np.allclose(ws.sum(axis=1), 1.0)
    ties = (ws > 0).sum(axis=1) > 1
    assert ties.any() and np.all(ws[ties][ws[ties] > 0] < 1)


def test_new_states_take_the_next_game_index_and_clones_are_independent():
    game = load_game("toy", players=2, seed=3, game=10)
    a, b = game.new_initial_state(), game.new_initial_state()
    assert (int(a.batch.game_id[0]), int(b.batch.game_id[0])) == (10, 11)
    a.apply_action(a.legal_actions()[0])
    c = a.clone()  # OpenSpiel's C++ clone builds a state to copy into: it must not take a game index
    d = a.child(a.legal_actions()[-1])
    assert game.new_initial_state().batch.game_id[0] == 12
    assert str(c) == str(a) and c.history() == a.history()
    c.apply_action(c.legal_actions()[0])
    assert int(a.batch.ply[0]) == 1 and int(c.batch.ply[0]) == 2 and int(d.batch.ply[0]) == 2
    assert a.batch.game_id[0] == c.batch.game_id[0] == 10
    assert c.batch is not a.batch


def test_states_and_games_pickle_like_openspiels_sampled_stochastic_games():
    game = load_game("toy", players=2, seed=3)
    st = game.new_initial_state()
    for _ in range(3):
        st.apply_action(st.legal_actions()[-1] if st.current_player() == 1 else st.legal_actions()[0])
    for other in (pickle.loads(pickle.dumps(st)), copy.deepcopy(st)):
        assert str(other) == str(st) and other.history() == st.history()
        assert other.batch.equals(st.batch)
    # the game's next game index survives pickling (OpenSpiel's sampled_stochastic_games_test)
    g2 = pickle.loads(pickle.dumps(game))
    assert str(g2.new_initial_state()) == str(game.new_initial_state())


def test_action_strings_are_the_engines_action_labels():
    game = load_game("galileos-truth", players=2, seed=1)
    st = game.new_initial_state()
    for a in st.legal_actions():
        assert st.action_to_string(a) == game.engine.action_label(a)


# ---------------------------------------------------------------------------- OpenSpiel's checks and bots
@pytest.mark.parametrize("name,sims", [("toy", 30), ("unconscious-mind", 2), ("galileos-truth", 2)])
def test_openspiels_random_simulation_test_passes(name, sims):
    for players in sorted({2, make_game(name).max_players}):
        pyspiel.random_sim_test(load_game(name, players=players, seed=11), num_sims=sims, serialize=False,
                                verbose=False)


@pytest.mark.parametrize("name", ENGINES)
def test_openspiel_uniform_random_bots_play_full_games(name):
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random

    game = load_game(name, players=3, seed=2)
    rng = np.random.RandomState(4)
    bots = [uniform_random.UniformRandomBot(p, rng) for p in range(3)]
    for _ in range(2):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == 3 and sum(returns) == pytest.approx(1.0)
        assert all(0.0 <= r <= 1.0 for r in returns) and max(returns) > 0


def mcts_game(name, simulations, seed):
    """One full game: OpenSpiel's MCTSBot (random rollouts) at seat 0 against a uniform random bot."""
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    game = load_game(name, players=2, seed=seed)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed + 1))
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, solve=False,
                         random_state=np.random.RandomState(seed + 2)),
            uniform_random.UniformRandomBot(1, rng)]
    return evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)


def test_openspiel_mcts_bot_plays_full_toy_games_and_beats_random():
    results = [mcts_game("toy", 40, s)[0] for s in range(6)]
    assert sum(results) >= 3.5  # random against random: 3 of 6 expected


@pytest.mark.slow
@pytest.mark.parametrize("name", REAL)
def test_openspiel_mcts_bot_plays_a_full_game_of_each_engine(name):
    returns = mcts_game(name, 2, 1)
    assert sum(returns) == pytest.approx(1.0) and all(0.0 <= r <= 1.0 for r in returns)


def test_the_examples_of_the_openspiel_doc_run():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "openspiel.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    ns: dict = {}
    exec(compile(blocks[0], "openspiel.md#1", "exec"), ns)
    assert len(ns["returns"]) == 3 and sum(ns["returns"]) == pytest.approx(1.0)
    exec(compile(blocks[1], "openspiel.md#2", "exec"), ns)
    assert ns["turns"].num_rows > ns["game"].turn_capacity and ns["events"].num_rows > 0
