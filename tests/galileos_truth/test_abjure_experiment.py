"""Abjure timing measured by intervention: abjure-at Cycle 1..4 against never-abjure in a field of
scripted opponents, every arm on the same game seeds in every seat order; the report's Abjure
section is paired, with intervals, for Cycles 1-4 vs never, and says how much Suspicion an Abjure
actually removed."""

from __future__ import annotations

import re

import polars as pl
import pytest

from meeplelab.analysis.experiment import abjure_removed, effects, experiment_sections
from meeplelab.analysis.report import build_report
from meeplelab.play.config import RunConfig
from meeplelab.play.experiment import plan_experiment, run_experiment

pytestmark = pytest.mark.slow


def test_abjure_timing_is_paired_against_never_abjure_for_cycles_1_to_4(tmp_path):
    base = RunConfig(game="galileos-truth", players=4, strategies=("writer", "suspicion-averse", "inventor"),
                     games=24, seed=3, batch_size=24, n_jobs=1, out=str(tmp_path / "ab"), seating="rotate")
    arms = plan_experiment(base, control="never-abjure", vary="abjure-at.cycle=1,2,3,4")
    out = run_experiment(arms, tmp_path / "ab")
    df = effects(out)
    win = df.filter(pl.col("metric") == "win")
    assert win["arm"].to_list() == [f"abjure-at:cycle={k}" for k in (1, 2, 3, 4)]
    assert set(win["n"].to_list()) == {24}
    assert all(lo <= e <= hi for e, lo, hi in zip(win["est"], win["low"], win["high"]))
    # the arms' focal players are compared game by game with the never-abjure control
    ctrl = pl.read_parquet(str(out / "control" / "games" / "*.parquet")).filter(pl.col("strategy") == "never-abjure")
    a1 = pl.read_parquet(str(out / "abjure-at_cycle=1" / "games" / "*.parquet")).filter(
        pl.col("strategy") == "abjure-at:cycle=1")
    j = a1.join(ctrl, on="game", suffix="_c")
    assert (j["seat"] == j["seat_c"]).all()  # same seat order in both arms
    vp1 = df.filter((pl.col("metric") == "vp") & (pl.col("arm") == "abjure-at:cycle=1")).row(0, named=True)
    assert abs(vp1["est"] - float((j["vp"] - j["vp_c"]).mean())) < 1e-9
    ab = abjure_removed(out)
    assert ab.filter(pl.col("arm") == "control")["abjures"].item() == 0
    removed = ab.filter(pl.col("arm") != "control")
    assert (removed["abjures"] > 0).all() and ((removed["removed"] >= 0) & (removed["removed"] <= 5)).all()
    page = build_report([out / a["folder"] for a in [{"folder": "control"}] + [
        {"folder": f"abjure-at_cycle={k}"} for k in (1, 2, 3, 4)]], out / "report", sections=experiment_sections(out))
    md = (page.parent / "report.md").read_text()
    sec = md[md.index("## Abjure timing: paired against never-abjure"):]
    for k in (1, 2, 3, 4):
        assert re.search(rf"abjure-at:cycle={k}: win rate [+-][\d.]+ percentage points "
                         rf"\[-?[\d.]+, -?[\d.]+\] paired over 24 games", sec)
    assert "## Abjure: Suspicion actually removed" in md
