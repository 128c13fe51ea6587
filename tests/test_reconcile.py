"""Descriptive and causal readings reconciled (analysis/reconcile.py).

Known answer on synthetic frames: in 40 four-seat games seat 0 (strategy ``early``) makes the choice at turn 8,
having scored 2 VP a turn against 1 for the others, so before the choice it holds 4 VP against 2 for each other
seat; it wins every even game (20 of 40: 50%) while the other 120 seat-results win 20 (16.7%). A causal effect of
-5 points [-8, -2] for the choice disagrees in sign: the sentence names selection and quotes 50.0%, 16.7%, -5.0
points, 4.0 VP and 2.0 VP. A causal effect of +5 points agrees: no sentence, one "agree" line.

On a real experiment (Galileo's Truth, 4 players, 96 games per arm, never-abjure against abjure-at:cycle=1): the
descriptive figure is the outcome-by-Cycle-of-Abjure table's Cycle 1 win rate minus the never group's, the
disagreement follows the rule on the effects table's row, and the page's lines say so.
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl
import pytest
from meeplelab.analysis.experiment import effects, experiment_sections
from meeplelab.analysis.galileos_truth import RECONCILE as GT_RECONCILE
from meeplelab.analysis.galileos_truth import outcome_by_abjure_cycle
from meeplelab.analysis import unconscious_mind as UM
from meeplelab.analysis.load import Runs, load_runs
from meeplelab.analysis.reconcile import (
    Figure,
    Reading,
    disagree,
    experiment_lines,
    mix,
    per_seat_game,
    readings_of,
    reconcile,
    reconcile_lines,
    state_before,
)
from meeplelab.analysis.report import build_report
from meeplelab.analysis.stats import wilson
from meeplelab.play.config import RunConfig
from meeplelab.play.experiment import plan_experiment, read_experiment, run_experiment

ROOT = Path(__file__).resolve().parents[1]
GAMES, SEATS, TURNS, CHOICE_TURN = 40, 4, 12, 8


def _synthetic() -> Runs:
    """40 games of 4 seats; seat 0 (``early``) scores 2 VP a turn, the others 1; seat 0 chooses at turn 8 and wins
    the even games, seat 1 the odd ones."""
    games = pl.DataFrame(
        [
            {
                "run": "arm",
                "game": g,
                "seat": s,
                "strategy": ["early", "a", "b", "c"][s],
                "vp": 0,
                "win_share": float((s == 0) if g % 2 == 0 else (s == 1)),
            }
            for g in range(GAMES)
            for s in range(SEATS)
        ]
    )
    turns = pl.DataFrame(
        [
            {
                "run": "arm",
                "game": g,
                "turn": t,
                "seat": t % SEATS,
                "vp_after": (t // SEATS + 1) * (2 if t % SEATS == 0 else 1),
            }
            for g in range(GAMES)
            for t in range(TURNS)
        ]
    )
    events = pl.DataFrame(
        [
            {"run": "arm", "game": g, "turn": CHOICE_TURN, "seat": 0, "kind": "choice"}
            for g in range(GAMES)
        ]
    )
    return Runs(games.lazy(), turns.lazy(), events.lazy(), {}, {})


def _choice_figure(runs: Runs, ctx) -> Figure:
    """Win rate of the seats that chose minus the others' (points), resolved when the Wilson intervals are apart."""
    g = runs.games.collect()
    chose = (
        runs.events.filter(pl.col("kind") == "choice")
        .select("run", "game", "seat")
        .collect()
    )
    g = g.join(
        chose.with_columns(pl.lit(True).alias("chose")),
        on=["run", "game", "seat"],
        how="left",
    )
    c, o = g.filter(pl.col("chose").is_not_null()), g.filter(pl.col("chose").is_null())
    (pc, po), (lc, lo), (hc, ho) = wilson(
        [c["win_share"].sum(), o["win_share"].sum()], [c.height, o.height]
    )
    return Figure(
        100 * (pc - po),
        math.nan,
        math.nan,
        bool(lc > ho or hc < lo),
        f"seats that chose won {100 * pc:.1f}% against {100 * po:.1f}% for the others",
    )


