"""Column constants of Unconscious Mind's state groups (meeplelab.sim.unconscious_mind.state.LAYOUT).

Written by ``python -m meeplelab.sim.core.layout meeplelab.sim.unconscious_mind.state:LAYOUT sim/unconscious_mind/cols.py`` from the table in
that module; ``tests/test_layout.py`` checks this file against it. Do not edit by hand.
"""


# ---- game[g, COLUMN]: one game
TO_ACT = 0  # seat whose decision is pending; 0..P-1
TURN = 1  # turns started
RND = 2  # round; >= 1
OVER = 3  # 1 once the game ended
END_TRIG = 4  # 1 once Freud reached the end of the reputation track
LAST_ROUND = 5  # the round the game ends after (set when the end is triggered)
SP = 6  # entries on the decision stack
T_OPT = 7  # turn option taken this turn (codes.OPT_*)
T_ACT = 8  # Meeting Table action
T_CSPENT = 9  # Coffee spent this turn
T_CGAIN = 10  # Coffee gained this turn
T_VP = 11  # VP gained this turn
REP_SEQ = 12  # reputation steps so far (orders markers on one space)
FREUD_REP = 13  # Freud's reputation
TTOP = 14  # [2] tiles drawn from the level I / II Notebook tile stacks
MARKET = 16  # [2, 2] Notebook tile market [level, center/right], tile id or -1
MARKET_W = 2  # row stride of MARKET
TDISC = 20  # Notebook tiles discarded
RTOP = 21  # Research cards drawn from the deck
TRTOP = 22  # Treatises drawn from the deck
PUB_T = 23  # Treatise being published, -1 none
PUB_FILL = 24  # [5] Research card in each Volume slot of the Treatise published
RTOP_CL = 29  # Routine clients drawn
CTOP_CL = 30  # Case Study clients drawn
LTOP = 31  # latent dreams drawn
MTOP = 32  # manifest dreams drawn
DR_GONE = 33  # dream cards out of the game
FREUD_LOC = 34  # Freud's Location
LOC_COV = 35  # [6, 3] Location bonus slots covered [location, slot]
LOC_COV_W = 3  # row stride of LOC_COV
DIST_LEFT = 53  # [3] tokens left in each district stack
DIST_SLOT = 56  # [3, 4] seat holding each district bonus slot, -1 free; -1..P-1
DIST_SLOT_W = 4  # row stride of DIST_SLOT
GAME_WIDTH = 68  # columns of game

# ---- seat[g, p, COLUMN]: one seat
COFFEE = 0  # Coffee; >= 0
VP = 1  # VP
VP_EV = 2  # sum of the seat's VP events (invariant)
VP_CAT = 3  # [46] VP by category (codes.CATS)
BRIGHT = 49  # Bright Ideas; >= 0
HEARTS = 50  # heart-shaped boxes; >= 0
REP = 51  # reputation
REP_ORDER = 52  # rep_seq when the marker arrived on its space
IDEAS_HAND = 53  # Ideas in hand; >= 0
IDEAS_LOCKED = 54  # Ideas locked on the player board; >= 0
INKPOT = 55  # inkpot position
DIAL_W = 56  # [10] white Insights at each dial position; >= 0
DIAL_C = 66  # [10] player-colour Insights at each dial position; >= 0
COL_BOARD = 76  # player-colour Insights still at the Notebook ends; 0..6
COL_SPENT = 77  # player-colour Insights put on Treatises / district slots; 0..6
NB = 78  # [9] Notebook tile in each space (row*3+col), -1 empty
ICONS = 87  # icon spaces covered
ROW_DONE = 88  # [3] 1 per completed row
COL_DONE = 91  # [3] 1 per completed column
NB_FULL = 94  # 1 once all nine spaces are filled
PUB_CITED = 95  # 1 if the seat was cited by the Treatise being published
ROOM_CLIENT = 96  # [2] client in each office room, -1 none
ROOM_THER = 98  # [2] therapy-track space of each room's client
ROOM_CATH = 100  # [2] 1 once the room's client reached catharsis
ROOM_OPEN = 102  # [2] 1 when the room is open
ROOM_LATENT = 104  # [2] latent dream on each room's client, -1 none
ROOM_MANIFEST = 106  # [2] manifest dream on each room's client, -1 none
CURED = 108  # cured clients; >= 0
PROF_LOC = 109  # the Professor's Location
SEAT_WIDTH = 110  # columns of seat

# ---- space[g, i0 < spaces, COLUMN]: one Meeting Table idea space
SPACE_OWNER = 0  # seat whose Ideas are on the space, -1 empty; -1..P-1
SPACE_ACT = 1  # Meeting Table action the Ideas point at
SPACE_N = 2  # Ideas on the space; >= 0
SPACE_BRIGHT = 3  # Bright Ideas on the space
SPACE_WIDTH = 4  # columns of space

# ---- card[g, i0 < cards, COLUMN]: one Research card
CARD_LOC = 0  # where the card is (codes.L_*); 0..4
CARD_OWN = 1  # holder seat or Treatise
CARD_KNOWN = 2  # 1 = everyone saw it go into its holder's hand (display swap)
CARD_WIDTH = 3  # columns of card

# ---- treatise[g, i0 < treatises, COLUMN]: one Treatise tile
TR_OWNER = 0  # seat that published it, -1 unpublished; -1..P-1
TR_CARDS = 1  # [5] Research card in each Volume, bottom first
TR_N = 6  # Volumes left under it (citing removes from the top)
TREATISE_WIDTH = 7  # columns of treatise

# ---- client[g, i0 < clients, COLUMN]: one client
CL_OWNER = 0  # seat that took the client; -1..P-1
CL_WHERE = 1  # room, or cured state
CLIENT_WIDTH = 2  # columns of client

# ---- goal[g, i0 < goals, COLUMN]: one Location goal tile in play
GOAL_ID = 0  # goal tile (content row) in this slot, -1 none
GOAL_OWNER = 1  # seat that claimed it, -1 unclaimed; -1..P-1
GOAL_WIDTH = 2  # columns of goal

# ---- stk[g, i0 < 48, COLUMN]: one pending-decision stack entry (top = sp - 1)
STK_KIND = 0  # decision kind (codes.D_*/K_*)
STK_A = 1  # argument a
STK_B = 2  # argument b
STK_C = 3  # argument c
STK_WIDTH = 4  # columns of stk

# ---- pile[g, PILE, i]: decks, displays and tile stacks
RDECK = 0  # [cards] Research deck (drawn from position rtop)
RDISP = 1  # [rdisp] Research display
TRDECK = 2  # [treatises] Treatise deck (from trtop)
TRDISP = 3  # [trdisp] Treatise display
RDECK_CL = 4  # [routine] Routine client deck (from rtop_cl)
RDISP_CL = 5  # [rdisp_cl] Routine client display
CDECK_CL = 6  # [case] Case Study client deck (from ctop_cl)
CDISP_CL = 7  # [cdisp_cl] Case Study client display
LDECK = 8  # [latent] latent dream deck (from ltop)
MDECK = 9  # [manifest] manifest dream deck (from mtop)
MDISP = 10  # [mdisp] manifest dream display
TSTACK_I = 11  # [ntl] level I Notebook tile stack (from ttop[0])
TSTACK_II = 12  # [ntl] level II Notebook tile stack (from ttop[1]); must follow tstack_i
