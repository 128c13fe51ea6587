"""State of a batch of toy games, declared once as a table of fields grouped by entity.

``python -m meeplelab.sim.core.layout tests.toy.state:LAYOUT tests/toy/cols.py`` writes the column constants.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meeplelab.sim.core.layout import Field, Group, Layout, LayoutState, Pile

COLS_DOC = "Column constants of the toy game's state (tests/toy/state.py)."

#: the pending decision of a game (the only kind the toy has; a real engine has many)
D_TURN = 1

LAYOUT = Layout((
    Group("game", None, (
        Field("decision", init=D_TURN, doc="pending decision kind (D_TURN; 0 when the game is over)"),
        Field("top", doc="position of the next card in the deck"),
        Field("pot", doc="VP drawn this turn, not yet banked (VP)"),
        Field("draws", doc="cards drawn this turn"),
        Field("to_act", doc="seat to act (0-based)"),
        Field("turn", doc="turns finished"),
        Field("round", init=1, doc="round, from 1"),
        Field("over", doc="1 when the game is over", flag=True),
    ), doc="one toy game"),
    Group("seat", "P", (Field("vp", doc="banked VP (VP)"),), doc="one seat"),
    Group("pile", piles=(Pile("deck", "deck_size", init=0, doc="card values in draw order"),),
          doc="the shared deck, drawn from position top"),
))


@dataclass
class ToyState(LayoutState):
    """A batch of toy games: ``game`` ``int64[B, GAME_WIDTH]``, ``seat`` ``int64[B, P, SEAT_WIDTH]``,
    ``pile`` ``int64[B, 1, deck_size]``; named views ``state.pot`` (``[B]``), ``state.vp`` (``[B, P]``),
    ``state.deck`` (``[B, deck_size]``)."""

    game: np.ndarray = None
    seat: np.ndarray = None
    pile: np.ndarray = None
    sizes: dict = None
    LAYOUT = LAYOUT
