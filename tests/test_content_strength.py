"""Content strength: the descriptive per-item table of both games, checked against counts
taken straight from the events table, and ``meeplelab content-value``: an item removed from the content in
its own arm on common seeds, paired against the unchanged content."""

from __future__ import annotations

import math
import shutil
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from meeplelab.analysis.content import removal_effects, strength, takes
from meeplelab.analysis.load import load_runs, scan_run
from meeplelab.analysis.report import build_report
from meeplelab.play.config import RunConfig
from meeplelab.studies.content_value import parse_items, remove_entry, removal_arms, removed_content, run_content_value
from meeplelab.sim.core.errors import ConfigError, ContentError
from meeplelab.sim.registry import get_game_class, make_game
from meeplelab.play.runner import simulate
from tests.cli_run import run_cli

ROSTER = {"galileos-truth": ("writer", "observer"), "unconscious-mind": ("publisher", "curer")}


def _cfg(tmp: Path, game: str, name: str, games: int = 48, **kw) -> RunConfig:
    return RunConfig(game=game, players=2, strategies=ROSTER[game], games=games, seed=7, batch_size=16, n_jobs=1,
                     out=str(tmp / name), seating="rotate", **kw)


@pytest.fixture(scope="module")
def gt_run(tmp_path_factory):
    cfg = _cfg(tmp_path_factory.mktemp("gt"), "galileos-truth", "run")
    simulate(cfg)
    return Path(cfg.out)


@pytest.fixture(scope="module")
def um_run(tmp_path_factory):
    cfg = _cfg(tmp_path_factory.mktemp("um"), "unconscious-mind", "run")
    simulate(cfg)
    return Path(cfg.out)


# (game, kind, event kind, categories, events column holding the index, content ids attribute)
RAW = [
    ("galileos-truth", "invention", ("invent",), None, "item", "inv_ids"),
    ("galileos-truth", "space", ("assign",), None, "item", "space_ids"),
    ("galileos-truth", "treatise", ("write", "copy"), None, "item", "board_ids"),
    ("galileos-truth", "window", ("observe",), None, "before", "window_ids"),
    ("unconscious-mind", "tile", ("tile",), ("tile_stack", "tile_center", "tile_right", "free"), "item", "tile_ids"),
    ("unconscious-mind", "client", ("client",), ("none",), "item", "client_ids"),
    ("unconscious-mind", "space", ("idea",), ("none",), "item", "space_ids"),
]


@pytest.mark.parametrize("game,kind,events,cats,col,attr", RAW, ids=[f"{r[0]}-{r[1]}" for r in RAW])
def test_descriptive_counts_match_a_count_from_the_events_table(game, kind, events, cats, col, attr, gt_run, um_run):
    run = gt_run if game == "galileos-truth" else um_run
    ev = scan_run(run, "events").filter(pl.col("kind").is_in(list(events)))
    if cats:
        ev = ev.filter(pl.col("category").is_in(list(cats)))
    ev = ev.collect()
    ids = getattr(make_game(game).content, attr)
    games = scan_run(run, "games").collect()
    n_games = games["game"].n_unique()
    t = strength(load_runs([run])).filter(pl.col("kind") == kind)
    assert t.height == len(ids) and sorted(t["id"].to_list()) == sorted(ids)
    assert ev.height > 0, f"no {kind} taken in the test run: the comparison would be empty"
    for i, ident in enumerate(ids):
        mine = ev.filter(pl.col(col) == i)
        row = t.filter(pl.col("id") == ident).row(0, named=True)
        assert row["takes"] * n_games == pytest.approx(mine.height)
        assert row["seats_took"] == mine.select("game", "seat").unique().height
        assert row["taken"] == pytest.approx(mine["game"].n_unique() / n_games)
        if row["seats_took"]:
            took = games.join(mine.select("game", pl.col("seat").cast(games["seat"].dtype)).unique(), on=["game", "seat"])
            assert row["win_took"] == pytest.approx(float(took["win_share"].mean()))
            assert row["vp_took"] == pytest.approx(float(took["vp"].mean()))
            assert row["win_took_low"] <= row["win_took"] <= row["win_took_high"]


