"""A-GT-16, ``printing_house``: the only Level I Write space exclusive (default, board.toml) or shared
(the seat-advantage remedy of docs/seat_advantage.md, searched by ``meeplelab balance``)."""

import shutil

import pytest

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.galileos_truth import GalileosTruth, Params
from meeplelab.sim.core.position import Position

from .helpers import SPACE


@pytest.mark.parametrize("rule,open_again", [("exclusive", False), ("shared", True)])
def test_a_used_printing_house_is_open_again_only_when_shared(rule, open_again):
    game = GalileosTruth(params=Params(printing_house=rule))
    ph, market = SPACE(game, "printing-house"), SPACE(game, "market")
    for g in range(4):
        pos = Position.start(game, players=2, seed=3, game_id=g)
        used = pos.get("space_used")
        used[ph] = used[market] = 1  # another seat's Philosopher took them this Cycle
        pos.set(space_used=used)
        assert (f"philosopher:{ph}" in pos.legal()) == open_again
        assert f"philosopher:{market}" not in pos.legal()   # the other exclusive spaces stay exclusive


def test_the_default_keeps_the_content_arrays_and_shared_changes_one_flag():
    assert Params().printing_house == "exclusive"
    base = GalileosTruth()
    assert base.C is base.content.arrays   # default: the very arrays of board.toml, games unchanged
    shared = GalileosTruth(params=apply_overrides(Params(), {"printing_house": "shared"}))
    ph = SPACE(shared, "printing-house")
    diff = (shared.C.SPACE_EXCL != shared.content.arrays.SPACE_EXCL).nonzero()[0].tolist()
    assert diff == [ph] and bool(shared.content.arrays.SPACE_EXCL[ph]) and not shared.C.SPACE_EXCL[ph]


def test_shared_needs_a_printing_house_in_the_content(tmp_path):
    src = GalileosTruth().content_dir
    d = tmp_path / "content"
    shutil.copytree(src, d)
    board = d / "board.toml"
    board.write_text(board.read_text().replace('id = "printing-house"', 'id = "press"'))
    GalileosTruth(content_dir=d)   # the default rule does not name the space
    with pytest.raises(ConfigError, match="printing_house='shared' needs a board.toml space with id 'printing-house'"):
        GalileosTruth(params=Params(printing_house="shared"), content_dir=d)
    with pytest.raises(ConfigError, match="printing_house='open' is not allowed: choose one of exclusive, shared"):
        apply_overrides(Params(), {"printing_house": "open"})


def test_shared_plays_the_same_games_as_the_content_edit_and_changes_them(tmp_path):
    """The parameter is the content edit docs/seat_advantage.md first measured (board.toml's printing-house
    ``exclusive = false``): the same games, game for game; and it does change games against the default."""
    from meeplelab.play.panels import panel, play_lineups

    d = tmp_path / "content"
    shutil.copytree(GalileosTruth().content_dir, d)
    board = d / "board.toml"
    text = board.read_text()
    at = text.index('id = "printing-house"')
    board.write_text(text[:at] + text[at:].replace("exclusive = true", "exclusive = false", 1))
    lus = panel("field-2", ("writer", "never-abjure"))
    by_param = play_lineups(GalileosTruth(params=Params(printing_house="shared")), lus, 6, 0)
    by_content = play_lineups(GalileosTruth(content_dir=d), lus, 6, 0)
    default = play_lineups(GalileosTruth(), lus, 6, 0)
    assert by_param.equals(by_content)
    assert not by_param.select("vp", "turns").equals(default.select("vp", "turns"))
