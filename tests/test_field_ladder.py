"""``--field`` takes the skill ladder's rungs (scripted, heuristic, tuned, strong) and ``ladder`` (each rung in turn
into OUT/rung-RUNG/, then OUT/ladder.md and ladder.csv: every headline answer at every rung with its reading).
Real games through the CLI, small (2 seats, a few games)."""

from __future__ import annotations

import csv
import json
import tomllib
from pathlib import Path

import polars as pl
import pytest

from meeplelab.analysis.content import removal_effects
from meeplelab.analysis.load import scan_run
from meeplelab.analysis.rungs import DEPENDS, EVERY, SCRIPTED_ONLY, compare, resolution_of, rung_folder
from meeplelab.sim.core.errors import ConfigError
from meeplelab.strategies.fields import (FIELDS, RUNGS, heuristic_roster, members, parse_rungs, roster, strong_roster,
                                         tuned_roster)
from meeplelab.studies.field_ladder import (balance_answers, compensate_answers, ladder_rows, reading,
                                           robustness_answers)
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
GAME = "galileos-truth"
TUNED = f"heuristic:preset={ROOT / 'docs' / 'presets' / f'{GAME}-heuristic-tuned.toml'}"


def test_every_rung_has_its_roster_and_the_strong_one_is_unchanged():
    assert FIELDS == ("scripted", "heuristic", "tuned", "strong", "ladder") and RUNGS == FIELDS[:4]
    assert heuristic_roster(GAME, 3) == roster(GAME, "heuristic", 3) == ("heuristic",) * 3
    assert tuned_roster(GAME, 2) == roster(GAME, "tuned", 2) == (TUNED, TUNED)
    assert roster(GAME, "strong", 3) == strong_roster(GAME, 3) == (TUNED, "ismcts", TUNED)
    assert members(GAME, "heuristic") == ("heuristic",) and members(GAME, "strong") == (TUNED, "ismcts")


