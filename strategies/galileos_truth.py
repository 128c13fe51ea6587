"""Galileo's Truth strategies: scripted plans (priority lists as data), a tuned heuristic and rollouts.

Every scripted strategy is a :class:`~meeplelab.strategies.plans.Plan` of :class:`~meeplelab.strategies.plans.Rule` rows, read like a
player's plan and played inside the compiled play kernel (docs/compiled_play.md). A rule names

- an action set (a constant ``bool[A]`` row of :func:`action_sets`: "spaces whose icons Write", "Secondary
  Action Observe"),
- the phases it applies to (the pending decision, ``P_*``), and
- optional conditions on named features (the Cycle, the seat's Suspicion, Research and Books:
  ``sim/galileos_truth/features.py``), compared with a constant or with a rule number the engine names as a
  feature (``prison_at``, ``penance_threshold``...: ``abjure-at:margin=M``).

The last rules never Abjure and never pass while anything else is legal, so only the rule that says so Abjures
(``abjure-at``, ``suspicion-averse``), and a plan never idles a Cycle away.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.galileos_truth import content as ct
from meeplelab.sim.galileos_truth.state import (A_ABJURE, A_CARD, A_DECKTOP, A_DONE, A_EFFECTS, A_GROUP, A_INV, A_OLEVEL, A_PASS, A_PAY,
                                      A_SEC, A_SPACE, A_UPGRADE)

from .base import Strategy, StrategyRNG, View, game_table
from .generic import Heuristic, Rollout, weight_arg
from .plans import CompiledPlan, Plan, Rule, When
from .registry import Arg, register_strategy

GAME = ("galileos-truth",)
OP = ct.OP
SEC = {name: A_SEC + i for i, name in enumerate(ct.SECONDARY)}


# ====================================================================== rule building blocks

def _tables(game):
    """Constant action rows of a game instance (cached per engine): which cards / spaces carry an opcode."""
    return game_table(game, "gt-action-sets", _build_tables)


def _build_tables(game) -> dict[str, np.ndarray]:
    """The action rows of :func:`_tables` (``bool[A]`` each) from ``game``'s content."""
    C = game.C
    A = game.num_actions

    def has_op(iset, *ops):
        return bool(np.isin(C.ISET_OP[iset], [OP[o] for o in ops]).any())

    def row(actions):
        r = np.zeros(A, bool)
        r[list(actions)] = True
        return r

    nt = C.CARD_KIND.shape[0]
    treat = [t for t in range(nt) if C.CARD_KIND[t] in (ct.CK_BASIC, ct.CK_PYRAMID)]
    pen = [t for t in range(nt) if C.CARD_KIND[t] == ct.CK_PENANCE]

    def cards(*ops):
        return row(A_CARD + t for t in treat if has_op(C.CARD_ISET[t], *ops))

    def spaces(*ops):
        return row(A_SPACE + s for s in range(len(C.SPACE_LEVEL)) if has_op(C.SPACE_ISET[s], *ops))

    T = {
        "upgrade": row([A_UPGRADE]), "abjure": row([A_ABJURE]), "pass": row([A_PASS]), "done": row([A_DONE]),
        "effects": row([A_EFFECTS]),
        "pay": row([A_PAY]), "decktop": row([A_DECKTOP]), "both": row([A_GROUP + 2]),
        "one-group": row([A_GROUP, A_GROUP + 1]),
        "penance-card": row(A_CARD + t for t in pen), "treatise-card": row(A_CARD + t for t in treat),
        "use-invention": row(range(A_INV, A_INV + ct.NI_MAX)),
        "high-level": row([A_OLEVEL + 2, A_OLEVEL + 1]),
    }
    for lv in range(1, 5):
        T[f"space-l{lv}"] = row(A_SPACE + s for s in range(len(C.SPACE_LEVEL)) if C.SPACE_LEVEL[s] == lv)
    for name, a in SEC.items():
        T[f"sec-{name}"] = row([a])
    T["spaces-act"] = spaces("write", "observe", "invent", "copy", "read")
    T["sec-good"] = row(SEC[k] for k in ("write", "observe", "invent", "copy", "read"))
    for name, ops in (("write", ("write",)), ("observe", ("observe",)), ("invent", ("invent",)),
                      ("calm", ("susp_down", "susp_down_diff")), ("loud", ("susp_up", "susp_up_copernicans"))):
        T[f"cards-{name}"] = cards(*ops)
        T[f"spaces-{name}"] = spaces(*ops)
    # the fallback of every plan: never Abjure, pass or skip while anything else is legal
    T["sensible"] = ~T["abjure"] & ~T["pass"] & ~T["done"]
    T["not-abjure"] = ~T["abjure"]
    return T


