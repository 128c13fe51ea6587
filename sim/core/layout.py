"""One state convention for every engine: fields declared once, grouped by entity, named columns.

An engine declares its rule state as a :class:`Layout`: a few :class:`Group` arrays, one per entity
(the game, a seat, a card, a Treatise, ...), each a table of :class:`Field` rows (name, shape, initial
value, doc). Every group is one integer array with the batch first:

======================  ==============================  ===========================================
group ``rows``          array shape                     kernel access
======================  ==============================  ===========================================
``None`` (per game)     ``[B, W]``                      ``game[g, ROUND]``
``"P"`` (per seat)      ``[B, P, W]``                   ``seat[g, p, COFFEE] += n``
size name / int         ``[B, N, W]``                   ``card[g, c, CARD_LOC]``
piles (``piles=``)      ``[B, n_piles, L]``             ``pile[g, RDECK, i]`` (positions, no fields)
======================  ==============================  ===========================================

A field spanning several columns (``shape=(10,)``, or ``(3, 4)``) starts at its constant:
``seat[g, p, DIAL_W + pos]``, ``seat[g, p, WINDOW + r * 4 + c]``. ``W`` is the sum of the field sizes,
fixed by the rules; ``N`` (cards, Treatises) and ``L`` (pile length) come from the content sizes at
allocation, so kernels take sizes from array shapes (``card.shape[1]``), never from constants.

The column constants are **written out** in a module (``sim/<game>/cols.py``) by
:func:`constants_source` (``python -m meeplelab.sim.core.generate``, or this layout alone:
``python -m meeplelab.sim.core.layout meeplelab.sim.<game>.state:LAYOUT sim/<game>/cols.py``);
nothing is generated at import, every name can be grepped, and ``tests/test_layout.py`` fails when the
written module and the table disagree. :class:`LayoutState` adds named Python views for tests and
strategies: ``state.coffee`` is ``seat[:, :, COFFEE]`` (``[B, P]``), writable in place.

Anchors: pgx's documented board layouts with index helpers, OpenSpiel's named tensor views.
"""

from __future__ import annotations

import importlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from .state import BatchState
from .source import TREE, load_alone

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Field:
    """One named field of a group.

    Attributes:
        name: lower_snake name; the Python view ``state.<name>`` and the constant ``<PREFIX><NAME>``.
        shape: columns it spans inside its group's row, fixed by the rules (``()`` one column,
            ``(10,)`` ten, ``(3, 4)`` twelve, row-major).
        init: initial value of every column of the field.
        doc: what it holds, with its unit (VP, Coffee) or code meaning.
        flag: a yes/no field (0 or 1 in the kernels' integer group): its Python view is :class:`Flags`, a live
            ``bool`` view (``~state.over`` is "not over", ``x[state.over]`` a mask), and
            :class:`meeplelab.sim.core.position.Position` reads it as ``True``/``False``.
        lo, hi: the values the rules can reach, both ends included (None: no bound on that side), declared here
            once: the written constants module shows them after the doc, and
            :meth:`meeplelab.sim.core.position.Position.set` refuses a value outside them. An int, or a name the
            game gives a value when a position is built (:meth:`bounds`): ``"P"`` the seats, a content size
            (``"slots"``), a rule parameter (``"cycles"``), optionally minus a number (``"P-1"``, the last seat).
    """

    name: str
    shape: tuple[int, ...] = ()
    init: int = 0
    doc: str = ""
    flag: bool = False
    lo: int | str | None = None
    hi: int | str | None = None

    @property
    def size(self) -> int:
        """Columns the field spans."""
        n = 1
        for d in self.shape:
            n *= int(d)
        return n

    @property
    def range_text(self) -> str:
        """The declared range as written (``1..4``, ``-1..P-1``, ``>= 0``), ``""`` when the field declares none."""
        if self.lo is None and self.hi is None:
            return ""
        if self.hi is None:
            return f">= {self.lo}"
        if self.lo is None:
            return f"<= {self.hi}"
        return f"{self.lo}..{self.hi}"

    def bounds(self, names: dict) -> tuple[int | None, int | None]:
        """``(lo, hi)`` as numbers, a named bound looked up in ``names`` (``{"P": 2, "slots": 40, "cycles": 5}``).

        Raises:
            KeyError: a bound names a value ``names`` does not hold.
        """
        return _bound(self.lo, names, self.name), _bound(self.hi, names, self.name)


_BOUND = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:-([0-9]+))?$")


