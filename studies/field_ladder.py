"""``--field ladder``: a study's headline answers at every rung of the skill ladder, side by side, with a word each.

A command given ``--field ladder`` runs once per rung (:data:`meeplelab.strategies.fields.RUNGS`: scripted,
heuristic, tuned, strong; weakest first) into ``OUT/rung-<rung>/``
(:func:`meeplelab.analysis.rungs.rung_folder`), each an ordinary run of the command on the same seeds (so
``--resume`` and ``--overwrite`` act on every rung's folder). Then :func:`write_ladder` reads each rung's folder
through the command's *headline answers* function (:data:`HEADLINES`) and writes::

    OUT/ladder.md    one row per headline answer: its figure at every rung and its reading across the ladder
    OUT/ladder.csv   the same rows (answer, one column per rung, word, detail)
    OUT/config.toml  the settings of the scripted rung's run with ``field = "ladder"`` (what was run)

The reading is a word of :mod:`meeplelab.analysis.rungs` (:func:`meeplelab.analysis.rungs.skill`): *holds at
every rung*, *depends on skill* (with the rung it changes from) or *only among scripted plans*, each rung judged
against the scripted rung: a figure with an interval by :func:`meeplelab.analysis.rungs.compare` (holds,
changes, reverses; a difference under the metric's resolution is never a change,
:func:`meeplelab.analysis.rungs.resolution_of`), a proposal by the seats it compensates; a win rate shows its
player's base rate, and at a rung where it is under :data:`meeplelab.analysis.rungs.FLOOR` (on the floor) its
verdict is the same answer's final VP, and the reading says so. A row the scripted rung does not measure (a strategy only the
stronger rungs seat) is judged against the first rung that measures it, and says so; a row measured at one rung
only has no reading (``-``).

Headline answers (an answer is ``{"key", "text"}`` and either ``"est", "low", "high"`` or ``"value"``):

- ``compensate``: per seat count the proposal (which seat gets how many of the resource) and the seat spread
  without compensation and with the proposal on fresh seeds (points, 95% interval).
- ``compare``: per version and seat count each strategy's paired change of win rate (points) and final VP (VP),
  and the change of the seat spread and of the game length (the rows every rung measures).
- ``experiment``: each arm's paired effect against the control, win rate (points) and final VP (VP), on the
  focal player (``--control``/``--treat``: the same plan at every rung, the other seats the rung's players) or, for
  a rule-parameter experiment, on every strategy.
- ``content-value``: each item's paired effect of its removal (or denial) against the control, win rate (points)
  and final VP (VP), for the seats that took it in the control, all seats and the denied seat.
- ``robustness``: per conclusion (its title without the rung's words) the claim at the defaults, the share of
  design points where it holds (percent, Wilson interval) and its verdict's kind (robust, depends on ...). A claim
  not established at a rung's defaults (its interval crosses zero) and a verdict ``not resolved`` are *unresolved*
  there: the row reads ``unresolved at RUNG`` (the other rungs' reading in its detail), never a change of claim.
- ``balance``: the proposal's value of each varied parameter (judged by equality), the targets it meets on fresh
  seeds and each target's figure under it.

A command without a headline function refuses ``--field ladder`` in one line (:func:`ladder_refusal`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path
from typing import Callable, Sequence

import polars as pl

from meeplelab.analysis.content import removal_effects
from meeplelab.analysis.experiment import effects
from meeplelab.analysis.rungs import DEPENDS, EVERY, FLOOR, SCRIPTED_ONLY, compare, resolution_of, rung_folder, skill
from meeplelab.play import runfolder as rf
from meeplelab.play.experiment import read_experiment
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.strategies.fields import RUNGS, SCRIPTED, TUNED, members, parse_rungs
from meeplelab.strategies.registry import make_strategy

#: each rung in the words of a reading (``changes from the tuned heuristic``)
RUNG_WORDS = {"scripted": "scripted plans", "heuristic": "heuristic", "tuned": "tuned heuristic",
              "strong": "strong field"}
#: the units of a compensation's resource (``--resource``) as a proposal says them
RESOURCE_UNITS = {"vp": "VP", "coins": "coins", "research": "research", "coffee": "coffee"}


def ladder_refusal(command: str) -> str:
    """The one line refusing ``--field ladder`` on ``command``, a command without headline answers."""
    return (f"--field ladder on {command}: it has no headline answers to put side by side across the rungs; allowed "
            f"--field ladder on {', '.join(sorted(HEADLINES))}, or one rung on {command}: scripted, heuristic, tuned, "
            "strong")


def check_command(command: str, out, options: dict | None = None) -> tuple[str, ...]:
    """Refuse ``--field ladder`` before anything runs and return the rungs it plays (``--rungs``,
    :func:`meeplelab.strategies.fields.parse_rungs`; weakest first): ``command`` without a headline function, no
    ``out``, an unknown rung in ``rungs``, or ``--retune`` (``options``: the command's options). A re-tuning cannot
    run on every rung: the heuristic and tuned rungs are one player at every seat (nothing to tune against), and
    the tuned and strong rungs' heuristic is a tuned preset already.

    Raises:
        ConfigError: any, in one line naming what is allowed.
    """
    if command not in HEADLINES:
        raise ConfigError(ladder_refusal(command))
    options = options or {}
    rungs = parse_rungs(options.get("rungs"))
    if out is None:
        raise ConfigError(f"--field ladder on {command} needs --out: the folder of the rungs' runs and ladder.md")
    retune = options.get("retune")
    if command == "balance" and retune:
        raise ConfigError(f"--field ladder and --retune {retune} on balance: the tuned and strong rungs are tuned "
                          "already (their heuristic is a preset); allowed: --field ladder without --retune, or "
                          "--retune with --field scripted or heuristic")
    if retune:
        raise ConfigError(f"--field ladder and --retune {retune} on {command}: the heuristic and tuned rungs are one "
                          "player at every seat (nothing to tune against) and the tuned and strong rungs are tuned "
                          "already (their heuristic is a preset); allowed: --field ladder without --retune, or "
                          "--retune with --field scripted")
    return rungs


# ------------------------------------------------------------------------------------ headline answers
def _interval(est: float, low: float, high: float, unit: str) -> str:
    digits = 2 if unit == "VP" else 1
    if not all(x is not None and math.isfinite(x) for x in (low, high)):
        return f"{est:+.{digits}f} [no interval]"
    return f"{est:+.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]"


def _figure(key: str, r: dict, unit: str, players: int | None = None, base: float | None = None) -> dict:
    """An answer with an interval: ``key``, ``r``'s ``est``/``low``/``high`` and ``n`` (games or seat-results, when
    it has one), its ``unit`` and the seats of its games (:func:`meeplelab.analysis.rungs.resolution_of`), and for a
    win rate the player's own rate in the control or reference (``base``, percent; shown in the text, and under
    :data:`FLOOR` the rung's win-rate change is read by the VP row, :func:`reading`)."""
    a = {"key": key, "est": r["est"], "low": r["low"], "high": r["high"], "unit": unit,
         "text": _interval(r["est"], r["low"], r["high"], unit)}
    if r.get("n") is not None:
        a["n"] = int(r["n"])
    if players:
        a["players"] = int(players)
    if base is not None and math.isfinite(base):
        a["base"] = float(base)
        a["text"] += f"; base {base:.1f}%" + (", on the floor" if base < FLOOR else "")
    return a