def action_sets(game) -> dict[str, np.ndarray]:
    """The named action sets plans prefer (``bool[A]`` each), computed once per engine from its content."""
    return _tables(game)


def R(action_set: str, *phases: str, when: tuple = (), exclude: str | None = None, label: str = "") -> Rule:
    """A rule: prefer ``action_set`` in the given phases (``"P_MAIN"``; all phases if none) when the conditions
    ``when`` hold; ``exclude`` drops another action set."""
    return Rule(label, action_set, kinds=tuple(phases), when=tuple(when), exclude=exclude)


def cycle_is(n: int) -> tuple:
    return (When("cycle", "==", n),)


def susp_at_least(n: int) -> tuple:
    return (When("suspicion", ">=", n),)


def susp_below(n: int) -> tuple:
    return (When("suspicion", "<", n),)


#: Research and Books enough for a Write (3 Research, 4 Books on the tracks)
CAN_WRITE = (When("research", ">=", 3), When("books_total", ">=", 4))


class Sensible(Strategy):
    """Fallback: a random legal action, but never Abjure, and pass / skip only when nothing else
    is legal."""

    name = "sensible"

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        T = _tables(view.game)
        m = legal_mask & ~T["abjure"] & ~T["pass"] & ~T["done"]
        empty = ~m.any(axis=1)
        m[empty] = legal_mask[empty] & ~T["abjure"]
        empty = ~m.any(axis=1)
        m[empty] = legal_mask[empty]
        return rng.choose_legal(m)


# ====================================================================== plans

def general_plan(both_below: int = 4) -> list[Rule]:
    """The shared backbone: climb Levels, clear Penance, use the strongest space, play cards, and
    take every useful Secondary Action."""
    return [
        R("upgrade", "P_MAIN", label="upgrade your Academic Level whenever you can"),
        R("penance-card", "P_MAIN", label="play a drawn Penance card"),
        R("pay", "P_PENPAY", label="pay to remove a Penance card"),
        R("use-invention", "P_MAIN", label="use a ready Invention"),
        R("space-l4", "P_MAIN", label="Philosopher to a Level IV space"),
        R("space-l3", "P_MAIN", label="... else Level III"),
        R("spaces-write", "P_MAIN", when=CAN_WRITE, label="... else a Writing space once Research and Books allow"),
        R("spaces-act", "P_MAIN", label="... else a space with a Secondary Action (Write, Observe, Invent...)"),
        R("space-l2", "P_MAIN", label="... else a Level II space"),
        R("space-l1", "P_MAIN", label="... else any Level I space"),
        R("treatise-card", "P_MAIN", label="play a Treatise card"),
        R("done", "P_STACK", label="one card per stack (keep the hand for more turns)"),
        R("sec-write", "P_SEC", label="Write a Treatise"),
        R("sec-observe", "P_SEC", label="Observe the Sky"),
        R("sec-invent", "P_SEC", label="Create an Invention"),
        R("sec-good", "P_SEC", label="Copy or Read"),
        R("sec-draw", "P_SEC", label="Draw"),
        R("both", "P_GROUP", when=susp_below(both_below), label=f"take both groups while Suspicion < {both_below}"),
        R("high-level", "P_OLEVEL", label="observe at the highest Level"),
        R("decktop", "P_PLACE", label="new Treatise on top of the deck"),
    ]


#: scripted plans resolve an icon set's mandatory Effects before its Secondary Actions (their gains
#: usually pay for them); the order is the player's choice (A-GT-25), explored by heuristic and rollout
EFFECTS_FIRST = R("effects", "P_SEC", label="resolve the Effects before the Secondary Actions")

