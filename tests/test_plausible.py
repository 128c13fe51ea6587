"""Plausible ranges of the assumed rule numbers (sim/<game>/data/plausible.toml, sim/plausible.py)."""

from __future__ import annotations

import dataclasses
import sys
import tomllib

import pytest

from meeplelab import cli
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.params import is_assumed
from meeplelab.sim.plausible import BEGIN, END, load_plausible, markdown_table, plausible_path, rules_doc
from meeplelab.sim.registry import get_game_class

GAMES = ("galileos-truth", "unconscious-mind")


def _assumed(game):
    return [f.name for f in dataclasses.fields(get_game_class(game).Params) if is_assumed(f.metadata["source"])]


def _raw(game):
    return tomllib.loads(plausible_path(get_game_class(game)).read_text())


@pytest.mark.parametrize("game", GAMES)
def test_every_assumed_parameter_has_a_plausible_range_with_a_reason(game):
    ranges = load_plausible(game)
    assert list(ranges) == _assumed(game)
    assert len(ranges) >= 18
    for r in ranges.values():
        assert r.reason and r.source.startswith("A-")
        assert r.value(0.0) == (r.low if r.choices is None else r.choices[0])
        assert r.value(1.0) == (r.high if r.choices is None else r.choices[-1])


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_assumed_parameter_is_refused_by_name(game):
    data = _raw(game)
    name = _assumed(game)[1]
    del data[name]
    with pytest.raises(ConfigError, match=f"assumed parameter '{name}'.*has no plausible range"):
        load_plausible(game, data)


@pytest.mark.parametrize("entry,message", [
    ({"low": 0, "high": 40, "reason": "x"}, "leaves the parameter's bounds 1 to 30"),
    ({"low": 13, "high": 14, "reason": "x"}, "does not hold the default 12"),
    ({"low": 10, "high": 12}, "needs a reason"),
    ({"choices": [10, 12], "reason": "x"}, "is a number: give low and high"),
    ({"low": 11, "high": 10, "reason": "x"}, "low 11 is above high 10"),
])
def test_bad_range_entries_are_refused(entry, message):
    data = _raw("galileos-truth")
    data["stake_at"] = entry
    with pytest.raises(ConfigError, match=message):
        load_plausible("galileos-truth", data)


def test_a_box_that_allows_contradicting_values_is_refused():
    data = _raw("galileos-truth")
    data["prison_at"] = {"low": 6, "high": 11, "reason": "x"}  # prison_at 11 >= stake_at 10 at one corner
    with pytest.raises(ConfigError, match="a point of the plausible box is refused.*prison_at"):
        load_plausible("galileos-truth", data)


def test_a_non_assumed_or_unknown_parameter_is_refused():
    data = _raw("galileos-truth")
    data["abjure_suspicion_drop"] = {"low": 4, "high": 5, "reason": "x"}
    with pytest.raises(ConfigError, match="not an assumption"):
        load_plausible("galileos-truth", data)
    data = _raw("galileos-truth")
    data["stake"] = {"low": 4, "high": 5, "reason": "x"}
    with pytest.raises(ConfigError, match="'stake' is not a parameter"):
        load_plausible("galileos-truth", data)


def test_unit_coordinates_map_to_values_element_by_element():
    r = load_plausible("galileos-truth")
    assert r["stake_at"].value(0.5) == 11
    assert r["suspicion_band_vp"].value(0.5) == (0, -2, -5, -10)
    assert r["suspicion_band_starts"].value(0.25) == (0, 4, 7, 9)
    assert r["tiebreak"].value(0.9) == "suspicion" and not r["tiebreak"].varies
    assert r["stake_at"].unit_of(11) == 0.5


def test_params_command_shows_the_plausible_range(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["meeplelab", "params", "galileos-truth"])
    with pytest.raises(SystemExit) as e:
        cli.main()
    out = capsys.readouterr().out.splitlines()
    assert e.value.code == 0
    line = next(x for x in out if x.startswith("stake_at = 12 "))
    assert "| plausible 10..12: The Stake ends" in line
    assert not any("plausible" in x for x in out if x.startswith("abjure_suspicion_drop ="))


@pytest.mark.parametrize("game", GAMES)
def test_rules_doc_table_is_current(game):
    text = rules_doc(game).read_text()
    assert text[text.index(BEGIN):text.index(END) + len(END)] == markdown_table(game), \
        "run python -m meeplelab.sim.plausible to refresh docs/rules tables"


def test_params_command_still_lists_when_a_range_is_missing(tmp_path, capsys, monkeypatch):
    import meeplelab.sim.plausible as P

    data = _raw("galileos-truth")
    del data["stake_at"]
    f = tmp_path / "plausible.toml"
    import tomli_w

    f.write_text(tomli_w.dumps(data))
    monkeypatch.setattr(P, "plausible_path", lambda cls: f)
    monkeypatch.setattr(sys, "argv", ["meeplelab", "params", "galileos-truth"])
    with pytest.raises(SystemExit) as e:
        cli.main()
    cap = capsys.readouterr()
    assert e.value.code == 0
    assert "warning:" in cap.err and "'stake_at' (A-GT-11) has no plausible range" in cap.err
    assert "| plausible 6..9:" in next(x for x in cap.out.splitlines() if x.startswith("prison_at ="))
    assert "plausible" not in next(x for x in cap.out.splitlines() if x.startswith("stake_at ="))


def test_the_location_readings_are_named_parameters_with_plausible_ranges():
    ranges = load_plausible("unconscious-mind")
    vp, eff = ranges["location_vp_effect"], ranges["location_effects"]
    assert (vp.source, vp.default, vp.choices) == ("A-UM-16", "vp", ("vp", "coffee"))
    assert (eff.source, eff.default, eff.choices) == ("A-UM-26", "any", ("any", "distinct", "order"))
    assert vp.varies and eff.varies
    assert [vp.value(u) for u in (0.0, 0.49, 0.5, 1.0)] == ["vp", "vp", "coffee", "coffee"]
    assert [eff.value(u) for u in (0.0, 0.4, 0.7, 1.0)] == ["any", "distinct", "order", "order"]


def _assumption_rows(game):
    """The rows of the assumption table of docs/rules/<game>.md: ``{ID: [cells]}`` (pipes inside code spans kept)."""
    import re

    rows = {}
    for line in rules_doc(game).read_text().splitlines():
        if re.match(r"^\| A-(UM|GT)-\d\d \|", line):
            cells = [c.strip() for c in re.sub(r"`[^`]*`", lambda m: m.group(0).replace("|", "/"), line).split("|")]
            rows[cells[1]] = cells[2:-1]
    return rows


@pytest.mark.parametrize("game, first_cell", [("unconscious-mind", "ID | assumption | reason | where | plausible range"),
                                              ("galileos-truth", "ID | Assumption (reason) | Where | Sensitive | "
                                                                 "Plausible range")])
def test_every_assumption_of_the_rules_doc_has_a_plausible_range(game, first_cell):
    text = rules_doc(game).read_text()
    assert f"| {first_cell} |" in text
    rows = _assumption_rows(game)
    assert len(rows) >= 34
    width = len(first_cell.split(" | ")) - 1
    for ident, cells in rows.items():
        assert len(cells) == width, f"{ident}: {len(cells)} cells, the table has {width} after the ID"
        assert len(cells[-1]) > 10, f"{ident} has no plausible range"
    for r in load_plausible(game).values():  # a parameter's range is the one its assumption's row names
        assert f"`{r.name}`" in rows[r.source][-1], f"{r.source} does not name {r.name}"
