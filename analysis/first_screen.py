"""The first screen of a balance report: three short sentences, then one chart-first panel per question.

A designer reads it in a minute: the answer in three sentences of at most :data:`MAX_WORDS` words in all (no
intervals: those are in the tables and the verdict below), then a panel per question, each a chart and a one-line
reading in words, in the order of :data:`ORDER`: balance of strategies, seat advantage, mechanics by skill, what to
change first, and on an experiment's page its descriptive and causal readings reconciled (:data:`RECONCILED`, a
panel of sentences). Every section of the page can contribute a panel (the hook): append a :class:`Panel` to its
``Section.panels`` and the page shows it on the first screen, ordered by ``Panel.order``.

**Advice from what survives.** When the page holds the stronger-players study (section "Does it hold for stronger
players?", :mod:`meeplelab.analysis.stronger`), the sentences, the verdict's flags that make advice and the
"Change first" line are written only from what holds at that stronger rung: a seat order or a strategy's edge whose
re-check **holds**, and the strong rung's own figures (the strong mirror's seat spread per player count). A
conclusion that changes or reverses there is listed apart under "True only for these play styles" (naming the
scripted plans), as is every flag the study did not re-measure; the verdict's lines for them say "Scripted plans
only". Without the study, the sentences say they come from the scripted plans only and name ``meeplelab stronger``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from . import figures as F
from meeplelab.strategies.fields import strong_labels

from .labels import words
from .load import Runs, load_runs
from .page import Section
from .rungs import EVERY, rung, skill, unit
from .seats import (
    SEAT_SPREAD_POINTS,
    games_frame,
    seat_advantage,
    seat_source,
    seat_spread,
)

#: the three sentences hold at most this many words in all
MAX_WORDS = 60
#: where each question's panel stands on the first screen (a section's own panel picks its place among them)
ORDER = {"strategies": 10, "seats": 20, "mechanics": 30, "change": 40, "reconciled": 50}
#: the question of an experiment's panel of descriptive and causal readings reconciled (analysis/experiment.py)
RECONCILED = "Descriptive and causal, reconciled"
#: the heading of the conclusions that hold only among the scripted plans
APART = "True only for these play styles"


@dataclass
class Panel:
    """One question answered on the first screen: its heading, a one-line reading in words, its charts
    (``(file stem, Figure, caption)``; the caption is the image's alt text) and its place (:data:`ORDER`)."""

    question: str
    reading: str
    figures: list = field(default_factory=list)
    order: int = 50


def word_count(sentences) -> int:
    """Words of ``sentences`` (whitespace-separated; a code span counts as its words)."""
    return sum(len(str(s).split()) for s in sentences)


def _counts(ps) -> str:
    ps = [str(p) for p in sorted(ps)]
    return (ps[0] if len(ps) == 1 else f"{', '.join(ps[:-1])} and {ps[-1]}") + " players"


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


#: a parenthesis the sentences can do without (one naming a command, in a code span, stays)
_DROP = re.compile(r" \([^()`]*\)")


def _fit(sentences: list[str]) -> list[str]:
    """The sentences within :data:`MAX_WORDS` words: parentheses dropped, the longest sentence first, until they fit."""
    out = list(sentences)
    while word_count(out) > MAX_WORDS:
        k = max(range(len(out)), key=lambda i: len(out[i].split()) if _DROP.search(out[i]) else -1)
        if not _DROP.search(out[k]):
            break
        out[k] = _DROP.sub("", out[k], count=1)
    while word_count(out) > MAX_WORDS:  # then the last item of the longest list ("a; b; c.")
        k = max(range(len(out)), key=lambda i: len(out[i].split()) if "; " in out[i] else -1)
        if "; " not in out[k]:
            break
        out[k] = out[k].rsplit("; ", 1)[0] + "."
    return out


@dataclass
class State:
    """What the first screen is written from: the verdict's facts, the stronger study (or None) and, per
    conclusion, whether it survives at the strongest rung measured."""

    facts: dict
    strong: dict | None
    game: str
    seat_checks: dict = field(default_factory=dict)  # players -> check
    top: dict | None = None  # the top-strategy check

    @property
    def rung(self) -> str:
        return rung(self.strong) if self.strong else "scripted plans"

    def name(self, code: str) -> str:
        return words(self.game, code)

    @property
    def strong_field(self) -> bool:
        """True when the runs were played by the game's strong field (``--field strong``), not scripted plans."""
        return bool(strong_labels(list(self.facts.get("field_strategies") or [])))

    @property
    def played(self) -> str:
        """Who played the runs: ``the scripted plans`` or ``the strong field``."""
        return "the strong field" if self.strong_field else "the scripted plans"

    def seat_survives(self, p: int) -> bool:
        return self.strong is None or (p in self.seat_checks and self.seat_checks[p]["verdict"] == "holds")

    def strategy_survives(self, s: str) -> bool:
        return self.strong is None or (self.top is not None and self.top["strategy"] == s
                                       and self.top["verdict"] == "holds")

    mirror: object = None  # the strong mirrors' games frame (the study's mirror-Pp runs), None when absent
    ignored: list = field(default_factory=list)  # [(never|rarely, action)] the strong players skip (Mechanics by skill)

    def strong_seats(self) -> dict:
        """Per player count, the strong mirror's spread ``{est, low, high, best_seat, worst_seat, flagged}`` (seats
        from 1): from the mirror runs by the verdict's own test (:func:`meeplelab.analysis.seats.seat_spread`, Holm over
        the pairs of seats, past the threshold), else from the study's figures (interval clear of 0, past the
        threshold)."""
        thr = self.facts.get("threshold", SEAT_SPREAD_POINTS)
        if self.mirror is not None:
            sp = seat_spread(self.mirror, thr)
            return {int(r["players"]): {"est": r["spread"], "low": r["spread_low"], "high": r["spread_high"],
                                        "best_seat": r["best_seat"] + 1, "worst_seat": r["worst_seat"] + 1,
                                        "flagged": bool(r["flagged"])} for r in sp.iter_rows(named=True)}
        return {p: {**c["strong_spread"], "flagged": c["strong_spread"]["est"] > thr and c["strong_spread"]["low"] > 0}
                for p, c in self.seat_checks.items() if c.get("strong_spread")}


def state(facts: dict, strong: dict | None) -> State:
    """What the first screen is written from (:class:`State`): ``facts`` of the verdict, ``strong`` the judged
    stronger study (:func:`meeplelab.analysis.stronger.enrich`, with its ``folder``) or None."""
    st = State(facts, strong, str(facts.get("game") or ""))
    for c in (strong or {}).get("checks", []):
        if c.get("kind") == "seat spread":
            st.seat_checks[int(c["players"])] = c
        elif c.get("kind") == "top strategy":
            st.top = c
    mirrors = [Path(strong["folder"]) / f"mirror-{p}p" for p in sorted(st.seat_checks)] if strong else []
    mirrors = [m for m in mirrors if (m / "manifest.json").is_file()]
    if mirrors:
        st.mirror = games_frame(load_runs(mirrors))
    return st


def _seat_items(rows: list[tuple[int, int, float]]) -> list[str]:
    """``seat 2 wins most at 3 and 4 players (spread 24 and 27 points)`` from ``(players, best seat from 1,
    spread)``, one item per best seat."""
    by: dict = {}
    for p, b, sp in sorted(rows):
        by.setdefault(b, []).append((p, sp))
    return [f"seat {b} wins most at {_counts(p for p, _ in xs)} (spread {_and(f'{sp:.0f}' for _, sp in xs)} points)"
            for b, xs in by.items()]


def sentences(st: State) -> list[str]:
    """The three sentences (at most :data:`MAX_WORDS` words): balanced, not balanced, change first; from what
    holds at the strongest rung measured (module doc)."""
    return _fit(_strong_sentences(st) if st.strong else _scripted_sentences(st))


def _by_name(st: State, pairs, verb: str) -> list[str]:
    """``Writer dominates at 2, 3 and 4 players`` from ``[(strategy, players)]``, one item per strategy."""
    by: dict = {}
    for name, p in sorted(pairs, key=lambda x: x[1]):
        by.setdefault(name, []).append(p)
    return [f"{st.name(n)} {verb} at {_counts(ps)}" for n, ps in by.items()]


def _dominant(st: State) -> dict:
    return {p: s for p, s in (st.facts.get("strategies") or {}).items() if s["dominant"] is not None}


def _scripted_sentences(st: State) -> list[str]:
    f, thr = st.facts, st.facts.get("threshold", SEAT_SPREAD_POINTS)
    spread = f.get("spread") or []
    strat = f.get("strategies") or {}
    names = _and([st.name(s) for s in f.get("field_strategies") or []]) or "the strategies played"
    good = []
    fair = [r["players"] for r in spread if not r["flagged"] and r["spread"] <= thr]
    if fair:
        good.append(f"seat order at {_counts(fair)}")
    nodom = [p for p, s in strat.items() if s["dominant"] is None and s["rates"].height > 1]
    if nodom:
        good.append(f"no strategy dominates at {_counts(nodom)}")
    whose = ((f"Among the strong field ({names}; the scripted plans not checked)" if st.strong_field else
              f"Among scripted plans only ({names}; stronger players not checked: `meeplelab stronger`)"))
    first = f"{whose}, balanced: {'; '.join(good) if good else 'nothing shown'}."
    dom = _dominant(st)
    bad = _by_name(st, [(s["dominant"], p) for p, s in dom.items()], "dominates")
    flagged = [r for r in spread if r["flagged"]]
    bad += _seat_items([(r["players"], r["best_seat"] + 1, r["spread"]) for r in flagged])
    bad += _by_name(st, [(r["strategy"], p) for p, r, _ in f.get("degenerate") or []], "is degenerate")
    if any(v[0] for v in (f.get("safety") or {}).values()):
        bad.append("games hit the safety limit")
    rare = list(dict.fromkeys(v for _, v, *_ in f.get("rare") or []))
    if rare:
        bad.append(f"barely used: {_and(f'`{v}`' for v in rare[:3])}")
    second = f"Not balanced: {'; '.join(bad)}." if bad else "Nothing is flagged as unbalanced."
    return [first, second, _change_scripted(st, dom, flagged, rare)]


def _change_scripted(st: State, dom: dict, flagged: list, rare: list) -> str:
    steps = []
    if dom:
        p, s = max(dom.items(), key=lambda x: x[1]["top"]["est"] * x[0])
        steps.append(f"what makes {st.name(s['dominant'])} dominant at {p} players")
    if flagged:
        r = max(flagged, key=lambda r: r["spread"])
        steps.append(f"the turn-order advantage at {r['players']} players")
    if not steps and st.facts.get("degenerate"):
        p, r, _ = st.facts["degenerate"][0]
        steps.append(f"what leaves {st.name(r['strategy'])} behind at {p} players")
    if not steps and rare:
        steps.append(f"`{rare[0]}`, barely used")
    if not steps:
        return "No rule change is indicated; check the field against stronger players before settling the rules."
    return f"Change first {', then '.join(steps)}."


def _strong_sentences(st: State) -> list[str]:
    checks = st.strong.get("checks", [])
    held = sum(c["verdict"] == "holds" for c in checks)
    thr = st.facts.get("threshold", SEAT_SPREAD_POINTS)
    seats = st.strong_seats()
    calm = [p for p, r in seats.items() if r["est"] <= thr]
    lower = [r["label"] for r in (st.strong.get("rungs") or [])[:-1]]
    every = sum(skill(c)[0] == EVERY for c in checks)
    first = (f"Re-checked with the {st.rung}: {held} of {len(checks)} headline conclusions hold"
             + (f", {every} also for the {_and(lower)}" if lower else "")
             + (f"; balanced for it too: seat order at {_counts(calm)}" if calm else "") + ".")
    bad, steps = [], []
    dom = {p: s for p, s in _dominant(st).items() if st.strategy_survives(s["dominant"])}
    bad += _by_name(st, [(s["dominant"], p) for p, s in dom.items()], "dominates")
    if dom:
        p, s = max(dom.items(), key=lambda x: x[1]["top"]["est"] * x[0])
        steps.append(f"what makes {st.name(s['dominant'])} dominant at {p} players")
    lead = {p: r for p, r in seats.items() if r["flagged"]}
    bad += _seat_items([(p, r["best_seat"], r["est"]) for p, r in lead.items()])
    if lead:
        p, r = max(lead.items(), key=lambda x: x[1]["est"])
        steps.append(f"the turn-order advantage at {p} players (seat {r['best_seat']} over seat {r['worst_seat']})")
    bad += [f"it {how} takes {what}" for how, what in st.ignored]
    second = (f"Not balanced for the {st.rung}: {'; '.join(bad)}." if bad else
              f"Nothing re-measured is unbalanced for the {st.rung}.")
    apart = len(checks) - held
    tail = f"; {apart} conclusions hold only for the scripted plans (listed below)" if apart else ""
    third = (f"Change first {', then '.join(steps)}{tail}." if steps else
             f"No change is indicated by what holds for the {st.rung}{tail}.")
    return [first, second, third]


def _words_of(st: State, c: dict) -> str:
    """A re-check in words for the list "True only for these play styles"."""
    s, t, v = c["scripted"], c["strong"], c["verdict"]
    word, detail = skill(c) if c.get("ladder") else ("", "")
    v += f"; {word}: {detail}" if detail else f"; {word}" if word else ""
    among = f"among the scripted plans, {{}} among the {st.rung} ({v})"
    if c.get("kind") == "seat spread":
        m = re.match(r"seat (\d+) minus seat (\d+)", c["conclusion"])
        b, w = m.groups() if m else ("best", "worst")
        return (f"Seat {b} over seat {w} at {c['players']} players: {s['est']:+.1f} points "
                + among.format(f"{t['est']:+.1f}") + ".")
    if c.get("kind") == "top strategy":
        return (f"{st.name(c['strategy'])}'s edge over the fair share at {c['players']} players: {s['est']:+.1f} "
                "points " + among.format(f"{t['est']:+.1f}") + ".")
    m = re.match(r"(\S+): (\S+) against (\S+), (.*)", c["conclusion"])
    head = (f"{m.group(1)}: {st.name(m.group(2))} against {st.name(m.group(3))}, {m.group(4)}" if m
            else c["conclusion"])
    if c.get("floor"):
        vp = c["vp"]
        return (f"{head.split(', focal')[0]}, VP effect (the win rate sits on the floor among the {st.rung}): "
                f"{vp['scripted']['est']:+.2f} VP " + among.format(f"{vp['strong']['est']:+.2f}") + ".")
    n = 2 if unit(c) == "VP" else 1
    return f"{head}: {s['est']:+.{n}f} " + among.format(f"{t['est']:+.{n}f}") + "."


def _unmeasured(st: State) -> list[str]:
    """The verdict's flags the stronger study did not re-measure (true among the scripted plans)."""
    f, out = st.facts, []
    for p, s in sorted(_dominant(st).items()):
        if st.top is None or st.top["strategy"] != s["dominant"]:
            out.append(f"{st.name(s['dominant'])} dominates at {p} players")
    out += [f"seat {r['best_seat'] + 1} wins most at {r['players']} players (spread {r['spread']:.0f} points)"
            for r in f.get("spread") or [] if r["flagged"] and r["players"] not in st.seat_checks]
    out += [f"{st.name(r['strategy'])} is degenerate at {p} players" for p, r, _ in f.get("degenerate") or []]
    if any(v[0] for v in (f.get("safety") or {}).values()):
        out.append("games hit the safety limit")
    out += [f"turn {col.replace('_', ' ')} `{v}` is barely used ({q * 100:.1f}% of seat-games)"
            for col, v, _, _, q, *_ in f.get("rare") or []]
    if f.get("never"):
        out.append(f"event kinds that never happened: {', '.join(f'`{k}`' for k in f['never'])}")
    return out


def apart_section(st: State):
    """The section "True only for these play styles" (None without a stronger study or when everything holds)."""
    if not st.strong:
        return None
    gone = [c for c in st.strong.get("checks", []) if c["verdict"] != "holds"]
    other = _unmeasured(st)
    if not gone and not other:
        return None
    names = _and([st.name(s) for s in st.facts.get("field_strategies") or []])
    text = [(f"These hold among the scripted plans played ({names}) but not among the {st.rung}: they describe those "
            "play styles, not the rules, and no change is advised from them (figures and intervals: \"Does it hold "
            "for stronger players?\" below).")] + [f"- {_words_of(st, c)}" for c in gone]
    if other:
        text += ["", "Not re-measured with stronger players (the scripted plans only, so not advice either):"]
        text += [f"- {x[0].upper()}{x[1:]}." for x in other]
    return Section(APART, "\n".join(text))


def relabel(text: str, st: State) -> str:
    """The verdict's lines with every flag that does not hold at the strongest rung marked "Scripted plans only"
    (unchanged without a stronger study)."""
    if not st.strong:
        return text
    out = []
    for ln in text.split("\n"):
        m = re.match(r"FLAG (dominant strategy|seat advantage) \((\d+) players", ln)
        if m:
            p = int(m.group(2))
            if m.group(1) == "seat advantage":
                keep, why = st.seat_survives(p), f"it changes among the {st.rung}"
                if p not in st.seat_checks:
                    why = "not re-measured with stronger players"
            else:
                s = re.match(r"FLAG dominant strategy \(\d+ players, .*?\): (\S+) wins", ln)
                keep = bool(s) and st.strategy_survives(s.group(1))
                same = st.top is not None and s and st.top["strategy"] == s.group(1)
                why = ("not re-measured with stronger players" if not same else f"it changes among the {st.rung}"
                       if st.top["players"] == p else
                       f"not re-measured at {p} players; its edge at {st.top['players']} changes among the {st.rung}")
            if not keep:
                ln = f"Scripted plans only ({why}; not advice): {ln[5:]}"
        elif ln.startswith("FLAG "):
            ln = f"Scripted plans only (not re-measured with stronger players): {ln[5:]}"
        out.append(ln)
    return "\n".join(out)


def strategies_panel(st: State) -> Panel | None:
    """Balance of strategies: each strategy's win rate per player count against the fair share."""
    strat = st.facts.get("strategies") or {}
    if not strat:
        return None
    df = pl.concat([s["rates"].select("players", "strategy", *(pl.col(c) * 100 for c in ("est", "low", "high")))
                    for _, s in sorted(strat.items())])
    lead = []
    for p, s in sorted(strat.items()):
        if s["rates"].height > 1:
            lead.append(f"{st.name(s['top']['strategy'])} at {p} players ({s['top']['est'] * 100:.0f}%, fair "
                        f"{100 / p:.0f}%)")
    reading = f"Highest win rate: {'; '.join(lead)}." if lead else "One strategy per player count: no ranking."
    if st.top is not None:
        fair = 100.0 / st.top["players"]
        reading += (f" Against {st.top['players'] - 1} {st.rung} players, {st.name(st.top['strategy'])} wins "
                    f"{st.top['strong']['est'] + fair:.0f}% at {st.top['players']} players (its edge "
                    f"{'holds' if st.top['verdict'] == 'holds' else 'does not hold'}).")
    elif st.strong is None:
        reading += f" Among {st.played} only."
    fig = F.rates_by_count_chart(df, "strategy", title="Win rate by strategy, per player count (95% Wilson interval)")
    return Panel("Balance of strategies", reading, [("glance_strategies", fig, ("Win rate of each strategy at each "
                                                     "player count against its fair share (dashed)"))],
                 ORDER["strategies"])


def _seat_frame(runs: Runs) -> pl.DataFrame:
    names, _ = seat_source(runs)
    return seat_advantage(games_frame(runs).filter(pl.col("run").is_in(names)))


def seats_panel(st: State, runs: Runs) -> Panel | None:
    """Seat advantage: each seat's win rate per player count against the fair share, beside the strong mirror's
    (the stronger study's ``mirror-Pp`` runs) when measured."""
    scripted = _seat_frame(runs)
    if not scripted.height:
        return None
    frames = [scripted.select("players", (pl.col("seat") + 1).cast(pl.String).alias("seat"),
                              *(pl.col(c) * 100 for c in ("est", "low", "high")),
                              pl.lit(st.played.removeprefix("the ")).alias("rung"))]
    mirrors = st.mirror is not None
    if mirrors:
        strong = seat_advantage(st.mirror)
        frames.append(strong.select("players", (pl.col("seat") + 1).cast(pl.String).alias("seat"),
                                    *(pl.col(c) * 100 for c in ("est", "low", "high")), pl.lit(st.rung).alias("rung")))
    df = pl.concat(frames)

    def best(frame: pl.DataFrame) -> str:
        tops = frame.sort("est", descending=True).group_by("players", maintain_order=True).first().sort("players")
        by: dict = {}
        for r in tops.iter_rows(named=True):
            by.setdefault(r["seat"], []).append(r["players"])
        return "; ".join(f"seat {k} at {_counts(ps)}" for k, ps in by.items())

    reading = f"Most wins among {st.played}: {best(frames[0])}"
    reading += f"; among the {st.rung}: {best(frames[1])}." if mirrors else "."
    fig = F.rates_by_count_chart(df, "seat", title="Win rate by seat, per player count (95% Wilson interval)",
                                 series="rung")
    fig.axes[0].set_ylabel("seat (1 = first player)")
    return Panel("Seat advantage", reading, [("glance_seats", fig, "Win rate of each seat at each player count "
                                              + ("for the scripted plans and " + st.rung if mirrors else "")
                                              + " against the fair share (dashed)")], ORDER["seats"])


def change_panel(st: State, third: str) -> Panel:
    """What to change first: the "Change first" sentence, and each seat and strategy conclusion's figure at every
    rung measured (a reversal: dots on opposite sides of 0)."""
    rows = []
    if st.strong:
        for c in list(st.seat_checks.values()) + ([st.top] if st.top else []):
            m = re.match(r"seat (\d+) minus seat (\d+)", c["conclusion"])
            lab = (f"seat {m.group(1)} minus seat {m.group(2)}, {c['players']} players" if m else
                   f"{st.name(c['strategy'])} minus fair share, {c['players']} players")
            rows.append({"label": lab, **{f"a_{k}": c["scripted"][k] for k in ("est", "low", "high")},
                         **{f"b_{k}": c["strong"][k] for k in ("est", "low", "high")}})
        kept = sum(1 for c in list(st.seat_checks.values()) + ([st.top] if st.top else []) if c["verdict"] == "holds")
        reading = (f"{kept} of {len(rows)} seat and strategy conclusions hold with the {st.rung}; the others "
                   f"are listed under \"{APART}\".")
        rungs = [("a", "scripted plans"), ("b", st.rung)]
    else:
        for r in st.facts.get("spread") or []:
            rows.append({"label": f"seat {r['best_seat'] + 1} minus seat {r['worst_seat'] + 1}, {r['players']} players",
                         "a_est": r["spread"], "a_low": r["spread_low"], "a_high": r["spread_high"]})
        for p, s in sorted((st.facts.get("strategies") or {}).items()):
            if s["rates"].height > 1:
                t = s["top"]
                rows.append({"label": f"{st.name(t['strategy'])} minus fair share, {p} players",
                             **{f"a_{k}": t[k] * 100 - 100 / p for k in ("est", "low", "high")}})
        reading = "Scripted plans only: run `meeplelab stronger` to see which of these hold for stronger players."
        rungs = [("a", "scripted plans")]
    figs = []
    if rows:
        fig = F.rungs_chart(pl.DataFrame(rows), "label", rungs, title="Seat and strategy edges by skill (95% interval)",
                            xlabel="win-rate points")
        figs.append(("glance_change", fig, ("Each seat and strategy edge at every skill rung measured (points; dashed: "
                                           "no edge)")))
    return Panel("What to change first", f"{third} {reading}", figs, ORDER["change"])


#: a flag of the section "Mechanics by skill" (:mod:`meeplelab.analysis.mechanics`): an action strong players skip
_IGNORED = re.compile(r"FLAG strong players (never|rarely) take (.+?): ")


def mechanics_panel(secs: list, st: State) -> Panel | None:
    """Mechanics by skill on the first screen: the chart of the section "Mechanics by skill" moved up (its tables
    and lines stay in the section), read from its flags; None when the page has no such section or the section
    contributes its own panel. Fills ``st.ignored`` from the flags."""
    sec = next((s for s in secs if s.title == "Mechanics by skill"), None)
    if sec is None:
        return None
    st.ignored = [(m.group(1), m.group(2)) for m in _IGNORED.finditer(sec.text)]
    if sec.panels or not sec.figures:
        return None
    fig = sec.figures.pop(0)
    if st.ignored:
        reading = "Strong players " + _and([f"{h} take {w}" for h, w in st.ignored]) + " (flags and counts below)."
    elif st.strong:
        reading = f"No action's use falls toward zero from the scripted plans to the {st.rung}."
    else:
        reading = "Scripted plans only: `meeplelab stronger` adds the stronger players' rung."
    return Panel("Mechanics by skill", reading, [fig], ORDER["mechanics"])


def compose(secs: list, runs: Runs) -> list:
    """The page's sections with its first screen written: the balance verdict's (``data["facts"]``, no scope) three
    sentences replaced by the short ones (:func:`sentences`), its own long ones, with intervals, kept in
    ``data["detail"]`` (folded under the sentences; the "Change first" one only without a stronger study), its flags
    relabelled (:func:`relabel`), its panels added, and the
    section "True only for these play styles" first. An experiment's page is written so when it carries a stronger
    study's check (its control arm's verdict); other pages (a sweep's, an experiment's without one) are unchanged."""
    check = next((s for s in secs if "stronger" in s.data), None)
    verdict = next((s for s in secs if s.data.get("facts") is not None
                    and (not s.data["facts"].get("scope") or (check is not None and check.data["stronger"]))), None)
    if verdict is None:
        return secs
    st = state(verdict.data["facts"], check.data["stronger"] if check is not None else None)
    mech = mechanics_panel(secs, st)
    long = list(verdict.summary)
    short = sentences(st)
    verdict.summary = short
    verdict.data["detail"] = long if st.strong is None else long[:2]  # shown folded under the sentences
    verdict.text = relabel(verdict.text, st)
    verdict.panels += [p for p in (strategies_panel(st), seats_panel(st, runs), mech, change_panel(st, short[2]))
                       if p is not None]
    apart = apart_section(st)
    return ([apart] if apart is not None else []) + secs


__all__ = ["APART", "MAX_WORDS", "ORDER", "Panel", "RECONCILED", "compose", "mechanics_panel", "relabel", "sentences", "state",
           "word_count"]
