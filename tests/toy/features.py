"""What compiled play reads of a toy game: the pending decision, and the
named features a plan's conditions read (strategies/plans.py)."""

from numba import njit

from .cols import DECISION, DRAWS, POT, ROUND, TOP, VP

#: feature names, in the order of the feature vector
FEATURES = ("pot", "draws", "round", "vp", "cards_left")
F_POT, F_DRAWS, F_ROUND, F_VP, F_CARDS_LEFT = range(len(FEATURES))


@njit(cache=True, _nrt=False)
def features(S, prm, g, p, out):
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

