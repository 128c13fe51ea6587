"""Scenario helpers for Galileo's Truth rule tests: content by name, and labels and reads on a Position."""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.content import parse_effect
from meeplelab.sim.galileos_truth import GalileosTruth
from meeplelab.sim.galileos_truth import content as ct

B = 4


def new(players: int = 2, seed: int = 3, batch: int = B, params=None):
    game = GalileosTruth(params=params)
    state = game.init(np.arange(batch), seed, players)
    return game, state


def T(game, name: str) -> int:
    """Card type id by content id."""
    return game.content.card_ids.index(name)


def BOARD(game, name: str) -> int:
    return game.content.board_ids.index(name)


def SPACE(game, name: str) -> int:
    return game.content.space_ids.index(name)


def INV(game, name: str) -> int:
    return game.content.inv_ids.index(name)
















def set_icons(game, iset: int, a=(), b=(), sep: str = "none"):
    """Overwrite icon set ``iset`` of a game's compiled content (tests only)."""
    C = game.C
    C.ISET_SEP[iset] = ct.SEP[sep]
    C.ISET_OP[iset] = 0
    C.ISET_ARG[iset] = 0
    C.ISET_PAY[iset] = False
    for gi, grp in enumerate((a, b)):
        for j, txt in enumerate(grp):
            ic = parse_effect(txt, ct.OPCODES, where="test")
            if ic[0] == "books_pay" or (ic[0] in ("coins", "research") and ic[1] < 0):
                C.ISET_PAY[iset] = True
            C.ISET_OP[iset, gi, j] = ct.OP[ic[0]]
            vals = [ct.SUBJECTS.index(x) if isinstance(x, str) else x for x in ic[1:]]
            C.ISET_ARG[iset, gi, j, :len(vals)] = vals


def card_icons(game, name: str, a=(), b=(), sep="none"):
    set_icons(game, int(game.C.CARD_ISET[T(game, name)]), a, b, sep)


# ---------------------------------------------------------------- on a Position (sim/core/position.py)
#: the four games (game ids 0-3 of seed 3) each case is played in
GAMES = range(4)


def positions(game, players: int = 2) -> list:
    """The four games of ``game`` (game ids 0-3 of seed 3) at their first decision, one Position each."""
    from meeplelab.sim.core.position import Position

    return [Position.start(game, players=players, seed=3, game_id=g) for g in GAMES]


def card(game, name: str, where: str = "card") -> str:
    """The label of the action choosing card ``name`` (``where``: ``card`` in hand, ``remove-discard``,
    ``remove-play``)."""
    return f"{where}:{T(game, name)}"


def space(game, name: str) -> str:
    """The label of the action assigning the Natural Philosopher to space ``name``."""
    return f"philosopher:{SPACE(game, name)}"


def zone_count(pos, zone: int, seat: int = 0) -> int:
    """How many of ``seat``'s cards are in ``zone``."""
    return pos.get("czone", seat=seat)[:pos.get("nslots", seat=seat)].count(zone)


def zone_of(pos, card_type, seat: int = 0) -> list:
    """Zones of ``seat``'s cards of type ``card_type`` (a content id or a type number)."""
    t = T(pos.game, card_type) if isinstance(card_type, str) else card_type
    n = pos.get("nslots", seat=seat)
    return [z for ty, z in zip(pos.get("ctype", seat=seat)[:n], pos.get("czone", seat=seat)[:n]) if ty == t]


def effects_now(pos) -> None:
    """Resolve the pending mandatory Effects first when that choice is open (A-GT-25)."""
    if "effects" in pos.legal():
        pos.act("effects")
