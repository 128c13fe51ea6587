"""Batch state of Galileo's Truth and the integer constants the kernels share."""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from meeplelab.sim.core.actions import Family, Vocabulary
from meeplelab.sim.core.layout import Field, Group, Layout, LayoutState, Pile

from .content import K_ICONS, N_SUBJECTS, NB, NI_MAX, NS_MAX, OP, SEAL_SPACES, SUBJECTS, T_MAX, WCOLS, WROWS
from .params import FIRST_PLAYER_RULES, Params

# ---- card zones
Z_NONE, Z_DECK, Z_HAND, Z_PLAY, Z_DISCARD, Z_REMOVED = 0, 1, 2, 3, 4, 5
# ---- chance zones (meeplelab.sim.core.rng.chance_shuffle): each chance event is keyed by its zone and how many
# times that zone has had one, so one seat's play never moves another seat's shuffles
MAX_SEATS = 4
RZ_DECK = 0                    # + seat: that seat's deck (setup shuffle, then every reshuffle)
RZ_INV = RZ_DECK + MAX_SEATS   # + Period - 1: that Period's Invention deck
RZ_BAG = RZ_INV + 3            # + Level - 1: that Level's Observation bag (setup, then every refill)
RZ_PENANCE = RZ_BAG + 3        # the Penance supply
RZ_GRAD = RZ_PENANCE + 1       # + Level - 2: the Graduation tile drawn for Levels II..IV
N_CHANCE_ZONES = RZ_GRAD + 3
WORKSHOP_SLOTS = 4      # Invention slots of the Workshop (seed 001 §Create an Invention)
LEVEL_SEAL_SPACES = 4   # seal spaces of each Academic Level II..IV on the board
MAX_LEVEL = 4           # Academic Levels I..IV (seed 001 §Upgrade your Academic Level)
N_OBS_LEVELS = 3        # Observation Levels I..III (seed 001 §Observe the Sky; A-GT-18)
BOOK_LEVELS = 3         # Levels I..III of a Book track (A-GT-07)
N_BANDS = 4             # end Suspicion bands (A-GT-21; parameter suspicion_band_starts)
# ---- icon groups chosen in a frame (fr_sel bits; seed 001 §Resolving icons)
SEL_A, SEL_B, SEL_BOTH = 1, 2, 3
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
               "upgrade", "penance", "inquisition", "use-invention", "assign", "play")
(E_VP, E_SUSP, E_ABJURE, E_PRISON, E_STAKE, E_WRITE, E_COPY, E_READ, E_INVENT, E_OBSERVE, E_UPGRADE, E_PENANCE,
 E_INQUISITION, E_USE_INV, E_ASSIGN, E_PLAY) = range(len(EVENT_KINDS))

# ---- opcodes (content.OP) as module constants for numba; 0 = no icon in that place
O_NONE = 0
assert min(OP.values()) > O_NONE
O_COINS = OP["coins"]
O_RESEARCH = OP["research"]
O_VP = OP["vp"]
O_VP_PLUS = OP["vp_plus"]
O_VP_X2 = OP["vp_x2"]
O_VP_END = OP["vp_end"]
O_VP_XLEVEL = OP["vp_xlevel"]
O_VP_LVL = OP["vp_lvl"]
O_SUSP_DOWN = OP["susp_down"]
O_SUSP_DOWN_DIFF = OP["susp_down_diff"]
O_SUSP_UP = OP["susp_up"]
O_SUSP_UP_OTHERS = OP["susp_up_others"]
O_SUSP_UP_COP = OP["susp_up_copernicans"]
O_BOOKS = OP["books"]
O_BOOKS_PAY = OP["books_pay"]
O_BOOK_ANY = OP["book_any"]
O_BOOK_DIFF = OP["book_diff"]
O_BOOK_UP = OP["book_up"]
O_MASTERY = OP["mastery"]
O_MENTOR_SEAL = OP["mentor_seal"]
O_PHIL_BACK = OP["phil_back"]
O_INCOME_PHYS = OP["income_physics"]
O_INCOME_MATH = OP["income_mathematics"]
O_WRITE = OP["write"]
O_COPY = OP["copy"]
O_READ = OP["read"]
O_INVENT = OP["invent"]
O_OBSERVE = OP["observe"]
O_DRAW = OP["draw"]
O_REMOVE = OP["remove"]
O_FIRST_SECONDARY = O_WRITE   # opcodes >= this are round-framed Secondary Actions (kind = op - O_WRITE)
SEC_NAMES = ("write", "copy", "read", "invent", "observe", "draw", "remove")

