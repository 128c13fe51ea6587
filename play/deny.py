"""Deny one content item to one seat: a rule-free, per-seat forbidden-action treatment.

``meeplelab content-value --deny`` measures an item's value by denying it to one seat
only, paired on common seeds against the unchanged game. Neither engine has a per-seat hook for its
content (an Invention, a tile or a card is in the game for every seat or for none), so the denial is
applied where every decision passes, the seat's **legal action mask**, and not in the rules:

- **What is forbidden.** At each decision of the denied seat, every legal action is tried on a copy of
  the deciding games (:meth:`meeplelab.sim.core.state.BatchState.take` with fresh log buffers, then
  :meth:`Game.step`); an action whose own application logs the denied seat *taking* the item (the
  event kind, category and item column of :data:`meeplelab.analysis.content.KINDS`, the same events that
  count a take in the content-strength tables), or after which the same seat decides again with every
  legal action logging the take (a choice that commits to the item: keeping an Observation tile that the
  next decision lays in the Window), is removed from the mask the seat's strategy sees. So
  the item cannot be chosen, bought, drawn or laid by that seat; the other seats, the rules and the
  item itself are unchanged. The copies are thrown away: the real game's random streams and logs are
  not touched, and a strategy's decision stream is keyed by (run seed, game, seat, ply) as always.
- **A forced take.** When every legal action of a decision would take the item (the seat has no other
  way on), the mask is left as it is and the seat takes it: the denial never makes a game stuck. Such
  takes show in the deny arm's events; ``meeplelab.analysis.content.removal_effects`` reports the
  denied seats' takes per game (``takes_denied``), 0 when the denial held.
- **Which seat.** Game seed ``j`` of every seat order denies roster position ``j mod P``
  (:func:`denied_position`), so within each seat order every position, and with rotated seating every
  seat, is denied in an equal share of the games (exactly equal when the game seeds per order are a
  multiple of ``P``). A mirror match (one seat order) thus denies seat ``j mod P`` of game ``j``.
- **Cost.** The denied seat decides on the Python loop (its strategy is wrapped, so it is no longer a
  compiled plan or heuristic of the play kernel; the other seats still are) and each of its decisions
  steps one copy per distinct legal action: a deny arm plays several times slower than the control.
  The games are the same as with ``--python-loop`` except where the denial removes an action.

The treatment is stored in the run config as ``treatment = {"deny": "kind:id"}``
(:class:`meeplelab.play.config.RunConfig`), so a deny arm's run folder resumes and repeats like any run.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.logs import E_KIND, E_SEAT
from meeplelab.sim.content_items import kinds_of


def denied_position(game_seed: np.ndarray, players: int) -> np.ndarray:
    """The roster position denied in each game: ``game_seed mod players`` (``int64[B]``)."""
    return np.asarray(game_seed, np.int64) % int(players)


def _any_of(a: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``a == codes[0] | a == codes[1] | ...`` (a few codes: cheaper than ``np.isin``)."""
    out = a == codes[0]
    for c in codes[1:]:
        out |= a == c
    return out


