"""``--retune`` on the studies that change content or rules besides compare: content-value (a removal arm's
content), exchange-rates curves (each version's rules) and compensate (the proposal per seat count): the re-tuned
runs on the same games, the printed change lines, the report section, and the one-line refusals."""

from __future__ import annotations

import json

import polars as pl
import pytest
from meeplelab.analysis.retune import effects, record_lines

from tests.cli_run import run_cli

GT = ["--game", "galileos-truth", "--players", "2", "--strategies", "heuristic,writer", "--games", "40", "--n-jobs", "1"]


def _same_games(fixed, again) -> None:
    """The re-tuned run plays the fixed run's games: the same game ids, seat orders and seeds."""
    a = pl.read_parquet(fixed / "games" / "*.parquet").select("game", "seat_order", "game_seed")
    b = pl.read_parquet(again / "games" / "*.parquet").select("game", "seat_order", "game_seed")
    assert a.sort("game", "seat_order").equals(b.sort("game", "seat_order"))


def _change_lines(stdout: str, out, file: str, what: str, to: str) -> list[str]:
    """The printed lines of ``file``'s re-tuning, checked against the record's effects; returns them."""
    want = record_lines(out, file, what, to)
    lines = stdout.splitlines()
    assert want and all(x in lines for x in want)
    e = effects(out, file)
    w = e.filter((pl.col("strategy") == "writer") & (pl.col("metric") == "win")).row(0, named=True)
    assert any(x.startswith(f"  {w['variant']}: writer win rate {w['fixed']:+.2f} [") for x in lines)
    return want


@pytest.mark.slow  # two arms, two re-tunings of 100 games, the re-tuned runs and the report: ~1 min
def test_content_value_retune_plays_each_removal_arm_again_with_players_re_tuned_to_its_content(tmp_path, capsys,
                                                                                               monkeypatch):
    out = tmp_path / "cv"
    argv = ["content-value", *GT, "--items", "invention:telescope", "--out", out]
    code, stdout, err = run_cli(argv + ["--retune", "100"], capsys, monkeypatch)
    assert code == 0, err
    meta = json.loads((out / "retuned.json").read_text())
    assert meta["positions"] == [0] and meta["budget"] == 100
    assert [v["folder"] for v in meta["variants"]] == ["control", "remove_invention_telescope"]
    assert [v["values"] for v in meta["variants"]] == [{}, {"remove": "invention:telescope"}]
    for v in meta["variants"]:
        _same_games(out / v["folder"], out / "retuned" / v["folder"] / "run")
    # the re-tuned removal arm plays the edited content: no telescope in its copy of the inventions
    copy = (out / "retuned" / "remove_invention_telescope" / "run" / "content").rglob("*.toml")
    assert not any('id = "telescope"' in p.read_text() for p in copy)
    head = _change_lines(stdout, out, "retuned.json", "", "each arm's content")[0]
    assert head.startswith("Players fixed and players re-tuned (heuristic re-tuned to each arm's content, 100 games")
    md = (out / "report" / "report.md").read_text()
    assert md.index("## Content value by removal") < md.index("## Players fixed and players re-tuned")
    code, stdout, err = run_cli(argv + ["--overwrite"], capsys, monkeypatch)  # again without --retune: nothing stale
    assert code == 0, err
    assert not (out / "retuned.json").exists() and not (out / "retuned").exists()
    assert "Players fixed and players re-tuned" not in (out / "report" / "report.md").read_text() + stdout


