"""Unconscious Mind strategies: six scripted plans, a tuned heuristic and rollouts.

Every scripted strategy is a :class:`~meeplelab.strategies.plans.Plan` of :class:`~meeplelab.strategies.plans.Rule` rows, read like a
player's plan and played inside the compiled play kernel (docs/compiled_play.md). A rule names

- the pending decision it applies to (the kind on top of the game's decision stack, ``D_TURN``, ``D_MODE``, ...;
  action ids mean different things under different decisions: ``sim/unconscious_mind/actions.py``),
- the actions it prefers: action ids, or a named action set of :func:`action_sets` ("State Ideas on a space
  pointing at the Play action"), optionally ranked or filtered by an engine action score
  (``sim/unconscious_mind/features.py``: ``row_fill`` "the fullest Notebook row", ``ring_colour``,
  ``cite_match``), and
- optional conditions on named features (Research cards in hand, Ideas on the table, Coffee, round, ...).

An "A or B" condition is two rules with the same preferences, one per condition (the first that holds and has
a legal preferred action decides, so the choice is the same). The rules are those of the former priority
lists, in the same order, and choose exactly as they did (the golden games of ``tests/golden.json``).
The Python helpers below (``row_fill``, ``own_publishable``, ``no_cite_mask``, ...) compute the same
quantities on a batch view, for analysis and tests.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.actions import (CARD0, CH_CITE, CH_PUBLISH, MODE0, MODE_BRIGHT, MODE_NORMAL, N_CARD, N_CH,
                                                    NUM_ACTIONS, PLACE0, POS0, RECALL, TREAT, VOCAB)
from meeplelab.sim.unconscious_mind.content import MT_ACTIONS

from .base import RandomStrategy, game_table
from .generic import Heuristic, weight_arg
from .plans import CompiledPlan
from .plans import Plan as PlanData
from .plans import Rule, When
from .registry import Arg, register_strategy

GAME = ("unconscious-mind",)
A = NUM_ACTIONS


# ------------------------------------------------------------------ state helpers (Python, on a batch view)
def _place_mt(game) -> np.ndarray:
    """``int[A]``: the Meeting Table action a PLACE action points at (-1 elsewhere); cached per engine."""
    return game_table(game, "um-place-mt", _build_place_mt)


def _build_place_mt(game) -> np.ndarray:
    sa = game.A["space_act"]
    out = np.full(A, -1, np.int64)
    for s in range(sa.shape[0]):
        for d in range(sa.shape[1]):
            out[PLACE0 + s * 4 + d] = sa[s, d]
    return out


def _top(view):
    """``(kind, a, b)`` of the pending decision on each deciding game's stack, each ``int64[n]`` (cached per view)."""
    c = view.cache.get("um_top")
    if c is None:
        st, g = view.state, view.idx
        e = st.stk[g, st.sp[g] - 1]
        c = view.cache["um_top"] = (e[:, 0], e[:, 1], e[:, 2])
    return c


def _mine(view, name):
    return getattr(view.state, name)[view.idx, view.seat]


def no_colour(view):
    """``bool[n]``: no player-colour Insight on the seat's dial (feature ``colour_insights == 0``)."""
    return view.state.dial_c[view.idx, view.seat].sum(axis=1) == 0


def hand_cards(view):
    """``int[n]``: Research cards in the seat's hand (feature ``hand_cards``)."""
    st, g = view.state, view.idx
    return ((st.card_loc[g] == R.L_HAND) & (st.card_own[g] == view.seat)).sum(axis=1)


def inplay_cards(view):
    """``int[n]``: the seat's Research cards in play (feature ``inplay_cards``)."""
    st, g = view.state, view.idx
    return ((st.card_loc[g] == R.L_INPLAY) & (st.card_own[g] == view.seat)).sum(axis=1)


def row_fill(view):
    """``int[n, 3]``: tiles in each Notebook row (action score ``row_fill``)."""
    return (view.state.nb[view.idx, view.seat].reshape(-1, 3, 3) >= 0).sum(axis=2)


def col_fill(view):
    """``int[n, 3]``: tiles in each Notebook column (action score ``col_fill``)."""
    return (view.state.nb[view.idx, view.seat].reshape(-1, 3, 3) >= 0).sum(axis=1)


