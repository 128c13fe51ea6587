"""Compiled play: the play loop of a batch in one numba kernel.

Every engine's play module (``<engine package>/play.py``) is **written out** from one template by
:func:`play_module_source` (``python -m meeplelab.sim.core.compiled tests.toy``; the template is ``sim/core/data/play_module.py.tmpl``); ``tests/test_compiled_play.py``
fails when a written module is stale. It defines

- ``play(...)``: for each game of the batch, until it is over: the pending decision's legal actions
  (the engine's ``legal_at``), the seat's plan choice (``plan_choice``: the rules over the engine's
  feature vector and action scores, :func:`rule_choice`, :func:`uniform_choice`), ``apply_at``, the ply
  counter. A game leaves the loop when it ends, when its log
  buffers pass their drain mark (Python drains them and calls again), when a Python strategy holds the
  seat to act (Python decides that one ply), or at the ply bound; ``status[g]`` says which.
- ``choose_batch(...)``: the same plan choice for the Python-loop path (:class:`meeplelab.strategies.plans.CompiledPlan`).

The engine package provides: ``to_act`` and ``over`` columns in its ``game`` group (``cols.TO_ACT``,
``cols.OVER``); in ``features``, ``pending(S, g)`` (the decision kind game g waits for), ``FEATURES``
(names) and ``features(<ctx>, g, p, out)``, ``SCORES`` (action score names) and
``action_scores(<ctx>, g, p, score_id, out)`` (``int64[A]``); in ``routers`` (apart from ``features``, so a rule
edit leaves the feature kernels compiled), ``legal_at(kind, <ctx>, g, out)`` (the legal
action mask of the pending decision) and ``apply_at(kind, <ctx>, g, a, scratch)`` (apply an action and
advance to the next decision; ``scratch`` is a free ``bool[A]``); ``decisions.TABLE`` (the decision table,
in ``<pkg>.rules`` or ``<pkg>``: its ``allocates`` flag decides whether ``play`` counts references); and in
``engine``, the kernel context ``<ctx>`` = ``S, C, prm`` (state, content, params; :mod:`meeplelab.sim.core.context`).

Each game keeps its own counter-based streams (the decision stream is keyed by run seed, game, seat and
ply: :func:`decision_key`), so a game is the same whatever its batch, and the same as on the Python-loop
path (:func:`meeplelab.play.batch.plies`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numba import config as _numba_config
from numba import njit

from .rng import GOLDEN, draw_below, mix64
from .context import CONTEXT_ARGS
from .source import defines, load_alone, package_folder

_ONE = np.uint64(1)

#: ``status[g]`` after ``play``: why game g left the loop
ST_OVER, ST_DRAIN, ST_PYTHON, ST_BOUND, ST_STUCK = 0, 1, 2, 3, 4
#: a rule row's kind for "every decision kind" and for a plan's restriction (meeplelab.strategies.plans.ANY_KIND,
#: RESTRICT_KIND); how a rule uses its action score (meeplelab.strategies.plans.SCORE_*)
ANY_KIND, RESTRICT_KIND = -1, -2
SCORE_NONE, SCORE_BEST, SCORE_KEEP = 0, 1, 2


@njit(cache=True, _nrt=False)
def decision_key(seat_key, ply):
    """Key of the stream of one decision: the seat's key (run seed, game, seat) and the ply, as
    :func:`meeplelab.sim.core.rng.decision_keys` (``uint64``)."""
    return mix64(seat_key ^ mix64((np.uint64(ply) + _ONE) * GOLDEN))


if _numba_config.DISABLE_JIT:  # plain-Python twins: exact 64-bit wraparound without overflow warnings
    _MASK = (1 << 64) - 1

    def decision_key(seat_key, ply):  # noqa: F811
        """Key of the stream of one decision (uncompiled twin)."""
        return mix64(int(seat_key) ^ int(mix64(((int(ply) + 1) * 0x9E3779B97F4A7C15) & _MASK)))


@njit(cache=True, _nrt=False)
def compare(x, op, v):
    """``x op v`` for the comparison codes of :data:`meeplelab.strategies.plans.OPS` (>=, <=, ==, !=, >, <)."""
    if op == 0:
        return x >= v
    if op == 1:
        return x <= v
    if op == 2:
        return x == v
    if op == 3:
        return x != v
    if op == 4:
        return x > v
    return x < v


@njit(cache=True, _nrt=False)
def conditions_hold(conds, c0, c1, fv):
    """True when the condition rows ``c0:c1`` of ``conds`` (feature id, comparison code, value, reference
    feature id) all hold on the feature vector ``fv`` (``int64[F]``): ``fv[feature] op value``, or, with a
    reference feature (id >= 0, e.g. a rule number the engine names as a feature), ``fv[feature] op
    fv[reference] + value``."""
    for c in range(c0, c1):
        v = conds[c, 2]
        if conds[c, 3] >= 0:
            v += fv[conds[c, 3]]
        if not compare(fv[conds[c, 0]], conds[c, 1], v):
            return False
    return True


@njit(cache=True, _nrt=False)
def restrict(mask, sc):
    """A plan's restriction (``Plan.restrict``): keep only the legal actions with a positive score ``sc``
    (``int64[A]``) in ``mask`` (``bool[A]``, changed in place), unless none has one (then ``mask`` stays)."""
    n = 0
    for a in range(mask.shape[0]):
        if mask[a] and sc[a] > 0:
            n += 1
    if n == 0:
        return
    for a in range(mask.shape[0]):
        if sc[a] <= 0:
            mask[a] = False


@njit(cache=True, inline="always", _nrt=False)
def _kept(a, mode, sc, top, mask):
    """True when preferred action ``a`` is legal and passes the rule's score (``SCORE_BEST``: ``sc[a] ==
    top``; ``SCORE_KEEP``: ``sc[a] > 0``)."""
    if not mask[a]:
        return False
    if mode == SCORE_KEEP:
        return sc[a] > 0
    if mode == SCORE_BEST:
        return sc[a] == top
    return True


@njit(cache=True, _nrt=False)
def rule_choice(acts, a0, a1, mode, sc, mask, keys, counters, row):
    """The choice of one rule whose kind and conditions hold: uniformly among its preferred actions
    ``acts[a0:a1]`` (in listed order) that are legal in ``mask`` and pass its score (``mode``:
    ``SCORE_NONE``; ``SCORE_BEST``, the highest ``sc``; ``SCORE_KEEP``, a positive ``sc``), one draw of
    stream ``row``; -1 (no draw) when none."""
    top = 0
    if mode == SCORE_BEST:
        seen = False
        for i in range(a0, a1):
            a = acts[i]
            if mask[a] and (not seen or sc[a] > top):
                top = sc[a]
                seen = True
    n = 0
    for i in range(a0, a1):
        if _kept(acts[i], mode, sc, top, mask):
            n += 1
    if n == 0:
        return -1
    j = draw_below(keys, counters, row, n)
    for i in range(a0, a1):
        if _kept(acts[i], mode, sc, top, mask):
            if j == 0:
                return acts[i]
            j -= 1
    return -1


@njit(cache=True, _nrt=False)
def uniform_choice(mask, keys, counters, row):
    """Uniform over the legal actions of ``mask`` (``bool[A]``), one draw of stream ``row`` of
    ``keys``/``counters`` (``uint64[n]``, advanced), as :meth:`meeplelab.sim.core.rng.Streams.choose_legal`; -1 (no
    draw) when nothing is legal."""
    n = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            n += 1
    if n == 0:
        return -1
    j = draw_below(keys, counters, row, n)
    for a in range(mask.shape[0]):
        if mask[a]:
            if j == 0:
                return a
            j -= 1
    return -1


#: the template of every engine's play module (a data file, so the written modules are its only copies)
TEMPLATE = Path(__file__).with_name("data") / "play_module.py.tmpl"
#: the template of an engine's choice module (``plan_choice``, shared by its play and lookahead modules)
CHOICE_TEMPLATE = Path(__file__).with_name("data") / "choice_module.py.tmpl"
#: the templates of an engine's lookahead module (the compiled heuristic; a stub when the engine's features
#: module has no ``VALUE_FEATURES``)
LOOKAHEAD_TEMPLATE = Path(__file__).with_name("data") / "lookahead_module.py.tmpl"
LOOKAHEAD_STUB = Path(__file__).with_name("data") / "lookahead_stub.py.tmpl"
#: the templates of an engine's ISMCTS module (the compiled tree search; a stub without ``VALUE_FEATURES``)
ISMCTS_TEMPLATE = Path(__file__).with_name("data") / "ismcts_module.py.tmpl"
ISMCTS_STUB = Path(__file__).with_name("data") / "ismcts_stub.py.tmpl"


def _names(pkg: str) -> tuple[str, str]:
    """(rules package, kernel context ``S, C, prm``) of engine package ``pkg``.

    Raises:
        ValueError: the decision table's handlers do not take the kernel context first.
    """

    base = package_folder(pkg)  # read from the source files alone: the package imports what is written here
    rules = f"{pkg}.rules" if (base / "rules" / "decisions.py").is_file() else pkg
    table = load_alone(f"{rules}.decisions").TABLE
    ctx = table.legal_args.split(", g,")[0]
    if ctx != CONTEXT_ARGS:
        raise ValueError(f"{rules}.decisions: the handlers' leading arguments must be the kernel context "
                         f"{CONTEXT_ARGS!r} (state, content, params; sim/core/context.py), got {ctx!r}")
    return rules, ctx


def _fill(template: Path, pkg: str) -> str:

    rules, ctx = _names(pkg)
    table = load_alone(f"{rules}.decisions").TABLE
    nrt = "" if getattr(table, "allocates", False) else ", _nrt=False"  # allocating handlers need the NRT
    return template.read_text().format(pkg=pkg, rules=rules, ctx=ctx, dctx="D" + ctx[1:], nrt=nrt)


def play_module_source(pkg: str) -> str:
    """Text of the play module of engine package ``pkg`` (``tests.toy``, ``meeplelab.sim.galileos_truth``): its
    decision table is ``pkg.rules.decisions`` (or ``pkg.decisions``); the kernels' leading arguments are
    the kernel context ``S, C, prm`` (sim/core/context.py)."""
    return _fill(TEMPLATE, pkg)


def choice_module_source(pkg: str) -> str:
    """Text of the choice module of engine package ``pkg``: ``plan_choice``, a plan's choice for one decision
    with the engine's action scores (imported by its play and lookahead modules)."""
    return _fill(CHOICE_TEMPLATE, pkg)


