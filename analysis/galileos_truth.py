"""Galileo's Truth: when to Abjure.

Tidy polars tables with 95% intervals (Wilson for rates, Student-t for means) and one chart per
table. ``SECTIONS = [abjure_sections]`` is what ``meeplelab report`` adds for this game.

One observation is one seat in one game ("seat-result"). A seat's Abjure Cycle comes from the
``abjure`` event (its ``cycle``; ``amount`` = other Copernicans hit); seats without one are
``never``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
import polars as pl
from meeplelab.sim.galileos_truth.content import CK_PENANCE
from meeplelab.sim.galileos_truth.state import Z_HAND

from . import figures as F
from .content import content_sections
from .drawn import DrawnKind, Draws, drawn_sections
from .load import Runs, load_runs
from .page import Section, TableFormat
from .reconcile import Context, Figure, Reading, mix, state_before
from .stats import mean_t, mean_t_from_moments, paired_shares, wilson
from .seats import seating_mode

CYCLE_ORDER = ["1", "2", "3", "4", "never"]
KEYS = ["run", "game", "seat"]


# ====================================================================== tables

def _rate_and_mean(df: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Per group: games, wins, win rate (Wilson) and mean VP (t)."""
    g = (df.group_by(by, maintain_order=True).agg(pl.len().alias("games"), pl.col("win_share").sum().alias("wins"),
                             pl.col("vp").mean().alias("vp_mean"), pl.col("vp").std().alias("vp_sd"))
         .sort(by))
    p, lo, hi = wilson(g["wins"].to_numpy(), g["games"].to_numpy())
    m, mlo, mhi = mean_t_from_moments(g["vp_mean"].to_numpy(), g["vp_sd"].fill_null(0).to_numpy(),
                                      g["games"].to_numpy())
    return g.with_columns(pl.Series("win_rate", p), pl.Series("win_low", lo), pl.Series("win_high", hi),
                          pl.Series("vp", m), pl.Series("vp_low", mlo), pl.Series("vp_high", mhi)).drop(
        "vp_mean", "vp_sd")


def abjure_table(runs: Runs) -> pl.DataFrame:
    """One row per seat-result: ``run, game, seat, strategy, vp, win_share, margin``, and
    ``abjure_cycle`` (int, null = never), ``abjured`` ("1".."4" or "never"), ``copernicans_hit``
    and ``abjure_turn`` (the game turn of the Abjure, null = never)."""
    ab = (runs.events.filter(pl.col("kind") == "abjure")
          .select(*KEYS, pl.col("cycle").cast(pl.Int64).alias("abjure_cycle"),
                  pl.col("amount").cast(pl.Int64).alias("copernicans_hit"),
                  pl.col("turn").cast(pl.Int64).alias("abjure_turn"))
          .with_columns(pl.col("seat").cast(pl.Int64)))
    g = runs.games.select(*KEYS, "strategy", "vp", "win_share", "margin").with_columns(pl.col("seat").cast(pl.Int64))
    df = g.join(ab, on=KEYS, how="left").collect()
    return df.with_columns(pl.col("abjure_cycle").cast(pl.String).fill_null("never").alias("abjured")).sort(KEYS)


def outcome_by_abjure_cycle(runs: Runs, by_strategy: bool = False) -> pl.DataFrame:
    """Win rate and final VP by the Cycle of Abjure (1-4, never), per seat-result:
    ``abjured, [strategy,] games, wins, win_rate, win_low, win_high, vp, vp_low, vp_high``."""
    df = abjure_table(runs)
    by = ["abjured"] + (["strategy"] if by_strategy else [])
    out = _rate_and_mean(df, by)
    order = {c: i for i, c in enumerate(CYCLE_ORDER)}
    return out.with_columns(pl.col("abjured").replace_strict(order, default=99).alias("_o")).sort(
        ["_o"] + by[1:]).drop("_o")


