"""Restricted play in the engine framework: the legal action mask of a restricted seat, narrowed (docs/strategies.md,
"Restricted play").

A restricted agent (Jaffe et al., "Evaluating Competitive Game Balance with Restricted Play", AIIDE 2012) is an agent
whose legal action mask is narrowed before it chooses: ``never:X`` takes the actions ``X`` out whenever another legal
action remains, ``force:X@cond`` leaves only ``X`` whenever one of them is legal and the condition holds. The
strategies floor parses the restriction and builds its table (:mod:`meeplelab.strategies.restricted`); the engines'
written choice modules apply it (``<pkg>/choice.py`` ``restricted_mask``, from ``sim/core/data/choice_module.py.tmpl``)
inside the play kernel and, for seats decided in Python, through ``<pkg>/play.py`` ``restrict_batch``. Nothing here
draws a random number, so a restriction never changes which draws a game's decisions read.

The restriction table, per seat ``p``, is the rows ``rseat[p]:rseat[p + 1]`` of ``rrows`` (``int64[N, RR_WIDTH]``),
applied in order, each at the decision kinds it names:

- ``RR_MODE``: :data:`NEVER` or :data:`FORCE`;
- ``RR_KIND``: the decision kind code it applies at, or ``ANY_KIND`` (-1);
- ``RR_SET``: the row of ``rsets`` (``bool[S, A]``) holding the actions it names;
- ``RR_SCORE``: -1, or an engine action score (``SCORES`` of the engine's features module) whose positive actions
  neither take the actions nor commit the seat to taking them later (Unconscious Mind's ``no_cite``: a ``never``
  first keeps only those, then only the actions outside the set, then the mask as it was);
- ``RR_FEAT``, ``RR_OP``, ``RR_VAL``: the condition ``features[RR_FEAT] op RR_VAL`` on the deciding seat's feature
  vector (the engine's ``FEATURES``; ``RR_FEAT`` -1: no condition), ``op`` a code of
  :data:`meeplelab.strategies.plans.OPS`.

Games name the condition fields a restriction may read (:class:`SeatField`, ``GameSpec.seat_fields``) and the
scores of ``never`` (``GameSpec.never_scores``).
"""

from __future__ import annotations

from dataclasses import dataclass

from numba import njit

from .jit import plain

#: columns of a restriction row
RR_MODE, RR_KIND, RR_SET, RR_SCORE, RR_FEAT, RR_OP, RR_VAL = range(7)
RR_WIDTH = 7
#: the modes of a restriction row
NEVER, FORCE = 0, 1


@dataclass(frozen=True)
class SeatField:
    """A field of the deciding seat's own visible state that a restriction's condition may read
    (``force:abjure@suspicion>=6``).

    Attributes:
        name: the name written in the condition (``suspicion``).
        feature: the engine feature holding it (a name of ``FEATURES`` in the engine's features module).
        doc: one phrase saying what it is.
        lo, hi: the least and greatest value it can take under any rule numbers the parameters allow (None: no
            bound); a condition no value in ``lo..hi`` meets is refused as one that can never be met.
    """

    name: str
    feature: str
    doc: str
    lo: int | None = None
    hi: int | None = None

    def can_hold(self, op: str, v: int) -> bool:
        """True when some value of this field in ``lo..hi`` meets ``value op v`` (``op`` one of ``>= <= == != > <``)."""
        lo = -(1 << 62) if self.lo is None else self.lo
        hi = (1 << 62) if self.hi is None else self.hi
        return {">=": hi >= v, "<=": lo <= v, "==": lo <= v <= hi, "!=": not (lo == hi == v),
                ">": hi > v, "<": lo < v}[op]


@plain
def _keep_outside(row, scored, sc, mask):
    """Keep only the legal actions outside ``row`` (with ``scored``: and with a positive ``sc``) when there is one;
    True when ``mask`` was narrowed so, False (``mask`` unchanged) when none is left."""
    n = 0
    for a in range(mask.shape[0]):
        if mask[a] and not row[a] and (not scored or sc[a] > 0):
            n += 1
    if n == 0:
        return False
    for a in range(mask.shape[0]):
        if row[a] or (scored and sc[a] <= 0):
            mask[a] = False
    return True


@njit(cache=True, _nrt=False)
def narrow(mode, row, use_score, sc, mask):
    """Apply one restriction row to ``mask`` (``bool[A]``, changed in place): ``row`` (``bool[A]``) holds the actions
    it names. :data:`FORCE`: keep only the legal actions of ``row`` when there is one. :data:`NEVER`: keep the legal
    actions outside ``row`` that also have a positive ``sc`` (``int64[A]``, only with ``use_score``) when there is
    one; else the legal actions outside ``row`` when there is one; else ``mask`` stays (the forbidden action is the
    only legal one and is taken)."""
    if mode == FORCE:
        n = 0
        for a in range(mask.shape[0]):
            if mask[a] and row[a]:
                n += 1
        if n > 0:
            for a in range(mask.shape[0]):
                if not row[a]:
                    mask[a] = False
        return
    if use_score and _keep_outside(row, True, sc, mask):
        return
    _keep_outside(row, False, sc, mask)
