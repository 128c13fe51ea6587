"""meeplelab robustness on the toy game whose answers are known (tests/toy_robust.py).

Known: ``table_colour`` is read by no rule (every index exactly 0); "always-draw scores more than
draw-once" flips exactly when ``max_value <= 1``; "draw-once scores VP" holds everywhere; game length
is ``2 * rounds`` turns unless the deck runs out (only ``rounds`` matters with 8+ copies).
"""

from __future__ import annotations

import json
import sys

import numpy as np
import polars as pl
import pytest

from meeplelab import cli
import tests.toy_robust  # noqa: F401  registers the game, strategies and study "toy-robust"
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.play.panels import Lineup, panel, play_lineups
from meeplelab.play.batch import play_batch
from meeplelab.sim.registry import make_game
from meeplelab.studies.robustness import run_robustness
from meeplelab.strategies.registry import make_strategy

BUDGET = 40_000


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    out = tmp_path_factory.mktemp("rob") / "toy"
    res = run_robustness("toy-robust", out, BUDGET)
    return out, {c["name"]: c for c in res["json"]["conclusions"]}, res


def test_a_parameter_no_rule_reads_gets_index_zero(toy):
    _, cons, res = toy
    for c in cons.values():
        m = {x["factor"]: x for x in c["morris"]}
        assert m["table_colour"]["mu_star"] == 0.0 and m["table_colour"]["mu"] == 0.0
    assert "table_colour" not in res["json"]["meta"]["sobol_factors"]
    st = {x["factor"]: x for x in cons["length-field-2"]["sobol"]}
    assert st["rounds"]["ST"] > 0.5
    assert abs(st["max_value"]["ST"]) < 0.05 and abs(st["copies"]["ST"]) < 0.05


def test_sensitivity_ranking_puts_the_deciding_parameter_first(toy):
    _, cons, _ = toy
    assert cons["always-beats-once"]["morris"][0]["factor"] == "max_value"
    assert cons["always-beats-once"]["sobol"][0]["factor"] == "max_value"
    assert cons["always-beats-once"]["sobol"][0]["ST"] > 0.5
    assert cons["length-field-2"]["morris"][0]["factor"] == "rounds"


def test_a_flipped_conclusion_is_reported_as_flipped_with_its_threshold(toy):
    _, cons, _ = toy
    c = cons["always-beats-once"]
    assert c["baseline"]["low"] > 0  # established at the defaults
    assert c["flipped"] > 0
    assert c["verdict"].startswith("depends on A-TOY-02 (flips when max_value <= 1: ")
    assert c["rules"][0] == {"factor": "max_value", "sense": "<=", "value": "1", "flipped_in": c["flipped"],
                             "holding_in": 0}


def test_robust_and_unresolved_verdicts(toy):
    _, cons, _ = toy
    assert cons["once-scores"]["verdict"].startswith("robust: holds at 100% ")
    assert cons["once-scores"]["flipped"] == 0
    seat = cons["seat-2"]
    assert seat["baseline"]["low"] < 0 < seat["baseline"]["high"]
    assert seat["verdict"].startswith("not resolved with this budget: not established at the defaults")


def test_report_and_tables_are_written(toy):
    out, cons, _ = toy
    md = (out / "report" / "robustness.md").read_text()
    assert "**depends on A-TOY-02 (flips when max_value <= 1" in md
    assert (out / "report" / "tornado-always-beats-once.png").stat().st_size > 1000
    assert (out / "report" / "robustness.html").read_text().count("<img") == len(cons)
    pts = pl.read_parquet(out / "conclusions.parquet")
    assert pts.filter(pl.col("conclusion") == "always-beats-once")["flipped"].sum() == cons["always-beats-once"]["flipped"]
    design = json.loads((out / "robustness.json").read_text())
    assert design["status"] == "done" and design["budget"] == BUDGET
    games = sum(len(pl.read_parquet(p)) for p in (out / "points").glob("p*.parquet")) // 2
    assert games == json.loads((out / "results.json").read_text())["meta"]["games_played"] <= BUDGET