def _bound(b, names: dict, field: str) -> int | None:
    """A declared bound as a number: an int as it is, a name (optionally ``-k``) looked up in ``names``."""
    if b is None or isinstance(b, int):
        return b
    m = _BOUND.match(b)
    if m is None:
        raise ValueError(f"field {field!r}: its bound {b!r} is neither a number nor a name (optionally -k)")
    name, minus = m.groups()
    if name not in names:
        raise KeyError(f"field {field!r}: its bound {b!r} names {name!r}, which this game does not give "
                       f"(have {', '.join(sorted(names))})")
    return int(names[name]) - int(minus or 0)


def _plain_key(key):
    """An index with every :class:`Flags` in it as its bool mask (``x[state.over]`` selects the ended games)."""
    if isinstance(key, Flags):
        return np.asarray(key)
    if isinstance(key, tuple):
        return tuple(np.asarray(k) if isinstance(k, Flags) else k for k in key)
    return key


class Flags(NDArrayOperatorsMixin):
    """The Python view of a yes/no field (:attr:`Field.flag`): a live ``bool`` view of the group's 0/1 integers.

    It reads as booleans everywhere (``dtype`` is ``bool``; ``np.asarray(view)`` and every operation give ``bool``
    values: ``~state.over`` is "not over", never ``-2``; one element is an ``np.bool_``; as an index it is a mask:
    ``x[state.over]`` selects the ended games) and writes through to the kernels' integers (``state.over[g] = True``
    stores 1; any non-zero value stores 1). A slice of it is a live view again; the array methods (``all``,
    ``sum``, ``astype``, ``nonzero``, ...) act on the booleans. ``np.asarray`` gives a copy: write through the view.
    """

    __slots__ = ("_ints",)
    is_flag = True
    __array_priority__ = 20

    def __init__(self, ints: np.ndarray):
        self._ints = ints

    def __array__(self, dtype=None, copy=None):
        b = self._ints != 0
        return b if dtype is None else b.astype(dtype)

    @property
    def dtype(self) -> np.dtype:
        """``bool``."""
        return np.dtype(bool)

    @property
    def shape(self) -> tuple[int, ...]:
        """The field's shape (``[B]``, ``[B, P]``, ``[B, P, *shape]``)."""
        return self._ints.shape

    @property
    def ndim(self) -> int:
        return self._ints.ndim

    @property
    def size(self) -> int:
        return self._ints.size

    def __len__(self) -> int:
        return len(self._ints)

    def __iter__(self):
        return iter(np.asarray(self))

    def __bool__(self) -> bool:
        return bool(np.asarray(self))

    def __repr__(self) -> str:
        return f"Flags({np.asarray(self)!r})"

    def __getitem__(self, key):
        out = self._ints[_plain_key(key)]
        return np.bool_(out != 0) if np.ndim(out) == 0 else Flags(out)

    def __setitem__(self, key, value):
        v = np.asarray(value)
        self._ints[_plain_key(key)] = (v != 0).astype(self._ints.dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(np.asarray(x) if isinstance(x, Flags) else x for x in inputs)
        outs = kwargs.pop("out", None)
        result = getattr(ufunc, method)(*inputs, **kwargs)
        if outs is None:
            return result
        for o, r in zip(outs, result if isinstance(result, tuple) else (result,)):
            o[...] = r  # an in-place operation (``state.over |= ended``) writes through
        return outs[0] if len(outs) == 1 else outs

    def __str__(self) -> str:
        return str(np.asarray(self))

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(dir(np.ndarray)))

    @property
    def T(self) -> "Flags":
        """The transposed live view."""
        return Flags(self._ints.T)

    def reshape(self, *shape, **kw) -> "Flags":
        """A reshaped view, live when numpy can reshape without a copy (as ``ndarray.reshape``)."""
        return Flags(self._ints.reshape(*shape, **kw))

    def fill(self, value) -> None:
        """Set every element (writes through)."""
        self[...] = value

    def __getattr__(self, name):
        if name.startswith("__") or name == "_ints":
            raise AttributeError(name)
        b = np.asarray(self)
        b.flags.writeable = False  # a method that writes (sort, put, flat[...] = ) fails loudly, never writes a copy
        return getattr(b, name)  # all, any, sum, astype, nonzero, tolist, copy, ... on the booleans


