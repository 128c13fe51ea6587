"""Batch state of Galileo's Truth and the integer constants the kernels share."""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, fields

import numpy as np

from sim.core import BatchState

from .content import K_ICONS, NB, NI_MAX, NS_MAX, OP, SEAL_SPACES, T_MAX, WCOLS, WROWS
from .params import IDX

# ---- card zones
Z_NONE, Z_DECK, Z_HAND, Z_PLAY, Z_DISCARD, Z_REMOVED = 0, 1, 2, 3, 4, 5
# ---- chance zones (sim.core.rng.chance_shuffle): each chance event is keyed by its zone and how many
# times that zone has had one, so one seat's play never moves another seat's shuffles
MAX_SEATS = 4
RZ_DECK = 0                    # + seat: that seat's deck (setup shuffle, then every reshuffle)
RZ_INV = RZ_DECK + MAX_SEATS   # + Period - 1: that Period's Invention deck
RZ_BAG = RZ_INV + 3            # + Level - 1: that Level's Observation bag (setup, then every refill)
RZ_PENANCE = RZ_BAG + 3        # the Penance supply
RZ_GRAD = RZ_PENANCE + 1       # + Level - 2: the Graduation tile drawn for Levels II..IV
N_CHANCE_ZONES = RZ_GRAD + 3
# ---- Natural Philosopher
PH_STANDING, PH_ON_SPACE, PH_LYING, PH_PRISON, PH_STAKE = 0, 1, 2, 3, 4
# ---- decision phases
(P_MAIN, P_STACK, P_PURPLE, P_PENPAY, P_GROUP, P_SEC, P_BOOKSUBJ, P_TARGET, P_PLACE, P_SLOT, P_OLEVEL,
 P_OKEEP, P_OSPACE, P_OORDER, P_REMOVE, P_OVER) = range(16)
PHASE_NAMES = ("main", "stack", "purple-subject", "penance-pay", "group", "secondary", "book-subject", "target",
               "place-card", "workshop-slot", "observe-level", "observe-keep", "observe-space", "observe-order",
               "remove", "over")
# ---- separators
SEP_NONE, SEP_LINE, SEP_SUSP, SEP_PRINC = 0, 1, 2, 3
# ---- invention types / triggers
IT_INCOME, IT_ONGOING, IT_ONCE, IT_ENDGAME = 0, 1, 2, 3
TR_WRITE, TR_OBSERVE, TR_INVENT, TR_UPGRADE, TR_PLAY, TR_READ, TR_COPY = range(7)
# ---- main action kinds (turn log)
MAIN_NAMES = ("pass", "abjure", "play-treatise", "penance", "use-invention", "upgrade", "philosopher")
M_PASS, M_ABJURE, M_PLAY, M_PENANCE, M_INVENTION, M_UPGRADE, M_PHILOSOPHER = range(7)
# ---- VP categories (score categories) then other event categories
SCORE_CATEGORIES = ("level", "treatise", "observation", "mastery", "icons", "invention", "truth", "suspicion",
                    "end_loss", "seals")
NCAT = len(SCORE_CATEGORIES)
(C_LEVEL, C_TREATISE, C_OBSERVATION, C_MASTERY, C_ICONS, C_INVENTION, C_TRUTH, C_SUSPICION, C_END_LOSS,
 C_SEALS) = range(NCAT)
EVENT_CATEGORIES = SCORE_CATEGORIES + (
    "icon", "others-icon", "copernicans-icon", "abjure", "abjure-other", "penance", "suspicion-line",
    "paid", "kept", "gained", "-")
(C_S_ICON, C_S_OTHERS, C_S_COPERNICANS, C_S_ABJURE, C_S_ABJURE_OTHER, C_S_PENANCE, C_S_LINE, C_PAID, C_KEPT,
 C_GAINED, C_NONE) = range(NCAT, NCAT + 11)
EVENT_KINDS = ("vp", "suspicion", "abjure", "prison", "stake", "write", "copy", "read", "invent", "observe",
               "upgrade", "penance", "inquisition", "use-invention")
(E_VP, E_SUSP, E_ABJURE, E_PRISON, E_STAKE, E_WRITE, E_COPY, E_READ, E_INVENT, E_OBSERVE, E_UPGRADE, E_PENANCE,
 E_INQUISITION, E_USE_INV) = range(len(EVENT_KINDS))

