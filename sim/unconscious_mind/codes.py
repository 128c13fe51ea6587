"""Named codes of Unconscious Mind's kernels: decision kinds, Meeting Table actions, effect opcodes, card
locations, event kinds and categories, chance zones. Every code the rules compare against has a name here.

Decision kinds ``D_*`` wait for the seat's action; ``K_*`` run automatically (see ``rules`` and the decision
table).
"""

from __future__ import annotations

# ---------------------------------------------------------------- decision kinds
D_TURN = 1
D_MODE = 2
K_PERFORM = 3
K_INKPOT_START = 4
D_INKPOT = 5
K_INKPOT = 6
D_ELXF = 7
D_GENQ = 8
D_TILE_SRC = 9
D_ORDER = 10
D_FREE_TILE = 11
D_PLACE = 12
K_EFFECT = 13
D_SWAP = 14
D_SWAP2 = 15
D_RESPLAY = 16
D_PLAYN = 17
D_QUILL = 18
D_GATHER = 19
K_PUBLISH = 20
D_PROF = 21
D_FREUD = 22
D_LOCTRIG = 23
D_LOCEFF = 24
D_RECALLB = 25
D_TREAT = 26
D_THERAPY = 27
D_HEARTS = 28
K_CLIENTS = 29
D_NEWCLIENT = 30
D_MANIFEST = 31
D_REPACT = 32
K_FINISH = 33
D_COLUMN = 34
K_GENQL = 35
D_TILEORDER = 36
D_GENANY = 37
D_COLOUR = 38


# Meeting Table actions
MT_STACK, MT_CENTER, MT_RIGHT, MT_GEN, MT_ELEV, MT_DRAW, MT_PLAY, MT_PROF, MT_FREUD = 0, 1, 2, 3, 4, 5, 6, 7, 8

# effect opcodes (content.OP)
OP_COFFEE, OP_VP, OP_BRIGHT, OP_HEART, OP_REP, OP_GEN, OP_ELEV, OP_XFER = 1, 2, 3, 4, 5, 6, 7, 8
OP_DRAW, OP_PLAY, OP_TILE, OP_THERAPY, OP_HEARTS = 9, 10, 11, 12, 13

# research card / treatise locations
L_DECK, L_DISPLAY, L_HAND, L_INPLAY, L_TREATISE = 0, 1, 2, 3, 4

# inkpot kinds
INK_PLAIN, INK_ROW, INK_COLUMN, INK_REP = 0, 1, 2, 3

# quality codes of an Insight (content.QUALITIES, then "any" for a cost or a Generate that takes any quality)
Q_GROWTH, Q_FREEDOM, Q_PASSION, Q_ANY = 0, 1, 2, 3

# client kinds (clients.toml ``kind``) and dream kinds (dreams.toml ``kind``)
CLIENT_ROUTINE, CLIENT_CASE = 0, 1
DREAM_LATENT, DREAM_MANIFEST = 0, 1

# goal tile conditions (board.toml / city.toml goal ``condition``: content.GOAL_OP)
GOAL_TAGS, GOAL_CURED, GOAL_TREATISES, GOAL_INPLAY = 1, 2, 3, 4

# Case Study end-scoring effects (clients.toml ``end``: content.END_OP)
END_PER_CURED, END_PER_TREATISE, END_PER_INPLAY, END_PER_HEART = 1, 2, 3, 4

# D_COLOUR purposes (the stack entry's a)
COLOUR_PUBLISH, COLOUR_DISTRICT = 0, 1

# choice offsets

# ---------------------------------------------------------------- event kinds and categories
EVENT_KINDS = ("coffee_gain", "coffee_spend", "vp", "bright", "heart_box", "insight", "reputation", "freud",
               "tile", "card", "publish", "cite", "client", "catharsis", "cure", "idea", "goal", "bonus", "move",
               "end")
(EV_CGAIN, EV_CSPEND, EV_VP, EV_BRIGHT, EV_HEART, EV_INSIGHT, EV_REP, EV_FREUD, EV_TILE, EV_CARD, EV_PUBLISH,
 EV_CITE, EV_CLIENT, EV_CATH, EV_CURE, EV_IDEA, EV_GOAL, EV_BONUS, EV_MOVE, EV_END) = range(len(EVENT_KINDS))

CATS = ("none", "tile", "card", "location", "bonus", "client", "reputation_track", "treatise", "cited",
        "empty_space", "end_trigger", "end_reputation", "end_track_bonus", "end_districts", "end_rows", "end_tags",
        "end_case_study", "end_hearts", "end_bright", "recall", "tile_cost", "conversion", "tile_stack",
        "tile_center", "tile_right", "free", "replace", "discard", "district", "goal", "notebook_full",
        "solo_schedule", "round_limit", "effect", "generate", "elevate", "transfer", "pay", "publish", "treat",
        "inkpot", "professor", "freud", "research_draw", "research_swap", "cited_bright")
(C_NONE, C_TILE, C_CARD, C_LOCATION, C_BONUS, C_CLIENT, C_REPTRACK, C_TREATISE, C_CITED, C_EMPTY, C_END_TRIGGER,
 C_END_REP, C_END_TRACK, C_END_DISTRICTS, C_END_ROWS, C_END_TAGS, C_END_CASE, C_END_HEARTS, C_END_BRIGHT, C_RECALL,
 C_TILE_COST, C_CONVERSION, C_TILE_STACK, C_TILE_CENTER, C_TILE_RIGHT, C_FREE, C_REPLACE, C_DISCARD, C_DISTRICT,
 C_GOAL, C_NB_FULL, C_SOLO, C_ROUND_LIMIT, C_EFFECT, C_GENERATE, C_ELEVATE, C_TRANSFER, C_PAY, C_PUBLISH, C_TREAT,
 C_INKPOT, C_PROFESSOR, C_FREUD, C_RDRAW, C_RSWAP, C_CITED_BRIGHT) = range(len(CATS))
VP_CATEGORIES = CATS[1:19]

OPT_PASS, OPT_STATE, OPT_RECALL, OPT_TREAT = 0, 1, 2, 3

# chance zones (meeplelab.sim.core.rng.chance_shuffle): each setup shuffle keyed by what it shuffles
RZ_TSTACK = 0     # + level (0, 1): the Notebook tile stacks
RZ_RDECK, RZ_TRDECK, RZ_RDECK_CL, RZ_CDECK_CL, RZ_LDECK, RZ_MDECK, RZ_GOALS = 2, 3, 4, 5, 6, 7, 8
N_CHANCE_ZONES = 9