def _bonus_text(bonus: Sequence[int], unit: str) -> str:
    """``Seat 1 +6 VP`` (every seat with a bonus), ``no bonus`` when none has one."""
    got = [f"Seat {k + 1} +{int(b)} {unit}" for k, b in enumerate(bonus) if b]
    return ", ".join(got) or "no bonus"


def compensate_answers(out: Path) -> list[dict]:
    """A ``compensate`` folder's headline answers (``compensate.json``): per seat count ``P`` the proposal
    (``text``: the bonus per seat; ``value``: which seats get one, what the reading compares, since the amounts
    move with the search's noise) and the seat spread (points) without compensation and with the proposal on fresh
    seeds (``est``/``low``/``high``).

    Raises:
        ConfigError: no finished compensation in ``out``.
    """
    st = _json(out / "compensate.json", "compensate")
    unit = RESOURCE_UNITS.get(st["request"]["resource"], st["request"]["resource"])
    rows = []
    for p, v in st.get("verified", {}).items():
        bonus = v["proposal"]["bonus"]
        rows.append({"key": f"proposal, {p} seats", "text": _bonus_text(bonus, unit),
                     "value": tuple(b > 0 for b in bonus)})  # judged by the seats it compensates, not the amounts
        for which, words in (("none", "without compensation"), ("proposal", "with the proposal")):
            m = v[which]
            rows.append({"key": f"seat spread {words}, {p} seats (points)", "est": m["spread"], "unit": "points",
                         "low": m["spread_low"], "high": m["spread_high"],
                         "text": f"{m['spread']:.1f} [{m['spread_low']:.1f}, {m['spread_high']:.1f}]"})
    return rows


