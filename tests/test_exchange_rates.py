"""``meeplelab exchange-rates``: what one more unit of a start resource is worth to each strategy, paired against
the untreated control on common seeds. Known answers: start VP prices itself (+1 final VP per
VP for plans that never look at the score), and five Astronomy Books at setup (Level II of the track) are worth
VP to writer, which Writes Treatises with Books."""

from __future__ import annotations

import polars as pl
import pytest

from tests.cli_run import run_cli


def test_the_table_prices_vp_at_one_vp_and_books_above_zero_for_the_writer(tmp_path, capsys, monkeypatch):
    out = tmp_path / "ex"
    code, stdout, err = run_cli(["exchange-rates", "--game", "galileos-truth", "--players", "2", "--strategies",
                                 "writer,never-abjure", "--resources", "books_astronomy,vp", "--units", "5",
                                 "--games", "60", "--n-jobs", "1", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    t = pl.read_parquet(out / "exchange_rates.parquet")
    assert t.height == 8 and (t["n"] == 60).all() and (t["units"] == 5).all()  # 2 resources x 2 strategies x 2 metrics
    vp = t.filter((pl.col("resource") == "vp") & (pl.col("metric") == "vp"))
    assert vp["per_unit"].to_list() == pytest.approx([1.0, 1.0])  # the bonus is in the final score, nobody reacts
    assert ((vp["low"] < 1) & (vp["high"] > 1) & (vp["low"] > 0)).all()
    books = t.filter((pl.col("resource") == "books_astronomy") & (pl.col("strategy") == "writer"))
    by = {r["metric"]: r for r in books.iter_rows(named=True)}
    assert by["vp"]["low"] > 0 and by["vp"]["resolved"] and by["win"]["per_unit"] > 0
    for r in t.iter_rows(named=True):  # every figure carries its interval, and the unpaired one beside it
        assert r["low"] <= r["per_unit"] <= r["high"] and r["unpaired_low"] < r["per_unit"] < r["unpaired_high"]
    md = (out / "exchange_rates.md").read_text()
    assert md.count("\n| books_astronomy (Books) |") == 2 and "| vp (VP) | writer | +1.00 [" in md
    assert (out / "exchange_rates.csv").is_file() and "| books_astronomy (Books) | writer |" in stdout


@pytest.mark.parametrize("argv,message", [
    (["--resources", "gold"], "error: --resources 'gold' is not a start resource of galileos-truth: allowed coins, "
                              "research, suspicion, books_astronomy, books_physics, books_mathematics, "
                              "books_philosophy, vp"),
    (["--strategies", "writer,writer"], "error: --strategies repeats 'writer': exchange rates are measured per strategy"),
    (["--units", "0"], "error: --units 0: give the number of extra units"),
    (["--resources", "suspicion", "--units", "6"], "error: --units 6: for suspicion, a seat would start with 8 suspicion; "
                                                   "allowed: below prison_at=8"),
])
def test_bad_requests_are_refused_in_one_line_before_anything_is_played(argv, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "ex"
    base = ["exchange-rates", "--game", "galileos-truth", "--players", "2", "--games", "4", "--out", out]
    if "--strategies" not in argv:
        base += ["--strategies", "writer,never-abjure"]
    code, _, err = run_cli([*base, *argv], capsys, monkeypatch)
    assert code == 2 and err.startswith(message) and len(err.strip().splitlines()) == 1, err
    assert not out.exists()
