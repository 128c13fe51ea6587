"""Seats in the report: how each run was seated, seat advantage with strategy effects balanced, and
strategy win rates that are not confounded with seats.

Seat advantage is read from, in this order of preference: mirror matches (every seat the same
strategy), runs seated by ``rotate`` or ``random`` (every strategy in every seat, so strategy
strength cancels), and only when nothing else exists from ``fixed`` runs, flagged as confounded.
One observation is one seat-result; the spread between the best and the worst seat carries a paired
interval (the two seats' win shares differ game by game).
"""

from __future__ import annotations

import polars as pl

from .load import Runs
from .stats import games_for_difference, holm, paired_shares, unpaired, wilson
from .stats import mean_t_from_moments

#: a seat advantage spread (best minus worst seat win rate) past this many percentage points is flagged
SEAT_SPREAD_POINTS = 5.0


def seating_mode(manifest: dict) -> str:
    """``rotate``, ``random`` or ``fixed`` (runs written before seating existed were fixed)."""
    return (manifest.get("seating") or {}).get("mode") or manifest["config"].get("seating") or "fixed"


def is_mirror(manifest: dict) -> bool:
    """Every seat holds the same strategy."""
    return len(set(manifest["config"]["strategies"])) == 1


def confounded_runs(runs: Runs) -> list[str]:
    """Runs whose seat table mixes seat advantage with strategy strength: fixed seating with several
    strategies, unless the run is one of a set of fixed runs (a tournament's lineups) on the same seed,
    games and players in which every strategy sits in every seat equally often."""
    fixed = {n: m for n, m in runs.manifests.items() if seating_mode(m) == "fixed" and not is_mirror(m)}
    groups: dict[tuple, list[str]] = {}
    for n, m in fixed.items():
        c = m["config"]
        groups.setdefault((c["players"], c["seed"], c["games"]), []).append(n)
    out = []
    for names in groups.values():
        counts: dict[tuple, int] = {}
        for n in names:
            for seat, s in enumerate(fixed[n]["config"]["strategies"]):
                counts[(s, seat)] = counts.get((s, seat), 0) + 1
        strategies = {s for s, _ in counts}
        players = fixed[names[0]]["config"]["players"]
        balanced = (len(names) > 1 and len(set(counts.values())) == 1
                    and len(counts) == len(strategies) * players)
        if not balanced:
            out += names
    return out


def seating_lines(runs: Runs) -> list[str]:
    """One line per run, ``run 'NAME': seating ...``: how its games were seated."""
    out = []
    for n, m in runs.manifests.items():
        desc = (m.get("seating") or {}).get("description")
        if not desc:
            desc = "seating fixed (a run written before seating was recorded): strategy k always in seat k"
        out.append(f"run {n!r}: {desc}")
    return out


def games_frame(runs: Runs) -> pl.DataFrame:
    """Seat-results with ``seat_order`` and ``game_seed`` filled for runs that predate them."""
    g = runs.games
    names = g.collect_schema().names()
    cols = ["run", "game", "seat", "players", "strategy", "vp", "win_share", "margin"]
    extra = [c for c in ("seat_order", "game_seed") if c in names]
    df = g.select(cols + extra).collect()
    if "seat_order" not in df.columns:
        df = df.with_columns(pl.lit(0).alias("seat_order"))
    if "game_seed" not in df.columns:
        df = df.with_columns(pl.col("game").alias("game_seed"))
    return df.with_columns(pl.col("seat_order").fill_null(0).cast(pl.Int64),
                           pl.col("game_seed").fill_null(pl.col("game")).cast(pl.Int64),
                           pl.col("seat").cast(pl.Int64), pl.col("players").cast(pl.Int64))


def seat_source(runs: Runs) -> tuple[list[str], str]:
    """The runs the seat-advantage table is read from, and how it was estimated."""
    mirror = [n for n, m in runs.manifests.items() if is_mirror(m)]
    if mirror:
        return mirror, "mirror matches (the same strategy in every seat)"
    conf = set(confounded_runs(runs))
    bal = [n for n, m in runs.manifests.items() if seating_mode(m) in ("rotate", "random")
           or (seating_mode(m) == "fixed" and n not in conf)]
    if bal:
        return bal, "rotated seats (every strategy in every seat equally often: strategy effects balanced)"
    return list(runs.manifests), ("CONFOUNDED: fixed seats, strategy k always in seat k, so this table mixes seat "
                                  "advantage with strategy strength")


