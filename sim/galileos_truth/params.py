"""Every rule number of Galileo's Truth as a documented, sweepable field.

Sources: ``seed 001 §Section`` for the exact rules excerpt, ``A-GT-nn`` for assumptions recorded in
``docs/rules/galileos_truth.md``; a value only partly from the seed takes its assumption ID (the
doc names the seed part). :meth:`Params.check` refuses values that contradict each other.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


from meeplelab.sim.core import ConfigError, param

S = "seed 001"
#: first-player rules (A-GT-31), coded in the kernels' parameter vector by their position here
FIRST_PLAYER_RULES = ("rotate", "first-to-pass", "fewest-vp", "fixed")
#: printing-house rules (A-GT-16): applied to the content's ``SPACE_EXCL`` by the engine, not in the vector
PRINTING_HOUSE_RULES = ("exclusive", "shared")


@dataclass(frozen=True)
class Params:
    # ---- structure (A-GT-01..03)
    cycles: int = param(5, unit="Cycles", source="A-GT-01", doc="Cycles in a game (seed: Period III is Cycle 5).", lo=1, hi=8)
    period2_first_cycle: int = param(3, unit="Cycle", source="A-GT-01", doc="First Cycle of Period II.", lo=1, hi=8)
    period3_first_cycle: int = param(5, unit="Cycle", source=f"{S} §Abjure", doc="First Cycle of Period III (no Abjure from here on).", lo=1, hi=8)
    hand_size: int = param(5, unit="cards", source="A-GT-04", doc="Cards drawn at the start of each Cycle (hand refill).", lo=1, hi=10)
    # ---- start (A-GT-05)
    start_coins: int = param(2, unit="Coins", source="A-GT-05", doc="Coins at setup.", lo=0, hi=20)
    start_research: int = param(2, unit="Research", source="A-GT-05", doc="Research tokens at setup.", lo=0, hi=20)
    start_suspicion: int = param(2, unit="Suspicion", source="A-GT-05", doc="Suspicion at setup.", lo=0, hi=12)
    start_books: int = param(0, unit="Books", source="A-GT-05", doc="Books per Subject at setup.", lo=0, hi=9)
    # ---- seat compensation (A-GT-34: none in the seed; `meeplelab compensate` proposes values, docs/balance.md)
    seat_vp_2p: tuple = param((0, 0), unit="VP", source="A-GT-34", doc="Extra VP at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-30, hi=30)
    seat_vp_3p: tuple = param((0, 0, 0), unit="VP", source="A-GT-34", doc="Extra VP at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-30, hi=30)
    seat_vp_4p: tuple = param((0, 0, 0, 0), unit="VP", source="A-GT-34", doc="Extra VP at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-30, hi=30)
    seat_coins_2p: tuple = param((0, 0), unit="Coins", source="A-GT-34", doc="Extra Coins at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-20, hi=30)
    seat_coins_3p: tuple = param((0, 0, 0), unit="Coins", source="A-GT-34", doc="Extra Coins at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-20, hi=30)
    seat_coins_4p: tuple = param((0, 0, 0, 0), unit="Coins", source="A-GT-34", doc="Extra Coins at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-20, hi=30)
    seat_research_2p: tuple = param((0, 0), unit="Research", source="A-GT-34", doc="Extra Research tokens at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-20, hi=30)
    seat_research_3p: tuple = param((0, 0, 0), unit="Research", source="A-GT-34", doc="Extra Research tokens at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-20, hi=30)
    seat_research_4p: tuple = param((0, 0, 0, 0), unit="Research", source="A-GT-34", doc="Extra Research tokens at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for every seat: none, as the seed).", lo=-20, hi=30)
    # ---- income (A-GT-06)
    income_coins_by_level: tuple = param((1, 2, 3), unit="Coins", source="A-GT-06", doc="Income Coins by Physics Book-track Level I/II/III.", lo=0, hi=10)
    income_research_by_level: tuple = param((1, 2, 3), unit="Research", source="A-GT-06", doc="Income Research by Mathematics Book-track Level I/II/III.", lo=0, hi=10)
    # ---- Book tracks (A-GT-07)
    book_level_starts: tuple = param((0, 5, 10), unit="Books", source="A-GT-07", doc="First space of Book-track Levels I, II, III.", lo=0, hi=30)
    book_track_max: int = param(15, unit="Books", source="A-GT-07", doc="Last space of a Book track (gains beyond are lost).", lo=1, hi=40)
    # ---- Abjure (seed)
    abjure_suspicion_drop: int = param(5, unit="Suspicion", source=f"{S} §Abjure", doc="Suspicion the abjuring player loses.", lo=0, hi=12)
    abjure_other_rise: int = param(1, unit="Suspicion", source=f"{S} §Abjure", doc="Suspicion every other Copernican gains when someone abjures.", lo=0, hi=12)
    # ---- Suspicion (A-GT-11, A-GT-12)
    suspicion_max: int = param(12, unit="Suspicion", source="A-GT-11", doc="Top of the Suspicion track (values are clamped to 0..max).", lo=1, hi=30)
    prison_at: int = param(8, unit="Suspicion", source="A-GT-11", doc="Reaching this Suspicion sends the Philosopher to Prison.", lo=1, hi=30)
    stake_at: int = param(12, unit="Suspicion", source="A-GT-11", doc="Reaching this Suspicion sends the Philosopher to the Stake (lost for the game).", lo=1, hi=30)
    inquisition_flip_cycle: int = param(3, unit="Cycle", source="A-GT-12", doc="Start of this Cycle the Inquisition token turns face up.", lo=1, hi=9)
    penance_threshold: int = param(6, unit="Suspicion", source="A-GT-15", doc="At End of Cycle each Copernican with at least this Suspicion gains a Penance card.", lo=0, hi=30)
    penance_suspicion_drop: int = param(1, unit="Suspicion", source=f"{S} §Play a Penance Card", doc="Suspicion lost playing Penance while the Inquisition token is face down.", lo=0, hi=5)
    # ---- Levels (A-GT-13; the first value of each is seed)
    level_space_vp_2: tuple = param((4, 2, 1, 0), unit="VP", source="A-GT-13", doc="VP under the Level II seal spaces, leftmost first (seed 001 §Upgrade: the first value).", lo=-10, hi=30)
    level_space_vp_3: tuple = param((6, 3, 2, 1), unit="VP", source="A-GT-13", doc="VP under the Level III seal spaces, leftmost first (seed 001 §Upgrade: the first value).", lo=-10, hi=30)
    level_space_vp_4: tuple = param((8, 4, 3, 2), unit="VP", source="A-GT-13", doc="VP under the Level IV seal spaces, leftmost first (seed 001 §Upgrade: the first value).", lo=-10, hi=30)
    vp_per_level_gained: int = param(2, unit="VP", source=f"{S} §Effects", doc="VP per Level gained for the 'x Level' VP icon.", lo=0, hi=10)
    # ---- Mentors and seals (A-GT-14)
    mentors: int = param(3, unit="Mentors", source="A-GT-14", doc="Mentors per player.", lo=1, hi=6)
    seals_per_mentor: int = param(4, unit="seals", source="A-GT-14", doc="Wax Seals on each Mentor at setup.", lo=1, hi=10)
    seal_beside_vp: int = param(1, unit="VP", source="A-GT-14", doc="End VP per Wax Seal put beside your board by the Mentor-seal icon.", lo=0, hi=5)
    # ---- Workshop (A-GT-17)
    workshop_slot_coins: tuple = param((3, 2, 1, 0), unit="Coins", source="A-GT-17", doc="Coins printed beside Workshop slots, top slot first.", lo=0, hi=10)
    # ---- Observe (seed + A-GT-18)
    observe_draw: int = param(2, unit="tiles", source=f"{S} §Observe the Sky", doc="Tiles drawn (keep 1) when the bag holds enough.", lo=1, hi=2)
    observe_bonus_vp: int = param(2, unit="VP", source=f"{S} §Observe the Sky", doc="Bonus VP for an Observation.", lo=0, hi=10)
    observe_bonus_coins: int = param(1, unit="Coins", source=f"{S} §Observe the Sky", doc="Bonus Coins for an Observation.", lo=0, hi=10)
    # ---- Read/Write (seed)
    write_research_bottom: int = param(3, unit="Research", source=f"{S} §Write a Treatise", doc="Research cost of bottom-row Treatises.", lo=0, hi=10)
    # ---- final scoring (A-GT-20, A-GT-21, A-GT-22)
    truth_vp_per_tile: int = param(2, unit="VP", source="A-GT-20", doc="Copernican Truth bonus: end VP per Observation tile for a player still Copernican.", lo=0, hi=10)
    truth_vp_flat: int = param(0, unit="VP", source="A-GT-20", doc="Copernican Truth bonus: flat end VP for a player still Copernican.", lo=0, hi=30)
    suspicion_band_starts: tuple = param((0, 4, 7, 10), unit="Suspicion", source="A-GT-21", doc="Lowest Suspicion of each end band (below the Stake).", lo=0, hi=30)
    suspicion_band_vp: tuple = param((0, -2, -5, -10), unit="VP", source="A-GT-21", doc="End VP of each Suspicion band.", lo=-50, hi=10)
    stake_vp: int = param(-15, unit="VP", source="A-GT-21", doc="End VP for a player whose Philosopher went to the Stake.", lo=-60, hi=0)
    tiebreak: str = param("suspicion", unit="-", source="A-GT-22", doc="Tie-break: lower Suspicion, then more Coins.", choices=("suspicion",))
    # ---- turn order (A-GT-31; seat advantage: docs/seat_advantage.md)
    first_player_rule: str = param(
        "rotate", unit="-", source="A-GT-31", choices=FIRST_PLAYER_RULES,
        doc="Who opens the next Cycle: rotate (the next seat clockwise), first-to-pass (the first seat that "
            "passed this Cycle), fewest-vp (catch-up: fewest VP, ties clockwise from the next seat), fixed "
            "(Seat 1 opens every Cycle). Seat 1 opens Cycle 1 under every rule.")
    # ---- board (A-GT-16; seat advantage: docs/seat_advantage.md)
    printing_house: str = param(
        "exclusive", unit="-", source="A-GT-16", choices=PRINTING_HOUSE_RULES,
        doc="The printing-house (the only Level I Write space): exclusive (one Natural Philosopher per Cycle, "
            "as board.toml says) or shared (any number per Cycle; overrides board.toml's exclusive flag).")
    solo_mode: str = param("no-opponent", unit="-", source="A-GT-23", doc="Solo: one seat, no opponent effects, uncontested first-to-Level VP.", choices=("no-opponent",))

    def check(self) -> None:
        """Refuse values that contradict each other (called by ``apply_overrides``).

        Allowed: ``start_suspicion < prison_at < stake_at <= suspicion_max`` (players start out of
        Prison, Prison comes before the Stake, both on the track), ``period2_first_cycle <
        period3_first_cycle``, ``book_level_starts`` increasing with the last at most
        ``book_track_max``, ``suspicion_band_starts`` increasing, no seat starting below 0 Coins or
        Research with its compensation (``start_coins + seat_coins_Pp[s] >= 0``, the same for Research).

        Raises:
            ConfigError: one line naming the values and what is allowed.
        """
        if not self.prison_at < self.stake_at <= self.suspicion_max:
            raise ConfigError(f"parameters prison_at={self.prison_at}, stake_at={self.stake_at} and suspicion_max="
                              f"{self.suspicion_max} contradict each other: allowed prison_at < stake_at <= "
                              "suspicion_max (Prison comes before the Stake, both on the Suspicion track)")
        if not self.start_suspicion < self.prison_at:
            raise ConfigError(f"parameters start_suspicion={self.start_suspicion} and prison_at={self.prison_at} "
                              "contradict each other: allowed start_suspicion < prison_at (players start out of Prison)")
        if not self.period2_first_cycle < self.period3_first_cycle:
            raise ConfigError(f"parameters period2_first_cycle={self.period2_first_cycle} and period3_first_cycle="
                              f"{self.period3_first_cycle} contradict each other: allowed period2_first_cycle < "
                              "period3_first_cycle (Period II comes before Period III)")
        b = self.book_level_starts
        if any(x >= y for x, y in zip(b, b[1:])) or b[-1] > self.book_track_max:
            raise ConfigError(f"parameters book_level_starts={_csv(b)} and book_track_max={self.book_track_max} "
                              "contradict each other: allowed increasing Level starts, the last at most book_track_max")
        for res, start in (("coins", self.start_coins), ("research", self.start_research)):
            for n in (2, 3, 4):
                bonus = getattr(self, f"seat_{res}_{n}p")
                if start + min(bonus) < 0:
                    raise ConfigError(f"parameters start_{res}={start} and seat_{res}_{n}p={_csv(bonus)} contradict each "
                                      f"other: allowed start_{res} + each seat's bonus >= 0 (no seat starts with "
                                      f"negative {res.capitalize()})")
        t = self.suspicion_band_starts
        if any(x >= y for x, y in zip(t, t[1:])):
            raise ConfigError(f"parameter suspicion_band_starts={_csv(t)} must increase: each end band starts "
                              "above the one before")

    @classmethod
    def harsh_inquisition(cls) -> "Params":
        """Preset: Prison at 6, Stake at 10, steeper end bands (Abjure sensitivity runs)."""
        return cls(prison_at=6, stake_at=10, suspicion_band_vp=(0, -3, -7, -14))

    @classmethod
    def no_truth_bonus(cls) -> "Params":
        """Preset: Copernicans get no Truth bonus (Abjure payoff lower bound)."""
        return cls(truth_vp_per_tile=0, truth_vp_flat=0)

    def replace(self, **kw) -> "Params":
        return dataclasses.replace(self, **kw)


def _csv(t) -> str:
    """A tuple as ``--set`` takes it (``0,5,10``)."""
    return ",".join(map(str, t))
