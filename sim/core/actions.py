"""An engine's action vocabulary: its fixed action id space as named families, each with encode, decode and label.

An engine's legal action mask has one column per action id (``bool[B, A]``); the ids come in families of
consecutive ids (pgx and OpenSpiel name their actions the same way): ``place`` = 16 idea spaces x 4 directions,
``dial`` = 3 qualities x 3 levels, ``card`` = one id per Research card. :class:`Vocabulary` declares them once, in
order, and gives every family's first id (the constants the kernels compare with), :meth:`Vocabulary.encode`
(family and indices to an id), :meth:`Vocabulary.decode` (an id to its family and indices, what ``describe_action``
and the replay read) and :meth:`Vocabulary.label` (a short stable name: ``place:space3:dir1``), so no engine decodes
its ids by offset arithmetic in two places.

One family may be a **choice** family: a few ids whose meaning is the pending decision's (which room, which row, which
Location bonus). Its meaning is declared per decision, once, as that decision's own families laid out from the
choice family's first id (``choices={"D_NEWCLIENT": (Family("routine", (3,)), Family("case", (3,)))}``):
:meth:`Vocabulary.choice` gives a part's first id (the kernels' named constants: ``CH_NEWCLIENT_CASE``), and
``decode``/``label`` given the decision read a choice id by its meaning (``case:1``) rather than its offset
(``choice:4``). OpenSpiel does the same: fixed ids, a state-dependent ``ActionToString``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    """Consecutive action ids of one kind.

    Attributes:
        name: the family's name (``place``); its ids are labelled from it.
        shape: the indices' sizes, ``()`` for a single id (``pass``), ``(16, 4)`` for space x direction; an id's
            indices are its offset in the family in row-major order.
        label: the label's format (``str.format`` with one field per index: ``"place:space{0}:dir{1}"``; default:
            the name, then ``:{i}`` per index).
        names: per index, the names its values print as in the label (``("growth", "freedom", "passion")``), or
            None to print the number.
    """

    name: str
    shape: tuple[int, ...] = ()
    label: str | None = None
    names: tuple[tuple[str, ...] | None, ...] = ()

    @property
    def size(self) -> int:
        """Ids in the family (1 for a single id)."""
        return math.prod(self.shape) if self.shape else 1


class Vocabulary:
    """The action id space of one engine: :class:`Family` blocks laid out in order from id 0.

    Args:
        families: the id space's families, in order from id 0.
        choices: per decision name, the parts of the choice family under that decision (families laid out from the
            choice family's first id), or None.
        choice_family: the family whose ids ``choices`` give meanings to.

    Raises:
        ValueError: a family named twice, ``names`` that do not fit its ``shape``, or a decision's choice parts that
            do not fit in the choice family.
    """

    def __init__(self, families: tuple[Family, ...], choices: dict[str, tuple[Family, ...]] | None = None,
                 choice_family: str = "choice"):
        self.families = tuple(families)
        self._start: dict[str, int] = {}
        a = 0
        for f in self.families:
            if f.name in self._start:
                raise ValueError(f"action family {f.name!r} is declared twice")
            if f.names and (len(f.names) != len(f.shape) or any(
                    n is not None and len(n) != k for n, k in zip(f.names, f.shape))):
                raise ValueError(f"action family {f.name!r}: names do not fit the shape {f.shape}")
            self._start[f.name] = a
            a += f.size
        self.num_actions = a
        self._bounds = [(self._start[f.name], self._start[f.name] + f.size, f) for f in self.families]
        self.choice_family = choice_family
        self.choices: dict[str, Vocabulary] = {}
        for decision, parts in (choices or {}).items():
            sub = Vocabulary(parts)
            room = self.family(choice_family).size
            if sub.num_actions > room:
                raise ValueError(f"decision {decision}: its choices take {sub.num_actions} ids, the {choice_family!r} "
                                 f"family has {room}")
            self.choices[decision] = sub

    def start(self, name: str) -> int:
        """The first id of family ``name`` (KeyError naming the families for an unknown one)."""
        try:
            return self._start[name]
        except KeyError:
            raise KeyError(f"no action family {name!r}: known {', '.join(self._start)}") from None

    def family(self, name: str) -> Family:
        """The :class:`Family` named ``name``."""
        if name not in self._start:
            self.start(name)  # raises the KeyError naming the families
        return self.families[list(self._start).index(name)]

    def encode(self, name: str, *index: int) -> int:
        """The id of family ``name`` at ``index`` (row-major in its shape).

        Raises:
            ValueError: the wrong number of indices, or one out of its range.
        """
        f = self.family(name)
        if len(index) != len(f.shape):
            raise ValueError(f"action family {name!r} takes {len(f.shape)} indices {f.shape}, got {index}")
        off = 0
        for i, k in zip(index, f.shape):
            if not 0 <= int(i) < k:
                raise ValueError(f"action family {name!r}: index {i} out of range 0..{k - 1}")
            off = off * k + int(i)
        return self._start[name] + off

    def choice(self, decision: str, part: str, *index: int) -> int:
        """The action id of choice ``part`` (at ``index``; its first id without one) under ``decision``: the named
        constant a kernel compares with (``choice("D_NEWCLIENT", "case")``).

        Raises:
            KeyError: a decision without declared choices, or a part it does not have.
            ValueError: an index out of range.
        """
        if decision not in self.choices:
            raise KeyError(f"no choices declared for decision {decision!r}: declared {', '.join(self.choices)}")
        sub = self.choices[decision]
        f = sub.family(part)
        return self.start(self.choice_family) + (sub.encode(part, *index) if index or not f.shape else sub.start(part))

    def choice_ids(self, decision: str, part: str) -> list[int]:
        """Every action id of choice ``part`` under ``decision``, in order (a plan's action list: ``D_NEWCLIENT``'s
        ``case`` ids).

        Raises:
            KeyError: as :meth:`choice`.
        """
        first = self.choice(decision, part)
        return list(range(first, first + self.choices[decision].family(part).size))

    def decode(self, a: int, decision: str | None = None) -> tuple[str, tuple[int, ...]]:
        """``(family name, indices)`` of action id ``a``; a choice id under ``decision`` (one with declared choices)
        decodes to its part there (``("case", (1,))``).

        Raises:
            ValueError: ``a`` outside ``0 .. num_actions - 1``, or a choice id ``decision`` does not use.
        """
        a = int(a)
        if decision in self.choices:
            lo = self.start(self.choice_family)
            if lo <= a < lo + self.family(self.choice_family).size:
                sub = self.choices[decision]
                if a - lo >= sub.num_actions:
                    raise ValueError(f"action {a} ({self.choice_family}:{a - lo}) is no choice of {decision}")
                return sub.decode(a - lo)
        for lo, hi, f in self._bounds:
            if lo <= a < hi:
                off, idx = a - lo, []
                for k in reversed(f.shape):
                    off, r = divmod(off, k)
                    idx.append(r)
                return f.name, tuple(reversed(idx))
        raise ValueError(f"action {a} out of range 0..{self.num_actions - 1}")

    def label(self, a: int, decision: str | None = None) -> str:
        """The short stable name of action id ``a`` (``place:space3:dir1``, ``dial:growth:minor``); a choice id under
        ``decision`` by its meaning there (``case:1``, ``to-freud``)."""
        a = int(a)
        if decision in self.choices:
            lo = self.start(self.choice_family)
            if lo <= a < lo + self.family(self.choice_family).size and a - lo < self.choices[decision].num_actions:
                return self.choices[decision].label(a - lo)
        name, idx = self.decode(a)
        f = self.family(name)
        vals = [n[i] if n is not None else i for n, i in zip(f.names or (None,) * len(idx), idx)]
        if f.label is not None:
            return f.label.format(*vals)
        return ":".join([name, *map(str, vals)])