def seat_advantage(df: pl.DataFrame) -> pl.DataFrame:
    """Win rate by (players, seat) with Wilson 95% intervals and the fair share ``1/players``:
    ``players, seat, games, wins, est, low, high, fair`` (rates in [0, 1])."""
    g = df.group_by("players", "seat", maintain_order=True).agg(pl.len().alias("games"), pl.col("win_share").sum().alias("wins")) \
        .sort("players", "seat")
    p, lo, hi = wilson(g["wins"].to_numpy(), g["games"].to_numpy())
    return g.with_columns(pl.Series("est", p), pl.Series("low", lo), pl.Series("high", hi),
                          (1.0 / pl.col("players")).alias("fair"))


def seed_clusters(df: pl.DataFrame):
    """Each row's cluster for a paired interval: its run pair or run (the columns present of ``pair``, ``run``) and its
    game seed. The games one seed plays in several seat orders are correlated
    (:func:`meeplelab.analysis.stats.cluster_means`); None without a ``game_seed`` column."""
    if "game_seed" not in df.columns:
        return None
    parts = [pl.col(c).cast(pl.String) for c in ("pair", "run", "game_seed") if c in df.columns]
    return df.select(pl.concat_str(parts, separator="/")).to_series().to_numpy()


def seat_spread(df: pl.DataFrame, threshold_points: float = SEAT_SPREAD_POINTS) -> pl.DataFrame:
    """Per player count: best and worst seat, the spread (best minus worst win rate) in percentage
    points with a paired 95% interval (per game, the best seat's win share minus the worst's;
    Agresti-Min adjusted Wald, :func:`meeplelab.analysis.stats.paired_shares`, over the game seeds: a seed played in
    several seat orders counts once, :func:`meeplelab.analysis.stats.cluster_means`), games needed to resolve the
    observed spread, and ``flagged``.

    Picking the best and the worst of ``P`` seats after looking is a choice among every pair of seats,
    so the claim is tested as one of a family: every pair of seats at every player count is compared
    (paired), the p-values are Holm-adjusted over that family (``comparisons`` pairs), and ``flagged``
    needs the spread past ``threshold_points`` and the best-worst pair's Holm-adjusted p-value
    (``p_holm``) below 0.05. With no seat effect at all, the chance that any player count is flagged is
    at most 5%.

    Columns: ``players, games, best_seat, best, best_low, best_high, worst_seat, worst, worst_low,
    worst_high, spread, spread_low, spread_high, p_holm, comparisons, games_needed, flagged`` (seats
    0-based; rates with their Wilson 95% intervals and the spread in percent)."""
    import itertools

    import numpy as np

    rows, pvals = [], []
    df = df.sort("players", "run", "game", "seat")
    for (players,), sub in df.group_by("players", maintain_order=True):
        rates = sub.group_by("seat", maintain_order=True).agg(pl.col("win_share").mean().alias("r"),
                                                              pl.col("win_share").sum().alias("w"),
                                                              pl.len().alias("n")).sort("seat")
        best = int(rates.sort(["r", "seat"], descending=[True, False])["seat"][0])
        worst = int(rates.sort(["r", "seat"])["seat"][0])
        idx = ["run", "game"] + (["game_seed"] if "game_seed" in sub.columns else [])
        wide = sub.pivot(on="seat", index=idx, values="win_share", aggregate_function="sum").sort("run", "game")
        seats = [str(x) for x in rates["seat"].to_list() if str(x) in wide.columns]
        ps = {}
        for a, b in itertools.combinations(seats, 2):
            both = wide.select(*idx, a, b).drop_nulls()
            ps[(a, b)] = ps[(b, a)] = paired_shares(both[a].to_numpy(), both[b].to_numpy(), cluster=seed_clusters(both))["p"]
        key = sorted(ps.items())
        pvals.append([v for (a, b), v in key if a < b])
        pair = (wide.select(*idx, str(best), str(worst)).drop_nulls() if best != worst
                else wide.select(*idx, str(best)).drop_nulls())
        if best != worst:
            r = paired_shares(pair[str(best)].to_numpy(), pair[str(worst)].to_numpy(), cluster=seed_clusters(pair))
        else:
            r = paired_shares(pair[str(best)].to_numpy(), pair[str(best)].to_numpy(), cluster=seed_clusters(pair))
        rmap = dict(zip(rates["seat"].to_list(), rates["r"].to_list()))
        _, wlo, whi = wilson(rates["w"].to_numpy(), rates["n"].to_numpy())
        ci = {s_: (l_ * 100, h_ * 100) for s_, l_, h_ in zip(rates["seat"].to_list(), wlo, whi)}
        rows.append({"players": int(players), "games": int(pair.height), "best_seat": best,
                     "best": rmap[best] * 100, "best_low": ci[best][0], "best_high": ci[best][1],
                     "worst_seat": worst, "worst": rmap[worst] * 100, "worst_low": ci[worst][0],
                     "worst_high": ci[worst][1],
                     "spread": r["est"] * 100, "spread_low": r["low"] * 100, "spread_high": r["high"] * 100,
                     "_p": ps.get((str(best), str(worst)), float("nan")),
                     "games_needed": games_for_difference(r["sd"], r["est"])})
    if not rows:
        return pl.DataFrame()
    flat = [p for ps_ in pvals for p in ps_]
    m = int(np.isfinite(np.asarray(flat, dtype=float)).sum())
    # Holm over the whole family, then the best-worst pair's adjusted value: the largest adjusted
    # value among p-values no larger than it (Holm is monotone in p)
    adj_all = holm(flat)
    for r in rows:
        p0 = r.pop("_p")
        le = [a for q, a in zip(flat, adj_all) if np.isfinite(q) and q <= p0]
        r["p_holm"] = float(max(le)) if (le and np.isfinite(p0)) else float("nan")
        r["comparisons"] = m
        r["flagged"] = bool(r["spread"] > threshold_points and r["p_holm"] < 0.05)
    cols = ["players", "games", "best_seat", "best", "best_low", "best_high", "worst_seat", "worst", "worst_low",
            "worst_high", "spread", "spread_low", "spread_high", "p_holm", "comparisons", "games_needed", "flagged"]
    return pl.DataFrame(rows).select(cols).sort("players")