def compare_answers(out: Path) -> list[dict]:
    """A ``compare`` folder's headline answers (``deltas.parquet``): per version and seat count each strategy's
    paired change of win rate (points) and of final VP (VP), the seat spread's and the game length's change.

    Raises:
        ConfigError: no delta table in ``out``.
    """
    path = out / "deltas.parquet"
    if not path.is_file():
        raise ConfigError(f"--field ladder: {path} does not exist (the compare run of this rung did not finish); run "
                          "the command again with --resume")
    t = pl.read_parquet(path)
    game = _game(out)
    rows = []
    quantities = {"win rate (points)": ("win rate", "points"), "final VP": ("final VP", "VP"),
                  "seat spread (points)": ("seat spread", "points"), "game length (rounds)": ("game length", "rounds")}
    for r in t.filter(pl.col("metric").is_in(list(quantities))).iter_rows(named=True):
        what, unit = quantities[r["metric"]]
        who = _strategy_label(game, str(r["strategy"] or "")) if r["metric"] in ("win rate (points)", "final VP") else ""
        key = f"{r['version']} minus {r['reference']}, {r['players']} seats: " + (f"{who}'s " if who else "") + \
            f"{what} ({unit})"
        base = r.get("ref") if r["metric"] == "win rate (points)" else None  # its win rate in the reference (%)
        rows.append(_figure(key, r, unit, r["players"], base))
    return rows


def experiment_answers(out: Path) -> list[dict]:
    """An ``experiment`` folder's headline answers (:func:`meeplelab.analysis.experiment.effects`): each arm's
    paired effect against the control on the focal player (a rule-parameter experiment: on every strategy), win
    rate (points) and final VP (VP).

    Raises:
        ConfigError: no finished experiment in ``out``.
    """
    try:
        t = effects(out)
        meta = read_experiment(out)
        control = meta["control"]
    except (OSError, KeyError, ValueError, RunFolderError):
        raise ConfigError(f"--field ladder: {out} holds no finished experiment (the experiment run of this rung did "
                          "not finish); run the command again with --resume") from None
    game = _game(out)
    words = {"win": ("win rate", "points"), "vp": ("final VP", "VP")}
    rows = []
    for r in t.iter_rows(named=True):
        what, unit = words[r["metric"]]
        key = f"{r['arm']} minus {control}: {_strategy_label(game, str(r['strategy']))}'s {what} ({unit})"
        base = r["mean_control"] if r["metric"] == "win" else None  # its win rate in the control arm (%)
        rows.append(_figure(key, r, unit, meta.get("players"), base))
    return rows


