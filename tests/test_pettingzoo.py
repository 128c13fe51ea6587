"""meeplelab's games as PettingZoo AEC environments and the Gymnasium one-seat environment (meeplelab/env.py,
docs/environments.md): PettingZoo's own ``api_test`` and ``seed_test`` at 2 and 4 seats on both games, Gymnasium's
own checks that apply, the observation being the OpenSpiel information state, games identical to
``play_batch``'s, the example script, and the one line of a missing ``rl`` extra."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils import env_checker, passive_env_checker
from pettingzoo.test import api_test, seed_test

from meeplelab.env import MeepleEnv, SeatEnv, env
from meeplelab.play.batch import play_batch
from meeplelab.sim.core.errors import ConfigError, IllegalActionError
from meeplelab.sim.openspiel import dealt_state, load_game
from meeplelab.strategies.registry import make_strategy
from tests import no_extras

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("galileos-truth", "unconscious-mind")


def api_and_seed_tests(name: str, players: int) -> set[str]:
    """PettingZoo's ``api_test`` (plays games to their end and resets) and ``seed_test``; returns the warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(name, players=players), num_cycles=1000)
        seed_test(lambda: env(name, players=players), num_cycles=500)
    return {str(w.message) for w in caught}


#: what PettingZoo's api_test says of every environment whose observation is a dict (its own chess and Go
#: environments are exempted by name): the observation carries the action mask, as PettingZoo asks
DICT_OBSERVATION_NOTES = {"Observation is not a NumPy array",
                          "Observation space for each agent probably should be gymnasium.spaces.box or "
                          "gymnasium.spaces.discrete"}


def test_pettingzoos_api_and_seed_tests_pass_on_a_two_seat_game():
    assert api_and_seed_tests("galileos-truth", 2) <= DICT_OBSERVATION_NOTES


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", GAMES)
def test_pettingzoos_api_and_seed_tests_pass(name, players):
    assert api_and_seed_tests(name, players) <= DICT_OBSERVATION_NOTES


@pytest.mark.parametrize("name", GAMES)
def test_the_observation_is_the_seats_information_state_and_the_mask_its_legal_actions(name):
    e = MeepleEnv(name, players=3, seed=4)
    e.reset(options={"game": 2})
    state = dealt_state(load_game(name, players=3, seed=4), 2)  # the same game through OpenSpiel
    rng = np.random.RandomState(1)
    for _ in range(12):
        agent = e.agent_selection
        seat = int(agent.split("_")[1])
        assert seat == state.current_player()
        for p, a in enumerate(e.possible_agents):
            obs = e.observe(a)
            assert obs["observation"].tolist() == state.information_state_tensor(p)
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            assert e.observation_space(a).contains(obs)
            expected = np.zeros(e.engine.num_actions, np.int8)
            if p == seat:
                expected[state.legal_actions()] = 1
            assert np.array_equal(obs["action_mask"], expected)
        action = int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"])))
        e.step(action)
        state.apply_action(action)


@pytest.mark.parametrize("name", ["galileos-truth", pytest.param("unconscious-mind", marks=pytest.mark.slow)])
def test_a_game_of_strategies_in_the_environment_is_play_batchs_game_and_rewards_come_at_the_end(name):
    e = MeepleEnv(name, players=2, seed=5)
    e.reset(options={"game": 3})
    lineup = [make_strategy(name, "heuristic"), make_strategy(name, "random")]
    rewards = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        rewards[agent] += reward
        assert not truncation and info == {}
        if termination:
            e.step(None)
            continue
        assert reward == 0.0
        e.step(e.strategy_action(lineup[int(agent.split("_")[1])]))
    assert e.agents == []
    ref = play_batch(e.engine, lineup, np.array([3]), 5)
    assert [rewards[a] for a in e.possible_agents] == ref.games.column("win_share").to_pylist()
    assert np.array_equal(e.engine.final_scores(e.game.state), e.engine.final_scores(ref.state))


def test_resets_are_keyed_by_the_run_seed():
    e = MeepleEnv("unconscious-mind", players=2, seed=0)
    e.reset(seed=9)
    first = e.observe("seat_0")["observation"]
    e.reset()  # the next game index of seed 9
    assert int(e.game.state.game_id[0]) == 1 and not np.array_equal(e.observe("seat_0")["observation"], first)
    e.reset(seed=9)
    assert np.array_equal(e.observe("seat_0")["observation"], first)
    other = MeepleEnv("unconscious-mind", players=2, seed=9)
    other.reset(options={"game": 0})
    assert np.array_equal(other.observe("seat_0")["observation"], first)


