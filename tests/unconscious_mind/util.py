"""Scenario helpers for Unconscious Mind rule tests."""

from __future__ import annotations

import numpy as np

from meeplelab.sim.unconscious_mind import UnconsciousMind
from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.actions import CARD0, CH0, DONE, MODE0, PLACE0  # noqa: F401
from meeplelab.sim.unconscious_mind.content import MT_ACTIONS

_GAME: list = []


def game() -> UnconsciousMind:
    if not _GAME:
        _GAME.append(UnconsciousMind())
    return _GAME[0]


def new(P: int = 2, B: int = 4, seed: int = 7, goals: bool = False):
    """A fresh batch at seat 0's first decision (D_TURN), logs emptied; goal tiles removed unless ``goals``
    (so that a scenario does not claim one by accident)."""
    gm = game()
    s = gm.init(np.arange(B), seed, P)
    if not goals:
        s.goal_id[:] = -1
    s.event_n[:] = 0
    s.turn_n[:] = 0
    return gm, s


def top(s, g: int = 0) -> int:
    return int(s.stk[g, s.sp[g] - 1, 0])


def top_entry(s, g: int = 0) -> tuple:
    return tuple(int(x) for x in s.stk[g, s.sp[g] - 1])


def push(s, kind: int, a: int = 0, b: int = 0, c: int = 0) -> None:
    """Put a pending decision on top of every game's stack (scenario set-up)."""
    for g in range(s.batch_size):
        sp = int(s.sp[g])
        s.stk[g, sp] = (kind, a, b, c)
        s.sp[g] = sp + 1


def step(gm, s, a) -> None:
    acts = np.full(s.batch_size, a, np.int64) if np.isscalar(a) else np.asarray(a, np.int64)
    gm.step(s, acts)


def mt(name: str) -> int:
    return MT_ACTIONS.index(name)


def place_action(gm, action_name: str, skip: int = 0) -> int:
    """The PLACE action id of the ``skip``-th idea space touching ``action_name``."""
    want = mt(action_name)
    sa = gm.A["space_act"]
    for sp in range(sa.shape[0]):
        for d in range(4):
            if sa[sp, d] == want:
                if skip == 0:
                    return PLACE0 + sp * 4 + d
                skip -= 1
    raise AssertionError(action_name)


def events(gm, s, g: int = 0, kind: str | None = None) -> list[dict]:
    spec = gm.event_spec()
    names = [c.name for c in spec.columns]
    out = []
    for row in s.event_buf[g, :s.event_n[g]]:
        d = dict(zip(names, (int(x) for x in row)))
        d["kind"] = R.EVENT_KINDS[d["kind"]]
        d["category"] = R.CATS[d["category"]]
        if kind is None or d["kind"] == kind:
            out.append(d)
    return out


def tile_with(gm, main: str, banner: str) -> int:
    c = gm.content
    for i in range(len(c.tile_ids)):
        if c.effect_text[gm.A["tile_main"][i]] == main and c.effect_text[gm.A["tile_banner"][i]] == banner:
            return i
    raise AssertionError((main, banner))


def cards_of(gm, colour: int, n: int, exclude=()) -> list[int]:
    ids = [c for c in range(len(gm.content.card_ids)) if gm.A["card_col"][c] == colour and c not in exclude]
    return ids[:n]


def give_in_play(s, g, p, cards) -> None:
    for c in cards:
        s.card_loc[g, c] = R.L_INPLAY
        s.card_own[g, c] = p


def mask(gm, s, g: int = 0) -> np.ndarray:
    return gm.legal_action_mask(s)[g]
