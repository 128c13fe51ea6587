"""Unconscious Mind analyses: VP per Coffee (by purchase, phase, strategy, seat) and Treatise citation payoffs.

Every table function takes :class:`meeplelab.analysis.load.Runs` and returns a tidy ``polars.DataFrame`` with
``est``/``low``/``high`` (95%): ratios of sums with a percentile bootstrap over games, means with Student-t
intervals, rates with Wilson intervals. Each has a chart function returning a matplotlib Figure.
``SECTIONS`` feeds ``meeplelab report``.

Attribution of VP to Coffee (stated in the report): a turn's VP (the turns table's ``vp_gained``, equal to
the seat's VP events in that turn) is split over the purchases of that turn in proportion to the Coffee each
took (the ``coffee_spend`` events: tile action at cost 1/2/3, conversions, others). VP in turns without
Coffee spent, and end-of-game scoring, are not attributed.
"""

from __future__ import annotations

import math
import re

import numpy as np
import polars as pl
from meeplelab.sim.unconscious_mind.codes import L_HAND

from . import figures as F
from .content import content_sections
from .drawn import DrawnKind, Draws, drawn_sections
from .focal import match_entry
from .load import Runs
from .metrics import _with_t
from .page import Section, TableFormat, fmt_number
from .reconcile import Context, Figure, Reading, per_seat_game
from .stats import bootstrap, resolution, sd_floor

PURCHASES = ("tile_cost_1", "tile_cost_2", "tile_cost_3", "conversion", "other")
PHASES = ("early", "middle", "late")
KEY = ["run", "game"]


# ------------------------------------------------------------------ helpers
def _seat_info(runs: Runs) -> pl.LazyFrame:
    return runs.games.select("run", "game", "seat", "strategy", "rounds", "players")


