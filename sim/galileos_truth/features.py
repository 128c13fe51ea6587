"""What compiled play reads of and does to a Galileo's Truth game (docs/compiled_play.md): the pending decision
(its phase), the named features a plan's conditions read (strategies/plans.py), the action scores (none), the
legal action mask and application of one decision (the decision routers), and what the compiled heuristic
(``<pkg>/lookahead.py``) reads: the turn counter and the valued features of :meth:`GalileosTruth.features`."""

from numba import njit

from .cols import (BESIDE, BOOKS, COINS, COPER, CYCLE, END_LOSS, INV_OWNER, LEVEL, MENTOR, PHASE, PHIL, RESEARCH,
                   SLOT_CTYPE, SUSP, TSEAL, TURN, VP, WINDOW)
from .content import CK_BASIC, CK_PYRAMID, N_SUBJECTS, NB, SEAL_SPACES, WCOLS, WROWS
from .state import N_BANDS, PH_STAKE
from .pcols import (PRM_ABJURE_SUSPICION_DROP, PRM_PENANCE_THRESHOLD, PRM_PERIOD3_FIRST_CYCLE, PRM_PRISON_AT,
                    PRM_SEAL_BESIDE_VP, PRM_STAKE_AT, PRM_STAKE_VP, PRM_SUSPICION_BAND_STARTS, PRM_SUSPICION_BAND_VP,
                    PRM_TRUTH_VP_FLAT, PRM_TRUTH_VP_PER_TILE)

#: action score names (none: Galileo's Truth plans prefer constant action sets)
SCORES = ()
#: feature names, in the order of the feature vector: the deciding seat's state, then rule numbers of the
#: game's parameters (``Params`` fields of the same names), which a condition compares a feature with
#: (``When("suspicion", ">=", -1, ref="prison_at")``)
FEATURES = ("cycle", "suspicion", "research", "books_total", "coins", "level", "vp",
            "prison_at", "stake_at", "penance_threshold", "abjure_suspicion_drop", "period3_first_cycle")
(F_CYCLE, F_SUSPICION, F_RESEARCH, F_BOOKS_TOTAL, F_COINS, F_LEVEL, F_VP,
 F_PRISON_AT, F_STAKE_AT, F_PENANCE_THRESHOLD, F_ABJURE_DROP, F_PERIOD3) = range(len(FEATURES))


@njit(cache=True, _nrt=False)
def features(S, C, prm, g, p, out):
    """Fill ``out`` (``int64[len(FEATURES)]``) for seat ``p`` deciding in game ``g``: the Cycle, the seat's
    Suspicion, Research tokens, Books on all Subject tracks, Coins, Academic Level and VP; then the rule numbers
    ``prison_at``, ``stake_at``, ``penance_threshold``, ``abjure_suspicion_drop`` and ``period3_first_cycle``
    (the first Cycle without Abjure) from the parameter vector ``prm``."""
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
    out[F_PRISON_AT] = prm[PRM_PRISON_AT]
    out[F_STAKE_AT] = prm[PRM_STAKE_AT]
    out[F_PENANCE_THRESHOLD] = prm[PRM_PENANCE_THRESHOLD]
    out[F_ABJURE_DROP] = prm[PRM_ABJURE_SUSPICION_DROP]
    out[F_PERIOD3] = prm[PRM_PERIOD3_FIRST_CYCLE]


@njit(cache=True, _nrt=False)
def pending(S, g):
    """The phase (``P_*``) game ``g`` waits for."""
    return S.game[g, PHASE]


@njit(cache=True, _nrt=False)
def action_scores(S, C, prm, g, p, score_id, out):
    """Fill ``out`` (``int64[A]``) with action score ``score_id``: Galileo's Truth names none (zeros)."""
    out[:] = 0




#: the features the heuristic weighs, in the order of :func:`value_features` (the keys of
#: :meth:`meeplelab.sim.galileos_truth.engine.GalileosTruth.features`, same values: ``tests/test_compiled_heuristic.py``)
VALUE_FEATURES = ("vp", "end_vp", "coins", "research", "books", "suspicion", "level", "seals_left", "cards",
                  "treatises", "tiles", "inventions", "copernican")


@njit(cache=True, _nrt=False)
def turn_of(S, g):
    """Turns played in game ``g`` (the first value of :meth:`GalileosTruth.progress`): a seat's turn has ended
    when it changes."""
    return S.game[g, TURN]


@njit(cache=True, _nrt=False)
def value_features(S, C, prm, g, p, out):
    """Fill ``out`` (``float64[len(VALUE_FEATURES)]``) with seat ``p``'s valued features in game ``g``, exactly as
    :meth:`GalileosTruth.features` computes them: VP; end-game VP in sight (Copernican Truth bonus, Suspicion
    band (A-GT-21) or the Stake, red end-game VP, seals beside the board); Coins; Research; Books (all Subjects);
    Suspicion; Academic Level; Wax Seals left on the Mentors; Treatise cards owned; Treatise seals on the
    pyramid; Observation tiles; Inventions owned; 1 when Copernican."""
    tiles = 0
    for c in range(WROWS * WCOLS):
        if S.seat[g, p, WINDOW + c] >= 0:
            tiles += 1
    susp = S.seat[g, p, SUSP]
    band = 0
    for k in range(N_BANDS):
        if susp >= prm[PRM_SUSPICION_BAND_STARTS + k]:
            band = k
    band_vp = prm[PRM_SUSPICION_BAND_VP + band]
    if S.seat[g, p, PHIL] == PH_STAKE:
        band_vp = prm[PRM_STAKE_VP]
    truth = 0
    if S.seat[g, p, COPER] != 0:
        truth = prm[PRM_TRUTH_VP_FLAT] + prm[PRM_TRUTH_VP_PER_TILE] * tiles
    books = 0
    for k in range(N_SUBJECTS):
        books += S.seat[g, p, BOOKS + k]
    seals_left = 0
    for m in range(S.mentors.shape[2]):
        seals_left += S.mentors[g, p, m, MENTOR]
    cards = 0
    for s in range(S.slot.shape[2]):
        t = S.slot[g, p, s, SLOT_CTYPE]
        if t >= 0 and (C.CARD_KIND[t] == CK_BASIC or C.CARD_KIND[t] == CK_PYRAMID):
            cards += 1
    treatises = 0
    for i in range(NB * SEAL_SPACES):
        if S.game[g, TSEAL + i] == p:
            treatises += 1
    inventions = 0
    for i in range(S.inv.shape[1]):
        if S.inv[g, i, INV_OWNER] == p:
            inventions += 1
    out[0] = S.seat[g, p, VP]
    out[1] = truth + band_vp - S.seat[g, p, END_LOSS] + S.seat[g, p, BESIDE] * prm[PRM_SEAL_BESIDE_VP]
    out[2] = S.seat[g, p, COINS]
    out[3] = S.seat[g, p, RESEARCH]
    out[4] = books
    out[5] = susp
    out[6] = S.seat[g, p, LEVEL]
    out[7] = seals_left
    out[8] = cards
    out[9] = treatises
    out[10] = tiles
    out[11] = inventions
    out[12] = S.seat[g, p, COPER]
