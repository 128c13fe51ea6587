"""``--field ladder`` readings follow the stronger-players lines' rules: no change from a difference under the
metric's resolution (one VP to one seat of a game's mean, one game of a win rate), and a win rate whose player sits
on the floor at a rung is read there by the same answer's final VP, and the reading says so. Known answers on
hand-made answers and a hand-made delta table (no games played)."""

from __future__ import annotations

import polars as pl

from meeplelab.analysis.rungs import EVERY, FLOOR, SCRIPTED_ONLY, resolution_of
from meeplelab.studies import field_ladder
from meeplelab.studies.field_ladder import compare_answers, ladder_rows, reading, rung_folder

RUNGS = ("scripted", "tuned")


def _a(est, low, high, unit, **kw):
    return {"est": est, "low": low, "high": high, "unit": unit, "text": f"{est}", **kw}


def test_the_resolution_of_each_metric():
    assert resolution_of("VP", 4) == 0.25 and resolution_of("VP") == 0.005  # without seats: the two decimals shown
    assert resolution_of("points", games=400) == 0.25 and resolution_of("points") == 0.05
    assert resolution_of("rounds", 4, 400) == 0.0 and FLOOR == 5.0


def test_a_difference_under_the_resolution_is_no_change_across_the_ladder():
    # +0.20 VP with a tight interval: resolved, but under one VP to one of 4 seats (0.25 VP)
    vp = {"scripted": _a(1.00, 0.95, 1.05, "VP", players=4), "tuned": _a(1.20, 1.15, 1.25, "VP", players=4)}
    assert reading(vp, RUNGS) == (EVERY, "")
    assert reading({**vp, "tuned": _a(1.30, 1.25, 1.35, "VP", players=4)}, RUNGS) == (SCRIPTED_ONLY, "")
    # +3 points of a win rate over 20 games each: one game is 5 points
    win = {"scripted": _a(10.0, 9.9, 10.1, "points", n=20), "tuned": _a(13.0, 12.9, 13.1, "points", n=20)}
    assert reading(win, RUNGS)[0] == EVERY
    assert reading({r: {**a, "n": 400} for r, a in win.items()}, RUNGS)[0] == SCRIPTED_ONLY  # one game is 0.25 points


def test_a_win_rate_on_the_floor_at_a_rung_is_read_by_its_vp_there_and_says_so():
    # Abjure in Cycle 2: -16.7 -> -2.5 points (a resolved change), the plan winning 2.8% among tuned players
    win = {
        "scripted": _a(-16.7, -18.2, -14.9, "points", n=4800, base=35.1),
        "tuned": _a(-2.5, -4.3, -0.6, "points", n=400, base=2.8),
    }
    held = {"scripted": _a(-5.58, -6.07, -5.08, "VP", players=4), "tuned": _a(-5.40, -6.60, -4.20, "VP", players=4)}
    moved = {**held, "tuned": _a(-3.10, -4.37, -1.83, "VP", players=4)}
    floor = "win rate on the floor (under 5%) at the tuned heuristic (base 2.8%): read there by the final VP"
    assert reading(win, RUNGS, held) == (EVERY, floor)
    assert reading(win, RUNGS, moved) == (SCRIPTED_ONLY, floor)
    assert reading(win, RUNGS) == (
        EVERY,
        floor.replace("read there by the final VP", "not read as an effect (no VP answer)"),
    )
    # off the floor (5.8%) the win rate itself is read
    assert reading({**win, "tuned": {**win["tuned"], "base": 5.8}}, RUNGS, held) == (SCRIPTED_ONLY, "")
    # on the floor at the first rung: every rung is read by the VP
    low = {**win, "scripted": {**win["scripted"], "base": 3.0}}
    assert reading(low, RUNGS, held)[1].endswith(
        "(base 3.0%), the tuned heuristic (base 2.8%): read at every rung by the final VP"
    )


def test_ladder_rows_pair_each_win_rate_with_its_final_vp(tmp_path, monkeypatch):
    def answers(folder):  # an experiment's answers per rung: the focal plan on the floor among tuned players
        tuned = folder.name == rung_folder("tuned")
        key = "abjure-at:cycle=2 minus never-abjure: abjure-at:cycle=2's "
        return [
            {
                "key": key + "win rate (points)",
                **_a(
                    -2.5 if tuned else -16.7,
                    -4.3 if tuned else -18.2,
                    -0.6 if tuned else -14.9,
                    "points",
                    n=400,
                    base=2.8 if tuned else 35.1,
                ),
            },
            {
                "key": key + "final VP (VP)",
                **_a(-5.40 if tuned else -5.58, -6.60 if tuned else -6.07, -4.20 if tuned else -5.08, "VP", players=4),
            },
        ]

    monkeypatch.setitem(field_ladder.HEADLINES, "experiment", answers)
    rows = {r["answer"].rsplit("'s ", 1)[1]: r for r in ladder_rows("experiment", tmp_path, RUNGS)}
    assert rows["win rate (points)"]["word"] == EVERY and "on the floor" in rows["win rate (points)"]["detail"]
    assert (rows["final VP (VP)"]["word"], rows["final VP (VP)"]["detail"]) == (EVERY, "")


def test_a_win_rate_cell_shows_its_base_rate_and_the_floor(tmp_path):
    rows = [
        {
            "version": "B",
            "reference": "A",
            "metric": "win rate (points)",
            "players": 4,
            "strategy": "writer",
            "n": 400,
            "ref": 2.5,
            "est": 1.0,
            "low": -0.5,
            "high": 2.5,
        },
        {
            "version": "B",
            "reference": "A",
            "metric": "final VP",
            "players": 4,
            "strategy": "writer",
            "n": 400,
            "ref": 20.0,
            "est": 0.1,
            "low": -0.2,
            "high": 0.4,
        },
    ]
    pl.DataFrame(rows).write_parquet(tmp_path / "deltas.parquet")
    win, vp = compare_answers(tmp_path)
    assert win["text"] == "+1.0 [-0.5, +2.5]; base 2.5%, on the floor" and (win["n"], win["players"]) == (400, 4)
    assert vp["text"] == "+0.10 [-0.20, +0.40]" and vp["unit"] == "VP" and "base" not in vp
