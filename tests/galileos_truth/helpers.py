"""Scenario helpers for Galileo's Truth rule tests."""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.content import parse_effect
from meeplelab.sim.galileos_truth import GalileosTruth
from meeplelab.sim.galileos_truth import content as ct
from meeplelab.sim.galileos_truth.state import Z_DECK, Z_DISCARD, Z_HAND, Z_PLAY

B = 4


def new(players: int = 2, seed: int = 3, batch: int = B, params=None):
    game = GalileosTruth(params=params)
    state = game.init(np.arange(batch), seed, players)
    return game, state


def T(game, name: str) -> int:
    """Card type id by content id."""
    return game.content.card_ids.index(name)


def BOARD(game, name: str) -> int:
    return game.content.board_ids.index(name)


def SPACE(game, name: str) -> int:
    return game.content.space_ids.index(name)


def INV(game, name: str) -> int:
    return game.content.inv_ids.index(name)


def set_cards(s, g, p, hand=(), deck=(), discard=(), play=()):
    """Replace seat ``p``'s cards in game ``g`` (deck listed bottom to top): the engine's position builder
    ``cards`` (sim/galileos_truth/position.py)."""
    from meeplelab.sim.galileos_truth.position import cards

    cards(None, s, g, p, hand=[int(t) for t in hand], deck=[int(t) for t in deck], discard=[int(t) for t in discard],
          play=[int(t) for t in play])


def all_cards(s, **kw):
    """``set_cards`` for seat 0 of every game."""
    for g in range(s.batch_size):
        set_cards(s, g, 0, **kw)


def zone_count(s, g, p, zone):
    return int(((s.czone[g, p] == zone) & (np.arange(s.ctype.shape[2]) < s.nslots[g, p])).sum())


def zone_of(s, g, p, t):
    """Zones of seat ``p``'s cards of type ``t``."""
    return [int(s.czone[g, p, c]) for c in range(s.nslots[g, p]) if s.ctype[g, p, c] == t]


def act(game, s, a):
    """Step every unfinished game with action ``a`` (an int for all, or one per game; -1 = leave it)."""
    acts = np.full(s.batch_size, a, np.int64) if np.isscalar(a) else np.asarray(a, np.int64)
    game.step(s, acts, where=acts >= 0)


def effects_now(game, s):
    """Resolve the pending mandatory Effects first in every game where that choice is open (A-GT-25)."""
    from meeplelab.sim.galileos_truth.state import A_EFFECTS
    act(game, s, np.where(legal(game, s, A_EFFECTS), A_EFFECTS, -1))


def legal(game, s, a):
    """``bool[B]``: action ``a`` is legal in each game."""
    return game.legal_action_mask(s)[:, a]


def set_icons(game, iset: int, a=(), b=(), sep: str = "none"):
    """Overwrite icon set ``iset`` of a game's compiled content (tests only)."""
    C = game.C
    C.ISET_SEP[iset] = ct.SEP[sep]
    C.ISET_OP[iset] = 0
    C.ISET_ARG[iset] = 0
    C.ISET_PAY[iset] = False
    for gi, grp in enumerate((a, b)):
        for j, txt in enumerate(grp):
            ic = parse_effect(txt, ct.OPCODES, where="test")
            if ic[0] == "books_pay" or (ic[0] in ("coins", "research") and ic[1] < 0):
                C.ISET_PAY[iset] = True
            C.ISET_OP[iset, gi, j] = ct.OP[ic[0]]
            vals = [ct.SUBJECTS.index(x) if isinstance(x, str) else x for x in ic[1:]]
            C.ISET_ARG[iset, gi, j, :len(vals)] = vals


def card_icons(game, name: str, a=(), b=(), sep="none"):
    set_icons(game, int(game.C.CARD_ISET[T(game, name)]), a, b, sep)


def events(game, s, g, kind=None):
    """Pending event rows of game ``g`` as dicts (kind as its name)."""
    spec = game.event_spec()
    names = [c.name for c in spec.columns]
    out = []
    for r in range(s.event_n[g]):
        row = dict(zip(names, (int(x) for x in s.event_buf[g, r])))
        row["kind"] = game.event_kinds[row["kind"]]
        row["category"] = spec.columns[spec.index("category")].vocab[row["category"]]
        if kind is None or row["kind"] == kind:
            out.append(row)
    return out