def suspicion_by_cycle(runs: Runs) -> pl.DataFrame:
    """Mean end-of-Cycle Suspicion (the seat's last turn of each Cycle) by Cycle and Abjure Cycle:
    ``abjured, cycle, n, est, low, high``."""
    t = (runs.turns.select(*KEYS, pl.col("round").cast(pl.Int64).alias("cycle"), "turn", "suspicion_after")
         .with_columns(pl.col("seat").cast(pl.Int64)).collect())
    last = t.sort("turn").group_by(*KEYS, "cycle", maintain_order=True).agg(pl.col("suspicion_after").last().alias("susp"))
    lab = abjure_table(runs).select(*KEYS, "abjured")
    d = last.join(lab, on=KEYS)
    g = d.group_by("abjured", "cycle", maintain_order=True).agg(pl.len().alias("n"), pl.col("susp").mean().alias("m"),
                                           pl.col("susp").std().alias("sd")).sort("abjured", "cycle")
    m, lo, hi = mean_t_from_moments(g["m"].to_numpy(), g["sd"].fill_null(0).to_numpy(), g["n"].to_numpy())
    return g.with_columns(pl.Series("est", m), pl.Series("low", lo), pl.Series("high", hi)).drop("m", "sd")


def suspicion_around_abjure(runs: Runs, window: int = 6) -> pl.DataFrame:
    """Mean Suspicion after each of the abjurer's own turns, relative to the Abjure turn
    (0 = the Abjure itself, -1 = the turn before...), ``|rel| <= window``, by Abjure Cycle:
    ``abjured, rel_turn, n, est, low, high``."""
    t = (runs.turns.select(*KEYS, "turn", "main_action", "suspicion_after")
         .with_columns(pl.col("seat").cast(pl.Int64)).collect().sort(*KEYS, "turn"))
    t = t.with_columns(pl.int_range(pl.len()).over(KEYS).alias("k"))
    at = t.filter(pl.col("main_action") == "abjure").select(*KEYS, pl.col("k").alias("k0"))
    d = t.join(at, on=KEYS).with_columns((pl.col("k") - pl.col("k0")).alias("rel_turn"))
    d = d.filter(pl.col("rel_turn").abs() <= window).join(abjure_table(runs).select(*KEYS, "abjured"), on=KEYS)
    g = d.group_by("abjured", "rel_turn", maintain_order=True).agg(pl.len().alias("n"), pl.col("suspicion_after").mean().alias("m"),
                                              pl.col("suspicion_after").std().alias("sd")).sort("abjured", "rel_turn")
    m, lo, hi = mean_t_from_moments(g["m"].to_numpy(), g["sd"].fill_null(0).to_numpy(), g["n"].to_numpy())
    return g.with_columns(pl.Series("est", m), pl.Series("low", lo), pl.Series("high", hi)).drop("m", "sd")


def copernicans_hit_effect(runs: Runs) -> pl.DataFrame:
    """The abjurer's outcome by the number of other Copernicans its Abjure hit:
    ``copernicans_hit, games, wins, win_rate, win_low, win_high, vp, vp_low, vp_high``."""
    df = abjure_table(runs).filter(pl.col("copernicans_hit").is_not_null())
    return _rate_and_mean(df, ["copernicans_hit"])


def by_strategy(runs: Runs) -> pl.DataFrame:
    """Per strategy: win rate, VP (intervals) and the share of its seat-results that Abjured
    (Wilson), with the mean Abjure Cycle: ``strategy, games, ..., abjure_rate, abjure_low,
    abjure_high, mean_abjure_cycle``."""
    df = abjure_table(runs)
    out = _rate_and_mean(df, ["strategy"])
    ab = df.group_by("strategy", maintain_order=True).agg(pl.col("abjure_cycle").is_not_null().sum().alias("abjurers"),
                                     pl.col("abjure_cycle").mean().alias("mean_abjure_cycle"))
    out = out.join(ab, on="strategy")
    p, lo, hi = wilson(out["abjurers"].to_numpy(), out["games"].to_numpy())
    return out.with_columns(pl.Series("abjure_rate", p), pl.Series("abjure_low", lo),
                            pl.Series("abjure_high", hi)).sort("strategy")


