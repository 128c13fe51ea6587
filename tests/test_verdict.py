"""The verdict opens every report: the rotated ranking is what the report shows (the fixed one is
flagged as confounded), and a seat spread the data contain is flagged with its paired interval.

Known answers on the toy game: with one card of each value 0..3, three draws a turn and two rounds,
the first seat has a large advantage; always-draw in seat 1 then looks stronger than draw-once,
while rotated seats show draw-once ahead."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest

from meeplelab.analysis.report import build_report
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from meeplelab.strategies.base import RandomStrategy
from meeplelab.strategies.registry import register_strategy

TIGHT = {"copies": 1, "max_value": 3, "max_draws": 3, "rounds": 2}


class DrawOnce(RandomStrategy):
    """Draw one card, then stop (test-only strategy; runs in-process with n_jobs=1)."""

    name = "draw-once"

    def act(self, view, legal_mask, rng):
        return np.where((view.state.draws[view.idx] == 0) & legal_mask[:, 0], 0, 1)


@pytest.fixture(scope="module", autouse=True)
def draw_once():
    """Registered for this module only (other tests list the toy game's strategies)."""
    from meeplelab.strategies.registry import _REGISTRY

    register_strategy("draw-once", DrawOnce, games=("toy",), doc="Draw one card, then stop (tests).")
    yield
    _REGISTRY.pop(("draw-once", ("toy",)), None)


def _run(tmp, name, seating, strategies, params=TIGHT, games=2000):
    out = tmp / name
    simulate(RunConfig(game="toy", players=2, strategies=strategies, games=games, seed=1, batch_size=1000, n_jobs=1,
                       out=str(out), params=dict(params), seating=seating))
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("verdict")
    return {s: _run(tmp, s, s, ("always-draw", "draw-once")) for s in ("fixed", "rotate")}


def _verdict(report_dir):
    md = (report_dir / "report.md").read_text()
    return md[md.index("## Verdict"):md.index("## Win rates")]


def test_rotated_ranking_is_what_the_report_shows(runs, tmp_path):
    g = pl.read_parquet(str(runs["rotate"] / "games" / "*.parquet"))
    # balanced: each strategy in each seat 1,000 times; draw-once is ahead once seats are rotated
    per_seat = g.group_by("strategy", "seat").agg(pl.col("win_share").mean(), pl.len())
    assert set(per_seat["len"].to_list()) == {1000}
    rate = dict(g.group_by("strategy").agg(pl.col("win_share").mean()).iter_rows())
    assert rate["draw-once"] > rate["always-draw"] + 0.05
    build_report([runs["rotate"]], tmp_path / "rot")
    v = _verdict(tmp_path / "rot")
    first = re.search(r"win rates \(fair share 50.0%\) among the strategies played: always-draw, draw-once \(2,000 "
                      r"games, rotated seats\): (\S+) ([\d.]+)%", v)
    assert first.group(1) == "draw-once" and float(first.group(2)) == pytest.approx(rate["draw-once"] * 100, abs=0.05)
    assert "CONFOUNDED" not in v and "rotate (every seat order): 2 seat orders x 1,000 game seeds" in v


def test_fixed_seats_are_flagged_where_they_confound(runs, tmp_path):
    g = pl.read_parquet(str(runs["fixed"] / "games" / "*.parquet"))
    rate = dict(g.group_by("strategy").agg(pl.col("win_share").mean()).iter_rows())
    assert rate["always-draw"] > rate["draw-once"]  # the reversed ranking fixed seats give
    build_report([runs["fixed"]], tmp_path / "fix")
    v = _verdict(tmp_path / "fix")
    assert "FLAG confounded" in v and "(CONFOUNDED with seat: fixed seats)" in v
    md = (tmp_path / "fix" / "report.md").read_text()
    assert "CONFOUNDED: run(s) fixed seat strategy k always in seat k" in md


def test_verdict_flags_the_seat_spread_of_a_mirror_match(tmp_path):
    run = _run(tmp_path, "mirror", "rotate", ("always-draw",), {"copies": 1, "max_value": 4, "max_draws": 2,
                                                                 "rounds": 3}, games=1500)
    g = pl.read_parquet(str(run / "games" / "*.parquet"))
    w = g.pivot(on="seat", index="game", values="win_share")
    d = (w["0"] - w["1"]).to_numpy()
    build_report([run], tmp_path / "rep")
    v = _verdict(tmp_path / "rep")
    m = re.search(r"FLAG seat advantage \(2 players, from mirror matches[^)]*\); seat numbers from the field among the "
                  r"strategies played: always-draw \(1,500 games, mirror match\)\): seat 1 wins ([\d.]+)% \[([\d.]+), "
                  r"([\d.]+)\], seat 2 ([\d.]+)% \[[\d.]+, [\d.]+\]; spread ([\d.]+) percentage points \[([\d.]+), "
                  r"([\d.]+)\] paired over 1,500 games", v)
    assert m, v
    from meeplelab.analysis.stats import wilson
    _, wlo, whi = wilson(np.array([w["0"].sum()]), np.array([1500]))
    assert float(m.group(2)) == pytest.approx(wlo[0] * 100, abs=0.05) and float(m.group(3)) == pytest.approx(whi[0] * 100, abs=0.05)
    m = re.search(r"seat 1 wins ([\d.]+)% \[[\d.]+, [\d.]+\], seat 2 ([\d.]+)% \[[\d.]+, [\d.]+\]; spread ([\d.]+) "
                  r"percentage points \[([\d.]+), ([\d.]+)\]", v)
    assert float(m.group(3)) == pytest.approx(d.mean() * 100, abs=0.05) and float(m.group(3)) > 20
    half = 1.96 * d.std(ddof=1) / np.sqrt(d.size) * 100
    assert float(m.group(4)) == pytest.approx(d.mean() * 100 - half, abs=0.1)


def test_a_tournaments_fixed_lineups_together_are_balanced_not_confounded(runs, tmp_path):
    """Both seat orders as two fixed runs on the same seed (a tournament's lineups) balance seats."""
    other = _run(tmp_path, "fixed-swapped", "fixed", ("draw-once", "always-draw"))
    build_report([runs["fixed"], other], tmp_path / "both")
    v = _verdict(tmp_path / "both")
    assert "FLAG confounded" not in v and "CONFOUNDED" not in v
    g = pl.concat([pl.read_parquet(str(r / "games" / "*.parquet")) for r in (runs["fixed"], other)])
    rate = dict(g.group_by("strategy").agg(pl.col("win_share").mean()).iter_rows())
    assert rate["draw-once"] > rate["always-draw"]  # the rotated ranking again
    assert re.search(r"win rates \(fair share 50.0%\) among the strategies played: always-draw, draw-once \(4,000 games, "
                     r"fixed seats\): draw-once ", v)


def test_a_seat_spread_whose_interval_includes_zero_is_not_flagged():
    """Past the 5-point threshold but unresolved (paired interval includes 0): said as not resolved, no FLAG."""
    from meeplelab.analysis.seats import seat_spread

    # 2 seats, 10 games: seat 1 wins 6, seat 2 wins 4 -> spread 20 points, interval far wider than that
    wins0 = [1.0] * 6 + [0.0] * 4
    df = pl.DataFrame({"run": ["r"] * 20, "game": [g for g in range(10) for _ in (0, 1)],
                       "seat": [0, 1] * 10, "players": [2] * 20,
                       "win_share": [x for w in wins0 for x in (w, 1.0 - w)]})
    sp = seat_spread(df).row(0, named=True)
    assert sp["spread"] == pytest.approx(20.0) and sp["spread_low"] < 0 < sp["spread_high"]
    assert sp["flagged"] is False


def test_every_verdict_line_names_its_field_and_the_report_states_what_dominant_means(runs, tmp_path):
    """Ranking, dominant-or-leading and seat-spread lines say which strategies they hold among; the verdict
    states the one meaning of "dominant" and ends with the scope sentence."""
    from meeplelab.analysis.dominance import DEFINITION, SCOPE

    build_report([runs["rotate"]], tmp_path / "rot")
    v = _verdict(tmp_path / "rot")
    where = "among the strategies played: always-draw, draw-once (2,000 games, rotated seats)"
    lines = [x for x in v.splitlines() if x.strip()]
    assert any(x.startswith(f"2 players, win rates (fair share 50.0%) {where}: draw-once ") for x in lines)
    dom = [x for x in lines if x.startswith(("FLAG dominant strategy", "Leading, not dominant"))]
    # draw-once beats the only other strategy by 12.8 points [8.1, 17.4] paired (over the 1,000 game seeds, each in
    # both seat orders): dominant in this field of two
    assert len(dom) == 1 and dom[0].startswith(f"FLAG dominant strategy (2 players, {where}): draw-once wins 56.4% ")
    assert "beats every other strategy of this field head to head, each pair resolved (closest: always-draw by " \
           "12.8 points [8.1, 17.4] paired over 2,000 games, Holm-adjusted over 3 comparisons" in dom[0]
    assert DEFINITION in dom[0]
    seat = next(x for x in lines if "seat advantage" in x)
    assert f"from rotated seats (every strategy in every seat equally often: strategy effects balanced); seat numbers " \
           f"from the field {where}): seat 1 wins" in seat
    assert SCOPE in lines


def test_a_seat_spread_of_zero_says_every_seat_wins_the_same_share_not_a_pair_with_p_nan(tmp_path):
    from meeplelab.analysis.load import load_runs
    from meeplelab.analysis.seats import games_frame
    from meeplelab.analysis.verdict import seat_flags

    run = _run(tmp_path, "tie", "rotate", ("always-draw",), {"copies": 1, "max_value": 4, "max_draws": 2,
                                                             "rounds": 3}, games=20)
    runs = load_runs([run])
    df = games_frame(runs).with_columns(pl.lit(0.5).alias("win_share"))  # every game shared: no seat advantage
    lines, spread = seat_flags(runs, df)
    assert spread["spread"].to_list() == [0.0]
    line = next(ln for ln in lines if "2 players" in ln)
    assert "every seat wins 50.0% [" in line and "no best-worst pair to test" in line
    assert "nan" not in line and "seat 1 wins" not in line
