"""Tables, ratings and report sections of a tournament (see :mod:`meeplelab.play.tournament`).

Words used in every table:

- **lineup**: one seat arrangement of the strategies, played as one run folder;
- **games**: games played (a game counts once for a strategy however many seats it holds);
- **seat-results**: one seat's outcome in one game; a game of ``n`` seats gives ``n`` of them;
- **win rate**: share of a strategy's seat-results that won (a first place shared by ``k`` seats
  counts ``1/k``), against its **fair share** ``1/players`` (what a seat wins when every strategy is
  equally strong); **x fair** is their ratio;
- **game win rate**: share of the games a strategy sat in that one of its seats won, against its
  fair share ``seats held / players``;
- **mean rank**: mean finishing place of its seat-results (1 = first);
- **head-to-head**: in every game where both sit, does the row strategy's best seat finish ahead of
  the column strategy's best seat (a tie counts 1/2); all lineups use the same seeds, so the cells
  are paired on common seeds and balanced over seat orders.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import numpy as np
import polars as pl

from .metrics import mean_by
from .stats import bootstrap, holm, rate_p, wilson
from .tables import canonical
from .load import load_runs
from .metagame import compositions, table_from_sums

ELO = 400.0 / math.log(10.0)  # Elo points per unit of Bradley-Terry log-strength


def _wilson_cols(df: pl.DataFrame, wins: str, n: str, prefix: str) -> pl.DataFrame:
    p, lo, hi = wilson(df[wins].to_numpy(), df[n].to_numpy())
    return df.with_columns(pl.Series(prefix, p), pl.Series(f"{prefix}_low", lo), pl.Series(f"{prefix}_high", hi))


def _mean_cols(g: pl.LazyFrame, value: str, name: str) -> pl.DataFrame:
    return mean_by(g, value).select("strategy", pl.col("est").alias(name), pl.col("low").alias(f"{name}_low"),
                                    pl.col("high").alias(f"{name}_high"))


def per_game(games: pl.LazyFrame) -> pl.DataFrame:
    """One row per (lineup run, game, strategy): seats held, summed win share, best rank.

    Columns ``run, game, strategy, players, seats, win_share, best_rank``."""
    return (games.group_by("run", "game", "strategy", maintain_order=True)
            .agg(pl.col("players").first(), pl.len().alias("seats"), pl.col("win_share").sum(),
                 pl.col("rank").min().alias("best_rank")).sort("run", "game", "strategy").collect())


def summary_table(games: pl.LazyFrame) -> pl.DataFrame:
    """Per strategy: seat-results, games, fair share, win rate (Wilson), x fair, game win rate
    (Wilson) against its fair share, mean rank, mean VP and margin (t intervals).

    Returns:
        columns ``strategy, games, seat_results, fair, win_rate, win_low, win_high, x_fair,
        game_win_rate, game_win_low, game_win_high, game_fair, mean_rank(_low/_high), vp(_low/_high),
        margin(_low/_high)``; rates in [0, 1]; sorted by win rate.
    """
    sr = (games.group_by("strategy", maintain_order=True)
          .agg(pl.len().alias("seat_results"), pl.col("win_share").sum().alias("wins"),
               (1.0 / pl.col("players")).mean().alias("fair")).collect())
    sr = _wilson_cols(sr, "wins", "seat_results", "win_rate").rename({"win_rate_low": "win_low",
                                                                       "win_rate_high": "win_high"})
    pg = per_game(games)
    gw = (pg.group_by("strategy", maintain_order=True).agg(pl.len().alias("games"), pl.col("win_share").sum().alias("game_wins"),
                                      (pl.col("seats") / pl.col("players")).mean().alias("game_fair")))
    gw = _wilson_cols(gw, "game_wins", "games", "game_win_rate").rename(
        {"game_win_rate_low": "game_win_low", "game_win_rate_high": "game_win_high"})
    rk = _mean_cols(games.with_columns(pl.col("rank").cast(pl.Float64)), "rank", "mean_rank")
    out = (sr.join(gw, on="strategy").join(rk, on="strategy").join(_mean_cols(games, "vp", "vp"), on="strategy")
           .join(_mean_cols(games, "margin", "margin"), on="strategy"))
    out = out.with_columns((pl.col("win_rate") / pl.col("fair")).alias("x_fair"))
    return canonical(out.select("strategy", "games", "seat_results", "fair", "win_rate", "win_low", "win_high", "x_fair",
                                "game_win_rate", "game_win_low", "game_win_high", "game_fair", "mean_rank", "mean_rank_low",
                                "mean_rank_high", "vp", "vp_low", "vp_high", "margin", "margin_low", "margin_high"),
                     by=["win_rate", "strategy"], descending=[True, False])


def seat_table(games: pl.LazyFrame) -> pl.DataFrame:
    """Per strategy and seat (0-based ``seat``): seat-results, win rate (Wilson) against the fair
    share, mean VP."""
    df = (games.group_by("strategy", "seat", maintain_order=True)
          .agg(pl.len().alias("seat_results"), pl.col("win_share").sum().alias("wins"),
               (1.0 / pl.col("players")).mean().alias("fair"), pl.col("vp").mean().alias("vp")).collect())
    df = _wilson_cols(df, "wins", "seat_results", "win_rate").rename({"win_rate_low": "win_low",
                                                                       "win_rate_high": "win_high"})
    return canonical(df.select("strategy", "seat", "seat_results", "fair", "win_rate", "win_low", "win_high",
                               "vp").sort("strategy", "seat"))


def seat_effect(games: pl.LazyFrame) -> pl.DataFrame:
    """Win rate by seat per player count, all strategies pooled (seats rotated, so this measures the
    seat itself): ``players, seat, seat_results, fair, win_rate, win_low, win_high, x_fair, p, p_holm,
    resolved``; ``p`` is the score test against the fair share, ``p_holm`` Holm-adjusted over every
    seat of every player count, ``resolved`` = ``p_holm < 0.05`` (no seat effect: any seat called
    resolved at most 5% of the time)."""
    df = (games.sort("players", "seat", "run", "game").group_by("players", "seat", maintain_order=True)
          .agg(pl.len().alias("seat_results"), pl.col("win_share").sum().alias("wins"))
          .collect().with_columns((1.0 / pl.col("players").cast(pl.Float64)).alias("fair")).sort("players", "seat"))
    df = _wilson_cols(df, "wins", "seat_results", "win_rate").rename({"win_rate_low": "win_low",
                                                                       "win_rate_high": "win_high"})
    pv = np.asarray(rate_p(df["wins"].to_numpy(), df["seat_results"].to_numpy(), df["fair"].to_numpy()), float).reshape(-1)
    adj = holm(pv)
    return canonical(df.with_columns((pl.col("win_rate") / pl.col("fair")).alias("x_fair"), pl.Series("p", pv),
                                     pl.Series("p_holm", adj), pl.Series("resolved", adj < 0.05)).select(
        "players", "seat", "seat_results", "fair", "win_rate", "win_low", "win_high", "x_fair", "p", "p_holm",
        "resolved").sort("players", "seat"))


def lineup_table(games: pl.LazyFrame) -> pl.DataFrame:
    """Per lineup run and strategy: games, seat-results, win rate (Wilson)."""
    df = (games.group_by("run", "strategy", maintain_order=True).agg(pl.col("game").n_unique().alias("games"),
                                                pl.len().alias("seat_results"), pl.col("win_share").sum().alias("wins"))
          .collect())
    return canonical(_wilson_cols(df, "wins", "seat_results", "win_rate").rename(
        {"win_rate_low": "win_low", "win_rate_high": "win_high"}).drop("wins").sort("run", "strategy"))


def _pair_rows(pg: pl.DataFrame) -> pl.DataFrame:
    """Every ordered pair of distinct strategies in each game: ``run, game, row, column, score``."""
    a = pg.select("run", "game", pl.col("strategy").alias("row"), pl.col("best_rank").alias("ra"))
    b = pg.select("run", "game", pl.col("strategy").alias("column"), pl.col("best_rank").alias("rb"))
    j = a.join(b, on=["run", "game"]).filter(pl.col("row") != pl.col("column"))
    return j.with_columns(((pl.col("ra") < pl.col("rb")).cast(pl.Float64)
                           + 0.5 * (pl.col("ra") == pl.col("rb")).cast(pl.Float64)).alias("score"))


def pairwise(games: pl.LazyFrame) -> pl.DataFrame:
    """Head-to-head: how often the row strategy's best seat finishes ahead of the column strategy's
    (tie 1/2), over every game where both sit (common seeds, all lineups).

    Returns:
        ``row, column, games, wins, est, low, high, p, p_holm, resolved`` (Wilson 95%; ``wins`` of row +
        column = games). ``p`` is the score test against 50% (the test the Wilson interval inverts);
        ``p_holm`` is Holm-adjusted over the ``K(K-1)/2`` pairs of strategies (a cell and its mirror are
        one comparison) and ``resolved`` is ``p_holm < 0.05``, so among equally strong strategies the
        chance that any cell is called resolved is at most 5%.
    """
    j = _pair_rows(per_game(games).sort("run", "game", "strategy")).sort("row", "column", "run", "game")
    df = j.group_by("row", "column", maintain_order=True).agg(pl.len().alias("games"), pl.col("score").sum().alias("wins"))
    p, lo, hi = wilson(df["wins"].to_numpy(), df["games"].to_numpy())
    pv = np.asarray(rate_p(df["wins"].to_numpy(), df["games"].to_numpy(), 0.5), dtype=float).reshape(-1)
    rows, cols = df["row"].to_list(), df["column"].to_list()
    upper = np.array([r < c for r, c in zip(rows, cols)], dtype=bool)
    adj_u = holm(np.where(upper, pv, np.nan))
    at = {(r, c): a for r, c, a, u in zip(rows, cols, adj_u, upper) if u}
    adj = np.array([at.get((r, c), at.get((c, r), np.nan)) for r, c in zip(rows, cols)], dtype=float)
    return canonical(df.with_columns(pl.Series("est", p), pl.Series("low", lo), pl.Series("high", hi), pl.Series("p", pv),
                                     pl.Series("p_holm", adj), pl.Series("resolved", adj < 0.05)).sort("row", "column"))


def comparisons(pw: pl.DataFrame) -> int:
    """The number of comparisons a head-to-head table's Holm correction is over (pairs of strategies)."""
    return int(pw.filter(pl.col("row") < pl.col("column")).height)


