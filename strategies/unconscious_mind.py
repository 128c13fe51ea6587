"""Unconscious Mind strategies: five scripted plans, a tuned heuristic and rollouts.

Each scripted plan is a short priority list (:class:`strategies.priority.PriorityStrategy`). A rule reads the
pending decision on top of each deciding game's stack (``state.stk[g, sp-1]``) and marks the actions it
prefers; action ids mean different things under different decisions (see ``sim/unconscious_mind/actions.py``).
Everything is vectorized over the deciding games; no per-game Python loops.
"""

from __future__ import annotations

import numpy as np

from sim.core.errors import ConfigError
from sim.unconscious_mind import codes as R
from sim.unconscious_mind.actions import (CARD0, CH0, MODE0, MODE_BRIGHT, MODE_NORMAL, N_CARD, NUM_ACTIONS, PLACE0, POS0,
                                          RECALL, TREAT)

from .base import RandomStrategy, game_table
from .generic import Heuristic
from .priority import PriorityStrategy
from .registry import Arg, register_strategy

GAME = ("unconscious-mind",)
A = NUM_ACTIONS


# ------------------------------------------------------------------ rule helpers
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


def _cols(ids) -> np.ndarray:
    return np.unique(np.asarray(list(ids), np.int64))


_EMPTY = np.zeros(0, np.int64)


def on(kind, ids, cond=None):
    """Rule: under decision ``kind`` prefer actions ``ids`` (where ``cond(view) -> bool[n]`` holds).

    Returns the priority fast path ``(actions, gate)``; ``cond`` is only evaluated when some game is
    at decision ``kind``."""
    cols = _cols(ids)

    def fn(view, legal):
        ok = _top(view)[0] == kind
        if cond is not None and ok.any():
            ok = ok & cond(view)
        return cols, ok
    return fn


_PLACE_COLS: dict = {}


def place(*mts, cond=None):
    """Rule: on the turn decision, State Ideas on a space pointing at one of Meeting Table actions ``mts``."""
    def fn(view, legal):
        key = (id(view.game), mts)
        cols = _PLACE_COLS.get(key)
        if cols is None:
            cols = _PLACE_COLS[key] = np.flatnonzero(np.isin(_place_mt(view.game), mts))
        ok = _top(view)[0] == R.D_TURN
        if cond is not None and ok.any():
            ok = ok & cond(view)
        return cols, ok
    return fn


def most(kind, base, score):
    """Rule: under ``kind`` prefer the legal choice ``CH0+i`` with the highest ``score(view) -> [n, m]``."""
    def fn(view, legal):
        k = _top(view)[0]
        at = k == kind
        if not at.any():
            return _EMPTY, at
        s = score(view).astype(np.float64)
        m = s.shape[1]
        lg = legal[:, base:base + m]
        s = np.where(lg, s, -np.inf)
        best = lg & (s >= s.max(axis=1, keepdims=True))
        out = np.zeros(legal.shape, bool)
        out[:, base:base + m] = best & at[:, None]
        return out
    return fn


def _mine(view, name):
    return getattr(view.state, name)[view.idx, view.seat]


def no_colour(view):
    return view.state.dial_c[view.idx, view.seat].sum(axis=1) == 0


def hand_cards(view):
    st, g = view.state, view.idx
    return ((st.card_loc[g] == R.L_HAND) & (st.card_own[g] == view.seat)).sum(axis=1)


def inplay_cards(view):
    st, g = view.state, view.idx
    return ((st.card_loc[g] == R.L_INPLAY) & (st.card_own[g] == view.seat)).sum(axis=1)


def row_fill(view):
    return (view.state.nb[view.idx, view.seat].reshape(-1, 3, 3) >= 0).sum(axis=2)


def col_fill(view):
    return (view.state.nb[view.idx, view.seat].reshape(-1, 3, 3) >= 0).sum(axis=1)


def ideas_on_table(view):
    return (view.state.space_owner[view.idx] == view.seat).sum(axis=1)


