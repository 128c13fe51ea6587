"""Tournaments (play/tournament.py) and their tables and report (analysis/tournament*.py) on the toy game."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from meeplelab.analysis.load import load_runs
from meeplelab.analysis.tournament import bradley_terry, pairwise, payoff_data
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.play.tournament import lineup_folders, lineups
from meeplelab.studies.tournament import run_tournament
from tests.test_cli_errors import expect_error, run_cli


def raw_games(out) -> pl.DataFrame:
    return load_runs(lineup_folders(out)).games.collect()


def test_tournament_lineups_cover_every_seat_arrangement():
    assert lineups(["a", "b"], 2) == [("a", "b"), ("b", "a")]
    assert len(lineups(["a", "b", "c"], 3)) == 6
    four = lineups(["a", "b"], 4)
    assert len(four) == 14 and all({"a", "b"} == set(x) for x in four)
    every = lineups(["a", "b", "c"], 3, every_profile=True)
    assert len(every) == 27 - 3 and ("a", "a", "b") in every and ("a", "a", "a") not in every
    with pytest.raises(ConfigError, match="^--strategies a: a tournament needs at least two strategies, comma separated$"):
        lineups(["a"], 2)


def test_tournament_writes_parquet_summary_with_intervals(tmp_path):
    t = run_tournament("toy", ["random", "always-draw"], 2, 200, 5, tmp_path / "t", n_jobs=1)
    s = pl.read_parquet(tmp_path / "t" / "summary.parquet")
    assert s.equals(t["summary"]) and s.height == 2
    assert (s["win_low"] <= s["win_rate"]).all() and (s["win_rate"] <= s["win_high"]).all()
    assert s["games"].to_list() == [400, 400] and s["seat_results"].to_list() == [400, 400]
    seats = pl.read_parquet(tmp_path / "t" / "seats.parquet")
    assert seats.height == 4 and seats["seat_results"].to_list() == [200] * 4
    assert json.loads((tmp_path / "t" / "tournament.json").read_text())["status"] == "complete"


def test_fair_share_arithmetic_when_a_strategy_holds_several_seats(tmp_path):
    out = tmp_path / "t"
    t = run_tournament("toy", ["random", "always-draw"], 4, 30, 2, out, n_jobs=1)
    s = {r["strategy"]: r for r in t["summary"].iter_rows(named=True)}
    g = raw_games(out)
    # 14 lineups (1, 2 or 3 seats of a strategy: 4 + 6 + 4 arrangements); each strategy sits in every game
    assert len(lineup_folders(out)) == 14
    for name in ("random", "always-draw"):
        mine = g.filter(pl.col("strategy") == name)
        assert s[name]["games"] == 14 * 30 and s[name]["seat_results"] == (4 * 1 + 6 * 2 + 4 * 3) * 30 == mine.height
        assert s[name]["fair"] == pytest.approx(0.25)
        assert s[name]["win_rate"] == pytest.approx(mine["win_share"].sum() / mine.height)
        assert s[name]["x_fair"] == pytest.approx(s[name]["win_rate"] / 0.25)
        assert s[name]["game_fair"] == pytest.approx(28 / 56)  # mean seats held / players over the lineups
        assert s[name]["game_win_rate"] == pytest.approx(mine["win_share"].sum() / (14 * 30))
        assert s[name]["mean_rank"] == pytest.approx(mine["rank"].cast(pl.Float64).mean())
    # every game's win shares add to 1: seat-result win rates weighted by seat-results give the games
    total = sum(r["win_rate"] * r["seat_results"] for r in s.values())
    assert total == pytest.approx(14 * 30)
    assert s["always-draw"]["game_win_rate"] + s["random"]["game_win_rate"] == pytest.approx(1.0)
    # the seat-result rate of the strong strategy is far above fair, and the game rate above its fair half
    assert s["always-draw"]["win_rate"] > 0.3 and s["always-draw"]["game_win_rate"] > 0.5


def test_pairwise_counts_and_rates_match_the_games(tmp_path):
    out = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 40, 3, out, n_jobs=1)
    g = raw_games(out)
    pw = pairwise(load_runs(lineup_folders(out)).games)
    assert pw.height == 6 and set(pw["games"].to_list()) == {80}  # two lineups (both seat orders) per pair
    for r in pw.iter_rows(named=True):
        both = g.group_by("run").agg(pl.col("strategy")).filter(
            pl.col("strategy").list.contains(r["row"]) & pl.col("strategy").list.contains(r["column"]))["run"]
        mine = g.filter(pl.col("run").is_in(both.to_list()) & (pl.col("strategy") == r["row"]))
        assert mine.height == r["games"] and r["wins"] == pytest.approx(mine["win_share"].sum())  # 2 seats: ahead = won
        assert r["low"] <= r["est"] <= r["high"]
    back = {(r["row"], r["column"]): r["wins"] for r in pw.iter_rows(named=True)}
    assert all(back[a, b] + back[b, a] == 80 for a, b in back)


def test_pairwise_at_three_seats_counts_every_game_of_the_pair(tmp_path):
    out = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw", "greedy-vp"], 3, 10, 3, out, n_jobs=1)
    pw = pairwise(load_runs(lineup_folders(out)).games)
    assert set(pw["games"].to_list()) == {60}  # all three sit in each of 6 lineups x 10 games


def test_bradley_terry_recovers_known_strengths():
    p = np.array([1.0, 2.0, 4.0])
    n = 1e6
    wins = n * p[:, None] / (p[:, None] + p[None, :])
    np.fill_diagonal(wins, 0)
    b = bradley_terry(wins)
    np.testing.assert_allclose(b - b[0], np.log(p / p[0]), atol=1e-4)
    assert b.mean() == pytest.approx(0.0, abs=1e-12)


def test_payoff_table_at_four_seats_is_complete_and_sums_to_one(tmp_path):
    out = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw"], 4, 20, 1, out, n_jobs=1)
    table, sums, cnt = payoff_data(load_runs(lineup_folders(out)).games, ["random", "always-draw"], 4)
    assert table.complete and sums.shape == (20, 5, 2)
    # seats x payoff per seat adds to 1 in every profile (a game's win shares add to 1)
    np.testing.assert_allclose((table.counts * np.nan_to_num(table.payoffs)).sum(axis=1), 1.0)
    assert cnt.sum() == 14 * 20 * 4


def test_three_seat_tournament_of_distinct_lineups_has_no_metagame_but_every_profile_has(tmp_path):
    out = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw", "greedy-vp"], 3, 8, 1, out, n_jobs=1)
    table, _, _ = payoff_data(load_runs(lineup_folders(out)).games, ["random", "always-draw", "greedy-vp"], 3)
    assert not table.complete and (2, 1, 0) in table.missing
    out2 = tmp_path / "t2"
    run_tournament("toy", ["random", "always-draw", "greedy-vp"], 3, 8, 1, out2, n_jobs=1, every_profile=True)
    table, _, _ = payoff_data(load_runs(lineup_folders(out2)).games, ["random", "always-draw", "greedy-vp"], 3)
    assert table.complete


def test_resume_completes_an_interrupted_tournament_with_the_same_games(tmp_path, monkeypatch):
    import meeplelab.play.tournament as st

    ref = run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 30, 4, tmp_path / "ref", n_jobs=1)
    out = tmp_path / "t"
    real = st.simulate
    played = []

    def interrupt_third(cfg, **kw):
        if cfg.out.endswith("lineup-02"):
            raise KeyboardInterrupt
        played.append(cfg.out)
        return real(cfg, **kw)

    monkeypatch.setattr(st, "simulate", interrupt_third)
    with pytest.raises(KeyboardInterrupt):
        run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 30, 4, out, n_jobs=1)
    assert json.loads((out / "tournament.json").read_text())["status"] == "interrupted"
    with pytest.raises(RunFolderError, match="holds another tournament: use --resume to complete it"):
        run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 30, 4, out, n_jobs=1)
    with pytest.raises(RunFolderError, match=re.escape("cannot resume: the tournament in the folder has --games 30, "
                                                       "this tournament has --games 40")):
        run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 40, 4, out, n_jobs=1, resume=True)
    monkeypatch.setattr(st, "simulate", real)
    before = (out / "lineup-00" / "manifest.json").read_text()
    t = run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 30, 4, out, n_jobs=1, resume=True)
    assert (out / "lineup-00" / "manifest.json").read_text() == before  # a finished lineup is not played again
    # the same games, row for row; the summaries agree up to the order polars sums floats in
    assert (load_runs(sorted(out.glob("lineup-*"))).games.collect().drop("run").sort(["game", "seat"])
            .equals(load_runs(sorted((tmp_path / "ref").glob("lineup-*"))).games.collect().drop("run")
                    .sort(["game", "seat"])))
    for name in ("summary", "pairwise"):
        assert_frame_equal(t[name], ref[name], check_exact=False, rel_tol=1e-12, abs_tol=1e-12)
    assert json.loads((out / "tournament.json").read_text())["status"] == "complete"


def test_resume_with_nothing_to_resume_is_refused(tmp_path):
    with pytest.raises(RunFolderError, match="nothing to resume"):
        run_tournament("toy", ["random", "always-draw"], 2, 10, 0, tmp_path / "t", n_jobs=1, resume=True)


def test_tournament_overwrite_leaves_no_lineup_of_a_larger_earlier_tournament(tmp_path):
    out = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 20, 5, out, n_jobs=1)
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == [f"lineup-{i:02d}" for i in range(6)]
    with pytest.raises(RunFolderError, match="holds another tournament: use --resume to complete it, --overwrite"):
        run_tournament("toy", ["random", "always-draw"], 2, 20, 5, out, n_jobs=1)
    t = run_tournament("toy", ["random", "always-draw"], 2, 20, 5, out, n_jobs=1, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == ["lineup-00", "lineup-01", "lineups.parquet", "pairwise.parquet",
                                                      "seats.parquet", "summary.parquet", "tournament.json"]
    assert set(pl.read_parquet(out / "lineups.parquet")["run"]) == {"lineup-00", "lineup-01"}
    assert set(t["summary"]["strategy"]) == {"random", "always-draw"}


def test_tournament_overwrite_deletes_nothing_when_a_lineup_folder_holds_other_files(tmp_path):
    out = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 20, 5, out, n_jobs=1)
    (out / "lineup-04" / "notes.txt").write_text("mine")
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    with pytest.raises(RunFolderError, match=re.escape(f"'{out / 'lineup-04'}' is not a run folder (holds 'notes.txt')")):
        run_tournament("toy", ["random", "always-draw"], 2, 20, 5, out, n_jobs=1, overwrite=True)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before


def test_terminal_table_numbers_seats_from_one_and_shows_percent():
    from meeplelab.analysis.tournament import format_terminal

    text = format_terminal(pl.DataFrame({"strategy": ["a", "a"], "seat": [0, 1], "fair": [0.5, 0.5],
                                         "win_rate": [0.25, 0.5], "seat_results": [1200, 1200]}))
    lines = text.splitlines()
    assert lines[0].split() == ["strategy", "seat", "fair", "%", "win_rate", "%", "seat_results"]
    assert [ln.split() for ln in lines[2:]] == [["a", "1", "50.0", "25.0", "1,200"], ["a", "2", "50.0", "50.0", "1,200"]]


def test_cli_tournament_says_games_per_lineup_and_fair_share_and_reports(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t"
    code, text, err = run_cli(["tournament", "--game", "toy", "--strategies", "random,always-draw", "--players", "3",
                               "--games", "12", "--n-jobs", "1", "--out", str(out)], capsys, monkeypatch)
    assert code == 0, err
    assert "6 lineups x 12 games per lineup = 72 games, 216 seat-results; fair share 1/3 = 33.3% per seat-result" in text
    head = next(ln for ln in text.splitlines() if ln.startswith("strategy"))
    assert head.split()[:6] == ["strategy", "games", "seat_results", "fair", "%", "win_rate"]
    md = (out / "report" / "report.md").read_text()
    for title in ("## Win rate against the fair share", "## Head-to-head", "## Ratings", "## Seat effect",
                  "## Metagame", "Symmetric Nash equilibrium mix by replicator dynamics"):
        assert title in md
    assert "Strategies sit in fixed seats" not in md
    assert md.startswith("# meeplelab tournament report: toy\n")
    assert len(list((out / "report" / "figures").glob("*.png"))) == 5


def test_report_on_a_tournament_folder_reports_the_tournament_as_a_whole(tmp_path, capsys, monkeypatch):
    t = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw", "greedy-vp"], 3, 6, 0, t, n_jobs=1)
    code, text, err = run_cli(["report", str(t)], capsys, monkeypatch)
    assert code == 0, err and text.strip() == f"wrote {t / 'report' / 'report.html'}"
    md = (t / "report" / "report.md").read_text()
    assert "18 lineups" not in md and "6 lineups (every seat arrangement) of 6 games each (games per lineup)" in md
    assert "At 3+ seats play the tournament with `--every-profile`" in md  # distinct lineups: no 3-seat metagame
    assert "<h2>Head-to-head</h2>" in (t / "report" / "report.html").read_text()


def test_report_on_a_two_seat_tournament_shows_the_dominated_strategy(tmp_path):
    from meeplelab.analysis.tournament_report import build_tournament_report

    t = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw"], 2, 150, 0, t, n_jobs=1)
    md = build_tournament_report(t, resamples=50).with_suffix(".md").read_text()
    assert "Symmetric Nash equilibrium mix by the maximin linear program" in md and "always-draw 100%" in md
    assert "random (dominated in 100% of resamples; by always-draw in 100%)" in md
    assert "percentile bootstrap 95% over 50 resamples of the seeds" in md and "{mg." not in md  # all fields filled


def _pw(rates: dict, games: int = 400) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A summary (strategy order) and head-to-head table from {(row, column): row-ahead rate}."""
    from meeplelab.analysis.stats import wilson

    rows = []
    for (a, b), p in rates.items():
        for r, c, q in ((a, b, p), (b, a, 1 - p)):
            est, lo, hi = wilson(q * games, games)
            rows.append({"row": r, "column": c, "games": games, "wins": q * games, "est": float(est),
                         "low": float(lo), "high": float(hi)})
    order = list(dict.fromkeys(x for pair in rates for x in pair))
    return pl.DataFrame({"strategy": order}), pl.DataFrame(rows)


