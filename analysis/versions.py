"""Rule and content versions in one report: never pooled silently.

A *version* is what decides the game itself: the rule parameters a run was played with (the
manifest's ``game.params``, every value after the ``--set`` overrides) and its content (the
manifest's ``game.content_hash``). Runs of one version may be pooled (the report says "pooled: N
runs of the same rules"); runs of different versions never are: ``meeplelab report A B`` then gives
each version its own verdict (ranking with win rates and intervals, the top pair head to head, seat
spread per player count, dominant and degenerate flags, exactly as a report of that version alone),
and one delta table of every later version against the first:

- **paired** (game and seat matched) where the two versions played the same games: the same run
  seed, roster, players and seating, so game seed ``s`` in seat order ``o`` is the same deal; each
  row is the mean of the game-matched differences with its interval (win share: Agresti-Min, as
  every paired win-rate difference of the reports; VP, seat spread, game length: Student t with
  the sd floor of :mod:`meeplelab.analysis.stats`) and the games needed to resolve the difference observed;
- **unpaired, descriptive** otherwise (different seeds or rosters): Newcombe's interval for win
  rates, Welch's t for means.

Versions are named by what differs between them (``printing_house=shared``; a version at a
parameter's default says so: ``printing_house=exclusive (default)``; content by its hash).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from .load import Runs
from .seats import games_frame, seat_source, seat_spread, seed_clusters, strategy_rates
from .stats import cluster_means, games_for_difference, LEVEL, mean_t, newcombe, paired_shares, resolution, sd_floor
from .stats import normal_sf, t_quantile, t_sf

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Version:
    """One rule-and-content version of the runs in a report.

    Attributes:
        label: ``A``, ``B``... in the order the runs were given.
        name: what sets it apart from the other versions (``printing_house=shared``), or
            ``the same rules`` when there is only one.
        runs: names of its runs (keys of :attr:`meeplelab.analysis.load.Runs.manifests`).
        params: its rule parameters (every value).
        content_hash: hash of its content files.
    """

    label: str
    name: str
    runs: tuple[str, ...]
    params: dict
    content_hash: str

    @property
    def title(self) -> str:
        """``version B (printing_house=shared)``."""
        return f"version {self.label} ({self.name})"


def version_key(manifest: dict) -> tuple[str, str]:
    """What identifies a run's version: its rule parameters (every value, as JSON) and content hash."""
    g = manifest["game"]
    return json.dumps(g.get("params") or {}, sort_keys=True, default=str), str(g.get("content_hash"))


def _content_name(manifest: dict) -> str:
    custom = (manifest.get("config") or {}).get("content") is not None
    h = str(manifest["game"].get("content_hash"))
    return f"content {h[:10]}" if custom else f"packaged content ({h[:10]})"


def versions(runs: Runs) -> list[Version]:
    """The versions of ``runs`` in the order their first run was given, each named by its difference
    from the others (the parameters whose values differ between versions, and the content when the
    content hashes differ)."""
    groups: dict[tuple, list[str]] = {}
    for name, m in runs.manifests.items():
        groups.setdefault(version_key(m), []).append(name)
    keys = list(groups)
    first = {k: runs.manifests[groups[k][0]] for k in keys}
    params = {k: dict(first[k]["game"].get("params") or {}) for k in keys}
    names = sorted({p for k in keys for p in params[k]})
    differ = [p for p in names if len({json.dumps(params[k].get(p), default=str) for k in keys}) > 1]
    content_differs = len({k[1] for k in keys}) > 1
    out = []
    for i, k in enumerate(keys):
        # a value some run of the version did not override is the game's default (the version's runs
        # share every value), so it is marked "(default)"
        changed = set.intersection(*(set(runs.manifests[n]["game"].get("params_changed") or {}) for n in groups[k]))
        parts = [f"{p}={params[k].get(p)}" + ("" if p in changed else " (default)") for p in differ]
        if content_differs:
            parts.append(_content_name(first[k]))
        label = LABELS[i] if i < len(LABELS) else f"V{i + 1}"
        out.append(Version(label, ", ".join(parts) if parts else "the same rules", tuple(groups[k]), params[k],
                           k[1]))
    return out


