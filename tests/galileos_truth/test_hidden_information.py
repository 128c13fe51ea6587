"""Galileo's Truth chance events keyed by what they are, and honest search copies.

- A seat's reshuffles do not move when another seat changes strategy (chance keyed by seat and zone).
- A search copy never replays the real future: after re-sampling, its chance events come from the
  searching seat's stream; the face-down Penance supply is re-sampled too.
- A copy keeps what the player knows: a card put on top of a deck stays on top, a card taken from a
  Treatise Board into a hand stays in that hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplelab.sim.core.rng import Streams
from meeplelab.sim.galileos_truth import GalileosTruth
from meeplelab.sim.galileos_truth.state import P_PLACE, Z_DECK, Z_DISCARD, Z_HAND, Z_PLAY
from meeplelab.play.batch import play_batch
from meeplelab.strategies.registry import make_strategy

G = "galileos-truth"


@pytest.fixture(scope="module")
def game():
    return GalileosTruth()


def _stack(states):
    """One batch holding the one-game states ``states`` (in order)."""
    out = states[0].take(np.zeros(len(states), np.int64))
    for i, s in enumerate(states):
        out.put(np.array([i]), s)
    return out


def _streams(n, salt):
    return Streams((np.arange(n, dtype=np.uint64) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(salt))


# ---------------------------------------------------------------- item 2: chance keyed by seat and zone

def _first_reshuffles(game, lineup, n, seed, seat=1):
    """Per game: (reshuffled slots, bottom of the new deck) at ``seat``'s first reshuffle.

    The reshuffled slots are inferred from the state before the step (the discard pile, plus the hand and
    play area when the step ended the Cycle); ``None`` where that is ambiguous."""
    prev = {}
    out = {}

    def on_step(state):
        for g in range(state.batch_size):
            gid = int(state.game_id[g])
            if gid in out:
                continue
            used = np.arange(state.ctype.shape[2]) < state.nslots[g, seat]
            zone = state.czone[g, seat]
            if gid in prev:
                z0 = prev[gid]
                moved = used & (z0 != Z_DECK) & (zone == Z_DECK)
                if moved.sum() >= 2:  # a reshuffle (a card put on top of the deck moves one)
                    deck = state.deck[g, seat, :state.deck_n[g, seat]].tolist()
                    cands = [np.flatnonzero(used & (z0 == Z_DISCARD)),
                             np.flatnonzero(used & ((z0 == Z_DISCARD) | (z0 == Z_HAND) | (z0 == Z_PLAY)))]
                    fits = [c for c in cands if set(deck) <= set(c.tolist())
                            and all(zone[s] in (Z_DECK, Z_HAND) for s in c)]
                    out[gid] = None if len(fits) != 1 else (tuple(fits[0].tolist()),
                                                             tuple(int(np.searchsorted(fits[0], s)) for s in deck))
            prev[gid] = zone.copy()

    play_batch(game, [make_strategy(G, s) for s in lineup], np.arange(n), seed, log_turns=False, log_events=False,
               on_step=on_step)
    return out


def test_seat_1_reshuffles_the_same_way_whatever_seat_0_plays(game):
    a = _first_reshuffles(game, ("writer", "never-abjure"), 48, 5)
    b = _first_reshuffles(game, ("observer", "never-abjure"), 48, 5)
    same_pile = [g for g in a if a[g] and b.get(g) and a[g][0] == b[g][0] and len(a[g][1]) >= 2]
    assert len(same_pile) >= 10, len(same_pile)
    # the same reshuffled cards in both lineups: the same new deck order (it depends on seat 1's own deck
    # and reshuffle number only, not on how many chance events seat 0 caused before)
    differ = [g for g in same_pile if a[g][1] != b[g][1]]
    assert differ == [], f"{len(differ)} of {len(same_pile)} games"


# ---------------------------------------------------------------- item 3: copies never replay the real future

def test_search_copies_never_reproduce_the_real_reshuffle(game):
    base = game.init(np.arange(96), 12, 1)  # one seat: the copies follow the real game's actions longest
    k = 8
    real = base.repeat(k)
    copy = base.repeat(k)
    game.redeterminize(copy, np.zeros(copy.batch_size, np.int64), _streams(copy.batch_size, 77))
    n = real.batch_size
    pick = Streams(np.repeat(_streams(base.batch_size, 5).keys, k))  # the same actions for a game and its copies
    alive = np.ones(n, bool)      # the copy took every action the real game took
    result = np.full(n, -1)       # 1: the copy's new deck equals the real one, 0: differs
    for _ in range(400):
        todo = alive & (result < 0) & (real.over == 0)
        if not todo.any():
            break
        mr, mc = game.legal_action_mask(real), game.legal_action_mask(copy)
        idx = np.flatnonzero(todo)
        a = np.full(n, -1, np.int64)
        a[idx] = pick.choose_legal(idx, mr[idx])
        ok = todo.copy()
        ok[idx] &= mc[idx, a[idx]]
        alive &= ~(todo & ~ok)
        z0 = real.czone[:, 0].copy()
        game.step(real, a, mr, where=ok)
        game.step(copy, a, mc, where=ok)
        for s in (real, copy):
            s.turn_n[:] = 0
            s.event_n[:] = 0
        done = ok & (((z0 != Z_DECK) & (real.czone[:, 0] == Z_DECK)).sum(1) >= 2) & (real.deck_n[:, 0] >= 3)
        for g in np.flatnonzero(done):
            same = (real.deck_n[g, 0] == copy.deck_n[g, 0]
                    and np.array_equal(real.deck[g, 0, :real.deck_n[g, 0]], copy.deck[g, 0, :copy.deck_n[g, 0]]))
            result[g] = int(same)
    reached = result >= 0
    assert reached.sum() >= 200, reached.sum()
    # the issue measured 291 of 512 copies ending with exactly the real post-reshuffle order; by chance
    # alone a copy matches the 3 cards left of a 5-card reshuffle with probability 1/60
    assert result[reached].sum() <= 0.05 * reached.sum(), (int(result[reached].sum()), int(reached.sum()))


def _mid_game(game, n=32, seed=6, plies=150, players=3):
    s = game.init(np.arange(n), seed, players)
    rng = Streams.for_games(seed, s.game_id, 1)
    for _ in range(plies):
        m = game.legal_action_mask(s)
        live = np.flatnonzero(s.over == 0)
        a = np.full(n, -1, np.int64)
        a[live] = rng.choose_legal(live, m[live])
        game.step(s, a, m)
        s.turn_n[:] = 0
        s.event_n[:] = 0
    return s


def test_search_copies_resample_the_penance_supply_and_take_a_new_chance_key(game):
    s = _mid_game(game)
    k = 16
    c = s.repeat(k)
    game.redeterminize(c, np.repeat(s.to_act.astype(np.int64), k), _streams(c.batch_size, 3))
    real = s.repeat(k)
    same = 0
    for g in range(c.batch_size):
        n = real.pen_n[g]
        assert n >= 3
        assert sorted(c.pen_pile[g, :n]) == sorted(real.pen_pile[g, :n])
        same += np.array_equal(c.pen_pile[g, :n], real.pen_pile[g, :n])
    assert same <= 0.02 * c.batch_size, same  # the issue: 795 of 795 copies kept the real order
    assert not np.isin(c.rng_key, real.rng_key).any()  # no copy keeps the game's own chance key
    assert len(set(c.rng_key.tolist())) == c.batch_size


# ---------------------------------------------------------------- item 4: keep what the player knows

def _capture(game, lineup, n, seed, pick):
    """States (one game each) right after a step where ``pick(state, g) -> seat or -1`` fires."""
    snaps = []

    def on_step(state):
        for g in range(state.batch_size):
            p = pick(state, g)
            if p >= 0 and len(snaps) < 400:
                snaps.append((state.take(np.array([g]), fresh_logs=True), p))

    play_batch(game, [make_strategy(G, x) for x in lineup], np.arange(n), seed, log_turns=False, log_events=False,
               on_step=on_step)
    return _stack([s for s, _ in snaps]), np.array([p for _, p in snaps])


def test_a_card_put_on_top_of_a_deck_stays_on_top_in_every_copy(game):
    last = {}

    def just_put_on_top(state, g):  # the newest card of a seat went onto its deck in this step
        for p in range(state.num_players):
            deck = tuple(state.deck[g, p, :state.deck_n[g, p]].tolist())
            key = (int(state.game_id[g]), p)
            prev = last.get(key)
            last[key] = deck
            # the deck is the one before plus the seat's newest card on top
            if prev is not None and len(deck) >= 3 and deck[:-1] == prev and deck[-1] == state.nslots[g, p] - 1:
                return p
        return -1

    s, owner = _capture(game, ("writer", "writer"), 24, 9, just_put_on_top)
    assert s.batch_size >= 20, s.batch_size
    k = 16
    for searcher in ("owner", "other"):
        seat = owner if searcher == "owner" else 1 - owner
        c = s.repeat(k)
        game.redeterminize(c, np.repeat(seat, k), _streams(c.batch_size, 11))
        b = np.arange(c.batch_size)
        p = np.repeat(owner, k)
        top_real = np.repeat(s.deck[np.arange(s.batch_size), owner, s.deck_n[np.arange(s.batch_size), owner] - 1], k)
        top_copy = c.deck[b, p, c.deck_n[b, p] - 1]
        assert (top_copy == top_real).all(), f"{searcher}: {(top_copy == top_real).mean():.0%} kept"  # issue: 22%
        below = [not np.array_equal(c.deck[g, p[g], :c.deck_n[g, p[g]] - 1],
                                    np.repeat(s.deck, k, axis=0)[g, p[g], :c.deck_n[g, p[g]] - 1])
                 for g in range(c.batch_size)]
        assert np.mean(below) > 0.5  # the unknown cards under it are still re-sampled


def test_a_card_taken_into_a_hand_stays_in_that_hand_for_other_seats(game):
    last = {}

    def just_taken_into_hand(state, g):  # the seat just chose to keep the card it took in its hand
        gid = int(state.game_id[g])
        prev = last.get(gid)
        p = int(state.to_act[g])
        last[gid] = (int(state.phase[g]), p, int(state.nslots[g, p]))
        if prev is None or prev[0] != P_PLACE:
            return -1
        q, slot = prev[1], prev[2] - 1
        return q if state.nslots[g, q] == prev[2] and state.czone[g, q, slot] == Z_HAND else -1

    s, owner = _capture(game, ("random", "random"), 48, 4, just_taken_into_hand)
    assert s.batch_size >= 5, s.batch_size
    k = 32
    c = s.repeat(k)
    game.redeterminize(c, np.repeat(1 - owner, k), _streams(c.batch_size, 19))
    p = np.repeat(owner, k)
    slot = np.repeat(s.nslots[np.arange(s.batch_size), owner] - 1, k)
    kept = c.czone[np.arange(c.batch_size), p, slot] == Z_HAND
    assert kept.all(), f"{kept.mean():.0%} of the copies keep it in the hand"
