"""The state convention (meeplelab.sim.core.layout): allocation, named views, written constants, every engine's table."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from meeplelab.sim.core.layout import Field, Group, Layout, LayoutState, Pile, main

LAY = Layout((
    Group("game", None, (Field("round", init=1, doc="round"), Field("cov", (2, 3), init=0, doc="coverage"))),
    Group("seat", "P", (Field("coffee", doc="Coffee"), Field("dial", (4,), init=-1, doc="dial")), doc="a seat"),
    Group("card", "cards", (Field("loc"), Field("own", init=-1)), prefix="CARD_", doc="a card"),
    Group("pile", piles=(Pile("deck", "cards"), Pile("stack", 3, init=0)), doc="piles"),
))


def test_allocate_gives_each_group_its_shape_and_initial_values():
    a = LAY.allocate(5, 3, {"cards": 7})
    assert a["game"].shape == (5, 7) and a["seat"].shape == (5, 3, 5) and a["card"].shape == (5, 7, 2)
    assert a["pile"].shape == (5, 2, 7)
    assert (a["game"][:, 0] == 1).all() and (a["game"][:, 1:] == 0).all()
    assert (a["seat"][:, :, 0] == 0).all() and (a["seat"][:, :, 1:] == -1).all()
    assert (a["card"][:, :, 1] == -1).all()
    assert (a["pile"][:, 0] == -1).all() and (a["pile"][:, 1] == 0).all()


def test_views_are_named_shaped_and_write_through():
    a = LAY.allocate(4, 2, {"cards": 6})
    LAY.view(a, "coffee")[1, 0] = 9
    assert a["seat"][1, 0, 0] == 9
    assert LAY.view(a, "dial").shape == (4, 2, 4)
    assert LAY.view(a, "cov").shape == (4, 2, 3)
    LAY.view(a, "cov")[2, 1, 2] = 5
    assert a["game"][2, 1 + 1 * 3 + 2] == 5
    assert LAY.view(a, "deck", {"cards": 6}).shape == (4, 6)
    assert LAY.view(a, "stack").shape == (4, 3)
    with pytest.raises(KeyError):
        LAY.view(a, "nothing")


def test_written_constants_match_the_table_and_a_wrong_one_is_caught(tmp_path):
    src = LAY.constants_source("Test columns.", "x:LAY")
    ns: dict = {}
    exec(src, ns)
    assert (ns["ROUND"], ns["COV"], ns["COV_W"], ns["GAME_WIDTH"]) == (0, 1, 3, 7)
    assert (ns["COFFEE"], ns["DIAL"], ns["SEAT_WIDTH"]) == (0, 1, 5)
    assert (ns["CARD_LOC"], ns["CARD_OWN"], ns["DECK"], ns["STACK"]) == (0, 1, 0, 1)

    class M:
        pass
    m = M()
    vars(m).update(ns)
    assert LAY.check_module(m) == []
    m.DIAL = 2
    assert LAY.check_module(m) == ["DIAL should be 1, is 2"]


def test_a_repeated_or_badly_named_field_is_refused():
    with pytest.raises(ValueError, match="declared twice"):
        Layout((Group("a", None, (Field("x"),)), Group("b", "P", (Field("x"),))))
    with pytest.raises(ValueError, match="lower_snake"):
        Layout((Group("a", None, (Field("Coffee"),)),))
    with pytest.raises(ValueError, match="either fields or piles"):
        Layout((Group("a", None),))


@dataclass
class _S(LayoutState):
    game: np.ndarray = None
    seat: np.ndarray = None
    card: np.ndarray = None
    pile: np.ndarray = None
    sizes: dict = None
    LAYOUT = LAY


def test_layout_state_views_by_attribute():
    a = LAY.allocate(3, 2, {"cards": 4})
    z = np.zeros(3, np.int64)
    s = _S(2, z, z, z, z, z, z, z, z, sizes={"cards": 4}, **a)
    s.coffee[2, 1] += 3
    assert s.seat[2, 1, 0] == 3 and s.coffee.shape == (3, 2) and s.deck.shape == (3, 4)
    with pytest.raises(AttributeError):
        s.nothing  # noqa: B018


def _engine_layouts():
    root = Path(__file__).resolve().parents[1]
    out = ["tests.toy"]
    for f in sorted((root / "sim").glob("*/state.py")):
        mod = importlib.import_module(f"meeplelab.sim.{f.parent.name}.state")
        if getattr(mod, "LAYOUT", None) is not None:
            out.append(f"meeplelab.sim.{f.parent.name}")
    return out


@pytest.mark.parametrize("pkg", _engine_layouts())
def test_each_engines_written_columns_match_its_table(pkg):
    state = importlib.import_module(f"{pkg}.state")
    cols = importlib.import_module(f"{pkg}.cols")
    folder = pkg.removeprefix("meeplelab.").replace(".", "/")  # meeplelab.sim.x is the folder sim/x
    ref = f"{pkg}.state:LAYOUT {folder}/cols.py"
    stale = f"{folder}/cols.py is stale: python -m meeplelab.sim.core.generate"
    assert state.LAYOUT.check_module(cols) == [], stale
    assert state.LAYOUT.constants_source(state.COLS_DOC, ref) == Path(cols.__file__).read_text(), stale


def test_main_writes_the_constants_module(tmp_path):
    out = tmp_path / "cols.py"
    assert main(["tests.toy.state:LAYOUT", str(out)]) == 0
    from tests.toy.state import LAYOUT

    width = next(g.width for g in LAYOUT.groups if g.name == "game")  # the toy may grow: no fixed width here
    assert "DECK = 0" in out.read_text() and f"\nGAME_WIDTH = {width} " in out.read_text()
    assert main(["no-colon"]) == 2


def test_main_refuses_an_unknown_module_or_layout_in_one_line(tmp_path, capsys):
    assert main(["no.such:LAYOUT", str(tmp_path / "c.py")]) == 2
    assert capsys.readouterr().err.strip() == ("cannot import 'no.such' (no module file for 'no.such' on sys.path); allowed: an "
                                               "importable module holding a Layout")
    assert main(["tests.toy.state:NOPE", str(tmp_path / "c.py")]) == 2
    assert capsys.readouterr().err.strip() == "tests.toy.state has no Layout named 'NOPE'; allowed: LAYOUT"
    assert not (tmp_path / "c.py").exists()


def test_rows_on_two_axes():
    lay = Layout((Group("slot", ("P", "slots"), (Field("ctype", init=-1), Field("zone"))),))
    a = lay.allocate(2, 3, {"slots": 5})
    assert a["slot"].shape == (2, 3, 5, 2) and (a["slot"][..., 0] == -1).all()
    assert lay.view(a, "zone").shape == (2, 3, 5)
    assert "slot[g, p, i1 < slots, COLUMN]" in lay.constants_source("d", "x")


def test_a_field_named_like_a_group_is_refused():
    with pytest.raises(ValueError, match="name of a group"):
        Layout((Group("game", None, (Field("seat"),)), Group("seat", "P", (Field("vp"),))))
