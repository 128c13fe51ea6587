"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

One tree per deciding game, rooted at the deciding seat's information set; its edges are the actions
played from there (every seat's, as the deciding seat sees them). Each iteration:

1. **Redeterminise**: a copy of the game with everything hidden from the deciding seat re-sampled
   (the engine's ``redeterminize``) from a stream keyed by (game, seat, decision, iteration): the
   seat's own stream gives one draw per decision (its counter is the seat's decision count in that
   game), mixed with the iteration number; never by position in the batch.
2. **Select** down the tree by UCT among the actions legal in this determinisation (at the root: the
   heuristic's ``top`` best actions, expanded best first, as the rollout strategy's candidates), with
   availability counts (a child's exploration term uses how often it was *available*, the
   subset-armed bandit of ISMCTS), until an action not yet in the tree is legal.
3. **Expand** one such action (chosen uniformly from the iteration's stream).
4. **Roll out** ``horizon`` turns with the game's scripted plan at every seat.
5. **Back up** a reward for every seat: its win share for a finished game (1 won, 1/k shared, 0 lost),
   otherwise the logistic of the heuristic's weighted margin over ``scale``; each edge gets the
   reward of the seat that took it.

Options (defaults give the search above): ``prior`` seeds each root candidate with that many virtual
visits at the reward of its heuristic margin (prior knowledge, Gelly & Silver 2007); ``depth`` bounds the
tree plies an iteration walks below the root (1 = a bandit over the root candidates); ``par`` runs that
many iterations as one batch of copies with virtual loss (a visit counts when selected, its reward when
the group ends; still keyed by iteration number); ``widen`` expands the rollout plan's action first below
the root and another child only every ``widen`` visits per child, the horizon then counting from the
root's turn.

The root action visited most often is played (ties to the better mean). Iterations run for all
deciding games of the batch at once (the rules and rollouts are batched; tree walks are per game).
``iters`` bounds the iterations; ``ms`` > 0 additionally stops after that many milliseconds per
decision batch (then results depend on machine speed and batch size: leave ``ms=0`` for
reproducible runs).

This is the readable reference: by default the search runs inside the engine's compiled play kernel
(:meth:`ISMCTS.compiled_search`, ``meeplelab.sim.core.ismcts`` and ``<pkg>/ismcts.py``; docs/compiled_play.md), with
the same choices on the same streams; ``--python-loop`` (``play_batch(compiled=False)``) plays this code. Each game's
``ismcts`` has its own defaults (:data:`GAME_DEFAULTS`) and values its root candidates and leaves with the tuned
heuristic weights (:data:`TUNED`, ``weights=tuned``).
"""

from __future__ import annotations

import math
import time

import numpy as np

from meeplelab.sim.core.rng import GOLDEN, Streams, _mix64_np

from .base import RandomStrategy, Strategy, StrategyRNG, View
from .generic import Heuristic
from .registry import Arg, register_strategy
from .search import continue_for, pick_best, value
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.ismcts import pending_kinds, SearchSpec
from meeplelab.strategies.plans import CompiledPlan, Plan


class _Node:
    __slots__ = ("children", "n", "w", "avail")

    def __init__(self):
        self.children: dict[int, _Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0


def iteration_streams(base: np.ndarray, iteration) -> Streams:
    """Streams for iteration ``iteration`` (an int, or ``int[n]`` one per stream) of each deciding game:
    key = mix64(base ^ (iteration + 1) x golden), ``base`` being one draw per game from the deciding seat's
    own stream (keyed by game, seat and decision)."""
    it = np.asarray(iteration, dtype=np.uint64) + np.uint64(1)
    with np.errstate(over="ignore"):
        return Streams(_mix64_np(base ^ (it * GOLDEN)))


def _logistic(m: float, scale: float) -> float:
    """``1 / (1 + exp(-m / scale))`` by the libm ``math.exp``, the exp the compiled search's ``reward_of`` calls, so
    both searches get the same bits (numpy's SIMD ``exp`` of AVX-512 builds can differ in the last bit, and root
    children tied in mean reward then break the tie differently); 0.0 where the exp overflows, as compiled."""
    try:
        return 1.0 / (1.0 + math.exp(-m / scale))
    except OverflowError:
        return 0.0


class ISMCTS(Strategy):
    """Single-observer information-set MCTS with UCT, redeterminisation every iteration and
    scripted-plan rollouts (see module docstring).

    Games customise it in ``__init__``: ``heuristic`` (weights valuing an unfinished rollout) and
    ``policy`` (the rollout plan at every seat; None = uniform random).
    """

    name = "ismcts"
    policy: Strategy | None = None
    #: the arguments' defaults (a game's subclass may choose its own; the registry shows them)
    defaults: dict = {"iters": 64, "ms": 0.0, "c": 0.7, "horizon": 2, "scale": 5.0, "top": 3, "prior": 0.0,
                      "widen": 0.0, "depth": 64, "par": 1, "kinds": "", "gap": 0.0, "sub": 0}

    def __init__(self, **args):
        super().__init__(**args)
        d = self.defaults
        self.iters = int(args.get("iters", d["iters"]))
        self.ms = float(args.get("ms", d["ms"]))
        self.c = float(args.get("c", d["c"]))
        self.horizon = int(args.get("horizon", d["horizon"]))
        self.scale = float(args.get("scale", d["scale"]))
        self.top = int(args.get("top", d["top"]))
        self.prior = float(args.get("prior", d["prior"]))
        self.widen = float(args.get("widen", d["widen"]))
        self.depth = int(args.get("depth", d["depth"]))
        self.par = int(args.get("par", d["par"]))
        self.kinds = tuple(k for k in str(args.get("kinds", d["kinds"])).split("+") if k)
        self.gap = float(args.get("gap", d["gap"]))
        self.sub = int(args.get("sub", d["sub"]))
        self.heuristic = Heuristic()

    def kind_codes(self, game) -> frozenset | None:
        """The decision kind codes this search searches (``kinds``, names of the engine's decision kinds joined by
        ``+``; None: every kind); the others are decided by the heuristic.

        Raises:
            ConfigError: a name that is not a decision kind of ``game``'s engine (the allowed ones named), or
                ``kinds`` given for an engine without compiled play (no named decision kinds).
        """
        if not self.kinds:
            return None
        mod = game.compiled_module()
        return self._codes(dict(mod.KINDS) if mod is not None else {}, game.name)

    def _codes(self, known: dict, game_name: str) -> frozenset:
        """The codes of ``kinds`` among the engine's decision kinds ``known`` (``{name: code}``), or ConfigError."""
        for k in self.kinds:
            if k not in known:
                raise ConfigError(f"strategy 'ismcts': kinds={'+'.join(self.kinds)!r}: {k!r} is not a decision kind "
                                  f"of {game_name}: allowed {', '.join(known) or 'none'} (joined by +)")
        return frozenset(known[k] for k in self.kinds)

    def budgets(self, view: View, legal_mask: np.ndarray, margins: list | None) -> np.ndarray:
        """``int64[n]``: the iterations each deciding game's decision is searched with, 0 where the heuristic decides
        (:meth:`act`): 0 with one legal action; ``iters`` for a decision kind in ``kinds`` (every kind when not
        given), ``sub`` for another; 0 when, with ``gap`` > 0 and heuristic ``margins`` (per game the scores of its
        legal actions), the heuristic's best two are ``gap`` or more apart."""
        many = legal_mask.sum(axis=1) > 1
        out = np.where(many, self.iters, 0).astype(np.int64)
        codes = self.kind_codes(view.game)
        if codes is not None:
            inside = np.isin(pending_kinds(view.game, view.state, view.idx), list(codes))
            out[many & ~inside] = self.sub
        if self.gap > 0 and margins is not None:
            for r, m in enumerate(margins):
                if out[r] and m.size > 1:
                    top2 = np.sort(m)[-2:]
                    if top2[1] - top2[0] >= self.gap:
                        out[r] = 0
        return out

    def root_actions(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG, todo: np.ndarray) -> list:
        """Per searched game, the root's candidate actions: with ``top`` > 0 the heuristic's ``top``
        best (best first, as expanded), else every legal action in a random order."""
        return [acts for acts, _ in self.root_candidates(view, legal_mask, rng, todo)]

    def root_candidates(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG,
                        todo: np.ndarray) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """Per searched game ``(actions, margins)``: the root's candidate actions (as
        :meth:`root_actions`) and, with ``top`` > 0, the heuristic's weighted margin of each
        (``float[k]``, VP-like units; None with ``top=0``)."""
        if self.top > 0:
            rows, acts, starts, score, _ = self.heuristic.scores(view, legal_mask, rng)
            ends = np.r_[starts[1:], rows.size]
            by_row = {}
            for a, b in zip(starts, ends):
                order = np.argsort(-score[a:b], kind="stable")[: self.top]
                by_row[int(rows[a])] = (acts[a:b][order], score[a:b][order])
            return [by_row[int(r)] for r in todo]
        u = rng.streams.random(rng.idx[todo]) if todo.size else np.zeros(0)
        out = []
        for k, r in enumerate(todo):
            legal = np.flatnonzero(legal_mask[r])
            out.append((np.roll(legal, int(u[k] * legal.size)), None))
        return out

    def seed_root(self, root: _Node, acts: np.ndarray, margins: np.ndarray | None) -> None:
        """Prior knowledge at the root (Gelly & Silver 2007): with ``prior`` > 0 and heuristic
        margins, each candidate starts with ``prior`` virtual visits (and availabilities) at the
        reward its heuristic margin gives (the logistic over ``scale``, as an unfinished rollout)."""
        if self.prior <= 0 or margins is None:
            return
        for a, m in zip(acts, margins):
            ch = root.children[int(a)] = _Node()
            ch.n = ch.avail = self.prior
            ch.w = self.prior / (1.0 + math.exp(-float(m) / self.scale))

    def policy_actions(self, game, sub, streams: Streams, mask: np.ndarray, who: np.ndarray,
                       rows: np.ndarray) -> np.ndarray:
        """``int[B]`` the rollout policy's action in copies ``rows`` (-1 elsewhere), drawing from
        each copy's iteration stream."""
        a = np.full(sub.batch_size, -1, np.int64)
        if rows.size == 0:
            return a
        if self.policy is None:
            a[rows] = streams.choose_legal(rows, mask[rows])
            return a
        for q in range(sub.num_players):
            li = rows[who[rows] == q]
            if li.size:
                a[li] = self.policy.act(View(game, sub, li, q), mask[li], StrategyRNG(streams, li))
        return a

    def rewards(self, game, sub) -> np.ndarray:
        """``float[B, P]`` reward of every seat in every copy (see module docstring)."""
        b, p = sub.batch_size, sub.num_players
        r = np.empty((b, p))
        for q in range(p):
            r[:, q] = value(game, sub, np.full(b, q), self.heuristic.weights)
        done = game.done(sub)
        soft = np.array([_logistic(x, self.scale) for x in r.ravel().tolist()]).reshape(r.shape)
        if done.any():
            fs = np.asarray(game.final_scores(sub), dtype=np.float64)
            if fs.ndim == 2:
                top = fs >= fs.max(axis=1, keepdims=True)
                soft[done] = (top / np.maximum(top.sum(axis=1, keepdims=True), 1))[done]  # win share
        return soft

    #: the methods whose choices the compiled search reproduces (a subclass overriding one keeps the Python path)
    _COMPILED_AS = ("act", "_to_search", "_search_group", "_tree_step", "_choose", "root_actions", "root_candidates",
                    "seed_root", "policy_actions", "rewards", "budgets", "kind_codes", "_codes")

    def compiled_search(self, game):
        """The :class:`meeplelab.sim.core.ismcts.SearchSpec` of this search for ``game``'s play kernel (the same choices as
        :meth:`act` on the same streams), or None when it has none: ``ms`` > 0 (a time budget is not
        reproducible), a subclass changing the search, a heuristic without a compiled form, or a rollout policy
        that is not a compiled plan (or uniform random); then the seat decides on the Python path."""
        if self.ms > 0 or any(getattr(type(self), m) is not getattr(ISMCTS, m) for m in self._COMPILED_AS):
            return None
        heur = self.heuristic.compiled(game) if hasattr(self.heuristic, "compiled") else None
        if heur is None:
            return None
        if self.policy is None or type(self.policy) is RandomStrategy:
            policy = Plan("uniform")  # the empty plan: one uniform draw per ply, as choose_legal
        elif isinstance(self.policy, CompiledPlan):
            policy = self.policy.resolved(game)
        else:
            return None
        args = {"iters": self.iters, "top": self.top, "horizon": self.horizon, "c": self.c, "scale": self.scale,
                "prior": self.prior, "depth": self.depth, "par": self.par, "widen": self.widen,
                "kinds": self.kind_codes(game), "gap": self.gap, "sub": self.sub}
        return SearchSpec(heur, policy, args)

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        """One action per game of ``view`` (``int64[n]``; ``legal_mask``: ``bool[n, A]``): a single legal action
        as it is, a decision left to the heuristic (``kinds``, ``gap``) as the heuristic chooses, every other
        decision searched (``iters`` iterations in groups of ``par`` copies, or until ``ms`` milliseconds) and
        the root's most visited child taken (ties: higher mean reward, then the lower action)."""
        n = legal_mask.shape[0]
        single = legal_mask.sum(axis=1) == 1
        out = np.full(n, -1, np.int64)
        out[single] = np.argmax(legal_mask[single], axis=1)
        base = rng.streams.u64(rng.idx)  # one draw per game and decision, even where nothing is searched
        todo, cands, budget = self._to_search(view, legal_mask, rng, single, out)
        if todo.size == 0:
            return out
        roots = [_Node() for _ in todo]
        allowed = [acts for acts, _ in cands]
        for root, (acts, margins) in zip(roots, cands):
            self.seed_root(root, acts, margins)
        t0 = time.perf_counter()
        par = max(1, self.par)
        for it0 in range(0, int(budget.max()), par):
            if self.ms > 0 and it0 > 0 and (time.perf_counter() - t0) * 1000 > self.ms:
                break
            m = np.clip(budget - it0, 0, par)  # iterations of this group per searched game (a copy each)
            self._search_group(view, base[todo], todo, m, it0, roots, allowed)
        for k, r in enumerate(todo):
            ch = roots[k].children
            if not ch:
                out[r] = int(allowed[k][0])
                continue
            out[r] = max(ch, key=lambda a: (ch[a].n, ch[a].w / max(ch[a].n, 1), -a))
        return out

    def _to_search(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG, single: np.ndarray,
                   out: np.ndarray) -> tuple[np.ndarray, list | None, np.ndarray | None]:
        """The games :meth:`act` searches: ``(todo, candidates, budget)`` with ``todo`` the rows (``int64[k]``),
        per row the root's ``(actions, margins)`` (:meth:`root_candidates`) and its iterations (``int64[k]``);
        candidates and budget are None when nothing is searched. A decision left to the heuristic gets its
        choice in ``out`` (in place)."""
        game, state = view.game, view.state
        n = legal_mask.shape[0]
        if not (self.kinds or self.gap > 0):
            todo = np.flatnonzero(~single)
            if todo.size == 0:
                return todo, None, None
            return todo, self.root_candidates(view, legal_mask, rng, todo), np.full(todo.size, self.iters, np.int64)
        # decisions left to the heuristic: its choice on the next draws
        scored = None
        if self.top > 0:
            rows, acts, starts, score, u = self.heuristic.scores(view, legal_mask, rng)
            ends = np.r_[starts[1:], rows.size]
            scored, legal_acts = [np.zeros(0)] * n, [np.zeros(0, np.int64)] * n
            for a, b in zip(starts, ends):
                scored[int(rows[a])], legal_acts[int(rows[a])] = score[a:b], acts[a:b]
            pick = pick_best(score, rows, acts, starts, n, u)
        budget = self.budgets(view, legal_mask, scored)
        search = budget > 0
        heur = np.flatnonzero(~single & ~search)
        if heur.size:
            if self.top > 0:
                out[heur] = pick[heur]
            else:
                sub = View(game, state, view.idx[heur], view.seat)
                out[heur] = self.heuristic.act(sub, legal_mask[heur], rng.subset(heur))
        todo = np.flatnonzero(search)
        if todo.size == 0:
            return todo, None, None
        if self.top > 0:  # the root candidates from the scores already drawn
            cands = []
            for r in todo:
                order = np.argsort(-scored[r], kind="stable")[: self.top]
                cands.append((legal_acts[r][order], scored[r][order]))
        else:
            cands = self.root_candidates(view, legal_mask, rng, todo)
        return todo, cands, budget[todo]

    def _search_group(self, view: View, base: np.ndarray, todo: np.ndarray, m: np.ndarray, it0: int,
                      roots: list[_Node], allowed: list[np.ndarray]) -> None:
        """One group of iterations: ``m[k]`` copies of searched game ``todo[k]`` (iterations ``it0`` ..
        ``it0 + m[k] - 1``, keyed by ``base[k]``, its decision's draw), each redeterminized, walked down the tree
        from ``roots[k]`` (:meth:`_tree_step`), played on by the rollout policy and its rewards backed up."""
        game, state = view.game, view.state
        seat = np.full(todo.size, view.seat)
        g_of = np.repeat(np.arange(todo.size), m)  # copies of game k: iterations it0 .. it0 + m[k] - 1, in order
        j_of = np.arange(g_of.size) - np.repeat(np.cumsum(m) - m, m)
        streams = iteration_streams(base[g_of], it0 + j_of)
        nc = g_of.size
        sub = state.take(view.idx[todo][g_of], fresh_logs=True)
        game.redeterminize(sub, seat[g_of], streams)
        root_turns = game.progress(sub)[0].copy()
        paths: list[list[tuple[_Node, int]]] = [[] for _ in range(nc)]
        root_of, allowed_of = [roots[k] for k in g_of], [allowed[k] for k in g_of]
        cur = list(root_of)
        live = np.ones(nc, bool)
        for _depth in range(self.depth):
            live &= ~game.done(sub)
            if not live.any():
                break
            expanded = self._tree_step(game, sub, streams, live, cur, paths, root_of, allowed_of)
            live &= ~expanded
            if not live.any():
                break
        # with widening the horizon counts from the root's turn (every iteration valued at the same
        # point of the game however deep its tree path); otherwise from the expanded node's turn
        turns0 = root_turns if self.widen > 0 else game.progress(sub)[0].copy()
        continue_for(game, sub, streams, turns0, self.horizon, self.policy, cap=48)
        rew = self.rewards(game, sub)
        for r in range(nc):
            for node, mover in paths[r]:
                node.w += float(rew[r, mover])

    def _tree_step(self, game, sub, streams: Streams, live: np.ndarray, cur: list[_Node], paths: list,
                   root_of: list[_Node], allowed_of: list[np.ndarray]) -> np.ndarray:
        """One ply of the tree walk for every live copy (``bool[nc]``): each copy's node ``cur[r]`` picks an
        action (:meth:`_choose`; ``root_of[r]``/``allowed_of[r]``: its game's root and root candidates), the
        child is visited (a virtual loss until the backup) and appended to ``paths[r]``, and the copies step.
        Returns which copies expanded a new node (``bool[nc]``)."""
        nc = live.size
        mask = game.legal_action_mask(sub)
        who = game.to_act(sub)
        acts = np.full(nc, -1, np.int64)
        li = np.flatnonzero(live)
        u = streams.random(li)
        if self.widen > 0:  # below the root: the rollout policy's action is expanded first
            below = np.array([cur[r] is not root_of[r] for r in li], bool)
            pa = self.policy_actions(game, sub, streams, mask, who, li[below])
        expanded = np.zeros(nc, bool)
        for k, r in enumerate(li):  # copies of a game in iteration order: the virtual visits
            node = cur[r]          # of its earlier copies in the group steer the later ones
            at_root = node is root_of[r]
            a, expanded[r] = self._choose(node, at_root, allowed_of[r], mask[r],
                                          pa[r] if self.widen > 0 and not at_root else None, u[k])
            acts[r] = a
            child = node.children[a]
            child.n += 1  # a visit now (virtual loss until the group's rewards are backed up)
            paths[r].append((child, int(who[r])))
            cur[r] = child
        game.step(sub, acts, mask, where=live)
        sub.turn_n[:] = 0
        sub.event_n[:] = 0
        return expanded

    def _choose(self, node: _Node, at_root: bool, allowed: np.ndarray, mask_row: np.ndarray, policy_action,
                u: float) -> tuple[int, bool]:
        """The action a copy takes at ``node``: an untried one (drawn with ``u`` in [0, 1)) when there is one, at
        the root the heuristic's best untried candidate of ``allowed``, with widening (``widen`` > 0) the rollout
        policy's ``policy_action`` first and further children only as the visits grow; else the child of best
        UCB (mean reward + ``c`` x exploration over the times it was available). Every legal child counts one
        more availability. Returns (the action, whether its node is new)."""
        if at_root:  # the root: the heuristic's best actions, expanded best first
            legal = allowed
            untried = [a for a in legal if int(a) not in node.children][:1]
        elif self.widen > 0:  # progressive widening in the policy's order
            legal = np.flatnonzero(mask_row)
            if int(policy_action) not in node.children:
                untried = [int(policy_action)]
            elif node.n >= self.widen * len(node.children):
                untried = [a for a in legal if int(a) not in node.children]
            else:
                untried = []
                legal = [a for a in legal if int(a) in node.children]
        else:
            legal = np.flatnonzero(mask_row)
            untried = [a for a in legal if int(a) not in node.children]
        new = bool(untried)
        if untried:
            a = int(untried[min(int(u * len(untried)), len(untried) - 1)])
            node.children[a] = _Node()
        else:
            best, a = -math.inf, int(legal[0])
            for x in legal:
                ch = node.children[int(x)]
                sc = ch.w / ch.n + self.c * math.sqrt(math.log(max(ch.avail, 1)) / ch.n)
                if sc > best:
                    best, a = sc, int(x)
        for x in legal:
            ch = node.children.get(int(x))
            if ch is not None:
                ch.avail += 1
        return a, new


#: the tuned heuristic weights of each game (``docs/presets/<game>-heuristic-tuned.toml``, written by ``meeplelab
#: tune``; ``tests/test_compiled_ismcts.py`` checks they equal the preset files): the game's ISMCTS values its root
#: candidates and leaves with them by default (``weights=tuned``), as the tuned preset beats the default heuristic
#: (docs/strategies.md, the ladder)
TUNED = {
    "galileos-truth": {"end_vp": 0.6878, "coins": 0.06151, "research": 0.01001, "books": 0.1169, "level": 0.6415,
                       "tiles": 0.3811, "inventions": 0.5693, "treatises": 0.971, "suspicion": -0.02062,
                       "seals_left": 0.516, "cards": -0.1165, "copernican": 11.89},
    "unconscious-mind": {"coffee": 0.2819, "bright": 0.2175, "insight": 0.2252, "colour": 0.1146, "cured": 1.372,
                         "tiles": 0.5751, "inplay": 0.2178, "hand": 0.3542, "rep": 0.9334, "hearts": 0.2922,
                         "therapy": 0.1849},
}

#: each game's default arguments (chosen to meet its targets, benchmarks/RESULTS.md "search"): a root
#: bandit (depth=1) in groups of 8 iterations, a small exploration constant; Galileo's Truth searches its main
#: decisions (P_MAIN) with 3-turn rollouts, Unconscious Mind every decision with 1-turn rollouts
GAME_DEFAULTS = {
    "galileos-truth": {"iters": 32, "horizon": 3, "depth": 1, "par": 8, "c": 0.3, "kinds": "P_MAIN",
                       "weights": "tuned"},
    "unconscious-mind": {"iters": 24, "horizon": 1, "depth": 1, "par": 8, "c": 0.3, "weights": "tuned"},
}


def _weights(search: ISMCTS, game: str) -> dict:
    """The heuristic weights of ``search``'s ``weights`` argument for ``game``: ``tuned`` (:data:`TUNED`) or
    ``heuristic`` (the game heuristic's defaults: none given)."""
    w = str(search.args.get("weights", search.defaults.get("weights", "tuned")))
    if w not in ("tuned", "heuristic"):
        raise ConfigError(f"strategy 'ismcts': weights={w!r}: allowed tuned, heuristic")
    return dict(TUNED[game]) if w == "tuned" else {}


ARGS = {
    "iters": Arg(int, 64, "iterations per decision (one redeterminisation each)", 1, 100000),
    "ms": Arg(float, 0.0, "time per decision batch in milliseconds, 0 = iterations only (reproducible)", 0, 600000),
    "c": Arg(float, 0.7, "UCT exploration constant (rewards in [0, 1])", 0, 10),
    "top": Arg(int, 3, "root candidates: the heuristic's best N actions, expanded best first (0 = every legal "
               "action)", 0, 256),
    "horizon": Arg(int, 2, "turns each rollout is played with the scripted plan after expansion", 0, 1000),
    "scale": Arg(float, 5.0, "heuristic margin giving reward 0.73 (logistic scale) for an unfinished rollout",
                 0.001, 1000),
    "prior": Arg(float, 0.0, "virtual visits of each root candidate at the reward of its heuristic margin "
                 "(0 = none; needs top > 0)", 0, 100000),
    "depth": Arg(int, 64, "tree plies below the root an iteration may walk before its rollout (1 = a bandit over "
                 "the root candidates)", 1, 64),
    "par": Arg(int, 1, "iterations run together as one batch (virtual loss: a visit counts from selection, "
               "its reward from the group's end); 1 = sequential UCT", 1, 4096),
    "kinds": Arg(str, "", "decision kinds searched with iters iterations, the engine's names joined by + "
                 "(P_MAIN+P_SEC); the others get sub iterations (empty = every kind)"),
    "gap": Arg(float, 0.0, "search only when the heuristic's best two actions score within this of each other (VP-like "
               "margin units), else play the heuristic's choice (0 = always search; needs top > 0)", 0, 100000),
    "sub": Arg(int, 0, "iterations at decisions of a kind not in kinds (0 = the heuristic decides them)", 0, 100000),
    "widen": Arg(float, 0.0, "below the root: the rollout policy's action first, another child only once the "
                 "node has widen x children visits (progressive widening; 0 = every legal action, random order)",
                 0, 100000),
}
register_strategy("ismcts", ISMCTS, args=ARGS,
                  doc="Information-set MCTS: UCT over redeterminisations, random rollouts, VP margin rewards.")


#: the weights argument every game's own ISMCTS takes (:func:`register_game_search`)
WEIGHTS_ARG = {"weights": Arg(str, "tuned", "root and leaf weights: tuned (the tuned heuristic preset's) or heuristic "
                                             "(the heuristic's defaults)")}


def game_args(game: str) -> dict:
    """:data:`ARGS` with ``game``'s own defaults shown (:data:`GAME_DEFAULTS`)."""
    out = dict(ARGS)
    for k, v in GAME_DEFAULTS[game].items():
        if k in out:
            a = out[k]
            out[k] = Arg(a.type, v, a.doc, a.lo, a.hi)
    return out


def register_game_search(game: str, cls: type, doc: str, extra: dict | None = None) -> None:
    """Register ``cls`` (an :class:`ISMCTS` subclass: a game's own search) as ``ismcts`` for ``game``, with the game's
    defaults, the ``weights`` argument and ``extra`` arguments. Called by the game's strategy module, so a run of
    one game never imports another game's search (nor its engine)."""
    register_strategy("ismcts", cls, games=(game,), args={**game_args(game), **WEIGHTS_ARG, **(extra or {})}, doc=doc)
