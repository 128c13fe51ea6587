"""Unconscious Mind's parts, declared once (registered in pyproject.toml, group ``meeplelab.games``)."""

from meeplelab.sim.core.spec import GameSpec

SPEC = GameSpec(
    name="unconscious-mind",
    engine="meeplelab.sim.unconscious_mind.engine:UnconsciousMind",
    strategies=("meeplelab.strategies.unconscious_mind",),
    treatments=("meeplelab.sim.unconscious_mind.treatments",),
    sections="meeplelab.analysis.unconscious_mind",
    rules_doc="docs/rules/unconscious_mind.md",
)
