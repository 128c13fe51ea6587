"""Rules by decision (meeplelab.sim.core.decisions): each engine's written dispatchers match its decision table,
every decision kind has a row, and every handler cites its seed section or assumption ID."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from meeplelab.sim.core.decisions import CITATION, Decision, DecisionTable, main, uncited

ROOT = Path(__file__).resolve().parents[1]


def _tables():
    out = ["tests.toy.decisions"]
    for f in sorted((ROOT / "sim").glob("*/rules/decisions.py")):
        out.append(f"meeplelab.sim.{f.parent.parent.name}.rules.decisions")
    return out


@pytest.mark.parametrize("mod", _tables())
def test_the_written_dispatchers_match_the_table(mod):
    m = importlib.import_module(mod)
    written = (ROOT / m.DISPATCH_MODULE).read_text()
    assert m.TABLE.source(mod) == written, f"{m.DISPATCH_MODULE} is stale: python -m meeplelab.sim.core.generate"


@pytest.mark.parametrize("mod", _tables())
def test_every_handler_cites_a_seed_section_or_an_assumption(mod):
    m = importlib.import_module(mod)
    assert uncited(m.TABLE.handlers()) == []


def test_toy_table_covers_every_kind_and_a_missing_kind_or_citation_is_caught():
    m = importlib.import_module("tests.toy.decisions")
    assert m.TABLE.uncovered("D_") == [], "add a Decision row to tests/toy/decisions.py for each kind listed"
    empty = DecisionTable((), "tests.toy.state", "S, prm, g, out", "S, prm, g, a")
    assert "D_TURN" in empty.uncovered("D_")  # the toy may grow more kinds

    def bare():
        """Does something."""

    def cited():
        """Draw a card (§Turn structure)."""

    assert uncited([("bare", bare), ("cited", cited)]) == ["bare"]
    assert CITATION.search("see A-GT-25") and CITATION.search("A-UM-03") and not CITATION.search("A-GT-5")


def test_the_generated_router_dispatches_by_kind_and_refuses_an_unknown_one():
    t = DecisionTable((Decision("D_TURN", "tests.toy.rules", "legal_turn", "apply_turn"),
                       Decision("D_X", "tests.toy.rules", None, "end_turn")), "tests.toy.state", "S, g, out", "S, g, a")
    src = t.source("x")
    assert "if kind == D_TURN:\n        legal_turn(S, g, out)\n    else:" in src
    assert "elif kind == D_X:\n        end_turn(S, g, a)" in src
    assert src.count('raise RuntimeError("no legal handler') == 1


def test_main_refuses_bad_arguments(capsys):
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err
    assert main(["no.such"]) == 2
    assert capsys.readouterr().err.strip() == ("cannot import 'no.such' (no module file for 'no.such' on sys.path); allowed: a module "
                                               "holding a DecisionTable")
    assert main(["tests.toy.decisions:NOPE"]) == 2
    assert capsys.readouterr().err.strip() == "tests.toy.decisions has no DecisionTable named 'NOPE'; allowed: TABLE"


@pytest.mark.parametrize("mod", ["meeplelab.sim.unconscious_mind.params", "meeplelab.sim.galileos_truth.params", "tests.toy.params"])
def test_every_parameter_cites_a_seed_section_or_an_assumption(mod):
    from dataclasses import fields, is_dataclass

    m = importlib.import_module(mod)
    classes = [v for v in vars(m).values() if isinstance(v, type) and is_dataclass(v) and v.__module__ == mod]
    assert classes
    for cls in classes:
        bad = [f.name for f in fields(cls) if not CITATION.search(str(f.metadata.get("source", "")))]
        assert bad == [], f"{cls.__name__} parameters without a seed section or assumption ID: {bad}"
