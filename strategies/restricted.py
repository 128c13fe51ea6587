"""Restricted play: a strategy id followed by ``+never:ACTION`` or ``+force:ACTION[@CONDITION]`` suffixes.

Jaffe et al. ("Evaluating Competitive Game Balance with Restricted Play", AIIDE 2012) measure a game's balance as
the win rate of a *restricted* agent against the unrestricted one: "is Abjuring worth it?" becomes "how does the
strong player do when it never abjures, or always abjures at Suspicion 6?". The restricted agent is the same agent
with its legal action mask narrowed before it chooses:

- ``never:X`` takes the actions named ``X`` out of the legal mask whenever another legal action remains (when ``X``
  is the only legal choice, it is taken). A game may name an action score for ``X`` whose positive actions also
  avoid committing the seat to ``X`` later (``GameSpec.never_scores``: Unconscious Mind's ``cite`` avoids the
  publications only citations could finish, as the ``never-cite`` plan does); those are kept first when any is
  legal. ``never:X@COND`` forbids ``X`` only while the condition holds.
- ``force:X@COND`` leaves only the actions named ``X`` whenever one of them is legal and the condition holds on the
  deciding seat's own state; ``force:X`` whenever one is legal.

Suffixes apply in the order written: ``tuned+never:abjure``, ``heuristic+force:abjure@suspicion>=6``,
``ismcts+never:cite``, ``heuristic:vp=1+force:abjure@cycle==2+never:upgrade``.

``ACTION`` is a name of the game's action vocabulary (:class:`meeplelab.sim.core.actions.Vocabulary`): a family
(``abjure``, ``subject``: all its ids), a choice part of some decision (``cite`` under ``D_GATHER``: its ids at that
decision only), or one action's label (``subject:astronomy``, ``to-freud``). ``CONDITION`` is ``FIELD OP INT`` with
``OP`` one of ``>= <= == != > <`` and ``FIELD`` one of the game's seat fields (``GameSpec.seat_fields``,
:class:`meeplelab.sim.core.restrict.SeatField`).

The narrowing draws no random number, so the restricted seat's decisions read the same streams as before and a
game is the same for any batch, chunk, worker count or path. Inside the compiled play kernel every chooser (plan,
heuristic, ISMCTS root) sees the narrowed mask (``<pkg>/choice.py`` ``restricted_mask``); a seat decided in Python
narrows the same mask with ``<pkg>/play.py`` ``restrict_batch`` before its strategy's ``act``.
"""

from __future__ import annotations

import difflib
import importlib
import re
from dataclasses import dataclass

import numpy as np
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.restrict import FORCE, NEVER, RR_WIDTH
from meeplelab.sim.registry import get_spec

from .base import Strategy, StrategyRNG, View, game_table
from .plans import ANY_KIND, OPS

#: the restriction keywords
MODES = {"never": NEVER, "force": FORCE}
#: a suffix starts at a ``+`` followed by a lower-case word and ``:`` (or a bare ``never``/``force``, refused as
#: malformed); ``vp=1e+05``, ``vp=+1`` and the ISMCTS's ``kinds=P_MAIN+P_SEC`` are argument values
_SPLIT = re.compile(r"\+(?=[a-z][a-z0-9_-]*:|(?:never|force)(?![\w:-]))")
_COND = re.compile(r"^([a-z_][a-z0-9_]*)(>=|<=|==|!=|>|<)(-?\d+)$")
_FORM = "allowed +never:ACTION[@FIELD OP INT] or +force:ACTION[@FIELD OP INT]"


@dataclass(frozen=True)
class Restriction:
    """One suffix: ``mode`` (``never``/``force``), the action name, and the condition ``(field, op, value)`` or None."""

    mode: str
    action: str
    cond: tuple[str, str, int] | None = None

    @property
    def text(self) -> str:
        """The suffix as written (``+force:abjure@suspicion>=6``)."""
        c = "" if self.cond is None else "@" + "".join(map(str, self.cond))
        return f"+{self.mode}:{self.action}{c}"