def paired_vs_never(run_a: Path | str, run_b: Path | str, seat: int) -> pl.DataFrame:
    """Paired comparison of ``seat`` between two runs on common seeds (same seed, same game
    indices; ``run_b`` is usually the never-abjure baseline): per game ``a - b`` of the seat's VP
    and win share, mean with a t interval.

    Returns:
        ``metric ("vp", "win"), strategy_a, strategy_b, n, est, low, high, mean_a, mean_b``.

    Raises:
        ValueError: the runs have different seeds or no game in common.
    """
    ra, rb = load_runs([run_a]), load_runs([run_b])
    ma, mb = next(iter(ra.manifests.values())), next(iter(rb.manifests.values()))
    if ma["config"]["seed"] != mb["config"]["seed"]:
        raise ValueError(f"paired comparison needs a common seed: {ma['config']['seed']} vs {mb['config']['seed']}")

    def seat_rows(r: Runs) -> pl.DataFrame:
        return (r.games.filter(pl.col("seat") == seat).select("game", "strategy", "vp", "win_share").collect())

    a, b = seat_rows(ra), seat_rows(rb)
    j = a.join(b, on="game", suffix="_b")
    if j.height == 0:
        raise ValueError("the runs have no game in common")
    rows = []
    for metric, col in (("vp", "vp"), ("win", "win_share")):
        x = j[col].to_numpy().astype(float)
        y = j[f"{col}_b"].to_numpy().astype(float)
        if metric == "win":  # win shares: Agresti-Min adjusted Wald (real width with no discordant game)
            pr = paired_shares(x, y)
            est, lo, hi = pr["est"], pr["low"], pr["high"]
        else:
            est, lo, hi = mean_t(x - y)
        rows.append({"metric": metric, "strategy_a": str(j["strategy"][0]), "strategy_b": str(j["strategy_b"][0]),
                     "n": j.height, "est": est, "low": lo, "high": hi, "mean_a": float(x.mean()),
                     "mean_b": float(y.mean())})
    return pl.DataFrame(rows)


def paired_pairs(runs: Runs) -> list[tuple[str, str, int]]:
    """Pairs ``(run_a, run_b, seat)`` among ``runs`` with fixed seats that share seed, games and players
    and differ in exactly one seat's strategy, ``run_b``'s being ``never-abjure``. Rotated runs are
    compared by :mod:`meeplelab.analysis.experiment` (their seat 0 holds a different strategy in each seat order)."""
    out = []
    items = [(n, m) for n, m in runs.manifests.items() if seating_mode(m) == "fixed"]
    for na, ma in items:
        for nb, mb in items:
            ca, cb = ma["config"], mb["config"]
            if na == nb or any(ca[k] != cb[k] for k in ("seed", "games", "players")):
                continue
            sa, sb = list(ca["strategies"]), list(cb["strategies"])
            if len(sa) != len(sb):
                continue
            diff = [i for i in range(len(sa)) if sa[i] != sb[i]]
            if len(diff) == 1 and sb[diff[0]] == "never-abjure":
                out.append((na, nb, diff[0]))
    return out


# ====================================================================== charts

def outcome_chart(df: pl.DataFrame, what: str = "win_rate", fair: float | None = None):
    """Bars of the win rate (percent) or mean VP by Abjure Cycle, with intervals."""
    lo, hi = ("win_low", "win_high") if what == "win_rate" else ("vp_low", "vp_high")
    d = df.select(pl.col("abjured").cast(pl.String), pl.col(what).alias("est"), pl.col(lo).alias("low"),
                  pl.col(hi).alias("high"))
    if what == "win_rate":
        fig = F.bar_with_interval(d, "abjured", title="Win rate by Cycle of Abjure (descriptive)",
                                  xlabel="win rate (%)", scale=100, ref=fair, ref_label="fair share")
    else:
        fig = F.bar_with_interval(d, "abjured", title="Final VP by Cycle of Abjure (descriptive)", xlabel="VP")
    fig.axes[0].set_ylabel("Cycle of Abjure (never = stayed Copernican)")
    return fig


def trajectory_chart(df: pl.DataFrame, x: str = "cycle"):
    """Mean Suspicion with 95% bands, one line per Abjure Cycle (``x``: ``cycle`` or ``rel_turn``)."""
    labels = [c for c in CYCLE_ORDER if c in set(df["abjured"].to_list())]
    xs = np.array(sorted(set(df[x].to_list())))
    est = np.full((len(labels), xs.size), np.nan)
    low, high = est.copy(), est.copy()
    for i, lab in enumerate(labels):
        sub = df.filter(pl.col("abjured") == lab)
        pos = np.searchsorted(xs, sub[x].to_numpy())
        est[i, pos] = sub["est"].to_numpy()
        low[i, pos] = sub["low"].fill_nan(None).fill_null(sub["est"]).to_numpy()
        high[i, pos] = sub["high"].fill_nan(None).fill_null(sub["est"]).to_numpy()
    title = "Suspicion by Cycle" if x == "cycle" else "Suspicion around the Abjure turn"
    xlabel = "Cycle (end of the seat's last turn)" if x == "cycle" else "seat's turns relative to the Abjure"
    return F.line_with_band(xs, est, low, high, title=title, xlabel=xlabel, ylabel="Suspicion",
                            labels=[f"abjured: {lab}" for lab in labels])


