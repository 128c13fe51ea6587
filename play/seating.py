"""Seating: which strategy sits in which seat in each game of a run.

A run's strategies are a *roster* (one id per seat, as given). The seating mode decides the seat
orders the games are played in:

- ``rotate`` (the CLI default): balanced rotation on common random numbers. Every distinct seat
  order of the roster when ``games`` allows one game seed per order (4 distinct strategies in 4
  seats: 24 orders), else the distinct cyclic rotations of the roster (a Latin square: each strategy
  in each seat once per square). Every seat order is played on the *same* game seeds
  ``0..m-1`` (common random numbers), so a seat order's games differ from another's only by who
  sits where. ``games`` is the total; it is split as ``orders x m`` with ``m = games // orders``
  (the remainder, fewer than the number of orders, is not played so that every strategy sits in
  every seat equally often; :meth:`SeatingPlan.describe` says so).
- ``random``: each game draws its own seat order (uniform over the distinct orders) from the
  seating stream keyed by (run seed, game index); game seeds are the game indices (no pairing).
- ``fixed``: the roster's order in every game (strategy ``k`` always in seat ``k``); game seed =
  game index. Seat advantage and strategy strength are then confounded, and reports say so.

A single strategy id for every seat is a mirror match: one seat order, so the seat table measures
seat advantage alone.

A *pool* is a roster of more distinct strategies than seats (``--players 2 --strategies a,b,c,d``):
each game seats ``players`` of them. Under ``rotate`` the seat orders are every ordered choice of
``players`` of the pool (12 for 2 of 4, 24 for 3 of 4), all on the same game seeds, so every
strategy sits in every seat equally often and every pair of strategies meets equally often; when
``games`` is fewer than that, the ``N`` cyclic rotations of the pool truncated to the seats (each
strategy in each seat once, but only neighbours in the pool's order meet). ``random`` draws one of the ordered choices per game; ``fixed`` takes no
pool. This is how one field of strategies is played at 2, 3 and 4 seats (the README main job).

Game ``i`` of a rotated run is seed ``i % m`` of order ``i // m`` (order-major), so chunks and
batches never change which game is which: results do not depend on batch size, chunk size, n_jobs
or backend. The games table records ``seat_order`` (index into :attr:`SeatingPlan.orders`) and
``game_seed`` (the key of the game's rule and strategy streams).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.rng import Streams

SEATINGS = ("rotate", "random", "fixed")
#: stream id of the random seating draw (between the strategy streams 1..P and the rollout streams)
SEATING_STREAM = 999


def distinct_orders(keys: tuple[str, ...]) -> list[tuple[int, ...]]:
    """Every distinct seat order of a roster, as roster positions per seat.

    ``keys`` are what makes two roster entries interchangeable (normally the strategy ids: two
    copies of ``random`` swapped are the same seat order). Orders are listed in lexicographic order
    of the position tuples, first occurrence of each distinct key pattern kept.
    """
    seen: dict[tuple[str, ...], tuple[int, ...]] = {}
    for perm in itertools.permutations(range(len(keys))):
        seen.setdefault(tuple(keys[i] for i in perm), perm)
    return list(seen.values())


def latin_square(keys: tuple[str, ...], players: int | None = None) -> list[tuple[int, ...]]:
    """The distinct cyclic rotations of the roster (seat ``j`` of rotation ``k`` holds position
    ``(j + k) % N``, ``N = len(keys)``), truncated to ``players`` seats for a pool (default: every
    position seated): every roster entry sits in every seat equally often."""
    n = len(keys)
    p = n if players is None else players
    seen: dict[tuple[str, ...], tuple[int, ...]] = {}
    for k in range(n):
        perm = tuple((j + k) % n for j in range(p))
        seen.setdefault(tuple(keys[i] for i in perm), perm)
    return list(seen.values())


def pool_orders(n: int, players: int) -> list[tuple[int, ...]]:
    """Every ordered choice of ``players`` distinct positions of a pool of ``n`` (``n!/(n-players)!``
    seat orders, lexicographic), as roster positions per seat."""
    return list(itertools.permutations(range(n), players))


@dataclass(frozen=True)
class SeatingPlan:
    """Seat orders of a run and how its games are split over them.

    Attributes:
        mode: ``rotate``, ``random`` or ``fixed``.
        roster: strategy ids as given, one per seat, or a pool of more (``[N]``, ``N >= P``).
        orders: seat orders, each a tuple of roster positions per seat (``[O][P]``).
        design: ``"every seat order"``, ``"every ordered choice of P of the N strategies"`` (a pool),
            ``"Latin square"``, ``"one seat order"`` or ``"random per game"``.
        seeds_per_order: game seeds shared by every order (rotate/fixed), ``None`` for random.
        games: games played (``orders x seeds_per_order`` for rotate).
        requested: games asked for (``--games``).
    """

    mode: str
    roster: tuple[str, ...]
    orders: tuple[tuple[int, ...], ...]
    design: str
    seeds_per_order: int | None
    games: int
    requested: int
    seed: int = 0

    def strategies(self, order: int) -> tuple[str, ...]:
        """Strategy id per seat in seat order ``order``."""
        return tuple(self.roster[i] for i in self.orders[order])

    def locate(self, game_index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(seat_order, game_seed)``, both ``int64[B]``, of global game indices ``int64[B]``."""
        g = np.asarray(game_index, np.int64)
        if self.mode == "random":
            return random_orders(self.seed, g, len(self.orders)), g.copy()
        assert self.seeds_per_order is not None  # rotate and fixed seating have it
        m = int(self.seeds_per_order)
        return g // m, g % m

    def describe(self) -> str:
        """One line for the terminal and the report: how ``--games`` was split."""
        n = len(self.orders)
        if self.mode == "fixed":
            return f"seating fixed: {self.games:,} games, strategy k always in seat k (seat advantage and strategy " \
                   "strength are confounded)"
        if self.mode == "random":
            return f"seating random: {self.games:,} games, each in a seat order drawn at random from {n:,}"
        if n == 1:
            return f"seating rotate: mirror match (one seat order), {self.games:,} games"
        left = self.requested - self.games
        rest = (f"; {left:,} of the {self.requested:,} requested not played, so every strategy sits in every seat "
                "equally often") if left else ""
        return (f"seating rotate ({self.design}): {n:,} seat orders x {self.seeds_per_order:,} game seeds = "
                f"{self.games:,} games, every seat order on the same seeds{rest}")

    def to_dict(self) -> dict:
        """JSON form stored in the manifest (``seating``)."""
        return {"mode": self.mode, "design": self.design, "orders": [list(o) for o in self.orders],
                "order_strategies": [list(self.strategies(i)) for i in range(len(self.orders))],
                "seeds_per_order": self.seeds_per_order, "games": self.games, "requested": self.requested,
                "description": self.describe()}