def split_restrictions(spec: str) -> tuple[str, tuple[Restriction, ...]]:
    """``"heuristic:vp=1+never:abjure"`` -> ``("heuristic:vp=1", (Restriction("never", "abjure"),))``: the strategy id
    and its restriction suffixes, checked for form only (the game's names are checked by :func:`resolve`).

    Raises:
        ConfigError: a malformed suffix (no keyword, unknown keyword, no action, a bad condition), one given
            twice, or never and force of the same action.
    """
    parts = _SPLIT.split(spec.strip())
    base, out = parts[0].strip(), []
    for raw in parts[1:]:
        kw, colon, rest = raw.strip().partition(":")
        action, at, cond = rest.partition("@")
        if not colon or kw not in MODES or not action.strip():
            raise ConfigError(f"strategy {spec!r}: malformed restriction '+{raw}': {_FORM}")
        c = None
        if at:
            m = _COND.match(cond.strip())
            if m is None:
                raise ConfigError(f"strategy {spec!r}: malformed condition {cond!r} in '+{raw}': allowed FIELD OP INT "
                                  f"(OP one of {' '.join(OPS)}), e.g. suspicion>=6")
            c = (m.group(1), m.group(2), int(m.group(3)))
        r = Restriction(kw, action.strip(), c)
        if r in out:
            raise ConfigError(f"strategy {spec!r}: restriction {r.text!r} is given twice: allowed once")
        out.append(r)
    both = [r.action for r in out if r.mode == "never" and any(o.action == r.action for o in out if o.mode == "force")]
    if both:
        raise ConfigError(f"strategy {spec!r}: never:{both[0]} and force:{both[0]} contradict each other: allowed one "
                          "of them per action")
    if not base:
        raise ConfigError(f"strategy {spec!r}: no strategy before the restriction: allowed a strategy id followed by "
                          "+never:ACTION or +force:ACTION[@FIELD OP INT]")
    return base, tuple(out)


def _module(cls):
    """The engine class's compiled play module, or None."""
    return importlib.import_module(cls.compiled_play) if cls.compiled_play else None


def _names(cls) -> dict[str, list[tuple[int, frozenset]]]:
    """``{action name: [(decision kind code or ANY_KIND, action ids)]}`` of engine class ``cls``'s vocabulary: every
    family and every id's label at any decision; every decision's choice parts and their labels at that decision."""
    voc, kinds = cls.vocabulary, _module(cls).KINDS
    out: dict[str, dict[int, set]] = {}

    def add(name, kind, ids):
        out.setdefault(name, {}).setdefault(kind, set()).update(ids)

    for f in voc.families:
        lo = voc.start(f.name)
        add(f.name, ANY_KIND, range(lo, lo + f.size))
        for a in range(lo, lo + f.size):
            add(voc.label(a), ANY_KIND, [a])
    first = voc.start(voc.choice_family)
    for decision, sub in voc.choices.items():
        if decision not in kinds:
            continue
        for f in sub.families:
            lo = first + sub.start(f.name)
            add(f.name, kinds[decision], range(lo, lo + f.size))
            for a in range(lo, lo + f.size):
                add(sub.label(a - first), kinds[decision], [a])
    return {n: [(k, frozenset(ids)) for k, ids in sorted(by.items())] for n, by in out.items()}


def action_names(cls) -> list[str]:
    """The family and choice-part names of engine class ``cls``'s vocabulary (what a refusal lists; one action's
    label is accepted too)."""
    voc = cls.vocabulary
    return list(dict.fromkeys([f.name for f in voc.families]
                              + [f.name for sub in voc.choices.values() for f in sub.families]))


def _condition(spec: str, r: Restriction, cls, fields) -> tuple[int, int, int]:
    """``(feature id, op code, value)`` of ``r``'s condition, ``(-1, 0, 0)`` without one.

    Raises:
        ConfigError: an unknown field (the allowed ones named) or a condition no value of the field can meet.
    """
    if r.cond is None:
        return -1, 0, 0
    name, op, v = r.cond
    by = {f.name: f for f in fields}
    if name not in by:
        close = difflib.get_close_matches(name, list(by), n=2, cutoff=0.5)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        allowed = ", ".join(by) or f"none ({cls.name} names no seat fields)"
        raise ConfigError(f"strategy {spec!r}: unknown condition field {name!r} for {cls.name}: {hint}allowed: {allowed}")
    f = by[name]
    if not f.can_hold(op, v):
        rng = f"{'-inf' if f.lo is None else f.lo} to {'inf' if f.hi is None else f.hi}"
        raise ConfigError(f"strategy {spec!r}: restriction {r.text!r} can never be met: {name} takes values {rng}")
    return _module(cls).FEATURES.index(f.feature), OPS[op], v


