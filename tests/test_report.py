"""Reports: the HTML page opens in a real headless browser with every image loaded and no empty
table; sweeps chart each metric against the parameter (win rates in percent, whole-number ticks);
whole-number charts have integer ticks and bins; intervals are right."""

from __future__ import annotations

import re
import shutil

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest

from meeplelab.analysis.report import build_report
from meeplelab.analysis.stats import games_for_mean_width, games_for_rate_width, mean_t, wilson
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from tests.browser import check_page


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "run"
    simulate(RunConfig(game="toy", players=3, strategies=("random", "always-draw", "random"), games=400, seed=2,
                       batch_size=100, out=str(out)))
    return out


@pytest.fixture(scope="module")
def toy_report(toy_run, tmp_path_factory):
    """The report of :func:`toy_run`, built once for the tests that only read it."""
    return build_report([toy_run], tmp_path_factory.mktemp("rep") / "report")


@pytest.mark.browser
def test_report_page_loads_every_image_and_no_table_is_empty_in_headless_chromium(toy_report):
    page = toy_report
    assert page.name == "report.html" and (page.parent / "report.md").is_file()
    res = check_page(page.parent)
    assert res["images"] >= 5 and res["broken"] == []
    assert res["tables"] >= 5 and res["empty"] == []


def test_report_holds_provenance_and_assumed_parameters(toy_report):
    text = toy_report.read_text()
    assert "Provenance" in text and "seed 2" in text and "max_draws" in text
    md = (toy_report.parent / "report.md").read_text()
    assert "| strategy | games | wins | win rate % | 95% low | 95% high |" in md


def test_rebuilding_a_report_replaces_it_whole(toy_run, toy_report, tmp_path):
    dest = tmp_path / "r"
    shutil.copytree(toy_report.parent, dest)  # a report already built in the folder
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
    from meeplelab.analysis.sweep import sweep_table
    from meeplelab.play.sweep import run_sweep

    base = RunConfig(game="toy", players=2, strategies=("random",), games=300, seed=4, batch_size=300, out=str(tmp_path))
    run_sweep(base, {"rounds": ["2", "4"]}, tmp_path / "sw")
    df = sweep_table(tmp_path / "sw")
    turns = df.filter(pl.col("metric") == "turns").sort("rounds")
    assert turns["est"].to_list() == [4.0, 8.0]  # 2 seats x rounds
    # every game is exactly 4 turns longer: the paired interval keeps the rounding sd of whole turns
    # (1/sqrt(12)), t(0.975, 299) * 0.2887 / sqrt(300) = 0.033 turns, instead of the point [4, 4]
    assert turns["diff"].to_list() == [0.0, 4.0]
    assert np.isclose(turns["diff_low"][1], 4.0 - 0.0328, atol=2e-4) and np.isclose(turns["diff_high"][1], 4.0328, atol=2e-4)
    vp = df.filter(pl.col("metric") == "mean_vp").sort("rounds")
    assert vp["diff"][1] > 0 and vp["diff_low"][1] > 0  # more rounds, more VP, paired interval excludes 0


def test_sweep_report_shows_win_rates_in_percent_and_charts_whole_parameter_values(tmp_path):
    from meeplelab.analysis.load import load_runs
    from meeplelab.analysis.sweep import sweep_charts, sweep_sections, sweep_table
    from meeplelab.play.sweep import run_sweep

    base = RunConfig(game="toy", players=2, strategies=("random",), games=200, seed=4, batch_size=200, out=str(tmp_path))
    run_sweep(base, {"rounds": ["2", "3", "5"]}, tmp_path / "sw")
    df = sweep_table(tmp_path / "sw")
    runs = load_runs([tmp_path / "sw" / f"rounds={r}" for r in (2, 3, 5)])
    sec = next(s for s in sweep_sections(tmp_path / "sw")(runs) if s.title == "Parameter sweep")
    (cap, shown), = sec.tables
    assert cap == "Metrics by variant (win rates in percent, their differences in percentage points)"
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
    from meeplelab.analysis.figures import histogram, line_with_band

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


