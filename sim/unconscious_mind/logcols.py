"""The buffer column of each of Unconscious Mind's own log columns, by name (the convention: docs/engine_guide.md)."""

# turns table: ply, turn, round, seat (core), then
TURN_OPTION = 4
TURN_MT_ACTION = 5
TURN_COFFEE_SPENT = 6
TURN_COFFEE_GAINED = 7
TURN_VP_GAINED = 8
TURN_VP_AFTER = 9
TURN_COFFEE_AFTER = 10
TURN_INSIGHT_AFTER = 11
TURN_CURED_AFTER = 12

# events table: ply, turn, seat, kind (core), then
EV_CATEGORY = 4
EV_AMOUNT = 5
EV_TARGET_SEAT = 6
EV_ITEM = 7
EV_COST = 8
EV_COUNT = 9