def ideas_on_table(view):
    """``int[n]``: idea spaces holding the seat's Ideas (feature ``ideas_on_table``)."""
    return (view.state.space_owner[view.idx] == view.seat).sum(axis=1)


def others_citable(view):
    """``bool[n]``: another seat has a published Treatise with Volumes left to cite (feature ``others_citable``)."""
    st, g = view.state, view.idx
    own = st.tr_owner[g]
    return ((own >= 0) & (own != view.seat) & (st.tr_n[g] > 0)).any(axis=1)


def late(view):
    """``bool[n]``: round 18 or later (feature ``round``)."""
    return view.state.rnd[view.idx] >= 18


# ------------------------------------------------------------------ rule building blocks
#: the place action sets the plans name: set name -> Meeting Table actions (filled by :func:`place`)
_PLACE_SETS: dict[str, tuple[int, ...]] = {}


def action_sets(game) -> dict[str, np.ndarray]:
    """The named action sets the plans prefer (``bool[A]`` each, cached per engine): ``place:<MT actions>``,
    the PLACE actions (State Ideas) whose idea space points at one of those Meeting Table actions."""
    return game_table(game, "um-action-sets", _build_action_sets)


def _build_action_sets(game) -> dict[str, np.ndarray]:
    mt = _place_mt(game)
    return {name: np.isin(mt, mts) for name, mts in _PLACE_SETS.items()}


def on(label: str, kind: str, ids, when: tuple = (), **score) -> Rule:
    """Rule: under decision ``kind`` (``"D_TURN"``) prefer actions ``ids`` (increasing id order) when the
    conditions ``when`` hold; ``best=``/``keep=`` an engine action score."""
    return Rule(label, tuple(sorted({int(a) for a in ids})), kinds=(kind,), when=tuple(when), **score)


def place(label: str, *mts: int, when: tuple = ()) -> Rule:
    """Rule: on the turn decision, State Ideas on a space pointing at one of Meeting Table actions ``mts``."""
    name = "place:" + "+".join(MT_ACTIONS[m] for m in mts)
    _PLACE_SETS[name] = tuple(mts)
    return Rule(label, name, kinds=("D_TURN",), when=tuple(when))


HAND = (When("hand_cards", ">", 0),)
NO_COLOUR = (When("colour_insights", "==", 0),)
HAS_COFFEE = (When("coffee", ">=", 1),)


def ideas_at_least(n: int) -> tuple:
    return (When("ideas_on_table", ">=", n),)


def inplay_at_least(n: int) -> tuple:
    return (When("inplay_cards", ">=", n),)


CARDS = range(CARD0, CARD0 + N_CARD)
PUBLISH = VOCAB.choice_ids("D_RESPLAY", "publish")
CHOICE = VOCAB.choice_ids  # a decision's choice ids by meaning (actions.CHOICES)
ELEVATE = range(POS0, POS0 + 9)

# sub-decisions every plan handles the same way (after its own rules)
COMMON = [
    on("two Ideas at once", "D_MODE", [MODE0 + 2]),
    on("one plain Idea", "D_MODE", [MODE0 + 0]),
    on("publish a Treatise if the Play space allows", "D_RESPLAY", PUBLISH),
    on("play Research cards", "D_RESPLAY", CARDS),
    on("fill the fullest Notebook row", "D_PLACE", CHOICE("D_PLACE", "row"), best="row_fill"),
    on("activate the fullest column", "D_COLUMN", CHOICE("D_COLUMN", "column"), best="col_fill"),
    on("take free tiles", "D_FREE_TILE", CHOICE("D_FREE_TILE", "level")),
    on("use Elevations", "D_ELXF", ELEVATE),
    on("district slots before Location bonuses", "D_RECALLB", CHOICE("D_RECALLB", "district")),
    on("player-colour Insight from the reserve (an idle token)", "D_COLOUR", CHOICE("D_COLOUR", "reserve")),
    on("else from a ring Insight no client's next dream needs, lowest level first", "D_COLOUR",
       CHOICE("D_COLOUR", "ring"), best="ring_colour"),
    on("take Location bonuses", "D_RECALLB", CHOICE("D_RECALLB", "bonus")),
    on("treat every treatable client", "D_TREAT", CHOICE("D_TREAT", "room")),
]


