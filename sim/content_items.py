"""Which events say that a seat took a content item, declared once per game (content strength,
docs/content_strength.md): the event kinds, categories and the column holding the item's index, the
content file and table an item is removed from (``None`` where the content rules forbid removing one).

It sits with the engines' tools, below running games and analysis: :mod:`meeplelab.analysis.content`
builds the strength tables from it and :mod:`meeplelab.play.deny` (an item denied to one seat) reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class ItemKind:
    """One kind of content item of one game and the events that say a seat took one.

    Attributes:
        kind: short name (``invention``), used in item specs ``kind:id`` and in the tables.
        label: words for the report (``Invention``).
        events: event kinds (the events table's ``kind``) that count as taking the item.
        categories: the events' ``category`` values that count (None: any).
        column: the events column holding the item's index (``item``; ``before`` for a Window cell,
            ``count`` for a dream).
        ids: the item ids by index, from the engine's compiled content (None at an index that is not an
            item of this kind).
        taken: what "taken" means for this kind, for the report.
        file, table: the content file and ``[[table]]`` an item of this kind is removed from (None:
            the content rules forbid removing one).
        fixed: why an item of this kind cannot be removed (when ``file`` is None).
    """

    kind: str
    label: str
    events: tuple[str, ...]
    categories: tuple[str, ...] | None
    column: str
    ids: Callable[[object], list[str]]
    taken: str
    file: str | None = None
    table: str | None = None
    fixed: str = ""

    @property
    def removable(self) -> bool:
        """True when an item of this kind may be removed from the content (a legal content edit)."""
        return self.file is not None


def _um_locations(_content) -> list[str]:
    # start-up: one game's content module, imported when that game's items are listed
    from meeplelab.sim.unconscious_mind.content import LOCATIONS

    return list(LOCATIONS)


def _um_location_bonuses(_content) -> list[str]:
    """``cafe-bonus1`` ..: the three bonus slots of each Location (event item ``location * 3 + slot``)."""
    # start-up: one game's content module, imported when that game's items are listed
    from meeplelab.sim.unconscious_mind.content import LOCATIONS

    return [f"{loc}-bonus{k + 1}" for loc in LOCATIONS for k in range(3)]


def _um_district_slots(content) -> list[str]:
    """``<district>-slot1`` ..: the four reward slots of each district (event item ``district * 4 + slot``)."""
    return [f"{d}-slot{k + 1}" for d in content.district_ids for k in range(4)]


def _gt_cards(content) -> list[str | None]:
    """Treatise card types by card type index (None for the Penance cards: their own kind)."""
    # start-up: one game's content module, imported when that game's items are listed
    from meeplelab.sim.galileos_truth.content import CK_PENANCE

    kind = content.arrays.CARD_KIND
    return [None if int(kind[i]) == CK_PENANCE else c for i, c in enumerate(content.card_ids)]


def _gt_penance(content) -> list[str | None]:
    """Penance card types by card type index (None for the Treatise cards sharing that index range)."""
    # start-up: one game's content module, imported when that game's items are listed
    from meeplelab.sim.galileos_truth.content import CK_PENANCE

    kind = content.arrays.CARD_KIND
    return [c if int(kind[i]) == CK_PENANCE else None for i, c in enumerate(content.card_ids)]


#: The content items of each game, by game id; the order is the order of the tables.
KINDS: dict[str, tuple[ItemKind, ...]] = {
    "galileos-truth": (
        ItemKind("treatise", "Treatise board (its pyramid card)", ("write", "copy"), None, "item",
                 lambda c: list(c.board_ids), "a seal written or copied on the board (the seat takes its card)",
                 fixed="pyramid.toml needs exactly 10 boards (the 4/3/2/1 pyramid)"),
        ItemKind("invention", "Invention", ("invent",), None, "item", lambda c: list(c.inv_ids),
                 "created from the Workshop", "inventions.toml", "invention"),
        ItemKind("tile", "Observation tile", ("observe",), None, "item", lambda c: list(c.tile_ids),
                 "kept and laid in the Window", "observation.toml", "tile"),
        ItemKind("window", "Window space", ("observe",), None, "before", lambda c: list(c.window_ids),
                 "a tile laid on it", fixed="observation.toml must cover all 3x4 Window spaces"),
        ItemKind("space", "Philosopher space (board)", ("assign",), None, "item", lambda c: list(c.space_ids),
                 "the Natural Philosopher assigned to it", "board.toml", "space"),
        ItemKind("penance", "Penance card", ("penance",), ("gained",), "item", _gt_penance,
                 "gained (Suspicion at the threshold)", "penance.toml", "penance"),
        ItemKind("card", "Treatise card (played from hand)", ("play",), None, "item", _gt_cards,
                 "played from hand", "treatises.toml", "card"),
        ItemKind("graduation", "Graduation tile", ("upgrade",), None, "item", lambda c: list(c.grad_ids),
                 "met (the Level it opens reached)", "graduation.toml", "tile"),
        ItemKind("mastery", "Mastery track", ("vp",), ("mastery",), "item", lambda c: list(c.track_ids),
                 "a seal placed on it (its VP scored)",
                 fixed="mastery icons name the tracks by position (mastery.toml, A-GT-19)"),
    ),
    "unconscious-mind": (
        ItemKind("tile", "Notebook tile", ("tile",), ("tile_stack", "tile_center", "tile_right", "free"), "item",
                 lambda c: list(c.tile_ids), "gained from the Meeting Table or free", "notebook.toml", "tile"),
        ItemKind("card", "Research card", ("card",), ("research_draw", "research_swap"), "item",
                 lambda c: list(c.card_ids), "drawn or swapped into the hand", "research.toml", "card"),
        ItemKind("treatise", "Treatise", ("publish",), None, "item", lambda c: list(c.treatise_ids), "published",
                 "treatises.toml", "treatise"),
        ItemKind("client", "Client", ("client",), ("none",), "item", lambda c: list(c.client_ids), "taken into a room",
                 "clients.toml", "client"),
        ItemKind("dream", "Dream", ("client",), ("treat",), "count", lambda c: list(c.dream_ids),
                 "resolved in a treatment", "dreams.toml", "dream"),
        ItemKind("location", "Location", ("move",), ("professor", "freud"), "item", _um_locations,
                 "the seat moved its Professor or Freud there (its effects offered to the seat)",
                 fixed="city.toml needs exactly the six Locations in clockwise order"),
        ItemKind("location-bonus", "Location bonus slot", ("bonus",), ("bonus",), "item", _um_location_bonuses,
                 "its bonus taken", fixed="city.toml gives every Location exactly three bonuses"),
        ItemKind("district-slot", "District reward slot", ("bonus",), ("district",), "item", _um_district_slots,
                 "its reward taken", fixed="city.toml gives every district exactly four slot rewards"),
        ItemKind("space", "Meeting Table space (board)", ("idea",), ("none",), "item", lambda c: list(c.space_ids),
                 "Ideas placed on it (State Ideas)", "board.toml", "space"),
        ItemKind("goal", "Goal", ("goal",), None, "item", lambda c: list(c.goal_ids), "reached", "city.toml", "goal"),
    ),
}


def kinds_of(game: str) -> tuple[ItemKind, ...]:
    """The item kinds of ``game`` (empty for a game without a content catalogue)."""
    return KINDS.get(game, ())


__all__ = ["ItemKind", "KINDS", "kinds_of"]
