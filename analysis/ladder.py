"""The skill ladder's analysis (:mod:`meeplelab.studies.ladder`): per-rung tables, the budget where search strength stops
rising, luck against skill, the chart, the Markdown report and the ``docs/strategies.md`` block.

Words used in every table (rates in [0, 1]; the report shows percent):

- **score** of a rung against an opponent: over the games of their pairing, the share of (rung seat,
  opponent seat) pairs in which the rung's seat finishes ahead (a tie on VP and tie-break counts 1/2),
  with its 95% Wilson interval; at 2 seats it is the rung's win rate (its win share). ``score_seat1`` ...
  are the same from each seat (seats numbered from 1);
- **margin**: the rung's VP minus the best VP of the other seats, mean with a 95% t interval;
- **games/s**: games of the pairing per second of play (the sum of its chunks' seconds: one worker's
  throughput, whatever ``n_jobs``); a timing, so it is kept apart from the results, in ``timing.json``
  (:func:`timing`): the result files are the same bytes for the same games, the timings never are;
- **rating**: Bradley-Terry strength fitted on every pairing's games (:func:`meeplelab.analysis.tournament.bradley_terry`),
  in Elo points relative to the heuristic, with a percentile bootstrap interval over the common game seeds
  (a resample keeps every pairing's games of a seed together).

**Where strength stops rising** (:func:`plateau`): the doublings of the search budget are compared head to
head (``iters=2k`` against ``iters=k``, the Ludii SkillTrace levels); strength is still rising at a doubling
whose 95% Wilson interval lies above 50%. The budget named is the last one reached by such a run of rising
doublings from the first search rung; a doubling whose interval includes 50% is *not resolved*, which at the
ladder's sample size may be a plateau or a small gain (the games needed to resolve it are given). Ludii's
SkillTrace number itself (:func:`skill_trace`) is computed from the same levels.

**Luck against skill**:

- how often the weaker player wins: the top rung against ``random`` and against the heuristic (``1 - score``);
- games a stronger player needs to be ahead with 95% probability (:func:`games_to_lead`);
- Gilbert and Wells' information-theoretic luck (:func:`information_luck`; D. E. Gilbert and M. T. Wells,
  "Ludometrics: Luck, and How to Measure It", Journal of Quantitative Analysis in Sports 15(3), 2019;
  arXiv:1811.00673, 2018): for a population of players and the way they are paired, the share of the
  entropy of a game's outcome that is left once the players' skills are known,
  ``luck = E[H(O | skills)] / H(O)``; skill is ``1 - luck``. A coin flip has luck 1, a game the stronger
  player always wins luck 0. Skills are the Bradley-Terry strengths, the population the ladder's rungs
  paired uniformly (and the two-rung populations top/random and top/heuristic, whose luck is the binary
  entropy of their measured rate). Luck is a property of the game *and* the population: a wider ladder
  (random at the bottom) shows less luck than two close players.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
import subprocess
import warnings
from pathlib import Path
from typing import Sequence

import numpy as np
import polars as pl

from meeplelab.sim.core.errors import ConfigError

from dataclasses import dataclass

from .stats import NO_GAMES, bootstrap, games_for_rate_width, mean_t, rate_p, wilson
from .tables import canonical, write_table
from .figures import ladder_chart, save
from .load import scan_run
from .tournament import bradley_terry, ELO
from meeplelab.play import runfolder as rf
from meeplelab.play.runfolder import read_manifest

#: the project's checkout (for the commit a docs block names)
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Comparison:
    """A rung measured against an opponent: ``role`` ``heuristic``, ``below`` or ``random``."""

    rung: str
    opponent: str
    role: str


@dataclass(frozen=True)
class Pairing:
    """One run folder: ``focal`` in one seat, ``opponent`` in the others, every seat order."""

    folder: str
    focal: str
    opponent: str


def _play_time(secs: float) -> str:
    """``1 minute``, ``53 minutes``, ``40 seconds`` (under a minute)."""
    if secs < 60:
        return f"{secs:.0f} seconds"
    m = round(secs / 60)
    return f"{m} minute" + ("" if m == 1 else "s")


def served_by(c: Comparison, pairs: Sequence[Pairing], players: int) -> Pairing | None:
    """The pairing whose games measure ``c``: its own focal/opponent, or (at 2 seats, where the two
    rosters play the same games) the reverse."""
    for p in pairs:
        if (p.focal, p.opponent) == (c.rung, c.opponent) or (
                players == 2 and (p.focal, p.opponent) == (c.opponent, c.rung)):
            return p
    return None



LEVEL = 0.95
#: the longest match :func:`games_to_lead` looks at
LEAD_CAP = 100_000
DOCS_BLOCK = re.compile(r"(<!-- ladder (?P<game>[a-z0-9-]+) -->\n)(?P<body>.*?)(<!-- /ladder -->)", re.S)


# ---------------------------------------------------------------------------------------------- measures
def binary_entropy(p) -> np.ndarray:
    """Entropy in bits of a two-way outcome with probability ``p`` (scalar or array; 0 at p = 0 or 1)."""
    p = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(p * np.log2(p) + (1 - p) * np.log2(1 - p))
    return np.where((p <= 0) | (p >= 1), 0.0, h)


def information_luck(prob) -> float:
    """Gilbert and Wells' information-theoretic luck of a population paired uniformly.

    Args:
        prob: float[K, K], ``prob[i, j]`` = probability that player ``i`` finishes ahead of ``j`` (ties
            counted 1/2), ``prob[j, i] = 1 - prob[i, j]``; the diagonal is ignored. Every ordered pair of
            distinct players is equally likely to meet.

    Returns:
        ``E[H(O | skills)] / H(O)`` in [0, 1]: the mean binary entropy of the pairs' outcomes over the
        entropy of the outcome of a random pairing (1 bit when ``prob`` is consistent); 1 when skill does not
        change the odds (a coin flip), 0 when the better player always finishes ahead; nan for fewer than
        two players.
    """
    p = np.asarray(prob, dtype=float)
    k = p.shape[0]
    if k < 2:
        return math.nan
    off = ~np.eye(k, dtype=bool)
    marginal = float(binary_entropy(p[off].mean()))
    if marginal <= 0:
        return math.nan
    return float(binary_entropy(p[off]).mean() / marginal)


def bt_probabilities(b) -> np.ndarray:
    """float[K, K] Bradley-Terry probabilities ``1 / (1 + exp(b_j - b_i))`` from log-strengths ``b`` (float[K])."""
    b = np.asarray(b, dtype=float)
    return 1.0 / (1.0 + np.exp(b[None, :] - b[:, None]))


def games_to_lead(p: float, level: float = LEVEL, cap: int = LEAD_CAP) -> int | None:
    """Games a player who wins each game with probability ``p`` needs to be ahead (strictly more wins than
    the opponent) with probability ``level``, for that match length and every longer one (binomial model:
    games independent, a tie counted as half a win in ``p``).

    Returns:
        the number of games (1 when one game suffices), or None when ``p <= 0.5`` (never) or more than
        ``cap`` games are needed.
    """
    if not math.isfinite(p) or p <= 0.5:
        return None
    n = np.arange(1, cap + 1)
    # start-up: scipy.stats takes ~0.5 s to import; of this module only this binomial tail uses it
    from scipy.stats import binom

    ahead = binom.sf(n // 2, n, p)  # P(X > floor(n/2)): strictly more than half the games
    ok = ahead >= level
    if not ok[-1]:
        return None
    bad = np.flatnonzero(~ok)
    return int(bad[-1] + 2) if bad.size else 1


def skill_trace(utilities: Sequence[float]) -> float:
    """Ludii's SkillTrace value (``metrics.designer.SkillTrace``) of a list of doubling levels.

    Args:
        utilities: per level, the mean result of the search with the doubled budget against the same search
            with the budget before, as a utility in [-1, 1] (``2 x score - 1`` at 2 seats).

    Returns:
        ``y + (1 - y) x area / L`` with ``L`` the number of levels, ``area`` the sum of the positive utilities
        and ``y`` the least-squares line through (level index, utility) predicted at index ``L + 1`` and
        clamped to [0, 1], as Ludii computes it; nan for fewer than two levels.
    """
    y = np.asarray(utilities, dtype=float)
    n = y.size
    if n < 2 or not np.all(np.isfinite(y)):
        return math.nan
    x = np.arange(n, dtype=float)
    slope, icept = np.polyfit(x, y, 1)
    nxt = min(max(icept + slope * (n + 1), 0.0), 1.0)
    return float(nxt + (1 - nxt) * np.maximum(y, 0).sum() / n)


# ---------------------------------------------------------------------------------------------- reading games
#: the file of a ladder folder that holds its timings (never a result: it differs from run to run)
TIMING_FILE = "timing.json"


def timing(out: Path | str, meta: dict) -> dict:
    """The ladder's timings, kept apart from its results: ``{"play_seconds", "play_time", "pairings": [{"pairing",
    "focal", "opponent", "games", "seconds", "games_per_s"}]}``; seconds are the sums of each pairing's chunks'
    seconds (one worker's throughput, whatever ``n_jobs``), games/s null where no second was recorded."""
    out = Path(out)
    rows = []
    for p in meta["pairings"]:
        chunks = [c for c in read_manifest(out / p["folder"])["chunks"] if c.get("status") == "done"]
        secs = float(sum(c.get("seconds", 0.0) for c in chunks))
        games = sum(int(c["hi"]) - int(c["lo"]) for c in chunks)
        rows.append({"pairing": p["folder"], "focal": p["focal"], "opponent": p["opponent"], "games": games,
                     "seconds": round(secs, 3), "games_per_s": round(games / secs, 2) if secs > 0 else None})
    total = round(sum(r["seconds"] for r in rows), 1)
    return {"play_seconds": total, "play_time": _play_time(total), "pairings": rows}


def pair_frame(folder: Path | str) -> pl.DataFrame:
    """One row per game of a pairing's run folder, from the focal strategy's seat (roster position 0).

    Returns:
        ``game, game_seed, seat_order, seat`` (the focal seat, 0-based), ``score`` (share of the other seats
        it finishes ahead of, ties 1/2), ``win_share``, ``margin`` (VP minus the best other VP), ``vp``;
        sorted by game.
    """
    folder = Path(folder)
    orders = read_manifest(folder)["seating"]["orders"]
    focal = pl.DataFrame({"seat_order": list(range(len(orders))), "focal": [list(o).index(0) for o in orders]},
                         schema={"seat_order": pl.Int16, "focal": pl.Int8})
    g = scan_run(folder, "games").select("game", "game_seed", "seat_order", "seat", "rank", "win_share", "margin",
                                         "vp").collect()
    g = g.join(focal, on="seat_order")
    me = g.filter(pl.col("seat") == pl.col("focal")).select("game", "game_seed", "seat_order", "seat",
                                                            pl.col("rank").alias("my_rank"), "win_share", "margin", "vp")
    other = g.filter(pl.col("seat") != pl.col("focal")).select("game", "rank")
    sc = (other.join(me.select("game", "my_rank"), on="game")
          .with_columns(((pl.col("my_rank") < pl.col("rank")).cast(pl.Float64)
                         + 0.5 * (pl.col("my_rank") == pl.col("rank")).cast(pl.Float64)).alias("score"))
          .group_by("game", maintain_order=True).agg(pl.col("score").mean()))
    return me.join(sc, on="game").select("game", "game_seed", "seat_order", "seat", "score", "win_share", "margin",
                                         "vp").sort("game")


def oriented(out: Path | str, pairing, comparison, players: int) -> pl.DataFrame:
    """The games of ``pairing`` seen from ``comparison.rung`` (:func:`pair_frame` columns; at 2 seats a pairing
    played the other way round is turned: score and win share ``1 - x``, margin negated, the other seat)."""
    df = pair_frame(Path(out) / pairing.folder)
    if pairing.focal == comparison.rung:
        return df
    if players != 2:
        raise ValueError(f"pairing {pairing.folder} does not measure {comparison.rung} at {players} seats")
    return df.with_columns((1 - pl.col("score")).alias("score"), (1 - pl.col("win_share")).alias("win_share"),
                           (-pl.col("margin")).alias("margin"), (1 - pl.col("seat")).cast(pl.Int8).alias("seat"))


def comparison_scores(out: Path | str, pairing, comparison, players: int) -> dict:
    """Score of ``comparison.rung`` against its opponent: ``{"games", "score", "low", "high"}`` (Wilson 95%)."""
    df = oriented(out, pairing, comparison, players)
    s, lo, hi = wilson(float(df["score"].sum()), df.height)
    return {"games": df.height, "score": float(s), "low": float(lo), "high": float(hi)}


def _lead_cells(s: float, lo: float, hi: float) -> tuple[int | None, int | None, int | None]:
    """Games to be ahead at the estimate, at the interval's upper bound (fewest) and lower bound (most)."""
    return games_to_lead(s), games_to_lead(hi), games_to_lead(lo)


def comparison_table(out: Path | str, meta: dict) -> pl.DataFrame:
    """One row per comparison of the ladder (:mod:`meeplelab.studies.ladder`): ``rung, rung_label, opponent, opponent_label,
    role, pairing, games, score, score_low, score_high, p`` (score test against 50%), ``win_rate, win_low,
    win_high, fair, margin, margin_low, margin_high, score_seat1 .. score_seatP`` (with ``_low``/``_high``),
    ``lead_games, lead_games_fewest, lead_games_most`` (:func:`games_to_lead` at the score and at its interval's
    bounds; null: never or beyond the cap). The pairings' games/s are in :func:`timing`."""
    out = Path(out)
    players = int(meta["players"])
    labels = {r["id"]: r["label"] for r in meta["rungs"]}
    pairs = [Pairing(**p) for p in meta["pairings"]]
    rows = []
    for c in (Comparison(**c) for c in meta["comparisons"]):
        p = served_by(c, pairs, players)
        df = oriented(out, p, c, players)
        n = df.height
        s, lo, hi = (float(x) for x in wilson(float(df["score"].sum()), n))
        w, wlo, whi = (float(x) for x in wilson(float(df["win_share"].sum()), n))
        m, mlo, mhi = mean_t(df["margin"].to_numpy())
        row = {"rung": c.rung, "rung_label": labels.get(c.rung, c.rung), "opponent": c.opponent,
               "opponent_label": labels.get(c.opponent, c.opponent), "role": c.role, "pairing": p.folder,
               "games": n, "score": s, "score_low": lo, "score_high": hi, "p": float(rate_p(float(df["score"].sum()), n, 0.5)),
               "win_rate": w, "win_low": wlo, "win_high": whi, "fair": 1.0 / players,
               "margin": float(m), "margin_low": float(mlo), "margin_high": float(mhi)}
        for seat in range(players):
            sub = df.filter(pl.col("seat") == seat)
            a, b, d = (float(x) for x in wilson(float(sub["score"].sum()), sub.height))  # nan: no games there
            row[f"score_seat{seat + 1}"], row[f"score_seat{seat + 1}_low"], row[f"score_seat{seat + 1}_high"] = a, b, d
        row["lead_games"], row["lead_games_fewest"], row["lead_games_most"] = _lead_cells(s, lo, hi)
        rows.append(row)
    schema_over = {k: pl.Int64 for k in ("lead_games", "lead_games_fewest", "lead_games_most")}
    return canonical(pl.DataFrame(rows, schema_overrides=schema_over))


# ---------------------------------------------------------------------------------------------- strength and luck
def _seed_data(out: Path, meta: dict):
    """Per common game seed: pairwise scores between rungs ``float[S, K, K]`` (row ahead of column) and the
    per-seed score sums and game counts of every comparison ``(float[C, S], float[C, S])``."""
    players = int(meta["players"])
    ids = [r["id"] for r in meta["rungs"]]
    idx = {s: i for i, s in enumerate(ids)}
    seeds = int(meta["games_per_rung"]) // players
    t = np.zeros((seeds, len(ids), len(ids)))
    pairs = [Pairing(**p) for p in meta["pairings"]]
    for p in pairs:
        df = pair_frame(out / p.folder)
        sd, sc = df["game_seed"].to_numpy(), df["score"].to_numpy()
        i, j = idx[p.focal], idx[p.opponent]
        np.add.at(t[:, i, j], sd, sc)
        np.add.at(t[:, j, i], sd, 1 - sc)
    comps = [Comparison(**c) for c in meta["comparisons"]]
    sums, cnts = np.zeros((len(comps), seeds)), np.zeros((len(comps), seeds))
    for k, c in enumerate(comps):
        df = oriented(out, served_by(c, pairs, players), c, players)
        np.add.at(sums[k], df["game_seed"].to_numpy(), df["score"].to_numpy())
        np.add.at(cnts[k], df["game_seed"].to_numpy(), 1.0)
    return t, sums, cnts


def doublings(meta: dict) -> list[int]:
    """Indices (into ``meta["comparisons"]``) of the search rungs' comparisons with the rung below when that
    rung is the same search at half the budget, in budget order."""
    kinds = {r["id"]: r for r in meta["rungs"]}
    out = []
    for k, c in enumerate(meta["comparisons"]):
        a, b = kinds.get(c["rung"]), kinds.get(c["opponent"])
        if c["role"] == "below" and a and b and a["kind"] == b["kind"] == "search":
            out.append(k)
    return sorted(out, key=lambda k: kinds[meta["comparisons"][k]["rung"]]["iters"])


def strength(out: Path | str, meta: dict, *, resamples: int = 400, seed: int = 0) -> dict:
    """Bradley-Terry ratings of the rungs (Elo points relative to the heuristic), the ladder's information luck
    and Ludii's SkillTrace, each with a percentile bootstrap interval over the common game seeds.

    Returns:
        ``{"ids": [K], "rating", "rating_low", "rating_high": float[K], "luck": (est, low, high),
        "skill_trace": (est, low, high), "seeds": S}``.
    """
    out = Path(out)
    t, sums, cnts = _seed_data(out, meta)
    ids = [r["id"] for r in meta["rungs"]]
    h = ids.index("heuristic")
    dbl = doublings(meta)
    s = t.shape[0]

    def stat(w_seed: np.ndarray) -> np.ndarray:
        b = bradley_terry(np.tensordot(w_seed, t, axes=1))
        sc = (sums[dbl] @ w_seed) / np.maximum(cnts[dbl] @ w_seed, 1e-300) if dbl else np.zeros(0)
        return np.r_[(b - b[h]) * ELO, information_luck(bt_probabilities(b)), skill_trace(2 * sc - 1)]

    est = stat(np.ones(s))
    with warnings.catch_warnings():  # the heuristic's rating is 0 in every resample (degenerate by design)
        warnings.simplefilter("ignore")
        boot = bootstrap(s, lambda i: stat(np.bincount(i, minlength=s).astype(float)), purpose="ladder", seed=seed,
                         resamples=resamples, vectorized=False)
    k = len(ids)
    lo, hi = np.atleast_1d(boot.low), np.atleast_1d(boot.high)
    return {"ids": ids, "rating": est[:k], "rating_low": lo[:k], "rating_high": hi[:k],
            "luck": (est[k], lo[k], hi[k]), "skill_trace": (est[k + 1], lo[k + 1], hi[k + 1]), "seeds": s}


def plateau(comps: pl.DataFrame, meta: dict) -> dict:
    """Where the search's strength stops rising (see the module docstring).

    Returns:
        ``{"budget": iters or None, "rising_to_budget": bool, "text": one sentence}``; ``budget`` is the last
        budget reached by rising doublings (the first search rung when the first doubling is not resolved).
    """
    its = {r["id"]: r["iters"] for r in meta["rungs"] if r["kind"] == "search"}
    if not its:
        return {"budget": None, "rising_to_budget": False, "text": "No search rungs (--budget 0)."}
    dbl = comps.filter((pl.col("role") == "below") & pl.col("rung").is_in(list(its)) & pl.col("opponent").is_in(list(its)))
    dbl = dbl.with_columns(pl.col("rung").replace_strict(its, return_dtype=pl.Int64).alias("iters")).sort("iters")
    first = min(its.values())
    if dbl.height == 0:
        return {"budget": None, "rising_to_budget": False,
                "text": f"One search rung only (iters={first}): no doubling to compare (raise --budget)."}
    steps = [f"{r['iters'] // 2} to {r['iters']}: {_pct(r['score'])} [{_pct(r['score_low'])}, {_pct(r['score_high'])}]"
             for r in dbl.iter_rows(named=True)]
    every = f" Every doubling (the doubled budget's score against the budget before, {dbl['games'][0]:,} games each): " \
            + "; ".join(steps) + "."
    reached = first
    for r in dbl.iter_rows(named=True):
        cell = f"{_pct(r['score'])} [{_pct(r['score_low'])}, {_pct(r['score_high'])}] of {r['games']:,} games"
        if r["score_low"] > 0.5:
            reached = r["iters"]
            continue
        if r["score_high"] < 0.5:
            why = "an interval below 50%: the doubled budget plays *worse*"
        else:
            why = f"an interval that includes 50% ({_need_text(r['score'])})"
        return {"budget": reached, "rising_to_budget": False,
                "text": f"Strength stops rising measurably at **iters={reached}**: iters={r['iters']} against "
                        f"iters={r['iters'] // 2} scores {cell}, {why}." + every}
    return {"budget": reached, "rising_to_budget": True,
            "text": f"Strength is **still rising at the budget** (iters={reached}): every doubling scores above 50% "
                    "with its whole interval; a larger --budget would show where it stops." + every}


def _need_text(score: float) -> str:
    d = abs(score - 0.5)
    if d < 1e-9:
        return "no difference at all measured"
    return (f"resolving a difference of {100 * d:.1f} points from 50% would take about "
            f"{games_for_rate_width(2 * d, 0.5):,} games")


def rung_table(comps: pl.DataFrame, meta: dict, strong: dict) -> pl.DataFrame:
    """One row per rung in ladder order: ``order, label, id, kind, iters``; against the heuristic ``h_games,
    h_score, h_low, h_high, h_margin, h_margin_low, h_margin_high``; against the rung below ``below,
    b_games, b_score, b_low, b_high, b_margin, b_margin_low, b_margin_high``; ``rating, rating_low,
    rating_high`` (Elo relative to the heuristic)."""
    rows = []
    rate = dict(zip(strong["ids"], zip(strong["rating"], strong["rating_low"], strong["rating_high"])))
    for k, r in enumerate(meta["rungs"]):
        row = {"order": k, "label": r["label"], "id": r["id"], "kind": r["kind"], "iters": r["iters"]}
        for role, pre in (("heuristic", "h"), ("below", "b")):
            sub = comps.filter((pl.col("rung") == r["id"]) & (pl.col("role") == role))
            if role == "below":
                row["below"] = sub["opponent_label"][0] if sub.height else None
            if sub.height:
                x = sub.row(0, named=True)
                vals = [x["games"], x["score"], x["score_low"], x["score_high"], x["margin"], x["margin_low"],
                        x["margin_high"]]
            else:
                vals = [None] * 7
            for name, v in zip(("games", "score", "low", "high", "margin", "margin_low", "margin_high"), vals):
                row[f"{pre}_{name}"] = v
        row["rating"], row["rating_low"], row["rating_high"] = (float(v) for v in rate[r["id"]])
        rows.append(row)
    over = {"iters": pl.Int64, "h_games": pl.Int64, "b_games": pl.Int64, "below": pl.String,
            **{f"{p}_{n}": pl.Float64 for p in "hb" for n in ("score", "low", "high", "margin", "margin_low",
                                                               "margin_high")}}
    return canonical(pl.DataFrame(rows, schema_overrides=over))


def luck_table(comps: pl.DataFrame, meta: dict, strong: dict, plat: dict) -> pl.DataFrame:
    """The luck-against-skill measures: ``measure, between, stronger, est, low, high, games, resolved`` (rates in
    [0, 1], games as counts; null bounds where none applies, a null games-to-be-ahead bound when it is unbounded).
    For the top rung against random and against the heuristic, ``stronger`` is the one with the higher measured
    score (``resolved``: its Wilson interval excludes 50%), "weaker wins" is the other's score and the games to be
    ahead are the stronger's."""
    top = meta["rungs"][-1]
    rows = []
    for opp, name in (("random", "random"), ("heuristic", "the heuristic")):
        sub = comps.filter((pl.col("rung") == top["id"]) & (pl.col("opponent") == opp))
        if top["id"] == opp or sub.height == 0:
            continue
        x = sub.row(0, named=True)
        between = f"{top['label']} vs {name}"
        sc, slo, shi = x["score"], x["score_low"], x["score_high"]
        up = sc >= 0.5  # the measured stronger of the two: the top rung, or its opponent
        stronger = top["label"] if up else name
        p, p_far, p_near = (sc, shi, slo) if up else (1 - sc, 1 - slo, 1 - shi)
        rows.append({"measure": "weaker wins", "between": between, "stronger": stronger, "est": 1 - p,
                     "low": 1 - p_far, "high": min(1 - p_near, 0.5), "games": x["games"],
                     "resolved": bool(slo > 0.5 or shi < 0.5)})
        rows.append({"measure": "games to be ahead (95%)", "between": between, "stronger": stronger,
                     "est": _f(games_to_lead(p)), "low": _f(games_to_lead(p_far)), "high": _f(games_to_lead(p_near)),
                     "games": x["games"]})
        lo, hi = sorted((float(binary_entropy(slo)), float(binary_entropy(shi))))
        if slo <= 0.5 <= shi:
            hi = 1.0
        rows.append({"measure": "luck (information)", "between": between, "stronger": stronger,
                     "est": float(binary_entropy(sc)), "low": lo, "high": hi, "games": x["games"]})
    n_games = int(comps.unique("pairing", maintain_order=True)["games"].sum())  # every pairing's games once
    e, lo, hi = strong["luck"]
    rows.append({"measure": "luck (information)", "between": "every rung (Bradley-Terry)", "est": e, "low": lo,
                 "high": hi, "games": n_games})
    rows.append({"measure": "skill (1 - luck)", "between": "every rung (Bradley-Terry)", "est": 1 - e, "low": 1 - hi,
                 "high": 1 - lo, "games": n_games})
    e, lo, hi = strong["skill_trace"]
    dbl = comps.filter(pl.col("rung").is_in([comps["rung"][k] for k in doublings(meta)]) & (pl.col("role") == "below"))
    rows.append({"measure": "SkillTrace (Ludii)", "between": "search doublings", "est": e, "low": lo, "high": hi,
                 "games": int(dbl["games"].sum())})
    rows.append({"measure": "strength stops rising at iters", "between": "search doublings",
                 "est": _f(plat["budget"]), "low": None, "high": None, "games": int(dbl["games"].sum())})
    return canonical(pl.DataFrame(rows, schema_overrides={"stronger": pl.String, "est": pl.Float64, "low": pl.Float64,
                                                           "high": pl.Float64, "games": pl.Int64,
                                                           "resolved": pl.Boolean}))


def _f(v) -> float | None:
    return None if v is None else float(v)


# ---------------------------------------------------------------------------------------------- output
def _pct(x) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:.1f}%"


