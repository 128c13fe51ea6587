"""What compiled play reads of and does to a toy game: the pending decision, the named features a plan's
conditions read and the action scores its rules rank by (strategies/plans.py), and the legal action mask and
application of one decision."""

from numba import njit

from .cols import DECISION, DRAWS, POT, ROUND, TOP, VP
from .rules import DRAW, STOP

#: action score names: ``pot_or_deck`` scores STOP by the pot (VP) and DRAW by the cards left in the deck
SCORES = ("pot_or_deck",)
S_POT_OR_DECK = 0

#: feature names, in the order of the feature vector
FEATURES = ("pot", "draws", "round", "vp", "cards_left")
F_POT, F_DRAWS, F_ROUND, F_VP, F_CARDS_LEFT = range(len(FEATURES))


@njit(cache=True, _nrt=False)
def features(S, C, prm, g, p, out):
    """Fill ``out`` (``int64[len(FEATURES)]``) for seat ``p`` deciding in game ``g``: the pot (VP), cards
    drawn this turn, the round, the seat's banked VP and the cards left in the deck."""
    out[F_POT] = S.game[g, POT]
    out[F_DRAWS] = S.game[g, DRAWS]
    out[F_ROUND] = S.game[g, ROUND]
    out[F_VP] = S.seat[g, p, VP]
    out[F_CARDS_LEFT] = S.pile.shape[2] - S.game[g, TOP]


@njit(cache=True, _nrt=False)
def pending(S, g):
    """The decision kind game ``g`` waits for (0 when over)."""
    return S.game[g, DECISION]



@njit(cache=True, _nrt=False)
def action_scores(S, C, prm, g, p, score_id, out):
    """Fill ``out`` (``int64[2]``) with action score ``score_id`` for seat ``p`` in game ``g``:
    ``pot_or_deck``: STOP the pot (VP), DRAW the cards left in the deck."""
    out[:] = 0
    if score_id == S_POT_OR_DECK:
        out[STOP] = S.game[g, POT]
        out[DRAW] = S.pile.shape[2] - S.game[g, TOP]