def test_dominance_answer_says_yes_only_when_every_head_to_head_interval_is_above_half():
    from meeplelab.analysis.tournament_report import dominance_answer, games_to_resolve

    summ, pw = _pw({("h", "w"): 0.66, ("h", "o"): 0.70, ("w", "o"): 0.6})
    assert dominance_answer(summ, pw) == ("Is there a dominant strategy? Yes: h finishes ahead of every other strategy "
                                          "head to head, every 95% interval above 50% (closest: w, 66.0% [61.2, 70.5] "
                                          "of 400 games).")
    summ, pw = _pw({("h", "w"): 0.53, ("h", "o"): 0.70, ("w", "o"): 0.6})
    text = dominance_answer(summ, pw)
    assert text.startswith("Is there a dominant strategy? Not resolved at this size: h has the highest win rate")
    assert f"against w 53.0% [48.1, 57.8] of 400 games, about {games_to_resolve(0.53):,} games resolve" in text
    assert games_to_resolve(0.53) == 1064 and games_to_resolve(0.5) is None  # (1.96 * sqrt(.53 * .47) / .03)^2
    summ, pw = _pw({("h", "w"): 0.40, ("h", "o"): 0.70, ("w", "o"): 0.4})  # a cycle: no strategy beats all
    assert "No: the strategy with the highest win rate, h, finishes behind w head to head (40.0% [35.3, 44.9]" \
        in dominance_answer(summ, pw)