def subset(runs: Runs, names) -> Runs:
    """The runs ``names`` of ``runs`` alone (lazy tables filtered, manifests, paths and notes kept)."""
    names = list(names)
    keep = pl.col("run").is_in(names)
    return Runs(runs.games.filter(keep), runs.turns.filter(keep), runs.events.filter(keep),
                {n: runs.manifests[n] for n in names}, {n: runs.paths[n] for n in names},
                {n: v for n, v in runs.notes.items() if n in names})


def pooled_sentence(v: Version, runs: Runs | None = None) -> str:
    """``pooled: 2 runs of the same rules (a, b)``, or ``""`` for a version of one run; with ``runs``, runs
    of different player counts are said to be reported per player count, not pooled across counts."""
    if len(v.runs) < 2:
        return ""
    counts = sorted({int(runs.manifests[n]["config"]["players"]) for n in v.runs}) if runs is not None else []
    if len(counts) > 1:
        words = ", ".join(str(c) for c in counts[:-1]) + f" and {counts[-1]}"
        return (f"pooled: {len(v.runs)} runs of the same rules ({', '.join(v.runs)}) at {words} players; every "
                "figure is per player count (the game's own descriptive sections pool them, and say so)")
    return f"pooled: {len(v.runs)} runs of the same rules ({', '.join(v.runs)})"


# ------------------------------------------------------------------ pairing the versions' games
def _pair_key(m: dict) -> tuple:
    """Runs with equal keys played the same games in the same seat orders (common random numbers)."""
    c = m["config"]
    seating = (m.get("seating") or {}).get("mode") or c.get("seating") or "fixed"
    return (int(c["players"]), tuple(c["strategies"]), int(c["seed"]), seating)


def paired_runs(runs: Runs, a: Version, b: Version, *, arms: bool = False) -> list[tuple[str, str]]:
    """Pairs (run of ``a``, run of ``b``) that played the same games: equal seed, roster, players and
    seating, each run used once. ``random`` seating draws each game's seat order from the run seed, so
    it pairs too (the join below matches seat order and game seed game by game). ``arms``: the runs are
    arms of one experiment (:mod:`meeplelab.play.experiment`: the same seeds and seat orders by construction,
    the roster differing in the focal entry only), paired on players, seed and seating with rosters of
    the same length; the seats whose strategy differs are left out by :func:`matched_games`."""
    key = (lambda m: _pair_key(m)[:1] + (len(_pair_key(m)[1]),) + _pair_key(m)[2:]) if arms else _pair_key
    used: set[str] = set()
    out = []
    for ra in a.runs:
        ka = key(runs.manifests[ra])
        for rb in b.runs:
            if rb not in used and key(runs.manifests[rb]) == ka:
                used.add(rb)
                out.append((ra, rb))
                break
    return out


def _frame(runs: Runs) -> pl.DataFrame:
    df = games_frame(runs)
    extra = [c for c in ("turns", "rounds") if c in runs.games.collect_schema().names()]
    if extra:
        lens = runs.games.select("run", "game", "seat", *extra).collect()
        df = df.join(lens, on=["run", "game", "seat"], how="left")
    return df


def matched_games(df: pl.DataFrame, pairs: list[tuple[str, str]], *, same_strategy: bool = True) -> pl.DataFrame:
    """Seat-results of both versions side by side, one row per (pair, game, seat): game and seat
    matched on seat order and game seed (columns of the later version suffixed ``_b``, ``pair`` the
    index of the run pair); only seats holding the same strategy in both are kept, unless
    ``same_strategy`` is False (every seat: a seat spread or game length of an experiment's arms)."""
    frames = []
    for i, (ra, rb) in enumerate(pairs):
        x = df.filter(pl.col("run") == ra)
        y = df.filter(pl.col("run") == rb)
        j = x.join(y, on=["players", "seat_order", "game_seed", "seat"], suffix="_b", how="inner")
        if same_strategy:
            j = j.filter(pl.col("strategy") == pl.col("strategy_b"))
        frames.append(j.with_columns(pl.lit(i).alias("pair")))
    return pl.concat(frames) if frames else pl.DataFrame()


