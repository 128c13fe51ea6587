"""What compiled play reads of and does to a Galileo's Truth game (docs/compiled_play.md): the pending decision
(its phase), the named features a plan's conditions read (strategies/plans.py), the action scores (none), and
the legal action mask and application of one decision (the decision routers)."""

from numba import njit

from .rules import dispatch

from .cols import BOOKS, COINS, CYCLE, LEVEL, PHASE, RESEARCH, SUSP, VP
from .content import N_SUBJECTS

#: action score names (none: Galileo's Truth plans prefer constant action sets)
SCORES = ()
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



@njit(cache=True, _nrt=False)
def action_scores(S, C, PR, g, p, score_id, out):
    """Fill ``out`` (``int64[A]``) with action score ``score_id``: Galileo's Truth names none (zeros)."""
    out[:] = 0


@njit(cache=True, _nrt=False)
def legal_at(kind, S, C, PR, g, out):
    """The legal action mask (``bool[A]``, overwritten) of game ``g`` waiting for phase ``kind``."""
    out[:] = False
    dispatch.legal(kind, S, C, PR, g, out)


@njit(cache=True, _nrt=False)
def apply_at(kind, S, C, PR, g, a, scratch):
    """Apply action ``a`` to game ``g`` waiting for phase ``kind`` (``scratch`` unused)."""
    dispatch.apply(kind, S, C, PR, g, a)
