"""The three plain sentences on top of every balance report: what is balanced,
what is not, what to change.

They are written from the verdict's own numbers (:func:`meeplelab.analysis.verdict.verdict_section` fills a
``facts`` dict while it computes its flags), so every number in them is one of the verdict's, with
its 95% interval, and they say the field they hold among (the strategies played, games per player
count, seating). What counts:

- **balanced**: a player count whose seat spread (best minus worst seat) is at most
  :data:`meeplelab.analysis.seats.SEAT_SPREAD_POINTS`; no dominant strategy at a player count (the leader fails a
  head-to-head pair: the pair named is the one it loses, else the closest it does not resolve); no
  degenerate strategy; no game ended by a safety limit.
- **not balanced**: every verdict flag: a seat spread flagged, a dominant strategy, a degenerate
  strategy, safety-limit games, turn options barely used, event kinds that never happened; a seat
  spread past the threshold but not resolved is said as "not resolved".
- **what to change**: the first of dominant strategy, seat advantage (the largest flagged spread),
  degenerate strategy, safety-limit games, a barely used option, an unresolved spread (play more games);
  with nothing flagged: no change, and the largest gap left; the largest rule effect measured, when the
  report holds runs that differ only in rule numbers.
"""

from __future__ import annotations

import math

from .seats import SEAT_SPREAD_POINTS
from meeplelab.strategies.fields import strong_labels


def _iv(lo: float, hi: float, scale: float = 1.0) -> str:
    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return "[no interval: too few games]"
    return f"[{lo * scale:.1f}, {hi * scale:.1f}]"


def _num(x: float, scale: float = 1.0) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{x * scale:.1f}"


def _counts(ps) -> str:
    """``2, 3 and 4 players``."""
    ps = [str(p) for p in sorted(ps)]
    return (ps[0] if len(ps) == 1 else f"{', '.join(ps[:-1])} and {ps[-1]}") + " players"


def _and(items) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _codes(kinds) -> list[str]:
    """Event kinds as code spans (```abjure```): the page gives each the game's label, the code in its tooltip
    (:func:`meeplelab.analysis.pages.inline` with the page's :class:`meeplelab.analysis.labels.Labeller`), as it
    does a turn option's; the Markdown twin keeps the code."""
    return [f"`{k}`" for k in kinds]


def _join(items: list[str], word: str = "and") -> str:
    if len(items) < 2:
        return "".join(items)
    return f"{'; '.join(items[:-1])}; {word} {items[-1]}"


def field_phrase(facts: dict) -> str:
    """``coffee-engine, publisher, citer and curer (7,992 games at 4 players, ...; rotated seats)``; a strong field
    (:func:`meeplelab.strategies.fields.strong_labels`) as ``the strong field, tuned heuristic and ismcts (...)``."""
    s = list(facts.get("field_strategies") or [])
    strong = strong_labels(s)
    names = s[0] if len(s) == 1 else f"{', '.join(s[:-1])} and {s[-1]}"
    if strong:
        names = f"the strong field, {' and '.join(strong)}"
    games = facts.get("games_by_players") or {}
    if len(set(games.values())) == 1 and len(games) > 1:
        per = f"{next(iter(games.values())):,} games at each of {_counts(games)}"
    else:
        ps = sorted(games)
        per = (f"{_and(f'{games[p]:,}' for p in ps)} games at {_counts(ps)}" if len(ps) > 1
               else f"{games[ps[0]]:,} games at {ps[0]} players" if ps else "no games")
    scope = f"; {facts['scope']}" if facts.get("scope") else ""
    return f"{names} ({per}; {facts.get('seating', 'seating not recorded')}{scope})"


def _seat_text(r: dict) -> str:
    return (f"at {r['players']} players seat {r['best_seat'] + 1} wins {_num(r['best'])}% "
            f"{_iv(r['best_low'], r['best_high'])} and seat {r['worst_seat'] + 1} {_num(r['worst'])}% "
            f"{_iv(r['worst_low'], r['worst_high'])} (spread {_num(r['spread'])} points "
            f"{_iv(r['spread_low'], r['spread_high'])}, {r['games']:,} games)")


def _failed_pair(st: dict) -> dict | None:
    """The head-to-head pair that keeps the leader from dominating: one it loses, else the unresolved one
    with the lowest estimate."""
    if st["lost"]:
        return min(st["lost"], key=lambda r: r["est"])
    if st["open"]:
        return min(st["open"], key=lambda r: r["est"] if r["est"] == r["est"] else math.inf)
    return None


