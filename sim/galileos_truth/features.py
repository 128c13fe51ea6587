"""What compiled play reads of a Galileo's Truth game (docs/compiled_play.md): the pending decision (its phase),
and the named features a plan's conditions read
(strategies/plans.py)."""

from numba import njit

from .cols import BOOKS, COINS, CYCLE, LEVEL, PHASE, RESEARCH, SUSP, VP
from .content import N_SUBJECTS

#: feature names, in the order of the feature vector
FEATURES = ("cycle", "suspicion", "research", "books_total", "coins", "level", "vp")
F_CYCLE, F_SUSPICION, F_RESEARCH, F_BOOKS_TOTAL, F_COINS, F_LEVEL, F_VP = range(len(FEATURES))


@njit(cache=True, _nrt=False)
def features(S, C, PR, g, p, out):
    """Fill ``out`` (``int64[len(FEATURES)]``) for seat ``p`` deciding in game ``g``: the Cycle, the seat's
    Suspicion, Research tokens, Books on all Subject tracks, Coins, Academic Level and VP."""
    out[F_CYCLE] = S.game[g, CYCLE]
    out[F_SUSPICION] = S.seat[g, p, SUSP]
    out[F_RESEARCH] = S.seat[g, p, RESEARCH]
    b = 0
    for k in range(N_SUBJECTS):
        b += S.seat[g, p, BOOKS + k]
    out[F_BOOKS_TOTAL] = b
    out[F_COINS] = S.seat[g, p, COINS]
    out[F_LEVEL] = S.seat[g, p, LEVEL]
    out[F_VP] = S.seat[g, p, VP]


@njit(cache=True, _nrt=False)
def pending(S, g):
    """The phase (``P_*``) game ``g`` waits for."""
    return S.game[g, PHASE]

