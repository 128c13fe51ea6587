"""The verdict that opens every report: short flags a designer can paste into a design doc, each
with its evidence (numbers, 95% interval, sample size).

Flags:
- **dominant strategy** (the one meaning of :data:`meeplelab.analysis.dominance.DEFINITION`, shared with the
  tournament report): it beats every other strategy of the field head to head (paired win-share
  difference), each pair resolved, Holm-adjusted; otherwise the top strategy is only *leading*, and the
  line says which pair it loses or does not resolve;
- **seat advantage** per player count: the spread between the best and the worst seat (paired
  interval), flagged past :data:`meeplelab.analysis.seats.SEAT_SPREAD_POINTS` points; from mirror matches or
  rotated seats, and marked confounded when only fixed seats exist;
- **degenerate strategies**: win rate upper bound below half the fair share;
- **safety-limit games**: games that ended by a safety limit (an ``end_reason`` column when the
  games table has one, else the rule parameter ``round_limit`` reached);
- **unused mechanics**: turn options that fewer than :data:`RARE_SHARE` of seat-games use even once,
  and event kinds that never happened;
- **largest rule effects**: among runs that differ only in rule parameters (a sweep or experiment
  in one report), the paired win-rate differences with the largest size.

Every line names the field it holds among ("among the strategies played: a, b, c (N games, rotated
seats)", :func:`meeplelab.analysis.dominance.field_words`), and the verdict ends with
:data:`meeplelab.analysis.dominance.SCOPE`: the conclusions hold for this field only.
"""

from __future__ import annotations

import math

import polars as pl

from .dominance import SCOPE
from .load import Runs
from .seats import (SEAT_SPREAD_POINTS, confounded_runs, games_frame, head_to_head, seat_source, seat_spread,
                    strategy_rates)
from .dominance import DEFINITION, field_strategies, field_words, judge, seating_words
from .page import Section, TableFormat
from .seats import seating_lines
from .stats import holm, holm_words, paired_shares, rate_p, wilson
from .summary import three_sentences
from meeplelab.sim.registry import get_game_class

RARE_SHARE = 0.05


def _pct(x: float) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{x * 100:.1f}"


def _interval(lo: float, hi: float, scale: float = 100.0, places: int = 1) -> str:
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "[no interval: too few games]"
    return f"[{lo * scale:.{places}f}, {hi * scale:.{places}f}]"


def _field(df: pl.DataFrame, manifests: dict | None, players: int | None = None) -> str:
    """The field a line holds among: the strategies played (at ``players`` seats), games, seating."""
    sub = df if players is None else df.filter(pl.col("players") == players)
    runs = sub["run"].unique(maintain_order=True).to_list()
    mans = {n: m for n, m in (manifests or {}).items() if n in runs}
    games = int(sub.select(pl.struct("run", "game").n_unique()).item()) if sub.height else 0
    present = sub.sort("run", "game", "seat")["strategy"].to_list()
    return field_words(field_strategies(mans, present) if mans else list(dict.fromkeys(present)), games,
                       seating_words(mans) if mans else "seating not recorded")


def _flag_family(df: pl.DataFrame, rates: pl.DataFrame, manifests: dict | None) -> tuple[list, list, list]:
    """The claims behind the strategy flags, per player count of ``rates`` (:func:`meeplelab.analysis.seats.strategy_rates`).

    Returns:
        ``(blocks, pvals, slots)``: ``blocks`` one ``(players, sub, fair, where, pairs)`` per player count
        (``sub`` its rows ranked by win rate, ``fair`` = 1/players as a fraction, ``where`` the field words of
        :func:`_field`, ``pairs`` = ``{(a, b): head_to_head dict}`` for every pair, ``a`` ranked above ``b``);
        ``pvals`` the raw p-value of every claim and ``slots`` what each is: ``("pair", players, a, b)`` or
        ``("deg", players, rate row)`` (the degenerate test against half the fair share, one-sided; 1.0 when
        the rate is not below it).
    """
    blocks = []  # per player count: (players, sub, fair, field words, pairs {(a, b): h2h})
    pvals, slots = [], []  # the family: ("pair", players, a, b) or ("deg", players, row)
    for (players,), sub in rates.group_by("players", maintain_order=True):
        sub = sub.sort(["est", "strategy"], descending=[True, False])
        fair = 1.0 / players
        where = _field(df, manifests, players)
        order = sub["strategy"].to_list()
        pairs = {}
        at = df.filter(pl.col("players") == players)
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                h = head_to_head(at, a, b)
                pairs[(a, b)] = h
                pvals.append(h["p"])
                slots.append(("pair", players, a, b))
        for r in sub.iter_rows(named=True):
            pvals.append(float(rate_p(r["wins"], r["games"], fair / 2)) / 2 if r["est"] < fair / 2 else 1.0)
            slots.append(("deg", players, r))
        blocks.append((players, sub, fair, where, pairs))
    return blocks, pvals, slots


