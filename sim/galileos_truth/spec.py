"""Galileo's Truth's parts, declared once (registered in pyproject.toml, group ``meeplelab.games``)."""

from sim.core.spec import GameSpec

SPEC = GameSpec(
    name="galileos-truth",
    engine="sim.galileos_truth.engine:GalileosTruth",
    strategies=("strategies.galileos_truth",),
    sections="analysis.galileos_truth",
    rules_doc="docs/rules/galileos_truth.md",
)