@dataclass(frozen=True)
class Pile:
    """One pile (deck, display, stack) of a piles group: positions ``0..length-1`` of its row.

    Attributes:
        name: lower_snake name; the view ``state.<name>`` (``[B, length]``) and the row constant.
        length: positions, an int or a content size name (``"cards"``).
        init: initial value of every position (``-1`` empty).
        doc: what it holds.
    """

    name: str
    length: int | str
    init: int = -1
    doc: str = ""


@dataclass(frozen=True)
class Group:
    """One entity's array: a table of fields (or piles) sharing a row layout.

    Attributes:
        name: the array's name in the state and in the kernels' argument tuple (``seat``).
        rows: ``None`` one row per game (``[B, W]``); ``"P"`` one per seat (``[B, P, W]``); a
            content size name or an int: that many rows (``[B, N, W]``); a tuple of them: rows on
            several axes (``("P", "slots")`` gives ``[B, P, NC, W]``: ``slot[g, p, s, CTYPE]``).
        fields: the columns, in order (empty for a piles group).
        piles: for a piles group, its piles (``[B, len(piles), max length]``); rows are the piles.
        prefix: prefix of the written constants (``"CARD_"`` gives ``CARD_LOC``), so groups never clash.
        dtype: numpy dtype name of the array.
        doc: what one row is.
    """

    name: str
    rows: int | str | tuple | None = None
    fields: tuple[Field, ...] = ()
    piles: tuple[Pile, ...] = ()
    prefix: str = ""
    dtype: str = "int64"
    doc: str = ""

    @property
    def width(self) -> int:
        """W, the columns of one row (fields groups)."""
        return sum(f.size for f in self.fields)

    def offsets(self) -> dict[str, int]:
        """First column of each field (fields groups) or row of each pile (piles groups)."""
        if self.piles:
            return {p.name: i for i, p in enumerate(self.piles)}
        out, o = {}, 0
        for f in self.fields:
            out[f.name] = o
            o += f.size
        return out

    def constant(self, name: str) -> str:
        """The written constant naming a field or pile of this group."""
        return self.prefix + name.upper()


def _size(x, sizes: dict) -> int:
    if isinstance(x, str):
        if x not in sizes:
            raise KeyError(f"size {x!r} is not given (have {sorted(sizes)})")
        return int(sizes[x])
    return int(x)


#: a range written in a doc (``1..4``, ``0..cycles``), which belongs in ``lo``/``hi`` instead
_RANGE_IN_DOC = re.compile(r"(?<![\w.])-?[0-9]+\.\.[A-Za-z0-9_]")


def _check_range(f: Field) -> None:
    """ValueError when field ``f`` declares a bad range or writes one in its doc instead of declaring it."""
    for b in (f.lo, f.hi):
        if b is not None and not isinstance(b, int) and not (isinstance(b, str) and _BOUND.match(b)):
            raise ValueError(f"field {f.name!r}: bound {b!r} must be an int, a name or a name minus a number")
    if isinstance(f.lo, int) and isinstance(f.hi, int) and f.lo > f.hi:
        raise ValueError(f"field {f.name!r}: range {f.lo}..{f.hi} is empty")
    if f.flag and (f.lo is not None or f.hi is not None):
        raise ValueError(f"field {f.name!r} is a flag (0 or 1): it declares no range")
    if _RANGE_IN_DOC.search(f.doc):
        raise ValueError(f"field {f.name!r} writes a range in its doc ({f.doc!r}): declare it once, with lo and hi")


