"""Unconscious Mind's decision table (meeplelab.sim.unconscious_mind.rules.decisions): the written dispatchers, coverage of
every decision kind, and a rule source for every handler and parameter."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from pathlib import Path

from meeplelab.sim.core.decisions import CITATION, uncited
from meeplelab.sim.unconscious_mind import codes
from meeplelab.sim.unconscious_mind.params import Params
from meeplelab.sim.unconscious_mind.rules import decisions, loop

ROOT = Path(__file__).resolve().parents[2]


def test_the_written_dispatch_module_is_the_tables():
    written = (ROOT / decisions.DISPATCH_MODULE).read_text()
    assert written == decisions.TABLE.source("meeplelab.sim.unconscious_mind.rules.decisions"), (
        "sim/unconscious_mind/rules/dispatch.py is stale: python -m meeplelab.sim.core.generate")


def test_every_decision_kind_has_one_row():
    assert decisions.TABLE.uncovered("D_") == []
    assert decisions.TABLE.uncovered("K_") == []
    kinds = [d.kind for d in decisions.TABLE.decisions]
    assert len(kinds) == len(set(kinds))
    values = [getattr(codes, k) for k in kinds]
    assert len(values) == len(set(values)), "two kinds share a code"


def test_decisions_wait_for_a_seat_and_automatic_kinds_do_not():
    for d in decisions.TABLE.decisions:
        code = getattr(codes, d.kind)
        assert (d.legal is None) == d.kind.startswith("K_"), d.kind
        # advance() runs exactly the rows without a legality handler
        assert getattr(loop.automatic, "py_func", loop.automatic)(code) == (d.legal is None), d.kind


def test_each_handler_lives_in_its_mechanisms_module_with_the_table_signature():
    for d in decisions.TABLE.decisions:
        mod = importlib.import_module(d.module)
        for h, args in ((d.legal, decisions.TABLE.legal_args), (d.apply, decisions.TABLE.apply_args)):
            if h is None:
                continue
            fn = getattr(mod, h)
            params = inspect.signature(getattr(fn, "py_func", fn)).parameters
            # the kernel context S, C, prm first, then as many arguments as the table passes
            assert list(params)[:3] == ["S", "C", "prm"] and len(params) == len(args.split(", ")), f"{d.module}.{h}"


def test_every_handler_cites_a_seed_section_or_an_assumption():
    assert uncited(decisions.TABLE.handlers()) == []


def test_the_citation_check_fails_on_a_handler_without_a_source():
    def legal_nothing(S, C, prm, g, p, a, b, out):
        """Fill the mask."""

    def apply_something(S, C, prm, g, p, act, a, b, c):
        """Apply it (seed 000 §Gaining Notebook tiles)."""

    assert uncited([("legal_nothing", legal_nothing), ("apply_something", apply_something)]) == ["legal_nothing"]


def test_every_parameter_names_its_source():
    # a seed section, a research section or an assumption ID; RULES_DECISIONS marks a project decision
    # without an ID (start_coffee, see docs/rules/unconscious_mind.md)
    bad = [f.name for f in dataclasses.fields(Params)
           if not (CITATION.search(f.metadata.get("source", ""))
                   or f.metadata.get("source", "").startswith("RULES_DECISIONS"))]
    assert bad == []


def test_every_rule_kernel_runs_without_reference_counting():
    # with numba's reference counting a kernel call counts a reference to every array of S (about
    # 1 us a call); a kernel compiled with _nrt=False cannot allocate, so the rules use S.work's scratch rows.
    # Only batch_setup (called once per batch) keeps counting. A decision handler (sim/core/jit.handler,
    # inline="always") is never compiled on its own: numba inlines it into its dispatcher, under the dispatcher's
    # options, so it is checked through the dispatcher.
    from numba.core.registry import CPUDispatcher

    pkg = Path(loop.__file__).parent
    counting, inlined = [], []
    for f in sorted(pkg.glob("*.py")):
        mod = importlib.import_module(f"meeplelab.sim.unconscious_mind.rules.{f.stem}")
        for name, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == mod.__name__:
                if obj.targetoptions.get("inline") == "always":
                    inlined.append(f"{f.stem}.{name}")
                elif obj.targetoptions.get("_nrt", True):
                    counting.append(f"{f.stem}.{name}")
    assert counting == ["loop.batch_setup"]
    # the dispatchers the handlers are inlined into compile on their own, without reference counting
    assert inlined and "dispatch.apply" not in inlined and "dispatch.legal" not in inlined