def test_every_philosopher_turn_writes_one_assign_event_naming_the_space(gt_run):
    turns = scan_run(gt_run, "turns").filter(pl.col("main_action") == "philosopher").collect()
    assign = scan_run(gt_run, "events").filter(pl.col("kind") == "assign").collect()
    assert turns.height > 0 and assign.height == turns.height
    assert assign.select("game", "turn").sort("game", "turn").equals(turns.select("game", "turn").sort("game", "turn"))
    n_spaces = len(make_game("galileos-truth").content.space_ids)
    assert assign["item"].min() >= 0 and assign["item"].max() < n_spaces
    game = make_game("galileos-truth")
    row = {"kind": "assign", "seat": 1, "category": "-", "amount": 0, "item": 2}
    assert game.describe_event(row) == f"Seat 2 assigns the Natural Philosopher to the space {game.content.space_ids[2]}"


def test_the_table_is_ranked_with_intervals_and_difference_columns(um_run):
    t = strength(load_runs([um_run]))
    both = t.filter(pl.col("win_diff").is_not_null())
    assert both.height > 20
    assert both["win_diff"].to_list() == sorted(both["win_diff"].to_list(), reverse=True)
    assert t["rank"].to_list() == list(range(1, t.height + 1))
    for r in both.iter_rows(named=True):
        assert r["win_diff_low"] <= r["win_diff"] <= r["win_diff_high"]
        assert math.isclose(r["win_diff"], r["win_took"] - r["win_not"], abs_tol=1e-12)
        assert r["seats_took"] + r["seats_not"] == 2 * 48
        assert r["stands_out"] in ("", "over", "under")
        if r["stands_out"] == "over":
            assert r["win_diff_low"] > 0  # the Bonferroni interval is wider than the 95% one
    # two strategies: the within-strategy difference is its own estimate, not a copy of win_diff
    assert both.filter((pl.col("within") - pl.col("win_diff")).abs() > 1e-9).height > 0
    kinds = set(t["kind"])
    assert {"tile", "card", "treatise", "client", "dream", "location", "space", "goal"} <= kinds


def test_graduation_tiles_and_mastery_tracks_are_content_items_of_galileos_truth(gt_run):
    """The Graduation tiles and the Mastery tracks are content items in the table. An upgrade's event names the
    Graduation tile it met (one of the Level it opens, graduation.toml); a Mastery seal is a vp event of category
    mastery naming its track."""
    from meeplelab.sim.registry import make_game

    game = make_game("galileos-truth")
    runs = load_runs([gt_run])
    ev = runs.events.filter(pl.col("kind") == "upgrade").collect()
    assert ev.height > 0
    import tomllib

    tiles = tomllib.loads((game.content_dir / "graduation.toml").read_text())["tile"]
    for r in ev.iter_rows(named=True):
        tile = tiles[int(r["item"])]
        assert tile["level"] == int(r["after"]), (r, tile)  # the tile of the Level reached
    t = strength(runs)
    grad = t.filter(pl.col("kind") == "graduation")
    assert set(grad["id"]) == {x["id"] for x in tiles} and grad["takes"].sum() > 0
    mast = t.filter(pl.col("kind") == "mastery")
    assert set(mast["id"]) == set(game.content.track_ids)
    assert not mast["removable"].any() and grad["removable"].all()


def test_every_treatise_card_played_from_hand_is_a_play_event_and_a_content_item(gt_run):
    """The Treatise cards played from hand are counted. Every card played from hand is a ``play``
    event naming its card type; their count per turn is the turns table's ``cards_played``; the content table has
    kind ``card`` (the Treatise cards; the Penance cards keep their own kind)."""
    runs = load_runs([gt_run])
    plays = runs.events.filter(pl.col("kind") == "play").collect()
    per_turn = plays.group_by("game", "turn").len()
    turns = runs.turns.select("game", "turn", "cards_played").collect().filter(pl.col("cards_played") > 0)
    j = turns.join(per_turn, on=["game", "turn"], how="left")
    assert j.height > 0 and (j["len"] == j["cards_played"]).all()
    assert plays.height == int(runs.turns.select(pl.col("cards_played").sum()).collect().item())
    t = strength(runs)
    cards = t.filter(pl.col("kind") == "card")
    assert cards.height > 5 and cards["takes"].sum() > 0
    pen = t.filter(pl.col("kind") == "penance")["id"].to_list()
    assert not set(pen) & set(cards["id"].to_list())


