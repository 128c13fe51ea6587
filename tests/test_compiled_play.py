"""Compiled play on the toy engine: the play loop in one kernel gives the same games as the
Python loop, for plans, for mixed compiled and Python seats, and for any batch size."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tests.toygame as toy
from meeplelab.sim.core.compiled import choice_module_source, lookahead_module_source, main, play_module_source
from meeplelab.sim.core.errors import ConfigError
from meeplelab.play.batch import play_batch
from meeplelab.sim.registry import make_game
from meeplelab.strategies.base import RandomStrategy
from meeplelab.strategies.plans import CompiledPlan, Plan, Rule, When, compile_plans, resolve
from meeplelab.strategies.registry import make_strategy


def _same(a, b):
    assert a.games.equals(b.games)
    assert a.turns.equals(b.turns)
    assert a.events.equals(b.events)


@pytest.mark.parametrize("pkg", ["tests.toy", "meeplelab.sim.galileos_truth", "meeplelab.sim.unconscious_mind"])
def test_the_written_play_module_matches_the_template(pkg):
    import importlib

    mod = importlib.import_module(f"{pkg}.play")
    assert Path(mod.__file__).read_text() == play_module_source(pkg)
    choice = importlib.import_module(f"{pkg}.choice")
    assert Path(choice.__file__).read_text() == choice_module_source(pkg)
    assert main([]) == 2


@pytest.mark.parametrize("pkg", ["tests.toy", "meeplelab.sim.galileos_truth", "meeplelab.sim.unconscious_mind"])
def test_the_written_lookahead_modules_match_their_templates(pkg):
    import importlib

    play = importlib.import_module(f"{pkg}.play")
    look = importlib.import_module(f"{pkg}.lookahead")
    assert Path(play.__file__).read_text() == play_module_source(pkg)
    assert Path(look.__file__).read_text() == lookahead_module_source(pkg)
    assert look.COMPILED_HEURISTIC == (pkg != "tests.toy")  # the toy engine values no features


def test_the_play_module_writer_refuses_an_unknown_package_in_one_line(capsys):
    assert main(["no.such"]) == 2
    assert capsys.readouterr().err.strip() == ("cannot find 'no.such' (no module file for 'no.such' on sys.path); allowed: an engine "
                                               "package (tests.toy, meeplelab.sim.galileos_truth)")


def test_the_empty_plan_is_the_random_strategy_on_the_same_streams():
    g = make_game("toy")
    plan = CompiledPlan(Plan("random"))
    a = play_batch(g, [plan] * 3, np.arange(200), 11)
    b = play_batch(g, [RandomStrategy()] * 3, np.arange(200), 11)
    _same(a, b)
    assert a.events.num_rows > 1000


def test_a_plan_of_fixed_preferences_is_the_scripted_python_strategy():
    g = make_game("toy")
    plan = CompiledPlan(Plan("always-draw", (Rule("draw", prefer=(toy.DRAW,)), Rule("stop", prefer=(toy.STOP,)))))
    plan.name = plan.plan.name
    a = play_batch(g, [plan, plan], np.arange(100), 5)
    b = play_batch(g, [toy.AlwaysDraw(), toy.AlwaysDraw()], np.arange(100), 5)
    a_games = a.games.drop_columns(["strategy"]) if "strategy" in a.games.column_names else a.games
    b_games = b.games.drop_columns(["strategy"]) if "strategy" in b.games.column_names else b.games
    assert a_games.equals(b_games) and a.turns.equals(b.turns) and a.events.equals(b.events)


@pytest.mark.parametrize("n", [2, 4])
def test_compiled_and_python_loop_paths_give_the_same_games(n):
    g = make_game("toy")
    seats = [toy.bank_at(n), toy.bank_at(n + 1)]
    a = play_batch(g, seats, np.arange(300), 7)
    b = play_batch(g, seats, np.arange(300), 7, compiled=False)
    _same(a, b)
    # the condition matters: banking at n differs from random play
    r = play_batch(g, [RandomStrategy()] * 2, np.arange(300), 7)
    assert not a.events.equals(r.events)


def _bank_over(lead: int) -> CompiledPlan:
    """Bank once the pot is at least the round number plus ``lead`` (a condition against another feature)."""
    return CompiledPlan(Plan("bank-over", (
        Rule(f"bank once the pot >= round + {lead}", prefer=(toy.STOP,), kinds=("D_TURN",),
             when=(When("pot", ">=", lead, ref="round"),)),
        Rule("draw", prefer=(toy.DRAW,)),
        Rule("stop", prefer=(toy.STOP,)),
    )))


def test_a_condition_against_another_feature_gives_the_same_games_on_both_paths():
    g = make_game("toy")
    seats = [_bank_over(1), toy.bank_at(3)]
    a = play_batch(g, seats, np.arange(300), 7)
    b = play_batch(g, seats, np.arange(300), 7, compiled=False)
    _same(a, b)
    # the reference feature is read: no constant threshold plays these games, and the lead matters
    for n in range(1, 9):
        assert not play_batch(g, [toy.bank_at(n), toy.bank_at(3)], np.arange(300), 7).events.equals(a.events), n
    assert not play_batch(g, [_bank_over(2), toy.bank_at(3)], np.arange(300), 7).events.equals(a.events)


def test_mixed_compiled_and_python_seats():
    g = make_game("toy")
    seats = [toy.bank_at(3), RandomStrategy(), toy.bank_at(2)]
    a = play_batch(g, seats, np.arange(150), 2)
    b = play_batch(g, seats, np.arange(150), 2, compiled=False)
    _same(a, b)


def test_games_are_the_same_for_any_batch_split():
    g = make_game("toy", toy.ToyParams(rounds=12, copies=8))
    seats = [toy.bank_at(3), toy.bank_at(5)]
    whole = play_batch(g, seats, np.arange(64), 9)
    parts = [play_batch(g, seats, np.arange(i, i + 16), 9) for i in range(0, 64, 16)]
    import pyarrow as pa

    for t in ("games", "turns", "events"):
        assert pa.concat_tables([getattr(p, t) for p in parts]).equals(getattr(whole, t))
    assert whole.events.num_rows > 64 * g.event_capacity  # several drains per game happened


def test_the_runner_plays_compiled_plans_from_the_registry():
    assert isinstance(make_strategy("toy", "bank-at:n=4"), CompiledPlan)
    g = make_game("toy")
    a = play_batch(g, [make_strategy("toy", "empty-plan")] * 2, np.arange(40), 1)
    b = play_batch(g, [RandomStrategy()] * 2, np.arange(40), 1)
    assert a.events.equals(b.events)


def test_a_bad_plan_is_refused_in_one_line_naming_the_value():
    import tests.toy.play as mod

    with pytest.raises(ConfigError, match="unknown feature 'coffee'; allowed: pot, draws"):
        compile_plans([Plan("p", (Rule("r", (0,), when=(When("coffee", ">=", 1),)),))], mod.KINDS, mod.FEATURES, 2)
    with pytest.raises(ConfigError, match="unknown decision kind 'D_X'"):
        compile_plans([Plan("p", (Rule("r", (0,), kinds=("D_X",)),))], mod.KINDS, mod.FEATURES, 2)
    for a in (5, -1, 1.7, "stop", True):
        with pytest.raises(ConfigError, match=r"action .* is not an action id; allowed: integers 0\.\.1"):
            compile_plans([Plan("p", (Rule("r", (a,)),))], mod.KINDS, mod.FEATURES, 2)
    with pytest.raises(ConfigError, match="value 'four' of 'pot' is not an integer"):
        compile_plans([Plan("p", (Rule("r", (0,), when=(When("pot", ">=", "four"),)),))], mod.KINDS, mod.FEATURES, 2)
    with pytest.raises(ConfigError, match="unknown action set 'drawers'; allowed: none"):
        resolve(Plan("p", (Rule("r", "drawers"),)), None)
    with pytest.raises(ConfigError, match="unknown reference feature 'prison_at' of 'pot'; allowed: pot, draws"):
        compile_plans([Plan("p", (Rule("r", (0,), when=(When("pot", ">=", 0, ref="prison_at"),)),))], mod.KINDS,
                      mod.FEATURES, 2)
    with pytest.raises(ConfigError, match="unknown comparison '=>'"):
        compile_plans([Plan("p", (Rule("r", (0,), when=(When("pot", "=>", 1),)),))], mod.KINDS, mod.FEATURES, 2)


def test_a_plan_on_running_streams_draws_as_the_python_strategies_do():
    # rollouts hand strategies streams whose counters have advanced: the plan must draw the same
    from meeplelab.sim.core.rng import Streams
    from meeplelab.strategies.base import StrategyRNG, View

    g = make_game("toy")
    st = g.init(np.arange(64), 3, 2)
    mask = g.legal_action_mask(st)
    idx = np.arange(0, 64, 3)
    keys = np.arange(1, 65, dtype=np.uint64) * np.uint64(7919)
    ctr = np.arange(64, dtype=np.uint64) % np.uint64(5)
    a_streams, b_streams = Streams(keys.copy(), ctr.copy()), Streams(keys.copy(), ctr.copy())
    a = CompiledPlan(Plan("random")).act(View(g, st, idx, 0), mask[idx], StrategyRNG(a_streams, idx))
    b = RandomStrategy().act(View(g, st, idx, 0), mask[idx], StrategyRNG(b_streams, idx))
    assert np.array_equal(a, b) and np.array_equal(a_streams.counters, b_streams.counters)
    assert (a_streams.counters[idx] == ctr[idx] + 1).all()


# ---------------------------------------------------------------------------- engine action scores
def _pot_or_deck_plan(**score):
    """A plan whose one rule ranks or filters DRAW and STOP by the toy's ``pot_or_deck`` score."""
    return CompiledPlan(Plan("pot-or-deck", (Rule("the higher of pot and deck", (toy.DRAW, toy.STOP),
                                                  kinds=("D_TURN",), **score),)))