def copernicans_chart(df: pl.DataFrame, fair: float | None = None):
    """Abjurer's win rate by the number of Copernicans its Abjure hit."""
    d = df.select(pl.col("copernicans_hit").cast(pl.String), pl.col("win_rate").alias("est"),
                  pl.col("win_low").alias("low"), pl.col("win_high").alias("high"))
    fig = F.bar_with_interval(d, "copernicans_hit", title="Abjurer's win rate by Copernicans hit",
                              xlabel="win rate (%)", scale=100, ref=fair, ref_label="fair share")
    fig.axes[0].set_ylabel("other Copernicans hit by the Abjure")
    return fig


def paired_chart(df: pl.DataFrame):
    """Paired VP difference (a - never) per comparison, with t intervals."""
    d = df.filter(pl.col("metric") == "vp").select(
        (pl.col("strategy_a") + " - " + pl.col("strategy_b")).alias("pair"), "est", "low", "high")
    return F.bar_with_interval(d, "pair", title="Paired VP difference vs never-abjure (same seeds)",
                               xlabel="VP difference", ref=0.0, ref_label="no difference")


def strategy_chart(df: pl.DataFrame, fair: float | None = None):
    """Win rate by strategy with Wilson intervals."""
    d = df.select("strategy", pl.col("win_rate").alias("est"), pl.col("win_low").alias("low"),
                  pl.col("win_high").alias("high"))
    fig = F.bar_with_interval(d, "strategy", title="Win rate by strategy", xlabel="win rate (%)", scale=100,
                              ref=fair, ref_label="fair share")
    fig.axes[0].set_ylabel("strategy")
    return fig


# ====================================================================== report section

def _pct(df: pl.DataFrame, cols: Sequence[str]) -> pl.DataFrame:
    return df.with_columns([(pl.col(c) * 100).round(1) for c in cols if c in df.columns])


def _fair(runs: Runs) -> float | None:
    """The fair share 1/players when every run has the same player count (else no line)."""
    players = {int(m["config"]["players"]) for m in runs.manifests.values()}
    return 1.0 / players.pop() if len(players) == 1 else None


