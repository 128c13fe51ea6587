"""Experiments: arms on common seeds in every seat order, paired differences against the named control.

Known answers on the toy game: a treatment of +3 starting VP for the focal player (decisions of
always-draw/random do not look at VP) moves its final VP by exactly +3 in every game, so the paired
interval is [2.94, 3.06] (the sd floor of whole numbers, never a point) while the unpaired one is wide; a strategy argument that changes nothing
(slow-random's sleep) gives a paired difference of exactly 0."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest

from meeplelab.analysis.experiment import effects, experiment_sections
from meeplelab.analysis.report import build_report
from meeplelab.play.config import RunConfig
from meeplelab.sim.core.errors import ConfigError
from meeplelab.play.experiment import plan_experiment, run_experiment


def _base(tmp, name, strategies, players=3, games=120):
    return RunConfig(game="toy", players=players, strategies=strategies, games=games, seed=4, batch_size=64,
                     n_jobs=1, out=str(tmp / name), seating="rotate")


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_treatment_is_measured_paired_and_the_paired_interval_is_narrower(tmp_path):
    arms = plan_experiment(_base(tmp_path, "e", ("slow-random:ms=0", "always-draw")), control="random", treat="vp+3")
    assert [a.label for a in arms] == ["control", "vp+3"]
    out = run_experiment(arms, tmp_path / "e")
    df = effects(out)
    vp = df.filter(pl.col("metric") == "vp").row(0, named=True)
    assert vp["strategy"] == "random" and vp["n"] == 120
    # every difference is exactly 3 VP: the interval keeps the width of the rounding sd of whole VP
    # (1/sqrt(12)), not a point; over the 20 game seeds (each played in the 6 seat orders, stats.cluster_means):
    # t(0.975, 19) * 0.2887 / sqrt(120) = 0.055 VP
    half = 2.09302 * (1 / 12 ** 0.5) / 120 ** 0.5
    assert vp["est"] == pytest.approx(3.0)
    assert vp["low"] == pytest.approx(3.0 - half, abs=1e-4) and vp["high"] == pytest.approx(3.0 + half, abs=1e-4)
    assert vp["unpaired_high"] - vp["unpaired_low"] > 0.5  # the same data compared unpaired
    win = df.filter(pl.col("metric") == "win").row(0, named=True)
    assert win["est"] > 0 and (win["high"] - win["low"]) < (win["unpaired_high"] - win["unpaired_low"])
    # the focal player sat in every seat equally often in both arms
    g = pl.read_parquet(str(out / "vp+3" / "games" / "*.parquet")).filter(pl.col("strategy") == "random")
    assert g.group_by("seat").len()["len"].to_list() == [40, 40, 40]
    page = build_report([out / "control", out / "vp+3"], out / "report", sections=experiment_sections(out))
    md = (page.parent / "report.md").read_text()
    assert md.index("## Verdict") < md.index("## Effects by intervention") < md.index("(descriptive: groups differ")
    assert "vp+3 (random): final VP +3.00 [2.94, 3.06]" in md
    # the verdict's effect line names the arm's field, and the verdict ends with the scope sentence
    from meeplelab.analysis.dominance import SCOPE

    verdict = md[md.index("## Verdict"):md.index("## Effects by intervention")]
    assert re.search(r"Largest effect: in arm vp\+3, random's win rate changes by [-+][\d.]+ percentage points "
                     r"\[[-\d.]+, [-\d.]+\] against the control random \(paired, 120 games; among the strategies "
                     r"played: random, slow-random:ms=0, always-draw \(120 games, rotated seats\)\)", verdict), verdict
    assert SCOPE in verdict.splitlines()
    assert json.loads((out / "experiment.json").read_text())["status"] == "complete"


def test_a_strategy_argument_that_changes_nothing_has_a_paired_difference_of_exactly_zero(tmp_path):
    arms = plan_experiment(_base(tmp_path, "s", ("random", "always-draw"), games=60), control="slow-random:ms=0",
                           vary="slow-random.ms=1")
    assert [a.config.strategies[0] for a in arms] == ["slow-random:ms=0", "slow-random:ms=1"]
    df = effects(run_experiment(arms, tmp_path / "s"))
    assert df["est"].to_list() == [0.0, 0.0] and df["n"].to_list() == [60, 60]


def test_rule_parameter_axis_pairs_every_strategy_seat_by_seat(tmp_path):
    arms = plan_experiment(_base(tmp_path, "p", ("random", "always-draw", "always-draw"), games=60),
                           vary="max_draws=3,1")
    assert [a.label for a in arms] == ["control", "max_draws=1"]
    df = effects(run_experiment(arms, tmp_path / "p"))
    assert sorted(df["strategy"].unique().to_list()) == ["always-draw", "random"]
    ad = df.filter((pl.col("strategy") == "always-draw") & (pl.col("metric") == "vp")).row(0, named=True)
    assert ad["n"] == 120 and ad["est"] < 0  # one draw a turn scores less than three


def test_the_field_may_not_repeat_the_focal_strategy():
    with pytest.raises(ConfigError, match="the field repeats the focal strategy 'random'"):
        plan_experiment(RunConfig(game="toy", players=2, strategies=("random",), games=10), control="random",
                        treat="vp+1")
    with pytest.raises(ConfigError, match="--treat 'coffee' needs the form field\\+n"):
        plan_experiment(RunConfig(game="toy", players=2, strategies=("random",), games=10), control="always-draw",
                        treat="coffee")


def test_a_strategy_axis_plays_whole_strategies_against_the_control(tmp_path):
    # `--vary strategy=ID` (e.g. citer against --control never-cite): the focal entry is the whole strategy id;
    # here an id that plays exactly like the control, so the paired difference is exactly zero
    arms = plan_experiment(_base(tmp_path, "w", ("random", "always-draw"), games=60), control="slow-random:ms=0",
                           vary="strategy=slow-random:ms=1")
    assert [a.label for a in arms] == ["control", "slow-random:ms=1"]
    assert [a.config.strategies for a in arms] == [("slow-random:ms=0", "random", "always-draw"),
                                                   ("slow-random:ms=1", "random", "always-draw")]
    assert arms[1].change == {"strategy": "slow-random:ms=1"}
    df = effects(run_experiment(arms, tmp_path / "w"))
    assert df["est"].to_list() == [0.0, 0.0] and df["n"].to_list() == [60, 60]
    with pytest.raises(ConfigError, match="the field repeats the focal strategy 'random'"):
        plan_experiment(_base(tmp_path, "x", ("random", "always-draw")), control="slow-random:ms=0",
                        vary="strategy=random")
    with pytest.raises(ConfigError, match="needs the form strategy=id1,id2"):
        plan_experiment(_base(tmp_path, "y", ("random", "always-draw")), control="slow-random:ms=0",
                        vary="strategy=")


def test_effect_lines_rank_the_effects_and_say_when_the_interval_includes_zero():
    from meeplelab.analysis.experiment import effect_line

    r = {"arm": "abjure-at:cycle=2", "strategy": "abjure-at", "est": -7.24, "low": -8.9, "high": -5.6, "n": 4800}
    assert effect_line(0, r, "never-abjure") == (
        "Largest effect: in arm abjure-at:cycle=2, abjure-at's win rate changes by -7.2 percentage points "
        "[-8.9, -5.6] against the control never-abjure (paired, 4,800 games).")
    r2 = dict(r, est=0.4, low=-1.2, high=2.0)
    line = effect_line(1, r2, "never-abjure")
    assert line.startswith("Second largest effect:") and line.endswith("; not resolved: the interval includes 0.")
    assert effect_line(2, r2, "x").startswith("Third largest effect:")


def test_every_arm_reports_its_side_effects_paired_against_the_control(tmp_path):
    """A known answer: a +3 start VP treatment of the focal player (``random``; no decision of
    the toy strategies looks at VP) moves its own final VP by exactly +3 and leaves every other strategy's
    final VP and the game length exactly unchanged, game and seat matched."""
    from meeplelab.analysis.experiment import side_effects

    arms = plan_experiment(_base(tmp_path, "e", ("slow-random:ms=0", "always-draw"), games=60), control="random",
                           treat="vp+3")
    out = run_experiment(arms, tmp_path / "e")
    t = side_effects(out)
    assert set(t["version"]) == {"vp+3"} and set(t["reference"]) == {"control"}
    vp = {r["strategy"]: r for r in t.filter(pl.col("metric") == "final VP").iter_rows(named=True)}
    assert sorted(vp) == ["always-draw", "random", "slow-random:ms=0"]
    assert vp["random"]["est"] == pytest.approx(3.0) and vp["random"]["low"] > 2.9
    for s in ("always-draw", "slow-random:ms=0"):
        assert vp[s]["est"] == 0.0 and vp[s]["low"] < 0 < vp[s]["high"] and vp[s]["n"] == 60
    assert all(r["design"].startswith("paired") for r in vp.values())
    length = t.filter(pl.col("metric") == "game length (turns)").row(0, named=True)
    assert length["est"] == 0.0 and length["n"] == 60
    # the seat spread's paired estimate counts every seat, the treated one too: with the same best and worst
    # seats in both arms it is the difference of the two spreads the columns show
    sp = t.filter(pl.col("metric") == "seat spread (points)").row(0, named=True)
    a, b = sp["strategy"].split(" (was ")
    if a.replace("seat ", "") == b.rstrip(")"):
        assert sp["est"] == pytest.approx(sp["value"] - sp["ref"])
    # the treated seat's VP from its start bonus is the changed quantity the Holm family finds first
    assert t.filter(pl.col("changed") & (pl.col("metric") == "final VP"))["strategy"].to_list() == ["random"]
    page = build_report([out / "control", out / "vp+3"], out / "report", sections=experiment_sections(out))
    md = (out / "report" / "report.md").read_text()
    sec = md[md.index("## Side effects of each arm (paired against the control)"):]
    assert "random's final VP: " in sec and "+3.00 [" in sec and page.is_file()
    csv = sorted((out / "report" / "tables").glob("*every-arm-minus-the-control*.csv"))
    assert len(csv) == 1 and "vp+3" in csv[0].read_text()


def test_an_experiment_with_no_report_plays_its_arms_and_report_writes_the_same_sections_later(tmp_path, capsys,
                                                                                                  monkeypatch):
    """``--no-report`` (for batch runs that report once at the end) plays every arm and writes no report;
    ``meeplelab report OUT`` then writes the experiment report the command would have written."""
    from tests.cli_run import run_cli

    out = tmp_path / "exp"
    argv = ["experiment", "--game", "toy", "--players", "2", "--strategies", "always-draw", "--control", "random",
            "--vary", "strategy=bank-at:n=3", "--games", "40", "--n-jobs", "1", "--seed", "5", "--out", out]
    code, said, err = run_cli(argv + ["--no-report"], capsys, monkeypatch)
    assert code == 0, err
    assert "no report (write it with: meeplelab report" in said and not (out / "report").exists()
    assert all((out / a / "manifest.json").is_file() for a in ("control", "bank-at_n=3"))
    code, said, err = run_cli(["report", out], capsys, monkeypatch)
    assert code == 0, err
    later = (out / "report" / "report.md").read_text()
    code, _, err = run_cli(argv + ["--overwrite"], capsys, monkeypatch)
    assert code == 0, err
    now = (out / "report" / "report.md").read_text()
    strip = lambda t: [ln for ln in t.splitlines() if not re.search(r"\d{4}-\d\d-\d\dT|seconds|written|UTC", ln)]  # noqa: E731
    assert strip(later) == strip(now)
    assert "## Effects" in now or "Effect" in now