# ------------------------------------------------------------------ intervals
def _paired_mean(d: np.ndarray, cluster=None) -> dict:
    """Mean of paired differences ``d`` with its t interval, the two-sided t-test p-value (the sd floored as
    the interval's, so ``p < 0.05`` exactly when the interval excludes 0) and the games needed. ``cluster``: each
    difference's game seed (with its run pair): the interval is over the seeds' means
    (:func:`meeplelab.analysis.stats.cluster_means`), since the games of one seed in several seat orders are
    correlated; ``n`` stays the games."""
    d = np.asarray(d, dtype=float)
    res = resolution(d)
    m, lo, hi = mean_t(d, res=res, cluster=cluster)
    dc, k = cluster_means(d, cluster)
    sd = float(np.std(dc, ddof=1)) * math.sqrt(k) if dc.size > 1 else math.nan
    p = math.nan
    if dc.size > 1:
        se = max(float(np.std(dc, ddof=1)), sd_floor(res) / math.sqrt(k)) / math.sqrt(dc.size)
        p = float(2 * t_sf(abs(m) / se, dc.size - 1))
    return {"est": m, "low": lo, "high": hi, "n": int(d.size), "games_needed": games_for_difference(sd, m), "p": p}


def _welch(x: np.ndarray, y: np.ndarray) -> dict:
    """Unpaired ``mean(y) - mean(x)`` with Welch's t interval (sd floored as in :func:`meeplelab.analysis.stats.mean_t`)."""
    n1, n2 = x.size, y.size
    est = float(y.mean() - x.mean()) if n1 and n2 else math.nan
    if n1 < 2 or n2 < 2:
        return {"est": est, "low": math.nan, "high": math.nan, "n": int(min(n1, n2)), "games_needed": None,
                "p": math.nan}
    fl = sd_floor(resolution(np.concatenate([x, y])))
    v1, v2 = max(float(x.var(ddof=1)), fl * fl) / n1, max(float(y.var(ddof=1)), fl * fl) / n2
    df = (v1 + v2) ** 2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    h = float(t_quantile(0.5 + LEVEL / 2, df)) * math.sqrt(v1 + v2)
    sd = math.sqrt(float(x.var(ddof=1)) + float(y.var(ddof=1)))  # of one pair of independent games
    return {"est": est, "low": est - h, "high": est + h, "n": int(min(n1, n2)),
            "games_needed": games_for_difference(sd, est), "p": float(2 * t_sf(abs(est) / math.sqrt(v1 + v2), df))}


def two_rates_p(s1, n1, s2, n2) -> float:
    """Two-sided p-value of the pooled two-proportion z-test of ``s1/n1 - s2/n2`` (unpaired rows)."""
    if not (n1 and n2):
        return math.nan
    pool = (s1 + s2) / (n1 + n2)
    se = math.sqrt(pool * (1 - pool) * (1 / n1 + 1 / n2))
    return float(2 * normal_sf(abs(s1 / n1 - s2 / n2) / se)) if se > 0 else 1.0


def _spread_per_game(df: pl.DataFrame, best: int, worst: int, share: str = "win_share") -> pl.DataFrame:
    """Per game: the best seat's win share minus the worst seat's (seats as the version's verdict chose them)."""
    wide = df.group_by("_g", maintain_order=True).agg((pl.col(share).filter(pl.col("seat") == best).sum()
                                  - pl.col(share).filter(pl.col("seat") == worst).sum()).alias("d"))
    return wide


def _paired_strategy(j: pl.DataFrame, players: int, s: str) -> tuple[dict, dict]:
    """Strategy ``s`` at ``players`` seats, version B minus A over the matched games ``j`` (:func:`matched_games`):
    the win-share difference (fraction; Agresti-Min, clustered by seed: ``est, low, high, n, games_needed, p``)
    and the mean final-VP difference (VP; :func:`_paired_mean`)."""
    per = (j.filter((pl.col("players") == players) & (pl.col("strategy") == s))
           .group_by("pair", "seat_order", "game_seed", maintain_order=True)
           .agg(pl.col("win_share").mean(), pl.col("win_share_b").mean(), pl.col("vp").mean(),
                pl.col("vp_b").mean()))
    cl = seed_clusters(per)
    w = paired_shares(per["win_share_b"].to_numpy(), per["win_share"].to_numpy(), cluster=cl)
    win = {"est": w["est"], "low": w["low"], "high": w["high"], "n": w["n"],
           "games_needed": games_for_difference(w["sd"], w["est"]), "p": w["p"]}
    vp = _paired_mean(per["vp_b"].to_numpy() - per["vp"].to_numpy(), cluster=cl)
    return win, vp


