"""What compiled play reads of and does to an Unconscious Mind game (docs/compiled_play.md): the pending decision
(the kind on top of the decision stack), the named features a plan's conditions read, the action scores its
rules rank or filter by (strategies/plans.py, strategies/unconscious_mind.py), the legal action mask and
application of one decision (``rules/loop.py``: automatic stack entries run until the next real decision), and
what the compiled heuristic (``lookahead.py``) reads: the turn counter and the valued features of
:meth:`UnconsciousMind.features`.

Every kernel reads the deciding seat ``p`` of game ``g``; ``S`` is :class:`meeplelab.sim.unconscious_mind.state.Arrays`,
``C`` the parameter vector. Every kernel here is compiled without reference counting and allocates nothing
(the rule kernels ``legal_at``/``apply_at`` call use the scratch rows ``S.work``).
"""

from numba import njit

from meeplelab.sim.core.jit import plain

from .actions import (CARD0, CH_CITE, CH_COLOUR_RING, CH_COLUMN, CH_PLACE_ROW, CH_PUBLISH, MODE0, N_CARD, N_CH, NB_COLS,
                      NB_ROWS, PLACE0)
from .codes import (D_GATHER, D_MODE, D_PLAYN, D_RESPLAY, D_TURN, K_PERFORM, L_HAND,
                    L_INPLAY, MT_PLAY, Q_ANY)
from .cols import (BRIGHT, CARD_LOC, CARD_OWN, COFFEE, COL_DONE, CURED, DIAL_C, DIAL_W, HEARTS, IDEAS_HAND, NB, REP, RND,
                   ROOM_CLIENT, ROOM_LATENT, ROOM_MANIFEST, ROOM_THER, ROW_DONE, SP, SPACE_OWNER, STK_A, STK_B, STK_KIND,
                   TR_CARDS, TR_N, TR_OWNER, TRDISP, TURN, VP)
from .content_layout import KBOARD, KCARD, KDREAM, KTR
from .kcols import CARD_COL, DR_CL, DR_CQ, SPACE_MT, TR_COLS, TR_LEN
from .pcols import PRM_TREATISE_DISPLAY

#: feature names, in the order of the feature vector
FEATURES = ("hand_cards", "inplay_cards", "ideas_on_table", "coffee", "colour_insights", "others_citable", "round")
F_HAND, F_INPLAY, F_IDEAS_ON_TABLE, F_COFFEE, F_COLOUR, F_OTHERS_CITABLE, F_ROUND = range(len(FEATURES))

#: action score names, in id order (``action_scores``)
SCORES = ("row_fill", "col_fill", "ring_colour", "cite_match", "no_cite")
S_ROW_FILL, S_COL_FILL, S_RING_COLOUR, S_CITE_MATCH, S_NO_CITE = range(len(SCORES))

#: Ideas (normal + Bright) each D_MODE choice places (actions.MODE_NORMAL + MODE_BRIGHT)
_MODE_IDEAS = (1, 1, 2, 2, 2)


@njit(cache=True, _nrt=False)
def pending(S, g):
    """The decision kind on top of game ``g``'s decision stack (``codes.D_*``; -1 when the stack is empty)."""
    sp = S.game[g, SP]
    if sp == 0:
        return -1
    return S.stk[g, sp - 1, STK_KIND]


@plain
def cards_at(S, g, p, loc):
    """Research cards seat ``p`` holds at ``loc`` (``codes.L_HAND``, ``L_INPLAY``)."""
    n = 0
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == loc and S.card[g, c, CARD_OWN] == p:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def colour_insights(S, g, p):
    """Player-colour Insights on seat ``p``'s dial (reserve and rings)."""
    n = 0
    for i in range(10):
        n += S.seat[g, p, DIAL_C + i]
    return n


