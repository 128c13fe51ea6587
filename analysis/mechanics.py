"""Mechanics by skill: how often players of each skill rung take each action, and the flag when a mechanic's use
falls toward zero as skill rises.

The actions are counted from the players' own choices, as the game's spec names them (``GameSpec.decision_log``):
a turn column whose value is the action the turn's seat chose (Galileo's Truth's ``main_action``), or an event kind
written once per chosen action by the choosing seat (Unconscious Mind's ``cite``). Events the rules cause (a Freud
``move`` of the face line) are not counted.

A **rung** is one population of players: the scripted field (the report's runs) and each mirror of a stronger player
in a ``meeplelab stronger`` folder (``mirror-Pp``: every seat the tuned heuristic), labelled by its strategy. Per
action and rung: the share of seat-games in which the seat took the action at least once (Wilson 95% interval, ``n``
seat-games) and the mean times per seat-game, pooled over player counts and per player count.

**Falls toward zero** (the flag): at the strongest rung the share's upper bound is at most :data:`FALL` of the
scripted rung's lower bound ("strong players never Abjure: 0 of 7,200 seat-games [0.0, 0.1]"). The stronger-players
study forces each flagged action that restricted play can force (``STRONG+force:X`` at the first chance, and at the
game's documented threshold, ``GameSpec.force_at``) against the unrestricted strong player on common seeds
(:mod:`meeplelab.studies.mechanics`); its figures are read here from ``stronger.json`` (key ``mechanics``): forcing it
costs (**a trap**: the strong players are right to skip it) or pays (**a blind spot** of the strong players).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
from meeplelab.sim.registry import get_game_class, get_spec

from . import figures as F
from .labels import label, strategy
from .load import Runs, load_runs
from .page import Section, TableFormat
from .rungs import rung_folder
from .stats import wilson

#: the rung of the report's own runs
SCRIPTED = "scripted field"
#: a flag when the strongest rung's upper bound is at most this share of the scripted rung's lower bound
FALL = 1 / 3
#: the key of the forced-play figures in ``stronger.json``
KEY = "mechanics"
#: the columns of :func:`use_table` (also of its empty answer: a game whose spec names no decision log)
USE_SCHEMA = {"rung": pl.String, "players": pl.Int64, "source": pl.String, "action": pl.String, "used": pl.Int64,
              "n": pl.Int64, "share": pl.Float64, "low": pl.Float64, "high": pl.Float64, "per_game": pl.Float64}


def decision_counts(runs: Runs, log: tuple[str, ...]) -> pl.DataFrame:
    """Times each seat chose each action: ``[run, game, seat, source, action, times]``, one row per (seat-game,
    action) taken at least once. ``log``: the game's ``decision_log`` entries (``"turns:COLUMN"``,
    ``"events:KIND"``); an entry whose column the runs lack is skipped."""
    frames = []
    tcols, ecols = runs.turns.collect_schema(), runs.events.collect_schema()
    for entry in log:
        table, _, name = entry.partition(":")
        key = ["run", "game", "seat"]
        if table == "turns" and name in tcols:
            f = (runs.turns.group_by(key + [name], maintain_order=True).agg(pl.len().alias("times"))
                 .select(*key, pl.lit(name).alias("source"), pl.col(name).cast(pl.String).alias("action"), "times"))
        elif table == "events" and "kind" in ecols:
            f = (runs.events.filter(pl.col("kind").cast(pl.String) == name).group_by(key, maintain_order=True)
                 .agg(pl.len().alias("times"))
                 .select(*key, pl.lit("events").alias("source"), pl.lit(name).alias("action"), "times"))
        else:
            continue
        frames.append(f.with_columns(pl.col("seat").cast(pl.Int8), pl.col("times").cast(pl.Int64)).collect())
    if not frames:
        return pl.DataFrame(schema={"run": pl.String, "game": pl.Int64, "seat": pl.Int8, "source": pl.String,
                                    "action": pl.String, "times": pl.Int64})
    return pl.concat(frames)


def actions(game: str) -> list[tuple[str, str]]:
    """``[(source, action)]`` of ``game``'s decision log, every value of a logged turn column's vocabulary (so an
    action no one took is a row with 0) except ``none`` (a turn that chose nothing there)."""
    cols = {c.name: c for c in get_game_class(game).turn_columns}
    out = []
    for entry in get_spec(game).decision_log:
        table, _, name = entry.partition(":")
        if table == "turns":
            out += [(name, v) for v in (cols[name].vocab or ()) if v != "none"]
        else:
            out.append(("events", name))
    return out


def use_table(rungs: dict[str, Runs]) -> pl.DataFrame:
    """Use of every action per rung: ``[rung, players, source, action, used, n, share, low, high, per_game]``.

    Args:
        rungs: ``{rung label: runs}`` in order of skill (weakest first), all of one game.

    Returns:
        one row per (rung, player count, action) and one pooled row per (rung, action) with ``players`` 0;
        ``used`` seat-games in which the seat took the action, ``n`` seat-games, ``share`` (``low``, ``high``: Wilson
        95%) in [0, 1], ``per_game`` the mean times per seat-game.
    """
    rows = []
    for rung, runs in rungs.items():
        game = next(iter(runs.game_names))
        players = (pl.col("players") if "players" in runs.games.collect_schema()
                   else pl.len().over("run", "game"))  # a games table without the player count: its seats per game
        seats = runs.games.select("run", "game", pl.col("seat").cast(pl.Int8),
                                  players.cast(pl.Int64).alias("players")).collect()
        took = decision_counts(runs, get_spec(game).decision_log).join(seats, on=["run", "game", "seat"])
        for p in [0] + sorted(set(seats["players"].to_list())):
            n = seats.height if p == 0 else int((seats["players"] == p).sum())
            sub = took if p == 0 else took.filter(pl.col("players") == p)
            agg = {(r["source"], r["action"]): r for r in sub.group_by("source", "action").agg(
                pl.len().alias("used"), pl.col("times").sum().alias("times")).iter_rows(named=True)}
            for src, act in actions(game):
                r = agg.get((src, act), {"used": 0, "times": 0})
                s, lo, hi = wilson(int(r["used"]), n)
                rows.append({"rung": rung, "players": p, "source": src, "action": act, "used": int(r["used"]), "n": n,
                             "share": float(s), "low": float(lo), "high": float(hi),
                             "per_game": int(r["times"]) / n if n else float("nan")})
    return pl.DataFrame(rows, schema=USE_SCHEMA)


def trends(table: pl.DataFrame) -> pl.DataFrame:
    """Per action (pooled rows of :func:`use_table`), the first rung against the last: ``[source, action, first,
    last, trend, flag]``; ``trend`` is ``falls toward zero`` (``flag`` true: the last rung's upper bound at most
    :data:`FALL` of the first's lower bound), ``falls``/``rises`` (intervals apart) or ``steady``."""
    pooled = table.filter(pl.col("players") == 0)
    names = list(dict.fromkeys(pooled["rung"].to_list()))
    if not names:  # no action logged (a game whose spec names no decision log): no trend
        return pl.DataFrame(schema={"source": pl.String, "action": pl.String, "trend": pl.String, "flag": pl.Boolean})
    a = pooled.filter(pl.col("rung") == names[0])
    b = pooled.filter(pl.col("rung") == names[-1]).select("source", "action", *[pl.col(c).alias(f"{c}_last") for c in
                                                                                 ("used", "n", "share", "low", "high")])
    j = a.join(b, on=["source", "action"], how="left", maintain_order="left")
    flag = (len(names) > 1) & (pl.col("used") > 0) & (pl.col("high_last") <= FALL * pl.col("low"))
    trend = (pl.when(flag).then(pl.lit("falls toward zero"))
             .when(pl.col("high_last") < pl.col("low")).then(pl.lit("falls"))
             .when(pl.col("low_last") > pl.col("high")).then(pl.lit("rises")).otherwise(pl.lit("steady")))
    return j.with_columns(trend.alias("trend"), flag.fill_null(False).alias("flag"))


def stronger_rungs(stronger: Path | str | None) -> dict[str, list[Path]]:
    """``{strategy id: [mirror run folders]}`` of a ``meeplelab stronger`` folder (its ``mirror-Pp`` runs grouped by
    the player they mirror), weakest rung first: the lower rungs' mirrors (``rung-<label>/mirror-Pp``, in the
    study's order of rungs), then the strongest rung's; empty without one."""
    out: dict[str, list[Path]] = {}
    if stronger is None:
        return out
    try:
        labels = [r["label"] for r in json.loads((Path(stronger) / "stronger.json").read_text()).get("rungs") or []]
    except (OSError, json.JSONDecodeError, KeyError, TypeError):
        labels = []
    lower = [f for lab in labels[:-1] for f in sorted((Path(stronger) / rung_folder(lab)).glob("mirror-*p"))]
    for f in lower + sorted(Path(stronger).glob("mirror-*p")):
        try:
            sid = json.loads((f / "manifest.json").read_text())["config"]["strategies"][0]
        except (OSError, KeyError, IndexError, json.JSONDecodeError):
            continue  # not a finished run folder: the study's own check names it
        out.setdefault(sid, []).append(f)
    return out


def _cell(r: dict) -> str:
    return f"{100 * r['share']:.1f} [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def wide(table: pl.DataFrame, game: str, players: int = 0) -> pl.DataFrame:
    """The section's table: one row per action, per rung its share of seat-games (percent [95%]), its seat-games
    (n) and times per seat-game."""
    sub = table.filter(pl.col("players") == players)
    keys = sub.filter(pl.col("rung") == sub["rung"][0]).select("source", "action")
    out = keys.with_columns(pl.col("action").map_elements(lambda a: label(game, a) or a, return_dtype=pl.String),
                            pl.col("source").alias("logged as")).select("action", "logged as")
    for rung in dict.fromkeys(sub["rung"].to_list()):
        r = keys.join(sub.filter(pl.col("rung") == rung), on=["source", "action"], how="left", maintain_order="left")
        out = out.with_columns(pl.Series(f"{rung}: % of seat-games", [_cell(x) for x in r.iter_rows(named=True)]),
                               pl.Series(f"{rung}: seat-games", r["n"].to_list()),
                               pl.Series(f"{rung}: per game", r["per_game"].to_list()))
    return out


def _words(d: dict, places: int = 1, unit: str = "") -> str:
    return f"{d['est']:+.{places}f}{unit} [{d['low']:+.{places}f}, {d['high']:+.{places}f}]"


def forced_line(c: dict) -> str:
    """One forced-play check in words: the restriction, its win rate against the base rate, the paired win and VP
    differences, games, and the word (a trap, a blind spot, not resolved)."""
    w = c["forced"]
    return (f"`{c['restriction']}` at {c['players']} seats: win rate {100 * w['est']:.1f}% [{100 * w['low']:.1f}, "
            f"{100 * w['high']:.1f}] (base rate {100 * c['base']:.1f}%, the unrestricted player in the same seats on "
            f"the same seeds), win rate {_words(c['win_diff'])} points, VP {_words(c['vp_diff'], 2)} "
            f"({c['games']:,} games; the forced seat took it in {100 * c['took']:.0f}% of them): **{c['word']}**.")


def _flag_line(t: dict, first: str, last: str, game: str) -> str:
    name = label(game, t["action"]) or t["action"]
    how = "never" if t["used_last"] == 0 else "rarely"
    return (f"FLAG strong players {how} take {name}: {t['used_last']:,} of {t['n_last']:,} seat-games of the {last} "
            f"({100 * t['share_last']:.1f}% [{100 * t['low_last']:.1f}, {100 * t['high_last']:.1f}]) against "
            f"{t['used']:,} of {t['n']:,} ({_cell(t).replace(' ', '% ', 1)}) for the {first}.")


def mechanics_section(runs: Runs, stronger: Path | str | None) -> Section:
    """The report section "Mechanics by skill" of ``runs`` (the scripted field) and the mirrors and forced-play
    checks of the ``meeplelab stronger`` folder ``stronger`` (None: the scripted rung only, and how to add the
    others). Tables: the pooled use per rung, the flagged actions per player count, the forced-play checks."""
    game = next(iter(runs.game_names))
    if not actions(game):  # nothing to count: the section says so, with no table or chart
        return Section("Mechanics by skill", f"Not measured: the spec of {game} names no decision log "
                       "(`GameSpec.decision_log`: where the log records the players' own choices).")
    rungs = {SCRIPTED: runs}
    for sid, folders in stronger_rungs(stronger).items():
        rungs[re.sub(r" \(.*\)$", "", strategy(game, sid) or sid)] = load_runs(folders)  # "Tuned heuristic"
    table = use_table(rungs)
    t = trends(table)
    names = list(rungs)
    flagged = t.filter(pl.col("flag"))
    cols = wide(table, game).columns
    # the page shows each rung's share and times per game (its seat-games are in the table's CSV)
    fmt = TableFormat(rank=None, decimals={c: 2 for c in cols if c.endswith("per game")},
                      show=tuple(["players"] + [c for c in cols if not c.endswith(": seat-games")] + ["trend"]))
    caption = ("Share of seat-games in which the seat took each action, by rung (percent, 95% Wilson), and times per "
               "seat-game (each rung's seat-games in the CSV)")
    tables = [(caption, wide(table, game).with_columns(t["trend"].alias("trend")), fmt)]
    lines = [_flag_line(r, SCRIPTED, names[-1], game) for r in flagged.iter_rows(named=True)]
    if flagged.height:  # the flagged actions per player count
        sub = table.join(flagged.select("source", "action"), on=["source", "action"], maintain_order="left")
        per = [wide(sub, game, p).select(pl.lit(p).alias("players"), pl.all())
               for p in sorted(set(table["players"].to_list()) - {0})]
        tables.append(("Flagged actions per player count", pl.concat(per), fmt))
    forced = (json.loads((Path(stronger) / "stronger.json").read_text()).get(KEY) or []) if stronger else []
    lines += [forced_line(c) for c in forced]
    if stronger is None:
        text = ("Use among the scripted field only. `meeplelab stronger ... --out STRONG` then `meeplelab report ... "
                "--stronger STRONG` adds the strong players' mirrors as a rung, and forces what they skip.")
    elif len(names) > 1 and not flagged.height:
        text = f"No action's use falls toward zero from the {SCRIPTED} to the {names[-1]}."
    else:
        text = "" if forced else "No flagged action was forced (the study predates the check or none can be forced)."
    intro = ("Counted from the players' own choices (the turns' chosen actions and the events a choice writes). "
             f"Flag: the strongest rung's upper bound at most {FALL:.0%} of the {SCRIPTED}'s lower bound. Forced: "
             "the strong player made to take the action against itself unrestricted on common seeds in rotated seats; "
             "**a trap** when forcing it costs, **a blind spot** when it pays.")
    fig = F.mechanics_chart(table.filter(pl.col("players") == 0), lambda a: label(game, a) or a)
    return Section("Mechanics by skill", "\n".join([intro] + [f"- {x}" for x in lines] + ([text] if text else [])),
                   [("mechanics_by_skill", fig, "Share of seat-games taking each action, by rung (95% Wilson)")], tables)


__all__ = ["FALL", "KEY", "SCRIPTED", "USE_SCHEMA", "actions", "decision_counts", "forced_line", "mechanics_section",
           "stronger_rungs", "trends", "use_table", "wide"]
