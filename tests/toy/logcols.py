"""The buffer column of each of the toy game's own log columns, by name (docs/engine_guide.md)."""

# turns table: ply, turn, round, seat (core), then
TURN_ENDED_BY = 4
TURN_DRAWS = 5
TURN_VP_AFTER = 6

# events table: ply, turn, seat, kind (core), then
EV_AMOUNT = 4
