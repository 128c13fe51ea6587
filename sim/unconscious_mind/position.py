"""Unconscious Mind's builders for :class:`meeplelab.sim.core.position.Position` (``pos.give("treatise", ...)``)."""

from __future__ import annotations

from . import codes
from .rules.decisions import TABLE


def _index(ids: list, item, what: str) -> int:
    """The index of ``item`` (a content id or an index) in ``ids`` (KeyError naming the allowed ones)."""
    if isinstance(item, str):
        if item not in ids:
            raise KeyError(f"no {what} {item!r} in this content: allowed {', '.join(ids)}")
        return ids.index(item)
    i = int(item)
    if not 0 <= i < len(ids):
        raise KeyError(f"{what} {i}: allowed 0 to {len(ids) - 1} (or an id)")
    return i


def _seat(s, seat) -> int:
    P = s.seat.shape[1]
    if not 0 <= int(seat) < P:
        raise KeyError(f"seat {seat!r} of a {P}-player game: allowed 0 to {P - 1}")
    return int(seat)


def treatise(game, s, g: int, seat: int, tile, cards) -> None:
    """Give ``seat`` the published Treatise ``tile`` (content id or index) holding the Research ``cards`` as its
    Volumes, bottom first (seed 000 §Publishing a Treatise, §Citing Treatises: a published Treatise others can cite).

    Raises:
        KeyError: an unknown Treatise or card, a seat out of range, or more Volumes than a Treatise holds; nothing
            is written.
    """
    seat = _seat(s, seat)
    t = _index(game.content.treatise_ids, tile, "Treatise")
    ids = [_index(game.content.card_ids, c, "Research card") for c in ([cards] if isinstance(cards, str) else cards)]
    if len(ids) > s.tr_cards.shape[2]:
        raise KeyError(f"{len(ids)} Volumes: a Treatise holds at most {s.tr_cards.shape[2]}")
    s.tr_owner[g, t] = seat
    s.tr_n[g, t] = len(ids)
    s.tr_cards[g, t, :] = -1
    for i, c in enumerate(ids):
        s.tr_cards[g, t, i] = c
        s.card_loc[g, c] = codes.L_TREATISE
        s.card_own[g, c] = t


def in_play(game, s, g: int, seat: int, cards) -> None:
    """Put the Research ``cards`` (content ids or indices; one id alone too) in ``seat``'s play area (seed 000
    §Playing Research cards).

    Raises:
        KeyError: an unknown card or a seat out of range; nothing is written.
    """
    _place_cards(game, s, g, seat, cards, codes.L_INPLAY)


def _place_cards(game, s, g: int, seat: int, cards, where: int) -> None:
    """Research ``cards`` (ids or indices; one id alone too) to location ``where`` of ``seat``; checked first."""
    seat = _seat(s, seat)
    ids = [_index(game.content.card_ids, c, "Research card") for c in ([cards] if isinstance(cards, str) else cards)]
    for c in ids:
        s.card_loc[g, c] = where
        s.card_own[g, c] = seat


def decision(game, s, g: int, kind, a: int = 0, b: int = 0, c: int = 0) -> None:
    """Put the pending decision ``kind`` (its name in the decision table, ``"D_PROF"``, or its code) with arguments
    ``a``, ``b``, ``c`` on top of the decision stack, as a rule that raises it would (research UM §2-7: each step of
    a turn waits on the stack, top first; ``rules/decisions.py``). The seat to act stays ``to_act``.

    Raises:
        KeyError: an unknown decision kind or a full stack; nothing is written.
    """

    kinds = TABLE.kind_codes()  # every decision and automatic stack entry of the decision table, by name
    if isinstance(kind, str):
        if kind not in kinds:
            raise KeyError(f"no decision kind {kind!r}: allowed {', '.join(kinds)}")
        code = kinds[kind]
    else:
        code = int(kind)
        if code not in kinds.values():
            raise KeyError(f"decision kind {code}: allowed {', '.join(f'{k} ({v})' for k, v in kinds.items())}")
    sp = int(s.sp[g])
    if sp >= s.stk.shape[1]:
        raise KeyError(f"the decision stack is full ({s.stk.shape[1]} entries)")
    s.stk[g, sp] = (code, int(a), int(b), int(c))
    s.sp[g] = sp + 1


def hand(game, s, g: int, seat: int, cards) -> None:
    """Put the Research ``cards`` (content ids or indices; one id alone too) in ``seat``'s hand, wherever they were
    (seed 000 §Research and Treatises: drawn and swapped Research cards are held in hand, no hand limit). The
    Research deck and display are left as they are, so a card given from them is still listed there.

    Raises:
        KeyError: an unknown card or a seat out of range; nothing is written.
    """
    _place_cards(game, s, g, seat, cards, codes.L_HAND)


#: the builders ``UnconsciousMind.position_builders`` gives
BUILDERS = {"treatise": treatise, "in_play": in_play, "decision": decision, "hand": hand}
