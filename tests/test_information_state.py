"""A seat decides on what it knows, exactly: two positions equal in the deciding seat's information state give
the same action, for every strategy of both games and several seeds.

The positions are reached by play; each one's twin (built with :class:`meeplelab.sim.core.position.Position`)
differs only in what the deciding seat cannot see (the rules list it in ``sim/<game>/hidden.py``): the order of
the unknown part of every deck (the seat's own included), which unknown cards the other seats hold in hand and
which lie in their decks (the same counts), which hidden card types sit in which hidden slots, the face-down bags,
stacks and supplies, and the game's own chance key. A search strategy re-samples all of that
(``Game.redeterminize``); it must start from a canonical order, so that a sample never follows the real order.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from meeplelab.play.batch import play_batch
from meeplelab.sim.core.position import Position
from meeplelab.sim.core.rng import Streams, strategy_stream, stream_keys
from meeplelab.sim.galileos_truth import GalileosTruth
from meeplelab.sim.galileos_truth.state import Z_DECK, Z_HAND
from meeplelab.sim.unconscious_mind import UnconsciousMind
from meeplelab.sim.unconscious_mind.codes import L_DECK, L_HAND
from meeplelab.strategies.base import StrategyRNG, View
from meeplelab.strategies.registry import make_strategy

GT, UM = "galileos-truth", "unconscious-mind"
PRESETS = Path(__file__).resolve().parents[1] / "docs" / "presets"
#: seeds of the deciding seat's decision streams (the "search seed")
SEEDS = (1, 2, 3)


def _tuned(game: str) -> str:
    return f"heuristic:preset={PRESETS / f'{game}-heuristic-tuned.toml'}"


#: every strategy of each game (``meeplelab strategies GAME``), the searches with their cheaper arguments beside the
#: defaults where the defaults alone would make the test slow
STRATEGIES = {
    GT: ("random", "abjure-at", "never-abjure", "inventor", "observer", "suspicion-averse", "writer", "greedy-vp",
         "heuristic", _tuned(GT), "rollout", "ismcts", "ismcts:top=0"),
    UM: ("random", "citer", "city-walker", "coffee-engine", "curer", "never-cite", "publisher", "greedy-vp",
         "heuristic", _tuned(UM), "rollout", "ismcts", "ismcts:top=0"),
}


def _reached(game, lineup: tuple[str, ...], n_games: int, seed: int, every: int, first: int) -> list:
    """One-game states at decisions reached by play: every ``every``-th decision from decision ``first`` on."""
    snaps = []

    def on_step(state):
        for g in np.flatnonzero(state.over == 0):
            ply = int(state.ply[g])
            if ply >= first and (ply - first) % every == 0:
                snaps.append(state.take(np.array([g]), fresh_logs=True))

    play_batch(game, [make_strategy(game.name, s) for s in lineup], np.arange(n_games), seed, log_turns=False,
               log_events=False, on_step=on_step)
    return snaps


def _shuffled(rng, values) -> list:
    v = list(values)
    rng.shuffle(v)
    return v


def _gt_twin(game, state, rng) -> Position:
    """The same Galileo's Truth position with everything the seat to act cannot see rearranged."""
    pos = Position(game, state.copy())
    me = pos.get("to_act")
    for p in range(state.num_players):
        n_deck = pos.get("deck_n", seat=p)
        deck = pos.get(f"deck_{p}")[:n_deck]
        known, zone = pos.get("known", seat=p), pos.get("czone", seat=p)
        top = n_deck
        while top > 0 and known[deck[top - 1]]:  # known cards on top of a deck stay where they are
            top -= 1
        hand = [] if p == me else [s for s in range(pos.get("nslots", seat=p)) if zone[s] == Z_HAND and not known[s]]
        pool = hand + deck[:top]
        types = pos.get("ctype", seat=p)
        new_types = _shuffled(rng, [types[s] for s in pool])  # which hidden card sits in which hidden slot
        order = _shuffled(rng, pool)                           # which slots are in hand, the deck order
        for s, t in zip(pool, new_types):
            types[s] = t
        for i, s in enumerate(order):
            zone[s] = Z_HAND if i < len(hand) else Z_DECK
        pos.set(seat=p, ctype=types, czone=zone)
        if top:
            pos.put(f"deck_{p}", slice(0, top), order[len(hand):])
    for lv in range(3):
        _shuffle_pile(pos, rng, f"bag_{lv + 1}", 0, pos.get("bag_n")[lv])
    for per in range(3):
        _shuffle_pile(pos, rng, f"inv_deck_{per + 1}", 0, pos.get("inv_deck_n")[per])
    _shuffle_pile(pos, rng, "pen_pile", 0, pos.get("pen_n"))
    pos.state.rng_key[:] ^= np.uint64(0x5DEECE66D)  # the game's own chance stream: the real future
    return pos


