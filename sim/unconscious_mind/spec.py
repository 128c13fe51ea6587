"""Unconscious Mind's parts, declared once (registered in pyproject.toml, group ``meeplelab.games``)."""

from sim.core.spec import GameSpec

SPEC = GameSpec(
    name="unconscious-mind",
    engine="sim.unconscious_mind.engine:UnconsciousMind",
    strategies=("strategies.unconscious_mind",),
    treatments=("sim.unconscious_mind.treatments",),
    sections="analysis.unconscious_mind",
    rules_doc="docs/rules/unconscious_mind.md",
)
