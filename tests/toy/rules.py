"""Rule kernels of the toy game: each decision's legality and application side by side.

Every handler works on one game ``g`` of the batch: ``S`` is the namedtuple of arrays
(:data:`tests.toy.engine.ToyArrays`: the state groups ``game``/``seat``/``pile`` and the core log
buffers), ``C`` the content (``ToyContent``), ``prm`` the ``int64`` parameter vector indexed by the ``PRM_*``
constants of ``tests/toy/pcols.py`` (the kernel context, sim/core/context.py).
Columns are named by the constants of ``tests/toy/cols.py``: ``S.game[g, POT]``, ``S.seat[g, p, VP]``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.logs import begin_event_row, begin_turn_row

from .cols import DECISION, DECK, DRAWS, OVER, POT, ROUND, TO_ACT, TOP, TURN, VP
from .logcols import EV_AMOUNT, TURN_DRAWS, TURN_ENDED_BY, TURN_VP_AFTER
from .pcols import PRM_MAX_DRAWS, PRM_ROUNDS

#: actions
DRAW, STOP = 0, 1
#: event kinds (ToyGame.event_kinds)
EV_DRAW, EV_BUST, EV_BANK = 0, 1, 2


@njit(cache=True)
def event(S, g, kind, amount):
    """Append an event row of the seat to act: ``kind`` (EV_*) and its ``amount`` (VP)."""
    r = begin_event_row(S.event_buf, S.event_n, g, S.ply[g], S.game[g, TURN], S.game[g, TO_ACT], kind)
    S.event_buf[g, r, EV_AMOUNT] = amount


@njit(cache=True)
def end_turn(S, C, prm, g, ended_by):
    """Log the turn, pass to the next seat, start a new round after the last seat; the game ends after
    ``rounds`` rounds or when the deck is out (A-TOY-04)."""
    s = S.game[g, TO_ACT]
    r = begin_turn_row(S.turn_buf, S.turn_n, g, S.ply[g] + 1, S.game[g, TURN], S.game[g, ROUND], s)
    S.turn_buf[g, r, TURN_ENDED_BY] = ended_by
    S.turn_buf[g, r, TURN_DRAWS] = S.game[g, DRAWS]
    S.turn_buf[g, r, TURN_VP_AFTER] = S.seat[g, s, VP]
    S.game[g, POT] = 0
    S.game[g, DRAWS] = 0
    S.game[g, TURN] += 1
    S.game[g, TO_ACT] = (s + 1) % S.seat.shape[1]
    if S.game[g, TO_ACT] == 0:
        S.game[g, ROUND] += 1
    if (S.game[g, TO_ACT] == 0 and S.game[g, ROUND] > prm[PRM_ROUNDS]) or S.game[g, TOP] >= S.pile.shape[2]:
        S.game[g, OVER] = 1
        S.game[g, DECISION] = 0


@njit(cache=True)
def legal_turn(S, C, prm, g, out):
    """The seat may always stop; it may draw while it has drawn fewer than ``max_draws`` cards this turn
    (A-TOY-03) and the deck is not out. ``out``: ``bool[num_actions]`` of this game, all False on entry."""
    out[STOP] = True
    if S.game[g, DRAWS] < prm[PRM_MAX_DRAWS] and S.game[g, TOP] < S.pile.shape[2]:
        out[DRAW] = True


@njit(cache=True)
def apply_turn(S, C, prm, g, a):
    """Draw the top card into the pot (a 0 busts: the pot is lost and the turn ends), or stop and bank
    the pot as VP (A-TOY-02, A-TOY-03)."""
    s = S.game[g, TO_ACT]
    if a == DRAW:
        c = S.pile[g, DECK, S.game[g, TOP]]
        S.game[g, TOP] += 1
        S.game[g, DRAWS] += 1
        event(S, g, EV_DRAW, c)
        if c == 0:
            event(S, g, EV_BUST, S.game[g, POT])
            S.game[g, POT] = 0
            end_turn(S, C, prm, g, a)
        else:
            S.game[g, POT] += c
    else:
        S.seat[g, s, VP] += S.game[g, POT]
        event(S, g, EV_BANK, S.game[g, POT])
        end_turn(S, C, prm, g, a)