def test_results_do_not_depend_on_n_jobs_or_on_an_interrupted_resume(tmp_path):
    kw = dict(games=50)
    run_robustness("toy-robust", tmp_path / "one", 5_000, **kw)
    run_robustness("toy-robust", tmp_path / "two", 5_000, n_jobs=2, **kw)  # real worker processes
    calls = []

    def stop(msg):
        calls.append(msg)
        if len(calls) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_robustness("toy-robust", tmp_path / "cut", 5_000, progress=stop, **kw)
    assert json.loads((tmp_path / "cut" / "robustness.json").read_text())["status"] == "interrupted"
    assert len(list((tmp_path / "cut" / "points").glob("p*.parquet"))) == 4
    with pytest.raises(RunFolderError, match="holds another robustness run: use --resume to complete it, --overwrite to replace it or choose a new --out"):
        run_robustness("toy-robust", tmp_path / "cut", 5_000, **kw)
    with pytest.raises(RunFolderError, match="cannot resume: .* has budget=5000, this one budget=6000"):
        run_robustness("toy-robust", tmp_path / "cut", 6_000, resume=True, **kw)
    run_robustness("toy-robust", tmp_path / "cut", 5_000, resume=True, **kw)
    a = pl.read_parquet(tmp_path / "one" / "conclusions.parquet")
    assert a.equals(pl.read_parquet(tmp_path / "two" / "conclusions.parquet"))
    assert a.equals(pl.read_parquet(tmp_path / "cut" / "conclusions.parquet"))


def test_lineups_in_one_batch_play_exactly_as_each_lineup_alone():
    game = make_game("toy-robust")
    lus = panel("duel", ("always-draw", "draw-once")) + [Lineup("r", 0, ("random", "draw-once"))]
    g = play_lineups(game, lus, 30, seed=5, batch_size=37)
    for i, lu in enumerate(lus):
        alone = play_batch(game, [make_strategy("toy-robust", s) for s in lu.strategies], np.arange(30), 5,
                           log_turns=False, log_events=False).games
        mine = g.filter(pl.col("lineup") == i).sort("game", "seat")
        assert mine["vp"].to_list() == alone.column("vp").to_pylist()
        assert mine["win_share"].to_list() == alone.column("win_share").to_pylist()


def test_a_treatment_changes_only_the_treated_seat_at_setup():
    from meeplelab.play.panels import register_treatment

    def bonus(game, state, rows, seat):
        state.vp[rows, seat] += 100

    register_treatment("toy-robust", "bonus", bonus)
    lus = panel("duel", ("always-draw", "draw-once")) + panel("t", ("always-draw", "draw-once"), treatment="bonus")
    g = play_lineups(make_game("toy-robust"), lus, 20, seed=1)
    base = g.filter(pl.col("panel") == "duel").sort("rot", "game", "seat")
    tr = g.filter(pl.col("panel") == "t").sort("rot", "game", "seat")
    diff = (tr["vp"] - base["vp"]).to_numpy()
    assert set(diff[tr["treated"].to_numpy()]) == {100} and set(diff[~tr["treated"].to_numpy()]) == {0}
    assert tr.filter(pl.col("treated")).group_by("rot").agg(pl.col("seat").first()).sort("rot")["seat"].to_list() == [0, 1]
    with pytest.raises(ConfigError, match="unknown treatment 'nope' for toy-robust: allowed bonus"):
        play_lineups(make_game("toy-robust"), panel("x", ("always-draw", "draw-once"), treatment="nope"), 2, 0)


def _cli(argv, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["meeplelab", *argv])
    with pytest.raises(SystemExit) as e:
        cli.main()
    cap = capsys.readouterr()
    return e.value.code, cap.out, cap.err