def strategy_rates(df: pl.DataFrame) -> pl.DataFrame:
    """Win rate and mean VP by (players, strategy), Wilson / t 95% intervals, with the fair share:
    ``players, strategy, games, wins, est, low, high, fair, vp, vp_low, vp_high``.

    Under rotated seating every strategy sits in every seat equally often, so seat effects cancel;
    under fixed seating they do not (see :func:`confounded_runs`)."""
    g = df.group_by("players", "strategy", maintain_order=True).agg(pl.len().alias("games"), pl.col("win_share").sum().alias("wins"),
                                               pl.col("vp").mean().alias("m"), pl.col("vp").std().alias("sd")) \
        .sort("players", "strategy")
    p, lo, hi = wilson(g["wins"].to_numpy(), g["games"].to_numpy())

    m, mlo, mhi = mean_t_from_moments(g["m"].to_numpy(), g["sd"].fill_null(0).to_numpy(), g["games"].to_numpy())
    return g.with_columns(pl.Series("est", p), pl.Series("low", lo), pl.Series("high", hi),
                          (1.0 / pl.col("players")).alias("fair"), pl.Series("vp", m), pl.Series("vp_low", mlo),
                          pl.Series("vp_high", mhi)).drop("m", "sd")


def head_to_head(df: pl.DataFrame, a: str, b: str) -> dict:
    """Paired difference of win share (``a`` minus ``b``) over the games where both sit, and the
    unpaired difference of their win rates for comparison: ``n, est, low, high, p, unpaired_low,
    unpaired_high, sd, games_needed`` (rates in [0, 1]; paired: Agresti-Min adjusted Wald, unpaired:
    Newcombe's hybrid score interval at each strategy's effective games, both over the game seeds and of real
    width when neither ever wins)."""
    import math

    idx = ["run", "game"] + (["game_seed"] if "game_seed" in df.columns else [])
    wide = df.filter(pl.col("strategy").is_in([a, b])).group_by(*idx, "strategy", maintain_order=True).agg(
        pl.col("win_share").mean()).pivot(on="strategy", index=idx, values="win_share").drop_nulls()
    if wide.height < 2 or a not in wide.columns or b not in wide.columns:
        return {"n": wide.height, "est": math.nan, "low": math.nan, "high": math.nan, "p": math.nan,
                "unpaired_low": math.nan,
                "unpaired_high": math.nan, "sd": math.nan, "games_needed": None}
    x, y = wide[a].to_numpy(), wide[b].to_numpy()
    seeds = seed_clusters(wide)
    r = paired_shares(x, y, cluster=seeds)  # over the game seeds (cluster_means)
    _, ulo, uhi = unpaired(x, y, shares=True, cluster=seeds)  # each strategy's games clustered over the same seeds
    return {"n": wide.height, "est": r["est"], "low": r["low"], "high": r["high"], "p": r["p"], "unpaired_low": ulo,
            "unpaired_high": uhi, "sd": r["sd"], "games_needed": games_for_difference(r["sd"], r["est"])}
