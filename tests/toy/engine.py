"""The toy game's ``Game`` class: wires the core hooks to the kernels of ``step.py``."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from meeplelab.sim.core import Column, Game
from meeplelab.sim.core.rng import shuffle_range

from . import step
from .cols import DRAWS, OVER, POT, ROUND, TO_ACT, TURN, VP
from .params import ToyParams
from .rules import DRAW
from .state import LAYOUT, ToyState

#: the arrays every kernel takes (state groups first, then the core log buffers)
ToyArrays = namedtuple("ToyArrays", LAYOUT.names + ("ply", "turn_buf", "turn_n", "event_buf", "event_n"))


def arrays(state: ToyState) -> ToyArrays:
    """The kernels' namedtuple of ``state``'s arrays (the same objects, updated in place)."""
    return ToyArrays(*(getattr(state, n) for n in ToyArrays._fields))


#: the content the kernels read as ``C``: the card values of the deck before it is shuffled (``int64[deck_size]``)
ToyContent = namedtuple("ToyContent", ("card_values",))


class ToyGame(Game):
    """Press-your-luck test game (tests/toygame.py): 1-4 players, 2 actions (draw, stop)."""

    name = "toy"
    title = "Toy press-your-luck"
    min_players, max_players = 1, 4
    num_actions = 2
    Params = ToyParams
    turn_columns = (
        Column("ended_by", "str", "-", "The action that ended the turn.", ("draw", "stop")),
        Column("draws", "int16", "cards", "Cards drawn in the turn."),
        Column("vp_after", "int32", "VP", "The seat's VP after the turn."),
    )
    event_kinds = ("draw", "bust", "bank")
    event_columns = (Column("amount", "int32", "VP", "Card value drawn, pot lost, or pot banked."),)
    score_categories = ("banked",)
    turn_capacity = 8
    event_capacity = 16
    compiled_play = "tests.toy.play"

    def __init__(self, params=None, content_dir=None):
        super().__init__(params, content_dir)
        p = self.params
        self.kernel_content = ToyContent(np.repeat(np.arange(p.max_value + 1), p.copies).astype(np.int64))

    def kernel_state(self, state: ToyState) -> ToyArrays:
        return arrays(state)

    def max_plies(self, num_players: int) -> int:
        p = self.params
        return (p.max_value + 1) * p.copies + num_players * p.rounds + 1

    def _init(self, base: dict, num_players: int) -> ToyState:
        p = self.params
        b = base["game_id"].shape[0]
        sizes = {"deck_size": (p.max_value + 1) * p.copies}
        groups = LAYOUT.allocate(b, num_players, sizes)
        groups["pile"][:, 0, :] = self.kernel_content.card_values[None, :]
        state = ToyState(**base, **groups, sizes=sizes)
        step.setup(*self.kernel_context(state), state.rng_key, state.rng_ctr)
        return state

    def legal_action_mask(self, state: ToyState) -> np.ndarray:
        out = np.empty((state.batch_size, self.num_actions), np.bool_)
        step.legal_mask(*self.kernel_context(state), out)
        return out

    def to_act(self, state: ToyState) -> np.ndarray:
        return state.game[:, TO_ACT].copy()

    def _apply(self, state: ToyState, actions: np.ndarray, active: np.ndarray) -> None:
        step.apply(*self.kernel_context(state), actions, active)

    def done(self, state: ToyState) -> np.ndarray:
        return state.game[:, OVER] != 0

    def final_scores(self, state: ToyState) -> np.ndarray:
        return state.seat[:, :, VP].copy()

    def vp(self, state: ToyState) -> np.ndarray:
        seats = np.arange(state.num_players)[None, :]
        return state.seat[:, :, VP] + np.where(seats == state.game[:, TO_ACT, None], state.game[:, POT, None], 0)

    def score_breakdown(self, state: ToyState) -> dict[str, np.ndarray]:
        return {"banked": state.seat[:, :, VP].copy()}

    def progress(self, state: ToyState):
        return state.game[:, TURN].copy(), state.game[:, ROUND] - 1

    def action_label(self, action: int) -> str:
        return ("draw", "stop")[action]

    def _redeterminize(self, state, seat, streams):  # noqa: ARG002
        """The undrawn part of the deck is hidden: shuffle it (what every seat could know: the drawn cards)."""
        for g in range(state.batch_size):
            t = int(state.top[g])
            if t < state.deck.shape[1] - 1:
                shuffle_range(streams.keys, streams.counters, g, state.deck[g], t, state.deck.shape[1])


__all__ = ["ToyGame", "ToyArrays", "arrays", "DRAW", "DRAWS"]