#: the fallback of every plan (the ``sensible`` strategy as rules): any action but Abjure, pass or skip; then
#: any but Abjure; then any legal action
SENSIBLE = [R("sensible", label="otherwise any action but Abjure, pass or skip"),
            R("not-abjure", label="... else any action but Abjure")]


def scripted(name: str, rules: list[Rule], **args) -> CompiledPlan:
    """A scripted plan: :data:`EFFECTS_FIRST`, its own ``rules``, then :data:`SENSIBLE` (random last)."""
    return CompiledPlan(Plan(name, tuple([EFFECTS_FIRST] + rules + SENSIBLE)), action_sets=action_sets, **args)


def abjure_at(cycle: int | None = None, suspicion: int | None = None, margin: int | None = None) -> CompiledPlan:
    """General plan; Abjure at the first main decision (seed 001 §Abjure: a Main Action of a Copernican, not in
    Period III, which the legal mask enforces) where its conditions hold.

    - ``cycle=N``: in Cycle N, whatever the Suspicion (the only condition when none is given: ``cycle=3``);
    - ``suspicion=S``: once the seat's Suspicion is at least S, in any Cycle the rules allow;
    - ``margin=M``: once the seat's Suspicion is within M of the nearer of the End-of-Cycle Penance threshold
      (``penance_threshold``, A-GT-15) and the Prison threshold (``prison_at``, A-GT-11), both read from the
      game's rule numbers (features of ``sim/galileos_truth/features.py``): Suspicion >= threshold - M.

    ``cycle`` combines with either (Abjure in that Cycle once the condition holds); ``suspicion`` and
    ``margin`` together are refused. Reads the Cycle, the seat's Suspicion and the two rule numbers.

    Raises:
        ConfigError: both ``suspicion`` and ``margin`` given.
    """
    if suspicion is not None and margin is not None:
        raise ConfigError(f"strategy 'abjure-at': suspicion={suspicion} and margin={margin} are two Suspicion "
                          "conditions: allowed one of them (either may be combined with cycle)")
    if cycle is None and suspicion is None and margin is None:
        cycle = 3
    base = cycle_is(cycle) if cycle is not None else ()
    in_cycle = f" in Cycle {cycle}" if cycle is not None else ""
    if suspicion is not None:
        rules = [R("abjure", "P_MAIN", when=base + susp_at_least(suspicion),
                   label=f"Abjure{in_cycle} once Suspicion >= {suspicion}")]
    elif margin is not None:
        label = f"Abjure{in_cycle} once Suspicion is within {margin} of the Penance or Prison threshold"
        rules = [R("abjure", "P_MAIN", when=base + (When("suspicion", ">=", -margin, ref=ref),), label=label)
                 for ref in ("penance_threshold", "prison_at")]
    else:
        rules = [R("abjure", "P_MAIN", when=base, label=f"Abjure in Cycle {cycle}")]
    given = {k: v for k, v in (("cycle", cycle), ("suspicion", suspicion), ("margin", margin)) if v is not None}
    return scripted("abjure-at", rules + general_plan(), **given)


def never_abjure(**_):
    return scripted("never-abjure", general_plan())


def inventor(**_):
    rules = [
        R("use-invention", "P_MAIN", label="use a ready Invention first"),
        R("spaces-invent", "P_MAIN", label="Philosopher to the Workshop"),
        R("cards-invent", "P_MAIN", label="play cards that Create Inventions"),
        R("sec-invent", "P_SEC", label="Create an Invention"),
    ] + general_plan()
    return scripted("inventor", rules)


def observer(**_):
    rules = [
        R("spaces-observe", "P_MAIN", label="Philosopher to the Observatory"),
        R("cards-observe", "P_MAIN", label="play cards that Observe"),
        R("sec-observe", "P_SEC", label="Observe the Sky"),
        R("high-level", "P_OLEVEL", label="observe at the highest Level"),
    ] + general_plan()
    return scripted("observer", rules)


