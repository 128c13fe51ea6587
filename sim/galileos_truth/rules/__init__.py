"""Rule kernels of Galileo's Truth: scalar per-game numba code looping over the batch.

``S`` is the state namedtuple (:data:`~meeplelab.sim.galileos_truth.state.SArr`: the groups of
:data:`~meeplelab.sim.galileos_truth.state.LAYOUT`, addressed by the columns of :mod:`meeplelab.sim.galileos_truth.cols`, and the log
and random-stream arrays), ``C`` the compiled content (:class:`~meeplelab.sim.galileos_truth.content.Content`), ``prm`` the
int64 parameter vector (``state.I_*`` indices). The acting seat is ``S.game[g, TO_ACT]``; every decision in a
game is taken by that seat.

One module per mechanism; the lower ones hold the rules a decision checks and applies, the upper ones each
pending decision's legality and application handlers side by side (the table: :mod:`.decisions`):

- :mod:`.ledger` VP, Suspicion, Books, payments; :mod:`.cards` zones, deck, draws; :mod:`.academy` Level,
  Mentors, seals; :mod:`.icons` resolving icons; :mod:`.boards` Treatise boards; :mod:`.workshop`;
  :mod:`.sky`; :mod:`.secondary` which Secondary Actions are open; :mod:`.scoring`; :mod:`.flow` turns and
  Cycles, the next pending decision, setup;
- decisions: :mod:`.main_actions` (P_MAIN), :mod:`.play` (P_STACK, P_PURPLE, P_PENPAY), :mod:`.resolution`
  (P_GROUP, P_SEC, P_BOOKSUBJ), :mod:`.treatises` (P_TARGET, P_PLACE, P_REMOVE), :mod:`.inventions` (P_SLOT),
  :mod:`.observe` (P_OLEVEL, P_OKEEP, P_OSPACE, P_OORDER), :mod:`.flow` (P_OVER);
- :mod:`.dispatch` the two dispatchers, written from the table.

This module holds the three entry kernels the engine calls.
"""

from __future__ import annotations

from numba import njit

from ..cols import OVER, PHASE
from .dispatch import apply, legal
from .flow import setup_game, start_cycle

__all__ = ["mask_kernel", "apply_kernel", "setup_kernel", "start_cycle"]


@njit(cache=True, _nrt=False)
def mask_kernel(S, C, prm, out):
    """Fill the legal action mask ``out`` (``bool[B, NUM_ACTIONS]``, all False on entry) of every game still
    running: the legality handler of its pending decision (:mod:`.decisions`)."""
    for g in range(out.shape[0]):
        if S.game[g, OVER]:
            continue
        legal(S.game[g, PHASE], S, C, prm, g, out[g])


@njit(cache=True, _nrt=False)
def apply_kernel(S, C, prm, actions, active):
    """Apply ``actions[g]`` (``int64[B]``) to every game with ``active[g]`` (``bool[B]``): the application
    handler of its pending decision (:mod:`.decisions`)."""
    for g in range(actions.shape[0]):
        if active[g]:
            apply(S.game[g, PHASE], S, C, prm, g, actions[g])


@njit(cache=True, _nrt=False)
def setup_kernel(S, C, prm):
    """Set up every game of the batch (:func:`.flow.setup_game`): shuffles, Workshop, first Cycle."""
    for g in range(S.game.shape[0]):
        setup_game(S, C, prm, g)
