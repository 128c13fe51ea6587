"""``meeplelab sweep --retune``: every tunable strategy re-tuned under each variant's rules, the
variant played again, and each effect reported with the players fixed and re-tuned. Real games (Galileo's Truth,
2 seats); the fixed-players column recomputed here from the Parquet files."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest

from meeplelab.strategies.registry import make_strategy
from tests.cli_run import cli_in_process as _cli

SWEEP = ["sweep", "--game", "galileos-truth", "--vary", "truth_vp_per_tile=0,4", "--players", "2", "--games", "60",
         "--n-jobs", "1", "--no-progress"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("retune") / "s"
    code, _, err = _cli(SWEEP + ["--strategies", "heuristic,writer", "--retune", "200", "--out", str(out)])
    assert code == 0, err
    return out


def _games(folder):
    return pl.read_parquet(folder / "games" / "*.parquet").with_columns(pl.col("strategy").cast(pl.String))


def test_each_variant_is_played_again_by_players_re_tuned_to_its_rules(swept):
    meta = json.loads((swept / "retuned.json").read_text())
    assert meta["positions"] == [0] and meta["roster"] == ["heuristic", "writer"] and meta["budget"] == 200
    for v in meta["variants"]:
        preset = swept / v["presets"]["0"]
        # played with the preset's arguments in its id: nothing in the study names a path into its folder
        assert preset.is_file() and v["strategies"][0] == make_strategy("galileos-truth", f"heuristic:preset={preset}").id
        run = json.loads((swept / "retuned" / v["folder"] / "run" / "manifest.json").read_text())
        assert run["config"]["strategies"] == v["strategies"] and str(swept) not in json.dumps(run)
        assert v["strategies"][1] == "writer"
        tune = json.loads((preset.parent / "tune.json").read_text())
        assert tune["field"] == ["writer"] and tune["players"] == 2  # tuned against the rest of the roster
        fixed, again = _games(swept / v["folder"]), _games(swept / "retuned" / v["folder"] / "run")
        # the same games: seed and seat order of every game index, the same rules
        assert fixed.select("game", "seat_order", "game_seed").equals(again.select("game", "seat_order", "game_seed"))
        assert "writer" in set(again["strategy"]) and "heuristic" not in set(again["strategy"])
    # the tunings differ by variant: tuned under each variant's own rules
    p0, p1 = (json.loads((swept / v["presets"]["0"]).parent.joinpath("tune.json").read_text())
              for v in meta["variants"])
    assert p0["trials"] != p1["trials"]


def test_the_report_gives_each_effect_with_the_players_fixed_and_re_tuned(swept):
    from meeplelab.analysis.retune import effects
    from meeplelab.analysis.stats import paired_shares

    df = effects(swept)
    assert df.height == 4 and set(df["strategy"]) == {"heuristic (re-tuned)", "writer"}
    w = df.filter((pl.col("strategy") == "writer") & (pl.col("metric") == "win")).row(0, named=True)
    a, c = _games(swept / "truth_vp_per_tile=4"), _games(swept / "truth_vp_per_tile=0")
    j = a.filter(pl.col("strategy") == "writer").join(c.filter(pl.col("strategy") == "writer"), on="game",
                                                      suffix="_c").sort("game")
    want = paired_shares(j["win_share"].to_numpy(), j["win_share_c"].to_numpy(), cluster=j["game_seed"].to_numpy())
    assert w["fixed"] == pytest.approx(want["est"] * 100) and w["fixed_low"] == pytest.approx(want["low"] * 100)
    assert w["n"] == 60 and w["verdict"] in ("holds", "changes", "reverses")
    md = (swept / "report" / "report.md").read_text()
    assert "## Players fixed and players re-tuned" in md and "heuristic (re-tuned)" in md


@pytest.mark.parametrize("strategies, retune, message", [
    ("heuristic", "200", "--retune needs a roster of one strategy per seat"),
    ("writer,never-abjure", "200", "no strategy of --strategies (writer, never-abjure) has arguments to tune"),
    ("heuristic,writer", "50", "--retune 50: one re-tuning plays at least 100 games"),
    ("heuristic,writer", "-1", "--retune -1: allowed 0"),
])
def test_a_retune_that_cannot_run_is_one_line_exit_2_before_any_game(tmp_path, strategies, retune, message):
    code, _, err = _cli(SWEEP + ["--strategies", strategies, "--retune", retune, "--out", str(tmp_path / "s")])
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, err
    assert not (tmp_path / "s").exists()


def test_overwriting_without_retune_removes_the_re_tuned_runs(swept, tmp_path):
    out = tmp_path / "s"
    shutil.copytree(swept, out)  # a sweep played with --retune (the module's)
    assert (out / "retuned.json").is_file() and (out / "retuned").is_dir()
    assert "Players fixed and players re-tuned" in (out / "report" / "report.md").read_text()
    code, _, err = _cli(SWEEP + ["--strategies", "heuristic,writer", "--out", str(out), "--overwrite"])
    assert code == 0, err
    assert not (out / "retuned.json").exists() and not (out / "retuned").exists()
    assert "Players fixed and players re-tuned" not in (out / "report" / "report.md").read_text()


def test_a_roster_naming_a_strategy_twice_is_refused(tmp_path):
    code, _, err = _cli(SWEEP + ["--strategies", "heuristic,heuristic", "--retune", "200", "--out", str(tmp_path / "s")])
    assert code == 2 and "--retune needs distinct strategies" in err and not (tmp_path / "s").exists()


def test_a_resume_with_another_budget_is_refused_and_an_interrupted_retune_is_not_complete(swept, tmp_path):
    copy = tmp_path / "s"
    shutil.copytree(swept, copy)
    for budget in ("300", "0"):
        code, _, err = _cli(SWEEP + ["--strategies", "heuristic,writer", "--retune", budget, "--out", str(copy),
                                     "--resume"])
        assert code == 2 and "was re-tuned with --retune 200" in err, err
    code, _, err = _cli(SWEEP + ["--strategies", "heuristic,writer", "--retune", "200", "--out", str(copy), "--resume"])
    assert code == 0, err
    assert json.loads((copy / "sweep.json").read_text())["status"] == "complete"


def test_an_experiment_with_a_rule_parameter_axis_is_re_tuned_per_arm(tmp_path):
    from meeplelab.analysis.retune import effects

    out = tmp_path / "e"
    argv = ["experiment", "--game", "galileos-truth", "--players", "2", "--strategies", "heuristic,writer", "--vary",
            "truth_vp_per_tile=0,4", "--games", "20", "--n-jobs", "1", "--no-progress", "--out", str(out)]
    code, _, err = _cli(argv + ["--retune", "100"])
    assert code == 0, err
    meta = json.loads((out / "retuned.json").read_text())
    assert meta["game"] == "galileos-truth" and [v["folder"] for v in meta["variants"]] == ["control", "truth_vp_per_tile=4"]
    assert [v["values"] for v in meta["variants"]] == [{"truth_vp_per_tile": "0"}, {"truth_vp_per_tile": "4"}]
    for v in meta["variants"]:
        fixed, again = _games(out / v["folder"]), _games(out / "retuned" / v["folder"] / "run")
        assert fixed.select("game", "seat_order", "game_seed").equals(again.select("game", "seat_order", "game_seed"))
    assert effects(out).height == 4
    assert "## Players fixed and players re-tuned" in (out / "report" / "report.md").read_text()
    code, _, err = _cli(argv + ["--overwrite"])  # again without --retune: no stale re-tuned section
    assert code == 0 and not (out / "retuned.json").exists(), err
    assert "Players fixed and players re-tuned" not in (out / "report" / "report.md").read_text()


def test_an_experiment_whose_arms_share_their_rules_cannot_be_re_tuned(tmp_path):
    code, _, err = _cli(["experiment", "--game", "galileos-truth", "--players", "3", "--strategies", "heuristic,writer",
                         "--control", "never-abjure", "--vary", "abjure-at.cycle=1,2", "--games", "60", "--retune", "100",
                         "--n-jobs", "1", "--no-progress", "--out", str(tmp_path / "e")])
    assert code == 2 and "--retune takes a rule-parameter --vary" in err and not (tmp_path / "e").exists()


def test_the_report_says_what_changed_in_the_re_tuned_players_play(swept):
    """Action use and timing of the re-tuned heuristic, control against variant, recomputed from the events table
    (the seats whose strategy is the re-tuned entry; the first Write's Cycle from the events' own ``cycle``)."""
    from meeplelab.analysis.retune import play_changes, play_lines
    from meeplelab.analysis.stats import paired_shares

    meta = json.loads((swept / "retuned.json").read_text())
    df = play_changes(swept)
    assert set(df["strategy"]) == {"heuristic (re-tuned)"} and set(df["variant"]) == {"truth_vp_per_tile=4"}
    per = []
    for v in meta["variants"]:
        run = swept / "retuned" / v["folder"] / "run"
        g = _games(run).filter(pl.col("strategy") == v["strategies"][0]).select("game", "seat", "game_seed")
        ev = (pl.read_parquet(run / "events" / "*.parquet").with_columns(pl.col("kind").cast(pl.String))
              .filter(pl.col("kind") == "write").group_by("game", "seat").agg(pl.col("cycle").min().alias("first")))
        per.append(g.join(ev.with_columns(pl.col("seat").cast(g["seat"].dtype)), on=["game", "seat"], how="left")
                   .sort("game"))
    c, b = per
    assert c.height == b.height == 60 and c["game_seed"].equals(b["game_seed"])
    used_c, used_b = c["first"].is_not_null().to_numpy(), b["first"].is_not_null().to_numpy()
    rows = df.filter(pl.col("action") == "write")
    use = rows.filter(pl.col("measure") == "use (% of seat-games)")
    if used_c.all() and used_b.all() or not (used_c.any() or used_b.any()):
        assert use.height == 0  # every seat-game of both, or none: nothing to say
    else:
        r = use.row(0, named=True)
        w = paired_shares(used_b.astype(float), used_c.astype(float), cluster=c["game_seed"].to_numpy())
        assert r["control"] == pytest.approx(100 * used_c.mean()) and r["value"] == pytest.approx(100 * used_b.mean())
        assert (r["est"], r["low"], r["high"], r["n"]) == pytest.approx((100 * w["est"], 100 * w["low"],
                                                                         100 * w["high"], 60))
    first = rows.filter(pl.col("measure") == "Cycle of the first use (mean)").row(0, named=True)
    fc, fb = c["first"].drop_nulls(), b["first"].drop_nulls()
    assert first["control"] == pytest.approx(fc.mean()) and first["value"] == pytest.approx(fb.mean())
    assert first["est"] == pytest.approx(fb.mean() - fc.mean()) and first["n"] == min(fc.len(), fb.len())
    assert first["low"] < first["est"] < first["high"]
    md = (swept / "report" / "report.md").read_text()
    assert "What changed in the re-tuned players' play" in md
    for ln in play_lines(df):
        assert ln in md
