"""Rules by decision: one table of an engine's decision kinds, and its dispatchers written from it.

A rule engine waits for one kind of decision at a time (a pending-decision stack entry, a phase). Each kind
has a **legality** handler (fill the legal action mask of one game) and an **application** handler (apply
the chosen action to one game), written side by side in the module of the mechanism they belong to (turn
flow, market, research, ...). The engine lists its kinds once, as a tuple of :class:`Decision` rows; the
two numba dispatchers (``legal`` and ``apply``: an ``if kind == ...`` router over the table) are **written
out** into a module by :func:`dispatch_source` (``python -m meeplelab.sim.core.decisions sim.<game>.rules.decisions``),
never assembled at import, so an editor resolves every call. ``tests/test_decisions.py`` fails when the
written dispatchers differ from the table, when a kind constant has no row, or when a handler's docstring
cites neither a seed section (``§...``) nor an assumption ID (``A-UM-nn``/``A-GT-nn``).

Anchors: TAG's one-class-per-card actions (legal follow-ups and application together), catanatron's
``apply_action`` router.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from .source import TREE, load_alone

#: a seed section (``§Completing rows and columns``) or an assumption ID (``A-GT-25``)
CITATION = re.compile(r"§\s*\w|\bA-(UM|GT|TOY)-\d\d\b")


@dataclass(frozen=True)
class Decision:
    """One decision kind of an engine.

    Attributes:
        kind: the name of its code constant (``D_TURN``, ``P_MAIN``), defined in the table's module.
        module: dotted module of its handlers (``meeplelab.sim.unconscious_mind.rules.turn_flow``).
        legal: name of the legality handler in ``module`` (``None``: the dispatcher's ``legal`` skips it,
            for kinds that never wait for a seat).
        apply: name of the application handler in ``module``.
    """

    kind: str
    module: str
    legal: str | None
    apply: str


@dataclass(frozen=True)
class DecisionTable:
    """An engine's decisions and the shape of its dispatchers.

    Attributes:
        decisions: the rows, one per kind.
        kinds_module: module defining the kind constants (``D_TURN = 1``).
        legal_args: argument list of every legality handler after ``kind`` (``"S, C, g, out"``).
        apply_args: argument list of every application handler after ``kind`` (``"S, C, g, a"``).
        doc: docstring of the written dispatch module.
    """

    decisions: tuple[Decision, ...]
    kinds_module: str
    legal_args: str
    apply_args: str
    doc: str = "Decision dispatchers."
    #: the handlers allocate arrays (``np.zeros`` in a handler or a helper it calls): the dispatchers keep
    #: numba's reference counting. Without it (the default) a dispatcher call costs tens of nanoseconds
    #: instead of about a microsecond: each call otherwise counts a reference to every array of the state and
    #: content tuples it is passed (docs/compiled_play.md, "Reference counting").
    allocates: bool = False

    def source(self, table_ref: str) -> str:
        """Text of the dispatch module: imports, then ``legal(kind, ...)`` and ``apply(kind, ...)``."""
        kinds = sorted({d.kind for d in self.decisions})
        lines = [f'"""{self.doc}', "", f"Written by ``python -m meeplelab.sim.core.decisions {table_ref}`` from its table;",
                 "``tests/test_decisions.py`` checks this file against it. Do not edit by hand.", '"""', "",
                 "from numba import njit", ""]
        lines.append(f"from {self.kinds_module} import " + ", ".join(kinds))
        by_mod: dict[str, list[str]] = {}
        for d in self.decisions:
            names = by_mod.setdefault(d.module, [])
            for h in (d.legal, d.apply):
                if h and h not in names:
                    names.append(h)
        for mod, names in by_mod.items():
            lines.append(f"from {mod} import " + ", ".join(names))
        for which, args in (("legal", self.legal_args), ("apply", self.apply_args)):
            deco = "@njit(cache=True)" if self.allocates else "@njit(cache=True, _nrt=False)"
            lines += ["", "", deco, f"def {which}(kind, {args}):",
                      f'    """{"Fill the legal action mask" if which == "legal" else "Apply the action"} of '
                      f'one game waiting for decision ``kind``."""']
            first = True
            for d in self.decisions:
                h = getattr(d, which)
                if h is None:
                    continue
                lines.append(f"    {'if' if first else 'elif'} kind == {d.kind}:")
                lines.append(f"        {h}({args})")
                first = False
            if first:
                lines.append("    pass")
            else:
                lines += ["    else:", f'        raise RuntimeError("no {which} handler for this decision kind")']
        return "\n".join(lines) + "\n"

    def kind_codes(self) -> dict[str, int]:
        """``{kind name: code}`` of every decision in the table (codes from the kinds module)."""
        mod = importlib.import_module(self.kinds_module)
        return {d.kind: int(getattr(mod, d.kind)) for d in self.decisions}

    def handlers(self) -> list[tuple[str, object]]:
        """``(qualified name, function)`` of every handler in the table (imported)."""
        out = []
        for d in self.decisions:
            mod = importlib.import_module(d.module)
            for h in (d.legal, d.apply):
                if h:
                    out.append((f"{d.module}.{h}", getattr(mod, h)))
        return out

    def uncovered(self, prefix: str) -> list[str]:
        """Kind constants named ``prefix*`` in the kinds module with no row in the table."""
        mod = importlib.import_module(self.kinds_module)
        have = {d.kind for d in self.decisions}
        return sorted(n for n, v in vars(mod).items() if n.startswith(prefix) and isinstance(v, int)
                      and n not in have)


def docstring(fn) -> str:
    """The docstring of a handler (numba dispatchers keep the Python function as ``py_func``)."""
    return inspect.getdoc(getattr(fn, "py_func", fn)) or ""


def uncited(functions) -> list[str]:
    """Names of the ``(name, function)`` pairs whose docstring cites neither a seed section nor an
    assumption ID (:data:`CITATION`)."""
    return [name for name, fn in functions if not CITATION.search(docstring(fn))]


def main(argv=None) -> int:
    """``python -m meeplelab.sim.core.decisions package.module[:TABLE]``: write the module's dispatch module.

    The table module names its output as ``DISPATCH_MODULE`` (a file path relative to the folder its
    package is imported from: the repository), so the command writes the same file from any working folder.
    """
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m meeplelab.sim.core.decisions package.module[:TABLE]", file=sys.stderr)
        return 2
    mod_name, _, attr = args[0].partition(":")
    try:

        mod = load_alone(mod_name)  # from its file alone: its package may import the dispatch module written here
    except ImportError as e:
        print(f"cannot import {mod_name!r} ({e}); allowed: a module holding a DecisionTable", file=sys.stderr)
        return 2
    table: Any = getattr(mod, attr or "TABLE", None)  # a DecisionTable, or one of a second copy of this module
    if not isinstance(table, DecisionTable) and type(table).__name__ != "DecisionTable":
        names = ", ".join(n for n, v in vars(mod).items() if type(v).__name__ == "DecisionTable") or "none"
        print(f"{mod_name} has no DecisionTable named {attr or 'TABLE'!r}; allowed: {names}", file=sys.stderr)
        return 2

    # the folder the table's package is imported from: meeplelab.sim.x is TREE/sim/x (two names, one folder)
    root = TREE if mod_name.startswith("meeplelab.") else Path(str(mod.__file__)).resolve().parents[len(mod_name.split(".")) - 1]
    path = root / mod.DISPATCH_MODULE
    path.write_text(table.source(args[0]))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
