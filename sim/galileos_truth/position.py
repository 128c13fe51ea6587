"""Galileo's Truth's builders for :class:`meeplelab.sim.core.position.Position` (``pos.give("cards", ...)``)."""

from __future__ import annotations

from .state import Z_DECK, Z_DISCARD, Z_HAND, Z_PLAY


def _type(game, card) -> int:
    """A card type by content id (``"abjuration"``) or id number."""
    if isinstance(card, str):
        try:
            return game.content.card_ids.index(card)
        except ValueError:
            raise KeyError(f"no card {card!r} in this content: see treatises.toml / cards.toml") from None
    return int(card)


def cards(game, s, g: int, seat: int, hand=(), deck=(), discard=(), play=()) -> None:
    """Replace ``seat``'s cards in game ``g``: ``hand``, ``discard`` and ``play`` zones, and the ``deck`` listed
    bottom to top (cards by content id or type number; seed 001 §Play Treatise Cards)."""
    s.ctype[g, seat, :] = -1
    s.czone[g, seat, :] = 0
    s.deck[g, seat, :] = -1
    n = 0
    for zone, lst in ((Z_HAND, hand), (Z_DISCARD, discard), (Z_PLAY, play)):
        for t in lst:
            s.ctype[g, seat, n] = _type(game, t)
            s.czone[g, seat, n] = zone
            n += 1
    for k, t in enumerate(deck):
        s.ctype[g, seat, n] = _type(game, t)
        s.czone[g, seat, n] = Z_DECK
        s.deck[g, seat, k] = n
        n += 1
    s.deck_n[g, seat] = len(deck)
    s.nslots[g, seat] = n


#: the builders ``GalileosTruth.position_builders`` gives
BUILDERS = {"cards": cards}