def colour_from_ring(view, legal):
    """Rule for the player-colour Insight a Treatise or district slot takes from a ring (D_COLOUR, reserve
    already ruled out): a ring Insight that no client's next dream needs (removing it leaves every room's next
    dream payable), lowest level first; else the lowest level. Compared in order: needed, then level."""
    k = _top(view)[0]
    at = k == R.D_COLOUR
    if not at.any():
        return _EMPTY, at
    st, g, gm, p = view.state, view.idx, view.game, view.seat
    tok = (st.dial_w[g, p] + st.dial_c[g, p])[:, 1:]  # [n, 9] Insights on the rings
    q = np.arange(9) // 3
    lvl = np.arange(9) % 3
    needed = np.zeros((g.size, 9), bool)
    for room in range(2):
        d = np.where(st.room_manifest[g, p, room] >= 0, st.room_manifest[g, p, room], st.room_latent[g, p, room])
        has = (st.room_client[g, p, room] >= 0) & (d >= 0)
        dd = np.maximum(d, 0)
        cq, cl = gm.A["dr_cq"][dd], gm.A["dr_cl"][dd]
        pays = ((cq[:, None] == 3) | (q[None, :] == cq[:, None])) & (lvl[None, :] >= cl[:, None])  # [n, 9]
        last = (pays * tok).sum(axis=1) == 1  # exactly one Insight pays this dream
        needed |= has[:, None] & last[:, None] & pays
    lg = legal[:, CH0 + 1:CH0 + 10]
    cand = np.where((lg & ~needed).any(axis=1, keepdims=True), lg & ~needed, lg)
    big = np.where(cand, lvl[None, :], 9)
    best = cand & (big == big.min(axis=1, keepdims=True))
    out = np.zeros(legal.shape, bool)
    out[:, CH0 + 1:CH0 + 10] = best & at[:, None]
    return out


CARDS = range(CARD0, CARD0 + N_CARD)
PUBLISH = [CH0 + k for k in range(6)]
ELEVATE = range(POS0, POS0 + 9)

# sub-decisions every plan handles the same way (after its own rules)
COMMON = [
    ("two Ideas at once", on(R.D_MODE, [MODE0 + 2])),
    ("one plain Idea", on(R.D_MODE, [MODE0 + 0])),
    ("publish a Treatise if the Play space allows", on(R.D_RESPLAY, PUBLISH)),
    ("play Research cards", on(R.D_RESPLAY, CARDS)),
    ("fill the fullest Notebook row", most(R.D_PLACE, CH0, row_fill)),
    ("activate the fullest column", most(R.D_COLUMN, CH0, col_fill)),
    ("take free tiles", on(R.D_FREE_TILE, [CH0, CH0 + 1])),
    ("use Elevations", on(R.D_ELXF, ELEVATE)),
    ("district slots before Location bonuses", on(R.D_RECALLB, range(CH0 + 6, CH0 + 14))),
    ("player-colour Insight from the reserve (an idle token)", on(R.D_COLOUR, [CH0])),
    ("else from a ring Insight no client's next dream needs, lowest level first", colour_from_ring),
    ("take Location bonuses", on(R.D_RECALLB, range(CH0, CH0 + 6))),
    ("treat every treatable client", on(R.D_TREAT, [CH0, CH0 + 1])),
]


class Plan(PriorityStrategy):
    """A named scripted plan: its own rules, then :data:`COMMON`, then random."""

    def __init__(self, name: str, rules, **args):
        super().__init__(rules=list(rules) + COMMON, fallback=RandomStrategy(), **args)
        self.name = name


def _plan(name, rules):
    return lambda **args: Plan(name, rules, **args)


def others_citable(view):
    """bool[n]: another seat has a published Treatise with Volumes left to cite."""
    st, g = view.state, view.idx
    own = st.tr_owner[g]
    return ((own >= 0) & (own != view.seat) & (st.tr_n[g] > 0)).any(axis=1)


