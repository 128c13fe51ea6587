"""An engine's action vocabulary: its fixed action id space as named families, each with encode, decode and label.

An engine's legal action mask has one column per action id (``bool[B, A]``); the ids come in families of
consecutive ids (pgx and OpenSpiel name their actions the same way): ``place`` = 16 idea spaces x 4 directions,
``dial`` = 3 qualities x 3 levels, ``card`` = one id per Research card. :class:`Vocabulary` declares them once, in
order, and gives every family's first id (the constants the kernels compare with), :meth:`Vocabulary.encode`
(family and indices to an id), :meth:`Vocabulary.decode` (an id to its family and indices, what ``describe_action``
and the replay read) and :meth:`Vocabulary.label` (a short stable name: ``place:space3:dir1``), so no engine decodes
its ids by offset arithmetic in two places.
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

    Raises:
        ValueError: a family named twice, or ``names`` that do not fit its ``shape``.
    """

    def __init__(self, families: tuple[Family, ...]):
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

    def start(self, name: str) -> int:
        """The first id of family ``name`` (KeyError naming the families for an unknown one)."""
        try:
            return self._start[name]
        except KeyError:
            raise KeyError(f"no action family {name!r}: known {', '.join(self._start)}") from None

    def family(self, name: str) -> Family:
        """The :class:`Family` named ``name``."""
        return self.families[list(self._start).index(name)] if name in self._start else self.start(name)

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

    def decode(self, a: int) -> tuple[str, tuple[int, ...]]:
        """``(family name, indices)`` of action id ``a``.

        Raises:
            ValueError: ``a`` outside ``0 .. num_actions - 1``.
        """
        a = int(a)
        for lo, hi, f in self._bounds:
            if lo <= a < hi:
                off, idx = a - lo, []
                for k in reversed(f.shape):
                    off, r = divmod(off, k)
                    idx.append(r)
                return f.name, tuple(reversed(idx))
        raise ValueError(f"action {a} out of range 0..{self.num_actions - 1}")

    def label(self, a: int) -> str:
        """The short stable name of action id ``a`` (``place:space3:dir1``, ``dial:growth:minor``)."""
        name, idx = self.decode(a)
        f = self.family(name)
        vals = [n[i] if n is not None else i for n, i in zip(f.names or (None,) * len(idx), idx)]
        if f.label is not None:
            return f.label.format(*vals)
        return ":".join([name, *map(str, vals)])