def _shuffle_pile(pos: Position, rng, name: str, lo: int, hi: int) -> None:
    if hi - lo > 1:
        pos.put(name, slice(lo, hi), _shuffled(rng, pos.get(name)[lo:hi]))


def _um_twin(game, state, rng) -> Position:
    """The same Unconscious Mind position with everything the seat to act cannot see rearranged."""
    pos = Position(game, state.copy())
    me, P = pos.get("to_act"), state.num_players
    loc, own, known = pos.get("card_loc"), pos.get("card_own"), pos.get("card_known")
    rtop, deck = pos.get("rtop"), pos.get("rdeck")
    hands = [[c for c in range(len(loc)) if loc[c] == L_HAND and own[c] == q and not known[c]] if q != me else []
             for q in range(P)]
    pool = _shuffled(rng, deck[rtop:] + [c for h in hands for c in h])
    k = 0
    for q in range(P):
        for c in pool[k:k + len(hands[q])]:
            loc[c], own[c] = L_HAND, q
        k += len(hands[q])
    for c in pool[k:]:
        loc[c], own[c] = L_DECK, -1
    pos.set(card_loc=loc, card_own=own)
    pos.put("rdeck", slice(rtop, len(deck)), pool[k:])
    ttop = pos.get("ttop")
    sizes = state.sizes
    for lvl, name in enumerate(("tstack_i", "tstack_ii")):
        _shuffle_pile(pos, rng, name, ttop[lvl], int(game.A["tiles_per_level"][lvl]))
    _shuffle_pile(pos, rng, "trdeck", pos.get("trtop"), sizes["treatises"])
    _shuffle_pile(pos, rng, "rdeck_cl", pos.get("rtop_cl"), sizes["routine"])
    _shuffle_pile(pos, rng, "cdeck_cl", pos.get("ctop_cl"), sizes["case"])
    _shuffle_pile(pos, rng, "ldeck", pos.get("ltop"), sizes["latent"])
    _shuffle_pile(pos, rng, "mdeck", pos.get("mtop"), sizes["manifest"])
    pos.state.rng_key[:] ^= np.uint64(0x5DEECE66D)
    return pos


def _batch(states: list):
    out = states[0].take(np.zeros(len(states), np.int64))
    for i, s in enumerate(states):
        out.put(np.array([i]), s)
    return out


def _decide(game, strategy_id: str, state, seed: int) -> np.ndarray:
    """``int64[B]`` the action of ``strategy_id`` at every game of ``state`` (its seat to act deciding), on the
    decision streams of run ``seed`` (keyed by game, seat and decision number, as the runner keys them)."""
    strategy = make_strategy(game.name, strategy_id)
    mask = game.legal_action_mask(state)
    who = game.to_act(state)
    out = np.full(state.batch_size, -1, np.int64)
    for p in np.unique(who):
        idx = np.flatnonzero(who == p)
        keys = stream_keys(seed, state.game_id[idx], strategy_stream(int(p)))
        rng = StrategyRNG.for_decision(keys, state.ply[idx])
        out[idx] = strategy.act(View(game, state, idx, int(p)), mask[idx], rng)
    return out