@dataclass(frozen=True)
class Layout:
    """An engine's whole rule state: its groups, in the order the kernels take them.

    Raises:
        ValueError: on a bad or repeated field/pile name, a bad shape, or a group that has both or
            neither of fields and piles.
    """

    groups: tuple[Group, ...]

    def __post_init__(self):
        seen: set[str] = set()
        consts: set[str] = set()
        groups = {g.name for g in self.groups}
        for g in self.groups:
            if bool(g.fields) == bool(g.piles):
                raise ValueError(f"group {g.name!r} needs either fields or piles")
            for item in g.fields or g.piles:
                if not _NAME.match(item.name):
                    raise ValueError(f"field name {item.name!r} is not lower_snake")
                if item.name in seen:
                    raise ValueError(f"field {item.name!r} is declared twice")
                if item.name in groups:
                    raise ValueError(f"field {item.name!r} has the name of a group (the view would hide it)")
                seen.add(item.name)
                c = g.constant(item.name)
                if c in consts:
                    raise ValueError(f"constant {c} is written twice")
                consts.add(c)
            for f in g.fields:
                if any(int(d) < 1 for d in f.shape):
                    raise ValueError(f"field {f.name!r} has shape {f.shape}; dims must be >= 1")
                _check_range(f)

    @property
    def names(self) -> tuple[str, ...]:
        """Group names, in kernel-argument order."""
        return tuple(g.name for g in self.groups)

    def group(self, name: str) -> Group:
        for g in self.groups:
            if g.name == name:
                return g
        raise KeyError(name)

    def find(self, field: str) -> tuple[Group, Field | Pile, int]:
        """(group, field or pile, first column or pile row) of a field name.

        Raises:
            KeyError: no group declares ``field``.
        """
        index = self.__dict__.get("_index")
        if index is None:  # built once: a named view (state.coffee) looks its field up on every access
            index = {}
            for g in self.groups:
                off = g.offsets()
                for item in g.fields or g.piles:
                    index[item.name] = (g, item, off[item.name])
            object.__setattr__(self, "_index", index)  # the layout is frozen; the index is derived from it
        return index[field]

    def shapes(self, batch: int, num_players: int, sizes: dict[str, int]) -> dict[str, tuple[int, ...]]:
        """Array shape of each group for ``batch`` games, ``num_players`` seats and content ``sizes``."""
        sz = dict(sizes, P=num_players)
        out: dict[str, tuple[int, ...]] = {}
        for g in self.groups:
            if g.piles:
                out[g.name] = (batch, len(g.piles), max(_size(p.length, sz) for p in g.piles))
            elif g.rows is None:
                out[g.name] = (batch, g.width)
            else:
                rows = g.rows if isinstance(g.rows, tuple) else (g.rows,)
                out[g.name] = (batch,) + tuple(_size(r, sz) for r in rows) + (g.width,)
        return out

    def allocate(self, batch: int, num_players: int, sizes: dict[str, int]) -> dict[str, np.ndarray]:
        """Every group's array for ``batch`` games, each field at its initial value.

        Returns ``{group name: array}`` with the shapes of :meth:`shapes` (``[B, W]``, ``[B, P, W]``,
        ``[B, N, W]``, ``[B, n_piles, L]``).
        """
        out = {}
        for g, shape in zip(self.groups, self.shapes(batch, num_players, sizes).values()):
            a = np.zeros(shape, np.dtype(g.dtype))
            if g.piles:
                for i, p in enumerate(g.piles):
                    a[:, i, :] = p.init
            else:
                o = 0
                for f in g.fields:
                    a[..., o:o + f.size] = f.init
                    o += f.size
            out[g.name] = a
        return out

    def view(self, arrays, name: str, sizes: dict[str, int] | None = None) -> np.ndarray | Flags:
        """The named view of field ``name`` in ``arrays`` (a mapping or an object with the group
        attributes): ``[B]``/``[B, *shape]`` for a per-game field, ``[B, R]``/``[B, R, *shape]`` for a
        per-row field, ``[B, L]`` for a pile (its own length when ``sizes`` holds it). Writes go through.
        """
        g, item, o = self.find(name)
        a = arrays[g.name] if isinstance(arrays, dict) else getattr(arrays, g.name)
        if isinstance(item, Pile):
            n = a.shape[2]
            if sizes is not None and isinstance(item.length, str) and item.length in sizes:
                n = int(sizes[item.length])
            elif isinstance(item.length, int):
                n = item.length
            return a[:, o, :n]
        lead = a.shape[:-1]
        v = a[..., o] if not item.shape else a[..., o:o + item.size].reshape(lead + tuple(item.shape))
        return Flags(v) if getattr(item, "flag", False) else v

    def constants_source(self, module_doc: str, source: str) -> str:
        """Text of the written-out constants module: one line per field or pile, with its doc."""
        lines = [f'"""{module_doc}', "", f"Written by ``python -m meeplelab.sim.core.layout {source}`` from the table in",
                 "that module; ``tests/test_layout.py`` checks this file against it. Do not edit by hand.", '"""', ""]
        for g in self.groups:
            lines.append("")
            if g.piles:
                lines.append(f"# ---- {g.name}[g, PILE, i]: {g.doc}")
                for i, p in enumerate(g.piles):
                    lines.append(f"{g.constant(p.name)} = {i}  # [{p.length}] {p.doc}".rstrip())
                continue
            rows = () if g.rows is None else (g.rows if isinstance(g.rows, tuple) else (g.rows,))
            axes = ", ".join(["g"] + ["p" if r == "P" else f"i{k} < {r}" for k, r in enumerate(rows)])
            lines.append(f"# ---- {g.name}[{axes}, COLUMN]: {g.doc}")
            o = 0
            for f in g.fields:
                shape = f" {list(f.shape)}" if f.shape else ""
                rng = f"; {f.range_text}" if f.range_text else ""
                lines.append(f"{g.constant(f.name)} = {o}  #{shape} {f.doc}{rng}".rstrip())
                if len(f.shape) > 1:
                    lines.append(f"{g.constant(f.name)}_W = {int(np.prod(f.shape[1:]))}  # row stride of "
                                 f"{g.constant(f.name)}")
                o += f.size
            lines.append(f"{g.name.upper()}_WIDTH = {o}  # columns of {g.name}")
        return "\n".join(lines) + "\n"

    def check_module(self, module) -> list[str]:
        """Differences between a written constants module and this table (empty when they agree)."""
        bad = []
        for g in self.groups:
            for name, o in g.offsets().items():
                c = g.constant(name)
                if getattr(module, c, None) != o:
                    bad.append(f"{c} should be {o}, is {getattr(module, c, None)}")
            if g.fields and getattr(module, f"{g.name.upper()}_WIDTH", None) != g.width:
                bad.append(f"{g.name.upper()}_WIDTH should be {g.width}")
        return bad


