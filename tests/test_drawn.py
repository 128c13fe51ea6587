"""The drawn-card table (analysis.drawn): seat-results that drew a card by round k against those that did not, on a
constructed log with known rates, and on small real runs of both games (every drawable card listed, the counts adding
up, the rebuilt setup deal the one the games were played with)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from meeplelab.analysis.drawn import (
    PAGE,
    SHOWN,
    drawn_sections,
    drawn_stats,
    drawn_table,
)
from meeplelab.analysis.galileos_truth import DRAWS as GT_DRAWS
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.page import format_table
from meeplelab.analysis.stats import newcombe, wilson, z_value
from meeplelab.analysis.unconscious_mind import DRAWN_BY_ROUND
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate

ITEMS = pl.DataFrame({"kind": ["card", "card"], "index": [0, 1], "id": ["a", "b"]})


def _log(copies: int = 1) -> tuple[pl.DataFrame, pl.DataFrame]:
    """40 two-seat games, seat ``game % 2`` wins (VP 30 against 20). Card a is drawn by the winner of games 0-9;
    card b by seat 1 of games 0-19 (it wins the odd ones). ``copies``: every game played again in that many seat
    orders with the same game seed and the same results (one cluster per seed)."""
    seats, drawn = [], []
    for c in range(copies):
        for g in range(40):
            game = c * 40 + g
            for s in range(2):
                win = s == g % 2
                seats.append({"run": "r", "game": game, "seat": s, "players": 2, "game_seed": g,
                              "vp": 30.0 if win else 20.0, "win_share": 1.0 if win else 0.0})
                if g < 10 and win:
                    drawn.append({"run": "r", "game": game, "seat": s, "kind": "card", "index": 0})
                if g < 20 and s == 1:
                    drawn.append({"run": "r", "game": game, "seat": s, "kind": "card", "index": 1})
    return pl.DataFrame(seats), pl.DataFrame(drawn)


def test_a_card_drawn_by_the_winners_has_their_win_rate_and_the_wilson_and_newcombe_intervals():
    t = drawn_stats(*_log(), ITEMS)
    a = t.filter(pl.col("id") == "a").row(0, named=True)
    z = z_value()
    assert (a["n_drew"], a["n_not"]) == (10, 70)
    assert a["win_drew"] == 1.0 and math.isclose(a["win_drew_low"], 10 / (10 + z * z))
    assert math.isclose(a["win_drew_high"], 1.0)
    assert math.isclose(a["win_not"], 30 / 70)
    assert np.allclose([a["win_not_low"], a["win_not_high"]], [float(x) for x in wilson(30, 70)[1:]])
    # no cluster holds two seats of one group with a shared result: design effect 1, the plain Newcombe interval
    assert a["deff"] == 1.0
    assert np.allclose([a["win_diff"], a["win_diff_low"], a["win_diff_high"]], newcombe(10, 10, 30, 70))
    assert a["vp_drew"] == 30.0 and math.isclose(a["vp_not"], (30 * 30 + 40 * 20) / 70)
    assert a["vp_diff_low"] < a["vp_diff"] < a["vp_diff_high"]
    assert a["base_win"] == 0.5 and a["drew_share"] == 10 / 80 and a["rank"] == 1 and a["stands_out"] == "over"
    b = t.filter(pl.col("id") == "b").row(0, named=True)
    assert (b["n_drew"], b["win_drew"], b["win_not"], b["rank"]) == (20, 0.5, 0.5, 2)
    assert b["stands_out"] == "" and b["win_diff_low"] < 0 < b["win_diff_high"]


def test_a_seed_played_in_two_seat_orders_with_the_same_results_counts_once():
    one = drawn_stats(*_log(1), ITEMS).filter(pl.col("id") == "b").row(0, named=True)
    two = drawn_stats(*_log(2), ITEMS).filter(pl.col("id") == "b").row(0, named=True)
    assert two["n_drew"] == 2 * one["n_drew"] and two["clusters"] == one["clusters"] == 40
    # 20 of 40 seat-results at a design effect of 2 (times the small-sample factor 40/39 of 40 clusters): the interval
    # of 10 of 20 at that factor
    f = 40 / 39
    assert np.allclose([two["win_drew_low"], two["win_drew_high"]], [float(x) for x in wilson(10 / f, 20 / f)[1:]])
    assert np.allclose([two["win_drew_low"], two["win_drew_high"]], [one["win_drew_low"], one["win_drew_high"]])


def _run(tmp: Path, game: str, roster: tuple[str, str]) -> Path:
    cfg = RunConfig(game=game, players=2, strategies=roster, games=192, seed=11, batch_size=64, n_jobs=1,
                    out=str(tmp / "run"), seating="rotate")
    simulate(cfg)
    return Path(cfg.out)


@pytest.mark.slow
def test_galileos_truth_opening_hands_are_the_games_deals_and_every_card_is_listed(tmp_path):
    runs = load_runs([_run(tmp_path, "galileos-truth", ("random", "writer"))])  # random plays cards in its first turn
    t = drawn_table(runs)
    seats = runs.games.collect().height
    cards = t.filter(pl.col("kind") == "card")
    assert cards.height == 8 and (cards["n_drew"] + cards["n_not"] == seats).all()
    assert cards["n_drew"].sum() == 5 * seats  # the five cards of every opening hand
    pen = t.filter(pl.col("kind") == "penance")
    gained = runs.events.filter((pl.col("kind") == "penance") & (pl.col("category") == "gained")).collect()
    # Penance is compared among the seats that gained one
    assert pen.height == 3 and (pen["n_drew"] + pen["n_not"] == gained.select("game", "seat").unique().height).all()
    # the first card each seat plays (its first turn, Cycle 1) is in the hand rebuilt from the game seed
    from meeplelab.analysis.drawn import drawn_items

    hands, _ = drawn_items(runs, GT_DRAWS)
    first = (runs.events.filter((pl.col("kind") == "play") & (pl.col("cycle") == 1)).collect()
             .with_columns(pl.col("seat").cast(pl.Int64), pl.col("item").cast(pl.Int64)))
    first_turn = runs.turns.collect().group_by("game", "seat").agg(pl.col("turn").min().alias("t0")).with_columns(
        pl.col("seat").cast(pl.Int64))
    first = first.join(first_turn, on=["game", "seat"]).filter(pl.col("turn") == pl.col("t0"))
    held = hands.filter(pl.col("kind") == "card").rename({"index": "item"}).with_columns(pl.lit(True).alias("held"))
    chk = first.join(held, on=["run", "game", "seat", "item"], how="left")
    assert chk.height > 10 and chk["held"].fill_null(False).all()
    sec = drawn_sections(runs)
    assert len(sec) == 1 and "opening hand" in sec[0].text and "DESCRIPTIVE" in sec[0].text
    # the page shows a few columns (the interval in one cell), the table's CSV every one
    for _, df, fmt in sec[0].tables:
        cols, rows = format_table(df, fmt)
        assert cols == list(PAGE) and set(SHOWN) <= set(df.columns)
        r, cell = df.row(0, named=True), rows[0][cols.index("win_diff_interval")]
        assert cell == f"{r['win_diff']:+.1f} [{r['win_diff_low']:+.1f}, {r['win_diff_high']:+.1f}]"


@pytest.mark.slow
def test_unconscious_mind_start_hands_and_draws_by_round_k_are_counted_for_every_card(tmp_path):
    runs = load_runs([_run(tmp_path, "unconscious-mind", ("publisher", "curer"))])
    t = drawn_table(runs)
    seats = runs.games.collect().height
    start, card = t.filter(pl.col("kind") == "start"), t.filter(pl.col("kind") == "card")
    assert start.height == card.height == 40
    assert ((t["n_drew"] + t["n_not"]) == seats).all()
    assert start["n_drew"].sum() == 2 * seats  # the start hand of two cards
    ev = runs.events.filter((pl.col("kind") == "card") & (pl.col("category") == "research_draw")).collect()
    rounds = runs.turns.select("game", "turn", "round").unique(["game", "turn"]).collect()
    early = ev.join(rounds, on=["game", "turn"]).filter(pl.col("round") <= DRAWN_BY_ROUND)
    assert early.height > 0
    # start hand and early draws never hold the same card twice (a card leaves the deck once)
    assert card["n_drew"].sum() == start["n_drew"].sum() + early.height
    # the first card a seat plays before drawing or swapping any is in its rebuilt start hand
    cards = runs.events.filter(pl.col("kind") == "card").collect().with_columns(pl.col("seat").cast(pl.Int64),
                                                                                  pl.col("item").cast(pl.Int64))
    first = cards.group_by("run", "game", "seat", maintain_order=True).agg(pl.col("category").first(),
                                                                           pl.col("item").first())
    first = first.filter(pl.col("category") == "card")
    from meeplelab.analysis.drawn import drawn_items
    from meeplelab.analysis.unconscious_mind import DRAWS

    hands, _ = drawn_items(runs, DRAWS)
    held = hands.filter(pl.col("kind") == "start").rename({"index": "item"}).with_columns(pl.lit(True).alias("held"))
    chk = first.join(held, on=["run", "game", "seat", "item"], how="left")
    assert chk.height > 20 and chk["held"].fill_null(False).all()
