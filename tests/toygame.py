"""The toy press-your-luck game used to test the backbone without a real engine, and its test-only strategies.

Rules: a shared deck (``copies`` cards of each value 0..``max_value``) is shuffled at setup.
On a turn the seat draws cards one at a time into a pot (action 0, ``draw``) or stops and
banks the pot as VP (action 1, ``stop``). A 0 busts: the pot is lost and the turn ends.
After ``max_draws`` draws the seat must stop. The game ends after ``rounds`` rounds or when
the deck runs out at the end of a turn.

The engine lives in the package ``tests/toy/`` (the worked example of ``docs/engine_guide.md``); this
module registers it as the game ``toy`` and adds strategies the tests need.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.registry import register_game
from tests.toy.engine import ToyGame
from tests.toy.params import ToyParams
from tests.toy.rules import DRAW, STOP
from tests.toy.state import ToyState

# pickled (to worker processes) as tests.toygame.ToyGame, so a worker imports this module and its strategies
ToyGame.__module__ = __name__
register_game(ToyGame)

__all__ = ["ToyGame", "ToyParams", "ToyState", "DRAW", "STOP"]

# a worker process of a run whose resolutions are counted (tests/test_resolved_once.py) counts its own
from tests.counting import install_from_env  # noqa: E402

install_from_env()


# ---------------------------------------------------------------------------- test-only strategies
import time as _time  # noqa: E402

from meeplelab.strategies.base import RandomStrategy  # noqa: E402
from meeplelab.strategies.registry import Arg, register_strategy  # noqa: E402


#: calls of slow-random in this process (the pause point of :func:`pause_point` counts them)
_SLOW_CALLS = 0


def pause_point() -> None:
    """Hold this process at a known point of its run while a test signals it (``tests/pausing.py``).

    When the environment variable ``MEEPLELAB_TEST_PAUSE`` names a file holding a number ``n``, the ``n``-th
    decision of slow-random in this process (and every later one) writes ``<file>.<pid>`` (the event a test
    waits on: this process is mid-run, inside a move) and waits while the file exists and holds a number not
    above this decision's (at most 600 s). The test signals the run while it is held, so the signal lands
    mid-run by construction, removes the file to let it go on, or writes a larger number to hold it again
    there. Without the variable nothing is read."""
    global _SLOW_CALLS
    import os

    gate = os.environ.get("MEEPLELAB_TEST_PAUSE")
    if not gate:
        return
    _SLOW_CALLS += 1
    try:
        after = int(open(gate).read().strip())
    except (OSError, ValueError):  # released (or not written yet): go on
        return
    if _SLOW_CALLS < after:
        return
    with open(f"{gate}.{os.getpid()}", "w") as f:
        f.write(str(_SLOW_CALLS))
    deadline = _time.monotonic() + 600
    while _held_at(gate) <= _SLOW_CALLS and _time.monotonic() < deadline:
        _time.sleep(0.01)


def _held_at(gate: str) -> float:
    """The decision the gate file ``gate`` holds at (infinity once it is removed)."""
    try:
        with open(gate) as f:
            return int(f.read().strip())
    except (OSError, ValueError):  # removed (a step is written with os.replace, so never half-written)
        return float("inf")


class SlowRandom(RandomStrategy):
    """Random, but sleeps ``ms`` per decision and holds at :func:`pause_point` (to interrupt runs mid-way in tests)."""

    name = "slow-random"

    def act(self, view, legal_mask, rng):
        pause_point()
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


# ---------------------------------------------------------------------------- compiled plans
from meeplelab.strategies.plans import CompiledPlan, Plan, Rule, When  # noqa: E402


def bank_at(n: int = 3) -> CompiledPlan:
    """A compiled plan: bank the pot once it holds ``n`` VP or more, else draw (stop when drawing is not legal)."""
    return CompiledPlan(Plan("bank-at", (
        Rule(f"bank a pot of {n} or more", prefer=(STOP,), kinds=("D_TURN",), when=(When("pot", ">=", n),)),
        Rule("draw", prefer=(DRAW,)),
        Rule("stop", prefer=(STOP,)),
    )), n=n)


register_strategy("bank-at", bank_at, games=("toy",), args={"n": Arg(int, 3, "pot (VP) to bank at", 1, 30)},
                  doc="Compiled plan: bank at a pot of n (tests).")
register_strategy("empty-plan", lambda: CompiledPlan(Plan("empty-plan")), games=("toy",),
                  doc="Compiled plan with no rules: uniform over the legal actions (tests).")
