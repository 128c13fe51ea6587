"""Unconscious Mind's builders for :class:`meeplelab.sim.core.position.Position` (``pos.give("treatise", ...)``)."""

from __future__ import annotations

from . import codes


def _index(ids: list, item, what: str) -> int:
    if isinstance(item, str):
        try:
            return ids.index(item)
        except ValueError:
            raise KeyError(f"no {what} {item!r} in this content") from None
    return int(item)


def treatise(game, s, g: int, seat: int, tile, cards) -> None:
    """Give ``seat`` the published Treatise ``tile`` (content id or index) holding the Research ``cards`` as its
    Volumes, bottom first (seed 000 §Publishing a Treatise, §Citing Treatises: a published Treatise others can cite)."""
    t = _index(game.content.treatise_ids, tile, "Treatise")
    ids = [_index(game.content.card_ids, c, "Research card") for c in cards]
    s.tr_owner[g, t] = seat
    s.tr_n[g, t] = len(ids)
    s.tr_cards[g, t, :] = -1
    for i, c in enumerate(ids):
        s.tr_cards[g, t, i] = c
        s.card_loc[g, c] = codes.L_TREATISE
        s.card_own[g, c] = t


def in_play(game, s, g: int, seat: int, cards) -> None:
    """Put the Research ``cards`` (content ids or indices) in ``seat``'s play area (seed 000 §Playing Research cards)."""
    for c in cards:
        c = _index(game.content.card_ids, c, "Research card")
        s.card_loc[g, c] = codes.L_INPLAY
        s.card_own[g, c] = seat


#: the builders ``UnconsciousMind.position_builders`` gives
BUILDERS = {"treatise": treatise, "in_play": in_play}