def resolve(spec: str, game, restrictions) -> tuple[list[tuple], list[np.ndarray]]:
    """``(rows, sets)``: the restriction rows of ``restrictions`` for ``game`` (an engine class or instance; ``spec``
    the strategy id, for messages) (``RR_*`` columns, set ids into
    ``sets``, ``bool[A]`` rows), in the order written; a ``never`` with a score (``GameSpec.never_scores``) first
    gets a row of that score at every decision kind (an empty set: only the score narrows).

    Raises:
        ConfigError: an engine without a vocabulary or compiled play, an unknown action (the allowed names listed),
            an unknown condition field, a condition that can never be met.
    """
    cls = game if isinstance(game, type) else type(game)
    if cls.vocabulary is None or _module(cls) is None:
        raise ConfigError(f"strategy {spec!r}: {cls.name} has no action vocabulary and compiled play, which restricted "
                          "play reads: allowed the strategy without +never/+force")
    gspec = get_spec(cls.name)
    names = game_table(cls, "restriction-names", _names)
    scores = dict(gspec.never_scores)
    sc_names = tuple(_module(cls).SCORES)
    rows, sets = [], []
    for r in restrictions:
        if r.action not in names:
            allowed = action_names(cls)
            close = difflib.get_close_matches(r.action, list(names), n=3, cutoff=0.6)
            hint = f"did you mean {', '.join(close)}? " if close else ""
            raise ConfigError(f"strategy {spec!r}: unknown action {r.action!r} for {cls.name}: {hint}allowed: "
                              f"{', '.join(allowed)} (or one action's label, e.g. {cls.vocabulary.label(0)})")
        feat, op, val = _condition(spec, r, cls, gspec.seat_fields)
        mode = MODES[r.mode]
        if r.mode == "never" and r.action in scores:
            rows.append((mode, ANY_KIND, len(sets), sc_names.index(scores[r.action]), feat, op, val))
            sets.append(np.zeros(cls.num_actions, np.bool_))
        for kind, ids in names[r.action]:
            row = np.zeros(cls.num_actions, np.bool_)
            row[sorted(ids)] = True
            rows.append((mode, kind, len(sets), -1, feat, op, val))
            sets.append(row)
    return rows, sets


def restriction_tables(game, strategies):
    """``(rseat int64[P + 1], rrows int64[N, RR_WIDTH], rsets bool[S, A])``: the restriction table of the seats'
    strategies for the play kernel (``meeplelab.sim.core.restrict``): seat ``p``'s rows are ``rseat[p]:rseat[p + 1]``
    (none for an unrestricted seat). The same types whatever the seats (at least one set row), so the kernel is
    compiled once."""
    rows, sets, rseat = [], [], [0]
    for s in strategies:
        if isinstance(s, Restricted):
            r, st = s.rows, s.sets
            rows += [(row[0], row[1], row[2] + len(sets), *row[3:]) for row in r]
            sets += list(st)
        rseat.append(len(rows))
    rsets = np.zeros((max(len(sets), 1), game.num_actions), np.bool_)
    for i, st in enumerate(sets):
        rsets[i] = st
    return np.array(rseat, np.int64), np.array(rows, np.int64).reshape(-1, RR_WIDTH), rsets


def unwrap(strategy):
    """The strategy a :class:`Restricted` wraps (the strategy itself otherwise)."""
    return strategy.inner if isinstance(strategy, Restricted) else strategy


class Restricted(Strategy):
    """A strategy with its legal action mask narrowed by restriction suffixes (module doc).

    Inside the compiled play kernel the inner strategy keeps its compiled form (:meth:`compiled`,
    :meth:`compiled_search` are the inner strategy's) and the kernel narrows the mask before it chooses; on the
    Python path :meth:`act` narrows the same mask (``<pkg>/play.py`` ``restrict_batch``) and asks the inner
    strategy. Its id is the inner id followed by the suffixes, as written in the logs.

    Args:
        inner: the unrestricted strategy.
        restrictions: the suffixes, in order (:func:`split_restrictions`).
        game: the game they are checked against (its engine class or an instance).

    Raises:
        ConfigError: as :func:`resolve`.
    """

    def __init__(self, inner: Strategy, restrictions: tuple[Restriction, ...], game):
        super().__init__(**inner.args)
        self.inner = inner
        self.name = inner.name
        self.restrictions = tuple(restrictions)
        #: the restriction rows and their action sets (:func:`resolve`; refused here, before any game)
        self.rows, self.sets = resolve(self.id, game, self.restrictions)

    @property
    def id(self) -> str:
        return self.inner.id + "".join(r.text for r in self.restrictions)

    def act(self, view: View, legal_mask: np.ndarray, rng: StrategyRNG) -> np.ndarray:
        game = view.game
        mod = game.compiled_module()
        _, rrows, rsets = restriction_tables(game, [self])
        masks = np.ascontiguousarray(legal_mask, np.bool_).copy()
        mod.restrict_batch(*mod.kernel_context(game, view.state), np.ascontiguousarray(view.idx, np.int64),
                           int(view.seat), rrows, rsets, 0, len(rrows), masks)
        return self.inner.act(view, masks, rng)

    def compiled(self, game):
        """The inner strategy's compiled heuristic (``compiled(game)``), or None."""
        f = getattr(self.inner, "compiled", None)
        return f(game) if f is not None else None

    def compiled_search(self, game):
        """The inner strategy's compiled search (``compiled_search(game)``), or None."""
        f = getattr(self.inner, "compiled_search", None)
        return f(game) if f is not None else None

    def explain(self) -> list[str]:
        """The inner strategy's explanation (when it has one) and the restrictions."""
        inner = self.inner.explain() if hasattr(self.inner, "explain") else [self.inner.id]
        return [*inner, *(f"restricted: {r.text[1:]}" for r in self.restrictions)]
