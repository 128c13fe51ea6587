"""Scripted plans as data: priority rules a numba kernel evaluates (compiled play).

A :class:`Plan` is dominiate's priority list written as data: each :class:`Rule` names the decision
kinds it applies to, conditions on the engine's named **features** (``coffee >= 3``: a column of the
deciding seat or of the game, or a quantity the engine derives) and the actions it prefers. For each
decision the first rule whose kind matches, whose conditions all hold and which has a legal preferred
action decides, uniformly among its legal preferred actions (in the order listed) from the decision's
stream; when no rule decides, the choice is uniform over the legal actions, exactly as
:class:`meeplelab.strategies.base.RandomStrategy` (so the empty plan *is* ``random``).

A condition compares a feature with a constant or with another feature plus a constant (``When("suspicion",
">=", -1, ref="prison_at")``: Suspicion within 1 of Prison). Engines name their rule numbers as features
(Galileo's Truth's ``prison_at``, ``penance_threshold``..., read from the game's parameter vector), so such a
plan plays differently when a rule number changes.

Some preferences depend on the state ("the fullest Notebook row"): the engine names integer **action
scores** (``SCORES`` of its features module, each an ``int64[A]`` row its ``action_scores`` kernel fills for
the deciding seat), and a rule keeps, among its legal preferred actions, those with the highest score
(``best="row_fill"``) or those with a positive score (``keep="cite_match"``). A plan's ``restrict`` names a
score whose positive actions are the only ones the plan (its rules and the fallback) may take, unless that
leaves nothing legal (the never-cite control).

:func:`compile_plans` turns one plan per seat into flat ``int64`` tables; the engine's written play module
(``sim/core/compiled.py``) evaluates them inside the play loop, and :class:`CompiledPlan` evaluates the
same tables on the Python-loop path, so both paths give the same games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meeplelab.sim.core.errors import ConfigError

from .base import Strategy, StrategyRNG, View

#: comparison codes of a condition (the kernel's ``meeplelab.sim.core.compiled.compare``)
OPS = {">=": 0, "<=": 1, "==": 2, "!=": 3, ">": 4, "<": 5}
#: columns of a rule row
R_KIND, R_COND0, R_COND1, R_ACT0, R_ACT1, R_SCORE, R_MODE = range(7)
RULE_WIDTH = 7
#: columns of a condition row: feature id, comparison code, value, reference feature id (-1 none)
COND_WIDTH = 4
#: a rule row's kind: every decision kind; the plan's restriction (``Plan.restrict``, first row of a seat)
ANY_KIND, RESTRICT_KIND = -1, -2
#: how a rule uses its score (``R_MODE``): not at all, the highest, the positive ones
SCORE_NONE, SCORE_BEST, SCORE_KEEP = 0, 1, 2


@dataclass(frozen=True)
class When:
    """A condition on a named feature of the engine: ``feature op value`` (``When("coffee", ">=", 3)``), or,
    with ``ref``, ``feature op ref + value``: a comparison with another feature, typically a rule number the
    engine names as a feature (``When("suspicion", ">=", -1, ref="prison_at")``: Suspicion at least one
    below the Prison threshold of the game's rules)."""

    feature: str
    op: str
    value: int
    ref: str | None = None


@dataclass(frozen=True)
class Rule:
    """One priority rule.

    Attributes:
        label: what a player would say ("bank a pot of 3 or more").
        prefer: the actions it would like, in order (ids of the engine's action space), or the name of
            an action set of the plan's ``action_sets`` (its actions in increasing id order).
        kinds: decision kind names where it applies (every kind when empty).
        when: conditions that must all hold.
        exclude: the name of an action set taken out of a named ``prefer`` set.
        best: the name of an engine action score (``SCORES``): keep the legal preferred actions with the
            highest score (ties drawn uniformly, in the order listed).
        keep: the name of an engine action score: keep the legal preferred actions with a positive score.
    """

    label: str
    prefer: tuple[int, ...] | str
    kinds: tuple[str, ...] = ()
    when: tuple[When, ...] = ()
    exclude: str | None = None
    best: str | None = None
    keep: str | None = None


@dataclass(frozen=True)
class Plan:
    """A priority list of rules; the fallback is uniform over the legal actions.

    Attributes:
        name: the plan's name.
        rules: the rules in priority order.
        restrict: the name of an engine action score: only actions with a positive score are taken (by
            the rules and the fallback), unless no legal action has one (then every legal action).
    """

    name: str
    rules: tuple[Rule, ...] = ()
    restrict: str | None = None

    def explain(self) -> list[str]:
        """The plan in words: rule labels in priority order (a label repeated by consecutive rules once),
        then the fallback."""
        out = []
        for r in self.rules:
            if not out or out[-1] != r.label:
                out.append(r.label)
        return out + ["otherwise: random"]


@dataclass(frozen=True)
class PlanTables:
    """Plans compiled for the kernels, one per seat.

    Attributes:
        rules: ``int64[R, RULE_WIDTH]``: decision kind code (``ANY_KIND``; ``RESTRICT_KIND`` for a plan's
            restriction), condition rows ``[c0, c1)``, preferred action rows ``[a0, a1)``, action score id
            (-1 none) and how it is used (``SCORE_*``).
        conds: ``int64[C, COND_WIDTH]``: feature id, comparison code (:data:`OPS`), value, reference feature
            id (-1: none; else the condition is ``feature op reference + value``).
        acts: ``int64[N]``: preferred actions, rule after rule.
        seat_rules: ``int64[P + 1]``: seat ``p``'s rules are rows ``seat_rules[p]:seat_rules[p + 1]``.
    """

    rules: np.ndarray
    conds: np.ndarray
    acts: np.ndarray
    seat_rules: np.ndarray


def _is_int(x) -> bool:
    """An integer action id or condition value (``bool`` and floats are refused)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _score_id(where: str, name: str, scores: tuple[str, ...]) -> int:
    """Index of action score ``name`` in the engine's ``scores``; ConfigError naming it otherwise."""
    if name not in scores:
        allowed = ", ".join(scores) or "none (this engine names no action scores)"
        raise ConfigError(f"{where}: unknown action score {name!r}; allowed: {allowed}")
    return scores.index(name)


def compile_plans(plans, kinds: dict[str, int], features: tuple[str, ...], num_actions: int,
                  scores: tuple[str, ...] = ()) -> PlanTables:
    """Flat tables of one plan per seat (``plans[p]``).

    Args:
        plans: a :class:`Plan` per seat.
        kinds: the engine's decision kind codes by name (``{"D_TURN": 1}``).
        features: the engine's feature names, in the order of its feature vector.
        num_actions: A, the size of the action space.
        scores: the engine's action score names (``SCORES`` of its features module), in id order.

    Raises:
        ConfigError: an unknown kind, feature, comparison or action score, a rule with both ``best`` and
            ``keep``, an action that is not an integer in ``0..A-1`` or a condition value that is not an
            integer (one line naming the value and what is allowed).
    """
    rules, conds, acts, seat_rules = [], [], [], [0]
    fid = {f: i for i, f in enumerate(features)}
    scores = tuple(scores)
    for plan in plans:
        if plan.restrict is not None:
            sid = _score_id(f"plan {plan.name!r}, restrict", plan.restrict, scores)
            rules.append((RESTRICT_KIND, len(conds), len(conds), len(acts), len(acts), sid, SCORE_KEEP))
        for rule in plan.rules:
            where = f"plan {plan.name!r}, rule {rule.label!r}"
            if isinstance(rule.prefer, str):
                raise ConfigError(f"{where}: action set {rule.prefer!r} is not resolved (meeplelab.strategies.plans.resolve)")
            ks = [kinds.get(k) for k in rule.kinds]
            if None in ks:
                bad = rule.kinds[ks.index(None)]
                raise ConfigError(f"{where}: unknown decision kind {bad!r}; allowed: {', '.join(sorted(kinds))}")
            for a in rule.prefer:
                if not _is_int(a) or not 0 <= int(a) < num_actions:
                    raise ConfigError(f"{where}: action {a!r} is not an action id; allowed: integers "
                                      f"0..{num_actions - 1} (or the name of an action set as the whole prefer)")
            for w in rule.when:
                if w.feature not in fid:
                    raise ConfigError(f"{where}: unknown feature {w.feature!r}; allowed: {', '.join(features)}")
                if w.op not in OPS:
                    raise ConfigError(f"{where}: unknown comparison {w.op!r}; allowed: {' '.join(OPS)}")
                if not _is_int(w.value):
                    raise ConfigError(f"{where}: value {w.value!r} of {w.feature!r} is not an integer; allowed: integers")
                if w.ref is not None and w.ref not in fid:
                    raise ConfigError(f"{where}: unknown reference feature {w.ref!r} of {w.feature!r}; allowed: "
                                      f"{', '.join(features)}")
            if rule.best is not None and rule.keep is not None:
                raise ConfigError(f"{where}: both best={rule.best!r} and keep={rule.keep!r}; allowed: one of them")
            sid, mode = -1, SCORE_NONE
            if rule.best is not None:
                sid, mode = _score_id(where, rule.best, scores), SCORE_BEST
            elif rule.keep is not None:
                sid, mode = _score_id(where, rule.keep, scores), SCORE_KEEP
            for k in ks or [ANY_KIND]:  # a rule for several kinds is one row per kind
                c0 = len(conds)
                conds += [(fid[w.feature], OPS[w.op], int(w.value), -1 if w.ref is None else fid[w.ref])
                          for w in rule.when]
                a0 = len(acts)
                acts += [int(a) for a in rule.prefer]
                rules.append((k, c0, len(conds), a0, len(acts), sid, mode))
        seat_rules.append(len(rules))
    return PlanTables(np.array(rules, np.int64).reshape(-1, RULE_WIDTH),
                      np.array(conds, np.int64).reshape(-1, COND_WIDTH),
                      np.array(acts, np.int64), np.array(seat_rules, np.int64))


def resolve(plan: Plan, action_sets: dict | None) -> Plan:
    """The plan with every named action set replaced by its action ids (``action_sets[name]`` is a
    ``bool[A]`` row; ``exclude`` removes another set).

    Raises:
        ConfigError: an unknown action set (naming it and the sets there are).
    """
    rules = []
    for r in plan.rules:
        if isinstance(r.prefer, str):
            names = [r.prefer] + ([r.exclude] if r.exclude else [])
            for n in names:
                if not action_sets or n not in action_sets:
                    allowed = ", ".join(sorted(action_sets or ())) or "none (this plan has no action sets: prefer action ids)"
                    raise ConfigError(f"plan {plan.name!r}, rule {r.label!r}: unknown action set {n!r}; allowed: {allowed}")
            row = np.asarray(action_sets[r.prefer], bool)
            if r.exclude:
                row = row & ~np.asarray(action_sets[r.exclude], bool)
            r = Rule(r.label, tuple(int(a) for a in np.flatnonzero(row)), r.kinds, r.when, best=r.best, keep=r.keep)
        rules.append(r)
    return Plan(plan.name, tuple(rules), plan.restrict)


class CompiledPlan(Strategy):
    """A :class:`Plan` at one seat: compiled play runs it inside the engine's play kernel; on the
    Python-loop path :meth:`act` evaluates the same tables with the engine's compiled ``choose_batch``.

    Attributes:
        plan: the plan.
        action_sets: ``game -> {name: bool[A]}``, the named action sets its rules prefer (None: only
            explicit action ids).
    """

    name = "plan"

    def __init__(self, plan: Plan, action_sets=None, **args):
        super().__init__(**args)
        self.plan = plan
        self.name = plan.name
        self.action_sets = action_sets
        self._resolved = None  # (weak reference to the game, resolved plan, tables)

    def resolved(self, game) -> Plan:
        """The plan with its named action sets resolved for ``game`` (cached per game)."""
        return self._for(game)[0]

    def _for(self, game):
        import weakref

        if self._resolved is None or self._resolved[0]() is not game:
            plan = resolve(self.plan, self.action_sets(game) if self.action_sets else None)
            mod = game.compiled_module()
            tables = compile_plans([plan], mod.KINDS, mod.FEATURES, game.num_actions, mod.SCORES)
            self._resolved = (weakref.ref(game), plan, tables)
        return self._resolved[1], self._resolved[2]

    @property
    def id(self) -> str:
        if not self.args:
            return self.plan.name
        return self.plan.name + ":" + ",".join(f"{k}={v}" for k, v in self.args.items())

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        game = view.game
        mod = game.compiled_module()
        tables = self._for(game)[1]
        out = np.empty(len(view.idx), np.int64)
        mod.choose_batch(*mod.kernel_context(game, view.state), tables.rules, tables.conds, tables.acts,
                         0, len(tables.rules), np.ascontiguousarray(view.idx, np.int64),
                         np.ascontiguousarray(legal_mask), rng.streams.keys, rng.streams.counters,
                         np.ascontiguousarray(rng.idx, np.int64), out)
        return out

    def explain(self) -> list[str]:
        return self.plan.explain()