def test_the_balance_report_holds_the_content_tables_folded_when_long(gt_run, tmp_path):
    page = build_report([gt_run], tmp_path / "rep")
    md = (page.parent / "report.md").read_text()
    html = page.read_text()
    sec = md[md.index("## Content strength (descriptive)"):]
    assert "DESCRIPTIVE, not causal" in sec
    assert "<details><summary>Every content item ranked by win_diff" in sec
    assert "<details><summary>Every content item ranked by win_diff" in html
    assert "Not removable by a content edit: Treatise board" in sec
    n_items = strength(load_runs([gt_run])).height
    csv = next((page.parent / "tables").glob("*every-content-item-ranked*.csv"))
    assert pl.read_csv(csv).height == n_items


def test_remove_entry_deletes_one_entry_and_keeps_the_rest():
    src = (get_game_class("galileos-truth").default_content_dir() / "inventions.toml").read_text()
    new = remove_entry(src, "invention", "compass")
    old_d, new_d = tomllib.loads(src), tomllib.loads(new)
    assert [e["id"] for e in new_d["invention"]] == [e["id"] for e in old_d["invention"] if e["id"] != "compass"]
    assert new.startswith("# Inventions (A-GT-17)")  # comments kept
    with pytest.raises(ContentError, match="no \\[\\[invention\\]\\] entry with id 'sextant'"):
        remove_entry(src, "invention", "sextant", where="inventions.toml")


def test_items_are_parsed_and_bad_ones_refused_naming_what_is_allowed():
    assert parse_items("galileos-truth", "invention:telescope, comets") == [("invention", "telescope"),
                                                                           ("tile", "comets")]
    for text, msg in [("treatise:b0-0", "a Treatise board (its pyramid card) cannot be removed: pyramid.toml needs "
                                        "exactly 10 boards"),
                      ("tile:nope", "galileos-truth has no tile 'nope': allowed moon-craters, "),
                      ("foo:bar", "unknown kind 'foo': allowed treatise, invention, tile, window, space, penance, card, graduation, mastery"),
                      ("tile:comets,tile:comets", "tile:comets is listed twice"),
                      (" , ", "name at least one item as kind:id (e.g. invention:telescope)")]:
        with pytest.raises(ConfigError, match=msg.replace("(", "\\(").replace(")", "\\)")):
            parse_items("galileos-truth", text)


def test_a_removal_that_breaks_a_content_rule_is_refused_before_anything_is_played(tmp_path):
    # content whose Level III has one Observation tile: removing it leaves Level III empty
    base = tmp_path / "base"
    shutil.copytree(get_game_class("galileos-truth").default_content_dir(), base)
    obs = base / "observation.toml"
    lvl3 = [t["id"] for t in tomllib.loads(obs.read_text())["tile"] if t["level"] == 3]
    for ident in lvl3[1:]:
        obs.write_text(remove_entry(obs.read_text(), "tile", ident))
    cfg = _cfg(tmp_path, "galileos-truth", "cv", content=str(base))
    with pytest.raises(ConfigError, match=f"--items tile:{lvl3[0]}: removing it is not a legal content edit: "
                                          "observation.toml: \\[\\[tile\\]\\] level 3 needs 1 to 16 tiles, found 0"):
        with removal_arms(cfg, [("tile", lvl3[0])]):
            pass
    assert not (tmp_path / "cv").exists()


