"""Treatise and Penance cards of a seat: zones, deck, draws (seed 001 §Draw a Card; A-GT-04)."""

from __future__ import annotations

from meeplelab.sim.core.rng import chance_shuffle

from ..cols import DECK_0, DECK_N, NSLOTS, SLOT_CTYPE, SLOT_CZONE, SLOT_KNOWN
from ..content import CK_PENANCE, N_SUBJECTS, PURPLE
from meeplelab.sim.core.jit import rule
from ..state import RZ_DECK, Z_DECK, Z_DISCARD, Z_HAND, Z_NONE, Z_PLAY


@rule
def has_in_zone(S, C, g, p, t, zone):
    """Slot of a card of type ``t`` in ``zone`` (-1: none)."""
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CTYPE] == t and S.slot[g, p, c, SLOT_CZONE] == zone:
            return c
    return -1


@rule
def hand_types(S, g, p):
    """Bitmask of the card types in seat ``p``'s hand (one scan for a whole mask)."""
    bits = 0
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CZONE] == Z_HAND:
            bits |= 1 << S.slot[g, p, c, SLOT_CTYPE]
    return bits


@rule
def penance_in_hand(S, C, g, p):
    """Seat ``p`` holds a Penance card (it must be played this Cycle: seed 001 §Play a Penance Card)."""
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CZONE] == Z_HAND and C.CARD_KIND[S.slot[g, p, c, SLOT_CTYPE]] == CK_PENANCE:
            return True
    return False


@rule
def reshuffle(S, g, p):
    """Shuffle the discard pile into a new deck (called when the deck is empty)."""
    n = S.seat[g, p, DECK_N]
    lo = n
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CZONE] == Z_DISCARD:
            S.slot[g, p, c, SLOT_CZONE] = Z_DECK
            S.slot[g, p, c, SLOT_KNOWN] = False
            S.pile[g, DECK_0 + p, n] = c
            n += 1
    chance_shuffle(S.rng_key, S.rng_ctr, g, RZ_DECK + p, S.pile[g, DECK_0 + p], lo, n)
    S.seat[g, p, DECK_N] = n


@rule
def draw_one(S, g, p):
    """Draw one card; an empty deck reshuffles the discard first. False when nothing could be drawn."""
    if S.seat[g, p, DECK_N] == 0:
        reshuffle(S, g, p)
    if S.seat[g, p, DECK_N] == 0:
        return False
    S.seat[g, p, DECK_N] -= 1
    c = S.pile[g, DECK_0 + p, S.seat[g, p, DECK_N]]
    S.pile[g, DECK_0 + p, S.seat[g, p, DECK_N]] = -1
    S.slot[g, p, c, SLOT_CZONE] = Z_HAND
    return True


@rule
def draw_n(S, g, p, n):
    """Draw up to ``n`` cards (reshuffling the discard pile when the deck runs out); returns the cards drawn
    (seed 001 §Draw a Card; A-GT-04)."""
    got = 0
    for _ in range(n):
        if draw_one(S, g, p):
            got += 1
        else:
            break
    return got


@rule
def put_on_deck(S, g, p, c):
    """Card slot ``c`` of seat ``p`` onto the top of its deck (seed 001 §Copy a Treatise: on top of your deck)."""
    S.pile[g, DECK_0 + p, S.seat[g, p, DECK_N]] = c
    S.seat[g, p, DECK_N] += 1
    S.slot[g, p, c, SLOT_CZONE] = Z_DECK


@rule
def new_card(S, g, p, t):
    """A new card slot of type ``t`` for seat ``p`` (no zone yet); returns the slot."""
    c = S.seat[g, p, NSLOTS]
    S.slot[g, p, c, SLOT_CTYPE] = t
    S.slot[g, p, c, SLOT_CZONE] = Z_NONE
    S.seat[g, p, NSLOTS] = c + 1
    return c


@rule
def diff_subjects_in_play(S, C, g, p):
    """Treatises of different Subjects in the play area (purple and Penance ignored), at most 4."""
    seen = 0
    for c in range(S.seat[g, p, NSLOTS]):
        if S.slot[g, p, c, SLOT_CZONE] == Z_PLAY:
            t = S.slot[g, p, c, SLOT_CTYPE]
            s = C.CARD_SUBJ[t]
            if 0 <= s < PURPLE:
                seen |= 1 << s
    n = 0
    for s in range(N_SUBJECTS):
        if seen & (1 << s):
            n += 1
    return n if n < N_SUBJECTS else N_SUBJECTS


@rule
def removable(S, C, g, p, t, zone):
    """Seat ``p`` has a Treatise card of type ``t`` in ``zone`` it may remove (never a Penance card: seed 001
    §Remove a Treatise Card)."""
    return C.CARD_KIND[t] != CK_PENANCE and has_in_zone(S, C, g, p, t, zone) >= 0
