"""``meeplelab report TOURNAMENT``: the report of a tournament as a whole.

Sections: what was played and what the columns count; the answer in a few sentences, each naming the
field it holds among (is there a dominant strategy, in the one meaning of
:data:`meeplelab.analysis.dominance.DEFINITION`, stated in the answer; the stable mix, strictly dominated
strategies, the seat effect; the standing :data:`meeplelab.analysis.dominance.SCOPE` sentence); win rate against the fair share; the
head-to-head matrix (heat map); Bradley-Terry ratings; the seat effect per player count; the
metagame (symmetric Nash equilibrium mix, alpha-rank, dominated strategies, exploitability, with
bootstrap intervals over seeds); provenance. Built with :func:`meeplelab.analysis.report.build_report`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import polars as pl

from . import figures as F
from . import tournament as T
from .load import Runs
from .page import MISSING, Section, TableFormat, fmt_number
from .report import build_report
from .dominance import DEFINITION, field_words, judge, SCOPE
from .metagame import bootstrap_metagame, restrict
from .stats import games_for_difference, holm_words
from meeplelab.play.tournament import lineup_folders, read_tournament
from meeplelab.sim.core.errors import RunFolderError

WORDS = ("Words: a *lineup* is one seat arrangement of the strategies (one run folder); *games* counts games "
         "(once per strategy however many seats it holds); *seat-results* counts one seat's outcome in one game "
         "(a game of n seats gives n); *win rate* is the share of a strategy's seat-results that won (a shared first "
         "place counts 1/k) and its *fair share* is 1/players, what every seat wins when all strategies are equally "
         "strong; *x fair* is win rate / fair share; *game win rate* is the share of its games that one of its seats "
         "won, against the fair share seats held / players. Every lineup is played on the same seeds (common random "
         "numbers), so game i of each lineup starts from the same shuffles.")


#: share of bootstrap resamples in which a strategy must be dominated for the report to call it dominated
SETTLED = 0.95


def games_to_resolve(p: float) -> int | None:
    """Games of a pair needed for a 95% interval of a head-to-head rate ``p`` to exclude 50%:
    ``ceil((z sd / (p - 1/2))^2)`` with ``sd = sqrt(p (1 - p))`` the spread of one game's score
    (:func:`meeplelab.analysis.stats.games_for_difference`); None at exactly 50%."""
    return games_for_difference(float(np.sqrt(p * (1 - p))), p - 0.5)


def _ci(est: float, lo: float, hi: float, places: int = 1) -> str:
    return f"{est * 100:.{places}f}% [{lo * 100:.{places}f}, {hi * 100:.{places}f}]"


def _resolved(r: dict) -> bool:
    """A head-to-head cell (or seat) is resolved: Holm-adjusted (its ``resolved`` column) when the table
    has one, else its interval excludes the reference."""
    if r.get("resolved") is not None:
        return bool(r["resolved"])
    ref = r.get("fair", 0.5)
    lo, hi = r.get("low", r.get("win_low")), r.get("high", r.get("win_high"))
    return lo > ref or hi < ref


def _holm_note(n: int) -> str:
    return f"{holm_words(n)}: resolved means the Holm-adjusted p-value is below 0.05"


def dominance_answer(summ: pl.DataFrame, pw: pl.DataFrame, field: str | None = None) -> str:
    """One sentence answering "is there a dominant strategy?" from the head-to-head table.

    *Dominant* has the one meaning shared with the balance verdict (:data:`meeplelab.analysis.dominance.DEFINITION`,
    decided by :func:`meeplelab.analysis.dominance.judge`): the strategy finishes ahead of every other strategy head
    to head, every pair resolved above 50% (Holm-adjusted over the pairs of strategies when the table carries
    ``resolved``, :func:`meeplelab.analysis.tournament.pairwise`; its 95% Wilson interval above 50% otherwise).
    Otherwise the best-rated candidate (highest win rate) is named with the pairs that do not resolve
    (with the games a pair needs to resolve a difference of the size observed) or that it loses. With
    ``field`` (:func:`meeplelab.analysis.dominance.field_words`) the answer says which field it holds among.
    """
    order = summ["strategy"].to_list()
    rows = {(r["row"], r["column"]): {**r, "edge": r["est"] - 0.5, "resolved": _resolved(r)}
            for r in pw.iter_rows(named=True)}
    note = ""
    if "resolved" in pw.columns:
        note = f" ({_holm_note(int(pw.filter(pl.col('row') < pl.col('column')).height))})"
    where = f" {field}" if field else ""
    j = judge(order, rows)
    if j.dominant is not None:
        s = j.dominant
        w = min(j.pairs, key=lambda r: r["low"])
        how = "pair resolved above 50%" if note else "95% interval above 50%"
        return (f"Is there a dominant strategy{where}? Yes: {s} finishes ahead of every other strategy head to head, "
                f"every {how} (closest: {w['column']}, {_ci(w['est'], w['low'], w['high'])} of "
                f"{w['games']:,} games){note}.")
    top = j.leader
    if j.lost:
        r = min(j.lost, key=lambda r: r["est"])
        return (f"Is there a dominant strategy{where}? No: the strategy with the highest win rate, {top}, finishes "
                f"behind {r['column']} head to head ({_ci(r['est'], r['low'], r['high'])} of {r['games']:,} "
                f"games){note}; it is leading, not dominant.")
    parts = []
    for r in sorted(j.open, key=lambda r: r["est"]):
        need = games_to_resolve(r["est"])
        parts.append(f"against {r['column']} {_ci(r['est'], r['low'], r['high'])} of {r['games']:,} games"
                     + (f", about {need:,} games resolve a difference this size" if need else ", even"))
    return (f"Is there a dominant strategy{where}? Not resolved at this size: {top} has the highest win rate "
            f"(leading), but its head-to-head is not resolved {'; '.join(parts)}{note}.")


def seat_answer(se: pl.DataFrame) -> str:
    """One sentence on the seat effect (:func:`meeplelab.analysis.tournament.seat_effect`): per player count,
    every seat's win rate when any seat is resolved away from the fair share (Holm-adjusted over every
    seat of every player count when the table carries ``resolved``; else its 95% interval excludes it)."""
    parts = []
    held = "resolved" in se.columns
    for (n,), sub in se.group_by("players", maintain_order=True):
        rows = sub.sort("seat").to_dicts()
        if any(_resolved(r) for r in rows):
            parts.append(f"at {n} seats " + ", ".join(f"seat {r['seat'] + 1} wins {_ci(r['win_rate'], r['win_low'], r['win_high'])}"
                                                   for r in rows)
                         + f" of {rows[0]['seat_results']:,} seat-results each against a fair {rows[0]['fair'] * 100:.1f}%")
    if held:
        note = _holm_note(se.height)
        if not parts:
            return f"Seat effect: no seat resolved away from the fair share ({note})."
        return "Seat effect: " + "; ".join(parts) + f" (a seat is resolved away from the fair share; {note})."
    if not parts:
        return "Seat effect: no seat's 95% interval excludes the fair share."
    return "Seat effect: " + "; ".join(parts) + " (an interval excludes the fair share)."


def _metagame_words(mg) -> tuple[pl.DataFrame, str, str, str, str]:
    """The metagame table (rates in [0, 1]) and its words: the mix with intervals, exploitability,
    the settled dominated strategies and those dominated on the point estimates only."""
    rows = []
    by = {s: sorted((b for (d, b) in mg.dominated_pairs if d == s), key=lambda b: -mg.dominated_pairs[(s, b)])
          for s in mg.table.strategies}
    for i, s in enumerate(mg.table.strategies):
        rows.append({"strategy": s, "nash": mg.nash[i], "nash_low": mg.nash_low[i], "nash_high": mg.nash_high[i],
                     "alpha_rank": mg.alpha[i], "alpha_rank_low": mg.alpha_low[i],
                     "alpha_rank_high": mg.alpha_high[i], "br_gain": mg.best_response_gain[i],
                     "br_gain_low": mg.gain_low[i], "br_gain_high": mg.gain_high[i],
                     "dominated_by": ", ".join(by[s]) or None, "dominated_share": mg.dominated_share[s]})
    df = pl.DataFrame(rows).sort("nash", descending=True)
    settled = mg.settled_dominated(SETTLED)

    def _by(a: str) -> str:  # every dominating strategy with the share of resamples in which it dominates
        return ", ".join(f"{b} in {mg.dominated_pairs[(a, b)] * 100:.0f}%" for b in by[a])

    dom = ", ".join(f"{a} (dominated in {mg.dominated_share[a] * 100:.0f}% of resamples; by {_by(a)})"
                    for a in settled) or "none"
    unsettled = [a for a in mg.dominated if a not in settled]
    dom_open = ("; dominated on the point estimates but not in at least "
                f"{SETTLED * 100:.0f}% of resamples (not settled at this size): "
                + ", ".join(f"{a} ({mg.dominated_share[a] * 100:.0f}%; by {_by(a)})" for a in unsettled)
                if unsettled else "")
    in_mix = ", ".join(f"{r['strategy']} {_ci(r['nash'], r['nash_low'], r['nash_high'], 0)}"
                       for r in df.iter_rows(named=True) if r["nash"] > 0.005)
    expl = (f"{fmt_number(mg.exploitability * 100, 2)} points of win share on the point estimates; on the "
            f"resamples a best response gains at most {fmt_number(mg.exploitability_high * 100, 2)} points "
            f"against this mix (95th percentile)")
    return df, in_mix, expl, dom, dom_open


_MG_PCT = ["nash", "nash_low", "nash_high", "alpha_rank", "alpha_rank_low", "alpha_rank_high", "br_gain", "br_gain_low",
           "br_gain_high", "dominated_share"]
_MG_FMT = TableFormat(decimals={"nash": 1, "alpha_rank": 1, "br_gain": 2, "dominated_share": 0},
                      missing={"dominated_by": "-"})


def chart_label(strategy: str) -> str:
    """A strategy id as a chart axis shows it: a preset's path cut to its file name
    (``heuristic:preset=docs/presets/gt-tuned.toml`` -> ``heuristic:preset=gt-tuned.toml``)."""
    return re.sub(r"preset=([^,]*)", lambda m: "preset=" + Path(m.group(1)).name, strategy)


def _labels(df: pl.DataFrame, col: str = "strategy") -> pl.DataFrame:
    return df.with_columns(pl.col(col).map_elements(chart_label, return_dtype=pl.String))


def _pct(df: pl.DataFrame, cols) -> pl.DataFrame:
    """Rates in [0, 1] to percent, unrounded: the table formatter rounds once (rounding here first
    turned 2.8475 into 2.85 and then 2.9, where the terminal table says 2.8)."""
    return df.with_columns([pl.col(c) * 100 for c in cols if c in df.columns])


#: text colours of a heat-map cell: (resolved, not resolved) on a light cell and on a dark cell
CELL_TEXT = {"dark": ("black", "dimgray"), "light": ("white", "gainsboro")}


def cell_text_colour(background, resolved: bool = True) -> str:
    """Text colour of a heat-map cell of colour ``background``: black (grey when not resolved) on a light
    cell, white (light grey) on a dark one, whichever of black and white has the higher WCAG contrast
    ratio against the cell (:func:`meeplelab.analysis.figures.text_colour`)."""
    side = "dark" if F.text_colour(background) == "black" else "light"
    return CELL_TEXT[side][0 if resolved else 1]


def heatmap(pw: pl.DataFrame, order: list[str]) -> "F.plt.Figure":
    """Head-to-head heat map: cell (row, column) = percent of common-seed games in which the row
    strategy finished ahead of the column strategy, with the 95% Wilson interval and the games; a
    resolved cell (Holm-adjusted over the pairs, ``resolved``; tables without it: interval excludes 50%)
    is written in bold, the others in grey (not resolved); text is black or white by the cell's
    luminance (:func:`cell_text_colour`), so a maroon or navy cell is readable."""
    k = len(order)
    pos = {s: i for i, s in enumerate(order)}
    m = np.full((k, k), np.nan)
    text = [["" for _ in range(k)] for _ in range(k)]
    resolved = np.zeros((k, k), dtype=bool)
    for r in pw.iter_rows(named=True):
        i, j = pos[r["row"]], pos[r["column"]]
        m[i, j] = r["est"] * 100
        resolved[i, j] = bool(r["resolved"]) if "resolved" in r else (r["low"] > 0.5 or r["high"] < 0.5)
        text[i][j] = f"{r['est'] * 100:.0f}%\n[{r['low'] * 100:.0f}, {r['high'] * 100:.0f}]\nn={r['games']:,}"
    fig, ax = F._fig("Head-to-head: row finishes ahead of column (%)")
    fig.set_size_inches(max(5.0, 1.3 * k + 2), max(4.0, 1.0 * k + 1.5))
    ax.grid(False)
    im = ax.imshow(m, cmap="RdBu", vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            bg = im.cmap(im.norm(m[i, j])) if np.isfinite(m[i, j]) else ax.get_facecolor()
            ax.text(j, i, text[i][j] if i != j else MISSING, ha="center", va="center", fontsize=7,
                    fontweight="bold" if resolved[i, j] else "normal", color=cell_text_colour(bg, resolved[i, j] or i == j))
    ax.set_xticks(range(k), [chart_label(x) for x in order], rotation=30, ha="right")
    ax.set_yticks(range(k), [chart_label(x) for x in order])
    ax.set_xlabel("column strategy")
    ax.set_ylabel("row strategy")
    fig.colorbar(im, ax=ax, label="row ahead (%)")
    return fig


def mix_chart(labels: list[str], series: list[tuple[str, np.ndarray, np.ndarray, np.ndarray]], title: str):
    """Grouped horizontal bars of mixes (share %) with bootstrap 95% bounds."""
    fig, ax = F._fig(title)
    y = np.arange(len(labels))
    h = 0.8 / len(series)
    for s, (name, est, lo, hi) in enumerate(series):
        err = np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)]) * 100
        ax.barh(y + s * h - 0.4 + h / 2, est * 100, height=h, xerr=err, capsize=3, label=name,
                color=F.COLORS[s % len(F.COLORS)], alpha=0.85)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("share of the population (%)")
    ax.set_xlim(0, 105)
    ax.legend(loc="lower right")
    return fig


def tournament_sections(out: Path, *, resamples: int = 200):
    """The section builder for :func:`build_report` on the tournament in ``out``."""
    meta = read_tournament(out)

    def build(runs: Runs) -> list[Section]:
        return sections(runs, meta, resamples=resamples)

    return build


def _win_rate_section(summ: pl.DataFrame, players: int) -> Section:
    """"Win rate against the fair share": the per-strategy summary table (:func:`T.summary_table`) and its chart."""
    fair = float(summ["fair"].mean())
    chart = summ.select("strategy", pl.col("win_rate").alias("est"), pl.col("win_low").alias("low"),
                        pl.col("win_high").alias("high"))
    shown = _pct(summ, ["fair", "win_rate", "win_low", "win_high", "game_win_rate", "game_win_low", "game_win_high",
                        "game_fair"])
    best = summ.row(0, named=True)
    one_seat = bool((summ["games"] == summ["seat_results"]).all())
    if one_seat:  # no strategy held several seats: the game columns repeat the seat-result ones
        shown = shown.drop([c for c in shown.columns if c.startswith("game_")])
    return Section(
        "Win rate against the fair share",
        f"Win rate per seat-result with Wilson 95% intervals; the fair share is 1/{players} = {fair * 100:.1f}%. "
        f"Highest: {best['strategy']} with {best['win_rate'] * 100:.1f}% [{best['win_low'] * 100:.1f}, "
        f"{best['win_high'] * 100:.1f}] of {best['seat_results']:,} seat-results, {best['x_fair']:.2f} x fair. "
        "Mean rank, VP and margin (VP minus the best other seat) with Student-t 95% intervals. "
        + ("No strategy held several seats of a game, so games = seat-results and the game win rate equals the "
           "win rate (its columns are left out)." if one_seat else
           "Seat-results of one strategy in the same game are not independent when it holds several seats; the game "
           "win rate counts each game once."),
        [("fair_share", F.bar_with_interval(_labels(chart), "strategy", title="Win rate per seat-result (95% Wilson interval)",
                                            xlabel="win rate (%)", scale=100, ref=fair, ref_label="fair share"),
          "Win rate per seat-result against the fair share (dashed)")],
        [("Per strategy (rates in percent; x fair = win rate / fair share)", shown,
          TableFormat(decimals={"x_fair": 2, "mean_rank": 2, "game_fair": 1}))])


def _head_to_head_section(pw: pl.DataFrame, order: list[str]) -> Section:
    """"Head-to-head": the pairwise table ``pw`` (:func:`T.pairwise`) as a heatmap in strategy ``order`` and a table."""
    pw_shown = _pct(pw.drop("p").with_columns(pl.Series("games_needed", [games_to_resolve(p) for p in pw["est"].to_list()],
                                                        dtype=pl.Int64)), ["est", "low", "high"])
    return Section(
        "Head-to-head",
        "Cell (row, column): share of the games where both sit in which the row strategy's best seat finished ahead "
        "of the column strategy's best seat (a tie counts 1/2), Wilson 95% interval, n games. Every lineup uses the "
        "same seeds, so each cell is paired on common seeds and balanced over seat orders; row + column = 100%. "
        "games_needed: games of the pair for a 95% interval of the rate observed to exclude 50%. A cell is "
        f"resolved when its score-test p-value against 50%, {_holm_note(T.comparisons(pw))} (so with equally "
        "strong strategies the chance that any cell is called resolved is at most 5%).",
        [("head_to_head", heatmap(pw, order), "Head-to-head matrix (row ahead of column, %); bold: resolved "
          f"({_holm_note(T.comparisons(pw))}); grey: not resolved at this size")],
        [("Head-to-head (percent; est = row ahead)", pw_shown, TableFormat(missing={"games_needed": "-"}))])


def _ratings_section(g: pl.LazyFrame, resamples: int) -> Section:
    """"Ratings": Bradley-Terry strengths on the Elo scale with ``resamples`` bootstrap resamples of the seeds."""
    rt = T.ratings(g, resamples=resamples)
    rchart = rt.select("strategy", pl.col("rating").alias("est"), pl.col("rating_low").alias("low"),
                       pl.col("rating_high").alias("high"))
    return Section(
        "Ratings",
        f"Bradley-Terry strengths fitted on every pairwise finish of every game (MM algorithm), on the Elo scale "
        f"(400 log10 of the strength ratio; mean 0), with percentile bootstrap 95% intervals over {resamples} "
        "resamples of the seeds. A difference of 100 points means the higher one finishes ahead about 64% of the "
        "time; p_vs_mean is the chance of finishing ahead of a strategy rated 0.",
        [("ratings", F.bar_with_interval(_labels(rchart), "strategy", title="Bradley-Terry rating, Elo scale (95% bootstrap)",
                                         xlabel="rating (Elo points)", ref=0.0, ref_label="mean"), "Ratings")],
        [("Ratings (Elo points)", _pct(rt, ["p_vs_mean"]), TableFormat(decimals={"rating": 0, "p_vs_mean": 1}))])


def _seat_section(g: pl.LazyFrame, se: pl.DataFrame) -> Section:
    """"Seat effect": the pooled win rate by seat ``se`` (:func:`T.seat_effect`) and by strategy and seat."""
    chart = se.select("players", "seat", pl.col("win_rate").alias("est"), pl.col("win_low").alias("low"),
                      pl.col("win_high").alias("high"))
    st = T.seat_table(g)
    first = se.row(0, named=True)
    return Section(
        "Seat effect",
        "Win rate by seat with every strategy pooled, per player count. Every strategy sits in every seat equally "
        f"often, so this is the effect of the seat itself. Seat 1 (first player) wins {first['win_rate'] * 100:.1f}% "
        f"[{first['win_low'] * 100:.1f}, {first['win_high'] * 100:.1f}] against a fair {first['fair'] * 100:.1f}% "
        f"({first['seat_results']:,} seat-results).",
        [("seat_effect", F.seat_advantage_chart(chart), "Win rate by seat against the fair share (dashed)")],
        [("Seat effect (percent; seats from 1 = first player)",
          _pct(se, ["fair", "win_rate", "win_low", "win_high"]), TableFormat(decimals={"x_fair": 2})),
         ("Win rate by strategy and seat (percent)", _pct(st, ["fair", "win_rate", "win_low", "win_high"]))])


def _metagame_section(mg, table, players: int, in_mix: str, expl: str, dom: str, dom_open: str,
                      df: pl.DataFrame) -> Section:
    """"Metagame" of a complete payoff ``table``: its bootstrapped equilibrium ``mg`` and the words of it
    (:func:`_metagame_words`), with the mix chart, the metagame table and the payoff table."""
    solver = ("the maximin linear program of the constant-sum 2-seat game (scipy.optimize.linprog, exact)"
              if players == 2 else "replicator dynamics from the uniform mix (OpenSpiel's egt.dynamics)")
    return Section(
        "Metagame",
        f"Empirical payoff table: the mean win share per seat of each strategy in each profile (every lineup on "
        f"common seeds; a mirror match gives 1/{players} by symmetry). Symmetric Nash equilibrium mix by "
        f"{solver}: {in_mix}. Its exploitability (what a best response gains per seat over the mix's own "
        f"players) is {expl}. br_gain is each pure strategy's gain against the mix (0 or below for the "
        "strategies in it; br_gain_low/high: the same mix on the resamples). Alpha-rank (single "
        "population of 50, selection intensity 100): the share of time an evolving population spends on each "
        f"strategy. Strictly dominated (lower win share than another strategy against every profile of the "
        f"others) in at least {SETTLED * 100:.0f}% of resamples: {dom}{dom_open}; dominated_share is the share of "
        f"bootstrap resamples in which it is dominated by any strategy, dominated_by every strategy that dominates it "
        f"on the point estimates. Intervals: percentile bootstrap 95% over {mg.resamples} "
        "resamples of the seeds.",
        [("metagame", mix_chart([chart_label(x) for x in df["strategy"].to_list()],
                                [("Nash mix", df["nash"].to_numpy(), df["nash_low"].to_numpy(),
                                  df["nash_high"].to_numpy()),
                                 ("alpha-rank", df["alpha_rank"].to_numpy(), df["alpha_rank_low"].to_numpy(),
                                  df["alpha_rank_high"].to_numpy())],
                                "Equilibrium mix and alpha-rank (95% bootstrap)"),
          "Symmetric Nash equilibrium mix and alpha-rank mass with bootstrap intervals")],
        [("Metagame (percent)", _pct(df, _MG_PCT), _MG_FMT),
         ("Payoff table (mean win share per seat, percent; n = seat-results)", _payoff_frame(table),
          TableFormat(decimals={s: 1 for s in table.strategies}))])


def _metagame(g: pl.LazyFrame, strategies: list[str], players: int, where: str,
              resamples: int) -> tuple[Section, list[str]]:
    """The "Metagame" section and the answer sentences on the stable mix (the second, when the equilibrium is pure
    with 3+ strategies, on the mix of the others); with a profile not played, the section says which."""
    table, sums, cnt = T.payoff_data(g, strategies, players)
    if not table.complete:
        miss = table.missing
        return Section(
            "Metagame",
            f"The metagame needs the payoff of every profile (how many seats each strategy holds); "
            f"{len(miss)} were not played (e.g. seat counts {miss[0]} over {', '.join(strategies)}). At 3+ seats "
            "play the tournament with `--every-profile` (lineups in which a strategy holds several seats)."), [
            "Stable mix: not computed (the metagame needs every profile; see Metagame)."]
    mg = bootstrap_metagame(table, sums, cnt, resamples=resamples)
    df, in_mix, expl, dom, dom_open = _metagame_words(mg)
    answer = [(f"Stable mix (symmetric Nash equilibrium, 95% bootstrap interval) {where}: {in_mix}; exploitability "
               f"{expl}. Strictly dominated in at least {SETTLED * 100:.0f}% of resamples: {dom}{dom_open}.")]
    sec = _metagame_section(mg, table, players, in_mix, expl, dom, dom_open, df)
    top = int(np.argmax(mg.nash))
    if mg.nash[top] > 0.99 and mg.nash_low[top] > 0.99 and len(strategies) >= 3:
        # a pure equilibrium says nothing about the others: the stable mix among the rest

        rest = [x for x in strategies if x != strategies[top]]
        sub = bootstrap_metagame(*restrict(table, sums, cnt, rest), resamples=resamples)
        df2, mix2, expl2, dom2, open2 = _metagame_words(sub)
        answer.append(f"Without {strategies[top]} (the pure equilibrium), the stable mix of the others: {mix2}; "
                      f"strictly dominated among them in at least {SETTLED * 100:.0f}% of resamples: {dom2}{open2}.")
        sec.text += (f" Without {strategies[top]}: the equilibrium is pure {strategies[top]} in every "
                     f"resample, which says nothing about the other strategies, so the same analysis on the "
                     f"profiles of the others alone (the sub-game, same games): stable mix {mix2}; "
                     f"exploitability {expl2}; strictly dominated in at least {SETTLED * 100:.0f}% of "
                     f"resamples: {dom2}{open2}.")
        sec.tables.insert(1, (f"Metagame without {strategies[top]} (percent)", _pct(df2, _MG_PCT), _MG_FMT))
    return sec, answer


def _provenance_section(runs: Runs, meta: dict, full: dict) -> Section:
    """"Provenance": the strategies' full arguments (``full``: given id -> expanded), the tournament settings,
    every lineup with its status, the versions and the content and params hashes."""
    m0 = next(iter(runs.manifests.values()))
    expanded = ("Strategies with their full arguments: " + "; ".join(f"{k} = {v}" for k, v in full.items()) + ". "
                if full else "")
    return Section(
        "Provenance",
        expanded + f"Tournament settings: {json.dumps({k: v for k, v in meta.items() if k not in ('lineups', 'status', 'report')})}"
        ". Lineups: "
        + "; ".join(f"{n}: {', '.join(m['config']['strategies'])} ({m.get('status')})" for n, m in runs.manifests.items())
        + f". Versions {json.dumps(m0.get('versions', {}))}; content hash {m0['game'].get('content_hash')}, params hash "
          f"{m0['game'].get('params_hash')}.")


def sections(runs: Runs, meta: dict, *, resamples: int = 200) -> list[Section]:
    """The report sections of a tournament (see module docstring)."""
    g = T.as_given(runs)  # ids as given (heuristic:preset=FILE), not expanded into every argument
    full = {v: k for k, v in T.given_ids(runs).items()}
    # the ids in lineup order
    strategies = (g.filter(pl.col("game") == pl.col("game").min()).sort("run", "seat").select("strategy")
                  .collect()["strategy"].unique(maintain_order=True).to_list())
    players = int(meta["players"])
    summ = T.summary_table(g)
    n_games = int(g.select(pl.struct("run", "game").n_unique()).collect().item())
    n_seat = int(g.select(pl.len()).collect().item())
    lineups = len(runs.manifests)
    secs = [Section("Tournament",
                    f"{meta['game']}: strategies {', '.join(strategies)} at {players} seats; {lineups} lineups "
                    f"(every seat arrangement{', every profile' if meta.get('every_profile') else ''}) of "
                    f"{meta['games_per_lineup']:,} games each (games per lineup) on seed {meta['seed']}: "
                    f"{n_games:,} games, {n_seat:,} seat-results.\n" + WORDS)]
    secs.append(_win_rate_section(summ, players))
    pw = T.pairwise(g)
    secs.append(_head_to_head_section(pw, summ["strategy"].to_list()))
    secs.append(_ratings_section(g, resamples))
    se = T.seat_effect(g)
    secs.append(_seat_section(g, se))

    arrangement = "every seat arrangement" + (", every profile" if meta.get("every_profile") else "")
    where = field_words(strategies, n_games, f"{players} seats, {arrangement}")
    answer = [f"Every answer here holds {where}.", dominance_answer(summ, pw, where), DEFINITION]
    metagame, mix_answer = _metagame(g, strategies, players, where, resamples)
    secs.append(metagame)
    answer += mix_answer
    answer.append(seat_answer(se).replace("Seat effect:", f"Seat effect (every strategy of the field pooled, {where}):", 1))
    answer.append(SCOPE)
    secs.insert(1, Section("Answer", " ".join(answer) + " Details and intervals in the sections below."))
    secs.append(_provenance_section(runs, meta, full))
    return secs


def _payoff_frame(table) -> pl.DataFrame:
    rows = []
    for r, c in enumerate(table.counts):
        row = {"profile": ", ".join(f"{int(n)}x {s}" for s, n in zip(table.strategies, c) if n)}
        for i, s in enumerate(table.strategies):
            row[s] = float(table.payoffs[r, i] * 100) if c[i] else None
        row["n"] = int(table.seat_results[r].sum())
        rows.append(row)
    return pl.DataFrame(rows)


def build_tournament_report(out: Path | str, dest: Path | str | None = None, *, resamples: int = 200,
                            progress: bool = False) -> Path:
    """Write ``dest`` (default ``out/report``) for the tournament in ``out``; returns the HTML path.
    ``progress`` draws a bar on stderr (:func:`meeplelab.analysis.report.build_report`). ``tournament.json`` is not
    changed here (:func:`meeplelab.play.tournament.write_report` records the report in it).

    Raises:
        RunFolderError: not a tournament folder, or its lineups hold no games.
    """
    out = Path(out)
    folders = lineup_folders(out)

    if not folders:
        raise RunFolderError(f"tournament {str(out)!r} holds no lineup runs yet: run it (or --resume it) first")
    return build_report(folders, Path(dest) if dest is not None else out / "report",
                        sections=tournament_sections(out, resamples=resamples), kind="tournament",
                        progress=progress)


__all__ = ["CELL_TEXT", "SETTLED", "WORDS", "build_tournament_report", "cell_text_colour", "chart_label",
           "dominance_answer", "games_to_resolve", "heatmap", "mix_chart", "seat_answer", "sections",
           "tournament_sections"]
