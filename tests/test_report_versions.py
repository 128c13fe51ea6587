"""``meeplelab report A B`` on runs of different rules never pools them.

Known answer on the toy game: 2 seats, always-draw against random, rotated seats on common seeds.
With the default 4 rounds always-draw wins about 80% of games; with ``rounds=1`` about 60%. Pooled
into one verdict, they would give always-draw about 70%, a figure of neither rule set."""

from __future__ import annotations

import re
import sys

import numpy as np
import polars as pl
from scipy import stats as st
import pytest

from meeplelab import cli
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.report import build_report
from meeplelab.analysis.versions import delta_table, versions
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate


def _run(tmp, name, params, seed=1, games=600):
    out = tmp / name
    simulate(RunConfig(game="toy", players=2, strategies=("always-draw", "random"), games=games, seed=seed,
                       batch_size=300, n_jobs=1, out=str(out), params=dict(params), seating="rotate"))
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("versions")
    return {"a": _run(tmp, "a", {}), "b": _run(tmp, "b", {"rounds": 1}),
            "a2": _run(tmp, "a2", {"rounds": 4}, seed=2), "b2": _run(tmp, "b2", {"rounds": 1}, seed=2)}


def _games(run) -> pl.DataFrame:
    return pl.read_parquet(str(run / "games" / "*.parquet")).with_columns(pl.col("strategy").cast(pl.String))


def _section(md: str, title: str) -> str:
    """The Markdown of section ``## title`` up to the next section."""
    body = md.split(f"## {title}\n", 1)[1]
    return body.split("\n## ", 1)[0]


def _comparable(text: str) -> list[str]:
    """Section lines without the scope sentence, table file links and blank lines."""
    return [ln for ln in text.splitlines() if ln.strip() and not ln.startswith(("Flags computed on", "[CSV]"))]


def test_the_fixture_reproduces_the_pooling_fault(runs):
    """The two rule sets give always-draw very different win rates; pooled, a figure of neither."""
    ga, gb = _games(runs["a"]), _games(runs["b"])
    ra = ga.filter(pl.col("strategy") == "always-draw")["win_share"].mean()
    rb = gb.filter(pl.col("strategy") == "always-draw")["win_share"].mean()
    pooled = pl.concat([ga, gb]).filter(pl.col("strategy") == "always-draw")["win_share"].mean()
    assert ra > 0.75 and rb < 0.65 and abs(pooled - ra) > 0.08 and abs(pooled - rb) > 0.08


def test_versions_are_named_by_their_difference(runs):
    vs = versions(load_runs([runs["a"], runs["b"]]))
    assert [(v.label, v.name, v.runs) for v in vs] == [("A", "rounds=4 (default)", ("a",)), ("B", "rounds=1", ("b",))]
    same = versions(load_runs([runs["a"], runs["a2"]]))  # rounds=4 given explicitly is the default rules
    assert len(same) == 1 and same[0].runs == ("a", "a2")


def test_each_versions_verdict_is_that_runs_own_report(runs, tmp_path):
    """Per-version figures equal each run's single-run report: ranking, intervals, head to head, seat
    spread, flags, tables; and the pooled figure appears nowhere in the verdicts."""
    build_report([runs["a"], runs["b"]], tmp_path / "ab")
    md = (tmp_path / "ab" / "report.md").read_text()
    top = _section(md, "Verdict")
    assert "they are NOT pooled" in top
    for key, label, name in (("a", "A", "rounds=4 (default)"), ("b", "B", "rounds=1")):
        build_report([runs[key]], tmp_path / key)
        own = _section((tmp_path / key / "report.md").read_text(), "Verdict")
        mine = _section(md, f"Verdict: version {label} ({name})")
        assert _comparable(mine) == _comparable(own)
        rate = re.search(r"always-draw ([\d.]+)% \[([\d.]+), ([\d.]+)\]", own).groups()
        assert f"version {label} ({name}), run {key}: 2 players: always-draw {rate[0]}% [{rate[1]}, {rate[2]}]" in top
        spread = re.search(r"spread ([\d.]+) percentage points \[(-?[\d.]+), (-?[\d.]+)\]", own).groups()
        assert f"seat spread {spread[0]} points [{spread[1]}, {spread[2]}] at 2 players" in top
    pooled = pl.concat([_games(runs["a"]), _games(runs["b"])]).filter(pl.col("strategy") == "always-draw")
    assert f"always-draw {pooled['win_share'].mean() * 100:.1f}%" not in md
    # each version's own balance sections, titled with the version; provenance of both runs once
    assert "## Win rates: version A (rounds=4 (default))" in md and "## Win rates: version B (rounds=1)" in md
    assert md.count("## Provenance") == 1 and "Run a:" in md and "Run b:" in md


