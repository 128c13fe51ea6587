"""Column constants of Unconscious Mind's content (meeplelab.sim.unconscious_mind.content_layout.CONTENT);
the kernels read the groups stacked as C.K[group, row, COLUMN] (C.K[KCARD, c, CARD_COL]) and the sizes as C.cnt[I_N_SPACES].

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

# ---- cnt[g, COLUMN]: content sizes (counts of the validated content files)
I_N_SPACES = 0  # idea spaces (board.toml)
I_N_INKPOTS = 1  # inkpot spaces
I_N_SECTIONS = 2  # reputation-track sections
I_N_GOAL_TILES = 3  # goal tiles in the content
I_N_ROUTINE = 4  # Routine clients
I_N_CASE = 5  # Case Study clients
I_N_LATENT = 6  # latent dreams
I_N_MANIFEST = 7  # manifest dreams
I_TILES_LVL = 8  # [2] Notebook tiles of level I / II
CNT_WIDTH = 10  # columns of cnt
