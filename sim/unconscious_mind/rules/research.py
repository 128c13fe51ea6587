"""Research cards: drawing, swapping with the display, playing cards or choosing a Treatise to
publish (seed 000 §Gaining Research cards, §Playing Research cards, §Publishing a Treatise step 1).
Decisions: ``D_SWAP``, ``D_SWAP2``, ``D_RESPLAY``, ``D_PLAYN``.
"""

from __future__ import annotations

from numba import njit

from meeplelab.sim.core.jit import handler, plain

from ..codes import (C_CARD, C_RDRAW, C_RSWAP, D_PLAYN, D_QUILL, D_RESPLAY, D_SWAP2, EV_CARD, K_EFFECT, L_DISPLAY,
                     L_HAND, L_INPLAY)
from ..cols import CARD_KNOWN, CARD_LOC, CARD_OWN, PUB_FILL, PUB_T, RDECK, RDISP, RTOP, TRDISP
from ..kcols import CARD_EFF
from ..pcols import PRM_RESEARCH_DISPLAY, PRM_TREATISE_DISPLAY
from ..actions import CARD0, CH_PUBLISH, CH_SWAP2, DONE
from ..state import MAX_VOLUMES
from ..content_layout import KCARD
from .events import ev
from .stack import push
from .treatises import publishable


@njit(cache=True, _nrt=False)
def draw_card(S, C, prm, g, p):
    """Draw the top Research card into the hand (nothing when the deck is empty, A-UM-23)."""
    if S.game[g, RTOP] >= S.card.shape[1]:
        return
    c = S.pile[g, RDECK, (S.game[g, RTOP])]
    S.game[g, RTOP] += 1
    S.card[g, c, CARD_LOC] = L_HAND
    S.card[g, c, CARD_OWN] = p
    ev(S, C, prm, g, EV_CARD, p, C_RDRAW, 1, -1, c, 0, 0)


@njit(cache=True, _nrt=False)
def hand_size(S, C, prm, g, p):
    """Research cards in seat p's hand (seed 000 §Gaining Research cards: no limit)."""
    n = 0
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_HAND and S.card[g, c, CARD_OWN] == p:
            n += 1
    return n


@handler
def legal_swap(S, C, prm, g, p, a, b, out):
    """A hand card to swap with the display, or DONE (seed 000 §Gaining Research cards)."""
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_HAND and S.card[g, c, CARD_OWN] == p:
            out[CARD0 + c] = True
    out[DONE] = True


@handler
def legal_swap2(S, C, prm, g, p, a, b, out):
    """Either face-up display card (seed 000 §Gaining Research cards)."""
    for k in range(prm[PRM_RESEARCH_DISPLAY]):
        if S.pile[g, RDISP, k] >= 0:
            out[CH_SWAP2 + k] = True
    out[DONE] = True


@plain
def _legal_play_cards(S, C, prm, g, p, kind, a, b, out):
    for c in range(S.card.shape[1]):
        if S.card[g, c, CARD_LOC] == L_HAND and S.card[g, c, CARD_OWN] == p:
            out[CARD0 + c] = True
    if kind == D_RESPLAY and b == 0:
        for k in range(prm[PRM_TREATISE_DISPLAY]):
            if publishable(S, C, prm, g, p, S.pile[g, TRDISP, k]):
                out[CH_PUBLISH + k] = True
    if kind == D_PLAYN or b > 0:
        out[DONE] = True


@handler
def apply_swap(S, C, prm, g, p, act, a, b, c):
    """Choose the hand card to swap (seed 000 §Gaining Research cards), then the display slot (``D_SWAP2``)."""
    if act == DONE:
        return
    push(S, C, prm, g, D_SWAP2, act - CARD0, 0, 0)


@handler
def apply_swap2(S, C, prm, g, p, act, a, b, c):
    """Swap the hand card with the chosen display card; everyone saw it go into the hand (seed 000 §Gaining Research
    cards)."""
    ch = act - CH_SWAP2
    if act == DONE:
        return
    c = a
    d = S.pile[g, RDISP, ch]
    S.pile[g, RDISP, ch] = c
    S.card[g, c, CARD_LOC] = L_DISPLAY
    S.card[g, c, CARD_OWN] = -1
    S.card[g, d, CARD_LOC] = L_HAND
    S.card[g, d, CARD_OWN] = p
    S.card[g, d, CARD_KNOWN] = 1  # taken from the face-up display: everyone knows where it is
    ev(S, C, prm, g, EV_CARD, p, C_RSWAP, 0, -1, d, 0, c)


@plain
def _apply_play_cards(S, C, prm, g, p, act, kind, a, b, ch):
    if act == DONE:
        return
    if act >= CARD0:
        c = act - CARD0
        S.card[g, c, CARD_LOC] = L_INPLAY
        ev(S, C, prm, g, EV_CARD, p, C_CARD, 0, -1, c, 0, 1)
        if a - 1 > 0:
            push(S, C, prm, g, kind, a - 1, 1, 0)
        push(S, C, prm, g, K_EFFECT, C.K[KCARD, c, CARD_EFF], C_CARD, -1)
    else:
        t = S.pile[g, TRDISP, ch]
        S.pile[g, TRDISP, ch] = -1
        S.game[g, PUB_T] = t
        for i in range(MAX_VOLUMES):
            S.game[g, PUB_FILL + i] = -1
        push(S, C, prm, g, D_QUILL, t, 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def legal_resplay(S, C, prm, g, p, a, b, out):
    """The research play action: play a hand card or choose a publishable Treatise from the display (seed 000
    §Playing Research cards, §Publishing a Treatise step 1)."""
    _legal_play_cards(S, C, prm, g, p, D_RESPLAY, a, b, out)


@njit(cache=True, inline="always", _nrt=False)
def apply_resplay(S, C, prm, g, p, act, a, b, c):
    """Play the card (its bottom effect triggers) or start publishing the chosen Treatise (seed 000 §Playing
    Research cards, §Publishing a Treatise)."""
    _apply_play_cards(S, C, prm, g, p, act, D_RESPLAY, a, b, act - CH_PUBLISH)


@njit(cache=True, inline="always", _nrt=False)
def legal_playn(S, C, prm, g, p, a, b, out):
    """Play a hand card where an effect shows the play icon, or stop (seed 000 §Playing Research cards)."""
    _legal_play_cards(S, C, prm, g, p, D_PLAYN, a, b, out)


@njit(cache=True, inline="always", _nrt=False)
def apply_playn(S, C, prm, g, p, act, a, b, c):
    """Play the card: it is in play and its bottom effect triggers (seed 000 §Playing Research cards)."""
    _apply_play_cards(S, C, prm, g, p, act, D_PLAYN, a, b, act - CH_PUBLISH)
