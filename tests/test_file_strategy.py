"""Your own bot from a file: ``--strategies path/to/mybot.py:MyBot`` plays a class or function
of the strategy protocol loaded by path, on loky workers, on resume and in a fresh process elsewhere; a bad
path, a missing name or an object that is not a strategy is one line before any game."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from meeplelab.play.shipping import collect
from meeplelab.strategies.registry import make_strategy, parse_id
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]

BOT = textwrap.dedent('''\
    """Bots for the test: simple, deterministic, of every form the loader takes."""
    import numpy as np

    from meeplelab.strategies.base import Strategy


    class FirstLegal(Strategy):
        """Always the lowest legal action id."""

        def act(self, view, legal_mask, rng):
            return np.argmax(legal_mask, axis=1).astype(np.int64)


    def last_legal(view, legal_mask, rng):
        return legal_mask.shape[1] - 1 - np.argmax(legal_mask[:, ::-1], axis=1)


    def first_per_game(game, state, g, seat, legal, rng):
        return legal[0]


    VALUE = 3
''')


@pytest.fixture
def bot(tmp_path, monkeypatch) -> Path:
    """``bots/mybot.py`` in a fresh folder, the current folder of the test (ids name it relatively); the
    strategies it registers are gone afterwards (other tests list the registry)."""
    from meeplelab.strategies import registry

    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mybot.py").write_text(BOT)
    monkeypatch.chdir(tmp_path)
    registry.strategies_for("toy")  # the built-in modules register first: in the copy, and kept afterwards
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    return tmp_path / "bots" / "mybot.py"


def games_of(out: Path) -> pl.DataFrame:
    return pl.read_parquet(str(out / "games" / "*.parquet")).sort("game", "seat")


def _meeplelab() -> list[str]:
    exe = Path(sys.executable).with_name("meeplelab")
    return [str(exe)] if exe.is_file() else [sys.executable, "-c", "from cli import main; main()"]


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_a_bot_from_a_file_plays_on_two_loky_workers_through_the_cli(bot, tmp_path):
    args = ["simulate", "--game", "toy", "--players", "2", "--strategies", "bots/mybot.py:FirstLegal,random",
            "--games", "40", "--batch-size", "5", "--chunk-size", "10", "--seed", "3", "--no-progress"]
    env = {**os.environ, "MEEPLELAB_PLUGINS": "tests.toygame",  # the test-only game, in the parent and the workers
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run(_meeplelab() + args + ["--n-jobs", "2", "--out", "two"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("wrote 40 games of toy to two")
    g = games_of(tmp_path / "two")
    assert g.height == 80 and json.loads((tmp_path / "two" / "manifest.json").read_text())["status"] == "complete"
    assert g.group_by(pl.col("strategy").cast(pl.String)).len().sort("strategy").rows() == [
        ("bots/mybot.py:FirstLegal", 40), ("random", 40)]
    assert sorted(g.filter(pl.col("strategy") == "bots/mybot.py:FirstLegal")["seat"].unique()) == [0, 1]  # rotated
    simulate(RunConfig(game="toy", players=2, strategies=("bots/mybot.py:FirstLegal", "random"), games=40, seed=3,
                       batch_size=5, chunk_size=10, seating="rotate", out=str(tmp_path / "one")))
    assert g.equals(games_of(tmp_path / "one"))  # the workers played the file's bot: the same games as here
    random = RunConfig(game="toy", players=2, strategies=("random",), games=40, seed=3, batch_size=5, chunk_size=10,
                       seating="rotate", out=str(tmp_path / "random"))
    simulate(random)
    assert not g["vp"].equals(games_of(tmp_path / "random")["vp"])  # and it is not the random player


def test_a_run_with_a_bot_from_a_file_resumes(bot, tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    code, _, err = run_cli(["simulate", "--game", "toy", "--players", "2", "--strategies",
                            "bots/mybot.py:last_legal,random", "--games", "40", "--batch-size", "10", "--chunk-size",
                            "10", "--n-jobs", "1", "--no-progress", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    want = games_of(out)
    m = json.loads((out / "manifest.json").read_text())
    m["chunks"][2]["status"] = "pending"
    m["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(m))
    code, stdout, err = run_cli(["simulate", "--out", out, "--resume", "--no-progress"], capsys, monkeypatch)
    assert code == 0, err
    assert "completed 40 games of toy" in stdout and "10 played now" in stdout
    assert games_of(out).equals(want)


def test_the_manifest_records_the_bot_files_hash_and_a_resume_of_an_edited_bot_is_refused(bot, tmp_path, capsys,
                                                                                          monkeypatch):
    """An edited bot file is not replayed silently differently: the manifest records the file's path and
    sha256; resuming after an edit is refused in one line."""
    import hashlib

    out = tmp_path / "run"
    code, _, err = run_cli(["simulate", "--game", "toy", "--players", "2", "--strategies",
                            "bots/mybot.py:last_legal,random", "--games", "40", "--batch-size", "10", "--chunk-size",
                            "10", "--n-jobs", "1", "--no-progress", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    m = json.loads((out / "manifest.json").read_text())
    f = m["strategy_files"]["bots/mybot.py:last_legal"]
    src = Path("bots/mybot.py").resolve()
    assert f == {"path": str(src), "sha256": hashlib.sha256(src.read_bytes()).hexdigest()}
    assert list(m["strategy_files"]) == ["bots/mybot.py:last_legal"]
    m["chunks"][2]["status"] = "pending"
    m["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(m))
    src.write_text(src.read_text() + "\n# edited\n")
    code, _, err = run_cli(["simulate", "--out", out, "--resume", "--no-progress"], capsys, monkeypatch)
    assert code == 2 and "the strategy file of 'bots/mybot.py:last_legal' changed since the run started" in err, err
    assert len(err.strip().splitlines()) == 1


def test_every_form_of_the_protocol_plays_and_names_its_games(bot):
    for name in ("FirstLegal", "last_legal", "first_per_game"):
        s = make_strategy("toy", f"bots/mybot.py:{name}")
        assert s.id == f"bots/mybot.py:{name}"
    first = make_strategy("toy", "bots/mybot.py:FirstLegal")
    per_game = make_strategy("toy", "bots/mybot.py:first_per_game")
    from meeplelab.play.batch import play_batch
    from meeplelab.sim.registry import make_game

    game = make_game("toy")
    rnd = make_strategy("toy", "random")
    a = play_batch(game, [first, rnd], np.arange(20), seed=1).games
    b = play_batch(game, [per_game, rnd], np.arange(20), seed=1).games
    assert a["vp"].to_pylist() == b["vp"].to_pylist()  # the same choices, vectorized or one game at a time
    assert set(a["strategy"].to_pylist()) == {"bots/mybot.py:FirstLegal", "random"}
    assert parse_id("bots/mybot.py:FirstLegal") == ("bots/mybot.py:FirstLegal", {})
    assert parse_id("heuristic:vp=1") == ("heuristic", {"vp": "1"})


def test_the_bot_goes_to_workers_by_its_absolute_path(bot, tmp_path):
    make_strategy("toy", "bots/mybot.py:FirstLegal")
    regs = collect("toy", ["bots/mybot.py:FirstLegal", "random"])
    assert regs is not None and regs.what == ("strategy 'bots/mybot.py:FirstLegal'",)
    blob = tmp_path / "regs.pickle"
    blob.write_bytes(pickle.dumps(regs))
    elsewhere = tmp_path / "elsewhere"  # a worker in another folder: the relative id would not find the file
    elsewhere.mkdir()
    code = ("import pickle, sys, tests.toygame; from meeplelab.strategies.registry import make_strategy; "
            "pickle.loads(open(sys.argv[1], 'rb').read()).install(); "
            "print(make_strategy('toy', 'bots/mybot.py:FirstLegal').id)")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run([sys.executable, "-c", code, str(blob)], cwd=elsewhere, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "bots/mybot.py:FirstLegal"
    r = subprocess.run([sys.executable, "-c", code.replace(".install(); ", "; "), str(blob)], cwd=elsewhere, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "strategy file 'bots/mybot.py' does not exist" in r.stderr  # without the shipment


@pytest.mark.parametrize("ids,message", [
    ("bots/nobot.py:X", "strategy file 'bots/nobot.py' does not exist: allowed a .py file defining a strategy class "
                        "or function, as --strategies path/to/mybot.py:MyBot"),
    ("bots/mybot.py:Nope,random", "strategy file 'bots/mybot.py' has no 'Nope': allowed: FirstLegal, first_per_game, "
                                  "last_legal"),
    ("bots/mybot.py:VALUE", "'VALUE' in strategy file 'bots/mybot.py' is not a strategy (int): allowed a Strategy "
                            "subclass with act(view, legal_mask, rng), a function act(view, legal_mask, rng) or a "
                            "function (game, state, g, seat, legal, rng)"),
    ("bots/mybot.py", "strategy file 'bots/mybot.py': name the class or function to play after it, as "
                      "bots/mybot.py:MyBot; allowed: FirstLegal, first_per_game, last_legal"),
    ("bots/broken.py:X", "strategy file 'bots/broken.py' cannot be loaded: SyntaxError: invalid syntax (line 2)"),
    ("bots/mybot.py:FirstLegal:depth=2", "strategy 'bots/mybot.py:FirstLegal' has no argument 'depth': allowed: none"),
])
def test_a_bad_bot_file_is_one_line_before_any_game(ids, message, bot, tmp_path, capsys, monkeypatch):
    (tmp_path / "bots" / "broken.py").write_text("import numpy\ndef act(:\n")
    out = tmp_path / "out"
    code, _, err = run_cli(["simulate", "--game", "toy", "--players", "2", "--strategies", ids, "--games", "10",
                            "--n-jobs", "2", "--no-progress", "--out", out], capsys, monkeypatch)
    assert (code, err.strip()) == (2, f"error: {message}")
    assert not out.exists()


def test_a_bot_file_works_in_a_tournament_and_its_settings_repeat(bot, tmp_path, capsys, monkeypatch):
    argv = ["tournament", "--game", "toy", "--strategies", "bots/mybot.py:FirstLegal,random", "--games", "8",
            "--n-jobs", "1", "--no-report", "--no-progress"]
    code, stdout, err = run_cli([*argv, "--out", tmp_path / "t"], capsys, monkeypatch)
    assert code == 0, err
    assert "bots/mybot.py:FirstLegal" in stdout
    code, _, err = run_cli(["tournament", "--config", tmp_path / "t" / "config.toml", "--out", tmp_path / "t2"],
                           capsys, monkeypatch)
    assert code == 0, err
    for name in ("summary.parquet", "lineups.parquet"):
        assert (tmp_path / "t" / name).read_bytes() == (tmp_path / "t2" / name).read_bytes()
    shutil.rmtree(tmp_path / "t2")


def test_the_worked_example_of_the_strategies_doc_plays_and_its_error_line_is_the_real_one(tmp_path, capsys,
                                                                                           monkeypatch):
    import re

    from meeplelab.strategies import registry

    text = (ROOT / "docs" / "strategies.md").read_text()
    section = text[text.index("## Your own bot from a file"):text.index("## Your own strategy")]
    (tmp_path / "mybot.py").write_text(re.findall(r"```python\n(.*?)```", section, re.S)[0])
    monkeypatch.chdir(tmp_path)
    registry.strategies_for("toy")
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    for name in ("NoAbjure", "first_legal"):  # the toy game has no 'abjure': NoAbjure plays uniformly
        out = tmp_path / name
        code, stdout, err = run_cli(["simulate", "--game", "toy", "--players", "2", "--strategies",
                                     f"mybot.py:{name},random", "--games", "20", "--n-jobs", "1", "--no-progress",
                                     "--out", out], capsys, monkeypatch)
        assert code == 0, err
        assert f"mybot.py:{name}" in set(games_of(out)["strategy"].cast(pl.String))
    shown = re.findall(r"```text\n(.*?)```", section, re.S)[0].strip()
    code, _, err = run_cli(["simulate", "--game", "toy", "--strategies", "mybot.py:NoAbjur", "--out", tmp_path / "x"],
                           capsys, monkeypatch)
    assert (code, err.strip()) == (2, shown)
