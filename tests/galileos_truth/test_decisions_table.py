"""Galileo's Truth's rules by decision: one table of the pending-decision phases, the
dispatchers written from it, every handler and every parameter citing its source."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from meeplelab.sim.core.decisions import CITATION, docstring, uncited
from meeplelab.sim.galileos_truth import state
from meeplelab.sim.galileos_truth.params import Params
from meeplelab.sim.galileos_truth.rules import decisions

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "sim" / "galileos_truth"


def test_the_written_dispatchers_are_the_tables():
    written = (ROOT / decisions.DISPATCH_MODULE).read_text()
    assert written == decisions.TABLE.source("meeplelab.sim.galileos_truth.rules.decisions"), (
        "stale: python -m meeplelab.sim.core.generate")


def test_every_phase_has_one_row_and_only_the_end_has_no_legal_actions():
    assert decisions.TABLE.uncovered("P_") == []
    kinds = [d.kind for d in decisions.TABLE.decisions]
    assert len(kinds) == len(set(kinds)) == len(state.PHASE_NAMES)
    assert sorted(getattr(state, k) for k in kinds) == list(range(len(state.PHASE_NAMES)))
    assert [d.kind for d in decisions.TABLE.decisions if d.legal is None] == ["P_OVER"]


def test_every_handler_lives_in_the_rules_package_and_cites_its_rule():
    handlers = decisions.TABLE.handlers()
    assert len(handlers) == 2 * len(decisions.TABLE.decisions) - 1
    assert all(name.startswith("meeplelab.sim.galileos_truth.rules.") for name, _ in handlers)
    assert uncited(handlers) == []


def test_a_handler_without_a_citation_is_caught():
    def apply_nothing(S, C, prm, g, a):
        """Does something, says not why."""

    def apply_cited(S, C, prm, g, a):
        """Observe (seed 001 §Observe the Sky)."""

    assert uncited([("x.apply_nothing", apply_nothing), ("x.apply_cited", apply_cited)]) == ["x.apply_nothing"]
    assert "A-GT-25" in docstring(dict(decisions.TABLE.handlers())["meeplelab.sim.galileos_truth.rules.observe.apply_order"])


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Params)])
def test_every_parameter_cites_a_seed_section_or_an_assumption(field):
    source = next(f for f in dataclasses.fields(Params) if f.name == field).metadata["source"]
    assert CITATION.search(source), f"parameter {field}: source {source!r} names no seed section or A-GT-nn"


def test_no_star_imports_and_no_bare_card_kind_codes_in_the_engine():
    for f in sorted(PKG.rglob("*.py")):
        text = f.read_text()
        assert "import *" not in text, f
        assert not re.search(r"CARD_KIND\[[^\]]*\]\s*[=!<>]=?\s*-?\d", text), f
