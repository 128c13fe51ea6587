"""Drawn cards: is a card good when you draw it? (17lands' "game in hand" win rate and "improvement when drawn").

From the random draws of one ordinary run, for every card (content item) a seat can draw at random rather than
choose: the win rate and mean final VP of the seat-results that drew it by round ``k`` against those that did not,
with intervals, the counts and the base rate. Every card at once, from the run's own games: no removal runs.

Which draws count, and by which round, is declared by each game in its analysis module (the module its
``GameSpec.sections`` names) as ``DRAWS``, a :class:`Draws` of :class:`DrawnKind` entries. A kind's draws come from
the events table (an event kind, its categories, the column holding the item's index, counted up to round ``k``)
and, for what was dealt before the first decision (a start hand), from the game's setup: the run's engine, params
and content rebuild the game of each ``game_seed`` at its first decision and the kind's ``setup`` function reads
each seat's items from that state (the deal is keyed by the game seed alone, so this is exactly the run's deal;
nothing is played). A run whose games carry more than one ``params_id`` is not rebuilt (its deals could differ).

Intervals: one observation is one seat-result; the games of one game seed (every seat order of a rotated run, and
every seat of a game) are one cluster. The win rate of each group is a Wilson interval at the group's effective
number of seat-results (``n / deff``, the cluster-robust variance of its mean against the binomial one, never below
1); the difference of win rates is Newcombe's hybrid score interval on both groups' counts divided by the design
effect of the difference (cluster-robust variance of the difference, the negative correlation of the seats of one
game included, against the unclustered one, never below 1); the VP difference a normal interval on the
cluster-robust variance, floored at the resolution floor of whole VP (:func:`meeplelab.analysis.stats.sd_floor`).
``stands_out`` marks rows whose win-rate difference stays clear of 0 with a Bonferroni correction over the rows
with both groups.

DESCRIPTIVE: which card a seat draws is random, but when it draws and how many it draws, how long it holds the
card and whether it plays it are not (a seat that draws many cards is more likely to draw any one of them); only a
deal everyone receives alike (a start hand of the same deck, drawn before any decision) compares like with like,
and even then the comparison is "this card in the hand instead of another one", not "this card added".

Every frame is a polars DataFrame; rates are fractions (0..1) in the data, percent in the report.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import polars as pl
from meeplelab.play.runfolder import run_config
from meeplelab.sim.core.spec import load_ref
from meeplelab.sim.registry import get_spec, make_game

from . import figures as F
from .load import Runs
from .page import MISSING, Section, TableFormat
from .stats import LEVEL, newcombe, sd_floor, wilson, z_value

#: the seat-result keys of the tables
KEYS = ["run", "game", "seat"]
#: games rebuilt at once to read their setup deal
SETUP_BATCH = 512


@dataclass(frozen=True)
class DrawnKind:
    """One kind of item a seat draws at random, and how its draws are found.

    Attributes:
        kind: short name (``card``), as in the content-strength table.
        label: words for the report (``Research card``).
        ids: the item ids by index from the engine's compiled content (None at an index that cannot be drawn
            this way: it is left out of the table).
        drawn: what counts as drawn, in words, with the round ``k`` (for the report).
        by_round: ``k``: draws in rounds (Cycles) 1..k count; 0 = only the setup deal; None = the whole game.
        events: event kinds (the events table's ``kind``) of a draw (empty: setup only).
        categories: the events' ``category`` values that count (None: any).
        column: the events column holding the item's index.
        setup: ``setup(engine, state) -> bool[B, P, items]``, the items each seat holds at the first decision of
            the rebuilt games (None: nothing dealt at setup counts).
        within_kind: compare among the seats that drew some item of the kind (drawing one at all is not random,
            which one is); False: among every seat-result.
        note: why the draw is random, and what is not (for the report).
    """

    kind: str
    label: str
    ids: Callable[[object], list]
    drawn: str
    by_round: int | None
    events: tuple[str, ...] = ()
    categories: tuple[str, ...] | None = None
    column: str = "item"
    setup: Callable | None = None
    within_kind: bool = False
    note: str = ""


@dataclass(frozen=True)
class Draws:
    """A game's drawn kinds (:class:`DrawnKind`) and the items that are chosen rather than drawn (``chosen``: words
    for the report: they are left out of the table)."""

    kinds: tuple[DrawnKind, ...]
    chosen: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)


def draws_of(game: str) -> Draws | None:
    """The ``DRAWS`` declared by ``game``'s analysis module (its spec's ``sections``), or None."""
    mod = get_spec(game).sections
    return getattr(load_ref(mod), "DRAWS", None) if mod else None


# ====================================================================== data

def seat_results(runs: Runs) -> pl.DataFrame:
    """One row per seat-result: ``run, game, seat, players, game_seed, vp, win_share``."""
    return (runs.games.select(*KEYS, "players", "game_seed", "vp", "win_share")
            .with_columns(pl.col("seat").cast(pl.Int64), pl.col("players").cast(pl.Int64),
                          pl.col("vp").cast(pl.Float64))
            .collect())


def _event_draws(runs: Runs, k: DrawnKind) -> pl.LazyFrame:
    """``run, game, seat, index`` of the kind's draw events up to round ``k.by_round``."""
    ev = runs.events.filter(pl.col("kind").is_in(list(k.events)))
    if k.categories is not None:
        ev = ev.filter(pl.col("category").is_in(list(k.categories)))
    if k.by_round is not None:
        names = ev.collect_schema().names()
        rcol = next((c for c in ("round", "cycle") if c in names), None)
        if rcol is None:  # the round of an event is its turn's (turns table)
            rounds = runs.turns.select("run", "game", "turn", pl.col("round").cast(pl.Int64).alias("_r")).unique(
                ["run", "game", "turn"])
            ev = ev.join(rounds, on=["run", "game", "turn"], how="left")
        else:
            ev = ev.with_columns(pl.col(rcol).cast(pl.Int64).alias("_r"))
        ev = ev.filter(pl.col("_r") <= k.by_round)
    return ev.select("run", "game", pl.col("seat").cast(pl.Int64), pl.col(k.column).cast(pl.Int64).alias("index"))


