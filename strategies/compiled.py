"""What the engines' compiled play kernels need from the seats' strategies (compiled play, docs/compiled_play.md).

The engine framework (:mod:`meeplelab.sim.core.lookahead`) holds the kernels of the compiled heuristic and
decides which seats have a compiled form (:func:`~meeplelab.sim.core.lookahead.heuristic_specs`); the tables those
kernels read are built here, on the strategies' floor, from the seats' plans: the framework never imports
strategies.
"""

from __future__ import annotations

import numpy as np

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