def test_removing_an_item_makes_its_take_count_zero_and_the_paired_table_has_intervals(gt_run, tmp_path, capsys,
                                                                                        monkeypatch):
    # the removable item most taken in the plain run of the same settings (the control arm replays it)
    t = strength(load_runs([gt_run])).filter(pl.col("removable")).sort("takes", descending=True)
    kind, ident = t["kind"][0], t["id"][0]
    assert t["takes"][0] > 0.5
    cfg = _cfg(tmp_path, "galileos-truth", "cv")
    out = run_content_value(cfg, [(kind, ident)])
    arm = out / f"remove_{kind}_{ident}"
    # the control arm is the plain run (common seeds); the removal arm played content without the item
    assert scan_run(out / "control", "games").collect().equals(scan_run(gt_run, "games").collect())
    file = {"tile": "observation.toml", "space": "board.toml", "invention": "inventions.toml",
            "penance": "penance.toml", "graduation": "graduation.toml", "card": "treatises.toml"}[kind]
    table = {"tile": "tile", "space": "space", "invention": "invention", "penance": "penance", "graduation": "tile",
             "card": "card"}[kind]
    played = tomllib.loads((arm / "content" / file).read_text())[table]
    assert ident not in [e["id"] for e in played] and len(played) > 0
    arm_takes = takes(load_runs([arm]))
    assert arm_takes.filter((pl.col("kind") == kind) & (pl.col("id") == ident)).height == 0
    assert arm_takes.filter(pl.col("kind") == kind).height > 0  # the other items of the kind are still taken
    df = removal_effects(out)
    assert set(df["group"]) == {"all seats", "writer", "observer", "took it in control"}
    assert (df["takes_removed"] == 0).all()
    assert df["takes_control"].to_list() == pytest.approx([float(t["takes"][0])] * df.height)
    for r in df.iter_rows(named=True):
        assert r["low"] <= r["est"] <= r["high"] and r["high"] > r["low"]
        assert r["unpaired_low"] < r["unpaired_high"] and isinstance(r["resolved"], bool)
        assert 0 <= r["p_holm"] <= 1
    allseats = df.filter(pl.col("group") == "all seats").row(0, named=True)
    assert allseats["metric"] == "vp" and allseats["n"] == 2 * 48
    took = df.filter((pl.col("group") == "took it in control") & (pl.col("metric") == "vp")).row(0, named=True)
    assert took["n"] == int(t["seats_took"][0])
    ctrl = scan_run(out / "control", "games").collect()
    rem = scan_run(arm, "games").collect()
    assert allseats["est"] == pytest.approx(float(rem["vp"].mean() - ctrl["vp"].mean()))
    # `meeplelab report OUT` of a content-value folder is its removal report
    code, printed, _ = run_cli(["report", out, "--out", tmp_path / "rep"], capsys, monkeypatch)
    md = (tmp_path / "rep" / "report.md").read_text()
    assert code in (0, None) and md.startswith("# meeplelab content-value report: galileos-truth")
    assert md.index("## Content value by removal") < md.index("## Content strength (descriptive): control arm")
    assert f"Removing {kind}:{ident}: took it in control: win rate " in md


def test_the_cli_refuses_bad_items_in_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cv"
    code, _, err = run_cli(["content-value", "--game", "unconscious-mind", "--items", "location:cafe", "--games", "8",
                            "--out", out], capsys, monkeypatch)
    assert code == 2 and err.strip().count("\n") == 0
    assert err.startswith("error: --items 'location:cafe': a Location cannot be removed: city.toml needs exactly the "
                          "six Locations")
    assert not out.exists()
    code, listed, _ = run_cli(["content-value", "--game", "unconscious-mind", "--list"], capsys, monkeypatch)
    assert code in (0, None) and "location:cafe\tfixed" in listed and "goal:goal02\tremovable" in listed


def test_removed_content_changes_only_the_removed_entry(tmp_path):
    d = removed_content("unconscious-mind", "card", "r01", tmp_path / "c")
    src = get_game_class("unconscious-mind").default_content_dir()
    for f in sorted(d.iterdir()):
        a, b = tomllib.loads((src / f.name).read_text()), tomllib.loads(f.read_text())
        if f.name == "research.toml":
            assert [c["id"] for c in b["card"]] == [c["id"] for c in a["card"] if c["id"] != "r01"]
        else:
            assert a == b
    ids = make_game("unconscious-mind", content_dir=d).content.card_ids
    assert "r01" not in ids and len(ids) == len(make_game("unconscious-mind").content.card_ids) - 1
    assert np.all(np.asarray(ids) != "r01")


def test_the_within_strategy_difference_keeps_a_real_width_when_every_taker_won():
    from meeplelab.analysis.content import _within_strategy

    st = pl.DataFrame({"players": [4, 4], "kind": ["tile", "tile"], "id": ["x", "x"], "strategy": ["a", "b"],
                       "n1": [6, 6], "w1": [6.0, 6.0], "n0": [100, 100], "w0": [25.0, 25.0]})
    r = _within_strategy(st).row(0, named=True)
    assert r["within"] == pytest.approx(0.75)
    # Agresti-Caffo per stratum: (7/8)(1/8)/8 + (26/102)(76/102)/102, two equal strata pooled
    se = math.sqrt(2 * ((7 / 8) * (1 / 8) / 8 + (26 / 102) * (76 / 102) / 102)) / 2
    assert r["within_low"] == pytest.approx(0.75 - 1.959964 * se, abs=1e-5)
    assert r["within_high"] == pytest.approx(min(1.0, 0.75 + 1.959964 * se), abs=1e-5)
    assert r["within_high"] - r["within_low"] > 0.2


