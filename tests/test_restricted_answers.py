"""An experiment's scripted question asked by restricted play inside ``meeplelab stronger``: each game's translation,
the rows paired on common seeds (a restriction that never binds pairs to exactly 0), the Coffee treatment placed
in every seat, and the experiment report's section."""

from __future__ import annotations

import json

import polars as pl
import pytest
from meeplelab.analysis import restricted_answers as R
from meeplelab.analysis.load import load_runs
from meeplelab.play.config import RunConfig
from meeplelab.play.experiment import plan_experiment, run_experiment
from meeplelab.studies.restricted_questions import questions, restricted_answers
from meeplelab.studies.stronger import _play, run_stronger, strong_player

from tests.cli_run import run_cli

GT, UM = "galileos-truth", "unconscious-mind"
EXEC = {"n_jobs": 1, "batch_size": 1024, "backend": "loky", "scheduler": None}


def _experiment(out, game, field, control, games, vary=None, treat=None):
    base = RunConfig(game=game, players=4, strategies=tuple(field), games=games, seed=2, seating="rotate",
                     out=str(out), n_jobs=1)
    axis = {"vary": vary} if vary else {"treat": treat}
    settings = "".join(f"{k} = {json.dumps(v)}\n" for k, v in {  # the config.toml the command writes
        "game": game, "seed": 2, "strategies": list(field), "control": control, **axis, "players": 4,
        "seating": "rotate"}.items())
    run_experiment(plan_experiment(base, vary=vary, control=control, treat=treat), out, settings=settings)
    return out


def test_each_game_translates_its_scripted_plans_and_nothing_else():
    assert R.translate(GT, "abjure-at:cycle=3") == ("force:abjure@cycle==3",)
    assert R.translate(GT, "never-abjure") == ("never:abjure",)
    assert R.translate(GT, "abjure-at:suspicion=5") is None  # matched whole: only the Cycle timing is translated
    assert R.translate(GT, "writer") is None
    assert R.translate(UM, "citer") == ("", "force:cite")
    assert R.translate(UM, "never-cite") == ("never:cite",)
    assert R.translate(UM, "coffee-engine") == ("",)
    assert R.translate(UM, "never-abjure") is None


