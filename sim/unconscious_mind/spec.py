"""Unconscious Mind's parts, declared once (registered in pyproject.toml, group ``meeplelab.games``)."""

from meeplelab.sim.core.observation import ObservationSpec, Order
from meeplelab.sim.core.restrict import SeatField
from meeplelab.sim.core.spec import GameSpec
from meeplelab.sim.core.start import StartResource

#: what each seat starts with; treatments, seat compensation (A-UM-35) and exchange rates come from it
START_RESOURCES = (
    StartResource("coffee", "coffee", "Coffee", "Coffee at setup (A-UM-37)", start_param="start_coffee",
                  seat_param="seat_coffee"),
    StartResource("bright", "bright", "Bright Ideas", "Bright Ideas at setup (none in the rules)"),
    StartResource("ideas", "ideas_hand", "Ideas", "Ideas in hand at setup (research UM §1)", start_param="start_ideas"),
    StartResource("white", "dial_w", "Insights", "white Insights in the dial reserve at setup (A-UM-07)", index=0,
                  start_param="start_white"),
    StartResource("vp", "vp", "VP", "VP at setup (outside every score category)", low=None, seat_param="seat_vp",
                  vp=True),
)

#: what a restricted strategy's condition may read of the deciding seat (``heuristic+force:publish@round>=10``):
#: features of ``features.py``; the round's bound is the widest ``round_limit`` allows (100)
SEAT_FIELDS = (
    SeatField("round", "round", "the current round", 0, 100),
    SeatField("coffee", "coffee", "the seat's Coffee", 0),
    SeatField("hand", "hand_cards", "Research cards in the seat's hand", 0),
    SeatField("inplay", "inplay_cards", "Research cards the seat has in play", 0),
    SeatField("ideas", "ideas_on_table", "idea spaces holding the seat's Ideas", 0),
    SeatField("colour", "colour_insights", "player-colour Insights on the seat's dial", 0),
    SeatField("citable", "others_citable", "1 when another seat has a published Treatise with Volumes left to cite",
              0, 1),
)
#: ``never:cite`` also avoids the choices that would force a citation later (the ``no_cite`` action score, the
#: restriction of the ``never-cite`` plan: ``features.py``)
NEVER_SCORES = (("cite", "no_cite"),)

#: what a seat cannot see (the OpenSpiel games' and the environments' observations; ``hidden.py`` re-samples the same):
#: the undrawn part of the Notebook tile stacks and of the Treatise, client and dream decks shown sorted (their
#: contents are known, not their order), the Research deck and the other seats' unknown hand cards concealed by the hook
OBSERVATION = ObservationSpec(
    order=(Order("tstack_i", "ttop[0]"), Order("tstack_ii", "ttop[1]"), Order("trdeck", "trtop"),
           Order("rdeck_cl", "rtop_cl"), Order("cdeck_cl", "ctop_cl"), Order("ldeck", "ltop"), Order("mdeck", "mtop")),
    conceal="meeplelab.sim.unconscious_mind.observation:conceal",
)

SPEC = GameSpec(
    name="unconscious-mind",
    engine="meeplelab.sim.unconscious_mind.engine:UnconsciousMind",
    strategies=("meeplelab.strategies.unconscious_mind",),
    treatments=("meeplelab.sim.unconscious_mind.treatments",),
    sections="meeplelab.analysis.unconscious_mind",
    labels="meeplelab.sim.unconscious_mind.labels",
    rules_doc="docs/rules/unconscious_mind.md",
    start_resources=START_RESOURCES,
    observation=OBSERVATION,
    seat_fields=SEAT_FIELDS,
    never_scores=NEVER_SCORES,
    # a publish event is a publication the seat finished, a cite event one citation it chose (D_GATHER); the
    # Freud moves of `move` events are partly the face line's, not a choice
    decision_log=("turns:option", "turns:mt_action", "events:publish", "events:cite"),
)