def _both_ways(pairs: dict, adj_pair: dict, players: int) -> dict:
    """The head-to-head rows of one player count as :func:`meeplelab.analysis.dominance.judge` reads them, each pair
    both ways round: ``{(a, b): row}``, the row the :func:`meeplelab.analysis.seats.head_to_head` dict (fractions;
    signs flipped for ``(b, a)``) plus ``edge`` (the estimate, NaN taken as 0), ``resolved`` (Holm-adjusted p
    below 0.05), ``p_holm`` (from ``adj_pair`` = ``{(players, a, b): p}``) and ``column`` (the opponent)."""
    rows = {}
    for (a, b), hh in pairs.items():
        p_adj = adj_pair[(players, a, b)]
        ok = bool(p_adj == p_adj and p_adj < 0.05)
        est = hh["est"] if hh["est"] == hh["est"] else 0.0
        rows[(a, b)] = {**hh, "edge": est, "resolved": ok, "p_holm": p_adj, "column": b}
        rows[(b, a)] = {**hh, "est": -hh["est"], "low": -hh["high"], "high": -hh["low"], "edge": -est,
                        "resolved": ok, "p_holm": p_adj, "column": a}
    return rows


def _definition(defined: list) -> str:
    """:data:`meeplelab.analysis.dominance.DEFINITION` the first time (``defined`` empty; it is marked), a pointer
    to it after that: the definition is said once, on the first dominant or leading line."""
    if defined:
        return "(Dominant as defined above.)"
    defined.append(True)
    return DEFINITION


def _dominant_line(j, sub: pl.DataFrame, players: int, where: str, words: str, defined: list) -> str:
    """The FLAG line of the dominant strategy of a judgement ``j`` (:func:`meeplelab.analysis.dominance.judge`):
    its win rate (percent, from ``sub``) and its closest head-to-head pair (points, Holm p)."""
    d = sub.filter(pl.col("strategy") == j.dominant).row(0, named=True)
    w = min(j.pairs, key=lambda r: r["low"])
    return (f"FLAG dominant strategy ({players} players, {where}): {j.dominant} wins {_pct(d['est'])}% "
            f"{_interval(d['low'], d['high'])} of {d['games']:,} games and beats every other strategy of "
            f"this field head to head, each pair resolved (closest: {w['column']} by {_pct(w['est'])} "
            f"points {_interval(w['low'], w['high'])} paired over {w['n']:,} games, {words}: p = "
            f"{max(r['p_holm'] for r in j.pairs):.2g}). {_definition(defined)}")


def _leading_line(j, players: int, where: str, words: str, defined: list) -> str:
    """The line of a leader that is not dominant (judgement ``j``): every pair it loses and every pair not
    resolved, in points with intervals, Holm p and the games needed."""
    why = []
    for r in j.lost:
        why.append(f"it loses to {r['column']} head to head by {_pct(-r['est'])} points "
                   f"{_interval(-r['high'], -r['low'])} (p = {r['p_holm']:.2g})")
    for r in j.open:
        nd = f", about {r['games_needed']:,} games resolve a difference this size" if r["games_needed"] else ""
        p = f"p = {r['p_holm']:.2g}" if r["p_holm"] == r["p_holm"] else "no test: too few games"
        why.append(f"against {r['column']} {_pct(r['est'])} points {_interval(r['low'], r['high'])} paired over "
                   f"{r['n']:,} games is not resolved ({p}{nd})")
    return (f"Leading, not dominant ({players} players, {where}): {j.leader} has the highest win rate, "
            f"but {'; '.join(why)} ({words}). {_definition(defined)}")


