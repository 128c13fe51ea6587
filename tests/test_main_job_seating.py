"""The README main job's lineups: with rotated seats (the default) every strategy sits in every seat
equally often on common game seeds, and the report's ranking is the rotated one; the same lineup in
fixed seats is flagged as confounded (fixed seats can reverse both rankings)."""

from __future__ import annotations

import re

import polars as pl
import pytest

from meeplelab.analysis.report import build_report
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate

pytestmark = pytest.mark.slow

LINEUPS = {"unconscious-mind": ("coffee-engine", "publisher", "citer", "curer"),
           "galileos-truth": ("abjure-at:margin=1", "never-abjure", "writer", "suspicion-averse")}


@pytest.mark.parametrize("game", list(LINEUPS))
def test_report_ranking_is_the_rotated_one_and_fixed_seats_are_flagged(game, tmp_path):
    runs = {}
    for seating in ("rotate", "fixed"):
        out = tmp_path / seating
        simulate(RunConfig(game=game, players=4, strategies=LINEUPS[game], games=48, seed=12, batch_size=48,
                           n_jobs=1, out=str(out), seating=seating))
        runs[seating] = out
    g = pl.read_parquet(str(runs["rotate"] / "games" / "*.parquet"))
    assert g.group_by("strategy", "seat").len()["len"].unique().to_list() == [12]  # 24 orders x 2 seeds
    assert g.group_by("seat_order").agg(pl.col("game_seed").unique().sort()).get_column("game_seed").to_list() \
        == [[0, 1]] * 24
    rate = g.group_by("strategy").agg(pl.col("win_share").mean()).sort("win_share", descending=True)
    build_report([runs["rotate"]], tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    verdict = md[md.index("## Verdict"):md.index("## Win rates")]
    m = re.search(r"4 players, win rates \(fair share 25.0%\) among the strategies played: ([^()]*) \(48 games, "
                  r"rotated seats\): (.*?)\. ", verdict)
    assert m.group(1) == ", ".join(LINEUPS[game])  # the field the ranking holds among, as played
    line = m.group(2)
    shown = [(m.group(1), float(m.group(2))) for m in re.finditer(r"(\S+) ([\d.]+)% \[", line)]
    # the verdict lists every strategy once, best first, each at its rotated win rate (ties in either order)
    assert sorted(s for s, _ in shown) == sorted(rate["strategy"].to_list())
    by_strategy = dict(zip(rate["strategy"].to_list(), rate["win_share"].to_list()))
    for s, v in shown:
        assert v == pytest.approx(by_strategy[s] * 100, abs=0.051)
    assert [v for _, v in shown] == sorted((v for _, v in shown), reverse=True)
    assert "CONFOUNDED" not in verdict
    build_report([runs["fixed"]], tmp_path / "fix")
    assert "FLAG confounded" in (tmp_path / "fix" / "report.md").read_text()


@pytest.mark.parametrize("game", list(LINEUPS))
def test_the_main_job_field_plays_at_2_3_and_4_seats_and_one_report_gives_each_count(game, tmp_path):
    """The README main job: the same four strategies at 2, 3 and 4 seats (a pool: every ordered choice of the
    seats), three runs one report reads together, per player count."""
    from collections import Counter

    folders = []
    for players, games in ((2, 24), (3, 48), (4, 48)):
        out = tmp_path / f"{players}p"
        simulate(RunConfig(game=game, players=players, strategies=LINEUPS[game], games=games, seed=12, batch_size=48,
                           n_jobs=1, out=str(out), seating="rotate"))
        g = pl.read_parquet(str(out / "games" / "*.parquet"))
        assert g["game"].n_unique() == games and set(g["players"].to_list()) == {players}
        assert g.group_by("strategy", "seat").len()["len"].unique().to_list() == [games // 4]
        pairs = Counter(frozenset(s) for s in g.group_by("game").agg(pl.col("strategy"))["strategy"].to_list()
                        if players == 2)
        assert players != 2 or set(pairs.values()) == {4}  # every pair of the field meets, 2 games x 2 orders
        folders.append(out)
    said: list = []
    build_report(folders, tmp_path / "rep", summary=said)
    md = (tmp_path / "rep" / "report.md").read_text()
    verdict = md[md.index("## Verdict"):md.index("## Win rates")]
    for players, games in ((2, 24), (3, 48), (4, 48)):
        fair = f"{100 / players:.1f}"
        assert (f"{players} players, win rates (fair share {fair}%) among the strategies played: "
                f"{', '.join(LINEUPS[game])} ({games} games, rotated seats)") in verdict
        assert f"({players} players, from rotated seats" in verdict
        assert f"| {players} players | {players}p 95% low | {players}p 95% high |" in md  # the arc, per count
    assert len(said) == 1 and len(said[0]) == 3
    assert md.index("## In three sentences") < md.index("## Verdict")
