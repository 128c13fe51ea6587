"""``meeplelab balance --retune BUDGET``: a balance proposal re-checked with players who adapt to it.

A balance search measures its targets among fixed players: the proposal fixes the seat spread for the plans as
written, not for players who would change their play under the new rules. With ``--retune BUDGET``, once the
search has a proposal (not the defaults), every rotated field it measured (panel ``field-P``) is played by
**re-tuned players** under each of the two rule sets: every tunable entry of the field (a strategy with arguments
to search, :func:`meeplelab.studies.retune.tunable`) is tuned with the ``tune`` machinery (Optuna TPE, ``BUDGET``
games, a held-out check) against the other entries, once under the defaults and once under the proposal, on the
search seeds; then, on the re-check's fresh seeds:

- the targets are measured four ways (defaults or proposal, players fixed or re-tuned), each with its 95%
  bootstrap interval (:func:`meeplelab.studies.balance.bootstrap`): does the proposal still meet its targets once
  the players re-tune? A target read from a panel that is not a rotated field (a scripted plan's conclusion) is
  not re-measured, and says so;
- the side effects are given twice (:func:`meeplelab.analysis.retune.effects`): each field entry's win rate and
  VP, proposal minus defaults, with the players fixed (the side-effect runs) and re-tuned (the re-tuned runs in
  ``side_effects/retuned/<panel>-<version>/run``, the same fresh seeds and seat orders), with holds / changes /
  reverses.

Writes ``retuned.parquet`` (the targets), ``retuned_effects.parquet`` and ``.csv``, and one record per field
``side_effects/retuned-<panel>.json``; the balance report shows both in "Players fixed and players re-tuned".
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Callable

import polars as pl

from meeplelab.sim.core.errors import ConfigError

from .balance_fields import SIDE, bootstrap, field_configs
from .retune import check as check_field, FOLDER, run_retuned
from .robustness import evaluate_lineups
from meeplelab.analysis.retune import effects, play_changes
from meeplelab.analysis.tables import write_table
from meeplelab.play import runfolder as rf
from meeplelab.sim.plausible import format_value
from meeplelab.strategies.registry import parse_id, strategies_for

#: the targets measured four ways (rules x players) on the fresh seeds
TARGETS = "retuned.parquet"
#: each field entry's effect of the proposal, players fixed and re-tuned
EFFECTS = "retuned_effects"
#: what changed in the re-tuned players' play, defaults against proposal (:func:`meeplelab.analysis.retune.play_changes`)
PLAY = "retuned_play"
#: games per lineup per trial of each re-tuning (as ``sweep --retune``)
GAMES_PER_TRIAL = 25


def _kept_defaults(game: str, sid: str, preset: Path) -> bool:
    """Whether the tuning of ``sid`` wrote its own default arguments (no candidate did better on the search seeds:
    the re-tuned player plays as the fixed one)."""
    import tomllib

    name, fixed = parse_id(sid)
    info = next(i for i in strategies_for(game) if i.name == name)
    args = tomllib.loads(preset.read_text()).get("args", {})
    try:
        was = {k: fixed[k] if k in fixed else info.args[k].default for k in args}
        return all(was[k] is not None and abs(float(v) - float(was[k])) < 1e-9 for k, v in args.items())
    except (KeyError, TypeError, ValueError):  # an argument it cannot compare: say nothing
        return False


def check(game: str, lineups, budget: int, games_per_lineup: int, par: dict) -> None:
    """Every check of ``--retune BUDGET`` before any game is played (0: players fixed, nothing to check).

    Raises:
        ConfigError: a negative budget; no rotated field among the panels the targets read (nothing to re-tune:
            a conclusion of scripted plans only); or, for a field, what :func:`meeplelab.studies.retune.check`
            refuses (nothing tunable in it, naming the field and what is allowed; a budget below two trials).
    """
    if budget < 0:
        raise ConfigError(f"--retune {budget}: allowed 0 (players fixed) or the games of each re-tuning")
    if not budget:
        return
    fields = field_configs(game, lineups, {}, games_per_lineup, 0, par, Path("."), "defaults")
    if not fields:
        raise ConfigError("--retune: the targets read no rotated field (field-P), so there are no players to "
                          "re-tune; give a seat-spread, strategy-excess or length target")
    for panel, base in fields:
        try:
            check_field(base, budget, GAMES_PER_TRIAL)
        except ConfigError as e:
            text = str(e).replace("of --strategies (", f"of the rotated field {panel} (").replace(
                "in --strategies,", f"in the rotated field {panel},")
            hint = ("; --strategies names tunable players (e.g. a heuristic among them)"
                    if "arguments to tune" in text else "")
            raise ConfigError(text + hint) from None


def run(out: Path, game: str, cls, fixed: dict, params: dict, lineups, targets, games_per_lineup: int,
        fresh_seed: int, tune_seed: int, budget: int, par: dict, *, progress_bar: bool = False,
        say: Callable[[str], None] | None = None, recheck: dict | None = None) -> dict:
    """Re-tune every measured rotated field under the defaults and the proposal, then measure the targets and the
    side effects both ways (module docstring).

    Args:
        fixed: the ``--set`` values (the defaults of the comparison); ``params``: the proposal's rule numbers.
        lineups: the lineups the search measured; ``targets``: its :class:`meeplelab.studies.balance.Target` list.
        games_per_lineup: games per lineup of the re-check (``[games x recheck_factor]``).
        fresh_seed: the re-check's run seed (the measurement); ``tune_seed``: the search's (the tunings).
        budget: games of each re-tuning (one per tunable entry, field and rule set).
        recheck: the proposal's re-check row (its targets on the same fresh seeds, lineups and games with the
            players fixed): those four figures are read from it instead of being played again.

    Returns:
        ``{"budget", "fields": {panel: {"tuned": [entries], "defaults": {entry: preset id}, "proposal": {...}}},
        "met", "met_interval", "measured"}``: the targets the proposal meets with re-tuned players (point estimate,
        whole interval) out of the ``measured`` ones.

    Raises:
        ConfigError: see :func:`check`.
    """
    say = say or (lambda s: None)
    text = lambda d: {k: format_value(v) for k, v in d.items()}  # noqa: E731
    side = Path(out) / SIDE
    if (side / FOLDER).is_dir():
        shutil.rmtree(side / FOLDER)  # re-tuned from scratch (a resumed search re-tunes too)
    fields, kept = _retune_fields(out, game, lineups, text(fixed), text(params), games_per_lineup, fresh_seed,
                                  tune_seed, budget, par, progress_bar=progress_bar, say=say)
    measured = {t.text for t in targets if all(p in fields for p in t.panels)}
    rows = _target_rows(cls, fixed, params, lineups, targets, fields, measured, games_per_lineup, fresh_seed, par,
                        say=say, recheck=recheck)
    tab = pl.DataFrame(rows, schema={"target": pl.String, "rules": pl.String, "players": pl.String,
                                     "value": pl.Float64, "low": pl.Float64, "high": pl.Float64, "met": pl.Boolean,
                                     "met_interval": pl.Boolean})
    write_table(tab, Path(out) / TARGETS)
    tuned = tab.filter((pl.col("rules") == "proposal") & (pl.col("players") == "re-tuned") & pl.col("met").is_not_null())
    return {"budget": budget, "games_per_trial": GAMES_PER_TRIAL, "fields": fields, "measured": len(measured),
            "kept_defaults": kept,
            "met": int(tuned["met"].sum()), "met_interval": int(tuned["met_interval"].sum())}


def _retune_fields(out: Path, game: str, lineups, fixed: dict, params: dict, games_per_lineup: int,
                   fresh_seed: int, tune_seed: int, budget: int, par: dict, *, progress_bar: bool,
                   say: Callable[[str], None]) -> tuple[dict, list[str]]:
    """Every measured rotated field re-tuned under the defaults (``fixed``) and the proposal (``params``, both as
    text values) and played both ways under ``out``/side_effects; writes the effects and play-change tables
    (Parquet and CSV). Returns (per field: the tuned entries and the preset each got per rule set; the tunings
    whose best candidate was the strategy's own defaults, as text)."""
    side = Path(out) / SIDE
    fields: dict[str, dict] = {}
    frames, plays = [], []
    kept: list[str] = []  # tunings whose best candidate was the strategy's own defaults
    for panel, base in field_configs(game, lineups, fixed, games_per_lineup, fresh_seed, par, Path(out),
                                     "defaults"):
        meta = run_retuned(base, [{}, params], [f"{panel}-defaults", f"{panel}-proposal"], side, budget,
                           games_per_trial=GAMES_PER_TRIAL, progress=progress_bar, say=say, tune_seed=tune_seed,
                           file=f"retuned-{panel}.json", fresh=False)
        roster, pos = meta["roster"], meta["positions"]
        fields[panel] = {"tuned": [roster[i] for i in pos],
                         **{name: {roster[i]: v["strategies"][i] for i in pos}
                            for name, v in zip(("defaults", "proposal"), meta["variants"])}}
        for name, v in zip(("defaults", "proposal"), meta["variants"]):
            for i in pos:
                if _kept_defaults(game, roster[i], side / v["presets"][str(i)]):
                    kept.append(f"{roster[i]} in {panel} under the {name}")
        e = effects(side, file=f"retuned-{panel}.json")
        if e.height:
            frames.append(e.with_columns(pl.lit(panel).alias("field")).select("field", *e.columns))
        pc = play_changes(side, file=f"retuned-{panel}.json")
        if pc.height:
            plays.append(pc.with_columns(pl.lit(panel).alias("field")).select("field", *pc.columns))
    eff = pl.concat(frames) if frames else pl.DataFrame()
    write_table(eff, Path(out) / f"{EFFECTS}.parquet")
    rf.write_atomic(Path(out) / f"{EFFECTS}.csv", eff.write_csv().encode())
    play = pl.concat(plays) if plays else pl.DataFrame()
    write_table(play, Path(out) / f"{PLAY}.parquet")
    rf.write_atomic(Path(out) / f"{PLAY}.csv", play.write_csv().encode())
    return fields, kept


def _target_rows(cls, fixed: dict, params: dict, lineups, targets, fields: dict, measured: set, games_per_lineup: int,
                 fresh_seed: int, par: dict, *, say: Callable[[str], None], recheck: dict | None) -> list[dict]:
    """The targets under the defaults and the proposal, with the players fixed and re-tuned (``fields`` from
    :func:`_retune_fields`), on the fresh seeds; the proposal with fixed players is read from ``recheck`` when
    given. Returns one row per (rules, players, target): value, low, high, met, met_interval (None for a
    target not ``measured``)."""
    rows = []
    for version, rules in (("defaults", fixed), ("proposal", params)):
        for players in ("fixed", "re-tuned"):
            if version == "proposal" and players == "fixed" and recheck is not None:  # played by the re-check
                for t in targets:
                    v, lo, hi = ((recheck[t.text], recheck[t.text + " low"], recheck[t.text + " high"])
                                 if t.text in measured else (None, None, None))
                    rows.append({"target": t.text, "rules": version, "players": players, "value": v, "low": lo,
                                 "high": hi, "met": None if v is None else t.excess(v) == 0,
                                 "met_interval": None if v is None else max(t.excess(lo), t.excess(hi)) == 0})
                continue
            lus = [lu for lu in lineups if lu.panel in fields]
            if players == "re-tuned":
                lus = [dataclasses.replace(lu, strategies=tuple(fields[lu.panel][version].get(s, s)
                                                                for s in lu.strategies)) for lu in lus]
            say(f"targets under the {version} with the players {players} ({games_per_lineup:,} games per lineup)")
            g = evaluate_lineups(cls, rules, lus, games_per_lineup, fresh_seed, **par)
            for t in targets:
                if t.text not in measured:
                    rows.append({"target": t.text, "rules": version, "players": players, "value": None, "low": None,
                                 "high": None, "met": None, "met_interval": None})
                    continue
                v = t.value(g)
                lo, hi = bootstrap(g, t, seed=fresh_seed)
                rows.append({"target": t.text, "rules": version, "players": players, "value": v, "low": lo,
                             "high": hi, "met": t.excess(v) == 0, "met_interval": max(t.excess(lo), t.excess(hi)) == 0})
    return rows


__all__ = ["EFFECTS", "PLAY", "TARGETS", "check", "run"]
