"""Study lineups on the compiled path: ``play_lineups`` plays every lineup the play kernel can
take on the compiled path, one lineup per batch, and the games are the ones the Python loop plays, for both
games' studies (rotated fields, variant panels and treated seats)."""

from __future__ import annotations

import pytest

import meeplelab.play.panels as panels
from meeplelab.analysis.studies import study_for
from meeplelab.play.panels import play_lineups
from meeplelab.sim.registry import get_game_class


@pytest.mark.parametrize("game", ["galileos-truth", "unconscious-mind"])
def test_study_lineups_play_the_same_games_on_the_compiled_path(game, monkeypatch):
    calls = []
    real = panels.compiled_plies  # the name the panels call (imported from meeplelab.play.batch)

    def counted(*a, **k):
        calls.append(a[1].batch_size)
        return real(*a, **k)

    monkeypatch.setattr(panels, "compiled_plies", counted)
    cls = get_game_class(game)
    lineups = study_for(game).lineups
    fast = play_lineups(cls(), lineups, 5, 11, batch_size=3)
    assert len(calls) == 2 * len(lineups)  # every lineup compiled, batches of 3 + 2 games
    assert sorted(set(calls)) == [2, 3]
    calls.clear()
    slow = play_lineups(cls(), lineups, 5, 11, batch_size=3, compiled=False)
    assert calls == [] and fast.equals(slow)
    assert fast.height == 5 * sum(len(lu.strategies) for lu in lineups)
    if any(lu.treatment for lu in lineups):  # a treated seat starts differently: the treatment was applied
        assert fast.filter(fast["treated"]).height == 5 * sum(1 for lu in lineups if lu.treatment)