def _unpaired_strategy(da: pl.DataFrame, db: pl.DataFrame, a_: dict, b_: dict, players: int,
                       s: str) -> tuple[dict, dict]:
    """Strategy ``s`` at ``players`` seats, version B (games ``db``, rate row ``b_``) minus A (``da``, ``a_``) on
    different games: the win-rate difference (fraction; Newcombe's interval, ``n`` the smaller game count,
    two-rate p) and the mean final-VP difference (VP; Welch's t, :func:`_welch`)."""
    e, lo, hi = newcombe(b_["wins"], b_["games"], a_["wins"], a_["games"])
    xa = da.filter((pl.col("players") == players) & (pl.col("strategy") == s))["win_share"].to_numpy()
    xb = db.filter((pl.col("players") == players) & (pl.col("strategy") == s))["win_share"].to_numpy()
    sd = math.sqrt(float(np.var(xa, ddof=1)) + float(np.var(xb, ddof=1))) if min(xa.size, xb.size) > 1 \
        else math.nan
    win = {"est": e, "low": lo, "high": hi, "n": int(min(a_["games"], b_["games"])),
           "games_needed": games_for_difference(sd, e), "p": two_rates_p(b_["wins"], b_["games"],
                                                                        a_["wins"], a_["games"])}
    vp = _welch(da.filter((pl.col("players") == players) & (pl.col("strategy") == s))["vp"].to_numpy()
                .astype(float),
                db.filter((pl.col("players") == players) & (pl.col("strategy") == s))["vp"].to_numpy()
                .astype(float))
    return win, vp


def _strategy_rows(da: pl.DataFrame, db: pl.DataFrame, j: pl.DataFrame, base: dict, design: str) -> list[dict]:
    """The ``win rate (points)`` and ``final VP`` rows of every (player count, strategy) both versions played
    (games ``da`` of the reference, ``db`` of the later version), paired over the matched games ``j`` when it
    has rows, else unpaired; ``base`` the ``version``/``reference`` columns, ``design`` the design column."""
    rows = []
    ra, rb = strategy_rates(da), strategy_rates(db)
    own = {(r["players"], r["strategy"]): r for r in ra.iter_rows(named=True)}
    own_b = {(r["players"], r["strategy"]): r for r in rb.iter_rows(named=True)}
    for key in sorted(set(own) & set(own_b)):
        players, s = key
        a_, b_ = own[key], own_b[key]
        win, vp = _paired_strategy(j, players, s) if j.height > 0 else _unpaired_strategy(da, db, a_, b_, players, s)
        rows.append({**base, "metric": "win rate (points)", "players": players, "strategy": s, "design": design,
                     "ref": a_["est"] * 100, "value": b_["est"] * 100,
                     **{k: (win[k] * 100 if k in ("est", "low", "high") else win[k]) for k in win}})
        rows.append({**base, "metric": "final VP", "players": players, "strategy": s, "design": design,
                     "ref": a_["vp"], "value": b_["vp"], **vp})
    return rows


