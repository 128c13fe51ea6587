"""Reports a designer can paste: one field played at 2, 3 and 4 seats and reported
per player count (seat advantage and arc metrics with intervals), three plain sentences on top made of the
verdict's numbers, human headers, rows ranked by value, long tables folded, CSVs with the code names."""

from __future__ import annotations

import re

import polars as pl
import pytest

from meeplelab.analysis.page import TableFormat, _html_table, _md_table, header, ranked
from meeplelab.analysis.report import build_report
from meeplelab.analysis.labels import Labeller
from meeplelab.analysis.pages import inline
from meeplelab.analysis.summary import three_sentences
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate

POOL = ("random", "always-draw", "bank-at:n=3", "bank-at:n=6")


@pytest.fixture(scope="module")
def counts(tmp_path_factory):
    """The toy field at 2, 3 and 4 seats (a pool of 4: every ordered choice of the seats), 240 games each."""
    base = tmp_path_factory.mktemp("counts")
    for p in (2, 3, 4):
        simulate(RunConfig(game="toy", players=p, strategies=POOL, games=240, seed=3, seating="rotate",
                           out=str(base / f"{p}p"), n_jobs=1))
    return [base / f"{p}p" for p in (2, 3, 4)]


@pytest.fixture(scope="module")
def page(counts, tmp_path_factory):
    said: list = []
    page = build_report(counts, tmp_path_factory.mktemp("rep") / "report", summary=said)
    return page, (page.parent / "report.md").read_text(), said