def _pairs(game, lineups, twin, n_games: int, every: int, first: int) -> list:
    """Per lineup (one player count each): (real positions, twins), two batches in the same order, at positions
    where the seat to act has a choice."""
    rng = np.random.default_rng(40)
    out = []
    for k, lineup in enumerate(lineups):
        real, twins = [], []
        for s in _reached(game, lineup, n_games, 11 + k, every, first):
            if game.legal_action_mask(s)[0].sum() < 2:
                continue
            real.append(s)
            twins.append(twin(game, s, rng).state)
        out.append((_batch(real), _batch(twins)))
    return out


@pytest.fixture(scope="module")
def small_pairs():
    """A few positions of each game, 3 seats (the fast tests)."""
    gt, um = GalileosTruth(), UnconsciousMind()
    return [(gt, _pairs(gt, [("random", "never-abjure", "inventor")], _gt_twin, 1, 9, 6)),
            (um, _pairs(um, [("random", "citer", "city-walker")], _um_twin, 1, 9, 6))]


@pytest.fixture(scope="module")
def gt_pairs():
    game = GalileosTruth()
    return game, _pairs(game, [("writer", "observer"), ("random", "never-abjure", "inventor")], _gt_twin, 4, 9, 6)


@pytest.fixture(scope="module")
def um_pairs():
    game = UnconsciousMind()
    return game, _pairs(game, [("publisher", "curer"), ("random", "citer", "city-walker")], _um_twin, 3, 9, 6)


def _hidden_differs(a, b) -> int:
    """Positions where the twins differ at all (the test must rearrange something)."""
    return sum(not a.take(np.array([g])).equals(b.take(np.array([g]))) for g in range(a.batch_size))


def test_the_twins_differ_only_in_what_the_seat_cannot_see(small_pairs):
    for game, pairs in small_pairs:
        assert sum(real.batch_size for real, _ in pairs) >= 10
        for real, twin in pairs:
            assert _hidden_differs(real, twin) == real.batch_size
            assert (game.to_act(real) == game.to_act(twin)).all()
            assert np.array_equal(game.legal_action_mask(real), game.legal_action_mask(twin))
            assert np.array_equal(game.vp(real), game.vp(twin))


def test_a_redeterminised_copy_depends_only_on_what_the_seat_knows(small_pairs):
    # the same stream on two positions the seat cannot tell apart: the very same sampled world, every field
    for game, pairs in small_pairs:
        for real, twin in pairs:
            k = 3
            copies = []
            for s in (real, twin):
                c = s.take(np.repeat(np.arange(s.batch_size), k), fresh_logs=True)
                keys = stream_keys(5, np.arange(c.batch_size), 1000)
                game.redeterminize(c, np.repeat(game.to_act(s), k).astype(np.int64), Streams(keys))
                copies.append(c)
            differ = [g for g in range(copies[0].batch_size)
                      if not copies[0].take(np.array([g])).equals(copies[1].take(np.array([g])))]
            assert differ == [], (f"{len(differ)} of {copies[0].batch_size} copies differ in "
                                  f"{copies[0].take(np.array(differ[:1])).diff_fields(copies[1].take(np.array(differ[:1])))}")


@pytest.mark.slow
@pytest.mark.parametrize("game_name", [GT, UM])
@pytest.mark.parametrize("seed", SEEDS)
def test_every_strategy_acts_the_same_on_equal_information(game_name, seed, gt_pairs, um_pairs):
    game, pairs = gt_pairs if game_name == GT else um_pairs
    assert sum(real.batch_size for real, _ in pairs) >= 140
    bad = {}
    for sid in STRATEGIES[game_name]:
        for real, twin in pairs:
            a, b = _decide(game, sid, real, seed), _decide(game, sid, twin, seed)
            assert (a >= 0).all()
            if (a != b).any():
                bad[f"{sid} ({real.num_players} seats)"] = f"{int((a != b).sum())} of {a.size}"
    assert bad == {}, bad
