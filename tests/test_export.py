"""CSV beside every report table, and ``meeplelab export RUN --format csv|json|parquet``."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest

from tests.cli_run import run_cli
from meeplelab.analysis.export import export_run
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.report import build_report
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("exp") / "run"
    simulate(RunConfig(game="toy", players=3, strategies=("random", "always-draw", "random"), games=300, seed=4,
                       batch_size=100, out=str(out)))
    return out


def test_every_report_table_has_its_csv_beside_it(toy_run, tmp_path):
    page = build_report([toy_run], tmp_path / "r")
    md = (tmp_path / "r" / "report.md").read_text()
    links = re.findall(r"\[CSV\]\((tables/[^)]+\.csv)\)", md)
    tables = md.count("\n|---") + md.count("\n| ---")
    assert len(links) >= 5 and len(links) == len(set(links))
    assert len(re.findall(r"<a href=[\"']tables/", page.read_text())) == len(links)
    for rel in links:
        df = pl.read_csv(tmp_path / "r" / rel)
        assert df.height >= 1 and df.width >= 2
    win = next(rel for rel in links if "win-rate" in rel)
    wr = pl.read_csv(tmp_path / "r" / win)
    games = load_runs([toy_run]).games.collect()
    ad = wr.filter(pl.col("strategy") == "always-draw").row(0, named=True)
    assert ad["games"] == games.filter(pl.col("strategy") == "always-draw").height
    assert tables >= len(links)


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_export_writes_each_table_with_every_logged_row(toy_run, tmp_path, fmt):
    written = export_run(toy_run, tmp_path / "x", fmt)
    runs = load_runs([toy_run])
    assert [p.name for p in written] == [f"games.{fmt}", f"turns.{fmt}", f"events.{fmt}"]
    for p, t in zip(written, ("games", "turns", "events")):
        want = getattr(runs, t).drop("run").collect()
        got = {"csv": pl.read_csv, "json": pl.read_json, "parquet": pl.read_parquet}[fmt](p)
        assert got.height == want.height > 0 and got.columns == want.columns
        if fmt != "json":
            assert got.select(want.columns[:3]).equals(want.select(want.columns[:3]))
    if fmt == "json":
        rows = json.loads(written[0].read_text())
        assert len(rows) == runs.games.collect().height and "strategy" in rows[0]


def test_export_command_and_its_refusals(toy_run, tmp_path, capsys, monkeypatch):
    code, out, err = run_cli(["export", str(toy_run), "--format", "csv", "--out", str(tmp_path / "e"),
                              "--table", "games"], capsys, monkeypatch)
    assert code == 0 and out.strip() == f"wrote {tmp_path / 'e' / 'games.csv'}" and err == ""
    code, _, err = run_cli(["export", str(toy_run), "--format", "xlsx", "--out", str(tmp_path / "f")], capsys, monkeypatch)
    assert code == 2 and "xlsx" in err and "csv" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "f").exists()
    code, _, err = run_cli(["export", str(toy_run), "--out", str(tmp_path / "e")], capsys, monkeypatch)
    assert code == 2 and err.strip() == (f"error: export folder {str(tmp_path / 'e')!r} exists and is not empty: "
                                         "choose a new folder or use --overwrite")
    code, _, err = run_cli(["export", str(toy_run), "--table", "moves", "--out", str(tmp_path / "g")], capsys, monkeypatch)
    assert code == 2 and err.strip() == "error: table 'moves' is not known: allowed games, turns, events"
    assert not (tmp_path / "g").exists()
