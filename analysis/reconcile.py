"""Descriptive and causal readings of one question, reconciled.

An experiment report holds two kinds of figure for some questions: a descriptive one from the pooled arms' games
(seats that abjured in Cycle 1 against seats that never did; the net VP of a publication by Volumes cited; VP per
Coffee spent) and a causal one, the paired effect of an arm against the control (forcing Abjure in Cycle 1;
citing; one more start Coffee). When they point different ways, the page says why in one sentence, from a number
computed here.

Each game declares its questions in its analysis module (the module its ``GameSpec.sections`` names) as
``RECONCILE``, a tuple of :class:`Reading`: which causal arms (a regular expression on the arm label) and metric,
the descriptive measure (a function of the loaded runs and a :class:`Context`), the kind of reason and the function
that computes it. Two kinds of reason:

- ``selection``: the seats in the descriptive group chose to be there, and they are not the others: the reason
  quotes who they were and their state before the choice (:func:`state_before`: their VP at the decision turn
  against the other seats of the same games at that turn).
- ``attribution``: the descriptive figure credits only what is scored in the turn of the act, the causal one the
  whole game: the reason quotes the share credited and what the arm changed over the game.

Disagree means (:func:`disagree`): estimates of opposite sign with at least one of the two resolved (interval
clear of 0; the descriptive one: the two groups' intervals apart), or, for a descriptive figure in the causal
figure's own unit (``same_scale``), a causal interval that excludes the descriptive value. When they agree the page
says so in one short line per experiment.

Every frame is a polars DataFrame; win rates are percent, VP in VP.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
from meeplelab.sim.core.spec import load_ref
from meeplelab.sim.registry import get_spec

from .focal import match_entry
from .load import Runs

#: reason kinds and the word that opens the reason
KINDS = {"selection": "selection", "attribution": "attribution"}


@dataclass(frozen=True)
class Figure:
    """A descriptive figure: ``est`` with its 95% interval (``low``, ``high``; NaN: none), ``resolved`` (its
    interval, or the two groups' intervals, clear of 0 / apart) and ``words``: the figure in words with its numbers
    (no trailing period)."""

    est: float
    low: float
    high: float
    resolved: bool
    words: str


@dataclass(frozen=True)
class Context:
    """What a reading is asked about: the causal effect row (``effect``: a row of
    :func:`meeplelab.analysis.experiment.effects`), the arm's and the control's run names in the loaded runs
    (``arm_run``, ``control_run``), the control's focal strategy (``control``) and the arm pattern's named groups
    (``groups``, strings)."""

    effect: dict
    arm_run: str
    control_run: str
    control: str
    groups: dict = field(default_factory=dict)

    @property
    def strategy(self) -> str:
        """The strategy the effect is measured on (the arm's focal strategy)."""
        return self.effect["strategy"]


@dataclass(frozen=True)
class Reading:
    """One question a game answers both descriptively and causally.

    Attributes:
        arm: regular expression matched whole against the causal arm's label; its named groups reach the
            functions as ``Context.groups``.
        metric: the causal metric compared (``win`` or ``vp`` of the effects table).
        kind: ``selection`` or ``attribution`` (:data:`KINDS`).
        descriptive: ``descriptive(runs, ctx) -> Figure | None`` (None: the runs hold no such figure).
        why: ``why(runs, ctx) -> str``: the reason after its kind word, from numbers, no trailing period.
        same_scale: the descriptive figure is in the causal figure's unit (compare values, not only signs).
    """

    arm: str
    metric: str
    kind: str
    descriptive: Callable[[Runs, Context], Figure | None]
    why: Callable[[Runs, Context], str]
    same_scale: bool = False


def readings_of(game: str) -> tuple[Reading, ...]:
    """The ``RECONCILE`` readings declared by ``game``'s analysis module (its spec's ``sections``), or ()."""
    mod = get_spec(game).sections
    return tuple(getattr(load_ref(mod), "RECONCILE", ()) or ()) if mod else ()


# ====================================================================== numbers behind a reason


def state_before(
    runs: Runs, choices: pl.DataFrame, column: str = "vp_after"
) -> tuple[float, float, int]:
    """Mean state of the choosing seats just before their decision turn against the other seats of the same games.

    Args:
        runs: loaded runs (its turns table holds ``column``).
        choices: ``run, game, seat, turn``: one row per choice (the game turn the seat chose in).
        column: the turns table's state after a turn (``vp_after``, ``suspicion_after``).

    Returns:
        ``(chooser mean, others mean, choices)``: each seat's state after its last turn before the choice turn (0 if
        it had none), averaged over the choosers, and over the other seats of the choosers' games. NaN when
        ``choices`` is empty.
    """
    if choices.height == 0:
        return math.nan, math.nan, 0
    ch = choices.select(
        "run", "game", pl.col("seat").cast(pl.Int64), pl.col("turn").cast(pl.Int64)
    ).with_row_index("_c")
    keys = ch.select("run", "game").unique().lazy()
    t = (
        runs.turns.select(
            "run",
            "game",
            pl.col("seat").cast(pl.Int64).alias("other"),
            pl.col("turn").cast(pl.Int64).alias("_t"),
            pl.col(column).cast(pl.Float64).alias("_v"),
        )
        .join(keys, on=["run", "game"], how="semi")
        .collect()
    )
    seats = t.select("run", "game", "other").unique()
    last = (
        ch.join(seats, on=["run", "game"])
        .join(t, on=["run", "game", "other"], how="left")
        .with_columns(
            pl.when(pl.col("_t") < pl.col("turn")).then(pl.col("_v")).alias("_v"),
            pl.when(pl.col("_t") < pl.col("turn")).then(pl.col("_t")).alias("_t"),
        )
        .sort("_t", nulls_last=False)
        .group_by("_c", "seat", "other")
        .agg(pl.col("_v").drop_nulls().last().fill_null(0.0))
    )
    own = last.filter(pl.col("other") == pl.col("seat"))["_v"].mean()
    oth = last.filter(pl.col("other") != pl.col("seat"))["_v"].mean()
    return (
        (float(own) if own is not None else 0.0),
        (float(oth) if oth is not None else math.nan),
        ch.height,
    )


def mix(games: pl.DataFrame) -> str:
    """Who a group of seat-results is, in words: ``all 4,800 played X`` or ``62% of 1,200 played X`` (its most
    common strategy). ``games``: seat-results with a ``strategy`` column."""
    if games.height == 0:
        return "none"
    top = (
        games.group_by("strategy")
        .len()
        .sort(["len", "strategy"], descending=[True, False])
        .row(0, named=True)
    )
    share = 100.0 * top["len"] / games.height
    head = (
        f"all {games.height:,}"
        if top["len"] == games.height
        else f"{share:.0f}% of {games.height:,}"
    )
    return f"{head} played {top['strategy']}"


def per_seat_game(
    runs: Runs,
    run: str,
    strategy: str,
    frame: str,
    value: pl.Expr,
    where: pl.Expr | None = None,
) -> float:
    """Mean per seat-game of ``sum(value)`` over ``frame`` (``turns`` or ``events``) rows of ``strategy``'s seats in
    run ``run`` (seat-games without such rows count 0). NaN when the strategy has no seat there. ``strategy`` is the
    roster entry's id as given (a preset id unexpanded; :func:`meeplelab.analysis.focal.match_entry`)."""
    seats = (
        match_entry(runs.games.filter(pl.col("run") == run), runs.manifests.get(run) or {}, strategy)
        .select("run", "game", pl.col("seat").cast(pl.Int64))
        .collect()
    )
    if seats.height == 0:
        return math.nan
    rows = getattr(runs, frame).filter(pl.col("run") == run)
    if where is not None:
        rows = rows.filter(where)
    tot = (
        rows.with_columns(pl.col("seat").cast(pl.Int64))
        .join(seats.lazy(), on=["run", "game", "seat"], how="semi")
        .select(value.cast(pl.Float64).sum())
        .collect()
        .item()
    )
    return float(tot or 0.0) / seats.height


# ====================================================================== comparing


def _clear(lo: float, hi: float) -> bool:
    return bool(lo > 0 or hi < 0)


def disagree(desc: Figure, effect: dict, same_scale: bool = False) -> bool:
    """Whether a descriptive figure and a causal effect row (``est, low, high``) disagree: opposite signs with at
    least one resolved, or (``same_scale``) a causal interval that excludes the descriptive value."""
    if same_scale and not (effect["low"] <= desc.est <= effect["high"]):
        return True
    opposite = desc.est * effect["est"] < 0
    return bool(opposite and (desc.resolved or _clear(effect["low"], effect["high"])))


def causal_words(effect: dict, control: str) -> str:
    """The causal figure in words (no period): the arm, the metric's paired change with its interval."""
    what = "win rate" if effect["metric"] == "win" else "final VP"
    unit, d = (" percentage points", 1) if effect["metric"] == "win" else (" VP", 2)
    who = (
        effect["arm"]
        if effect["arm"] == effect["strategy"]
        else f"{effect['arm']} ({effect['strategy']})"
    )
    return (
        f"causal, {who} against the control {control} changes its {what} by {effect['est']:+.{d}f}{unit} "
        f"[{effect['low']:.{d}f}, {effect['high']:.{d}f}] paired over {effect['n']:,} games"
    )


def sentence(
    reading: Reading, desc: Figure, effect: dict, control: str, why: str
) -> str:
    """The one sentence of a disagreement: both figures, labelled, and the reason of the reading's kind."""
    return (
        f"Descriptive and causal disagree on {effect['arm']}: descriptive, {desc.words}; "
        f"{causal_words(effect, control)}; {KINDS[reading.kind]}: {why}."
    )


def reconcile(
    effects_df: pl.DataFrame,
    runs: Runs,
    game: str,
    arms: dict[str, str],
    control: str,
    readings: tuple[Reading, ...] | None = None,
) -> list[dict]:
    """Every (reading, causal effect) pair of an experiment, compared.

    Args:
        effects_df: :func:`meeplelab.analysis.experiment.effects` of the experiment.
        runs: the arms loaded together (the report's runs).
        game: the game id (its ``RECONCILE`` readings, unless ``readings`` is given).
        arms: ``{arm label: run name in runs}``, the control first.
        control: the control arm's focal strategy (or the control's words).
        readings: the readings to use (default: the game's).

    Returns:
        One dict per matched pair: ``arm, strategy, metric, kind, descriptive`` (:class:`Figure`), ``effect`` (the
        row), ``disagree`` (bool) and ``sentence`` (the reason sentence, "" when they agree).
    """
    readings = readings_of(game) if readings is None else readings
    names = list(arms)
    out = []
    for rd in readings:
        for r in effects_df.filter(pl.col("metric") == rd.metric).iter_rows(named=True):
            m = re.fullmatch(rd.arm, r["arm"])
            if m is None or r["arm"] not in arms:
                continue
            ctx = Context(
                r,
                arms[r["arm"]],
                arms[names[0]],
                control,
                {k: v for k, v in m.groupdict().items() if v},
            )
            desc = rd.descriptive(runs, ctx)
            if desc is None or not math.isfinite(desc.est):
                continue
            off = disagree(desc, r, rd.same_scale)
            out.append(
                {
                    "arm": r["arm"],
                    "strategy": r["strategy"],
                    "metric": rd.metric,
                    "kind": rd.kind,
                    "descriptive": desc,
                    "effect": r,
                    "disagree": off,
                    "sentence": sentence(rd, desc, r, control, rd.why(runs, ctx))
                    if off
                    else "",
                }
            )
    return out


def reconcile_lines(found: list[dict]) -> list[str]:
    """The page's lines of :func:`reconcile`: one sentence per disagreement, then one short line naming the arms
    whose readings agree in sign, each with its strategy when that is not the arm (``cite_bright_ideas=2
    (publisher, vp)``; none when every reading disagrees; nothing when nothing matched)."""
    lines = [f["sentence"] for f in found if f["disagree"]]
    agree = [f"{f['arm']} ({'' if f['strategy'] == f['arm'] else f['strategy'] + ', '}{f['metric']})" for f in found
             if not f["disagree"]]
    if agree:
        lines.append(
            "Descriptive and causal agree in sign (nothing to reconcile) for: "
            + ", ".join(agree)
            + "."
        )
    return lines


def experiment_lines(
    effects_df: pl.DataFrame, runs: Runs, meta: dict, folder
) -> list[str]:
    """:func:`reconcile_lines` of an experiment folder: ``meta`` its ``experiment.json`` (arms, game), ``runs`` its
    arms loaded together (run names are matched to the arms by folder); the control in words is its focal strategy,
    or for a rule-number experiment its rule value (``cite_bright_ideas=1``). Nothing when the game declares no readings
    or an arm's folder is not among ``runs``."""
    if not readings_of(meta["game"]):
        return []
    name_of = {Path(p).resolve(): n for n, p in runs.paths.items()}
    arms = {
        a["label"]: name_of.get((Path(folder) / a["folder"]).resolve())
        for a in meta["arms"]
    }
    if None in arms.values():
        return []
    ch = meta["arms"][0]["change"]
    control = (ch["strategy"] if "strategy" in ch else f"{ch['param']}={ch['value']}" if "param" in ch
               else meta["arms"][0]["strategies"][0])
    return reconcile_lines(reconcile(effects_df, runs, meta["game"], arms, control))