def test_delta_table_is_the_mean_of_game_matched_differences(runs, tmp_path):
    loaded = load_runs([runs["a"], runs["b"]])
    t = delta_table(loaded, versions(loaded))
    ga, gb = _games(runs["a"]), _games(runs["b"])
    j = ga.join(gb, on=["seat_order", "game_seed", "seat"], suffix="_b")
    assert j.height == ga.height == 1200 and (j["strategy"] == j["strategy_b"]).all()
    row = {(r["metric"], r["strategy"]): r for r in t.iter_rows(named=True)}
    for s in ("always-draw", "random"):
        sub = j.filter(pl.col("strategy") == s)
        w = row[("win rate (points)", s)]
        assert w["design"] == "paired (game and seat matched)" and w["n"] == 600
        assert w["est"] == pytest.approx((sub["win_share_b"] - sub["win_share"]).mean() * 100, abs=1e-9)
        assert w["ref"] == pytest.approx(sub["win_share"].mean() * 100) and w["low"] < w["est"] < w["high"]
        assert w["games_needed"] >= 2
        v = row[("final VP", s)]
        d = (sub["vp_b"] - sub["vp"]).cast(pl.Float64).to_numpy()
        assert v["est"] == pytest.approx(d.mean(), abs=1e-9)
        # over the game seeds: the games one seed plays in both seat orders are correlated (stats.cluster_means)
        dc = sub.with_columns(d=(pl.col("vp_b") - pl.col("vp")).cast(pl.Float64)).group_by("game_seed").agg(
            pl.col("d").mean())["d"].to_numpy()
        assert dc.size < d.size
        half = st.t.ppf(0.975, dc.size - 1) * dc.std(ddof=1) / np.sqrt(dc.size)
        assert v["high"] - v["low"] == pytest.approx(2 * half, rel=0.01)
    ad = row[("win rate (points)", "always-draw")]
    assert ad["est"] < -15 and ad["high"] < 0  # rounds=1 costs always-draw about 20 points, resolved
    # seat spread: per game, each version's best seat minus its worst seat, differenced game by game
    sp = t.filter(pl.col("metric") == "seat spread (points)").row(0, named=True)

    def per_game(g, share):
        rates = g.group_by("seat").agg(pl.col(share).mean()).sort(share, "seat", descending=[True, False])
        best, worst = rates["seat"][0], rates["seat"][-1]
        wide = g.pivot(on="seat", index=["seat_order", "game_seed"], values=share).sort("seat_order", "game_seed")
        return (wide[str(best)] - wide[str(worst)]).to_numpy()

    d = per_game(j.select("seat_order", "game_seed", "seat", "win_share_b"), "win_share_b") - \
        per_game(j.select("seat_order", "game_seed", "seat", "win_share"), "win_share")
    assert sp["est"] == pytest.approx(d.mean() * 100, abs=1e-9) and sp["n"] == 600
    one = j.filter(pl.col("seat") == 0)
    turns = t.filter(pl.col("metric") == "game length (turns)").row(0, named=True)
    assert turns["est"] == pytest.approx((one["turns_b"] - one["turns"]).mean(), abs=1e-9) and turns["est"] < -5
    # the report shows the same table
    build_report([runs["a"], runs["b"]], tmp_path / "ab")
    md = (tmp_path / "ab" / "report.md").read_text()
    assert "## Versions compared" in md
    assert f"| B | A | win rate (points) | 2 | always-draw | paired (game and seat matched) | 600 | " \
           f"{ad['ref']:.2f} | {ad['value']:.2f} | {ad['est']:.2f} |" in md