# ---- action space: the action vocabulary (sim/core/actions.py), its families in id order with their labels
VOCAB = Vocabulary((
    Family("pass"), Family("done"), Family("abjure"), Family("upgrade", (), "upgrade-level"),
    Family("pay", (), "pay-penance"), Family("decktop", (), "card-to-deck-top"),
    Family("group", (3,), "group:{0}", (("a", "b", "both"),)),        # group A, group B, both (Suspicion line)
    Family("subject", (N_SUBJECTS,), "subject:{0}", (SUBJECTS,)),
    Family("secondary", (len(SEC_NAMES),), "secondary:{0}", (SEC_NAMES,)),
    Family("observe_level", (3,), "observe-level:{0}", (("1", "2", "3"),)),
    Family("keep", (2,), "choice:{0}"),    # a two-way choice: its meaning is the decision's (OBSERVE_CHOICES)
    Family("card", (T_MAX,), "card:{0}"),  # a card type in hand
    Family("remove_discard", (T_MAX,), "remove-discard:{0}"), Family("remove_play", (T_MAX,), "remove-play:{0}"),
    Family("treatise", (NB,), "treatise:{0}"), Family("invention", (NI_MAX,), "use-invention:{0}"),
    Family("slot", (4,), "workshop-slot:{0}"), Family("philosopher", (NS_MAX,), "philosopher:{0}"),
    Family("window", (WROWS, WCOLS), "window:row{0}:col{1}"),
    Family("effects"),                     # resolve the pending mandatory Effects of the icon set now (A-GT-25)
    Family("icon", (2, K_ICONS), "effect-icon:{0}:{1}"),  # resolve that one pending Effect icon now (A-GT-25)
), {  # what a ``keep`` id means under each decision (sim/core/actions.py: per-decision choices)
    "P_OKEEP": (Family("tile", (2,), "keep-tile:{0}"),),               # the Observation tile kept of the two (A-GT-29)
    "P_OORDER": (Family("space-first", (), "space-icons-first"),     # the Window space's icons first (A-GT-25)
                 Family("tile-first", (), "tile-icons-first")),
}, choice_family="keep")
#: the first id of each family (the kernels' constants)
A_PASS, A_DONE, A_ABJURE, A_UPGRADE = (VOCAB.start(n) for n in ("pass", "done", "abjure", "upgrade"))
A_PAY, A_DECKTOP, A_GROUP, A_SUBJ = (VOCAB.start(n) for n in ("pay", "decktop", "group", "subject"))
A_SEC, A_OLEVEL, A_KEEP, A_CARD = (VOCAB.start(n) for n in ("secondary", "observe_level", "keep", "card"))
A_RMDISC, A_RMPLAY, A_BOARD = (VOCAB.start(n) for n in ("remove_discard", "remove_play", "treatise"))
A_INV, A_SLOT, A_SPACE, A_WIN = (VOCAB.start(n) for n in ("invention", "slot", "philosopher", "window"))
A_EFFECTS, A_ICON = VOCAB.start("effects"), VOCAB.start("icon")
#: the two-way choices by meaning (``VOCAB.choice``)
A_KEEP_TILE = VOCAB.choice("P_OKEEP", "tile")                                  # + the drawn tile's index
A_SPACE_FIRST, A_TILE_FIRST = VOCAB.choice("P_OORDER", "space-first"), VOCAB.choice("P_OORDER", "tile-first")
NUM_ACTIONS = VOCAB.num_actions
D_FRAMES = 8

# ---- the parameter vector: prm[PRM_<FIELD>] (pcols.py, written from the Params dataclass)
#: the codes of first_player_rule: its column holds the value's position in params.FIRST_PLAYER_RULES
assert FIRST_PLAYER_RULES == ("rotate", "first-to-pass", "fewest-vp", "fixed")
assert len(Params().suspicion_band_starts) == N_BANDS


