"""Every rule number of Unconscious Mind as a documented, range-checked parameter.

Sources: ``seed 000 §...`` (the exact rules excerpt), ``research UM §n`` (the public-facts note),
or an assumption ID ``A-UM-nn`` recorded with its reason in ``docs/rules/unconscious_mind.md``.
:meth:`Params.check` refuses values that contradict each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from meeplelab.sim.core import ConfigError, param

S = "seed 000"


@dataclass(frozen=True)
class Params:
    # ---- Meeting Table: Notebook tiles (seed)
    tile_cost: tuple = param((1, 2, 3), unit="Coffee", source=f"{S} §Gaining Notebook tiles",
                             doc="Coffee paid for the stack / center / right tile action space.", lo=0, hi=9)
    empty_space_vp: tuple = param((1, 2, 3), unit="VP", source="A-UM-01",
                                  doc="VP printed in an empty stack / center / right market space.", lo=0, hi=9)
    icon_cured_needed: tuple = param((0, 1, 2), unit="clients", source=f"{S} §Placing the tile",
                                     doc="Cured Clients needed to cover your first / second / third icon space.",
                                     lo=0, hi=9)
    notebook_full_reputation: int = param(1, unit="reputation", source=f"{S} §Completing rows and columns",
                                          doc="Reputation for filling all nine Notebook spaces.", lo=0, hi=3)
    row_bonus_elevations: int = param(1, unit="Elevations", source=f"{S} §Completing rows and columns",
                                      doc="Elevations unlocked at a completed row's end (used on its inkpot activation).",
                                      lo=0, hi=3)
    column_bonus_level: int = param(1, unit="level", source="A-UM-02",
                                    doc="Level (0 minor, 1 median, 2 major) of the Generate unlocked by a completed "
                                        "column; column c generates quality c.", lo=0, hi=2)
    # ---- Insight actions (seed)
    insight_elevations: int = param(2, unit="Elevations", source=f"{S} §Insight actions",
                                    doc="Elevations of the Elevate/Transfer action space.", lo=0, hi=5)
    insight_transfers: int = param(1, unit="Transfers", source=f"{S} §Insight actions",
                                   doc="Transfers of the Elevate/Transfer action space.", lo=0, hi=5)
    # ---- Research / Treatises
    research_display: int = param(2, unit="cards", source=f"{S} §Gaining Research cards",
                                  doc="Face-up Research cards in the display.", lo=2, hi=2)
    research_play_max: int = param(2, unit="cards", source="research UM §6",
                                   doc="Research cards played by the play/publish action space.", lo=1, hi=4)
    treatise_display: int = param(3, unit="tiles", source="A-UM-03", doc="Face-up Treatise tiles.", lo=1, hi=6)
    cite_bright_ideas: int = param(1, unit="Bright Ideas", source=f"{S} §Citing Treatises",
                                   doc="Bright Ideas each cited player gains (once per player cited).", lo=0, hi=3)
    cite_vp_per_volume: int = param(2, unit="VP", source=f"{S} §Citing Treatises",
                                    doc="VP a cited player gains per Volume cited (replaces every Treatise's cite_vp "
                                        "in treatises.toml).", lo=0, hi=6)
    start_hand: int = param(2, unit="cards", source="A-UM-04", doc="Research cards dealt to each player.", lo=0, hi=5)
    # ---- Movement (seed)
    professor_max_move: int = param(2, unit="Locations", source=f"{S} §Moving your Professor or Freud",
                                    doc="Most Locations the Professor advances clockwise.", lo=1, hi=5)
    freud_max_move: int = param(3, unit="Locations", source=f"{S} §Moving your Professor or Freud",
                                doc="Most Locations Freud advances clockwise.", lo=1, hi=5)
    location_cap: int = param(5, unit="resolutions", source="research UM §5",
                              doc="Most resolutions of a Location's effects.", lo=1, hi=9)
    location_bright_bonus: int = param(2, unit="resolutions", source="research UM §5",
                                       doc="Extra resolutions for spending a Bright Idea.", lo=0, hi=5)
    freud_start: int = param(3, unit="Location", source="A-UM-05", doc="Freud's starting Location.", lo=0, hi=5)
    professor_start: int = param(0, unit="Location", source="A-UM-05", doc="Every Professor's starting Location.",
                                 lo=0, hi=5)
    # ---- Ideas, inkpot
    start_ideas: int = param(3, unit="Ideas", source="research UM §1", doc="Ideas available at the start.", lo=1, hi=6)
    locked_ideas: int = param(3, unit="Ideas", source="A-UM-06",
                              doc="Ideas on the player board, unlocked by inkpot gain-idea spaces.", lo=0, hi=6)
    # ---- Insight dial
    start_white: int = param(6, unit="Insights", source="A-UM-07", doc="White Insights in the dial reserve at the start.",
                             lo=0, hi=20)
    conversion_coffee: int = param(2, unit="Coffee", source="research UM §3",
                                   doc="Coffee to raise an Insight one level or change its quality.", lo=0, hi=9)
    # ---- Economy
    start_coffee: int = param(2, unit="Coffee", source="A-UM-37", doc="Starting Coffee.", lo=0,
                              hi=20)
    # ---- seat compensation (A-UM-35: none; `meeplelab compensate` proposes values, docs/balance.md)
    seat_vp_2p: tuple = param((0, 0), unit="VP", source="A-UM-35",
                                doc="Extra VP at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every seat: none, A-UM-35).",
                                lo=-30, hi=30)
    seat_vp_3p: tuple = param((0, 0, 0), unit="VP", source="A-UM-35",
                                doc="Extra VP at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for every seat: none, A-UM-35).",
                                lo=-30, hi=30)
    seat_vp_4p: tuple = param((0, 0, 0, 0), unit="VP", source="A-UM-35",
                                doc="Extra VP at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for every seat: none, A-UM-35).",
                                lo=-30, hi=30)
    seat_coffee_2p: tuple = param((0, 0), unit="Coffee", source="A-UM-35",
                                doc="Extra Coffee at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every seat: none, A-UM-35).",
                                lo=-20, hi=30)
    seat_coffee_3p: tuple = param((0, 0, 0), unit="Coffee", source="A-UM-35",
                                doc="Extra Coffee at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for every seat: none, A-UM-35).",
                                lo=-20, hi=30)
    seat_coffee_4p: tuple = param((0, 0, 0, 0), unit="Coffee", source="A-UM-35",
                                doc="Extra Coffee at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for every seat: none, A-UM-35).",
                                lo=-20, hi=30)
    recall_coffee_per_space: int = param(1, unit="Coffee", source="research UM §2",
                                         doc="Coffee per occupied Meeting Table space at Recall.", lo=0, hi=5)
    # ---- Clients
    room_count: int = param(2, unit="rooms", source="research UM §4", doc="Office rooms (the second starts locked).",
                            lo=2, hi=2)
    therapy_max: int = param(8, unit="spaces", source="research UM §4", doc="Highest therapy-track space.", lo=1, hi=12)
    catharsis_space: int = param(3, unit="space", source="research UM §4", doc="Space of the star heart.", lo=0, hi=8)
    routine_display: int = param(3, unit="clients", source="A-UM-08", doc="Face-up Routine clients.", lo=1, hi=3)
    case_display: int = param(2, unit="clients", source="A-UM-08", doc="Face-up Case Study clients.", lo=1, hi=3)
    manifest_display: int = param(3, unit="dreams", source="A-UM-08", doc="Face-up manifest dreams.", lo=1, hi=3)
    symbol_match_hearts: int = param(1, unit="heart boxes", source="research UM §4",
                                     doc="Heart boxes when the manifest symbol matches the grief layer.", lo=0, hi=3)
    # ---- City
    district_thresholds: tuple = param((3, 4, 5, 6), unit="tags", source="research UM §5",
                                       doc="Tags needed for the four district bonus slots.", lo=0, hi=20)
    district_tokens: int = param(6, unit="tokens", source="A-UM-09", doc="Tokens in each district stack.", lo=1, hi=12)
    district_rep_tokens: int = param(2, unit="tokens", source="A-UM-09",
                                     doc="Tokens on top of each stack that carry a reputation icon.", lo=0, hi=12)
    goal_tiles: int = param(7, unit="tiles", source="research UM §1", doc="Location goal tiles in play.", lo=0, hi=10)
    # ---- Reputation clock and end
    track_length: int = param(10, unit="spaces", source="research UM §1 (LV)",
                              doc="Pocketwatch space: Freud reaching it triggers the end.", lo=2, hi=20)
    freud_rep_start: int = param(1, unit="space", source="research UM §1", doc="Freud's starting reputation.", lo=0,
                                 hi=5)
    face_lines: tuple = param((3, 6, 9), unit="space", source="A-UM-10",
                              doc="Reputation spaces whose face line moves Freud's figure one Location when reached.",
                              lo=1, hi=20, max_len=20)
    end_trigger_vp: int = param(3, unit="VP", source="research UM §7", doc="VP for triggering the end.", lo=0, hi=10)
    reputation_vp: tuple = param((0, 0, 1, 2, 3, 5, 7, 9, 11, 13, 15), unit="VP", source="A-UM-11",
                                 doc="VP printed on reputation spaces 0..track_length (final scoring).", lo=0, hi=50,
                                 max_len=21)
    track_bonus_first: int = param(2, unit="VP", source="research UM §7",
                                   doc="VP per Treatise and per cured client for the furthest reputation marker.",
                                   lo=0, hi=5)
    track_bonus_second: int = param(1, unit="VP", source="research UM §7",
                                    doc="VP per Treatise and per cured client for the second furthest marker.",
                                    lo=0, hi=5)
    district_vp: tuple = param((0, 4, 10, 18), unit="VP", source="research UM §7",
                               doc="VP for coloured Insights in 0/1/2/3 districts.", lo=0, hi=50)
    full_rows_vp: tuple = param((0, 1, 5, 6), unit="VP", source="research UM §7",
                                doc="VP for 0/1/2/3 full Notebook rows.", lo=0, hi=50)
    unique_tags_vp: tuple = param((0, 1, 3, 6, 10, 14, 18), unit="VP", source="A-UM-12",
                                  doc="VP for 0..6 different Location tags owned.", lo=0, hi=50)
    heart_box_vp: int = param(2, unit="VP", source="research UM §7", doc="VP per heart-shaped box at the end.", lo=0,
                              hi=5)
    coffee_per_bright: int = param(3, unit="Coffee", source="research UM §7",
                                   doc="Coffee converted to one Bright Idea at the end.", lo=1, hi=10)
    bright_vp: int = param(1, unit="VP", source="research UM §7", doc="VP per Bright Idea at the end.", lo=0, hi=5)
    # ---- Safety and solo
    round_limit: int = param(30, unit="rounds", source="A-UM-13",
                             doc="Safety end: the game ends after this round even if Freud never reaches the end.",
                             lo=5, hi=100)
    limit_round_trigger: str = param("finish", unit="-", source="A-UM-36",
                                     doc="An end triggered in the limit round: 'finish' plays that round out and "
                                         "one more (the clock's rule wins over round_limit); 'stop' ends the game "
                                         "after the limit round anyway.", choices=("finish", "stop"))
    solo_freud_every: int = param(2, unit="turns", source="A-UM-14",
                                  doc="Solo: Freud gains 1 reputation after every this many turns.", lo=1, hi=10)
    # ---- readings of the assumed City content (last: the columns of the fields above keep their places)
    location_vp_effect: str = param("vp", unit="-", source="A-UM-16",
                                    doc="What a Location effect printed 'vp N' in city.toml gives (4 of the 6 "
                                        "Locations print 'vp 1'): 'vp' N VP, 'coffee' N Coffee instead.",
                                    choices=("vp", "coffee"))
    location_effects: str = param("any", unit="-", source="A-UM-26",
                                  doc="How each resolution of a Location picks among its 3 effects: 'any' (any "
                                      "one, the same again allowed), 'distinct' (each at most once per trigger: "
                                      "resolutions past the third are lost), 'order' (the printed order, 1-2-3-1-2).",
                                  choices=("any", "distinct", "order"))

    def check(self) -> None:
        """Refuse values that contradict each other (called by ``apply_overrides``).

        Allowed: ``reputation_vp`` with ``track_length + 1`` values, ``face_lines`` increasing from 1
        to ``track_length``, ``district_thresholds`` not decreasing, ``district_rep_tokens <=
        district_tokens``, ``catharsis_space <= therapy_max``, no seat starting below 0 Coffee with its
        compensation (``start_coffee + seat_coffee_Pp[s] >= 0``).

        Raises:
            ConfigError: one line naming the values and what is allowed.
        """
        if len(self.reputation_vp) != self.track_length + 1:
            raise ConfigError(f"parameter reputation_vp needs track_length+1 = {self.track_length + 1} values, "
                              f"got {len(self.reputation_vp)}")
        f = self.face_lines
        if f and (any(x >= y for x, y in zip(f, f[1:])) or f[0] < 1 or f[-1] > self.track_length):
            raise ConfigError(f"parameters face_lines={_csv(f)} and track_length={self.track_length} contradict each "
                              "other: allowed increasing face lines from 1 to track_length")
        t = self.district_thresholds
        if any(x > y for x, y in zip(t, t[1:])):
            raise ConfigError(f"parameter district_thresholds={_csv(t)} must not decrease: each district bonus slot "
                              "needs at least the tags of the slot before")
        if self.district_rep_tokens > self.district_tokens:
            raise ConfigError(f"parameters district_rep_tokens={self.district_rep_tokens} and district_tokens="
                              f"{self.district_tokens} contradict each other: allowed district_rep_tokens <= "
                              "district_tokens (the reputation tokens are part of the stack)")
        for n in (2, 3, 4):
            bonus = getattr(self, f"seat_coffee_{n}p")
            if self.start_coffee + min(bonus) < 0:
                raise ConfigError(f"parameters start_coffee={self.start_coffee} and seat_coffee_{n}p={_csv(bonus)} "
                                  "contradict each other: allowed start_coffee + each seat's bonus >= 0 (no seat "
                                  "starts with negative Coffee)")
        if self.catharsis_space > self.therapy_max:
            raise ConfigError(f"parameters catharsis_space={self.catharsis_space} and therapy_max={self.therapy_max} "
                              "contradict each other: allowed catharsis_space <= therapy_max (the star is on the "
                              "therapy track)")

    @classmethod
    def default(cls) -> "Params":
        """The default (assumed where unknown) rules."""
        return cls()

    @classmethod
    def short(cls) -> "Params":
        """A shorter game (track of 6) for quick experiments."""
        return cls(track_length=6, reputation_vp=(0, 0, 1, 3, 5, 7, 9), face_lines=(2, 4))


def _csv(t) -> str:
    """A tuple as ``--set`` takes it (``3,4,5,6``)."""
    return ",".join(map(str, t))
