"""Documentation that is generated from code stays current."""

from __future__ import annotations

from pathlib import Path

from sim.logdoc import render
from sim.registry import _BUILTIN

ROOT = Path(__file__).resolve().parents[1]


def test_logs_doc_is_current():
    text = (ROOT / "docs" / "logs.md").read_text()
    assert text == render(), "docs/logs.md is stale: run python -m sim.logdoc > docs/logs.md"


def test_every_builtin_game_has_a_rules_reference():
    for name in _BUILTIN:
        assert (ROOT / "docs" / "rules" / f"{name.replace('-', '_')}.md").is_file()


def test_every_table_column_is_documented():
    text = (ROOT / "docs" / "logs.md").read_text()
    from sim.registry import get_game_class
    from sim.schema import GAMES_COLUMNS

    for c in GAMES_COLUMNS:
        assert f"| `{c.name}` |" in text
    for name in _BUILTIN:
        cls = get_game_class(name)
        for c in cls.turn_columns + cls.event_columns:
            assert f"| `{c.name}` |" in text
