"""``meeplelab tune`` (studies/tune.py) and strategy presets on the toy game."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplelab.sim.core.errors import ConfigError
from meeplelab.studies.tune import play_field, search_space, tune, write_preset
from meeplelab.strategies import make_strategy
from tests.test_cli_errors import expect_error, run_cli


def test_search_space_takes_bounded_ints_and_skips_switches():
    dims = {d.name: d for d in search_space("toy", "rollout")}
    assert set(dims) == {"k", "top", "horizon"} and (dims["k"].lo, dims["k"].hi) == (1, 65)
    with pytest.raises(ConfigError, match="strategy 'heuristic' has no argument to tune"):
        search_space("toy", "heuristic")  # vp is the unit and finish a switch
    # abjure-at's optional Suspicion conditions have no default: only the Cycle is searched
    assert [(d.name, d.lo, d.hi) for d in search_space("galileos-truth", "abjure-at")] == [("cycle", 1, 4)]


def test_play_field_puts_the_candidate_in_every_seat_on_common_seeds():
    w = play_field("toy", "always-draw", ["random"], 2, 30, 3)
    assert w.shape == (1, 2, 30)
    again = play_field("toy", "always-draw", ["random"], 2, 30, 3)
    np.testing.assert_array_equal(w, again)
    # seat 0 against random is game i of lineup (always-draw, random): the same as a direct play
    from meeplelab.play.batch import play_batch
    from meeplelab.sim.registry import make_game

    res = play_batch(make_game("toy"), [make_strategy("toy", "always-draw"), make_strategy("toy", "random")],
                     np.arange(30), 3, log_turns=False, log_events=False).games.to_pandas()
    np.testing.assert_allclose(w[0, 0], res.query("seat == 0").sort_values("game").win_share.to_numpy())


def test_tune_writes_a_preset_that_plays_and_evaluates_on_fresh_seeds(tmp_path):
    out = tmp_path / "tune"
    res = tune("toy", "rollout:top=2", ["random", "always-draw"], budget=4 * 2 * 2 * 8, games_per_trial=8,
               seed=2, eval_games=12, out=out)
    meta = json.loads((out / "tune.json").read_text())
    assert len(meta["trials"]) == 4 and meta["trials"][0]["args"] == {"top": 2, "k": 8, "horizon": 4}  # untuned first
    assert res.best_train == max(t["win_rate"] for t in meta["trials"]) >= meta["trials"][0]["win_rate"]
    assert res.best_args["top"] == 2  # an argument given in the id is kept, not searched
    h = res.heldout
    assert h["seed"] == 3 and h["tuned_vs_field"]["seat_results"] == 12 * 2 * 2
    assert h["tuned_vs_untuned"]["seat_results"] == 12 * 2
    d = h["paired_difference"]
    assert d["est"] == pytest.approx(h["tuned_vs_field"]["win_rate"] - h["untuned_vs_field"]["win_rate"])
    s = make_strategy("toy", f"rollout:preset={out / 'preset.toml'}")
    assert (s.k, s.top, s.horizon) == (res.best_args["k"], 2, res.best_args["horizon"])
    assert make_strategy("toy", f"rollout:preset={out / 'preset.toml'},k=3").k == 3  # the id's own argument wins


def test_a_preset_of_another_strategy_or_a_missing_file_is_refused(tmp_path):
    p = tmp_path / "p.toml"
    write_preset(p, "toy", "rollout", {"k": 2})
    with pytest.raises(ConfigError, match="is not a greedy-vp preset for toy"):
        make_strategy("toy", f"greedy-vp:preset={p}")
    with pytest.raises(ConfigError, match="preset file '.*nope.toml' does not exist"):
        make_strategy("toy", f"rollout:preset={tmp_path / 'nope.toml'}")


def test_a_start_preset_is_trial_zero_the_untuned_side_and_narrows_the_weights(tmp_path):
    start = tmp_path / "start.toml"
    write_preset(start, "toy", "rollout", {"k": 5, "top": 3, "horizon": 2})
    out = tmp_path / "tune"
    res = tune("toy", "rollout", ["random"], budget=3 * 2 * 8, games_per_trial=8, seed=2, eval_games=6, out=out,
               start=str(start))
    meta = json.loads((out / "tune.json").read_text())
    assert meta["trials"][0]["args"] == {"k": 5, "top": 3, "horizon": 2}  # the start, not the defaults (8, 1, 4)
    state = json.loads((out / "search.json").read_text())
    assert state["start"] == str(start) and state["heldout"]["untuned"]["spec"] == "rollout:k=5,top=3,horizon=2"
    assert res.heldout["tuned_vs_untuned"]["seat_results"] == 6 * 2
    assert (out / "preset.toml").read_text().splitlines()[0].endswith(f"--seed 2 --start {start}")
    # a weight w of the start is searched in [w/2, 3w/2], a zero one in [-0.5, 0.5]; the others keep [0, 2 x default]
    default = {d.name: (d.lo, d.hi) for d in search_space("galileos-truth", "heuristic")}
    narrow = {d.name: (d.lo, d.hi) for d in search_space("galileos-truth", "heuristic", {"level": 2.0, "seals_left": -0.4,
                                                                                         "research": 0.0})}
    assert narrow["level"] == (1.0, 3.0) and narrow["seals_left"] == pytest.approx((-0.6, -0.2))
    assert narrow["research"] == (-0.5, 0.5)
    assert all(narrow[k] == v for k, v in default.items() if k not in ("level", "seals_left", "research"))
    with pytest.raises(ConfigError, match="is not a rollout preset for toy"):
        write_preset(tmp_path / "g.toml", "toy", "greedy-vp", {})
        tune("toy", "rollout", ["random"], budget=32, games_per_trial=8, out=tmp_path / "t2",
             start=str(tmp_path / "g.toml"))


def test_cli_tune_refuses_a_budget_below_two_trials(tmp_path, capsys, monkeypatch):
    expect_error(["tune", "--game", "toy", "--strategy", "rollout", "--against", "random", "--budget", "10",
                  "--games-per-trial", "8", "--out", str(tmp_path / "t")],
                 "--budget 10: a trial plays 16 games (8 per lineup x 1 field x 2 seats); give at least 32",
                 capsys, monkeypatch)
    assert not (tmp_path / "t").exists()


def test_cli_tune_prints_the_heldout_evaluation(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t"
    code, text, err = run_cli(["tune", "--game", "toy", "--strategy", "rollout", "--against", "random", "--budget",
                               "32", "--games-per-trial", "8", "--eval-games", "10", "--out", str(out)],
                              capsys, monkeypatch)
    assert code == 0, err
    assert "held-out seeds (run seed 1, 10 games per lineup, every seat order):" in text
    assert "tuned - untuned:" in text and f"use --strategies rollout:preset={out / 'preset.toml'}" in text


def test_summary_says_when_the_search_kept_the_untuned_arguments_or_the_preset_does_not_win():
    from meeplelab.studies.tune import TuneResult, summary_lines

    w = {"win_rate": 0.5, "low": 0.451, "high": 0.549, "seat_results": 400}
    h = {"seed": 1, "games_per_lineup": 200, "tuned_vs_field": w, "untuned_vs_field": w, "tuned_vs_untuned": w,
         "paired_difference": {"est": 0.0, "low": 0.0, "high": 0.0, "games": 800}}
    kept = TuneResult("heuristic", {"a": 1.0}, 0.7, [{"number": 0, "args": {"a": 1.0}, "win_rate": 0.7},
                                                      {"number": 1, "args": {"a": 2.0}, "win_rate": 0.6}], h)
    assert summary_lines(kept)[-1].startswith("  no candidate beat the untuned strategy (trial 0) on the search seeds")
    moved = TuneResult("heuristic", {"a": 2.0}, 0.7, [{"number": 0, "args": {"a": 1.0}, "win_rate": 0.6},
                                                       {"number": 1, "args": {"a": 2.0}, "win_rate": 0.7}], h)
    assert summary_lines(moved)[-1] == ("  the tuned preset does not beat the untuned strategy head to head at this "
                                        "size (its 95% interval includes 50%)")
    won = TuneResult("heuristic", {"a": 2.0}, 0.7, moved.trials,
                     dict(h, tuned_vs_untuned={"win_rate": 0.6, "low": 0.55, "high": 0.65, "seat_results": 400}))
    assert summary_lines(won)[-1].startswith("  tuned vs untuned:  60.0% [55.0, 65.0] of 400")