def writer(**_):
    rules = [
        R("upgrade", "P_MAIN", label="upgrade first"),
        R("spaces-write", "P_MAIN", label="Philosopher to a Writing space"),
        R("cards-write", "P_MAIN", label="play cards that Write"),
        R("sec-write", "P_SEC", label="Write a Treatise"),
    ] + general_plan()
    return scripted("writer", rules)


def suspicion_averse(threshold: int | None = None, **_):
    given, threshold = threshold is not None, 6 if threshold is None else threshold
    rules = [
        R("abjure", "P_MAIN", when=susp_at_least(threshold), label=f"Abjure once Suspicion >= {threshold}"),
        R("penance-card", "P_MAIN", label="play a drawn Penance card (Suspicion -1)"),
        R("spaces-calm", "P_MAIN", exclude="spaces-loud", label="Suspicion-reducing space"),
        R("cards-calm", "P_MAIN", exclude="cards-loud", label="Suspicion-reducing card"),
        R("one-group", "P_GROUP", label="never both groups of a Suspicion line"),
    ] + general_plan(both_below=0)
    return scripted("suspicion-averse", rules, **({"threshold": threshold} if given else {}))


# ====================================================================== heuristic

class GTHeuristic(Heuristic):
    """One-step lookahead scored by Galileo's Truth features (margin over the best opponent):
    each legal action is tried on a redeterminised copy, the rest of the seat's turn is finished
    by the general plan (``finish=1``; the generic heuristic finishes at random), and the state
    is valued by VP plus the end-game VP already in sight (Copernican Truth, Suspicion band),
    resources and progress."""

    name = "heuristic"
    # tuned against writer (2 seats, 200-game pairs): the Copernican side is worth ~6 VP of
    # option value (Truth bonus still to come); the others moved the win rate little
    default_weights = {"vp": 1.0, "end_vp": 0.8, "coins": 0.15, "research": 0.25, "books": 0.2, "level": 1.5,
                       "tiles": 0.5, "inventions": 0.3, "treatises": 1.0, "suspicion": -0.3, "seals_left": 0.0,
                       "cards": 0.0, "copernican": 6.0}

    def __init__(self, **args):
        super().__init__(**args)
        self.plan = scripted("general-plan", general_plan())

    def finish_turn(self, game, sub, streams, seat: int, turns0: np.ndarray) -> None:
        finish_turn(game, sub, streams, seat, self.plan, turns0, self.finish_plies)

    #: plies the finish may take (``finish_turn``)
    finish_plies = 48

    def finish_plan(self, game):
        """The general plan, resolved for ``game`` (what :meth:`finish_turn` plays), or None when a subclass
        finishes otherwise."""
        if type(self).finish_turn is not GTHeuristic.finish_turn or not isinstance(self.plan, CompiledPlan):
            return None
        return self.plan.resolved(game)


def finish_turn(game, sub, streams, seat: int, plan: Strategy, turns0: np.ndarray, max_plies: int = 48) -> None:
    """Play ``seat``'s current turn to its end on the copies ``sub`` with ``plan``."""
    for _ in range(max_plies):
        live = ~game.done(sub) & (game.progress(sub)[0] == turns0) & (game.to_act(sub) == seat)
        if not live.any():
            return
        li = np.flatnonzero(live)
        mask = game.legal_action_mask(sub)
        a = np.full(sub.batch_size, -1, np.int64)
        a[li] = plan.act(View(game, sub, li, seat), mask[li], StrategyRNG(streams, li))
        game.step(sub, a, mask, where=live)
        sub.turn_n[:] = 0
        sub.event_n[:] = 0


class GTRollout(Rollout):
    """Monte Carlo rollouts for Galileo's Truth: the tuned heuristic's ``top`` best actions, each
    continued ``k`` times for ``horizon`` turns (``horizon=1``: to the end of the seat's own turn)
    with every seat playing the general plan instead of uniform random play, on common random
    numbers across candidates, valued by the heuristic's weighted margin; best mean wins."""

    name = "rollout"
    defaults = {"k": 4, "top": 3, "horizon": 3}

    def __init__(self, **args):
        super().__init__(**args)
        self.heuristic = GTHeuristic()
        self.plan = self.policy = self.heuristic.plan
        self.candidates, self.common_numbers, self.cap = "heuristic", True, 48