# ---- opcodes (content.OP) as module constants for numba
O_COINS = OP["coins"]; O_RESEARCH = OP["research"]; O_VP = OP["vp"]; O_VP_PLUS = OP["vp_plus"]
O_VP_X2 = OP["vp_x2"]; O_VP_END = OP["vp_end"]; O_VP_XLEVEL = OP["vp_xlevel"]; O_VP_LVL = OP["vp_lvl"]
O_SUSP_DOWN = OP["susp_down"]; O_SUSP_DOWN_DIFF = OP["susp_down_diff"]; O_SUSP_UP = OP["susp_up"]
O_SUSP_UP_OTHERS = OP["susp_up_others"]; O_SUSP_UP_COP = OP["susp_up_copernicans"]; O_BOOKS = OP["books"]
O_BOOKS_PAY = OP["books_pay"]; O_BOOK_ANY = OP["book_any"]; O_BOOK_DIFF = OP["book_diff"]; O_BOOK_UP = OP["book_up"]
O_MASTERY = OP["mastery"]; O_MENTOR_SEAL = OP["mentor_seal"]; O_PHIL_BACK = OP["phil_back"]
O_INCOME_PHYS = OP["income_physics"]; O_INCOME_MATH = OP["income_mathematics"]
O_WRITE = OP["write"]; O_COPY = OP["copy"]; O_READ = OP["read"]; O_INVENT = OP["invent"]
O_OBSERVE = OP["observe"]; O_DRAW = OP["draw"]; O_REMOVE = OP["remove"]
O_FIRST_SECONDARY = O_WRITE   # opcodes >= this are round-framed Secondary Actions (kind = op - O_WRITE)
SEC_NAMES = ("write", "copy", "read", "invent", "observe", "draw", "remove")

# ---- action space
A_PASS, A_DONE, A_ABJURE, A_UPGRADE, A_PAY, A_DECKTOP = 0, 1, 2, 3, 4, 5
A_GROUP = 6          # +0 group A, +1 group B, +2 both (Suspicion line)
A_SUBJ = 9           # +subject
A_SEC = 13           # +secondary kind
A_OLEVEL = 20        # +level-1
A_KEEP = 23          # +0/+1 (tile kept; observe order: 0 = space icons first, 1 = tile icons first)
A_CARD = 25          # +card type (hand)
A_RMDISC = A_CARD + T_MAX
A_RMPLAY = A_RMDISC + T_MAX
A_BOARD = A_RMPLAY + T_MAX
A_INV = A_BOARD + NB
A_SLOT = A_INV + NI_MAX
A_SPACE = A_SLOT + 4
A_WIN = A_SPACE + NS_MAX
A_EFFECTS = A_WIN + WROWS * WCOLS   # resolve the pending mandatory Effects of the icon set now (A-GT-25)
A_ICON = A_EFFECTS + 1   # +gi*K_ICONS+j: resolve that one pending Effect icon now (order choice, A-GT-25)
NUM_ACTIONS = A_ICON + 2 * K_ICONS
D_FRAMES = 8

# ---- parameter vector indices (numba compile-time constants)
I_CYCLES = IDX["cycles"]; I_P2 = IDX["period2_first_cycle"]; I_P3 = IDX["period3_first_cycle"]
I_HAND = IDX["hand_size"]; I_START_COINS = IDX["start_coins"]; I_START_RES = IDX["start_research"]
I_START_SUSP = IDX["start_suspicion"]; I_START_BOOKS = IDX["start_books"]; I_BOOK_MAX = IDX["book_track_max"]
I_ABJ_DROP = IDX["abjure_suspicion_drop"]; I_ABJ_RISE = IDX["abjure_other_rise"]; I_SUSP_MAX = IDX["suspicion_max"]
I_PRISON = IDX["prison_at"]; I_STAKE = IDX["stake_at"]; I_INQ = IDX["inquisition_flip_cycle"]
I_PEN_THR = IDX["penance_threshold"]; I_PEN_DROP = IDX["penance_suspicion_drop"]
I_VP_PER_LEVEL = IDX["vp_per_level_gained"]; I_MENTORS = IDX["mentors"]; I_SEALS_PER = IDX["seals_per_mentor"]
I_BESIDE_VP = IDX["seal_beside_vp"]; I_OBS_DRAW = IDX["observe_draw"]; I_OBS_VP = IDX["observe_bonus_vp"]
I_OBS_COINS = IDX["observe_bonus_coins"]; I_WRITE_RES = IDX["write_research_bottom"]
I_TRUTH_TILE = IDX["truth_vp_per_tile"]; I_TRUTH_FLAT = IDX["truth_vp_flat"]; I_STAKE_VP = IDX["stake_vp"]
I_INC_COINS = IDX["income_coins_by_level"]; I_INC_RES = IDX["income_research_by_level"]
I_BOOK_LV = IDX["book_level_starts"]; I_LVL_VP = IDX["level_space_vp_2"]   # 3 consecutive tuples of 4
I_WS_COINS = IDX["workshop_slot_coins"]; I_BAND_START = IDX["suspicion_band_starts"]
I_BAND_VP = IDX["suspicion_band_vp"]
I_FIRST_RULE = IDX["first_player_rule"]   # 0 rotate, 1 first-to-pass, 2 fewest-vp, 3 fixed (params.FIRST_PLAYER_RULES)
assert IDX["level_space_vp_3"] == I_LVL_VP + 4 and IDX["level_space_vp_4"] == I_LVL_VP + 8


