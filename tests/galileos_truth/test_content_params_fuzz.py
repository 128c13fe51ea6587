"""Content validation, Params, and random games for 1-4 players."""

import dataclasses
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from meeplelab.sim.core import ConfigError, ContentError
from meeplelab.sim.core.params import apply_overrides, describe
from meeplelab.sim.core.rng import Streams
from meeplelab.sim.galileos_truth import GalileosTruth, Params
from meeplelab.sim.core.params import param_vector
from meeplelab.sim.galileos_truth.pcols import PRM_CYCLES, PRM_SUSPICION_BAND_VP
from meeplelab.sim.galileos_truth.state import A_DONE, A_PASS

DATA = Path(__file__).resolve().parents[2] / "sim" / "galileos_truth" / "data"
DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "galileos_truth.md"


def edited(tmp_path, fname, old, new, count=1):
    d = tmp_path / "data"
    shutil.copytree(DATA, d)
    text = (d / fname).read_text()
    assert old in text
    (d / fname).write_text(text.replace(old, new, count))
    return d


def test_content_missing_field_names_file_entry_and_field(tmp_path):
    d = edited(tmp_path, "treatises.toml", 'id = "star-charts"\nsubject = "astronomy"\nbooks = 1\n',
               'id = "star-charts"\nsubject = "astronomy"\n')
    with pytest.raises(ContentError) as e:
        GalileosTruth(content_dir=d)
    assert str(e.value) == "treatises.toml: [[card]] entry 'star-charts': field 'books': missing required field"


def test_content_wrong_type_names_file_entry_and_field(tmp_path):
    d = edited(tmp_path, "penance.toml", "coins = 3", 'coins = "three"')
    with pytest.raises(ContentError) as e:
        GalileosTruth(content_dir=d)
    assert str(e.value) == ("penance.toml: [[penance]] entry 'penance': field 'coins' is 'three' (str): allowed an integer "
                            "(a whole number such as 3)")


def test_content_unknown_opcode_is_refused(tmp_path):
    d = edited(tmp_path, "board.toml", 'icons = ["coins +3"]', 'icons = ["gold +3"]')
    with pytest.raises(ContentError) as e:
        GalileosTruth(content_dir=d)
    msg = str(e.value)
    assert msg.startswith("board.toml: [[space]] entry 'market': field 'icons': unknown effect opcode 'gold'; known: ")
    assert "susp_up_others" in msg


def test_content_duplicate_id_is_refused(tmp_path):
    d = edited(tmp_path, "treatises.toml", 'id = "pendulum"', 'id = "falling-bodies"')
    with pytest.raises(ContentError) as e:
        GalileosTruth(content_dir=d)
    assert str(e.value) == "treatises.toml: [[card]] entry 'falling-bodies': duplicate id 'falling-bodies'"


def test_content_bad_argument_and_missing_second_group(tmp_path):
    d = edited(tmp_path, "observation.toml", 'icons = ["books astronomy 1"]', 'icons = ["books astrology 1"]')
    with pytest.raises(ContentError, match="'astrology' is not one of astronomy, physics, mathematics, philosophy"):
        GalileosTruth(content_dir=d)
    d2 = tmp_path / "d2"
    shutil.copytree(DATA, d2)
    t = (d2 / "board.toml").read_text().replace('icons = ["copy 2 2 2"]\nicons_b = ["research +2"]\nsep = "line"',
                                                'icons = ["copy 2 2 2"]\nsep = "line"')
    (d2 / "board.toml").write_text(t)
    with pytest.raises(ContentError) as e:
        GalileosTruth(content_dir=d2)
    assert str(e.value) == ("board.toml: [[space]] entry 'academy': field 'icons_b': separator 'line' needs a "
                            "second icon group")


def test_content_read_icon_not_allowed_on_a_card_page(tmp_path):
    d = edited(tmp_path, "treatises.toml", 'icons = ["research +1", "write"]', 'icons = ["research +1", "read 1 1 1"]')
    with pytest.raises(ContentError, match="icon 'read 1 1 1' is not allowed here"):
        GalileosTruth(content_dir=d)