@pytest.mark.parametrize("field, ids", [("heuristic", ["heuristic", "heuristic"]), ("tuned", [TUNED, TUNED])])
def test_a_rung_plays_its_players_and_the_run_records_them(field, ids, tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    code, stdout, err = run_cli(["simulate", "--game", GAME, "--players", "2", "--field", field, "--games", "4",
                                 "--n-jobs", "1", "--no-progress", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    run_toml = tomllib.loads((out / "run.toml").read_text())
    assert run_toml["field"] == field and run_toml["strategies"] == ids
    played = scan_run(out).select(pl.col("strategy").cast(pl.String)).collect()["strategy"]
    assert played.len() == 8 and played.str.starts_with("heuristic").all()
    if field == "tuned":  # the preset's weights, expanded into every argument by the games table
        assert played.str.contains("copernican=").all()
    else:
        assert set(played) == {"heuristic"}


def test_a_rung_with_strategies_and_an_unknown_field_are_refused_in_one_line(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, stdout, err = run_cli(["tournament", "--game", GAME, "--field", "tuned", "--strategies", "writer,observer",
                                 "--out", out], capsys, monkeypatch)
    assert (code, stdout) == (2, "") and not out.exists()
    assert err.strip() == ("error: --field tuned and --strategies writer,observer are given together: --field tuned "
                           "plays the tuned heuristic at every seat; allowed: --field tuned without --strategies, or "
                           "--strategies with --field scripted (the default)")
    for argv, why in ((["tournament"], "a tournament needs at least two strategies"),
                      (["exchange-rates", "--players", "2"], "exchange rates are measured per strategy, one distinct "
                                                             "strategy per seat,")):
        code, stdout, err = run_cli([*argv, "--game", GAME, "--field", "heuristic", "--out", out], capsys, monkeypatch)
        assert (code, stdout) == (2, "") and not out.exists() and len(err.strip().splitlines()) == 1
        assert err.startswith(f"error: --field heuristic: {why}") and "allowed --field scripted or strong" in err
    code, stdout, err = run_cli(["compare", "--game", GAME, "--arm", "default", "--arm", "start_suspicion=1",
                                 "--field", "bogus", "--out", out], capsys, monkeypatch)
    assert (code, stdout) == (2, "") and not out.exists()
    assert err.strip() == ("error: Invalid value for '--field': 'bogus' is not one of 'scripted', 'heuristic', 'tuned', "
                           "'strong', 'ladder'")


@pytest.mark.parametrize("argv", [
    ["sweep", "--game", GAME, "--players", "2", "--vary", "start_suspicion=0,1"],
    ["simulate", "--game", GAME, "--players", "2"],
])
def test_field_ladder_on_a_command_without_headline_answers_is_refused_in_one_line(argv, tmp_path, capsys,
                                                                                   monkeypatch):
    out = tmp_path / "out"
    code, stdout, err = run_cli([*argv, "--field", "ladder", "--games", "4", "--out", out], capsys, monkeypatch)
    assert (code, stdout) == (2, "") and not out.exists()
    assert err.strip() == (f"error: --field ladder on {argv[0]}: it has no headline answers to put side by side across "
                           f"the rungs; allowed --field ladder on balance, compare, compensate, content-value, "
                           f"experiment, robustness, or one rung on "
                           f"{argv[0]}: "
                           "scripted, heuristic, tuned, strong")


def test_a_proposal_that_flips_with_the_players_depends_on_skill(tmp_path):
    def proposal(bonus):  # a compensate.json as the solve writes it (the fields the ladder reads)
        spread = {"spread": 20.0, "spread_low": 10.0, "spread_high": 30.0}
        return {"request": {"resource": "vp"},
                "verified": {"2": {"none": spread, "proposal": {**spread, "spread": 4.0, "bonus": bonus}}}}

    cells = {}
    for rung, bonus in zip(RUNGS, ([6, 0], [4, 0], [0, 8], [0, 9])):  # the same seats: the proposal holds
        (tmp_path / rung).mkdir()
        (tmp_path / rung / "compensate.json").write_text(json.dumps(proposal(bonus)))
        cells[rung] = {a["key"]: a for a in compensate_answers(tmp_path / rung)}
    assert cells["scripted"]["proposal, 2 seats"]["text"] == "Seat 1 +6 VP"
    assert cells["strong"]["proposal, 2 seats"]["text"] == "Seat 2 +9 VP"
    row = {r: c["proposal, 2 seats"] for r, c in cells.items()}
    assert reading(row, RUNGS) == (DEPENDS, "changes from the tuned heuristic")
    assert reading({**row, "heuristic": row["strong"]}, RUNGS) == (SCRIPTED_ONLY, "")
    spread = {r: c["seat spread without compensation, 2 seats (points)"] for r, c in cells.items()}
    assert spread["tuned"]["text"] == "20.0 [10.0, 30.0]" and reading(spread, RUNGS) == (EVERY, "")
    assert reading({"strong": row["strong"]}, RUNGS) == ("-", "measured at one rung only: strong field")
    no_interval = {"est": 1.0, "low": float("nan"), "high": float("nan")}
    assert reading({**spread, "heuristic": no_interval, "tuned": no_interval, "strong": no_interval}, RUNGS) == (
        "-", "measured at one rung only: scripted plans")


@pytest.mark.slow
def test_compare_field_ladder_plays_every_rung_and_reads_each_answer_across_them(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cmp"
    argv = ["compare", "--game", GAME, "--players", "2", "--games", "4", "--arm", "default", "--arm",
            "start_suspicion=1", "--n-jobs", "1", "--no-progress", "--field", "ladder", "--out", out]
    code, stdout, err = run_cli(argv, capsys, monkeypatch)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["config.toml", "ladder.csv", "ladder.md",
                                                     *sorted(map(rung_folder, RUNGS))]
    ladder_settings = tomllib.loads((out / "config.toml").read_text())  # the scripted rung's, saying it was a ladder
    assert ladder_settings["field"] == "ladder" and ladder_settings["arm"] == ["default", "start_suspicion=1"]
    for rung in RUNGS:  # every rung an ordinary compare run, its settings naming the rung
        saved = tomllib.loads((out / rung_folder(rung) / "config.toml").read_text())
        assert saved["field"] == rung
    assert tomllib.loads((out / "rung-heuristic" / "config.toml").read_text())["strategies"] == ["heuristic"]
    rows = {r["answer"]: r for r in csv.DictReader((out / "ladder.csv").open())}
    key = "B minus A, 2 seats: game length (rounds)"
    assert list(rows)[:2] == ["B minus A, 2 seats: seat spread (points)", key]  # measured at every rung: first
    figures = {}
    for rung in RUNGS:  # the row's figures and word, recomputed here from each rung's delta table
        d = pl.read_parquet(out / rung_folder(rung) / "deltas.parquet").filter(
            (pl.col("metric") == "game length (rounds)") & (pl.col("version") == "B")).row(0, named=True)
        figures[rung] = {k: d[k] for k in ("est", "low", "high")}
        assert rows[key][rung] == f"{d['est']:+.1f} [{d['low']:+.1f}, {d['high']:+.1f}]"
    held = [compare(figures["scripted"], figures[r])[0] == "holds" for r in RUNGS[1:]]  # finite: every rung's games
    assert rows[key]["word"] == (EVERY if all(held) else SCRIPTED_ONLY if not any(held) else DEPENDS)
    assert rows["B minus A, 2 seats: ismcts's final VP (VP)"]["word"] == "-"  # the strong field's search only
    md = (out / "ladder.md").read_text()
    assert "| answer | scripted | heuristic | tuned | strong | reading |" in md and f"| {key} | {rows[key]['scripted']}" in md
    assert "compare at every rung of the skill ladder (--field ladder):" in stdout and f"wrote {out / 'ladder.md'}" in stdout
    code, stdout, err = run_cli(argv, capsys, monkeypatch)  # each rung an ordinary run: its folder's own refusal
    assert (code, stdout) == (2, "")
    assert err.strip().splitlines()[-1] == (f"error: output folder '{out / 'rung-scripted'}' holds another comparison: "
                                            "use --resume to complete it, --overwrite to replace it or choose a new --out")


@pytest.mark.slow
def test_content_value_field_ladder_gives_each_removal_effect_at_every_rung(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cv"
    code, stdout, err = run_cli(["content-value", "--game", GAME, "--players", "2", "--games", "4", "--items",
                                 "invention:telescope", "--n-jobs", "1", "--no-progress", "--field", "ladder", "--out",
                                 out], capsys, monkeypatch)
    assert code == 0, err
    assert tomllib.loads((out / "config.toml").read_text())["field"] == "ladder"
    rows = {r["answer"]: r for r in csv.DictReader((out / "ladder.csv").open())}
    key = "removing invention:telescope, all seats: final VP (VP)"
    assert next(iter(rows)) == key  # measured at every rung: first
    figures = {}
    for rung in RUNGS:  # each rung's figure is its own folder's removal effect
        e = removal_effects(out / rung_folder(rung)).filter((pl.col("group") == "all seats") & (pl.col("metric") == "vp"))
        figures[rung] = d = e.row(0, named=True)
        assert rows[key][rung] == f"{d['est']:+.2f} [{d['low']:+.2f}, {d['high']:+.2f}]"
    # a difference under the resolution (one VP to one of 2 seats) is no change
    held = [compare(figures["scripted"], figures[r], resolution_of("VP", 2))[0] == "holds" for r in RUNGS[1:]]
    assert rows[key]["word"] == (EVERY if all(held) else SCRIPTED_ONLY if not any(held) else DEPENDS)
    assert f"| {key} | {rows[key]['scripted']} |" in (out / "ladder.md").read_text()
    assert "content-value at every rung of the skill ladder (--field ladder):" in stdout


def _conclusion(title, statement, share, verdict):  # a results.json conclusion as the robustness run writes it
    return {"title": title, "test": "direction", "statement": statement, "share": share, "share_low": share - 0.2,
            "share_high": min(share + 0.1, 1.0), "verdict": verdict}


def test_robustness_answers_match_a_conclusion_across_rung_titles_and_read_its_claim_share_and_verdict(tmp_path):
    words = {"scripted": "", "heuristic": ", heuristic mirror", "tuned": ", tuned mirror", "strong": ", strong field"}
    seat = {"scripted": 1, "heuristic": 1, "tuned": 2, "strong": 2}
    for rung in RUNGS:
        (tmp_path / rung_folder(rung)).mkdir()
        res = {"conclusions": [_conclusion(f"Seat advantage (2 seats{words[rung]})",
                                           f"seat {seat[rung]} is favoured at 2 seats (+5.0 points over fair share)",
                                           0.95, "robust: holds at 95% [75%, 100%] of 20 points, none flipped")]}
        if rung == "scripted":  # conclusions only the scripted study draws
            res["conclusions"].append(_conclusion("Dominant strategy (4 seats)", "writer has the highest rotated win "
                                                  "rate (+3.0 points over the next)", 0.5,
                                                  "depends on A-GT-03 (flips when x >= 2: 3 of 3 flipped points)"))
            res["conclusions"].append(_conclusion("Abjure-timing effect, Cycle 2 (VP vs never)", "Abjuring in Cycle 2 "
                                                  "instead of never costs 1.00 VP (paired)", 0.7, "robust: holds"))
        if rung == "strong":  # the strong study's dominant strategy, named in the tuned preset's words
            res["conclusions"].append(_conclusion("Dominant strategy (4 seats, strong field)", f"{TUNED} has the "
                                                  "highest rotated win rate (+9.0 points over the next)", 0.9,
                                                  "robust: holds at 90%"))
        (tmp_path / rung_folder(rung) / "config.toml").write_text(f'game = "{GAME}"\n')
        (tmp_path / rung_folder(rung) / "results.json").write_text(json.dumps(res))
    answers = {a["key"]: a for a in robustness_answers(tmp_path / "rung-strong")}
    assert answers["Seat advantage (2 seats): claim at the defaults"]["text"] == "seat 2 is favoured at 2 seats"
    assert answers["Seat advantage (2 seats): design points where it holds (%)"]["text"] == "95% [75%, 100%]"
    assert answers["Seat advantage (2 seats): verdict"]["text"] == "robust"
    rows = {r["answer"]: r for r in ladder_rows("robustness", tmp_path, RUNGS)}
    assert (rows["Seat advantage (2 seats): claim at the defaults"]["word"],
            rows["Seat advantage (2 seats): claim at the defaults"]["detail"]) == (DEPENDS,
                                                                                   "changes from the tuned heuristic")
    assert rows["Seat advantage (2 seats): verdict"]["word"] == EVERY
    assert rows["Dominant strategy (4 seats): claim at the defaults"]["cells"] == {
        "scripted": "writer has the highest rotated win rate", "strong": "tuned heuristic has the highest rotated win rate"}
    assert rows["Dominant strategy (4 seats): verdict"]["cells"] == {"scripted": "depends on A-GT-03", "strong": "robust"}
    assert rows["Dominant strategy (4 seats): verdict"]["word"] == SCRIPTED_ONLY
    effect = rows["Abjure-timing effect, Cycle 2 (VP vs never): claim at the defaults"]  # the direction, not the size
    assert effect["cells"] == {"scripted": "Abjuring in Cycle 2 instead of never costs"} and effect["word"] == "-"


def test_balance_answers_read_the_proposal_its_targets_met_and_each_target(tmp_path):
    for rung, value, met in zip(RUNGS, (2, 2, 3, 3), (1, 1, 1, 0)):
        (tmp_path / rung_folder(rung)).mkdir()
        st = {"vary": {"start_suspicion": "0..4"}, "targets": ["seat-spread<=5"],
              "proposal": {"start_suspicion": value, "met": met, "seat-spread<=5": 4.0 + 10 * (rung == "strong"),
                           "seat-spread<=5 low": 2.0 + 10 * (rung == "strong"),
                           "seat-spread<=5 high": 6.0 + 10 * (rung == "strong")}}
        (tmp_path / rung_folder(rung) / "balance.json").write_text(json.dumps(st))
    assert [a["text"] for a in balance_answers(tmp_path / "rung-scripted")] == ["2", "1 of 1", "4.00 [2.00, 6.00]"]
    st = json.loads((tmp_path / "rung-strong" / "balance.json").read_text())
    (tmp_path / "rung-strong" / "balance.json").write_text(json.dumps({**st, "proposal_is_defaults": True}))
    assert balance_answers(tmp_path / "rung-strong")[0] == {"key": "proposal: start_suspicion",
                                                            "text": "3 (the default)", "value": "3"}
    rows = {r["answer"]: (r["word"], r["detail"]) for r in ladder_rows("balance", tmp_path, RUNGS)}
    assert rows == {"proposal: start_suspicion": (DEPENDS, "changes from the tuned heuristic"),
                    "targets the proposal meets on fresh seeds": (DEPENDS, "changes from the strong field"),
                    "seat-spread<=5 under the proposal": (DEPENDS, "changes from the strong field")}


def test_balance_field_ladder_with_retune_is_refused_before_any_rung_plays(tmp_path, capsys, monkeypatch):
    out = tmp_path / "bal"
    code, stdout, err = run_cli(["balance", "--game", GAME, "--vary", "start_suspicion=0..2", "--target",
                                 "seat-spread<=20", "--retune", "10", "--field", "ladder", "--out", out], capsys,
                                monkeypatch)
    assert (code, stdout) == (2, "") and not out.exists()
    assert err.strip() == ("error: --field ladder and --retune 10 on balance: the tuned and strong rungs are tuned "
                           "already (their heuristic is a preset); allowed: --field ladder without --retune, or "
                           "--retune with --field scripted or heuristic")


def test_rungs_are_parsed_weakest_first_and_a_bad_list_is_one_line():
    assert parse_rungs(None) == RUNGS and parse_rungs("tuned,scripted") == ("scripted", "tuned")
    for text, why in (("scripted,bogus", "unknown rung 'bogus'; allowed two or more of scripted, heuristic, tuned, "
                                         "strong, comma-separated"),
                      ("tuned,tuned", "rung 'tuned' is named twice; allowed each of scripted, heuristic, tuned, "
                                      "strong once"),
                      ("tuned", "a ladder needs two or more rungs to compare; allowed two or more of scripted, "
                                "heuristic, tuned, strong, or --field tuned for one rung")):
        with pytest.raises(ConfigError) as e:
            parse_rungs(text)
        assert str(e.value) == f"--rungs {text}: {why}"


@pytest.mark.parametrize("argv, message", [
    (["--field", "ladder", "--rungs", "scripted,bogus"],
     "--rungs scripted,bogus: unknown rung 'bogus'; allowed two or more of scripted, heuristic, tuned, strong, "
     "comma-separated"),
    (["--field", "tuned", "--rungs", "scripted,tuned"],
     "--rungs scripted,tuned with --field tuned: --rungs picks the rungs of --field ladder; allowed: --rungs with "
     "--field ladder, or --field tuned without --rungs"),
])
def test_a_bad_rungs_option_is_refused_in_one_line_before_anything_is_written(argv, message, tmp_path, capsys,
                                                                              monkeypatch):
    out = tmp_path / "cmp"
    code, stdout, err = run_cli(["compare", "--game", GAME, "--players", "2", "--games", "4", "--arm", "default",
                                 "--arm", "start_suspicion=1", "--n-jobs", "1", "--no-progress", *argv, "--out", out],
                                capsys, monkeypatch)
    assert (code, stdout, err.strip()) == (2, "", f"error: {message}") and not out.exists()


@pytest.mark.slow
def test_field_ladder_with_rungs_plays_only_those_rungs_and_its_settings_repeat_them(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cmp"
    code, stdout, err = run_cli(["compare", "--game", GAME, "--players", "2", "--games", "4", "--arm", "default",
                                 "--arm", "start_suspicion=1", "--n-jobs", "1", "--no-progress", "--field", "ladder",
                                 "--rungs", "tuned,scripted", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["config.toml", "ladder.csv", "ladder.md", "rung-scripted",
                                                     "rung-tuned"]
    settings = tomllib.loads((out / "config.toml").read_text())
    assert (settings["field"], settings["rungs"]) == ("ladder", "scripted,tuned")
    with (out / "ladder.csv").open() as f:
        assert next(csv.reader(f)) == ["answer", "scripted", "tuned", "word", "detail"]
    assert "| answer | scripted | tuned | reading |" in (out / "ladder.md").read_text()
    again = tmp_path / "again"  # the ladder's settings file runs the same two rungs
    code, stdout, err = run_cli(["compare", "--config", out / "config.toml", "--out", again], capsys, monkeypatch)
    assert code == 0, err
    assert sorted(p.name for p in again.iterdir()) == sorted(p.name for p in out.iterdir())
    assert (again / "ladder.csv").read_text() == (out / "ladder.csv").read_text()


def test_a_claim_a_rung_leaves_unresolved_reads_unresolved_there_not_a_change_of_skill(tmp_path):
    unsettled = "not resolved with this budget: not established at the defaults (+1.00 [-2.00, +4.00] points, n=20)"
    for rung, seat, verdict in zip(RUNGS, (1, 2, 1, 1), ("robust: holds", unsettled, "robust: holds", "robust")):
        (tmp_path / rung_folder(rung)).mkdir()
        res = {"conclusions": [_conclusion("Seat advantage (2 seats)", f"seat {seat} is favoured at 2 seats "
                                           "(+5.0 points over fair share)", 0.95, verdict)]}
        (tmp_path / rung_folder(rung) / "results.json").write_text(json.dumps(res))
    rows = {r["answer"]: r for r in ladder_rows("robustness", tmp_path, RUNGS)}
    claim = rows["Seat advantage (2 seats): claim at the defaults"]
    assert claim["cells"]["heuristic"] == "seat 2 is favoured at 2 seats (not established)"
    assert (claim["word"], claim["detail"]) == ("unresolved at heuristic", "no verdict there (its interval crosses zero "
                                                "or the budget did not settle it); the other rungs: " + EVERY)
    verdict = rows["Seat advantage (2 seats): verdict"]
    assert verdict["word"] == "unresolved at heuristic" and verdict["cells"]["heuristic"] == "not resolved with this budget"


@pytest.mark.parametrize("command, argv", [
    ("content-value", ["--items", "invention:telescope"]),
    ("compare", ["--arm", "default", "--arm", "start_suspicion=1"]),
])
def test_field_ladder_with_retune_is_refused_up_front_on_every_study(command, argv, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, stdout, err = run_cli([command, "--game", GAME, "--players", "2", "--games", "4", *argv, "--retune", "200",
                                 "--field", "ladder", "--n-jobs", "1", "--no-progress", "--out", out], capsys,
                                monkeypatch)
    assert (code, stdout) == (2, "") and not out.exists()
    assert err.strip() == (f"error: --field ladder and --retune 200 on {command}: the heuristic and tuned rungs are one "
                           "player at every seat (nothing to tune against) and the tuned and strong rungs are tuned "
                           "already (their heuristic is a preset); allowed: --field ladder without --retune, or "
                           "--retune with --field scripted")
