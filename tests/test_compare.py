"""``meeplelab compare``: versions side by side on common seeds, one paired delta table of everything.
Known answer: a copy of Unconscious Mind's content with one Research card's VP raised from 1 to 6
changes the VP the players score from cards, game by game, and nothing a player decided."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from meeplelab.analysis.compare import summary_table
from tests.cli_run import run_cli

DATA = Path(__file__).resolve().parents[1] / "sim" / "unconscious_mind" / "data"


def _pack(tmp_path: Path) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(DATA, pack)
    f = pack / "research.toml"
    text = f.read_text()
    head, card = text.split('id = "r07"', 1)
    assert card.split("[[card]]")[0].count('effect = ["vp 1"]') == 1
    f.write_text(head + 'id = "r07"' + card.replace('effect = ["vp 1"]', 'effect = ["vp 6"]', 1))
    return pack


def test_a_content_copy_with_one_card_changed_shows_the_changed_rows_with_intervals(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cmp"
    code, stdout, err = run_cli(["compare", "--game", "unconscious-mind", "--arm", "default", "--arm",
                                 f"content={_pack(tmp_path)}", "--players", "2", "--strategies", "publisher,citer",
                                 "--games", "40", "--n-jobs", "1", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    t = pl.read_csv(out / "deltas.csv")
    card = t.filter(pl.col("metric") == "VP from card")
    assert card.height == 2 and card["changed"].all() and (card["low"] > 0).all()
    assert (card["design"] == "paired (game and seat matched)").all() and (card["n"] == 40).all()
    for r in card.iter_rows(named=True):  # every game is matched, so the paired mean is the change of the means
        assert r["est"] == pytest.approx(r["value"] - r["ref"]) and r["low"] < r["est"] < r["high"]
    vp = t.filter(pl.col("metric") == "final VP")
    assert vp.sort("strategy")["est"].to_list() == pytest.approx(card.sort("strategy")["est"].to_list())
    # only VP moved: the scripted plans do not look at a card's VP, so their turns are the same game by game
    same = t.filter(pl.col("metric").str.starts_with("turns with") | (pl.col("metric") == "VP from tile"))
    assert same.height > 4 and (same["est"] == 0).all() and not same["changed"].any()
    assert set(t.filter(pl.col("changed"))["metric"].to_list()) <= {"VP from card", "final VP", "rank (mean final place)",
                                                                    "win rate (points)", "seat spread (points)"}
    assert "version B (content " in stdout and "version A (packaged content" in stdout
    # the one edited card is named, not only the content hash
    assert "B changes the content of A: research.toml card 'r07' effect: ['vp 1'] -> ['vp 6']" in stdout.splitlines()
    line = next(x for x in stdout.splitlines() if "citer's VP from card" in x)
    assert "paired (game and seat matched), 40 games" in line and " [" in line and "p_holm" in line
    assert (out / "report" / "report.html").is_file() and (out / "compare.json").is_file()
    assert "Versions compared" in (out / "report" / "report.md").read_text()
    # the first lines printed: who gains, by how much, every strategy whatever its p-value, above the Holm list
    lines = stdout.splitlines()
    assert lines[0] == ("Who gains, by how much: version B minus A, every strategy (paired on the same games where they "
                        "were played; 95% intervals):")
    assert lines[1].split() == ["players", "strategy", "win", "rate", "A", "->", "B", "change", "(points)", "final", "VP",
                                "A", "->", "B", "change", "(VP)"]
    rows = {ln.split()[1]: ln for ln in lines[2:4]}
    assert set(rows) == {"citer", "publisher"} and lines.index(rows["citer"]) < lines.index(
        next(x for x in lines if x.startswith("Version B minus A:")))
    for r in card.iter_rows(named=True):  # the VP change printed is the card's, with its interval
        vp = t.filter((pl.col("metric") == "final VP") & (pl.col("strategy") == r["strategy"])).row(0, named=True)
        words = " ".join(rows[r["strategy"]].split())
        assert f"{vp['ref']:.1f} -> {vp['value']:.1f} {vp['est']:+.1f} [{vp['low']:+.1f}, {vp['high']:+.1f}]" in words


@pytest.mark.slow  # two toy runs and the report: about 20 s under load
def test_the_report_shows_every_strategy_s_change_and_the_what_changed_for_whom_chart(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cmp"
    code, stdout, err = run_cli(["compare", "--game", "toy", "--players", "2", "--strategies", "random,always-draw",
                                 "--arm", "default", "--arm", "rounds=1", "--games", "40", "--n-jobs", "1", "--out", out],
                                capsys, monkeypatch)
    assert code == 0, err
    t = pl.read_csv(out / "deltas.csv")
    s = summary_table(t)
    assert sorted(s["strategy"].to_list()) == ["always-draw", "random"] and s["win_est"].to_list() == sorted(
        s["win_est"].to_list(), reverse=True)  # largest gain first
    win = t.filter(pl.col("metric") == "win rate (points)").sort("strategy")
    assert s.sort("strategy")["win_est"].to_list() == win["est"].to_list()  # every row, whatever its p-value
    assert s.sort("strategy")["win_low"].to_list() == win["low"].to_list()
    md = (out / "report" / "report.md").read_text()
    assert md.index("## Who gains, by how much") < md.index("## Versions compared")
    assert "![What changed for whom" in md and (out / "report" / "figures" / "01_what_changed.png").is_file()
    assert stdout.splitlines()[0].startswith("Who gains, by how much: version B minus A")


def test_content_changes_name_each_edited_value_by_item_and_ignore_comments(tmp_path):
    from meeplelab.sim.core.content import content_changes

    pack = _pack(tmp_path)
    assert content_changes(DATA, pack) == ["research.toml card 'r07' effect: ['vp 1'] -> ['vp 6']"]
    assert content_changes(pack, DATA) == ["research.toml card 'r07' effect: ['vp 6'] -> ['vp 1']"]
    f = pack / "city.toml"
    f.write_text("# a designer's note\n" + f.read_text())  # a comment changes the hash, not the content
    (pack / "notebook.toml").unlink()
    text = (pack / "research.toml").read_text()
    (pack / "research.toml").write_text(text.replace('id = "r07"', 'id = "r07b"', 1))
    assert content_changes(DATA, pack) == ["notebook.toml missing", "research.toml card 'r07' removed",
                                           "research.toml card 'r07b' added"]


@pytest.mark.parametrize("arms,message", [
    (["default"], "error: compare needs at least two --arm (the first is the reference), got 1"),
    (["default", "content=/no/such/folder"], "error: --arm 'content=/no/such/folder': content folder '/no/such/folder' "
                                             "does not exist"),
    (["default", "printing_house=open"], "error: --arm 'printing_house=open': parameter printing_house='open' is not "
                                         "allowed: choose one of exclusive, shared"),
    (["default", "cycles"], "error: --arm 'cycles': item 'cycles' is not one of default, content=PATH, NAME=VALUE"),
    (["default", "default"], "error: --arm 'default' is the same version as --arm 'default': give each version once"),
])
def test_bad_arms_are_refused_in_one_line_before_anything_is_played(arms, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "cmp"
    argv = ["compare", "--game", "galileos-truth", "--players", "2", "--strategies", "writer,never-abjure",
            "--games", "4", "--out", out]
    for a in arms:
        argv += ["--arm", a]
    code, _, err = run_cli(argv, capsys, monkeypatch)
    assert code == 2 and err.startswith(message) and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


def test_a_content_pack_that_does_not_load_is_refused_before_the_first_arm_is_played(tmp_path, capsys, monkeypatch):
    """A pack missing a file is refused before any arm is played, not when its arm comes up after A and B."""
    pack = tmp_path / "pack"
    shutil.copytree(DATA.parent.parent / "galileos_truth" / "data", pack)
    (pack / "penance.toml").unlink()
    out = tmp_path / "cmp"
    code, _, err = run_cli(["compare", "--game", "galileos-truth", "--players", "2", "--strategies", "writer,never-abjure",
                            "--games", "4", "--out", out, "--arm", "default", "--arm", "printing_house=shared",
                            "--arm", f"content={pack}"], capsys, monkeypatch)
    assert code == 2 and "penance.toml: content file not found" in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


def test_several_player_counts_take_the_study_fields_and_several_strategies_need_one_count():
    from meeplelab.studies.compare import rosters

    assert rosters("galileos-truth", [2, 3], None) == {2: ("writer", "never-abjure"),
                                                       3: ("writer", "observer", "never-abjure")}
    assert rosters("galileos-truth", [2, 4], ("writer",)) == {2: ("writer",), 4: ("writer",)}
    from meeplelab.sim.core.errors import ConfigError

    with pytest.raises(ConfigError, match="with several player counts give one strategy"):
        rosters("galileos-truth", [2, 3], ("writer", "observer"))


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_a_finished_comparison_resumes_to_the_same_table_and_a_different_one_is_refused(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cmp"
    argv = ["compare", "--game", "toy", "--players", "2", "--strategies", "random,always-draw", "--arm", "default",
            "--arm", "rounds=1", "--games", "40", "--n-jobs", "1", "--out", out]
    code, stdout, err = run_cli(argv, capsys, monkeypatch)
    assert code == 0, err
    first = (out / "deltas.csv").read_bytes()
    t = pl.read_csv(out / "deltas.csv")
    assert t.filter(pl.col("metric") == "game length (rounds)")["est"].to_list() == [-3.0]  # 4 rounds -> 1
    assert "Version B minus A:" in stdout
    code, _, err = run_cli(argv + ["--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert (out / "deltas.csv").read_bytes() == first
    code, _, err = run_cli(argv, capsys, monkeypatch)
    assert code == 2 and "holds another comparison: use --resume to complete it, --overwrite" in err, err
    argv[argv.index("40")] = "20"
    code, _, err = run_cli(argv + ["--resume"], capsys, monkeypatch)
    assert code == 2 and "cannot resume: the comparison in" in err and "games = 40, this one has games = 20" in err, err
    code, _, err = run_cli(argv + ["--overwrite"], capsys, monkeypatch)
    assert code == 0 and pl.read_csv(out / "deltas.csv")["n"].max() == 20, err


@pytest.mark.slow  # two runs of Galileo's Truth and the report: 30-110 s under load
def test_a_changed_rule_no_player_used_is_said_to_have_had_no_chance_to_show(tmp_path, capsys, monkeypatch):
    """Never Abjure plays both versions: the Abjure's Suspicion drop changes, nobody abjures, so nothing can show;
    the Observation bonus changes too and every seat observes (counted from the events table); the Wax Seal VP has
    no mechanic in the game's table, so nothing is said of it."""
    out = tmp_path / "cmp"
    arm = "abjure_suspicion_drop=3;observe_bonus_vp=4;seal_beside_vp=2"
    code, stdout, err = run_cli(["compare", "--game", "galileos-truth", "--arm", "default", "--arm", arm, "--players",
                                 "2", "--strategies", "never-abjure", "--games", "40", "--n-jobs", "1", "--out", out],
                                capsys, monkeypatch)
    assert code == 0, err
    ev = pl.concat([pl.read_parquet(out / r / "events" / "*.parquet").with_columns(pl.lit(r).alias("run"))
                    .with_columns(pl.col("kind").cast(pl.String)) for r in ("A-p2", "B-p2")])
    assert ev.filter(pl.col("kind") == "abjure").height == 0
    observed = {r: ev.filter((pl.col("run") == r) & (pl.col("kind") == "observe")).select("game", "seat").unique().height
                for r in ("A-p2", "B-p2")}
    assert 0 < observed["A-p2"] <= 80 and 0 < observed["B-p2"] <= 80
    never = ("`abjure_suspicion_drop` changed, but no player abjured in either version: the change could not show "
             "(0 of 80 seat-games in A, 0 of 80 in B).")
    used = (f"`observe_bonus_vp` changed; players observed the sky in {observed['A-p2']} of 80 seat-games in A "
            f"({100 * observed['A-p2'] / 80:.1f}%) and {observed['B-p2']} of 80 in B ({100 * observed['B-p2'] / 80:.1f}%).")
    lines = stdout.splitlines()
    assert never in lines and used in lines and not any(ln.startswith("`seal_beside_vp`") for ln in lines)
    # the fixed summary rows still come first
    assert lines[0].startswith("Who gains, by how much: version B minus A") and lines[2].split()[:2] == ["2", "never-abjure"]
    assert lines.index(never) > 2
    md = (out / "report" / "report.md").read_text()
    verdict = md.split("## Verdict", 1)[1].split("\n## ", 1)[0]
    assert never in verdict and used in verdict


