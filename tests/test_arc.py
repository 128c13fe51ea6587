"""Game-arc metrics (analysis/arc.py) against answers known by hand, and on a real toy run."""

from __future__ import annotations

import math

import polars as pl
import pytest

from meeplelab.analysis import arc as A


def tables(spec: dict, cumulative: bool = False):
    """Turns and games tables from ``{game: (turns, final)}`` with ``turns`` a list of
    ``(round, seat, decisions, vp_after)`` in play order and ``final`` the seats' final VP.

    Winners, ranks, margins and win shares follow from the final VP (no tie-break); ``cumulative``
    logs ``vp_gained`` instead of ``vp_after`` (as Galileo's Truth does)."""
    trows, grows = [], []
    for game, (turns, final) in spec.items():
        ply, last = 0, {}
        for i, (rnd, seat, dec, vp) in enumerate(turns):
            ply += dec
            row = {"game": game, "ply": ply, "turn": i, "round": rnd, "seat": seat}
            row.update({"vp_gained": vp - last.get(seat, 0)} if cumulative else {"vp_after": vp})
            last[seat] = vp
            trows.append(row)
        best = max(final)
        k = sum(v == best for v in final)
        for seat, vp in enumerate(final):
            other = max(v for s, v in enumerate(final) if s != seat)
            grows.append({"game": game, "seat": seat, "players": len(final), "strategy": f"s{seat}", "vp": vp,
                          "rank": 1 + sum(v > vp for v in final), "win": vp == best,
                          "win_share": 1 / k if vp == best else 0.0, "margin": vp - other, "plies": ply,
                          "turns": len(turns), "rounds": max(t[0] for t in turns), "safety_stop": False})
    return pl.DataFrame(trows), pl.DataFrame(grows)


# game 0: leader 0, then 1, then 0 (two lead changes); seat 1 wins on end-game scoring (+3), margin 2.
#         seat 0's turns take 2 decisions, seat 1's one.
# game 1: tie, seat 0 alone, tie; a shared win at 7 VP (margin 0): no lead change.
# game 2: seat 1 has the only turn of round 2 (seat 0 keeps 5 VP): leader 0 then 1, one change; margin 1.
SPEC = {
    0: ([(1, 0, 2, 5), (1, 1, 1, 3), (2, 0, 2, 6), (2, 1, 1, 8), (3, 0, 2, 10), (3, 1, 1, 9)], [10, 12]),
    1: ([(1, 0, 1, 2), (1, 1, 1, 2), (2, 0, 1, 4), (2, 1, 1, 3), (3, 0, 1, 7), (3, 1, 1, 7)], [7, 7]),
    2: ([(1, 0, 1, 5), (1, 1, 1, 1), (2, 1, 1, 6)], [5, 6]),
}


@pytest.mark.parametrize("cumulative", [False, True], ids=["vp_after", "vp_gained"])
def test_per_game_arcs_match_the_hand_computed_answers(cumulative):
    arcs = A.game_arcs(*tables(SPEC, cumulative)).sort("game")
    assert arcs["lead_changes"].to_list() == [2, 0, 1]
    assert arcs["lead_set_changes"].to_list() == [2, 2, 1]  # Ludii: a change of the set of leaders
    assert arcs["margin"].to_list() == [2, 0, 1]
    assert arcs["win_vp"].to_list() == [12, 7, 6]
    assert arcs["tie"].to_list() == [False, True, False]
    assert arcs["comeback"].to_list() == [True, False, True]
    assert arcs["drama_max"].to_list() == [2.0, 0.5, 4.0]
    assert arcs["drama_mean"].to_list() == pytest.approx([1.0, 1 / 6, 2.0])
    assert arcs["behind_share"].to_list() == pytest.approx([2 / 3, 1 / 3, 0.5])


def test_standings_carry_a_seats_vp_through_rounds_it_did_not_play():
    s = A.standings(*tables(SPEC)).filter(pl.col("game") == 2).sort("step", "seat")
    assert s["vp"].to_list() == [5, 1, 5, 6]
    assert s["lead"].to_list() == [True, False, False, True]
    assert s["rounds_left"].to_list() == [1, 1, 0, 0]


def test_lead_changes_read_after_every_turn():
    # game 0 after each turn: 5-0 (0 leads), 5-3, 6-3, 6-8 (1), 10-8 (0), 10-9: two changes
    arcs = A.game_arcs(*tables({0: SPEC[0]}), at="turn")
    assert arcs["lead_changes"].to_list() == [2]