COLS_DOC = ("Column constants of Galileo's Truth's state (:data:`meeplelab.sim.galileos_truth.state.LAYOUT`): the column of each\n"
            "field in its group's array, the row of each pile.")

_F = Field


def _G(*args, **kw) -> Group:
    """A group of int64 columns: every Galileo's Truth array is int64, like the content arrays and the
    parameter vector, so every value a kernel passes on has one type and each helper compiles once."""
    return Group(*args, dtype="int64", **kw)


#: Galileo's Truth's rule state, declared once: a few int64 arrays by entity (``meeplelab.sim.core.layout``). Former
#: flags are 0/1. Sizes: ``P`` seats, ``slots`` card slots per seat (basic + Treatise + Penance cards),
#: ``inventions``, ``spaces`` (Philosopher spaces), ``tracks`` x ``track_spaces`` (Mastery tracks),
#: ``mentors`` (parameter ``mentors``, A-GT-14), ``tiles`` (Observation tiles of the largest Level),
#: ``penance`` (Penance supply).
LAYOUT = Layout((
    _G("game", None, (
        _F("cycle", init=1, doc="Cycle (A-GT-01)", lo=1, hi="cycles"),
        _F("over", doc="1: the game has ended", flag=True),
        _F("to_act", doc="seat to act (every decision of a game is taken by that seat)", lo=0, hi="P-1"),
        _F("first", doc="first player of the Cycle", lo=0, hi="P-1"),
        _F("turn", doc="turns played"),
        _F("phase", doc="pending decision (P_*)"),
        _F("inq_up", doc="1: Inquisition token face up (A-GT-12)", flag=True),
        _F("stack_n", doc="cards in the stack being played (pile STACK)"),
        _F("stack_subj", init=-1, doc="Subject of the stack (-1: only purple so far)"),
        _F("fr_n", doc="icon-resolution frames in use"),
        _F("fr_set", (D_FRAMES,), doc="icon set of each frame"),
        _F("fr_sel", (D_FRAMES,), doc="selected groups of each frame (bit 0 = A, bit 1 = B; 0 = not chosen)"),
        _F("fr_used", (D_FRAMES,), doc="icons done in each frame (bit gi*K + j; EFF_GO, OBS_BONUS flags)"),
        _F("cur_op", doc="icon being resolved (sub-decision opcode)"),
        _F("cur_a", doc="argument a of the icon being resolved"),
        _F("cur_b", doc="argument b of the icon being resolved"),
        _F("cur_c", doc="argument c of the icon being resolved"),
        _F("cur_bit", doc="frame bit of a choice effect (0: none)"),
        _F("cur_card", init=-1, doc="card slot being placed / Penance card played"),
        _F("obs_level", doc="Level of the Observation under way"),
        _F("obs_tiles", (2,), init=-1, doc="the two tiles drawn to choose from"),
        _F("obs_tile", init=-1, doc="tile kept"),
        _F("obs_cell", init=-1, doc="Window cell chosen"),
        _F("turn_main", doc="Main Action of the turn (M_*)"),
        _F("turn_vp0", doc="VP of the seat at the start of the turn"),
        _F("act_vp", doc="VP the acting seat gained in this Main Action (x2, +)"),
        _F("turn_cards", doc="cards played from hand in the turn"),
        _F("workshop", (WORKSHOP_SLOTS,), init=-1, doc="Invention in each Workshop slot, slot 0 = top, -1 empty"),
        _F("inv_deck_n", (3,), doc="cards in the Invention deck of Periods I..III (piles INV_DECK_1..3)", lo=0,
           hi="inventions"),
        _F("ws_dirty", doc="1: the Workshop needs a refill", flag=True),
        _F("bag_n", (3,), doc="tiles in the Observation bag of Levels I..III (piles BAG_1..3)", lo=0, hi="tiles"),
        _F("bagdisc_n", (3,), doc="tiles discarded from Levels I..III (piles BAGDISC_1..3)", lo=0, hi="tiles"),
        _F("tseal", (NB, SEAL_SPACES), init=-1, doc="seat owning each seal space of each Treatise board, -1 free",
           lo=-1, hi="P-1"),
        _F("lvl_seal", (3, LEVEL_SEAL_SPACES), init=-1, doc="seat on each seal space of Levels II..IV, -1 free", lo=-1,
           hi="P-1"),
        _F("grad", (3,), init=-1, doc="Graduation tile of Levels II..IV"),
        _F("pen_n", doc="Penance cards in the supply (pile PEN_PILE, top = pen_n - 1)", lo=0, hi="penance"),
        _F("first_pass", init=-1, doc="first seat to pass in this Cycle (-1: nobody yet; A-GT-31)", lo=-1, hi="P-1"),
    ), doc="one game"),
    _G("seat", "P", (
        _F("passed", doc="1: passed for the rest of the Cycle", flag=True),
        _F("coins", doc="Coins (start_coins at setup)", lo=0),
        _F("research", doc="Research tokens (start_research at setup)", lo=0),
        _F("books", (4,), doc="Books on each Subject track (start_books at setup)", lo=0),
        _F("susp", doc="Suspicion (start_suspicion at setup)", lo=0, hi="suspicion_max"),
        _F("coper", init=1, doc="1: Principle Coin Copernican side up", flag=True),
        _F("abjure_cycle", doc="Cycle of Abjure (0: never)", lo=0, hi="cycles"),
        _F("level", init=1, doc="Academic Level", lo=1, hi=MAX_LEVEL),
        _F("beside", doc="Wax Seals beside the board", lo=0),
        _F("phil", doc="Natural Philosopher state (PH_*)", lo=PH_STANDING, hi=PH_STAKE),
        _F("phil_space", init=-1, doc="space of the Natural Philosopher, -1 none", lo=-1, hi="spaces-1"),
        _F("vp", doc="VP"),
        _F("vp_cat", (NCAT,), doc="VP by score category (C_*)"),
        _F("vp_ev", doc="running sum of VP events written"),
        _F("end_loss", doc="VP to lose at the end (red end-game icons)"),
        _F("window", (WROWS, WCOLS), init=-1, doc="Observation tile on each Window cell, -1 empty"),
        _F("deck_n", doc="cards in the deck (pile DECK_0 + seat, top = deck_n - 1)", lo=0, hi="slots"),
        _F("nslots", doc="card slots in use", lo=0, hi="slots"),
    ), doc="one seat"),
    _G("slot", ("P", "slots"), (
        _F("ctype", init=-1, doc="card type of the owned slot (-1 unused)"),
        _F("czone", doc="zone of the card (Z_*)", lo=Z_NONE, hi=Z_REMOVED),
        _F("known", doc="1: card public: taken from a Treatise Board (Write/Copy), then only in hand, on top of "
                        "the deck or in public zones; cleared when reshuffled into the deck", flag=True),
    ), prefix="SLOT_", doc="one card slot of a seat"),
    _G("mentors", ("P", "mentors"), (
        _F("mentor", doc="Wax Seals left on the Mentor (seals_per_mentor at setup; A-GT-14)", lo=0),
    ), doc="one Mentor of a seat"),
    _G("inv", "inventions", (
        _F("inv_owner", init=-1, doc="seat owning the Invention, -1 none", lo=-1, hi="P-1"),
        _F("inv_tapped", doc="1: used this Cycle", flag=True),
    ), doc="one Invention"),
    _G("space", "spaces", (
        _F("space_used", doc="Natural Philosophers placed on the space this Cycle", lo=0, hi="P"),
    ), doc="one Natural Philosopher space"),
    _G("track", ("tracks", "track_spaces"), (
        _F("mastery", init=-1, doc="seat on the Mastery track space, -1 free", lo=-1, hi="P-1"),
    ), doc="one space of a Mastery track"),
    _G("pile", piles=(
        Pile("stack", "slots", doc="card slots of the stack being played (last = Active card)"),
        Pile("deck_0", "slots", doc="seat 0's deck order (slot ids), top = deck_n - 1"),
        Pile("deck_1", "slots", doc="seat 1's deck"),
        Pile("deck_2", "slots", doc="seat 2's deck"),
        Pile("deck_3", "slots", doc="seat 3's deck"),
        Pile("inv_deck_1", "inventions", doc="Invention deck of Period I (ids), top = inv_deck_n - 1"),
        Pile("inv_deck_2", "inventions", doc="Invention deck of Period II"),
        Pile("inv_deck_3", "inventions", doc="Invention deck of Period III"),
        Pile("bag_1", "tiles", doc="Observation bag of Level I (tile ids)"),
        Pile("bag_2", "tiles", doc="Observation bag of Level II"),
        Pile("bag_3", "tiles", doc="Observation bag of Level III"),
        Pile("bagdisc_1", "tiles", doc="tiles discarded from Level I"),
        Pile("bagdisc_2", "tiles", doc="tiles discarded from Level II"),
        Pile("bagdisc_3", "tiles", doc="tiles discarded from Level III"),
        Pile("pen_pile", "penance", doc="Penance supply (card types), top = pen_n - 1"),
    ), doc="decks, bags and the stack"),
))
assert MAX_SEATS == 4  # piles deck_0..deck_3


