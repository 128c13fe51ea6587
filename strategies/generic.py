"""Strategies every game gets: greedy VP, weighted heuristic (one-step lookahead), rollouts."""

from __future__ import annotations

import math

import numpy as np

from meeplelab.sim.core.errors import ConfigError

from .base import Strategy, StrategyRNG, View
from .plans import Plan
from .registry import Arg, register_strategy
from .search import advance, candidates, continue_for, derived_streams, pick_best, value
from meeplelab.sim.core.lookahead import HeuristicSpec


class GreedyVP(Strategy):
    """Largest immediate VP gain: each legal action is tried on a copy of the game (hidden
    information re-sampled first); ties are broken at random from the seat's stream."""

    name = "greedy-vp"

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        game, state = view.game, view.state
        rows, acts, starts = candidates(legal_mask)
        streams = derived_streams(rng, rows, acts)
        u = rng.random()
        seat = np.full(rows.size, view.seat)
        sub = state.take(view.idx[rows], fresh_logs=True)
        before = game.vp(sub)[:, view.seat].astype(np.float64)
        game.redeterminize(sub, seat, streams)
        game.step(sub, acts, legal_mask[rows])
        gain = game.vp(sub)[:, view.seat] - before
        return pick_best(gain, rows, acts, starts, legal_mask.shape[0], u)


#: largest magnitude of a heuristic weight: finite weights up to it keep every score finite, so the compiled
#: heuristic and the Python one (which gives up on a NaN score) choose alike
WEIGHT_BOUND = 1e6


def weight_arg(default: float, doc: str):
    """The registry :class:`Arg` of a heuristic weight: a float from ``-WEIGHT_BOUND`` to ``WEIGHT_BOUND``."""
    return Arg(float, default, doc, -WEIGHT_BOUND, WEIGHT_BOUND)


class Heuristic(Strategy):
    """Scores every legal action by the weighted feature value (own minus best opponent) of the
    state it leads to, finishing the seat's current turn with random sub-decisions
    (``finish=1``) so multi-part choices are valued by where they end.

    Every weight must be a finite number from -1e6 to 1e6 (:data:`WEIGHT_BOUND`): larger ones can turn
    scores into inf or NaN, on which the compiled and the Python heuristic would not agree.

    Raises:
        ConfigError: a weight that is not finite or beyond :data:`WEIGHT_BOUND` (``make_strategy`` refuses
            it when parsing the id, naming the argument, its value and the allowed range).
    """

    name = "heuristic"
    default_weights: dict[str, float] = {"vp": 1.0}

    def __init__(self, **args):
        super().__init__(**args)
        self.weights = dict(self.default_weights)
        for k, v in args.items():
            if k not in self.default_weights:
                continue
            try:
                w = float(v)
            except (TypeError, ValueError, OverflowError):
                w = math.nan
            if not (math.isfinite(w) and abs(w) <= WEIGHT_BOUND):
                raise ConfigError(f"strategy {self.name!r}: weight {k}={v!r} is out of range: allowed finite numbers "
                                  f"from {-WEIGHT_BOUND} to {WEIGHT_BOUND}")
            self.weights[k] = w
        self.finish = int(args.get("finish", 1))

    def scores(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG):
        """``(rows, acts, starts, score, u)``: every legal (game, action) candidate with its value."""
        game, state = view.game, view.state
        rows, acts, starts = candidates(legal_mask)
        streams = derived_streams(rng, rows, acts)
        u = rng.random()
        seat = np.full(rows.size, view.seat)
        sub = state.take(view.idx[rows], fresh_logs=True)
        turns0 = game.progress(sub)[0].copy()
        game.redeterminize(sub, seat, streams)
        game.step(sub, acts, legal_mask[rows])
        if self.finish:
            self.finish_turn(game, sub, streams, view.seat, turns0)
        return rows, acts, starts, value(game, sub, seat, self.weights), u

    def finish_turn(self, game, sub, streams, seat: int, turns0: np.ndarray) -> None:
        """Play the seat's current turn to its end on the copies (random sub-decisions here;
        games override this with a scripted plan)."""
        advance(game, sub, streams, np.full(sub.batch_size, seat), until_turn_ends=True,
                max_plies=self.finish_plies, turns0=turns0)

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        rows, acts, starts, score, u = self.scores(view, legal_mask, rng)
        return pick_best(score, rows, acts, starts, legal_mask.shape[0], u)

    #: plies the finish may take (``finish_turn``)
    finish_plies = 32

    def finish_plan(self, game):
        """The resolved :class:`meeplelab.strategies.plans.Plan` :meth:`finish_turn` plays (the empty plan: uniform
        random sub-decisions, the draws of ``search.advance``), or None when it is not a plan."""
        return Plan("random-finish") if type(self).finish_turn is Heuristic.finish_turn else None

    def compiled(self, game):
        """The :class:`meeplelab.sim.core.lookahead.HeuristicSpec` of this heuristic for ``game``'s play kernel (the same
        choices as :meth:`act`), or None when a subclass changes the scoring or its finish is not a
        plan (then the seat decides on the Python path)."""
        cls = type(self)
        if cls.scores is not Heuristic.scores or cls.act is not Heuristic.act:
            return None
        plan = self.finish_plan(game) if self.finish else None
        if self.finish and plan is None:
            return None
        return HeuristicSpec(dict(self.weights), bool(self.finish), plan if plan is not None else Plan("no-finish"),
                             self.finish_plies)


