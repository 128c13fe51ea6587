"""docs/bots.md: the bot-writing API is public (``import meeplelab``), and its example for each game is a complete bot
that plays through the command line as the doc shows it and does what its docstring says."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import meeplelab
from meeplelab.strategies import registry
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "bots.md").read_text()


def _section(title: str) -> str:
    start = DOC.index(f"## {title}")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end > 0 else None]


def _example(title: str, tmp_path: Path) -> tuple[str, list[str]]:
    """Write the section's bot file into ``tmp_path`` (named as the doc names it); its command line's arguments."""
    sec = _section(title)
    (name,) = re.findall(r"^`(\w+\.py)`:$", sec, re.M)
    (code,) = re.findall(r"```python\n(.*?)```", sec, re.S)
    (cmd,) = re.findall(r"```bash\n(.*?)```", sec, re.S)
    (tmp_path / name).write_text(code)
    assert "from meeplelab." not in code and "import meeplelab" in code, "the example uses the public API only"
    args = cmd.replace("\\\n", " ").split()
    assert args[0] == "meeplelab"
    return name, args[1:]


def _own_registry(monkeypatch) -> None:
    """The file bot's registration stays in this test: the registry is a copy (the built-in strategies loaded first)."""
    for game in meeplelab.games():
        registry.strategies_for(game)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))


def _small(args: list[str], games: int, out: Path) -> list[str]:
    args = list(args)
    args[args.index("--games") + 1] = str(games)
    args[args.index("--out") + 1] = str(out)
    return [*args, "--no-progress", "--quiet"]


def test_the_bot_writing_api_is_public():
    from meeplelab.strategies.base import Strategy, StrategyRNG, View, game_table

    assert (meeplelab.Strategy, meeplelab.View, meeplelab.StrategyRNG, meeplelab.game_table) == (
        Strategy, View, StrategyRNG, game_table)
    for name in ("Strategy", "View", "StrategyRNG", "game_table", "action_table", "state_fields"):
        assert name in dir(meeplelab) and f"`meeplelab.{name}" in DOC, name


def test_state_fields_lists_what_the_examples_read_with_their_shapes():
    gt = meeplelab.state_fields("galileos-truth")
    um = meeplelab.state_fields("unconscious-mind", as_pandas=True)
    assert gt.filter(pl.col("field") == "susp").row(0, named=True) == {
        "field": "susp", "group": "seat", "view": "[n, P]", "doc": "Suspicion (start_suspicion at setup)"}
    assert gt.filter(pl.col("field") == "cycle")["view"].item() == "[n]"
    row = um.set_index("field").loc["room_client"]
    assert (row["group"], row["view"]) == ("seat", "[n, P, 2]")
    assert gt["doc"].str.len_chars().min() > 0 and len(um) == um["field"].nunique()


@pytest.mark.slow
def test_the_galileos_truth_example_plays_from_its_file_and_beats_random(tmp_path, capsys, monkeypatch):
    name, args = _example("Galileo's Truth", tmp_path)
    monkeypatch.chdir(tmp_path)
    _own_registry(monkeypatch)
    code, _, err = run_cli(_small(args, 80, tmp_path / "run"), capsys, monkeypatch)
    assert code == 0, err
    rates = {r["strategy"]: r["est"] for r in meeplelab.win_rates(meeplelab.load_runs([tmp_path / "run"]).games)
             .iter_rows(named=True)}
    assert set(rates) == {f"{name}:Cautious", "random"}
    assert rates[f"{name}:Cautious"] > 0.6 and rates["random"] < 0.4


@pytest.mark.slow
def test_the_unconscious_mind_example_treats_clients_more_often_than_random(tmp_path, capsys, monkeypatch):
    name, args = _example("Unconscious Mind", tmp_path)
    monkeypatch.chdir(tmp_path)
    _own_registry(monkeypatch)
    code, _, err = run_cli(_small(args, 40, tmp_path / "run"), capsys, monkeypatch)
    assert code == 0, err
    seats = meeplelab.load_table(tmp_path / "run", "games").select("game", "seat", "strategy")
    turns = meeplelab.load_table(tmp_path / "run", "turns").join(seats, on=["game", "seat"])
    share = (turns.group_by("strategy").agg((pl.col("option").cast(pl.String) == "treat").mean().alias("treat"))
             .sort("strategy"))
    got = dict(zip(share["strategy"], share["treat"]))
    assert set(got) == {f"{name}:Clients", "random"}
    assert got[f"{name}:Clients"] > got["random"] + 0.05, got
    assert np.isfinite(list(got.values())).all()


@pytest.mark.parametrize("game", ["galileos-truth", "unconscious-mind"])
def test_actions_lists_every_action_label_with_its_meaning(game, capsys, monkeypatch):
    g = meeplelab.make_game(game)
    code, out, err = run_cli(["actions", game], capsys, monkeypatch)
    assert code == 0 and err == ""
    table = meeplelab.action_table(game)
    plain = table.filter(pl.col("decision") == "")
    assert plain["id"].to_list() == list(range(g.num_actions))
    assert plain["label"].to_list() == [g.action_label(a) for a in range(g.num_actions)]
    assert table["meaning"].str.len_chars().min() > 10  # every id, and every choice id under its decision
    lines = out.splitlines()
    assert lines[0].startswith(f"{g.title}: {g.num_actions} action ids")
    for r in plain.iter_rows(named=True):
        assert re.search(rf"^ *{r['id']}  {re.escape(r['label'])} +{re.escape(r['meaning'])}$", out, re.M), r
    for decision, sub in g.vocabulary.choices.items():
        assert f"{decision}:" in lines
        assert table.filter(pl.col("decision") == decision).height == sub.num_actions
    abjure = table.filter(pl.col("label") == "abjure")["meaning"].to_list()
    assert abjure == (["Abjure: the Principle Coin turns to Ptolemaic and Suspicion drops by abjure_suspicion_drop"]
                      if game == "galileos-truth" else [])
