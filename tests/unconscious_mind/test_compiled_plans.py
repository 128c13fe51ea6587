"""Unconscious Mind's scripted plans as compiled plans: the play module is the template's, every plan
plays the same games inside the compiled play kernel and on the Python loop, beside Python seats too, and the
engine's features and action scores equal the Python helpers the former priority lists used."""

from pathlib import Path

import numpy as np
import pytest

from meeplelab.play.batch import play_batch
from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.actions import CH_COLOUR_RING, CH_COLUMN, CH_PLACE_ROW, NUM_ACTIONS
from tests.random_play import random_plies
from meeplelab.strategies import unconscious_mind as U
from meeplelab.strategies.base import View
from meeplelab.strategies.plans import CompiledPlan
from meeplelab.strategies.registry import make_strategy

from .util import game

G = "unconscious-mind"
PLANS = ("coffee-engine", "publisher", "citer", "curer", "city-walker", "never-cite")


def _same(a, b):
    assert a.games.equals(b.games) and a.turns.equals(b.turns) and a.events.equals(b.events)


def test_the_play_module_names_the_engine_action_scores():
    import meeplelab.sim.unconscious_mind.play as mod

    from meeplelab.sim.unconscious_mind.rules.decisions import TABLE

    # play counts references only while the rule handlers allocate (the decision table says which)
    deco = "njit(cache=True)(play)" if TABLE.allocates else "njit(cache=True, _nrt=False)(play)"
    assert f"    return {deco}\n" in Path(mod.__file__).read_text()  # the three play loops (_play_kernel)
    assert mod.SCORES == ("row_fill", "col_fill", "ring_colour", "cite_match", "no_cite")


@pytest.mark.parametrize("name", PLANS)
def test_each_plan_plays_the_same_games_compiled_and_on_the_python_loop(name):
    gm = game()
    seats = [make_strategy(G, n) for n in (name, "publisher", name)]
    assert all(isinstance(s, CompiledPlan) for s in seats)
    a = play_batch(gm, seats, np.arange(3), 17)
    b = play_batch(gm, seats, np.arange(3), 17, compiled=False)
    _same(a, b)
    assert a.events.num_rows > 500


def test_compiled_plans_beside_python_seats():
    gm = game()
    from meeplelab.play.batch import uses_compiled_play

    seats = [make_strategy(G, n) for n in ("coffee-engine", "random", "heuristic:finish=0")]
    assert uses_compiled_play(gm, seats)  # seats 0 and 2 (a compiled heuristic) in the kernel, seat 1 called back
    a = play_batch(gm, seats, np.arange(2), 8)
    b = play_batch(gm, seats, np.arange(2), 8, compiled=False)
    _same(a, b)
    assert gm.done(a.state).all()


def _mid_game(P=3, B=48, plies=200, seed=6):
    gm = game()
    s = gm.init(np.arange(B), seed, P)
    random_plies(gm, s, seed, 9, plies)
    return gm, s


def test_features_and_action_scores_equal_the_python_helpers():
    from meeplelab.sim.unconscious_mind import features as F

    gm, s = _mid_game()
    S, C, prm = gm.kernel_context(s)
    legal = gm.legal_action_mask(s)
    fv, sc = np.zeros(len(F.FEATURES), np.int64), np.zeros(NUM_ACTIONS, np.int64)
    seen = set()
    live = np.flatnonzero(~gm.done(s))
    assert live.size > 30
    for g in live:
        p = int(s.to_act[g])
        v = View(gm, s, np.array([g]), p)
        F.features(S, C, prm, g, p, fv)
        assert fv.tolist() == [U.hand_cards(v)[0], U.inplay_cards(v)[0], U.ideas_on_table(v)[0],
                               s.coffee[g, p], s.dial_c[g, p].sum(), int(U.others_citable(v)[0]), s.rnd[g]]
        assert F.pending(S, g) == s.stk[g, s.sp[g] - 1, 0]
        F.action_scores(S, C, prm, g, p, F.S_ROW_FILL, sc)
        assert sc[CH_PLACE_ROW:CH_PLACE_ROW + 3].tolist() == U.row_fill(v)[0].tolist() and sc.sum() == U.row_fill(v).sum()
        F.action_scores(S, C, prm, g, p, F.S_COL_FILL, sc)
        assert sc[CH_COLUMN:CH_COLUMN + 3].tolist() == U.col_fill(v)[0].tolist()
        F.action_scores(S, C, prm, g, p, F.S_NO_CITE, sc)
        mask, forced = U.no_cite_mask(v, legal[g:g + 1])
        restricted = legal[g] & (sc > 0)
        assert (mask[0] == (legal[g] if not restricted.any() else restricted)).all()
        seen.add(int(F.pending(S, g)))
        if forced[0]:
            seen.add(-1)
    assert {R.D_TURN} < seen  # several decision kinds met


def test_ring_colour_prefers_an_unneeded_ring_insight_then_the_lowest_level():
    # growth minor pays the client's latent dream alone (needed); freedom major is free: it scores highest
    from meeplelab.sim.unconscious_mind import features as F

    from .util import new

    gm, s = new(P=2, B=1)
    s.dial_w[0, 0, :] = 0
    s.dial_c[0, 0, :] = 0
    s.dial_c[0, 0, [1, 6]] = 1
    s.room_client[0, 0, :] = -1
    d = int(np.flatnonzero((gm.A["dr_cq"] == 0) & (gm.A["dr_cl"] == 0) & (gm.A["dr_kind"] == 0))[0])
    s.room_client[0, 0, 0] = 0
    s.room_latent[0, 0, 0] = d
    s.room_manifest[0, 0, 0] = -1
    S, C, prm = gm.kernel_context(s)
    sc = np.zeros(NUM_ACTIONS, np.int64)
    F.action_scores(S, C, prm, 0, 0, F.S_RING_COLOUR, sc)
    assert sc[CH_COLOUR_RING + 0] == 3 and sc[CH_COLOUR_RING + 5] == 13 - 2  # needed minor 3 - 0; free major 13 - 2
    assert sc[CH_COLOUR_RING + 3] == 13 and sc[CH_COLOUR_RING + 1] == 3 - 1  # freedom minor pays no dream; growth median would
