"""Galileo's Truth's parts, declared once (registered in pyproject.toml, group ``meeplelab.games``)."""

from meeplelab.sim.core.spec import GameSpec
from meeplelab.sim.core.start import StartResource

#: what each seat starts with (A-GT-05); treatments, seat compensation (A-GT-34) and exchange rates come from it
START_RESOURCES = (
    StartResource("coins", "coins", "Coins", "Coins at setup", start_param="start_coins", seat_param="seat_coins"),
    StartResource("research", "research", "Research", "Research tokens at setup", start_param="start_research",
                  seat_param="seat_research"),
    StartResource("suspicion", "susp", "Suspicion", "Suspicion at setup (more is worse)",
                  start_param="start_suspicion", below_param="prison_at"),
) + tuple(
    StartResource(f"books_{s}", "books", "Books", f"{s.capitalize()} Books at setup", index=i, start_param="start_books")
    for i, s in enumerate(("astronomy", "physics", "mathematics", "philosophy"))  # content.SUBJECTS order
) + (
    StartResource("vp", "vp", "VP", "VP at setup (outside every score category)", low=None, seat_param="seat_vp",
                  vp=True),
)

SPEC = GameSpec(
    name="galileos-truth",
    engine="meeplelab.sim.galileos_truth.engine:GalileosTruth",
    strategies=("meeplelab.strategies.galileos_truth",),
    sections="meeplelab.analysis.galileos_truth",
    rules_doc="docs/rules/galileos_truth.md",
    start_resources=START_RESOURCES,
)
