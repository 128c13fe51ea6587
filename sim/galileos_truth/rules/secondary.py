"""Which Secondary Actions an icon set offers now (seed 001 §Secondary Actions)."""

from __future__ import annotations

from ..cols import FR_N, FR_SET, NSLOTS, SLOT_CTYPE, SLOT_CZONE, TO_ACT
from ..content import CK_PENANCE, K_ICONS, NB
from meeplelab.sim.core.jit import rule
from ..state import (N_OBS_LEVELS, O_COPY, O_DRAW, O_FIRST_SECONDARY, O_INVENT, O_OBSERVE, O_READ, O_REMOVE, O_WRITE,
                     WORKSHOP_SLOTS, Z_DISCARD, Z_HAND, Z_PLAY)
from .boards import copy_ok, read_ok, write_ok
from .icons import N_ICONS, open_icon
from .sky import obs_level_ok
from .workshop import slot_ok


@rule
def sec_ok(S, C, prm, g, p, kind, a0, a1, a2):
    """The Secondary Action of ``kind`` (with icon args) has at least one legal way to be done."""
    op = kind + O_FIRST_SECONDARY
    if op == O_DRAW:
        return True
    if op == O_WRITE:
        for b in range(NB):
            if write_ok(S, C, prm, g, p, b):
                return True
        return False
    if op == O_COPY:
        for b in range(NB):
            if copy_ok(S, C, g, p, b, a0, a1):
                return True
        return False
    if op == O_READ:
        for b in range(NB):
            if read_ok(S, C, prm, g, p, b, a0, a1):
                return True
        return False
    if op == O_INVENT:
        for w in range(WORKSHOP_SLOTS):
            if slot_ok(S, C, prm, g, p, w):
                return True
        return False
    if op == O_OBSERVE:
        for lv in range(1, N_OBS_LEVELS + 1):
            if obs_level_ok(S, C, prm, g, p, lv):
                return True
        return False
    if op == O_REMOVE:
        for c in range(S.seat[g, p, NSLOTS]):
            z = S.slot[g, p, c, SLOT_CZONE]
            if (z == Z_HAND or z == Z_DISCARD or z == Z_PLAY) and C.CARD_KIND[S.slot[g, p, c, SLOT_CTYPE]] != CK_PENANCE:
                return True
        return False
    return False


@rule
def frame_sec_kinds(S, C, prm, g):
    """Bitmask of Secondary Action kinds still open (and doable) in the top frame."""
    k = S.game[g, FR_N] - 1
    iset = S.game[g, FR_SET + k]
    p = S.game[g, TO_ACT]
    out = 0
    for i in range(N_ICONS):
        op = open_icon(S, C, g, k, i)
        if op >= O_FIRST_SECONDARY:
            kind = op - O_FIRST_SECONDARY
            gi, j = i // K_ICONS, i % K_ICONS
            if sec_ok(S, C, prm, g, p, kind, C.ISET_ARG[iset, gi, j, 0], C.ISET_ARG[iset, gi, j, 1],
                      C.ISET_ARG[iset, gi, j, 2]):
                out |= 1 << kind
    return out
