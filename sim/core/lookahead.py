"""The heuristic's one-step lookahead inside the play kernel (compiled play; docs/compiled_play.md).

The engine-independent pieces of the compiled heuristic (:class:`meeplelab.strategies.generic.Heuristic` and its games'
subclasses), used by each engine's written lookahead module (``<pkg>/lookahead.py``, from
``sim/core/data/lookahead_module.py.tmpl``):

- :func:`copy_game`: one game's rows of every state array into a scratch game slot, with fresh log counters
  (as ``BatchState.take(..., fresh_logs=True)``; the rules only ever write the log buffers, so the rows
  already in the scratch buffers are never read);
- :func:`weighted_margin`: the weighted feature value of a seat minus the best other seat's, with the float
  arithmetic of :func:`meeplelab.strategies.search.value`;
- :func:`pick_best_one`: :func:`meeplelab.strategies.search.pick_best` for one deciding game;
- :func:`only_legal`, :func:`uniform_pick`: the only legal action (taken without valuing), and the empty
  finishing plan's uniform draw in one pass;
- :func:`heuristic_specs`: which seats' heuristics have a compiled form (their tables and scratch are built one
  floor up, by :func:`meeplelab.strategies.compiled.heuristic_tables`: the engine framework never imports
  strategies).

Every kernel here is allocation-free (``_nrt=False``): scratch comes from Python, once per batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types
from numba.extending import overload

from .rng import draw_below

#: the log fields of every state (:data:`meeplelab.sim.core.state._LOG_FIELDS`): buffers not copied, counters zeroed
LOG_COUNTERS = ("turn_n", "event_n")
LOG_BUFFERS = ("turn_buf", "event_buf")
#: the name of a state tuple class's attribute listing its fields that are not per game (content, scratch rows:
#: no batch axis), which :func:`copy_game` leaves alone (Unconscious Mind's ``Arrays``: ``K``, ``eff``, ``work``)
NOT_PER_GAME = "NOT_PER_GAME"
#: ``pick_best``'s tolerance: a score within this of the best is tied with it
TIE_EPS = 1e-9


def copy_game(S, g, D, d):
    """Copy game ``g`` of the state tuple ``S`` into row ``d`` of the state tuple ``D`` (same fields and
    shapes but the batch), with empty logs: ``turn_n``/``event_n`` zero, the buffers not copied, nor the fields
    the tuple's class names in its :data:`NOT_PER_GAME` attribute (shared content, scratch). The compiled form is
    generated per state tuple type from its field names (:func:`_copy_game_impl`)."""
    skip = getattr(type(S), NOT_PER_GAME, ())
    for name in S._fields:
        if name in skip:
            continue
        if name in LOG_COUNTERS:
            getattr(D, name)[d] = 0
        elif name not in LOG_BUFFERS:
            getattr(D, name)[d] = getattr(S, name)[g]


@overload(copy_game)
def _copy_game_impl(S, g, D, d):
    if not isinstance(S, types.BaseNamedTuple):
        return None
    lines = ["def impl(S, g, D, d):"]
    skip = getattr(S.instance_class, NOT_PER_GAME, ())
    for name, typ in zip(S.fields, S.types):
        if name in skip:
            continue
        if name in LOG_COUNTERS:
            lines.append(f"    D.{name}[d] = 0")
        elif name not in LOG_BUFFERS:  # element loops: an array slice assignment would need reference counting
            lines += [f"    a = S.{name}", f"    b = D.{name}"]
            idx = ""
            for k in range(1, typ.ndim):
                lines.append("    " * k + f"for i{k} in range(a.shape[{k}]):")
                idx += f", i{k}"
            lines.append("    " * typ.ndim + f"b[d{idx}] = a[g{idx}]")
    ns: dict = {}
    exec("\n".join(lines), ns)  # noqa: S102 - code from the state tuple's own field names
    return ns["impl"]


@njit(cache=True, _nrt=False)
def weighted_margin(vals, p):
    """``vals[p]`` minus the largest ``vals[q]``, ``q != p`` (``vals[p]`` alone with one seat): the margin of
    :func:`meeplelab.strategies.search.value`."""
    P = vals.shape[0]
    if P == 1:
        return vals[p]
    m = -np.inf
    for q in range(P):
        if q != p and vals[q] > m:
            m = vals[q]
    return vals[p] - m


@njit(cache=True, _nrt=False)
def weighted_value(vf, widx, wval, p):
    """``sum_k wval[p, k] * vf[widx[p, k]]`` over ``k`` until ``widx[p, k] < 0``, added left to right from 0
    (the order of the heuristic's weights, zero weights left out: :func:`meeplelab.strategies.search.value`)."""
    v = 0.0
    for k in range(widx.shape[1]):
        i = widx[p, k]
        if i < 0:
            break
        v += wval[p, k] * vf[i]
    return v


@njit(cache=True, _nrt=False)
def only_legal(mask):
    """The only legal action of ``mask`` (``bool[A]``); -1 when none is legal, -2 when two or more are."""
    only = -1
    for a in range(mask.shape[0]):
        if mask[a]:
            if only >= 0:
                return -2
            only = a
    return only


@njit(cache=True, _nrt=False)
def uniform_pick(mask, order, keys, counters, row):
    """:func:`meeplelab.sim.core.compiled.uniform_choice` (uniform over the legal actions of ``mask``, ``bool[A]``:
    one draw of stream ``row`` of ``keys``/``counters``, advanced; -1 and no draw when nothing is legal), the same
    action for the same draw, in one pass over the mask: the legal actions are listed in ``order``
    (``int64[A]`` scratch, overwritten) as they are counted, branch-free."""
    n = 0
    for a in range(mask.shape[0]):
        order[n] = a
        n += np.int64(mask[a])
    if n == 0:
        return -1
    return order[draw_below(keys, counters, row, n)]


@njit(cache=True, _nrt=False)
def pick_best_one(scores, mask, u):
    """The legal action (``mask``, ``bool[A]``) with the highest ``scores`` (``float64[A]``); ties (within
    :data:`TIE_EPS` of the best) broken by the uniform ``u``, in action order: :func:`meeplelab.strategies.search.pick_best`
    for one game. -1 when nothing is legal."""
    best = -np.inf
    n = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            n += 1
            if scores[a] > best:
                best = scores[a]
    if n == 0:
        return -1
    lim = best - TIE_EPS
    cnt = 0
    for a in range(mask.shape[0]):
        if mask[a] and scores[a] >= lim:
            cnt += 1
    k = int(u * cnt)
    if k > cnt - 1:
        k = cnt - 1
    for a in range(mask.shape[0]):
        if mask[a] and scores[a] >= lim:
            if k == 0:
                return a
            k -= 1
    return -1


@dataclass(frozen=True)
class HeuristicSpec:
    """What the compiled heuristic needs of one seat's heuristic (:meth:`meeplelab.strategies.generic.Heuristic.compiled`).

    Attributes:
        weights: ``{feature: weight}`` in the order the value adds them (:func:`meeplelab.strategies.search.value`).
        finish: finish the seat's turn before valuing.
        plan: the resolved :class:`meeplelab.strategies.plans.Plan` that finishes the turn (the empty plan: uniform).
        max_plies: plies the finish may take at most.
    """

    weights: dict
    finish: bool
    plan: object
    max_plies: int


def _lookahead_module(game):
    """The engine's written lookahead module (``<pkg>/lookahead.py``, next to its play module)."""
    import importlib

    return importlib.import_module(game.compiled_play.rsplit(".", 1)[0] + ".lookahead")


def heuristic_specs(game, strategies) -> list:
    """Per seat, the :class:`HeuristicSpec` of its strategy when it plays inside ``game``'s play kernel, else
    None: the strategy has no compiled form (``compiled(game)``), the engine has no compiled heuristic, or a
    weighted feature is not among the engine's ``VALUE_FEATURES``."""
    if game.compiled_play is None:
        return [None] * len(strategies)
    look = _lookahead_module(game)
    specs = []
    for s in strategies:
        spec = None
        if look.COMPILED_HEURISTIC and hasattr(s, "compiled"):
            spec = s.compiled(game)
            if spec is not None and any(k not in look.VALUE_FEATURES for k, w in spec.weights.items() if w):
                spec = None
        specs.append(spec)
    return specs
