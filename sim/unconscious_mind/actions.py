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

MAX_SPACES = 16
PLACE0 = 0
MODE0 = PLACE0 + MAX_SPACES * 4
N_MODES = 5
RECALL = MODE0 + N_MODES
TREAT = RECALL + 1
PASS = TREAT + 1
DONE = PASS + 1
POS0 = DONE + 1
XFER0 = POS0 + 9
CH0 = XFER0 + 27
N_CH = 24
CARD0 = CH0 + N_CH
N_CARD = 48
NUM_ACTIONS = CARD0 + N_CARD

MODE_NORMAL = (1, 0, 2, 1, 0)
MODE_BRIGHT = (0, 1, 0, 1, 2)
MODE_NAMES = ("1-idea", "1-bright", "2-ideas", "idea+bright", "2-bright")

QN = ("growth", "freedom", "passion")
LN = ("minor", "median", "major")


def action_label(a: int) -> str:
    """Short name of action id ``a``."""
    a = int(a)
    if PLACE0 <= a < MODE0:
        return f"place:space{(a - PLACE0) // 4}:dir{(a - PLACE0) % 4}"
    if MODE0 <= a < RECALL:
        return f"mode:{MODE_NAMES[a - MODE0]}"
    if a == RECALL:
        return "recall"
    if a == TREAT:
        return "treat"
    if a == PASS:
        return "pass"
    if a == DONE:
        return "done"
    if POS0 <= a < XFER0:
        i = a - POS0
        return f"dial:{QN[i // 3]}:{LN[i % 3]}"
    if XFER0 <= a < CH0:
        i = a - XFER0
        return f"transfer:{QN[(i // 3) // 3]}:{LN[(i // 3) % 3]}->{QN[i % 3]}"
    if CH0 <= a < CARD0:
        return f"choice:{a - CH0}"
    if CARD0 <= a < NUM_ACTIONS:
        return f"card:{a - CARD0}"
    raise ValueError(f"action {a} out of range 0..{NUM_ACTIONS - 1}")