class Denial:
    """What taking ``kind:ident`` looks like in ``game``'s event buffer rows.

    Raises:
        ConfigError: an unknown kind or id (the allowed named).
    """

    def __init__(self, game, spec: str):
        kind, sep, ident = str(spec).partition(":")
        kinds = {k.kind: k for k in kinds_of(game.name)}
        if not sep or kind not in kinds:
            raise ConfigError(f"deny {spec!r}: allowed kind:id with kind one of {', '.join(kinds) or 'none'}")
        k = kinds[kind]
        ids = k.ids(game.content)
        if ident not in ids:
            raise ConfigError(f"deny {spec!r}: {game.name} has no {kind} {ident!r}: allowed "
                              f"{', '.join(i for i in ids if i is not None)}")
        self.spec, self.index = str(spec), ids.index(ident)
        es = game.event_spec()
        kind_vocab = es.columns[E_KIND].vocab
        self.kinds = np.array([kind_vocab.index(e) for e in k.events], np.int64)
        self.cat_col = None
        self.cats = None
        if k.categories is not None:
            self.cat_col = es.index("category")
            vocab = es.columns[self.cat_col].vocab
            self.cats = np.array([vocab.index(c) for c in k.categories], np.int64)
        self.item_col = es.index(k.column)

    def takes(self, state, seat: int) -> np.ndarray:
        """``bool[B]``: game ``b`` of ``state`` holds, among its buffered event rows, a take of the item by
        ``seat``."""
        k = int(n.max()) if (n := state.event_n).size else 0
        buf = state.event_buf[:, :k]  # rows past a game's count are zero or stale: masked below
        hit = (np.arange(k)[None, :] < n[:, None]) & (buf[:, :, E_SEAT] == seat) & (buf[:, :, self.item_col] == self.index)
        hit &= _any_of(buf[:, :, E_KIND], self.kinds)
        if self.cat_col is not None and self.cats is not None:  # set together
            hit &= _any_of(buf[:, :, self.cat_col], self.cats)
        return hit.any(axis=1)

    def forbidden(self, game, state, idx: np.ndarray, seat: int, mask: np.ndarray) -> np.ndarray:
        """``bool[n, A]``: the legal actions of games ``idx`` (``mask`` ``bool[n, A]``, seat ``seat`` to act)
        that take the item for ``seat``: their application logs the take, or (one decision deeper) the seat
        decides again right after and every legal action it then has logs the take (a choice that commits
        to the item, such as keeping an Observation tile that the next decision lays in the Window). The
        real state is not changed."""
        out = np.zeros(mask.shape, np.bool_)
        if not len(idx):
            return out
        sub = state.take(idx, fresh_logs=True)
        for a in np.flatnonzero(mask.any(axis=0)):
            rows = np.flatnonzero(mask[:, a])
            trial = sub.take(rows, fresh_logs=True)
            game.step(trial, np.full(rows.size, a, np.int64), mask[rows])
            took = self.takes(trial, seat)
            again = ~took & ~game.done(trial) & (game.to_act(trial) == seat)
            if again.any():
                at = np.flatnonzero(again)
                took[at] = self._every_action_takes(game, trial.take(at, fresh_logs=True), seat)
            out[rows[took], a] = True
        return out

    def _every_action_takes(self, game, state, seat: int) -> np.ndarray:
        """``bool[B]``: every legal action of ``seat`` (to act in each game of ``state``) logs its take of the
        item. One action per game is tried first, and the others only where it took (so a decision with a
        way around the item costs one trial step)."""
        mask = game.legal_action_mask(state)
        first = np.argmax(mask, axis=1)
        trial = state.take(np.arange(state.batch_size), fresh_logs=True)
        game.step(trial, first, mask)
        all_take = self.takes(trial, seat)
        if all_take.any():
            at = np.flatnonzero(all_take)
            rest = mask[at].copy()
            rest[np.arange(at.size), first[at]] = False
            for a in np.flatnonzero(rest.any(axis=0)):
                r = at[rest[:, a]]
                t = state.take(r, fresh_logs=True)
                game.step(t, np.full(r.size, a, np.int64), mask[r])
                all_take[r] &= self.takes(t, seat)
        return all_take


class DeniedStrategy:
    """``inner`` with the item of ``denial`` removed from its legal mask in the games ``games`` (``bool[B]``
    of the batch: where this seat is the denied one); everything else is ``inner``'s (its ``id`` too, so the
    games table names the strategy as played). Not a compiled plan: the seat decides on the Python loop."""

    def __init__(self, inner, denial: Denial, seat: int, games: np.ndarray):
        self.inner, self.denial, self.seat = inner, denial, int(seat)
        self.games = np.asarray(games, np.bool_)
        self.name, self.args = inner.name, getattr(inner, "args", {})

    @property
    def id(self) -> str:
        return self.inner.id

    def act(self, view, legal_mask: np.ndarray, rng) -> np.ndarray:
        idx = np.asarray(view.idx, np.int64)
        here = self.games[idx]
        mask = legal_mask
        if here.any():
            rows = np.flatnonzero(here)
            bad = self.denial.forbidden(view.game, view.state, idx[rows], self.seat, legal_mask[rows])
            keep = legal_mask[rows] & ~bad
            keep = np.where(keep.any(axis=1)[:, None], keep, legal_mask[rows])  # a forced take: unchanged
            mask = legal_mask.copy()
            mask[rows] = keep
        return self.inner.act(view, mask, rng)


__all__ = ["Denial", "DeniedStrategy", "denied_position"]
