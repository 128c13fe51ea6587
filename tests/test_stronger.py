"""Does it hold for stronger players? ``meeplelab stronger`` re-measures a scripted field's
headline conclusions with the strong field (the tuned heuristic) and the balance report carries the lines.

Known answers first (the verdict of two independent estimates), then a small real study on Galileo's Truth:
two field runs and an Abjure experiment, the strong mirrors, the top strategy among strong players and the
experiment played again with the strong field; each scripted figure recomputed here from the Parquet files."""

from __future__ import annotations

import json

import polars as pl
import pytest

from meeplelab.analysis.rungs import DEPENDS, EVERY, SCRIPTED_ONLY
from meeplelab.analysis.stronger import FLOOR, compare, line, resolution
from meeplelab.analysis.stats import paired_shares
from tests.cli_run import cli_in_process as _cli


@pytest.mark.parametrize("scripted, strong, verdict", [
    ((10, 5, 15), (9, 4, 14), "holds"),          # the same effect
    ((10, 5, 15), (30, 25, 35), "changes"),      # the same sign, resolved difference of +20
    ((10, 5, 15), (-10, -15, -5), "reverses"),   # both resolved, opposite signs
    ((10, 5, 15), (-2, -8, 4), "changes"),       # gone: the strong one includes 0, the difference is resolved
    ((1, -4, 6), (-1, -6, 4), "holds"),          # neither resolved
])
def test_the_verdict_of_two_independent_estimates(scripted, strong, verdict):
    s = dict(zip(("est", "low", "high"), scripted), n=100)
    t = dict(zip(("est", "low", "high"), strong), n=100)
    v, d = compare(s, t)
    assert v == verdict and d["est"] == pytest.approx(t["est"] - s["est"])
    # independent estimates: the difference's half-width is the root of the sum of squared half-widths
    half = (((s["high"] - s["low"]) / 2) ** 2 + ((t["high"] - t["low"]) / 2) ** 2) ** 0.5
    assert d["high"] - d["est"] == pytest.approx(half) and d["est"] - d["low"] == pytest.approx(half)
    text = line({"conclusion": "x", "scripted": s, "strong": t, "verdict": v, "difference": d})
    assert text.startswith("x: scripted field ") and ("**" + v) in text.replace("**changes by", "**changes")


#: the stronger study's games per check (its mirrors, the top strategy among strong players, each experiment arm)
N = 30


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    from meeplelab.studies.stronger import run_stronger

    root = tmp_path_factory.mktemp("stronger")
    for p in (2, 3):
        code, _, err = _cli(["simulate", "--game", "galileos-truth", "--players", str(p), "--strategies",
                             "writer,never-abjure,observer", "--games", "120", "--n-jobs", "1", "--out",
                             str(root / "gt" / f"{p}p"), "--no-progress"])
        assert code == 0, err
    code, _, err = _cli(["experiment", "--game", "galileos-truth", "--players", "3", "--strategies", "writer,observer",
                         "--control", "never-abjure", "--vary", "abjure-at.cycle=1,2", "--games", "30", "--n-jobs", "1",
                         "--no-report", "--out", str(root / "gt-abjure"), "--no-progress"])
    assert code == 0, err
    r = run_stronger("galileos-truth", [root / "gt", root / "gt-abjure"], root / "strong", games=N, mirror_games=N,
                     n_jobs=1)
    return root, r


def _games(folder):
    return pl.read_parquet(folder / "games" / "*.parquet").with_columns(pl.col("strategy").cast(pl.String))


