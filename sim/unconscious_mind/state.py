"""Batch state of Unconscious Mind.

Every rule array lives in one ``int64[B, W]`` matrix ``M`` (one row per game), so the kernels take a single
array instead of a hundred (numba compiles a big tuple of arrays very slowly). Each named field is a view of
a column block of ``M`` with shape ``[B]``, ``[B, A]`` or ``[B, A, Z]``: ``state.coffee[g, p]`` reads and
writes ``M`` in place. :data:`LAYOUT` lists the fields; the kernels address them through offsets
``C.so_<field>`` (``S.M[g, C.so_coffee + p]`` is the seat's Coffee).

Dial positions: 0 = reserve, 1 + quality*3 + level (quality growth/freedom/passion, level minor/median/major).
Research card locations: 0 deck, 1 display, 2 hand, 3 in play, 4 Volume of a Treatise (owner = treatise id).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from sim.core import BatchState

STACK_DEPTH = 48


def layout_spec(P: int, n: dict) -> list[tuple[str, tuple[int, ...], int]]:
    """(field, shape after B, initial value) for ``P`` seats and content sizes ``n``."""
    return [
        # turn structure
        ("seat", (), 0), ("turn", (), 0), ("rnd", (), 1), ("over", (), 0), ("end_trig", (), 0),
        ("last_round", (), 0), ("stk", (STACK_DEPTH, 4), 0), ("sp", (), 0),
        ("t_opt", (), 0), ("t_act", (), -1), ("t_cspent", (), 0), ("t_cgain", (), 0), ("t_vp", (), 0),
        # per seat
        ("coffee", (P,), 0), ("vp", (P,), 0), ("vp_ev", (P,), 0), ("vp_cat", (P, n["ncat"]), 0),
        ("bright", (P,), 0), ("hearts", (P,), 0), ("rep", (P,), 0), ("rep_order", (P,), 0), ("rep_seq", (), 0),
        ("freud_rep", (), 0), ("ideas_hand", (P,), 0), ("ideas_locked", (P,), 0), ("inkpot", (P,), 0),
        ("dial_w", (P, 10), 0), ("dial_c", (P, 10), 0), ("col_board", (P,), 6), ("col_spent", (P,), 0),
        # Meeting Table idea spaces
        ("space_owner", (n["spaces"],), -1), ("space_act", (n["spaces"],), -1), ("space_n", (n["spaces"],), 0),
        ("space_bright", (n["spaces"],), 0),
        # Notebook
        ("nb", (P, 9), -1), ("icons", (P,), 0), ("row_done", (P, 3), 0), ("col_done", (P, 3), 0),
        ("nb_full", (P,), 0), ("tstack", (2, n["ntl"]), -1), ("ttop", (2,), 0), ("market", (2, 2), -1),
        ("tdisc", (), 0),
        # Research cards and Treatises
        ("rdeck", (n["cards"],), 0), ("rtop", (), 0), ("rdisp", (n["rdisp"],), -1),
        ("card_loc", (n["cards"],), 0), ("card_own", (n["cards"],), -1),
        ("trdeck", (n["treatises"],), 0), ("trtop", (), 0), ("trdisp", (n["trdisp"],), -1),
        ("tr_owner", (n["treatises"],), -1), ("tr_cards", (n["treatises"], 5), -1), ("tr_n", (n["treatises"],), 0),
        ("pub_t", (), -1), ("pub_fill", (5,), -1), ("pub_cited", (P,), 0),
        # clients and dreams
        ("rdeck_cl", (n["routine"],), 0), ("rtop_cl", (), 0), ("rdisp_cl", (n["rdisp_cl"],), -1),
        ("cdeck_cl", (n["case"],), 0), ("ctop_cl", (), 0), ("cdisp_cl", (n["cdisp_cl"],), -1),
        ("cl_owner", (n["clients"],), -1), ("cl_where", (n["clients"],), 0),
        ("room_client", (P, 2), -1), ("room_ther", (P, 2), 0), ("room_cath", (P, 2), 0), ("room_open", (P, 2), 0),
        ("room_latent", (P, 2), -1), ("room_manifest", (P, 2), -1), ("cured", (P,), 0),
        ("ldeck", (n["latent"],), 0), ("ltop", (), 0), ("mdeck", (n["manifest"],), 0), ("mtop", (), 0),
        ("mdisp", (n["mdisp"],), -1), ("dr_gone", (), 0),
        # City
        ("prof_loc", (P,), 0), ("freud_loc", (), 0), ("loc_cov", (6, 3), 0), ("dist_left", (3,), 0),
        ("dist_slot", (3, 4), -1), ("goal_id", (n["goals"],), -1), ("goal_owner", (n["goals"],), -1),
        # hidden information: 1 = everyone saw this Research card go into its holder's hand (display swap)
        ("card_known", (n["cards"],), 0),
    ]


FIELD_NAMES = tuple(f for f, _, _ in layout_spec(1, {k: 1 for k in (
    "ncat", "spaces", "ntl", "cards", "rdisp", "treatises", "trdisp", "routine", "rdisp_cl", "case", "cdisp_cl",
    "clients", "latent", "manifest", "mdisp", "goals")}))
FIELD_NDIM = {f: len(t) for f, t, _ in layout_spec(1, {k: 1 for k in (
    "ncat", "spaces", "ntl", "cards", "rdisp", "treatises", "trdisp", "routine", "rdisp_cl", "case", "cdisp_cl",
    "clients", "latent", "manifest", "mdisp", "goals")})}


class Layout:
    """Offsets and shapes of the fields inside ``M`` (shared by every copy of a batch)."""

    def __init__(self, spec):
        self.off: dict[str, int] = {}
        self.shape: dict[str, tuple[int, ...]] = {}
        self.init: dict[str, int] = {}
        o = 0
        for name, shape, init in spec:
            self.off[name] = o
            self.shape[name] = tuple(int(x) for x in shape)
            self.init[name] = init
            o += int(np.prod(shape)) if shape else 1
        self.width = o

    def new_matrix(self, b: int) -> np.ndarray:
        m = np.zeros((b, self.width), np.int64)
        for name, o in self.off.items():
            n = int(np.prod(self.shape[name])) if self.shape[name] else 1
            m[:, o:o + n] = self.init[name]
        return m

    def __eq__(self, other):
        return isinstance(other, Layout) and self.off == other.off and self.shape == other.shape

    def __hash__(self):
        return hash(tuple(self.off.items()))


@dataclass
class UMState(BatchState):
    """Core fields plus ``M`` (``int64[B, W]``, every rule array) and its ``layout``.

    Named fields (``state.coffee``, ``state.nb``, ...) are views into ``M``; see :func:`layout_spec`.
    """

    M: np.ndarray
    layout: Layout

    def __getattr__(self, name):
        lay = self.__dict__.get("layout")
        if lay is None or name not in lay.off:
            raise AttributeError(name)
        o = lay.off[name]
        shape = lay.shape[name]
        m = self.__dict__["M"]
        if not shape:
            return m[:, o]
        n = int(np.prod(shape))
        return m[:, o:o + n].reshape((m.shape[0],) + shape)


Arrays = namedtuple("Arrays", ("M", "K", "event_buf", "event_n", "turn_buf", "turn_n", "ply", "rng_key", "rng_ctr"))


def arrays(state: UMState, K: np.ndarray) -> Arrays:
    """The namedtuple of arrays the kernels take (same objects, updated in place); ``K`` is the content."""
    return Arrays(state.M, K, state.event_buf, state.event_n, state.turn_buf, state.turn_n, state.ply,
                  state.rng_key, state.rng_ctr)
