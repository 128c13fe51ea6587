"""The effect interpreter: one content effect row (up to 4 opcodes, :data:`content.OP`) resolved for a
seat (A-UM-15: every tile, card, dream, client, Location and track effect uses this vocabulary). ``K_EFFECT``.
"""

from __future__ import annotations

from meeplelab.sim.core.jit import handler

from ..codes import (D_ELXF, D_FREE_TILE, D_GENQ, D_PLAYN, D_THERAPY, OP_BRIGHT, OP_COFFEE, OP_DRAW, OP_ELEV, OP_GEN,
                     OP_HEART, OP_HEARTS, OP_PLAY, OP_REP, OP_THERAPY, OP_TILE, OP_VP, OP_XFER, Q_ANY)
from .events import add_vp, gain_bright, gain_coffee, gain_heart
from .stack import push
from .insight import generate
from .reputation import gain_rep
from .research import draw_card
from .clients import therapy_move


@handler
def run_effect(S, C, prm, g, p, act, e, cat, ctx):
    """Apply effect row ``e``: immediate opcodes at once, in order, then the choices pushed (first op on top).

    ``K_EFFECT`` handler: resolve effect row ``e`` for seat p (category ``cat``, context ``ctx``; A-UM-15)."""
    n = C.eff.shape[1]
    for i in range(n):
        op = C.eff[e, i, 0]
        a = C.eff[e, i, 1]
        b = C.eff[e, i, 2]
        if op == OP_COFFEE:
            gain_coffee(S, C, prm, g, p, a, cat)
        elif op == OP_VP:
            add_vp(S, C, prm, g, p, a, cat, e)
        elif op == OP_BRIGHT:
            gain_bright(S, C, prm, g, p, a, cat, -1)
        elif op == OP_HEART:
            gain_heart(S, C, prm, g, p, a, cat)
        elif op == OP_REP:
            gain_rep(S, C, prm, g, p, a, cat)
        elif op == OP_GEN:
            if a != Q_ANY:
                generate(S, C, prm, g, p, a, b)
        elif op == OP_DRAW:
            for _ in range(a):
                draw_card(S, C, prm, g, p)
        elif op == OP_HEARTS:
            if ctx >= 0:
                therapy_move(S, C, prm, g, p, ctx, a)
    # the choices, last op first, so the first one ends on top of the stack
    for i in range(n - 1, -1, -1):
        op = C.eff[e, i, 0]
        a = C.eff[e, i, 1]
        b = C.eff[e, i, 2]
        if op == OP_GEN:
            if a == Q_ANY:
                push(S, C, prm, g, D_GENQ, b, 0, 0)
        elif op == OP_ELEV:
            push(S, C, prm, g, D_ELXF, a, 0, 0)
        elif op == OP_XFER:
            push(S, C, prm, g, D_ELXF, a // 16, a % 16, 0)
        elif op == OP_PLAY:
            push(S, C, prm, g, D_PLAYN, a, 0, 0)
        elif op == OP_TILE:
            for _ in range(a):
                push(S, C, prm, g, D_FREE_TILE, 0, 0, 0)
        elif op == OP_THERAPY:
            push(S, C, prm, g, D_THERAPY, a, 0, 0)
