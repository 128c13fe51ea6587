"""Galileo's Truth's builders for :class:`meeplelab.sim.core.position.Position` (``pos.give("cards", ...)``)."""

from __future__ import annotations

from .state import Z_DECK, Z_DISCARD, Z_HAND, Z_PLAY


def _type(game, card) -> int:
    """A card type by content id (``"abjuration"``) or type number (KeyError naming the allowed ones)."""
    ids = game.content.card_ids if game is not None else None
    if isinstance(card, str):
        if ids is None or card not in ids:
            raise KeyError(f"no card {card!r} in this content: allowed {', '.join(ids or ())}")
        return ids.index(card)
    t = int(card)
    if ids is not None and not 0 <= t < len(ids):
        raise KeyError(f"card type {t}: allowed 0 to {len(ids) - 1} (or a card id)")
    return t


def cards(game, s, g: int, seat: int, hand=(), deck=(), discard=(), play=()) -> None:
    """Replace ``seat``'s cards in game ``g``: ``hand``, ``discard`` and ``play`` zones, and the ``deck`` listed
    bottom to top (cards by content id or type number; seed 001 §Play Treatise Cards).

    Raises:
        KeyError: an unknown card, a seat out of range, or more cards than a seat can hold; nothing is written.
    """
    P, cap = s.ctype.shape[1], s.ctype.shape[2]
    if not 0 <= int(seat) < P:
        raise KeyError(f"seat {seat!r} of a {P}-player game: allowed 0 to {P - 1}")
    zones = [(zone, [_type(game, t) for t in lst]) for zone, lst in ((Z_HAND, hand), (Z_DISCARD, discard), (Z_PLAY, play))]
    deck_types = [_type(game, t) for t in deck]
    n_all = sum(len(lst) for _, lst in zones) + len(deck_types)
    if n_all > cap:
        raise KeyError(f"{n_all} cards: a seat holds at most {cap}")
    s.ctype[g, seat, :] = -1
    s.czone[g, seat, :] = 0
    s.deck[g, seat, :] = -1
    n = 0
    for zone, lst in zones:
        for t in lst:
            s.ctype[g, seat, n] = t
            s.czone[g, seat, n] = zone
            n += 1
    for k, t in enumerate(deck_types):
        s.ctype[g, seat, n] = t
        s.czone[g, seat, n] = Z_DECK
        s.deck[g, seat, k] = n
        n += 1
    s.deck_n[g, seat] = len(deck_types)
    s.nslots[g, seat] = n


#: the builders ``GalileosTruth.position_builders`` gives
BUILDERS = {"cards": cards}
