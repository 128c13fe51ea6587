"""The fixed discrete action space of Unconscious Mind.

One action id space serves every decision; what an id means depends on the pending decision on top of
the game's decision stack (``describe_action`` says it in words):

==========  =====  ==========================================================================
group       size   meaning
==========  =====  ==========================================================================
PLACE       64     State Ideas on idea space ``s`` pointing at its ``d``-th action (s*4+d)
MODE        5      how many Ideas / Bright Ideas to place: 1, 1B, 2, 1+1B, 2B
RECALL      1      Recall Ideas
TREAT       1      Treat Clients
PASS        1      pass (only when no turn option is possible, A-UM-20)
DONE        1      skip / done / decline an optional step
POS         9      a dial position (quality*3 + level): Elevate it, or Coffee-convert it up
XFER        27     Transfer the Insight at position ``pos`` to quality ``q`` (pos*3+q)
CHOICE      24     a small index whose meaning is the pending decision's (:data:`CHOICES`)
CARD        48     a Research card by id
==========  =====  ==========================================================================

What a CHOICE id means is declared once per decision in :data:`CHOICES` (each decision's parts, laid out from
``CH0``): the kernels compare with the named constants below (``CH_NEWCLIENT_CASE``, ``CH_RECALLB_DISTRICT``), never
with an offset, and ``VOCAB.label(a, decision)`` names the id by its meaning there (``case:1``, ``to-freud``).
"""

from __future__ import annotations

from meeplelab.sim.core.actions import Family, Vocabulary

MAX_SPACES = 16
N_MODES = 5
N_CH = 24
N_CARD = 48
MODE_NORMAL = (1, 0, 2, 1, 0)
MODE_BRIGHT = (0, 1, 0, 1, 2)
MODE_NAMES = ("1-idea", "1-bright", "2-ideas", "idea+bright", "2-bright")

QN = ("growth", "freedom", "passion")
LN = ("minor", "median", "major")


#: per-decision sizes of the choice parts
N_ROOMS = 2             # client rooms (research UM §4)
N_MARKET_LEVELS = 2     # Notebook market rows, level I and II (seed 000 §Gaining Notebook tiles)
NB_ROWS = NB_COLS = 3   # Notebook rows and columns (seed 000 §Notebook)
N_LOC_BONUS = 3         # Location bonus slots (research UM §5)
N_DISTRICT_SLOTS = 4    # district slots (research UM §5; A-UM-33)
N_LOC_EFFECTS = 3       # a Location's effects (A-UM-26)
MAX_MOVE = 5            # most Locations the Professor or Freud advances (Params.professor_max_move, freud_max_move hi)
MAX_DISPLAY = 3         # most face-up Routine clients, Case Study clients, manifest dreams (A-UM-08 hi)
MAX_TREATISE_DISPLAY = 6  # Params.treatise_display hi (A-UM-03)
N_DREAM_SLOTS = 5       # choice ids kept for manifest display slots (MAX_DISPLAY used; the deck's id follows them)
INKPOT_MAX_ADJ = 2      # the inkpot move adjusted by at most +-2 Bright Ideas (research UM §2, A-UM-30)
WHO = ("professor", "freud")

#: what a ``choice`` id means under each decision (the decision kinds of :mod:`.codes`): its parts from ``CH0``
CHOICES = {
    "D_TURN": (Family("heart-box"),),                        # minor+median+major Insight -> heart box (research UM §4)
    "D_INKPOT": (Family("inkpot", (2 * INKPOT_MAX_ADJ + 1,), "inkpot:{0}", (("-2", "-1", "+0", "+1", "+2"),)),),
    "D_GENQ": (Family("quality", (3,), "quality:{0}", (QN,)),),
    "D_TILE_SRC": (Family("level", (N_MARKET_LEVELS,), "level:{0}", (("I", "II"),)),),
    "D_ORDER": (Family("main-first"), Family("banner-first")),
    "D_FREE_TILE": (Family("level", (N_MARKET_LEVELS,), "level:{0}", (("I", "II"),)),),
    "D_PLACE": (Family("row", (NB_ROWS,), "row:{0}"), Family("replace", (NB_ROWS * NB_COLS,), "replace:space{0}")),
    "D_SWAP2": (Family("display", (2,), "display:{0}"),),
    "D_RESPLAY": (Family("publish", (MAX_TREATISE_DISPLAY,), "publish:display{0}"),),
    "D_GATHER": (Family("cite", (N_CH,), "cite:treatise{0}"),),
    "D_PROF": (Family("advance", (MAX_MOVE,), "advance:{0}", (("1", "2", "3", "4", "5"),)), Family("to-freud")),
    "D_FREUD": (Family("advance", (MAX_MOVE,), "advance:{0}", (("1", "2", "3", "4", "5"),)),),
    "D_LOCTRIG": (Family("trigger", (2, 2), "trigger:{1}:{0}", (("plain", "bright"), ("per-figure", "per-tag"))),),
    "D_LOCEFF": (Family("effect", (N_LOC_EFFECTS,), "location-effect:{0}"),),
    "D_COLUMN": (Family("column", (NB_COLS,), "column:{0}"),),
    "D_COLOUR": (Family("reserve", (), "colour:reserve"), Family("ring", (3, 3), "colour:{0}:{1}", (QN, LN))),
    "D_TILEORDER": (Family("tile", (NB_ROWS, NB_COLS), "tile:row{0}:space{1}"),),
    "D_REPACT": (Family("section", (N_CH,), "section-action:{0}"),),
    "D_RECALLB": (Family("bonus", (2, N_LOC_BONUS), "bonus:{0}:{1}", (WHO, None)),
                  Family("district", (2, N_DISTRICT_SLOTS), "district:{0}:slot{1}", (WHO, None))),
    "D_TREAT": (Family("room", (N_ROOMS,), "room:{0}"),),
    "D_THERAPY": (Family("room", (N_ROOMS,), "room:{0}"),),
    "D_HEARTS": (Family("room", (N_ROOMS,), "room:{0}"),),
    "D_NEWCLIENT": (Family("routine", (MAX_DISPLAY,), "routine:{0}"), Family("case", (MAX_DISPLAY,), "case:{0}")),
    "D_MANIFEST": (Family("dream", (N_DREAM_SLOTS,), "dream:display{0}"), Family("deck", (), "dream:deck")),
}

