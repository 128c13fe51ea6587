"""Galileo's Truth's decision dispatchers: the legal action mask and the application of one game's pending decision (its phase, ``P_*``).

Written by ``python -m meeplelab.sim.core.decisions meeplelab.sim.galileos_truth.rules.decisions`` from its table;
``tests/test_decisions.py`` checks this file against it. Do not edit by hand.
"""

from numba import njit

from meeplelab.sim.galileos_truth.state import P_BOOKSUBJ, P_GROUP, P_MAIN, P_OKEEP, P_OLEVEL, P_OORDER, P_OSPACE, P_OVER, P_PENPAY, P_PLACE, P_PURPLE, P_REMOVE, P_SEC, P_SLOT, P_STACK, P_TARGET
from meeplelab.sim.galileos_truth.rules.main_actions import legal_main, apply_main
from meeplelab.sim.galileos_truth.rules.play import legal_stack, apply_stack, legal_purple, apply_purple, legal_penpay, apply_penpay
from meeplelab.sim.galileos_truth.rules.resolution import legal_group, apply_group, legal_secondary, apply_secondary, legal_book_subject, apply_book_subject
from meeplelab.sim.galileos_truth.rules.treatises import legal_target, apply_target, legal_place, apply_place, legal_remove, apply_remove
from meeplelab.sim.galileos_truth.rules.inventions import legal_slot, apply_slot
from meeplelab.sim.galileos_truth.rules.observe import legal_level, apply_level, legal_keep, apply_keep, legal_space, apply_space, legal_order, apply_order
from meeplelab.sim.galileos_truth.rules.flow import apply_over


@njit(cache=True, _nrt=False)
def legal(kind, S, C, prm, g, out):
    """Fill the legal action mask of one game waiting for decision ``kind``."""
    if kind == P_MAIN:
        legal_main(S, C, prm, g, out)
    elif kind == P_STACK:
        legal_stack(S, C, prm, g, out)
    elif kind == P_PURPLE:
        legal_purple(S, C, prm, g, out)
    elif kind == P_PENPAY:
        legal_penpay(S, C, prm, g, out)
    elif kind == P_GROUP:
        legal_group(S, C, prm, g, out)
    elif kind == P_SEC:
        legal_secondary(S, C, prm, g, out)
    elif kind == P_BOOKSUBJ:
        legal_book_subject(S, C, prm, g, out)
    elif kind == P_TARGET:
        legal_target(S, C, prm, g, out)
    elif kind == P_PLACE:
        legal_place(S, C, prm, g, out)
    elif kind == P_REMOVE:
        legal_remove(S, C, prm, g, out)
    elif kind == P_SLOT:
        legal_slot(S, C, prm, g, out)
    elif kind == P_OLEVEL:
        legal_level(S, C, prm, g, out)
    elif kind == P_OKEEP:
        legal_keep(S, C, prm, g, out)
    elif kind == P_OSPACE:
        legal_space(S, C, prm, g, out)
    elif kind == P_OORDER:
        legal_order(S, C, prm, g, out)
    else:
        raise RuntimeError("no legal handler for this decision kind")


@njit(cache=True, _nrt=False)
def apply(kind, S, C, prm, g, a):
    """Apply the action of one game waiting for decision ``kind``."""
    if kind == P_MAIN:
        apply_main(S, C, prm, g, a)
    elif kind == P_STACK:
        apply_stack(S, C, prm, g, a)
    elif kind == P_PURPLE:
        apply_purple(S, C, prm, g, a)
    elif kind == P_PENPAY:
        apply_penpay(S, C, prm, g, a)
    elif kind == P_GROUP:
        apply_group(S, C, prm, g, a)
    elif kind == P_SEC:
        apply_secondary(S, C, prm, g, a)
    elif kind == P_BOOKSUBJ:
        apply_book_subject(S, C, prm, g, a)
    elif kind == P_TARGET:
        apply_target(S, C, prm, g, a)
    elif kind == P_PLACE:
        apply_place(S, C, prm, g, a)
    elif kind == P_REMOVE:
        apply_remove(S, C, prm, g, a)
    elif kind == P_SLOT:
        apply_slot(S, C, prm, g, a)
    elif kind == P_OLEVEL:
        apply_level(S, C, prm, g, a)
    elif kind == P_OKEEP:
        apply_keep(S, C, prm, g, a)
    elif kind == P_OSPACE:
        apply_space(S, C, prm, g, a)
    elif kind == P_OORDER:
        apply_order(S, C, prm, g, a)
    elif kind == P_OVER:
        apply_over(S, C, prm, g, a)
    else:
        raise RuntimeError("no apply handler for this decision kind")