def cite_match(view, legal):
    """Rule: publish a displayed Treatise needing a colour that some other seat's Treatise can supply now."""
    st, g, gm = view.state, view.idx, view.game
    k, _, _ = _top(view)
    if not (k == R.D_RESPLAY).any():
        return _EMPTY, k == R.D_RESPLAY
    col = gm.A["card_col"]
    own, n = st.tr_owner[g], st.tr_n[g]
    ok = (own >= 0) & (own != view.seat) & (n > 0)
    last = np.take_along_axis(st.tr_cards[g], np.maximum(n - 1, 0)[:, :, None], axis=2)[:, :, 0]
    cc = np.zeros((g.size, 4), bool)
    rows = np.nonzero(ok)
    cc[rows[0], col[last[rows]]] = True
    tcols, tlen = gm.A["tr_cols"], gm.A["tr_len"]
    need = np.zeros((tcols.shape[0], 4), bool)
    for t in range(tcols.shape[0]):
        need[t, tcols[t, 1:tlen[t]]] = True
    disp = st.trdisp[g]
    m = (need[np.maximum(disp, 0)] & cc[:, None, :]).any(axis=2) & (disp >= 0)
    out = np.zeros(legal.shape, bool)
    out[:, CH0:CH0 + disp.shape[1]] = m & (k == R.D_RESPLAY)[:, None]
    return out


def late(view):
    return view.state.rnd[view.idx] >= 18


# ------------------------------------------------------------------ scripted plans
COFFEE_ENGINE = [
    ("right tile (both effects) with 3+ Coffee", place(R.MT_RIGHT)),
    ("center tile with 2+ Coffee", place(R.MT_CENTER)),
    ("stack tile", place(R.MT_STACK)),
    ("play Research cards in hand", place(R.MT_PLAY, cond=lambda v: hand_cards(v) > 0)),
    ("Recall for Coffee when 2+ spaces are held", on(R.D_TURN, [RECALL], cond=lambda v: ideas_on_table(v) >= 2)),
    ("Generate Insights", place(R.MT_GEN)),
    ("level II tiles", on(R.D_TILE_SRC, [CH0 + 1])),
]

PUBLISHER = [
    ("no colour Insight: buy a tile to uncover one", place(R.MT_STACK, R.MT_CENTER, cond=no_colour)),
    ("Play when cards are in hand or enough in play", place(R.MT_PLAY, cond=lambda v: (hand_cards(v) > 0)
                                                          | (inplay_cards(v) >= 3))),
    ("buy a tile for a colour Insight", place(R.MT_CENTER, R.MT_STACK, cond=lambda v: _mine(v, "coffee") >= 1)),
    ("draw Research cards", place(R.MT_DRAW)),
    ("Recall when 2+ spaces are held", on(R.D_TURN, [RECALL], cond=lambda v: ideas_on_table(v) >= 2)),
    ("own Volumes before citing", on(R.D_GATHER, CARDS)),
]


CITER = [
    ("no colour Insight: buy a tile to uncover one", place(R.MT_STACK, R.MT_CENTER, cond=no_colour)),
    ("Play when cards are in hand or some in play", place(R.MT_PLAY, cond=lambda v: (hand_cards(v) > 0)
                                                          | (inplay_cards(v) >= 2))),
    ("cite other players' Treatises", on(R.D_GATHER, range(CH0, CH0 + 24))),
    ("publish a Treatise someone else's Treatise can feed", cite_match),
    ("publish once someone can be cited (or late)",
     on(R.D_RESPLAY, PUBLISH, cond=lambda v: others_citable(v) | late(v))),
    ("else keep playing cards", on(R.D_RESPLAY, CARDS)),
    ("buy a tile for a colour Insight", place(R.MT_STACK, R.MT_CENTER, cond=lambda v: _mine(v, "coffee") >= 1)),
    ("draw Research cards", place(R.MT_DRAW)),
    ("Recall when 2+ spaces are held", on(R.D_TURN, [RECALL], cond=lambda v: ideas_on_table(v) >= 2)),
]

# the citer's plan with its one citing rule replaced by own Volumes (the never-cite control)
NEVER_CITE = [(("own Volumes, never a citation", on(R.D_GATHER, CARDS)) if label == "cite other players' Treatises"
               else (label, fn)) for label, fn in CITER]

