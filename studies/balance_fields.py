"""What a balance search measures and plays besides its lineups: the metrics of its targets (:data:`METRICS`), their
bootstrap interval (:func:`bootstrap`) and the rotated fields it plays the proposal and the defaults in
(:func:`field_configs`), shared by :mod:`meeplelab.studies.balance` and :mod:`meeplelab.studies.balance_retune`."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Callable, cast

import polars as pl

from meeplelab.analysis.stats import bootstrap as boot
from meeplelab.analysis.stats import sd_floor, z_value
from meeplelab.play.config import RunConfig

#: the side-effect runs of the proposal and the defaults (one run folder per field and version, fresh seeds)
SIDE = "side_effects"
def seat_spread(g: pl.DataFrame, panel: str) -> float:
    """Best minus worst seat win rate in ``panel`` (percentage points)."""
    w = g.filter(pl.col("panel") == panel).group_by("seat", maintain_order=True).agg(pl.col("win_share").mean())["win_share"]
    return float((cast(float, w.max()) - cast(float, w.min())) * 100)


def strategy_excess(g: pl.DataFrame, panel: str) -> float:
    """Best strategy's win rate minus fair share (points) in ``panel``."""
    p = g.filter(pl.col("panel") == panel)
    w = p.group_by("strategy", maintain_order=True).agg(pl.col("win_share").mean())["win_share"]
    return float((cast(float, w.max()) - 1.0 / int(p["players"][0])) * 100)


def mean_length(g: pl.DataFrame, panel: str) -> float:
    """Mean game length in turns in ``panel``."""
    return float(cast(float, g.filter((pl.col("panel") == panel) & (pl.col("seat") == 0))["turns"].mean()))


METRICS: dict[str, tuple[Callable[[pl.DataFrame, str], float], str]] = {
    "seat-spread": (seat_spread, "points"),
    "strategy-excess": (strategy_excess, "points"),
    "length": (mean_length, "turns"),
}


def bootstrap(g: pl.DataFrame, t, resamples: int = 200, seed: int = 0) -> tuple[float, float]:
    """95% percentile bootstrap interval of ``t.value`` (``t`` a :class:`meeplelab.studies.balance.Target`) resampling games (a game index with all its lineups:
    the common seed is the unit, so the rotation stays balanced). When every resample gives the same
    value (no spread) the interval keeps a real width: +-z/(n+2) of 100 points for a point metric (the
    Agresti-Min half-width with no discordant game), the t width of whole turns' rounding sd for length."""
    keys = g.select("game").unique().sort("game")

    def value(i):
        pick = keys[i].with_row_index("copy")
        return t.value(pick.join(g, on="game").with_columns(pl.col("copy").cast(pl.Int64).alias("game")))

    # keyed by the target and the re-check seed: repeatable
    b = boot(len(keys), value, purpose=f"balance {t.text}", seed=seed, resamples=resamples, vectorized=False)
    lo, hi = float(b.low), float(b.high)
    if hi - lo <= 0:  # every resample gave one value: keep the width of the metric's resolution at this size
        n, v = len(keys), float(t.value(g))
        half = (100.0 * z_value() / (n + 2) if METRICS[t.metric][1] == "points"  # Agresti-Min, no discordant game
                else z_value() * sd_floor(1.0) / math.sqrt(max(n, 1)))  # whole turns
        lo, hi = min(lo, v - half), max(hi, v + half)
    return lo, hi


def field_configs(game: str, lineups, rules: dict, games_per_lineup: int, seed: int, par: dict, out: Path,
                  name: str) -> list:
    """Per rotated field the search measured (panel ``field-P``): ``(panel, RunConfig)`` of the field played under
    ``rules`` (``--set`` texts) into ``out/side_effects/<panel>-<name>``: the field's strategies in rotated seats on
    run seed ``seed``, as many games as the lineups of the panel played (``games_per_lineup`` each), every log written;
    ``par`` the execution (n_jobs, backend, scheduler, batch size). The side-effect runs and the re-tuned ones
    (:mod:`meeplelab.studies.balance_retune`) are these configs."""
    out_ = []
    for f in _fields(lineups):
        if not re.fullmatch(r"field-\d+", f["panel"]):
            continue
        n = sum(lu.panel == f["panel"] for lu in lineups)
        out_.append((f["panel"], RunConfig(
            game=game, players=f["players"], strategies=tuple(f["strategies"]), games=games_per_lineup * n, seed=seed,
            seating="rotate", params=dict(rules), out=str(Path(out) / SIDE / f"{f['panel']}-{name}"), log_turns=True,
            log_events=True, n_jobs=par.get("n_jobs", 1), backend=par.get("backend", "loky"),
            scheduler=par.get("scheduler"), batch_size=par.get("batch_size", 4096))))
    return out_


def _fields(lineups) -> list[dict]:
    """Per panel the search measured: its seat count and strategies (rotation 0), for the line that
    plays the proposal in that field."""
    out: dict[str, dict] = {}
    for lu in lineups:
        out.setdefault(lu.panel, {"panel": lu.panel, "players": len(lu.strategies), "strategies": list(lu.strategies)})
    return list(out.values())
