"""What each seat starts the game with, declared once per game (``GameSpec.start_resources``).

A :class:`StartResource` names one per-seat start value of a game's state: its treatment name
(``coins``, ``books_physics``, ``vp``), the state array it lives in (and the index of its last axis
for arrays like Galileo's Truth's ``books[B, P, 4]``), the rule parameter that sets everyone's start
(``start_coins``), the floor and ceiling the rules allow, and, when the game has per-seat
compensation fields (``seat_coins_2p`` ...), their prefix.

Three things are generated from the one list, so a resource declared once is available to all of them:

- **treatments** ``NAME+n`` / ``NAME-n``: one seat (a roster position in ``meeplelab experiment``, a
  rotation's seat in a panel) starts with ``n`` more (fewer); every refusal lists the declared names;
- **seat compensation**: the engine applies ``Params.<prefix>_<P>p[s]`` to seat ``s`` of a
  ``P``-player game at setup (:func:`apply_seat_bonus`);
- **exchange rates** (``meeplelab exchange-rates``): one more unit of every resource, per strategy.

A VP resource (``vp=True``) also counts toward the seat's VP-event sum (``vp_ev``), so VP stays equal to
the sum of its events; it belongs to no scoring category (the games table reports it as
``vp_seat_bonus``: VP outside every category).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .errors import ConfigError

_TREAT = re.compile(r"([a-z_]\w*)([+-]\d+)")


@dataclass(frozen=True)
class StartResource:
    """One per-seat start value of a game.

    Attributes:
        name: the treatment name (``coins``; ``books_physics``).
        field: the state attribute holding it, ``[B, P]`` or ``[B, P, K]`` (``coins``; ``books``).
        index: for a ``[B, P, K]`` field, the position on the last axis (``books``: the Subject).
        unit: the unit as the rules name it (``Coins``).
        doc: one phrase saying what it is.
        start_param: the ``Params`` field setting every seat's start value (None: the rules start it at 0,
            or the state's own initial value).
        low: the least start value the rules allow (None: no floor, e.g. VP).
        below_param: a ``Params`` field the start value must stay below (Suspicion below ``prison_at``).
        seat_param: prefix of the per-seat compensation fields (``seat_coins``: ``seat_coins_2p`` ...
            ``seat_coins_4p``), or None when the game has none for this resource.
        vp: the resource is VP (also added to the seat's VP-event sum ``vp_ev``).
    """

    name: str
    field: str
    unit: str
    doc: str
    index: int | None = None
    start_param: str | None = None
    low: int | None = 0
    below_param: str | None = None
    seat_param: str | None = None
    vp: bool = False

    def values(self, state) -> np.ndarray:
        """``int[B, P]`` view of the resource in ``state`` (writes go to the state)."""
        arr = getattr(state, self.field)
        return arr if self.index is None else arr[:, :, self.index]

    def add(self, state, rows, seat: int, n: int) -> None:
        """``n`` more for ``seat`` in games ``rows`` (an index array or slice), in place."""
        arr = getattr(state, self.field)
        if self.index is None:
            arr[rows, seat] += n
        else:
            arr[rows, seat, self.index] += n
        if self.vp:
            state.vp_ev[rows, seat] += n

    def seat_field(self, players: int) -> str | None:
        """The compensation field for a ``players``-seat game (``seat_coins_3p``), or None."""
        return None if self.seat_param is None else f"{self.seat_param}_{players}p"


def names(resources) -> str:
    """``coins, research, ...``: the declared names, for refusals."""
    return ", ".join(r.name for r in resources) or "(none declared)"


def find(resources, name: str, game: str = "", what: str = "--treat", text: str | None = None) -> StartResource:
    """The declared resource ``name`` (``text``: the whole option value, named in the refusal).

    Raises:
        ConfigError: ``name`` is not declared (the declared names listed).
    """
    for r in resources:
        if r.name == name:
            return r
    head = f"{what} {text!r}: {name!r}" if text is not None else f"{what} {name!r}"
    raise ConfigError(f"{head} is not a start resource of {game or 'this game'}: allowed "
                      f"{names(resources)} (each as NAME+n or NAME-n, e.g. {resources[0].name if resources else 'coins'}+1)")


def parse(text: str, resources, game: str = "") -> tuple[StartResource, int]:
    """``"coins+1"`` -> (the coins resource, 1).

    Raises:
        ConfigError: not of the form NAME+n / NAME-n, or NAME not declared (the declared names listed).
    """
    m = _TREAT.fullmatch(text.strip())
    if not m:
        raise ConfigError(f"--treat {text!r} needs the form NAME+n or NAME-n with NAME one of {names(resources)} "
                          f"(e.g. {resources[0].name if resources else 'coffee'}+1: one more at the start for one player)")
    return find(resources, m.group(1), game, text=text.strip()), int(m.group(2))


def check_start(r: StartResource, state, params, add: int, text: str) -> None:
    """Refuse a treatment whose treated start value leaves what the rules allow.

    ``state`` is one game set up under the rules played (its per-seat start values are read).

    Raises:
        ConfigError: the treated start value would be below ``r.low`` or not below ``r.below_param``.
    """
    v = r.values(state)[0]
    if r.low is not None and int(v.min()) + add < r.low:
        least = int(v.min())
        raise ConfigError(f"--treat {text!r}: a seat would start with {least + add} {r.name}; allowed: a start value "
                          f"of {r.low} or more ({r.name} starts at {least} here, so at most {r.name}-{least - r.low})")
    if r.below_param is not None:
        cap = int(getattr(params, r.below_param))
        most = int(v.max())
        if most + add >= cap:
            raise ConfigError(f"--treat {text!r}: a seat would start with {most + add} {r.name}; allowed: below "
                              f"{r.below_param}={cap} ({r.name} starts at {most} here, so at most "
                              f"{r.name}+{cap - 1 - most})")


def apply_seat_bonus(state, params, resources, players: int) -> None:
    """Add every declared resource's compensation (``Params.<seat_param>_<P>p``) to its seats, in place.

    Raises:
        ConfigError: a compensation field whose length is not ``players`` (Params fields have fixed lengths,
            so only a hand-built Params can do this).
    """
    for r in resources:
        f = r.seat_field(players)
        if f is None or not hasattr(params, f):
            continue
        bonus = tuple(getattr(params, f))
        if len(bonus) != players:
            raise ConfigError(f"parameter {f} needs {players} values, got {len(bonus)}")
        for s, n in enumerate(bonus):
            if n:
                r.add(state, slice(None), s, int(n))


def seat_bonus(params, resources, players: int) -> dict[str, tuple[int, ...]]:
    """``{resource: per-seat compensation}`` of the non-zero compensation fields for ``players`` seats."""
    out = {}
    for r in resources:
        f = r.seat_field(players)
        if f is not None and hasattr(params, f) and any(getattr(params, f)):
            out[r.name] = tuple(int(x) for x in getattr(params, f))
    return out
