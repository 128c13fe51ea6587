"""The balance report's first screen: three short sentences written only from what holds for the strongest players
measured, then one chart-first panel per question.

Known answers first (a re-check judged against the metric's resolution, a focal plan on the floor read by its VP
effect), then real reports of a small toy field built by the real report builder: once with a stronger-players study
in which every seat and strategy conclusion reverses (the study's table written here from the field's own figures,
each sign flipped), once without one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tests.toygame  # noqa: F401  registers "toy"
from meeplelab.analysis.first_screen import APART, MAX_WORDS, word_count
from meeplelab.analysis.stronger import FLOOR, compare, judge, judge_ladder, ladder_table, line


def _r(est, low, high, n=400):
    return {"est": est, "low": low, "high": high, "n": n}


def test_a_difference_under_the_metrics_resolution_is_never_a_change():
    s, t = _r(0.10, 0.04, 0.16), _r(0.0, -0.05, 0.05)  # a game's mean VP: one VP to one of 4 seats is 0.25
    assert compare(s, t)[0] == "changes" and compare(s, t, 0.25)[0] == "holds"
    c = judge({"conclusion": "x: a against b, a game's mean final VP", "players": 4, "scripted": s, "strong": t})
    assert c["verdict"] == "holds"
    text = line(c)
    assert "under the metric's resolution of 0.25" in text and "+0.10 VP [+0.04, +0.16]" in text  # VP: 2 decimals
    # a resolved change past the resolution stays one
    assert compare(_r(1.0, 0.8, 1.2), _r(0.2, 0.0, 0.4), 0.25)[0] == "changes"


def test_a_focal_plan_on_the_floor_is_read_by_its_vp_effect():
    c = {"conclusion": "e: abjure-at:cycle=2 against never-abjure, focal player's win rate (points)", "players": 4,
         "scripted": _r(-16.7, -18.2, -14.9, 4800), "strong": _r(-2.5, -4.3, -0.6),
         "base": {"scripted": {"est": 35.1, "n": 4800}, "strong": {"est": 2.8, "n": 400}},
         "vp": {"scripted": _r(-5.58, -6.07, -5.08), "strong": _r(-5.2, -6.4, -4.0)}}
    assert compare(c["scripted"], c["strong"])[0] == "changes"  # read as a win rate, the cost would be "gone"
    j = judge(c)
    assert 2.8 < FLOOR and j["floor"] and j["verdict"] == j["vp"]["verdict"] == "holds"
    text = line(j)
    assert "wins 35.1% among the scripted field and 2.8% among strong players" in text
    assert "not read as an effect" in text and "-5.58 VP [-6.07, -5.08]" in text and "**holds**" in text
    # off the floor: the win rate is read, its base rate and the VP effect shown beside it
    off = judge({**c, "base": {"scripted": {"est": 35.1, "n": 4800}, "strong": {"est": 20.0, "n": 400}}})
    assert "floor" not in off and off["verdict"] == "changes" and "VP effect: scripted field -5.58 VP" in line(off)


def test_the_ladder_table_says_which_rungs_are_judged_by_vp_on_the_floor():
    c = {"conclusion": "e: abjure-at:cycle=2 against never-abjure, focal player's win rate (points)", "players": 4,
         "scripted": _r(-16.7, -18.2, -14.9, 4800), "strong": _r(-2.5, -4.3, -0.6),
         "base": {"scripted": {"est": 35.1, "n": 4800}, "strong": {"est": 2.8, "n": 400}},
         "vp": {"scripted": _r(-5.58, -6.07, -5.08), "strong": _r(-3.104, -4.37, -1.83)},
         "ladder": [{"rung": "heuristic", **_r(-2.0, -4.9, 1.0), "base": {"est": 5.8, "n": 400},
                     "vp": _r(-2.02, -3.56, -0.47)}]}
    j = judge_ladder(judge(c))
    assert j["floor"] and not j["ladder"][0]["floor"]
    row = ladder_table({"game": "galileos-truth", "rungs": [{"label": "heuristic"}, {"label": "tuned heuristic"}],
                        "checks": [j]}).row(0, named=True)
    # the tuned rung's plan wins 2.8%: its verdict is its VP effect's (-5.58 -> -3.10 VP: changes), and says so
    assert row["tuned heuristic"] == ("-2.5 [-4.3, -0.6]; base 2.8%; -3.10 VP [-4.37, -1.83] (VP: changes; win rate "
                                      "on the floor)")
    assert row["heuristic"] == "-2.0 [-4.9, +1.0]; base 5.8%; -2.02 VP [-3.56, -0.47] (changes)"  # off the floor
    assert row["scripted plans"] == "-16.7 [-18.2, -14.9]; base 35.1%; -5.58 VP [-6.07, -5.08]"
    # a VP difference under the resolution (one VP to one of 4 seats) is not a change, even with a tight interval
    tight = judge({**c, "ladder": [], "vp": {"scripted": _r(-5.58, -5.60, -5.56), "strong": _r(-5.40, -5.42, -5.38)}})
    assert tight["floor"] and tight["verdict"] == "holds"
    assert ladder_table({"game": "galileos-truth", "rungs": [{"label": "tuned heuristic"}], "checks": [tight]}).row(
        0, named=True)["tuned heuristic"].endswith("-5.40 VP [-5.42, -5.38] (VP: holds; win rate on the floor)")


@pytest.fixture(scope="module")
def field(tmp_path_factory):
    """A toy field at 2 players (always-draw dominates random) and 3 players (a seat advantage), rotated seats, and
    its verdict's facts."""
    from meeplelab.analysis.load import load_runs
    from meeplelab.analysis.verdict import verdict_section
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    root = tmp_path_factory.mktemp("field")
    runs = []
    for p, field in ((2, ("random", "always-draw")), (3, ("random", "always-draw", "greedy-vp"))):
        runs.append(root / f"{p}p")
        simulate(RunConfig(game="toy", players=p, strategies=field, games=600, seed=5, seating="rotate",
                           out=str(runs[-1]), n_jobs=1))
    return root, runs, verdict_section(load_runs(runs)).data["facts"]