class Plan(CompiledPlan):
    """A named scripted plan: its own rules, then :data:`COMMON`, then random (a compiled plan).

    Args:
        name: the registered name.
        rules: its own rules (:class:`~meeplelab.strategies.plans.Rule`), in priority order.
        restrict: an engine action score limiting every choice (``Plan.restrict``; never-cite).
    """

    def __init__(self, name: str, rules, restrict: str | None = None, **args):
        super().__init__(PlanData(name, tuple(list(rules) + COMMON), restrict), action_sets=action_sets, **args)


def _plan(name, rules):
    return lambda **args: Plan(name, rules, **args)


# ------------------------------------------------------------------ scripted plans
COFFEE_ENGINE = [
    place("right tile (both effects) with 3+ Coffee", R.MT_RIGHT),
    place("center tile with 2+ Coffee", R.MT_CENTER),
    place("stack tile", R.MT_STACK),
    place("play Research cards in hand", R.MT_PLAY, when=HAND),
    on("Recall for Coffee when 2+ spaces are held", "D_TURN", [RECALL], when=ideas_at_least(2)),
    place("Generate Insights", R.MT_GEN),
    on("level II tiles", "D_TILE_SRC", [VOCAB.choice("D_TILE_SRC", "level", 1)]),
]

PUBLISHER = [
    place("no colour Insight: buy a tile to uncover one", R.MT_STACK, R.MT_CENTER, when=NO_COLOUR),
    place("Play when cards are in hand or enough in play", R.MT_PLAY, when=HAND),
    place("Play when cards are in hand or enough in play", R.MT_PLAY, when=inplay_at_least(3)),
    place("buy a tile for a colour Insight", R.MT_CENTER, R.MT_STACK, when=HAS_COFFEE),
    place("draw Research cards", R.MT_DRAW),
    on("Recall when 2+ spaces are held", "D_TURN", [RECALL], when=ideas_at_least(2)),
    on("own Volumes before citing", "D_GATHER", CARDS),
]


CITER = [
    place("no colour Insight: buy a tile to uncover one", R.MT_STACK, R.MT_CENTER, when=NO_COLOUR),
    place("Play when cards are in hand or some in play", R.MT_PLAY, when=HAND),
    place("Play when cards are in hand or some in play", R.MT_PLAY, when=inplay_at_least(2)),
    on("cite other players' Treatises", "D_GATHER", CHOICE("D_GATHER", "cite")),
    on("publish a Treatise someone else's Treatise can feed", "D_RESPLAY", PUBLISH, keep="cite_match"),
    on("publish once someone can be cited (or late)", "D_RESPLAY", PUBLISH, when=(When("others_citable", "==", 1),)),
    on("publish once someone can be cited (or late)", "D_RESPLAY", PUBLISH, when=(When("round", ">=", 18),)),
    on("else keep playing cards", "D_RESPLAY", CARDS),
    place("buy a tile for a colour Insight", R.MT_STACK, R.MT_CENTER, when=HAS_COFFEE),
    place("draw Research cards", R.MT_DRAW),
    on("Recall when 2+ spaces are held", "D_TURN", [RECALL], when=ideas_at_least(2)),
]

# the citer's plan with its one citing rule replaced by own Volumes (the never-cite control)
NEVER_CITE = [on("own Volumes, never a citation", "D_GATHER", CARDS) if r.label == "cite other players' Treatises"
              else r for r in CITER]

CURER = [
    on("Treat Clients", "D_TURN", [TREAT]),
    on("spend heart boxes on clients", "D_HEARTS", CHOICE("D_HEARTS", "room")),
    on("therapy on a client", "D_THERAPY", CHOICE("D_THERAPY", "room")),
    place("play Research cards in hand", R.MT_PLAY, when=HAND),
    place("Elevate Insights for dream costs", R.MT_ELEV),
    place("Generate Insights", R.MT_GEN),
    on("Case Study clients", "D_NEWCLIENT", CHOICE("D_NEWCLIENT", "case")),
    on("Recall when 2+ spaces are held", "D_TURN", [RECALL], when=ideas_at_least(2)),
]

