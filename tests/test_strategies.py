"""Strategy protocol, registry and the generic lookahead strategies (on the test game)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplelab.sim.core.errors import ConfigError
from meeplelab.play.batch import play_batch
from meeplelab.sim.registry import make_game
from meeplelab.strategies import make_strategy
from meeplelab.strategies.registry import parse_id
from meeplelab.strategies.search import pick_best


def test_strategy_ids_parse_with_arguments():
    assert parse_id("rollout:k=4,horizon=2") == ("rollout", {"k": "4", "horizon": "2"})
    s = make_strategy("toy", "rollout:k=4,horizon=2")
    assert s.k == 4 and s.horizon == 2 and s.id == "rollout:k=4,horizon=2"


@pytest.mark.parametrize("spec,msg", [
    ("rollot", "unknown strategy 'rollot' for toy: did you mean rollout? allowed:"),
    ("rollout:kk=3", "strategy 'rollout' has no argument 'kk': did you mean k? allowed: k, top, horizon"),
    ("rollout:k=abc", "strategy 'rollout': argument k='abc' must be int"),
    ("rollout:k=0", "strategy 'rollout': argument k='0' is out of range: allowed 1 to 256"),
    ("heuristic:vp=nan", "strategy 'heuristic': argument vp='nan' must be a finite number"),
    ("heuristic:vp=inf", "strategy 'heuristic': argument vp='inf' must be a finite number"),
    ("heuristic:vp=-inf", "strategy 'heuristic': argument vp='-inf' must be a finite number"),
    ("heuristic:vp=1e400", "strategy 'heuristic': argument vp='1e400' must be a finite number"),
])
def test_bad_strategy_ids_name_what_is_allowed(spec, msg):
    with pytest.raises(ConfigError) as e:
        make_strategy("toy", spec)
    assert str(e.value).startswith(msg)


@pytest.mark.parametrize("game,spec", [
    ("unconscious-mind", "heuristic:vp=nan"), ("galileos-truth", "heuristic:vp=inf"),
])
def test_non_finite_weights_of_the_game_heuristics_are_refused(game, spec):
    with pytest.raises(ConfigError, match=r"argument vp='(nan|inf)' must be a finite number"):
        make_strategy(game, spec)


def test_a_nan_weight_on_the_command_line_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, monkeypatch):
    import sys

    from meeplelab import cli

    out = tmp_path / "run"
    monkeypatch.setattr(sys, "argv", ["meeplelab", "simulate", "--no-progress", "--game", "toy", "--players", "4",
                                      "--strategies", "heuristic:vp=nan,random,random,random", "--out", str(out)])
    with pytest.raises(SystemExit) as e:
        cli.main()
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert err.strip() == "error: strategy 'heuristic': argument vp='nan' must be a finite number"
    assert not out.exists()


@pytest.mark.parametrize("game,spec,shown", [
    ("toy", "heuristic:vp=1e308", "vp='1e308'"),
    ("toy", "heuristic:vp=-1000001", "vp='-1000001'"),
    ("unconscious-mind", "heuristic:coffee=2e6", "coffee='2e6'"),
    ("galileos-truth", "heuristic:suspicion=-1e300", "suspicion='-1e300'"),
])
def test_huge_heuristic_weights_are_refused_naming_the_weight_and_the_range(game, spec, shown):
    with pytest.raises(ConfigError) as e:
        make_strategy(game, spec)
    assert str(e.value) == f"strategy 'heuristic': argument {shown} is out of range: allowed -1000000.0 to 1000000.0"


def test_heuristic_weights_up_to_the_bound_are_kept_and_the_bound_holds_for_direct_construction():
    from meeplelab.strategies.generic import WEIGHT_BOUND, Heuristic

    assert WEIGHT_BOUND == 1e6
    assert make_strategy("toy", "heuristic:vp=1e6").weights == {"vp": 1e6}
    assert make_strategy("unconscious-mind", "heuristic:coffee=-1e6").weights["coffee"] == -1e6
    for w in (1e308, -2e6, float("nan"), float("inf"), "abc", 10**400, None):
        with pytest.raises(ConfigError) as e:
            Heuristic(vp=w)
        assert str(e.value) == (f"strategy 'heuristic': weight vp={w!r} is out of range: allowed finite numbers "
                                "from -1000000.0 to 1000000.0")
    assert Heuristic(vp="2.5").weights == {"vp": 2.5}


def test_a_huge_weight_on_the_command_line_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, monkeypatch):
    from tests.cli_run import run_cli

    out = tmp_path / "run"
    code, stdout, err = run_cli(["simulate", "--no-progress", "--game", "unconscious-mind", "--players", "2",
                                 "--strategies", "heuristic:vp=1e308,coffee=0.3,random", "--out", out], capsys,
                                monkeypatch)
    assert code == 2
    assert err.splitlines() == ["error: strategy 'heuristic': argument vp='1e308' is out of range: allowed "
                                "-1000000.0 to 1000000.0"]
    assert stdout == ""
    assert not out.exists()


@pytest.mark.parametrize("spec,arg,first,second", [
    ("heuristic:vp=1,vp=2", "vp", "1", "2"),
    ("rollout:k=4,top=2,k=4", "k", "4", "4"),
    ("heuristic:preset=a.toml, preset = b.toml", "preset", "a.toml", "b.toml"),
])
def test_an_argument_given_twice_is_refused_naming_it(spec, arg, first, second):
    for parse in (parse_id, lambda s: make_strategy("toy", s)):
        with pytest.raises(ConfigError) as e:
            parse(spec)
        assert str(e.value) == (f"strategy {spec!r}: argument {arg!r} is given twice ({arg}={first}, {arg}={second}): "
                                "allowed once")


def test_pick_best_breaks_ties_with_the_given_uniforms():
    rows = np.array([0, 0, 0, 1, 1])
    acts = np.array([3, 5, 7, 1, 2])
    starts = np.array([0, 3])
    scores = np.array([1.0, 2.0, 2.0, 0.0, -1.0])
    assert pick_best(scores, rows, acts, starts, 2, np.array([0.1, 0.9])).tolist() == [5, 1]
    assert pick_best(scores, rows, acts, starts, 2, np.array([0.9, 0.9])).tolist() == [7, 1]


def test_greedy_vp_stops_when_every_hidden_card_would_bust_the_pot():
    game = make_game("toy")
    state = game.init(np.arange(3), 1, 2)
    state.pot[:] = [0, 4, 2]
    state.deck[1:, :] = 0  # whatever the re-sampled order, a draw busts games 1 and 2
    state.deck[0, :] = 3  # game 0 gains 3 VP by drawing
    view_idx = np.arange(3)
    from meeplelab.sim.core.rng import Streams
    from meeplelab.strategies.base import StrategyRNG, View

    mask = game.legal_action_mask(state)
    acts = make_strategy("toy", "greedy-vp").act(View(game, state, view_idx, 0), mask,
                                                  StrategyRNG(Streams.for_games(1, state.game_id, 1), view_idx))
    assert acts.tolist() == [0, 1, 1]  # draw, stop, stop


def test_lookahead_does_not_change_the_real_game():
    game = make_game("toy")
    res_a = play_batch(game, [make_strategy("toy", "greedy-vp"), make_strategy("toy", "random")], np.arange(64), 9)
    res_b = play_batch(game, [make_strategy("toy", "greedy-vp"), make_strategy("toy", "random")], np.arange(64), 9)
    assert res_a.games.equals(res_b.games)
    rnd = play_batch(game, [make_strategy("toy", "random")] * 2, np.arange(64), 9)
    assert np.array_equal(res_a.state.deck, rnd.state.deck)


def test_search_strategies_beat_random_on_the_test_game():
    game = make_game("toy")
    for spec in ("greedy-vp", "heuristic", "rollout:k=4,top=2,horizon=2"):
        a = play_batch(game, [make_strategy("toy", spec), make_strategy("toy", "random")], np.arange(300), 3)
        b = play_batch(game, [make_strategy("toy", "random"), make_strategy("toy", spec)], np.arange(300), 3)
        wins = a.games.to_pandas().query("seat == 0").win_share.sum() + b.games.to_pandas().query("seat == 1").win_share.sum()
        assert wins / 600 > 0.6, (spec, wins / 600)


def test_priority_list_takes_the_first_rule_with_a_legal_preferred_action():
    from meeplelab.sim.core.rng import Streams
    from meeplelab.strategies.base import StrategyRNG, View
    from meeplelab.strategies.priority import PriorityStrategy

    game = make_game("toy")
    state = game.init(np.arange(4), 2, 2)
    state.draws[:] = [0, 3, 0, 3]  # games 1 and 3 have used their draws: only stop is legal
    state.pot[:] = [5, 5, 0, 0]

    def want_draw_if_pot_small(view, legal):
        m = np.zeros_like(legal)
        m[:, 0] = view.state.pot[view.idx] < 4
        return m

    def want_stop(view, legal):
        m = np.zeros_like(legal)
        m[:, 1] = True
        return m

    s = PriorityStrategy([("draw while the pot is under 4", want_draw_if_pot_small), ("stop", want_stop)])
    idx = np.arange(4)
    acts = s.act(View(game, state, idx, 0), game.legal_action_mask(state), StrategyRNG(Streams.for_games(2, idx, 1), idx))
    assert acts.tolist() == [1, 1, 0, 1]
    assert s.explain() == ["draw while the pot is under 4", "stop", "otherwise: random"]


def test_a_users_function_plays_through_the_adapter():
    from meeplelab.strategies.priority import FunctionStrategy

    def cautious(game, state, g, seat, legal, rng):
        return 1 if state.pot[g] >= 3 or 0 not in legal else 0

    game = make_game("toy")
    res = play_batch(game, [FunctionStrategy(cautious, "cautious"), make_strategy("toy", "random")], np.arange(40), 8)
    g = res.games.to_pandas()
    assert set(g.strategy) == {"cautious", "random"} and g.query("seat == 0").vp.mean() > g.query("seat == 1").vp.mean()
