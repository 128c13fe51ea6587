"""Mechanics by skill: action use per rung counted from the players' choices, the falling-use flag, and the
stronger study's forced play of a skipped mechanic paired with the mirror on common seeds."""

from __future__ import annotations

import dataclasses
import json

import polars as pl
import pytest
from meeplelab.analysis import mechanics as M
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.tables import canonical_json
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from meeplelab.studies.mechanics import paired_check
from meeplelab.studies.stronger import run_stronger, strong_player

GT = "galileos-truth"


@pytest.mark.slow  # plays 12 games of Galileo's Truth
def test_a_plan_that_never_abjures_is_0_with_its_wilson_bound_and_choices_add_up_to_the_turns(tmp_path):
    simulate(RunConfig(game=GT, players=2, strategies=("never-abjure",), games=12, seed=3, out=str(tmp_path / "r"),
                       n_jobs=1))
    runs = load_runs([tmp_path / "r"])
    t = M.use_table({M.SCRIPTED: runs})
    ab = t.filter((pl.col("action") == "abjure") & (pl.col("players") == 0)).row(0, named=True)
    assert (ab["used"], ab["n"], ab["share"], ab["per_game"]) == (0, 24, 0.0, 0.0)
    assert ab["low"] == pytest.approx(0.0, abs=1e-12)
    assert ab["high"] == pytest.approx(0.13797, abs=1e-5)  # Wilson: z^2 / (24 + z^2)
    # every turn is one chosen main action: the per-game counts add up to the turns table
    pooled = t.filter(pl.col("players") == 0)
    turns = runs.turns.select(pl.len()).collect().item()
    assert round(float((pooled["per_game"] * pooled["n"]).sum())) == turns
    assert set(pooled["action"]) == {"pass", "abjure", "play-treatise", "penance", "use-invention", "upgrade",
                                     "philosopher"}
    # a games table without the player count: the seats of each game stand for it, same table
    bare = dataclasses.replace(runs, games=runs.games.drop("players"))
    assert M.use_table({M.SCRIPTED: bare}).equals(t)


def test_a_game_whose_spec_names_no_decision_log_gets_a_section_that_says_so_and_no_table(tmp_path):
    simulate(RunConfig(game="toy", players=2, strategies=("always-draw", "random"), games=6, seed=1,
                       out=str(tmp_path / "r"), n_jobs=1))
    runs = load_runs([tmp_path / "r"])
    assert M.actions("toy") == []
    t = M.use_table({M.SCRIPTED: runs})
    assert t.height == 0 and t.schema == pl.Schema(M.USE_SCHEMA)
    tr = M.trends(t)
    assert tr.height == 0 and tr.columns == ["source", "action", "trend", "flag"]
    sec = M.mechanics_section(runs, None)
    assert sec.title == "Mechanics by skill" and (sec.tables, sec.figures) == ([], [])
    assert sec.text.startswith("Not measured: the spec of toy names no decision log")


def test_choices_come_from_the_decision_log_not_rule_caused_events():
    acts = M.actions("unconscious-mind")
    assert ("events", "cite") in acts and ("events", "publish") in acts
    assert ("events", "move") not in acts and ("mt_action", "none") not in acts
    assert ("mt_action", "move_freud") in acts  # the Meeting Table choice, not the face line's moves


def _table(rows):
    out = []
    for rung, action, used, n in rows:
        s, lo, hi = M.wilson(used, n)
        out.append({"rung": rung, "players": 0, "source": "main_action", "action": action, "used": used, "n": n,
                    "share": float(s), "low": float(lo), "high": float(hi), "per_game": used / n})
    return pl.DataFrame(out)


def test_falling_use_is_flagged_only_when_the_strong_rung_falls_toward_zero():
    t = M.trends(_table([("scripted", "abjure", 700, 10_000), ("scripted", "treat", 2_300, 10_000),
                         ("scripted", "generate", 3_500, 10_000), ("scripted", "penance", 20, 10_000),
                         ("strong", "abjure", 0, 1_000), ("strong", "treat", 110, 1_000),
                         ("strong", "generate", 670, 1_000), ("strong", "penance", 0, 1_000)]))
    got = {r["action"]: (r["trend"], r["flag"]) for r in t.iter_rows(named=True)}
    assert got == {"abjure": ("falls toward zero", True),   # [0, 0.38%] <= 6.5% / 3
                   "treat": ("falls", False),               # 11%: halved, not toward zero
                   "generate": ("rises", False),
                   "penance": ("steady", False)}            # 0.2% scripted: [0, 0.38%] overlaps
    one = M.trends(_table([("scripted", "abjure", 700, 10_000)]))
    assert not one["flag"].any()  # a single rung flags nothing


@pytest.mark.slow  # plays about 300 two-seat games of Galileo's Truth
def test_stronger_forces_the_abjure_strong_players_skip_and_the_report_shows_it(tmp_path):
    simulate(RunConfig(game=GT, players=2, strategies=("abjure-at:cycle=1", "never-abjure"), games=24, seed=1,
                       seating="rotate", out=str(tmp_path / "field"), n_jobs=1))
    r = run_stronger(GT, [tmp_path / "field"], tmp_path / "st", games=60, mirror_games=60, n_jobs=1)
    forced = r[M.KEY]
    assert [(c["restriction"], c["players"], c["games"]) for c in forced] == [
        ("force:abjure", 2, 60), ("force:abjure@suspicion>=5", 2, 60)]
    first = forced[0]
    assert first["took"] == 1.0 and first["base"] == pytest.approx(0.5, abs=0.15)
    assert first["vp_diff"]["est"] == pytest.approx(-8.133, abs=1e-3)  # Abjure at once costs the strong player
    assert first["vp_diff"]["high"] < 0 and first["word"] == "a trap"
    assert json.loads((tmp_path / "st" / "stronger.json").read_text())[M.KEY] == json.loads(json.dumps(canonical_json(forced)))
    # a restriction that never binds plays the mirror's games exactly: every paired difference is 0
    strong = strong_player(GT)
    simulate(RunConfig(game=GT, players=2, strategies=(f"{strong}+never:abjure", strong), games=60, seed=0,
                       seating="rotate", out=str(tmp_path / "same"), n_jobs=1))
    same = paired_check(tmp_path / "same", tmp_path / "st" / "mirror-2p", "abjure", "never:abjure", 2)
    assert (same["took"], same["vp_diff"]["est"], same["win_diff"]["est"], same["games"]) == (0.0, 0.0, 0.0, 60)
    sec = M.mechanics_section(load_runs([tmp_path / "field"]), tmp_path / "st")
    assert "FLAG strong players never take Abjure: 0 of 120 seat-games of the Tuned heuristic" in sec.text
    assert "`force:abjure` at 2 seats: win rate" in sec.text and "**a trap**" in sec.text
    assert sec.tables[0][1].filter(pl.col("action") == "Abjure")["trend"].to_list() == ["falls toward zero"]