def _count_lines(block: tuple, adj_pair: dict, note: str, words: str, defined: list,
                 facts: dict | None) -> tuple[list[str], bool]:
    """The lines of one player count (a block of :func:`_flag_family`): the ranking with the top pair head to
    head, then the dominant FLAG or the leading line (none for a mirror match); fills ``facts["strategies"]``.

    Returns:
        ``(lines, flagged)``: ``flagged`` is True when a strategy is dominant.
    """
    players, sub, fair, where, pairs = block
    if sub.height < 2:
        r = sub.row(0, named=True)
        return [f"{players} players: one strategy ({r['strategy']}), a mirror match: no ranking ({where})."], False
    top, second = sub.row(0, named=True), sub.row(1, named=True)
    h = pairs[(top["strategy"], second["strategy"])]
    ranking = ", ".join(f"{r['strategy']} {_pct(r['est'])}% {_interval(r['low'], r['high'])}"
                        for r in sub.iter_rows(named=True))
    need = f"; about {h['games_needed']:,} games resolve a difference this size" if h["games_needed"] else ""
    lines = [f"{players} players, win rates{note} (fair share {fair * 100:.1f}%) {where}: {ranking}. "
             f"{top['strategy']} minus {second['strategy']}: {_pct(h['est'])} percentage points "
             f"{_interval(h['low'], h['high'])} paired over {h['n']:,} games{need}."]
    j = judge(sub["strategy"].to_list(), _both_ways(pairs, adj_pair, players))
    if facts is not None:
        facts.setdefault("strategies", {})[players] = {
            "rates": sub, "top": top, "second": second, "h2h": h, "dominant": j.dominant, "fair": fair,
            "where": where, "lost": j.lost, "open": j.open,
            "closest": min(j.pairs, key=lambda r: r["low"]) if j.pairs else None}
    if j.dominant is not None:
        return lines + [_dominant_line(j, sub, players, where, words, defined)], True
    return lines + [_leading_line(j, players, where, words, defined)], False


def _degenerate_lines(df: pl.DataFrame, manifests: dict | None, slots: list, adj: list, words: str,
                      facts: dict | None) -> list[str]:
    """One FLAG line per degenerate strategy (a ``("deg", ...)`` slot of :func:`_flag_family` whose Holm-adjusted
    p in ``adj`` is below 0.05: win rate below half the fair share); fills ``facts["degenerate"]``."""
    lines = []
    for s, a in zip(slots, adj):
        if s[0] == "deg" and a < 0.05:
            players, r = s[1], s[2]
            fair = 1.0 / players
            if facts is not None:
                facts.setdefault("degenerate", []).append((players, r, a))
            lines.append(f"FLAG degenerate strategy ({players} players, {_field(df, manifests, players)}): {r['strategy']} "
                         f"wins {_pct(r['est'])}% {_interval(r['low'], r['high'])} of {r['games']:,} games, below half "
                         f"the fair share ({fair * 50:.1f}%) ({words}: p = {a:.2g}).")
    return lines


def strategy_flags(df: pl.DataFrame, confounded: bool, manifests: dict | None = None,
                   facts: dict | None = None) -> tuple[list[str], pl.DataFrame]:
    """Ranking, dominant (or only leading) and degenerate strategies per player count: lines and the table
    behind them; every line names the field it holds among (the strategies played at that player count,
    games, seating: ``manifests`` of the runs, :func:`meeplelab.analysis.dominance.field_words`).

    *Dominant* has the one meaning of :data:`meeplelab.analysis.dominance.DEFINITION` (:func:`meeplelab.analysis.dominance.judge`):
    the strategy beats every other strategy of the field head to head (paired win-share difference over the
    games where both sit, :func:`meeplelab.analysis.seats.head_to_head`), each pair resolved. Every head-to-head pair
    of every player count and every degenerate test (the score test of a win rate against half the fair
    share, one-sided) is one claim of one family, Holm-adjusted together (:func:`meeplelab.analysis.stats.holm`): with
    equally strong strategies the chance of any flag is at most 5%.

    ``facts`` (a dict, filled when given) receives the numbers behind the lines for the three summary
    sentences (:mod:`meeplelab.analysis.summary`): ``facts["strategies"][players]`` = ``{"rates", "top", "second",
    "h2h", "dominant", "closest", "lost", "open", "fair", "where"}`` and ``facts["degenerate"]`` = a list of
    ``(players, rate row, Holm p)``."""
    rates = strategy_rates(df)
    note = " (CONFOUNDED with seat: fixed seats)" if confounded else ""
    blocks, pvals, slots = _flag_family(df, rates, manifests)
    adj = holm(pvals) if pvals else []
    words = holm_words(int(sum(1 for p in pvals if p == p)))
    adj_pair = {(s[1], s[2], s[3]): a for s, a in zip(slots, adj) if s[0] == "pair"}
    lines, flagged = [], False
    defined = []  # the definition is said once, on the first dominant or leading line
    for block in blocks:
        more, dominant = _count_lines(block, adj_pair, note, words, defined, facts)
        lines += more
        flagged = flagged or dominant
    degenerate = _degenerate_lines(df, manifests, slots, adj, words, facts)
    lines += degenerate
    flagged = flagged or bool(degenerate)
    if pvals and not flagged:
        lines.append(f"No dominant or degenerate strategy flagged ({words}: every head-to-head pair and degenerate test).")
    return lines, rates


