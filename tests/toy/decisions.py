"""The toy game's decision table: every decision kind, its legality and application handlers.

``python -m meeplelab.sim.core.decisions tests.toy.decisions`` writes :data:`DISPATCH_MODULE` from it.
"""

from meeplelab.sim.core.decisions import Decision, DecisionTable

DISPATCH_MODULE = "tests/toy/dispatch.py"

TABLE = DecisionTable(
    decisions=(
        Decision("D_TURN", "tests.toy.rules", "legal_turn", "apply_turn"),
    ),
    kinds_module="tests.toy.state",
    legal_args="S, C, prm, g, out",
    apply_args="S, C, prm, g, a",
    doc="Dispatchers of the toy game's decisions (tests/toy/decisions.py).",
)