class Rollout(Strategy):
    """Candidate actions (``top`` per decision), each continued ``k`` times for ``horizon`` turns (or
    to the end) by ``policy`` at every seat (None: uniform random); picks the best mean weighted
    margin, the heuristic's pick getting a ``prior`` bonus.

    Games customise it in ``__init__`` through:
        heuristic: the valuation (and the source of the first candidate).
        policy, prior: the continuation strategy and the bonus of the heuristic's pick.
        candidates: ``"random"`` (the heuristic's pick plus random other legal actions) or
            ``"heuristic"`` (the heuristic's ``top`` best-scored actions).
        common_numbers: continuation j of every candidate of a game shares one stream (same
            re-sampled hidden information and policy draws), so candidates differ only by their action.
        cap: plies per seat and turn a continuation may take (see ``search.continue_for``).
    """

    name = "rollout"
    policy: Strategy | None = None
    prior: float = 0.0
    candidates: str = "random"
    common_numbers: bool = False
    cap: int = 64
    #: defaults of ``k``, ``top`` and ``horizon`` when not given
    defaults: dict = {"k": 8, "top": 4, "horizon": 4}

    def __init__(self, **args):
        super().__init__(**args)
        self.k = int(args.get("k", self.defaults["k"]))
        self.top = int(args.get("top", self.defaults["top"]))
        self.horizon = int(args.get("horizon", self.defaults["horizon"]))
        self.heuristic = Heuristic()

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        game, state = view.game, view.state
        n = legal_mask.shape[0]
        if self.candidates == "heuristic":  # the heuristic's best-scored actions
            rows, acts, starts, hscore, u = self.heuristic.scores(view, legal_mask, rng)
            first = pick_best(hscore, rows, acts, starts, n, u)
            if self.top <= 1:
                return first
            keyed = -hscore
        else:  # the heuristic's pick plus random other legal actions
            first = self.heuristic.act(view, legal_mask, rng)
            if self.top <= 1:
                return first
            rows, acts, starts = candidates(legal_mask)
            u = rng.random()
            keyed = derived_streams(rng, rows, acts).random(np.arange(rows.size))
            keyed[acts == first[rows]] = -1.0  # the heuristic's choice always kept
        order = np.lexsort((keyed, rows))
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        rank = rank - starts[np.searchsorted(starts, np.arange(rows.size), side="right") - 1]
        keep = (rank < self.top) | (acts == first[rows])
        crow, cact = rows[keep], acts[keep]
        cstarts = np.flatnonzero(np.r_[True, crow[1:] != crow[:-1]])
        if self.common_numbers and (np.diff(np.r_[cstarts, crow.size]) == 1).all():
            return first  # one candidate in every game: nothing to compare
        rep = np.repeat(np.arange(crow.size), self.k)
        j = np.tile(np.arange(self.k), crow.size)  # continuation number of each copy
        sub = state.take(view.idx[crow[rep]], fresh_logs=True)
        seat = np.full(rep.size, view.seat)
        if self.common_numbers:  # continuation j of every candidate of a game: one stream, keyed by j
            streams = derived_streams(rng, crow[rep], j)
        else:  # keyed by (action, j)
            streams = derived_streams(rng, crow[rep], cact[rep] * (1 << 16) + j)
        game.redeterminize(sub, seat, streams)
        game.step(sub, cact[rep], legal_mask[crow[rep]])
        turns0 = game.progress(sub)[0].copy()
        continue_for(game, sub, streams, turns0, self.horizon, self.policy, cap=self.cap)
        score = value(game, sub, seat, self.heuristic.weights).reshape(-1, self.k).mean(axis=1)
        if self.prior:
            score = score + self.prior * (cact == first[crow])  # the heuristic's pick wins near-ties
        return pick_best(score, crow, cact, cstarts, n, u)


register_strategy("greedy-vp", GreedyVP, doc="Largest immediate VP gain (one-step lookahead, hidden info re-sampled).")
register_strategy("heuristic", Heuristic, args={
    "vp": weight_arg(1.0, "weight of VP"),
    "finish": Arg(int, 1, "finish the turn's sub-decisions at random before valuing (1) or not (0)", 0, 1),
}, doc="One-step lookahead scored by weighted state features (generic: VP only).")
register_strategy("rollout", Rollout, args={
    "k": Arg(int, 8, "continuations per candidate action", 1, 256),
    "top": Arg(int, 4, "candidate actions rolled out per decision (heuristic's pick plus random others)", 1, 64),
    "horizon": Arg(int, 4, "turns each continuation is played before it is valued", 1, 1000),
}, doc="Monte Carlo rollouts of the best candidates; best mean margin.")