def test_leader_win_rate_by_rounds_left_and_decisiveness():
    lw = A.leader_wins(*tables(SPEC)).sort("rounds_left")
    assert lw["rounds_left"].to_list() == [0, 1, 2]
    assert lw["games"].to_list() == [3, 3, 2]
    # game 1 after rounds 1 and 3: two seats share the lead (1/2 a leader each) and the win (1/2 each): 1/2
    assert lw["wins"].to_list() == pytest.approx([1.5, 1.5, 0.5])
    assert lw["est"].to_list() == pytest.approx([0.5, 0.5, 0.25])
    assert A.decisive_rounds_left(lw)["rounds_left"].to_list() == [None]  # never 90%
    # ten games where the leader of the last two rounds wins and the round-1 leader loses:
    # decisive from one round before the end (estimate); the interval's low bound (10 games) is below 90%
    spec = {g: ([(1, 0, 1, 3), (1, 1, 1, 1), (2, 0, 1, 3), (2, 1, 1, 4), (3, 0, 1, 3), (3, 1, 1, 5)], [3, 5])
            for g in range(10)}
    lw = A.leader_wins(*tables(spec)).sort("rounds_left")
    assert lw["est"].to_list() == [1.0, 1.0, 0.0]
    d = A.decisive_rounds_left(lw).row(0, named=True)
    assert d["rounds_left"] == 1 and d["rounds_left_sure"] is None
    assert lw["low"][0] == pytest.approx(0.7225, abs=1e-4)  # Wilson 10/10


def test_decisions_and_downtime():
    td = A.turn_decisions(tables(SPEC)[0]).filter(pl.col("game") == 0).sort("turn")
    assert td["decisions"].to_list() == [2, 1, 2, 1, 2, 1]
    assert td["downtime"].to_list() == [None, None, 1, 2, 1, 2]


def test_summary_per_player_count_with_intervals():
    turns, games = tables(SPEC)
    s = A.arc_summary(turns, games, seconds_per_decision=30)
    row = {r["metric"]: r for r in s.iter_rows(named=True)}
    assert set(s["players"].to_list()) == {2}
    assert row["lead changes"]["est"] == pytest.approx(5 / 3) and row["lead changes"]["n"] == 3
    assert row["lead changes, sole leader"]["est"] == pytest.approx(1.0)
    # t interval of [2, 0, 1]: 1 +- 4.303 * 1/sqrt(3)
    lo, hi = row["lead changes, sole leader"]["low"], row["lead changes, sole leader"]["high"]
    assert (lo, hi) == pytest.approx((1 - 2.4842, 1 + 2.4842), abs=1e-3)
    assert row["ties"]["est"] == pytest.approx(1 / 3) and row["ties"]["interval"] == "Wilson"
    assert row["winner's margin, median"]["est"] == 1.0
    assert row["decisions per game"]["est"] == pytest.approx((9 + 6 + 3) / 3)
    assert row["table time"]["est"] == pytest.approx(6 * 30 / 60)
    assert row["decisions per seat"]["n"] == 6 and row["decisions per seat"]["est"] == pytest.approx(18 / 6)
    assert row["downtime"]["est"] == pytest.approx((1.5 + 1.0 + 0.0) / 3)  # game 2: seat 1 played twice in a row
    assert row["turns with more than one decision"]["est"] == pytest.approx(3 / 15)
    assert row["comeback rate"]["est"] == pytest.approx(2 / 3)


def test_two_player_counts_are_summarised_apart():
    t2, g2 = tables(SPEC)
    t3, g3 = tables({7: ([(1, 0, 1, 1), (1, 1, 1, 2), (1, 2, 1, 3)], [1, 2, 9])})
    turns, games = pl.concat([t2, t3]), pl.concat([g2, g3])
    s = A.arc_summary(turns, games).filter(pl.col("metric") == "winning score")
    assert dict(zip(s["players"], s["est"])) == {2: pytest.approx(25 / 3), 3: 9.0}
    three = s.filter(pl.col("players") == 3)
    assert three["n"].item() == 1 and math.isnan(three["low"].item())  # one game: no interval


def test_end_scoring_is_final_minus_in_game_vp():
    e = A.end_scoring(*tables(SPEC)).row(0, named=True)
    assert e["n"] == 6 and e["est"] == pytest.approx(3 / 6) and e["exact"] == pytest.approx(5 / 6)


