"""Sweeps answer "what number do I set": per-strategy win rates with paired differences in every
variant, the game's own metrics, and a --target solve with an interval from the paired bands."""

from __future__ import annotations

import polars as pl
import pytest

from meeplelab.analysis.sweep import solve_target, strategy_table
from meeplelab.play.config import RunConfig
from meeplelab.play.sweep import run_sweep


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sw")
    base = RunConfig(game="toy", players=2, strategies=("always-draw", "random"), games=1000, seed=1, batch_size=1000,
                     n_jobs=1, out=str(tmp / "sw"), seating="rotate")
    return run_sweep(base, {"rounds": ["1", "2", "4"]}, tmp / "sw")


def test_every_strategy_has_a_win_rate_and_a_paired_difference_in_every_variant(sweep):
    st = strategy_table(sweep)
    assert st.height == 6 and set(st["strategy"]) == {"always-draw", "random"}
    g = {v: pl.read_parquet(str(sweep / f"rounds={v}" / "games" / "*.parquet")) for v in ("1", "2")}
    ad = st.filter((pl.col("strategy") == "always-draw") & (pl.col("rounds") == "2")).row(0, named=True)
    rate = g["2"].filter(pl.col("strategy") == "always-draw")["win_share"].mean()
    assert ad["est"] == pytest.approx(rate * 100) and ad["fair"] == 50.0 and ad["games"] == 1000
    j = g["2"].join(g["1"], on=["game", "seat"], suffix="_b").filter(pl.col("strategy") == "always-draw")
    assert ad["diff"] == pytest.approx(float((j["win_share"] - j["win_share_b"]).mean()) * 100)
    assert ad["diff_low"] < ad["diff"] < ad["diff_high"]
    # in a two-seat game one strategy's gain is the other's loss, game by game
    rd = st.filter((pl.col("strategy") == "random") & (pl.col("rounds") == "2")).row(0, named=True)
    assert rd["diff"] == pytest.approx(-ad["diff"])


def test_target_is_solved_by_interpolation_with_an_interval_from_the_paired_band(sweep):
    st = strategy_table(sweep).filter(pl.col("strategy") == "always-draw").sort("rounds")
    r2, r4 = st["est"][1] / 100, st["est"][2] / 100
    assert r4 > r2  # more rounds let always-draw's edge show
    t = solve_target(sweep, "always-draw", (r2 + r4) / 2)
    assert t["param"] == "rounds" and t["value"] == pytest.approx(3.0)
    assert t["low"] is not None and 2 < t["low"] < 3.0 < t["high"] < 4
    far = solve_target(sweep, "always-draw", 0.05)
    assert far["value"] is None and "not reached" in far["note"]


def test_an_integer_rule_target_is_answered_with_the_integers_either_side(sweep):
    """``--target`` on an integer rule number is answered with integers, never e.g. "truth_vp_per_tile = 2.09"."""
    from meeplelab.analysis.sweep import target_text

    st = strategy_table(sweep).filter(pl.col("strategy") == "always-draw").sort("rounds")
    est = st["est"].to_numpy() / 100
    t = solve_target(sweep, "always-draw", 0.75 * est[1] + 0.25 * est[2])  # a quarter of the way from 2 to 4
    assert 2 < t["value"] < 3
    ints = t["integers"]
    assert [i["value"] for i in ints] == [2, 3] and [i["played"] for i in ints] == [True, False]
    played = st.filter(pl.col("rounds") == "2").row(0, named=True)
    assert ints[0]["est"] == pytest.approx(played["est"] / 100)
    assert ints[0]["low"] == pytest.approx(played["low"] / 100) and ints[0]["high"] == pytest.approx(played["high"] / 100)
    assert ints[0]["low"] < ints[0]["est"] < ints[0]["high"] and ints[1]["low"] < ints[1]["est"] < ints[1]["high"]
    text = target_text(t)
    assert "rounds is an integer rule number, and the target lies between 2 and 3" in text
    assert "add rounds=3 to --vary to measure it" in text and f"{t['value']:.3g}" not in text


@pytest.mark.slow
def test_the_readme_sweep_example_reaches_its_target_inside_the_swept_range(tmp_path, capsys, monkeypatch):
    """The README's sweep example targets a win rate that the swept values reach.
    Its command as written, played at a tenth of its games, answers the target with a value of the rule
    inside the swept range (the integers either side, each with its interval), not "not reached"."""
    import re
    import shlex
    from pathlib import Path

    from tests.cli_run import run_cli

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text().replace("\\\n", " ")
    args = shlex.split(re.search(r"^meeplelab sweep (--game .*?--target \S+)", text, re.M).group(1))
    opts = dict(zip(args[::2], args[1::2]))
    assert set(opts) == {"--game", "--strategies", "--vary", "--games", "--target"}, opts
    strategy, _, rate = opts["--target"].rpartition("=")
    opts["--games"] = str(int(opts["--games"]) // 10)
    code, out, err = run_cli(["sweep", *(x for kv in opts.items() for x in kv), "--out", tmp_path / "sweep",
                              "--no-progress"], capsys, monkeypatch)
    assert code == 0, err
    t = solve_target(tmp_path / "sweep", strategy, float(rate) / 100)
    param, _, values = opts["--vary"].partition("=")
    swept = [float(v) for v in values.split(",")]
    assert t["value"] is not None, t["note"]
    assert t["param"] == param and min(swept) <= t["value"] <= max(swept)
    assert t["integers"] and all(i["low"] <= i["est"] <= i["high"] for i in t["integers"])
    md = (tmp_path / "sweep" / "report" / "report.md").read_text()
    assert "not reached" not in md[md.index("## Target"):]