@pytest.mark.parametrize("score", [{"best": "pot_or_deck"}, {"keep": "pot_or_deck"}])
def test_a_rule_on_an_action_score_gives_the_same_games_on_both_paths(score):
    g = make_game("toy", toy.ToyParams(max_draws=30, copies=2))
    seats = [_pot_or_deck_plan(**score), RandomStrategy()]
    a = play_batch(g, seats, np.arange(200), 3)
    b = play_batch(g, seats, np.arange(200), 3, compiled=False)
    _same(a, b)
    r = play_batch(g, [CompiledPlan(Plan("random")), RandomStrategy()], np.arange(200), 3)
    assert not a.events.equals(r.events)  # the score changed the choices


def test_best_keeps_the_preferred_action_with_the_highest_score():
    # pot_or_deck scores STOP by the pot and DRAW by the cards left: the plan stops exactly when the pot is
    # above the cards left, draws when below, and draws one of the two at random on a tie
    from meeplelab.sim.core.rng import Streams
    from meeplelab.strategies.base import StrategyRNG, View

    g = make_game("toy", toy.ToyParams(max_draws=30, copies=1))
    st = g.init(np.arange(64), 3, 2)
    from tests.toy.cols import POT, TOP

    st.game[:, POT] = np.arange(64) % 8
    left = st.deck.shape[1] - st.game[:, TOP]
    pot = st.game[:, POT]
    mask = g.legal_action_mask(st)
    assert mask.all() and (left == 4).all()  # both legal, 4 cards in a fresh deck
    idx = np.arange(64)
    plan = _pot_or_deck_plan(best="pot_or_deck")
    got = plan.act(View(g, st, idx, 0), mask, StrategyRNG(Streams.for_games(1, st.game_id, 9), idx))
    assert (got[pot > left] == toy.STOP).all() and (got[pot < left] == toy.DRAW).all()
    assert set(got[pot == left].tolist()) == {toy.DRAW, toy.STOP} and (pot == left).sum() == 8  # ties: a draw
    kept = _pot_or_deck_plan(keep="pot_or_deck").act(View(g, st, idx, 0), mask,
                                                      StrategyRNG(Streams.for_games(1, st.game_id, 9), idx))
    assert (kept[pot == 0] == toy.DRAW).all()  # STOP scores 0 with an empty pot: not kept
    assert set(kept[pot > 0].tolist()) == {toy.DRAW, toy.STOP}