def _ratio_boot(df: pl.DataFrame, by: list[str], num: str, den: str, cluster: list[str], *, resamples: int = 400,
                seed: int = 0) -> pl.DataFrame:
    """``sum(num) / sum(den)`` per group with a percentile bootstrap over clusters (games)."""
    cluster = [c for c in cluster if c not in by]
    # a fixed order of games within a group, and one generator per group keyed by the group: the resamples
    # fall on the same games in every run, so the interval is the same on the same games
    per = df.group_by(by + cluster, maintain_order=True).agg(pl.col(num).sum(), pl.col(den).sum()).sort(by + cluster)
    rows = []
    for key, sub in per.group_by(by, maintain_order=True):
        x = sub[num].to_numpy().astype(float)
        y = sub[den].to_numpy().astype(float)
        est = x.sum() / y.sum() if y.sum() > 0 else np.nan
        lo = hi = np.nan
        if x.size >= 2 and y.sum() > 0:
            def ratio(i, axis=-1, x=x, y=y):
                ys = y[i].sum(axis=axis)
                return np.where(ys > 0, x[i].sum(axis=axis) / np.maximum(ys, 1e-12), np.nan)

            # no spread over the resamples (every game the same ratio): keep the width of the numerator's
            # recorded resolution (sd floor, meeplelab.analysis.stats.sd_floor) over the mean denominator
            h = 1.96 * sd_floor(resolution(x)) / np.sqrt(x.size) / (y.sum() / x.size)
            b = bootstrap(x.size, ratio, purpose=f"ratio {num}/{den}", seed=(seed, *map(str, key)), resamples=resamples,
                          center=est, floor=h)
            lo, hi = b.low, b.high
        rows.append({**dict(zip(by, key)), "games": x.size, num: float(x.sum()), den: float(y.sum()),
                     "est": float(est), "low": float(lo), "high": float(hi)})
    if not rows:
        return pl.DataFrame(schema={**{b: pl.String for b in by}, "games": pl.Int64, num: pl.Float64,
                                    den: pl.Float64, "est": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    return pl.DataFrame(rows).sort(by)


def _mean_t(df: pl.DataFrame, by: list[str], value: str) -> pl.DataFrame:
    out = df.group_by(by, maintain_order=True).agg(pl.len().alias("n"), pl.col(value).mean().alias("mean"),
                              pl.col(value).std().alias("sd")).sort(by)
    return _with_t(out, "mean", "sd", "n")


def _label(df: pl.DataFrame, cols) -> pl.DataFrame:
    """A ``label`` column joining ``cols`` for chart axes; seats numbered from 1 (``seat 1`` = first player)."""
    parts = [pl.format("seat {}", pl.col(c).cast(pl.Int64) + 1) if c == "seat" else pl.col(c).cast(pl.String)
             for c in cols]
    return df.with_columns(pl.concat_str(parts, separator=" / ").alias("label"))


# ------------------------------------------------------------------ VP per Coffee
def coffee_purchases(runs: Runs) -> pl.DataFrame:
    """One row per (run, game, turn, seat, purchase): Coffee spent on it and the turn's VP attributed to it.

    Columns: run, game, turn, seat, strategy, round, phase, purchase, coffee, vp.
    ``purchase``: tile_cost_1/2/3 (stack / center / right tile action), conversion, other.
    """
    ev = (runs.events.filter(pl.col("kind") == "coffee_spend")
          .with_columns(pl.when(pl.col("category") == "tile_cost")
                        .then(pl.format("tile_cost_{}", pl.col("item").cast(pl.Int64) + 1))
                        .when(pl.col("category") == "conversion").then(pl.lit("conversion"))
                        .otherwise(pl.lit("other")).alias("purchase"))
          .group_by(KEY + ["turn", "seat", "purchase"], maintain_order=True)
          .agg(pl.col("amount").cast(pl.Int64).sum().alias("coffee")))
    turns = runs.turns.select(KEY + ["turn", "seat", "round", pl.col("coffee_spent").cast(pl.Int64),
                                     pl.col("vp_gained").cast(pl.Int64)])
    # the end-trigger bonus is scored in the turn that ends the game, not bought with that turn's Coffee
    bonus = (runs.events.filter((pl.col("kind") == "vp") & (pl.col("category") == "end_trigger"))
             .group_by(KEY + ["turn", "seat"], maintain_order=True).agg(pl.col("amount").cast(pl.Int64).sum().alias("_bonus")))
    turns = (turns.join(bonus, on=KEY + ["turn", "seat"], how="left")
             .with_columns((pl.col("vp_gained") - pl.col("_bonus").fill_null(0)).alias("vp_gained")).drop("_bonus"))
    df = (ev.join(turns, on=KEY + ["turn", "seat"], how="inner")
          .join(_seat_info(runs), on=KEY + ["seat"], how="left")
          .with_columns((pl.col("vp_gained") * pl.col("coffee") / pl.col("coffee_spent")).alias("vp"),
                        pl.min_horizontal(pl.lit(2), ((pl.col("round").cast(pl.Int64) - 1) * 3)
                                          // pl.max_horizontal(pl.col("rounds").cast(pl.Int64), pl.lit(1)))
                        .alias("phase_i"))
          .with_columns(pl.col("phase_i").replace_strict(list(range(3)), list(PHASES), default="late").alias("phase"))
          .select("run", "game", "turn", "seat", "strategy", pl.col("round").cast(pl.Int64), "phase", "purchase",
                  "coffee", "vp")
          .sort("run", "game", "turn", "purchase"))
    return df.collect()


def vp_per_coffee(runs: Runs, by: tuple[str, ...] = ("purchase",), *, purchases: pl.DataFrame | None = None,
                  resamples: int = 400) -> pl.DataFrame:
    """VP per Coffee spent (sum of attributed VP / sum of Coffee) by ``by`` (any of purchase, phase,
    strategy, seat), with a percentile bootstrap interval over games.

    Columns: ``*by, games, vp, coffee, est, low, high``.
    """
    df = purchases if purchases is not None else coffee_purchases(runs)
    return _ratio_boot(df, list(by), "vp", "coffee", ["run", "game", "seat"], resamples=resamples)


def coffee_spent_by_seat(runs: Runs) -> pl.DataFrame:
    """Coffee spent per game by strategy and seat (t interval), and the share of it spent on tiles."""
    df = coffee_purchases(runs)
    per = (df.group_by(["run", "game", "seat", "strategy"], maintain_order=True)
           .agg(pl.col("coffee").sum(), pl.col("coffee").filter(pl.col("purchase").str.starts_with("tile")).sum()
                .alias("tiles")))
    full = (_seat_info(runs).select("run", "game", "seat", "strategy").collect()
            .join(per.drop("strategy"), on=["run", "game", "seat"], how="left").fill_null(0))
    return _mean_t(full, ["strategy", "seat"], "coffee")


def vp_per_coffee_chart(df: pl.DataFrame, by: tuple[str, ...] = ("purchase",), title: str = "") -> "F.plt.Figure":
    """VP per Coffee with bootstrap 95% intervals, one bar per group."""
    return F.bar_with_interval(_label(df, by), "label", title=title or "VP per Coffee spent (95% bootstrap interval)",
                               xlabel="VP per Coffee")


def vp_per_coffee_phase_chart(df: pl.DataFrame, group: str = "purchase") -> "F.plt.Figure":
    """VP per Coffee across game thirds (early / middle / late), one line per ``group`` value, with bands."""
    groups = sorted(df[group].unique().to_list())
    est, lo, hi = [], [], []
    for gname in groups:
        sub = df.filter(pl.col(group) == gname)
        m = {r["phase"]: r for r in sub.iter_rows(named=True)}
        est.append([m[p]["est"] if p in m else np.nan for p in PHASES])
        lo.append([m[p]["low"] if p in m else np.nan for p in PHASES])
        hi.append([m[p]["high"] if p in m else np.nan for p in PHASES])
    fig = F.line_with_band(np.arange(3), est, lo, hi, title="VP per Coffee by game third (95% bootstrap band)",
                           xlabel="third of the game (by round)", ylabel="VP per Coffee", labels=groups)
    fig.axes[0].set_xticks(np.arange(3), list(PHASES))
    return fig


ATTRIBUTION = ("Attribution: each turn's VP (turns table vp_gained, which equals the seat's VP events of that turn) "
               "is split over the Coffee purchases of that turn in proportion to the Coffee each took "
               "(coffee_spend events: tile action at cost 1 stack / 2 center / 3 right, Insight conversions, other). "
               "VP of turns without Coffee spent, the end-trigger bonus and end-of-game scoring are not attributed. "
               "Every strategy is listed (a dash: it spent no Coffee). This is descriptive: groups differ by strategy and "
               "seat, and the strategies that buy with Coffee are not a random sample; the marginal value of Coffee is "
               "measured by `meeplelab experiment --treat coffee+1` (paired, same seeds). VP per Coffee = "
               "attributed VP / Coffee, with a 95% percentile bootstrap over games (seat-games resampled). "
               "Game thirds are by round relative to the game's last round.")


def coffee_sections(runs: Runs) -> list[Section]:
    """The VP per Coffee section of the report."""
    pur = coffee_purchases(runs)
    if pur.height == 0:
        return [Section("VP per Coffee", "No Coffee was spent in these runs.")]
    by_p = vp_per_coffee(runs, ("purchase",), purchases=pur)
    by_s = vp_per_coffee(runs, ("strategy",), purchases=pur)
    every = (_seat_info(runs).group_by("strategy", maintain_order=True).agg(pl.len().alias("seat_results")).collect())
    by_s = (every.join(by_s, on="strategy", how="left")
            .with_columns(pl.col("games").fill_null(0), pl.col("vp").fill_null(0.0), pl.col("coffee").fill_null(0.0))
            .select("strategy", "seat_results", pl.col("games").alias("games_with_coffee"), "vp", "coffee", "est",
                    "low", "high").sort("strategy"))
    by_ss = vp_per_coffee(runs, ("strategy", "seat"), purchases=pur)
    by_sp = vp_per_coffee(runs, ("strategy", "purchase"), purchases=pur)
    by_ph = vp_per_coffee(runs, ("purchase", "phase"), purchases=pur)
    best = by_s.drop_nulls("est").sort("est", descending=True).row(0, named=True)
    interval = (f", 95% {fmt_number(best['low'], 2)} to {fmt_number(best['high'], 2)}"
                if np.isfinite(best["low"]) and np.isfinite(best["high"]) else ", too few games for an interval")
    text = (f"{ATTRIBUTION} Best converter of Coffee into VP: {best['strategy']} "
            f"({fmt_number(best['est'], 2)} VP per Coffee{interval}).")
    per_coffee = TableFormat(decimals={"est": 2}, labels={"est": "VP per Coffee", "vp": "VP attributed (total)",
                                                          "coffee": "Coffee spent (total)"})
    r3 = lambda d: d.with_columns([pl.col(c).round(3) for c in ("vp", "coffee", "est", "low", "high")])  # noqa: E731
    return [Section("VP per Coffee (descriptive: groups differ by strategy and seat)", text,
                    [("um_vp_per_coffee_purchase", vp_per_coffee_chart(by_p, ("purchase",)),
                      "VP per Coffee by what the Coffee bought"),
                     ("um_vp_per_coffee_strategy", vp_per_coffee_chart(by_s, ("strategy",),
                                                                       "VP per Coffee by strategy (95% bootstrap)"),
                      "VP per Coffee by strategy"),
                     ("um_vp_per_coffee_phase", vp_per_coffee_phase_chart(by_ph), "VP per Coffee by game third")],
                    [("VP per Coffee by purchase", r3(by_p), per_coffee),
                     ("VP per Coffee by strategy", r3(by_s), per_coffee),
                     ("VP per Coffee by strategy and seat", r3(by_ss), per_coffee),
                     ("VP per Coffee by strategy and purchase", r3(by_sp), per_coffee),
                     ("VP per Coffee by purchase and game third", r3(by_ph), per_coffee)])]


# ------------------------------------------------------------------ citations
def citations(runs: Runs) -> pl.DataFrame:
    """One row per citation (a citing publication and one cited seat): Volumes cited, VP and Bright Ideas to
    the cited seat, and the citer's Treatise VP.

    Columns: run, game, turn, citer, cited, treatise (the citing one), volumes, cited_vp, cited_bright,
    treatise_vp, citer_strategy, cited_strategy.
    """
    e = runs.events
    cites = (e.filter(pl.col("kind") == "cite")
             .group_by(KEY + ["turn", pl.col("seat").alias("citer"), pl.col("target_seat").alias("cited"),
                              pl.col("cost").alias("treatise")], maintain_order=True)
             .agg(pl.len().alias("volumes"), pl.col("amount").cast(pl.Int64).sum().alias("cited_vp")))
    bright = (e.filter((pl.col("kind") == "bright") & (pl.col("category") == "cited_bright"))
              .group_by(KEY + ["turn", pl.col("seat").alias("cited"), pl.col("target_seat").alias("citer")], maintain_order=True)
              .agg(pl.col("amount").cast(pl.Int64).sum().alias("cited_bright")))
    pub = (e.filter(pl.col("kind") == "publish")
           .select(KEY + ["turn", pl.col("seat").alias("citer"), pl.col("item").alias("treatise"),
                          pl.col("amount").cast(pl.Int64).alias("treatise_vp")]))
    seats = _seat_info(runs).select(KEY + ["seat", "strategy"])
    # one Bright Idea per cited seat per publication: split a turn's Bright Ideas over its citing publications
    npub = cites.group_by(KEY + ["turn", "citer", "cited"], maintain_order=True).agg(pl.len().alias("_npub"))
    bright = (bright.join(npub, on=KEY + ["turn", "cited", "citer"], how="inner")
              .with_columns((pl.col("cited_bright") / pl.col("_npub")).alias("cited_bright")).drop("_npub"))
    df = (cites.join(bright, on=KEY + ["turn", "cited", "citer"], how="left")
          .join(pub, on=KEY + ["turn", "citer", "treatise"], how="left")
          .join(seats.rename({"seat": "citer", "strategy": "citer_strategy"}), on=KEY + ["citer"], how="left")
          .join(seats.rename({"seat": "cited", "strategy": "cited_strategy"}), on=KEY + ["cited"], how="left")
          .with_columns(pl.col("cited_bright").fill_null(0))
          .select("run", "game", "turn", pl.col("citer").cast(pl.Int64), pl.col("cited").cast(pl.Int64),
                  pl.col("treatise").cast(pl.Int64), pl.col("volumes").cast(pl.Int64), "cited_vp", "cited_bright",
                  "treatise_vp", "citer_strategy", "cited_strategy")
          .sort("run", "game", "turn", "cited"))
    return df.collect()


def publications(runs: Runs) -> pl.DataFrame:
    """One row per published Treatise: its VP, Volumes, Volumes cited, VP given to cited seats and the net
    payoff ``treatise_vp - vp_given`` (the citer's VP margin gain over the seats it cited).

    Columns: run, game, turn, seat, strategy, treatise, treatise_vp, volumes, volumes_cited, vp_given,
    bright_given, net.
    """
    pub = (runs.events.filter(pl.col("kind") == "publish")
           .select(KEY + ["turn", "seat", pl.col("item").cast(pl.Int64).alias("treatise"),
                          pl.col("amount").cast(pl.Int64).alias("treatise_vp"),
                          pl.col("count").cast(pl.Int64).alias("volumes")]).collect()
           .with_columns(pl.col("seat").cast(pl.Int64)))
    cit = citations(runs)
    agg = cit.group_by(["run", "game", "turn", "citer", "treatise"], maintain_order=True).agg(
        pl.col("volumes").sum().alias("volumes_cited"), pl.col("cited_vp").sum().alias("vp_given"),
        pl.col("cited_bright").sum().alias("bright_given")).rename({"citer": "seat"})
    seats = _seat_info(runs).select(KEY + ["seat", "strategy"]).collect().with_columns(pl.col("seat").cast(pl.Int64))
    return (pub.join(agg, on=["run", "game", "turn", "seat", "treatise"], how="left")
            .with_columns([pl.col(c).fill_null(0) for c in ("volumes_cited", "vp_given", "bright_given")])
            .join(seats, on=KEY + ["seat"], how="left")
            .with_columns((pl.col("treatise_vp") - pl.col("vp_given")).alias("net"))
            .select("run", "game", "turn", "seat", "strategy", "treatise", "treatise_vp", "volumes", "volumes_cited",
                    "vp_given", "bright_given", "net")
            .sort("run", "game", "turn"))


def citation_payoffs(runs: Runs) -> pl.DataFrame:
    """Per citation, by Volumes cited: mean VP and Bright Ideas to the cited seat and the citer's Treatise VP
    (t intervals). Long format: ``volumes, measure, n, mean, sd, est, low, high``."""
    cit = citations(runs)
    out = []
    for m in ("cited_vp", "cited_bright", "treatise_vp"):
        out.append(_mean_t(cit.drop_nulls(m), ["volumes"], m).with_columns(pl.lit(m).alias("measure")))
    if not out or cit.height == 0:
        return pl.DataFrame(schema={"volumes": pl.Int64, "measure": pl.String, "n": pl.UInt32, "mean": pl.Float64,
                                    "sd": pl.Float64, "est": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    return pl.concat(out).select("volumes", "measure", "n", "mean", "sd", "est", "low", "high").sort("measure",
                                                                                                   "volumes")


def net_payoff_by_volumes(runs: Runs) -> pl.DataFrame:
    """Net payoff of a publication (Treatise VP minus VP given to cited seats) by Volumes cited (0 = no
    citation), with t intervals and quartiles: ``volumes_cited, n, mean, sd, est, low, high, q25, median, q75``."""
    pub = publications(runs)
    t = _mean_t(pub, ["volumes_cited"], "net")
    q = pub.group_by("volumes_cited", maintain_order=True).agg(pl.col("net").quantile(0.25).alias("q25"),
                                          pl.col("net").median().alias("median"),
                                          pl.col("net").quantile(0.75).alias("q75"))
    return t.join(q, on="volumes_cited").sort("volumes_cited")


def citation_gains(runs: Runs) -> pl.DataFrame:
    """Who gains from citing and from being cited, per seat-game by strategy and seat (t intervals).

    Measures (long format, column ``measure``): ``citing_net`` (net payoff of the seat's citing publications),
    ``vp_given`` (VP it handed out by citing), ``vp_received`` and ``bright_received`` (from being cited),
    ``volumes_cited_by`` (Volumes it cited), ``cited_volumes`` (its Volumes others cited).
    """
    cit = citations(runs)
    pub = publications(runs).filter(pl.col("volumes_cited") > 0)
    seats = _seat_info(runs).select(KEY + ["seat", "strategy"]).collect().with_columns(pl.col("seat").cast(pl.Int64))
    giver = pub.group_by(KEY + ["seat"], maintain_order=True).agg(pl.col("net").sum().alias("citing_net"),
                                             pl.col("vp_given").sum(), pl.col("volumes_cited").sum()
                                             .alias("volumes_cited_by"))
    recv = cit.group_by(KEY + [pl.col("cited").alias("seat")], maintain_order=True).agg(
        pl.col("cited_vp").sum().alias("vp_received"), pl.col("cited_bright").sum().alias("bright_received"),
        pl.col("volumes").sum().alias("cited_volumes"))
    per = (seats.join(giver, on=KEY + ["seat"], how="left").join(recv, on=KEY + ["seat"], how="left").fill_null(0))
    measures = ["citing_net", "vp_given", "volumes_cited_by", "vp_received", "bright_received", "cited_volumes"]
    long = per.unpivot(index=["strategy", "seat"], on=measures, variable_name="measure", value_name="value") \
        .with_columns(pl.col("value").cast(pl.Float64))
    return _mean_t(long, ["strategy", "seat", "measure"], "value").select(
        "strategy", "seat", "measure", "n", "mean", "sd", "est", "low", "high")


def net_payoff_chart(df: pl.DataFrame) -> "F.plt.Figure":
    """Net payoff per publication (VP) by Volumes cited, mean with t 95% intervals."""
    d = df.with_columns(pl.format("{} Volumes cited", pl.col("volumes_cited")).alias("label"))
    return F.bar_with_interval(d, "label", title="Net payoff of a publication by Volumes cited (95% t interval)",
                               xlabel="Treatise VP minus VP given to cited seats", ref=0.0,
                               ref_label="break-even")


def citation_gains_chart(df: pl.DataFrame) -> "F.plt.Figure":
    """VP received from being cited and VP given by citing, per seat-game, by strategy and seat."""
    fig, ax = F._fig("VP through citations per game (95% t interval)")
    d = _label(df.filter(pl.col("measure").is_in(["vp_received", "vp_given"])), ("strategy", "seat"))
    labels = sorted(d["label"].unique().to_list())
    y = np.arange(len(labels))
    for i, m in enumerate(("vp_received", "vp_given")):
        sub = d.filter(pl.col("measure") == m)
        mm = {r["label"]: r for r in sub.iter_rows(named=True)}
        est = np.array([mm[k]["est"] if k in mm else 0 for k in labels], float)
        err = np.nan_to_num(np.vstack([[mm[k]["est"] - mm[k]["low"] if k in mm else 0 for k in labels],
                                       [mm[k]["high"] - mm[k]["est"] if k in mm else 0 for k in labels]]))
        ax.barh(y + i * 0.4, est, 0.4, xerr=err, capsize=3, color=F.COLORS[i], label=m.replace("_", " "))
    ax.set_yticks(y + 0.2, labels)
    ax.invert_yaxis()
    ax.set_xlabel("VP per game (strategy / seat)")
    ax.legend()
    return fig


def citation_sections(runs: Runs) -> list[Section]:
    """The Treatise citation payoffs section of the report."""
    cit = citations(runs)
    if cit.height == 0:
        return [Section("Treatise citation payoffs", "No Treatise was cited in these runs.")]
    pay = citation_payoffs(runs)
    net = net_payoff_by_volumes(runs)
    gains = citation_gains(runs)
    text = ("A citation is one citing publication and one cited seat (cite events grouped by turn, citing seat, "
            "cited seat and citing Treatise). The cited seat gets 2 VP per Volume cited (cite events) and one Bright "
            "Idea (cited_bright events); the citing seat scores its Treatise VP (publish event). Net payoff of a "
            "publication = "
            "Treatise VP minus the VP it gave to cited seats; 0 Volumes cited is the comparison (publishing from own "
            "Volumes only). Means with Student-t 95% intervals; per seat-game gains include games without "
            f"citations. {cit.height} citations, {int(cit['volumes'].sum())} Volumes cited.")
    def r3(d):
        return d.with_columns([pl.col(c).round(3) for c in ("mean", "sd", "est", "low", "high") if c in d.columns])
    text += (" Descriptive: groups differ by strategy and seat, and publications with and without citations differ "
             "in their Treatise; the effect of citing is measured by an experiment against a control (paired, same "
             "seeds), e.g. `meeplelab experiment --vary cite_bright_ideas=1,0,2`.")
    return [Section("Treatise citation payoffs (descriptive: groups differ by strategy and seat)", text,
                    [("um_citation_net_payoff", net_payoff_chart(net), "Net payoff by Volumes cited"),
                     ("um_citation_gains", citation_gains_chart(gains), "VP received and given through citations")],
                    [("Per citation, by Volumes cited: VP and Bright Ideas to the cited seat, the citing seat's "
                      "Treatise VP",
                      r3(pay)),
                     ("Net payoff of a publication by Volumes cited", r3(net)),
                     ("Gains from citing and being cited per seat-game, by strategy and seat", r3(gains))])]




def _start_hand(engine, state) -> np.ndarray:
    """``bool[B, P, cards]``: the Research cards in each seat's hand at the first decision (the start hand, A-UM-04)."""
    seats = np.arange(state.num_players)[None, :, None]
    return (state.card_loc == L_HAND)[:, None, :] & (state.card_own[:, None, :] == seats)


#: the round k of the drawn-card table: a Research card drawn by the end of round 3 (2-player games last about 19
#: rounds, 4-player games about 12: the opening)
DRAWN_BY_ROUND = 3

#: what a seat draws at random (the drawn-card table, :mod:`meeplelab.analysis.drawn`): Research cards dealt in the start
#: hand (17lands' opening hand), and those in the start hand or drawn from the top of the deck by the end of round k
#: (17lands' game in hand)
DRAWS = Draws(
    kinds=(
        DrawnKind("start", "Research card in the start hand", lambda c: list(c.card_ids),
                  "dealt in the start hand (rebuilt from the game seed)", 0, setup=_start_hand,
                  note="random: dealt to every seat alike from the shuffled deck, before any decision"),
        DrawnKind("card", "Research card by round k", lambda c: list(c.card_ids),
                  f"in the start hand (rebuilt from the game seed) or drawn from the top of the Research deck by the "
                  f"end of round {DRAWN_BY_ROUND} (event card, category research_draw)", DRAWN_BY_ROUND,
                  events=("card",), categories=("research_draw",), setup=_start_hand,
                  note="which card is random (the top of the shuffled deck), drawing is not: the start hand is dealt "
                  "to everyone alike, but how many cards a seat draws later is its strategy's choice"),
    ),
    chosen="Research cards swapped in from the face-up display (category research_swap), Notebook tiles, Clients, "
           "Treatises and every other display are chosen, not drawn: they are left out (their descriptive figures "
           "are in the content-strength table)",
)

SECTIONS = [coffee_sections, citation_sections, content_sections, drawn_sections]

#: restricted play asks an experiment's scripted focal arms of the strong player (``meeplelab stronger``,
#: :mod:`meeplelab.analysis.restricted_answers`): a scripted focal strategy id (a regular expression, matched whole) ->
#: the restriction suffixes asking the same question ("" = the player unrestricted). Citing: the strong player as it
#: plays and forced to cite whenever it can, against ``never:cite`` (the ``never-cite`` plan's restriction); the
#: Coffee treatment's control plan is the strong player unrestricted (the treatment is applied to it as given).
RESTRICTED = {r"never-cite": ("never:cite",), r"citer": ("", "force:cite"), r"coffee-engine": ("",)}


# ====================================================================== descriptive against causal

def _citing_figure(runs: Runs, ctx: Context) -> Figure | None:
    """Descriptive: net payoff of a publication that cited Volumes minus that of one that cited none (VP; every
    publication of the pooled runs, as the report's net-payoff-by-Volumes-cited table)."""
    pub = publications(runs).with_columns((pl.col("volumes_cited") > 0).alias("cited"))
    t = {r["cited"]: r for r in _mean_t(pub, ["cited"], "net").iter_rows(named=True)}
    if True not in t or False not in t:
        return None
    c, n = t[True], t[False]
    d = c["est"] - n["est"]
    apart = c["low"] > n["high"] or c["high"] < n["low"]
    return Figure(d, float("nan"), float("nan"), bool(apart),
                  f"a publication that cited Volumes netted {c['est']:.1f} VP [{c['low']:.1f}, {c['high']:.1f}] "
                  f"against {n['est']:.1f} VP [{n['low']:.1f}, {n['high']:.1f}] for one that cited none ({d:+.1f} VP, "
                  f"{c['n']:,} and {n['n']:,} publications)")


def _citing_attribution(runs: Runs, ctx: Context) -> str:
    """Attribution: the net counts the publishing turn only; over the game, Treatises published and their VP per
    seat-game of the arm's focal strategy against the control's."""
    pub = pl.col("kind") == "publish"
    a = [per_seat_game(runs, ctx.arm_run, ctx.strategy, "events", v, pub) for v in (pl.col("seat").is_not_null(), pl.col("amount"))]
    c = [per_seat_game(runs, ctx.control_run, ctx.control, "events", v, pub) for v in (pl.col("seat").is_not_null(), pl.col("amount"))]
    return (f"the net payoff counts one publishing turn, the effect the whole game, where {ctx.strategy} published "
            f"{a[0]:.2f} Treatises for {a[1]:.1f} Treatise VP per game against {c[0]:.2f} for {c[1]:.1f} VP by "
            f"{ctx.control} in the control")


def _focal(runs: Runs, strategy: str, frame: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """The rows of ``frame`` (with ``run, game, seat``) of roster entry ``strategy`` (its id as given, a preset id
    unexpanded) in every loaded run, found by the seats each run's manifest gives it
    (:func:`meeplelab.analysis.focal.match_entry`), not by the id the games table logs."""
    seats = pl.concat([match_entry(runs.games.filter(pl.col("run") == run), m, strategy)
                       .select("run", "game", pl.col("seat").cast(pl.Int64).alias("_seat")).collect()
                       for run, m in runs.manifests.items()])
    return (frame.lazy().with_columns(pl.col("seat").cast(pl.Int64).alias("_seat"))
            .join(seats.lazy(), on=["run", "game", "_seat"], how="semi").drop("_seat").collect())


def _coffee_figure(runs: Runs, ctx: Context) -> Figure | None:
    """Descriptive, in the causal unit: the VP the focal strategy's spent Coffee returned in its own turn, times the
    treatment's Coffee (``ctx.groups['n']``), with the bootstrap interval of the report's VP-per-Coffee table. The
    focal player's seats are found by the runs' rosters (:func:`_focal`: a preset id is logged expanded)."""
    pur = _focal(runs, ctx.strategy, coffee_purchases(runs))
    if pur.height == 0:
        return None
    r = vp_per_coffee(runs, ("strategy",), purchases=pur).row(0, named=True)
    k = int(ctx.groups.get("n", 1))
    return Figure(k * r["est"], k * r["low"], k * r["high"], bool(r["low"] > 0 or r["high"] < 0),
                  f"{k} Coffee spent by {ctx.strategy} returned {k * r['est']:.2f} VP "
                  f"[{k * r['low']:.2f}, {k * r['high']:.2f}] in the turn it was spent ({r['coffee']:,.0f} Coffee)")


def _coffee_attribution(runs: Runs, ctx: Context) -> str:
    """Attribution: the share of the focal strategy's final VP the same-turn figure credits to Coffee, and the Coffee
    it spent per game with the treatment against without."""
    pur = _focal(runs, ctx.strategy, coffee_purchases(runs))
    final = _focal(runs, ctx.strategy, runs.games)["vp"].cast(pl.Float64).sum()
    share = 100.0 * float(pur["vp"].sum()) / max(float(final or 0.0), 1e-12)
    spent = [per_seat_game(runs, run, ctx.strategy, "turns", pl.col("coffee_spent"))
             for run in (ctx.arm_run, ctx.control_run)]
    return (f"VP per Coffee credits a Coffee only with its own turn's VP ({share:.0f}% of {ctx.strategy}'s final VP), "
            f"the start Coffee acts over the whole game: {ctx.strategy} spent {spent[0]:.1f} Coffee per game with it "
            f"against {spent[1]:.1f} without")


#: the rule number of the Bright Ideas a cited seat gets per citation (the README's ``um-cite`` experiment varies it)
CITE_RULE = "cite_bright_ideas"


def _cited_seat_games(runs: Runs, ctx: Context) -> pl.DataFrame:
    """The control run's seat-games of ``ctx.strategy`` (found by its seats, :func:`match_entry`): ``run, game, seat,
    vp`` (final VP), ``bright`` (Bright Ideas it got by being cited: bright events of category cited_bright) and
    ``published`` (Treatises it published). Possibly empty."""
    run = ctx.control_run
    seats = (match_entry(runs.games.filter(pl.col("run") == run), runs.manifests.get(run) or {}, ctx.strategy)
             .select("run", "game", pl.col("seat").cast(pl.Int64), pl.col("vp").cast(pl.Float64)))
    ev = runs.events.filter(pl.col("run") == run).with_columns(pl.col("seat").cast(pl.Int64))
    bright = (ev.filter((pl.col("kind") == "bright") & (pl.col("category") == "cited_bright"))
              .group_by("run", "game", "seat").agg(pl.col("amount").cast(pl.Float64).sum().alias("bright")))
    pub = ev.filter(pl.col("kind") == "publish").group_by("run", "game", "seat").agg(
        pl.len().cast(pl.Float64).alias("published"))
    return (seats.join(bright, on=["run", "game", "seat"], how="left").join(pub, on=["run", "game", "seat"], how="left")
            .with_columns(pl.col("bright").fill_null(0.0), pl.col("published").fill_null(0.0),
                          (pl.col("bright") > 0).fill_null(False).alias("cited")).collect())


def _control_value(runs: Runs, ctx: Context) -> float:
    """The control's Bright Ideas per citation: its words (``cite_bright_ideas=1``), else the control run's
    parameters; NaN when neither names it."""
    m = re.fullmatch(rf"{CITE_RULE}=(\d+)", str(ctx.control))
    value = m.group(1) if m else ((runs.manifests.get(ctx.control_run) or {}).get("config") or {}).get(
        "params", {}).get(CITE_RULE)
    return float(value) if value is not None else float("nan")


def _cite_rule_figure(runs: Runs, ctx: Context) -> Figure | None:
    """Descriptive, for an arm of the rule number ``cite_bright_ideas``: in the control, the final VP of the
    strategy's seat-games that were cited (got Bright Ideas from citations) minus that of those never cited (VP, t
    intervals per group), signed by the arm's step (more Bright Ideas per citation: +, fewer: -), so it reads as
    the change the arm would bring if being cited were what scores. None without both groups or a step."""
    step = float(ctx.groups["value"]) - _control_value(runs, ctx)
    t = _cited_seat_games(runs, ctx)
    if not step or not math.isfinite(step) or t["cited"].n_unique() < 2:
        return None
    g = {r["cited"]: r for r in _mean_t(t, ["cited"], "vp").iter_rows(named=True)}
    c, n = g[True], g[False]
    d = c["est"] - n["est"]
    est = d if step > 0 else -d
    apart = c["low"] > n["high"] or c["high"] < n["low"]
    return Figure(est, float("nan"), float("nan"), bool(apart),
                  f"in the control, {ctx.strategy}'s seat-games that were cited (Bright Ideas from citations) finished "
                  f"with {c['est']:.1f} VP [{c['low']:.1f}, {c['high']:.1f}] against {n['est']:.1f} VP "
                  f"[{n['low']:.1f}, {n['high']:.1f}] for those never cited ({d:+.1f} VP, {c['n']:,} and {n['n']:,} "
                  f"seat-games), which reads as {ctx.effect['arm']} {'raising' if est > 0 else 'lowering'} its VP")


def _cite_rule_selection(runs: Runs, ctx: Context) -> str:
    """Selection: who gets cited is who publishes Treatises others cite; the Treatises the cited and never-cited
    seat-games published, and the Bright Ideas citations gave a cited seat-game."""
    t = _cited_seat_games(runs, ctx)
    cited, never = t.filter(pl.col("cited")), t.filter(~pl.col("cited"))
    return (f"a seat is cited because it published Treatises others cite, not because Bright Ideas per citation score: "
            f"{ctx.strategy}'s cited seat-games published {cited['published'].mean():.2f} Treatises against "
            f"{never['published'].mean():.2f} for the never-cited ones, and their citations gave them "
            f"{cited['bright'].mean():.2f} Bright Ideas a game")


#: a descriptive and a causal figure of the same question (:mod:`meeplelab.analysis.reconcile`): citing against the
#: net payoff of a publication by Volumes cited; a start Coffee against VP per Coffee spent (same unit: VP); the
#: rule number of Bright Ideas per citation against the final VP of seat-games that were cited and never cited
RECONCILE = (
    Reading(r"citer", "win", "attribution", _citing_figure, _citing_attribution),
    Reading(r"coffee\+(?P<n>\d+)", "vp", "attribution", _coffee_figure, _coffee_attribution, same_scale=True),
    Reading(rf"{CITE_RULE}=(?P<value>\d+)", "vp", "selection", _cite_rule_figure, _cite_rule_selection),
)
