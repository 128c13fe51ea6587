"""Reports: the HTML page opens in a real headless browser with every image loaded and no empty
table; sweeps chart each metric against the parameter (win rates in percent, whole-number ticks);
whole-number charts have integer ticks and bins; intervals are right."""

from __future__ import annotations

import matplotlib.pyplot as plt
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


def test_sweep_report_shows_win_rates_in_percent_and_charts_whole_parameter_values(tmp_path):
    from analysis.load import load_runs
    from analysis.sweep import sweep_charts, sweep_sections, sweep_table
    from sim.sweep import run_sweep

    base = RunConfig(game="toy", players=2, strategies=("random",), games=200, seed=4, batch_size=200, out=str(tmp_path))
    run_sweep(base, {"rounds": ["2", "3", "5"]}, tmp_path / "sw")
    df = sweep_table(tmp_path / "sw")
    runs = load_runs([tmp_path / "sw" / f"rounds={r}" for r in (2, 3, 5)])
    sec = sweep_sections(tmp_path / "sw")(runs)[0]
    (cap, shown), = sec.tables
    assert cap == "Metrics by variant (win rates and their differences in percent)"
    assert shown.columns[:3] == ["variant", "metric", "unit"]
    for metric, unit, scale, places in (("seat1_win_rate", "%", 100, 1), ("turns", "turns", 1, 3)):
        raw = df.filter(pl.col("metric") == metric).sort("rounds")
        got = shown.filter(pl.col("metric") == metric).sort("rounds")
        assert got["unit"].to_list() == [unit] * 3
        for c in ("est", "low", "high", "diff", "diff_low", "diff_high"):
            assert np.allclose(got[c].to_numpy(), np.round(raw[c].to_numpy() * scale, places)), (metric, c)
    assert 20 < shown.filter(pl.col("metric") == "seat1_win_rate")["est"][0] < 80  # percent, not a fraction
    for stem, fig, _ in sweep_charts(tmp_path / "sw"):
        ax = fig.axes[0]
        assert list(ax.get_xticks()) == [2.0, 3.0, 5.0], stem
        assert [t.get_text() for t in ax.get_xticklabels()] == ["2", "3", "5"], stem
        plt.close(fig)


def test_charts_of_whole_numbers_get_integer_ticks_and_gapless_integer_bins():
    from analysis.figures import histogram, line_with_band

    ax = line_with_band([1, 2, 3, 4], [1.0, 2.0, 3.0, 4.0], [0.5, 1.5, 2.5, 3.5], [1.5, 2.5, 3.5, 4.5],
                        title="t", xlabel="Cycle", ylabel="y").axes[0]
    assert list(ax.get_xticks()) == [1.0, 2.0, 3.0, 4.0]
    ax = line_with_band(np.arange(-6, 7), np.zeros(13), -np.ones(13), np.ones(13), title="t", xlabel="x",
                        ylabel="y").axes[0]
    assert np.allclose(ax.get_xticks(), np.round(ax.get_xticks()))
    ax = line_with_band([0.5, 1.0, 1.5], [1.0, 2.0, 3.0], [0.5, 1.5, 2.5], [1.5, 2.5, 3.5], title="t",
                        xlabel="x", ylabel="y").axes[0]
    assert not np.allclose(ax.get_xticks(), np.round(ax.get_xticks()))  # fractional values keep fine ticks
    # game lengths 40..60 turns, every length present: one bin per length, edges at k - 0.5, no empty bin
    turns = np.repeat(np.arange(40, 61), 3)
    ax = histogram(turns, title="Game length", xlabel="turns per game").axes[0]
    left = sorted(p.get_x() for p in ax.patches)
    assert left == [k - 0.5 for k in range(40, 61)]
    assert all(p.get_width() == 1.0 and p.get_height() == 3 for p in ax.patches)
    assert np.allclose(ax.get_xticks(), np.round(ax.get_xticks()))
    # a long range: bins two whole numbers wide, still aligned and without gaps
    ax = histogram(np.arange(100, 160), title="t", xlabel="x").axes[0]
    assert sorted(p.get_x() for p in ax.patches) == [k - 0.5 for k in range(100, 160, 2)]
    assert all(p.get_height() == 2 for p in ax.patches)
    plt.close("all")