@njit(cache=True, _nrt=False)
def features(S, C, prm, g, p, out):
    """Fill ``out`` (``int64[len(FEATURES)]``) for seat ``p`` deciding in game ``g``: Research cards in hand
    and in play, idea spaces holding its Ideas, Coffee, player-colour Insights on the dial, 1 when another
    seat has a published Treatise with Volumes left to cite (else 0), and the round."""
    out[F_HAND] = cards_at(S, g, p, L_HAND)
    out[F_INPLAY] = cards_at(S, g, p, L_INPLAY)
    n = 0
    for s in range(S.space.shape[1]):
        if S.space[g, s, SPACE_OWNER] == p:
            n += 1
    out[F_IDEAS_ON_TABLE] = n
    out[F_COFFEE] = S.seat[g, p, COFFEE]
    out[F_COLOUR] = colour_insights(S, g, p)
    out[F_OTHERS_CITABLE] = 0
    for t in range(S.treatise.shape[1]):
        own = S.treatise[g, t, TR_OWNER]
        if own >= 0 and own != p and S.treatise[g, t, TR_N] > 0:
            out[F_OTHERS_CITABLE] = 1
            break
    out[F_ROUND] = S.game[g, RND]


@njit(cache=True, _nrt=False)
def _ring_colour(S, C, g, p, out):
    """``ring_colour``: D_COLOUR's ring positions ``CH_COLOUR_RING+i`` (i = quality*3 + level): 13 - level for a ring
    Insight that no client's next dream needs (removing it leaves every room's next dream payable), 3 - level
    for one that is the only Insight paying some client's next dream, so the highest score is "not needed,
    then lowest level" (meeplelab.strategies.unconscious_mind.colour_from_ring)."""
    for i in range(9):
        q, lvl = i // 3, i % 3
        needed = False
        for room in range(2):
            d = S.seat[g, p, ROOM_MANIFEST + room]
            if d < 0:
                d = S.seat[g, p, ROOM_LATENT + room]
            if S.seat[g, p, ROOM_CLIENT + room] < 0 or d < 0:
                continue
            cq, cl = C.K[KDREAM, d, DR_CQ], C.K[KDREAM, d, DR_CL]
            if not ((cq == Q_ANY or q == cq) and lvl >= cl):
                continue
            paying = 0  # Insights on the rings that pay this dream
            for j in range(9):
                if (cq == Q_ANY or j // 3 == cq) and j % 3 >= cl:
                    paying += S.seat[g, p, DIAL_W + 1 + j] + S.seat[g, p, DIAL_C + 1 + j]
            if paying == 1:
                needed = True
        out[CH_COLOUR_RING + i] = (3 if needed else 13) - lvl


@njit(cache=True, _nrt=False)
def _cite_match(S, C, prm, g, p, out):
    """``cite_match``: 1 at D_RESPLAY's ``CH_PUBLISH+j`` when displayed Treatise j needs (beyond its quill) a colour
    that the top Volume of another seat's published Treatise supplies now (it can be cited)."""
    for j in range(prm[PRM_TREATISE_DISPLAY]):
        t = S.pile[g, TRDISP, j]
        if t < 0:
            continue
        hit = False
        for u in range(S.treatise.shape[1]):
            own, n = S.treatise[g, u, TR_OWNER], S.treatise[g, u, TR_N]
            if own < 0 or own == p or n <= 0:
                continue
            col = C.K[KCARD, S.treatise[g, u, TR_CARDS + n - 1], CARD_COL]
            for v in range(1, C.K[KTR, t, TR_LEN]):
                if C.K[KTR, t, TR_COLS + v] == col:
                    hit = True
                    break
            if hit:
                break
        out[CH_PUBLISH + j] = 1 if hit else 0


@njit(cache=True, _nrt=False)
def own_publishable(S, C, prm, g, p, j):
    """True when displayed Treatise j (D_RESPLAY's ``CH_PUBLISH+j``) can be published from seat ``p``'s own in-play
    Research cards alone, no citation: a colour Insight held and every Volume colour (the quill included)
    covered (meeplelab.strategies.unconscious_mind.own_publishable)."""
    t = S.pile[g, TRDISP, j]
    if t < 0 or colour_insights(S, g, p) == 0:
        return False
    for colour in range(4):
        need = 0
        for v in range(C.K[KTR, t, TR_LEN]):
            if C.K[KTR, t, TR_COLS + v] == colour:
                need += 1
        if need == 0:
            continue
        have = 0
        for c in range(S.card.shape[1]):
            if (S.card[g, c, CARD_LOC] == L_INPLAY and S.card[g, c, CARD_OWN] == p
                    and C.K[KCARD, c, CARD_COL] == colour):
                have += 1
        if have < need:
            return False
    return True


@njit(cache=True, _nrt=False)
def _no_cite(S, C, prm, g, p, out):
    """``no_cite``: 1 for every action that neither cites nor commits the seat to citing, 0 for the others
    (meeplelab.strategies.unconscious_mind.no_cite_mask: the citations of D_GATHER; publishing a Treatise own cards
    cannot fill; a Play space when neither a hand card nor an own-publishable Treatise makes the Play
    possible; more Play performances than hand cards; a hand card each pending Play performance needs)."""
    out[:] = 1
    sp = S.game[g, SP]
    k, b = S.stk[g, sp - 1, STK_KIND], S.stk[g, sp - 1, STK_B]
    if k == D_GATHER:
        for i in range(N_CH):
            out[CH_CITE + i] = 0
    elif k == D_RESPLAY and b == 0:
        for j in range(prm[PRM_TREATISE_DISPLAY]):
            if not own_publishable(S, C, prm, g, p, j):
                out[CH_PUBLISH + j] = 0
    elif k == D_TURN:
        if cards_at(S, g, p, L_HAND) == 0:
            for j in range(prm[PRM_TREATISE_DISPLAY]):
                if own_publishable(S, C, prm, g, p, j):
                    return
            for s in range(S.space.shape[1]):
                for d in range(4):
                    if C.K[KBOARD, s, SPACE_MT + d] == MT_PLAY:
                        out[PLACE0 + s * 4 + d] = 0
    elif k == D_MODE and b == MT_PLAY:
        hand = max(cards_at(S, g, p, L_HAND), 1)
        for m in range(5):
            if _MODE_IDEAS[m] > hand:
                out[MODE0 + m] = 0
    if (k == D_RESPLAY and b > 0) or k == D_PLAYN:
        hand = cards_at(S, g, p, L_HAND)
        plays = 0  # Play-space performances still waiting under the top of the stack
        for i in range(sp - 1):
            if S.stk[g, i, STK_KIND] == K_PERFORM and S.stk[g, i, STK_A] == MT_PLAY:
                plays += 1
        if hand > 0 and plays >= hand:
            for c in range(N_CARD):
                out[CARD0 + c] = 0


@njit(cache=True, _nrt=False)
def action_scores(S, C, prm, g, p, score_id, out):
    """Fill ``out`` (``int64[A]``) with action score ``score_id`` (:data:`SCORES`) of seat ``p`` deciding in
    game ``g``; actions a score does not rank get 0.

    - ``row_fill`` (D_PLACE ``CH_PLACE_ROW+r``): tiles in Notebook row r; ``col_fill`` (D_COLUMN ``CH_COLUMN+c``): tiles in
      column c;
    - ``ring_colour`` (D_COLOUR ``CH_COLOUR_RING+i``): see :func:`_ring_colour`;
    - ``cite_match`` (D_RESPLAY ``CH_PUBLISH+j``): see :func:`_cite_match`;
    - ``no_cite``: see :func:`_no_cite` (a plan restriction)."""
    if score_id == S_NO_CITE:
        _no_cite(S, C, prm, g, p, out)
        return
    out[:] = 0
    if score_id == S_ROW_FILL or score_id == S_COL_FILL:
        for r in range(NB_ROWS):
            for c in range(NB_COLS):
                if S.seat[g, p, NB + r * NB_COLS + c] >= 0:
                    out[(CH_PLACE_ROW + r) if score_id == S_ROW_FILL else (CH_COLUMN + c)] += 1
    elif score_id == S_RING_COLOUR:
        _ring_colour(S, C, g, p, out)
    elif score_id == S_CITE_MATCH:
        _cite_match(S, C, prm, g, p, out)




#: the features the heuristic weighs, in the order of :func:`value_features` (the keys of
#: :meth:`meeplelab.sim.unconscious_mind.engine.UnconsciousMind.features`, same values:
#: ``tests/unconscious_mind/test_compiled_heuristic.py``)
VALUE_FEATURES = ("vp", "coffee", "bright", "insight", "colour", "cured", "tiles", "rows", "cols", "inplay", "hand",
                  "rep", "hearts", "treatises", "ideas", "clients", "therapy")


@njit(cache=True, _nrt=False)
def turn_of(S, g):
    """Turns started in game ``g`` (the first value of :meth:`UnconsciousMind.progress`): a seat's turn has
    ended when it changes."""
    return S.game[g, TURN]


@njit(cache=True, _nrt=False)
def value_features(S, C, prm, g, p, out):
    """Fill ``out`` (``float64[len(VALUE_FEATURES)]``) with seat ``p``'s valued features in game ``g``, exactly as
    :meth:`UnconsciousMind.features` computes them (all integer counts, so the float sums are exact): VP, Coffee,
    Bright Ideas, Insights on the dial rings weighted by level (minor 1, median 2, major 3; white and
    player-colour), player-colour Insights on the rings, cured clients, Notebook tiles placed, completed rows and
    columns, Research cards in play and in hand, reputation, heart boxes, Treatises published, Ideas in hand,
    clients in the office rooms and their therapy progress."""
    insight = 0
    colour = 0
    for i in range(9):
        w, c = S.seat[g, p, DIAL_W + 1 + i], S.seat[g, p, DIAL_C + 1 + i]
        insight += (w + c) * (1 + i % 3)
        colour += c
    tiles = 0
    for k in range(9):
        if S.seat[g, p, NB + k] >= 0:
            tiles += 1
    rows = 0
    cols = 0
    for k in range(3):
        rows += S.seat[g, p, ROW_DONE + k]
        cols += S.seat[g, p, COL_DONE + k]
    treatises = 0
    for t in range(S.treatise.shape[1]):
        if S.treatise[g, t, TR_OWNER] == p:
            treatises += 1
    inplay = 0
    hand = 0
    for c in range(S.card.shape[1]):  # cards_at(L_INPLAY) and cards_at(L_HAND) in one pass
        if S.card[g, c, CARD_OWN] == p:
            loc = S.card[g, c, CARD_LOC]
            if loc == L_INPLAY:
                inplay += 1
            elif loc == L_HAND:
                hand += 1
    clients = 0
    therapy = 0
    for room in range(2):
        if S.seat[g, p, ROOM_CLIENT + room] >= 0:
            clients += 1
            therapy += S.seat[g, p, ROOM_THER + room]
    out[0] = S.seat[g, p, VP]
    out[1] = S.seat[g, p, COFFEE]
    out[2] = S.seat[g, p, BRIGHT]
    out[3] = insight
    out[4] = colour
    out[5] = S.seat[g, p, CURED]
    out[6] = tiles
    out[7] = rows
    out[8] = cols
    out[9] = inplay
    out[10] = hand
    out[11] = S.seat[g, p, REP]
    out[12] = S.seat[g, p, HEARTS]
    out[13] = treatises
    out[14] = S.seat[g, p, IDEAS_HAND]
    out[15] = clients
    out[16] = therapy