def _findings(facts: dict) -> dict:
    """The verdict's ``facts`` sorted into what the three sentences speak of: the flagged, fair and unresolved
    seat spreads, the player counts with and without a dominant strategy, the safety-limit hits, and the
    field phrase (``where``) and seat-spread threshold (``thr``, points)."""
    spread = facts.get("spread") or []
    strat = facts.get("strategies") or {}
    safety = facts.get("safety") or {}
    thr = facts.get("threshold", SEAT_SPREAD_POINTS)
    return {
        "where": field_phrase(facts), "strat": strat, "safety": safety, "thr": thr,
        "degenerate": facts.get("degenerate") or [], "rare": facts.get("rare") or [],
        "never": facts.get("never") or [],
        "fair_seats": [r for r in spread if not r["flagged"] and r["spread"] <= thr],
        "bad_seats": sorted((r for r in spread if r["flagged"]), key=lambda r: -r["spread"]),
        "open_seats": [r for r in spread if not r["flagged"] and r["spread"] > thr],
        "no_dom": {p: st for p, st in strat.items() if st["dominant"] is None and st["rates"].height > 1},
        "dom": {p: st for p, st in strat.items() if st["dominant"] is not None},
        "safe_hit": {p: v for p, v in safety.items() if v[0]},
    }


def _no_dominant_text(no_dom: dict, dom: dict) -> str | None:
    """``no strategy dominates at ... (at P players the leader ..., <the pair it fails>)``, told at the player
    count whose leader comes closest to dominating; None when no leader has a pair that fails it."""
    fails = [(p, st, _failed_pair(st)) for p, st in sorted(no_dom.items())]
    fails = [x for x in fails if x[2] is not None]
    if not fails:
        return None
    p, st, f = max(fails, key=lambda x: x[2]["est"] if x[2]["est"] == x[2]["est"] else -math.inf)
    pair = (f"loses to {f['column']} head to head by {_num(-f['est'], 100)} points {_iv(-f['high'], -f['low'], 100)}"
            if f in st["lost"] else
            f"does not beat {f['column']} head to head: {_num(f['est'], 100)} points {_iv(f['low'], f['high'], 100)}")
    every = len(no_dom) > 1 and not dom  # "any player count" only when no count has a dominant strategy
    return (f"no strategy dominates at {'any player count' if every else _counts(no_dom)} (at {p} "
            f"players the leader {st['top']['strategy']}, {_num(st['top']['est'], 100)}% "
            f"{_iv(st['top']['low'], st['top']['high'], 100)}, {pair})")


def _balanced_sentence(f: dict) -> str:
    """Sentence 1, what is balanced, from :func:`_findings`."""
    fair_seats, thr, strat, safety = f["fair_seats"], f["thr"], f["strat"], f["safety"]
    good = []
    if fair_seats:
        good.append(f"the seat order at {_counts(r['players'] for r in fair_seats)} (best minus worst seat "
                    + _and(f"{_num(r['spread'])} points {_iv(r['spread_low'], r['spread_high'])}"
                           for r in fair_seats) + f", within the {thr:.0f}-point threshold"
                    + (f" by point estimate; the intervals reach {_num(max(r['spread_high'] for r in fair_seats))} "
                       "points, so a larger spread is not excluded" if any(r["spread_high"] > thr for r in fair_seats)
                       else "") + ")")
    no_dom_text = _no_dominant_text(f["no_dom"], f["dom"])
    if no_dom_text:
        good.append(no_dom_text)
    if strat and not f["degenerate"]:
        p, r = min(((p, r) for p, st in strat.items() for r in st["rates"].iter_rows(named=True)),
                   key=lambda x: x[1]["est"] * x[0])
        good.append(f"no strategy is degenerate (lowest against its fair share: {r['strategy']} "
                    f"{_num(r['est'], 100)}% {_iv(r['low'], r['high'], 100)} at {p} players)")
    if safety and not f["safe_hit"]:
        n = sum(v[1] for v in safety.values())
        good.append(f"all {n:,} games ended by the rules' own end")
    return (f"Balanced among {f['where']}: {'; '.join(good)}." if good else
            f"Nothing measured here is shown balanced among {f['where']}.")


