"""Content strength: how often each content item is taken, and how the seats that take it do.

One table per game, one row per content item (a Treatise board, an Invention, an Observation tile, a
Notebook tile, a Research card, a client, a Location, a board space ...): how often it is taken per
game (t interval), the share of games in which some seat took it (Wilson), and the win rate and mean
final VP of the seat-results that took it against those that did not (Wilson, Newcombe's hybrid
score interval for the difference of win rates, a normal (Welch) interval for the VP difference).
These are **descriptive**: a seat that takes an item differs from one that does not in its strategy,
its seat and how its game went (a seat that is winning takes more), so a difference here is a
suggestion, not a cause. ``meeplelab content-value`` (:mod:`meeplelab.studies.content_value`) measures the cause:
the item removed from the content, paired on common seeds in every seat order.

Which events say that a seat took an item is declared once per game in :data:`KINDS` (the event
kind, the categories and the column holding the item's index; the events table's columns are
documented in ``docs/logs.md``), with the content file and table an item is removed from
(``None`` where the content rules forbid removing one: Galileo's Truth's ten pyramid boards and
twelve Window spaces, Unconscious Mind's six Locations).

Every frame is a polars DataFrame; rates are fractions (0..1) in the data, percent in the report.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from .drawn import drawn_sections
from .load import Runs
from .stats import LEVEL, games_for_difference, mean_t_from_moments, newcombe, sd_floor, wilson, z_value


from meeplelab.sim.content_items import KINDS, ItemKind, kinds_of  # noqa: E402,F401  (declared once, below analysis)
from . import figures as F
from .experiment import METRICS, holm_by_metric, paired
from .load import load_runs
from .page import Section, TableFormat
from .report import provenance_section
from meeplelab.play import runfolder as rf
from meeplelab.play.deny import denied_position
from meeplelab.play.experiment import read_experiment
from meeplelab.sim.registry import make_game


def _content_of(path: Path, manifest: dict):
    """The compiled content a run was played with (its ``content/`` copy, else the packaged content)."""
    cfg = rf.run_config(path, manifest)
    return make_game(cfg.game, content_dir=cfg.content).content


def item_ids(runs: Runs) -> pl.DataFrame:
    """Every content item of every run: ``run, kind, index, id, removable`` (one row per item and run)."""
    rows = []
    for name, m in runs.manifests.items():
        kinds = kinds_of(m["config"]["game"])
        if not kinds:
            continue
        content = _content_of(runs.paths[name], m)
        for k in kinds:
            for i, ident in enumerate(k.ids(content)):
                if ident is None:  # an index of another kind sharing the range (Galileo's Truth's card types)
                    continue
                rows.append({"run": name, "kind": k.kind, "index": i, "id": ident, "removable": k.removable})
    schema = {"run": pl.String, "kind": pl.String, "index": pl.Int64, "id": pl.String, "removable": pl.Boolean}
    return pl.DataFrame(rows, schema=schema)


def takes(runs: Runs, ids: pl.DataFrame | None = None) -> pl.DataFrame:
    """Every take of a content item: ``run, game, seat, kind, id, n`` (``n`` takes of that item by that
    seat in that game, at least 1), read from the events table as :data:`KINDS` declares.

    Raises:
        ValueError: the runs mix games (one content catalogue per table).
    """
    games = runs.game_names
    if len(games) != 1:
        raise ValueError(f"content strength needs runs of one game, got {', '.join(sorted(games))}")
    kinds = kinds_of(next(iter(games)))
    ids = item_ids(runs) if ids is None else ids
    parts = []
    for k in kinds:
        ev = runs.events.filter(pl.col("kind").is_in(list(k.events)))
        if k.categories is not None:
            ev = ev.filter(pl.col("category").is_in(list(k.categories)))
        parts.append(ev.select("run", pl.col("game").cast(pl.Int64), pl.col("seat").cast(pl.Int64),
                               pl.lit(k.kind).alias("kind"), pl.col(k.column).cast(pl.Int64).alias("index")))
    schema = {"run": pl.String, "game": pl.Int64, "seat": pl.Int64, "kind": pl.String, "id": pl.String, "n": pl.UInt32}
    if not parts:
        return pl.DataFrame(schema=schema)
    ev = pl.concat(parts).collect()
    out = (ev.join(ids.select("run", "kind", "index", "id"), on=["run", "kind", "index"], how="inner")
           .group_by("run", "game", "seat", "kind", "id", maintain_order=True).agg(pl.len().alias("n")))
    return out.sort("run", "kind", "id", "game", "seat")


def _welch(m1, s1, n1, m0, s0, n0):
    """Difference of two means with a normal (Welch) interval, each sd floored at the rounding sd of whole VP."""
    fl = sd_floor(1.0)
    s1, s0 = np.maximum(np.nan_to_num(s1, nan=0.0), fl), np.maximum(np.nan_to_num(s0, nan=0.0), fl)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(s1 ** 2 / n1 + s0 ** 2 / n0)
    d = m1 - m0
    ok = (n1 >= 2) & (n0 >= 2)
    h = np.where(ok, z_value() * se, np.nan)
    return d, d - h, d + h


def _within_strategy(st: pl.DataFrame) -> pl.DataFrame:
    """Win-rate difference took - did not, within each strategy, pooled over strategies with weights
    ``n1 n0 / (n1 + n0)`` (a Mantel-Haenszel risk difference; per stratum the Agresti-Caffo variance, one win
    and one loss added to each group, so 0/N and N/N keep a real width; normal interval): columns
    ``players, kind, id, within, within_low, within_high``."""
    d = st.filter((pl.col("n1") > 0) & (pl.col("n0") > 0)).with_columns(
        (pl.col("w1") / pl.col("n1")).alias("p1"), (pl.col("w0") / pl.col("n0")).alias("p0"),
        (pl.col("n1") * pl.col("n0") / (pl.col("n1") + pl.col("n0"))).alias("wt"))
    # Agresti-Caffo: each stratum's variance from rates with one win and one loss added to each group, so a
    # stratum at 0/N or N/N keeps a real width (the plain Wald variance would be 0 there)
    a1, a0 = (pl.col("w1") + 1) / (pl.col("n1") + 2), (pl.col("w0") + 1) / (pl.col("n0") + 2)
    d = d.with_columns((a1 * (1 - a1) / (pl.col("n1") + 2) + a0 * (1 - a0) / (pl.col("n0") + 2)).alias("var"))
    g = d.group_by("players", "kind", "id", maintain_order=True).agg(
        ((pl.col("wt") * (pl.col("p1") - pl.col("p0"))).sum() / pl.col("wt").sum()).alias("within"),
        ((pl.col("wt") ** 2 * pl.col("var")).sum().sqrt() / pl.col("wt").sum()).alias("se"))
    z = z_value()
    return g.with_columns((pl.col("within") - z * pl.col("se")).clip(-1.0, 1.0).alias("within_low"),
                          (pl.col("within") + z * pl.col("se")).clip(-1.0, 1.0).alias("within_high")).drop("se")


def _seat_results(runs: Runs) -> pl.DataFrame:
    """Every seat-result of ``runs``: ``run, game, seat, players, strategy, vp, win_share`` (``game``, ``seat``,
    ``players`` Int64; final ``vp`` and ``win_share`` Float64)."""
    return (runs.games.select("run", pl.col("game").cast(pl.Int64), pl.col("seat").cast(pl.Int64),
                              pl.col("players").cast(pl.Int64), "strategy", pl.col("vp").cast(pl.Float64),
                              pl.col("win_share").cast(pl.Float64)).collect())


def _item_sums(items: pl.DataFrame, tk: pl.DataFrame, seats: pl.DataFrame) -> pl.DataFrame:
    """Per (players, item): ``kind, id, removable, players, games, seat_results, wins, vp_sum, vp_sq`` (the
    player count's games and seat-results; wins, VP and squared VP summed) and the item's sums, 0 where it was
    never taken: ``take_sum, take_sq`` (takes per game and their squares), ``games_taken``, ``seats_took``,
    ``wins_took, vp_sum_took, vp_sq_took`` (over the seat-results that took it), ``kind_seats, kind_wins``
    (seat-results that took any item of its kind). ``tk``: :func:`takes` joined with :func:`_seat_results`."""
    per_players = seats.group_by("players", maintain_order=True).agg(
        pl.col("game").filter(pl.col("seat") == 0).len().alias("games"), pl.len().alias("seat_results"),
        pl.col("win_share").sum().alias("wins"), pl.col("vp").sum().alias("vp_sum"),
        (pl.col("vp") ** 2).sum().alias("vp_sq"))
    base = items.join(per_players, how="cross")
    per_game = tk.group_by("players", "kind", "id", "run", "game", maintain_order=True).agg(pl.col("n").sum().alias("ng"))
    g_stats = per_game.group_by("players", "kind", "id", maintain_order=True).agg(
        pl.col("ng").sum().alias("take_sum"), (pl.col("ng") ** 2).sum().alias("take_sq"),
        pl.len().alias("games_taken"))
    s_stats = tk.group_by("players", "kind", "id", maintain_order=True).agg(
        pl.len().alias("seats_took"), pl.col("win_share").sum().alias("wins_took"),
        pl.col("vp").sum().alias("vp_sum_took"), (pl.col("vp") ** 2).sum().alias("vp_sq_took"))
    k_stats = (tk.select("players", "kind", "run", "game", "seat", "win_share").unique(["players", "kind", "run", "game",
                                                                                     "seat"], maintain_order=True)
               .group_by("players", "kind", maintain_order=True)
               .agg(pl.len().alias("kind_seats"), pl.col("win_share").sum().alias("kind_wins")))
    df = (base.join(g_stats, on=["players", "kind", "id"], how="left")
          .join(s_stats, on=["players", "kind", "id"], how="left").join(k_stats, on=["players", "kind"], how="left"))
    return df.with_columns([pl.col(c).fill_null(0) for c in ("take_sum", "take_sq", "games_taken", "seats_took",
                                                              "wins_took", "vp_sum_took", "vp_sq_took", "kind_seats",
                                                              "kind_wins")])


def _take_columns(df: pl.DataFrame) -> list[pl.Series]:
    """From :func:`_item_sums`: ``takes, takes_low, takes_high`` (mean takes per game, t interval) and ``taken,
    taken_low, taken_high`` (share of games in which some seat took the item, Wilson), one value per row."""
    G = df["games"].to_numpy().astype(float)
    ts, tq = df["take_sum"].to_numpy().astype(float), df["take_sq"].to_numpy().astype(float)
    tm = ts / G
    tsd = np.sqrt(np.maximum(tq - G * tm * tm, 0.0) / np.maximum(G - 1, 1))
    takes_m, takes_lo, takes_hi = mean_t_from_moments(tm, tsd, G)
    tr, tr_lo, tr_hi = wilson(df["games_taken"].to_numpy(), G)
    return [pl.Series("takes", takes_m), pl.Series("takes_low", takes_lo), pl.Series("takes_high", takes_hi),
            pl.Series("taken", tr), pl.Series("taken_low", tr_lo), pl.Series("taken_high", tr_hi)]


def _win_vp_columns(df: pl.DataFrame, family_level: float) -> list[pl.Series]:
    """From :func:`_item_sums`, one value per row: ``seats_took, seats_not``, the win rates ``win_took``,
    ``win_not`` (Wilson ``*_low, *_high``), ``win_diff`` (Newcombe), ``vp_took, vp_not`` and ``vp_diff`` (final
    VP, Welch), ``vs_kind`` (Newcombe), ``games_needed`` and ``stands_out`` (Bonferroni over the rows with both
    groups non-empty at ``family_level``); as :func:`strength` documents them (NaN where a group is empty)."""
    n1 = df["seats_took"].to_numpy().astype(float)
    n0 = df["seat_results"].to_numpy().astype(float) - n1
    w1 = df["wins_took"].to_numpy().astype(float)
    w0 = df["wins"].to_numpy().astype(float) - w1
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, l1, h1 = wilson(w1, n1)
        p0, l0, h0 = wilson(w0, n0)
        diff, dlo, dhi = newcombe(w1, n1, w0, n0)
        each = _bonf_level(int(((n1 > 0) & (n0 > 0)).sum()), family_level)
        _, blo, bhi = newcombe(w1, n1, w0, n0, level=each)
        v1s, v1q = df["vp_sum_took"].to_numpy().astype(float), df["vp_sq_took"].to_numpy().astype(float)
        v0s = df["vp_sum"].to_numpy().astype(float) - v1s
        v0q = df["vp_sq"].to_numpy().astype(float) - v1q
        m1, m0 = v1s / n1, v0s / n0
        s1 = np.sqrt(np.maximum(v1q - n1 * m1 * m1, 0.0) / np.maximum(n1 - 1, 1))
        s0 = np.sqrt(np.maximum(v0q - n0 * m0 * m0, 0.0) / np.maximum(n0 - 1, 1))
        vd, vlo, vhi = _welch(m1, s1, n1, m0, s0, n0)
        nk = df["kind_seats"].to_numpy().astype(float) - n1   # took another item of the kind, never this one
        wk = df["kind_wins"].to_numpy().astype(float) - w1
        kd, klo, khi = newcombe(w1, n1, wk, nk)
    both = (n1 > 0) & (n0 > 0)
    nan = np.full(len(n1), np.nan)
    pick = lambda a: np.where(both, a, nan)  # noqa: E731 - a difference needs both groups
    pooled_sd = np.sqrt(np.where(both, (p1 * (1 - p1) + p0 * (1 - p0)), np.nan))
    need = [games_for_difference(float(s), float(d)) if b and math.isfinite(d) else None
            for s, d, b in zip(pooled_sd, diff, both)]
    flag = np.where(both & (blo > 0), "over", np.where(both & (bhi < 0), "under", ""))
    return [
        pl.Series("seats_took", n1.astype(np.int64)), pl.Series("seats_not", n0.astype(np.int64)),
        pl.Series("win_took", np.where(n1 > 0, p1, nan)), pl.Series("win_took_low", np.where(n1 > 0, l1, nan)),
        pl.Series("win_took_high", np.where(n1 > 0, h1, nan)),
        pl.Series("win_not", np.where(n0 > 0, p0, nan)), pl.Series("win_not_low", np.where(n0 > 0, l0, nan)),
        pl.Series("win_not_high", np.where(n0 > 0, h0, nan)),
        pl.Series("win_diff", pick(diff)), pl.Series("win_diff_low", pick(dlo)), pl.Series("win_diff_high", pick(dhi)),
        pl.Series("vp_took", np.where(n1 > 0, m1, nan)), pl.Series("vp_not", np.where(n0 > 0, m0, nan)),
        pl.Series("vp_diff", pick(vd)), pl.Series("vp_diff_low", pick(vlo)), pl.Series("vp_diff_high", pick(vhi)),
        pl.Series("vs_kind", np.where((n1 > 0) & (nk > 0), kd, nan)),
        pl.Series("vs_kind_low", np.where((n1 > 0) & (nk > 0), klo, nan)),
        pl.Series("vs_kind_high", np.where((n1 > 0) & (nk > 0), khi, nan)),
        pl.Series("games_needed", need, dtype=pl.Int64), pl.Series("stands_out", flag)]


def _strategy_strata(items: pl.DataFrame, seats: pl.DataFrame, tk: pl.DataFrame) -> pl.DataFrame:
    """Per (players, strategy, item): ``n, w`` (the strategy's seat-results and wins), ``n1, w1`` (those that took
    the item, 0 when none) and ``n0, w0`` (those that did not): the strata of :func:`_within_strategy`."""
    strat = seats.group_by("players", "strategy", maintain_order=True).agg(pl.len().alias("n"), pl.col("win_share").sum().alias("w"))
    took = tk.group_by("players", "strategy", "kind", "id", maintain_order=True).agg(pl.len().alias("n1"),
                                                                 pl.col("win_share").sum().alias("w1"))
    return (items.select("kind", "id").join(strat, how="cross")
            .join(took, on=["players", "strategy", "kind", "id"], how="left")
            .with_columns(pl.col("n1").fill_null(0), pl.col("w1").fill_null(0.0))
            .with_columns((pl.col("n") - pl.col("n1")).alias("n0"), (pl.col("w") - pl.col("w1")).alias("w0")))


_STRENGTH_ORDER = ["players", "rank", "kind", "id", "removable", "games", "takes", "takes_low", "takes_high", "taken",
                   "taken_low", "taken_high", "seats_took", "seats_not", "win_took", "win_took_low", "win_took_high",
                   "win_not", "win_not_low", "win_not_high", "win_diff", "win_diff_low", "win_diff_high", "within",
                   "within_low", "within_high", "vs_kind", "vs_kind_low", "vs_kind_high", "vp_took", "vp_not",
                   "vp_diff", "vp_diff_low", "vp_diff_high",
                   "games_needed", "stands_out"]


def _ranked(out: pl.DataFrame) -> pl.DataFrame:
    """``out`` with NaN as null, sorted by ``win_diff`` (largest first, nulls last) within each player count,
    ``rank`` 1.. per player count, columns in :func:`strength`'s order (``players`` dropped when only one)."""
    out = out.with_columns([pl.col(c).fill_nan(None) for c, t in out.schema.items() if t == pl.Float64]).sort(
        ["players", "win_diff", "kind", "id"], descending=[False, True, False, False], nulls_last=True)
    out = out.with_columns(pl.int_range(1, pl.len() + 1).over("players").alias("rank"))
    out = out.select(_STRENGTH_ORDER)
    return out if out["players"].n_unique() > 1 else out.drop("players")


def strength(runs: Runs, *, family_level: float = LEVEL) -> pl.DataFrame:
    """The descriptive content-strength table of ``runs`` (one game), ranked by the win-rate difference.

    One row per (players, kind, item id): ``kind, id, removable, games`` (games in the runs with this
    player count), ``takes`` (mean takes per game, t interval ``takes_low, takes_high``), ``taken``
    (share of games in which any seat took it, Wilson ``taken_low, taken_high``), ``seats_took`` and
    ``seats_not`` (seat-results that took it at least once / never), ``win_took`` / ``win_not`` (win
    rates, Wilson intervals ``*_low, *_high``), ``win_diff`` (took - not, Newcombe interval),
    ``within`` (the same difference within each strategy, pooled: Mantel-Haenszel weights, Agresti-Caffo
    variance;
    equal to ``win_diff`` when one strategy plays every seat), ``vs_kind`` (win rate of the seats that took it
    minus that of the seats that took another item of its kind but never this one: Newcombe interval; the
    item against its own kind, so a seat's appetite for the kind cancels), ``vp_took``, ``vp_not`` (mean final VP),
    ``vp_diff`` (Welch normal interval), ``games_needed`` (games, unpaired, for a win-rate interval of
    ``win_diff``'s size to exclude 0 at 95%), ``stands_out`` (``over`` / ``under`` when the win-rate
    difference stays clear of 0 under a Bonferroni correction over every item of the table with both
    groups non-empty, else ``""``), ``rank`` (1 = largest ``win_diff``). Rates are fractions.
    A ``players`` column leads when the runs hold more than one player count.
    """
    ids = item_ids(runs)
    seats = _seat_results(runs)
    items = ids.select("kind", "id", "removable").unique(["kind", "id"], keep="first", maintain_order=True)
    tk = takes(runs, ids).join(seats, on=["run", "game", "seat"], how="inner")
    df = _item_sums(items, tk, seats)
    out = df.select("players", "kind", "id", "removable", "games").with_columns(
        *_take_columns(df), *_win_vp_columns(df, family_level))
    out = out.join(_within_strategy(_strategy_strata(items, seats, tk)), on=["players", "kind", "id"], how="left")
    return _ranked(out)


def _bonf_level(m: int, level: float = LEVEL) -> float:
    """The confidence level of each of ``m`` intervals that hold together at ``level`` (Bonferroni)."""
    return 1 - (1 - level) / max(m, 1)


def suggested(table: pl.DataFrame, k: int = 4) -> list[str]:
    """Item specs ``kind:id`` worth a removal experiment: the removable items that stand out (over first,
    largest differences first), else the removable items with the largest absolute win-rate difference
    whose 95% interval excludes 0; at most ``k``, each item once (a table of several player counts lists an item
    at each: its largest difference counts)."""
    return [f"{r['kind']}:{r['id']}" for r in _suggested_rows(table, k).iter_rows(named=True)]


def _suggested_rows(table: pl.DataFrame, k: int) -> pl.DataFrame:
    """The rows of :func:`suggested`'s items, largest absolute win-rate difference first, one per item."""
    t = table.filter(pl.col("removable") & pl.col("win_diff").is_not_null())
    out = t.filter(pl.col("stands_out") != "")
    if out.height == 0:
        out = t.filter((pl.col("win_diff_low") > 0) | (pl.col("win_diff_high") < 0))
    out = out.with_columns(pl.col("win_diff").abs().alias("_a")).sort("_a", descending=True, maintain_order=True)
    return out.unique(["kind", "id"], keep="first", maintain_order=True).head(k)


# ====================================================================== report

_SHOWN = ["rank", "kind", "id", "takes", "taken", "win_took", "win_took_low", "win_took_high", "win_not",
          "win_diff", "win_diff_low", "win_diff_high", "within", "within_low", "within_high", "vs_kind", "vs_kind_low",
          "vs_kind_high", "vp_took", "vp_diff",
          "vp_diff_low", "vp_diff_high", "seats_took", "stands_out", "removable"]
_PCT = ("taken", "taken_low", "taken_high", "win_took", "win_took_low", "win_took_high", "win_not", "win_not_low",
        "win_not_high", "win_diff", "win_diff_low", "win_diff_high", "within", "within_low", "within_high", "vs_kind",
        "vs_kind_low", "vs_kind_high")


def as_percent(df: pl.DataFrame) -> pl.DataFrame:
    """The table with its rates and rate differences in percent (percentage points)."""
    return df.with_columns([pl.col(c) * 100 for c in _PCT if c in df.columns])


def content_sections(runs: Runs) -> list:
    """Report section "Content strength (descriptive)": the items that stand out, a summary per kind, the whole
    ranked table folded, and the ``meeplelab content-value`` command for the items worth a removal experiment."""
    games = runs.game_names
    if len(games) != 1 or not kinds_of(next(iter(games))):
        return []
    game = next(iter(games))
    t = strength(runs)
    if t.height == 0:
        return []
    kinds = kinds_of(game)
    m = int((t["seats_took"] > 0).sum())
    fam = int(t.filter(pl.col("win_diff").is_not_null()).height)
    n_games = int(t["games"].max())
    src = "; ".join(f"{k.label}: {k.taken} ({'/'.join(k.events)} event"
                    + (f", category {'/'.join(k.categories)}" if k.categories else "") + ")" for k in kinds)
    over = t.filter(pl.col("stands_out") == "over")
    under = t.filter(pl.col("stands_out") == "under")
    text = [
        f"How often each content item is taken, over {n_games:,} games, and how the seat-results that took it did "
        "against those that did not. DESCRIPTIVE, not causal: seats that take an item differ in strategy, seat and in "
        "how their game was going (a seat that is ahead takes more), so a difference here suggests where to look; the "
        "`within` columns compare within each strategy (Mantel-Haenszel weights, Agresti-Caffo variance, so strategy "
        "strength cancels), and `vs_kind` "
        "compares the seats that took it with the seats that took another item of the same kind but not this one (so "
        "a seat's appetite for the kind cancels: the item against its own kind). The cause is measured by removing "
        "the item (`meeplelab content-value`, paired on common seeds in every seat order).",
        f"Taken means: {src}.",
        f"{m:,} of {t.height:,} items were taken at least once. Win rates in percent with Wilson 95% intervals; "
        "win_diff = took minus did not (percentage points, Newcombe's hybrid score interval); vp_diff = mean final VP "
        f"took minus did not (normal interval). An item `stands out` (over / under) when its win-rate difference stays "
        f"clear of 0 with a Bonferroni correction over the {fam:,} items with both groups: "
        f"{over.height} over-powered and {under.height} under-powered here.",
    ]
    sug = suggested(t)
    if sug:  # the command plays the player count of the largest difference, with that run's roster
        at = _suggested_rows(t, 1)["players"][0] if "players" in t.columns else None
        cfg = next(m["config"] for m in runs.manifests.values() if at is None or int(m["config"]["players"]) == at)
        roster = ",".join(cfg["strategies"])
        text.append(f"Worth a removal experiment (removable items that stand out, largest differences first): "
                    f"`meeplelab content-value --game {game} --players {cfg['players']} --strategies {roster} --items "
                    f"{','.join(sug)} --games 2400 --out OUT`.")
    fixed = [k for k in kinds if not k.removable]
    if fixed:
        text.append("Not removable by a content edit: " + "; ".join(f"{k.label} ({k.fixed})" for k in fixed) + ".")
    fmt = TableFormat(decimals={"takes": 2, "win_took": 1, "win_not": 1, "win_diff": 1, "within": 1, "vs_kind": 1,
                                "vp_took": 1, "vp_not": 1, "vp_diff": 1, "taken": 1},
                      labels={"vp_took": "VP of takers"})
    shown = as_percent(t).select([c for c in (["players"] if "players" in t.columns else []) + _SHOWN
                                  if c in t.columns])
    stand = shown.filter(pl.col("stands_out") != "")
    head = stand if stand.height else pl.concat([shown.head(5), shown.tail(5)]).unique("rank", keep="first").sort("rank")
    per_kind = (t.group_by("kind", maintain_order=True)
                .agg(pl.len().alias("items"), (pl.col("seats_took") > 0).sum().alias("taken_ever"),
                     pl.col("takes").sum().alias("takes_per_game"),
                                       (pl.col("stands_out") == "over").sum().alias("over"),
                                       (pl.col("stands_out") == "under").sum().alias("under"))
                .join(pl.DataFrame({"kind": [k.kind for k in kinds], "what": [k.label for k in kinds],
                                    "_o": list(range(len(kinds)))}), on="kind").sort("_o").drop("_o")
                .select("kind", "what", "items", "taken_ever", "takes_per_game", "over", "under"))
    cap_head = ("Items that stand out (Bonferroni over every item), ranked by win_diff (percent, percentage points)"
                if stand.height else "No item stands out after the Bonferroni correction: the 5 largest and 5 smallest "
                "win-rate differences (percent, percentage points)")
    return [Section("Content strength (descriptive)", "\n".join(text), [], [
        (cap_head, head, fmt),
        ("Items per kind: how many were ever taken, takes per game summed over the kind's items", per_kind,
         TableFormat(decimals={"takes_per_game": 2})),
        (f"Every content item ranked by win_diff (descriptive; {t.height:,} items; percent, percentage points; the VP "
         "of takers left out to fit the page: analysis.content.strength has every column)", shown.drop("vp_took", strict=False),
         TableFormat(decimals=fmt.decimals, folded=True)),
    ])]


# ====================================================================== removal experiments

#: the games-table columns an arm's seat-results are paired on and compared by
_PAIR_COLS = ("game", "seat", "strategy", "vp", "win_share")


def _removal_groups(j: pl.DataFrame, took: pl.DataFrame) -> list[tuple[str, pl.DataFrame, tuple[str, ...]]]:
    """The groups of a removal arm as ``(name, pairs, metrics)``: ``all seats`` (VP only), each strategy of the
    control (when more than one) and ``took it in control``. ``j``: the arm's seat-results joined with the
    control's (``_c`` columns); ``took``: ``game, seat`` that took the item in the control."""
    strategies = j["strategy_c"].unique().sort().to_list()
    groups = [("all seats", j, ("vp",))]
    if len(strategies) > 1:
        groups += [(s, j.filter(pl.col("strategy_c") == s), ("win", "vp")) for s in strategies]
    groups.append(("took it in control", j.join(took, on=["game", "seat"]), ("win", "vp")))
    return groups


def _deny_groups(arm: Path, j: pl.DataFrame, took: pl.DataFrame, arm_takes: pl.DataFrame) -> tuple[list, float]:
    """The groups of a deny arm folder ``arm`` as ``(name, pairs, metrics)`` (one seat per game denied the item,
    :func:`denied_seats`): ``denied seat``, ``other seats``, ``all seats`` (VP only), ``denied seat: STRATEGY``
    (a mixed roster) and ``denied seat, took it in control``; and the item's takes by the denied seats over
    the whole arm (``arm_takes``: the arm's :func:`takes` of the item). ``j``, ``took``: as
    :func:`_removal_groups`."""
    strategies = j["strategy_c"].unique().sort().to_list()
    den = denied_seats(arm)
    jd = j.join(den, on=["game", "seat"], how="left").with_columns(pl.col("denied").fill_null(False))
    dj = jd.filter(pl.col("denied"))
    groups = [("denied seat", dj, ("win", "vp")), ("other seats", jd.filter(~pl.col("denied")), ("win", "vp")),
              ("all seats", jd, ("vp",))]
    if len(strategies) > 1:
        groups += [(f"denied seat: {s}", dj.filter(pl.col("strategy_c") == s), ("win", "vp"))
                   for s in strategies]
    groups.append(("denied seat, took it in control", dj.join(took, on=["game", "seat"]), ("win", "vp")))
    return groups, float(arm_takes.join(den.filter(pl.col("denied")), on=["game", "seat"])["n"].sum())


def _group_rows(spec: str, mode: str, groups: list, per_game: dict) -> list[dict]:
    """One row per group and metric of ``groups`` (:func:`_removal_groups`, :func:`_deny_groups`): the paired
    effect of the arm against the control (:func:`meeplelab.analysis.experiment.paired`, scaled to the metric's
    unit: win in percent, VP; ``{"n": 0}`` for an empty group), with ``item``, ``mode``, ``group``, ``metric``
    and the item's takes per game ``per_game`` (``takes_control, takes_removed, takes_denied``)."""
    rows = []
    for name, sub, metrics in groups:
        for m in metrics:
            col, _, scale = METRICS[m]
            r = paired(sub[col].to_numpy().astype(float), sub[f"{col}_c"].to_numpy().astype(float),
                       shares=m == "win") if sub.height else {"n": 0}
            if sub.height:
                for k in ("est", "low", "high", "unpaired_low", "unpaired_high", "sd", "mean_arm", "mean_control"):
                    r[k] *= scale
            rows.append({"item": spec, "mode": mode, "group": name, "metric": m, **r, **per_game})
    return rows


def _holm_resolved(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` without its empty groups (``n`` 0), with ``p_holm`` (Holm-adjusted ``p`` over every row of the
    same metric) and ``resolved`` (``p_holm`` below 1 - :data:`LEVEL`); an empty ``df`` as it is."""
    return holm_by_metric(df.filter(pl.col("n") > 0)) if df.height else df


def removal_effects(folder: Path | str) -> pl.DataFrame:
    """Paired effects of every removal and deny arm of a ``meeplelab content-value`` folder against its control.

    Every seat-result of an arm is paired with the same game and seat of the control (same game
    seed, same seat order). Removal groups: ``all seats`` (final VP only: the win shares of a game always
    sum to 1), each strategy (when the roster has more than one), and ``took it in control`` (the
    seat-results whose seat took the item in the control game: the item's value to the seats that use it).
    Deny groups (one seat per game denied the item, :func:`denied_seats`): ``denied seat``, ``other seats``,
    ``all seats`` (VP), ``denied seat: STRATEGY`` (a mixed roster) and ``denied seat, took it in control``.

    Columns: ``item, mode (remove | deny), group, metric, n, est, low, high, p, unpaired_low, unpaired_high, sd,
    mean_arm, mean_control, games_needed, games_needed_unpaired, p_holm, resolved, takes_control, takes_removed,
    takes_denied``
    (``games_needed``: paired seat-results of the group for a 95% interval of this size to exclude 0)
    (win in percent / percentage points: Agresti-Min paired, Newcombe unpaired; VP: paired t, Welch
    unpaired; ``p_holm`` Holm-adjusted over every row of the metric; ``takes_*``: the item's takes per game
    in each arm, 0 in a removal arm; ``takes_denied``: per game by the denied seats of a deny arm, 0 when the
    denial held, null for a removal arm).

    Raises:
        RunFolderError: not an experiment folder, or an arm folder that does not read.
    """
    folder = Path(folder)
    meta = read_experiment(folder)
    arms = meta["arms"]
    ctrl_runs = load_runs([folder / arms[0]["folder"]])
    ctrl = ctrl_runs.games.select(_PAIR_COLS).collect().with_columns(pl.col("seat").cast(pl.Int64))
    n_games = int(ctrl.filter(pl.col("seat") == 0).height)
    ctrl_takes = takes(ctrl_runs)
    rows = []
    for a in arms[1:]:
        mode = "remove" if a["change"].get("remove") else "deny" if a["change"].get("deny") else None
        if mode is None:
            continue
        spec = a["change"][mode]
        kind, _, ident = spec.partition(":")
        arm_runs = load_runs([folder / a["folder"]])
        g = arm_runs.games.select(_PAIR_COLS).collect().with_columns(pl.col("seat").cast(pl.Int64))
        j = g.join(ctrl, on=["game", "seat"], suffix="_c")
        mine = ctrl_takes.filter((pl.col("kind") == kind) & (pl.col("id") == ident))
        arm_takes = takes(arm_runs).filter((pl.col("kind") == kind) & (pl.col("id") == ident))
        took = mine.select("game", "seat").unique(maintain_order=True)
        if mode == "remove":
            groups, denied_takes = _removal_groups(j, took), None
        else:
            groups, denied_takes = _deny_groups(folder / a["folder"], j, took, arm_takes)
        per_game = {"takes_control": float(mine["n"].sum()) / max(n_games, 1),
                    "takes_removed": float(arm_takes["n"].sum()) / max(n_games, 1),
                    "takes_denied": None if denied_takes is None else denied_takes / max(n_games, 1)}
        rows += _group_rows(spec, mode, groups, per_game)
    return _holm_resolved(pl.DataFrame(rows, schema_overrides={"takes_denied": pl.Float64}))


def denied_seats(run: Path | str) -> pl.DataFrame:
    """The seat each game of a deny arm denied: ``game, seat, denied`` (one row per game and seat; ``denied``
    True for the seat holding roster position ``game_seed mod P`` in the game's seat order,
    :func:`meeplelab.play.deny.denied_position`)."""
    run = Path(run)
    runs = load_runs([run])
    m = next(iter(runs.manifests.values()))
    plan = rf.run_config(run, m).plan_for()
    g = (runs.games.select("game", "seat", "seat_order", "game_seed").collect()
         .with_columns(pl.col("seat").cast(pl.Int64)))
    p = int(g["seat"].max()) + 1
    orders = np.asarray(plan.orders, np.int64)  # [O, P] roster position per seat
    pos = orders[g["seat_order"].to_numpy().astype(np.int64), g["seat"].to_numpy()]
    denied = pos == denied_position(g["game_seed"].to_numpy(), p)
    return g.select(pl.col("game").cast(pl.Int64), "seat").with_columns(pl.Series("denied", denied))


def removal_line(r: dict) -> str:
    """One sentence of a removal or deny effect (a row of :func:`removal_effects`)."""
    unit = "percentage points" if r["metric"] == "win" else "VP"
    what = "win rate" if r["metric"] == "win" else "final VP"
    need = (f"; about {r['games_needed']:,} paired seat-results of this group resolve a difference this size"
            if r.get("games_needed") else "")
    verb = "Denying" if r.get("mode") == "deny" else "Removing"
    lo, hi = r.get("low"), r.get("high")
    interval = (f"[{lo:.2f}, {hi:.2f}]" if lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi)
                else "[no interval: too few seat-results]")
    results = "seat-result" if r["n"] == 1 else "seat-results"
    return (f"{verb} {r['item']}: {r['group']}: {what} {r['est']:+.2f} {unit} {interval} "
            f"(paired over {r['n']:,} {results}; control mean {r['mean_control']:.2f}; "
            f"{'resolved' if r['resolved'] else 'not resolved'}, Holm-adjusted){need}.")


def removal_sections(folder: Path | str):
    """Report builder of a ``meeplelab content-value`` folder: the paired removal effects (table and chart),
    the take counts per arm, then the control arm's descriptive content strength and its provenance."""
    folder = Path(folder)
    meta = read_experiment(folder)
    df = removal_effects(folder)

    def build(runs: Runs):
        ctrl = load_runs([folder / meta["arms"][0]["folder"]])
        text = [f"Each item is removed from the content (its entry deleted from its file) in one arm, played on the same "
                f"{meta['games']:,} games as the control ({meta['seating_plan']}): the arms differ only by the missing "
                "item. Paired difference = removal arm minus control, seat-result by seat-result. `took it in "
                "control` = the seats that took the item in the control game (its value to them); `all seats` = "
                "every seat (a game's win shares sum to 1, so only VP). Win rates: Agresti-Min paired intervals "
                "(Newcombe unpaired beside them), VP: t intervals; `resolved` by the Holm-adjusted p-value over "
                "every row of the metric."]
        if df.height and (df["mode"] == "deny").any():
            text.append("A `deny:` arm keeps the content unchanged and denies the item to one seat of every game only "
                        "(roster position game seed mod P, so every seat is denied in an equal share of the games): "
                        "that seat's legal mask loses every action whose application would log it taking the item "
                        "(meeplelab.play.deny, a rule-free per-seat treatment; the rules and the other seats are "
                        "unchanged). `denied seat` = the denied seat-results against the same game and seat in the "
                        "control; `denied seat, took it in control` = those whose seat took the item in the control "
                        "game (the item's value to a seat that uses it, while the others keep it); `other seats` = "
                        "everyone else in the deny arm. `takes_denied` = takes of the item per game by the denied "
                        "seats (0 when the denial held; a seat with no other legal action takes it).")
        desc = strength(ctrl)
        for group in ("took it in control", "denied seat, took it in control", "denied seat", "all seats"):
            for r in df.filter(pl.col("group") == group).iter_rows(named=True):
                text.append(removal_line(r))
        for item in df["item"].unique(maintain_order=True).to_list():
            kind, _, ident = item.partition(":")
            d = desc.filter((pl.col("kind") == kind) & (pl.col("id") == ident))
            if d.height and d["win_diff"][0] is not None:
                r = d.row(0, named=True)
                text.append(f"For comparison, the descriptive table of the control arm: the seats that took {item} won "
                            f"{100 * r['win_diff']:+.1f} percentage points [{100 * r['win_diff_low']:.1f}, "
                            f"{100 * r['win_diff_high']:.1f}] more often than those that did not ({r['seats_took']:,} "
                            "seat-results; not causal).")
        figs = []
        for m, groups, cap in (("win", ("took it in control", "denied seat", "denied seat, took it in control"),
                                "Paired win-rate change of the seats that took the item in control, and of the denied "
                                "seats (percentage points)"),
                               ("vp", ("all seats", "took it in control", "denied seat"), "Paired final-VP change (VP)")):
            d = df.filter((pl.col("metric") == m) & pl.col("group").is_in(list(groups)))
            if d.height:
                d = d.with_columns((pl.col("mode") + ":" + pl.col("item") + " / " + pl.col("group")).alias("label"))
                figs.append((f"removal_{m}", F.bar_with_interval(
                    d.select("label", "est", "low", "high"), "label", title="Removed or denied vs unchanged (paired)",
                    xlabel=cap, ref=0.0, ref_label="no difference"), cap))
        secs = [Section("Content value by removal" + (" and denial" if df.height and (df["mode"] == "deny").any()
                                                      else ""), "\n".join(text), figs, [
            ("Paired differences against the unchanged content (win in percentage points, VP in VP; unpaired interval "
             "for comparison; takes per game of the item in each arm)", df.drop("sd"),
             TableFormat(decimals={"est": 2, "unpaired": 2, "takes_control": 3, "takes_removed": 3, "takes_denied": 3,
                                   "p": 3,
                                           "p_holm": 3}))])]
        secs += content_sections(ctrl) + drawn_sections(ctrl)
        for s in secs[1:]:
            s.title = f"{s.title}: control arm"
        secs.append(provenance_section(runs))
        return secs

    return build


__all__ = ["KINDS", "ItemKind", "as_percent", "content_sections", "denied_seats", "item_ids", "kinds_of", "removal_effects",
           "removal_line", "removal_sections", "strength", "suggested", "takes"]
