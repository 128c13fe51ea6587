"""Galileo's Truth's parts, declared once (registered in pyproject.toml, group ``meeplelab.games``)."""

from meeplelab.sim.core.spec import GameSpec

SPEC = GameSpec(
    name="galileos-truth",
    engine="meeplelab.sim.galileos_truth.engine:GalileosTruth",
    strategies=("meeplelab.strategies.galileos_truth",),
    sections="meeplelab.analysis.galileos_truth",
    rules_doc="docs/rules/galileos_truth.md",
)
