"""Columns of the kernels' parameter vector ``prm`` (``int64[PARAM_WIDTH]``), one per field of ``meeplelab.sim.galileos_truth.params.Params``.

A kernel reads a rule number as ``prm[PRM_<FIELD>]`` (a tuple's element ``i``: ``prm[PRM_<FIELD> + i]``);
a string field's column holds the position of its value in the field's choices (the ``<FIELD>_<CHOICE>``
codes below). The vector is built by :func:`meeplelab.sim.core.params.param_vector`.

Written by ``python -m meeplelab.sim.core.generate`` from the dataclass; do not edit by hand.
"""

PRM_CYCLES = 0  # Cycles; A-GT-01: Cycles in a game (seed: Period III is Cycle 5).
PRM_PERIOD2_FIRST_CYCLE = 1  # Cycle; A-GT-01: First Cycle of Period II.
PRM_PERIOD3_FIRST_CYCLE = 2  # Cycle; seed 001 §Abjure: First Cycle of Period III (no Abjure from here on).
PRM_HAND_SIZE = 3  # cards; A-GT-04: Cards drawn at the start of each Cycle (hand refill).
PRM_START_COINS = 4  # Coins; A-GT-05: Coins at setup.
PRM_START_RESEARCH = 5  # Research; A-GT-05: Research tokens at setup.
PRM_START_SUSPICION = 6  # Suspicion; A-GT-05: Suspicion at setup.
PRM_START_BOOKS = 7  # Books; A-GT-05: Books per Subject at setup.
PRM_SEAT_VP_2P = 8  # [2] VP; A-GT-34: Extra VP at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every seat...
PRM_SEAT_VP_2P_W = 2
PRM_SEAT_VP_3P = 10  # [3] VP; A-GT-34: Extra VP at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for every s...
PRM_SEAT_VP_3P_W = 3
PRM_SEAT_VP_4P = 13  # [4] VP; A-GT-34: Extra VP at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for ever...
PRM_SEAT_VP_4P_W = 4
PRM_SEAT_COINS_2P = 17  # [2] Coins; A-GT-34: Extra Coins at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every s...
PRM_SEAT_COINS_2P_W = 2
PRM_SEAT_COINS_3P = 19  # [3] Coins; A-GT-34: Extra Coins at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for ever...
PRM_SEAT_COINS_3P_W = 3
PRM_SEAT_COINS_4P = 22  # [4] Coins; A-GT-34: Extra Coins at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for e...
PRM_SEAT_COINS_4P_W = 4
PRM_SEAT_RESEARCH_2P = 26  # [2] Research; A-GT-34: Extra Research tokens at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 f...
PRM_SEAT_RESEARCH_2P_W = 2
PRM_SEAT_RESEARCH_3P = 28  # [3] Research; A-GT-34: Extra Research tokens at setup for Seat 1, 2, 3 of a 3-player game (seat compensation;...
PRM_SEAT_RESEARCH_3P_W = 3
PRM_SEAT_RESEARCH_4P = 31  # [4] Research; A-GT-34: Extra Research tokens at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensatio...
PRM_SEAT_RESEARCH_4P_W = 4
PRM_INCOME_COINS_BY_LEVEL = 35  # [3] Coins; A-GT-06: Income Coins by Physics Book-track Level I/II/III.
PRM_INCOME_COINS_BY_LEVEL_W = 3
PRM_INCOME_RESEARCH_BY_LEVEL = 38  # [3] Research; A-GT-06: Income Research by Mathematics Book-track Level I/II/III.
PRM_INCOME_RESEARCH_BY_LEVEL_W = 3
PRM_BOOK_LEVEL_STARTS = 41  # [3] Books; A-GT-07: First space of Book-track Levels I, II, III.
PRM_BOOK_LEVEL_STARTS_W = 3
PRM_BOOK_TRACK_MAX = 44  # Books; A-GT-07: Last space of a Book track (gains beyond are lost).
PRM_ABJURE_SUSPICION_DROP = 45  # Suspicion; seed 001 §Abjure: Suspicion the abjuring player loses.
PRM_ABJURE_OTHER_RISE = 46  # Suspicion; seed 001 §Abjure: Suspicion every other Copernican gains when someone abjures.
PRM_SUSPICION_MAX = 47  # Suspicion; A-GT-11: Top of the Suspicion track (values are clamped to 0..max).
PRM_PRISON_AT = 48  # Suspicion; A-GT-11: Reaching this Suspicion sends the Philosopher to Prison.
PRM_STAKE_AT = 49  # Suspicion; A-GT-11: Reaching this Suspicion sends the Philosopher to the Stake (lost for the game).
PRM_INQUISITION_FLIP_CYCLE = 50  # Cycle; A-GT-12: Start of this Cycle the Inquisition token turns face up.
PRM_PENANCE_THRESHOLD = 51  # Suspicion; A-GT-15: At End of Cycle each Copernican with at least this Suspicion gains a Penance card.
PRM_PENANCE_SUSPICION_DROP = 52  # Suspicion; seed 001 §Play a Penance Card: Suspicion lost playing Penance while the Inquisition token is face down.
PRM_LEVEL_SPACE_VP_2 = 53  # [4] VP; A-GT-13: VP under the Level II seal spaces, leftmost first (seed 001 §Upgrade: the first value).
PRM_LEVEL_SPACE_VP_2_W = 4
PRM_LEVEL_SPACE_VP_3 = 57  # [4] VP; A-GT-13: VP under the Level III seal spaces, leftmost first (seed 001 §Upgrade: the first value).
PRM_LEVEL_SPACE_VP_3_W = 4
PRM_LEVEL_SPACE_VP_4 = 61  # [4] VP; A-GT-13: VP under the Level IV seal spaces, leftmost first (seed 001 §Upgrade: the first value).
PRM_LEVEL_SPACE_VP_4_W = 4
PRM_VP_PER_LEVEL_GAINED = 65  # VP; seed 001 §Effects: VP per Level gained for the 'x Level' VP icon.
PRM_MENTORS = 66  # Mentors; A-GT-14: Mentors per player.
PRM_SEALS_PER_MENTOR = 67  # seals; A-GT-14: Wax Seals on each Mentor at setup.
PRM_SEAL_BESIDE_VP = 68  # VP; A-GT-14: End VP per Wax Seal put beside your board by the Mentor-seal icon.
PRM_WORKSHOP_SLOT_COINS = 69  # [4] Coins; A-GT-17: Coins printed beside Workshop slots, top slot first.
PRM_WORKSHOP_SLOT_COINS_W = 4
PRM_OBSERVE_DRAW = 73  # tiles; seed 001 §Observe the Sky: Tiles drawn (keep 1) when the bag holds enough.
PRM_OBSERVE_BONUS_VP = 74  # VP; seed 001 §Observe the Sky: Bonus VP for an Observation.
PRM_OBSERVE_BONUS_COINS = 75  # Coins; seed 001 §Observe the Sky: Bonus Coins for an Observation.
PRM_WRITE_RESEARCH_BOTTOM = 76  # Research; seed 001 §Write a Treatise: Research cost of bottom-row Treatises.
PRM_TRUTH_VP_PER_TILE = 77  # VP; A-GT-20: Copernican Truth bonus: end VP per Observation tile for a player still Copernican.
PRM_TRUTH_VP_FLAT = 78  # VP; A-GT-20: Copernican Truth bonus: flat end VP for a player still Copernican.
PRM_SUSPICION_BAND_STARTS = 79  # [4] Suspicion; A-GT-21: Lowest Suspicion of each end band (below the Stake).
PRM_SUSPICION_BAND_STARTS_W = 4
PRM_SUSPICION_BAND_VP = 83  # [4] VP; A-GT-21: End VP of each Suspicion band.
PRM_SUSPICION_BAND_VP_W = 4
PRM_STAKE_VP = 87  # VP; A-GT-21: End VP for a player whose Philosopher went to the Stake.
PRM_TIEBREAK = 88  # -; A-GT-22: Tie-break: lower Suspicion, then more Coins.
PRM_FIRST_PLAYER_RULE = 89  # -; A-GT-31: Who opens the next Cycle: rotate (the next seat clockwise), first-to-pass (the first se...
PRM_PRINTING_HOUSE = 90  # -; A-GT-16: The printing-house (the only Level I Write space): exclusive (one Natural Philosopher p...
PRM_SOLO_MODE = 91  # -; A-GT-23: Solo: one seat, no opponent effects, uncontested first-to-Level VP.

# ---- codes of the string parameters (the value's position in the field's choices)
TIEBREAK_SUSPICION = 0  # tiebreak = 'suspicion'
FIRST_PLAYER_RULE_ROTATE = 0  # first_player_rule = 'rotate'
FIRST_PLAYER_RULE_FIRST_TO_PASS = 1  # first_player_rule = 'first-to-pass'
FIRST_PLAYER_RULE_FEWEST_VP = 2  # first_player_rule = 'fewest-vp'
FIRST_PLAYER_RULE_FIXED = 3  # first_player_rule = 'fixed'
PRINTING_HOUSE_EXCLUSIVE = 0  # printing_house = 'exclusive'
PRINTING_HOUSE_SHARED = 1  # printing_house = 'shared'
SOLO_MODE_NO_OPPONENT = 0  # solo_mode = 'no-opponent'

PARAM_WIDTH = 92  # columns of prm