def _setup_draws(runs: Runs, name: str, kinds: list[DrawnKind], seats: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """``run, game, seat, kind, index`` dealt at setup to the seats of run ``name`` (the games rebuilt from their
    game seeds), and notes for a run that cannot be rebuilt."""
    g = runs.games.filter(pl.col("run") == name).select("params_id").unique().collect()
    if g.height > 1:
        return pl.DataFrame(), [f"run {name}: its games ran with {g.height} parameter sets, so its setup deals are "
                                "not rebuilt (" + ", ".join(k.label for k in kinds) + " dealt at setup left out)"]
    cfg = run_config(runs.paths[name], runs.manifests[name])
    engine = make_game(cfg.game, cfg.make_params(), cfg.content)
    mine = seats.filter(pl.col("run") == name)
    gs = np.unique(mine["game_seed"].to_numpy())
    rows = []
    for lo in range(0, gs.size, SETUP_BATCH):
        seeds = gs[lo:lo + SETUP_BATCH]
        state = engine.init(seeds, cfg.seed, cfg.players)
        for k in kinds:
            b, p, i = np.nonzero(np.asarray(k.setup(engine, state)))
            rows.append(pl.DataFrame({"game_seed": seeds[b].astype(np.int64), "seat": p.astype(np.int64),
                                      "kind": [k.kind] * b.size, "index": i.astype(np.int64)}))
    dealt = pl.concat(rows) if rows else pl.DataFrame()
    if dealt.height == 0:
        return dealt, []
    out = mine.select("run", "game", "seat", "game_seed").join(dealt, on=["game_seed", "seat"])
    return out.select("run", "game", "seat", "kind", "index"), []


def drawn_items(runs: Runs, draws: Draws, seats: pl.DataFrame | None = None) -> tuple[pl.DataFrame, list[str]]:
    """Every draw that counts: ``run, game, seat, kind, index`` (one row per seat-result and item drawn by its
    round ``k``, duplicates dropped), and notes on what could not be read."""
    seats = seat_results(runs) if seats is None else seats
    parts, notes = [], []
    for k in draws.kinds:
        if k.events:
            parts.append(_event_draws(runs, k).with_columns(pl.lit(k.kind).alias("kind")).collect())
    setup = [k for k in draws.kinds if k.setup is not None]
    if setup:
        for name in runs.manifests:
            d, n = _setup_draws(runs, name, setup, seats)
            notes += n
            if d.height:
                parts.append(d)
    cols = {"run": pl.String, "game": pl.Int64, "seat": pl.Int64, "kind": pl.String, "index": pl.Int64}
    parts = [p.select([pl.col(c).cast(t) for c, t in cols.items()]) for p in parts if p.height]
    if not parts:
        return pl.DataFrame(schema=cols), notes
    return pl.concat(parts).unique(maintain_order=True), notes


# ====================================================================== statistics

def _cluster_var(u: np.ndarray, cl: np.ndarray, c: int) -> float:
    """Cluster-robust variance of a sum of per-seat-result contributions ``u`` (``[n]``; ``cl`` their cluster codes
    ``0..c-1``): ``c / (c - 1) * sum over clusters of (the cluster's sum of u)^2`` (0 with fewer than 2 clusters)."""
    if c < 2:
        return 0.0
    s = np.bincount(cl, weights=u, minlength=c)
    return c / (c - 1) * float((s * s).sum())


def contrast(win, vp, drew, cl, level: float = LEVEL, family_level: float = LEVEL) -> dict:
    """Seat-results that drew an item (``drew`` True) against those that did not, in one population.

    Args:
        win: ``[n]`` win shares (0..1); vp: ``[n]`` final VP; drew: ``[n]`` bool; cl: ``[n]`` cluster codes
            ``0..c-1`` (the game seeds; one code per seat-result: no clustering).
        level: level of every interval; family_level: level of the interval ``stands_out`` reads (Bonferroni).

    Returns:
        ``{"n_drew", "n_not", "win_drew", "win_drew_low", "win_drew_high", "win_not", ..., "win_diff",
        "win_diff_low", "win_diff_high", "vp_drew", "vp_not", "vp_diff", "vp_diff_low", "vp_diff_high",
        "deff", "flag"}``: nan where a group is empty (a difference needs both); ``deff`` the design effect of
        the win-rate difference (>= 1); ``flag`` ``over`` / ``under`` / ``""``.
    """
    win, vp, drew = np.asarray(win, float), np.asarray(vp, float), np.asarray(drew, bool)
    _, cl = np.unique(np.asarray(cl), return_inverse=True)
    c = int(cl.max()) + 1 if cl.size else 0
    n1, n0 = int(drew.sum()), int((~drew).sum())
    nan = math.nan
    out = {"n_drew": n1, "n_not": n0}
    rates = {}
    for g, mask, n in (("drew", drew, n1), ("not", ~drew, n0)):
        p = float(win[mask].mean()) if n else nan
        u = np.where(mask, win - (p if n else 0.0), 0.0) / max(n, 1)
        binom = p * (1 - p) / n if n else 0.0
        deff = max(1.0, _cluster_var(u, cl, c) / binom) if binom > 0 else 1.0
        r, lo, hi = (float(x) for x in wilson(p * n / deff if n else 0.0, n / deff))
        out.update({f"win_{g}": r, f"win_{g}_low": lo, f"win_{g}_high": hi,
                    f"vp_{g}": float(vp[mask].mean()) if n else nan})
        rates[g] = (p, u)
    out.update(win_diff=nan, win_diff_low=nan, win_diff_high=nan, vp_diff=nan, vp_diff_low=nan, vp_diff_high=nan,
               deff=nan, flag="")
    if n1 and n0:
        (p1, u1), (p0, u0) = rates["drew"], rates["not"]
        ind = p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0
        deff = max(1.0, _cluster_var(u1 - u0, cl, c) / ind) if ind > 0 else 1.0
        e1, e0 = n1 / deff, n0 / deff
        d, lo, hi = newcombe(p1 * e1, e1, p0 * e0, e0, level)
        _, blo, bhi = newcombe(p1 * e1, e1, p0 * e0, e0, family_level)
        m1, m0 = out["vp_drew"], out["vp_not"]
        v = (np.where(drew, vp - m1, 0.0) / n1) - (np.where(~drew, vp - m0, 0.0) / n0)
        se = math.sqrt(max(_cluster_var(v, cl, c), sd_floor(1.0) ** 2 * (1 / n1 + 1 / n0)))
        h = z_value(level) * se
        out.update(win_diff=float(d), win_diff_low=float(lo), win_diff_high=float(hi), vp_diff=m1 - m0,
                   vp_diff_low=m1 - m0 - h, vp_diff_high=m1 - m0 + h, deff=deff,
                   flag="over" if blo > 0 else "under" if bhi < 0 else "")
    return out


#: the columns of :func:`drawn_stats`, in order
COLUMNS = ["players", "rank", "kind", "id", "n_drew", "n_not", "drew_share", "drawn_drew", "drawn_not", "win_drew",
           "win_drew_low", "win_drew_high", "win_not", "win_not_low", "win_not_high", "win_diff", "win_diff_low",
           "win_diff_high", "vp_drew", "vp_not", "vp_diff", "vp_diff_low", "vp_diff_high", "base_win", "clusters",
           "deff", "stands_out"]


def _kind_rows(s: pl.DataFrame, dk: pl.DataFrame, items: pl.DataFrame, within: bool, level: float,
               family_level: float) -> list[dict]:
    """The rows of one kind within one player count: ``s`` the seat-results (with ``_cl``), ``dk`` the kind's
    draws, ``items`` its ``index, id``."""
    count = dk.group_by(KEYS).agg(pl.col("index").n_unique().alias("_k"))
    s = s.join(count, on=KEYS, how="left").with_columns(pl.col("_k").fill_null(0))
    if within:
        s = s.filter(pl.col("_k") > 0)
    win, vp, cl, kc = (s[c].to_numpy() for c in ("win_share", "vp", "_cl", "_k"))
    key = s.select(KEYS).with_row_index("_i")
    hit = dk.join(key, on=KEYS).group_by("index").agg(pl.col("_i"))
    where = dict(zip(hit["index"].to_list(), hit["_i"].to_list()))
    rows = []
    for idx, ident in zip(items["index"].to_list(), items["id"].to_list()):
        drew = np.zeros(s.height, bool)
        drew[np.asarray(where.get(idx, []), np.int64)] = True
        r = contrast(win, vp, drew, cl, level, family_level)
        r.update(id=ident, drew_share=r["n_drew"] / s.height if s.height else math.nan,
                 drawn_drew=float(kc[drew].mean()) if drew.any() else math.nan,
                 drawn_not=float(kc[~drew].mean()) if (~drew).any() else math.nan,
                 base_win=float(win.mean()) if s.height else math.nan, clusters=int(np.unique(cl).size),
                 stands_out=r.pop("flag"))
        rows.append(r)
    return rows


def drawn_stats(seats: pl.DataFrame, drawn: pl.DataFrame, items: pl.DataFrame, within: dict[str, bool] | None = None,
                level: float = LEVEL) -> pl.DataFrame:
    """The drawn-card table ``[item x (drew, not drew)]`` per player count, from seat-results and their draws.

    Args:
        seats: ``run, game, seat, players, game_seed, vp, win_share`` (:func:`seat_results`).
        drawn: ``run, game, seat, kind, index``: the items each seat-result drew by its kind's round ``k``.
        items: ``kind, index, id``: every item of the table (an item nobody drew has ``n_drew`` = 0).
        within: per kind, compare only among the seats that drew some item of the kind (default False).
        level: interval level.

    Returns:
        One row per player count and item, :data:`COLUMNS` (rates as fractions, win_diff in fractions, VP in VP),
        ranked by ``win_diff`` within each player count (rows without a difference last). ``drawn_drew`` /
        ``drawn_not`` are the mean number of items of the kind the seats of each group drew by ``k`` (how much
        more drawing the drew group did).
    """
    within = within or {}
    seats = seats.with_columns(pl.struct("run", "game_seed").rank("dense").cast(pl.Int64).alias("_cl"))
    kinds = items["kind"].unique(maintain_order=True).to_list()
    n_rows = sum(items.height for _ in seats["players"].unique())
    fam = 1 - (1 - level) / max(n_rows, 1)
    rows = []
    for players in sorted(seats["players"].unique().to_list()):
        s = seats.filter(pl.col("players") == players)
        for kind in kinds:
            for r in _kind_rows(s, drawn.filter(pl.col("kind") == kind), items.filter(pl.col("kind") == kind),
                                within.get(kind, False), level, fam):
                rows.append({"players": players, "kind": kind, **r})
    if not rows:
        return pl.DataFrame(schema={c: pl.Float64 for c in COLUMNS})
    out = pl.DataFrame(rows).with_columns(pl.col(pl.Float64).fill_nan(None)).sort(
        ["players", "win_diff", "kind", "id"], descending=[False, True, False, False], nulls_last=True)
    out = out.with_columns(pl.int_range(1, pl.len() + 1).over("players").alias("rank"))
    return out.select(COLUMNS)


# ====================================================================== tables

def _items(runs: Runs, draws: Draws) -> pl.DataFrame:
    """``kind, index, id`` of every drawable item (the content of the first run: a report's runs share it)."""
    name = next(iter(runs.manifests))
    cfg = run_config(runs.paths[name], runs.manifests[name])
    content = make_game(cfg.game, content_dir=cfg.content).content
    rows = [{"kind": k.kind, "index": i, "id": ident} for k in draws.kinds for i, ident in enumerate(k.ids(content))
            if ident is not None]
    return pl.DataFrame(rows, schema={"kind": pl.String, "index": pl.Int64, "id": pl.String})


def _table(runs: Runs, draws: Draws) -> tuple[pl.DataFrame, list[str]]:
    seats = seat_results(runs)
    drawn, notes = drawn_items(runs, draws, seats)
    t = drawn_stats(seats, drawn, _items(runs, draws), {k.kind: k.within_kind for k in draws.kinds})
    return t, notes


def drawn_table(runs: Runs, draws: Draws | None = None) -> pl.DataFrame:
    """The drawn-card table of ``runs`` (one game): :func:`drawn_stats` of the game's declared draws (``DRAWS`` of
    its analysis module, or ``draws``); an empty frame for a game that declares none."""
    games = runs.game_names
    draws = draws or (draws_of(next(iter(games))) if len(games) == 1 else None)
    if draws is None:
        return pl.DataFrame()
    return _table(runs, draws)[0]


# ====================================================================== report

#: the columns the report shows, and those shown in percent
SHOWN = ["players", "rank", "kind", "id", "n_drew", "n_not", "drew_share", "drawn_drew", "drawn_not", "win_drew",
         "win_drew_low", "win_drew_high", "win_not", "win_diff", "win_diff_low", "win_diff_high", "vp_drew", "vp_diff",
         "vp_diff_low", "vp_diff_high", "base_win", "stands_out"]
PCT = ("drew_share", "win_drew", "win_drew_low", "win_drew_high", "win_not", "win_not_low", "win_not_high", "win_diff",
       "win_diff_low", "win_diff_high", "base_win")
#: the columns the page's tables show (their CSV keeps every column of :data:`SHOWN` and the interval's text)
PAGE = ("players", "rank", "kind", "id", "n_drew", "win_drew", "win_not", "win_diff_interval", "vp_diff", "stands_out")
LABELS = {"id": "card", "win_diff_interval": "improvement when drawn (pts) [95%]", "n_drew": "seats drew",
          "n_not": "seats not", "drew_share": "drew %", "drawn_drew": "drawn (drew)",
          "drawn_not": "drawn (not)", "win_drew": "win % when drawn", "win_not": "win % not drawn",
          "win_diff": "improvement when drawn (pts)", "vp_drew": "VP when drawn", "vp_diff": "VP difference",
          "base_win": "base win %"}


def head_rows(t: pl.DataFrame, k: int = 3) -> pl.DataFrame:
    """The rows that stand out, else the ``k`` top and ``k`` bottom rows by ``win_diff`` of each player count."""
    stand = t.filter(pl.col("stands_out") != "")
    if stand.height:
        return stand
    d = t.filter(pl.col("win_diff").is_not_null())
    return pl.concat([d.group_by("players", maintain_order=True).head(k),
                      d.sort("rank", descending=True).group_by("players", maintain_order=True).head(k)]).unique(
        ["players", "rank"], keep="first").sort("players", "rank")


def _interval(r: dict) -> str:
    """``+2.1 [-1.0, +5.2]``: a row's improvement when drawn with its 95% interval (percentage points); an em dash
    where a group is empty."""
    d, lo, hi = (r[c] if r[c] is not None and math.isfinite(r[c]) else None
                 for c in ("win_diff", "win_diff_low", "win_diff_high"))
    if d is None:
        return MISSING
    pts = [f"{v:+.1f}".replace("-0.0", "+0.0") for v in (d, lo, hi) if v is not None]  # no "-0.0"
    return f"{pts[0]} [{pts[1]}, {pts[2]}]" if len(pts) == 3 else f"{pts[0]} [{MISSING}]"


def _chart(head: pl.DataFrame):
    """Improvement when drawn of the head rows (percentage points, descriptive)."""
    d = head.select((pl.col("id") + " (" + pl.col("players").cast(pl.String) + "p)").alias("label"),
                    (pl.col("win_diff") * 100).alias("est"), (pl.col("win_diff_low") * 100).alias("low"),
                    (pl.col("win_diff_high") * 100).alias("high"))
    return F.bar_with_interval(d, "label", title="Improvement when drawn (descriptive)",
                               xlabel="win rate when drawn minus not drawn (percentage points)", ref=0.0,
                               ref_label="no difference")


def _text(t: pl.DataFrame, draws: Draws, notes: list[str]) -> str:
    n_clear = int((t["stands_out"] != "").sum())
    fam = int(t["win_diff"].is_not_null().sum())
    text = [
        ("Is a card good when you draw it? For every card a seat draws at random, the win rate of the seat-results "
        "that drew it by round k (17lands' \"game in hand\" win rate) against those that did not, and the difference "
        "(\"improvement when drawn\"), from this run's own games: every card at once, no removal runs. "
        "DESCRIPTIVE, not causal: which card a seat draws is random, but how many cards it draws, how long it holds "
        "one and whether it plays it are not (`drawn (drew)` / `drawn (not)` = cards of the kind the seats of each "
        "group drew by k: a seat that draws more is more likely to hold any one card). The cause of a card's "
        "strength is measured by removing it (`meeplelab content-value`, paired on common seeds)."),
        "Drawn means: " + "; ".join(f"{k.label}: {k.drawn} ({k.note})" for k in draws.kinds) + ".",
    ]
    if draws.chosen:
        text.append(draws.chosen + ".")
    text.append("Win rates in percent with Wilson 95% intervals at the effective number of seat-results (the games of "
                "one game seed are one cluster: every seat order of a rotated run shares its shuffles); improvement = "
                "drew minus not (percentage points, Newcombe's hybrid score interval at the design effect of the "
                "difference); `base win %` = the win rate of every seat-result compared. A row `stands out` when its "
                f"improvement stays clear of 0 with a Bonferroni correction over the {fam:,} rows with both groups: "
                f"{n_clear} here.")
    return "\n".join(text + notes)


def drawn_sections(runs: Runs) -> list:
    """Report section "Drawn cards (descriptive)": the rows that stand out (else the top and bottom rows per player
    count) with a chart, and the whole table folded; nothing for a game that declares no draws."""
    games = runs.game_names
    draws = draws_of(next(iter(games))) if len(games) == 1 else None
    if draws is None:
        return []
    t, notes = _table(runs, draws)
    if t.height == 0 or t["win_diff"].is_null().all():
        return []
    shown = t.with_columns([pl.col(c) * 100 for c in PCT]).select(SHOWN)
    shown = shown.with_columns(pl.Series("win_diff_interval", [_interval(r) for r in shown.iter_rows(named=True)],
                                         pl.String))
    head = head_rows(shown)
    fmt = TableFormat(decimals={"drew_share": 1, "drawn_drew": 2, "drawn_not": 2, "win_drew": 1, "win_not": 1,
                                "win_diff": 1, "vp_drew": 1, "vp_diff": 1, "base_win": 1}, labels=LABELS, rank=None,
                      show=PAGE)
    cap = ("Cards whose improvement when drawn stands out (Bonferroni over every row)" if (t["stands_out"] != "").any()
           else "No card stands out after the Bonferroni correction: the 3 highest and 3 lowest improvements when "
           "drawn per player count")
    return [Section("Drawn cards: win rate when drawn (descriptive)", _text(t, draws, notes),
                    [("drawn_improvement", _chart(head), "Improvement when drawn, percentage points (descriptive)")],
                    [(cap + " (percent, percentage points)", head, fmt),
                     (f"Every drawn card ({t.height:,} rows; percent, percentage points; every column in its CSV)",
                      shown, TableFormat(decimals=fmt.decimals, labels=LABELS, rank=None, show=PAGE, folded=True))])]


__all__ = [
    "COLUMNS",
    "DrawnKind",
    "Draws",
    "contrast",
    "drawn_items",
    "drawn_sections",
    "drawn_stats",
    "drawn_table",
    "draws_of",
    "head_rows",
    "seat_results",
]
