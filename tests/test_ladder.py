"""The skill ladder (studies/ladder.py, analysis/ladder.py, meeplelab ladder) on the toy game, and its luck measures
against known answers."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from meeplelab.analysis.ladder import (binary_entropy, bt_probabilities, games_to_lead, information_luck, pair_frame, plateau,
                             skill_trace)
from meeplelab.analysis.load import scan_run
from meeplelab.analysis.tournament import bradley_terry
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.studies.ladder import budgets, read_ladder, run_ladder
from tests.test_cli_errors import expect_error, run_cli

N = 120  # games per pairing: 2 seat orders x 60 common seeds
SETTINGS = dict(plans=["always-draw", "greedy-vp"], tuned="none", search="ismcts", budget=2, start=1,
                games_per_rung=N, seed=3)


# ---------------------------------------------------------------------------------------------- the measures
def test_a_coin_flip_has_luck_one_and_skill_zero():
    assert information_luck(np.full((2, 2), 0.5)) == 1.0
    assert information_luck(np.full((5, 5), 0.5)) == 1.0
    # fitted from games: every pair split evenly gives equal strengths, hence luck 1 exactly
    b = bradley_terry(np.array([[0, 50, 50], [50, 0, 50], [50, 50, 0]], float))
    assert np.allclose(b, 0) and information_luck(bt_probabilities(b)) == pytest.approx(1.0)


def test_a_game_the_stronger_always_wins_has_luck_zero():
    order = np.array([[0.5, 1, 1], [0, 0.5, 1], [0, 0, 0.5]], float)  # a strict order, the diagonal ignored
    assert information_luck(order) == 0.0
    # fitted from 100-0 records: the quarter game each way (bradley_terry) leaves a little entropy
    b = bradley_terry(np.array([[0, 100], [0, 0]], float))
    p = 100.25 / 100.5
    assert bt_probabilities(b)[0, 1] == pytest.approx(p)
    assert information_luck(bt_probabilities(b)) == pytest.approx(-(p * math.log2(p) + (1 - p) * math.log2(1 - p)))
    assert information_luck(bt_probabilities(b)) == pytest.approx(0.0249, abs=5e-4)


def test_luck_of_two_players_is_the_binary_entropy_of_their_rate():
    assert binary_entropy(0.75) == pytest.approx(0.811278, abs=1e-6)
    assert information_luck(np.array([[0.5, 0.75], [0.25, 0.5]])) == pytest.approx(0.811278, abs=1e-6)
    assert binary_entropy(0.0) == binary_entropy(1.0) == 0.0
    assert math.isnan(information_luck(np.full((1, 1), 0.5)))


def _brute_games_to_lead(p: float, level: float = 0.95, cap: int = 90) -> int:
    q = Fraction(p).limit_denominator(1000)
    last_bad = 0
    for n in range(1, cap + 1):
        ahead = sum(math.comb(n, k) * q ** k * (1 - q) ** (n - k) for k in range(n // 2 + 1, n + 1))
        if ahead < level:
            last_bad = n
    return last_bad + 1


def test_games_to_be_ahead_with_95_percent_match_the_exact_binomial():
    assert [games_to_lead(p) for p in (0.6, 0.75, 0.9, 1.0)] == [75, 13, 5, 1]
    assert [_brute_games_to_lead(p) for p in (0.6, 0.75, 0.9, 1.0)] == [75, 13, 5, 1]
    assert games_to_lead(0.5) is None and games_to_lead(0.3) is None
    assert games_to_lead(0.5005) is None  # about 2.7 million games: beyond the cap


def test_skill_trace_follows_ludii():
    assert skill_trace([1.0, 1.0, 1.0]) == 1.0  # the doubled budget always wins
    assert skill_trace([0.0, 0.0]) == 0.0  # doubling never helps
    # line through (0, 0.5), (1, 0.3) predicted at index 3: -0.1, clamped to 0; area 0.8 over 2 levels
    assert skill_trace([0.5, 0.3]) == pytest.approx(0.4)
    assert math.isnan(skill_trace([0.7]))


def test_budgets_double_from_the_start():
    assert budgets(64) == [8, 16, 32, 64] and budgets(0) == [] and budgets(4, 1) == [1, 2, 4]
    with pytest.raises(ConfigError, match=r"^--budget 100: allowed 0 \(no search rungs\) or --start-iters 8 doubled"):
        budgets(100)


def test_plateau_names_the_last_budget_of_rising_doublings():
    meta = {"rungs": [{"id": f"s{k}", "kind": "search", "iters": k, "label": f"s {k}"} for k in (8, 16, 32, 64)]}
    comps = pl.DataFrame({"role": ["below"] * 3, "rung": ["s16", "s32", "s64"], "opponent": ["s8", "s16", "s32"],
                          "score": [0.7, 0.6, 0.52], "score_low": [0.63, 0.53, 0.45], "score_high": [0.76, 0.66, 0.59],
                          "games": [200, 200, 200]})
    p = plateau(comps, meta)
    assert p["budget"] == 32 and not p["rising_to_budget"]
    assert p["text"].startswith("Strength stops rising measurably at **iters=32**: iters=64 against iters=32 scores 52.0%")
    assert p["text"].endswith("Every doubling (the doubled budget's score against the budget before, 200 games each): "
                              "8 to 16: 70.0% [63.0%, 76.0%]; 16 to 32: 60.0% [53.0%, 66.0%]; 32 to 64: 52.0% [45.0%, 59.0%].")
    rising = plateau(comps.with_columns(pl.lit(0.51).alias("score_low")), meta)
    assert rising["budget"] == 64 and rising["rising_to_budget"]
    falls = plateau(comps.with_columns(pl.Series("score", [0.42, 0.6, 0.6]), pl.Series("score_low", [0.35, 0.53, 0.53]),
                                       pl.Series("score_high", [0.49, 0.66, 0.66])), meta)
    assert falls["budget"] == 8 and "an interval below 50%: the doubled budget plays *worse*" in falls["text"]


def test_the_weaker_of_the_top_rung_and_its_opponent_is_the_one_measured_weaker():
    from meeplelab.analysis.ladder import luck_table

    meta = {"rungs": [{"id": "random", "label": "random", "kind": "baseline", "iters": None},
                      {"id": "heuristic", "label": "heuristic", "kind": "heuristic", "iters": None},
                      {"id": "s8", "label": "s 8", "kind": "search", "iters": 8}], "comparisons": []}
    comps = pl.DataFrame({"rung": ["s8"], "opponent": ["heuristic"], "pairing": ["pair-00"], "role": ["heuristic"],
                          "score": [0.4], "score_low": [0.333], "score_high": [0.471], "games": [200]})
    strong = {"luck": (0.5, 0.4, 0.6), "skill_trace": (math.nan, math.nan, math.nan)}
    luck = luck_table(comps, meta, strong, {"budget": 8})
    row = {r["measure"]: r for r in luck.filter(pl.col("between") == "s 8 vs the heuristic").iter_rows(named=True)}
    assert row["weaker wins"]["stronger"] == "the heuristic" and row["weaker wins"]["resolved"]
    assert row["weaker wins"]["est"] == pytest.approx(0.4) and row["weaker wins"]["low"] == pytest.approx(0.333)
    assert row["games to be ahead (95%)"]["est"] == games_to_lead(0.6) == 75
    assert row["games to be ahead (95%)"]["low"] == games_to_lead(0.667)


# ---------------------------------------------------------------------------------------------- a toy ladder
@pytest.fixture(scope="module")
def toy_ladder(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder") / "lad"
    meta = run_ladder("toy", **SETTINGS, batch_size=64, n_jobs=1, out=out)
    return out, meta


def test_the_toy_ladder_plays_every_rung_against_the_heuristic_and_the_rung_below(toy_ladder):
    out, meta = toy_ladder
    saved = read_ladder(out)
    assert saved["status"] == "complete" and "report" not in saved
    ids = [r["id"] for r in saved["rungs"]]
    assert ids[0] == "random" and ids[3:] == ["heuristic", "ismcts:iters=1", "ismcts:iters=2"]
    assert set(ids[1:3]) == {"always-draw", "greedy-vp"}
    # 5 rungs against the heuristic, 4 new below-pairings (the first search against the heuristic is played
    # already), the top against random
    pairs = saved["pairings"]
    assert len(pairs) == 5 + 3 + 1 and [p["folder"] for p in pairs] == [f"pair-{i:02d}" for i in range(9)]
    rungs = pl.read_parquet(out / "rungs.parquet")
    assert rungs["id"].to_list() == ids
    comps = pl.read_parquet(out / "pairs.parquet")
    assert comps.height == 5 + 5 + 1 and set(comps["games"].to_list()) == {N}
    for f in ("rungs.csv", "pairs.csv", "luck.parquet", "luck.csv", "ladder.png", "ladder.md"):
        assert (out / f).is_file() and (out / f).stat().st_size > 0, f
    # timings are kept apart from the results: one row per pairing, its games and the seconds of its chunks
    assert "games_per_s" not in comps.columns and "games_per_s" not in rungs.columns
    assert "play_seconds" not in saved and "games/s |" not in (out / "ladder.md").read_text()
    t = json.loads((out / "timing.json").read_text())
    assert [r["pairing"] for r in t["pairings"]] == [p["folder"] for p in pairs]
    assert all(r["games"] == N and r["seconds"] > 0 and r["games_per_s"] == round(N / r["seconds"], 2)
               for r in t["pairings"])
    assert t["play_seconds"] == round(sum(r["seconds"] for r in t["pairings"]), 1)


def test_the_scripted_plans_are_ordered_by_their_score_against_the_heuristic(toy_ladder):
    out, meta = toy_ladder
    r = pl.read_parquet(out / "rungs.parquet").filter(pl.col("kind") == "scripted")
    assert r["h_score"].to_list() == sorted(r["h_score"].to_list())


def test_scores_are_the_win_shares_of_the_games_on_common_seeds(toy_ladder):
    out, meta = toy_ladder
    pairs = {(p["focal"], p["opponent"]): p["folder"] for p in meta["pairings"]}
    folder = out / pairs[("random", "heuristic")]
    g = scan_run(folder, "games").collect()
    # every seat order on the same game seeds
    assert g.group_by("seat_order").agg(pl.col("game_seed").unique().sort()).sort("seat_order")["game_seed"].to_list() \
        == [list(range(N // 2))] * 2
    heur = g.filter(pl.col("strategy") == "heuristic")["win_share"].sum() / N
    comps = pl.read_parquet(out / "pairs.parquet")
    row = comps.filter((pl.col("rung") == "random") & (pl.col("role") == "heuristic")).row(0, named=True)
    assert row["score"] == pytest.approx(1 - heur) and row["win_rate"] == pytest.approx(1 - heur)
    # the heuristic beats random, its interval above 50%; the rung table shows it against the rung below
    assert row["score_high"] < 0.5
    h = pl.read_parquet(out / "rungs.parquet").filter(pl.col("id") == "heuristic").row(0, named=True)
    assert h["h_games"] is None and h["rating"] == 0.0
    low = {r["id"]: r for r in pl.read_parquet(out / "rungs.parquet").iter_rows(named=True)}["random"]
    assert low["rating_high"] < 0  # random rated below the heuristic, interval and all
    # per seat: the two seats' rates average to the whole (60 games each)
    assert (row["score_seat1"] + row["score_seat2"]) / 2 == pytest.approx(row["score"])


def test_the_rung_below_reuses_a_pairing_played_the_other_way_round(toy_ladder):
    out, meta = toy_ladder
    comps = pl.read_parquet(out / "pairs.parquet")
    strongest = meta["rungs"][2]["id"]
    h_below = comps.filter((pl.col("rung") == "heuristic") & (pl.col("role") == "below")).row(0, named=True)
    plan_vs_h = comps.filter((pl.col("rung") == strongest) & (pl.col("role") == "heuristic")).row(0, named=True)
    assert h_below["opponent"] == strongest and h_below["pairing"] == plan_vs_h["pairing"]
    assert h_below["score"] == pytest.approx(1 - plan_vs_h["score"])
    assert h_below["margin"] == pytest.approx(-plan_vs_h["margin"])
    assert h_below["score_low"] == pytest.approx(1 - plan_vs_h["score_high"])


def test_luck_rows_follow_from_the_measured_rates(toy_ladder):
    out, meta = toy_ladder
    luck = pl.read_parquet(out / "luck.parquet")
    comps = pl.read_parquet(out / "pairs.parquet")
    top = comps.filter((pl.col("rung") == "ismcts:iters=2") & (pl.col("opponent") == "random")).row(0, named=True)
    get = {(r["measure"], r["between"]): r for r in luck.iter_rows(named=True)}
    weak = get[("weaker wins", "ismcts 2 vs random")]
    assert weak["est"] == pytest.approx(1 - top["score"]) and weak["games"] == N
    assert get[("luck (information)", "ismcts 2 vs random")]["est"] == pytest.approx(float(binary_entropy(top["score"])))
    lead = get[("games to be ahead (95%)", "ismcts 2 vs random")]
    assert top["score"] > 0.5 and weak["stronger"] == lead["stronger"] == "ismcts 2"
    assert lead["est"] == games_to_lead(top["score"]) and lead["low"] == games_to_lead(top["score_high"])
    every = get[("luck (information)", "every rung (Bradley-Terry)")]
    assert 0 < every["low"] <= every["est"] <= every["high"] <= 1
    assert every["games"] == 9 * N  # each pairing's games once
    assert get[("skill (1 - luck)", "every rung (Bradley-Terry)")]["est"] == pytest.approx(1 - every["est"])
    assert math.isnan(get[("SkillTrace (Ludii)", "search doublings")]["est"])  # one doubling only


RESULTS = ("rungs.parquet", "rungs.csv", "pairs.parquet", "pairs.csv", "luck.parquet", "luck.csv", "ladder.png",
           "ladder.md")


def results(folder) -> dict[str, bytes]:
    """Every result file of a ladder folder; ladder.md without its provenance line (the date and the commit the
    games were played on: other tests commit between two ladders)."""
    out = {name: (folder / name).read_bytes() for name in RESULTS}
    out["ladder.md"] = b"\n".join(x for x in out["ladder.md"].split(b"\n") if not x.startswith(b"Measured "))
    return out


def test_the_ladder_is_the_same_for_any_batch_size_and_n_jobs(toy_ladder, tmp_path):
    out, _ = toy_ladder
    other = tmp_path / "lad2"
    run_ladder("toy", **SETTINGS, batch_size=25, n_jobs=2, out=other)
    assert results(out) == results(other)  # every result file, byte for byte (the timings are in timing.json)


def test_resume_refuses_other_settings_and_completes_the_same_ladder(toy_ladder):
    out, _ = toy_ladder
    with pytest.raises(RunFolderError, match=r"^cannot resume: the ladder in the folder has --games-per-rung 120, "
                                              r"this ladder has --games-per-rung 60$"):
        run_ladder("toy", **{**SETTINGS, "games_per_rung": 60}, n_jobs=1, out=out, resume=True)
    with pytest.raises(RunFolderError, match="holds another ladder: use --resume to complete it, --overwrite"):
        run_ladder("toy", **SETTINGS, n_jobs=1, out=out)
    before = results(out)
    run_ladder("toy", **SETTINGS, n_jobs=1, out=out, resume=True)  # every pairing complete: nothing played again
    assert results(out) == before


def test_an_interrupted_ladder_is_marked_and_resumes_to_the_same_tables(toy_ladder, tmp_path, monkeypatch):
    out, _ = toy_ladder
    other = tmp_path / "cut"
    import meeplelab.studies.ladder as lad

    real = lad.simulate
    calls = {"n": 0}

    def cut(cfg, **kw):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(cfg, **kw)

    monkeypatch.setattr(lad, "simulate", cut)
    with pytest.raises(KeyboardInterrupt):
        run_ladder("toy", **SETTINGS, n_jobs=1, out=other)
    assert json.loads((other / "ladder.json").read_text())["status"] == "interrupted"
    monkeypatch.setattr(lad, "simulate", real)
    run_ladder("toy", **SETTINGS, n_jobs=1, out=other, resume=True)
    assert results(out) == results(other)


def test_three_seats_score_the_rung_against_each_other_seat(tmp_path):
    out = tmp_path / "l3"
    run_ladder("toy", players=3, plans=["always-draw"], tuned="none", budget=0, games_per_rung=30, seed=1, n_jobs=1,
               out=out)
    meta = read_ladder(out)
    folder = out / meta["pairings"][0]["folder"]  # random in one seat, the heuristic in two
    g = scan_run(folder, "games").collect()
    df = pair_frame(folder)
    assert df.height == 30 and sorted(df["seat"].unique().to_list()) == [0, 1, 2]
    for r in df.head(6).iter_rows(named=True):
        seats = g.filter(pl.col("game") == r["game"])
        mine = seats.filter(pl.col("strategy") == "random")["rank"][0]
        others = seats.filter(pl.col("strategy") != "random")["rank"].to_list()
        assert r["score"] == pytest.approx(np.mean([(mine < o) + 0.5 * (mine == o) for o in others]))
    comps = pl.read_parquet(out / "pairs.parquet")
    assert comps["fair"].to_list() == [pytest.approx(1 / 3)] * comps.height


# ---------------------------------------------------------------------------------------------- the command
def test_cli_ladder_rewrites_only_its_games_block_in_the_docs(tmp_path, capsys, monkeypatch):
    docs = tmp_path / "strategies.md"
    docs.write_text("# Strategies\n\n<!-- ladder other-game -->\nkept\n<!-- /ladder -->\n\ntext\n\n"
                    "<!-- ladder toy -->\n| stale | row |\n<!-- /ladder -->\nafter\n")
    out = tmp_path / "lad"
    code, stdout, err = run_cli(["ladder", "--game", "toy", "--plans", "always-draw", "--tuned", "none", "--search",
                                 "ismcts", "--start-iters", "1", "--budget", "2", "--games-per-rung", "40", "--seed",
                                 "2", "--n-jobs", "1", "--out", out, "--docs", "--docs-file", docs, "--no-progress"],
                                capsys, monkeypatch)
    assert code in (0, None), err
    text = docs.read_text()
    assert "| stale | row |" not in text and "<!-- ladder other-game -->\nkept\n<!-- /ladder -->" in text
    assert text.endswith("<!-- /ladder -->\nafter\n") and "| 1 | random | `random` |" in text
    assert "`meeplelab ladder --game toy --plans always-draw --tuned none --search ismcts --start-iters 1 --budget 2 " \
           "--games-per-rung 40 --seed 2 --n-jobs 1 --out " in text  # the command that plays it again, no --docs
    assert "--docs" not in text.split("`meeplelab ladder")[1].split("`")[0]
    assert "pairing 1/7: random against heuristic" in err
    assert (out / "ladder.md").read_text().startswith("# Skill ladder: toy, 2 seats")


@pytest.mark.parametrize("argv, message", [
    (["--budget", "12"], "--budget 12: allowed 0 (no search rungs) or --start-iters 8 doubled any number of times "
                         "(8, 16, 32, 64, 128, ...)"),
    (["--games-per-rung", "7"], "--games-per-rung 7: allowed a multiple of 2 of at least 4 (each of the 2 seat orders "
                                "plays the same game seeds, at least 2)"),
    (["--search", "ismcts:iters=4"], "--search ismcts:iters=4: leave out iters (the ladder sets it: --start-iters, "
                                     "doubled up to --budget)"),
    (["--plans", "random"], "--plans random: 'random' is listed twice or is another rung (random and heuristic are "
                            "always rungs): list each plan once"),
    (["--tuned", "nope.toml"], "--tuned nope.toml: strategy 'heuristic': preset file 'nope.toml' does not exist (give a "
                               "heuristic preset of toy, or none)"),
    (["--players", "5"], "--players 5: toy takes 2-4 seats in a ladder (a rung plays against an opponent)"),
])
def test_cli_ladder_bad_input_is_one_line_and_writes_nothing(argv, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "lad"
    expect_error(["ladder", "--game", "toy", "--tuned", "none", "--out", out, *argv], message, capsys, monkeypatch)
    assert not out.exists()


def test_cli_ladder_docs_without_the_games_block_is_refused_before_play(tmp_path, capsys, monkeypatch):
    docs = tmp_path / "s.md"
    docs.write_text("no blocks\n")
    out = tmp_path / "lad"
    expect_error(["ladder", "--game", "toy", "--out", out, "--docs", "--docs-file", docs],
                 f"--docs-file {str(docs)!r} holds 0 '<!-- ladder toy -->' ... '<!-- /ladder -->' blocks: allowed "
                 "exactly one per game", capsys, monkeypatch)
    assert not out.exists() and docs.read_text() == "no blocks\n"