@dataclass
class LayoutState(BatchState):
    """A batch state whose rule arrays are a :class:`Layout`'s groups.

    Subclasses declare one dataclass field per group (``game``, ``seat``, ...) and set the class
    attribute ``LAYOUT``; ``state.<field>`` then returns the named view of any field of the table
    (``state.coffee`` is ``[B, P]``, writable in place). ``sizes`` (content sizes, for pile lengths)
    is a batch-wide constant.
    """

    LAYOUT = None  # set by the subclass (a class attribute, not a dataclass field)

    def __getattr__(self, name):
        lay = type(self).LAYOUT
        if lay is None or name.startswith("__"):
            raise AttributeError(name)
        try:
            lay.find(name)
        except KeyError:
            raise AttributeError(name) from None
        return lay.view(self, name, self.__dict__.get("sizes"))

    def __setattr__(self, name, value):
        """``state.coffee = x`` (and ``state.over |= ended``, which Python ends with an assignment) writes into the
        field's columns, never a plain attribute that would hide the view from then on."""
        lay = type(self).LAYOUT
        if lay is not None and name not in self.__dataclass_fields__ and not name.startswith("_"):
            try:
                lay.find(name)
            except KeyError:
                pass
            else:
                view = lay.view(self, name, self.__dict__.get("sizes"))
                if value is not view:
                    view[...] = value
                return
        object.__setattr__(self, name, value)


def main(argv=None) -> int:
    """``python -m meeplelab.sim.core.layout module:LAYOUT path``: write the constants module of a layout (a relative
    ``path`` is taken from the source tree's root, so the command writes the same file from any folder; the
    one command for every generated module is ``python -m meeplelab.sim.core.generate``)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or ":" not in args[0]:
        print("usage: python -m meeplelab.sim.core.layout package.module:LAYOUT path/to/cols.py", file=sys.stderr)
        return 2

    # run as `python -m meeplelab.sim.core.layout` this file is __main__: its Layout is another class than the one the
    # layout module imports, so compare against the package's own class
    lay_cls = importlib.import_module("meeplelab.sim.core.layout").Layout
    mod_name, _, attr = args[0].partition(":")
    try:
        mod = load_alone(mod_name)  # its package imports the very cols module being written
    except ImportError as e:
        print(f"cannot import {mod_name!r} ({e}); allowed: an importable module holding a Layout", file=sys.stderr)
        return 2
    layout = getattr(mod, attr, None)
    if not isinstance(layout, lay_cls):
        names = ", ".join(n for n, v in vars(mod).items() if isinstance(v, lay_cls)) or "none"
        print(f"{mod_name} has no Layout named {attr!r}; allowed: {names}", file=sys.stderr)
        return 2
    doc = getattr(mod, "COLS_DOC", f"Column constants of {mod_name}.{attr}.")

    target = Path(args[1]) if Path(args[1]).is_absolute() else TREE / args[1]  # the same file from any folder
    target.write_text(layout.constants_source(doc, f"{args[0]} {args[1]}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["Field", "Pile", "Group", "Layout", "LayoutState"]
