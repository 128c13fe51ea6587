"""Academic Level, Mentors and Wax Seals, Mastery tracks, Graduation (seed 001 §Upgrade your Academic Level;
A-GT-13, A-GT-14, A-GT-19)."""

from __future__ import annotations

from ..cols import (BOOKS, COINS, GRAD, INV_OWNER, LEVEL, LVL_SEAL, LVL_SEAL_W, MASTERY, MENTOR, RESEARCH, TSEAL,
                    TSEAL_W, WINDOW, WINDOW_W)
from ..content import (NB, N_SUBJECTS, REQ_BOOKS, REQ_COINS, REQ_INVENTIONS, REQ_RESEARCH, REQ_TILES, REQ_TREATISES,
                       SEAL_SPACES, WCOLS, WROWS)
from meeplelab.sim.core.jit import rule
from ..state import C_MASTERY, LEVEL_SEAL_SPACES, MAX_LEVEL
from .ledger import add_vp


@rule
def seals_left(S, g, p):
    """Wax Seals seat ``p`` has left on its Mentors (A-GT-14)."""
    t = 0
    for m in range(S.mentors.shape[2]):
        t += S.mentors[g, p, m, MENTOR]
    return t


@rule
def take_seal(S, g, p):
    """Take a Wax Seal from a Mentor (the first with seals left; Mentors are interchangeable, A-GT-14)."""
    for m in range(S.mentors.shape[2]):
        if S.mentors[g, p, m, MENTOR] > 0:
            S.mentors[g, p, m, MENTOR] -= 1
            return True
    return False


@rule
def mastery_seal(S, C, g, p, t):
    """Seal on the leftmost free space of Mastery track ``t`` and score it (nothing if full or no seal)."""
    for i in range(S.track.shape[2]):
        if C.MASTERY_VP[t, i] == -999:
            return
        if S.track[g, t, i, MASTERY] == -1:
            if take_seal(S, g, p):
                S.track[g, t, i, MASTERY] = p
                add_vp(S, g, p, C.MASTERY_VP[t, i], C_MASTERY, t)
            return


@rule
def count_tiles(S, g, p):
    """Observation tiles in seat ``p``'s Window (seed 001 §Observe the Sky)."""
    n = 0
    for r in range(WROWS):
        for c in range(WCOLS):
            if S.seat[g, p, WINDOW + r * WINDOW_W + c] >= 0:
                n += 1
    return n


@rule
def count_treatise_seals(S, g, p):
    """Seat ``p``'s seals on the Treatise boards of the pyramid (A-GT-09)."""
    n = 0
    for b in range(NB):
        for i in range(SEAL_SPACES):
            if S.game[g, TSEAL + b * TSEAL_W + i] == p:
                n += 1
    return n


@rule
def count_inventions(S, g, p):
    """Inventions seat ``p`` owns (seed 001 §Create an Invention)."""
    n = 0
    for i in range(S.inv.shape[1]):
        if S.inv[g, i, INV_OWNER] == p:
            n += 1
    return n


@rule
def grad_ok(S, C, g, p, tile):
    """Seat ``p`` meets the requirements of Graduation tile ``tile`` (seals on Treatises, tiles, Inventions,
    Books, Research, Coins: content REQS order; A-GT-13)."""
    r = C.GRAD_REQ[tile]
    books = 0
    for s in range(N_SUBJECTS):
        books += S.seat[g, p, BOOKS + s]
    return (count_treatise_seals(S, g, p) >= r[REQ_TREATISES] and count_tiles(S, g, p) >= r[REQ_TILES]
            and count_inventions(S, g, p) >= r[REQ_INVENTIONS] and books >= r[REQ_BOOKS]
            and S.seat[g, p, RESEARCH] >= r[REQ_RESEARCH] and S.seat[g, p, COINS] >= r[REQ_COINS])


@rule
def upgrade_ok(S, C, g, p):
    """Seat ``p`` may Upgrade: below Level IV, a seal left, a free seal space on the next Level and its
    Graduation tile met (seed 001 §Upgrade your Academic Level)."""
    lv = S.seat[g, p, LEVEL]
    if lv >= MAX_LEVEL or seals_left(S, g, p) == 0:
        return False
    free = False
    for i in range(LEVEL_SEAL_SPACES):
        if S.game[g, LVL_SEAL + (lv - 1) * LVL_SEAL_W + i] == -1:
            free = True
    return free and grad_ok(S, C, g, p, S.game[g, GRAD + (lv - 1)])