def test_bad_arguments_and_illegal_actions_are_refused_in_one_line():
    with pytest.raises(ConfigError, match="unconscious-mind takes 1 to 4 players, got 7"):
        MeepleEnv("unconscious-mind", players=7)
    with pytest.raises(ConfigError, match="render_mode 'human' is not supported: allowed None or 'ansi'"):
        MeepleEnv("galileos-truth", render_mode="human")
    with pytest.raises(ConfigError, match="seat 2 is not at a table of 2 seats: allowed 0 to 1"):
        SeatEnv("galileos-truth", opponents=("heuristic",), seat=2)
    e = MeepleEnv("galileos-truth", players=2, seed=1, overrides=["cycles=3"], render_mode="ansi")
    assert e.engine.params.cycles == 3
    e.reset()
    assert e.render() == "Galileo's Truth game 0 (seed 1), ply 0, seat_0 to act; VP: 0 0"
    illegal = int(np.flatnonzero(e.observe("seat_0")["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"game 0 \(ply 0\): action {illegal} .* is not legal"):
        e.step(illegal)


# ---------------------------------------------------------------------------- the Gymnasium one-seat environment
@pytest.mark.parametrize("name", GAMES)
def test_the_seat_environment_plays_play_batchs_game_against_meeplelab_strategies(name):
    learner = make_strategy(name, "random")
    e = SeatEnv(name, opponents=("heuristic",), seat=1, seed=6)
    obs, info = e.reset(options={"game": 2})
    total, steps, terminated = 0.0, 0, False
    while not terminated:
        assert e.observation_space.contains(obs) and np.array_equal(info["action_mask"], e.action_masks())
        assert e.aec.game.seat == 1  # the opponents have played up to the learner's decision
        obs, reward, terminated, truncated, info = e.step(e.aec.strategy_action(learner))
        assert not truncated
        total += reward
        steps += 1
    ref = play_batch(e.aec.engine, [make_strategy(name, "heuristic"), learner], np.array([2]), 6)
    assert total == ref.games.column("win_share").to_pylist()[1]
    assert np.array_equal(e.aec.engine.final_scores(e.aec.game.state), e.aec.engine.final_scores(ref.state))
    assert steps == int(e.aec.game.counts[1].sum())


def test_gymnasiums_checks_that_apply_pass_on_the_seat_environment():
    # check_env steps random actions of the whole action space; an illegal action raises here, so its other checks
    # run one by one, and the passive step check takes a legal action
    e = SeatEnv("galileos-truth", opponents=("heuristic", "random"), seat=0, seed=3)
    env_checker.check_reset_return_type(e)
    env_checker.check_reset_seed_determinism(e)
    env_checker.check_reset_options(e)
    passive_env_checker.check_observation_space(e.observation_space)
    passive_env_checker.check_action_space(e.action_space)
    obs, info = passive_env_checker.env_reset_passive_checker(e, seed=3)
    action = int(np.flatnonzero(info["action_mask"])[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the passive checker warns on anything it finds wrong
        passive_env_checker.env_step_passive_checker(e, action)


# ---------------------------------------------------------------------------- the example and the missing extra
@pytest.mark.slow
def test_the_example_script_plays_random_against_heuristic():
    res = subprocess.run([sys.executable, str(ROOT / "docs" / "examples" / "pettingzoo_random_vs_heuristic.py"),
                          "--games", "2"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("galileos-truth game 0: seat_0 (random)=") and lines[2].startswith("unconscious-mind")
    for line in lines:
        shares = [float(x.split("=")[1]) for x in line.split(": ")[1].split(", ")]
        assert sum(shares) == pytest.approx(1.0)


@pytest.mark.slow
def test_without_the_rl_extra_the_import_says_which_extra_to_install():
    res = no_extras.run(["-c", "import meeplelab.env"], cwd=ROOT, extras=["rl"])
    assert res.returncode == 1
    assert res.stderr.strip().splitlines()[-1] == (
        "ImportError: meeplelab.env needs the rl extra: pip install 'meeplelab[rl]'")


@pytest.mark.slow
def test_the_examples_of_the_environments_doc_run():
    import re

    text = (ROOT / "docs" / "environments.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    ns: dict = {}
    exec(compile(blocks[0], "environments.md#1", "exec"), ns)
    assert sorted(ns["returns"]) == ["seat_0", "seat_1"] and sum(ns["returns"].values()) == pytest.approx(1.0)
    exec(compile(blocks[1], "environments.md#2", "exec"), ns)
    assert ns["terminated"] and ns["reward"] in (0.0, 0.5, 1.0) and ns["e"].aec.game.over
