"""Start resources declared once per game (``GameSpec.start_resources``, sim/core/start.py): treatments for every
one, refusals that list them, and the per-seat compensation fields applied at setup."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.registry import get_spec, make_game
from tests.cli_run import run_cli

GT_NAMES = "coins, research, suspicion, books_astronomy, books_physics, books_mathematics, books_philosophy, vp"
UM_NAMES = "coffee, bright, ideas, white, vp"


def test_each_game_declares_its_start_resources_and_every_one_is_a_per_seat_state_value():
    for game, names in (("galileos-truth", GT_NAMES), ("unconscious-mind", UM_NAMES)):
        res = get_spec(game).start_resources
        assert ", ".join(r.name for r in res) == names
        g = make_game(game)
        state = g.init(np.arange(2), 0, 3)
        for r in res:
            v = r.values(state)  # at the first decision (Galileo's Truth: Cycle 1's income already paid)
            assert v.shape == (2, 3) and np.issubdtype(v.dtype, np.integer), r.name
            assert (v == v[:, :1]).all(), r.name  # every seat starts alike without compensation


@pytest.mark.parametrize("game,argv,names", [
    ("galileos-truth", ["--strategies", "writer", "--control", "never-abjure", "--treat", "coffee+1"], GT_NAMES),
    ("unconscious-mind", ["--strategies", "publisher", "--control", "citer", "--treat", "suspicion+1"], UM_NAMES),
])
def test_an_unknown_treatment_is_refused_with_every_start_resource_listed(game, argv, names, tmp_path, capsys,
                                                                           monkeypatch):
    out = tmp_path / "out"
    code, _, err = run_cli(["experiment", "--game", game, "--players", "2", "--games", "4", *argv, "--out", out],
                           capsys, monkeypatch)
    bad = argv[-1].rstrip("+1")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: --treat '{argv[-1]}': '{bad}' is not a start resource of {game}: allowed {names} "
                          "(each as NAME+n or NAME-n"), err
    assert not out.exists()


@pytest.mark.parametrize("treat,message", [
    ("suspicion+6", "error: --treat 'suspicion+6': a seat would start with 8 suspicion; allowed: below prison_at=8 "
                    "(suspicion starts at 2 here, so at most suspicion+5)"),
    ("books_physics-1", "error: --treat 'books_physics-1': a seat would start with -1 books_physics; allowed: a start "
                        "value of 0 or more (books_physics starts at 0 here, so at most books_physics-0)"),
    ("coins", "error: --treat 'coins' needs the form field+n or field-n with field one of " + GT_NAMES),
])
def test_a_treatment_the_rules_do_not_allow_is_refused_before_play(treat, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, _, err = run_cli(["experiment", "--game", "galileos-truth", "--players", "2", "--strategies", "writer",
                            "--control", "never-abjure", "--treat", treat, "--games", "4", "--out", out],
                           capsys, monkeypatch)
    assert code == 2 and err.startswith(message) and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


def test_the_runner_treats_the_roster_entry_with_the_declared_resource():
    from meeplelab.play.runner import _Treated

    game = make_game("galileos-truth")
    base = game.init(np.arange(2), 0, 2)
    books = _Treated(game, 1, "books_physics", 2).init(np.arange(2), 0, 2)
    assert (books.books[:, 1, 1] == base.books[:, 1, 1] + 2).all()
    assert (np.delete(books.books.reshape(2, -1), 5, axis=1) == np.delete(base.books.reshape(2, -1), 5, axis=1)).all()
    vp = _Treated(game, 0, "vp", 3).init(np.arange(2), 0, 2)
    assert vp.vp[:, 0].tolist() == [3, 3] and vp.vp_ev[:, 0].tolist() == [3, 3] and vp.vp[:, 1].tolist() == [0, 0]


def test_a_panel_takes_a_generated_treatment_and_refuses_an_unknown_one_listing_the_resources():
    from meeplelab.play.panels import panel, play_lineups, treatment_fn

    game = make_game("unconscious-mind")
    state = game.init(np.arange(3), 0, 2)
    before = np.array(state.bright, copy=True)
    treatment_fn("unconscious-mind", "bright+2")(game, state, np.array([0, 2]), 1)
    assert (np.asarray(state.bright) - before)[:, 1].tolist() == [2, 0, 2]
    with pytest.raises(ConfigError, match="unknown treatment 'gold\\+1' for unconscious-mind: allowed coffee\\+1, "
                                          "NAME\\+n or NAME-n with NAME one of " + UM_NAMES):
        play_lineups(game, panel("x", ("publisher", "citer"), treatment="gold+1"), 1, 0)


def test_seat_compensation_is_added_at_setup_and_counted_as_start_vp():
    from meeplelab.sim.galileos_truth.params import Params

    p = apply_overrides(Params(), {"seat_vp_3p": "0,4,7", "seat_research_3p": "1,0,2", "seat_coins_2p": "-2,0"})
    game = make_game("galileos-truth", p)
    s3 = game.init(np.arange(2), 0, 3)
    assert s3.vp.tolist() == [[0, 4, 7]] * 2 and s3.vp_ev.tolist() == [[0, 4, 7]] * 2
    # 2 Research and 2 Coins at setup plus Cycle 1's income (1 each at Level I), then the compensation
    assert s3.research.tolist() == [[4, 3, 5]] * 2 and s3.coins.tolist() == [[3, 3, 3]] * 2
    assert game.score_breakdown(s3)["seat_bonus"].tolist() == [[0, 4, 7]] * 2
    assert game.check_invariants(s3) == []
    s2 = game.init(np.arange(1), 0, 2)
    assert s2.coins.tolist() == [[1, 3]] and s2.vp.tolist() == [[0, 0]]


def test_a_compensation_that_starts_a_seat_below_zero_or_of_the_wrong_length_is_refused():
    from meeplelab.sim.galileos_truth.params import Params as GT
    from meeplelab.sim.unconscious_mind.params import Params as UM

    with pytest.raises(ConfigError, match="parameters start_coins=2 and seat_coins_4p=0,-3,0,0 contradict each other: "
                                          "allowed start_coins \\+ each seat's bonus >= 0"):
        apply_overrides(GT(), {"seat_coins_4p": "0,-3,0,0"})
    with pytest.raises(ConfigError, match="parameter seat_vp_2p='1,2,3' needs 2 values, got 3"):
        apply_overrides(GT(), {"seat_vp_2p": "1,2,3"})
    with pytest.raises(ConfigError, match="parameters start_coffee=2 and seat_coffee_2p=-3,0 contradict"):
        apply_overrides(UM(), {"seat_coffee_2p": "-3,0"})


def test_a_played_game_keeps_its_start_vp_to_the_end(tmp_path):
    """The compensation's VP is in the final score: every seat's VP minus its categories is its bonus."""
    from meeplelab.analysis.load import load_runs
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    cfg = RunConfig(game="unconscious-mind", players=2, strategies=("publisher", "citer"), games=8, seed=3, n_jobs=1,
                    out=str(tmp_path / "r"), params={"seat_vp_2p": "0,5"}, seating="rotate", log_turns=False,
                    log_events=False)
    simulate(cfg)
    g = load_runs([tmp_path / "r"]).games.collect()
    cats = [c for c in g.columns if c.startswith("vp_")]
    assert (sum(g[c] for c in cats) == g["vp"]).all()
    assert set(zip(g["seat"].to_list(), g["vp_seat_bonus"].to_list())) == {(0, 0), (1, 5)}


def test_start_resources_fields_are_documented():
    from meeplelab.sim.core.start import StartResource

    assert {f.name for f in dataclasses.fields(StartResource)} >= {"name", "field", "index", "start_param", "seat_param"}
