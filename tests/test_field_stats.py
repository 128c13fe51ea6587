"""Intervals that mean what they say at 0/N and N/N, and reports that make many
claims at once control the family-wise error (Holm).

Known answers: a strategy that wins 0 of 96 games in both arms of an experiment (no discordant game)
has a paired Agresti-Min interval of +-z/(n+2) = +-2.0 points and an unpaired Newcombe interval of
+-3.85 points (the Wilson upper bound of 0/96 is z^2/(n+z^2) = 3.85%), not [0.0, 0.0]; the same at
96/96. Null simulations use coin-flip games from a numpy Generator seeded by the test's name: 6
equally strong strategies at 40 games per arrangement, and 4-seat games with no seat effect."""

from __future__ import annotations

import zlib

import numpy as np
import polars as pl
import pytest

from meeplelab.analysis import stats as S

N = 96
Z = 1.959963984540054


def _gen(name: str) -> np.random.Generator:
    """A generator seeded by what it is for (the test's purpose), never the global one."""
    return np.random.Generator(np.random.Philox(zlib.crc32(name.encode())))


# ------------------------------------------------------------------------------------------- item 2
@pytest.mark.parametrize("wins", [0.0, 1.0], ids=["0_of_96", "96_of_96"])
def test_experiment_paired_and_unpaired_win_intervals_have_real_width_at_0_and_n_of_n(wins):
    from meeplelab.analysis.experiment import effect_line, paired

    x = np.full(N, wins)
    r = paired(x, x.copy(), shares=True)
    assert r["n"] == N and r["est"] == 0.0
    assert r["low"] == pytest.approx(-Z / (N + 2)) and r["high"] == pytest.approx(Z / (N + 2))  # +-2.0 points
    wil = Z * Z / (N + Z * Z)  # Wilson upper bound of 0/96 (= 1 - lower bound of 96/96)
    assert r["unpaired_low"] == pytest.approx(-wil) and r["unpaired_high"] == pytest.approx(wil)  # +-3.85 points
    assert r["p"] == 1.0
    row = {"arm": "coffee+1", "strategy": "random", "est": 100 * r["est"], "low": 100 * r["low"],
           "high": 100 * r["high"], "n": N, "p_holm": 1.0}
    assert effect_line(0, row, "random", 1) == (
        "Largest effect: in arm coffee+1, random's win rate changes by +0.0 percentage points [-2.0, 2.0] against the "
        "control random (paired, 96 games); not resolved (Holm-adjusted over 1 comparison: p = 1).")


def test_paired_shares_is_agresti_min_on_a_two_by_two_table():
    # 10 discordant games for the arm, 2 for the control, 88 concordant (Agresti & Min 2005: add 1/2 per cell)
    x = np.r_[np.ones(10), np.zeros(2), np.ones(30), np.zeros(58)]
    y = np.r_[np.zeros(10), np.ones(2), np.ones(30), np.zeros(58)]
    r = S.paired_shares(x, y)
    p12, p21, nt = 10.5 / 102, 2.5 / 102, 102
    se = np.sqrt((p12 + p21 - (p12 - p21) ** 2) / nt)
    assert r["est"] == pytest.approx(0.08)
    assert r["low"] == pytest.approx(p12 - p21 - Z * se) and r["high"] == pytest.approx(p12 - p21 + Z * se)
    assert (r["p"] < 0.05) == (r["low"] > 0)


def test_newcombe_hybrid_score_matches_the_published_example():
    # Newcombe (1998) Table II example (56/70 vs 48/80): difference 0.2, method 10 interval 0.0524 to 0.3339
    d, lo, hi = S.newcombe(56, 70, 48, 80)
    assert d == pytest.approx(0.2) and lo == pytest.approx(0.0524, abs=5e-4) and hi == pytest.approx(0.3339, abs=5e-4)