def test_content_observe_icon_not_allowed_on_an_observation_tile_or_window_space(tmp_path):
    d = edited(tmp_path, "observation.toml", 'icons = ["research +1"]', 'icons = ["research +1", "observe"]')
    with pytest.raises(ContentError, match=r"observation.toml: \[\[(tile|space)\]\] entry .*icon 'observe' is not allowed here"):
        GalileosTruth(content_dir=d)


def test_content_payment_not_allowed_where_nobody_can_decline_the_icons(tmp_path):
    # Income Inventions and Observation tiles resolve without a choice, so a payment there could not be
    # checked before it starts (A-GT-24, A-GT-32)
    d = edited(tmp_path, "inventions.toml", 'type = "income"\ncoins = 1\nicons = ["coins +1"]',
               'type = "income"\ncoins = 1\nicons = ["coins -1"]')
    with pytest.raises(ContentError, match=r"inventions.toml: \[\[invention\]\] entry 'compass'.*'coins -1' is a payment"):
        GalileosTruth(content_dir=d)
    d2 = tmp_path / "t2"
    shutil.copytree(DATA, d2)
    text = (d2 / "observation.toml").read_text()
    i = text.index("[[tile]]")
    j = text.index("icons = [", i)
    (d2 / "observation.toml").write_text(text[:j] + 'icons = ["research -1"]\n' + text[text.index("\n", j) + 1:])
    with pytest.raises(ContentError, match=r"observation.toml: \[\[tile\]\].*'research -1' is a payment"):
        GalileosTruth(content_dir=d2)


def test_content_hash_and_files():
    game = GalileosTruth()
    assert len(game.content_files()) == 8 and len(game.content_hash()) == 16


def test_every_param_has_unit_source_doc_and_assumptions_are_documented():
    rows = describe(Params())
    doc = DOC.read_text()
    for r in rows:
        assert r["unit"] and r["doc"], r["name"]
        assert r["source"].startswith("seed 001") or re.match(r"A-GT-\d\d", r["source"]), r
        for aid in re.findall(r"A-GT-\d\d", r["source"]):
            assert aid in doc, aid
        assert f"`{r['name']}`" in doc, r["name"]


def test_a_param_with_an_assumed_part_is_marked_assumed():
    rows = {r["name"]: r for r in describe(Params())}
    for n in ("level_space_vp_2", "level_space_vp_3", "level_space_vp_4"):
        assert rows[n]["source"] == "A-GT-13" and rows[n]["assumed"], rows[n]
        assert "seed 001 §Upgrade: the first value" in rows[n]["doc"]
    # any source naming an assumption ID is an assumption, also when part of it is seed
    for r in rows.values():
        assert r["assumed"] == bool(re.search(r"A-GT-\d\d", r["source"])), r


@pytest.mark.parametrize("overrides,message", [
    ({"prison_at": "12", "stake_at": "8"},
     "parameters prison_at=12, stake_at=8 and suspicion_max=12 contradict each other: allowed prison_at < stake_at "
     "<= suspicion_max (Prison comes before the Stake, both on the Suspicion track)"),
    ({"prison_at": "8", "stake_at": "8"},
     "parameters prison_at=8, stake_at=8 and suspicion_max=12 contradict each other: allowed prison_at < stake_at "
     "<= suspicion_max (Prison comes before the Stake, both on the Suspicion track)"),
    ({"suspicion_max": "10"},
     "parameters prison_at=8, stake_at=12 and suspicion_max=10 contradict each other: allowed prison_at < stake_at "
     "<= suspicion_max (Prison comes before the Stake, both on the Suspicion track)"),
    ({"start_suspicion": "9"},
     "parameters start_suspicion=9 and prison_at=8 contradict each other: allowed start_suspicion < prison_at "
     "(players start out of Prison)"),
    ({"period2_first_cycle": "6"},
     "parameters period2_first_cycle=6 and period3_first_cycle=5 contradict each other: allowed period2_first_cycle "
     "< period3_first_cycle (Period II comes before Period III)"),
    ({"book_level_starts": "0,10,5"},
     "parameters book_level_starts=0,10,5 and book_track_max=15 contradict each other: allowed increasing Level "
     "starts, the last at most book_track_max"),
    ({"book_track_max": "8"},
     "parameters book_level_starts=0,5,10 and book_track_max=8 contradict each other: allowed increasing Level "
     "starts, the last at most book_track_max"),
    ({"suspicion_band_starts": "0,7,4,10"},
     "parameter suspicion_band_starts=0,7,4,10 must increase: each end band starts above the one before"),
])
def test_contradictory_params_are_refused(overrides, message):
    with pytest.raises(ConfigError) as e:
        apply_overrides(Params(), overrides)
    assert str(e.value) == message