def abjure_sections(runs: Runs) -> list[Section]:
    """The "Abjure timing" report sections."""
    out = abjure_table(runs)
    n_ab = int(out["abjure_cycle"].is_not_null().sum())
    rate_cols = ("win_rate", "win_low", "win_high", "abjure_rate", "abjure_low", "abjure_high")
    by_cycle = outcome_by_abjure_cycle(runs)
    secs = []
    text = (f"{out.height} seat-results, {n_ab} of them Abjured. Win rate (Wilson 95%) and final VP (t 95%) "
            f"by the Cycle in which the seat Abjured; 'never' = stayed Copernican. Descriptive: groups differ by "
            f"strategy and seat (strategies choose when to Abjure). The effect of Abjure timing is measured by "
            f"`meeplelab experiment --control never-abjure --vary abjure-at.cycle=1,2,3,4` (paired, same seeds, "
            f"every seat order).")
    fair = _fair(runs)
    figs = [("abjure_win_rate", outcome_chart(by_cycle, fair=fair), "Win rate by Cycle of Abjure (95% Wilson)."),
            ("abjure_vp", outcome_chart(by_cycle, "vp"), "Final VP by Cycle of Abjure (95% t).")]
    tables = [("Outcome by Cycle of Abjure (rates in %)", _pct(by_cycle, rate_cols), TableFormat(labels=ABJURE_LABELS)),
              ("Outcome by Cycle of Abjure and strategy (rates in %)",
               _pct(outcome_by_abjure_cycle(runs, by_strategy=True), rate_cols), TableFormat(labels=ABJURE_LABELS))]
    secs.append(Section("Abjure timing: outcome by Cycle (descriptive: groups differ by strategy and seat)", text,
                        figs, tables))

    traj = suspicion_by_cycle(runs)
    figs = [("abjure_suspicion_cycle", trajectory_chart(traj), "Mean end-of-Cycle Suspicion (95% t bands).")]
    around = suspicion_around_abjure(runs)
    if around.height:
        figs.append(("abjure_suspicion_rel", trajectory_chart(around, "rel_turn"),
                     "Mean Suspicion after the abjurer's own turns around the Abjure (0 = Abjure)."))
    secs.append(Section("Abjure timing: Suspicion before and after (descriptive: groups differ by strategy and seat)",
                        "Suspicion trajectory of seats by their Abjure Cycle, from the turns table "
                        "(suspicion_after).", figs, [("Mean end-of-Cycle Suspicion", traj)]))

    cop = copernicans_hit_effect(runs)
    if cop.height:
        secs.append(Section("Abjure timing: Copernicans hit (descriptive: groups differ by strategy and seat)",
                            "The abjurer's outcome by how many other Copernicans its Abjure raised (+1 Suspicion "
                            "each).", [("abjure_copernicans", copernicans_chart(cop, _fair(runs)), "Win rate by Copernicans hit.")],
                            [("Outcome by Copernicans hit (rates in %)", _pct(cop, rate_cols),
                              TableFormat(labels=ABJURE_LABELS))]))

    pairs = paired_pairs(runs)
    if pairs:
        df = pl.concat([paired_vs_never(runs.paths[a], runs.paths[b], s).with_columns(
            pl.lit(a).alias("run_a"), pl.lit(b).alias("run_b"), pl.lit(s).alias("seat")) for a, b, s in pairs])
        win = pl.col("metric") == "win"  # win-share differences in percentage points, as the other rates
        shown = df.with_columns([pl.when(win).then((pl.col(c) * 100).round(1)).otherwise(pl.col(c)).alias(c)
                                 for c in ("est", "low", "high", "mean_a", "mean_b")])
        secs.append(Section("Abjure timing: paired against never-abjure",
                            "Runs on common seeds that differ only in one seat's strategy: mean per-game difference "
                            "(strategy minus never-abjure) in that seat's VP and win share, 95% t intervals.",
                            [("abjure_paired", paired_chart(df), "Paired VP difference vs never-abjure.")],
                            [("Paired differences (vp in VP, win in percentage points)", shown,
                              TableFormat(labels={"est": "difference (strategy minus never-abjure)",
                                                  "mean_a": "strategy's mean", "mean_b": "never-abjure's mean",
                                                  "run_a": "strategy's run", "run_b": "never-abjure's run"}))]))
    else:
        st = by_strategy(runs)
        secs.append(Section("Abjure timing: strategies compared",
                            "No paired never-abjure run in this report: per-strategy win rate, VP and Abjure rate "
                            "within the run(s).", [("abjure_strategies", strategy_chart(st, _fair(runs)), "Win rate by strategy.")],
                            [("Per strategy (rates in %; the mean Abjure Cycle over the seat-results that Abjured)",
                              _pct(st, rate_cols), TableFormat(missing={"mean_abjure_cycle": "never"},
                                                               labels=ABJURE_LABELS, rank="win_rate"))]))
    return secs


#: headers of the Abjure tables (rates in percent)
ABJURE_LABELS = {"win_rate": "win rate %", "abjure_rate": "Abjure rate %", "abjure_low": "Abjure 95% low",
                 "abjure_high": "Abjure 95% high", "mean_abjure_cycle": "mean Abjure Cycle", "abjurers": "abjurers"}


def _opening_hand(engine, state) -> np.ndarray:
    """``bool[B, P, card types]``: the cards in each seat's hand at the first decision (Cycle 1's hand, A-GT-04)."""
    hand = state.czone == Z_HAND
    out = np.zeros(hand.shape[:2] + (len(engine.content.card_ids),), bool)
    b, p, s = np.nonzero(hand)
    out[b, p, state.ctype[b, p, s]] = True
    return out


def _basic_cards(content) -> list[str | None]:
    """The starting deck's card types by card type index (None for the others)."""
    basic = {int(i) for i in content.arrays.BASIC_CARDS}
    return [c if i in basic else None for i, c in enumerate(content.card_ids)]


def _penance_cards(content) -> list[str | None]:
    """The Penance card types by card type index (None for the Treatise cards)."""
    kind = content.arrays.CARD_KIND
    return [c if int(kind[i]) == CK_PENANCE else None for i, c in enumerate(content.card_ids)]