def test_every_headline_conclusion_is_re_measured_with_the_strong_field(study):
    root, r = study
    from meeplelab.strategies.registry import make_strategy

    strong_id = make_strategy("galileos-truth", r["strong"]).id  # the preset's arguments spelled out
    kinds = [c["kind"] for c in r["checks"]]
    assert kinds == ["seat spread", "seat spread", "top strategy", "experiment", "experiment"]
    assert r["strong"].startswith("heuristic:preset=") and r["strong"].endswith("galileos-truth-heuristic-tuned.toml")
    saved = json.loads((root / "strong" / "stronger.json").read_text())
    assert saved["status"] == "complete" and len(saved["lines"]) == 5
    # every check judged as the report judges it (the metric's resolution; a focal plan on the floor by its VP effect)
    for c in r["checks"]:
        v, d = compare(c["scripted"], c["strong"], resolution(c))
        assert d["est"] == pytest.approx(c["difference"]["est"])
        assert c["verdict"] == (c["vp"]["verdict"] if c.get("floor") else v)
    md = (root / "strong" / "stronger.md").read_text()
    assert r["lines"] == saved["lines"] == [line(c) for c in r["checks"]] and all(f"- {x}\n" in md for x in r["lines"])
    for c, text in zip(r["checks"][3:], r["lines"][3:]):  # the focal experiment: its plan's base rate at both rungs
        b = c["base"]
        assert f"wins {b['scripted']['est']:.1f}% among the scripted field and {b['strong']['est']:.1f}% among " \
               "strong players" in text
        assert ("on the floor" in text) == (min(b["scripted"]["est"], b["strong"]["est"]) < FLOOR)
    # the strong mirror holds the strong player in every seat, and the seat pair is recomputed from its games
    for c in r["checks"][:2]:
        p = c["players"]
        g = _games(root / "strong" / f"mirror-{p}p")
        assert set(g["strategy"]) == {strong_id} and g.height == N * p
        b, w = c["spread"]["best_seat"], c["spread"]["worst_seat"]
        assert c["conclusion"].startswith(f"seat {b} minus seat {w} at {p} seats")
        wide = g.pivot(on="seat", index="game", values="win_share").sort("game")
        want = paired_shares(wide[str(b - 1)].to_numpy(), wide[str(w - 1)].to_numpy())
        assert c["strong"]["est"] == pytest.approx(want["est"] * 100) and c["strong"]["n"] == N
        s = _games(root / "gt" / f"{p}p")
        ws = s.pivot(on="seat", index="game", values="win_share").sort("game")
        assert c["scripted"]["est"] == pytest.approx((ws[str(b - 1)] - ws[str(w - 1)]).mean() * 100)
    top = r["checks"][2]
    g3 = _games(root / "gt" / "3p")
    rates = g3.group_by("strategy").agg(pl.col("win_share").mean()).sort("win_share", descending=True)
    assert top["strategy"] == rates["strategy"][0]
    assert top["scripted"]["est"] == pytest.approx(rates["win_share"][0] * 100 - 100 / 3)
    g = _games(root / "strong" / "top-3p")
    assert sorted(set(g["strategy"])) == sorted({top["strategy"], strong_id})
    mine = g.filter(pl.col("strategy") == top["strategy"])
    assert mine.height == N and top["strong"]["est"] == pytest.approx(mine["win_share"].mean() * 100 - 100 / 3)
    # the experiment again: the same axis and seed, the field replaced by the strong player
    arms = json.loads((root / "strong" / "gt-abjure" / "experiment.json").read_text())["arms"]
    assert [a["strategies"] for a in arms] == [[s] + [r["strong"]] * 2 for s in
                                               ("never-abjure", "abjure-at:cycle=1", "abjure-at:cycle=2")]
    assert [c["arm"] for c in r["checks"][3:]] == ["abjure-at:cycle=1", "abjure-at:cycle=2"]


def test_every_conclusion_is_measured_at_each_rung_of_the_ladder(study):
    root, r = study
    assert [x["label"] for x in r["rungs"]] == ["heuristic", "tuned heuristic"]
    assert r["rungs"][0]["strategy"] == "heuristic" and r["rungs"][1]["strategy"] == r["strong"]
    low = root / "strong" / "rung-heuristic"
    # the lower rung plays the same checks: its mirrors, the top strategy among it, the experiment with it as field
    for c in r["checks"][:2]:
        (e,) = c["ladder"]
        g = _games(low / f"mirror-{c['players']}p")
        assert e["rung"] == "heuristic" and set(g["strategy"]) == {"heuristic"} and g.height == N * c["players"]
        b, w = c["spread"]["best_seat"], c["spread"]["worst_seat"]
        wide = g.pivot(on="seat", index="game", values="win_share").sort("game")
        assert e["est"] == pytest.approx(paired_shares(wide[str(b - 1)].to_numpy(), wide[str(w - 1)].to_numpy())["est"]
                                         * 100)
    top = r["checks"][2]
    mine = _games(low / "top-3p").filter(pl.col("strategy") == top["strategy"])
    assert top["ladder"][0]["est"] == pytest.approx(mine["win_share"].mean() * 100 - 100 / 3)
    arms = json.loads((low / "gt-abjure" / "experiment.json").read_text())["arms"]
    assert [a["strategies"] for a in arms] == [[s, "heuristic", "heuristic"] for s in
                                               ("never-abjure", "abjure-at:cycle=1", "abjure-at:cycle=2")]
    assert all(len(c["ladder"]) == 1 for c in r["checks"][3:])
    # every line reads the conclusion across the ladder, and each lower rung is judged as the strongest is
    for c, text in zip(r["checks"], r["lines"]):
        assert "Across the ladder: heuristic " in text
        assert text.rstrip(".").endswith(("holds at every rung", "only among scripted plans")) or \
            "depends on skill (changes " in text
        e, tail = c["ladder"][0], text.split("Across the ladder: ", 1)[1]
        if e.get("floor"):  # its focal plan on the floor at that rung: read by its VP effect
            assert ": on the floor, VP effect " in tail and f"(VP: {e['verdict']})" in tail
        else:
            v, _ = compare(c["scripted"], e, resolution({**c, "strong": e}))
            assert e["verdict"] == v and f"({v})" in tail