def test_change_uses_say_nothing_of_a_rule_without_a_known_mechanic_or_a_game_without_a_table():
    from meeplelab.analysis.compare import change_use_lines, game_mechanics

    mechs, by_param, word = game_mechanics("galileos-truth")
    assert by_param["abjure_suspicion_drop"] == ("abjure",) and mechs["abjure"] == ("events:abjure", "abjured")
    assert "seal_beside_vp" not in by_param and word == "Cycle"
    assert {m for ms in by_param.values() for m in ms} <= set(mechs)  # every mapped mechanic is defined
    um_mechs, um_params, um_word = game_mechanics("unconscious-mind")
    assert um_params["cite_vp_per_volume"] == ("cite",) and um_word == "Round"
    assert {m for ms in um_params.values() for m in ms} <= set(um_mechs)
    assert game_mechanics("toy") == ({}, {}, "round") and change_use_lines([]) == []
    rows = [{"version": v, "reference": "A", "param": "abjure_other_rise", "mechanics": ["abjure"], "words": "abjured",
             "ref_used": 0, "ref_n": 10, "used": u, "n": 10} for v, u in (("B", 0), ("C", 3))]
    never = ("Version B minus A: `abjure_other_rise` changed, but no player abjured in either version: the change "
             "could not show (0 of 10 seat-games in A, 0 of 10 in B).")
    used = ("Version C minus A: `abjure_other_rise` changed; players abjured in 0 of 10 seat-games in A (0.0%) and 3 of "
            "10 in C (30.0%).")
    assert change_use_lines(rows) == [never, used]