def test_head_to_head_and_seat_spread_have_width_when_no_game_is_discordant():
    from meeplelab.analysis.seats import head_to_head, seat_spread

    rows = [{"run": "r", "game": g, "seat": s, "players": 3, "strategy": "abc"[s], "win_share": float(s == 2),
             "vp": 5, "margin": 0} for g in range(N) for s in range(3)]
    df = pl.DataFrame(rows)
    h = head_to_head(df, "a", "b")  # neither a nor b ever wins: 0 of 96 both
    assert h["est"] == 0.0 and h["low"] == pytest.approx(-Z / (N + 2)) and h["high"] == pytest.approx(Z / (N + 2))
    assert h["unpaired_high"] == pytest.approx(Z * Z / (N + Z * Z))
    sp = seat_spread(df).row(0, named=True)  # seat 3 wins all 96, seat 1 none: 100 points, interval not a point
    assert sp["spread"] == pytest.approx(100.0) and sp["spread_low"] < 100.0 and sp["flagged"]


def test_a_mean_without_spread_keeps_the_width_of_its_recorded_resolution():
    half = 1.985251 * (1 / np.sqrt(12)) / np.sqrt(N)  # t(0.975, 95) * sd floor / sqrt(n)
    m, lo, hi = S.mean_t(np.full(N, 3.0))
    assert (m, lo, hi) == pytest.approx((3.0, 3.0 - half, 3.0 + half), abs=1e-5)
    _, lo, hi = S.mean_t_from_moments(np.array([3.0]), np.array([0.0]), np.array([N]))
    assert hi[0] - lo[0] == pytest.approx(2 * half, abs=1e-5)
    _, lo, hi = S.bootstrap_mean(np.full(N, 3.0), seed=1)
    assert hi - lo == pytest.approx(2 * half, abs=1e-5)
    assert S.resolution([0.5, 1.5]) == 0.1 and S.resolution([2, 7]) == 1.0


def test_a_robustness_conclusion_with_no_spread_is_not_established_by_a_zero_standard_error():
    from meeplelab.analysis.conclusions import mean_se

    q, se, n = mean_se(np.zeros(N), shares=100)  # a win-share difference that is 0 in every game
    assert (q, n) == (0.0, N) and se == pytest.approx(100 / (N + 2))
    q, se, n = mean_se(np.full(N, 2.0))  # 2 VP in every game
    assert q == 2.0 and se == pytest.approx(1 / np.sqrt(12) / np.sqrt(N))
    assert np.isnan(mean_se(np.array([1.0]))[1])


# ------------------------------------------------------------------------------------------- item 3
def test_holm_adjusts_step_down_and_keeps_nan_out_of_the_family():
    adj = S.holm([0.01, np.nan, 0.04, 0.03])
    assert adj[0] == pytest.approx(0.03) and np.isnan(adj[1])
    assert adj[2] == pytest.approx(0.06) and adj[3] == pytest.approx(0.06)
    assert S.holm_words(15) == "Holm-adjusted over 15 comparisons"


def _null_tournament(gen: np.random.Generator, k: int = 6, games: int = 40, edge: dict | None = None) -> pl.DataFrame:
    """A 2-seat tournament of ``k`` strategies, every ordered pair a lineup of ``games`` coin-flip games
    (``edge[(a, b)]`` = probability that ``a`` beats ``b``)."""
    names = [f"s{i}" for i in range(k)]
    rows = {"run": [], "game": [], "strategy": [], "players": [], "win_share": [], "rank": []}
    for li, (a, b) in enumerate((a, b) for a in names for b in names if a != b):
        pa = (edge or {}).get((a, b), 1 - (edge or {}).get((b, a), 0.5))
        win = gen.random(games) < pa
        for s, w in ((a, win), (b, ~win)):
            rows["run"] += [f"lineup-{li:02d}"] * games
            rows["game"] += list(range(games))
            rows["strategy"] += [s] * games
            rows["players"] += [2] * games
            rows["win_share"] += w.astype(float).tolist()
            rows["rank"] += np.where(w, 1, 2).tolist()
    return pl.DataFrame(rows)


SIMS = 200
MARGIN = 3 * np.sqrt(0.05 * 0.95 / SIMS)  # three Monte Carlo standard errors of a 5% rate


