"""The skill ladder as the population of a conclusion, on a known answer played for real (the toy game).

The toy field is ``random`` and ``bank-at:n=1`` at 2 players. ``bank-at:n=1`` banks every pot at once: it beats a
random player (which busts or banks nothing) but loses to ``always-draw``, which fills its pot to the draw limit. The
toy game ends when the shared deck runs out at the end of a turn; ``always-draw`` empties the deck in a few turns, so
in its mirror the first seat often gets one turn more than the second (a seat advantage), while the slow scripted field
plays every round to the end with equal turns (no seat advantage). So, known before playing:

- ``bank-at:n=1`` is dominant among the scripted plans only (its edge reverses among ``always-draw`` players);
- the seat advantage appears only among the strongest rung (``always-draw``), not among the scripted plans.

``meeplelab stronger --rungs bank-at:n=3,always-draw`` measures both at two rungs above the scripted plans, and the
report must say both: no sentence advises on ``bank-at:n=1``'s dominance, the seat advantage is the thing to change,
and each conclusion's row shows every rung with its reading across the ladder.
"""

from __future__ import annotations

import json

import pytest

import tests.toygame  # noqa: F401  registers "toy"
from meeplelab.analysis.first_screen import APART, MAX_WORDS, word_count
from meeplelab.analysis.rungs import DEPENDS, EVERY, SCRIPTED_ONLY, skill
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from tests.cli_run import run_cli


def test_the_reading_across_the_ladder():
    c = {"verdict": "holds", "ladder": [{"rung": "heuristic", "verdict": "holds"}], "strong_rung": "tuned heuristic"}
    assert skill(c) == (EVERY, "")
    assert skill({**c, "verdict": "reverses"}) == (DEPENDS, "changes from the tuned heuristic")
    both = {**c, "verdict": "changes", "ladder": [{"rung": "heuristic", "verdict": "reverses"}]}
    assert skill(both) == (SCRIPTED_ONLY, "")
    back = {**c, "ladder": [{"rung": "heuristic", "verdict": "changes"}]}  # changes at the heuristic only
    assert skill(back) == (DEPENDS, "changes at the heuristic")


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    root = tmp_path_factory.mktemp("ladder")
    simulate(RunConfig(game="toy", players=2, strategies=("random", "bank-at:n=1"), games=600, seed=5,
                       seating="rotate", out=str(root / "field" / "2p"), n_jobs=1))
    return root


@pytest.mark.slow
def test_a_conclusion_true_only_for_weak_players_and_one_only_for_strong_players_are_read_right(ladder, capsys,
                                                                                                monkeypatch):
    root = ladder
    code, out, err = run_cli(["stronger", "--game", "toy", "--from", root / "field", "--rungs", "bank-at:n=3,always-draw",
                              "--games", "300", "--mirror-games", "400", "--n-jobs", "1", "--no-progress", "--out",
                              root / "strong"], capsys, monkeypatch)
    assert code == 0, err
    d = json.loads((root / "strong" / "stronger.json").read_text())
    assert [r["label"] for r in d["rungs"]] == ["bank-at:n=3", "always-draw"]
    assert (root / "strong" / "rung-bank-at-n-3" / "mirror-2p").is_dir() and (root / "strong" / "mirror-2p").is_dir()
    by = {c["kind"]: c for c in d["checks"]}
    top, seat = by["top strategy"], by["seat spread"]
    assert top["strategy"] == "bank-at:n=1" and top["scripted"]["low"] > 0  # dominant among the scripted plans
    assert top["verdict"] == "reverses" and top["strong"]["high"] < 0  # and behind among always-draw players
    assert [e["rung"] for e in top["ladder"]] == ["bank-at:n=3"] and "only among scripted plans" in out
    assert seat["strong_spread"]["low"] > 5 and seat["strong_spread"]["best_seat"] == 1  # seat 1 ahead in the mirror
    code, said, err = run_cli(["report", root / "field" / "2p", "--stronger", root / "strong", "--out", root / "rep",
                               "--no-progress"], capsys, monkeypatch)
    assert code == 0, err
    md = (root / "rep" / "report.md").read_text()
    three = md.split("## In three sentences\n\n", 1)[1].split("\n\n<details>", 1)[0].split("\n\n")
    assert len(three) == 3 and word_count(three) <= MAX_WORDS
    assert three[0] == "Re-checked with the always-draw: 0 of 2 headline conclusions hold, 0 also for the bank-at:n=3."
    assert "seat 1 wins most at 2 players" in three[1] and "bank-at" not in three[1] + three[2]
    assert three[2].startswith("Change first the turn-order advantage at 2 players (seat 1 over seat 2)")
    apart = md[md.index(f"## {APART}"):md.index("## Verdict")]
    assert "edge over the fair share at 2 players" in apart and "only among scripted plans" in apart
    table = md.split("*Each conclusion at every rung of the ladder", 1)[1].split("\n\n", 2)[1].splitlines()
    assert table[0] == "| conclusion | scripted plans | bank-at:n=3 | always-draw | across the ladder |"
    rows = {r.split("|")[1].strip(): r.split("|")[-2].strip() for r in table[2:]}
    assert rows["bank-at:n=1's edge at 2 seats"] == SCRIPTED_ONLY
    assert rows["seat 1 minus seat 2 at 2 seats"].startswith((DEPENDS, SCRIPTED_ONLY))