def test_the_report_carries_the_lines_or_says_what_is_not_checked(study, tmp_path):
    root, r = study
    code, _, err = _cli(["report", str(root / "gt" / "2p"), str(root / "gt" / "3p"), "--out", str(tmp_path / "rep"),
                         "--stronger", str(root / "strong"), "--no-progress"])
    assert code == 0, err
    md = (tmp_path / "rep" / "report.md").read_text()
    sec = md[md.index("## Does it hold for stronger players?"):]
    sec = sec[:sec.index("\n## ", 5)]
    from meeplelab.analysis.stronger import enrich

    judged = enrich(r, root / "strong")  # each check judged again with the focal base rate and the VP effect
    assert all(x in sec for x in judged["lines"]) and "the tuned heuristic" in sec
    head = "| conclusion | scripted plans | heuristic | tuned heuristic | across the ladder |"
    rows = sec.split(head, 1)[1].split("\n\n", 1)[0].strip().splitlines()[1:]
    assert len(rows) == len(judged["checks"])
    assert all(row.split("|")[-2].strip().startswith((EVERY, DEPENDS, SCRIPTED_ONLY)) for row in rows)
    focal = [c for c in judged["checks"] if c["kind"] == "experiment"]
    assert focal and all("the focal plan alone, in the control arm, wins" in c["line"] for c in focal)
    code, _, err = _cli(["report", str(root / "gt" / "2p"), "--out", str(tmp_path / "plain"), "--no-progress"])
    assert code == 0, err
    md = (tmp_path / "plain" / "report.md").read_text()
    assert "## Does it hold for stronger players?\n\nNot checked: every conclusion above holds among the strategies " \
           "played" in md and f"meeplelab stronger --game galileos-truth --from {root / 'gt' / '2p'} --out STRONG" in md


def test_bad_stronger_input_is_one_line_exit_2_and_nothing_written(study, tmp_path):
    root, _ = study
    code, _, err = _cli(["report", str(root / "gt" / "2p"), "--out", str(tmp_path / "rep"), "--stronger",
                         str(tmp_path / "none"), "--no-progress"])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no readable stronger.json" in err
    assert not (tmp_path / "rep").exists()
    code, _, err = _cli(["stronger", "--game", "galileos-truth", "--from", str(tmp_path), "--out",
                         str(tmp_path / "s"), "--no-progress"])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "not a run folder" in err
    assert not (tmp_path / "s").exists()
    code, _, err = _cli(["stronger", "--game", "unconscious-mind", "--from", str(root / "gt"), "--out",
                         str(tmp_path / "s2"), "--no-progress"])
    assert code == 2 and "runs of 'galileos-truth', not 'unconscious-mind'" in err


def test_a_study_of_other_runs_is_refused_by_the_report(study, tmp_path):
    root, _ = study
    code, _, err = _cli(["simulate", "--game", "galileos-truth", "--players", "2", "--strategies", "heuristic,writer",
                         "--games", "8", "--n-jobs", "1", "--out", str(tmp_path / "other"), "--no-progress"])
    assert code == 0, err
    code, _, err = _cli(["report", str(tmp_path / "other"), "--out", str(tmp_path / "rep"), "--stronger",
                         str(root / "strong"), "--no-progress"])
    assert code == 2 and len(err.strip().splitlines()) == 1 and "the study did not re-check run" in err
    assert not (tmp_path / "rep").exists()


def test_a_refused_study_leaves_nothing_behind(study, tmp_path):
    root, _ = study
    for argv in (["--game", "unconscious-mind", "--from", str(root / "gt")],
                 ["--game", "galileos-truth", "--from", str(root / "gt" / "2p"), "--from", str(root / "gt" / "2p")],
                 ["--game", "nosuch", "--from", str(root / "gt")]):
        code, _, err = _cli(["stronger", *argv, "--out", str(tmp_path / "s"), "--no-progress"])
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert not (tmp_path / "s").exists(), argv
    assert "unknown game 'nosuch'" in err
