"""Every conclusion names its field, and "dominant" has one meaning.

Synthetic games tables with known answers (no engine, no randomness): a strategy A that crushes two
weak scripts W1, W2 but loses to a stronger S. Among A, W1, W2 it is dominant in the balance verdict and
in the tournament answer; once S is in the field it still has the highest win rate (76.7%, more than 10
points above the fair share and ahead of the runner-up, which the old verdict called dominant) but both
reports call it only leading, by the same rule."""

from __future__ import annotations

import re

import polars as pl
import pytest

from meeplelab.analysis.dominance import DEFINITION, SCOPE, field_strategies, field_words, judge

#: pair win rates: A beats the weak scripts 95% but loses to S 60/40; S loses to the weak scripts
STRONG = {("A", "S"): 0.4, ("A", "W1"): 0.95, ("A", "W2"): 0.95, ("S", "W1"): 0.3, ("S", "W2"): 0.3,
          ("W1", "W2"): 0.5}
WEAK = {k: v for k, v in STRONG.items() if "S" not in k}


def _pair_lineups(rates: dict, games: int = 200) -> tuple[pl.DataFrame, dict]:
    """2-seat fixed lineups, both seat orders of every pair, on common seeds (a tournament's lineups):
    in lineup (x, y) x wins the first ``round(q * games)`` games, q = ``rates[(x, y)]``."""
    rows, mans = [], {}
    for k, (a, b, q) in enumerate((a, b, q if a == x else 1 - q) for (x, y), q in rates.items()
                                  for a, b in ((x, y), (y, x))):
        run = f"lineup-{k:02d}"
        wins = round(q * games)
        for g in range(games):
            w = 1.0 if g < wins else 0.0
            for seat, (s, share) in enumerate(((a, w), (b, 1.0 - w))):
                rows.append({"run": run, "game": g, "seat": seat, "players": 2, "strategy": s, "vp": int(share * 10),
                             "win_share": share, "margin": 0, "rank": 1 if share else 2})
        mans[run] = {"config": {"strategies": [a, b], "players": 2, "seed": 0, "games": games, "seating": "fixed"},
                     "seating": {"mode": "fixed"}}
    return pl.DataFrame(rows), mans


def _rotated_field(games: int = 600) -> tuple[pl.DataFrame, dict]:
    """One 3-seat run seated by rotation: A wins 80% of the games, W1 and W2 10% each."""
    rows = []
    names = ["A", "W1", "W2"]
    for g in range(games):
        winner = 0 if g % 10 < 8 else 1 + g % 2
        for seat in range(3):
            s = (seat + g) % 3  # every strategy in every seat equally often
            rows.append({"run": "field", "game": g, "seat": seat, "players": 3, "strategy": names[s],
                         "vp": 10 * (s == winner), "win_share": float(s == winner), "margin": 0,
                         "rank": 1 if s == winner else 2})
    man = {"field": {"config": {"strategies": names, "players": 3, "seed": 1, "games": games, "seating": "rotate"},
                     "seating": {"mode": "rotate"}}}
    return pl.DataFrame(rows), man


def _verdict_lines(df, mans):
    from meeplelab.analysis.verdict import strategy_flags

    lines, _ = strategy_flags(df, False, mans)
    return lines


def _tournament_answer(df):
    import meeplelab.analysis.tournament as T
    from meeplelab.analysis.tournament_report import dominance_answer

    g = df.lazy()
    return dominance_answer(T.summary_table(g), T.pairwise(g))


def test_a_leader_of_a_weak_field_is_called_dominant_among_that_field_by_name():
    df, mans = _rotated_field()
    lines = _verdict_lines(df, mans)
    field = "among the strategies played: A, W1, W2 (600 games, rotated seats)"
    flag = next(x for x in lines if x.startswith("FLAG dominant"))
    assert flag.startswith(f"FLAG dominant strategy (3 players, {field}): A wins 80.0% ")
    assert "of 600 games and beats every other strategy of this field head to head" in flag
    # A minus W1 (and W2), paired over the 600 games: 0.8 - 0.1 = 70 points
    assert "(closest: W1 by 70.0 points" in flag or "(closest: W2 by 70.0 points" in flag
    assert flag.endswith(DEFINITION)
    ranking = next(x for x in lines if "win rates" in x)
    assert ranking.startswith(f"3 players, win rates (fair share 33.3%) {field}: A 80.0% ")


