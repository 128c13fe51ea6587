"""The Insight dial: Generate, Elevate, Transfer, payments and the player-colour Insights.

Dial positions: 0 = reserve, 1 + quality*3 + level (seed 000 §Insight actions; research UM §3). Decisions:
``D_ELXF`` (Elevations / Transfers), ``D_GENQ`` (Generate of a chosen quality), ``D_GENANY`` (Generate with an
empty reserve, A-UM-21), ``D_COLOUR`` (where a player-colour Insight comes from, A-UM-22), ``K_GENQL``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler, plain

from ..codes import (COLOUR_PUBLISH, C_DISTRICT, C_ELEVATE, C_GENERATE, C_PUBLISH, C_TRANSFER, D_COLOUR, D_ELXF,
                     D_GENANY, EV_INSIGHT, Q_ANY)
from ..cols import COL_SPENT, DIAL_C, DIAL_W
from ..actions import CH_COLOUR, CH_GENQ, DONE, POS0, XFER0
from .events import ev
from .stack import push


@plain
def tok_at(S, C, prm, g, p, pos):
    """Insights (white + player colour) at dial position ``pos`` of seat p (0 = reserve, 1+q*3+l; research UM
    §3)."""
    return S.seat[g, p, DIAL_W + pos] + S.seat[g, p, DIAL_C + pos]


@plain
def tok_move(S, C, prm, g, p, src, dst):
    """Move one token (white first) from dial position ``src`` to ``dst`` (0 = reserve, 1+q*3+l)."""
    if S.seat[g, p, DIAL_W + src] > 0:
        S.seat[g, p, DIAL_W + src] -= 1
        S.seat[g, p, DIAL_W + dst] += 1
        return True
    if S.seat[g, p, DIAL_C + src] > 0:
        S.seat[g, p, DIAL_C + src] -= 1
        S.seat[g, p, DIAL_C + dst] += 1
        return True
    return False


@plain
def generate(S, C, prm, g, p, q, lvl):
    """Generate: a reserve token into wedge q, ring lvl. With an empty reserve the seat may take a token from
    anywhere on its dial instead (a D_GENANY decision, research UM §3)."""
    dst = 1 + q * 3 + lvl
    if tok_at(S, C, prm, g, p, 0) > 0:
        tok_move(S, C, prm, g, p, 0, dst)
        ev(S, C, prm, g, EV_INSIGHT, p, C_GENERATE, 1, -1, q * 3 + lvl, 0, 0)
        return
    for i in range(1, 10):
        if i != dst and tok_at(S, C, prm, g, p, i) > 0:
            push(S, C, prm, g, D_GENANY, dst, 0, 0)
            return


@njit(cache=True, _nrt=False)
def pay_pos(S, C, prm, g, p, cq, cl):
    """Dial position paying an Insight cost (quality cq, 3 = any; level cl): lowest sufficient level first."""
    for lv in range(cl, 3):
        for q in range(3):
            if (cq == Q_ANY or q == cq) and tok_at(S, C, prm, g, p, 1 + q * 3 + lv) > 0:
                return 1 + q * 3 + lv
    return -1


@plain
def level_pos(S, C, prm, g, p, lv):
    """A dial position holding a token of exactly level lv (lowest quality index), or -1."""
    for q in range(3):
        if tok_at(S, C, prm, g, p, 1 + q * 3 + lv) > 0:
            return 1 + q * 3 + lv
    return -1


@njit(cache=True, _nrt=False)
def has_colour(S, C, prm, g, p):
    """True when seat p has a player-colour Insight anywhere on its dial (seed 000 §Publishing a Treatise step
    5)."""
    for i in range(10):
        if S.seat[g, p, DIAL_C + i] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def colour_sources(S, C, prm, g, p):
    """How many dial positions (reserve or a ring) hold a player-colour Insight of seat p."""
    n = 0
    for i in range(10):
        if S.seat[g, p, DIAL_C + i] > 0:
            n += 1
    return n


@plain
def take_colour_at(S, C, prm, g, p, pos, why):
    """Remove a player-colour Insight of seat p from dial position ``pos`` (0 = reserve, 1+q*3+l); an
    ``insight`` event (category publish or district, item = q*3+l, -1 for the reserve) records where from."""
    if S.seat[g, p, DIAL_C + pos] <= 0:
        return False
    S.seat[g, p, DIAL_C + pos] -= 1
    S.seat[g, p, COL_SPENT] += 1
    ev(S, C, prm, g, EV_INSIGHT, p, C_PUBLISH if why == COLOUR_PUBLISH else C_DISTRICT, -1, -1, pos - 1, 0, 0)
    return True


@plain
def take_colour(S, C, prm, g, p, why):
    """Put a player-colour Insight from the dial (reserve or any ring, seed §Publishing a Treatise step 5) on a
    Treatise or district slot: the seat chooses where from (a D_COLOUR decision) when two or more dial
    positions hold one; with one position it is taken from there (A-UM-22)."""
    if colour_sources(S, C, prm, g, p) >= 2:
        push(S, C, prm, g, D_COLOUR, why, 0, 0)
        return True
    for i in range(10):
        if S.seat[g, p, DIAL_C + i] > 0:
            return take_colour_at(S, C, prm, g, p, i, why)
    return False


@handler
def legal_elxf(S, C, prm, g, p, a, b, out):
    """Elevations and Transfers left (seed 000 §Insight actions: up to two Elevations and one Transfer, in any
    order); Elevate never from the reserve nor past major (research UM §3)."""
    for i in range(9):
        if tok_at(S, C, prm, g, p, 1 + i) > 0:
            if a > 0 and i % 3 < 2:
                out[POS0 + i] = True
            if b > 0:
                for q2 in range(3):
                    if q2 != i // 3:
                        out[XFER0 + i * 3 + q2] = True
    out[DONE] = True


@handler
def legal_genq(S, C, prm, g, p, a, b, out):
    """The quality of a Generate of a chosen quality (seed 000 §Insight actions; research UM §3)."""
    for q in range(3):
        out[CH_GENQ + q] = True


@handler
def legal_genany(S, C, prm, g, p, a, b, out):
    """A dial token to move to the generated space when the reserve is empty (research UM §3, A-UM-21)."""
    for i in range(9):
        if 1 + i != a and tok_at(S, C, prm, g, p, 1 + i) > 0:
            out[POS0 + i] = True
    out[DONE] = True


@handler
def legal_colour(S, C, prm, g, p, a, b, out):
    """Dial positions holding a player-colour Insight (seed 000 §Publishing a Treatise step 5: reserve or any ring;
    A-UM-22)."""
    for i in range(10):
        if S.seat[g, p, DIAL_C + i] > 0:
            out[CH_COLOUR + i] = True


@handler
def apply_elxf(S, C, prm, g, p, act, a, b, c):
    """One Elevation or Transfer (seed 000 §Insight actions), then the rest of the budget."""
    if act == DONE:
        return
    if POS0 <= act < XFER0:
        i = act - POS0
        tok_move(S, C, prm, g, p, 1 + i, 2 + i)
        ev(S, C, prm, g, EV_INSIGHT, p, C_ELEVATE, 1, -1, i + 1, 0, 0)
        a -= 1
    else:
        i = (act - XFER0) // 3
        q2 = (act - XFER0) % 3
        tok_move(S, C, prm, g, p, 1 + i, 1 + q2 * 3 + i % 3)
        ev(S, C, prm, g, EV_INSIGHT, p, C_TRANSFER, 1, -1, q2 * 3 + i % 3, 0, 0)
        b -= 1
    if a + b > 0:
        push(S, C, prm, g, D_ELXF, a, b, 0)


@handler
def apply_genq(S, C, prm, g, p, act, a, b, c):
    """Generate an Insight of the chosen quality (research UM §3)."""
    generate(S, C, prm, g, p, act - CH_GENQ, a)


@handler
def apply_genany(S, C, prm, g, p, act, a, b, c):
    """Move the chosen token to the generated space (A-UM-21)."""
    if act == DONE:
        return
    tok_move(S, C, prm, g, p, 1 + act - POS0, a)
    ev(S, C, prm, g, EV_INSIGHT, p, C_GENERATE, 1, -1, a - 1, 0, act - POS0 + 1)


@handler
def apply_colour(S, C, prm, g, p, act, a, b, c):
    """Take the player-colour Insight from the chosen position (seed 000 §Publishing a Treatise step 5; A-UM-22)."""
    take_colour_at(S, C, prm, g, p, act - CH_COLOUR, a)


@njit(cache=True, inline="always", _nrt=False)
def auto_genql(S, C, prm, g, p, act, a, b, c):
    """``K_GENQL``: Generate an Insight of quality ``a``, level ``b`` (research UM §3)."""
    generate(S, C, prm, g, p, a, b)