def test_report_does_not_call_a_near_tie_dominated_and_answers_first(tmp_path):
    from meeplelab.analysis.tournament_report import build_tournament_report

    t = tmp_path / "t"
    run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 150, 0, t, n_jobs=1)
    md = build_tournament_report(t, resamples=50).with_suffix(".md").read_text()
    heads = re.findall(r"^## (.+)$", md, flags=re.M)
    assert heads[:3] == ["Tournament", "Answer", "Win rate against the fair share"]
    answer = md.split("## Answer")[1].split("##")[0]
    # always-draw vs greedy-vp is 53.0% [47.4, 58.6] of 300 games: neither dominant nor settled as dominated
    assert "Not resolved at this size: always-draw has the highest win rate" in answer
    assert "against greedy-vp 53.0% [47.4, 58.6] of 300 games, about 1,064 games resolve" in answer
    # random is dominated by both others: both are named, not only the first found
    assert "Strictly dominated in at least 95% of resamples: random (dominated in 100% of resamples; by always-draw " \
           "in 100%, greedy-vp in 100%); dominated on the point estimates but not in at least 95% of resamples (not " \
           "settled at this size): greedy-vp (80%; by always-draw in 80%)" in answer
    # every answer names its field, the one meaning of dominant is stated, and the scope sentence closes it
    where = "among the strategies played: random, always-draw, greedy-vp (900 games, 2 seats, every seat arrangement)"
    from meeplelab.analysis.dominance import DEFINITION, SCOPE

    assert answer.strip().startswith(f"Every answer here holds {where}. Is there a dominant strategy {where}? Not "
                                     "resolved at this size: always-draw has the highest win rate (leading)")
    assert DEFINITION in answer and f"{SCOPE} Details and intervals" in answer
    assert f"Seat effect (every strategy of the field pooled, {where}): " in answer
    assert (f"Stable mix (symmetric Nash equilibrium, 95% bootstrap interval) {where}: always-draw 100% [0, 100]"
            in answer)
    # 95th percentile of 50 resamples: 1.09 since the resamples are drawn by scipy.stats.bootstrap (was 1.22)
    assert "a best response gains at most 1.09 points against this mix (95th percentile)" in answer
    # games needed per pair; the Holm-adjusted p-value over the 3 pairs: not resolved
    assert "| always-draw | greedy-vp | 300 | 159 | 53.0 | 47.4 | 58.6 | 0.299 | no | 1,064 |" in md
    assert "| 1x always-draw, 1x greedy-vp | — | 53.0 | 47.0 | 600 |" in md  # one decimal in every payoff column
    # one seat per strategy: the game win-rate columns would repeat the win rate, so they are left out and said so
    assert ("| strategy | games | seat-results | fair share | win rate % | 95% low | 95% high | x fair share | "
            "mean rank |") in md
    assert "games = seat-results and the game win rate equals the win rate (its columns are left out)" in md
    assert "| greedy-vp | 0.0 | 0.0 | 100.0 | 0.0 | 0.0 | 100.0 | -3.00 | -8.55 | 1.17 | always-draw | 80 |" in md  # gain bounds on scipy.stats.bootstrap draws (were -7.85, 1.80)
    assert "| random | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 | -32.00 | -36.46 | -27.74 | always-draw, greedy-vp | 100 |" in md  # (were -35.59, -28.07)