def test_a_denied_item_is_never_taken_by_the_denied_seat_and_the_paired_table_has_intervals(gt_run, tmp_path):
    """``--mode deny`` (play/deny.py): the content unchanged, the item removed from one seat's legal mask per game
    (roster position game seed mod P, so every seat is denied equally); also a kind that cannot be removed."""
    from meeplelab.analysis.content import denied_seats

    t = strength(load_runs([gt_run])).sort("takes", descending=True)
    tile = t.filter(pl.col("kind") == "tile")  # an Observation tile: kept, then laid by the next decision
    board = t.filter(pl.col("kind") == "treatise")  # a pyramid board: fixed in number, never removable
    items = [("tile", tile["id"][0]), ("treatise", board["id"][0])]
    assert tile["takes"][0] > 0.3 and board["takes"][0] > 0.1
    out = run_content_value(_cfg(tmp_path, "galileos-truth", "cv", games=24), items, mode="deny")
    meta = (out / "experiment.json").read_text()
    assert "remove" not in meta and '"deny": "tile:' in meta  # no content edited: one deny arm per item
    ctrl_takes = takes(load_runs([out / "control"]))
    df = removal_effects(out)
    for kind, ident in items:
        arm = out / f"deny_{kind}_{ident}"
        assert not (arm / "content").exists()  # the packaged content, unchanged
        den = denied_seats(arm)
        g = scan_run(arm, "games").collect()
        # the denied seat: roster position game_seed mod 2 in the game's seat order (rotate: two orders)
        order = g["seat_order"].to_numpy().astype(int)
        pos = np.where(order == 0, g["seat"].to_numpy(), 1 - g["seat"].to_numpy())
        want = pos == g["game_seed"].to_numpy() % 2
        assert den.sort("game", "seat")["denied"].to_list() == want[np.lexsort((g["seat"], g["game"]))].tolist()
        assert den.filter(pl.col("denied")).group_by("seat").len()["len"].to_list() == [12, 12]  # every seat equally
        arm_takes = takes(load_runs([arm])).filter((pl.col("kind") == kind) & (pl.col("id") == ident))
        mine = ctrl_takes.filter((pl.col("kind") == kind) & (pl.col("id") == ident))
        denied_in_ctrl = mine.join(den.filter(pl.col("denied")), on=["game", "seat"])
        assert denied_in_ctrl.height > 0  # the denied seats did take it in the control games
        assert arm_takes.join(den.filter(pl.col("denied")), on=["game", "seat"]).height == 0  # never taken now
        d = df.filter(pl.col("item") == f"{kind}:{ident}")
        assert set(d["mode"]) == {"deny"} and (d["takes_denied"] == 0).all()
        assert {"denied seat", "other seats", "all seats", "denied seat, took it in control"} <= set(d["group"])
        assert d.filter((pl.col("group") == "denied seat") & (pl.col("metric") == "win"))["n"][0] == 24
        for r in d.filter(pl.col("group") != "denied seat, took it in control").iter_rows(named=True):
            assert r["low"] <= r["est"] <= r["high"] and r["high"] > r["low"], r


def test_a_removal_line_without_an_interval_says_so_instead_of_nan():
    from meeplelab.analysis.content import removal_line

    row = {"metric": "vp", "item": "space:florence", "group": "denied seat, took it in control", "est": 3.0,
           "low": float("nan"), "high": float("nan"), "n": 1, "mean_control": 40.0, "resolved": False,
           "games_needed": None, "mode": "deny"}
    line = removal_line(row)
    assert "nan" not in line.lower()
    assert "+3.00 VP [no interval: too few seat-results] (paired over 1 seat-result;" in line
    ok = removal_line({**row, "low": 1.5, "high": 4.5, "n": 40})
    assert "[1.50, 4.50] (paired over 40 seat-results;" in ok