def test_null_tournaments_of_six_equal_strategies_rarely_mark_any_head_to_head_resolved():
    from meeplelab.analysis.tournament import pairwise

    gen = _gen("null tournaments of six equal strategies, 40 games per arrangement")
    any_claim = uncorrected = 0
    for _ in range(SIMS):
        pw = pairwise(_null_tournament(gen).lazy())
        assert pw.height == 30
        any_claim += bool(pw["resolved"].any())
        uncorrected += bool(((pw["low"] > 0.5) | (pw["high"] < 0.5)).any())  # uncorrected: a cell's interval
    assert any_claim / SIMS <= 0.05 + MARGIN
    assert uncorrected / SIMS > 0.4  # the same tournaments without the correction (about 58%)


def test_a_large_head_to_head_effect_is_still_resolved_after_holm():
    from meeplelab.analysis.tournament import pairwise
    from meeplelab.analysis.tournament_report import dominance_answer

    gen = _gen("one strategy beats every other 80% of the time")
    g = _null_tournament(gen, edge={("s0", f"s{i}"): 0.8 for i in range(1, 6)})
    pw = pairwise(g.lazy())
    mine = pw.filter(pl.col("row") == "s0")
    assert mine["resolved"].all() and (mine["est"] > 0.7).all()
    summ = pl.DataFrame({"strategy": ["s0"] + [f"s{i}" for i in range(1, 6)]})
    text = dominance_answer(summ, pw)
    assert text.startswith("Is there a dominant strategy? Yes: s0 finishes ahead of every other strategy")
    assert "Holm-adjusted over 15 comparisons" in text


def _seat_games(gen: np.random.Generator, games: int, probs=(0.25, 0.25, 0.25, 0.25)) -> pl.DataFrame:
    win = gen.choice(4, size=games, p=probs)
    g = np.repeat(np.arange(games), 4)
    seat = np.tile(np.arange(4), games)
    return pl.DataFrame({"run": "r", "game": g, "seat": seat, "players": 4, "strategy": "mirror",
                         "win_share": (seat == np.repeat(win, 4)).astype(float), "vp": 0, "margin": 0, "rank": 1})


def test_four_seat_games_without_a_seat_effect_rarely_get_a_seat_claim():
    from meeplelab.analysis.seats import seat_spread
    from meeplelab.analysis.tournament import seat_effect
    from meeplelab.analysis.tournament_report import seat_answer

    gen = _gen("four-seat coin-flip games with no seat effect")
    spread_flags = answer_claims = uncorrected = 0
    for _ in range(SIMS):
        df = _seat_games(gen, 240)
        spread_flags += bool(seat_spread(df)["flagged"].any())
        se = seat_effect(df.lazy())
        answer_claims += "resolved away" in seat_answer(se).replace("no seat resolved away", "")
        uncorrected += bool(((se["win_low"] > se["fair"]) | (se["win_high"] < se["fair"])).any())  # the old rule
    assert spread_flags / SIMS <= 0.05 + MARGIN
    assert answer_claims / SIMS <= 0.05 + MARGIN
    assert uncorrected / SIMS > 0.1  # the same tables without the correction (about 15%)


def test_a_real_seat_advantage_is_still_flagged_and_says_which_correction():
    from meeplelab.analysis.seats import seat_spread
    from meeplelab.analysis.tournament import seat_effect
    from meeplelab.analysis.tournament_report import seat_answer

    df = _seat_games(_gen("seat 1 wins 40% of four-seat games"), 2000, probs=(0.40, 0.20, 0.20, 0.20))
    sp = seat_spread(df).row(0, named=True)
    assert sp["flagged"] and sp["best_seat"] == 0 and sp["comparisons"] == 6 and sp["p_holm"] < 1e-6
    text = seat_answer(seat_effect(df.lazy()))
    assert text.startswith("Seat effect: at 4 seats seat 1 wins") and "Holm-adjusted over 4 comparisons" in text


