"""``--field strong``: the game's strong field (the tuned heuristic preset and the compiled search
``ismcts``, strategies/fields.py) is accepted by every command that plays games, is refused together with
``--strategies``, is recorded (the expanded ids and ``field = "strong"``) and is named as such by the reports.
Real games through the CLI, small (2 and 4 seats, a few games)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import polars as pl
import pytest

from meeplelab.analysis.dominance import field_words
from meeplelab.analysis.load import scan_run
from meeplelab.play.seating import plan_seating
from meeplelab.strategies.fields import PRESETS, strong_field, strong_labels, strong_roster
from meeplelab.strategies.registry import make_strategy
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("galileos-truth", "unconscious-mind")
#: every command that plays games takes --field
PLAYING = ("simulate", "sweep", "experiment", "tournament", "tune", "robustness", "balance", "compare",
           "exchange-rates", "compensate", "content-value")


def tuned(game: str) -> str:
    return f"heuristic:preset={ROOT / 'docs' / 'presets' / f'{game}-heuristic-tuned.toml'}"


def test_the_strong_field_is_the_tuned_preset_and_ismcts_from_the_package_root_and_fills_2_3_4_seats(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not the checkout: the preset path does not depend on the working folder
    assert PRESETS == ROOT / "docs" / "presets"
    for game in GAMES:
        t = tuned(game)
        assert strong_field(game) == (t, "ismcts")
        assert strong_roster(game, 2) == (t, "ismcts")
        assert strong_roster(game, 3) == (t, "ismcts", t)
        assert strong_roster(game, 4) == (t, "ismcts", t, "ismcts")
        for players, orders in ((2, 2), (3, 3), (4, 6)):  # rotate: every distinct seat order on common seeds
            plan = plan_seating("rotate", strong_roster(game, players), 12, players=players)
            assert len(plan.orders) == orders and plan.seeds_per_order == 12 // orders
            for seat in range(players):  # both players sit in every seat
                assert {plan.strategies(o)[seat] for o in range(orders)} == {t, "ismcts"}


def test_reports_name_the_strong_field_in_either_spelling_of_its_ids():
    for game in GAMES:
        t = tuned(game)
        expanded = make_strategy(game, t).id
        assert expanded.startswith("heuristic:") and "preset" not in expanded
        for ids in ([t, "ismcts"], ["ismcts", expanded], [t, "ismcts", t, "ismcts"]):
            assert strong_labels(ids) == ["tuned heuristic", "ismcts"]
            assert field_words(ids, 8, "rotated seats") == ("among the strong field: tuned heuristic, ismcts (8 games, "
                                                            "rotated seats)")
    assert strong_labels(["ismcts"]) is None and strong_labels([tuned(GAMES[0]), "random"]) is None
    assert strong_labels(["ismcts:iters=8", tuned(GAMES[0])]) is None  # not the default search
    assert field_words(["a", "b"], 8, "rotated seats") == "among the strategies played: a, b (8 games, rotated seats)"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players,games,orders", [(2, 8, 2), (4, 6, 6)])
def test_simulate_field_strong_plays_and_records_the_strong_field(game, players, games, orders, tmp_path, capsys,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "run"
    code, stdout, err = run_cli(["simulate", "--game", game, "--players", players, "--field", "strong", "--games", games,
                                 "--n-jobs", "1", "--no-progress", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    assert f"wrote {games} games of {game}" in stdout and f"{orders} seat orders" in stdout
    roster = list(strong_roster(game, players))
    run_toml = tomllib.loads((out / "run.toml").read_text())
    assert run_toml["field"] == "strong" and run_toml["strategies"] == roster
    m = json.loads((out / "manifest.json").read_text())
    assert m["config"]["field"] == "strong" and m["config"]["strategies"] == roster
    g = scan_run(out).select("game", "seat", "seat_order", "game_seed", pl.col("strategy").cast(pl.String)).collect()
    expanded = make_strategy(game, tuned(game)).id
    assert g.height == games * players
    assert sorted(g["strategy"].unique()) == sorted([expanded, "ismcts"])  # exactly the two players
    assert g["seat_order"].n_unique() == orders
    for seat in range(players):  # each in every seat
        assert set(g.filter(pl.col("seat") == seat)["strategy"]) == {expanded, "ismcts"}
    seeds = g.group_by("seat_order").agg(pl.col("game_seed").unique().sort())["game_seed"].to_list()
    assert all(s == seeds[0] for s in seeds)  # every seat order on the same game seeds
    assert g.filter(pl.col("strategy") == "ismcts").height == games * players // 2
    # --resume alone reads the run's own run.toml: the same strong field, nothing left to play
    code, stdout, err = run_cli(["simulate", "--out", out, "--resume", "--no-progress"], capsys, monkeypatch)
    assert code == 0 and f"completed {games} games" in stdout, err


def test_a_strong_field_runs_report_says_the_strong_field(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    code, _, err = run_cli(["simulate", "--game", "galileos-truth", "--players", "2", "--field", "strong", "--games",
                            "8", "--n-jobs", "1", "--no-progress", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    code, stdout, err = run_cli(["report", out, "--no-progress"], capsys, monkeypatch)
    assert code == 0, err
    assert stdout.startswith("wrote ") and "Among the strong field (ISMCTS search and Tuned heuristic; the scripted plans not checked)" in stdout
    md = (out / "report" / "report.md").read_text()
    assert "among the strong field: tuned heuristic, ismcts (8 games, rotated seats)" in md


@pytest.mark.parametrize("argv", [
    ["simulate", "--game", "galileos-truth", "--players", "2", "--games", "8"],
    ["sweep", "--game", "galileos-truth", "--players", "2", "--games", "8", "--vary", "start_suspicion=0,1"],
    ["tournament", "--game", "galileos-truth", "--games", "8"],
])
def test_field_strong_with_strategies_is_refused_in_one_line_and_nothing_is_written(argv, tmp_path, capsys,
                                                                                     monkeypatch):
    out = tmp_path / "out"
    code, stdout, err = run_cli([*argv, "--field", "strong", "--strategies", "writer,observer", "--out", out], capsys,
                                monkeypatch)
    assert code == 2 and stdout == ""
    assert err.strip() == ("error: --field strong and --strategies writer,observer are given together: --field strong "
                           "plays the game's strong field (tuned heuristic, ismcts); allowed: --field strong without "
                           "--strategies, or --strategies with --field scripted (the default)")
    assert not out.exists()


def test_tune_field_strong_with_against_is_refused_and_a_game_without_a_preset_is_named(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, _, err = run_cli(["tune", "--game", "galileos-truth", "--field", "strong", "--against", "writer", "--out", out],
                           capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith("error: --field strong and --against writer are given together") and not out.exists()
    code, _, err = run_cli(["simulate", "--game", "toy", "--field", "strong", "--games", "4", "--out", out], capsys,
                           monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1 and not out.exists()
    assert err.startswith("error: --field strong: toy has no tuned heuristic preset (")
    assert err.strip().endswith("does not exist; meeplelab tune writes one): allowed --field scripted or heuristic")
    code, _, err = run_cli(["tournament", "--game", "toy", "--games", "4", "--out", out], capsys, monkeypatch)
    assert (code, err.strip()) == (2, "error: Missing option '--strategies' (or give --field strong).")


def test_a_config_file_whose_field_is_strong_with_other_strategies_is_refused(tmp_path, capsys, monkeypatch):
    cfg = tmp_path / "mine.toml"
    cfg.write_text('game = "galileos-truth"\nfield = "strong"\nstrategies = ["writer", "ismcts"]\ngames = 4\n')
    out = tmp_path / "out"
    code, _, err = run_cli(["tournament", "--config", cfg, "--out", out], capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1 and not out.exists()
    assert err.startswith("error: config fields 'field' is 'strong' and 'strategies' is 'writer,ismcts'")


@pytest.mark.parametrize("command", PLAYING)
def test_every_command_that_plays_games_lists_field_and_its_choices(command, capsys, monkeypatch):
    code, stdout, _ = run_cli([command, "--help"], capsys, monkeypatch)
    assert code == 0 and "--field <scripted|heuristic|tuned|strong|ladder>" in stdout, command


def test_tournament_field_strong_plays_both_seat_orders_and_repeats_from_its_settings(tmp_path, capsys, monkeypatch):
    out, again = tmp_path / "t", tmp_path / "again"
    argv = ["tournament", "--game", "galileos-truth", "--field", "strong", "--games", "4", "--n-jobs", "1", "--seed",
            "3", "--no-report", "--no-progress"]
    code, stdout, err = run_cli([*argv, "--out", out], capsys, monkeypatch)
    assert code == 0, err
    ids = [tuned("galileos-truth"), "ismcts"]
    assert "2 lineups x 4 games per lineup = 8 games" in stdout
    meta = json.loads((out / "tournament.json").read_text())
    assert meta["strategies"] == ids and sorted(map(tuple, meta["lineups"])) == sorted([tuple(ids), tuple(ids[::-1])])
    saved = tomllib.loads((out / "config.toml").read_text())
    assert saved["field"] == "strong" and saved["strategies"] == ids
    summary = pl.read_parquet(out / "summary.parquet")
    assert sorted(summary["strategy"].cast(pl.String)) == sorted(ids) and summary["seat_results"].to_list() == [8, 8]
    code, _, err = run_cli(["tournament", "--config", out / "config.toml", "--out", again], capsys, monkeypatch)
    assert code == 0, err  # the settings file (field strong and the ids it played) repeats the tournament
    assert pl.read_parquet(again / "summary.parquet").equals(summary)
    code, _, err = run_cli([*argv, "--out", out, "--resume"], capsys, monkeypatch)
    assert code == 0, err


def test_tune_field_strong_plays_against_the_strong_field(tmp_path, capsys, monkeypatch):
    out = tmp_path / "tune"
    code, _, err = run_cli(["tune", "--game", "unconscious-mind", "--field", "strong", "--budget", "16",
                            "--games-per-trial", "2", "--eval-games", "2", "--n-jobs", "1", "--no-progress", "--out",
                            out], capsys, monkeypatch)
    assert code == 0, err
    saved = tomllib.loads((out / "config.toml").read_text())
    assert saved["field"] == "strong" and saved["against"] == [tuned("unconscious-mind"), "ismcts"]
    assert json.loads((out / "tune.json").read_text())["field"] == [tuned("unconscious-mind"), "ismcts"]


def test_the_strong_study_of_robustness_and_balance_seats_the_strong_field_at_2_3_4_seats():
    from meeplelab.analysis.studies import strong_study

    for game in GAMES:
        st = strong_study(game)
        by_panel: dict = {}
        for lu in st.lineups:
            by_panel.setdefault(lu.panel, []).append(lu.strategies)
        assert {p: len(v) for p, v in by_panel.items()} == {"field-2": 2, "field-3": 3, "field-4": 6}
        for p, los in by_panel.items():
            assert len(set(los)) == len(los)  # distinct seat orders
            assert all(sorted(lu) == sorted(strong_roster(game, int(p[-1]))) for lu in los)
        assert [c.name for c in st.conclusions] == ["dominant-field-4", "seat-2", "seat-3", "seat-4", "length-field-4"]


@pytest.mark.parametrize("game", GAMES)
def test_a_search_lineup_of_a_panel_plays_the_same_games_on_the_compiled_kernel(game, monkeypatch):
    from meeplelab.analysis.studies import strong_study
    from meeplelab.play import panels
    from meeplelab.sim.registry import make_game

    lineups = strong_study(game).lineups[:5]  # 2 and 3 seats
    engine = make_game(game)
    calls = []
    real = panels.compiled_plies  # the name the panels call (imported from meeplelab.play.batch)
    monkeypatch.setattr(panels, "compiled_plies", lambda *a, **k: calls.append(1) or real(*a, **k))
    compiled = panels.play_lineups(engine, lineups, 2, 7)
    assert len(calls) == 5  # every search lineup on the compiled kernel, one batch each
    # every lineup on the Python loop, mixed batches
    assert panels.play_lineups(engine, lineups, 2, 7, compiled=False).equals(compiled)
    assert compiled.height == 2 * (2 * 2 + 3 * 3)