def _rows(md: str, caption: str) -> list[dict]:
    """The rows of the Markdown table under ``*caption*`` as ``{header: cell}``."""
    lines = md.split(f"*{caption}*\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    cols = [c.strip() for c in lines[0].strip("|").split("|")]
    return [dict(zip(cols, (c.strip() for c in ln.strip("|").split("|")))) for ln in lines[2:]]


def test_a_report_of_one_field_at_2_3_and_4_seats_gives_seat_and_arc_tables_per_player_count(page):
    path, md, _ = page
    seats = _rows(md, "Win rate by seat (percent; seats numbered from 1 = first player, as in replays); fair = 1/players")
    assert [(r["players"], r["seat"]) for r in seats] == [(str(p), str(s)) for p in (2, 3, 4) for s in range(1, p + 1)]
    assert all(float(r["95% low"]) <= float(r["win rate %"]) <= float(r["95% high"]) for r in seats)
    assert {r["fair share %"] for r in seats if r["players"] == "3"} == {"33.3"}
    spread = _rows(md, "Seat advantage spread, best minus worst seat (percentage points, paired interval; seats from 1)")
    assert [r["players"] for r in spread] == ["2", "3", "4"] and all(r["games"] == "240" for r in spread)
    glance = md.split("*Game arc at a glance")[1].split("[CSV]")[0]
    for p in (2, 3, 4):
        assert f"| {p} players | {p}p 95% low | {p}p 95% high |" in glance
        assert f"{p} players: " in md and "lead changes a game" in md.split(f"\n{p} players: ", 1)[1].split("\n")[0]
    lead = next(r for r in _rows(md, "Game arc at a glance: each player count's estimate with its 95% interval (shares "
                                 "in percent; the sample sizes and every other metric are in the next table)")
                if r["metric"] == "lead changes")
    for p in (2, 3, 4):
        assert float(lead[f"{p}p 95% low"]) <= float(lead[f"{p} players"]) <= float(lead[f"{p}p 95% high"])
    # the strategy table is per player count, and every generic table says it
    wr = _rows(md, "Win rate by strategy (percent)")
    assert {r["players"] for r in wr} == {"2", "3", "4"} and len(wr) == 12
    assert "Every table is per player count (2, 3 and 4 players)." in md
    assert "Pooled: 3 runs of the same rules (2p, 3p, 4p) at 2, 3 and 4 players; every figure is per player count" in md
    csv = sorted(path.parent.glob("tables/*game-arc-metrics*.csv"))
    assert pl.read_csv(csv[0])["players"].unique().sort().to_list() == [2, 3, 4]


def test_the_three_sentences_open_the_report_and_carry_the_verdicts_numbers(page):
    _, md, said = page
    (sentences,) = said
    assert md.split("## In three sentences\n\n", 1)[1].startswith("\n\n".join(sentences))
    assert md.index("## In three sentences") < md.index("## Verdict")
    first, second, third = sentences
    # no stronger study beside the runs: the first sentence says whose answer it is, and no interval is shown
    assert first.startswith("Among scripted plans only (random, always-draw, bank-at:n=3 and bank-at:n=6; stronger "
                            "players not checked: `meeplelab stronger`)")
    assert second.startswith(("Not balanced: ", "Nothing is flagged"))
    assert third.startswith(("Change first", "No rule change", "No change is indicated"))
    assert not re.search(r"\[-?\d", " ".join(sentences))
    # their folded twin quotes the verdict's numbers, each with its interval
    folded = md.split("<summary>With intervals, among the scripted plans</summary>\n\n", 1)[1].split("</details>")[0]
    assert folded.startswith("Balanced among random, always-draw, bank-at:n=3 and bank-at:n=6 (240 games at each of "
                             "2, 3 and 4 players; rotated seats)")
    verdict = md.split("## Verdict", 1)[1].split("\n## ", 1)[0]
    points = re.findall(r"(-?\d+\.\d) points \[(-?\d+\.\d), (-?\d+\.\d)\]", folded)
    rates = re.findall(r"(\d+\.\d)% \[(\d+\.\d), (\d+\.\d)\]", folded)
    assert points and rates
    for a, b, c in points:
        assert f"{a} points [{b}, {c}]" in verdict or f"{a} percentage points [{b}, {c}]" in verdict, (a, b, c)
    for a, b, c in rates:
        assert f"{a}% [{b}, {c}]" in verdict, (a, b, c)


def _facts(**kw):
    base = {"field_strategies": ["a", "b"], "games_by_players": {4: 1000}, "seating": "rotated seats",
            "threshold": 5.0, "game": "galileos-truth", "spread": [], "strategies": {}, "safety": {4: (0, 1000, 0.0, 0.0, 0.0038)}}
    base.update(kw)
    return base


SEAT = {"players": 4, "games": 19992, "best_seat": 1, "best": 38.9, "best_low": 38.2, "best_high": 39.6,
        "worst_seat": 0, "worst": 11.4, "worst_low": 11.0, "worst_high": 11.9, "spread": 27.5, "spread_low": 26.6,
        "spread_high": 28.4, "flagged": True, "games_needed": 11}


def test_a_flagged_seat_spread_is_said_not_balanced_and_what_to_change_names_the_balance_search():
    first, second, third = three_sentences(_facts(spread=[SEAT]))
    assert first == "Balanced among a and b (1,000 games at 4 players; rotated seats): all 1,000 games ended by the " \
                    "rules' own end."
    assert second == ("Not balanced: at 4 players seat 2 wins 38.9% [38.2, 39.6] and seat 1 11.4% [11.0, 11.9] "
                      "(spread 27.5 points [26.6, 28.4], 19,992 games).")
    assert third == ("Change first the turn-order advantage at 4 players (spread 27.5 points [26.6, 28.4]): compensate "
                     "seat 1 or take from seat 2; `meeplelab balance --game galileos-truth --vary PARAM=LOW..HIGH "
                     "--target 'seat-spread:4<=5'` searches rule numbers for it.")


def test_event_kinds_that_never_happened_carry_the_games_labels_on_the_page():
    _, second, third = three_sentences(_facts(never=["abjure", "stake"]))
    assert second == "Not balanced: event kinds `abjure` and `stake` never happened."
    assert third.startswith("Change first the event kind `abjure`, which never happened: ")
    html = str(inline(second, Labeller("galileos-truth")))  # as the page renders a sentence
    assert ('event kinds <span class="code" title="abjure">Abjure</span> and <span class="code" title="stake">Stake'
            '</span> never happened') in html and "`" not in html


def test_nothing_flagged_says_so_and_names_the_largest_gap_left():
    fair = {**SEAT, "best": 26.0, "worst": 24.0, "spread": 2.0, "spread_low": -1.0, "spread_high": 5.0, "flagged": False}
    rates = pl.DataFrame({"strategy": ["a", "b"], "games": [1000, 1000], "est": [0.27, 0.23], "low": [0.24, 0.2],
                          "high": [0.3, 0.26]})
    h2h = {"est": 0.04, "low": -0.01, "high": 0.09, "column": "b", "n": 1000, "games_needed": 2000, "p_holm": 0.2}
    st = {"rates": rates, "top": rates.row(0, named=True), "second": rates.row(1, named=True), "h2h": h2h,
          "dominant": None, "fair": 0.25, "where": "", "lost": [], "open": [h2h], "closest": h2h}
    first, second, third = three_sentences(_facts(spread=[fair], strategies={4: st}))
    assert "the seat order at 4 players (best minus worst seat 2.0 points [-1.0, 5.0], within the 5-point threshold)" in first
    assert ("no strategy dominates at 4 players (at 4 players the leader a, 27.0% [24.0, 30.0], does not beat b head "
            "to head: 4.0 points [-1.0, 9.0])") in first
    assert "no strategy is degenerate (lowest against its fair share: b 23.0% [20.0, 26.0] at 4 players)" in first
    assert second.startswith("Nothing is flagged as unbalanced: no seat spread past 5 points")
    assert third == ("No rule change is indicated by these runs; the largest gap left is a over b at 4 players, 4.0 "
                     "points [-1.0, 9.0] head to head; check the field against stronger or re-tuned players before "
                     "settling the rules.")


def test_no_dominant_strategy_names_its_player_counts_when_another_count_has_one():
    """With a dominant strategy at 3 players, the first sentence does not say "no strategy dominates at any player
    count": it names the counts without one."""
    rates = pl.DataFrame({"strategy": ["a", "b"], "games": [1000, 1000], "est": [0.27, 0.23], "low": [0.24, 0.2],
                          "high": [0.3, 0.26]})
    h2h = {"est": 0.04, "low": -0.01, "high": 0.09, "column": "b", "n": 1000, "games_needed": 2000, "p_holm": 0.2}
    st = {"rates": rates, "top": rates.row(0, named=True), "second": rates.row(1, named=True), "h2h": h2h,
          "dominant": None, "fair": 0.25, "where": "", "lost": [], "open": [h2h], "closest": h2h}
    won = {**h2h, "est": 0.3, "low": 0.2, "high": 0.4, "p_holm": 0.001}
    dom = {**st, "dominant": "a", "h2h": won, "open": [], "closest": won}
    first, second, _ = three_sentences(_facts(games_by_players={2: 1000, 3: 1000, 4: 1000},
                                              strategies={2: st, 3: dom, 4: st}))
    assert "no strategy dominates at 2 and 4 players" in first and "any player count" not in first
    both, _, _ = three_sentences(_facts(games_by_players={2: 1000, 4: 1000}, strategies={2: st, 4: st}))
    assert "no strategy dominates at any player count" in both


def test_a_seat_order_within_the_threshold_by_point_estimate_only_says_its_interval_reaches_past_it():
    """A seat spread of 3 points [-4, 10.6] is said to be within the 5-point threshold by point estimate only."""
    wide = {**SEAT, "best": 26.5, "worst": 23.5, "spread": 3.0, "spread_low": -4.0, "spread_high": 10.6, "flagged": False}
    first, _, _ = three_sentences(_facts(spread=[wide]))
    assert ("within the 5-point threshold by point estimate; the intervals reach 10.6 points, so a larger spread is "
            "not excluded)") in first


def test_the_turns_by_option_table_says_turns_not_games(page):
    _, md, _ = page
    sec = md.split("## Action frequencies", 1)[1].split("\n## ", 1)[0]
    assert "turns in all" in sec and "games of the run" not in sec


def test_headers_are_words_and_the_csv_keeps_the_code_names(page):
    path, md, _ = page
    heads = [ln for i, ln in enumerate(md.splitlines()) if ln.startswith("| ")
             and i + 1 < len(md.splitlines()) and md.splitlines()[i + 1].startswith("|---")]
    assert heads
    cells = {c.strip() for ln in heads for c in ln.strip("|").split("|")}
    assert not {c for c in cells if "_" in c}, sorted(c for c in cells if "_" in c)
    assert not cells & {"est", "low", "high", "n"}
    assert {"win rate %", "95% low", "95% high", "games", "sample (n)"} <= cells
    csv = pl.read_csv(sorted(path.parent.glob("tables/*win-rate-by-strategy-percent.csv"))[0])
    assert csv.columns == ["players", "strategy", "games", "wins", "est", "low", "high"]
    assert header("vp_low") == "VP 95% low" and header("diff_high") == "difference 95% high"
    assert header("est", TableFormat(labels={"est": "win rate %"})) == "win rate %"


def test_rows_are_ranked_by_their_value_within_each_player_count(page):
    _, md, _ = page
    wr = _rows(md, "Win rate by strategy (percent)")
    for p in ("2", "3", "4"):
        v = [float(r["win rate %"]) for r in wr if r["players"] == p]
        assert v == sorted(v, reverse=True) and len(v) == 4
    df = pl.DataFrame({"players": [4, 4, 2, 2], "strategy": ["a", "b", "a", "b"], "est": [0.1, 0.3, 0.6, 0.4]})
    assert ranked(df).rows() == [(4, "b", 0.3), (4, "a", 0.1), (2, "a", 0.6), (2, "b", 0.4)]  # groups keep their order
    seats = pl.DataFrame({"seat": [0, 1, 2], "est": [0.2, 0.5, 0.3]})
    assert ranked(seats)["seat"].to_list() == [0, 1, 2]  # an ordered key keeps its order
    assert ranked(df, TableFormat(rank=None)).equals(df)
    nan = pl.DataFrame({"strategy": ["a", "b", "c"], "est": [0.1, float("nan"), 0.5]})
    assert ranked(nan)["strategy"].to_list() == ["c", "a", "b"]  # a value that cannot be computed goes last


def test_a_long_table_shows_its_top_rows_and_folds_the_rest():
    df = pl.DataFrame({"strategy": [f"s{i:02d}" for i in range(40)], "est": [float(40 - i) for i in range(40)]})
    md = _md_table(df, "Long", None, "tables/long.csv")
    body = [ln for ln in md.splitlines() if ln.startswith("| s") and not ln.startswith("| strategy")]
    assert [ln.split("|")[1].strip() for ln in body] == [f"s{i:02d}" for i in range(10)]
    assert md.endswith("*Folded: top 10 of 40 rows, ranked by estimate; every row in [the CSV](tables/long.csv)*")
    page = _html_table(df, "Long")
    shown, folded = page.split("<details>")
    assert shown.count("<tr><td") == 10 and "(top 10 of 40 rows, ranked by estimate)" in shown
    assert folded.startswith("<summary>All 40 rows</summary>") and folded.count("<tr><td") == 40
    short = _md_table(df.head(15), "Short")
    assert "Folded" not in short and short.count("\n| s") == 16  # the header and 15 rows
    grouped = pl.DataFrame({"players": [2] * 20 + [4] * 20, "strategy": [f"s{i}" for i in range(40)],
                            "est": [float(i) for i in range(40)]})
    rows = [ln for ln in _md_table(ranked(grouped), "G").splitlines() if ln.startswith("| 2 ") or ln.startswith("| 4 ")]
    assert [r.split("|")[1].strip() for r in rows] == ["2"] * 5 + ["4"] * 5  # the top rows of every player count


def test_the_report_folds_its_long_tables_and_their_csv_holds_every_row(page):
    path, md, _ = page
    html = path.read_text()
    assert "<details><summary>All " in html
    note = re.search(r"\*Folded: top (\d+) of (\d+) rows[^*]*\[the CSV\]\((tables/[^)]+)\)\*", md)
    assert note
    assert pl.read_csv(path.parent / note.group(3)).height == int(note.group(2).replace(",", "")) > int(note.group(1))


def test_an_experiments_sentences_say_their_scope_and_name_the_largest_effect():
    effect = {"arm": "abjure-at:cycle=2", "strategy": "abjure-at:cycle=2", "est": -16.7, "low": -18.3, "high": -15.1,
              "n": 4800, "control": "never-abjure", "resolved": True}
    first, _, third = three_sentences(_facts(spread=[SEAT], scope="the control arm", effect=effect))
    assert first.startswith("Balanced among a and b (1,000 games at 4 players; rotated seats; the control arm): ")
    assert third.endswith("searches rule numbers for it; the largest effect measured: in arm abjure-at:cycle=2, "
                          "the focal player's win rate changes by -16.7 points [-18.3, -15.1] against the control "
                          "never-abjure, paired over 4,800 games (resolved).")