#: what a seat draws at random (the drawn-card table, :mod:`meeplelab.analysis.drawn`): the opening hand of Cycle 1
#: (k = the deal before the first decision; later hands are not logged and hold the Treatises the seat chose to
#: write) and the Penance cards gained (k = the whole game: they are rare)
DRAWS = Draws(
    kinds=(
        DrawnKind("card", "Starting-deck card in the opening hand", _basic_cards,
                  "in the seat's hand of Cycle 1 (the 5 cards dealt from its shuffled starting deck before the first "
                  "decision; rebuilt from the game seed)", 0, setup=_opening_hand,
                  note="random: every seat shuffles the same starting deck, before any decision"),
        DrawnKind("penance", "Penance card", _penance_cards, "gained in the game (event penance, category gained)",
                  None, events=("penance",), categories=("gained",),
                  within_kind=True, note="which Penance card is random (the shuffled supply), gaining one is not "
                  "(Suspicion at the threshold): compared among the seats that gained a Penance"),
    ),
    chosen="Inventions (taken from the face-up Workshop), Treatise cards written or copied (chosen from the boards) "
           "and Observation tiles (one kept of two drawn) are chosen, not drawn: they are left out (their descriptive "
           "figures are in the content-strength table)",
)

SECTIONS = [abjure_sections, content_sections, drawn_sections]

#: restricted play asks an experiment's scripted focal arms of the strong player (``meeplelab stronger``,
#: :mod:`meeplelab.analysis.restricted_answers`): a scripted focal strategy id (a regular expression, matched whole; its
#: named groups fill the suffixes) -> the restriction suffixes asking the same question ("" = the player unrestricted).
#: ``abjure-at:cycle=N`` abjures in Cycle N whatever its Suspicion: the strong player forced to Abjure in Cycle N.
RESTRICTED = {r"never-abjure": ("never:abjure",),
              r"abjure-at:cycle=(?P<cycle>\d+)": ("force:abjure@cycle=={cycle}",)}


# ====================================================================== descriptive against causal

def _abjure_figure(runs: Runs, ctx: Context) -> Figure | None:
    """Descriptive: win rate of the seat-results that abjured in Cycle ``ctx.groups['cycle']`` minus that of those
    that never abjured (percentage points; the pooled runs, as the report's outcome-by-Cycle table)."""
    out = outcome_by_abjure_cycle(runs)
    c = out.filter(pl.col("abjured") == ctx.groups["cycle"])
    n = out.filter(pl.col("abjured") == "never")
    if c.height == 0 or n.height == 0:
        return None
    c, n = (_pct(d, ["win_rate", "win_low", "win_high"]).row(0, named=True) for d in (c, n))
    apart = c["win_low"] > n["win_high"] or c["win_high"] < n["win_low"]
    d = c["win_rate"] - n["win_rate"]
    return Figure(d, float("nan"), float("nan"), bool(apart),
                  f"seats that abjured in Cycle {ctx.groups['cycle']} won {c['win_rate']:.1f}% "
                  f"[{c['win_low']:.1f}, {c['win_high']:.1f}] against {n['win_rate']:.1f}% "
                  f"[{n['win_low']:.1f}, {n['win_high']:.1f}] for seats that never abjured ({d:+.1f} points, "
                  f"{c['games']:,} and {n['games']:,} seat-results)")


def _abjure_selection(runs: Runs, ctx: Context) -> str:
    """Selection: who abjured in that Cycle against who never did, the plan's own win rate without the Abjure
    (the control), and VP at the Abjure turn against the other seats of those games."""
    cyc = int(ctx.groups["cycle"])
    t = abjure_table(runs)
    ev = (runs.events.filter((pl.col("kind") == "abjure") & (pl.col("cycle").cast(pl.Int64) == cyc))
          .select("run", "game", "seat", "turn").collect())
    vp, vp_o, k = state_before(runs, ev, "vp_after")
    sus, sus_o, _ = state_before(runs, ev, "suspicion_after")
    never = t.filter(pl.col("abjured") == "never")
    return (f"who abjures in Cycle {cyc} is not who never does ({mix(t.filter(pl.col('abjured') == str(cyc)))}, "
            f"the same plan without the Abjure won {ctx.effect['mean_control']:.1f}% in the control; the never group is "
            f"{never.height:,} seat-results of {never['strategy'].n_unique()} strategies), and before the Abjure turn "
            f"the {k:,} abjurers held {vp:.1f} VP and {sus:.1f} Suspicion against {vp_o:.1f} VP and {sus_o:.1f} "
            f"Suspicion for the other seats of their games")


#: a descriptive and a causal figure of the same question (:mod:`meeplelab.analysis.reconcile`): an arm forcing the
#: Abjure in Cycle N against the report's outcome-by-Cycle-of-Abjure win rates (Cycle N against never)
RECONCILE = (Reading(r"abjure-at:cycle=(?P<cycle>\d+)", "win", "selection", _abjure_figure, _abjure_selection),)
