"""Log rows are written by column name: the buffer column constants the rule kernels use
(``sim/core/logs.py`` for the core columns, ``sim/<game>/logcols.py`` for each game's) are the
schema's column positions, and every column of the schema has one."""

from __future__ import annotations

import importlib

import pytest

import meeplelab.sim.core.logs as logs
from meeplelab.sim.registry import get_game_class

GAMES = ["unconscious-mind", "galileos-truth"]


def test_core_column_constants_are_the_core_schema_positions():
    turn = logs.LogSpec(logs.TURN_BASE)
    event = logs.LogSpec(logs.event_base(("x",)))
    assert [logs.T_PLY, logs.T_TURN, logs.T_ROUND, logs.T_SEAT] == [turn.index(n) for n in ("ply", "turn", "round", "seat")]
    assert [logs.E_PLY, logs.E_TURN, logs.E_SEAT, logs.E_KIND] == [event.index(n) for n in logs.EVENT_BASE_NAMES]


@pytest.mark.parametrize("name", GAMES)
def test_every_game_column_has_a_constant_equal_to_its_schema_position(name):
    cls = get_game_class(name)
    mod = importlib.import_module(cls.__module__.rsplit(".", 1)[0] + ".logcols")
    for prefix, spec, own in (("TURN_", cls.turn_spec(), cls.turn_columns), ("EV_", cls.event_spec(), cls.event_columns)):
        consts = {k[len(prefix):].lower(): v for k, v in vars(mod).items() if k.startswith(prefix)}
        assert set(consts) == {c.name for c in own}, (prefix, sorted(consts))
        for col, pos in consts.items():
            assert pos == spec.index(col), (col, pos)


def test_the_core_columns_sit_at_the_same_positions_in_both_tables():
    # begin_row writes positions 0-3 for both tables: ply and turn coincide, then round/seat, seat/kind
    assert (logs.T_PLY, logs.T_TURN, logs.T_ROUND, logs.T_SEAT) == (0, 1, 2, 3)
    assert (logs.E_PLY, logs.E_TURN, logs.E_SEAT, logs.E_KIND) == (0, 1, 2, 3)