def _choice_why(runs: Runs, ctx) -> str:
    ev = (
        runs.events.filter(pl.col("kind") == "choice")
        .select("run", "game", "seat", "turn")
        .collect()
    )
    own, others, k = state_before(runs, ev)
    chose = runs.games.join(ev.lazy(), on=["run", "game", "seat"], how="semi").collect()
    return f"{mix(chose)}, and before the choice the {k} choosers held {own:.1f} VP against {others:.1f}"


READING = Reading("early", "win", "selection", _choice_figure, _choice_why)


def _effect(est, low, high):
    return pl.DataFrame(
        [
            {
                "arm": "early",
                "strategy": "early",
                "metric": "win",
                "n": GAMES,
                "est": est,
                "low": low,
                "high": high,
                "mean_control": 30.0,
            }
        ]
    )


def test_a_planted_selection_effect_is_named_with_its_numbers():
    runs = _synthetic()
    assert state_before(
        runs, runs.events.select("run", "game", "seat", "turn").collect()
    ) == (4.0, 2.0, GAMES)
    found = reconcile(
        _effect(-5.0, -8.0, -2.0),
        runs,
        "toy",
        {"control": "ctl", "early": "arm"},
        "late",
        readings=(READING,),
    )
    assert len(found) == 1 and found[0]["disagree"]
    assert found[0]["descriptive"].est == pytest.approx(100 * (0.5 - 20 / 120))
    s = found[0]["sentence"]
    assert s == (
        "Descriptive and causal disagree on early: descriptive, seats that chose won 50.0% against 16.7% "
        "for the others; causal, early against the control late changes its win rate by -5.0 percentage "
        "points [-8.0, -2.0] paired over 40 games; selection: all 40 played early, and before the choice "
        "the 40 choosers held 4.0 VP against 2.0."
    )
    assert reconcile_lines(found) == [s]


def test_per_seat_game_means_count_seat_games_without_rows_and_mix_names_the_group():
    runs = _synthetic()
    # seat 0 ("early") has turns 0, 4, 8 in each game: vp_after 2 + 4 + 6 = 12 per seat-game
    assert per_seat_game(runs, "arm", "early", "turns", pl.col("vp_after")) == 12.0
    # one choice event per game, all by "early"; "a" has none: 0 per seat-game, an absent strategy NaN
    assert (
        per_seat_game(
            runs,
            "arm",
            "early",
            "events",
            pl.col("seat").is_not_null(),
            pl.col("kind") == "choice",
        )
        == 1.0
    )
    assert (
        per_seat_game(runs, "arm", "a", "events", pl.col("seat").is_not_null()) == 0.0
    )
    assert math.isnan(per_seat_game(runs, "arm", "nobody", "turns", pl.col("vp_after")))
    g = runs.games.collect()
    assert mix(g.filter(pl.col("strategy") == "early")) == "all 40 played early"
    assert (
        mix(g.filter(pl.col("strategy").is_in(["early", "a", "b"])))
        == "33% of 120 played a"
    )


def test_agreeing_readings_give_one_short_line_and_no_sentence():
    runs = _synthetic()
    found = reconcile(
        _effect(5.0, 2.0, 8.0),
        runs,
        "toy",
        {"control": "ctl", "early": "arm"},
        "late",
        readings=(READING,),
    )
    assert not found[0]["disagree"] and found[0]["sentence"] == ""
    assert reconcile_lines(found) == [
        "Descriptive and causal agree in sign (nothing to reconcile) for: early (win)."
    ]
    # opposite signs but neither resolved: nothing to explain either
    weak = Figure(3.0, math.nan, math.nan, False, "x")
    assert not disagree(weak, {"est": -1.0, "low": -4.0, "high": 2.0})
    assert disagree(weak, {"est": -3.0, "low": -4.0, "high": -2.0})


def test_a_same_scale_figure_outside_the_causal_interval_disagrees():
    # VP per Coffee spent (0.36, same-turn) against one more start Coffee (+1.82 VP [0.94, 2.70], whole game)
    desc = Figure(0.36, 0.355, 0.367, True, "x")
    effect = {"est": 1.82, "low": 0.94, "high": 2.70}
    assert disagree(desc, effect, same_scale=True) and not disagree(desc, effect)
    assert not disagree(Figure(1.5, 1.4, 1.6, True, "x"), effect, same_scale=True)