#: the action vocabulary (sim/core/actions.py): the families above in order, with their labels
VOCAB = Vocabulary((
    Family("place", (MAX_SPACES, 4), "place:space{0}:dir{1}"),
    Family("mode", (N_MODES,), "mode:{0}", (MODE_NAMES,)),
    Family("recall"), Family("treat"), Family("pass"), Family("done"),
    Family("dial", (3, 3), "dial:{0}:{1}", (QN, LN)),
    Family("transfer", (3, 3, 3), "transfer:{0}:{1}->{2}", (QN, LN, QN)),
    Family("choice", (N_CH,), "choice:{0}"),
    Family("card", (N_CARD,), "card:{0}"),
), CHOICES)
#: the first id of each family (the kernels' constants)
PLACE0 = VOCAB.start("place")
MODE0 = VOCAB.start("mode")
RECALL = VOCAB.start("recall")
TREAT = VOCAB.start("treat")
PASS = VOCAB.start("pass")
DONE = VOCAB.start("done")
POS0 = VOCAB.start("dial")
XFER0 = VOCAB.start("transfer")
CH0 = VOCAB.start("choice")
CARD0 = VOCAB.start("card")
NUM_ACTIONS = VOCAB.num_actions

#: the choice ids by meaning (``VOCAB.choice``: a part's first id), the constants the kernels compare with
CH_HEART_BOX = VOCAB.choice("D_TURN", "heart-box")
CH_INKPOT = VOCAB.choice("D_INKPOT", "inkpot")          # + INKPOT_MAX_ADJ + adjustment
CH_GENQ = VOCAB.choice("D_GENQ", "quality")              # + quality
CH_TILE_SRC = VOCAB.choice("D_TILE_SRC", "level")        # + market level
CH_MAIN_FIRST = VOCAB.choice("D_ORDER", "main-first")
CH_BANNER_FIRST = VOCAB.choice("D_ORDER", "banner-first")
CH_FREE_TILE = VOCAB.choice("D_FREE_TILE", "level")      # + stack level
CH_PLACE_ROW = VOCAB.choice("D_PLACE", "row")            # + Notebook row
CH_PLACE_REPLACE = VOCAB.choice("D_PLACE", "replace")    # + Notebook space
CH_SWAP2 = VOCAB.choice("D_SWAP2", "display")            # + display slot
CH_PUBLISH = VOCAB.choice("D_RESPLAY", "publish")        # + Treatise display slot
CH_CITE = VOCAB.choice("D_GATHER", "cite")               # + Treatise index
CH_PROF_ADVANCE = VOCAB.choice("D_PROF", "advance")      # + Locations - 1
CH_TO_FREUD = VOCAB.choice("D_PROF", "to-freud")
CH_FREUD_ADVANCE = VOCAB.choice("D_FREUD", "advance")    # + Locations - 1
CH_LOCTRIG = VOCAB.choice("D_LOCTRIG", "trigger")        # + 2 * bright + per-tag
CH_LOCEFF = VOCAB.choice("D_LOCEFF", "effect")           # + effect
CH_COLUMN = VOCAB.choice("D_COLUMN", "column")           # + column
CH_COLOUR = VOCAB.choice("D_COLOUR", "reserve")          # + dial position (0 the reserve, 1 + quality * 3 + level)
CH_COLOUR_RING = VOCAB.choice("D_COLOUR", "ring")        # + quality * 3 + level
CH_TILEORDER = VOCAB.choice("D_TILEORDER", "tile")       # + Notebook space (row * 3 + column)
CH_REPACT = VOCAB.choice("D_REPACT", "section")          # + section
CH_RECALL_BONUS = VOCAB.choice("D_RECALLB", "bonus")     # + who * N_LOC_BONUS + bonus slot
CH_RECALL_DISTRICT = VOCAB.choice("D_RECALLB", "district")  # + who * N_DISTRICT_SLOTS + district slot
CH_ROOM = VOCAB.choice("D_TREAT", "room")                # + room (D_TREAT, D_THERAPY, D_HEARTS)
CH_ROUTINE = VOCAB.choice("D_NEWCLIENT", "routine")      # + Routine display slot
CH_CASE = VOCAB.choice("D_NEWCLIENT", "case")            # + Case Study display slot
CH_DREAM = VOCAB.choice("D_MANIFEST", "dream")           # + manifest display slot
CH_DREAM_DECK = VOCAB.choice("D_MANIFEST", "deck")


def action_label(a: int) -> str:
    """Short name of action id ``a`` (:meth:`Vocabulary.label`: ``place:space3:dir1``).

    Raises:
        ValueError: ``a`` out of range.
    """
    return VOCAB.label(a)