def test_quantile_interval_is_seeded_and_contains_the_estimate():
    x = [float(v) for v in range(1, 101)]
    a, b = A.quantile_interval(x, 0.5, seed=3), A.quantile_interval(x, 0.5, seed=3)
    assert a == b and a[0] == 50.5 and a[1] <= 50.5 <= a[2] and a[2] - a[1] < 25


@pytest.fixture(scope="module")
def toy_runs(tmp_path_factory):
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    base = tmp_path_factory.mktemp("arc")
    for players in (2, 3):
        strategies = ("random", "always-draw", "bank-at:n=6")[:players]
        simulate(RunConfig(game="toy", players=players, strategies=strategies, games=240, seed=5,
                           out=str(base / f"p{players}"), n_jobs=1))
    return [base / "p2", base / "p3"]


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_real_toy_runs_get_a_game_arc_section_per_player_count(toy_runs, tmp_path):
    from meeplelab.analysis.load import load_runs
    from meeplelab.analysis.report import build_report

    runs = load_runs(toy_runs)
    s = A.arc_summary(runs.turns, runs.games)
    assert set(s["players"].to_list()) == {2, 3}
    assert s.filter(pl.col("metric") == "rounds per game")["n"].to_list() == [240, 240]
    ok = s.filter(pl.col("low").is_not_nan())
    assert ok.height > 0.8 * s.height
    for r in ok.iter_rows(named=True):
        assert math.isfinite(r["est"]) and r["low"] - 1e-9 <= r["est"] <= r["high"] + 1e-9, r
    page = build_report(toy_runs, tmp_path / "report")
    md = (page.parent / "report.md").read_text()
    assert "## Game arc" in md
    assert "2 players: " in md and " lead changes a game; the winner's margin has median " in md
    assert "3 players: " in md and "the in-game leader with one round left wins" in md
    # the headline metrics side by side per player count, with intervals; every metric of every count in the CSV
    glance = md.split("*Game arc at a glance")[1].split("[CSV]")[0]
    assert "| metric | unit | 2 players | 2p 95% low | 2p 95% high | 3 players | 3p 95% low | 3p 95% high |" in glance
    for metric in ("lead changes", "comeback rate", "winner's margin", "decision moves", "branching factor"):
        assert f"| {metric} |" in glance, metric
    full = pl.read_csv(sorted(page.parent.glob("tables/*game-arc-metrics*.csv"))[0])
    dm = full.filter(pl.col("metric").is_in(["decision moves", "branching factor"]))
    assert dm.select("players", "n").rows() == [(2, 30), (2, 30), (3, 30), (3, 30)]
    assert "not measured" not in md and "did not reproduce" not in md
    for stem in ("vp_curve_2p", "vp_curve_3p", "winning_score_2p", "winning_score_3p"):
        assert any(page.parent.glob(f"figures/*_{stem}.png")), stem
    csv = sorted(page.parent.glob("tables/*game-arc-metrics*.csv"))
    assert len(csv) == 1 and pl.read_csv(csv[0])["players"].unique().sort().to_list() == [2, 3]


def test_rounds_left_count_from_the_last_turns_round_not_the_games_tables_finished_rounds():
    # the toy game can end mid-round (deck out): the games table counts 2 finished rounds, the last turn is in round 3
    turns, games = tables({0: SPEC[0]})
    s = A.standings(turns, games.with_columns(pl.lit(2).alias("rounds")))
    assert sorted(set(s["rounds_left"].to_list())) == [0, 1, 2]


