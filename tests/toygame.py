"""A tiny press-your-luck card game used to test the backbone without a real engine.

Rules: a shared deck (``copies`` cards of each value 0..``max_value``) is shuffled at setup.
On a turn the seat draws cards one at a time into a pot (action 0, ``draw``) or stops and
banks the pot as VP (action 1, ``stop``). A 0 busts: the pot is lost and the turn ends.
After ``max_draws`` draws the seat must stop. The game ends after ``rounds`` rounds or when
the deck runs out at the end of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from sim.core import BatchState, Column, Game, param
from sim.core.logs import alloc_row
from sim.core.rng import chance_shuffle, shuffle_range
from sim.registry import register_game

DRAW, STOP = 0, 1
EV_DRAW, EV_BUST, EV_BANK = 0, 1, 2


@dataclass(frozen=True)
class ToyParams:
    copies: int = param(4, unit="cards", source="A-TOY-01", doc="Copies of each card value.", lo=1, hi=20)
    max_value: int = param(3, unit="VP", source="A-TOY-02", doc="Highest card value.", lo=1, hi=9)
    max_draws: int = param(3, unit="cards", source="A-TOY-03", doc="Draws allowed per turn.", lo=1, hi=10)
    rounds: int = param(4, unit="rounds", source="A-TOY-04", doc="Rounds in a game.", lo=1, hi=50)


@dataclass
class ToyState(BatchState):
    deck: np.ndarray      # int8[B, D]
    top: np.ndarray       # int32[B] next card index
    vp: np.ndarray        # int32[B, P]
    pot: np.ndarray       # int32[B]
    draws: np.ndarray     # int32[B] draws this turn
    seat: np.ndarray      # int8[B]
    turn: np.ndarray      # int32[B]
    round: np.ndarray     # int16[B]
    over: np.ndarray      # bool[B]


@njit(cache=True)
def _setup(deck, key, ctr):
    for g in range(deck.shape[0]):
        chance_shuffle(key, ctr, g, 0, deck[g], 0, deck.shape[1])  # zone 0: the deck


@njit(cache=True)
def _mask(deck, top, draws, over, max_draws, out):
    for g in range(out.shape[0]):
        out[g, 0] = False
        out[g, 1] = False
        if over[g]:
            continue
        out[g, STOP] = True
        if draws[g] < max_draws and top[g] < deck.shape[1]:
            out[g, DRAW] = True


@njit(cache=True)
def _apply(actions, active, deck, top, vp, pot, draws, seat, turn, rnd, over, ply, nplayers, rounds,
           tbuf, tn, ebuf, en):
    for g in range(actions.shape[0]):
        if not active[g]:
            continue
        s = seat[g]
        end_turn = False
        if actions[g] == DRAW:
            c = deck[g, top[g]]
            top[g] += 1
            draws[g] += 1
            r = alloc_row(ebuf, en, g)
            ebuf[g, r, 0] = ply[g]; ebuf[g, r, 1] = turn[g]; ebuf[g, r, 2] = s; ebuf[g, r, 3] = EV_DRAW; ebuf[g, r, 4] = c
            if c == 0:
                r = alloc_row(ebuf, en, g)
                ebuf[g, r, 0] = ply[g]; ebuf[g, r, 1] = turn[g]; ebuf[g, r, 2] = s; ebuf[g, r, 3] = EV_BUST; ebuf[g, r, 4] = pot[g]
                pot[g] = 0
                end_turn = True
            else:
                pot[g] += c
        else:
            vp[g, s] += pot[g]
            r = alloc_row(ebuf, en, g)
            ebuf[g, r, 0] = ply[g]; ebuf[g, r, 1] = turn[g]; ebuf[g, r, 2] = s; ebuf[g, r, 3] = EV_BANK; ebuf[g, r, 4] = pot[g]
            end_turn = True
        if end_turn:
            r = alloc_row(tbuf, tn, g)
            tbuf[g, r, 0] = ply[g] + 1; tbuf[g, r, 1] = turn[g]; tbuf[g, r, 2] = rnd[g]; tbuf[g, r, 3] = s
            tbuf[g, r, 4] = actions[g]; tbuf[g, r, 5] = draws[g]; tbuf[g, r, 6] = vp[g, s]
            pot[g] = 0
            draws[g] = 0
            turn[g] += 1
            seat[g] = (s + 1) % nplayers
            if seat[g] == 0:
                rnd[g] += 1
            if (seat[g] == 0 and rnd[g] > rounds) or top[g] >= deck.shape[1]:
                over[g] = True


@register_game
class ToyGame(Game):
    """Press-your-luck test game (see module docstring); 1-4 players, 2 actions."""

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

    def max_plies(self, num_players: int) -> int:
        p = self.params
        return (p.max_value + 1) * p.copies + num_players * p.rounds + 1

    def _init(self, base: dict, num_players: int) -> ToyState:
        p = self.params
        b = base["game_id"].shape[0]
        deck = np.tile(np.repeat(np.arange(p.max_value + 1, dtype=np.int8), p.copies), (b, 1))
        _setup(deck, base["rng_key"], base["rng_ctr"])
        return ToyState(**base, deck=deck, top=np.zeros(b, np.int32), vp=np.zeros((b, num_players), np.int32),
                        pot=np.zeros(b, np.int32), draws=np.zeros(b, np.int32), seat=np.zeros(b, np.int8),
                        turn=np.zeros(b, np.int32), round=np.ones(b, np.int16), over=np.zeros(b, np.bool_))

    def legal_action_mask(self, state: ToyState) -> np.ndarray:
        out = np.empty((state.batch_size, 2), np.bool_)
        _mask(state.deck, state.top, state.draws, state.over, self.params.max_draws, out)
        return out

    def to_act(self, state: ToyState) -> np.ndarray:
        return state.seat.astype(np.int64)

    def _apply(self, state: ToyState, actions: np.ndarray, active: np.ndarray) -> None:
        _apply(actions, active, state.deck, state.top, state.vp, state.pot, state.draws, state.seat, state.turn,
               state.round, state.over, state.ply, state.num_players, self.params.rounds,
               state.turn_buf, state.turn_n, state.event_buf, state.event_n)

    def done(self, state: ToyState) -> np.ndarray:
        return state.over.copy()

    def final_scores(self, state: ToyState) -> np.ndarray:
        return state.vp.astype(np.int64)

    def vp(self, state: ToyState) -> np.ndarray:
        return state.vp.astype(np.int64) + np.where(
            np.arange(state.num_players)[None, :] == state.seat[:, None], state.pot[:, None], 0)

    def score_breakdown(self, state: ToyState) -> dict[str, np.ndarray]:
        return {"banked": state.vp.astype(np.int64)}

    def progress(self, state: ToyState):
        return state.turn.astype(np.int64), (state.round - 1).astype(np.int64)

    def action_label(self, action: int) -> str:
        return ("draw", "stop")[action]


# ---------------------------------------------------------------------------- test-only strategies
import time as _time  # noqa: E402

from strategies.base import RandomStrategy  # noqa: E402
from strategies.registry import Arg, register_strategy  # noqa: E402


class SlowRandom(RandomStrategy):
    """Random, but sleeps ``ms`` per decision (to interrupt runs mid-way in tests)."""

    name = "slow-random"

    def act(self, view, legal_mask, rng):
        _time.sleep(self.args.get("ms", 5) / 1000)
        return super().act(view, legal_mask, rng)


class AlwaysDraw(RandomStrategy):
    """Draws whenever drawing is legal (a fixed plan; consumes no randomness)."""

    name = "always-draw"

    def act(self, view, legal_mask, rng):
        return np.where(legal_mask[:, DRAW], DRAW, STOP).astype(np.int64)


class Interrupting(RandomStrategy):
    """Random, but raises KeyboardInterrupt at its ``after``-th call (Ctrl-C in tests)."""

    name = "interrupting"
    calls = 0

    def act(self, view, legal_mask, rng):
        Interrupting.calls += 1
        if Interrupting.calls == self.args.get("after", 10):
            raise KeyboardInterrupt
        return super().act(view, legal_mask, rng)


class Crashing(RandomStrategy):
    """Random, but fails when it decides in game ``game`` while the file named by the environment
    variable ``MEEPLELAB_TEST_CRASH`` exists: ``exit=0`` raises RuntimeError, ``exit=1`` ends its
    process at once (``os._exit(3)``), as a worker that dies does (tests)."""

    name = "crashing"

    def act(self, view, legal_mask, rng):
        import os

        flag = os.environ.get("MEEPLELAB_TEST_CRASH")
        if flag and os.path.exists(flag) and int(self.args.get("game", 0)) in view.state.game_id[view.idx]:
            if self.args.get("exit", 0):
                os._exit(3)
            raise RuntimeError(f"crashing strategy in game {self.args.get('game', 0)}")
        return super().act(view, legal_mask, rng)


register_strategy("slow-random", SlowRandom, games=("toy",), args={"ms": Arg(int, 5, "sleep per decision (ms)", 0, 1000)},
                  doc="Random with a delay (tests).")
register_strategy("always-draw", AlwaysDraw, games=("toy",), doc="Draw while legal (tests).")
register_strategy("interrupting", Interrupting, games=("toy",), args={"after": Arg(int, 10, "calls before Ctrl-C", 1)},
                  doc="Raises KeyboardInterrupt (tests).")
register_strategy("crashing", Crashing, games=("toy",),
                  args={"game": Arg(int, 0, "game index where it fails", 0), "exit": Arg(int, 0, "1 = end the process", 0, 1)},
                  doc="Fails in one game while a flag file exists (tests).")


def _toy_redeterminize(self, state, seat, streams):  # noqa: ARG001
    """The undrawn part of the deck is hidden: shuffle it."""
    for g in range(state.batch_size):
        t = int(state.top[g])
        if t < state.deck.shape[1] - 1:
            shuffle_range(streams.keys, streams.counters, g, state.deck[g], t, state.deck.shape[1])


ToyGame._redeterminize = _toy_redeterminize
