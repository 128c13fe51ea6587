"""Column constants of the toy game's state (tests/toy/state.py).

Written by ``python -m meeplelab.sim.core.layout tests.toy.state:LAYOUT tests/toy/cols.py`` from the table in
that module; ``tests/test_layout.py`` checks this file against it. Do not edit by hand.
"""


# ---- game[g, COLUMN]: one toy game
DECISION = 0  # pending decision kind (D_TURN; 0 when the game is over)
TOP = 1  # position of the next card in the deck
POT = 2  # VP drawn this turn, not yet banked (VP)
DRAWS = 3  # cards drawn this turn
TO_ACT = 4  # seat to act (0-based)
TURN = 5  # turns finished
ROUND = 6  # round, from 1
OVER = 7  # 1 when the game is over
GAME_WIDTH = 8  # columns of game

# ---- seat[g, p, COLUMN]: one seat
VP = 0  # banked VP (VP)
SEAT_WIDTH = 1  # columns of seat

# ---- pile[g, PILE, i]: the shared deck, drawn from position top
DECK = 0  # [deck_size] card values in draw order
