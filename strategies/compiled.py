"""What the engines' compiled play kernels need from the seats' strategies (compiled play, docs/compiled_play.md).

The engine framework (:mod:`meeplelab.sim.core.lookahead`) holds the kernels of the compiled heuristic and
decides which seats have a compiled form (:func:`~meeplelab.sim.core.lookahead.heuristic_specs`); the tables those
kernels read are built here, on the strategies' floor, from the seats' plans: the framework never imports
strategies.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.ismcts import (A_ALLK, A_C, A_CAP, A_DEPTH, A_GAP, A_HORIZON, A_ITERS, A_PAR, A_PRIOR,
                                       A_SCALE, A_SUB, A_TOP, A_VP, A_WIDEN, N_ARGS, ROLLOUT_CAP, _search_module,
                                       search_specs)
from meeplelab.sim.core.lookahead import _lookahead_module, heuristic_specs

from .plans import Plan, compile_plans


def heuristic_tables(game, state, strategies, inner=None):
    """``(heur_seat bool[P], H)``: which seats play their heuristic inside the play kernel
    (:func:`heuristic_specs`), and the kernel's heuristic argument tuple (``<pkg>/lookahead.py``
    ``heuristic_choice``): a scratch game slot (``state``'s shapes, batch 1), the finishing plans' tables by
    seat, the maximum finishing plies ``int64[P]``, the weights (``widx int64[P, K]`` feature ids in the
    weights' order, -1 ending a row; ``wval float64[P, K]``), ``finish int64[P]``, and scratch (the last:
    ``int64[A]``, the finishing plan's action scores).

    ``inner``: per seat, the :class:`~meeplelab.sim.core.lookahead.HeuristicSpec` of a heuristic another compiled
    strategy at that seat uses (the compiled ISMCTS: its root candidates and leaf values,
    :mod:`meeplelab.sim.core.ismcts`), or None; its rows of ``H`` are filled from it while ``heur_seat`` stays
    False there.
    """
    mod = game.compiled_module()
    look = _lookahead_module(game)
    P = len(strategies)
    own = heuristic_specs(game, strategies)
    heur_seat = np.array([sp is not None for sp in own], np.bool_)
    specs = [sp if sp is not None else (inner[p] if inner is not None else None) for p, sp in enumerate(own)]
    nvf = len(look.VALUE_FEATURES)
    tables = compile_plans([sp.plan if sp is not None else Plan("none") for sp in specs], mod.KINDS, mod.FEATURES,
                           game.num_actions, scores=mod.SCORES)
    widx = np.full((P, nvf + 1), -1, np.int64)
    wval = np.zeros((P, nvf + 1), np.float64)
    max_plies = np.zeros(P, np.int64)
    finish = np.zeros(P, np.int64)
    for p, sp in enumerate(specs):
        if sp is None:
            continue
        used = [(k, float(w)) for k, w in sp.weights.items() if w]
        for k, (name, w) in enumerate(used):
            widx[p, k] = look.VALUE_FEATURES.index(name)
            wval[p, k] = w
        max_plies[p] = sp.max_plies
        finish[p] = int(bool(sp.finish))
    scratch_state = state.take(np.zeros(1, np.int64), fresh_logs=True)
    D = mod.kernel_context(game, scratch_state)[0]
    pool = np.zeros(max([a[0].size for a in D if isinstance(a, np.ndarray) and a.ndim > 1] + [1]), np.int64)
    H = (D, tables.rules, tables.conds, tables.acts, tables.seat_rules, max_plies, widx, wval, finish,
         np.zeros(game.num_actions, np.bool_), np.zeros(len(mod.FEATURES), np.int64), pool,
         np.zeros(nvf, np.float64), np.zeros(P, np.float64), np.zeros(game.num_actions, np.float64),
         np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(game.num_actions, np.int64))
    return heur_seat, H


def search_tables(game, strategies, specs: list | None = None):
    """``(search_seat bool[P], T)``: which seats search inside the play kernel (:func:`~meeplelab.sim.core.ismcts.search_specs`) and the
    kernel's search argument tuple (``<pkg>/ismcts.py`` ``ismcts_choice``): the arguments ``prm`` (``float64[P,
    N_ARGS]``, columns ``A_*``), the decision kinds each seat searches (``kmask bool[P, K]``), the rollout plans' tables by seat, the tree (``N`` nodes: one per iteration, the
    root and its candidates, for the largest search of the batch), the paths and rewards of one group of ``par``
    iterations, and scratch. The same types whatever the seats (a batch without a search gets a one-node tree), so
    the play kernel is compiled once."""
    mod = game.compiled_module()
    P = len(strategies)
    A = game.num_actions
    if specs is None:
        specs = search_specs(game, strategies)
    search_seat = np.array([sp is not None for sp in specs], np.bool_)
    vfeat = _search_module(game).VALUE_FEATURES if game.compiled_play is not None else ()
    prm = np.zeros((P, N_ARGS), np.float64)
    nk = max(mod.KINDS.values()) + 1 if mod.KINDS else 1
    kmask = np.zeros((P, nk), np.bool_)  # the decision kinds each seat searches
    nodes, group, depth = 1, 1, 1
    for p, sp in enumerate(specs):
        if sp is None:
            continue
        a = sp.args
        prm[p, A_ITERS], prm[p, A_TOP], prm[p, A_HORIZON] = a["iters"], a["top"], a["horizon"]
        prm[p, A_C], prm[p, A_SCALE], prm[p, A_PRIOR] = a["c"], a["scale"], a["prior"]
        prm[p, A_DEPTH], prm[p, A_PAR], prm[p, A_WIDEN] = a["depth"], max(1, a["par"]), a["widen"]
        prm[p, A_CAP] = a["horizon"] * max(P, 1) * ROLLOUT_CAP
        prm[p, A_VP] = vfeat.index("vp")
        prm[p, A_GAP] = a["gap"]
        prm[p, A_SUB] = a["sub"]
        prm[p, A_ALLK] = a["kinds"] is None
        kmask[p] = True if a["kinds"] is None else np.isin(np.arange(nk), list(a["kinds"]))
        most = max(int(a["iters"]), int(a["sub"]))
        nodes = max(nodes, 2 + min(int(a["top"]), A) + most)
        group = max(group, min(max(1, int(a["par"])), most))
        depth = max(depth, int(a["depth"]))
    tables = compile_plans([sp.policy if sp is not None else Plan("none") for sp in specs], mod.KINDS, mod.FEATURES,
                           A, scores=mod.SCORES)
    nvf = max(len(vfeat), 1)
    f64, i64 = np.float64, np.int64
    T = (prm, kmask, tables.rules, tables.conds, tables.acts, tables.seat_rules,
         np.zeros(nodes, f64), np.zeros(nodes, f64), np.zeros(nodes, f64),  # visits, reward sums, availability
         np.zeros(nodes, i64), np.zeros(nodes, i64), np.zeros(nodes, i64), np.zeros(1, i64),  # action, child, sibling
         np.zeros((group, depth), i64), np.zeros((group, depth), i64), np.zeros(group, i64),  # paths: node, mover
         np.zeros((group, P), f64),  # rewards of the group's iterations
         np.zeros(A, i64), np.zeros(A, f64), np.zeros(A, np.bool_), np.zeros(A, np.bool_), np.zeros(A, np.bool_),
         np.zeros(len(mod.FEATURES), i64), np.zeros(A, i64), np.zeros(nvf, f64), np.zeros(P, f64), np.zeros(P, f64),
         np.zeros(1, np.uint64), np.zeros(1, np.uint64))
    return search_seat, T