def _md_rows(md: str, caption: str) -> list[list[str]]:
    """Cells of the Markdown table under ``*caption*``."""
    lines = md.split(f"*{caption}*\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[2:]]


def test_missing_values_show_as_a_dash_never_as_nan_or_none():
    from meeplelab.analysis.page import TableFormat, _html_table, _md_table, format_table

    # a citation-payoff row with n = 1: no sd and no interval can be computed
    df = pl.DataFrame({"volumes": [1], "measure": ["cited_bright"], "n": [1], "mean": [1.0], "sd": [None],
                       "est": [1.0], "low": [float("nan")], "high": [float("inf")]},
                      schema_overrides={"sd": pl.Float64})
    cols, rows = format_table(df)
    assert cols == ["volumes", "measure", "n", "sd", "est", "low", "high"]  # mean repeats est: dropped
    assert rows == [["1", "cited_bright", "1", "—", "1.0", "—", "—"]]
    md, page = _md_table(df, "c"), _html_table(df, "c")
    for text in (md, page):
        assert "nan" not in text.lower() and "None" not in text and "inf" not in text
    # a strategy that never Abjured: its mean Abjure Cycle says so
    st = pl.DataFrame({"strategy": ["abjure-at:cycle=2", "never-abjure"], "mean_abjure_cycle": [2.0, None]})
    assert format_table(st, TableFormat(missing={"mean_abjure_cycle": "never"}))[1] == [
        ["abjure-at:cycle=2", "2"], ["never-abjure", "never"]]


def test_each_column_is_formatted_one_way():
    from meeplelab.analysis.page import TableFormat, format_table

    df = pl.DataFrame({"strategy": ["a", "b", "c", "d"], "n": [1234, 5, 60, 7], "wins": [24.0, 8.0, 5.0, 1.0],
                       "mean": [7.9, 7.8, -5.287, -14.9], "est": [7.9, 7.8, -5.287, -14.9],
                       "low": [7.0, 6.95, -6.0, -0.04], "high": [8.0, 9.0, -4.5, -3.0],
                       "ratio": [0.1234, 0.5, 0.25, 0.0], "ok": [True, False, True, True]})
    cols, rows = format_table(df)
    assert cols == ["strategy", "n", "wins", "est", "low", "high", "ratio", "ok"]
    assert [r[1] for r in rows] == ["1,234", "5", "60", "7"]  # counts: integers, thousands separators
    assert [r[2] for r in rows] == ["24", "8", "5", "1"]  # whole-number floats as integers
    assert [r[3] for r in rows] == ["7.9", "7.8", "-5.3", "-14.9"]  # an estimate: one decimal throughout
    assert [r[4] for r in rows] == ["7.0", "7.0", "-6.0", "0.0"]  # its interval the same; no "-0.0"
    assert [r[6] for r in rows] == ["0.123", "0.500", "0.250", "0.000"]  # ratios below 1: three places
    assert [r[7] for r in rows] == ["yes", "no", "yes", "yes"]
    assert [r[3] for r in format_table(df, TableFormat(decimals={"est": 2}))[1]] == ["7.90", "7.80", "-5.29", "-14.90"]
    # mean is kept when it differs from est
    assert "mean" in format_table(df.with_columns(pl.col("mean") + 1))[0]


def test_report_numbers_seats_from_one_and_renders_inline_code(toy_run, tmp_path):
    page = build_report([toy_run], tmp_path / "r")
    md = (tmp_path / "r" / "report.md").read_text()
    cap = "Win rate by seat (percent; seats numbered from 1 = first player, as in replays); fair = 1/players"
    assert md.count("seats numbered from 1 = first player") == 1
    assert [r[1] for r in _md_rows(md, cap)] == ["1", "2", "3"]
    # strategies in the order of their mean VP, seats within each
    rows = _md_rows(md, "Mean final VP by strategy and seat (strategies in the order of their mean VP)")
    vp = _md_rows(md, "Mean final VP by strategy")
    assert [r[0] for r in rows] == [s for s in (vp[0][0], vp[1][0]) for _ in range(1 if s == "always-draw" else 2)]
    assert [r[1] for r in rows if r[0] == "random"] == ["1", "3"]
    # seat 1's row is the data's seat 0
    g = pl.read_parquet(str(toy_run / "games" / "*.parquet"))
    wins0 = g.filter(pl.col("seat") == 0)["win_share"].sum()
    assert float(_md_rows(md, cap)[0][3].replace(",", "")) == pytest.approx(wins0, abs=0.05)
    html = page.read_text()
    assert "by <code>ended_by</code>" in html and "`" not in html
    tables = "\n".join(ln for ln in md.splitlines() if ln.startswith("|"))
    assert not re.search(r"\|\s*(None|nan|NaN|inf)\s*\|", tables)
    assert "| strategy | games | wins | win rate % | 95% low | 95% high |" in md
    assert "| strategy | sample (n) | sd | mean VP | 95% low | 95% high |" in md  # no mean column repeating est


def test_provenance_of_an_interrupted_run_says_how_many_games_it_holds(tmp_path):
    import tests.toygame as toy

    out = tmp_path / "run"
    toy.Interrupting.calls = 0
    with pytest.raises(KeyboardInterrupt):
        simulate(RunConfig(game="toy", players=3, strategies=("interrupting:after=130",), games=200, seed=1,
                           batch_size=10, chunk_size=10, n_jobs=1, out=str(out)))
    toy.Interrupting.calls = -10**9
    done = pl.read_parquet(str(out / "games" / "*.parquet"))["game"].n_unique()
    assert 0 < done < 200
    build_report([out], tmp_path / "r")
    md = (tmp_path / "r" / "report.md").read_text()
    assert f"Run run: {done:,} of 200 games (run incomplete) of toy, 3 players" in md
    assert "200 games of toy" not in md