def test_the_same_strategy_is_dominant_in_the_verdict_and_the_tournament_only_in_the_weak_field():
    weak_df, weak_m = _pair_lineups(WEAK)
    strong_df, strong_m = _pair_lineups(STRONG)
    # the weak field: both reports call A dominant
    v = _verdict_lines(weak_df, weak_m)
    assert any(x.startswith("FLAG dominant strategy (2 players, among the strategies played: A, W1, W2 (1,200 games, "
                            "fixed seats)): A wins 95.0%") for x in v)
    assert _tournament_answer(weak_df).startswith("Is there a dominant strategy? Yes: A finishes ahead of every other")
    # with S in the field A still leads (76.7%, 26.7 points above the fair share, 90 points ahead of the runner-up
    # W1 paired), but it loses to S 40/60 head to head: leading, not dominant, in both reports
    v = _verdict_lines(strong_df, strong_m)
    rank = next(x for x in v if "win rates" in x)
    assert re.search(r": A 76\.7% \[[\d.]+, [\d.]+\], W1 41\.7% .* A minus W1: 90\.0 percentage points", rank)
    assert not any(x.startswith("FLAG dominant") for x in v)
    lead = next(x for x in v if x.startswith("Leading, not dominant"))
    assert lead.startswith("Leading, not dominant (2 players, among the strategies played: A, S, W1, W2 (2,400 games, "
                           "fixed seats)): A has the highest win rate, but it loses to S head to head by 20.0 points")
    t = _tournament_answer(strong_df)
    assert t.startswith("Is there a dominant strategy? No: the strategy with the highest win rate, A, finishes behind S "
                        "head to head (40.0% [35.3, 44.9] of 400 games)")
    assert t.endswith("it is leading, not dominant.")


def test_the_one_rule_needs_every_pair_won_and_resolved():
    def row(edge, resolved):
        return {"edge": edge, "resolved": resolved}

    won = {("a", "b"): row(0.2, True), ("a", "c"): row(0.1, True), ("b", "c"): row(0.3, True)}
    won.update({(y, x): row(-r["edge"], r["resolved"]) for (x, y), r in list(won.items())})
    assert judge(["a", "b", "c"], won).dominant == "a"
    open_ = {**won, ("a", "c"): row(0.1, False), ("c", "a"): row(-0.1, False)}
    j = judge(["a", "b", "c"], open_)
    assert j.dominant is None and j.leader == "a" and j.open == [open_[("a", "c")]] and j.lost == []
    lost = {**won, ("a", "c"): row(-0.1, True), ("c", "a"): row(0.1, True)}
    j = judge(["a", "b", "c"], lost)
    assert j.dominant is None and j.lost == [lost[("a", "c")]]
    # a pair never played: not dominant
    assert judge(["a", "b", "c"], {k: v for k, v in won.items() if "c" not in k}).dominant is None


def test_the_scope_sentence_lists_exactly_the_strategies_played():
    df, mans = _pair_lineups(STRONG)
    lines = _verdict_lines(df, mans)
    named = re.findall(r"among the strategies played: ([^()]+) \(", "\n".join(lines))
    assert named and set(named) == {"A, S, W1, W2"}
    assert sorted(named[0].split(", ")) == sorted(df["strategy"].unique().to_list())
    # in the order the runs name them; ids the manifests do not spell (expanded presets) appended, absent ones dropped
    m = {"r": {"config": {"strategies": ["writer", "heuristic:preset=x.toml", "never-abjure"]}}}
    assert field_strategies(m) == ["writer", "heuristic:preset=x.toml", "never-abjure"]
    assert field_strategies(m, ["never-abjure", "heuristic:a=1", "writer"]) == ["writer", "never-abjure", "heuristic:a=1"]
    assert field_words(["a", "b"], 4800, "rotated seats") == "among the strategies played: a, b (4,800 games, rotated seats)"


def test_every_experiment_effect_line_can_name_its_arm():
    from meeplelab.analysis.experiment import effect_line

    r = {"arm": "abjure-at:cycle=2", "strategy": "abjure-at:cycle=2", "est": -16.7, "low": -20.0, "high": -13.4,
         "n": 4800, "p_holm": 1e-9}
    where = field_words(["abjure-at:cycle=2", "writer", "suspicion-averse", "inventor"], 4800, "rotated seats")
    assert effect_line(0, r, "never-abjure", 4, where) == (
        "Largest effect: in arm abjure-at:cycle=2, abjure-at:cycle=2's win rate changes by -16.7 percentage points "
        "[-20.0, -13.4] against the control never-abjure (paired, 4,800 games; among the strategies played: "
        "abjure-at:cycle=2, writer, suspicion-averse, inventor (4,800 games, rotated seats)); resolved (Holm-adjusted "
        "over 4 comparisons: p = 1e-09).")


def test_the_definition_and_scope_sentences_say_what_they_promise():
    assert "beats every other strategy of the field head to head" in DEFINITION and "Holm-adjusted" in DEFINITION
    assert "leading" in DEFINITION
    assert SCOPE == ("These conclusions hold for this field only (the strategies played, as played here); whether they "
                     "hold for stronger players is the section \"Does it hold for stronger players?\" (meeplelab "
                     "stronger).")


@pytest.mark.parametrize("field", [WEAK, STRONG])
def test_dominant_in_the_verdict_iff_dominant_in_the_tournament(field):
    df, mans = _pair_lineups(field)
    verdict = any(x.startswith("FLAG dominant") for x in _verdict_lines(df, mans))
    tournament = "? Yes:" in _tournament_answer(df)
    assert verdict == tournament == (field is WEAK)