def test_a_restricted_plan_takes_only_positive_score_actions_unless_none_is_legal():
    g = make_game("toy")
    # restrict to positive pot_or_deck: STOP only with a pot, so a fresh turn always draws (both paths)
    plan = CompiledPlan(Plan("no-empty-stop", restrict="pot_or_deck"))
    seats = [plan, plan]
    a = play_batch(g, seats, np.arange(100), 4)
    b = play_batch(g, seats, np.arange(100), 4, compiled=False)
    _same(a, b)
    t = a.turns.to_pandas()
    assert (t["draws"] >= 1).all()  # no turn banked an empty pot
    r = play_batch(g, [CompiledPlan(Plan("random"))] * 2, np.arange(100), 4).turns.to_pandas()
    assert (r["draws"] == 0).any()


def test_an_unknown_action_score_is_refused_in_one_line_naming_it():
    import meeplelab.sim.galileos_truth.play as gt
    import tests.toy.play as mod

    with pytest.raises(ConfigError, match=r"plan 'p', rule 'r': unknown action score 'row_fill'; allowed: pot_or_deck$"):
        compile_plans([Plan("p", (Rule("r", (0,), best="row_fill"),))], mod.KINDS, mod.FEATURES, 2, mod.SCORES)
    with pytest.raises(ConfigError, match=r"plan 'p', restrict: unknown action score 'x'; allowed: pot_or_deck$"):
        compile_plans([Plan("p", restrict="x")], mod.KINDS, mod.FEATURES, 2, mod.SCORES)
    with pytest.raises(ConfigError, match=r"unknown action score 'x'; allowed: none \(this engine names no action"):
        compile_plans([Plan("p", (Rule("r", (0,), keep="x"),))], gt.KINDS, gt.FEATURES, 2, gt.SCORES)
    with pytest.raises(ConfigError, match="both best='pot_or_deck' and keep='pot_or_deck'; allowed: one of them"):
        compile_plans([Plan("p", (Rule("r", (0,), best="pot_or_deck", keep="pot_or_deck"),))], mod.KINDS,
                      mod.FEATURES, 2, mod.SCORES)


