"""``meeplelab balance --retune``: the proposal and the defaults re-checked with players re-tuned to
each, the targets measured four ways and each entry's side effect with the players fixed and re-tuned. Real games
(Galileo's Truth, 2 seats, ``--strategies heuristic,writer``); the targets and effects recomputed here from the
games the report says it measured."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tests.cli_run import cli_in_process as _cli

BALANCE = ["balance", "--game", "galileos-truth", "--vary", "first_player_rule=rotate,first-to-pass",
           "--target", "seat-spread<=5", "--trials", "2", "--games-per-lineup", "20", "--recheck", "1",
           "--no-progress"]


@pytest.fixture(scope="module")
def searched(tmp_path_factory):
    out = tmp_path_factory.mktemp("balance-retune") / "b"
    code, stdout, err = _cli(BALANCE + ["--strategies", "heuristic,writer", "--retune", "1000", "--out", str(out)])
    assert code == 0, err
    return out, stdout


def _games(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(folder / "games" / "*.parquet").with_columns(pl.col("strategy").cast(pl.String))


def test_each_rule_set_gets_its_own_re_tuned_players_and_is_played_again_on_the_fresh_seeds(searched):
    out, _ = searched
    s = json.loads((out / "balance.json").read_text())
    assert s["proposal"]["first_player_rule"] == "first-to-pass" and not s["proposal_is_defaults"]
    r = s["retuned"]
    assert r["budget"] == 1000 and r["fields"]["field-2"]["tuned"] == ["heuristic"] and r["measured"] == 1
    meta = json.loads((out / "side_effects" / "retuned-field-2.json").read_text())
    assert [v["folder"] for v in meta["variants"]] == ["field-2-defaults", "field-2-proposal"]
    assert meta["variants"][1]["values"] == {"first_player_rule": "first-to-pass"}
    presets = [out / "side_effects" / v["presets"]["0"] for v in meta["variants"]]
    tunes = [json.loads((p.parent / "tune.json").read_text()) for p in presets]
    assert [t["field"] for t in tunes] == [["writer"], ["writer"]]
    assert tunes[0]["seed"] == s["seed"] and tunes[0]["seed"] != s["fresh_seed"]  # tuned on the search seeds only
    assert tunes[0]["trials"] != tunes[1]["trials"]  # tuned under each rule set's own rules
    assert "--set first_player_rule=first-to-pass" in presets[1].read_text().splitlines()[0]
    for v in meta["variants"]:
        fixed = _games(out / "side_effects" / v["folder"])
        again = _games(out / "side_effects" / "retuned" / v["folder"] / "run")
        # the same fresh seeds and seat orders as the fixed players' side-effect run
        assert fixed.select("game", "seat_order", "game_seed").equals(again.select("game", "seat_order", "game_seed"))
        assert "heuristic" in set(fixed["strategy"]) and "heuristic" not in set(again["strategy"])
        tuned = set(again["strategy"]) - {"writer"}  # the preset's weights, spelled out
        assert len(tuned) == 1 and next(iter(tuned)).startswith("heuristic:end_vp=")


def test_the_targets_are_measured_four_ways_and_the_players_fixed_row_is_the_re_check(searched):
    out, stdout = searched
    s = json.loads((out / "balance.json").read_text())
    tab = pl.read_parquet(out / "retuned.parquet")
    assert tab.select("rules", "players").rows() == [("defaults", "fixed"), ("defaults", "re-tuned"),
                                                      ("proposal", "fixed"), ("proposal", "re-tuned")]
    # the proposal with its players fixed is the re-check's own figure (same fresh seeds, same lineups)
    p = tab.filter((pl.col("rules") == "proposal") & (pl.col("players") == "fixed")).row(0, named=True)
    assert p["value"] == pytest.approx(s["proposal"]["seat-spread<=5"])
    assert (p["low"], p["high"]) == pytest.approx((s["proposal"]["seat-spread<=5 low"],
                                                   s["proposal"]["seat-spread<=5 high"]))
    assert all(r["low"] <= r["value"] <= r["high"] for r in tab.iter_rows(named=True))
    tuned = tab.filter((pl.col("rules") == "proposal") & (pl.col("players") == "re-tuned")).row(0, named=True)
    assert s["retuned"]["met"] == int(tuned["value"] <= 5)
    assert "with the players re-tuned" in stdout


def test_the_report_gives_each_side_effect_with_the_players_fixed_and_re_tuned(searched):
    from meeplelab.analysis.stats import paired_shares

    out, _ = searched
    e = pl.read_parquet(out / "retuned_effects.parquet")
    assert set(e["strategy"]) == {"heuristic (re-tuned)", "writer"} and set(e["metric"]) == {"win", "vp"}
    # the fixed column is the paired difference of the side-effect runs, recomputed from their Parquet files
    d, p = (_games(out / "side_effects" / f"field-2-{v}").filter(pl.col("strategy") == "writer")
            for v in ("defaults", "proposal"))
    j = p.join(d, on="game", suffix="_d").sort("game")
    w = paired_shares(j["win_share"].to_numpy(), j["win_share_d"].to_numpy(), cluster=j["game_seed"].to_numpy())
    row = e.filter((pl.col("strategy") == "writer") & (pl.col("metric") == "win")).row(0, named=True)
    assert row["fixed"] == pytest.approx(w["est"] * 100) and row["n"] == j.height
    assert (row["fixed_low"], row["fixed_high"]) == pytest.approx((w["low"] * 100, w["high"] * 100))
    assert row["verdict"] in ("holds", "changes", "reverses")
    md = (out / "report" / "balance.md").read_text()
    sec = md.split("## Players fixed and players re-tuned", 1)[1].split("\n## ", 1)[0]
    assert "field-2: heuristic" in sec and "1,000 games each" in sec
    assert "| seat-spread<=5 | proposal | re-tuned |" in sec and "| field-2 | writer | win |" in sec
    assert (out / "report" / "tables" / "retuned-targets.csv").is_file()
    # a tuning that keeps the strategy's own arguments is named (its rows repeat the fixed ones)
    kept = json.loads((out / "balance.json").read_text())["retuned"]["kept_defaults"]
    for v in ("defaults", "proposal"):
        preset = out / "side_effects" / "retuned" / f"field-2-{v}" / "tune-0" / "preset.toml"
        same = "end_vp = 0.8\n" in preset.read_text() and "coins = 0.15\n" in preset.read_text()
        assert (f"heuristic in field-2 under the {v}" in kept) == same
    assert ("found nothing better than the strategy's own arguments" in sec) == bool(kept)
    assert (out / "retuned_effects.csv").read_text().startswith("field,variant,strategy,metric")


def test_the_report_says_what_changed_in_the_re_tuned_players_play(searched):
    """The re-tuned heuristic's action use under the defaults and the proposal, recomputed from the turns tables of
    the two re-tuned runs (its own seats, game by game)."""
    from meeplelab.analysis.retune import play_lines
    from meeplelab.analysis.stats import paired_shares

    out, _ = searched
    play = pl.read_parquet(out / "retuned_play.parquet")
    assert play.height and set(play["field"]) == {"field-2"} and set(play["strategy"]) == {"heuristic (re-tuned)"}
    meta = json.loads((out / "side_effects" / "retuned-field-2.json").read_text())
    per = []
    for v in meta["variants"]:
        run = out / "side_effects" / "retuned" / v["folder"] / "run"
        seats = _games(run).filter(pl.col("strategy") == v["strategies"][0]).select("game", "seat", "game_seed")
        acts = (pl.read_parquet(run / "turns" / "*.parquet").select("game", "seat", pl.col("main_action").cast(pl.String))
                .unique().with_columns(pl.lit(True).alias("used")))
        per.append((seats, acts))
    actions = set(pl.concat([a for _, a in per])["main_action"].to_list())
    rows = play.filter((pl.col("measure") == "use (% of seat-games)") & pl.col("action").is_in(list(actions)))
    assert rows.height  # the Main Actions not every seat-game took (Penance, Use an Invention, ...)
    for r in rows.iter_rows(named=True):
        used = []
        for seats, acts in per:
            a = acts.filter(pl.col("main_action") == r["action"]).drop("main_action")
            used.append(seats.join(a.with_columns(pl.col("seat").cast(seats["seat"].dtype)), on=["game", "seat"],
                                   how="left").sort("game")["used"].fill_null(False).to_numpy().astype(float))
        w = paired_shares(used[1], used[0], cluster=per[0][0].sort("game")["game_seed"].to_numpy())
        assert (r["control"], r["value"]) == pytest.approx((100 * used[0].mean(), 100 * used[1].mean()))
        assert (r["est"], r["low"], r["high"]) == pytest.approx((100 * w["est"], 100 * w["low"], 100 * w["high"]))
    md = (out / "report" / "balance.md").read_text()
    sec = md.split("## Players fixed and players re-tuned", 1)[1].split("\n## ", 1)[0]
    assert "What changed in the re-tuned players' play, proposal against defaults" in sec
    assert all(f"- {ln}" in sec for ln in play_lines(play)) and (out / "report" / "tables" / "retuned-play.csv").is_file()


def test_without_retune_the_report_says_the_proposal_is_not_checked_with_re_tuned_players(tmp_path):
    out = tmp_path / "b"
    code, _, err = _cli(BALANCE + ["--strategies", "heuristic,writer", "--out", str(out)])
    assert code == 0, err
    md = (out / "report" / "balance.md").read_text()
    sec = md.split("## Players fixed and players re-tuned", 1)[1].split("\n## ", 1)[0]
    assert "Not checked" in sec and "--retune BUDGET" in sec
    assert "retuned" not in json.loads((out / "balance.json").read_text())
    assert not (out / "retuned.parquet").exists()


SCRIPTED_2 = [a if a != "seat-spread<=5" else "seat-spread:2<=5" for a in BALANCE]  # the study's writer, never-abjure


@pytest.mark.parametrize("extra, message", [
    (["--retune", "1000"], "no strategy of the rotated field field-2 (writer, never-abjure) has arguments to tune"),
    (["--strategies", "heuristic,writer", "--retune", "10"], "--retune 10: one re-tuning plays at least 100 games"),
    (["--strategies", "heuristic,writer", "--retune", "-1"], "--retune -1: allowed 0"),
    (["--strategies", "heuristic,writer", "--field", "strong"], "--field strong and --strategies heuristic,writer"),
    (["--field", "strong", "--retune", "200"], "--retune 200 and --field strong are given together"),
    (["--strategies", "heuristic,nobody"], "nobody"),
])
def test_a_balance_retune_that_cannot_run_is_one_line_exit_2_with_nothing_written(tmp_path, extra, message):
    out = tmp_path / "b"
    code, stdout, err = _cli((BALANCE if "--strategies" in extra else SCRIPTED_2) + extra + ["--out", str(out)])
    assert code == 2, (stdout, err)
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_a_roster_study_rotates_the_first_p_entries_at_every_seat_count():
    from meeplelab.analysis.studies import roster_study

    s = roster_study("galileos-truth", ["heuristic", "writer", "observer"])
    panels = [(lu.panel, lu.strategies) for lu in s.lineups]
    assert panels == [("field-2", ("heuristic", "writer")), ("field-2", ("writer", "heuristic")),
                      ("field-3", ("heuristic", "writer", "observer")), ("field-3", ("observer", "heuristic", "writer")),
                      ("field-3", ("writer", "observer", "heuristic"))]
    assert [c.name for c in s.conclusions] == ["dominant-field-3", "seat-2", "seat-3", "length-field-3"]
