"""Column constants of Unconscious Mind's content and parameters (meeplelab.sim.unconscious_mind.content_layout.CONTENT);
the kernels read the groups stacked as S.K[group, row, COLUMN] (S.K[KCARD, c, CARD_COL]) and C[I_ROUND_LIMIT].

Written by ``python -m meeplelab.sim.core.layout meeplelab.sim.unconscious_mind.content_layout:CONTENT sim/unconscious_mind/kcols.py`` from the table in
that module; ``tests/test_layout.py`` checks this file against it. Do not edit by hand.
"""


# ---- kcard[g, i0 < cards, COLUMN]: one Research card (research.toml)
CARD_COL = 0  # Volume colour (content.COLOURS)
CARD_TAG = 1  # Location tag
CARD_EFF = 2  # effect row of the card's bottom
KCARD_WIDTH = 3  # columns of kcard

# ---- ktr[g, i0 < treatises, COLUMN]: one Treatise (treatises.toml)
TR_LEN = 0  # Volumes
TR_COLS = 1  # [5] colour of each Volume, -1 none
TR_VP = 6  # VP for publishing
TR_CITE_VP = 7  # VP per cited Volume (Params.cite_vp_per_volume)
TR_TAGS = 8  # [2] Location tags
KTR_WIDTH = 10  # columns of ktr

# ---- kclient[g, i0 < clients, COLUMN]: one client (clients.toml)
CL_KIND = 0  # 0 Routine, 1 Case Study
CL_START = 1  # therapy start (hearts + grief)
CL_SYM = 2  # grief symbol
CL_VP = 3  # VP when cured
CL_TAG = 4  # Location tag
CL_CATH = 5  # effect row of the catharsis bonus
CL_ABIL = 6  # effect row of the ability
CL_END = 7  # [2, 2] end-scoring effects [k, (opcode, n)]
CL_END_W = 2  # row stride of CL_END
KCLIENT_WIDTH = 11  # columns of kclient

# ---- kdream[g, i0 < dreams, COLUMN]: one dream card (dreams.toml)
DR_KIND = 0  # 0 latent, 1 manifest
DR_CQ = 1  # cost quality (3 any)
DR_CL = 2  # cost level
DR_EFF = 3  # effect row
DR_SYM = 4  # symbol
KDREAM_WIDTH = 5  # columns of kdream

# ---- ktile[g, i0 < tiles, COLUMN]: one Notebook tile (notebook.toml)
TILE_LEVEL = 0  # 0 level I, 1 level II
TILE_MAIN = 1  # effect row of the main effect
TILE_BANNER = 2  # effect row of the banner effect
KTILE_WIDTH = 3  # columns of ktile

# ---- kboard[g, i0 < board, COLUMN]: row i of each small board table (idea spaces, Meeting Table actions, Locations, inkpot spaces, reputation-track sections, districts, goal tiles; board.toml, city.toml)
SPACE_MT = 0  # [4] idea space i: Meeting Table action of each pointing direction
ACT_ROW = 4  # Meeting Table action i: its Notebook row
ACT_MOVE = 5  # action i: inkpot move
LOC_DIST = 6  # Location i: its district
LOC_EFF = 7  # [3] Location i: effect rows
LOC_BON = 10  # [3] Location i: bonus effect rows
INK_KIND = 13  # inkpot space i: kind (codes.INK_*)
INK_NB_ROW = 14  # inkpot space i: the Notebook row it activates
INK_GEN = 15  # inkpot space i: Generate effect row
INK_IDEA = 16  # inkpot space i: gains an Idea
SEC_FIRST = 17  # reputation-track section i: first space
SEC_REWARD = 18  # section i: reward effect row
SEC_ACTION = 19  # section i: action effect row
DIST_REW = 20  # [4] district i: slot reward effect rows
GOAL_COND = 24  # [3] goal tile i: condition (opcode, a, n)
GOAL_REP = 27  # goal tile i: reputation
GOAL_TAG = 28  # goal tile i: Location tag
KBOARD_WIDTH = 29  # columns of kboard

# ---- par[g, COLUMN]: content sizes and rule parameters (meeplelab.sim.unconscious_mind.params.Params)
I_N_SPACES = 0  #
I_N_INKPOTS = 1  #
I_N_SECTIONS = 2  #
I_N_GOAL_TILES = 3  # goal tiles in the content
I_N_ROUTINE = 4  #
I_N_CASE = 5  #
I_N_LATENT = 6  #
I_N_MANIFEST = 7  #
I_RDISP_N = 8  # research_display
I_TRDISP_N = 9  # treatise_display
I_RDISP_CL_N = 10  # routine_display
I_CDISP_CL_N = 11  # case_display
I_MDISP_N = 12  # manifest_display
I_TILES_LVL = 13  # [2] Notebook tiles of level I / II
I_FULL_REP = 15  # notebook_full_reputation
I_ROW_ELEV = 16  # row_bonus_elevations
I_COL_LVL = 17  # column_bonus_level
I_INS_ELEV = 18  # insight_elevations
I_INS_XFER = 19  # insight_transfers
I_PLAY_MAX = 20  # research_play_max
I_CITE_BRIGHT = 21  # cite_bright_ideas
I_PROF_MAX = 22  # professor_max_move
I_FREUD_MAX = 23  # freud_max_move
I_LOC_CAP = 24  # location_cap
I_LOC_BRIGHT = 25  # location_bright_bonus
I_CONV_COFFEE = 26  # conversion_coffee
I_RECALL_COFFEE = 27  # recall_coffee_per_space
I_THER_MAX = 28  # therapy_max
I_CATH_SPACE = 29  # catharsis_space
I_SYM_HEARTS = 30  # symbol_match_hearts
I_DIST_TOKENS = 31  # district_tokens
I_DIST_REP_TOKENS = 32  # district_rep_tokens
I_TRACK_LEN = 33  # track_length
I_END_VP = 34  # end_trigger_vp
I_TRACK_FIRST = 35  # track_bonus_first
I_TRACK_SECOND = 36  # track_bonus_second
I_HEART_VP = 37  # heart_box_vp
I_COFFEE_PER_BRIGHT = 38  # coffee_per_bright
I_BRIGHT_VP = 39  # bright_vp
I_ROUND_LIMIT = 40  # round_limit
I_SOLO_EVERY = 41  # solo_freud_every
I_LIMIT_STOP = 42  # 1 if limit_round_trigger == 'stop'
I_TILE_COST = 43  # [3] tile_cost
I_EMPTY_VP = 46  # [3] empty_space_vp
I_ICON_REQ = 49  # [3] icon_cured_needed
I_DIST_THR = 52  # [4] district_thresholds
I_N_FACE_LINES = 56  # len(face_lines)
I_FACE_LINES = 57  # [20] face_lines
I_REP_VP = 77  # [21] reputation_vp (track_length + 1 values)
I_DISTRICT_VP = 98  # [4] district_vp
I_ROWS_VP = 102  # [4] full_rows_vp
I_TAGS_VP = 106  # [7] unique_tags_vp
PAR_WIDTH = 113  # columns of par