def test_the_games_declare_their_readings():
    assert readings_of("galileos-truth") == GT_RECONCILE
    um = readings_of("unconscious-mind")
    assert [(r.arm, r.metric, r.kind, r.same_scale) for r in um] == [
        ("citer", "win", "attribution", False),
        (r"coffee\+(?P<n>\d+)", "vp", "attribution", True),
        (r"cite_bright_ideas=(?P<value>\d+)", "vp", "selection", False),
    ]
    assert readings_of("toy") == ()


@pytest.mark.slow  # a 2-arm Galileo's Truth experiment of 96 games each, then the pooled tables: about 10-20 s
def test_a_real_abjure_experiment_compares_the_outcome_table_with_the_paired_effect(
    tmp_path,
):
    base = RunConfig(
        game="galileos-truth",
        players=4,
        strategies=("writer", "suspicion-averse", "inventor"),
        games=96,
        seed=3,
        batch_size=96,
        n_jobs=1,
        out=str(tmp_path / "e"),
        seating="rotate",
    )
    arms = plan_experiment(
        base, control="never-abjure", vary="strategy=abjure-at:cycle=1"
    )
    out = run_experiment(arms, tmp_path / "e")
    meta = read_experiment(out)
    df = effects(out)
    runs = load_runs([out / a["folder"] for a in meta["arms"]])
    names = {
        a["label"]: n
        for a in meta["arms"]
        for n, p in runs.paths.items()
        if p.resolve() == (out / a["folder"]).resolve()
    }
    found = reconcile(df, runs, "galileos-truth", names, "never-abjure")
    assert [(f["arm"], f["metric"], f["kind"]) for f in found] == [
        ("abjure-at:cycle=1", "win", "selection")
    ]
    f = found[0]
    t = outcome_by_abjure_cycle(runs)
    rate = {r["abjured"]: 100 * r["win_rate"] for r in t.iter_rows(named=True)}
    assert f["descriptive"].est == pytest.approx(
        round(rate["1"], 1) - round(rate["never"], 1)
    )
    effect = df.filter(pl.col("metric") == "win").row(0, named=True)
    assert f["effect"]["est"] == effect["est"]
    assert f["disagree"] == disagree(f["descriptive"], effect)
    # 96 games: the paired effect is not resolved, the descriptive gap small: they agree (no sentence)
    assert not f["disagree"] and not effect["resolved"]
    assert experiment_lines(df, runs, meta, out) == [
        "Descriptive and causal agree in sign (nothing to reconcile) for: abjure-at:cycle=1 (win)."
    ]
    # the same real frames against a resolved effect of the other sign: the selection sentence, from the numbers
    flip = -10.0 if f["descriptive"].est > 0 else 10.0
    other = df.with_columns(
        pl.when(pl.col("metric") == "win")
        .then(pl.lit(flip))
        .otherwise(pl.col(c))
        .alias(c)
        for c in ("est", "low", "high")
    )
    s = reconcile(other, runs, "galileos-truth", names, "never-abjure")[0]["sentence"]
    ev = (
        runs.events.filter((pl.col("kind") == "abjure") & (pl.col("cycle") == 1))
        .select("run", "game", "seat", "turn")
        .collect()
    )
    vp, vp_o, k = state_before(runs, ev)
    assert k == 96 and s.startswith(
        "Descriptive and causal disagree on abjure-at:cycle=1: descriptive, seats that "
        f"abjured in Cycle 1 won {rate['1']:.1f}% "
    )
    assert f"changes its win rate by {flip:+.1f} percentage points" in s
    assert (
        "selection: who abjures in Cycle 1 is not who never does (all 96 played abjure-at:cycle=1, the same "
        f"plan without the Abjure won {effect['mean_control']:.1f}% in the control;"
    ) in s
    assert f"the 96 abjurers held {vp:.1f} VP" in s and f"against {vp_o:.1f} VP" in s