@pytest.mark.parametrize("args,message", [
    (["--game", "toy-robust", "--budget", "100"], "--budget 100 games is too small: at least 4,400 for the defaults"),
    (["--game", "nosuch", "--budget", "100"], "unknown game 'nosuch'"),
    (["--game", "toy-robust", "--budget", "9000", "--n-jobs", "0"], "--n-jobs 0: allowed -1 (all cores) or a number >= 1"),
    (["--game", "toy-robust", "--budget", "9000", "--games-per-lineup", "0"], "--games-per-lineup 0: must be >= 1"),
    (["--game", "toy", "--budget", "9000"], "no robustness study for 'toy': allowed"),
])
def test_bad_robustness_input_is_one_line_exit_2(args, message, tmp_path, capsys, monkeypatch):
    code, out, err = _cli(["robustness", *args, "--out", str(tmp_path / "r")], capsys, monkeypatch)
    assert code == 2 and err.startswith(f"error: {message}") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def test_robustness_command_prints_a_verdict_per_conclusion(tmp_path, capsys, monkeypatch):
    code, out, err = _cli(["robustness", "--game", "toy-robust", "--budget", "5000", "--games-per-lineup", "50",
                           "--out", str(tmp_path / "r")], capsys, monkeypatch)
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 5 and lines[-1] == f"wrote {tmp_path / 'r' / 'report' / 'robustness.html'}"
    # every one of the 21 points holds, but 21 points bound the share holding only at >= 85%: too few to say robust
    assert lines[1].startswith("draw-once scores VP: draw-once scores ")
    assert ": not resolved with this budget: holds at 100% [85%, 100%] of 21 points, none flipped" in lines[1]
    assert "morris: point 1/" in err


def test_an_assumption_that_never_changed_the_quantity_is_never_named_as_the_cause_of_a_flip():
    from types import SimpleNamespace

    from meeplelab.analysis.robustness import _threshold_rule
    from meeplelab.sim.plausible import Range

    ranges = {f: Range(f, "A-T-01", 0, low=0, high=4, reason="test") for f in ("inert", "live")}
    d = SimpleNamespace(factors=["inert", "live"])
    # point 0 is the defaults (it holds); the inert factor happens to separate the flipped points
    # perfectly, the live one only partly
    u = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    flipped = np.array([False, True, True, False, False])
    holds = ~flipped
    assert _threshold_rule(d, ranges, u, flipped, holds, np.array([5.0, 2.0]))[1] == "inert"
    best = _threshold_rule(d, ranges, u, flipped, holds, np.array([0.0, 2.0]))
    assert best[1] == "live"
    assert _threshold_rule(SimpleNamespace(factors=["inert"]), ranges, u[:, :1], flipped, holds, np.array([0.0])) is None


def test_a_flip_rule_never_includes_the_default_rules():
    from types import SimpleNamespace

    from meeplelab.analysis.robustness import _threshold_rule
    from meeplelab.sim.plausible import Range

    ranges = {"f": Range("f", "A-T-01", 2, low=0, high=4, reason="test")}
    u = np.array([[0.5], [0.5], [1.0], [0.0], [0.0]])  # values 2 (defaults), 2, 4, 0, 0
    flipped = np.array([False, True, True, False, False])
    best = _threshold_rule(SimpleNamespace(factors=["f"]), ranges, u, flipped, ~flipped, np.array([1.0]))
    assert best[1:4] == ("f", 1.0, ">=") and best[4:] == (1, 0)  # f >= 4, not f >= 2 (the default)


def test_resume_with_nothing_to_resume_is_refused(tmp_path):
    with pytest.raises(RunFolderError, match=r"nothing to resume: .* holds no robustness run \(no .*\): start it without --resume"):
        run_robustness("toy-robust", tmp_path / "new", 5_000, resume=True, games=2)
    assert not (tmp_path / "new").exists()


