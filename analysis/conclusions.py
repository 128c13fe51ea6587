"""Named balance conclusions as small functions of a panel games table, and the studies that hold them.

A :class:`Conclusion` turns the games table of one rule variant (one design point, see
:func:`meeplelab.play.panels.play_lineups`) into a quantity ``q`` with its standard error. Its *statement*
is fixed at the default rules (the baseline): :attr:`Conclusion.frame` reads the baseline table
(which strategy is on top, which seat is best, the default game length) and the measure is taken
relative to it at every other point. A conclusion *holds* at a point when

- ``test="sign"``: ``q`` has the baseline's sign (an effect keeps its direction; a ranking its order),
- ``test="within"``: ``|q - centre| <= tol`` (a quantity stays near its baseline value).

A :class:`Study` is a game's panels plus its conclusions; ``meeplelab robustness`` and
``meeplelab balance`` evaluate a study at many rule variants. Studies register with
:func:`register_study`; the built-in ones are in :mod:`meeplelab.analysis.studies`.

Every measure is paired where the design pairs: games of two panels are joined on
``(rot, game, seat)`` (the same seat order, seeds and seat), so the standard error is that of the
per-game difference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import polars as pl

from meeplelab.sim.core.errors import ConfigError

from .stats import resolution, sd_floor


@dataclass(frozen=True)
class Conclusion:
    """A named balance conclusion.

    Attributes:
        name: short id (``dominant-4``, ``abjure-cycle-2``).
        title: what it is about, for a designer (``Dominant strategy at 4 seats``).
        frame: ``fn(baseline_games) -> dict``: facts fixing the statement at the default rules.
        measure: ``fn(games, frame) -> (q, se, n)``: the quantity at one point, its standard error and
            the number of (paired) observations.
        statement: ``fn(frame, q) -> str``: the conclusion in words at the baseline.
        unit: unit of ``q`` (``points``, ``VP``, ``turns``).
        test: ``sign`` or ``within`` (see module docstring).
        tol: ``within`` only: ``fn(frame) -> (centre, tolerance)``.
        panels: the panels the measure reads (empty: all of the study's).
    """

    name: str
    title: str
    measure: Callable[[pl.DataFrame, dict], tuple[float, float, int]]
    statement: Callable[[dict, float], str]
    frame: Callable[[pl.DataFrame], dict] = lambda g: {}
    unit: str = ""
    test: str = "sign"
    tol: Callable[[dict], tuple[float, float]] | None = None
    panels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Study:
    """A game's panels (lineups) and the conclusions read from them.

    Attributes:
        game: game id.
        lineups: every lineup played at each design point (see :func:`meeplelab.play.panels.panel`).
        conclusions: the named conclusions.
        default_games: default games per lineup at each design point.
        plausible: the plausible ranges as a dict (see :func:`meeplelab.sim.plausible.load_plausible`) instead of the
            game's ``plausible.toml`` (test games).
    """

    game: str
    lineups: tuple
    conclusions: tuple[Conclusion, ...]
    default_games: int = 16
    plausible: dict | None = None

    def conclusion(self, name: str) -> Conclusion:
        for c in self.conclusions:
            if c.name == name:
                return c
        raise ConfigError(f"unknown conclusion {name!r} for {self.game}: allowed {', '.join(c.name for c in self.conclusions)}")


_STUDIES: dict[str, Callable[[], Study]] = {}


def register_study(game: str, make: Callable[[], Study]) -> None:
    """Register the study of ``game`` (``make()`` builds it on first use)."""
    _STUDIES[game] = make


def registered_study(game: str) -> Study:
    """The study registered for ``game`` (:func:`meeplelab.analysis.studies.study_for` loads the built-in ones and
    the game's plugins first).

    Raises:
        ConfigError: no study for that game (the allowed ids are named).
    """
    if game not in _STUDIES:
        raise ConfigError(f"no robustness study for {game!r}: allowed {', '.join(sorted(_STUDIES))}")
    return _STUDIES[game]()


# ---------------------------------------------------------------------------------------- measures
def mean_se(x: np.ndarray, shares: float | None = None) -> tuple[float, float, int]:
    """Mean, standard error and n of ``x`` (nan se for n < 2), never 0 for n >= 2.

    ``shares``: ``x`` are win-share quantities times ``shares`` (a paired difference of win shares in
    points: ``shares=100``); the se is then Agresti-Min's (half a pseudo-pair each way at
    ``+-shares``, :func:`meeplelab.analysis.stats.paired_shares`), so a quantity that is 0 in every game (no
    discordant game) still has a real interval. Otherwise the sd is floored at the rounding sd of the
    values' recorded resolution (:func:`meeplelab.analysis.stats.sd_floor`)."""
    x = np.asarray(x, float)
    n = x.size
    if n == 0:
        return float("nan"), float("nan"), 0
    if n < 2:
        return float(x.mean()), float("nan"), n
    if shares:
        u = x / shares
        nt = n + 2.0
        mt = float(u.sum()) / nt
        se = shares * math.sqrt(max((float((u * u).sum()) + 1.0) / nt - mt * mt, 0.0) / nt)
    else:
        se = max(float(x.std(ddof=1)), sd_floor(resolution(x))) / math.sqrt(n)
    return float(x.mean()), se, n


def rows(g: pl.DataFrame, panel: str, strategy: str | None = None, treated: bool | None = None) -> pl.DataFrame:
    """Rows of one panel (optionally one strategy, or only the treated/untreated seats)."""
    out = g.filter(pl.col("panel") == panel)
    if strategy is not None:
        out = out.filter(pl.col("strategy") == strategy)
    if treated is not None:
        out = out.filter(pl.col("treated") == treated)
    return out


def paired(a: pl.DataFrame, b: pl.DataFrame, value: str = "vp", scale: float = 1.0) -> tuple[float, float, int]:
    """Paired difference ``a - b`` of ``value`` joined on (rot, game, seat), times ``scale``."""
    j = a.select("rot", "game", "seat", pl.col(value).alias("a")).join(
        b.select("rot", "game", "seat", pl.col(value).alias("b")), on=["rot", "game", "seat"])
    return mean_se((j["a"].cast(pl.Float64) - j["b"].cast(pl.Float64)).to_numpy() * scale,
                   shares=scale if value == "win_share" else None)


def win_rates(g: pl.DataFrame, panel: str, by: str = "strategy") -> dict:
    """Mean win share (0-1) by strategy (or seat) in a panel."""
    r = rows(g, panel).group_by(by, maintain_order=True).agg(pl.col("win_share").mean()).sort(by)
    return dict(zip(r[by].to_list(), r["win_share"].to_list()))


def per_game(g: pl.DataFrame, panel: str, a: str, b: str) -> np.ndarray:
    """Per game of a panel: win share of strategy ``a`` minus that of ``b`` (paired within each game)."""
    p = rows(g, panel).filter(pl.col("strategy").is_in([a, b]))
    w = p.pivot(on="strategy", index=["rot", "game"], values="win_share", aggregate_function="sum")
    return (w[a] - w[b]).to_numpy()


# ------------------------------------------------------------------------------ conclusion builders
def dominant(panel: str, title: str) -> Conclusion:
    """The baseline's top strategy keeps the highest win rate in ``panel`` (q: its win rate minus the
    best other strategy's at that point, percentage points, paired within games)."""
    def frame(g):
        w = win_rates(g, panel)
        return {"top": max(w, key=w.get)}

    def measure(g, f):
        w = win_rates(g, panel)
        other = max((s for s in w if s != f["top"]), key=w.get)
        return mean_se(per_game(g, panel, f["top"], other) * 100, shares=100)

    return Conclusion(f"dominant-{panel}", title, measure,
                      lambda f, q: f"{f['top']} has the highest rotated win rate ({q:+.1f} points over the next)",
                      frame, "points", panels=(panel,))


def ranking(panel: str, title: str) -> Conclusion:
    """The baseline's order of strategies by win rate is kept (q: the smallest win-rate gap between
    neighbours in the baseline order, percentage points, paired within games)."""
    def frame(g):
        w = win_rates(g, panel)
        return {"order": sorted(w, key=w.get, reverse=True)}

    def measure(g, f):
        o = f["order"]
        gaps = [mean_se(per_game(g, panel, a, b) * 100, shares=100) for a, b in zip(o, o[1:])]
        return min(gaps, key=lambda t: t[0])

    return Conclusion(f"ranking-{panel}", title, measure,
                      lambda f, q: f"rotated ranking {' > '.join(f['order'])} (smallest gap {q:+.1f} points)",
                      frame, "points", panels=(panel,))


def seat_advantage(panel: str, players: int, title: str) -> Conclusion:
    """The baseline's best seat stays above the fair share ``1/P`` (q: its win rate minus fair share,
    percentage points; strategies balanced by the panel's rotation)."""
    def frame(g):
        w = win_rates(g, panel, by="seat")
        return {"seat": max(w, key=w.get)}

    def measure(g, f):
        x = rows(g, panel).filter(pl.col("seat") == f["seat"])["win_share"].to_numpy()
        return mean_se((x - 1.0 / players) * 100, shares=100)

    return Conclusion(f"seat-{players}", title, measure,
                      lambda f, q: f"seat {f['seat'] + 1} is favoured at {players} seats ({q:+.1f} points over fair share)",
                      frame, "points", panels=(panel,))


def game_length(panel: str, title: str, tol: float = 0.10) -> Conclusion:
    """Mean game length (turns, all seats) in ``panel`` stays within ``tol`` of the baseline's."""
    def frame(g):
        return {"turns": float(rows(g, panel).filter(pl.col("seat") == 0)["turns"].mean())}

    def measure(g, f):
        return mean_se(rows(g, panel).filter(pl.col("seat") == 0)["turns"].to_numpy())

    return Conclusion(f"length-{panel}", title, measure,
                      lambda f, q: f"mean game length stays within {tol:.0%} of {f['turns']:.1f} turns",
                      frame, "turns", "within", lambda f: (f["turns"], tol * f["turns"]), panels=(panel,))


def paired_effect(name: str, title: str, treated: tuple, control: tuple, what: str, value: str = "vp",
                  scale: float = 1.0, unit: str = "VP") -> Conclusion:
    """The direction of a paired effect (treated minus control rows on (rot, game, seat)) is kept.

    Args:
        treated, control: ``(panel, strategy or None, treated flag or None)`` row selections.
        what: the effect in words (``Abjuring in Cycle 2``).
    """
    def measure(g, f):
        return paired(rows(g, *treated), rows(g, *control), value, scale)

    def statement(f, q):
        verb = "gains" if q > 0 else "costs"
        return f"{what} {verb} {abs(q):.2f} {unit} (paired)"

    return Conclusion(name, title, measure, statement, lambda g: {}, unit, panels=(treated[0], control[0]))
