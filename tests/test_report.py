"""Reports: the HTML page opens in a real headless browser with every image loaded and no empty
table; sweeps chart each metric against the parameter; intervals are right."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.report import build_report
from analysis.stats import games_for_mean_width, games_for_rate_width, mean_t, wilson
from sim.config import RunConfig
from sim.runner import simulate
from tests.browser import check_page


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "run"
    simulate(RunConfig(game="toy", players=3, strategies=("random", "always-draw", "random"), games=400, seed=2,
                       batch_size=100, out=str(out)))
    return out


def test_report_page_loads_every_image_and_no_table_is_empty_in_headless_chromium(toy_run, tmp_path):
    page = build_report([toy_run], tmp_path / "report")
    assert page.name == "report.html" and (tmp_path / "report" / "report.md").is_file()
    res = check_page(page.parent)
    assert res["images"] >= 5 and res["broken"] == []
    assert res["tables"] >= 5 and res["empty"] == []


def test_report_holds_provenance_and_assumed_parameters(toy_run, tmp_path):
    page = build_report([toy_run], tmp_path / "r")
    text = page.read_text()
    assert "Provenance" in text and "seed 2" in text and "max_draws" in text
    md = (tmp_path / "r" / "report.md").read_text()
    assert "| strategy | games | wins | est | low | high |" in md


def test_rebuilding_a_report_replaces_it_whole(toy_run, tmp_path):
    dest = tmp_path / "r"
    build_report([toy_run], dest)
    (dest / "stale.txt").write_text("old")
    build_report([toy_run], dest)
    assert not (dest / "stale.txt").exists() and (dest / "report.html").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_wilson_interval_matches_the_textbook_value():
    p, lo, hi = wilson(81, 263)  # Wilson (1927) style worked example values
    assert round(float(p), 4) == 0.3080
    assert round(float(lo), 4) == 0.2553 and round(float(hi), 4) == 0.3662


def test_t_interval_of_a_small_sample():
    m, lo, hi = mean_t([2.0, 4.0, 6.0])
    assert m == 4.0 and round(lo, 3) == -0.968 and round(hi, 3) == 8.968


def test_games_needed_for_a_win_rate_and_a_vp_difference():
    assert games_for_rate_width(0.02) == 9604  # +-1 point at p = 0.5
    assert games_for_rate_width(0.10, p=0.3) == 323
    assert games_for_mean_width(2.0, sd=10.0) == 385


def test_sweep_charts_each_metric_with_paired_differences(tmp_path):
    from analysis.sweep import sweep_table
    from sim.sweep import run_sweep

    base = RunConfig(game="toy", players=2, strategies=("random",), games=300, seed=4, batch_size=300, out=str(tmp_path))
    run_sweep(base, {"rounds": ["2", "4"]}, tmp_path / "sw")
    df = sweep_table(tmp_path / "sw")
    turns = df.filter(pl.col("metric") == "turns").sort("rounds")
    assert turns["est"].to_list() == [4.0, 8.0]  # 2 seats x rounds
    assert turns["diff"].to_list() == [0.0, 4.0] and np.isclose(turns["diff_low"][1], 4.0)
    vp = df.filter(pl.col("metric") == "mean_vp").sort("rounds")
    assert vp["diff"][1] > 0 and vp["diff_low"][1] > 0  # more rounds, more VP, paired interval excludes 0