def seat_flags(runs: Runs, df: pl.DataFrame, threshold: float = SEAT_SPREAD_POINTS) -> tuple[list[str], pl.DataFrame]:
    """Seat advantage spread per player count (flagged past ``threshold`` points when the best-worst pair
    is resolved, Holm-adjusted over every pair of seats: :func:`meeplelab.analysis.seats.seat_spread`)."""
    names, source = seat_source(runs)
    sp = seat_spread(df.filter(pl.col("run").is_in(names)), threshold)
    lines = []
    seat_df = df.filter(pl.col("run").is_in(names))
    for r in sp.iter_rows(named=True):
        unresolved = r["spread"] > threshold and not r["flagged"]  # past the threshold, not resolved
        flag = ("FLAG seat advantage" if r["flagged"] else
                "seat advantage not resolved (not clear of 0 after the correction)" if unresolved else "seat advantage")
        need = f"; about {r['games_needed']:,} games resolve a spread this size" if r["games_needed"] else ""
        if r["best_seat"] == r["worst_seat"] or r["spread"] == 0:  # every seat won the same share: no pair to test
            lines.append(f"seat advantage ({r['players']} players, from {source}; seat numbers from the field "
                         f"{_field(seat_df, runs.manifests, r['players'])}): every seat wins {r['best']:.1f}% "
                         f"{_interval(r['best_low'], r['best_high'], 1)}; spread 0.0 percentage points over "
                         f"{r['games']:,} games (threshold {threshold:.0f} points; no best-worst pair to test).")
            continue
        lines.append(f"{flag} ({r['players']} players, from {source}; seat numbers from the field "
                     f"{_field(seat_df, runs.manifests, r['players'])}): seat {r['best_seat'] + 1} wins "
                     f"{r['best']:.1f}% {_interval(r['best_low'], r['best_high'], 1)}, seat {r['worst_seat'] + 1} "
                     f"{r['worst']:.1f}% {_interval(r['worst_low'], r['worst_high'], 1)}; spread {r['spread']:.1f} "
                     f"percentage points {_interval(r['spread_low'], r['spread_high'], 1)} paired over "
                     f"{r['games']:,} games (threshold {threshold:.0f} points; flagged only when the best-worst "
                     f"pair is resolved, {holm_words(r['comparisons'])} of seats, p = {r['p_holm']:.2g}){need}.")
    return lines, sp


def safety_flags(runs: Runs, facts: dict | None = None) -> list[str]:
    """Games that ended by a safety limit (an ``end_reason`` naming a limit, else the rule parameter
    ``round_limit`` reached), with the count per player count when the runs hold several; ``facts``
    (when given) receives ``facts["safety"]`` = ``{players: (hit, games, est, low, high)}`` and
    ``facts["safety_how"]``."""
    g = runs.games
    names = g.collect_schema().names()
    one = g.filter(pl.col("seat") == 0)
    if "end_reason" in names:
        d = one.select("players", pl.col("end_reason").cast(pl.String).str.contains("(?i)limit|safety")
                       .fill_null(False).alias("hit")).collect()
        how = "end_reason"
    else:
        how, parts = None, []
        for n, m in runs.manifests.items():
            lim = m["game"]["params"].get("round_limit")
            if lim is None:
                continue
            how = "round_limit reached"
            parts.append(one.filter(pl.col("run") == n).select("players", (pl.col("rounds") >= lim).alias("hit")))
        if how is None:
            total = int(one.select(pl.len()).collect().item())
            return [f"Safety limit: no game ended by one ({total:,} games; a game passing the engine's ply bound "
                    "stops the run with an error, so none is in these tables)."]
        d = pl.concat(parts).collect()

    per = d.group_by(pl.col("players").cast(pl.Int64), maintain_order=True) \
        .agg(pl.col("hit").sum().alias("hit"), pl.len().alias("n")).sort("players")
    if facts is not None:
        facts["safety_how"] = how
        facts["safety"] = {}
        for r in per.iter_rows(named=True):
            q, ql, qh = wilson(int(r["hit"]), int(r["n"]))
            facts["safety"][int(r["players"])] = (int(r["hit"]), int(r["n"]), float(q), float(ql), float(qh))
    hit, total = int(per["hit"].sum()), int(per["n"].sum())
    p, lo, hi = wilson(hit, total)
    flag = "FLAG safety-limit games" if hit else "Safety limit"
    each = ""
    if per.height > 1 and hit:
        each = ": " + ", ".join(
            f"{r['players']} players {int(r['hit']):,} of {int(r['n']):,}" for r in per.iter_rows(named=True))
    return [f"{flag}: {hit:,} of {total:,} games ({_pct(float(p))}% {_interval(float(lo), float(hi))}) ended by a "
            f"safety limit ({how}){each}."]