CITY_WALKER = [
    place("play Research cards in hand for their tags", R.MT_PLAY, when=HAND),
    place("move the Professor", R.MT_PROF),
    on("Recall for Location and district bonuses when 3+ spaces are held", "D_TURN", [RECALL],
       when=ideas_at_least(3)),
    place("center tile for tags and Coffee", R.MT_CENTER),
    place("stack tile for tags", R.MT_STACK),
    place("draw Research cards", R.MT_DRAW),
    on("resolve Locations once per tag", "D_LOCTRIG", [VOCAB.choice("D_LOCTRIG", "trigger", b, 1) for b in (0, 1)]),
    on("move the Professor as far as allowed", "D_PROF", [VOCAB.choice("D_PROF", "advance", 1)]),
    on("Recall when 2+ spaces are held", "D_TURN", [RECALL], when=ideas_at_least(2)),
]

for _name, _rules, _doc in (
        ("coffee-engine", COFFEE_ENGINE, "Notebook tiles at the dearest affordable cost, rows and columns completed."),
        ("publisher", PUBLISHER, "Draw and play Research cards, publish Treatises from own Volumes."),
        ("citer", CITER, "Publish Treatises once other players' Treatises can be cited for the Volumes."),
        ("curer", CURER, "Treat and cure clients; Insights raised to pay dream costs."),
        ("city-walker", CITY_WALKER, "Cards for tags, the Professor around the city, Recall for Location and district bonuses."),
):
    register_strategy(_name, _plan(_name, _rules), games=GAME, doc=_doc)


# ------------------------------------------------------------------ never-cite control
def _treatise_need(game) -> np.ndarray:
    """``int[T, 4]``: Volumes of each colour a Treatise needs in all (the quill included); cached per engine."""
    return game_table(game, "um-treatise-need", _build_treatise_need)


def _build_treatise_need(game) -> np.ndarray:
    tcols, tlen = game.A["tr_cols"], game.A["tr_len"]
    need = np.zeros((tcols.shape[0], 4), np.int64)
    for t in range(tcols.shape[0]):
        np.add.at(need[t], tcols[t, :tlen[t]], 1)
    return need


def own_publishable(view) -> np.ndarray:
    """``bool[n, D]``: each displayed Treatise (slot ``CH_PUBLISH+j`` of D_RESPLAY) can be published from the seat's
    own in-play Research cards alone, no citation (a colour Insight held, every Volume colour covered)."""
    st, g, gm = view.state, view.idx, view.game
    inplay = (st.card_loc[g] == R.L_INPLAY) & (st.card_own[g] == view.seat)  # [n, cards]
    own = np.zeros((g.size, 4), np.int64)
    for c in range(4):
        own[:, c] = (inplay & (gm.A["card_col"] == c)[None, :]).sum(axis=1)
    disp = st.trdisp[g]  # [n, D]
    need = _treatise_need(gm)[np.maximum(disp, 0)]  # [n, D, 4]
    return (own[:, None, :] >= need).all(axis=2) & (disp >= 0) & ~no_colour(view)[:, None]


def _pending_plays(view) -> np.ndarray:
    """``int[n]``: Play-space performances still waiting under the top of the stack (two Ideas on Play)."""
    st, g = view.state, view.idx
    stk, sp = st.stk[g], st.sp[g]
    below = np.arange(stk.shape[1])[None, :] < (sp - 1)[:, None]
    return (below & (stk[:, :, 0] == R.K_PERFORM) & (stk[:, :, 1] == R.MT_PLAY)).sum(axis=1)