def bradley_terry(wins: np.ndarray, iters: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """Bradley-Terry log-strengths from a pairwise wins matrix (MM algorithm, Hunter 2004).

    Args:
        wins: float[K, K], ``wins[i, j]`` = times ``i`` finished ahead of ``j`` (ties split 1/2).

    Returns:
        float[K] log-strengths, mean 0 (P(i ahead of j) = 1 / (1 + exp(b_j - b_i))). A strategy
        that never loses gets a large finite value (a quarter win each way is added to every pair played).
    """
    w = np.asarray(wins, float)
    n = w + w.T
    w = w + 0.25 * (n > 0)  # a quarter game each way per pair played: keeps undefeated strategies finite
    n = w + w.T
    k = w.shape[0]
    p = np.ones(k)
    for _ in range(iters):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = w.sum(axis=1) / np.maximum(denom, 1e-300)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(new - p)) < tol:
            p = new
            break
        p = new
    b = np.log(p)
    return b - b.mean()


def _seed_tensor(games: pl.LazyFrame, strategies: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Pairwise wins per seed index: float[S, K, K], and the seed indices int[S]."""
    j = _pair_rows(per_game(games))
    idx = {s: i for i, s in enumerate(strategies)}
    seeds = np.sort(j["game"].unique().to_numpy())
    pos = {int(s): i for i, s in enumerate(seeds)}
    t = np.zeros((len(seeds), len(strategies), len(strategies)))
    agg = j.group_by("game", "row", "column", maintain_order=True).agg(pl.col("score").sum()).sort("game", "row", "column")
    for g, r, c, s in agg.iter_rows():
        t[pos[int(g)], idx[r], idx[c]] += s
    return t, seeds


def ratings(games: pl.LazyFrame, *, resamples: int = 200, seed: int = 0, level: float = 0.95) -> pl.DataFrame:
    """Bradley-Terry ratings on the Elo scale (mean 0) fitted on every pairwise finish of every game,
    with percentile bootstrap intervals over seeds (a resample keeps every lineup's games of a seed).

    Returns:
        ``strategy, rating, rating_low, rating_high, p_vs_mean`` (Elo points; ``p_vs_mean`` = chance of finishing
        ahead of a strategy rated 0), sorted by rating.
    """
    strategies = sorted(games.select("strategy").unique().collect()["strategy"].to_list())
    t, _ = _seed_tensor(games, strategies)
    b = bradley_terry(t.sum(axis=0))
    s = t.shape[0]
    boot = bootstrap(s, lambda i: bradley_terry(np.tensordot(np.bincount(i, minlength=s).astype(float), t, axes=1)),
                     purpose="ratings", seed=seed, resamples=resamples, level=level, vectorized=False)
    df = pl.DataFrame({"strategy": strategies, "rating": b * ELO, "rating_low": boot.low * ELO,
                       "rating_high": boot.high * ELO, "p_vs_mean": 1 / (1 + np.exp(-b))})
    return df.sort("rating", descending=True)


def payoff_data(games: pl.LazyFrame, strategies: list[str], players: int):
    """The empirical payoff table of a tournament and its per-seed sums for the bootstrap.

    Returns:
        ``(PayoffTable, sums float[S, R, K], seat_results int[S, R, K])`` (see
        :func:`meeplelab.analysis.metagame.bootstrap_metagame`).
    """
    k = len(strategies)
    idx = {s: i for i, s in enumerate(strategies)}
    rows = {tuple(int(x) for x in c): r for r, c in enumerate(compositions(players, k))}
    # the profile of a lineup: seats held per strategy (from one game's seats)
    lineup_prof = {}
    one = games.filter(pl.col("game") == pl.col("game").min().over("run")).select("run", "strategy").collect()
    for run, sub in one.group_by("run", maintain_order=True):
        c = [0] * k
        for s in sub["strategy"].to_list():
            c[idx[s]] += 1
        lineup_prof[run[0]] = rows[tuple(c)]
    agg = (games.group_by("run", "game", "strategy", maintain_order=True)
           .agg(pl.col("win_share").sum(), pl.len().alias("n")).collect())
    seeds = np.sort(agg["game"].unique().to_numpy())
    pos = {int(s): i for i, s in enumerate(seeds)}
    sums = np.zeros((len(seeds), len(rows), k))
    cnt = np.zeros((len(seeds), len(rows), k), dtype=np.int64)
    for run, g, s, w, n in agg.iter_rows():
        sums[pos[int(g)], lineup_prof[run], idx[s]] += w
        cnt[pos[int(g)], lineup_prof[run], idx[s]] += n
    tot_s, tot_n = sums.sum(axis=0), cnt.sum(axis=0)
    counts = compositions(players, k)
    prof_sums = {tuple(int(x) for x in counts[r]): (tot_s[r], tot_n[r]) for r in range(len(counts)) if tot_n[r].sum()}
    return table_from_sums(strategies, players, prof_sums), sums, cnt


def given_ids(runs) -> dict[str, str]:
    """``{id in the games table: id as the tournament was given it}`` where they differ.

    The games table writes every strategy with all its arguments (``heuristic:preset=FILE`` becomes
    ``heuristic:end_vp=0.6878,coins=...``: twelve numbers no reader can tell apart); the lineup's
    manifest keeps the ids as given, seat by seat (lineups are seated fixed). Tables and charts show
    the given id; the report's provenance lists the full arguments.
    """
    first = (runs.games.filter(pl.col("game") == pl.col("game").min().over("run")).select("run", "seat", "strategy")
             .unique(maintain_order=True).collect())
    out: dict[str, str] = {}
    for run, seat, full in first.iter_rows():
        cfg = runs.manifests[run]["config"]
        if cfg.get("seating", "fixed") != "fixed":
            continue
        given = cfg["strategies"][int(seat)]
        if given != full:
            out.setdefault(full, given)
    return out


def as_given(runs) -> pl.LazyFrame:
    """The games table of ``runs`` with strategy ids as the tournament was given them (:func:`given_ids`)."""
    names = given_ids(runs)
    return runs.games.with_columns(pl.col("strategy").replace(names)) if names else runs.games


def summarize(folders: Sequence[Path]) -> dict[str, pl.DataFrame]:
    """The tournament tables of a set of lineup run folders: ``summary`` (:func:`summary_table`),
    ``seats`` (:func:`seat_table`), ``lineups`` (:func:`lineup_table`), ``pairwise``
    (:func:`pairwise`); strategies named as given (:func:`given_ids`)."""
    g = as_given(load_runs(folders))
    return {"summary": summary_table(g), "seats": seat_table(g), "lineups": lineup_table(g), "pairwise": pairwise(g)}


def format_terminal(df: pl.DataFrame) -> str:
    """Plain-text table for the terminal: rates in percent (columns ending ``%``), seats numbered
    from 1 (= first player, as in reports; the Parquet tables keep the 0-based ``seat``), counts
    with thousands separators."""
    df = canonical(df)
    cols = df.columns
    pct = {c for c in cols if c in ("fair", "game_fair") or c.startswith("win") or c.startswith("game_win")}
    rows = []
    for r in df.iter_rows(named=True):
        cells = []
        for c in cols:
            v = r[c]
            if c == "seat" and isinstance(v, int):
                cells.append(str(v + 1))
            elif isinstance(v, float):
                cells.append("-" if not math.isfinite(v) else f"{v * 100:.1f}" if c in pct else f"{v:.2f}")
            elif isinstance(v, int):
                cells.append(f"{v:,}")
            else:
                cells.append(str(v))
        rows.append(cells)
    heads = [c + (" %" if c in pct else "") for c in cols]
    w = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    line = lambda cells: "  ".join(x.rjust(w[i]) if i else x.ljust(w[i]) for i, x in enumerate(cells))  # noqa: E731
    return "\n".join([line(heads), line(["-" * x for x in w])] + [line(r) for r in rows])


TERMINAL_COLUMNS = ("strategy", "games", "seat_results", "fair", "win_rate", "win_low", "win_high", "x_fair",
                    "mean_rank", "vp", "margin")


__all__ = ["ELO", "TERMINAL_COLUMNS", "as_given", "bradley_terry", "comparisons", "format_terminal", "given_ids", "lineup_table", "pairwise", "payoff_data",
           "per_game", "ratings", "seat_effect", "seat_table", "summarize", "summary_table"]
