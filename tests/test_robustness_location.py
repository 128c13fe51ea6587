"""meeplelab robustness at the strong rung over the readings of the assumed City content (A-UM-16
``location_vp_effect``, A-UM-26 ``location_effects``): the strong field plays every design point and a reading
that changes the game changes the points' games."""

from __future__ import annotations

import dataclasses
import json
import sys

import polars as pl
import pytest
from meeplelab.analysis.studies import strong_study
from meeplelab.sim.plausible import load_plausible
from meeplelab.strategies.fields import tuned_preset
from meeplelab.studies.robustness import run_robustness

from meeplelab import cli

FACTORS = ("location_vp_effect", "location_effects")


@pytest.mark.slow
def test_a_strong_field_robustness_run_over_the_location_readings_plays_each_reading(
    tmp_path,
):
    ranges = {
        n: r for n, r in load_plausible("unconscious-mind").items() if n in FACTORS
    }
    study = strong_study("unconscious-mind")
    study = dataclasses.replace(
        study,
        lineups=tuple(lu for lu in study.lineups if lu.panel == "field-2"),
        conclusions=(study.conclusion("seat-2"),),
    )
    assert [lu.strategies[0].split(":")[0] for lu in study.lineups] == [
        "heuristic",
        "ismcts",
    ]  # tuned, search
    run_robustness(
        "unconscious-mind", tmp_path / "rob", 28, games=2, study=study, ranges=ranges
    )
    design = json.loads((tmp_path / "rob" / "robustness.json").read_text())
    assert (
        design["factors"] == list(FACTORS) and not design["sobol_X"]
    )  # no budget left for the Sobol stage
    values = [{}] + [
        {n: ranges[n].value(u) for n, u in zip(FACTORS, x)} for x in design["morris_X"]
    ]
    games = [
        pl.read_parquet(tmp_path / "rob" / "points" / f"p{i:05d}.parquet").sort(
            "lineup", "game", "seat"
        )
        for i in range(len(values))
    ]
    assert len(games) == 7  # the defaults and 2 Morris trajectories of 2 factors
    assert {v.get("location_vp_effect", "vp") for v in values} == {"vp", "coffee"}
    assert len({v.get("location_effects", "any") for v in values}) >= 2
    base = games[0]["vp"].to_list()
    for g, v in zip(games, values):
        if (
            v.get("location_vp_effect", "vp") == "vp"
            and v.get("location_effects", "any") == "any"
        ):
            assert (
                g["vp"].to_list() == base
            )  # the default readings: the same games on common seeds
    assert any(
        g["vp"].to_list() != base
        for g, v in zip(games, values)
        if v.get("location_vp_effect") == "coffee"
    )


@pytest.mark.slow
def test_robustness_takes_a_named_roster_of_tuned_players_and_varies_the_location_readings(
    tmp_path, capsys, monkeypatch
):
    tuned = f"heuristic:preset={tuned_preset('unconscious-mind')}"
    out = tmp_path / "rob"
    monkeypatch.setattr(
        sys,
        "argv",
        [
            "meeplelab",
            "robustness",
            "--game",
            "unconscious-mind",
            "--strategies",
            f"{tuned},heuristic",
            "--budget",
            "94",
            "--games-per-lineup",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    with pytest.raises(SystemExit) as e:
        cli.main()
    said = capsys.readouterr().out
    assert e.value.code == 0
    factors = json.loads((out / "robustness.json").read_text())["factors"]
    assert {"location_vp_effect", "location_effects", "freud_start"} <= set(factors)
    assert (
        "Seat advantage (2 seats):" in said and "Dominant strategy (2 seats):" in said
    )
    lineups = json.loads((out / "robustness.json").read_text())["lineups"]
    assert sorted(lu[2][0] for lu in lineups) == sorted(
        [tuned, "heuristic"]
    )  # the roster in both seat orders
    assert (
        f"--strategies {tuned},heuristic"
        in (out / "report" / "robustness.md").read_text()
    )


def test_robustness_refuses_a_roster_together_with_the_strong_field(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(
        sys,
        "argv",
        [
            "meeplelab",
            "robustness",
            "--game",
            "unconscious-mind",
            "--strategies",
            "heuristic,publisher",
            "--field",
            "strong",
            "--budget",
            "94",
            "--out",
            str(tmp_path / "rob"),
        ],
    )
    with pytest.raises(SystemExit) as e:
        cli.main()
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        e.value.code == 2
        and len(err) == 1
        and "--strategies" in err[0]
        and "--field strong" in err[0]
    )
    assert not (tmp_path / "rob").exists()
