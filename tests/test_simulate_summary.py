"""``meeplelab simulate`` prints its result (win rate per strategy with a Wilson 95% interval, the seat spread with its
paired interval) unless ``--quiet``; ``--game`` shows the games as choices in every command's help."""

from __future__ import annotations

import re

import pytest

import meeplelab
from meeplelab.analysis.seats import games_frame, seat_spread
from tests.cli_run import run_cli


@pytest.mark.slow
def test_simulate_prints_win_rates_with_intervals_and_the_seat_spread(tmp_path, capsys, monkeypatch):
    args = ["simulate", "--game", "galileos-truth", "--players", "2", "--strategies", "writer,never-abjure,random",
            "--games", "60", "--n-jobs", "1", "--no-progress", "--out", tmp_path / "run"]
    code, out, err = run_cli(args, capsys, monkeypatch)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[2].split() == ["strategy", "win", "rate", "95%", "interval", "seat-games", "(fair", "share", "50.0%)"]
    wr = meeplelab.win_rates(meeplelab.load_runs([tmp_path / "run"]).games).sort("est", descending=True)
    for line, r in zip(lines[3:6], wr.iter_rows(named=True)):
        assert line.replace("[ ", "[").split() == [r["strategy"], f"{100 * r['est']:.1f}%", f"[{100 * r['low']:.1f},",
                                f"{100 * r['high']:.1f}]", f"{r['games']:,}"]
    sp = seat_spread(games_frame(meeplelab.load_runs([tmp_path / "run"]))).row(0, named=True)
    assert lines[6] == (f"seat spread (best minus worst seat win rate, 2 seats; strategies balanced over the seats): "
                        f"{sp['spread']:.1f} points [{sp['spread_low']:.1f}, {sp['spread_high']:.1f}], seat "
                        f"{sp['best_seat'] + 1} {sp['best']:.1f}% to seat {sp['worst_seat'] + 1} {sp['worst']:.1f}%; "
                        "meeplelab report for the rest")
    assert len(lines) == 7
    code, quiet, err = run_cli([*args[:-2], "--out", tmp_path / "q", "--quiet"], capsys, monkeypatch)
    assert code == 0, err
    assert len(quiet.splitlines()) == 2  # the run's lines alone
    assert quiet.startswith(f"wrote 60 games of galileos-truth to {tmp_path / 'q'} (") and quiet.endswith(lines[1] + "\n")


@pytest.mark.parametrize("command", ["simulate", "sweep", "experiment", "stronger"])
def test_game_shows_its_choices_in_the_help(command, capsys, monkeypatch):
    code, out, _ = run_cli([command, "--help"], capsys, monkeypatch)
    assert code == 0
    assert re.search(r"--game \[galileos-truth\|unconscious-mind\]", out), out[:600]
    code, out, _ = run_cli(["actions", "--help"], capsys, monkeypatch)
    assert "Game id, one of [galileos-truth|unconscious-mind]." in out