def test_a_tournament_that_is_not_complete_resumes_from_the_cli_with_resume(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t"
    argv = ["tournament", "--game", "toy", "--strategies", "random,always-draw", "--games", "10", "--n-jobs", "1",
            "--no-report", "--out", str(out)]
    assert run_cli(argv, capsys, monkeypatch)[0] == 0
    meta = json.loads((out / "tournament.json").read_text())
    meta["status"] = "interrupted"
    (out / "tournament.json").write_text(json.dumps(meta))
    code, text, err = run_cli(argv + ["--resume"], capsys, monkeypatch)
    assert code == 0, err and "lineup 2/2" in err
    assert json.loads((out / "tournament.json").read_text())["status"] == "complete"
    expect_error(argv + ["--resume", "--overwrite"], "--resume and --overwrite exclude each other: choose one",
                 capsys, monkeypatch)
    assert not math.isnan(pl.read_parquet(out / "summary.parquet")["win_rate"][0])


def test_seat_answer_lists_every_seat_of_a_player_count_whose_spread_is_past_chance():
    from meeplelab.analysis.tournament_report import seat_answer

    se = pl.DataFrame({"players": [2, 2, 3, 3, 3], "seat": [0, 1, 0, 1, 2],
                       "seat_results": [2000, 2000, 300, 300, 300], "fair": [0.5, 0.5, 1 / 3, 1 / 3, 1 / 3],
                       "win_rate": [0.441, 0.559, 0.34, 0.33, 0.33], "win_low": [0.42, 0.537, 0.29, 0.28, 0.28],
                       "win_high": [0.463, 0.58, 0.39, 0.38, 0.38]})
    assert seat_answer(se) == ("Seat effect: at 2 seats seat 1 wins 44.1% [42.0, 46.3], seat 2 wins 55.9% [53.7, 58.0] "
                               "of 2,000 seat-results each against a fair 50.0% (an interval excludes the fair share).")
    assert seat_answer(se.filter(pl.col("players") == 3)) == \
        "Seat effect: no seat's 95% interval excludes the fair share."


def test_report_tables_round_a_rate_once_like_the_terminal():
    from meeplelab.analysis.page import format_table
    from meeplelab.analysis.tournament import format_terminal
    from meeplelab.analysis.tournament_report import _pct

    df = pl.DataFrame({"strategy": ["inventor"], "win_rate": [0.04], "win_low": [0.028475], "win_high": [0.055922]})
    _, rows = format_table(_pct(df, ["win_rate", "win_low", "win_high"]))
    assert rows[0][1:] == ["4.0", "2.8", "5.6"]  # not 2.9 (2.8475 rounded to 2.85, then to 2.9)
    assert format_terminal(df).splitlines()[2].split()[1:] == ["4.0", "2.8", "5.6"]


def test_a_preset_strategy_keeps_its_given_name_in_tables_and_report(tmp_path):
    from meeplelab.analysis.tournament_report import build_tournament_report, chart_label
    from meeplelab.studies.tune import write_preset

    p = tmp_path / "presets" / "fast.toml"
    p.parent.mkdir()
    write_preset(p, "toy", "rollout", {"k": 2, "top": 2, "horizon": 2})
    given = f"rollout:preset={p}"
    t = run_tournament("toy", [given, "random"], 2, 10, 0, tmp_path / "t", n_jobs=1)
    # the games table expands the preset into every argument; tables use the id as given
    assert raw_games(tmp_path / "t")["strategy"].unique().sort().to_list() == ["random", "rollout:k=2,top=2,horizon=2"]
    assert sorted(t["summary"]["strategy"].to_list()) == sorted([given, "random"])
    assert sorted(set(t["pairwise"]["row"].to_list())) == sorted([given, "random"])
    md = build_tournament_report(tmp_path / "t", resamples=10).with_suffix(".md").read_text()
    assert f"| {given} | 20 | 20 |" in md and "| rollout:k=2" not in md
    assert f"Strategies with their full arguments: {given} = rollout:k=2,top=2,horizon=2." in md
    assert chart_label(given) == "rollout:preset=fast.toml"


def test_heatmap_writes_resolved_cells_bold_and_unresolved_grey():
    from meeplelab.analysis.tournament_report import heatmap

    _, pw = _pw({("h", "w"): 0.66, ("h", "o"): 0.53})
    fig = heatmap(pw, ["h", "w", "o"])
    cells = {t.get_text().split("\n")[0]: (t.get_fontweight(), t.get_color()) for t in fig.axes[0].texts}
    assert cells["66%"] == ("bold", "black") and cells["34%"] == ("bold", "black")  # [61, 70] and [30, 39]
    assert cells["53%"] == ("normal", "dimgray") and cells["47%"] == ("normal", "dimgray")  # [48, 58]: includes 50%


def test_cli_tournament_names_a_preset_as_given_in_its_terminal_lines(tmp_path, capsys, monkeypatch):
    from meeplelab.studies.tune import write_preset

    p = tmp_path / "fast.toml"
    write_preset(p, "toy", "rollout", {"k": 2, "top": 2, "horizon": 2})
    code, text, err = run_cli(["tournament", "--game", "toy", "--strategies", f"random,rollout:preset={p}", "--games",
                               "20", "--n-jobs", "1", "--no-report", "--out", str(tmp_path / "t")], capsys, monkeypatch)
    assert code == 0, err
    assert "rollout:k=2" not in text and f"rollout:preset={p}" in text
    assert f"The difference observed between rollout:preset={p} and random" in text


def test_lineups_played_side_by_side_on_two_workers_give_the_same_games_and_tables(tmp_path, capsys, monkeypatch):
    """With more than one job the lineups are played concurrently, one whole lineup per loky worker;
    the games and the tournament tables are the bytes of the one-at-a-time path."""
    import polars as pl

    from tests.cli_run import run_cli

    outs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"t{jobs}"
        code, said, err = run_cli(["tournament", "--game", "toy", "--strategies", "random,always-draw,bank-at:n=3",
                                   "--players", "2", "--games", "30", "--seed", "4", "--n-jobs", jobs, "--no-progress",
                                   "--no-report", "--out", out], capsys, monkeypatch)
        assert code == 0, err
        assert said.count("lineup ") >= 6 or err.count("lineup ") >= 6
        outs[jobs] = out
    for name in ("summary.parquet", "seats.parquet", "pairwise.parquet", "lineups.parquet"):
        assert (outs["1"] / name).read_bytes() == (outs["2"] / name).read_bytes(), name
    for lu in sorted(p.name for p in outs["1"].glob("lineup-*")):
        a, b = (pl.read_parquet(str(outs[j] / lu / "games" / "*.parquet")).sort("game", "seat") for j in ("1", "2"))
        assert a.equals(b), lu
