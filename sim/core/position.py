"""One position of any engine, built, played and read by name.

The rule tests of every engine build a scenario the same way::

    pos = Position.start(GalileosTruth(), players=2, seed=3)
    pos.set(seat=0, coins=5, susp=7)                     # any field of the state's layout, by its name
    pos.pending()                                        # Pending(decision='P_MAIN', seat=0, options=(...))
    pos.act("abjure")                                    # an action by its label (the engine's vocabulary)
    assert pos.get("susp", seat=0) == 2                  # read a field by name: a Python int (a flag: a bool)
    assert pos.events("vp")                              # the events logged since the position was built

``Position`` holds a batch of one game (``state`` with batch size 1, every view ``[1, ...]``); ``set``/``get`` go
through the state's named views (:class:`meeplelab.sim.core.layout.LayoutState`), so a field is named as the
layout declares it (``state.py``) and never by column. Engines add builders of their own content (hands,
Treatises: ``give``) through :meth:`Game.position_builders`.
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass

import numpy as np
from .errors import IllegalActionError


@dataclass(frozen=True)
class Pending:
    """The choice a position waits for.

    Attributes:
        decision: the pending decision kind's name in the engine's decision table (``P_MAIN``, ``D_TURN``), None
            when the game is over.
        seat: the seat to act (0-based), -1 when the game is over.
        options: the labels of the legal actions (the engine's action vocabulary), in id order.
        words: the same actions in the rulebook's words (``describe_action``).
    """

    decision: str | None
    seat: int
    options: tuple[str, ...]
    words: tuple[str, ...]


class Position:
    """A game of ``game`` (an engine instance) at one position: built, played and read by name.

    Raises (from its methods):
        KeyError: a field, action label or builder the engine does not have (the message names what is allowed).
        IllegalActionError: an action that is not legal here (the engine's own check).
    """

    def __init__(self, game, state):
        if state.batch_size != 1:
            raise ValueError(f"a Position holds one game, got a batch of {state.batch_size}")
        self.game, self.state = game, state

    @classmethod
    def start(cls, game, players: int = 2, seed: int = 0, game_id: int = 0, keep_logs: bool = False) -> "Position":
        """The game at its first decision (``game.init``), its setup's log rows cleared unless ``keep_logs``."""
        state = game.init(np.array([game_id]), seed, players)
        if not keep_logs:
            state.turn_n[:] = 0
            state.event_n[:] = 0
        return cls(game, state)

    # ------------------------------------------------------------------ fields by name
    def _fields(self) -> list[str]:
        return [n for g in type(self.state).LAYOUT.groups for n in g.offsets()]

    def _view(self, name: str) -> np.ndarray:
        lay = type(self.state).LAYOUT
        try:
            lay.find(name)
        except (KeyError, AttributeError):
            raise KeyError(f"{self.game.name} has no state field {name!r}: allowed {', '.join(self._fields())}") from None
        return getattr(self.state, name)

    def _seat_of(self, name: str, view: np.ndarray, seat: int | None) -> tuple:
        """The index of ``seat``'s entry of field ``name`` (``(0,)`` for a game field without ``seat``)."""
        g, _, _ = type(self.state).LAYOUT.find(name)
        per_seat = g.rows == "P" or (isinstance(g.rows, tuple) and g.rows[:1] == ("P",))
        P = self.state.num_players
        if per_seat and seat is None:
            raise KeyError(f"{name!r} is a field of each seat: name the seat (seat=0 to {P - 1})")
        if not per_seat and seat is not None:
            raise KeyError(f"{name!r} is not a field of a seat: leave seat out")
        if seat is None:
            return (0,)
        if not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) < P:
            raise KeyError(f"seat {seat!r} of a {P}-player game: allowed 0 to {P - 1}")
        return (0, int(seat))

    def get(self, name: str, seat: int | None = None):
        """Field ``name`` of this game (of ``seat``, 0-based, for a seat's field): a Python int (a bool for a flag
        field), or a list for a field spanning columns.

        Raises:
            KeyError: an unknown field (the message lists the allowed ones), a seat out of range, a seat given for a
                game field or missing for a seat's field.
        """
        view = self._view(name)
        v = view[self._seat_of(name, view, seat)]
        flag = getattr(view, "is_flag", False)
        if np.ndim(v) == 0:
            return bool(v) if flag else int(v)
        return (np.asarray(v) != 0).tolist() if flag else np.asarray(v).tolist()

    def _names(self) -> dict:
        """The values a field's named bound may name (:meth:`meeplelab.sim.core.layout.Field.bounds`): ``P`` the
        seats, the state's content sizes and the game's whole-number rule parameters."""
        names = {"P": self.state.num_players}
        names.update({k: v for k, v in (getattr(self.state, "sizes", None) or {}).items() if isinstance(v, int)})
        params = getattr(self.game, "params", None)
        if dataclasses.is_dataclass(params):
            names.update({f.name: v for f in dataclasses.fields(params)
                          if isinstance(v := getattr(params, f.name), int) and not isinstance(v, bool)})
        return names

    def bounds(self, name: str) -> tuple[int | None, int | None]:
        """``(lo, hi)``: the values field ``name`` may hold in this game, both included (None: unbounded), from the
        range the layout declares (``Field.lo``/``hi``: ``level`` (1, 4), ``to_act`` (0, seats - 1)).

        Raises:
            KeyError: an unknown field (the message lists the allowed ones).
        """
        self._view(name)
        _, f, _ = type(self.state).LAYOUT.find(name)
        if getattr(f, "lo", None) is None and getattr(f, "hi", None) is None:
            return None, None
        return f.bounds(self._names())

    def _check_range(self, name: str, label: str, vals: np.ndarray) -> None:
        """ValueError (one line naming ``label``, the value and the range) when a value of ``vals`` lies outside
        the range field ``name`` declares in the layout (``lo``/``hi``; none declared: anything)."""
        lo, hi = self.bounds(name)
        if lo is None and hi is None:
            return
        _, f, _ = type(self.state).LAYOUT.find(name)
        v = np.asarray(vals, np.int64)
        bad = np.zeros(v.shape, bool)
        if lo is not None:
            bad |= v < lo
        if hi is not None:
            bad |= v > hi
        if bad.any():
            worst = int(v[bad].flat[0])
            head = f"{label}={worst}:" if v.ndim == 0 else f"{label}={v.tolist()} holds {worst}:"
            allowed = f"{lo} to {hi}" if lo is not None and hi is not None else (
                f"at least {lo}" if hi is None else f"at most {hi}")
            what = f"{f.range_text}: {f.doc}" if isinstance(f.lo, str) or isinstance(f.hi, str) else f.doc
            raise ValueError(f"{head} out of range: allowed {allowed}" + (f" ({what})" if what else ""))

    def set(self, seat: int | None = None, **fields) -> "Position":
        """Write fields by name (``set(seat=0, coins=5)``; a game field without ``seat``); returns the position.

        Raises:
            KeyError: as :meth:`get`.
            ValueError: a value that is not a whole number (a flag: not True, False, 0 or 1), outside the range the
                field declares in the layout (``Field.lo``/``hi``: ``level`` 1 to 4), or of another shape than the
                field's; one line naming the field, the value and what is allowed; nothing is written.
        """
        writes = []
        for name, value in fields.items():
            view = self._view(name)
            idx = self._seat_of(name, view, seat)
            if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and abs(int(value)) >= 2 ** 62:
                raise ValueError(f"{name}={value!r}: out of range")
            vals = np.asarray(value)
            if vals.dtype.kind not in "iub" or vals.size == 0:
                raise ValueError(f"{name}={value!r}: allowed whole numbers")
            if getattr(view, "is_flag", False) and not np.isin(vals, (0, 1)).all():
                raise ValueError(f"{name}={value!r} is a flag: allowed True, False, 0 or 1")
            if np.abs(vals.astype(np.float64)).max() >= 2 ** 62:
                raise ValueError(f"{name}={value!r}: out of range")
            self._check_range(name, name, vals)
            shape = np.shape(view[idx])
            try:
                np.broadcast_to(vals, shape)
            except ValueError:
                raise ValueError(f"{name}={value!r}: allowed one whole number or {shape[0] if shape else 1} of them "
                                 f"(the field's shape {shape})") from None
            writes.append((view, idx, vals))
        for view, idx, vals in writes:
            view[idx] = vals
        return self

    def put(self, name: str, index, value, seat: int | None = None) -> "Position":
        """Write entry ``index`` (an int, a tuple or a slice of the field's own axes) of field ``name`` (of
        ``seat``), its other entries unchanged: one Subject's Books, one Notebook space; returns the position.

        Raises:
            KeyError: as :meth:`get`.
            IndexError: an index outside the field.
            ValueError: as :meth:`set`; nothing is written.
        """
        view = self._view(name)
        row = np.array(view[self._seat_of(name, view, seat)])
        whole = isinstance(index, (tuple, slice)) or (
            not isinstance(index, bool) and np.asarray(index).dtype.kind in "iu")
        if not whole:
            raise IndexError(f"{name}[{index!r}]: allowed an int, a list of ints, a tuple or a slice of the "
                             "field's axes")
        if np.asarray(value).dtype.kind not in "iub":
            raise ValueError(f"{name}[{index!r}]={value!r}: allowed whole numbers")
        if row.ndim == 0:
            raise KeyError(f"{name!r} is a single number: write it with set({name}=...)")
        if np.abs(np.asarray(value, np.float64)).max(initial=0) < 2 ** 62:
            self._check_range(name, f"{name}[{index!r}]", np.asarray(value))
        try:
            row[index] = value
        except IndexError:
            raise IndexError(f"{name}[{index!r}]: the field has shape {row.shape}") from None
        return self.set(seat=seat, **{name: row})

    def give(self, what: str, *args, **kw) -> "Position":
        """Run the engine's position builder ``what`` (:meth:`Game.position_builders`: ``hand``, ``treatise``...)."""
        builders = self.game.position_builders()
        if what not in builders:
            raise KeyError(f"{self.game.name} has no position builder {what!r}: allowed {', '.join(builders) or 'none'}")
        builders[what](self.game, self.state, 0, *args, **kw)
        return self

    # ------------------------------------------------------------------ actions by name
    def _label(self, a: int | np.integer, decision: str | None) -> str:
        return self.game.action_label_at(int(a), decision)

    def legal(self) -> list[str]:
        """The labels of the legal actions, in id order; a choice by its meaning under the pending decision
        (``case:1``, not ``choice:4``: :meth:`Game.action_label_at`)."""
        decision = self._decision_name()
        return [self._label(a, decision) for a in np.flatnonzero(self.game.legal_action_mask(self.state)[0])]

    def action_id(self, action) -> int:
        """The id of ``action``: an id, or the label of a legal action under the pending decision (a choice by its
        meaning there: ``case:1``, never its offset ``choice:4``). KeyError naming the legal ones."""
        if isinstance(action, (int, np.integer)):
            return int(action)
        ids = np.flatnonzero(self.game.legal_action_mask(self.state)[0])
        decision = self._decision_name()
        for a in ids:
            if self._label(a, decision) == action:
                return int(a)
        raise KeyError(f"action {action!r} is not legal here: legal {', '.join(self.legal()) or 'none'}")

    def act(self, *actions) -> "Position":
        """Play ``actions`` in turn (labels or ids), whoever is to act; returns the position.

        Raises:
            IllegalActionError: the game is over, or an id that is not legal here.
            KeyError: a label that is not legal here (the message lists the legal ones).
        """

        for a in actions:
            if self.over():
                raise IllegalActionError(f"action {a!r}: the game is over")
            self.game.step(self.state, np.array([self.action_id(a)], np.int64))
        return self

    def pending(self) -> Pending:
        """The decision this game waits for, the seat to act and its legal actions by label and in words."""
        if bool(self.game.done(self.state)[0]):
            return Pending(None, -1, (), ())
        ids = [int(a) for a in np.flatnonzero(self.game.legal_action_mask(self.state)[0])]
        decision = self._decision_name()
        return Pending(decision, int(self.game.to_act(self.state)[0]), tuple(self._label(a, decision) for a in ids),
                       tuple(self.game.describe_action(self.state, 0, a) for a in ids))

    def _decision_name(self) -> str | None:
        if not self.game.compiled_play:
            return None
        play = self.game.compiled_module()
        features = importlib.import_module(self.game.compiled_play.rpartition(".")[0] + ".features")
        code = int(features.pending(self.game.kernel_state(self.state), 0))
        names = {v: k for k, v in play.KINDS.items()}
        return names.get(code)

    # ------------------------------------------------------------------ results by name
    def clear_logs(self) -> "Position":
        """Forget the turn and event rows logged so far (:meth:`events` then lists only what follows)."""
        self.state.turn_n[:] = 0
        self.state.event_n[:] = 0
        return self

    def _rows(self, spec, buf, n) -> list[dict]:
        out = []
        for row in buf[0, :int(n[0])]:
            out.append({c.name: (c.vocab[int(x)] if c.vocab is not None else int(x))
                        for c, x in zip(spec.columns, row)})
        return out

    def turns(self) -> list[dict]:
        """The turn-log rows written since the position was built (or :meth:`clear_logs`): one dict per turn, every
        column by name, a coded column by its word (``main_action: "abjure"``)."""
        return self._rows(self.game.turn_spec(), self.state.turn_buf, self.state.turn_n)

    def events(self, kind: str | None = None) -> list[dict]:
        """The event rows logged since the position was built (or :meth:`clear_logs`), as dicts with the kind and
        every string column by name; only ``kind`` when given. Reading does not clear them."""
        spec = self.game.event_spec()
        if kind is not None and kind not in self.game.event_kinds:
            raise KeyError(f"{self.game.name} has no event kind {kind!r}: allowed {', '.join(self.game.event_kinds)}")
        rows = self._rows(spec, self.state.event_buf, self.state.event_n)
        return [d for d in rows if kind is None or d["kind"] == kind]

    def scores(self) -> dict[str, list[int]]:
        """``{"vp": [...], <category>: [...]}``: every seat's VP and its score categories (the engine's)."""
        out = {"vp": [int(x) for x in self.game.vp(self.state)[0]]}
        out.update({k: [int(x) for x in np.asarray(v)[0]] for k, v in self.game.score_breakdown(self.state).items()})
        return out

    def over(self) -> bool:
        """True when the game has ended."""
        return bool(self.game.done(self.state)[0])

    def __repr__(self) -> str:
        p = self.pending()
        return (f"Position({self.game.name}, {self.state.num_players} seats, "
                f"{'over' if p.decision is None else f'{p.decision} for seat {p.seat + 1}'})")