@pytest.mark.slow  # plays about 70 four-seat games of Galileo's Truth
def test_abjure_timing_asked_by_restricted_play_in_stronger_and_the_never_binding_control_pairs_to_zero(
        tmp_path, capsys, monkeypatch):
    exp = _experiment(tmp_path / "gt-abjure", GT, ("writer", "suspicion-averse", "inventor"), "never-abjure", 8,
                      vary="abjure-at.cycle=2")
    assert questions(exp) == {"control": {"scripted": "never-abjure", "suffix": "never:abjure"},
                              "arms": [{"scripted": "abjure-at:cycle=2", "suffix": "force:abjure@cycle==2",
                                        "treatment": None}]}
    r = run_stronger(GT, [exp], tmp_path / "st", games=8, mirror_games=8, n_jobs=1)
    [entry] = r[R.KEY]
    assert json.loads((tmp_path / "st" / "stronger.json").read_text())[R.KEY][0]["rows"][1]["n"] == 8
    ctrl, forced = entry["rows"]
    # tuned never abjures by itself: never:abjure changes no decision, so its games are the mirror's, exactly
    assert (ctrl["label"], ctrl["against"], ctrl["changed_games"], ctrl["n"]) == ("tuned+never:abjure", "tuned", 0, 8)
    assert (ctrl["win_diff"]["est"], ctrl["vp_diff"]["est"], ctrl["vp_arm"]) == (0.0, 0.0, ctrl["vp_control"])
    # forced to Abjure in Cycle 2: every game changes; the row's figures are the run's own
    assert (forced["label"], forced["against"], forced["fair"]) == ("tuned+force:abjure@cycle==2", "tuned+never:abjure", 25.0)
    assert forced["changed_games"] == 8
    g = load_runs([tmp_path / "st" / "gt-abjure-restricted" / "force-abjure-cycle-2"]).games.collect()
    mine = g.filter(pl.col("strategy").str.ends_with("+force:abjure@cycle==2"))
    assert sorted(mine["seat"].to_list()) == [0, 0, 1, 1, 2, 2, 3, 3]  # every seat in turn, 2 seeds each
    assert forced["win"]["est"] == pytest.approx(mine["win_share"].mean() * 100)
    assert forced["vp_arm"] == pytest.approx(mine["vp"].mean())
    events = load_runs([tmp_path / "st" / "gt-abjure-restricted" / "force-abjure-cycle-2"]).events.collect()
    assert events.filter(pl.col("kind") == "abjure").height >= 1
    scripted = forced["scripted_win"]
    assert forced["scripted"] == "abjure-at:cycle=2" and scripted["n"] == 8 and scripted["low"] <= scripted["est"]
    sec = R.section(tmp_path / "st", exp)
    assert sec.title == "Asked by restricted play (tuned heuristic)"
    assert "tuned+never:abjure against tuned: the restriction changed no decision in 8 seat-games" in sec.text
    t = sec.tables[0][1]
    assert t["player"].to_list() == ["tuned+never:abjure", "tuned+force:abjure@cycle==2"]
    assert t["changed"].to_list() == [0.0, 100.0]
    assert "## gt-abjure asked by restricted play" in (tmp_path / "st" / "stronger.md").read_text()
    other = _experiment(tmp_path / "other", GT, ("writer", "suspicion-averse", "inventor"), "never-abjure", 4,
                        vary="abjure-at.cycle=3")
    assert R.section(tmp_path / "st", other).text.startswith("Not asked")
    # the experiment's report with the study: its first screen is written from what holds for the tuned heuristic
    code, out, err = run_cli(["report", exp, "--stronger", tmp_path / "st", "--no-progress"], capsys, monkeypatch)
    assert code == 0, err
    said = out.splitlines()[1:4]
    assert said[0].startswith("Re-checked with the tuned heuristic: ") and "also for the heuristic" in said[0]
    assert not any("[" in x for x in said)
    md = (exp / "report" / "report.md").read_text()
    check = md[md.index("## Does it hold for stronger players?"):]
    assert "gt-abjure: Abjure in Cycle 2 against Never Abjure" in check and "Across the ladder: Heuristic " in check
    assert md.index("## In three sentences") < md.index("## Verdict") < md.index("## Does it hold for stronger")
    written = (exp / "report" / "report.md").read_bytes()
    (tmp_path / "empty").mkdir()  # not a stronger study: one line, exit 2, the report there untouched
    code, _, err = run_cli(["report", exp, "--stronger", tmp_path / "empty", "--no-progress"], capsys, monkeypatch)
    assert code == 2 and "no readable stronger.json" in err and (exp / "report" / "report.md").read_bytes() == written


@pytest.mark.slow  # plays about 40 four-seat games of Unconscious Mind
def test_one_more_coffee_is_given_to_the_tuned_player_in_every_seat_against_the_mirror(tmp_path):
    exp = _experiment(tmp_path / "um-coffee", UM, ("publisher", "citer", "curer"), "coffee-engine", 8,
                      treat="coffee+1")
    strong = strong_player(UM)
    e = restricted_answers(exp, tmp_path / "st", strong, "words", 8, 0, EXEC, lambda c: _play(c, False, False),
                           lambda s: None)
    [row] = e["rows"]  # the control (the tuned player) is the mirror itself: no control row
    assert (row["label"], row["against"], row["treatment"], row["n"]) == ("tuned with coffee+1", "tuned", "coffee+1", 8)
    base = tmp_path / "st" / "um-coffee-restricted"
    seats = []
    for k in range(4):
        g = load_runs([base / "unrestricted-coffee+1" / f"seat{k + 1}"]).games.collect()
        seats += [k] * g.filter(pl.col("seat") == k).height
        assert json.loads((base / "unrestricted-coffee+1" / f"seat{k + 1}" / "manifest.json").read_text())[
            "config"]["treatment"] == {"position": k, "field": "coffee", "add": 1}
    assert seats == [0, 0, 1, 1, 2, 2, 3, 3]
    m = R.focal_games(base / "mirror")
    treated = pl.concat([R.focal_games(base / "unrestricted-coffee+1" / f"seat{k + 1}", seat=k) for k in range(4)])
    j = treated.join(m, on=["game_seed", "seat"], suffix="_m")
    assert row["vp_diff"]["est"] == pytest.approx(float((j["vp"] - j["vp_m"]).mean()))
    assert row["changed_games"] == int((j["key"] != j["key_m"]).sum())