def no_cite_mask(view, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The legal action mask without every choice that cites or commits the seat to citing.

    Citing is an action only under D_GATHER (``CH_CITE+k``: take the rightmost Volume of Treatise ``k`` of
    another seat, seed "Publish a Treatise"); a D_GATHER offers an own card whenever the rest can still be
    gathered, so citations are avoided upstream, where the seat commits to a publication:

    - D_GATHER: the citations (``CH_CITE..CH_CITE+23``) are dropped;
    - D_RESPLAY (first action of a Play): publishing a displayed Treatise own cards cannot fill is dropped;
    - D_TURN: stating Ideas on a Play space when neither a card in hand nor an own-publishable Treatise
      would make the Play possible is dropped;
    - D_MODE on a Play space: more performances than cards in hand (at least one) are dropped; D_RESPLAY
      after the first card and D_PLAYN keep a hand card for each Play performance still pending (DONE).

    A game keeps its full legal row when the restriction would leave nothing (a forced choice). Dropping
    only the D_GATHER citations is not enough: in the 40 games of the strategy test the citer's publishing
    rules then start 69 publications that only citations can finish (69 forced citations); with the upstream
    restrictions, none.

    Args:
        view: the deciding games; legal: ``bool[n, A]``.

    Returns:
        ``(mask bool[n, A], forced bool[n])``: the restricted mask, and the games where only restricted
        actions were legal (for D_GATHER: a forced citation).
    """
    k, a, b = _top(view)
    out = legal.copy()
    rows = k == R.D_GATHER
    if rows.any():
        out[rows, CH_CITE:CH_CITE + N_CH] = False
    rows = (k == R.D_RESPLAY) & (b == 0)
    if rows.any():
        pub = own_publishable(view)
        nd = pub.shape[1]
        out[:, CH_PUBLISH:CH_PUBLISH + nd] &= ~(rows[:, None] & ~pub)
    hand = None
    rows = k == R.D_TURN
    if rows.any():
        hand = hand_cards(view)
        cannot = rows & (hand == 0) & ~own_publishable(view).any(axis=1)
        if cannot.any():
            cols = np.flatnonzero(_place_mt(view.game) == R.MT_PLAY)
            out[np.ix_(np.flatnonzero(cannot), cols)] = False
    rows = (k == R.D_MODE) & (b == R.MT_PLAY)
    if rows.any():
        hand = hand_cards(view) if hand is None else hand
        perf = np.asarray(MODE_NORMAL) + np.asarray(MODE_BRIGHT)  # [5]
        too_many = perf[None, :] > np.maximum(hand, 1)[:, None]
        out[:, MODE0:MODE0 + 5] &= ~(rows[:, None] & too_many)
    rows = ((k == R.D_RESPLAY) & (b > 0)) | (k == R.D_PLAYN)
    if rows.any():
        hand = hand_cards(view) if hand is None else hand
        keep = rows & (_pending_plays(view) >= hand) & (hand > 0)
        if keep.any():
            out[keep, CARD0:CARD0 + N_CARD] = False
    forced = ~out.any(axis=1)
    out[forced] = legal[forced]
    return out, forced


class NeverCite(Plan):
    """The ``citer`` plan that never cites: the control of "citing vs never citing".

    The citer's rules (its citing rule replaced by own Volumes) under the restriction ``no_cite`` (an engine
    action score, ``sim/unconscious_mind/features.py``, the same mask as :func:`no_cite_mask`), so neither a
    rule nor the random fallback ever picks a citation or a choice that would force one. Citing is then still
    possible only where it is the sole legal action: a turn whose only option is stating Ideas on a Play space
    that only a citing publication makes possible (D_TURN offers no pass while any option exists, A-UM-20), or
    a second Play performance whose first one used up the hand (D_RESPLAY offers no DONE before the first
    action). ``forced`` counts such decisions per decision kind (``{kind: count}``, in this process) on the
    Python-loop path (``play_batch(compiled=False)``; in the compiled play kernel the plan is not called
    back, so count citations in the events table: ``forced[R.D_GATHER]`` = forced citations). Measured: none
    in 2,400 four-seat games (docs/balance.md, citing vs never citing) nor in the 40 games of the strategy
    tests.
    """

    def __init__(self, **args):
        super().__init__("never-cite", NEVER_CITE, restrict="no_cite", **args)
        self.forced: dict[int, int] = {}

    def act(self, view, legal_mask, rng):
        _, forced = no_cite_mask(view, legal_mask)
        if forced.any():
            k = _top(view)[0][forced]
            for kind, cnt in zip(*np.unique(k, return_counts=True)):
                self.forced[int(kind)] = self.forced.get(int(kind), 0) + int(cnt)
        return super().act(view, legal_mask, rng)


register_strategy("never-cite", NeverCite, games=GAME,
                  doc="The citer's plan that never cites another player's Treatise (publishes from own Volumes "
                      "only): the control for citing vs never citing.")


# ------------------------------------------------------------------ heuristic
class UMHeuristic(Heuristic):
    """One-step lookahead (turn finished at random) scored by weighted Unconscious Mind features."""

    name = "heuristic"
    default_weights = {"vp": 1.0, "coffee": 0.3, "bright": 0.8, "insight": 0.15, "colour": 0.3, "cured": 1.0,
                       "tiles": 0.6, "inplay": 0.5, "hand": 0.2, "rep": 0.8, "hearts": 0.4, "therapy": 0.1}


register_strategy("heuristic", UMHeuristic, games=GAME, args={
    **{k: weight_arg(v, f"weight of feature {k}") for k, v in UMHeuristic.default_weights.items()},
    "finish": Arg(int, 1, "finish the turn's sub-decisions at random before valuing (1) or not (0)", 0, 1),
}, doc="One-step lookahead scored by weighted features (VP, Coffee, Bright Ideas, Insights, tiles, cards, ...).")


# ------------------------------------------------------------------ rollout over the tuned heuristic
from .generic import Rollout  # noqa: E402


class UMRollout(Rollout):
    """Monte Carlo rollouts with this game's heuristic: the heuristic's pick plus random other legal actions
    (``top`` per decision), each continued ``k`` times for ``horizon`` turns with every seat played by the
    scripted ``policy`` (``random`` for uniform play), valued by the tuned heuristic's weighted margin."""

    def __init__(self, **args):
        super().__init__(**args)
        self.heuristic = UMHeuristic()
        pol = str(args.get("policy", "publisher"))
        if pol != "random" and pol not in PLANS:
            raise ConfigError(f"rollout policy {pol!r}: allowed random, {', '.join(PLANS)}")
        self.policy = RandomStrategy() if pol == "random" else _plan(pol, PLANS[pol])()
        self.prior = float(args.get("prior", 1.0))


