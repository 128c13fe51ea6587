"""Column constants of Galileo's Truth's state (:data:`meeplelab.sim.galileos_truth.state.LAYOUT`): the column of each
field in its group's array, the row of each pile.

Written by ``python -m meeplelab.sim.core.layout meeplelab.sim.galileos_truth.state:LAYOUT sim/galileos_truth/cols.py`` from the table in
that module; ``tests/test_layout.py`` checks this file against it. Do not edit by hand.
"""


# ---- game[g, COLUMN]: one game
CYCLE = 0  # Cycle (A-GT-01); 1..cycles
OVER = 1  # 1: the game has ended
TO_ACT = 2  # seat to act (every decision of a game is taken by that seat); 0..P-1
FIRST = 3  # first player of the Cycle; 0..P-1
TURN = 4  # turns played
PHASE = 5  # pending decision (P_*)
INQ_UP = 6  # 1: Inquisition token face up (A-GT-12)
STACK_N = 7  # cards in the stack being played (pile STACK)
STACK_SUBJ = 8  # Subject of the stack (-1: only purple so far)
FR_N = 9  # icon-resolution frames in use
FR_SET = 10  # [8] icon set of each frame
FR_SEL = 18  # [8] selected groups of each frame (bit 0 = A, bit 1 = B; 0 = not chosen)
FR_USED = 26  # [8] icons done in each frame (bit gi*K + j; EFF_GO, OBS_BONUS flags)
CUR_OP = 34  # icon being resolved (sub-decision opcode)
CUR_A = 35  # argument a of the icon being resolved
CUR_B = 36  # argument b of the icon being resolved
CUR_C = 37  # argument c of the icon being resolved
CUR_BIT = 38  # frame bit of a choice effect (0: none)
CUR_CARD = 39  # card slot being placed / Penance card played
OBS_LEVEL = 40  # Level of the Observation under way
OBS_TILES = 41  # [2] the two tiles drawn to choose from
OBS_TILE = 43  # tile kept
OBS_CELL = 44  # Window cell chosen
TURN_MAIN = 45  # Main Action of the turn (M_*)
TURN_VP0 = 46  # VP of the seat at the start of the turn
ACT_VP = 47  # VP the acting seat gained in this Main Action (x2, +)
TURN_CARDS = 48  # cards played from hand in the turn
WORKSHOP = 49  # [4] Invention in each Workshop slot, slot 0 = top, -1 empty
INV_DECK_N = 53  # [3] cards in the Invention deck of Periods I..III (piles INV_DECK_1..3); 0..inventions
WS_DIRTY = 56  # 1: the Workshop needs a refill
BAG_N = 57  # [3] tiles in the Observation bag of Levels I..III (piles BAG_1..3); 0..tiles
BAGDISC_N = 60  # [3] tiles discarded from Levels I..III (piles BAGDISC_1..3); 0..tiles
TSEAL = 63  # [10, 4] seat owning each seal space of each Treatise board, -1 free; -1..P-1
TSEAL_W = 4  # row stride of TSEAL
LVL_SEAL = 103  # [3, 4] seat on each seal space of Levels II..IV, -1 free; -1..P-1
LVL_SEAL_W = 4  # row stride of LVL_SEAL
GRAD = 115  # [3] Graduation tile of Levels II..IV
PEN_N = 118  # Penance cards in the supply (pile PEN_PILE, top = pen_n - 1); 0..penance
FIRST_PASS = 119  # first seat to pass in this Cycle (-1: nobody yet; A-GT-31); -1..P-1
GAME_WIDTH = 120  # columns of game

# ---- seat[g, p, COLUMN]: one seat
PASSED = 0  # 1: passed for the rest of the Cycle
COINS = 1  # Coins (start_coins at setup); >= 0
RESEARCH = 2  # Research tokens (start_research at setup); >= 0
BOOKS = 3  # [4] Books on each Subject track (start_books at setup); >= 0
SUSP = 7  # Suspicion (start_suspicion at setup); 0..suspicion_max
COPER = 8  # 1: Principle Coin Copernican side up
ABJURE_CYCLE = 9  # Cycle of Abjure (0: never); 0..cycles
LEVEL = 10  # Academic Level; 1..4
BESIDE = 11  # Wax Seals beside the board; >= 0
PHIL = 12  # Natural Philosopher state (PH_*); 0..4
PHIL_SPACE = 13  # space of the Natural Philosopher, -1 none; -1..spaces-1
VP = 14  # VP
VP_CAT = 15  # [10] VP by score category (C_*)
VP_EV = 25  # running sum of VP events written
END_LOSS = 26  # VP to lose at the end (red end-game icons)
WINDOW = 27  # [3, 4] Observation tile on each Window cell, -1 empty
WINDOW_W = 4  # row stride of WINDOW
DECK_N = 39  # cards in the deck (pile DECK_0 + seat, top = deck_n - 1); 0..slots
NSLOTS = 40  # card slots in use; 0..slots
SEAT_WIDTH = 41  # columns of seat

# ---- slot[g, p, i1 < slots, COLUMN]: one card slot of a seat
SLOT_CTYPE = 0  # card type of the owned slot (-1 unused)
SLOT_CZONE = 1  # zone of the card (Z_*); 0..5
SLOT_KNOWN = 2  # 1: card public: taken from a Treatise Board (Write/Copy), then only in hand, on top of the deck or in public zones; cleared when reshuffled into the deck
SLOT_WIDTH = 3  # columns of slot

# ---- mentors[g, p, i1 < mentors, COLUMN]: one Mentor of a seat
MENTOR = 0  # Wax Seals left on the Mentor (seals_per_mentor at setup; A-GT-14); >= 0
MENTORS_WIDTH = 1  # columns of mentors

# ---- inv[g, i0 < inventions, COLUMN]: one Invention
INV_OWNER = 0  # seat owning the Invention, -1 none; -1..P-1
INV_TAPPED = 1  # 1: used this Cycle
INV_WIDTH = 2  # columns of inv

# ---- space[g, i0 < spaces, COLUMN]: one Natural Philosopher space
SPACE_USED = 0  # Natural Philosophers placed on the space this Cycle; 0..P
SPACE_WIDTH = 1  # columns of space

# ---- track[g, i0 < tracks, i1 < track_spaces, COLUMN]: one space of a Mastery track
MASTERY = 0  # seat on the Mastery track space, -1 free; -1..P-1
TRACK_WIDTH = 1  # columns of track

# ---- pile[g, PILE, i]: decks, bags and the stack
STACK = 0  # [slots] card slots of the stack being played (last = Active card)
DECK_0 = 1  # [slots] seat 0's deck order (slot ids), top = deck_n - 1
DECK_1 = 2  # [slots] seat 1's deck
DECK_2 = 3  # [slots] seat 2's deck
DECK_3 = 4  # [slots] seat 3's deck
INV_DECK_1 = 5  # [inventions] Invention deck of Period I (ids), top = inv_deck_n - 1
INV_DECK_2 = 6  # [inventions] Invention deck of Period II
INV_DECK_3 = 7  # [inventions] Invention deck of Period III
BAG_1 = 8  # [tiles] Observation bag of Level I (tile ids)
BAG_2 = 9  # [tiles] Observation bag of Level II
BAG_3 = 10  # [tiles] Observation bag of Level III
BAGDISC_1 = 11  # [tiles] tiles discarded from Level I
BAGDISC_2 = 12  # [tiles] tiles discarded from Level II
BAGDISC_3 = 13  # [tiles] tiles discarded from Level III
PEN_PILE = 14  # [penance] Penance supply (card types), top = pen_n - 1