def test_a_bad_kernel_profile_is_refused_in_one_line_before_any_game_is_played():
    import tests.toy.play as mod

    k = max(mod.KINDS.values()) + 1  # the kernel indexes prof[kind]: K above every decision kind code
    g = make_game("toy")
    acted = []

    class Counting(RandomStrategy):
        def act(self, view, legal_mask, rng):
            acted.append(len(view.idx))
            return super().act(view, legal_mask, rng)

    seats = [toy.bank_at(3), Counting()]  # compiled path, with a Python seat that would act if a game were played
    allowed = rf"allowed: a writable C-contiguous numpy uint64 array of shape \(K, 4\) with K >= {k}$"
    bad = {
        "has dtype int64": np.zeros((k, 4), np.int64),
        "has dtype float64": np.zeros((k, 4)),
        r"has shape \(8,\)": np.zeros(8, np.uint64),
        rf"has shape \(2, {k}, 4\)": np.zeros((2, k, 4), np.uint64),
        rf"has shape \({k}, 3\)": np.zeros((k, 3), np.uint64),
        rf"has {k - 1} rows, too few for the decision kind codes up to {k - 1}": np.zeros((k - 1, 4), np.uint64),
        "has 0 rows": np.zeros((0, 4), np.uint64),
        "is not C-contiguous": np.zeros((4, k), np.uint64).T,
        "is a list, not a numpy array": [[0, 0, 0, 0]] * k,
    }
    ro = np.zeros((k, 4), np.uint64)
    ro.flags.writeable = False
    bad["is read-only"] = ro
    for what, prof in bad.items():
        for compiled in (True, False):
            with pytest.raises(ValueError, match=f"^kernel_profile {what}.*: {allowed}") as e:
                play_batch(g, seats, np.arange(20), 3, kernel_profile=prof, compiled=compiled)
            assert "\n" not in str(e.value)
    assert acted == []  # refused before any game was played
    assert not np.asarray(bad["is not C-contiguous"]).any()  # nothing written into a refused array
    prof = np.zeros((k, 4), np.uint64)
    r = play_batch(g, seats, np.arange(20), 3, kernel_profile=prof)
    python_plies = sum(acted)  # the Python seat's decisions, one game each
    assert python_plies > 0
    _same(r, play_batch(g, seats, np.arange(20), 3))  # profiling changes no game
    compiled_plies_played = int(r.state.ply.sum()) - python_plies
    assert int(prof[:, 3].sum()) == compiled_plies_played > 0  # one counted decision per compiled ply
    assert (prof[mod.KINDS["D_TURN"], :3] > 0).all()