PLANS = {"coffee-engine": COFFEE_ENGINE, "publisher": PUBLISHER, "citer": CITER, "curer": CURER,
         "city-walker": CITY_WALKER}

register_strategy("rollout", UMRollout, games=GAME, args={
    "k": Arg(int, 8, "continuations per candidate action", 1, 256),
    "top": Arg(int, 4, "candidate actions rolled out per decision (heuristic's pick plus random others)", 1, 64),
    "horizon": Arg(int, 4, "turns each continuation is played before it is valued", 1, 1000),
    "policy": Arg(str, "publisher", "continuation policy: a scripted plan name or random"),
    "prior": Arg(float, 1.0, "bonus (in heuristic value) of the heuristic's own pick", 0, 100),
}, doc="Monte Carlo rollouts of the heuristic's pick and other candidates, continued by a scripted plan "
       "(default publisher), valued by the tuned heuristic; best mean margin.")


# ---- the game's own tree search (strategies/ismcts.py): the tuned heuristic's weights, a scripted plan in rollouts
from .ismcts import ISMCTS, GAME_DEFAULTS, _weights, register_game_search  # noqa: E402


class UMISMCTS(ISMCTS):
    """ISMCTS for Unconscious Mind: the tuned heuristic's weights (``weights=tuned``, :data:`ismcts.TUNED`) for the
    root candidates and the leaf values, the publisher plan in rollouts; by default a root bandit (``depth=1``) over
    the heuristic's 3 best actions with 1-turn rollouts."""

    defaults = {**ISMCTS.defaults, **GAME_DEFAULTS["unconscious-mind"]}

    def __init__(self, **args):
        super().__init__(**args)
        self.heuristic = UMHeuristic(**_weights(self, "unconscious-mind"))
        pol = str(args.get("policy", "publisher"))
        if pol != "random" and pol not in PLANS:
            raise ConfigError(f"ismcts policy {pol!r}: allowed random, {', '.join(PLANS)}")
        self.policy = RandomStrategy() if pol == "random" else _plan(pol, PLANS[pol])()
        if self.kinds:  # refused when the id is read, before any game is played
            # start-up: the engine's play kernels load only for a heuristic with restricted kinds
            from meeplelab.sim.unconscious_mind.play import KINDS

            self._codes(KINDS, "unconscious-mind")


register_game_search(GAME[0], UMISMCTS, extra={"policy": Arg(str, "publisher", "rollout plan: a scripted plan name or random")},
                     doc="Information-set MCTS: UCT over redeterminisations, scripted-plan rollouts, heuristic rewards.")
