"""meeplelab.analysis.mirror: seat tables of mirror matches, the --vary paired table, --update of a Markdown file."""

import numpy as np
import pytest

from meeplelab.analysis import mirror
from meeplelab.analysis.mirror import Mirror, main, play_mirror, seat_table, vary_tables


def _mirror(wins_seat0: int, n: int = 100) -> Mirror:
    share = np.zeros((n, 2))
    share[:wins_seat0, 0] = 1.0
    share[wins_seat0:, 1] = 1.0
    vp = np.stack([np.arange(n, dtype=float), np.full(n, 10.0)], 1)
    return Mirror(2, share, vp, {"level": vp / 2})


def test_seat_table_gives_wilson_interval_mean_vp_and_games_needed():
    text = seat_table(_mirror(60), ["level"])
    rows = [r for r in text.splitlines() if r.startswith("| 1 ") or r.startswith("| 2 ")]
    # 60/100: Wilson 95% [50.2, 69.1]; VP 0..99: mean 49.5, t interval +-5.7
    assert rows[0] == "| 1 | 100 | 60.0 | [50.2, 69.1] | 49.5 | [43.7, 55.3] | 24.75 |"
    assert rows[1].startswith("| 2 | 100 | 40.0 | [30.9, 49.8] | 10.0 |")
    # deviation 10 points from 50%: 4 z^2 p(1-p) / 0.2^2 = 97 games
    assert "largest seat deviation 10.0 points (games needed to resolve it at 95%: 97)" in text


def test_vary_table_pairs_each_seat_game_by_game_against_the_first_value():
    text = vary_tables([("x=0", _mirror(50)), ("x=1", _mirror(70))])
    assert "| `x=0` | 100 | 50.0 [40.4, 59.6] | 50.0 [40.4, 59.6] | 0.0 |" in text
    # games 50..69 switch from seat 2 to seat 1: seat 1 +20 points; Agresti-Min adjusted Wald of matched
    # proportions (20 discordant of 100, half a pair added per cell): 20.5/102 - 0.5/102 +- 1.96 * 0.0405
    line = next(r for r in text.splitlines() if r.startswith("| `x=1` | +"))
    assert line.startswith("| `x=1` | +20.0 [+11.7, +27.5] | -20.0 [-27.5, -11.7] |")


def test_mirror_of_the_toy_game_is_played_per_game_independent_of_batch_size():
    a = play_mirror("toy", "random", 2, 30, seed=5, batch=30)
    b = play_mirror("toy", "random", 2, 30, seed=5, batch=7)
    assert a.share.shape == (30, 2)
    np.testing.assert_allclose(a.share.sum(1), 1.0)        # one win shared per game
    np.testing.assert_array_equal(a.vp, b.vp)
    np.testing.assert_array_equal(a.share, b.share)


def test_update_rewrites_every_block_and_keeps_the_rest(tmp_path, monkeypatch):
    monkeypatch.setattr(mirror, "play_mirror", lambda *a, **k: _mirror(60))
    doc = tmp_path / "seats.md"
    doc.write_text("intro\n<!-- mirror --game toy --strategy random --games 100 --players 2 -->\nold\n"
                   "<!-- /mirror -->\nmiddle\n<!-- mirror --game toy --strategy random --players 2 --vary rounds=2,3 -->\n"
                   "<!-- /mirror -->\nend\n")
    assert main(["--update", str(doc)]) == 0
    text = doc.read_text()
    assert text.startswith("intro\n<!-- mirror --game toy") and text.endswith("<!-- /mirror -->\nend\n")
    assert "old" not in text and "middle" in text
    assert text.count("| 1 | 100 | 60.0 | [50.2, 69.1]") == 1
    assert "varying `rounds`" in text


@pytest.mark.parametrize("argv, message", [
    (["--game", "toy", "--strategy", "random", "--players", "two"], "--players 'two': give whole numbers"),
    (["--game", "toy", "--strategy", "random", "--players", "7"], "--players 7: toy takes"),
    (["--game", "toy", "--strategy", "random", "--set", "rounds=0"], "parameter rounds='0' is out of range"),
    (["--game", "toy", "--strategy", "random", "--categories", "fame"], "--categories 'fame': allowed"),
    (["--game", "toy"], "--game and --strategy are required"),
    (["--game", "toy", "--strategy", "random", "--games", "many"], "argument --games: invalid int value"),
])
def test_bad_input_is_one_line_naming_the_value_with_exit_code_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_update_of_a_file_without_blocks_writes_nothing(tmp_path, capsys):
    doc = tmp_path / "plain.md"
    doc.write_text("no blocks\n")
    assert main(["--update", str(doc)]) == 2
    assert doc.read_text() == "no blocks\n"
    assert "no '<!-- mirror ARGS -->'" in capsys.readouterr().err