def _seat_rows(runs: Runs, df: pl.DataFrame, ref: Version, v: Version, pairs: list[tuple[str, str]], base: dict,
               arms: bool) -> list[dict]:
    """The ``seat spread (points)`` rows, one per player count both versions played: version ``v`` minus
    ``ref``, the best and worst seats as each version's own verdict chose them (percentage points); paired
    (game matched over the seat-source runs of ``pairs``) where such games exist, else Welch's t."""
    rows = []
    na, _ = seat_source(subset(runs, ref.runs))
    nb, _ = seat_source(subset(runs, v.runs))
    sa = seat_spread(df.filter(pl.col("run").is_in(na)))
    sb = seat_spread(df.filter(pl.col("run").is_in(nb)))
    spa = {r["players"]: r for r in sa.iter_rows(named=True)}
    spb = {r["players"]: r for r in sb.iter_rows(named=True)}
    seat_pairs = [(x, y) for x, y in pairs if x in na and y in nb]
    js = matched_games(df, seat_pairs, same_strategy=not arms) if seat_pairs else pl.DataFrame()
    for players in sorted(set(spa) & set(spb)):
        a_, b_ = spa[players], spb[players]
        if js.height:
            sub = js.filter(pl.col("players") == players).with_columns(
                pl.concat_str("pair", "seat_order", "game_seed", separator="/").alias("_g"))
            xa = _spread_per_game(sub, a_["best_seat"], a_["worst_seat"]).sort("_g")
            xb = _spread_per_game(sub, b_["best_seat"], b_["worst_seat"], "win_share_b").sort("_g")
            cl = xa.select(pl.col("_g").str.replace(r"/[^/]*/", "/")).to_series().to_numpy()  # pair/seed
            r = _paired_mean((xb["d"].to_numpy() - xa["d"].to_numpy()) * 100, cluster=cl)
            sdesign = "paired (game matched; seats as each version's verdict chose them)"
        else:
            fa = df.filter(pl.col("run").is_in(na) & (pl.col("players") == players)).with_columns(
                pl.concat_str("run", "game", separator="/").alias("_g"))
            fb = df.filter(pl.col("run").is_in(nb) & (pl.col("players") == players)).with_columns(
                pl.concat_str("run", "game", separator="/").alias("_g"))
            r = _welch(_spread_per_game(fa, a_["best_seat"], a_["worst_seat"])["d"].to_numpy() * 100,
                       _spread_per_game(fb, b_["best_seat"], b_["worst_seat"])["d"].to_numpy() * 100)
            sdesign = "unpaired (descriptive: different games)"
        rows.append({**base, "metric": "seat spread (points)", "players": players,
                     "strategy": f"seat {b_['best_seat'] + 1} - seat {b_['worst_seat'] + 1} "
                                 f"(was {a_['best_seat'] + 1} - {a_['worst_seat'] + 1})",
                     "design": sdesign, "ref": a_["spread"], "value": b_["spread"], **r})
    return rows


def _length_rows(df: pl.DataFrame, da: pl.DataFrame, db: pl.DataFrame, pairs: list[tuple[str, str]],
                 j: pl.DataFrame, base: dict, design: str, arms: bool) -> list[dict]:
    """The ``game length (turns)`` and ``game length (rounds)`` rows (those the games table has), one per
    player count both versions played: the mean per game (seat 0's row), paired over the matched games
    ``j`` when it has rows (for arms re-matched on games alone: a game's length does not depend on who
    sits), else Welch's t."""
    rows = []
    for col in ("turns", "rounds"):
        if col not in df.columns:
            continue
        for players in sorted(set(da["players"].unique().to_list()) & set(db["players"].unique().to_list())):
            one_a = da.filter((pl.col("seat") == 0) & (pl.col("players") == players))[col].to_numpy().astype(float)
            one_b = db.filter((pl.col("seat") == 0) & (pl.col("players") == players))[col].to_numpy().astype(float)
            if j.height > 0:
                jj = matched_games(df, pairs, same_strategy=False) if arms else j  # a game's length: any seat
                sub = jj.filter((pl.col("seat") == 0) & (pl.col("players") == players))
                if not sub.height:  # seat 0's strategy differs in every matched game: match on games alone
                    continue
                r = _paired_mean(sub[f"{col}_b"].to_numpy().astype(float) - sub[col].to_numpy().astype(float),
                                 cluster=seed_clusters(sub))
            else:
                r = _welch(one_a, one_b)
            rows.append({**base, "metric": f"game length ({col})", "players": players, "strategy": "",
                         "design": design, "ref": float(one_a.mean()), "value": float(one_b.mean()), **r})
    return rows


def delta_table(runs: Runs, vs: list[Version], *, arms: bool = False) -> pl.DataFrame:
    """Every later version minus the first: per strategy and player count its win rate (percentage
    points) and mean final VP, the seat spread per player count (percentage points), game length
    (turns, rounds); paired game and seat matched where the versions played the same games, else
    unpaired (``design`` says which). Columns: ``version, reference, metric, players, strategy, design,
    n, ref, value, est, low, high, games_needed`` (``ref``/``value`` the two versions' own figures).
    ``arms``: the versions are an experiment's arms (:func:`paired_runs`)."""
    df = _frame(runs)
    ref = vs[0]
    rows = []
    for v in vs[1:]:
        pairs = paired_runs(runs, ref, v, arms=arms)
        base = {"version": v.label, "reference": ref.label}
        da = df.filter(pl.col("run").is_in(list(ref.runs)))
        db = df.filter(pl.col("run").is_in(list(v.runs)))
        j = matched_games(df, pairs) if pairs else pl.DataFrame()
        design = "paired (game and seat matched)" if j.height > 0 else "unpaired (descriptive: different games)"
        rows += _strategy_rows(da, db, j, base, design)
        rows += _seat_rows(runs, df, ref, v, pairs, base, arms)
        rows += _length_rows(df, da, db, pairs, j, base, design, arms)
    cols = ["version", "reference", "metric", "players", "strategy", "design", "n", "ref", "value", "est", "low",
            "high", "games_needed", "p"]
    if not rows:
        return pl.DataFrame(schema={c: pl.String for c in cols})
    return pl.DataFrame(rows, infer_schema_length=None).select(cols)