def test_verdict_strategy_flags_are_holm_adjusted_over_the_family():
    from meeplelab.analysis.verdict import strategy_flags

    gen = _gen("verdict flags for six equal strategies")
    claims = 0
    for _ in range(5):
        g = _null_tournament(gen).with_columns(pl.lit(0).alias("seat"), pl.lit(0).alias("vp"))
        lines, _ = strategy_flags(g, False)
        claims += any(x.startswith("FLAG") for x in lines)
        assert any("Holm-adjusted over" in x for x in lines)
    assert claims == 0


# ------------------------------------------------------------------------------------------- item 4
def _games_table(gen: np.random.Generator, games: int = 3000) -> pl.DataFrame:
    """A 3-seat tournament-like games table: strategies a, b, c (a holds two seats in some lineups, so
    ``game_fair`` is a mean of 1/3 and 2/3), ranks, VP and margins."""
    rows = []
    lineups = [("a", "b", "c"), ("a", "a", "b"), ("c", "a", "b"), ("b", "c", "a")]
    for li, lu in enumerate(lineups):
        win = gen.integers(0, 3, size=games)
        vp = gen.integers(0, 40, size=(games, 3))
        for s, strat in enumerate(lu):
            rows.append(pl.DataFrame({"run": f"lineup-{li:02d}", "game": np.arange(games), "seat": s, "players": 3,
                                      "strategy": strat, "win_share": (win == s).astype(float),
                                      "rank": np.where(win == s, 1, 2 + (s > 0)), "vp": vp[:, s],
                                      "margin": vp[:, s] - vp.max(axis=1)}))
    return pl.concat(rows)


def _hash(path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_tournament_tables_are_the_same_bytes_for_any_row_order_or_chunking(tmp_path):
    from meeplelab.analysis.tables import write_table
    from meeplelab.analysis.tournament import pairwise, seat_effect, seat_table, summary_table

    g = _games_table(_gen("a games table shuffled and chunked"))
    gen = _gen("row orders of the same games")
    versions = [g]
    for k in (1, 7, 64):  # shuffled rows, cut into k chunks (separate Arrow chunks, as part files give)
        perm = gen.permutation(g.height)
        parts = np.array_split(perm, k)
        versions.append(pl.concat([g[p.tolist()] for p in parts], rechunk=False))
    hashes = {}
    for i, v in enumerate(versions):
        for name, fn in (("summary", summary_table), ("seats", seat_table), ("seat_effect", seat_effect),
                         ("pairwise", pairwise)):
            for rep in range(2):
                hashes.setdefault(name, set()).add(_hash(write_table(fn(v.lazy()), tmp_path / f"{name}-{i}-{rep}.parquet")))
    assert {k: len(v) for k, v in hashes.items()} == {"summary": 1, "seats": 1, "seat_effect": 1, "pairwise": 1}
    fair = pl.read_parquet(tmp_path / "summary-0-0.parquet").filter(pl.col("strategy") == "a")["game_fair"][0]
    assert fair == pytest.approx((1 / 3 + 2 / 3 + 1 / 3 + 1 / 3) / 4)


def test_canonical_rounds_last_bit_noise_away():
    from meeplelab.analysis.tables import canonical, canonical_json

    a = canonical(pl.DataFrame({"x": [0.3333333333333332, 0.33333333333333337, 0.33333333333333315]}))
    assert a["x"].n_unique() == 1 and a["x"][0] == pytest.approx(1 / 3, abs=1e-12)
    assert canonical_json({"q": [0.1 + 0.2], "n": 3}) == {"q": [0.3], "n": 3}


def test_a_toy_tournament_played_twice_writes_the_same_table_bytes(tmp_path):
    from meeplelab.play.tournament import TABLE_FILES
    from meeplelab.studies.tournament import run_tournament

    for name in ("one", "two"):
        run_tournament("toy", ["random", "always-draw", "greedy-vp"], 3, 30, 73, tmp_path / name, n_jobs=1)
    for f in TABLE_FILES:
        assert _hash(tmp_path / "one" / f) == _hash(tmp_path / "two" / f), f
