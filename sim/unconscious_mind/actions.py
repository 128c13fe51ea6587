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
CHOICE      24     a small index: market row, Notebook row, room, slot, Location option, ...
CARD        48     a Research card by id
==========  =====  ==========================================================================
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


#: the action vocabulary (sim/core/actions.py): the families above in order, with their labels
VOCAB = Vocabulary((
    Family("place", (MAX_SPACES, 4), "place:space{0}:dir{1}"),
    Family("mode", (N_MODES,), "mode:{0}", (MODE_NAMES,)),
    Family("recall"), Family("treat"), Family("pass"), Family("done"),
    Family("dial", (3, 3), "dial:{0}:{1}", (QN, LN)),
    Family("transfer", (3, 3, 3), "transfer:{0}:{1}->{2}", (QN, LN, QN)),
    Family("choice", (N_CH,), "choice:{0}"),
    Family("card", (N_CARD,), "card:{0}"),
))
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


def action_label(a: int) -> str:
    """Short name of action id ``a`` (:meth:`Vocabulary.label`: ``place:space3:dir1``).

    Raises:
        ValueError: ``a`` out of range.
    """
    return VOCAB.label(a)
