"""Content loading and validation (sim/core/content.py): errors name file, entry and field."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from meeplelab.sim.core.content import Entry, load_entries, parse_effect
from meeplelab.sim.core.errors import ContentError
from meeplelab.sim.core.params import apply_overrides, describe
from tests.toygame import ToyParams

OPCODES = {"coffee": (int,), "vp": (int,), "generate": (("growth", "freedom", "passion"), ("minor", "medium", "major"))}


class Tile(Entry):
    level: int
    vp: int = 0
    effects: list[str] = []


def write(tmp_path: Path, entries: list[dict]) -> Path:
    p = tmp_path / "tiles.toml"
    p.write_text(tomli_w.dumps({"tile": entries}))
    return p


def test_valid_entries_load(tmp_path):
    p = write(tmp_path, [{"id": "a", "level": 1, "effects": ["coffee +1"]}, {"id": "b", "level": 2}])
    tiles = load_entries(p, "tile", Tile)
    assert [t.id for t in tiles] == ["a", "b"] and tiles[0].effects == ["coffee +1"]


@pytest.mark.parametrize("entries,message", [
    ([{"id": "a"}], "tiles.toml: [[tile]] entry 'a': field 'level': missing required field"),
    ([{"id": "a", "level": "two"}],
     "tiles.toml: [[tile]] entry 'a': field 'level' is 'two' (str): allowed an integer (a whole number such as 3)"),
    ([{"id": "a", "level": 2.5}],
     "tiles.toml: [[tile]] entry 'a': field 'level' is 2.5 (float): allowed an integer (a whole number such as 3)"),
    ([{"id": "a", "level": 1, "effects": "coffee +1"}],
     "tiles.toml: [[tile]] entry 'a': field 'effects' is 'coffee +1' (str): allowed a list ([...])"),
    ([{"id": "a", "level": 1, "colour": "red"}],
     "tiles.toml: [[tile]] entry 'a': field 'colour' (given 'red'): unknown field; allowed fields: id, level, vp, effects"),
    ([{"id": "a", "level": 1}, {"id": "a", "level": 2}], "tiles.toml: [[tile]] entry 'a': duplicate id 'a'"),
    ([{"level": 1}], "tiles.toml: [[tile]] entry #1: field 'id': missing required field"),
])
def test_bad_content_names_file_entry_field_value_and_what_is_allowed(tmp_path, entries, message):
    with pytest.raises(ContentError) as e:
        load_entries(write(tmp_path, entries), "tile", Tile)
    assert str(e.value) == message


def test_unknown_effect_opcode_lists_the_known_ones():
    with pytest.raises(ContentError) as e:
        parse_effect("teleport 3", OPCODES, where="tiles.toml: [[tile]] entry 'a': field 'effects'")
    assert str(e.value) == ("tiles.toml: [[tile]] entry 'a': field 'effects': unknown effect opcode 'teleport'; "
                            "known: coffee, generate, vp")


def test_effect_arguments_are_checked():
    assert parse_effect("generate growth minor", OPCODES, where="w") == ("generate", "growth", "minor")
    assert parse_effect("vp +2", OPCODES, where="w") == ("vp", 2)
    with pytest.raises(ContentError, match="'huge' is not one of minor, medium, major"):
        parse_effect("generate growth huge", OPCODES, where="w")
    with pytest.raises(ContentError, match="needs 1 argument"):
        parse_effect("coffee", OPCODES, where="w")


def test_toml_syntax_error_names_the_file(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("[[tile]\nid = 'a'\n")
    with pytest.raises(ContentError, match=r"broken.toml: TOML syntax error"):
        load_entries(p, "tile", Tile)


_words = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=8)
_values = st.one_of(st.integers(-5, 5), _words, st.lists(_words, max_size=3), st.booleans())


@settings(max_examples=80, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["id", "level", "vp", "effects", "extra"]), _values, max_size=5),
                min_size=1, max_size=4))
def test_any_entry_list_either_loads_or_raises_one_line_content_error(tmp_path_factory, entries):
    p = write(tmp_path_factory.mktemp("h"), entries)
    try:
        tiles = load_entries(p, "tile", Tile)
    except ContentError as e:
        assert "\n" not in str(e) and str(e).startswith("tiles.toml: [[tile]] entry ")
    else:
        assert len({t.id for t in tiles}) == len(tiles)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=string.ascii_lowercase + " +-0123456789", max_size=20))
def test_any_effect_text_parses_or_raises_content_error(text):
    try:
        op = parse_effect(text, OPCODES, where="w")
    except ContentError as e:
        assert str(e).startswith("w: ")
    else:
        assert op[0] in OPCODES


def test_params_overrides_are_parsed_and_range_checked():
    p = apply_overrides(ToyParams(), {"rounds": "7", "copies": 2})
    assert p.rounds == 7 and p.copies == 2 and ToyParams().rounds == 4
    rows = {d["name"]: d for d in describe(p)}
    assert rows["rounds"]["value"] == 7 and rows["rounds"]["default"] == 4 and rows["rounds"]["assumed"]