def _seat_and_strategy_findings(f: dict) -> list[str]:
    """The flagged seat spreads and dominant and degenerate strategies, one item per kind of finding with its
    player counts together."""
    bad = []
    by_seats: dict = {}
    for r in sorted(f["bad_seats"], key=lambda r: r["players"]):
        by_seats.setdefault((r["best_seat"], r["worst_seat"]), []).append(r)
    for (best, worst), rs in by_seats.items():
        if len(rs) == 1:
            bad.append(_seat_text(rs[0]))
        else:
            bad.append(f"at {_counts(r['players'] for r in rs)} seat {best + 1} wins most and seat {worst + 1} least "
                       "(spread " + _and(f"{_num(r['spread'])} points {_iv(r['spread_low'], r['spread_high'])}"
                                          for r in rs) + ")")
    by_dom: dict = {}
    for p, st in sorted(f["dom"].items()):
        by_dom.setdefault(st["dominant"], []).append((p, st))
    for name, items in by_dom.items():
        if len(items) == 1:
            p, st = items[0]
            c = st["closest"]
            bad.append(f"{name} dominates at {p} players ({_num(st['top']['est'], 100)}% "
                       f"{_iv(st['top']['low'], st['top']['high'], 100)}; it beats even the closest, {c['column']}, by "
                       f"{_num(c['est'], 100)} points {_iv(c['low'], c['high'], 100)} head to head)")
        else:
            bad.append(f"{name} dominates at {_counts(p for p, _ in items)} (win rate " + _and(
                f"{_num(st['top']['est'], 100)}% {_iv(st['top']['low'], st['top']['high'], 100)}" for _, st in items)
                + ")")
    by_deg: dict = {}
    for p, r, _ in sorted(f["degenerate"], key=lambda x: x[0]):
        by_deg.setdefault(r["strategy"], []).append((p, r))
    for name, items in by_deg.items():
        bad.append(f"{name} is degenerate at {_counts(p for p, _ in items)} (" + _and(
            f"{_num(r['est'], 100)}% {_iv(r['low'], r['high'], 100)}" for _, r in items) + ", under half the fair share)")
    return bad


def _game_findings(f: dict) -> list[str]:
    """Safety-limit games, barely taken turn options and event kinds that never happened, one item per kind."""
    bad = []
    if f["safe_hit"]:
        bad.append("games ended by a safety limit, not the rules, " + _and(
            f"at {p} players {_num(q, 100)}% {_iv(lo, hi, 100)} ({hit:,} of {n:,})"
            for p, (hit, n, q, lo, hi) in sorted(f["safe_hit"].items())))
    by_col: dict = {}
    for col, v, used, n, q, lo, hi in f["rare"]:
        by_col.setdefault(col, []).append(f"`{v}` {_num(q, 100)}% {_iv(lo, hi, 100)}")
    for col, items in by_col.items():
        bad.append(f"turn {col.replace('_', ' ')}{'s' if len(items) > 1 else ''} barely taken ({_and(items)} of "
                   "seat-games)")
    never = f["never"]
    if never:
        bad.append(f"event kind{'s' if len(never) > 1 else ''} {_and(_codes(never))} never happened")
    return bad


def _unbalanced_sentence(f: dict) -> str:
    """Sentence 2, what is not balanced, from :func:`_findings`: every flag, then the unresolved seat spreads."""
    thr = f["thr"]
    bad = _seat_and_strategy_findings(f) + _game_findings(f)
    unresolved = [f"the seat spread at {r['players']} players, {_num(r['spread'])} points "
                  f"{_iv(r['spread_low'], r['spread_high'])}, is past {thr:.0f} but not resolved"
                  for r in f["open_seats"]]
    if bad:
        return f"Not balanced: {'; '.join(bad + unresolved)}."
    if unresolved:
        return f"Nothing is flagged as unbalanced, but {'; '.join(unresolved)}."
    return (f"Nothing is flagged as unbalanced: no seat spread past {thr:.0f} points, no dominant or "
            "degenerate strategy, no safety-limit game, every turn option used.")


def _change_for_flags(f: dict, game: str) -> str | None:
    """The change sentence for the first flag of dominant strategy, seat advantage, degenerate strategy,
    safety-limit games; None when none of these is flagged. ``game`` is named in the balance command."""
    dom, bad_seats, degenerate, safe_hit, thr = f["dom"], f["bad_seats"], f["degenerate"], f["safe_hit"], f["thr"]
    if dom:
        p, st = max(dom.items(), key=lambda x: x[1]["top"]["est"] * x[0])
        third = (f"Change first what makes {st['dominant']} dominant at {p} players ({_num(st['top']['est'], 100)}% "
                 f"{_iv(st['top']['low'], st['top']['high'], 100)} against a fair share of {100.0 / p:.1f}%): lower "
                 "the payoff its plan relies on or raise the alternatives'")
        if bad_seats:
            r = bad_seats[0]
            third += (f"; then the turn-order advantage at {r['players']} players (spread {_num(r['spread'])} points "
                      f"{_iv(r['spread_low'], r['spread_high'])}; `meeplelab balance --target "
                      f"'seat-spread:{r['players']}<={thr:.0f}'` searches rule numbers for it)")
        return third + "; then play this field again."
    if bad_seats:
        r = bad_seats[0]
        return (f"Change first the turn-order advantage at {r['players']} players (spread {_num(r['spread'])} points "
                f"{_iv(r['spread_low'], r['spread_high'])}): compensate seat {r['worst_seat'] + 1} or take from "
                f"seat {r['best_seat'] + 1}; `meeplelab balance --game {game} --vary "
                f"PARAM=LOW..HIGH --target 'seat-spread:{r['players']}<={thr:.0f}'` searches rule numbers for it.")
    if degenerate:
        p, r, _ = degenerate[0]
        return (f"Change first what leaves {r['strategy']} behind at {p} players ({_num(r['est'], 100)}% "
                f"{_iv(r['low'], r['high'], 100)}): give its plan a payoff worth taking, or leave it out of the field.")
    if safe_hit:
        p, (_hit, _n, q, lo, hi) = max(safe_hit.items(), key=lambda x: x[1][2])
        return (f"Change first what keeps games from ending at {p} players ({_num(q, 100)}% {_iv(lo, hi, 100)} "
                "hit the safety limit): check the rule numbers of the end condition, or the plans that stall.")
    return None


