"""Abjure-timing analysis on small real runs."""

from __future__ import annotations

import re
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest

from meeplelab.analysis import galileos_truth as A
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.report import build_report
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate

GAMES = 200


def _run(path, strategies, seed=21, games=GAMES):
    simulate(RunConfig(game="galileos-truth", players=2, strategies=tuple(strategies), games=games, seed=seed,
                       batch_size=games, out=str(path)))
    return path


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("gt_abjure")
    mixed = _run(d / "mixed", ["abjure-at:cycle=2", "abjure-at:cycle=4"])
    a = _run(d / "abj1", ["abjure-at:cycle=1", "never-abjure"], seed=33)
    b = _run(d / "never", ["never-abjure", "never-abjure"], seed=33)
    return {"mixed": mixed, "a": a, "b": b}


def _check_interval(df, est, low, high):
    e, lo, hi = (df[c].to_numpy().astype(float) for c in (est, low, high))
    ok = ~np.isnan(lo)
    assert (lo[ok] <= e[ok] + 1e-9).all() and (e[ok] <= hi[ok] + 1e-9).all()


def test_abjure_rows_match_the_turns_table(runs_dir):
    runs = load_runs([runs_dir["mixed"]])
    tab = A.abjure_table(runs)
    assert tab.height == 2 * GAMES
    n_events = runs.events.filter(pl.col("kind") == "abjure").select(pl.len()).collect().item()
    n_turns = runs.turns.filter(pl.col("main_action") == "abjure").select(pl.len()).collect().item()
    assert tab["abjure_cycle"].is_not_null().sum() == n_events == n_turns
    assert n_events > GAMES  # both seats abjure in most games
    # the strategies' chosen Cycles
    by_seat = tab.filter(pl.col("abjure_cycle").is_not_null()).group_by("strategy").agg(
        pl.col("abjure_cycle").unique())
    got = {s: sorted(c) for s, c in by_seat.rows()}
    assert got == {"abjure-at:cycle=2": [2], "abjure-at:cycle=4": [4]}


def test_outcome_by_cycle_has_the_chosen_cycles_and_valid_intervals(runs_dir):
    runs = load_runs([runs_dir["mixed"]])
    df = A.outcome_by_abjure_cycle(runs)
    assert set(df["abjured"]) <= {"2", "4", "never"} and {"2", "4"} <= set(df["abjured"])
    assert df["games"].sum() == 2 * GAMES
    assert ((df["win_rate"] >= 0) & (df["win_rate"] <= 1)).all()
    _check_interval(df, "win_rate", "win_low", "win_high")
    _check_interval(df, "vp", "vp_low", "vp_high")
    # the wins are exactly the games table's win shares
    g = runs.games.collect()
    assert df["wins"].sum() == pytest.approx(g["win_share"].sum())
    A.outcome_chart(df)
    A.outcome_chart(df, "vp")


def test_suspicion_trajectories(runs_dir):
    runs = load_runs([runs_dir["mixed"]])
    cyc = A.suspicion_by_cycle(runs)
    assert set(cyc["cycle"]) == {1, 2, 3, 4, 5}
    _check_interval(cyc, "est", "low", "high")
    around = A.suspicion_around_abjure(runs, window=3)
    assert set(around["rel_turn"]) <= set(range(-3, 4)) and 0 in set(around["rel_turn"])
    # Abjure drops Suspicion: mean at the Abjure turn is below the turn before
    for lab in ("2", "4"):
        sub = around.filter(pl.col("abjured") == lab)
        before = sub.filter(pl.col("rel_turn") == -1)["est"].item()
        at = sub.filter(pl.col("rel_turn") == 0)["est"].item()
        assert at < before
    A.trajectory_chart(cyc)
    A.trajectory_chart(around, "rel_turn")


def _tick_labels(ax):
    ax.figure.canvas.draw()
    return [t.get_text().replace("\u2212", "-") for t in ax.get_xticklabels()]


def test_suspicion_charts_label_cycles_and_turns_with_whole_numbers():
    rows = [{"abjured": lab, "cycle": c, "n": 10, "est": 2.0 + c, "low": 1.0 + c, "high": 3.0 + c}
            for lab in ("2", "never") for c in range(1, 6)]
    ax = A.trajectory_chart(pl.DataFrame(rows)).axes[0]
    assert _tick_labels(ax) == ["1", "2", "3", "4", "5"]
    plt.close(ax.figure)
    rows = [{"abjured": "2", "rel_turn": r, "n": 10, "est": 5.0, "low": 4.0, "high": 6.0} for r in range(-6, 7)]
    ax = A.trajectory_chart(pl.DataFrame(rows), "rel_turn").axes[0]
    ticks = ax.get_xticks()
    assert len(ticks) >= 3 and np.allclose(ticks, np.round(ticks))
    assert all(t.lstrip("-").isdigit() for t in _tick_labels(ax))
    plt.close(ax.figure)


