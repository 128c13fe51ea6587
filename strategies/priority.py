"""Priority-list strategies (dominiate's ``gainPriority``) and the adapter for a user's function.

A priority strategy is a short list of rules, each ``(label, preferred)`` where ``preferred(view,
legal)`` returns the actions the rule would like in each deciding game, either as ``bool[n, A]`` or,
cheaper, as ``(actions: int[k], gate: bool[n])`` (the same ``k`` actions for every game where
``gate`` holds). For each game the first rule with a legal preferred action decides (uniformly
among its preferred legal actions, from the seat's stream); games no rule covers go to the
fallback strategy. A plan reads like a player's: "complete a row if you can; else buy the right
tile if Coffee >= 3; else ...".
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from .base import RandomStrategy, Strategy, StrategyRNG, View

Preferred = Callable[[View, np.ndarray], np.ndarray]


class PriorityStrategy(Strategy):
    """First matching rule wins; then the fallback (random by default).

    Attributes:
        rules: ``[(label, preferred), ...]`` in priority order.
        fallback: strategy for games no rule covers.
    """

    name = "priority"
    rules: Sequence[tuple[str, Preferred]] = ()

    def __init__(self, rules: Sequence[tuple[str, Preferred]] | None = None, fallback: Strategy | None = None, **args):
        super().__init__(**args)
        if rules is not None:
            self.rules = list(rules)
        self.fallback = fallback or RandomStrategy()

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        n = legal_mask.shape[0]
        out = np.full(n, -1, np.int64)
        open_ = np.ones(n, bool)
        for _label, fn in self.rules:
            if not open_.any():
                break
            res = fn(view, legal_mask)
            if isinstance(res, tuple):  # fast path: (action ids, gate per game)
                cols, gate = res
                cand = np.flatnonzero(open_ & gate)
                if cand.size == 0 or len(cols) == 0:
                    continue
                sub = legal_mask[cand[:, None], np.asarray(cols)[None, :]]
                ok = sub.any(axis=1)
                if ok.any():
                    rows = cand[ok]
                    pick = rng.subset(rows).choose_legal(sub[ok])
                    out[rows] = np.asarray(cols)[pick]
                    open_[rows] = False
                continue
            pref = np.asarray(res, bool) & legal_mask
            hit = open_ & pref.any(axis=1)
            if hit.any():
                rows = np.flatnonzero(hit)
                out[rows] = rng.subset(rows).choose_legal(pref[rows])
                open_ &= ~hit
        if open_.any():
            rows = np.flatnonzero(open_)
            sub = View(view.game, view.state, view.idx[rows], view.seat)
            out[rows] = self.fallback.act(sub, legal_mask[rows], rng.subset(rows))
        return out

    def explain(self) -> list[str]:
        """The plan in words: rule labels in priority order."""
        return [label for label, _ in self.rules] + [f"otherwise: {self.fallback.id}"]


class FunctionStrategy(Strategy):
    """Adapter for a plain Python function deciding one game at a time (the slow path).

    ``fn(game, state, g, seat, legal) -> action`` gets the batch state, the game's row ``g``, the
    seat and the list of legal action ids; it may draw from ``rng`` passed as keyword ``rng``
    (a :class:`StrategyRNG` for that one game). One Python call per decision: fine for
    experiments, far slower than vectorized strategies.
    """

    name = "function"

    def __init__(self, fn: Callable, name: str = "function", **args):
        super().__init__(**args)
        self.fn = fn
        self.name = name

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        out = np.empty(legal_mask.shape[0], np.int64)
        for i, g in enumerate(view.idx):
            legal = np.flatnonzero(legal_mask[i]).tolist()
            out[i] = int(self.fn(view.game, view.state, int(g), view.seat, legal, rng=rng.subset(np.array([i]))))
        return out


def labels_mask(game, n: int, predicate: Callable[[str], bool]) -> np.ndarray:
    """``bool[n, A]`` marking the actions whose label satisfies ``predicate`` (rule helper)."""
    row = np.array([predicate(game.action_label(a)) for a in range(game.num_actions)], bool)
    return np.broadcast_to(row, (n, game.num_actions))