@dataclass
class GTState(BatchState):
    """Arrays of a batch of Galileo's Truth games (B games, P seats, NC card slots per seat)."""

    cycle: np.ndarray        # int32[B] 1..cycles
    over: np.ndarray         # bool[B]
    seat: np.ndarray         # int32[B] seat to act
    first: np.ndarray        # int32[B] first player of the Cycle
    passed: np.ndarray       # bool[B, P]
    turn: np.ndarray         # int32[B]
    phase: np.ndarray        # int32[B] pending decision
    inq_up: np.ndarray       # bool[B] Inquisition token face up
    stack: np.ndarray        # int32[B, NC] card slots of the stack being played (last = Active card)
    stack_n: np.ndarray      # int32[B]
    stack_subj: np.ndarray   # int32[B] Subject of the stack (-1: only purple so far)
    fr_n: np.ndarray         # int32[B] icon-resolution frames
    fr_set: np.ndarray       # int32[B, D] icon set of each frame
    fr_sel: np.ndarray       # int32[B, D] selected groups (bit 0 = A, bit 1 = B; 0 = not chosen)
    fr_used: np.ndarray      # int32[B, D] icons done (bit gi*K + j)
    cur_op: np.ndarray       # int32[B] icon being resolved (sub-decision)
    cur_a: np.ndarray        # int32[B]
    cur_b: np.ndarray        # int32[B]
    cur_c: np.ndarray        # int32[B]
    cur_bit: np.ndarray      # int32[B] frame bit of a choice effect (0: none)
    cur_card: np.ndarray     # int32[B] card slot being placed / penance played
    obs_level: np.ndarray    # int32[B]
    obs_tiles: np.ndarray    # int32[B, 2]
    obs_tile: np.ndarray     # int32[B]
    obs_cell: np.ndarray     # int32[B]
    turn_main: np.ndarray    # int32[B]
    turn_vp0: np.ndarray     # int32[B]
    act_vp: np.ndarray       # int32[B] VP the acting seat gained in this Main Action (x2, +)
    turn_cards: np.ndarray   # int32[B]
    workshop: np.ndarray     # int32[B, 4] invention ids, slot 0 = top, -1 empty
    inv_deck: np.ndarray     # int32[B, 3, NI]
    inv_deck_n: np.ndarray   # int32[B, 3]
    ws_dirty: np.ndarray     # bool[B]
    inv_owner: np.ndarray    # int32[B, NI] (-1: not owned)
    inv_tapped: np.ndarray   # bool[B, NI]
    bag: np.ndarray          # int32[B, 3, NT]
    bag_n: np.ndarray        # int32[B, 3]
    bagdisc: np.ndarray      # int32[B, 3, NT]
    bagdisc_n: np.ndarray    # int32[B, 3]
    window: np.ndarray       # int32[B, P, 3, 4] tile id or -1
    tseal: np.ndarray        # int32[B, NB, 4] seat or -1
    mastery: np.ndarray      # int32[B, NM, ML] seat or -1
    lvl_seal: np.ndarray     # int32[B, 3, 4] seat or -1 (Levels II..IV)
    grad: np.ndarray         # int32[B, 3] Graduation tile of Levels II..IV
    space_used: np.ndarray   # int32[B, NS] Philosophers placed this Cycle
    pen_pile: np.ndarray     # int32[B, NPEN] Penance card types, top = pen_n - 1
    pen_n: np.ndarray        # int32[B]
    coins: np.ndarray        # int32[B, P]
    research: np.ndarray     # int32[B, P]
    books: np.ndarray        # int32[B, P, 4]
    susp: np.ndarray         # int32[B, P]
    coper: np.ndarray        # bool[B, P] Principle Coin Copernican side up
    abjure_cycle: np.ndarray  # int32[B, P] Cycle of Abjure (0: never)
    level: np.ndarray        # int32[B, P] Academic Level 1..4
    mentor: np.ndarray       # int32[B, P, M] seals left on each Mentor
    beside: np.ndarray       # int32[B, P] seals beside the board
    phil: np.ndarray         # int32[B, P] Philosopher state
    phil_space: np.ndarray   # int32[B, P]
    vp: np.ndarray           # int32[B, P]
    vp_cat: np.ndarray       # int32[B, P, NCAT]
    vp_ev: np.ndarray        # int32[B, P] running sum of VP events written
    end_loss: np.ndarray     # int32[B, P] VP to lose at the end (red end-game icons)
    ctype: np.ndarray        # int32[B, P, NC] card type of each owned slot (-1 unused)
    czone: np.ndarray        # int32[B, P, NC] zone of each slot
    deck: np.ndarray         # int32[B, P, NC] deck order (slot ids), top = deck_n - 1
    deck_n: np.ndarray       # int32[B, P]
    nslots: np.ndarray       # int32[B, P]
    first_pass: np.ndarray   # int32[B] first seat to pass in this Cycle (-1: nobody yet; A-GT-31)
    known: np.ndarray        # bool[B, P, NC] card public: taken from a Treatise Board (Write/Copy), then only in
    #                          hand, on top of the deck or in public zones; cleared when reshuffled into the deck


STATE_FIELDS = tuple(f.name for f in fields(GTState) if f.name != "num_players")
SArr = namedtuple("SArr", STATE_FIELDS)


def arrays(state: GTState) -> SArr:
    """The state's arrays as the namedtuple the kernels take."""
    return SArr(*(getattr(state, n) for n in STATE_FIELDS))
