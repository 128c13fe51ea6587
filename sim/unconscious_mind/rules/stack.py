"""The pending-decision stack of one game: ``S.stk[g, i, STK_KIND..STK_C]``, ``S.game[g, SP]`` entries.
"""

from __future__ import annotations

from numba import njit

from ..cols import SP, STK_A, STK_B, STK_C, STK_KIND


@njit(cache=True, inline="always", _nrt=False)
def push(S, C, prm, g, kind, a, b, c):
    """Push the stack entry (kind, a, b, c) on game g's decision stack (``RuntimeError`` past 48 entries)."""
    sp = S.game[g, SP]
    if sp >= S.stk.shape[1]:
        raise RuntimeError("decision stack overflow")
    S.stk[g, sp, STK_KIND] = kind
    S.stk[g, sp, STK_A] = a
    S.stk[g, sp, STK_B] = b
    S.stk[g, sp, STK_C] = c
    S.game[g, SP] = sp + 1