register_strategy("abjure-at", abjure_at, games=GAME, args={
    "cycle": Arg(int, 3, "Cycle (1-4) in which to Abjure at the first opportunity (3 when no other condition is "
                 "given; with suspicion or margin: in that Cycle once it holds)", 1, 4),
    "suspicion": Arg(int, None, "Abjure once the seat's Suspicion is at least this (none: no Suspicion condition)",
                     1, 12),
    "margin": Arg(int, None, "Abjure once Suspicion >= the nearer of the rules' penance_threshold and prison_at "
                  "minus this (none: no such condition; not with suspicion)", 0, 12)},
    doc="General plan (upgrade, Penance, best space, cards, Write/Observe/Invent); Abjures first thing in Cycle N, "
        "or once Suspicion reaches a value or comes within a margin of the rules' Penance/Prison threshold.")
register_strategy("never-abjure", never_abjure, games=GAME, doc="General plan; stays Copernican.")
register_strategy("inventor", inventor, games=GAME,
                  doc="Uses Inventions, Philosopher to the Workshop, Creates Inventions; then the general plan.")
register_strategy("observer", observer, games=GAME,
                  doc="Observatory, Observe cards, Observe the Sky at the highest Level; then the general plan.")
register_strategy("writer", writer, games=GAME,
                  doc="Upgrades, Writing spaces and cards, Writes Treatises; then the general plan.")
register_strategy("suspicion-averse", suspicion_averse, games=GAME, args={
    "threshold": Arg(int, 6, "Suspicion at which it Abjures", 1, 12)},
    doc="Penance, Suspicion-reducing spaces/cards, never both groups; Abjures when Suspicion is high.")
register_strategy("heuristic", GTHeuristic, games=GAME, args={
    **{k: weight_arg(v, f"weight of feature {k}") for k, v in GTHeuristic.default_weights.items()},
    "finish": Arg(int, 1, "finish the turn with the general plan before valuing (1) or not (0)", 0, 1),
}, doc="One-step lookahead scored by weighted Galileo's Truth features (margin over the best opponent).")
register_strategy("rollout", GTRollout, games=GAME, args={
    "k": Arg(int, 4, "continuations per candidate action", 1, 256),
    "top": Arg(int, 3, "candidate actions rolled out per decision (the heuristic's best)", 1, 64),
    "horizon": Arg(int, 3, "turns each continuation is played (1 = to the end of the own turn; all seats on the "
                   "general plan) before valuing", 1, 1000),
}, doc="Rollouts of the heuristic's best candidates with general-plan continuations; best mean weighted margin.")


# ---- the game's own tree search (strategies/ismcts.py): the tuned heuristic's weights, the general plan in rollouts
from .ismcts import ISMCTS, GAME_DEFAULTS, _weights, register_game_search  # noqa: E402


class GTISMCTS(ISMCTS):
    """ISMCTS for Galileo's Truth: the tuned heuristic's weights (``weights=tuned``, :data:`ismcts.TUNED`) for the root
    candidates and the leaf values, the general plan in rollouts; by default a root bandit (``depth=1``) over the
    heuristic's 3 best actions with 3-turn rollouts, searching the main decisions only (``kinds=P_MAIN``)."""

    defaults = {**ISMCTS.defaults, **GAME_DEFAULTS["galileos-truth"]}

    def __init__(self, **args):
        super().__init__(**args)
        self.heuristic = GTHeuristic(**_weights(self, "galileos-truth"))
        self.policy = self.heuristic.plan
        if self.kinds:  # refused when the id is read, before any game is played
            # start-up: the engine's play kernels load only for a heuristic with restricted kinds
            from meeplelab.sim.galileos_truth.play import KINDS

            self._codes(KINDS, "galileos-truth")


register_game_search(GAME[0], GTISMCTS,
                     doc="Information-set MCTS: UCT over redeterminisations, general-plan rollouts, heuristic rewards.")
