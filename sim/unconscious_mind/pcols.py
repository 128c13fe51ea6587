"""Columns of the kernels' parameter vector ``prm`` (``int64[PARAM_WIDTH]``), one per field of ``meeplelab.sim.unconscious_mind.params.Params``.

A kernel reads a rule number as ``prm[PRM_<FIELD>]`` (a tuple's element ``i``: ``prm[PRM_<FIELD> + i]``);
a string field's column holds the position of its value in the field's choices (the ``<FIELD>_<CHOICE>``
codes below). The vector is built by :func:`meeplelab.sim.core.params.param_vector`.

Written by ``python -m meeplelab.sim.core.generate`` from the dataclass; do not edit by hand.
"""

PRM_TILE_COST = 0  # [3] Coffee; seed 000 §Gaining Notebook tiles: Coffee paid for the stack / center / right tile action space.
PRM_TILE_COST_W = 3
PRM_EMPTY_SPACE_VP = 3  # [3] VP; A-UM-01: VP printed in an empty stack / center / right market space.
PRM_EMPTY_SPACE_VP_W = 3
PRM_ICON_CURED_NEEDED = 6  # [3] clients; seed 000 §Placing the tile: Cured Clients needed to cover your first / second / third icon space.
PRM_ICON_CURED_NEEDED_W = 3
PRM_NOTEBOOK_FULL_REPUTATION = 9  # reputation; seed 000 §Completing rows and columns: Reputation for filling all nine Notebook spaces.
PRM_ROW_BONUS_ELEVATIONS = 10  # Elevations; seed 000 §Completing rows and columns: Elevations unlocked at a completed row's end (used on its inkpot activation).
PRM_COLUMN_BONUS_LEVEL = 11  # level; A-UM-02: Level (0 minor, 1 median, 2 major) of the Generate unlocked by a completed column; colu...
PRM_INSIGHT_ELEVATIONS = 12  # Elevations; seed 000 §Insight actions: Elevations of the Elevate/Transfer action space.
PRM_INSIGHT_TRANSFERS = 13  # Transfers; seed 000 §Insight actions: Transfers of the Elevate/Transfer action space.
PRM_RESEARCH_DISPLAY = 14  # cards; seed 000 §Gaining Research cards: Face-up Research cards in the display.
PRM_RESEARCH_PLAY_MAX = 15  # cards; research UM §6: Research cards played by the play/publish action space.
PRM_TREATISE_DISPLAY = 16  # tiles; A-UM-03: Face-up Treatise tiles.
PRM_CITE_BRIGHT_IDEAS = 17  # Bright Ideas; seed 000 §Citing Treatises: Bright Ideas each cited player gains (once per player cited).
PRM_CITE_VP_PER_VOLUME = 18  # VP; seed 000 §Citing Treatises: VP a cited player gains per Volume cited (replaces every Treatise's cite_vp in treatise...
PRM_START_HAND = 19  # cards; A-UM-04: Research cards dealt to each player.
PRM_PROFESSOR_MAX_MOVE = 20  # Locations; seed 000 §Moving your Professor or Freud: Most Locations the Professor advances clockwise.
PRM_FREUD_MAX_MOVE = 21  # Locations; seed 000 §Moving your Professor or Freud: Most Locations Freud advances clockwise.
PRM_LOCATION_CAP = 22  # resolutions; research UM §5: Most resolutions of a Location's effects.
PRM_LOCATION_BRIGHT_BONUS = 23  # resolutions; research UM §5: Extra resolutions for spending a Bright Idea.
PRM_FREUD_START = 24  # Location; A-UM-05: Freud's starting Location.
PRM_PROFESSOR_START = 25  # Location; A-UM-05: Every Professor's starting Location.
PRM_START_IDEAS = 26  # Ideas; research UM §1: Ideas available at the start.
PRM_LOCKED_IDEAS = 27  # Ideas; A-UM-06: Ideas on the player board, unlocked by inkpot gain-idea spaces.
PRM_START_WHITE = 28  # Insights; A-UM-07: White Insights in the dial reserve at the start.
PRM_CONVERSION_COFFEE = 29  # Coffee; research UM §3: Coffee to raise an Insight one level or change its quality.
PRM_START_COFFEE = 30  # Coffee; A-UM-37: Starting Coffee.
PRM_SEAT_VP_2P = 31  # [2] VP; A-UM-35: Extra VP at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every seat...
PRM_SEAT_VP_2P_W = 2
PRM_SEAT_VP_3P = 33  # [3] VP; A-UM-35: Extra VP at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for every s...
PRM_SEAT_VP_3P_W = 3
PRM_SEAT_VP_4P = 36  # [4] VP; A-UM-35: Extra VP at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for ever...
PRM_SEAT_VP_4P_W = 4
PRM_SEAT_COFFEE_2P = 40  # [2] Coffee; A-UM-35: Extra Coffee at setup for Seat 1, 2 of a 2-player game (seat compensation; 0 for every...
PRM_SEAT_COFFEE_2P_W = 2
PRM_SEAT_COFFEE_3P = 42  # [3] Coffee; A-UM-35: Extra Coffee at setup for Seat 1, 2, 3 of a 3-player game (seat compensation; 0 for eve...
PRM_SEAT_COFFEE_3P_W = 3
PRM_SEAT_COFFEE_4P = 45  # [4] Coffee; A-UM-35: Extra Coffee at setup for Seat 1, 2, 3, 4 of a 4-player game (seat compensation; 0 for...
PRM_SEAT_COFFEE_4P_W = 4
PRM_RECALL_COFFEE_PER_SPACE = 49  # Coffee; research UM §2: Coffee per occupied Meeting Table space at Recall.
PRM_ROOM_COUNT = 50  # rooms; research UM §4: Office rooms (the second starts locked).
PRM_THERAPY_MAX = 51  # spaces; research UM §4: Highest therapy-track space.
PRM_CATHARSIS_SPACE = 52  # space; research UM §4: Space of the star heart.
PRM_ROUTINE_DISPLAY = 53  # clients; A-UM-08: Face-up Routine clients.
PRM_CASE_DISPLAY = 54  # clients; A-UM-08: Face-up Case Study clients.
PRM_MANIFEST_DISPLAY = 55  # dreams; A-UM-08: Face-up manifest dreams.
PRM_SYMBOL_MATCH_HEARTS = 56  # heart boxes; research UM §4: Heart boxes when the manifest symbol matches the grief layer.
PRM_DISTRICT_THRESHOLDS = 57  # [4] tags; research UM §5: Tags needed for the four district bonus slots.
PRM_DISTRICT_THRESHOLDS_W = 4
PRM_DISTRICT_TOKENS = 61  # tokens; A-UM-09: Tokens in each district stack.
PRM_DISTRICT_REP_TOKENS = 62  # tokens; A-UM-09: Tokens on top of each stack that carry a reputation icon.
PRM_GOAL_TILES = 63  # tiles; research UM §1: Location goal tiles in play.
PRM_TRACK_LENGTH = 64  # spaces; research UM §1 (LV): Pocketwatch space: Freud reaching it triggers the end.
PRM_FREUD_REP_START = 65  # space; research UM §1: Freud's starting reputation.
PRM_FACE_LINES_N = 66  # how many values face_lines holds (1 to 20)
PRM_FACE_LINES = 67  # [20] space; A-UM-10: Reputation spaces whose face line moves Freud's figure one Location when reached.
PRM_FACE_LINES_W = 20  # at most
PRM_END_TRIGGER_VP = 87  # VP; research UM §7: VP for triggering the end.
PRM_REPUTATION_VP_N = 88  # how many values reputation_vp holds (1 to 21)
PRM_REPUTATION_VP = 89  # [21] VP; A-UM-11: VP printed on reputation spaces 0..track_length (final scoring).
PRM_REPUTATION_VP_W = 21  # at most
PRM_TRACK_BONUS_FIRST = 110  # VP; research UM §7: VP per Treatise and per cured client for the furthest reputation marker.
PRM_TRACK_BONUS_SECOND = 111  # VP; research UM §7: VP per Treatise and per cured client for the second furthest marker.
PRM_DISTRICT_VP = 112  # [4] VP; research UM §7: VP for coloured Insights in 0/1/2/3 districts.
PRM_DISTRICT_VP_W = 4
PRM_FULL_ROWS_VP = 116  # [4] VP; research UM §7: VP for 0/1/2/3 full Notebook rows.
PRM_FULL_ROWS_VP_W = 4
PRM_UNIQUE_TAGS_VP = 120  # [7] VP; A-UM-12: VP for 0..6 different Location tags owned.
PRM_UNIQUE_TAGS_VP_W = 7
PRM_HEART_BOX_VP = 127  # VP; research UM §7: VP per heart-shaped box at the end.
PRM_COFFEE_PER_BRIGHT = 128  # Coffee; research UM §7: Coffee converted to one Bright Idea at the end.
PRM_BRIGHT_VP = 129  # VP; research UM §7: VP per Bright Idea at the end.
PRM_ROUND_LIMIT = 130  # rounds; A-UM-13: Safety end: the game ends after this round even if Freud never reaches the end.
PRM_LIMIT_ROUND_TRIGGER = 131  # -; A-UM-36: An end triggered in the limit round: 'finish' plays that round out and one more (the cl...
PRM_SOLO_FREUD_EVERY = 132  # turns; A-UM-14: Solo: Freud gains 1 reputation after every this many turns.
PRM_LOCATION_VP_EFFECT = 133  # -; A-UM-16: What a Location effect printed 'vp N' in city.toml gives (4 of the 6 Locations print 'v...
PRM_LOCATION_EFFECTS = 134  # -; A-UM-26: How each resolution of a Location picks among its 3 effects: 'any' (any one, the same a...

# ---- codes of the string parameters (the value's position in the field's choices)
LIMIT_ROUND_TRIGGER_FINISH = 0  # limit_round_trigger = 'finish'
LIMIT_ROUND_TRIGGER_STOP = 1  # limit_round_trigger = 'stop'
LOCATION_VP_EFFECT_VP = 0  # location_vp_effect = 'vp'
LOCATION_VP_EFFECT_COFFEE = 1  # location_vp_effect = 'coffee'
LOCATION_EFFECTS_ANY = 0  # location_effects = 'any'
LOCATION_EFFECTS_DISTINCT = 1  # location_effects = 'distinct'
LOCATION_EFFECTS_ORDER = 2  # location_effects = 'order'

PARAM_WIDTH = 135  # columns of prm
