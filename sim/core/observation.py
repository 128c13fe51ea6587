"""What one seat can know of a game: its observation and information state, read from the state layout.

A game declares what its seats cannot see once, as an :class:`ObservationSpec` in its ``GameSpec``
(``GameSpec.observation``), and :class:`Observer` turns any position into the observation of any seat. The
OpenSpiel games (:mod:`meeplelab.sim.openspiel`), the PettingZoo and Gymnasium environments
(:mod:`meeplelab.env`) and their tests read observations only through here.

The observation of seat ``s`` is every field and pile of the engine's :class:`~meeplelab.sim.core.layout.Layout`
(one game, without the batch axis; minus :attr:`ObservationSpec.omit`), as ``int64`` arrays named as the layout
names them, after two steps:

1. the game's ``conceal`` hook masks what ``s`` cannot know with :data:`HIDDEN` (another seat's unknown hand
   cards and which of its cards are in hand or deck; deck orders) and may add fields (a count per seat);
2. every :class:`Order` range (a face-down pile whose contents are known but not their order) is shown sorted,
   empties (negative values) last.

Two leading fields come first: ``observer`` (``[P]``, one-hot of the observing seat; all zero for the public
observer, ``seat`` -1) and ``ply`` (decisions so far). What is hidden follows the engines' re-sampling kernels
(``sim/<game>/hidden.py``): a position re-sampled for seat ``s`` (``Game.redeterminize``) has the same
observation for ``s`` (``tests/test_openspiel.py``), and what they keep, the observation shows. The game index,
the chance key and the chance counters are never shown (they fix every future shuffle), nor the log buffers.

The information state adds ``actions`` (``[P, A]``, how often each seat took each action so far): every action
of both games is seen by every seat.

Encodings: :meth:`Observer.tensor` (``float32[size]``, the fields flattened in :attr:`Observer.names` order),
:meth:`Observer.text` (one ``name: values`` line per field).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .spec import load_ref

#: the value of anything the observing seat cannot know (``-1`` already means "none" or "empty" in the layouts)
HIDDEN = -2


@dataclass(frozen=True)
class Order:
    """Positions ``start..stop-1`` of a pile whose contents the seats know but not their order (a face-down bag
    or deck whose cards are all known): the observation shows them sorted, negative values last.

    Attributes:
        pile: the pile's name in the layout (``bag_1``).
        start: first position: an int, or a field holding it (``"ttop[0]"``: element 0 of the game field ``ttop``).
        stop: end position (exclusive), as ``start``; None: the pile's length.
    """

    pile: str
    start: int | str = 0
    stop: int | str | None = None


@dataclass(frozen=True)
class ObservationSpec:
    """What a game's seats cannot see (``GameSpec.observation``).

    Attributes:
        order: the face-down ranges shown sorted (:class:`Order`).
        conceal: ``"module:function"`` of the game's hook ``fn(fields, seat, num_players) -> dict``: masks in place,
            with :data:`HIDDEN`, what ``seat`` cannot know in ``fields`` (name -> ``int64`` array of one game; ``seat``
            -1 for the public observer, who knows no seat's private information) and returns the fields it adds
            (name -> ``int64`` array), or None.
        omit: layout fields never shown.
    """

    order: tuple[Order, ...] = ()
    conceal: str | None = None
    omit: tuple[str, ...] = field(default_factory=tuple)


def ref_value(fields: dict[str, np.ndarray], ref: int | str) -> int:
    """The int an :class:`Order` bound names: an int as is, ``"name"`` a scalar field, ``"name[i]"`` element ``i``
    of a field (flattened).

    Raises:
        KeyError: no field of that name.
    """
    if isinstance(ref, (int, np.integer)):
        return int(ref)
    name, _, rest = ref.partition("[")
    v = np.asarray(fields[name]).ravel()
    return int(v[int(rest.rstrip("]"))] if rest else v[0])


def sort_hidden_order(arr: np.ndarray, lo: int, hi: int) -> None:
    """Sort ``arr[lo:hi]`` in place: non-negative values ascending, then the negative ones (empties) descending."""
    seg = arr[lo:hi]
    seg[:] = np.concatenate([np.sort(seg[seg >= 0]), np.sort(seg[seg < 0])[::-1]])


@dataclass(frozen=True)
class _Take:
    """How one observed field is read from a game row: group, first column or pile row, size and shape."""

    name: str
    group: str
    pile: bool
    offset: int
    size: int
    shape: tuple[int, ...]


class Observer:
    """The observation of one engine at one player count: field names, shapes and the per-seat reading.

    Args:
        engine: a :class:`~meeplelab.sim.core.game.Game` whose state is a
            :class:`~meeplelab.sim.core.layout.LayoutState`.
        num_players: seats (the shapes of per-seat fields depend on it).
        spec: the game's :class:`ObservationSpec`.

    Attributes:
        names: the observation's field names, in tensor order.
        shapes: ``{name: shape}`` of each field (one game).
        size: the observation tensor's length.
        info_shapes, info_size: the same for the information state (``actions`` ``[P, A]`` added).
    """

    def __init__(self, engine, num_players: int, spec: ObservationSpec):
        self.engine, self.num_players, self.spec = engine, int(num_players), spec
        self._conceal = load_ref(spec.conceal) if spec.conceal else None
        template = engine.init(np.zeros(1, np.int64), 0, self.num_players)
        self.layout = type(template).LAYOUT
        self._takes = self._plan(template)
        self._groups = tuple(dict.fromkeys(t.group for t in self._takes))
        shapes = {k: v.shape for k, v in self.fields(template, 0, 0).items()}
        self.names = tuple(shapes)
        self.shapes = shapes
        self.size = int(sum(int(np.prod(s)) for s in shapes.values()))
        self.info_shapes = dict(shapes, actions=(self.num_players, int(engine.num_actions)))
        self.info_size = self.size + self.num_players * int(engine.num_actions)

    def _plan(self, template) -> tuple[_Take, ...]:
        """Where each observed layout field lives in a game row (its group, offset, size, shape)."""
        sizes = template.sizes or {}
        takes = []
        for grp in self.layout.groups:
            lead = getattr(template, grp.name).shape[1:-1]
            for name, off in grp.offsets().items():
                if name in self.spec.omit:
                    continue
                if grp.piles:
                    item = grp.piles[off]
                    n = int(sizes[item.length]) if isinstance(item.length, str) else int(item.length)
                    takes.append(_Take(name, grp.name, True, off, n, (n,)))
                else:
                    f = next(x for x in grp.fields if x.name == name)
                    takes.append(_Take(name, grp.name, False, off, f.size, tuple(lead) + tuple(f.shape)))
        return tuple(takes)

    def fields(self, state, g: int, seat: int) -> dict[str, np.ndarray]:
        """The observation of game ``g`` of ``state`` for ``seat`` (-1: the public observer), as named ``int64``
        arrays (views of fresh copies, never of ``state``): ``observer``, ``ply``, the layout fields, the fields the
        game's hook adds."""
        onehot = np.zeros(self.num_players, np.int64)
        if seat >= 0:
            onehot[seat] = 1
        out = {"observer": onehot, "ply": np.array([int(state.ply[g])], np.int64)}
        rows = {name: np.array(getattr(state, name)[g], np.int64) for name in self._groups}  # one copy per group
        for t in self._takes:
            row = rows[t.group]
            if t.pile:
                out[t.name] = row[t.offset, :t.size]
            else:
                out[t.name] = row[..., t.offset:t.offset + t.size].reshape(t.shape)
        if self._conceal is not None:
            out.update(self._conceal(out, int(seat), self.num_players) or {})
        for o in self.spec.order:
            arr = out[o.pile]
            stop = len(arr) if o.stop is None else ref_value(out, o.stop)
            sort_hidden_order(arr, ref_value(out, o.start), stop)
        return out

    def blank(self, seat: int, info: bool = False) -> dict[str, np.ndarray]:
        """All-zero fields (a position before the deal), ``observer`` set for ``seat``."""
        out = {k: np.zeros(s, np.int64) for k, s in (self.info_shapes if info else self.shapes).items()}
        if seat >= 0:
            out["observer"][seat] = 1
        return out

    @staticmethod
    def tensor(fields: dict[str, np.ndarray]) -> np.ndarray:
        """``float32[size]``: the fields flattened in their order."""
        return np.concatenate([v.reshape(-1) for v in fields.values()]).astype(np.float32)

    @staticmethod
    def text(fields: dict[str, np.ndarray]) -> str:
        """One line per field, ``name: [v, v, v]`` (values flattened row-major; ``-2`` is hidden)."""
        flat = np.concatenate([v.reshape(-1) for v in fields.values()]).tolist()
        lines, o = [], 0
        for k, v in fields.items():
            lines.append(f"{k}: {flat[o:o + v.size]}")
            o += v.size
        return "\n".join(lines)

    def views(self, tensor: np.ndarray, info: bool = False) -> dict[str, np.ndarray]:
        """Named views of a flat observation (or information-state) tensor, shaped as :attr:`shapes`
        (:attr:`info_shapes`): the inverse of :meth:`tensor`, sharing ``tensor``'s memory."""
        out, o = {}, 0
        for k, s in (self.info_shapes if info else self.shapes).items():
            n = int(np.prod(s))
            out[k] = tensor[o:o + n].reshape(s)
            o += n
        return out


def observer_spec(spec: Any) -> ObservationSpec | None:
    """A game spec's :class:`ObservationSpec` (its ``observation`` attribute: the spec itself or ``"module:NAME"``),
    or None when the game declares none."""
    obs = getattr(spec, "observation", None)
    return load_ref(obs) if isinstance(obs, str) else obs


__all__ = ["HIDDEN", "ObservationSpec", "Observer", "Order", "observer_spec", "ref_value", "sort_hidden_order"]