def lookahead_module_source(pkg: str) -> str:
    """Text of the lookahead module (the compiled heuristic, :mod:`meeplelab.sim.core.lookahead`) of engine package
    ``pkg``: the full module when ``pkg.features`` has ``VALUE_FEATURES`` (then ``pkg.hidden`` provides
    ``redeterminize_one``), else a stub that leaves heuristic seats on the Python path. Scratch-game calls
    take the context with ``D`` (the scratch state tuple) in place of ``S``."""

    return _fill(LOOKAHEAD_TEMPLATE if defines(f"{pkg}.features", "VALUE_FEATURES") else LOOKAHEAD_STUB, pkg)


def ismcts_module_source(pkg: str) -> str:
    """Text of the ISMCTS module (the compiled tree search, :mod:`meeplelab.sim.core.ismcts`) of engine package ``pkg``: the
    full module when ``pkg.features`` has ``VALUE_FEATURES`` (it builds on the lookahead module's
    ``heuristic_scores``), else a stub that leaves ISMCTS seats on the Python path."""

    return _fill(ISMCTS_TEMPLATE if defines(f"{pkg}.features", "VALUE_FEATURES") else ISMCTS_STUB, pkg)


def main(argv=None) -> int:
    """``python -m meeplelab.sim.core.compiled PACKAGE``: write ``PACKAGE/choice.py``, ``PACKAGE/lookahead.py``,
    ``PACKAGE/ismcts.py`` and ``PACKAGE/play.py``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m meeplelab.sim.core.compiled engine.package", file=sys.stderr)
        return 2

    try:
        base = package_folder(args[0])
    except ImportError as e:
        print(f"cannot find {args[0]!r} ({e}); allowed: an engine package (tests.toy, meeplelab.sim.galileos_truth)",
              file=sys.stderr)
        return 2
    (base / "choice.py").write_text(choice_module_source(args[0]))
    (base / "lookahead.py").write_text(lookahead_module_source(args[0]))
    (base / "ismcts.py").write_text(ismcts_module_source(args[0]))
    (base / "play.py").write_text(play_module_source(args[0]))
    print(f"wrote {base / 'choice.py'}, {base / 'lookahead.py'}, {base / 'ismcts.py'} and {base / 'play.py'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