CURER = [
    ("Treat Clients", on(R.D_TURN, [TREAT])),
    ("spend heart boxes on clients", on(R.D_HEARTS, [CH0, CH0 + 1])),
    ("therapy on a client", on(R.D_THERAPY, [CH0, CH0 + 1])),
    ("play Research cards in hand", place(R.MT_PLAY, cond=lambda v: hand_cards(v) > 0)),
    ("Elevate Insights for dream costs", place(R.MT_ELEV)),
    ("Generate Insights", place(R.MT_GEN)),
    ("Case Study clients", on(R.D_NEWCLIENT, range(CH0 + 3, CH0 + 6))),
    ("Recall when 2+ spaces are held", on(R.D_TURN, [RECALL], cond=lambda v: ideas_on_table(v) >= 2)),
]

CITY_WALKER = [
    ("play Research cards in hand for their tags", place(R.MT_PLAY, cond=lambda v: hand_cards(v) > 0)),
    ("move the Professor", place(R.MT_PROF)),
    ("Recall for Location and district bonuses when 3+ spaces are held",
     on(R.D_TURN, [RECALL], cond=lambda v: ideas_on_table(v) >= 3)),
    ("center tile for tags and Coffee", place(R.MT_CENTER)),
    ("stack tile for tags", place(R.MT_STACK)),
    ("draw Research cards", place(R.MT_DRAW)),
    ("resolve Locations once per tag", on(R.D_LOCTRIG, [CH0 + 1, CH0 + 3])),
    ("move the Professor as far as allowed", on(R.D_PROF, [CH0 + 1])),
    ("Recall when 2+ spaces are held", on(R.D_TURN, [RECALL], cond=lambda v: ideas_on_table(v) >= 2)),
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
    """``bool[n, D]``: each displayed Treatise (slot ``CH0+j`` of D_RESPLAY) can be published from the seat's
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

    Citing is an action only under D_GATHER (``CH0+k``: take the rightmost Volume of Treatise ``k`` of
    another seat, seed "Publish a Treatise"); a D_GATHER offers an own card whenever the rest can still be
    gathered, so citations are avoided upstream, where the seat commits to a publication:

    - D_GATHER: the citations (``CH0..CH0+23``) are dropped;
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
        out[rows, CH0:CH0 + 24] = False
    rows = (k == R.D_RESPLAY) & (b == 0)
    if rows.any():
        pub = own_publishable(view)
        nd = pub.shape[1]
        out[:, CH0:CH0 + nd] &= ~(rows[:, None] & ~pub)
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

    The citer's rules (its citing rule replaced by own Volumes), played on the legal mask of
    :func:`no_cite_mask`, so neither a rule nor the random fallback ever picks a citation or a choice that
    would force one. Citing is then still possible only where it is the sole legal action: a turn whose only
    option is stating Ideas on a Play space that only a citing publication makes possible (D_TURN offers
    no pass while any option exists, A-UM-20), or a second Play performance whose first one used up the hand
    (D_RESPLAY offers no DONE before the first action). ``forced`` counts such decisions per decision kind
    (``{kind: count}``, in this process; ``forced[R.D_GATHER]`` = forced citations). Measured: none in 2,400
    four-seat games (docs/balance.md, citing vs never citing) nor in the 40 games of the strategy tests.
    Cost: one ``[n, A]`` mask copy per decision plus the own-Volume count where a Play is possible.
    """

    def __init__(self, **args):
        super().__init__("never-cite", NEVER_CITE, **args)
        self.forced: dict[int, int] = {}

    def act(self, view, legal_mask, rng):
        mask, forced = no_cite_mask(view, legal_mask)
        if forced.any():
            k = _top(view)[0][forced]
            for kind, cnt in zip(*np.unique(k, return_counts=True)):
                self.forced[int(kind)] = self.forced.get(int(kind), 0) + int(cnt)
        return super().act(view, mask, rng)


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
    **{k: Arg(float, v, f"weight of feature {k}") for k, v in UMHeuristic.default_weights.items()},
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
