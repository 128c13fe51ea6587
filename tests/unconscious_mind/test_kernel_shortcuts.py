"""Shortcuts the rule kernels take for speed give what the rule read literally gives: goal tiles
checked with the seat's tags counted once per check (A-UM-29, A-UM-32), the turn choice with each Meeting Table
action's feasibility asked once (research UM §2), on many mid-game states of random play."""

from __future__ import annotations

import numpy as np

from meeplelab.sim.unconscious_mind import cols
from meeplelab.sim.unconscious_mind.actions import NUM_ACTIONS, PLACE0
from meeplelab.sim.unconscious_mind.codes import C_GOAL, EV_GOAL, L_INPLAY
from meeplelab.sim.unconscious_mind.content_layout import KBOARD
from meeplelab.sim.unconscious_mind.kcols import GOAL_REP, SPACE_MT
from meeplelab.sim.unconscious_mind.rules.city import check_goals, goal_met, tags_at, tags_by_location
from meeplelab.sim.unconscious_mind.rules.events import ev
from meeplelab.sim.unconscious_mind.rules.meeting_table import can_perform, own_points_at
from meeplelab.sim.unconscious_mind.rules.reputation import gain_rep
from meeplelab.sim.unconscious_mind.rules.turn_flow import legal_turn
from meeplelab.sim.unconscious_mind.state import N_LOCATIONS, WK_TAGS

from tests.random_play import random_plies
from .util import game


def _states(P, B, plies, seed):
    """Random play: a snapshot every 40 plies."""
    gm = game()
    s = gm.init(np.arange(B), seed, P)
    out = random_plies(gm, s, seed, 3, plies, every=40)
    return gm, out


def _check_goals_goal_by_goal(S, C, prm, g, p):
    """check_goals as the rule reads (A-UM-29): every unclaimed goal tile, its condition evaluated on its own."""
    for i in range(S.goal.shape[1]):
        gid = S.goal[g, i, cols.GOAL_ID]
        if gid >= 0 and S.goal[g, i, cols.GOAL_OWNER] < 0 and goal_met(S, C, prm, g, p, gid):
            S.goal[g, i, cols.GOAL_OWNER] = p
            ev(S, C, prm, g, EV_GOAL, p, C_GOAL, C.K[KBOARD, gid, GOAL_REP], -1, gid, 0, 0)
            gain_rep(S, C, prm, g, p, C.K[KBOARD, gid, GOAL_REP], C_GOAL)


def test_tags_counted_once_per_check_are_the_tags_of_each_location():
    gm, states = _states(P=4, B=12, plies=400, seed=21)
    checked = 0
    for s in states:
        S, C, prm = gm.kernel_context(s)
        for g in range(s.batch_size):
            for p in range(s.num_players):
                tags_by_location(S, C, prm, g, p, S.work[WK_TAGS])
                want = [tags_at(S, C, prm, g, p, loc) for loc in range(N_LOCATIONS)]
                assert list(S.work[WK_TAGS, :N_LOCATIONS]) == want
                checked += sum(want) > 0
    assert checked > 50  # seats that do hold tags were compared


def test_goal_check_claims_what_the_goal_by_goal_check_claims():
    gm, states = _states(P=3, B=16, plies=320, seed=8)
    rng = np.random.default_rng(3)
    claims = 0
    for s in states:
        # give seats extra in-play cards so that tag, in-play and chained conditions are met often
        for g in range(s.batch_size):
            deck = np.flatnonzero(s.card_loc[g] == 0)
            for c in rng.choice(deck, size=min(6, deck.size), replace=False):
                s.card_loc[g, c] = L_INPLAY
                s.card_own[g, c] = rng.integers(s.num_players)
        for p in range(s.num_players):
            a, b = s.copy(), s.copy()
            Sa, C, prm = gm.kernel_context(a)
            Sb, _, _ = gm.kernel_context(b)
            for g in range(s.batch_size):
                check_goals(Sa, C, prm, g, p)
                _check_goals_goal_by_goal(Sb, C, prm, g, p)
            assert a.equals(b), a.diff_fields(b)
            claims += int(((a.goal_owner == p) & (s.goal_owner < 0)).sum())
    assert claims > 20  # goals were really claimed


def _legal_turn_space_by_space(S, C, prm, g, p, out):
    """The State Ideas part of the turn choice as the rule reads (research UM §2): every empty space, every
    action it points at that p's Ideas do not point at yet and p can perform."""
    if S.seat[g, p, cols.IDEAS_HAND] <= 0 and S.seat[g, p, cols.BRIGHT] <= 0:
        return
    for sp in range(S.space.shape[1]):
        if S.space[g, sp, cols.SPACE_OWNER] >= 0:
            continue
        for d in range(4):
            act = C.K[KBOARD, sp, SPACE_MT + d]
            if act >= 0 and not own_points_at(S, C, prm, g, p, act) and can_perform(S, C, prm, g, p, act, 1):
                out[PLACE0 + sp * 4 + d] = True


def test_turn_choice_asks_each_action_once_and_offers_what_the_space_by_space_rule_offers():
    gm, states = _states(P=4, B=12, plies=400, seed=5)
    offered = 0
    for s in states:
        S, C, prm = gm.kernel_context(s)
        for g in range(s.batch_size):
            for p in range(s.num_players):
                got = np.zeros(NUM_ACTIONS, np.bool_)
                want = np.zeros(NUM_ACTIONS, np.bool_)
                legal_turn(S, C, prm, g, p, 0, 0, got)
                _legal_turn_space_by_space(S, C, prm, g, p, want)
                place = slice(PLACE0, PLACE0 + S.space.shape[1] * 4)
                assert np.array_equal(got[place], want[place]), (g, p)
                offered += int(want[place].sum())
    assert offered > 500