def test_versions_on_different_seeds_are_compared_unpaired_and_said_descriptive(runs):
    loaded = load_runs([runs["a"], runs["b2"]])
    t = delta_table(loaded, versions(loaded))
    assert set(t["design"]) == {"unpaired (descriptive: different games)"}
    ga, gb = _games(runs["a"]), _games(runs["b2"])
    w = t.filter((pl.col("metric") == "win rate (points)") & (pl.col("strategy") == "always-draw")).row(0, named=True)
    ra = ga.filter(pl.col("strategy") == "always-draw")["win_share"].mean()
    rb = gb.filter(pl.col("strategy") == "always-draw")["win_share"].mean()
    assert w["est"] == pytest.approx((rb - ra) * 100, abs=1e-9) and w["high"] < 0


def test_runs_of_the_same_rules_are_pooled_and_the_report_says_so(runs, tmp_path):
    build_report([runs["a"], runs["a2"]], tmp_path / "same")
    md = (tmp_path / "same" / "report.md").read_text()
    v = _section(md, "Verdict")
    assert v.startswith("\nPooled: 2 runs of the same rules (a, a2).") and "Verdict: version" not in md
    pooled = pl.concat([_games(runs["a"]), _games(runs["a2"])]).filter(pl.col("strategy") == "always-draw")
    assert f"always-draw {pooled['win_share'].mean() * 100:.1f}%" in v
    assert "## Versions compared" not in md


def test_the_cli_prints_one_line_per_version(runs, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["meeplelab", "report", str(runs["a"]), str(runs["b"]), str(runs["a2"]),
                                      "--out", str(tmp_path / "rep")])
    with pytest.raises(SystemExit) as e:
        cli.main()
    out = capsys.readouterr().out
    assert e.value.code == 0
    lines = out.splitlines()
    va = [ln for ln in lines if ln.startswith("version A (rounds=4 (default)), pooled: 2 runs of the same rules (a, a2): ")]
    vb = [ln for ln in lines if ln.startswith("version B (rounds=1), run b: 2 players: always-draw ")]
    assert len(va) == 1 and len(vb) == 1 and len([ln for ln in lines if ln.startswith("version ")]) == 2
    rb = _games(runs["b"]).filter(pl.col("strategy") == "always-draw")["win_share"].mean()
    assert f"always-draw {rb * 100:.1f}%" in vb[0] and "seat spread " in vb[0]
    assert "2 rule/content versions, not pooled" in out


def test_versions_that_share_no_player_count_or_differ_in_roster_are_named_not_silently_compared(runs, tmp_path):
    """A report of versions at different player counts prints no empty comparison, and runs of other rosters are
    not blamed on the rules: the verdict names what differs."""
    three = tmp_path / "three"
    simulate(RunConfig(game="toy", players=3, strategies=("always-draw", "random", "random"), games=60, seed=1,
                       params={"rounds": 1}, out=str(three), n_jobs=1))
    page = build_report([runs["a"], three], tmp_path / "rep")
    verdict = _section((page.parent / "report.md").read_text(), "Verdict")
    assert "share no player count (A: 2; B: 3 players), so nothing of them is compared" in verdict
    other = tmp_path / "other"
    simulate(RunConfig(game="toy", players=2, strategies=("always-draw", "always-draw"), games=60, seed=1,
                       params={"rounds": 1}, out=str(other), n_jobs=1))
    page = build_report([runs["a"], other], tmp_path / "rep2")
    verdict = _section((page.parent / "report.md").read_text(), "Verdict")
    assert "2 players: roster always-draw,random against always-draw,always-draw" in verdict
    assert "a difference of roster is not the rules'" in verdict