# ------------------------------------------------------------------ report sections and CLI lines
def _iv(lo, hi) -> str:
    ok = all(x is not None and math.isfinite(x) for x in (lo, hi))
    return f"[{lo:.1f}, {hi:.1f}]" if ok else "[no interval: too few games]"


def version_line(runs: Runs, v: Version) -> str:
    """One line for a version: its runs, the top strategy with its win rate, and the seat spread per
    player count (its own figures, from its runs alone)."""
    sub = subset(runs, v.runs)
    df = games_frame(sub)
    parts = []
    for (players,), r in strategy_rates(df).group_by("players", maintain_order=True):
        r = r.sort(["est", "strategy"], descending=[True, False])
        parts.append(f"{players} players: " + ", ".join(
            f"{x['strategy']} {x['est'] * 100:.1f}% {_iv(x['low'] * 100, x['high'] * 100)}"
            for x in r.iter_rows(named=True)))
    names, _ = seat_source(sub)
    for r in seat_spread(df.filter(pl.col("run").is_in(names))).iter_rows(named=True):
        parts.append(f"seat spread {r['spread']:.1f} points {_iv(r['spread_low'], r['spread_high'])} at "
                     f"{r['players']} players")
    pooled = pooled_sentence(v, runs)
    runs_txt = f"run {v.runs[0]}" if len(v.runs) == 1 else pooled
    return f"{v.title}, {runs_txt}: " + "; ".join(parts)


def _counts_of(runs: Runs, v: Version) -> set[int]:
    """The player counts of version ``v``'s runs."""
    return {int(runs.manifests[r]["config"]["players"]) for r in v.runs}


def _unpaired_reasons(runs: Runs, a: Version, b: Version) -> list[str]:
    """What keeps ``b``'s runs from pairing with ``a``'s at a shared player count (the settings named with both
    values: ``seed 0 against 5``, ``roster writer,observer against writer,inventor``); empty when they pair."""
    if paired_runs(runs, a, b):
        return []
    out = []
    for p in sorted(_counts_of(runs, a) & _counts_of(runs, b)):
        ka = [_pair_key(runs.manifests[r]) for r in a.runs if int(runs.manifests[r]["config"]["players"]) == p]
        kb = [_pair_key(runs.manifests[r]) for r in b.runs if int(runs.manifests[r]["config"]["players"]) == p]
        x, y = ka[0], kb[0]
        for i, name in ((1, "roster"), (2, "seed"), (3, "seating")):
            if x[i] != y[i]:
                show = (lambda k: ",".join(k)) if i == 1 else str
                out.append(f"{p} players: {name} {show(x[i])} against {show(y[i])}")
    return out


def delta_lines(t: pl.DataFrame) -> list[str]:
    """The delta table's rows as sentences."""
    out = []
    for r in t.iter_rows(named=True):
        what = f"{r['strategy']}'s {r['metric']}" if r["metric"] in ("win rate (points)", "final VP") else \
            f"{r['metric']}" + (f" {r['strategy']}" if r["strategy"] else "")
        need = f"; about {r['games_needed']:,} games resolve a difference this size" if r["games_needed"] else ""
        out.append(f"Version {r['version']} minus {r['reference']}, {r['players']} players, {what}: {r['ref']:.1f} -> "
                   f"{r['value']:.1f}, {r['est']:+.1f} {_iv(r['low'], r['high'])}, {r['design']}, "
                   f"{r['n']:,} games{need}.")
    return out


__all__ = ["Version", "delta_lines", "delta_table", "matched_games", "paired_runs", "pooled_sentence", "subset",
           "version_key", "version_line", "versions"]