def random_orders(seed: int, game_index: np.ndarray, n_orders: int) -> np.ndarray:
    """``int64[B]``: the seat order of each game under ``random`` seating, keyed by (run seed, game
    index, :data:`SEATING_STREAM`) only."""
    g = np.asarray(game_index, np.int64)
    if g.size == 0:
        return np.zeros(0, np.int64)
    st = Streams.for_games(seed, g, SEATING_STREAM)
    return st.integers(np.arange(g.size), n_orders)


def plan_seating(mode: str, roster: tuple[str, ...], games: int, seed: int = 0,
                 keys: tuple[str, ...] | None = None, players: int | None = None) -> SeatingPlan:
    """The seat orders of a run (see the module doc).

    Args:
        mode: ``rotate``, ``random`` or ``fixed``.
        roster: one strategy id per seat, or a pool of more distinct ids than ``players``.
        games: games requested (the total).
        seed: run seed (random seating draws from it).
        keys: what makes roster entries interchangeable (default the ids themselves); experiments
            pass a key that keeps the varied entry distinct, so all variants share the same orders.
        players: seats per game (default ``len(roster)``); fewer than the roster seats a pool.

    Raises:
        ConfigError: an unknown mode, (rotate) fewer games than the rotations need, or a pool under
            ``fixed`` seating, with repeated ids, or smaller than ``players``.
    """
    if mode not in SEATINGS:
        raise ConfigError(f"unknown seating {mode!r}: allowed: {', '.join(SEATINGS)}")
    roster = tuple(roster)
    keys = tuple(keys) if keys is not None else roster
    p = len(roster) if players is None else int(players)
    pool = p < len(roster)
    if p > len(roster) or p < 1:
        raise ConfigError(f"{len(roster)} strategies cannot fill {p} seats: give one per seat")
    if pool and (mode == "fixed" or len(set(keys)) != len(keys)):
        raise ConfigError(f"a pool of {len(roster)} strategies for {p} seats needs --seating rotate or random "
                          "and each strategy listed once")
    if mode == "fixed":
        return SeatingPlan("fixed", roster, (tuple(range(len(roster))),), "one seat order", games, games, games, seed)
    every = pool_orders(len(roster), p) if pool else distinct_orders(keys)
    if mode == "random":
        return SeatingPlan("random", roster, tuple(every), "random per game", None, games, games, seed)
    if len(every) == 1:
        return SeatingPlan("rotate", roster, tuple(every), "one seat order", games, games, games, seed)
    if games >= len(every):
        orders, design = every, (f"every ordered choice of {p} of the {len(roster)} strategies" if pool
                                 else "every seat order")
    else:
        orders, design = latin_square(keys, p), "Latin square"
        if games < len(orders):
            raise ConfigError(f"--games {games} is fewer than the {len(orders)} seat orders a balanced rotation "
                              f"needs: give at least {len(orders)} games, or --seating fixed")
    m = games // len(orders)
    return SeatingPlan("rotate", roster, tuple(orders), design, m, m * len(orders), games, seed)