@pytest.mark.slow  # a 2-arm Unconscious Mind experiment of 24 games each with a tuned-heuristic focal player
def test_the_coffee_reading_finds_a_preset_focal_player_by_its_seats(tmp_path):
    preset = f"heuristic:preset={ROOT / 'docs' / 'presets' / 'unconscious-mind-heuristic-tuned.toml'}"
    base = RunConfig(game="unconscious-mind", players=4, strategies=("publisher", "citer", "curer"), games=24,
                     seed=3, batch_size=24, n_jobs=1, out=str(tmp_path / "e"), seating="rotate")
    out = run_experiment(plan_experiment(base, control=preset, treat="coffee+1"), tmp_path / "e")
    meta = read_experiment(out)
    runs = load_runs([out / a["folder"] for a in meta["arms"]])
    names = {a["label"]: n for a in meta["arms"] for n, p in runs.paths.items()
             if p.resolve() == (out / a["folder"]).resolve()}
    logged = runs.games.filter(pl.col("seat_order").cast(pl.Int64).is_in([0]) & (pl.col("seat") == 0)).select(
        pl.col("strategy").cast(pl.String)).collect()["strategy"].unique().to_list()
    assert len(logged) == 1 and logged[0] != preset  # the focal player is logged under its expanded id
    found = {(f["arm"], f["metric"]): f for f in reconcile(effects(out), runs, "unconscious-mind", names, preset)}
    f = found[("coffee+1", "vp")]
    # the same figure from the purchases of the seats the focal player sat in (its logged, expanded id)
    pur = UM.coffee_purchases(runs).filter(pl.col("strategy") == logged[0])
    want = UM.vp_per_coffee(runs, ("strategy",), purchases=pur).row(0, named=True)
    assert pur.height > 0 and f["descriptive"].est == pytest.approx(want["est"])
    assert f"1 Coffee spent by {preset} returned {want['est']:.2f} VP" in f["descriptive"].words


@pytest.mark.slow  # a 3-arm Unconscious Mind rule-number experiment of 48 games each, then its report
def test_the_bright_ideas_per_citation_experiment_is_reconciled_on_its_first_screen(tmp_path):
    base = RunConfig(game="unconscious-mind", players=4, strategies=("coffee-engine", "publisher", "citer", "curer"),
                     games=48, seed=2, batch_size=48, n_jobs=1, out=str(tmp_path / "e"), seating="rotate")
    out = run_experiment(plan_experiment(base, vary="cite_bright_ideas=1,0,2"), tmp_path / "e")
    meta = read_experiment(out)
    df = effects(out)
    runs = load_runs([out / a["folder"] for a in meta["arms"]])
    names = {a["label"]: n for a in meta["arms"] for n, p in runs.paths.items()
             if p.resolve() == (out / a["folder"]).resolve()}
    found = reconcile(df, runs, "unconscious-mind", names, "cite_bright_ideas=1")
    assert {f["arm"] for f in found} == {"cite_bright_ideas=0", "cite_bright_ideas=2"}
    assert {f["metric"] for f in found} == {"vp"} and {f["kind"] for f in found} == {"selection"}
    # each figure recomputed from the control's games and events: cited seat-games' final VP minus the never-cited
    # ones', signed by the arm's step (0 is one Bright Idea fewer per citation than the control's 1, 2 one more)
    g = runs.games.filter(pl.col("run") == names["control"]).collect()
    bright = (runs.events.filter((pl.col("run") == names["control"]) & (pl.col("kind") == "bright")
                                 & (pl.col("category") == "cited_bright")).collect()
              .group_by("game", "seat").agg(pl.col("amount").sum().alias("b")))
    g = g.join(bright, on=["game", "seat"], how="left").with_columns((pl.col("b").fill_null(0) > 0).alias("cited"))
    for f in found:
        s = g.filter(pl.col("strategy") == f["strategy"])
        d = (s.filter(pl.col("cited"))["vp"].cast(pl.Float64).mean()
             - s.filter(~pl.col("cited"))["vp"].cast(pl.Float64).mean())
        assert f["descriptive"].est == pytest.approx(d if f["arm"] == "cite_bright_ideas=2" else -d)
        assert f["disagree"] == disagree(f["descriptive"], f["effect"])
    lines = experiment_lines(df, runs, meta, out)
    assert lines == reconcile_lines(found) and lines
    assert all("against the control cite_bright_ideas=1" in x for x in lines if x.startswith("Descriptive and causal "
                                                                                           "disagree"))
    page = build_report([out / a["folder"] for a in meta["arms"]], out / "report", sections=experiment_sections(out))
    md = page.with_suffix(".md").read_text()
    panel = md.split("## Descriptive and causal, reconciled\n\n", 1)[1].split("\n## ", 1)[0]
    assert md.index("## Descriptive and causal, reconciled") < md.index("## Verdict")  # on the first screen
    assert all(x in panel for x in lines)