def _reversed_study(root: Path, runs, facts) -> Path:
    """A finished stronger study of ``runs`` in which every seat order and the top strategy's edge reverse: the
    strong figures are the field's own, sign flipped (the study's table as ``meeplelab stronger`` writes it)."""
    checks = []
    for r in facts["spread"]:
        b, w = r["best_seat"] + 1, r["worst_seat"] + 1
        s = {"est": r["spread"], "low": r["spread_low"], "high": r["spread_high"], "n": r["games"]}
        t = {"est": -r["spread"], "low": -r["spread_high"], "high": -r["spread_low"], "n": r["games"]}
        checks.append({"kind": "seat spread", "players": r["players"], "verdict": "reverses",
                       "conclusion": f"seat {b} minus seat {w} at {r['players']} seats", "scripted": s, "strong": t,
                       "spread": {**s, "best_seat": b, "worst_seat": w},
                       "strong_spread": {**s, "best_seat": w, "worst_seat": b}})
    p = max(facts["strategies"])
    top = facts["strategies"][p]["top"]
    edge = {k: top[k] * 100 - 100 / p for k in ("est", "low", "high")}
    checks.append({"kind": "top strategy", "players": p, "strategy": top["strategy"], "verdict": "reverses",
                   "conclusion": f"{top['strategy']}'s edge at {p} seats", "scripted": {**edge, "n": top["games"]},
                   "strong": {"est": -edge["est"], "low": -edge["high"], "high": -edge["low"], "n": top["games"]}})
    study = root / "strong"
    study.mkdir(exist_ok=True)
    (study / "stronger.json").write_text(json.dumps({
        "game": "toy", "status": "complete", "strong_words": "the tuned heuristic (a preset)", "games": 100,
        "mirror_games": 100, "runs": [str(Path(x).resolve()) for x in runs], "checks": checks,
        "lines": [c["conclusion"] for c in checks]}))
    return study


