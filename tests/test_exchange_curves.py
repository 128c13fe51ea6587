"""``meeplelab exchange-rates --arm``: dose-response curves of the start resources per rules/content version, the
price per unit in each and its paired change between versions. Known answers: dose 0 is the control against itself
(exactly 0, in every version and between versions), and start VP prices itself at one final VP per VP at every dose
for plans that never look at the score, under any rules."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import polars as pl
import pytest

from tests.cli_run import run_cli

GT = ["exchange-rates", "--game", "galileos-truth", "--players", "2", "--strategies", "writer,never-abjure",
      "--n-jobs", "1", "--no-progress"]
UM_DATA = Path(__file__).resolve().parents[1] / "sim" / "unconscious_mind" / "data"


def _zero_at_dose_0(t: pl.DataFrame) -> None:
    z = t.filter(pl.col("dose") == 0)
    assert z.height and (z["est"] == 0.0).all(), z  # exactly 0: the same games on both sides
    assert ((z["low"] < 0) & (z["high"] > 0)).all()  # with a real interval, not a point


@pytest.mark.slow
def test_curves_between_two_rule_versions_print_who_gains_first_and_pair_every_dose(tmp_path, capsys, monkeypatch):
    out = tmp_path / "curves"
    argv = [*GT, "--resources", "suspicion,vp", "--arm", "default", "--arm", "prison_at=9", "--doses", "0,1,2",
            "--games", "40", "--out", out]
    code, stdout, err = run_cli(argv, capsys, monkeypatch)
    assert code == 0, err
    lines = stdout.splitlines()
    assert lines[0].startswith("Who gains, by how much: final VP per extra start unit (slope over doses 1,2 against 0, "
                               "paired on the same 40 games; 95% intervals); A = default; B = prison_at=9"), lines[0]
    assert lines[1] == "suspicion (Suspicion):"
    assert lines[2].split() == ["strategy", "VP/unit", "A", "VP/unit", "B", "B", "-", "A", "(VP)", "B", "-", "A",
                                "(win", "points)"]
    assert lines[3].split()[0] == "writer" and lines[4].split()[0] == "never-abjure"
    row = lines[7].split()  # start VP: one final VP per unit in both versions
    assert lines[5] == "vp (VP):" and row[:2] == ["writer", "+1.00"] and row[4] == "+1.00" and row[7] == "+0.00"
    prices = pl.read_parquet(out / "exchange_prices.parquet")
    curves = pl.read_parquet(out / "exchange_curves.parquet")
    deltas = pl.read_parquet(out / "exchange_deltas.parquet")
    # 2 versions x 2 resources x 2 strategies x 2 metrics; curves x 3 doses; deltas: version B only, x 3 doses
    assert prices.height == 16 and curves.height == 48 and deltas.height == 24
    assert (prices["n"] == 40).all() and (curves["n"] == 40).all() and (deltas["n"] == 40).all()
    assert sorted(prices.filter(pl.col("version") == "A")["change"].to_list(), key=str) == [None] * 8
    assert prices.filter(pl.col("version") == "B")["change"].null_count() == 0
    _zero_at_dose_0(curves)
    _zero_at_dose_0(deltas)
    vp = curves.filter((pl.col("resource") == "vp") & (pl.col("metric") == "vp"))
    assert vp["est"].to_list() == pytest.approx(vp["dose"].cast(pl.Float64).to_list())  # one final VP per start VP
    vprice = prices.filter((pl.col("resource") == "vp") & (pl.col("metric") == "vp"))
    assert vprice["price"].to_list() == pytest.approx([1.0] * 4)
    assert vprice.filter(pl.col("version") == "B")["change"].to_list() == pytest.approx([0.0, 0.0])
    for r in prices.iter_rows(named=True):  # every price and change carries its interval
        assert r["low"] <= r["price"] <= r["high"]
        if r["version"] == "B":
            assert r["change_low"] <= r["change"] <= r["change_high"]
    assert (out / "exchange_prices.csv").read_text().startswith("version,spec,reference,resource,unit,strategy,metric,")
    figures = sorted(p.name for p in (out / "report" / "figures").iterdir())
    assert figures == ["01_curve_suspicion.png", "01_curve_vp.png"]
    md = (out / "report" / "report.md").read_text()
    assert "## Who gains, by how much: the price of a start unit per version" in md and "## Dose-response curves" in md
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted(
        ["report", "A-control", "B-control"] + [f"{v}-{r}+{d}@{s}" for v in "AB" for r in ("suspicion", "vp")
                                                for d in (1, 2) for s in ("writer", "never-abjure")])

    before = (out / "exchange_prices.csv").read_bytes()
    code, _, err = run_cli(argv, capsys, monkeypatch)
    assert code == 2 and "holds another exchange-rate study: use --resume" in err and len(err.strip().splitlines()) == 1
    code, stdout2, err = run_cli([*argv, "--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert (out / "exchange_prices.csv").read_bytes() == before and stdout2.splitlines()[:8] == lines[:8]


def _pack(tmp_path: Path) -> Path:
    """Unconscious Mind's content with one Research card's VP raised from 1 to 6 (as tests/test_compare.py's)."""
    pack = tmp_path / "pack"
    shutil.copytree(UM_DATA, pack)
    f = pack / "research.toml"
    head, card = f.read_text().split('id = "r07"', 1)
    assert card.split("[[card]]")[0].count('effect = ["vp 1"]') == 1
    f.write_text(head + 'id = "r07"' + card.replace('effect = ["vp 1"]', 'effect = ["vp 6"]', 1))
    return pack


@pytest.mark.slow
def test_a_content_version_is_an_arm_and_overwrite_replaces_the_study(tmp_path, capsys, monkeypatch):
    out, pack = tmp_path / "um", _pack(tmp_path)
    argv = ["exchange-rates", "--game", "unconscious-mind", "--players", "2", "--strategies", "publisher,citer",
            "--resources", "coffee", "--arm", "default", "--arm", f"content={pack}", "--doses", "1",
            "--games", "24", "--n-jobs", "1", "--no-progress", "--out", out]
    code, stdout, err = run_cli(argv, capsys, monkeypatch)
    assert code == 0, err
    lines = stdout.splitlines()
    assert lines[0].endswith(f"A = default; B = content={pack}"), lines[0]
    assert lines[1] == "coffee (Coffee):" and [x.split()[0] for x in lines[3:5]] == ["publisher", "citer"]
    curves = pl.read_parquet(out / "exchange_curves.parquet")
    assert sorted(set(curves["dose"].to_list())) == [0, 1] and curves.height == 2 * 2 * 2 * 2
    _zero_at_dose_0(curves)
    _zero_at_dose_0(pl.read_parquet(out / "exchange_deltas.parquet"))
    settings = tomllib.loads((out / "config.toml").read_text())  # the settings file repeats the study
    assert settings["arm"] == ["default", f"content={pack}"] and settings["doses"] == "1"
    code, _, err = run_cli(["exchange-rates", "--config", out / "config.toml", "--out", tmp_path / "again"], capsys,
                           monkeypatch)
    assert code == 0, err
    assert (tmp_path / "again" / "exchange_prices.csv").read_bytes() == (out / "exchange_prices.csv").read_bytes()
    code, _, err = run_cli([*argv[:-2], "--doses", "0,2", "--out", out, "--overwrite"], capsys, monkeypatch)
    assert code == 0, err
    assert sorted(set(pl.read_parquet(out / "exchange_curves.parquet")["dose"].to_list())) == [0, 2]
    assert not (out / "A-coffee+1@citer").exists() and (out / "A-coffee+2@citer").is_dir()


@pytest.mark.parametrize("argv,message", [
    (["--arm", "bogus"], "error: --arm 'bogus': item 'bogus' is not one of default, content=PATH, NAME=VALUE"),
    (["--arm", "nosuch=3"], "error: --arm 'nosuch=3': unknown parameter 'nosuch' of galileos-truth"),
    (["--arm", "default", "--arm", "default"], "error: --arm 'default' is the same version as --arm 'default'"),
    (["--arm", "default", "--doses", "0,x"], "error: --doses '0,x': allowed distinct whole numbers of extra units"),
    (["--doses", "0"], "error: --doses '0': allowed distinct whole numbers of extra units"),
    (["--arm", "default", "--doses", "1,1"], "error: --doses '1,1': allowed distinct whole numbers"),
    (["--arm", "default", "--arm", "prison_at=9", "--resources", "suspicion", "--doses", "0,6"],
     ("error: --doses 0,6 (dose 6, --arm 'default'): for suspicion, a seat would start with 8 suspicion; allowed: "
      "below prison_at=8")),
    (["--arm", "default", "--units", "2"], "error: --units 2 with --arm/--doses: the curves take their sizes"),
])
def test_bad_arms_and_doses_are_refused_in_one_line_before_anything_is_played(argv, message, tmp_path, capsys,
                                                                             monkeypatch):
    out = tmp_path / "ex"
    code, _, err = run_cli([*GT, "--games", "4", *argv, "--out", out], capsys, monkeypatch)
    assert code == 2 and err.startswith(message) and len(err.strip().splitlines()) == 1, err
    assert not out.exists()