def test_a_choice_range_with_pipes_stays_one_table_cell(toy, tmp_path):
    """A range written ``rotate|first-to-pass|fewest-vp`` stays in one cell of the Morris tables."""
    import re

    from meeplelab.analysis.robustness_report import build

    out, _, _ = toy
    res = json.loads((out / "results.json").read_text())
    res["conclusions"][0]["morris"][0]["range"] = "rotate|first-to-pass|fewest-vp"
    page = build(tmp_path, res)
    md = (tmp_path / "report" / "robustness.md").read_text()
    line = next(x for x in md.splitlines() if "first-to-pass" in x)
    assert len(re.split(r"(?<!\\)\|", line.strip().strip("|"))) == 9  # the table's 9 columns
    html_text = page.read_text()
    tr = next(r for r in html_text.split("<tr>") if "first-to-pass" in r)
    assert tr.count("<td") == 9 and '<td class="t">rotate|first-to-pass|fewest-vp</td>' in tr
    separators = sum(x.startswith("|---") for x in md.splitlines())
    assert html_text.count("<table>") == separators > 0 and "<img" in html_text


def test_the_tables_have_human_headers_ranked_rows_and_a_csv_each(toy):
    """The robustness page's headers are human words, not code names (``mu``, ``q``, ``sigma``, ``S1``)."""
    import re

    out, cons, _ = toy
    rep = out / "report"
    md = (rep / "robustness.md").read_text()
    morris = [x for x in md.splitlines() if x.startswith("| assumption | parameter | plausible range |")]
    assert len(morris) == len(cons) and morris[0] == (
        "| assumption | parameter | plausible range | mean effect (mu) | mu 95% low | mu 95% high | "
        "mean \\|effect\\| (mu*) | mu* 95% +- | effect sd (sigma) |")
    sobol = [x for x in md.splitlines() if x.startswith("| assumption | parameter | first-order index (S1) |")]
    assert len(sobol) == sum(1 for c in cons.values() if c["sobol"])
    flips = [x for x in md.splitlines() if x.startswith("| design point |")]
    flipped = sum(1 for c in cons.values() if c["flips"])
    # 20 flipped points: past 15 rows the top 10 are shown and every row folded below (its header again)
    assert flipped > 0 and len(flips) == flipped + sum(1 for c in cons.values() if len(c["flips"]) > 15)
    assert md.count("<details><summary>All 20 rows</summary>") == sum(1 for c in cons.values() if len(c["flips"]) == 20)
    units = {f"| design point | quantity ({c['unit']}) | 95% low | 95% high | " for c in cons.values()}
    assert all(any(x.startswith(u) for u in units) for x in flips)
    for c in cons.values():  # Morris ranked by mu*, largest first, like the tornado chart
        rows = pl.read_csv(rep / "tables" / f"morris-{c['name']}.csv")
        assert rows["mu_star"].to_list() == sorted(rows["mu_star"].to_list(), reverse=True)
        assert rows["factor"].to_list() == [m["factor"] for m in c["morris"]]
    links = re.findall(r"\[CSV\]\((tables/[^)]+\.csv)\)", md)
    assert len(links) == len(morris) + len(sobol) + flipped and all((rep / x).is_file() for x in links)
    html = (rep / "robustness.html").read_text()
    assert "<th>mean |effect| (mu*)</th>" in html and "<th>mu</th>" not in html
    assert '<td class="t">table_<wbr>colour</td>' in html  # a parameter name breaks after its underscore first
def test_a_points_interval_never_leaves_minus_100_to_100():
    """A difference of win rates is cut to [-100, 100] points (a tiny budget gives +50.00 [-18.00, +100.00], not
    +118.00); other units are not."""
    from meeplelab.analysis.robustness import _bounds

    assert _bounds(50.0, 34.7, "points") == (pytest.approx(50 - 1.959964 * 34.7, rel=1e-5), 100.0)
    assert _bounds(-90.0, 20.0, "points")[0] == -100.0
    assert _bounds(50.0, 34.7, "VP")[1] == pytest.approx(50 + 1.959964 * 34.7, rel=1e-5)