def content_value_answers(out: Path) -> list[dict]:
    """A ``content-value`` folder's headline answers (:func:`meeplelab.analysis.content.removal_effects`): each item's
    paired effect of its removal or denial against the control, win rate (points) and final VP (VP), for the groups
    the command prints (:data:`CONTENT_GROUPS`: the seats that took it in the control, all seats, the denied seat).

    Raises:
        ConfigError: no finished content-value experiment in ``out``.
    """
    try:
        t = removal_effects(out)
        players = read_experiment(out).get("players")
    except (OSError, KeyError, ValueError, RunFolderError):
        raise ConfigError(f"--field ladder: {out} holds no finished content-value experiment (the content-value run "
                          "of this rung did not finish); run the command again with --resume") from None
    words = {"win": ("win rate", "points"), "vp": ("final VP", "VP")}
    rows = []
    for r in t.filter(pl.col("group").is_in(CONTENT_GROUPS)).iter_rows(named=True):
        what, unit = words[r["metric"]]
        verb = "denying" if r["mode"] == "deny" else "removing"
        base = r["mean_control"] if r["metric"] == "win" else None  # the group's win rate in the control (%)
        rows.append(_figure(f"{verb} {r['item']}, {r['group']}: {what} ({unit})", r, unit, players, base))
    return rows


def robustness_answers(out: Path) -> list[dict]:
    """A ``robustness`` folder's headline answers (``results.json``), per conclusion (its title without the rung's
    words, ``Seat advantage (2 seats)``): what it claims at the defaults (a directional conclusion's statement
    without its figure: ``seat 1 is favoured at 2 seats``), the share of design points where it holds (percent,
    Wilson 95% interval) and its verdict's kind (robust, depends on ASSUMPTIONS, not resolved with this budget...).

    Raises:
        ConfigError: no finished robustness run in ``out``.
    """
    res = _json(out / "results.json", "robustness")
    game = _game(out)
    rows = []
    for c in res["conclusions"]:
        title = _RUNG_WORDS_IN_TITLE.sub(")", c["title"])
        if c.get("test") != "within":  # a length's statement names the defaults' figure, which moves with the players
            claim = _CLAIM_FIGURE.sub("", re.sub(r" \([^()]*\)$", "", c["statement"]))
            claim = " ".join(_strategy_label(game, w) for w in claim.split(" "))
            loose = _NOT_ESTABLISHED in c["verdict"]  # its interval at the defaults crosses zero (after Holm)
            rows.append({"key": f"{title}: claim at the defaults", "text": claim + (" (not established)" if loose
                                                                                    else ""),
                         "value": claim, "unresolved": loose})
        share = [100 * c[k] for k in ("share", "share_low", "share_high")]
        rows.append({"key": f"{title}: design points where it holds (%)", "est": share[0], "low": share[1],
                     "high": share[2], "text": f"{share[0]:.0f}% [{share[1]:.0f}%, {share[2]:.0f}%]"})
        kind = re.split(r" \(|:|;", c["verdict"], maxsplit=1)[0]
        rows.append({"key": f"{title}: verdict", "text": kind, "value": kind,
                     "unresolved": kind.startswith(_NOT_RESOLVED)})
    return rows


def balance_answers(out: Path) -> list[dict]:
    """A ``balance`` folder's headline answers (``balance.json``): the proposal's value of every varied parameter
    (``(the default)`` when the closest candidate is the default rules), how many targets it meets on fresh seeds,
    and each target's figure under it (95% interval).

    Raises:
        ConfigError: no finished balance search in ``out``.
    """
    st = _json(out / "balance.json", "balance")
    p = st["proposal"]
    same = " (the default)" if st.get("proposal_is_defaults") else ""
    rows = [{"key": f"proposal: {name}", "text": f"{p[name]}{same}", "value": str(p[name])} for name in st["vary"]]
    rows.append({"key": "targets the proposal meets on fresh seeds", "text": f"{p['met']} of {len(st['targets'])}",
                 "value": p["met"]})
    for t in st["targets"]:
        est, low, high = p[t], p[f"{t} low"], p[f"{t} high"]
        rows.append({"key": f"{t} under the proposal", "est": est, "low": low, "high": high,
                     "text": f"{est:.2f} [{low:.2f}, {high:.2f}]"})
    return rows