def _report(runs, dest: Path, study: Path | None) -> tuple[str, list[str]]:
    from meeplelab.analysis.report import build_report, build_sections
    from meeplelab.analysis.stronger import section

    def sections(loaded):
        secs = build_sections(loaded)
        return secs[:1] + [section(study, loaded.game_names, [str(r) for r in runs])] + secs[1:]

    said: list = []
    build_report(runs, dest, sections=sections, summary=said)
    return (dest / "report.md").read_text(), said[0]


@pytest.mark.slow
def test_no_sentence_advises_what_reverses_for_stronger_players(field, tmp_path):
    root, runs, facts = field
    dominant = {s["dominant"] for s in facts["strategies"].values() if s["dominant"] is not None}
    flagged = [r for r in facts["spread"] if r["flagged"]]
    assert dominant and flagged, "the toy field has a dominant strategy and a seat advantage to reverse"
    md, three = _report(runs, tmp_path / "rep", _reversed_study(root, runs, facts))
    assert len(three) == 3 and word_count(three) <= MAX_WORDS
    text = " ".join(three)
    assert "[" not in text  # no interval inline
    assert three[0].startswith("Re-checked with the tuned heuristic: 0 of ") and "conclusions hold" in three[0]
    for s in dominant:  # the scripted field's dominant strategy reverses: never advised, listed apart
        assert f"{s} dominant" not in md and f"{s} dominates" not in text
    for r in flagged:  # the scripted seat order reverses: the advice names the strong players' seats, if any
        assert f"seat {r['best_seat'] + 1} over seat {r['worst_seat'] + 1}" not in text
    r = max((r for r in facts["spread"] if r["spread"] > facts["threshold"] and r["spread_low"] > 0),
            key=lambda r: r["spread"])
    assert three[2].startswith(f"Change first the turn-order advantage at {r['players']} players (seat "
                               f"{r['worst_seat'] + 1} over seat {r['best_seat'] + 1})")
    # the reversed conclusions under their own heading, above the verdict, naming the scripted plans
    apart = md[md.index(f"## {APART}"):md.index("## Verdict")]
    assert "but not among the tuned heuristic" in apart and "always" in apart.lower()
    # judged again from the figures: a seat order unresolved among the scripted plans "changes" rather than reverses
    assert apart.count("(reverses)") + apart.count("(changes)") == len(facts["spread"]) + 1
    # the verdict's flags for them are marked, not advice; no "Change first" of the scripted field below
    verdict = md[md.index("## Verdict"):]
    assert "FLAG dominant strategy" not in verdict and "Scripted plans only (it changes among the tuned heuristic" \
        in verdict
    assert md.count("Change first") == 2  # the sentence, and the panel "What to change first" repeating it
    # the first screen: a panel per question, each a chart with alt text and a line in words, before the verdict
    html = (tmp_path / "rep" / "report.html").read_text()
    glance = html[html.index('<div class="glance">'):html.index("</div>", html.index('<div class="glance">'))]
    heads = re.findall(r"<h2>(.*?)</h2>", glance)
    assert heads == ["Balance of strategies", "Seat advantage", "What to change first"]
    assert len(re.findall(r'<img src="figures/glance_[^"]+" alt="\w[^"]+"', glance)) == 3
    assert html.index('<div class="glance">') < html.index(f"<h2>{APART}</h2>") < html.index("<h2>Verdict</h2>")


@pytest.mark.slow
def test_without_stronger_players_the_sentences_say_so_and_name_the_command(field, tmp_path):
    _, runs, _ = field
    md, three = _report(runs, tmp_path / "rep", None)
    assert word_count(three) <= MAX_WORDS and "[" not in " ".join(three)
    assert three[0].startswith("Among scripted plans only (") and "`meeplelab stronger`" in three[0]
    assert f"## {APART}" not in md and "## What to change first" in md
