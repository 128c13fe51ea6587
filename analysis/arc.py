"""Game-arc metrics: is a game long, tense, decided early, won from behind?

Every function takes polars tables (a run's ``turns`` and ``games``, lazy or not, with or without
the ``run`` column :mod:`meeplelab.analysis.load` adds) and returns a polars DataFrame. Summaries are per
player count (``players``) with ``n`` (the sample: games, or seat-games for per-seat measures), the
estimate ``est`` and its 95% interval ``low``/``high``: Wilson for shares, Student t for means,
a seeded percentile bootstrap (``scipy.stats.bootstrap``) for medians and quartiles.

Definitions follow Ludii's evaluation metrics (``Evaluation/src/metrics`` of Ludeme/Ludii: Duration,
DecisionMoves, BranchingFactor, Drama, LeadChange, DecisivenessMoves, ScoreDifference, Drawishness,
Timeouts, AdvantageP1), which implement Browne's criteria (C. Browne, *Automatic Generation and
Evaluation of Recombination Games*, 2008; Browne and Maire, *Evolutionary Game Design*, 2010), with
the game's in-game VP as the state evaluation; ``docs/arc_metrics.md`` gives each definition and
its source, and the figures measured on real runs.

**In-game VP against final VP.** The standings are the VP each seat holds during play
(:func:`in_game_vp`): the turns table's ``vp_after`` (Unconscious Mind, the toy game) or, where the
turns table has only ``vp_gained`` (Galileo's Truth), the events table's ``vp`` events (each with the
VP ``after`` it; exact), else the running sum of ``vp_gained`` (which misses VP a seat scores on other
seats' turns). A seat's VP between two observations is the earlier one. End-game scoring (Unconscious
Mind's ``end_*`` categories, Galileo's Truth's final scoring after the last turn) is not in-game VP, so
in-game VP need not reach the games table's final ``vp``: the winner, ties, margins and the winning
score are read from the games table (final VP), the standings during play from in-game VP, and
:func:`end_scoring` measures the gap.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from .load import load_runs
from .stats import LEVEL, linear_quantile, mean_t, wilson
from . import figures as F
from .page import Section, TableFormat
from .stats import mean_t_from_moments
from meeplelab.play.runfolder import read_manifest, run_config
from meeplelab.sim.core.rng import Streams, decision_keys, strategy_stream, stream_keys
from meeplelab.sim.registry import make_game
from meeplelab.strategies.base import StrategyRNG, View
from meeplelab.strategies.plans import CompiledPlan
from meeplelab.strategies.registry import make_strategy

#: Seconds a player takes per decision, the default of ``seconds_per_decision`` (assumption A-ARC-1:
#: a mid-weight euro decision, between a quick pass and a long plan; not measured).
SECONDS_PER_DECISION = 20.0
#: Share of games the leader must go on to win for the lead to count as decisive.
DECISIVE_SHARE = 0.9
#: Games per run the report plays again to count legal actions (decision moves, branching factor).
DECISION_GAMES = 30
#: The VP-over-time figure shows the rounds at least this share of the games reach.
CURVE_REACH = 0.25
#: Bootstrap resamples and seed of the quantile intervals (analysis randomness, never the games').
RESAMPLES = 999
SEED = 0


def _lazy(df) -> pl.LazyFrame:
    df = df.lazy() if isinstance(df, pl.DataFrame) else df
    if "run" not in df.collect_schema().names():
        df = df.with_columns(pl.lit("run").alias("run"))
    return df


KEY = ["run", "game"]


# ------------------------------------------------------------------ standings during play
def in_game_vp(turns, events=None) -> pl.LazyFrame:
    """Observations of in-game VP: one row per (turn, seat) whose VP is known after that turn:
    ``run, game, turn, round, seat, vp_in`` (VP).

    From, in this order of preference:

    1. the events table's ``vp`` events with ``after`` (Galileo's Truth, every VP change goes through one):
       each seat's VP after the last VP change in each turn, for every seat that changed, so VP scored on
       another seat's turn (a copied or read Treatise) counts in the turn it happened; changes between
       turns (a Cycle's end) count in the next turn, changes after the last turn (end-game scoring) in none;
    2. the turns table's ``vp_after`` (Unconscious Mind, the toy game, Galileo's Truth without events): the
       acting seat's VP after its turn (VP a seat gains on another seat's turn shows at its own next turn);
    3. the running sum of ``vp_gained`` over the seat's turns (runs written before Galileo's Truth logged
       ``vp_after``, without events): the acting seat's VP at the end of its turn minus at its start, so VP the
       seat scored on other seats' turns is left out for good (an underestimate, said in the report).

    Raises:
        ValueError: none of the three is there.
    """
    t = _lazy(turns)
    cols = t.collect_schema().names()
    if _vp_events(events):
        e = (_lazy(events).filter(pl.col("kind") == "vp").with_row_index("_order")
             .group_by(KEY + ["turn", pl.col("seat").cast(pl.Int64)], maintain_order=True)
             .agg(pl.col("after").sort_by("_order").last().cast(pl.Int64).alias("vp_in")))
        rounds = t.select(KEY + ["turn", "round"])
        return e.join(rounds, on=KEY + ["turn"]).select(KEY + ["turn", "round", "seat", "vp_in"])
    if "vp_after" in cols:
        return t.select(KEY + ["turn", "round", pl.col("seat").cast(pl.Int64),
                               pl.col("vp_after").cast(pl.Int64).alias("vp_in")])
    if "vp_gained" in cols:
        return t.sort(KEY + ["turn"]).select(
            KEY + ["turn", "round", pl.col("seat").cast(pl.Int64),
                   pl.col("vp_gained").cast(pl.Int64).cum_sum().over(KEY + ["seat"]).alias("vp_in")])
    raise ValueError("neither the turns table (vp_after, vp_gained) nor the events table (vp events) gives in-game VP")


def _vp_events(events) -> bool:
    """True when ``events`` holds ``vp`` events with the VP ``after`` them (Galileo's Truth)."""
    if events is None:
        return False
    names = _lazy(events).collect_schema().names()
    return {"kind", "after", "turn", "seat"} <= set(names)


def vp_source(turns, events=None) -> str:
    """Which log the in-game VP come from (see :func:`in_game_vp`): ``"vp_after"``, ``"events"`` or
    ``"vp_gained"``."""
    if _vp_events(events):
        return "events"
    return "vp_after" if "vp_after" in _lazy(turns).collect_schema().names() else "vp_gained"


def standings(turns, games, at: str = "round", events=None) -> pl.DataFrame:
    """Every seat's in-game VP after every step of every game, and who leads.

    Args:
        turns, games: the run tables.
        at: ``"round"`` (standings at the end of each round or Cycle) or ``"turn"`` (after every turn).
        events: the events table, read for in-game VP when the turns table has no ``vp_after``
            (:func:`in_game_vp`).

    Returns:
        one row per (run, game, step, seat): ``run, game, step, round, last_round, rounds_left, seat, vp,
        best, leaders, lead`` where ``step`` is the round (or turn index), ``last_round`` the round of the
        game's last turn, ``rounds_left`` = ``last_round`` minus the step's round (rounds still to play),
        ``vp`` the seat's in-game VP (VP),
        ``best`` the highest in-game VP, ``leaders`` the number of seats on it and ``lead`` True when
        the seat holds it alone.
    """
    if at not in ("round", "turn"):
        raise ValueError(f"at must be 'round' or 'turn', got {at!r}")
    t = _lazy(turns)
    obs = in_game_vp(turns, events)
    step = "round" if at == "round" else "turn"
    last = (obs.with_columns(pl.col("turn").alias("_o")).group_by(KEY + [step, "seat"], maintain_order=True)
            .agg(pl.col("vp_in").sort_by("_o").last().alias("vp")).rename({step: "step"}))
    if step == "round":
        steps = t.select(KEY + ["round"]).unique(maintain_order=True).with_columns(pl.col("round").alias("step"))
    else:
        steps = t.group_by(KEY + ["turn"], maintain_order=True).agg(pl.col("round").max()).rename({"turn": "step"})
    g = _lazy(games).select(KEY + ["seat"]).with_columns(pl.col("seat").cast(pl.Int64))
    grid = (steps.join(g, on=KEY)
            .join(t.group_by(KEY, maintain_order=True).agg(pl.col("round").max().cast(pl.Int64).alias("last_round")), on=KEY))
    df = (grid.join(last, on=KEY + ["step", "seat"], how="left").sort(KEY + ["seat", "step"])
          .with_columns(pl.col("vp").forward_fill().over(KEY + ["seat"]).fill_null(0))
          .with_columns(pl.col("vp").max().over(KEY + ["step"]).alias("best"))
          .with_columns((pl.col("vp") == pl.col("best")).sum().over(KEY + ["step"]).alias("leaders"))
          .with_columns(((pl.col("vp") == pl.col("best")) & (pl.col("leaders") == 1)).alias("lead"),
                        (pl.col("last_round") - pl.col("round").cast(pl.Int64)).alias("rounds_left"))
          .select(KEY + ["step", "round", "last_round", "rounds_left", "seat", "vp", "best", "leaders", "lead"])
          .sort(KEY + ["step", "seat"]))
    return df.collect()


def _winners(games) -> pl.LazyFrame:
    """One row per game: ``players, rounds, turns, plies, winners`` (seats sharing first place),
    ``win_vp`` (final VP of first place), ``margin`` (winner's final VP minus the best other seat's;
    0 on a tie), ``safety_stop``."""
    g = _lazy(games)
    cols = g.collect_schema().names()
    stop = pl.col("safety_stop").any() if "safety_stop" in cols else pl.lit(False)
    return g.group_by(KEY, maintain_order=True).agg(
        pl.col("players").first().cast(pl.Int64), pl.col("rounds").first().cast(pl.Int64),
        pl.col("turns").first().cast(pl.Int64), pl.col("plies").first().cast(pl.Int64),
        pl.col("win").sum().cast(pl.Int64).alias("winners"),
        pl.col("vp").max().cast(pl.Int64).alias("win_vp"),
        pl.col("margin").filter(pl.col("win")).max().cast(pl.Int64).alias("margin"),
        stop.alias("safety_stop"))


def game_arcs(turns, games, at: str = "round", events=None, standing: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per game: the per-game measures every summary is built from.

    Columns (units): ``players``, ``rounds``, ``turns``, ``plies`` (decisions, all seats),
    ``lead_set_changes`` (Ludii's LeadChange rule as a count: the set of seats on the highest in-game VP
    differs from the one at the step before, from the second step on; a lead becoming shared or a shared
    lead broken counts; this is the hand count, 3.4 a game on Unconscious Mind), ``lead_changes``
    (stricter: times the seat leading alone differs from the last seat that led alone; steps with a shared
    lead neither start nor end a lead), ``drama_max`` (VP: largest gap between the leader's and the
    eventual winner's in-game VP; Ludii's Drama, maximum form), ``drama_mean`` (VP, mean gap over
    steps; Ludii's Drama, average form), ``behind_share`` (share of steps the winner was strictly
    behind: how long), ``comeback`` (the winner was strictly behind the in-game leader at the end of
    the middle round, ``max(1, last round // 2)``, the last round being that of the game's last turn),
    ``tie`` (first place shared on final VP),
    ``margin`` (VP, final), ``win_vp`` (VP, final), ``winners``, ``safety_stop``. Winners are the
    seats with ``win`` in the games table (final VP and tie-break); with k tied winners the gap is their
    mean (as Ludii's Drama). ``standing``: :func:`standings` of these tables at ``at``, when already computed.
    """
    s = (standings(turns, games, at=at, events=events) if standing is None else standing).lazy()
    w = _lazy(games).filter(pl.col("win")).select(KEY + [pl.col("seat").cast(pl.Int64)]).with_columns(
        pl.lit(True).alias("is_winner"))
    s = s.join(w, on=KEY + ["seat"], how="left").with_columns(pl.col("is_winner").fill_null(False))
    per_step = (s.group_by(KEY + ["step"], maintain_order=True).agg(
        pl.col("round").first(),
        pl.col("seat").filter(pl.col("lead")).first().alias("leader"),
        (pl.col("best") - pl.col("vp")).filter(pl.col("is_winner")).mean().alias("gap"),
        (pl.lit(2, pl.Int64).pow(pl.col("seat"))).filter(pl.col("vp") == pl.col("best")).sum().alias("mask"),
        pl.col("leaders").first().alias("k"))
        .sort(KEY + ["step"]))
    lc = (per_step.filter(pl.col("leader").is_not_null())
          .with_columns((pl.col("leader") != pl.col("leader").shift(1).over(KEY)).fill_null(False).alias("chg"))
          .group_by(KEY, maintain_order=True).agg(pl.col("chg").sum().cast(pl.Int64).alias("lead_changes")))
    sets = (per_step
            .with_columns((pl.col("mask") != pl.col("mask").shift(1).over(KEY)).fill_null(False).alias("chg"))
            .group_by(KEY, maintain_order=True).agg(pl.col("chg").sum().cast(pl.Int64).alias("lead_set_changes")))
    drama = per_step.group_by(KEY, maintain_order=True).agg(pl.col("gap").max().cast(pl.Float64).alias("drama_max"),
                                       pl.col("gap").mean().alias("drama_mean"),
                                       (pl.col("gap") > 0).mean().alias("behind_share"))
    base = _winners(games).join(_lazy(turns).select(KEY).unique(), on=KEY, how="semi")  # games with turns logged
    mid = s.filter(pl.col("round") == pl.max_horizontal(pl.lit(1), pl.col("last_round") // 2))
    if at == "turn":  # the standings at the end of the middle round: its last turn
        mid = mid.filter(pl.col("step") == pl.col("step").max().over(KEY))
    comeback = mid.group_by(KEY, maintain_order=True).agg(((pl.col("best") - pl.col("vp")).filter(pl.col("is_winner")).mean() > 0)
                                     .alias("comeback"))
    out = (base.join(lc, on=KEY, how="left").join(sets, on=KEY, how="left").join(drama, on=KEY, how="left")
           .join(comeback, on=KEY, how="left")
           .with_columns(pl.col("lead_changes").fill_null(0), pl.col("lead_set_changes").fill_null(0),
                         (pl.col("winners") > 1).alias("tie"))
           .sort(KEY))
    return out.select(KEY + ["players", "rounds", "turns", "plies", "lead_changes", "lead_set_changes", "drama_max",
                             "drama_mean", "behind_share", "comeback", "tie", "margin", "win_vp", "winners",
                             "safety_stop"]).collect()


# ------------------------------------------------------------------ decisions and downtime
def turn_decisions(turns) -> pl.DataFrame:
    """One row per turn: ``decisions`` taken in it (the turn's ``ply`` minus the previous turn's, the first
    turn's ``ply``) and ``downtime``, the decisions other seats took since the seat's previous turn
    ended (null on a seat's first turn). Units: decisions."""
    t = _lazy(turns).sort(KEY + ["turn"]).with_columns(
        pl.col("ply").cast(pl.Int64).shift(1).over(KEY).fill_null(0).alias("start"))
    t = t.with_columns((pl.col("ply").cast(pl.Int64) - pl.col("start")).alias("decisions"),
                       (pl.col("start") - pl.col("ply").cast(pl.Int64).shift(1).over(KEY + ["seat"])).alias("downtime"))
    return t.select(KEY + ["turn", "round", "seat", "ply", "decisions", "downtime"]).collect()


def decision_moves(run, games: int = 20) -> pl.DataFrame:
    """Legal actions at every decision of ``games`` games of a run, played again (the logs hold no
    legal-action count): Ludii's DecisionMoves and BranchingFactor.

    A game's trajectory depends only on (run seed, game index), so each game is replayed as in
    ``meeplelab replay`` (the Python loop; all of them in one batch, each game drawing from its own streams and
    each seat's decisions taken by the strategy that game seats there) and the legal-action mask is counted before each decision. The games are spread evenly over the run's game indices (no randomness).

    Returns:
        one row per game: ``game, players, decisions, decision_moves`` (decisions with more than one legal
        action), ``legal`` (legal actions summed over decisions), ``share`` = decision_moves / decisions
        (Ludii DecisionMoves of the game), ``branching`` = legal / decisions (Ludii BranchingFactor, average
        form), ``matches`` (the replay's final scores equal the games table's).
    """
    from pathlib import Path

    run = Path(run)
    m = read_manifest(run)
    cfg = run_config(run, m)
    plan = cfg.plan_for()
    done = sorted(g for c in m["chunks"] if c.get("status") == "done" for g in range(int(c["lo"]), int(c["hi"])))
    pick = sorted({done[int(i)] for i in np.linspace(0, len(done) - 1, min(games, len(done)))}) if done else []
    # the manifest's parts (the caller's load_runs checked them), never a glob of the table folder
    logged = (load_runs([run], check=False).games.filter(pl.col("game").is_in(pick))
              .sort("game", "seat").group_by("game", maintain_order=True).agg(pl.col("vp")).collect())
    logged = dict(zip(logged["game"].to_list(), logged["vp"].to_list()))
    game = make_game(cfg.game, cfg.make_params(), cfg.content)
    rows = []
    located = [(gid, *(int(x[0]) for x in plan.locate(np.array([gid], np.int64)))) for gid in pick]
    if located:  # every picked game in one batch, each seat's decisions by the strategy its game seats there
        gids = [g for g, _, _ in located]
        seeds = np.array([sd for _, _, sd in located], np.int64)
        n, multi, legal, final = _replay_counts(game, cfg, seeds, [plan.strategies(o) for _, o, _ in located])
        for i, gid in enumerate(gids):
            ni, mi, li = int(n[i]), int(multi[i]), int(legal[i])
            rows.append({"game": gid, "players": int(cfg.players), "decisions": ni, "decision_moves": mi, "legal": li,
                         "share": mi / ni if ni else math.nan, "branching": li / ni if ni else math.nan,
                         "matches": logged.get(gid) == [int(v) for v in final[i]]})
    rows.sort(key=lambda r: r["game"])
    return pl.DataFrame(rows, schema={"game": pl.Int64, "players": pl.Int64, "decisions": pl.Int64,
                                      "decision_moves": pl.Int64, "legal": pl.Int64, "share": pl.Float64,
                                      "branching": pl.Float64, "matches": pl.Boolean})


def _act_groups(game_name: str, ids: list, players: int) -> list:
    """Who decides in a batch of replayed games: ``[(strategy, seat, sits)]``, ``sits`` a ``bool[players, b]``
    (the strategy sits at that seat in that game). A strategy decides at one seat (``seat``), except a compiled
    plan, whose choices read the deciding seat from the state (its ``act`` never reads ``view.seat``): one entry
    (``seat`` -1) takes its decisions at every seat it sits at, one call a step instead of one per seat."""
    col = np.array(ids, dtype=object).reshape(len(ids), players).T  # [players, b] strategy ids
    groups, plans = [], {}
    for s_ in range(players):
        for sid in dict.fromkeys(col[s_].tolist()):
            strat = make_strategy(game_name, sid)
            sits = np.zeros(col.shape, bool)
            sits[s_] = col[s_] == sid
            if type(strat) is CompiledPlan:
                if sid in plans:
                    plans[sid][2][s_] = sits[s_]
                    continue
                plans[sid] = (strat, -1, sits)
                groups.append(plans[sid])
            else:
                groups.append((strat, s_, sits))
    return groups


def _replay_counts(game, cfg, seeds: np.ndarray, ids: list) -> tuple:
    """Play the games ``seeds`` (``int64[b]``) of a run again, as ``meeplelab replay`` does (the Python loop, each
    game drawing from its own streams), ``ids[i]`` the strategy ids game ``i`` seats (in seat order).

    Returns:
        ``(decisions, decision_moves, legal, final)``: per game the decisions taken, those with more than one legal
        action and the legal actions summed over them (``int64[b]``), and the final scores (``[b, players]``).
    """
    groups = _act_groups(cfg.game, ids, cfg.players)
    state = game.init(seeds, cfg.seed, cfg.players)
    keys = np.stack([stream_keys(cfg.seed, state.game_id, strategy_stream(k)) for k in range(cfg.players)])
    b = seeds.size
    games = np.arange(b)
    n, multi, legal = (np.zeros(b, np.int64) for _ in range(3))
    while True:
        live = ~np.asarray(game.done(state), bool)
        if not live.any():
            break
        mask = game.legal_action_mask(state)
        k = mask.sum(axis=1)
        n += live
        multi += live & (k > 1)
        legal += np.where(live, k, 0)
        seat = np.asarray(game.to_act(state))
        at = np.where(live, seat, 0)
        # each game's decision stream, keyed by (run seed, game, deciding seat, ply) as StrategyRNG.for_decision keys it
        dk = decision_keys(keys[at, games], state.ply)
        acts = np.full(b, -1, np.int64)
        for strat, s_, sits in groups:
            idx = np.flatnonzero(live & sits[at, games])
            if idx.size:
                rng = StrategyRNG(Streams(dk[idx]), np.arange(idx.size, dtype=np.int64))
                acts[idx] = strat.act(View(game, state, idx, s_), mask[idx], rng)
        game.step(state, acts, mask, where=live)
        state.turn_n[:] = 0
        state.event_n[:] = 0
    return n, multi, legal, np.asarray(game.final_scores(state))


def decision_summary(moves: pl.DataFrame) -> pl.DataFrame:
    """Per player count from :func:`decision_moves`: ``players, metric, unit, n, est, low, high, interval`` for
    the share of decisions with more than one legal action and the mean legal actions per decision (each the
    mean over games of the game's value, as Ludii averages over trials; t intervals, n = games replayed)."""
    rows = []
    for (players,), sub in moves.sort("players").group_by("players", maintain_order=True):
        for key, col, unit in (("decision moves", "share", "share"), ("branching factor", "branching", "actions")):
            rows.append(_mean(key, sub[col].to_numpy(), int(players), unit, f"Ludii {key.title().replace(' ', '')}"))
    return pl.DataFrame(rows).drop("definition") if rows else pl.DataFrame()


# ------------------------------------------------------------------ interval helpers
def _share(key: str, x: np.ndarray, players: int, unit: str, definition: str) -> dict:
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    p, lo, hi = (float(v) for v in wilson(x.sum(), max(x.size, 1)))
    return {"players": players, "metric": key, "unit": unit, "n": int(x.size), "est": p if x.size else math.nan,
            "low": lo if x.size else math.nan, "high": hi if x.size else math.nan, "interval": "Wilson",
            "definition": definition}


def _mean(key: str, x: np.ndarray, players: int, unit: str, definition: str) -> dict:
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    m, lo, hi = mean_t(x)
    return {"players": players, "metric": key, "unit": unit, "n": int(x.size), "est": m, "low": lo, "high": hi,
            "interval": "t", "definition": definition}


def quantile_interval(x, q: float, *, level: float = LEVEL, resamples: int = RESAMPLES, seed: int = SEED):
    """Quantile ``q`` of ``x`` with a seeded percentile-bootstrap interval (the numbers of ``scipy.stats.bootstrap``,
    ``method="percentile"``, ``batch=100``, ``random_state=np.random.default_rng(seed)``): ``(estimate, low, high)``;
    nan bounds for fewer than 2 values or when every value is the same number (then low = high = the value)."""
    return quantile_intervals([x], [q], level=level, resamples=resamples, seed=seed)[0]


#: resamples drawn at once (``scipy.stats.bootstrap``'s ``batch``: the draws, in this order, fix the numbers)
BATCH = 100


def quantile_intervals(xs: list, qs: list, *, level: float = LEVEL, resamples: int = RESAMPLES,
                       seed: int = SEED) -> list[tuple]:
    """``quantile_interval(xs[i], qs[i], ...)`` for every ``i``, the same numbers, computed together: every
    sample of one size resamples the same game indices (each ``quantile_interval`` call draws them from a fresh
    generator seeded ``seed``, so they depend only on the size), so they are drawn once per size, and the quantiles
    of one sample (the same values) are read from one partition of each resample.

    Args:
        xs: samples (array-likes of floats; non-finite values dropped); qs: one quantile in [0, 1] per sample.

    Returns:
        ``[(estimate, low, high)]``, one per sample, in order.
    """
    out: list = [None] * len(xs)
    by_size: dict[int, dict[bytes, tuple]] = {}  # size -> sample's bytes -> (sample, [(i, q)])
    for i, (x, q) in enumerate(zip(xs, qs)):
        x = np.asarray(x, dtype=float)
        x = x[np.isfinite(x)]
        if x.size == 0:
            out[i] = (math.nan, math.nan, math.nan)
            continue
        est = float(np.quantile(x, q))
        if x.size < 2:
            out[i] = (est, math.nan, math.nan)
        elif np.all(x == x[0]):
            out[i] = (est, est, est)
        else:
            out[i] = est
            by_size.setdefault(x.size, {}).setdefault(x.tobytes(), (x, []))[1].append((i, q))
    alpha = np.asarray((1 - level) / 2, dtype=np.float64)
    interval = np.stack((alpha, 1 - alpha), axis=-1)
    for n, samples in by_size.items():
        rng = np.random.default_rng(seed)
        theta: list[list] = [[] for _ in samples]  # per sample: [quantiles, batch] per batch
        for k in range(0, resamples, BATCH):
            idx = rng.integers(0, n, (min(BATCH, resamples - k), n))
            for j, (x, want) in enumerate(samples.values()):
                theta[j].append(np.quantile(x[idx], [q for _, q in want], axis=-1))
        for j, (x, want) in enumerate(samples.values()):
            dist = np.concatenate(theta[j], axis=-1)
            for m, (i, _) in enumerate(want):
                ci = linear_quantile(dist[m], interval)
                out[i] = (out[i], float(ci[..., 0]), float(ci[..., 1]))
    return out


def _quantile(key: str, x, q: float, players: int, unit: str, definition: str, seed: int,
              interval: tuple | None = None) -> dict:
    """The row of one quantile metric; ``interval``: its :func:`quantile_interval` when already computed."""
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    est, lo, hi = quantile_interval(x, q, seed=seed) if interval is None else interval
    return {"players": players, "metric": key, "unit": unit, "n": int(x.size), "est": est, "low": lo, "high": hi,
            "interval": "bootstrap", "definition": definition}


# ------------------------------------------------------------------ decisiveness
def leader_wins(turns, games, events=None, standing: pl.DataFrame | None = None) -> pl.DataFrame:
    """How often the in-game leader at the end of a round goes on to win (final VP), by rounds still to play.

    Every game that played the round counts: the seats on the highest in-game VP share the lead, each
    counting 1/k of a leader for k seats on it, so a game adds the leaders' mean win share (a first place
    shared by j seats counts 1/j). This reproduces the hand count on Unconscious Mind (the leader
    with one round left wins 61.7%, four rounds left 36.4%; docs/arc_metrics.md).

    Returns:
        ``players, rounds_left, games, wins, est, low, high``: ``rounds_left`` = rounds still to play after
        the round (0 = after the last round's turns, before end-game scoring), ``wins`` = the leaders' win
        shares summed over games, Wilson interval.

    ``standing``: :func:`standings` of these tables at round ends, when already computed.
    """
    s = standings(turns, games, at="round", events=events) if standing is None else standing
    g = _lazy(games).select(KEY + [pl.col("seat").cast(pl.Int64), "win_share", pl.col("players").cast(pl.Int64)])
    df = (s.lazy().filter(pl.col("vp") == pl.col("best")).join(g, on=KEY + ["seat"])
          .group_by("players", "rounds_left", maintain_order=True).agg(pl.struct(KEY).n_unique().alias("games"),
                                                  (pl.col("win_share") / pl.col("leaders")).sum().alias("wins"))
          .sort("players", "rounds_left").collect())
    p, lo, hi = wilson(df["wins"].to_numpy(), df["games"].to_numpy())
    return df.with_columns(pl.Series("est", p), pl.Series("low", lo), pl.Series("high", hi))


def decisive_rounds_left(table: pl.DataFrame, share: float = DECISIVE_SHARE) -> pl.DataFrame:
    """Decisiveness per player count from :func:`leader_wins`: the most rounds left from which on the leader
    wins at least ``share`` of the time at every later round end (estimate), and the same read from the
    interval's lower bound (``sure``). Null when the leader never reaches it (not even after the last
    round's turns: end-game scoring still turns it over).

    Returns:
        ``players, share, rounds_left, rounds_left_sure``.
    """
    rows = []
    for (players,), sub in table.sort("rounds_left").group_by("players", maintain_order=True):
        out = {}
        for col, name in (("est", "rounds_left"), ("low", "rounds_left_sure")):
            k = None
            for r in sub.iter_rows(named=True):
                if r[col] >= share:
                    k = r["rounds_left"]
                else:
                    break
            out[name] = k
        rows.append({"players": int(players), "share": share, **out})
    return pl.DataFrame(rows, schema={"players": pl.Int64, "share": pl.Float64, "rounds_left": pl.Int64,
                                      "rounds_left_sure": pl.Int64})


# ------------------------------------------------------------------ summaries
def arc_summary(turns, games, *, seconds_per_decision: float = SECONDS_PER_DECISION, at: str = "round",
                seed: int = SEED, arcs: pl.DataFrame | None = None, events=None) -> pl.DataFrame:
    """Every arc metric per player count with its 95% interval and sample size.

    Args:
        turns, games: the run tables (one run or several; grouped by ``players``).
        seconds_per_decision: assumed seconds a player spends per decision (A-ARC-1) for the table time.
        at: the steps the standings are read at (``"round"`` or ``"turn"``) for lead changes and drama.
        seed: seed of the bootstrap intervals.
        arcs: :func:`game_arcs` of these tables, when already computed (read ``at`` the same steps).
        events: the events table (in-game VP of games whose turns table has no ``vp_after``).

    Returns:
        ``players, metric, unit, n, est, low, high, interval, definition``; shares in [0, 1].
    """
    arcs = game_arcs(turns, games, at=at, events=events) if arcs is None else arcs
    td = turn_decisions(turns).join(arcs.select(KEY + ["players"]), on=KEY)
    rows = []
    for (players,), a in arcs.sort("players").group_by("players", maintain_order=True):
        p = int(players)
        d = td.filter(pl.col("players") == p)
        decisions_seat = (d.group_by(KEY + ["seat"], maintain_order=True).agg(pl.col("decisions").sum())["decisions"].to_numpy())
        down_game = d.group_by(KEY, maintain_order=True).agg(pl.col("downtime").mean())["downtime"].to_numpy()
        plies = a["plies"].to_numpy()
        iv = quantile_intervals([plies] + [a["margin"]] * 3 + [a["win_vp"]], [0.5, 0.25, 0.5, 0.75, 0.5], seed=seed)
        rows += [
            _mean("turns per game", a["turns"], p, "turns", "turns played, all seats (Ludii DurationTurns)"),
            _mean("rounds per game", a["rounds"], p, "rounds", "rounds (Cycles) played"),
            _mean("decisions per game", plies, p, "decisions", "decisions, all seats (Ludii DurationMoves)"),
            _mean("decisions per seat", decisions_seat, p, "decisions",
                  "decisions one seat takes in a game (n = seat-games)"),
            _mean("table time", plies * seconds_per_decision / 60.0, p, "minutes",
                  f"decisions per game x {seconds_per_decision:g} s per decision (assumption A-ARC-1)"),
            _quantile("median decisions per game", plies, 0.5, p, "decisions", "median decisions per game", seed, iv[0]),
            _mean("decisions per turn", d["decisions"], p, "decisions",
                  "decisions within one turn (n = turns); the logs hold no legal-action count"),
            _share("turns with more than one decision", (d["decisions"] > 1).to_numpy(), p, "share",
                   "share of turns taking 2+ decisions (n = turns); not Ludii DecisionMoves, which needs the "
                   "legal-action count the turns table does not log"),
            _mean("downtime", down_game, p, "decisions",
                  "others' decisions between a seat's consecutive turns, mean per game (n = games)"),
            _mean("downtime (time)", down_game * seconds_per_decision, p, "seconds",
                  f"downtime x {seconds_per_decision:g} s per decision (A-ARC-1)"),
            _mean("lead changes", a["lead_set_changes"], p, "changes per game",
                  f"times the set of seats on the highest in-game VP differs from the previous {at} end's "
                  "(Ludii LeadChange, as a count)"),
            _mean("lead changes, sole leader", a["lead_changes"], p, "changes per game",
                  f"times the seat leading alone differs from the last seat that led alone ({at} ends; shared "
                  "leads skipped)"),
            _mean("drama: winner's largest deficit", a["drama_max"], p, "VP",
                  f"max over {at} ends of leader's minus eventual winner's in-game VP (Ludii Drama, max)"),
            _mean("drama: winner's mean deficit", a["drama_mean"], p, "VP",
                  f"mean over {at} ends of the same gap (Ludii Drama, average)"),
            _mean("drama: share of the game the winner trailed", a["behind_share"], p, "share",
                  f"share of {at} ends with the eventual winner strictly behind"),
            _share("comeback rate", a["comeback"].cast(pl.Float64), p, "share",
                   "winner strictly behind the in-game leader at the end of the middle round (last round // 2)"),
            _share("ties", a["tie"].cast(pl.Float64), p, "share",
                   "first place shared on final VP and tie-break (Ludii Drawishness)"),
            _mean("winner's margin", a["margin"], p, "VP",
                  "winner's final VP minus the best other seat's, 0 on a tie (Ludii ScoreDifference, end)"),
            _quantile("winner's margin, 25th percentile", a["margin"], 0.25, p, "VP", "lower quartile", seed, iv[1]),
            _quantile("winner's margin, median", a["margin"], 0.5, p, "VP", "median", seed, iv[2]),
            _quantile("winner's margin, 75th percentile", a["margin"], 0.75, p, "VP", "upper quartile", seed, iv[3]),
            _mean("winning score", a["win_vp"], p, "VP", "final VP of first place"),
            _quantile("winning score, median", a["win_vp"], 0.5, p, "VP", "median final VP of first place", seed, iv[4]),
            _share("safety stops", a["safety_stop"].cast(pl.Float64), p, "share",
                   "games ended by a safety stop, not the rules (Ludii Timeouts)"),
        ]
    return pl.DataFrame(rows, schema={"players": pl.Int64, "metric": pl.Utf8, "unit": pl.Utf8, "n": pl.Int64,
                                      "est": pl.Float64, "low": pl.Float64, "high": pl.Float64, "interval": pl.Utf8,
                                      "definition": pl.Utf8})


def distributions(turns, games, *, seconds_per_decision: float = SECONDS_PER_DECISION,
                  arcs: pl.DataFrame | None = None) -> pl.DataFrame:
    """Distributions per player count: ``players, measure, unit, n, min, q10, q25, median, q75, q90, max``
    of turns, rounds and decisions per game, table time (minutes, A-ARC-1), lead changes, the winner's
    margin and the winning score (VP); ``arcs`` = :func:`game_arcs` when already computed."""
    arcs = game_arcs(turns, games) if arcs is None else arcs
    rows = []
    for (players,), a in arcs.sort("players").group_by("players", maintain_order=True):
        for measure, unit, x in (("turns per game", "turns", a["turns"]), ("rounds per game", "rounds", a["rounds"]),
                                 ("decisions per game", "decisions", a["plies"]),
                                 ("table time", "minutes", a["plies"] * seconds_per_decision / 60.0),
                                 ("lead changes", "changes", a["lead_set_changes"]),
                                 ("winner's margin", "VP", a["margin"]), ("winning score", "VP", a["win_vp"])):
            v = x.cast(pl.Float64).drop_nulls().to_numpy()
            qs = np.quantile(v, [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1]) if v.size else [math.nan] * 7
            rows.append({"players": int(players), "measure": measure, "unit": unit, "n": int(v.size),
                         **dict(zip(("min", "q10", "q25", "median", "q75", "q90", "max"), map(float, qs)))})
    return pl.DataFrame(rows)


def vp_curves(turns, games, events=None, standing: pl.DataFrame | None = None) -> pl.DataFrame:
    """Mean in-game VP at the end of each round by strategy and player count, t intervals:
    ``players, strategy, round, n, est, low, high`` (VP; n = seat-games that reached the round). ``standing``:
    :func:`standings` of these tables at round ends, when already computed."""
    s = standings(turns, games, at="round", events=events) if standing is None else standing
    g = _lazy(games).select(KEY + [pl.col("seat").cast(pl.Int64), "strategy", pl.col("players").cast(pl.Int64)])
    df = (s.lazy().join(g, on=KEY + ["seat"]).group_by("players", "strategy", "round", maintain_order=True)
          .agg(pl.len().alias("n"), pl.col("vp").mean().alias("mean"), pl.col("vp").std().alias("sd"))
          .sort("players", "strategy", "round").collect())

    m, lo, hi = mean_t_from_moments(df["mean"].to_numpy(), df["sd"].fill_null(0).to_numpy(), df["n"].to_numpy())
    return df.select("players", "strategy", "round", "n").with_columns(
        pl.Series("est", m), pl.Series("low", lo), pl.Series("high", hi))


def end_scoring(turns, games, events=None) -> pl.DataFrame:
    """Final VP against in-game VP per player count: ``players, n, est, low, high`` = mean VP a seat scores
    after its last turn (end-game scoring; final ``vp`` minus the last in-game VP), t interval over seat-games,
    and ``exact`` = share of seat-games where the two agree."""
    last = in_game_vp(turns, events).group_by(KEY + ["seat"], maintain_order=True).agg(pl.col("vp_in").sort_by("turn").last())
    g = _lazy(games).select(KEY + ["seat", "vp", pl.col("players").cast(pl.Int64)])
    df = (g.join(last.with_columns(pl.col("seat").cast(g.collect_schema()["seat"])), on=KEY + ["seat"], how="left")
          .with_columns((pl.col("vp").cast(pl.Int64) - pl.col("vp_in").fill_null(0)).alias("end")).collect())
    rows = []
    for (players,), sub in df.group_by("players", maintain_order=True):
        m, lo, hi = mean_t(sub["end"].to_numpy())
        rows.append({"players": int(players), "n": sub.height, "est": m, "low": lo, "high": hi,
                     "exact": float((sub["end"] == 0).mean())})
    return pl.DataFrame(rows).sort("players")


# ------------------------------------------------------------------ report section
#: the metrics of the "at a glance" table, in this order (the full table has every metric)
GLANCE = ("turns per game", "rounds per game", "table time", "downtime (time)", "lead changes",
          "drama: winner's largest deficit", "drama: share of the game the winner trailed", "comeback rate", "ties",
          "winner's margin", "winner's margin, median", "winning score", "decision moves", "branching factor",
          "safety stops")


def glance(shown: pl.DataFrame, metrics=GLANCE) -> tuple[pl.DataFrame, dict]:
    """The headline arc metrics side by side per player count: one row per metric of ``metrics`` (in that
    order), ``metric, unit`` then ``est_P, low_P, high_P`` for each player count ``P`` (the summary's
    estimate and 95% interval; shares in percent as ``shown`` holds them); and the column headers
    (``est_4`` -> ``4 players``, ``low_4`` -> ``4p 95% low``)."""
    counts = sorted(set(shown["players"].to_list()))
    rows = []
    for m in metrics:
        sub = shown.filter(pl.col("metric") == m)
        if not sub.height:
            continue
        r = {"metric": m, "unit": sub["unit"][0]}
        for p in counts:
            x = sub.filter(pl.col("players") == p)
            for c in ("est", "low", "high"):
                r[f"{c}_{p}"] = float(x[c][0]) if x.height and x[c][0] is not None else math.nan
        rows.append(r)
    labels = {}
    for p in counts:
        labels.update({f"est_{p}": f"{p} players", f"low_{p}": f"{p}p 95% low", f"high_{p}": f"{p}p 95% high"})
    return pl.DataFrame(rows), labels


SOURCE_TEXT = {
    "vp_after": "the turns table's `vp_after`",
    "events": "the events table's `vp` events, every VP change as it happened",
    "vp_gained": "running sums of the turns table's `vp_gained`: VP a seat scores on other seats' turns are missing, "
                 "so in-game VP run low; write the events table for exact standings",
}
def _with_decision_moves(runs, summary: pl.DataFrame, decision_games: int) -> tuple[pl.DataFrame, str]:
    """``summary`` with the decision-moves and branching-factor rows of ``decision_games`` games per run played
    again (:func:`decision_moves`; none when 0), sorted by ``players``; and the sentence the section's text adds
    when replaying failed or a replayed game did not reproduce its logged scores (else ``""``)."""
    replayed, why = [], ""
    try:
        replayed = [decision_moves(path, decision_games) for path in runs.paths.values()] if decision_games else []
    except Exception as e:  # a run whose strategies or content cannot be loaded here: the rest still reports
        why = f" Decision moves and branching factor not measured: replaying failed ({type(e).__name__}: {e})."
    if replayed:
        moves = pl.concat(replayed)
        ds = decision_summary(moves).with_columns(pl.lit(
            f"Ludii DecisionMoves / BranchingFactor (mean of games' values), from {decision_games} games per run "
            "played again (n = games)").alias("definition"))
        summary = pl.concat([summary, ds.select(summary.columns)]).sort("players", maintain_order=True)
        if not moves["matches"].all():
            why = f" {int((~moves['matches']).sum())} replayed game(s) did not reproduce the logged scores."
    return summary, why


def _leader_at(lw: pl.DataFrame, k: int) -> str:
    """The in-game leader's win rate with ``k`` rounds left in one player count's rows of :func:`leader_wins`,
    in words: ``"61.2% [58.0, 64.3] of 1,000 games"`` (percent, Wilson 95%), ``"n/a"`` when no row."""
    x = lw.filter(pl.col("rounds_left") == k)
    return (f"{x['est'][0] * 100:.1f}% [{x['low'][0] * 100:.1f}, {x['high'][0] * 100:.1f}] of "
            f"{x['games'][0]:,} games" if x.height else "n/a")


def _arc_lines(summary: pl.DataFrame, lw: pl.DataFrame, dec: pl.DataFrame) -> list[str]:
    """One sentence per player count of ``dec`` (:func:`decisive_rounds_left`): lead changes a game (95%
    interval), the winner's margin (median and quartiles, VP), the leader's win rate with one and four rounds
    left (:func:`leader_wins` ``lw``) and the rounds left from which the leader wins :data:`DECISIVE_SHARE`."""
    lines = []
    for r in dec.iter_rows(named=True):
        p = r["players"]
        sub = lw.filter(pl.col("players") == p)
        k = r["rounds_left"]
        when = ("at no round end (end-game scoring or the last round still changes the winner too often)" if k is None
                else "only at the end of the last round (before end-game scoring)" if k == 0
                else f"from the end of the round {k} round(s) before the last on")
        m = {x["metric"]: x for x in summary.filter(pl.col("players") == p).iter_rows(named=True)}

        def iv(key, places=1):
            x = m[key]
            return f"{x['est']:.{places}f} [{x['low']:.{places}f}, {x['high']:.{places}f}]"
        q1, q2, q3 = (m[f"winner's margin, {k}"]["est"] for k in ("25th percentile", "median", "75th percentile"))
        lines.append(f"{p} players: {iv('lead changes', 2)} lead changes a game; the winner's margin has median {q2:g} VP "
                     f"(quartiles {q1:g} and {q3:g}); the in-game leader with one round left wins {_leader_at(sub, 1)}, "
                     f"with four rounds left {_leader_at(sub, 4)}; the leader wins {DECISIVE_SHARE:.0%} of the time "
                     f"{when}.")
    return lines


def _arc_text(source: str, ends: pl.DataFrame, seconds_per_decision: float, why: str, lines: list[str]) -> str:
    """The "Game arc" section's text: what the section measures, where the standings come from (``source``,
    :func:`vp_source`), the end-game scoring per seat (:func:`end_scoring` ``ends``, VP), the assumed seconds
    per decision, the intervals, ``why`` (a replay caveat, or ``""``) and the per-player-count ``lines``."""
    e = "; ".join(f"{r['players']} players {r['est']:.1f} VP [{r['low']:.1f}, {r['high']:.1f}]"
                  for r in ends.iter_rows(named=True))
    return ("How the game unfolds, per player count, after Ludii's evaluation metrics (docs/arc_metrics.md): length, "
            "decisions, downtime, lead changes, drama, decisiveness, comebacks, closeness. Standings during play "
            f"are in-game VP ({SOURCE_TEXT[source]}), read at the end of each round; winners, ties, margins and "
            "scores are "
            f"final VP (games table). End-game scoring adds per seat: {e}. Table time assumes "
            f"{seconds_per_decision:g} s per decision (A-ARC-1). Intervals 95%: Wilson (shares), t (means), seeded "
            "bootstrap (medians, quartiles)." + why + "\n" + "\n".join(lines))


def _shares_in_percent(summary: pl.DataFrame) -> pl.DataFrame:
    """:func:`arc_summary` as the page shows it: no ``definition``, shares' ``est, low, high`` in percent
    (their ``unit`` ``"%"``), every other row as it is."""
    return summary.drop("definition").with_columns(
        [pl.when(pl.col("unit") == "share").then(pl.col(c) * 100).otherwise(pl.col(c)).alias(c)
         for c in ("est", "low", "high")]).with_columns(
        pl.when(pl.col("unit") == "share").then(pl.lit("%")).otherwise(pl.col("unit")).alias("unit"))


def _arc_figures(curves: pl.DataFrame, arcs: pl.DataFrame) -> tuple[list, tuple | None]:
    """The section's figures ``(name, figure, caption)``: in-game VP by round per strategy (:func:`vp_curves`
    ``curves``, rounds at least :data:`CURVE_REACH` of the games reach; VP, 95% t band) and the winning score's
    histogram (:func:`game_arcs` ``arcs``), per player count. Returns the largest count's figures and, when
    there are several counts, the others folded as ``(title, figures)`` (else ``None``)."""
    figs = []
    for (players,), sub in curves.group_by("players", maintain_order=True):
        strategies = sorted(set(sub["strategy"].to_list()))
        reach = sub.group_by("round", maintain_order=True).agg(pl.col("n").sum()).sort("round")
        x = reach.filter(pl.col("n") >= CURVE_REACH * reach["n"].max())["round"].to_list()  # rounds most games reach
        grid = {(s, r): v for s, r, *v in sub.select("strategy", "round", "est", "low", "high").iter_rows()}
        arr = np.array([[grid.get((s, r), (math.nan,) * 3) for r in x] for s in strategies], dtype=float)
        figs.append((f"vp_curve_{players}p", F.line_with_band(
            x, arr[..., 0], arr[..., 1], arr[..., 2], title=f"In-game VP by round, {players} players (95% t)",
            xlabel="round (Cycle)", ylabel="mean in-game VP", labels=strategies),
            f"Mean in-game VP at the end of each round by strategy, {players} players (rounds at least "
            f"{CURVE_REACH:.0%} of the games reach; later rounds hold only the long games)"))
    for (players,), sub in arcs.sort("players").group_by("players", maintain_order=True):
        figs.append((f"winning_score_{players}p", F.histogram(
            sub["win_vp"].to_numpy(), title=f"Winning score, {players} players", xlabel="final VP of first place"),
            f"Winning score distribution, {players} players"))
    counts = sorted(set(arcs["players"].to_list()))
    folded = None
    if len(counts) > 1:  # the largest count's figures shown, the others folded (the numbers are in the tables)
        top = f"_{counts[-1]}p"
        folded = (f"Figures for {', '.join(str(c) for c in counts[:-1])} players",
                  [f for f in figs if not f[0].endswith(top)])
        figs = [f for f in figs if f[0].endswith(top)]
    return figs, folded


def _arc_tables(summary: pl.DataFrame, shown: pl.DataFrame, lw: pl.DataFrame, dec: pl.DataFrame,
                dist: pl.DataFrame) -> list:
    """The section's tables ``(caption, frame[, TableFormat])``: the at-a-glance table (:func:`glance`), every
    metric (``shown``, shares in percent), the leader's win rate by rounds left (``lw``, percent), decisiveness
    (``dec``), the distributions (``dist``) and the metric definitions (``summary``'s smallest player count)."""
    at, at_labels = glance(shown)
    return [
        ("Game arc at a glance: each player count's estimate with its 95% interval (shares in percent; the "
         "sample sizes and every other metric are in the next table)", at,
         TableFormat(decimals={f"{c}_{p}": 1 for c in ("est", "low", "high") for p in shown["players"].unique()},
                     labels=at_labels, rank=None)),
        ("Game-arc metrics per player count (95% intervals; n = games unless the definition says otherwise)",
         shown, TableFormat(decimals={"est": 2})),
        ("The in-game leader's win rate (percent) by rounds left to play", lw.with_columns(
            [(pl.col(c) * 100) for c in ("est", "low", "high")]), TableFormat(labels={"est": "leader's win rate %"})),
        (f"Decisiveness: rounds left from which the leader wins {DECISIVE_SHARE:.0%} (sure = the interval's lower "
         "bound)", dec, TableFormat(missing={"rounds_left": "never", "rounds_left_sure": "never"})),
        ("Distributions per player count (min, deciles, quartiles, median, max)", dist),
        ("Metric definitions", summary.filter(pl.col("players") == summary["players"].min())
         .select("metric", "unit", "interval", "definition")),
    ]


def arc_section(runs, *, seconds_per_decision: float = SECONDS_PER_DECISION, decision_games: int | None = None):
    """The "Game arc" section of a balance report (one table per measure family, per player count).

    ``decision_games`` games of each run (default :data:`DECISION_GAMES`; 0 = none) are played again to count
    legal actions (:func:`decision_moves`)."""
    decision_games = DECISION_GAMES if decision_games is None else decision_games

    turns, games = runs.turns, runs.games
    names = turns.collect_schema().names()
    if not ({"vp_after", "vp_gained"} & set(names)) or "ply" not in names:
        return Section("Game arc", "The turns table logs no VP per turn: no in-game standings, no arc metrics.")
    events = runs.events if _vp_events(runs.events) else None
    source = vp_source(turns, events)
    standing = standings(turns, games, at="round", events=events)  # read by the arcs, the leader and the VP curves
    arcs = game_arcs(turns, games, events=events, standing=standing)
    summary = arc_summary(turns, games, seconds_per_decision=seconds_per_decision, arcs=arcs)
    summary, why = _with_decision_moves(runs, summary, decision_games)
    lw = leader_wins(turns, games, events, standing=standing)
    dec = decisive_rounds_left(lw)
    ends = end_scoring(turns, games, events)
    dist = distributions(turns, games, seconds_per_decision=seconds_per_decision, arcs=arcs)
    curves = vp_curves(turns, games, events, standing=standing)
    text = _arc_text(source, ends, seconds_per_decision, why, _arc_lines(summary, lw, dec))
    shown = _shares_in_percent(summary)
    figs, folded = _arc_figures(curves, arcs)
    return Section("Game arc", text, figs, folded=folded, tables=_arc_tables(summary, shown, lw, dec, dist))


def arc_sections(runs) -> list:
    """``[arc_section(runs)]``, for :func:`meeplelab.analysis.report.build_sections`."""
    return [arc_section(runs)]


__all__ = ["DECISIVE_SHARE", "GLANCE", "glance", "SECONDS_PER_DECISION", "arc_section", "arc_sections", "arc_summary",
           "decision_moves", "decision_summary", "decisive_rounds_left", "distributions", "end_scoring", "game_arcs",
           "in_game_vp", "leader_wins", "vp_source",
           "quantile_interval", "quantile_intervals", "standings", "turn_decisions", "vp_curves"]
