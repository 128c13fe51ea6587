"""Galileo's Truth's decisions: one row per pending-decision phase (``P_*`` of :mod:`..state`), naming the
module of its mechanism and its legality and application handlers (:mod:`meeplelab.sim.core.decisions`).

The dispatchers are written from this table into :mod:`.dispatch` by
``python -m meeplelab.sim.core.decisions meeplelab.sim.galileos_truth.rules.decisions``; ``tests/galileos_truth/test_decisions_table.py``
checks the written module, that every ``P_*`` phase has a row and that every handler cites its seed section or
assumption ID. P_OVER (the game has ended) has no legal action, so no legality handler.
"""

from __future__ import annotations

from meeplelab.sim.core.decisions import Decision, DecisionTable

M = "meeplelab.sim.galileos_truth.rules."
DISPATCH_MODULE = "sim/galileos_truth/rules/dispatch.py"

TABLE = DecisionTable(
    decisions=(
        Decision("P_MAIN", M + "main_actions", "legal_main", "apply_main"),
        Decision("P_STACK", M + "play", "legal_stack", "apply_stack"),
        Decision("P_PURPLE", M + "play", "legal_purple", "apply_purple"),
        Decision("P_PENPAY", M + "play", "legal_penpay", "apply_penpay"),
        Decision("P_GROUP", M + "resolution", "legal_group", "apply_group"),
        Decision("P_SEC", M + "resolution", "legal_secondary", "apply_secondary"),
        Decision("P_BOOKSUBJ", M + "resolution", "legal_book_subject", "apply_book_subject"),
        Decision("P_TARGET", M + "treatises", "legal_target", "apply_target"),
        Decision("P_PLACE", M + "treatises", "legal_place", "apply_place"),
        Decision("P_REMOVE", M + "treatises", "legal_remove", "apply_remove"),
        Decision("P_SLOT", M + "inventions", "legal_slot", "apply_slot"),
        Decision("P_OLEVEL", M + "observe", "legal_level", "apply_level"),
        Decision("P_OKEEP", M + "observe", "legal_keep", "apply_keep"),
        Decision("P_OSPACE", M + "observe", "legal_space", "apply_space"),
        Decision("P_OORDER", M + "observe", "legal_order", "apply_order"),
        Decision("P_OVER", M + "flow", None, "apply_over"),
    ),
    kinds_module="meeplelab.sim.galileos_truth.state",
    legal_args="S, C, prm, g, out",
    apply_args="S, C, prm, g, a",
    doc="Galileo's Truth's decision dispatchers: the legal action mask and the application of one game's pending "
        "decision (its phase, ``P_*``).",
)
