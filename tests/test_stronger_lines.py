"""The lines ``meeplelab stronger`` prints and writes to ``stronger.md``, judged as the report judges them: a focal
plan on the win-rate floor is read by its VP effect and the line says so with the focal base rate, at the strongest
rung and at a lower one, and a difference under the metric's resolution is never a change. Known answers on a
hand-made study (no games played: the checks carry their figures, as a study's do once read from its folders)."""

from __future__ import annotations

from meeplelab.studies.stronger import judged, markdown


def _r(est, low, high, n=400):
    return {"est": est, "low": low, "high": high, "n": n}


def _abjure(cycle: int, scripted, strong, base, vp, heuristic) -> dict:
    return {
        "kind": "experiment",
        "source": "gt-abjure",
        "arm": f"abjure-at:cycle={cycle}",
        "players": 4,
        "conclusion": f"gt-abjure: abjure-at:cycle={cycle} against never-abjure, focal player's win rate (points)",
        "scripted": scripted,
        "strong": strong,
        "base": {"scripted": {"est": base[0], "n": 4800}, "strong": {"est": base[1], "n": 400}},
        "vp": {"scripted": vp[0], "strong": vp[1]},
        "ladder": [heuristic],
    }


def _study() -> dict:
    """Three checks: Abjure in Cycle 2 (its plan on the floor among tuned players, 2.8%, off it among heuristic
    ones, 5.8%), Abjure in Cycle 3 (on the floor at both rungs) and a seat pair whose tuned figure differs from the
    scripted one by less than one game of the smaller sample (0.125 points) with a tight interval."""
    two = _abjure(
        2,
        _r(-16.7, -18.2, -14.9, 4800),
        _r(-2.5, -4.3, -0.6),
        (35.1, 2.8),
        (_r(-5.58, -6.07, -5.08), _r(-3.104, -4.37, -1.83)),
        {"rung": "heuristic", **_r(-2.0, -4.9, 1.0), "base": {"est": 5.8, "n": 400}, "vp": _r(-2.02, -3.56, -0.47)},
    )
    three = _abjure(
        3,
        _r(-13.8, -15.0, -12.2, 4800),
        _r(-0.2, -2.2, 1.7),
        (30.0, 2.1),
        (_r(-4.80, -5.18, -4.43), _r(-4.70, -5.90, -3.50)),
        {"rung": "heuristic", **_r(-3.5, -5.8, -1.1), "base": {"est": 3.0, "n": 400}, "vp": _r(-4.62, -5.50, -3.70)},
    )
    seat = {
        "kind": "seat spread",
        "players": 2,
        "conclusion": "seat 2 minus seat 1 at 2 seats (win rate points)",
        "scripted": _r(12.0, 11.98, 12.02, 6000),
        "strong": _r(12.1, 12.08, 12.12, 800),
        "ladder": [{"rung": "heuristic", **_r(17.8, 10.9, 24.5, 800)}],
    }
    return {
        "game": "galileos-truth",
        "status": "complete",
        "strong_words": "the tuned heuristic (a preset)",
        "games": 400,
        "mirror_games": 800,
        "request": {"sources": []},
        "sources": [],
        "rungs": [{"label": "heuristic"}, {"label": "tuned heuristic"}],
        "checks": [two, three, seat],
    }


def test_a_focal_plan_on_the_floor_is_judged_and_written_by_its_vp_effect(tmp_path):
    r = judged(_study(), tmp_path)
    two, three, seat = r["checks"]
    # Cycle 2: the win rate moves -16.7 -> -2.5 (a resolved +14.2), but the plan wins 2.8% among tuned players:
    # the verdict is the VP effect's, -5.58 -> -3.10 VP, a resolved +2.48
    assert two["floor"] and two["verdict"] == "changes" and two["vp"]["verdict"] == "changes"
    assert (
        "the focal plan alone, in the control arm, wins 35.1% among the scripted field and 2.8% among strong "
        "players: on the floor (under 5% whatever it does), so the win-rate change is not read as an effect; its "
        "VP effect: scripted field -5.58 VP [-6.07, -5.08], strong field -3.10 VP [-4.37, -1.83]: **changes by "
        "+2.48 VP [+1.11, +3.84]**."
    ) in r["lines"][0]
    assert "changes by +14.2" not in r["lines"][0]
    # the heuristic rung is off the floor (5.8%): its win rate is read, its base rate beside it
    assert not two["ladder"][0]["floor"] and two["ladder"][0]["verdict"] == "changes"
    assert r["lines"][0].endswith(
        "Across the ladder: heuristic -2.0 [-4.9, +1.0], base 5.8% (changes); only among scripted plans."
    )
    # Cycle 3: the win rate moves -13.8 -> -0.2 (resolved), yet on the floor at both rungs the VP effect holds
    assert three["verdict"] == "holds" and three["ladder"][0]["floor"] and three["ladder"][0]["verdict"] == "holds"
    assert (
        "strong field -4.70 VP [-5.90, -3.50]: **holds** (difference +0.10 VP [-1.16, +1.36], not resolved)"
        in r["lines"][1]
    )
    assert r["lines"][1].endswith(
        "Across the ladder: heuristic -3.5 [-5.8, -1.1], base 3.0%: on the floor, VP effect "
        "-4.62 VP [-5.50, -3.70] (VP: holds); holds at every rung."
    )
    # the seat pair: +0.1 points with a tight interval is under one game of 800 (0.125 points): not a change
    assert seat["difference"]["low"] > 0 and seat["verdict"] == "holds"
    assert "**holds** (difference +0.1 [+0.1, +0.1], under the metric's resolution of 0.12)" in r["lines"][2]
    # stronger.md: the intro says how the floor is read, then exactly the printed lines
    md = markdown(r)
    assert "sits on the floor there: its win-rate change is not read as an effect, its VP effect is" in md
    assert md.split("\n\n")[2].splitlines() == [f"- {x}" for x in r["lines"]]


def test_a_check_without_folders_keeps_its_figures_and_the_study_words_its_own_ids(tmp_path):
    study = _study()
    r = judged(study, tmp_path)
    assert [c["scripted"] for c in r["checks"]] == [c["scripted"] for c in study["checks"]]
    assert all("line" not in c for c in r["checks"])  # the report words its own lines (the game's labels)
    assert r["lines"][0].startswith("gt-abjure: abjure-at:cycle=2 against never-abjure, focal player's win rate")
    assert judged(r, tmp_path)["lines"] == r["lines"]  # judging a judged study again changes nothing