def test_consistent_params_and_the_presets_pass_the_check():
    for p in (Params(), Params.harsh_inquisition(), Params.no_truth_bonus()):
        p.check()
    q = apply_overrides(Params(), {"prison_at": "6", "stake_at": "10", "suspicion_max": "10", "cycles": "4"})
    assert (q.prison_at, q.stake_at, q.suspicion_max) == (6, 10, 10)


def test_params_vector_presets_and_overrides():
    p = Params()
    v = param_vector(p)
    assert v.dtype == np.int64 and int(v[PRM_CYCLES]) == 5
    h = Params.harsh_inquisition()
    assert h.prison_at == 6 and h != p
    q = apply_overrides(p, {"abjure_suspicion_drop": "4", "suspicion_band_vp": "0,-1,-2,-3"})
    assert q.abjure_suspicion_drop == 4 and q.suspicion_band_vp == (0, -1, -2, -3)
    assert param_vector(q)[PRM_SUSPICION_BAND_VP:PRM_SUSPICION_BAND_VP + 4].tolist() == [0, -1, -2, -3]
    assert dataclasses.replace(p, cycles=4).cycles == 4


def _play(game, players, n, seed, avoid_pass):
    s = game.init(np.arange(n), seed, players)
    st = Streams.for_games(seed, s.game_id, 1)
    ev_vp = np.zeros((n, players), np.int64)
    half_ev, half_turn = game.event_capacity // 2, game.turn_capacity // 2
    steps = 0
    while not game.done(s).all():
        d = game.done(s)
        m = game.legal_action_mask(s)
        live = np.flatnonzero(~d)
        assert m[live].any(1).all()
        pick = m.copy()
        if avoid_pass:
            alt = pick[:, 2:].any(1)
            r = st.random(np.arange(n))
            pick[alt & (r < 0.95), A_PASS] = False
            pick[alt & (r < 0.6), A_DONE] = False
        a = np.full(n, -1, np.int64)
        a[live] = st.choose_legal(live, pick[live])
        game.step(s, a, m)
        assert s.event_n.max() <= half_ev and s.turn_n.max() <= half_turn
        bad = game.check_invariants(s)
        assert not bad, bad
        for g in range(n):
            for r_ in range(s.event_n[g]):
                row = s.event_buf[g, r_]
                if row[3] == 0:
                    ev_vp[g, row[2]] += row[5]
        s.turn_n[:] = 0
        s.event_n[:] = 0
        steps += 1
        assert steps <= game.max_plies(players)
    assert np.array_equal(ev_vp, s.vp)
    assert np.array_equal(sum(game.score_breakdown(s).values()), game.final_scores(s))
    return s


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_end_within_ply_bound_without_invariant_breaks(players):
    game = GalileosTruth()
    s1 = _play(game, players, 150, 11, avoid_pass=False)
    s2 = _play(game, players, 150, 12, avoid_pass=True)
    bound = game.max_plies(players)
    assert s1.ply.max() < bound // 10 and s2.ply.max() < bound // 10
    assert s2.level.max() >= 3                     # the deep paths were exercised
    assert (s2.tseal >= 0).any() and (s2.window >= 0).any() and (s2.inv_owner >= 0).any()