#: a robustness verdict's words for a claim not established at the defaults, and for no verdict at all
#: (:func:`meeplelab.analysis.robustness._verdict`)
_NOT_ESTABLISHED, _NOT_RESOLVED = "not established at the defaults", "not resolved"
#: the removal and deny groups of a content-value folder whose effects are its headline answers (the ones it prints)
CONTENT_GROUPS = ("took it in control", "all seats", "denied seat", "denied seat, took it in control")
#: a played rung's words in a robustness conclusion's title (``Seat advantage (2 seats, heuristic mirror)``)
_RUNG_WORDS_IN_TITLE = re.compile(r", (strong field|\w+ mirror)\)")
#: the figure ending a claim (``Abjuring in Cycle 2 instead of never costs 1.00 VP``): the claim is its direction
_CLAIM_FIGURE = re.compile(r" [+-]?\d[\d.,]*( VP| points| turns)?$")

#: per command, its headline answers function (a rung's output folder -> answers)
HEADLINES: dict[str, Callable[[Path], list[dict]]] = {
    "balance": balance_answers, "compare": compare_answers, "compensate": compensate_answers,
    "content-value": content_value_answers, "experiment": experiment_answers, "robustness": robustness_answers}


def _json(path: Path, command: str) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        raise ConfigError(f"--field ladder: {path} is missing or unreadable (the {command} run of this rung did not "
                          "finish); run the command again with --resume") from None


def _game(out: Path) -> str | None:
    """The game of a rung's folder, from its settings (``config.toml``), else None."""
    try:
        text = (out / rf.SETTINGS).read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("game = "):
            return line.split("=", 1)[1].strip().strip('"')
    return None


def _strategy_label(game: str | None, sid: str) -> str:
    """``tuned heuristic`` for the game's tuned preset in either spelling, else the id as given."""
    if game is None or not sid.startswith("heuristic:"):
        return sid
    try:
        tuned = members(game, TUNED)[0]
        return "tuned heuristic" if sid in (tuned, make_strategy(game, tuned).id) else sid
    except ConfigError:  # no tuned preset for this game: the id as given
        return sid


# ---------------------------------------------------------------------------------------------- reading
def _verdict(ref: dict, this: dict) -> str:
    """``this`` rung's answer judged against ``ref``: figures by :func:`meeplelab.analysis.rungs.compare` with the
    metric's resolution (:func:`meeplelab.analysis.rungs.resolution_of`: its unit, seats and the smaller sample), so
    a difference under it is never a change; other answers by equality."""
    if "est" in ref and "est" in this:
        n = [int(a["n"]) for a in (ref, this) if a.get("n")]
        res = resolution_of(this.get("unit", ""), this.get("players") or ref.get("players"), min(n) if n else None)
        return compare(ref, this, res)[0]
    return "holds" if ref.get("value") == this.get("value") else "changes"


def _on_floor(a: dict) -> bool:
    """A win-rate answer whose player wins under :data:`FLOOR` percent in the control or reference there."""
    return a.get("base") is not None and a["base"] < FLOOR


def _judge_rung(cells: dict[str, dict], ref: str, r: str, vp: dict[str, dict] | None) -> str:
    """Rung ``r``'s verdict against ``ref``; a win rate on the floor at either (:func:`_on_floor`) is not read as
    an effect: the verdict is the VP answer's (``vp``, same rungs), ``holds`` when there is none."""
    if not (_on_floor(cells[ref]) or _on_floor(cells[r])):
        return _verdict(cells[ref], cells[r])
    return _verdict(vp[ref], vp[r]) if vp and ref in vp and r in vp else "holds"


