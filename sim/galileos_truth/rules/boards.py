"""Treatise boards of the pyramid: seals, Research costs, what Write, Copy and Read allow (seed 001 §Write a
Treatise, §Copy a Treatise, §Read a Treatise; A-GT-09, A-GT-10)."""

from __future__ import annotations

from ..cols import BOOKS, COINS, CUR_CARD, PHASE, RESEARCH, SLOT_CZONE, SLOT_KNOWN, TSEAL, TSEAL_W
from ..content import N_SUBJECTS, SEAL_SPACES
from meeplelab.sim.core.jit import rule
from ..state import P_PLACE, TR_READ, Z_HAND
from ..pcols import PRM_WRITE_RESEARCH_BOTTOM
from .academy import seals_left
from .cards import new_card
from .icons import iset_ok, trig_gain


@rule
def write_research(S, C, prm, g, p, b):
    """Research seat ``p`` pays to Write on board ``b``: write_research_bottom on the bottom row, else the two
    costs of the boards below, each skipped with the seat's seal on that board (seed 001 §Write a Treatise;
    A-GT-10)."""
    if C.BOARD_ROW[b] == 0:
        return prm[PRM_WRITE_RESEARCH_BOTTOM]
    r = 0
    for side in range(C.BOARD_BELOW.shape[1]):  # the two boards below
        below = C.BOARD_BELOW[b, side]
        mine = False
        for i in range(SEAL_SPACES):
            if S.game[g, TSEAL + below * TSEAL_W + i] == p:
                mine = True
        if not mine:
            r += C.BOARD_RES[b, side]
    return r


@rule
def board_has_seal_of(S, g, b, p):
    """Seat ``p`` has a seal on Treatise board ``b``."""
    for i in range(SEAL_SPACES):
        if S.game[g, TSEAL + b * TSEAL_W + i] == p:
            return True
    return False


@rule
def board_free_space(S, g, b, leftmost):
    """The leftmost (Write) or rightmost (Copy) free seal space of board ``b``, -1 none (A-GT-09)."""
    n = SEAL_SPACES
    for k in range(n):
        i = k if leftmost else n - 1 - k
        if S.game[g, TSEAL + b * TSEAL_W + i] == -1:
            return i
    return -1


@rule
def board_leftmost_owner(S, g, b):
    """Seat of the leftmost seal of board ``b`` (its author: Copy and Read pay them), -1 none (seed 001 §Copy a
    Treatise)."""
    for i in range(SEAL_SPACES):
        if S.game[g, TSEAL + b * TSEAL_W + i] >= 0:
            return S.game[g, TSEAL + b * TSEAL_W + i]
    return -1


@rule
def write_ok(S, C, prm, g, p, b):
    """Seat ``p`` may Write board ``b``: no seal of its own there, a free space, a seal left, the Books and the
    Research (seed 001 §Write a Treatise)."""
    if board_has_seal_of(S, g, b, p) or board_free_space(S, g, b, True) < 0 or seals_left(S, g, p) == 0:
        return False
    for s in range(N_SUBJECTS):
        if S.seat[g, p, BOOKS + s] < C.BOARD_BOOKS[b, s]:
            return False
    return S.seat[g, p, RESEARCH] >= write_research(S, C, prm, g, p, b)


@rule
def copy_ok(S, C, g, p, b, lvl, coins):
    """Seat ``p`` may Copy board ``b`` with an icon of Level ``lvl`` costing ``coins``: the board within the
    Level, written by another, a free space, a seal left, the Coins (seed 001 §Copy a Treatise)."""
    if C.BOARD_ROW[b] + 1 > lvl or board_has_seal_of(S, g, b, p) or board_free_space(S, g, b, False) < 0:
        return False
    if board_leftmost_owner(S, g, b) < 0 or seals_left(S, g, p) == 0:
        return False
    return S.seat[g, p, COINS] >= coins


@rule
def read_ok(S, C, prm, g, p, b, lvl, coins):
    """Read: Level cap, any seal, the Coins, and the page's payments as if it were played (seed Read 2)
    after the Coins and what Ongoing Inventions give on a Read."""
    if C.BOARD_ROW[b] + 1 > lvl or board_leftmost_owner(S, g, b) < 0:
        return False
    if S.seat[g, p, COINS] < coins:
        return False
    iset = C.CARD_ISET[C.BOARD_CARD[b]]
    return (not C.ISET_PAY[iset]) or iset_ok(S, C, prm, g, p, iset, -1, 0,
                                             trig_gain(S, C, g, p, TR_READ, False) - coins,
                                             trig_gain(S, C, g, p, TR_READ, True), TR_READ)


@rule
def take_card(S, C, prm, g, p, t, kind, b, before):
    """Write/Copy: a new card of type ``t``; the player then places it (deck top or hand)."""
    c = new_card(S, g, p, t)
    S.slot[g, p, c, SLOT_CZONE] = Z_HAND     # held while the player decides where it goes
    S.slot[g, p, c, SLOT_KNOWN] = True       # everyone saw it taken (search copies keep it where it goes)
    S.game[g, CUR_CARD] = c
    S.game[g, PHASE] = P_PLACE