def mechanics_flags(runs: Runs, facts: dict | None = None) -> list[str]:
    """Turn options used at least once in under :data:`RARE_SHARE` of seat-games; event kinds that never
    happened. ``facts`` (when given) receives ``facts["rare"]`` = ``[(column, option, used, seat_games,
    est, low, high)]`` and ``facts["never"]`` = the event kinds that never happened."""
    lines = []
    game = next(iter(runs.game_names))
    try:
        cls = get_game_class(game)
    except Exception:  # an engine not importable here: its turn vocabulary is unknown
        cls = None
    schema = runs.turns.collect_schema()
    tcols = [c for c, t in schema.items() if t == pl.String and c != "run"]
    if tcols:
        col = tcols[0]
        seat_games = int(runs.games.select(pl.len()).collect().item())
        freq = (runs.turns.group_by(col, maintain_order=True).agg(pl.len().alias("n"),
                                             pl.struct("run", "game", "seat").n_unique().alias("used_by"))
                .collect())
        total = int(freq["n"].sum())
        seen = {r[col]: (int(r["n"]), int(r["used_by"])) for r in freq.iter_rows(named=True)}
        vocab = next((c.vocab for c in (cls.turn_columns if cls else ()) if c.name == col and c.vocab), None)
        for v in (vocab or sorted(seen)):
            n, used = seen.get(v, (0, 0))
            if seat_games and used / seat_games < RARE_SHARE:
                p, lo, hi = wilson(used, seat_games)
                if facts is not None:
                    facts.setdefault("rare", []).append((col, v, used, seat_games, float(p), float(lo), float(hi)))
                lines.append(f"FLAG barely used: turn {col} `{v}` taken by a seat in {used:,} of {seat_games:,} "
                             f"seat-games ({_pct(float(p))}% {_interval(float(lo), float(hi))}; {n:,} of "
                             f"{total:,} turns).")
    if cls is not None and cls.event_kinds and runs.events.collect_schema().get("kind") is not None:
        ev = runs.events.select(pl.col("kind").cast(pl.String)).unique().collect()["kind"].to_list()
        never = [k for k in cls.event_kinds if k not in set(ev)]
        if never and facts is not None:
            facts["never"] = never
        if never:
            lines.append(f"FLAG unused: event kinds that never happened: {', '.join(f'`{k}`' for k in never)}.")
    return lines or [f"Mechanics: every turn option used in at least {RARE_SHARE:.0%} of seat-games, every event "
                     "kind happened."]


def rule_effect_flags(runs: Runs, df: pl.DataFrame, top: int = 3) -> tuple[list[str], pl.DataFrame]:
    """Largest paired win-rate differences between runs that differ only in rule parameters."""
    items = list(runs.manifests.items())
    if len(items) < 2:
        return [], pl.DataFrame()
    key = lambda m: (m["config"]["players"], tuple(m["config"]["strategies"]), m["config"]["seed"],  # noqa: E731
                     m["config"].get("seating", "fixed"))
    rows = []
    for i, (na, ma) in enumerate(items):
        for nb, mb in items[i + 1:]:
            if key(ma) != key(mb):
                continue
            pa_, pb = ma["game"]["params"], mb["game"]["params"]
            changed = {k: (pb.get(k), pa_.get(k)) for k in set(pa_) | set(pb) if pa_.get(k) != pb.get(k)}
            if not changed:
                continue
            a = df.filter(pl.col("run") == na)
            b = df.filter(pl.col("run") == nb)
            where = _field(a, {na: ma})
            j = a.join(b, on=["game", "seat"], suffix="_b")
            for (s,), sub in j.group_by("strategy", maintain_order=True):
                pr = paired_shares(sub["win_share_b"].to_numpy(), sub["win_share"].to_numpy())
                est, lo, hi = pr["est"], pr["low"], pr["high"]
                rows.append({"change": ", ".join(f"{k} {v[1]} -> {v[0]}" for k, v in sorted(changed.items())),
                             "strategy": s, "n": sub.height, "field": where, "est": est * 100, "low": lo * 100, "high": hi * 100,
                             "from_run": na, "to_run": nb})
    if not rows:
        return [], pl.DataFrame()
    t = pl.DataFrame(rows).with_columns(pl.col("est").abs().alias("_a")).sort("_a", descending=True).drop("_a")
    lines = [f"Rule effect: {r['change']} moves {r['strategy']}'s win rate by {r['est']:+.1f} percentage points "
             f"{_interval(r['low'], r['high'], 1)} (paired over {r['n']:,} seat-results, same seeds; {r['field']}; "
             "the players do not change with the rules)."
             for r in t.head(top).iter_rows(named=True)]
    return lines, t.drop("field")


