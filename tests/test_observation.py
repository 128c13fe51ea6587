"""A seat's observation (sim/core/observation.py, each game's ``OBSERVATION`` in its spec and ``conceal`` hook): what the
seat can know, nothing more.

"Nothing more": a position re-sampled for the seat (``Game.redeterminize``: every card it cannot see moved, every
deck re-ordered, the chance key replaced) has the same observation for it, at positions reached by play at 2 and 4
seats. "What it can know": the re-sampled world shows the other seats what changed (their own hands), every field
the game does not conceal is the state's own value, and the seat's own hand is shown as it is.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplelab.sim.core.observation import HIDDEN, Observer, observer_spec, sort_hidden_order
from meeplelab.sim.core.rng import Streams
from meeplelab.sim.galileos_truth.state import Z_HAND
from meeplelab.sim.registry import get_spec, make_game
from meeplelab.sim.unconscious_mind.codes import L_HAND

GAMES = ("galileos-truth", "unconscious-mind")
#: the fields each game's hook or order ranges may change; every other field is the state's own value
CONCEALED = {
    "galileos-truth": {"ctype", "czone", "deck_0", "deck_1", "deck_2", "deck_3", "bag_1", "bag_2", "bag_3",
                       "inv_deck_1", "inv_deck_2", "inv_deck_3", "pen_pile"},
    "unconscious-mind": {"card_loc", "card_own", "rdeck", "tstack_i", "tstack_ii", "trdeck", "rdeck_cl", "cdeck_cl",
                         "ldeck", "mdeck"},
}


def positions(engine, players: int, seed: int, every: int):
    """``(state, ply)`` copies of one game of random play, every ``every``-th decision."""
    state = engine.init(np.arange(1), seed, players)
    streams = Streams.for_games(seed, state.game_id, 1)
    out = []
    while not engine.done(state)[0]:
        if int(state.ply[0]) % every == 0:
            out.append(state.copy())
        mask = engine.legal_action_mask(state)
        engine.step(state, streams.choose_legal(np.arange(1), mask), mask)
        state.turn_n[:] = 0
        state.event_n[:] = 0
    return out


def resampled(engine, state, seat: int, key: int):
    """A copy of ``state`` re-sampled for ``seat`` from stream ``key``."""
    c = state.copy()
    engine.redeterminize(c, np.array([seat]), Streams(np.array([key], np.uint64)))
    return c


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module", params=[(g, p) for g in GAMES for p in (2, 4)], ids=lambda x: f"{x[0]}-{x[1]}p")
def played(request):
    name, players = request.param
    engine = make_game(name)
    obs = Observer(engine, players, observer_spec(get_spec(name)))
    return name, engine, obs, positions(engine, players, seed=3, every=9)


def test_a_resampled_world_looks_the_same_to_the_seat_it_was_sampled_for(played):
    name, engine, obs, states = played
    moved = 0
    for i, st in enumerate(states):
        for seat in range(obs.num_players):
            mine = obs.fields(st, 0, seat)
            world = resampled(engine, st, seat, 1000 + i)
            assert same(obs.fields(world, 0, seat), mine), (name, int(st.ply[0]), seat)
            moved += not world.equals(st)
            # the public view (no seat) is a coarsening of every seat's: it too cannot tell the worlds apart
            assert same(obs.fields(world, 0, -1), obs.fields(st, 0, -1))
    assert moved > len(states)  # the worlds really differ from the real position


def test_what_the_seat_is_not_shown_changes_in_the_worlds_and_the_other_seats_see_it(played):
    # a world re-sampled for seat 0 moves another seat's unknown hand cards: that seat's own view shows the change
    name, engine, obs, states = played
    seen = 0
    for i, st in enumerate(states[1:], 1):
        world = resampled(engine, st, 0, 2000 + i)
        for q in range(1, obs.num_players):
            seen += not same(obs.fields(world, 0, q), obs.fields(st, 0, q))
    assert seen >= len(states) // 2


def test_every_field_not_concealed_is_the_states_own_value_and_the_own_hand_is_shown(played):
    name, engine, obs, states = played
    layout = type(states[0]).LAYOUT
    st = states[len(states) // 2]
    for seat in range(obs.num_players):
        f = obs.fields(st, 0, seat)
        for grp in layout.groups:
            for item in grp.fields or grp.piles:
                if item.name in CONCEALED[name]:
                    continue
                raw = np.asarray(layout.view(st, item.name, st.sizes))[0]
                assert np.array_equal(f[item.name], raw.astype(np.int64)), (item.name, seat)
        if name == "galileos-truth":
            hand = st.czone[0, seat] == Z_HAND
            assert np.array_equal(f["czone"][seat] == Z_HAND, hand)  # the own hand, slot by slot
            assert np.array_equal(np.sort(f["ctype"][seat][hand]), np.sort(st.ctype[0, seat][hand]))
        else:
            mine = (st.card_loc[0] == L_HAND) & (st.card_own[0] == seat)
            assert np.array_equal((f["card_loc"] == L_HAND) & (f["card_own"] == seat), mine)
        assert f["observer"].tolist() == [int(p == seat) for p in range(obs.num_players)]
        assert f["hidden_hand"][seat] == 0 and (f["hidden_hand"] >= 0).all()
    assert "game_id" not in obs.names and "rng_key" not in obs.names and "rng_ctr" not in obs.names


def test_another_seats_unknown_hand_is_hidden_and_counted(played):
    name, engine, obs, states = played
    st = states[-1]
    f = obs.fields(st, 0, 0)
    for q in range(1, obs.num_players):
        if name == "galileos-truth":
            unknown = (st.czone[0, q] == Z_HAND) & ~np.asarray(st.known[0, q])
            assert (f["czone"][q][unknown] == HIDDEN).all()
        else:
            unknown = (st.card_loc[0] == L_HAND) & (st.card_own[0] == q) & ~np.asarray(st.card_known[0])
            assert (f["card_own"][unknown] == HIDDEN).all() and (f["card_loc"][unknown] == HIDDEN).all()
        assert f["hidden_hand"][q] == int(unknown.sum())


def test_the_tensor_text_and_views_encode_the_same_fields(played):
    name, engine, obs, states = played
    f = obs.fields(states[-1], 0, 1)
    t = Observer.tensor(f)
    assert t.dtype == np.float32 and t.shape == (obs.size,)
    back = obs.views(t)
    assert list(back) == list(obs.names) and same({k: v.astype(np.int64) for k, v in back.items()}, f)
    lines = Observer.text(f).splitlines()
    assert [ln.split(":")[0] for ln in lines] == list(obs.names)
    assert lines[0] == "observer: [0, 1" + ", 0" * (obs.num_players - 2) + "]"
    assert obs.info_size == obs.size + obs.num_players * engine.num_actions


def test_an_order_range_is_sorted_with_the_empties_last():
    a = np.array([9, 4, -1, 7, 2, -1, 5])
    sort_hidden_order(a, 1, 6)
    assert a.tolist() == [9, 2, 4, 7, -1, -1, 5]
