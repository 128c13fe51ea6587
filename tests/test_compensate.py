"""``meeplelab compensate``: per-seat start bonuses that bring the seat spread within a target, checked on fresh
seeds with their side effects. Known answer: Galileo's Truth at 2 seats (writer, never-abjure,
both seat orders) has Seat 2 ahead by about 24 points; start VP for Seat 1 removes it on fresh seeds."""

from __future__ import annotations

import json
import tomllib

import numpy as np
import polars as pl
import pytest

from meeplelab.sim.core.errors import ConfigError
from tests.cli_run import run_cli


def test_vp_compensation_meets_the_target_on_fresh_seeds_at_two_seats(tmp_path, capsys, monkeypatch):
    out = tmp_path / "comp"
    code, stdout, err = run_cli(["compensate", "--game", "galileos-truth", "--players", "2", "--target", "6",
                                 "--games", "600", "--iterations", "3", "--verify-factor", "2", "--n-jobs", "1",
                                 "--out", out], capsys, monkeypatch)
    assert code == 0, err
    st = json.loads((out / "compensate.json").read_text())
    assert st["status"] == "complete"
    v = st["verified"]["2"]
    assert v["seed"] == 1_000_003 and v["proposal"]["games"] == 1200  # fresh seeds, twice the search's games
    assert v["none"]["spread"] > 15 and v["none"]["spread_low"] > 6  # the uncompensated seats are far apart there
    assert v["met"] and v["proposal"]["spread"] <= 6 and v["proposal"]["spread_low"] < v["proposal"]["spread"] \
        < v["proposal"]["spread_high"]
    bonus = st["proposal"]["seat_vp_2p"]
    assert bonus[0] > 0 and bonus[1] == 0  # Seat 1 is the one behind
    cands = st["candidates"]["2"]
    assert cands[0]["bonus"] == [0, 0] and abs(cands[0]["rates"][1] - cands[0]["rates"][0]) == pytest.approx(
        cands[0]["spread"])
    assert tomllib.loads((out / "proposal.toml").read_text()) == {"game": "galileos-truth",
                                                                   "params": {"seat_vp_2p": bonus}}
    side = pl.read_csv(out / "side_effects.csv")
    sb = side.filter(pl.col("metric") == "VP from seat_bonus")  # each strategy sits in Seat 1 half the time
    assert sb["est"].to_list() == pytest.approx([bonus[0] / 2] * 2) and sb["changed"].all()
    assert {"win rate (points)", "game length (turns)", "VP from treatise", "Abjure rate (% of seat-games)"} <= \
        set(side["metric"].to_list())
    assert "within the target" in stdout and f"--set seat_vp_2p={bonus[0]},0" in stdout
    assert "| 2 | writer, never-abjure | `seat_vp_2p=" in (out / "compensation.md").read_text()


@pytest.mark.parametrize("kw,message", [
    ({"resource": "suspicion"}, "--resource 'suspicion': galileos-truth has no seat compensation in 'suspicion'; "
                                "allowed coins, research, vp"),
    ({"players": [5]}, "--players 5: compensation fields exist for 2, 3 and 4 seats"),
    ({"target": 0}, "--target 0: allowed a seat spread above 0"),
    ({"fixed": {"seat_vp_2p": "1,0"}}, "--set seat_vp_2p: the compensation fields are what compensate proposes"),
])
def test_bad_requests_are_refused_before_anything_is_played(kw, message):
    from meeplelab.studies.compensate import plan_compensate

    args = {"game": "galileos-truth", "players": [2], "target": 5.0, **kw}
    with pytest.raises(ConfigError, match=message.replace("(", "\\(").replace(")", "\\)").replace("+", "\\+")):
        plan_compensate(args.pop("game"), args.pop("players"), args.pop("target"), **args)


def test_rescoring_moves_winners_by_the_vp_change_and_shares_new_ties():
    from meeplelab.studies.compensate import rescored_rates

    vp = np.array([[10, 12], [10, 11], [9, 20], [7, 7]])
    share = np.array([[0, 1], [0, 1], [0, 1], [1, 0]], dtype=float)  # game 3: a VP tie won by seat 0 on tie-break
    assert rescored_rates(vp, share, [0, 0]).tolist() == [25.0, 75.0]
    # +1 VP for seat 0: game 2 becomes a new tie (shared: its tie-break was never played), game 4 stays won
    assert rescored_rates(vp, share, [1, 0]).tolist() == pytest.approx([37.5, 62.5])
    # the same VP for both: every winner, the tie-break of game 4 included, is kept
    assert rescored_rates(vp, share, [2, 2]).tolist() == pytest.approx([25.0, 75.0])


def test_the_linear_step_fits_the_slope_of_the_candidates_played():
    from meeplelab.studies.compensate import _resource, next_candidate

    coins = _resource("galileos-truth", "coins")
    first = [{"bonus": [0, 0], "rates": [40.0, 60.0]}]
    assert next_candidate(coins, first, 10) == (1, 0)  # no slope yet: one unit for the worst seat
    # one Coin moved Seat 1 by 2 points (and Seat 2 by -2): 8 more close the remaining 16 points
    hist = first + [{"bonus": [1, 0], "rates": [42.0, 58.0]}]
    assert next_candidate(coins, hist, 20) == (5, 0)


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_a_finished_solve_resumes_from_its_runs_and_a_different_one_is_refused(tmp_path):
    from meeplelab.studies.compensate import plan_compensate, run_compensate
    from meeplelab.sim.core.errors import RunFolderError

    out = tmp_path / "comp"
    req = plan_compensate("galileos-truth", [2], 5.0, games=40, iterations=2, verify_factor=1)
    first = run_compensate(req, out, n_jobs=1)
    manifests = {p: p.stat().st_mtime_ns for p in out.rglob("manifest.json")}
    again = run_compensate(req, out, n_jobs=1, resume=True)
    assert again["proposal"] == first["proposal"] and again["verified"] == first["verified"]
    assert {p: p.stat().st_mtime_ns for p in out.rglob("manifest.json")} == manifests  # nothing played again
    other = plan_compensate("galileos-truth", [2], 4.0, games=40, iterations=2, verify_factor=1)
    with pytest.raises(RunFolderError, match="cannot resume: the compensation solve in .* was started with target = "
                                             "5.0, this one has target = 4.0"):
        run_compensate(other, out, n_jobs=1, resume=True)
    with pytest.raises(RunFolderError, match="holds another compensation solve: use --resume"):
        run_compensate(req, out, n_jobs=1)
    # how the runs are executed (workers, backend, batch size) does not change the solve
    other_way = run_compensate(req, tmp_path / "threads", n_jobs=2, backend="threading", batch_size=16)
    assert other_way["proposal"] == first["proposal"] and other_way["verified"] == first["verified"]
    assert other_way["candidates"] == {p: [{**c, "run": c["run"]} for c in v] for p, v in first["candidates"].items()}
