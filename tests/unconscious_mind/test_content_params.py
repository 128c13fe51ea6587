"""Content files are validated on load (file, entry, field named); every rule number is a documented parameter."""

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from meeplelab.sim.core import ConfigError, ContentError
from meeplelab.sim.core.params import apply_overrides, is_assumed
from meeplelab.sim.unconscious_mind import Params, UnconsciousMind
from meeplelab.sim.unconscious_mind.content import FILES

DATA = Path(__file__).resolve().parents[2] / "sim" / "unconscious_mind" / "data"


def _copy(tmp_path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(DATA, d)
    return d


def _edit(d: Path, name: str, old: str, new: str, count: int = 1) -> None:
    p = d / name
    text = p.read_text()
    assert old in text
    p.write_text(text.replace(old, new, count))


def test_packaged_content_loads_with_assumed_counts():
    gm = UnconsciousMind()
    c = gm.content
    assert list(gm.A["tiles_per_level"]) == [18, 18]
    assert len(c.card_ids) == 40 and sorted(np.bincount(gm.A["card_col"])) == [10, 10, 10, 10]
    assert len(c.treatise_ids) == 12 and set(gm.A["tr_len"]) == {3, 4, 5}
    assert (gm.A["cl_kind"] == 0).sum() == 12 and (gm.A["cl_kind"] == 1).sum() == 8
    assert len(set(gm.A["loc_dist"])) == 3 and np.bincount(gm.A["loc_dist"]).tolist() == [2, 2, 2]
    assert gm.content_hash() != "none" and [p.name for p in gm.content_files()] == list(FILES)


def test_content_missing_field_names_file_entry_and_field(tmp_path):
    d = _copy(tmp_path)
    _edit(d, "notebook.toml", 'level = 1\n', '')
    with pytest.raises(ContentError) as e:
        UnconsciousMind(content_dir=d)
    assert str(e.value) == "notebook.toml: [[tile]] entry 't1_01': field 'level': missing required field"


def test_content_wrong_type_names_file_entry_and_field(tmp_path):
    d = _copy(tmp_path)
    _edit(d, "treatises.toml", 'vp = 6', 'vp = "six"')
    with pytest.raises(ContentError) as e:
        UnconsciousMind(content_dir=d)
    assert str(e.value) == ("treatises.toml: [[treatise]] entry 'tr01': field 'vp' is 'six' (str): allowed an integer "
                            "(a whole number such as 3)")


def test_content_unknown_opcode_is_refused(tmp_path):
    d = _copy(tmp_path)
    _edit(d, "notebook.toml", 'main = ["coffee 1"]', 'main = ["teleport 1"]')
    with pytest.raises(ContentError) as e:
        UnconsciousMind(content_dir=d)
    assert str(e.value) == ("notebook.toml: [[tile]] entry 't1_01': field 'main': unknown effect opcode 'teleport'; "
                            "known: bright, coffee, draw, elevate, generate, heart, hearts, play, reputation, therapy, "
                            "tile, transfer, vp")


def test_content_duplicate_id_is_refused(tmp_path):
    d = _copy(tmp_path)
    _edit(d, "research.toml", 'id = "r02"', 'id = "r01"')
    with pytest.raises(ContentError) as e:
        UnconsciousMind(content_dir=d)
    assert str(e.value) == "research.toml: [[card]] entry 'r01': duplicate id 'r01'"


def test_content_unknown_field_and_bad_effect_argument(tmp_path):
    d = _copy(tmp_path)
    _edit(d, "clients.toml", 'vp = 2\n', 'vp = 2\nmood = "calm"\n')
    with pytest.raises(ContentError) as e:
        UnconsciousMind(content_dir=d)
    assert str(e.value) == ("clients.toml: [[client]] entry 'routine01': field 'mood' (given 'calm'): unknown field; "
                            "allowed fields: id, kind, hearts, grief, symbol, vp, tag, catharsis, ability, end")
    d2 = _copy(tmp_path / "b")
    _edit(d2, "city.toml", '"generate growth minor", "vp 1"]', '"generate growth tiny", "vp 1"]')
    with pytest.raises(ContentError) as e:
        UnconsciousMind(content_dir=d2)
    assert str(e.value) == ("city.toml: [[location]] entry 'cafe': field 'effects': effect 'generate growth tiny': "
                            "'tiny' is not one of minor, median, major")


def test_every_parameter_has_unit_source_doc_and_range():
    gm = UnconsciousMind()
    rows = gm.describe_params()
    assert len(rows) >= 50
    for r in rows:
        assert r["unit"] and r["doc"] and r["source"], r
        assert r["source"].startswith(("seed 000", "research UM", "A-UM-", "RULES_DECISIONS")), r
        if isinstance(r["value"], int):
            assert r["lo"] is not None and r["hi"] is not None and r["lo"] <= r["value"] <= r["hi"], r
    assumed = {r["source"] for r in rows if is_assumed(r["source"])}
    assert "A-UM-13" in assumed and "A-UM-14" in assumed


def test_params_override_changes_the_rules_and_bad_values_are_refused():
    p = apply_overrides(Params(), {"tile_cost": "1,3,5"})
    gm = UnconsciousMind(p)
    from .util import MODE0, place_action, step
    s = gm.init(np.arange(2), 1, 2)
    s.coffee[:, 0] = 9
    step(gm, s, place_action(gm, "tile_center"))
    step(gm, s, MODE0)
    assert (s.coffee[:, 0] == 6).all()
    with pytest.raises(ConfigError):
        apply_overrides(Params(), {"track_length": "99"})
    with pytest.raises(ConfigError):
        UnconsciousMind(dataclasses.replace(Params(), track_length=8))  # reputation_vp has 11 values


@pytest.mark.parametrize("overrides,message", [
    ({"track_length": "8"}, "parameter reputation_vp needs track_length+1 = 9 values, got 11"),
    ({"face_lines": "3,9,6"},
     "parameters face_lines=3,9,6 and track_length=10 contradict each other: allowed increasing face lines from 1 "
     "to track_length"),
    ({"face_lines": "3,6,12"},
     "parameters face_lines=3,6,12 and track_length=10 contradict each other: allowed increasing face lines from 1 "
     "to track_length"),
    ({"district_thresholds": "3,5,4,6"},
     "parameter district_thresholds=3,5,4,6 must not decrease: each district bonus slot needs at least the tags of "
     "the slot before"),
    ({"district_rep_tokens": "7"},
     "parameters district_rep_tokens=7 and district_tokens=6 contradict each other: allowed district_rep_tokens <= "
     "district_tokens (the reputation tokens are part of the stack)"),
    ({"therapy_max": "2"},
     "parameters catharsis_space=3 and therapy_max=2 contradict each other: allowed catharsis_space <= therapy_max "
     "(the star is on the therapy track)"),
])
def test_contradictory_params_are_refused(overrides, message):
    with pytest.raises(ConfigError) as e:
        apply_overrides(Params(), overrides)
    assert str(e.value) == message


def test_consistent_params_pass_the_check():
    for p in (Params(), Params.short()):
        p.check()
    q = apply_overrides(Params(), {"district_thresholds": "3,3,5,6", "district_rep_tokens": "6", "face_lines": "1,5,10"})
    assert q.district_thresholds == (3, 3, 5, 6) and q.face_lines == (1, 5, 10)


def test_short_preset_is_consistent():
    gm = UnconsciousMind(Params.short())
    st = gm.play_random(np.arange(3), 2, 3)
    assert gm.done(st).all() and not gm.check_invariants(st)
