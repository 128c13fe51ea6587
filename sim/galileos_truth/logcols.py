"""The buffer column of each of Galileo's Truth's own log columns, by name (the convention: docs/engine_guide.md)."""

# turns table: ply, turn, round, seat (core), then
TURN_MAIN_ACTION = 4
TURN_VP_GAINED = 5
TURN_SUSPICION_AFTER = 6
TURN_PRINCIPLE_AFTER = 7
TURN_COINS_AFTER = 8
TURN_RESEARCH_AFTER = 9
TURN_CARDS_PLAYED = 10
TURN_VP_AFTER = 11

# events table: ply, turn, seat, kind (core), then
EV_CATEGORY = 4
EV_AMOUNT = 5
EV_TARGET_SEAT = 6
EV_ITEM = 7
EV_CYCLE = 8
EV_BEFORE = 9
EV_AFTER = 10