def _floor_detail(cells: dict[str, dict], measured: Sequence[str], vp: dict[str, dict] | None) -> str:
    """``win rate on the floor (under 5%) at the tuned heuristic (base 2.8%): read there by the final VP`` (empty
    when no measured rung is on the floor)."""
    low = [r for r in measured if _on_floor(cells[r])]
    if not low:
        return ""
    at = ", ".join(f"the {RUNG_WORDS.get(r, r)} (base {cells[r]['base']:.1f}%)" for r in low)
    where = "at every rung" if low[0] == measured[0] else "there"
    how = f"read {where} by the final VP" if vp else "not read as an effect (no VP answer)"
    return f"win rate on the floor (under {FLOOR:.0f}%) at {at}: {how}"


def reading(cells: dict[str, dict], rungs: Sequence[str], vp: dict[str, dict] | None = None) -> tuple[str, str]:
    """``(word, detail)`` of one answer across the ladder: ``cells`` its answer per rung that measured it, each
    later rung judged against the first (normally the scripted rung; see the module doc; a difference under the
    metric's resolution is no change, :func:`_verdict`); a figure without an interval (too few game seeds) is shown
    but not judged; ``("-", ...)`` when only one rung measured it. A win rate whose player sits on the floor at a
    rung or at the first (:data:`FLOOR`) is judged there by the VP answer ``vp`` (its cells per rung), and the
    detail says so."""
    def judged(a: dict) -> bool:
        return "est" not in a or all(a[k] is not None and math.isfinite(a[k]) for k in ("low", "high"))

    measured = [r for r in rungs if r in cells and judged(cells[r])]
    if len(measured) < 2:
        return "-", (f"measured at one rung only: {RUNG_WORDS.get(measured[0], measured[0])}" if measured
                     else "no rung gives it an interval")
    unresolved = [r for r in measured if cells[r].get("unresolved")]
    if unresolved:
        return _unresolved(cells, rungs, unresolved, vp)
    ref = measured[0]
    verdicts = [(RUNG_WORDS.get(r, r), _judge_rung(cells, ref, r, vp)) for r in measured[1:]]
    word, detail = skill({"ladder": [{"rung": r, "verdict": v} for r, v in verdicts[:-1]],
                          "verdict": verdicts[-1][1], "strong_rung": verdicts[-1][0]})
    if ref != SCRIPTED:
        if word == SCRIPTED_ONLY:
            word, detail = DEPENDS, f"changes from the {verdicts[0][0]}"
        why = ("the scripted plans' figure has no interval" if SCRIPTED in cells else
               "the scripted plans do not play it" if SCRIPTED in rungs else "the scripted rung is not in --rungs")
        detail = (detail + "; " if detail else "") + f"compared with the {RUNG_WORDS.get(ref, ref)}: {why}"
    floor = _floor_detail(cells, measured, vp)
    return word, "; ".join(x for x in (detail, floor) if x)


def _unresolved(cells: dict[str, dict], rungs: Sequence[str], unresolved: list[str],
                vp: dict[str, dict] | None = None) -> tuple[str, str]:
    """``(word, detail)`` of an answer some rungs leave unresolved (a claim whose interval at the defaults crosses
    zero, or no verdict): ``unresolved at heuristic`` (those rungs), the detail the reading of the other rungs."""
    word = "unresolved at " + ", ".join(RUNG_WORDS.get(r, r) for r in unresolved)
    detail = "no verdict there (its interval crosses zero or the budget did not settle it)"
    rest = {r: c for r, c in cells.items() if r not in unresolved}
    other, why = reading(rest, rungs, vp)
    if other != "-":
        detail += f"; the other rungs: {other}" + (f" ({why})" if why else "")
    return word, detail


