"""Forced play of the mechanics strong players skip: a part of ``meeplelab stronger``.

The stronger-players study plays a mirror of the strong player at each player count of the field runs. Every
action whose use falls toward zero from the scripted field to that mirror (:func:`meeplelab.analysis.mechanics.trends`)
and that restricted play can force (``docs/strategies.md`` "Restricted play") is played again: the strong player
with ``+force:ACTION`` (at the first chance) and with ``+force:ACTION@CONDITION`` at the game's documented threshold
(``GameSpec.force_at``: Galileo's Truth's Abjure at Suspicion 5 or more) in one seat, the unrestricted strong player
in the others, in rotated seats on the mirror's seed, ``--games`` games per player count.

A restriction that never binds plays exactly the mirror's games (the narrowing draws no random number), so each
forced seat-game is paired with the same seat of the mirror game on the same game seed: the win-share and VP
differences are paired, their intervals over the game seeds (Agresti-Min for win shares, Student t for VP). Forcing
it costs (an interval below 0): **a trap**, the strong players are right to skip it; it pays (above 0): **a blind
spot** of the strong players; otherwise "no resolved cost" (and "mixed" if win rate and VP disagree).

Cost: one run of ``--games`` games per flagged action, threshold and player count (the README main job: 2 x 3 runs of
400 Galileo's Truth games, 3 runs of 400 Unconscious Mind games).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import cast

import polars as pl
from meeplelab.analysis.load import Runs, load_runs
from meeplelab.analysis.mechanics import SCRIPTED, decision_counts, trends, use_table
from meeplelab.analysis.stats import mean_t, paired_shares, wilson
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.registry import get_game_class, get_spec
from meeplelab.strategies.restricted import resolve, split_restrictions


def forcible(sid: str, game: str) -> bool:
    """Whether restricted play accepts the restricted strategy id ``sid`` for ``game`` (its action a name of the game's
    vocabulary, its condition one the game's seat fields can meet)."""
    try:
        resolve(sid, get_game_class(game), split_restrictions(sid)[1])
    except ConfigError:
        return False
    return True


def restrictions(game: str, action: str) -> list[str]:
    """The forcing suffixes played for ``action``: ``force:ACTION`` and one per documented threshold."""
    return [f"force:{action}"] + [f"force:{action}@{c}" for a, c in get_spec(game).force_at if a == action]


def _word(win: dict, vp: dict) -> str:
    cost = win["high"] < 0 or vp["high"] < 0
    pays = win["low"] > 0 or vp["low"] > 0
    return "mixed" if cost and pays else "a trap" if cost else "a blind spot" if pays else "no resolved cost"


def paired_check(forced: Path, mirror: Path, action: str, restriction: str, players: int) -> dict:
    """The forced seat of run ``forced`` against the same seat of the ``mirror`` game on the same game seed.

    Returns:
        ``{action, restriction, players, games, forced, base, win_diff, vp_diff, took, word}``: ``forced`` the
        forced seat's win rate ``{est, low, high, n}`` (shares, Wilson), ``base`` the mirror's rate in the same seats
        and seeds, ``win_diff`` (shares) and ``vp_diff`` (VP) paired ``{est, low, high, n}``, ``took`` the share of
        forced seat-games that took the action.
    """
    g = load_runs([forced])
    games = g.games.collect()
    mine = games.filter(pl.col("strategy").str.contains(r"\+(force|never):"))  # the restricted seat
    m = load_runs([mirror]).games.select("game_seed", "seat", "vp", "win_share").collect()
    j = mine.join(m, on=["game_seed", "seat"], suffix="_m").sort("run", "game")
    seeds = j["game_seed"].to_numpy()
    w = paired_shares(j["win_share"].to_numpy(), j["win_share_m"].to_numpy(), cluster=seeds)
    d, lo, hi = mean_t((j["vp"] - j["vp_m"]).to_numpy(), cluster=seeds, res=1.0)
    r, rl, rh = wilson(float(j["win_share"].sum()), j.height)
    took = decision_counts(g, get_spec(next(iter(g.game_names))).decision_log).filter(pl.col("action") == action)
    took_n = took.join(mine.select("run", "game", pl.col("seat").cast(pl.Int8)), on=["run", "game", "seat"]).height
    win = {k: float(w[k]) for k in ("est", "low", "high")} | {"n": int(w["n"])}
    vp = {"est": float(d), "low": float(lo), "high": float(hi), "n": j.height}
    return {"action": action, "restriction": restriction, "players": players, "games": j.height,
            "forced": {"est": float(r), "low": float(rl), "high": float(rh), "n": j.height},
            "base": float(cast(float, j["win_share_m"].mean())), "win_diff": {k: v * 100 if k != "n" else v for k, v in win.items()},
            "vp_diff": vp, "took": took_n / max(mine.height, 1), "word": _word(win, vp)}


def forced_checks(runs: Runs, mirrors: dict[int, Path], out: Path, game: str, strong: str, games: int, seed: int,
                  execution: dict, play: Callable[[RunConfig], Path], say: Callable[[str], None]) -> list[dict]:
    """Force every flagged, forcible action of the strong player at each player count of ``mirrors`` (module
    docstring); ``play`` plays a config into its folder (the study's resume rules). Runs go to
    ``out/force-ACTION[-CONDITION]-Pp``. Returns the :func:`paired_check` of each, in order."""
    t = trends(use_table({SCRIPTED: runs, strong: load_runs(list(mirrors.values()))}))
    checks = []
    for a in t.filter(pl.col("flag"))["action"].to_list():
        for rest in restrictions(game, a):
            sid = f"{strong}+{rest}"
            if not forcible(sid, game):
                break
            slug = re.sub(r"[^a-z0-9_]+", "-", rest.removeprefix("force:"))  # abjure-suspicion-5
            for p, mirror in sorted(mirrors.items()):
                say(f"the strong player forced to {rest.removeprefix('force:')} at {p} seats ({games:,} games)")
                cfg = RunConfig(game=game, players=p, strategies=(sid,) + (strong,) * (p - 1), games=games, seed=seed,
                                seating="rotate", out=str(out / f"force-{slug}-{p}p"), **execution)
                checks.append(paired_check(play(validated(cfg)), mirror, a, rest, p))
    return checks


__all__ = ["forced_checks", "forcible", "paired_check", "restrictions"]
