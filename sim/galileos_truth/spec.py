"""Galileo's Truth's parts, declared once (registered in pyproject.toml, group ``meeplelab.games``)."""

from meeplelab.sim.core.observation import ObservationSpec, Order
from meeplelab.sim.core.restrict import SeatField
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

#: what a restricted strategy's condition may read of the deciding seat (``heuristic+force:abjure@suspicion>=6``):
#: features of ``features.py``; the bounds are the widest the parameters' ranges allow (cycles <= 8, suspicion_max <= 30)
SEAT_FIELDS = (
    SeatField("cycle", "cycle", "the current Cycle (1 = the first)", 1, 8),
    SeatField("suspicion", "suspicion", "the seat's Suspicion", 0, 30),
    SeatField("research", "research", "the seat's Research tokens", 0),
    SeatField("books", "books_total", "the seat's Books on all Subject tracks", 0),
    SeatField("coins", "coins", "the seat's Coins", 0),
    SeatField("level", "level", "the seat's Academic Level", 0),
    SeatField("vp", "vp", "the seat's VP so far"),
)

#: what a seat cannot see (the OpenSpiel games' and the environments' observations; ``hidden.py`` re-samples the same):
#: the face-down bags, Invention decks and Penance supply shown sorted (their contents are known, not their order),
#: the unknown part of every deck and the other seats' unknown hand cards concealed by the hook
OBSERVATION = ObservationSpec(
    order=tuple(Order(f"bag_{lv + 1}", 0, f"bag_n[{lv}]") for lv in range(3))
    + tuple(Order(f"inv_deck_{per + 1}", 0, f"inv_deck_n[{per}]") for per in range(3))
    + (Order("pen_pile", 0, "pen_n"),),
    conceal="meeplelab.sim.galileos_truth.observation:conceal",
)

SPEC = GameSpec(
    name="galileos-truth",
    engine="meeplelab.sim.galileos_truth.engine:GalileosTruth",
    strategies=("meeplelab.strategies.galileos_truth",),
    sections="meeplelab.analysis.galileos_truth",
    labels="meeplelab.sim.galileos_truth.labels",
    rules_doc="docs/rules/galileos_truth.md",
    start_resources=START_RESOURCES,
    observation=OBSERVATION,
    seat_fields=SEAT_FIELDS,
    decision_log=("turns:main_action",),
    # an Abjure at Suspicion 5 or more takes back abjure_suspicion_drop (5) whole, before Prison at 8 (A-GT-11)
    force_at=(("abjure", "suspicion>=5"),),
)