def test_in_game_vp_from_vp_events_counts_vp_scored_on_another_seats_turn_and_leaves_out_end_scoring():
    # Galileo's Truth logs vp_gained only; its vp events carry the VP after each change. Game 0 of SPEC, but
    # seat 0 scores a royalty of 3 VP on seat 1's turn 3 (9 VP: it still leads round 2), then 1 VP on turn 4;
    # seat 1's 3 end-game VP come after the last turn (turn index 6) and stay out of in-game VP.
    turns, games = tables({0: SPEC[0]}, cumulative=True)
    ev = [(0, 0, 5), (1, 1, 3), (2, 0, 6), (3, 1, 8), (3, 0, 9), (4, 0, 10), (5, 1, 9), (6, 1, 12)]
    events = pl.DataFrame([{"game": 0, "ply": 0, "turn": t, "seat": s, "kind": "vp", "after": a} for t, s, a in ev]
                          + [{"game": 0, "ply": 0, "turn": 2, "seat": 1, "kind": "suspicion", "after": 40}])
    assert A.vp_source(turns, events) == "events" and A.vp_source(turns) == "vp_gained"
    s = A.standings(turns, games, events=events).sort("step", "seat")
    assert s["vp"].to_list() == [5, 3, 9, 8, 10, 9]
    arcs = A.game_arcs(turns, games, events=events)
    assert arcs["lead_changes"].to_list() == [0]
    assert arcs["drama_max"].to_list() == [2.0] and arcs["drama_mean"].to_list() == pytest.approx([4 / 3])
    e = A.end_scoring(turns, games, events).row(0, named=True)
    assert e["est"] == pytest.approx(3 / 2) and e["exact"] == pytest.approx(1 / 2)
    # without the events the running sums of vp_gained are read (these hold no royalty): round 2 goes to seat 1
    assert A.standings(turns, games).sort("step", "seat")["vp"].to_list() == [5, 3, 6, 8, 10, 9]


def test_decision_moves_replay_counts_the_forced_stops_of_always_draw(tmp_path):
    # always-draw draws whenever drawing is legal, so every stop it makes is forced (one legal action) and
    # every other decision had two: decision moves = 1 - stops / decisions, branching = 1 + that share
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    simulate(RunConfig(game="toy", players=2, strategies=("always-draw",), games=12, seed=3, out=str(tmp_path / "r")))
    d = A.decision_moves(tmp_path / "r", games=12).sort("game")
    assert d.height == 12 and d["matches"].all()
    turns = pl.read_parquet(str(tmp_path / "r" / "turns" / "*.parquet"))
    games = pl.read_parquet(str(tmp_path / "r" / "games" / "*.parquet")).filter(pl.col("seat") == 0).sort("game")
    stops = turns.group_by("game").agg((pl.col("ended_by") == "stop").sum().alias("stops")).sort("game")
    assert d["decisions"].to_list() == games["plies"].to_list()
    assert (d["decisions"] - d["decision_moves"]).to_list() == stops["stops"].to_list()
    assert d["legal"].to_list() == (2 * d["decision_moves"] + (d["decisions"] - d["decision_moves"])).to_list()
    s = A.decision_summary(d)
    share = s.filter(pl.col("metric") == "decision moves").row(0, named=True)
    assert share["n"] == 12 and share["low"] <= share["est"] <= share["high"]
    assert share["est"] == pytest.approx(float(d["share"].mean()))


def test_galileos_truth_logs_each_seats_vp_after_its_turn_as_its_vp_events_say(tmp_path):
    """Galileo's Truth's turns table carries ``vp_after`` (so a run written without events has exact
    standings at each seat's turns); on real games it equals the VP ``after`` the seat's last vp event up to the end
    of that turn (0 before its first), and the standings read from it match the events' at every seat's own turn."""
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    out = tmp_path / "gt"
    simulate(RunConfig(game="galileos-truth", players=3, strategies=("writer", "observer", "never-abjure"), games=12,
                       seed=4, seating="rotate", out=str(out), n_jobs=1))
    turns = pl.read_parquet(str(out / "turns" / "*.parquet"))
    events = pl.read_parquet(str(out / "events" / "*.parquet"))
    assert "vp_after" in turns.columns and turns["vp_after"].dtype == pl.Int16
    vp = events.filter(pl.col("kind") == "vp").select("game", "turn", pl.col("seat").cast(pl.Int64),
                                                       pl.col("after").cast(pl.Int64))
    last = vp.group_by("game", "seat", "turn").agg(pl.col("after").last())
    rows = 0
    for r in turns.select("game", "turn", pl.col("seat").cast(pl.Int64), "vp_after").iter_rows(named=True):
        before = last.filter((pl.col("game") == r["game"]) & (pl.col("seat") == r["seat"]) & (pl.col("turn") <= r["turn"]))
        want = int(before.sort("turn")["after"][-1]) if before.height else 0
        assert r["vp_after"] == want, r
        rows += 1
    assert rows == turns.height and turns["vp_after"].max() > 10
    assert A.vp_source(turns, events) == "events" and A.vp_source(turns) == "vp_after"
    # the 2 KB-per-game budget of the turns table (Parquet, compressed) still holds
    size = sum(p.stat().st_size for p in (out / "turns").glob("*.parquet"))
    assert size / 12 < 2048
