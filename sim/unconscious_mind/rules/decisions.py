"""The decision table of Unconscious Mind: every decision kind once, with the module of its handlers.

The dispatchers ``legal`` and ``apply`` in :mod:`meeplelab.sim.unconscious_mind.rules.dispatch` are written from
:data:`TABLE` by ``python -m meeplelab.sim.core.decisions meeplelab.sim.unconscious_mind.rules.decisions``;
``tests/unconscious_mind/test_decisions_table.py`` checks that the written module matches, that every ``D_*`` /
``K_*`` code of :mod:`meeplelab.sim.unconscious_mind.codes` has a row, and that every handler cites its rule source.

``D_*`` rows wait for the seat: ``legal_x(S, C, prm, g, p, a, b, out)`` fills the legal action mask ``out``
(``bool[NUM_ACTIONS]``) of game ``g`` for seat ``p`` and the stack entry's ``a``, ``b``;
``apply_x(S, C, prm, g, p, act, a, b, c)`` applies action ``act`` (the entry is already popped). ``K_*`` rows run
automatically (no legality handler; ``act`` = -1; the handler may name ``a``, ``b``, ``c`` for what they
are, e.g. ``run_effect(S, C, prm, g, p, act, e, cat, ctx)``).
"""

from __future__ import annotations

from meeplelab.sim.core.decisions import Decision, DecisionTable

DISPATCH_MODULE = "sim/unconscious_mind/rules/dispatch.py"

_R = "meeplelab.sim.unconscious_mind.rules."

TABLE = DecisionTable(
    decisions=(
        Decision("D_TURN", _R + "turn_flow", "legal_turn", "apply_turn"),
        Decision("D_MODE", _R + "meeting_table", "legal_mode", "apply_mode"),
        Decision("D_INKPOT", _R + "inkpot", "legal_inkpot", "apply_inkpot"),
        Decision("D_ELXF", _R + "insight", "legal_elxf", "apply_elxf"),
        Decision("D_GENQ", _R + "insight", "legal_genq", "apply_genq"),
        Decision("D_TILE_SRC", _R + "notebook", "legal_tile_src", "apply_tile_src"),
        Decision("D_ORDER", _R + "notebook", "legal_order", "apply_order"),
        Decision("D_FREE_TILE", _R + "notebook", "legal_free_tile", "apply_free_tile"),
        Decision("D_PLACE", _R + "notebook", "legal_place", "apply_place"),
        Decision("D_SWAP", _R + "research", "legal_swap", "apply_swap"),
        Decision("D_SWAP2", _R + "research", "legal_swap2", "apply_swap2"),
        Decision("D_RESPLAY", _R + "research", "legal_resplay", "apply_resplay"),
        Decision("D_PLAYN", _R + "research", "legal_playn", "apply_playn"),
        Decision("D_QUILL", _R + "treatises", "legal_quill", "apply_quill"),
        Decision("D_GATHER", _R + "treatises", "legal_gather", "apply_gather"),
        Decision("D_PROF", _R + "city", "legal_prof", "apply_prof"),
        Decision("D_FREUD", _R + "city", "legal_freud", "apply_freud"),
        Decision("D_LOCTRIG", _R + "city", "legal_loctrig", "apply_loctrig"),
        Decision("D_LOCEFF", _R + "city", "legal_loceff", "apply_loceff"),
        Decision("D_COLUMN", _R + "inkpot", "legal_column", "apply_column"),
        Decision("D_GENANY", _R + "insight", "legal_genany", "apply_genany"),
        Decision("D_COLOUR", _R + "insight", "legal_colour", "apply_colour"),
        Decision("D_TILEORDER", _R + "inkpot", "legal_tileorder", "apply_tileorder"),
        Decision("D_REPACT", _R + "reputation", "legal_repact", "apply_repact"),
        Decision("D_RECALLB", _R + "city", "legal_recallb", "apply_recallb"),
        Decision("D_TREAT", _R + "clients", "legal_treat", "apply_treat"),
        Decision("D_THERAPY", _R + "clients", "legal_therapy", "apply_therapy"),
        Decision("D_HEARTS", _R + "clients", "legal_hearts", "apply_hearts"),
        Decision("D_NEWCLIENT", _R + "clients", "legal_newclient", "apply_newclient"),
        Decision("D_MANIFEST", _R + "clients", "legal_manifest", "apply_manifest"),
        Decision("K_EFFECT", _R + "effects", None, "run_effect"),
        Decision("K_PERFORM", _R + "meeting_table", None, "perform"),
        Decision("K_INKPOT_START", _R + "inkpot", None, "auto_inkpot_start"),
        Decision("K_INKPOT", _R + "inkpot", None, "auto_inkpot"),
        Decision("K_PUBLISH", _R + "treatises", None, "publish_finish"),
        Decision("K_CLIENTS", _R + "clients", None, "end_clients"),
        Decision("K_FINISH", _R + "turn_flow", None, "finish_turn"),
        Decision("K_GENQL", _R + "insight", None, "auto_genql"),
    ),
    kinds_module="meeplelab.sim.unconscious_mind.codes",
    legal_args="S, C, prm, g, p, a, b, out",
    apply_args="S, C, prm, g, p, act, a, b, c",
    doc="Decision dispatchers of Unconscious Mind: route a decision kind to its legality or application handler.",
)
