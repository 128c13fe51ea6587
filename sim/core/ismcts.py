"""Information-set MCTS inside the play kernel (docs/compiled_play.md, "The compiled ISMCTS").

The engine-independent pieces of the compiled search of :class:`meeplelab.strategies.ismcts.ISMCTS`, used by each engine's
written ISMCTS module (``<pkg>/ismcts.py``, from ``sim/core/data/ismcts_module.py.tmpl``):

- the tree, preallocated once per batch and reused decision after decision: per node its visits ``n``, reward sum
  ``w`` and availability count ``av`` (``float64[N]``: the prior's virtual visits need not be whole), the action
  that reaches it, its first child and its next sibling (``int64[N]``; children of a node in a linked list, so the
  storage is ``O(iters)`` whatever the action space); :func:`tree_clear`, :func:`find_child`, :func:`add_child`;
- selection exactly as the Python search (:meth:`meeplelab.strategies.ismcts.ISMCTS.act`): :func:`select_root` among the root
  candidates in their order, :func:`select_node` among the legal actions below the root (progressive widening
  included), UCT with availability counts; :func:`best_root` (most visits, then the better mean, then the lower
  action);
- the root candidates: :func:`top_candidates` (the heuristic's ``top`` best, as ``numpy.argsort(-score,
  kind="stable")``), :func:`rotated_legal` (``top=0``: every legal action, rotated as ``numpy.roll``);
- :func:`iteration_key` (:func:`meeplelab.strategies.ismcts.iteration_streams` for one iteration);
- :class:`SearchSpec` and :func:`search_specs`: the Python side, which seats' searches have a compiled form (the
  others stay on the Python path); the kernel's argument tuple ``T`` is built one floor up, from the seats' rollout
  plans, by :func:`meeplelab.strategies.compiled.search_tables` (the framework never imports strategies).

Every kernel here is allocation-free (``_nrt=False``): the tree and scratch come from Python, once per batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from .jit import plain
from .rng import GOLDEN, mix64

_ONE = np.uint64(1)

#: columns of the per-seat argument table ``prm`` (``float64[P, N_ARGS]``) of :func:`meeplelab.strategies.compiled.search_tables`
A_ITERS, A_TOP, A_HORIZON, A_C, A_SCALE, A_PRIOR, A_DEPTH, A_PAR, A_WIDEN, A_CAP, A_VP, A_GAP, A_ALLK, A_SUB = range(14)
N_ARGS = 14
#: plies per seat and turn a rollout may take (``meeplelab.strategies.search.continue_for``'s ``cap`` as ISMCTS calls it)
ROLLOUT_CAP = 48


@njit(cache=True, _nrt=False)
def iteration_key(base, it):
    """Key of iteration ``it``'s stream (counter at 0) from ``base``, one draw of the deciding seat's decision
    stream: ``mix64(base ^ (it + 1) x golden)``, as :func:`meeplelab.strategies.ismcts.iteration_streams`."""
    return mix64(base ^ ((np.uint64(it) + _ONE) * GOLDEN))


@njit(cache=True, _nrt=False)
def tree_clear(nn, nw, nav, nact, nfirst, nnext, cnt):
    """Empty the tree: the root alone (node 0, no visits, no children); ``cnt[0]`` is the number of nodes."""
    nn[0] = 0.0
    nw[0] = 0.0
    nav[0] = 0.0
    nact[0] = -1
    nfirst[0] = -1
    nnext[0] = -1
    cnt[0] = 1


@njit(cache=True, _nrt=False)
def find_child(nact, nfirst, nnext, node, a):
    """The child of ``node`` reached by action ``a``, or -1."""
    c = nfirst[node]
    while c >= 0:
        if nact[c] == a:
            return c
        c = nnext[c]
    return -1


@plain
def add_child(nn, nw, nav, nact, nfirst, nnext, cnt, node, a):
    """A new child of ``node`` reached by ``a`` (no visits); returns its index. The tree holds ``nn.shape[0]``
    nodes at most (:func:`meeplelab.strategies.compiled.search_tables` sizes it for one node per iteration, the root and its candidates)."""
    c = cnt[0]
    cnt[0] += 1
    nn[c] = 0.0
    nw[c] = 0.0
    nav[c] = 0.0
    nact[c] = a
    nfirst[c] = -1
    nnext[c] = nfirst[node]
    nfirst[node] = c
    return c


@njit(cache=True, _nrt=False)
def uct(nn, nw, nav, x, c):
    """UCT value of node ``x``: mean reward plus ``c`` x sqrt(log(availability) / visits), the availability
    counted from 1 (the subset-armed bandit of ISMCTS; the arithmetic of the Python search)."""
    av = nav[x]
    if av < 1.0:
        av = 1.0
    return nw[x] / nn[x] + c * math.sqrt(math.log(av) / nn[x])


@njit(cache=True, _nrt=False)
def select_root(nn, nw, nav, nact, nfirst, nnext, cnt, cand, k, c):
    """The root's choice among its candidates ``cand[:k]`` (in their order): the first without a child is
    expanded; else the best UCT value (ties: the earlier candidate). Every candidate child has its availability
    counted. Returns ``(action, child, expanded)``."""
    a = -1
    ch = -1
    expanded = False
    for i in range(k):
        if find_child(nact, nfirst, nnext, 0, cand[i]) < 0:
            a = cand[i]
            ch = add_child(nn, nw, nav, nact, nfirst, nnext, cnt, 0, a)
            expanded = True
            break
    if not expanded:
        best = -np.inf
        a = cand[0]
        ch = find_child(nact, nfirst, nnext, 0, a)
        for i in range(k):
            x = find_child(nact, nfirst, nnext, 0, cand[i])
            sc = uct(nn, nw, nav, x, c)
            if sc > best:
                best = sc
                a = cand[i]
                ch = x
    for i in range(k):
        x = find_child(nact, nfirst, nnext, 0, cand[i])
        if x >= 0:
            nav[x] += 1.0
    return a, ch, expanded


@njit(cache=True, _nrt=False)
def select_node(nn, nw, nav, nact, nfirst, nnext, cnt, node, mask, used, u, c, widen, pa):
    """The choice at ``node`` below the root among the legal actions ``mask`` (``bool[A]``) of this
    determinisation, with the iteration's uniform ``u``: an action without a child is expanded (uniformly by
    ``u`` among them, in action order); with ``widen`` > 0 the rollout plan's action ``pa`` first, and another
    only once the node has ``widen`` x children visits; otherwise the best UCT value among the legal children
    (ties: the lower action). Every legal child has its availability counted. ``used`` is ``bool[A]`` scratch,
    all False on entry and on return. Returns ``(action, child, expanded)``."""
    nch = 0
    x = nfirst[node]
    while x >= 0:
        used[nact[x]] = True
        nch += 1
        x = nnext[x]
    A = mask.shape[0]
    only = -1  # the single candidate to expand, when it is pa
    open_ = True  # legal actions without a child may be expanded
    if widen > 0:
        if not used[pa]:
            only = pa
        elif not nn[node] >= widen * nch:
            open_ = False
    nu = 0
    if only >= 0:
        nu = 1
    elif open_:
        for b in range(A):
            if mask[b] and not used[b]:
                nu += 1
    a = -1
    ch = -1
    expanded = False
    if nu > 0:
        j = int(u * nu)
        if j > nu - 1:
            j = nu - 1
        if only >= 0:
            a = only
        else:
            for b in range(A):
                if mask[b] and not used[b]:
                    if j == 0:
                        a = b
                        break
                    j -= 1
        ch = add_child(nn, nw, nav, nact, nfirst, nnext, cnt, node, a)
        expanded = True
    else:
        best = -np.inf
        x = nfirst[node]
        while x >= 0:
            b = nact[x]
            if mask[b]:
                sc = uct(nn, nw, nav, x, c)
                if sc > best or (sc == best and b < a):
                    best = sc
                    a = b
                    ch = x
            x = nnext[x]
    x = nfirst[node]
    while x >= 0:
        if mask[nact[x]]:
            nav[x] += 1.0
        used[nact[x]] = False
        x = nnext[x]
    return a, ch, expanded


@njit(cache=True, _nrt=False)
def best_root(nn, nw, nact, nfirst, nnext, fallback):
    """The root action to play: most visits, then the higher mean reward, then the lower action; ``fallback``
    when the root has no child."""
    best = -1
    x = nfirst[0]
    while x >= 0:
        if best < 0:
            best = x
        else:
            mx = nw[x] / max(nn[x], 1.0)
            mb = nw[best] / max(nn[best], 1.0)
            if nn[x] > nn[best] or (nn[x] == nn[best] and (mx > mb or (mx == mb and nact[x] < nact[best]))):
                best = x
        x = nnext[x]
    return fallback if best < 0 else nact[best]


@njit(cache=True, _nrt=False)
def decided(nn, nfirst, nnext, left):
    """True when the root's choice can no longer change: its most visited child leads every other root candidate
    (one not yet expanded has no visits) by more than the ``left`` iterations still to run. The root
    action played is the most visited (:func:`best_root`) and an iteration adds one visit to one root child, so the
    remaining iterations are skipped without changing the choice (the search's result is exactly that of all
    ``iters`` iterations)."""
    b1 = 0.0
    b2 = 0.0
    x = nfirst[0]
    while x >= 0:
        v = nn[x]
        if v > b1:
            b2 = b1
            b1 = v
        elif v > b2:
            b2 = v
        x = nnext[x]
    return b1 - b2 > left  # b2 stays 0 when a candidate has no child yet (or there is one child)


@njit(cache=True, _nrt=False)
def top_candidates(scores, mask, top, cand, marg):
    """The ``top`` legal actions (``mask``) with the highest ``scores``, best first, ties in action order (as
    ``numpy.argsort(-scores, kind="stable")[:top]``), into ``cand`` and their scores into ``marg``; returns how
    many (at most the legal actions)."""
    A = mask.shape[0]
    k = 0
    while k < top:
        best = -1
        for a in range(A):
            if not mask[a]:
                continue
            taken = False
            for i in range(k):
                if cand[i] == a:
                    taken = True
                    break
            if taken:
                continue
            if best < 0 or scores[a] > scores[best]:
                best = a
        if best < 0:
            break
        cand[k] = best
        marg[k] = scores[best]
        k += 1
    return k


@njit(cache=True, _nrt=False)
def top_two_gap(scores, mask):
    """The best legal action's score (``mask``, ``bool[A]``) minus the second best's (``inf`` with fewer than two
    legal actions): the ``gap`` test of :meth:`meeplelab.strategies.ismcts.ISMCTS.budgets`."""
    b1 = -np.inf
    b2 = -np.inf
    n = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            n += 1
            s = scores[a]
            if s > b1:
                b2 = b1
                b1 = s
            elif s > b2:
                b2 = s
    if n < 2:
        return np.inf
    return b1 - b2


@njit(cache=True, _nrt=False)
def is_searched(kmask, prm, p, kind):
    """True when seat ``p`` searches decisions of kind ``kind`` (``kmask[p, kind]``; a kind outside the table: only
    when the seat searches every kind)."""
    if kind < 0 or kind >= kmask.shape[1]:
        return prm[p, A_ALLK] != 0
    return kmask[p, kind]


@njit(cache=True, _nrt=False)
def rotated_legal(mask, u, cand):
    """Every legal action of ``mask`` into ``cand``, rotated by ``int(u x n)`` places as ``numpy.roll(legal, k)``
    (the root candidates with ``top=0``); returns how many."""
    n = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            cand[n] = a
            n += 1
    if n == 0:
        return 0
    k = int(u * n) % n
    if k:
        # a rotation right by k in place: three reversals
        _reverse(cand, 0, n)
        _reverse(cand, 0, k)
        _reverse(cand, k, n)
    return n


@plain
def _reverse(arr, lo, hi):
    hi -= 1
    while lo < hi:
        t = arr[lo]
        arr[lo] = arr[hi]
        arr[hi] = t
        lo += 1
        hi -= 1


@njit(cache=True, _nrt=False)
def seed_root(nn, nw, nav, nact, nfirst, nnext, cnt, cand, marg, k, prior, scale):
    """Prior knowledge at the root (:meth:`meeplelab.strategies.ismcts.ISMCTS.seed_root`): each candidate ``cand[:k]``
    starts with ``prior`` visits and availabilities at the reward of its heuristic margin ``marg``."""
    for i in range(k):
        x = add_child(nn, nw, nav, nact, nfirst, nnext, cnt, 0, cand[i])
        nn[x] = prior
        nav[x] = prior
        nw[x] = prior / (1.0 + math.exp(-marg[i] / scale))


@njit(cache=True, _nrt=False)
def reward_of(vals, vps, q, over, scale):
    """Seat ``q``'s reward: its win share when the copy's game is ``over`` (1 won, 1/k shared by k top VP
    ``vps``, 0 lost), else the logistic of its weighted margin (``vals``: every seat's weighted value) over
    ``scale`` (:meth:`meeplelab.strategies.ismcts.ISMCTS.rewards`)."""
    P = vals.shape[0]
    if over:
        top = vps[0]
        for r in range(1, P):
            if vps[r] > top:
                top = vps[r]
        k = 0
        for r in range(P):
            if vps[r] >= top:
                k += 1
        return (1.0 if vps[q] >= top else 0.0) / max(k, 1)
    if P == 1:
        m = vals[q]
    else:
        o = -np.inf
        for r in range(P):
            if r != q and vals[r] > o:
                o = vals[r]
        m = vals[q] - o
    return 1.0 / (1.0 + math.exp(-m / scale))


# ---------------------------------------------------------------------------------------------- the Python side

@dataclass(frozen=True)
class SearchSpec:
    """What the compiled ISMCTS needs of one seat's search (:meth:`meeplelab.strategies.ismcts.ISMCTS.compiled`).

    Attributes:
        heuristic: the :class:`meeplelab.sim.core.lookahead.HeuristicSpec` whose scores give the root candidates (and the
            prior) and whose weights value an unfinished rollout.
        policy: the resolved :class:`meeplelab.strategies.plans.Plan` every seat plays in rollouts (the empty plan:
            uniform random, as a Python search without a policy).
        args: the search's arguments ``iters, top, horizon, c, scale, prior, depth, par, widen, gap, sub`` and
            ``kinds`` (the decision kind codes it searches with ``iters`` iterations, the others with ``sub``; None:
            every kind).
    """

    heuristic: object
    policy: object
    args: dict


def _search_module(game):
    """The engine's written ISMCTS module (``<pkg>/ismcts.py``, next to its play module)."""
    import importlib

    return importlib.import_module(game.compiled_play.rsplit(".", 1)[0] + ".ismcts")


def search_specs(game, strategies) -> list:
    """Per seat, the :class:`SearchSpec` of its strategy when its search plays inside ``game``'s play kernel,
    else None: the strategy has no compiled search (``compiled_search(game)``, e.g. ``ms`` > 0), the engine has no
    compiled ISMCTS, its heuristic has no compiled form or weighs a feature the engine does not value."""
    if game.compiled_play is None:
        return [None] * len(strategies)
    mod = _search_module(game)
    specs = []
    for s in strategies:
        spec = None
        if mod.COMPILED_SEARCH and hasattr(s, "compiled_search"):
            spec = s.compiled_search(game)
            if spec is not None and (spec.heuristic is None or "vp" not in mod.VALUE_FEATURES or any(
                    k not in mod.VALUE_FEATURES for k, w in spec.heuristic.weights.items() if w)):
                spec = None
        specs.append(spec)
    return specs


def pending_kinds(game, state, idx) -> np.ndarray:
    """``int64[n]``: the decision kind code (the engine's ``features.pending``, as the play kernel reads it) each
    game ``idx`` of ``state`` waits for; the Python search's ``kinds`` test (:meth:`meeplelab.strategies.ismcts.ISMCTS.budgets`)."""
    import importlib

    feats = importlib.import_module(game.compiled_play.rsplit(".", 1)[0] + ".features")
    S = game.compiled_module().kernel_context(game, state)[0]
    return np.array([feats.pending(S, int(g)) for g in np.asarray(idx)], np.int64)