@dataclass
class GTState(LayoutState):
    """A batch of Galileo's Truth games: B games, P seats, the groups of :data:`LAYOUT`.

    ``game`` ``int64[B, GAME_WIDTH]``, ``seat`` ``int64[B, P, SEAT_WIDTH]``, ``slot`` ``int64[B, P, NC, 3]``,
    ``mentors`` ``int64[B, P, M, 1]``, ``inv`` ``int64[B, NI, 2]``, ``space`` ``int64[B, NS, 1]``,
    ``track`` ``int64[B, NM, ML, 1]``, ``pile`` ``int64[B, 15, L]``. Every field of the table is a named
    view (``state.coins`` ``[B, P]``, ``state.window`` ``[B, P, 3, 4]``); the per-seat and per-Level
    piles also as one view: ``deck`` ``[B, P, NC]``, ``inv_deck`` ``[B, 3, NI]``, ``bag``/``bagdisc``
    ``[B, 3, NT]``.
    """

    game: np.ndarray = None
    seat: np.ndarray = None
    slot: np.ndarray = None
    mentors: np.ndarray = None
    inv: np.ndarray = None
    space: np.ndarray = None
    track: np.ndarray = None
    pile: np.ndarray = None
    sizes: dict = None
    LAYOUT = LAYOUT

    def _piles(self, first: int, n: int, size: str) -> np.ndarray:
        return self.pile[:, first:first + n, :self.sizes[size]]

    @property
    def deck(self) -> np.ndarray:
        """``int64[B, P, NC]`` deck order of every seat (slot ids), top = ``deck_n - 1``."""
        return self._piles(LAYOUT.find("deck_0")[2], self.num_players, "slots")

    @property
    def inv_deck(self) -> np.ndarray:
        """``int64[B, 3, NI]`` Invention decks of Periods I..III."""
        return self._piles(LAYOUT.find("inv_deck_1")[2], 3, "inventions")

    @property
    def bag(self) -> np.ndarray:
        """``int64[B, 3, NT]`` Observation bags of Levels I..III."""
        return self._piles(LAYOUT.find("bag_1")[2], 3, "tiles")

    @property
    def bagdisc(self) -> np.ndarray:
        """``int64[B, 3, NT]`` tiles discarded from Levels I..III."""
        return self._piles(LAYOUT.find("bagdisc_1")[2], 3, "tiles")


#: the arrays the kernels take, in order: core log/rng arrays, then the groups of LAYOUT
STATE_FIELDS = ("game_id", "ply", "rng_key", "rng_ctr", "turn_buf", "turn_n", "event_buf", "event_n") + LAYOUT.names
SArr = namedtuple("SArr", STATE_FIELDS)


def arrays(state: GTState) -> SArr:
    """The state's arrays as the namedtuple the kernels take (``S.game``, ``S.seat``, ... and the logs)."""
    return SArr(*(getattr(state, n) for n in STATE_FIELDS))