@pytest.mark.parametrize("name", ["galileos-truth", "unconscious-mind"])
def test_the_play_loop_compiles_only_the_choosers_seated(name):
    """A run of plan seats plays ``play_plans`` (neither the compiled heuristic nor the ISMCTS
    compiled in), a heuristic seat ``play_heuristic``, an ISMCTS seat ``play``; the games are the same."""
    mod = make_game(name).compiled_module()
    assert mod.play_kernel(False, False) is mod.play_plans and mod.play_kernel(True, False) is mod.play_heuristic
    assert mod.play_kernel(True, True) is mod.play is mod.play_kernel(False, True)
    consts = {k.py_func.__name__: dict(zip(k.py_func.__code__.co_freevars,
                                           (c.cell_contents for c in k.py_func.__closure__)))
              for k in (mod.play_plans, mod.play_heuristic, mod.play)}
    assert consts == {"play_plans": {"heuristic": False, "search": False},
                      "play_heuristic": {"heuristic": True, "search": False},
                      "play": {"heuristic": True, "search": True}}


def test_a_chooser_behind_a_false_closure_constant_is_not_compiled(tmp_path, monkeypatch):
    """The mechanism ``_play_kernel`` relies on: numba drops a branch on a closure constant that is False, so the
    function called only there is never compiled (and the kernel caches like any other)."""
    (tmp_path / "prune_probe.py").write_text(
        "from numba import njit\n\n"
        "@njit(cache=True)\ndef heavy(x):\n    return x * 2\n\n"
        "@njit(cache=True)\ndef light(x):\n    return x + 1\n\n"
        "def make(search):\n"
        "    def loop(n):\n        s = 0\n        for i in range(n):\n"
        "            if search:\n                s += heavy(i)\n            else:\n                s += light(i)\n"
        "        return s\n"
        "    loop.__qualname__ = 'loop_search' if search else 'loop_plans'\n"
        "    return njit(cache=True)(loop)\n\n"
        "plans, search = make(False), make(True)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    import importlib

    probe = importlib.import_module("prune_probe")
    assert probe.plans(4) == 10 and probe.light.signatures and not probe.heavy.signatures
    assert probe.search(4) == 12 and probe.heavy.signatures