def ladder_rows(command: str, out: Path, rungs: Sequence[str]) -> list[dict]:
    """One row per headline answer of ``command`` over the rung folders of ``out``, those measured at more rungs
    first, else in the order first met: ``{"answer", "cells": {rung: text}, "word", "detail"}`` (:func:`reading`).

    Raises:
        ConfigError: a command without headline answers, or a rung's run not finished.
    """
    if command not in HEADLINES:
        raise ConfigError(ladder_refusal(command))
    by_key: dict[str, dict[str, dict]] = {}
    for rung in rungs:
        for a in HEADLINES[command](out / rung_folder(rung)):
            by_key.setdefault(a["key"], {})[rung] = a
    rows = []
    for key, cells in by_key.items():  # a win rate on the floor is read by the same answer's final VP
        word, detail = reading(cells, rungs, by_key.get(key.replace("win rate (points)", "final VP (VP)"))
                               if "win rate (points)" in key else None)
        rows.append({"answer": key, "cells": {r: cells[r]["text"] for r in cells}, "word": word, "detail": detail})
    return sorted(rows, key=lambda r: -len(r["cells"]))


def _write_settings(out: Path, rungs: Sequence[str]) -> None:
    """``OUT/config.toml``: the settings of the ladder run, those of its first rung's run (``rungs[0]``, normally the
    scripted plans: its own strategies) with ``field = "ladder"`` (and ``rungs`` when not every rung played), so the
    folder says it holds a ladder and repeats it; nothing when that rung's folder keeps no settings."""
    first = rungs[0]
    try:
        text = (out / rung_folder(first) / rf.SETTINGS).read_text()
    except OSError:
        return
    text = re.sub(r'(?m)^field = ".*"$', 'field = "ladder"' + ("" if tuple(rungs) == RUNGS else
                                                                 f'\nrungs = "{",".join(rungs)}"'), text)
    head = (f"# --field ladder: every rung's run in {rung_folder('RUNG')}/ keeps its own settings; these are the "
            f"{first} rung's\n")
    rf.write_atomic(out / rf.SETTINGS, (head + text).encode())


def write_ladder(command: str, out: Path, rungs: Sequence[str]) -> list[str]:
    """Write ``OUT/ladder.md`` and ``OUT/ladder.csv`` (:func:`ladder_rows`) and return the lines to print: the
    table aligned, then where it was written.

    Raises:
        ConfigError: as :func:`ladder_rows`.
    """
    rows = ladder_rows(command, out, rungs)
    head = ["answer", *rungs, "reading"]
    table = [[r["answer"], *(r["cells"].get(g, "-") for g in rungs),
              r["word"] + (f" ({r['detail']})" if r["detail"] else "")] for r in rows]
    md = [f"# {command} at every rung of the skill ladder", "",
          f"Each rung is an ordinary `{command}` run on the same seeds in `{rung_folder('RUNG')}/`; the reading "
          f"judges every rung against the {RUNG_WORDS.get(rungs[0], rungs[0])} (docs/balance.md, 'The skill "
          "ladder').", "",
          "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    md += ["| " + " | ".join(x.replace("|", "\\|") for x in row) + " |" for row in table]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["answer", *rungs, "word", "detail"])
    for r in rows:
        w.writerow([r["answer"], *(r["cells"].get(g, "") for g in rungs), r["word"], r["detail"]])
    rf.write_atomic(out / "ladder.md", ("\n".join(md) + "\n").encode())
    rf.write_atomic(out / "ladder.csv", buf.getvalue().encode())
    _write_settings(out, rungs)
    width = [max(len(x[i]) for x in [head, *table]) for i in range(len(head))]
    lines = [f"{command} at every rung of the skill ladder (--field ladder):"]
    lines += ["  " + "  ".join(x.ljust(n) for x, n in zip(row, width)).rstrip() for row in [head, *table]]
    lines.append(f"wrote {out / 'ladder.md'} and {out / 'ladder.csv'} (every rung's run in {out}/rung-RUNG)")
    return lines


__all__ = ["EVERY", "HEADLINES", "RUNGS", "RUNG_WORDS", "balance_answers", "check_command", "compare_answers",
           "compensate_answers", "content_value_answers", "experiment_answers", "ladder_refusal", "ladder_rows",
           "reading", "robustness_answers", "rung_folder", "write_ladder"]