def test_copernicans_hit(runs_dir):
    runs = load_runs([runs_dir["mixed"]])
    df = A.copernicans_hit_effect(runs)
    assert set(df["copernicans_hit"]) <= {0, 1}
    n_ab = A.abjure_table(runs)["abjure_cycle"].is_not_null().sum()
    assert df["games"].sum() == n_ab
    _check_interval(df, "win_rate", "win_low", "win_high")
    # cycle-2 abjurers always hit the still-Copernican cycle-4 player
    hit = A.abjure_table(runs).filter(pl.col("abjured") == "2")["copernicans_hit"]
    assert (hit == 1).all()
    A.copernicans_chart(df)


def test_paired_vs_never(runs_dir):
    df = A.paired_vs_never(runs_dir["a"], runs_dir["b"], seat=0)
    assert df["metric"].to_list() == ["vp", "win"]
    assert df["n"].to_list() == [GAMES, GAMES]
    assert df["strategy_a"][0] == "abjure-at:cycle=1" and df["strategy_b"][0] == "never-abjure"
    _check_interval(df, "est", "low", "high")
    # the estimate is the difference of the two runs' means of seat 0
    ga = load_runs([runs_dir["a"]]).games.filter(pl.col("seat") == 0).collect()
    gb = load_runs([runs_dir["b"]]).games.filter(pl.col("seat") == 0).collect()
    vp = df.filter(pl.col("metric") == "vp")
    assert vp["est"].item() == pytest.approx(ga["vp"].mean() - gb["vp"].mean())
    with pytest.raises(ValueError):
        A.paired_vs_never(runs_dir["a"], runs_dir["mixed"], seat=0)
    A.paired_chart(df)


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_report_includes_the_section(runs_dir, tmp_path):
    page = build_report([runs_dir["mixed"]], tmp_path / "rep")
    html = page.read_text()
    assert "Abjure timing: outcome by Cycle" in html and "Abjure timing: strategies compared" in html
    page2 = build_report([runs_dir["a"], runs_dir["b"]], tmp_path / "rep2")
    html2 = page2.read_text()
    # the title gives the strategy its words, its code id in the tooltip
    assert 'Abjure timing: paired against <span class="code" title="never-abjure">Never Abjure</span>' in html2
    assert len(list((tmp_path / "rep2" / "figures").glob("*abjure*.png"))) >= 4


def _md_rows(md: str, caption: str) -> list[dict]:
    """Rows of the Markdown table under ``*caption*`` as ``{column: cell}``."""
    lines = md.split(f"*{caption}*\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    cols = [c.strip() for c in lines[0].strip("|").split("|")]
    return [dict(zip(cols, (c.strip() for c in ln.strip("|").split("|")))) for ln in lines[2:]]


def test_report_tables_say_never_for_strategies_that_never_abjure_and_hold_no_nan(runs_dir, tmp_path):
    build_report([runs_dir["a"]], tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    rows = {r["strategy"]: r for r in _md_rows(
        md, "Per strategy (rates in %; the mean Abjure Cycle over the seat-results that Abjured)")}
    assert rows["never-abjure"]["mean Abjure Cycle"] == "never" and rows["never-abjure"]["abjurers"] == "0"
    assert rows["abjure-at:cycle=1"]["mean Abjure Cycle"] == "1"
    assert rows["never-abjure"]["Abjure rate %"] == "0.0"
    rates = [float(r["win rate %"]) for r in rows.values()]
    assert rates == sorted(rates, reverse=True)  # ranked by win rate
    tables = "\n".join(ln for ln in md.splitlines() if ln.startswith("|"))
    assert not re.search(r"\|\s*(None|nan|NaN|inf)\s*\|", tables)
    plt.close("all")


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_paired_table_numbers_the_seat_from_one_and_gives_win_differences_in_points(runs_dir, tmp_path):
    build_report([runs_dir["a"], runs_dir["b"]], tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    rows = {r["metric"]: r for r in _md_rows(md, "Paired differences (vp in VP, win in percentage points)")}
    assert rows["vp"]["seat"] == rows["win"]["seat"] == "1"  # the data's seat 0, the first player
    df = A.paired_vs_never(runs_dir["a"], runs_dir["b"], seat=0)
    win = df.filter(pl.col("metric") == "win").row(0, named=True)
    assert rows["win"]["difference (strategy minus never-abjure)"] == f"{round(win['est'] * 100, 1):.1f}"
    assert rows["win"]["strategy's mean"] == f"{round(win['mean_a'] * 100, 1):.1f}"
    plt.close("all")