def _rate_cell(s, lo, hi, n) -> str:
    if s is None:
        return "-"
    if not n:  # the empty interval of no games (stats.wilson)
        return NO_GAMES
    return f"{100 * s:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] ({n:,})"


def _margin_cell(m, lo, hi) -> str:
    return "-" if m is None else f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}]"


def _lead_text(est, lo, hi) -> str:
    """Games to be ahead with their interval: ``7 games [3, 25]``; ``unbounded`` where the rate's interval
    reaches 50% (or needs more than :data:`LEAD_CAP` games)."""
    if est is None or not math.isfinite(est):
        return f"no finite number of games (its rate is not above 50%, or more than {LEAD_CAP:,} would be needed)"
    most = f"{int(hi):,}" if hi is not None and math.isfinite(hi) else "unbounded"
    return f"{int(est):,} game{'' if int(est) == 1 else 's'} [{int(lo):,}, {most}]"


def commit() -> str:
    """The project's git commit (short), or ``unknown`` outside a git checkout."""
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              timeout=10).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def render(meta: dict, rungs: pl.DataFrame, luck: pl.DataFrame, plat: dict, *, date: str | None = None) -> str:
    """The ladder as Markdown: provenance, the rung table, where strength stops rising, luck against skill
    (the body of ``ladder.md`` and of the ``docs/strategies.md`` block)."""
    date = date or meta.get("date") or _dt.date.today().isoformat()
    p = int(meta["players"])
    lines = [f"Measured {date} (commit {meta.get('commit', commit())}) with `{meta.get('command') or 'meeplelab ladder'}`: "
             f"{meta['games_per_rung']:,} games per pairing ({p} seat orders on {meta['games_per_rung'] // p:,} common "
             f"game seeds, seed {meta['seed']}), search budget up to iters={meta['budget']} "
             f"(`{meta['search']}`). "
             "Win rates (ties 1/2) with 95% Wilson intervals and the number of games; margin = the rung's VP minus "
             "the best other VP (95% t); rating = Bradley-Terry, Elo points relative to the heuristic (95% bootstrap "
             "over the seeds). Games to be ahead: at the measured rate [at the bounds of its interval]. Play time and "
             "games/s of each pairing: `timing.json` beside the tables.", ""]
    head = ["#", "rung", "id", "against the heuristic", "margin (VP)", "rung below", "against the rung below",
            "margin (VP)", "rating (Elo)"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rungs.iter_rows(named=True):
        h = _rate_cell(r["h_score"], r["h_low"], r["h_high"], r["h_games"]) if r["h_games"] else "(itself: 50%)"
        cells = [str(r["order"] + 1), r["label"], f"`{r['id']}`", h,
                 _margin_cell(r["h_margin"], r["h_margin_low"], r["h_margin_high"]),
                 r["below"] or "-", _rate_cell(r["b_score"], r["b_low"], r["b_high"], r["b_games"]),
                 _margin_cell(r["b_margin"], r["b_margin_low"], r["b_margin_high"]),
                 "0 (reference)" if r["id"] == "heuristic" else
                 f"{r['rating']:+.0f} [{r['rating_low']:+.0f}, {r['rating_high']:+.0f}]"]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", plat["text"], ""]
    lines.append("Luck against skill (Gilbert and Wells' information-theoretic luck: the share of a game's outcome "
                 "entropy left once the players' strengths are known, 1 = a coin flip, 0 = the stronger always wins; "
                 "section \"Luck against skill\" of docs/strategies.md):")
    lines.append("")
    for r in luck.iter_rows(named=True):
        m, b, n = r["measure"], r["between"], r["games"]
        if m == "weaker wins":
            weaker = b.split(" vs ")[1] if r["stronger"] == b.split(" vs ")[0] else b.split(" vs ")[0]
            caveat = "" if r["resolved"] else " (which is stronger is not resolved: the interval reaches 50%)"
            lines.append(f"- {b}: the weaker ({weaker}) wins {_rate_cell(r['est'], r['low'], r['high'], n)} of the "
                         f"games{caveat}; the stronger ({r['stronger']}) needs " + _lead_text(*_lead_of(luck, b))
                         + " to be ahead with 95% probability; luck " + _unit_cell(_row(luck, "luck (information)", b)))
        elif m == "luck (information)" and b.startswith("every rung"):
            skill = _row(luck, "skill (1 - luck)", b)
            lines.append(f"- every rung paired uniformly (Bradley-Terry strengths, {n:,} games): luck "
                         f"{_unit_cell(r)}, skill {_unit_cell(skill)}")
        elif m == "SkillTrace (Ludii)":
            lines.append(f"- Ludii's SkillTrace over the search doublings ({n:,} games): {_unit_cell(r)}")
    return "\n".join(lines) + "\n"


def _row(luck: pl.DataFrame, measure: str, between: str) -> dict:
    return luck.filter((pl.col("measure") == measure) & (pl.col("between") == between)).row(0, named=True)


def _lead_of(luck: pl.DataFrame, between: str) -> tuple:
    r = _row(luck, "games to be ahead (95%)", between)
    return r["est"], r["low"], r["high"]


def _unit_cell(r: dict) -> str:
    """A measure in [0, 1] with its interval: ``0.922 [0.845, 0.955]`` (``-`` when undefined)."""
    e = r["est"]
    if e is None or not math.isfinite(e):
        return "- (needs two doublings or more)"
    return f"{e:.3f} [{r['low']:.3f}, {r['high']:.3f}]"


def write_outputs(out: Path | str, meta: dict, *, resamples: int = 400) -> dict[str, pl.DataFrame]:
    """Analyse a played ladder and write ``rungs``, ``pairs`` and ``luck`` (Parquet and CSV), ``ladder.png`` and
    ``ladder.md`` into ``out``, and the timings apart in ``timing.json`` (:func:`timing`); ``meta`` (the ladder's
    settings, :mod:`meeplelab.studies.ladder`) gains ``commit``, and ``meta["report"]`` the Markdown.

    Returns:
        ``{"rungs", "pairs", "luck"}`` tables.
    """
    out = Path(out)
    meta.setdefault("commit", commit())
    rf.write_atomic(out / TIMING_FILE, (json.dumps(timing(out, meta), indent=1) + "\n").encode())
    comps = comparison_table(out, meta)
    strong = strength(out, meta, resamples=resamples, seed=int(meta["seed"]))
    plat = plateau(comps, meta)
    rungs = rung_table(comps, meta, strong)
    luck = luck_table(comps, meta, strong, plat)
    tables = {"rungs": rungs, "pairs": comps, "luck": luck}
    for name, df in tables.items():
        write_table(df, out / f"{name}.parquet")
        rf.write_atomic(out / f"{name}.csv", df.write_csv().encode())
    save(ladder_chart(rungs, title=f"{meta['game']}: skill ladder ({meta['games_per_rung']:,} games per pairing)"),
         out / "ladder.png")
    body = render(meta, rungs, luck, plat)
    meta["report"] = body
    meta["plateau"] = plat
    rf.write_atomic(out / "ladder.md", (f"# Skill ladder: {meta['game']}, {meta['players']} seats\n\n" + body).encode())
    return tables


# ---------------------------------------------------------------------------------------------- the docs block
def check_docs(path: Path | str, game: str) -> None:
    """Raises ConfigError unless ``path`` holds exactly one ``<!-- ladder GAME -->`` ... ``<!-- /ladder -->``
    block for ``game`` (checked before a ladder is played, so ``--docs`` never fails after the games)."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"--docs-file {str(p)!r}: no such file (the Markdown file holding the ladder blocks)")
    n = sum(1 for b in DOCS_BLOCK.finditer(p.read_text()) if b.group("game") == game)
    if n != 1:
        raise ConfigError(f"--docs-file {str(p)!r} holds {n} '<!-- ladder {game} -->' ... '<!-- /ladder -->' "
                          "blocks: allowed exactly one per game")


def update_docs(path: Path | str, game: str, body: str) -> None:
    """Replace the body of ``game``'s ladder block in ``path`` with ``body`` (the file written atomically; the
    other blocks and the text around them unchanged)."""
    check_docs(path, game)
    p = Path(path)
    text = p.read_text()
    b = next(b for b in DOCS_BLOCK.finditer(text) if b.group("game") == game)
    rf.write_atomic(p, (text[:b.end(1)] + body + text[b.start(4):]).encode())


def summary_json(meta: dict) -> str:
    """``ladder.json``-style text of ``meta`` without the report (for logs)."""
    return json.dumps({k: v for k, v in meta.items() if k != "report"}, indent=1)


__all__ = ["DOCS_BLOCK", "LEAD_CAP", "binary_entropy", "bt_probabilities", "check_docs", "comparison_scores",
           "comparison_table", "doublings", "games_to_lead", "information_luck", "luck_table", "oriented",
           "pair_frame", "plateau", "render", "rung_table", "skill_trace", "strength", "timing", "update_docs",
           "write_outputs"]