def _change_otherwise(f: dict) -> str:
    """The change sentence when no strategy, seat or safety flag leads: a barely used option or event kind, an
    unresolved seat spread (play more games), else no change and the largest head-to-head gap left."""
    rare, never, open_seats, strat = f["rare"], f["never"], f["open_seats"], f["strat"]
    if rare or never:
        if rare:
            col, v, _used, _n, q, lo, hi = rare[0]
            what = f"the turn {col.replace('_', ' ')} `{v}` ({_num(q, 100)}% {_iv(lo, hi, 100)} of seat-games)"
        else:
            what = f"the event kind {_codes(never[:1])[0]}, which never happened"
        return f"Change first {what}: make it worth taking in this field, or drop it from the rules."
    if open_seats:
        r = open_seats[0]
        need = f" (about {r['games_needed']:,} games resolve a spread this size)" if r.get("games_needed") else ""
        return (f"No change is indicated yet: play more games to resolve the seat spread at {r['players']} players, "
                f"{_num(r['spread'])} points {_iv(r['spread_low'], r['spread_high'])}{need}.")
    gaps = [(p, st) for p, st in strat.items() if st["rates"].height > 1]
    gap = ""
    if gaps:
        p, st = max(gaps, key=lambda x: abs(x[1]["h2h"]["est"]) if x[1]["h2h"]["est"] == x[1]["h2h"]["est"] else 0)
        h = st["h2h"]
        gap = (f"; the largest gap left is {st['top']['strategy']} over {st['second']['strategy']} at {p} players, "
               f"{_num(h['est'], 100)} points {_iv(h['low'], h['high'], 100)} head to head")
    return (f"No rule change is indicated by these runs{gap}; check the field against stronger or re-tuned "
            "players before settling the rules.")


def _with_measured_effects(third: str, facts: dict) -> str:
    """``third`` with the largest measured effect (``facts["effect"]``, a control-arm comparison) and the rule
    change that moves a win rate most (``facts["effects"]``, a table) told before its full stop, when present."""
    ex = facts.get("effect")
    if ex:
        who = ("the focal player's" if ex["strategy"] == ex["arm"] or str(ex["arm"]).startswith(f"{ex['strategy']}")
               else f"{ex['strategy']}'s")
        third = (third[:-1] + f"; the largest effect measured: in arm {ex['arm']}, {who} win rate changes "
                 f"by {ex['est']:+.1f} points {_iv(ex['low'], ex['high'])} against the control {ex['control']}, paired "
                 f"over {ex['n']:,} games ({'resolved' if ex['resolved'] else 'not resolved'}).")
    eff = facts.get("effects")
    if eff is not None and eff.height:
        r = eff.row(0, named=True)
        third = (third[:-1] + f"; of the rule changes measured here, {r['change']} moves {r['strategy']}'s win rate "
                 f"most, by {r['est']:+.1f} points {_iv(r['low'], r['high'])}.")
    return third


def three_sentences(facts: dict) -> list[str]:
    """What is balanced, what is not, what to change: three sentences from the verdict's ``facts``
    (see the module doc; the keys are filled by :func:`meeplelab.analysis.verdict.verdict_section`).

    Returns:
        three strings, each ending with a full stop."""
    f = _findings(facts)
    third = _change_for_flags(f, facts.get("game", "GAME")) or _change_otherwise(f)
    return [_balanced_sentence(f), _unbalanced_sentence(f), _with_measured_effects(third, facts)]

__all__ = ["field_phrase", "three_sentences"]
