"""Documentation that is generated from code stays current."""

from __future__ import annotations

from pathlib import Path

from meeplelab.sim.logdoc import render
from meeplelab.sim.registry import builtin_games

ROOT = Path(__file__).resolve().parents[1]


def test_logs_doc_is_current():
    text = (ROOT / "docs" / "logs.md").read_text()
    assert text == render(), "docs/logs.md is stale: run python -m meeplelab.sim.logdoc > docs/logs.md"


def test_every_builtin_game_has_a_rules_reference():
    for name in builtin_games():
        assert (ROOT / "docs" / "rules" / f"{name.replace('-', '_')}.md").is_file()


def test_every_table_column_is_documented():
    text = (ROOT / "docs" / "logs.md").read_text()
    from meeplelab.sim.registry import get_game_class
    from meeplelab.sim.schema import GAMES_COLUMNS

    for c in GAMES_COLUMNS:
        assert f"| `{c.name}` |" in text
    for name in builtin_games():
        cls = get_game_class(name)
        for c in cls.turn_columns + cls.event_columns:
            assert f"| `{c.name}` |" in text


def test_user_strategy_examples_in_the_strategies_doc_run_and_stay_short():
    import re

    text = (ROOT / "docs" / "strategies.md").read_text()
    section = text[text.index("## Your own strategy"):]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    assert len(blocks[0].strip().splitlines()) <= 15, "the priority-list example must fit in 15 lines"
    ns: dict = {}
    exec(compile(blocks[0], "strategies.md#1", "exec"), ns)
    rates = ns["res"].games.to_pandas().groupby("strategy").win_share.mean()
    assert set(rates.index) == {"priority", "random"} and rates["priority"] > rates["random"]
    exec(compile(blocks[1], "strategies.md#2", "exec"), ns)
    assert set(ns["res"].games.to_pandas().strategy) == {"cautious", "random"}


def test_no_doc_or_notebook_reads_a_run_by_globbing_its_part_files():
    # a glob of a table folder also reads a part file no finished chunk lists: the
    # documented read is the manifest-aware one (meeplelab.analysis.load.scan_run / load_runs)
    import re

    glob = re.compile(r"(scan|read)_parquet\([^)]*(\*|(games|turns|events)\W*\))")
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md")), *sorted((ROOT / "notebooks").glob("*.ipynb")),
             ROOT / "play" / "runfolder.py"]
    found = [f"{f.relative_to(ROOT)}: {line.strip()}" for f in files for line in f.read_text().splitlines()
             if glob.search(line)]
    assert found == []
    assert 'turns = scan_run("RUN", "turns")' in (ROOT / "docs" / "logs.md").read_text()


def test_the_readme_python_snippet_runs_through_the_public_api(tmp_path, monkeypatch):
    import re

    text = (ROOT / "README.md").read_text()
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "import meeplelab" in b]
    block = block.replace("games=2000", "games=64")  # the same calls on fewer games
    monkeypatch.chdir(tmp_path)
    ns: dict = {}
    exec(compile(block, "README.md", "exec"), ns)
    wr = ns["meeplelab"].win_rates(ns["runs"].games)
    assert set(wr["strategy"]) == {"writer", "never-abjure"} and wr["games"].sum() == 2 * 64
    assert (tmp_path / "runs/gt2/report/report.html").is_file()