def verdict_section(runs: Runs, extra: list[str] | None = None, scope: str | None = None,
                    effect: dict | None = None, effects: pl.DataFrame | None = None):
    """The "Verdict" section (first in every report); ``extra`` lines (an experiment's largest
    effects) are added at the end, ``scope`` names what the flags were computed on; ``effect`` (an
    experiment's largest paired win-rate effect: ``arm, strategy, est, low, high, n, control, resolved``,
    percentage points) is named by the third of the three summary sentences (``Section.summary``), as is the
    largest of ``effects`` (a sweep's :func:`rule_effect_flags` table over its variants) or else of the
    runs' own rule effects."""
    df = games_frame(runs)
    conf = confounded_runs(runs)
    lines = ([f"Flags computed on {scope}."] if scope else []) + ["How the games were seated: " + "; ".join(seating_lines(runs)) + "."]
    if conf:
        lines.append(f"FLAG confounded: run(s) {', '.join(conf)} seat strategy k always in seat k, so strategy win "
                     "rates include the seat's advantage and the seat table includes strategy strength; "
                     "simulate with --seating rotate (the default) to separate them.")
    facts: dict = {}
    s_lines, rates = strategy_flags(df, bool(conf) and len(conf) == len(runs.manifests), runs.manifests, facts)
    seat_lines, spread = seat_flags(runs, df)
    r_lines, effects_of_runs = rule_effect_flags(runs, df)
    lines += (s_lines + seat_lines + safety_flags(runs, facts) + mechanics_flags(runs, facts) + r_lines
              + list(extra or []))
    lines.append(SCOPE)
    tables = [("Win rate by strategy (percent; fair = 1/players)",
               rates.with_columns([pl.col(c) * 100 for c in ("est", "low", "high", "fair")]),
               TableFormat(decimals={"est": 1}, labels=RATE_LABELS))]
    if spread.height:
        tables.append(("Seat advantage spread, best minus worst seat (percentage points, paired interval; seats "
                       "from 1)", spread.with_columns(pl.col("best_seat") + 1, pl.col("worst_seat") + 1),
                       TableFormat(decimals={"spread": 1, "best": 1, "worst": 1})))
    if effects_of_runs.height:
        tables.append(("Rule effects: paired win-rate difference of the later run minus the earlier, per strategy "
                       "(percentage points)", effects_of_runs,
                       TableFormat(labels={"est": "difference (points)"}, rank=None)))  # ranked by size already

    facts.update(game=next(iter(runs.game_names)), scope=scope, effect=effect,
                 effects=effects if effects is not None and effects.height else effects_of_runs, spread=list(spread.iter_rows(named=True)) if spread.height else [],
                 threshold=SEAT_SPREAD_POINTS, seating=seating_words(runs.manifests),
                 field_strategies=field_strategies(runs.manifests, df.sort("run", "game", "seat")["strategy"].to_list()),
                 games_by_players={int(p): int(n) for p, n in df.group_by("players", maintain_order=True).agg(
                     pl.struct("run", "game").n_unique().alias("n")).iter_rows()})
    return Section("Verdict", "\n".join(lines), [], tables, summary=three_sentences(facts), data={"facts": facts})


#: headers of a win-rate table in percent (the verdict's and the strategy tables)
RATE_LABELS = {"est": "win rate %", "fair": "fair share %", "vp": "mean VP", "vp_low": "VP 95% low",
               "vp_high": "VP 95% high"}
