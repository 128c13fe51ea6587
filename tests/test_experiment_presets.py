"""Experiments whose focal player is a preset id (``NAME:preset=FILE``).

The games table logs a preset id expanded into all its arguments (``make_strategy(game, id).id``), so the focal
player is found by the seats the run's manifest gives its roster entry, not by its id: the paired differences
then have one row per arm and metric over every game, and a focal player the run did not play is an error
naming it and the run's strategies, never an empty table.
"""

from __future__ import annotations

import json

import polars as pl
import pytest
from meeplelab.analysis.experiment import abjure_removed, effects
from meeplelab.analysis.load import load_runs
from meeplelab.play.config import RunConfig
from meeplelab.play.experiment import plan_experiment, run_experiment
from meeplelab.sim.core.errors import ConfigError, RunFolderError


def _preset(tmp_path, game: str, strategy: str, args: dict) -> str:
    p = tmp_path / f"{strategy}-preset.toml"
    p.write_text(
        f'strategy = "{strategy}"\ngame = "{game}"\n\n[args]\n'
        + "".join(f"{k} = {v}\n" for k, v in args.items())
    )
    return f"{strategy}:preset={p}"


def _base(
    tmp_path, game: str, strategies: tuple[str, ...], players: int, games: int
) -> RunConfig:
    return RunConfig(
        game=game,
        players=players,
        strategies=strategies,
        games=games,
        seed=4,
        batch_size=64,
        n_jobs=1,
        out=str(tmp_path / "e"),
        seating="rotate",
    )


def test_a_preset_control_is_paired_over_every_game(tmp_path):
    ctrl = _preset(tmp_path, "toy", "slow-random", {"ms": 0})
    arms = plan_experiment(
        _base(tmp_path, "toy", ("random", "always-draw"), 3, 60),
        control=ctrl,
        vary="strategy=slow-random:ms=1",
    )
    out = run_experiment(arms, tmp_path / "e")
    logged = set(
        load_runs([out / "control"])
        .games.select("strategy")
        .collect()["strategy"]
        .cast(pl.String)
    )
    assert logged == {
        "slow-random:ms=0",
        "random",
        "always-draw",
    }  # the preset id is logged expanded
    df = effects(out)
    # slow-random's sleep changes no decision: the paired difference is exactly 0 over all 60 games
    assert df.select("arm", "strategy", "metric", "n", "est").rows() == [
        ("slow-random:ms=1", "slow-random:ms=1", "win", 60, 0.0),
        ("slow-random:ms=1", "slow-random:ms=1", "vp", 60, 0.0),
    ]


def test_a_focal_player_the_run_did_not_play_is_an_error_naming_it(tmp_path):
    arms = plan_experiment(
        _base(tmp_path, "toy", ("random",), 2, 8),
        control="slow-random:ms=0",
        vary="strategy=slow-random:ms=1",
    )
    out = run_experiment(arms, tmp_path / "e")
    meta = json.loads((out / "experiment.json").read_text())
    meta["arms"][1]["strategies"][0] = "greedy-vp"
    (out / "experiment.json").write_text(json.dumps(meta))
    with pytest.raises(
        RunFolderError,
        match=r"has no games of the focal player 'greedy-vp': it played "
        r"'slow-random:ms=1', 'random'",
    ):
        effects(out)


def test_the_field_may_not_repeat_the_focal_player_under_another_spelling(tmp_path):
    ctrl = _preset(tmp_path, "toy", "slow-random", {"ms": 0})
    with pytest.raises(
        ConfigError,
        match=r"the field repeats the focal strategy 'slow-random:preset=.*' \(the "
        r"field's 'slow-random:ms=0' is the same player\)",
    ):
        plan_experiment(
            _base(tmp_path, "toy", ("slow-random:ms=0",), 2, 8),
            control=ctrl,
            vary="strategy=random",
        )


def test_galileos_truth_preset_control_has_its_paired_differences_and_abjures(tmp_path):
    ctrl = _preset(
        tmp_path, "galileos-truth", "heuristic", {"end_vp": 0.7, "suspicion": -0.02}
    )
    arms = plan_experiment(
        _base(tmp_path, "galileos-truth", ("writer",), 2, 8),
        control=ctrl,
        vary="abjure-at.cycle=1",
    )
    out = run_experiment(arms, tmp_path / "e")
    df = effects(out)
    assert df.select("arm", "metric", "n").rows() == [
        ("abjure-at:cycle=1", "win", 8),
        ("abjure-at:cycle=1", "vp", 8),
    ]
    ab = abjure_removed(out)
    assert ab.select("arm", "games").rows() == [
        ("control", 8),
        ("abjure-at:cycle=1", 8),
    ]
    assert ab["abjures"][1] > 0  # abjure-at:cycle=1 abjures in Cycle 1