@pytest.mark.slow  # two versions' curves, two re-tunings of 100 games and the report: ~1 min
def test_exchange_curves_retune_plays_each_version_control_again_with_players_re_tuned(tmp_path, capsys, monkeypatch):
    out = tmp_path / "ex"
    argv = ["exchange-rates", *GT, "--resources", "coins", "--doses", "0,2", "--arm", "default", "--arm",
            "abjure_suspicion_drop=2", "--out", out]
    code, stdout, err = run_cli(argv + ["--retune", "100"], capsys, monkeypatch)
    assert code == 0, err
    meta = json.loads((out / "retuned.json").read_text())
    assert [v["folder"] for v in meta["variants"]] == ["A-control", "B-control"]
    assert [v["values"] for v in meta["variants"]] == [{}, {"abjure_suspicion_drop": "2"}]
    for v in meta["variants"]:
        _same_games(out / v["folder"], out / "retuned" / v["folder"] / "run")
        assert json.loads((out / "retuned" / v["folder"] / "run" / "manifest.json").read_text())["game"]["params"][
            "abjure_suspicion_drop"] == (2 if v["folder"] == "B-control" else 5)
    _change_lines(stdout, out, "retuned.json", "", "each version's rules and content")
    assert "## Players fixed and players re-tuned" in (out / "report" / "report.md").read_text()
    code, _, err = run_cli(argv + ["--retune", "200", "--resume"], capsys, monkeypatch)  # another budget
    assert code == 2 and "--retune 100" in err and len(err.strip().splitlines()) == 1, err
    code, stdout, err = run_cli(argv + ["--overwrite"], capsys, monkeypatch)
    assert code == 0, err
    assert not (out / "retuned.json").exists() and not (out / "retuned").exists()
    assert "Players fixed and players re-tuned" not in (out / "report" / "report.md").read_text() + stdout


@pytest.mark.slow  # a two-candidate solve, its fresh-seed check, two re-tunings of 100 games: ~1 min
def test_compensate_retune_plays_both_fresh_seed_runs_again_with_players_re_tuned(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cp"
    argv = ["compensate", *GT, "--iterations", "2", "--verify-factor", "1", "--out", out]
    code, stdout, err = run_cli(argv + ["--retune", "100"], capsys, monkeypatch)
    assert code == 0, err
    st = json.loads((out / "compensate.json").read_text())
    assert st["request"]["retune"] == 100
    meta = json.loads((out / "retuned-p2.json").read_text())
    bonus = ",".join(map(str, st["verified"]["2"]["proposal"]["bonus"]))
    assert [v["folder"] for v in meta["variants"]] == ["verify/p2-none", "verify/p2-proposal"]
    assert [v["values"] for v in meta["variants"]] == [{}, {"seat_vp_2p": bonus}]
    for v in meta["variants"]:
        _same_games(out / v["folder"], out / "retuned" / v["folder"] / "run")
    _change_lines(stdout, out, "retuned-p2.json", "2 players", "each arm's rules")
    assert "## Players fixed and players re-tuned (2 players)" in (out / "report" / "report.md").read_text()
    code, _, err = run_cli(argv + ["--resume"], capsys, monkeypatch)  # resumed without --retune: refused
    assert code == 2 and "--retune 100" in err and len(err.strip().splitlines()) == 1, err
    code, stdout, err = run_cli(argv + ["--overwrite"], capsys, monkeypatch)
    assert code == 0, err
    assert not (out / "retuned-p2.json").exists() and not (out / "retuned").exists()
    assert "Players fixed and players re-tuned" not in (out / "report" / "report.md").read_text() + stdout


@pytest.mark.parametrize("argv,message", [
    (["content-value", *GT[:4], "--strategies", "heuristic,writer", "--items", "invention:telescope", "--mode", "deny"],
     "--retune 100: arm 'deny:invention:telescope' denies an item to one seat"),
    (["content-value", *GT[:4], "--strategies", "writer,observer", "--items", "invention:telescope"],
     "--retune: no strategy of --strategies (writer, observer)"),
    (["content-value", *GT[:4], "--strategies", "heuristic", "--items", "invention:telescope"],
     "--retune needs a roster of one strategy per seat"),
    (["exchange-rates", *GT[:4], "--strategies", "writer,observer", "--arm", "default", "--arm",
      "abjure_suspicion_drop=2"], "--retune: no strategy of --strategies (writer, observer)"),
    (["exchange-rates", *GT[:4], "--strategies", "heuristic,writer", "--arm", "default"],
     "--retune 100: the players are re-tuned to each version"),
    (["exchange-rates", *GT[:4], "--strategies", "heuristic,writer"], "give at least two --arm"),
    (["compensate", *GT[:4], "--strategies", "writer,observer"], "--retune: no strategy of --strategies (writer, observer)"),
    (["compensate", *GT[:4], "--strategies", "heuristic,writer", "--retune", "-1"], "--retune -1: allowed 0"),
])
def test_a_retune_that_cannot_run_is_refused_in_one_line_before_any_game(argv, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "study"
    extra = [] if "--retune" in argv else ["--retune", "100"]
    code, _, err = run_cli([*argv, "--games", "40", "--out", out, *extra], capsys, monkeypatch)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()