@pytest.mark.slow  # two runs, two re-tunings of 100 games, the re-tuned runs and the report: 1-3 min under load
def test_compare_retune_plays_every_arm_again_with_players_re_tuned_to_its_rules(tmp_path, capsys, monkeypatch):
    import json

    from meeplelab.analysis.retune import effects, play_changes, play_lines

    out = tmp_path / "cmp"
    argv = ["compare", "--game", "galileos-truth", "--arm", "default", "--arm", "abjure_suspicion_drop=2", "--players",
            "2", "--strategies", "heuristic,writer", "--games", "40", "--n-jobs", "1", "--out", out]
    code, stdout, err = run_cli(argv + ["--retune", "100"], capsys, monkeypatch)
    assert code == 0, err
    meta = json.loads((out / "retuned-p2.json").read_text())
    assert meta["positions"] == [0] and [v["folder"] for v in meta["variants"]] == ["A-p2", "B-p2"]
    assert [v["values"] for v in meta["variants"]] == [{}, {"abjure_suspicion_drop": "2"}]
    for v in meta["variants"]:
        fixed = pl.read_parquet(out / v["folder"] / "games" / "*.parquet")
        again = pl.read_parquet(out / "retuned" / v["folder"] / "run" / "games" / "*.parquet")
        # the same games as the arm's own run, the tuned preset in the heuristic's seats
        assert fixed.select("game", "seat_order", "game_seed").equals(again.select("game", "seat_order", "game_seed"))
        assert json.loads((out / "retuned" / v["folder"] / "run" / "manifest.json").read_text())["game"]["params"][
            "abjure_suspicion_drop"] == (2 if v["folder"] == "B-p2" else 5)
    e = effects(out, "retuned-p2.json")
    assert e.height == 4 and set(e["strategy"]) == {"heuristic (re-tuned)", "writer"}
    lines = stdout.splitlines()
    assert lines[0].startswith("Who gains, by how much: version B minus A")  # still the first lines
    head = lines.index(next(x for x in lines if x.startswith("Players fixed and players re-tuned, 2 players")))
    assert head > 3 and "heuristic re-tuned to each arm's rules, 100 games each" in lines[head]
    w = e.filter((pl.col("strategy") == "writer") & (pl.col("metric") == "win")).row(0, named=True)
    assert (f"  abjure_suspicion_drop=2: writer win rate {w['fixed']:+.2f} [{w['fixed_low']:+.2f}, {w['fixed_high']:+.2f}] "
            f"points with the players fixed, {w['retuned']:+.2f}") in "\n".join(lines)
    assert all(f"  {ln}" in lines for ln in play_lines(play_changes(out, "retuned-p2.json")))
    md = (out / "report" / "report.md").read_text()
    assert (md.index("## Who gains, by how much") < md.index("## Players fixed and players re-tuned (2 players)")
            < md.index("## Versions compared"))
    assert "What changed in the re-tuned players' play" in md
    code, stdout, err = run_cli(argv + ["--overwrite"], capsys, monkeypatch)  # again without --retune: nothing stale
    assert code == 0, err
    assert not (out / "retuned-p2.json").exists() and not (out / "retuned").exists()
    assert "Players fixed and players re-tuned" not in (out / "report" / "report.md").read_text() + stdout


@pytest.mark.parametrize("arms,strategies,message", [
    (["default", "content=PACK"], "heuristic,writer", "--retune 100: --arm 'content="),
    (["default", "abjure_suspicion_drop=2"], "writer,observer", "--retune: no strategy of --strategies (writer, observer)"),
])
def test_a_compare_retune_that_cannot_run_is_refused_before_any_game(arms, strategies, message, tmp_path, capsys,
                                                                     monkeypatch):
    pack = tmp_path / "pack"
    shutil.copytree(Path(__file__).resolve().parents[1] / "sim" / "galileos_truth" / "data", pack)
    argv = ["compare", "--game", "galileos-truth", "--players", "2", "--strategies", strategies, "--games", "40",
            "--retune", "100", "--out", tmp_path / "cmp"]
    for a in arms:
        argv += ["--arm", a.replace("PACK", str(pack))]
    code, _, err = run_cli(argv, capsys, monkeypatch)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "cmp").exists()
