"""Restricted-play answers to an experiment's scripted questions: the rows and the experiment report's section.

An experiment of the README main job asks a question with scripted focal plans ("when does Abjure pay?":
``abjure-at:cycle=N`` against ``never-abjure``; "does citing pay?": ``citer`` against ``never-cite``; "what is a
Coffee worth?": ``coffee-engine`` with one more start Coffee against it without). ``meeplelab stronger`` asks the
same question of the strong player (:mod:`meeplelab.studies.restricted_questions`): the strong player **restricted**
to the behaviour (``+never:ACTION``, ``+force:ACTION@CONDITION``; docs/strategies.md "Restricted play") or given
the same treatment, against the same strong player under the control's restriction, in one seat of four strong
players, every seat in turn, on common game seeds (Jaffe et al., AIIDE 2012).

Each game declares the translation of its scripted focal plans in its per-game analysis module (the module its spec
names as ``sections``): ``RESTRICTED = {regex: (suffix, ...)}``, a scripted strategy id matched whole -> the
restriction suffixes asking the same question of the strong player (``""``: unrestricted; named groups fill the
suffixes: ``abjure-at:cycle=(?P<cycle>\\d+)`` -> ``force:abjure@cycle=={cycle}``).

Each row (:func:`answer`): the arm's focal win rate (Wilson 95%, over its seat-games) beside the fair share
(100 / players), the paired win-rate and VP differences against the control (the same seat of the control game on the
same game seed; Agresti-Min for win shares, Student t for VP, both over the game seeds), ``n`` the paired seat-games,
and **changed**: the share of paired games whose turns differ between the two arms (a restriction that never binds
plays the control's games exactly, since narrowing draws no random number: changed 0%, every difference exactly 0).
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import polars as pl
from meeplelab.sim.core.errors import RunFolderError
from meeplelab.sim.registry import get_spec

from . import figures as F
from .first_screen import Panel
from .labels import words
from .load import load_runs
from .page import Section, TableFormat
from .stats import mean_t, paired_shares, wilson

#: the key of the restricted-play answers in ``stronger.json``
KEY = "restricted"
#: the section's title in an experiment report
TITLE = "Asked by restricted play (tuned heuristic)"


def translation(game: str) -> dict[str, tuple[str, ...]]:
    """``RESTRICTED`` of ``game``'s per-game analysis module (module docstring); empty when it declares none."""
    mod = get_spec(game).sections
    if mod is None:
        return {}
    return dict(getattr(importlib.import_module(mod), "RESTRICTED", {}))


def translate(game: str, strategy: str) -> tuple[str, ...] | None:
    """The restriction suffixes asking scripted focal strategy ``strategy`` of the strong player, or None when
    ``game`` declares no translation for it (``"abjure-at:cycle=2"`` -> ``("force:abjure@cycle==2",)``)."""
    for pattern, suffixes in translation(game).items():
        m = re.fullmatch(pattern, strategy)
        if m is not None:
            return tuple(s.format(**m.groupdict()) for s in suffixes)
    return None


def _game_keys(folder: Path) -> pl.DataFrame:
    """``game, key``: per game of run ``folder`` a hash of its turns rows (every logged column but the run and the game's
    index, in ply order)."""
    t = load_runs([folder]).turns.collect()
    cols = [c for c in t.columns if c not in ("run", "game")]  # the game's index differs between runs
    h = t.sort("game", "ply").select("game", pl.struct(cols).hash(seed=0).alias("h"))
    per = h.group_by("game", maintain_order=True).agg("h")
    return pl.DataFrame({"game": per["game"], "key": [hash(tuple(x)) for x in per["h"].to_list()]},
                        schema={"game": pl.Int64, "key": pl.Int64})


def focal_games(folder: Path | str, seat: int | None = None) -> pl.DataFrame:
    """``game_seed, seat, vp, win_share, key``: the focal seat-games of run ``folder``: seat ``seat`` (0-based), or
    (None) the seat whose strategy id carries a restriction (``+never:`` / ``+force:``); ``key`` the game's turns hash
    (:func:`_game_keys`). Without ``seat`` and without a restricted seat: every seat-game (an unrestricted mirror)."""
    folder = Path(folder)
    g = load_runs([folder]).games.collect()
    if seat is not None:
        g = g.filter(pl.col("seat") == seat)
    elif g["strategy"].str.contains(r"\+(never|force):").any():
        g = g.filter(pl.col("strategy").str.contains(r"\+(never|force):"))
    g = g.join(_game_keys(folder), on="game", how="left")
    return g.select("game_seed", pl.col("seat").cast(pl.Int64), pl.col("vp").cast(pl.Float64), "win_share", "key")


def _ci(est: float, low: float, high: float, n: int) -> dict:
    return {"est": float(est), "low": float(low), "high": float(high), "n": int(n)}


def answer(arm: pl.DataFrame, control: pl.DataFrame, players: int) -> dict:
    """One row: the ``arm`` focal seat-games (:func:`focal_games`) against the same seat of the ``control`` game on
    the same game seed (module docstring).

    Returns:
        ``{n, win, fair, control_win, win_diff, vp_arm, vp_control, vp_diff, changed}``: ``win`` the arm's win rate
        and ``changed`` the share of paired games that differ, ``{est, low, high, n}`` in percent (Wilson 95%);
        ``fair`` 100 / players; ``control_win`` percent; ``win_diff`` percentage points and ``vp_diff`` VP, paired
        ``{est, low, high, n}`` over the game seeds; ``vp_arm``, ``vp_control`` mean VP.

    Raises:
        RunFolderError: an arm seat-game without its control game (the runs do not share game seeds).
    """
    j = arm.join(control, on=["game_seed", "seat"], how="left", suffix="_c")
    if j.height == 0 or j["vp_c"].null_count():
        raise RunFolderError(f"{j['vp_c'].null_count() if j.height else 'all'} restricted seat-games have no control "
                             "game on the same game seed and seat: the runs were not played on common seeds")
    seeds = j["game_seed"].to_numpy()
    w = paired_shares(j["win_share"].to_numpy(), j["win_share_c"].to_numpy(), cluster=seeds)
    d, lo, hi = mean_t((j["vp"] - j["vp_c"]).to_numpy(), cluster=seeds, res=1.0)
    r, rl, rh = wilson(float(j["win_share"].sum()), j.height)
    ch = int((j["key"] != j["key_c"]).sum())
    c, cl, chh = wilson(ch, j.height)
    return {"n": j.height, "win": _ci(r * 100, rl * 100, rh * 100, j.height), "fair": 100.0 / players,
            "control_win": float(j["win_share_c"].mean()) * 100,
            "win_diff": _ci(w["est"] * 100, w["low"] * 100, w["high"] * 100, w["n"]),
            "vp_arm": float(j["vp"].mean()), "vp_control": float(j["vp_c"].mean()),
            "vp_diff": _ci(d, lo, hi, j.height), "changed": _ci(c * 100, cl * 100, chh * 100, j.height),
            "changed_games": ch}


def _iv(x: dict | None, dec: int = 1) -> str:
    if not x:
        return ""
    return f"{x['est']:+.{dec}f} [{x['low']:.{dec}f}, {x['high']:.{dec}f}]"


#: the table's columns in words
LABELS = {"scripted": "scripted arm", "scripted_win": "scripted win pts", "scripted_vp": "scripted VP",
          "player": "strong player", "against": "against", "win": "win rate % (Wilson 95%)", "fair": "fair share %",
          "win_diff": "win pts (paired)", "vp_diff": "VP (paired)", "n": "seat-games", "changed": "games changed %"}


def rows_table(entry: dict) -> pl.DataFrame:
    """The rows of one experiment's answers (``entry``: an item of ``stronger.json["restricted"]``) as a table:
    the scripted arm and its paired effects beside the restricted-play row that asks it (headers: :data:`LABELS`)."""
    out = []
    for r in entry["rows"]:
        w = r["win"]
        out.append({"scripted": r["scripted"], "scripted_win": _iv(r.get("scripted_win")),
                    "scripted_vp": _iv(r.get("scripted_vp"), 2), "player": r["label"], "against": r["against"],
                    "win": f"{w['est']:.1f} [{w['low']:.1f}, {w['high']:.1f}]", "fair": round(r["fair"], 1),
                    "win_diff": _iv(r["win_diff"]), "vp_diff": _iv(r["vp_diff"], 2), "n": r["n"],
                    "changed": round(r["changed"]["est"], 1)})
    return pl.DataFrame(out)


def answer_line(r: dict) -> str:
    """One row of :func:`answer` (with its ``label``, ``against``, ``scripted``...) in a sentence."""
    v, w = r["vp_diff"], r["win_diff"]
    if r["changed_games"] == 0:
        return (f"{r['label']} against {r['against']}: the restriction changed no decision in {r['n']:,} seat-games "
                "(the same games; every difference 0).")
    return (f"{r['label']} against {r['against']}: win rate {r['win']['est']:.1f}% [{r['win']['low']:.1f}, "
            f"{r['win']['high']:.1f}] (fair share {r['fair']:.0f}%), {w['est']:+.1f} points [{w['low']:.1f}, "
            f"{w['high']:.1f}], VP {v['est']:+.2f} [{v['low']:.2f}, {v['high']:.2f}] paired over {r['n']:,} "
            f"seat-games; {r['changed']['est']:.1f}% of the games changed"
            + (f" (asks {r['scripted']}: {_iv(r['scripted_win'])} points, {_iv(r['scripted_vp'], 2)} VP)."
               if r.get("scripted_win") else "."))


def _entry(stronger: Path, experiment: Path) -> dict | None:
    """The answers of ``experiment`` in the stronger study ``stronger`` (matched by the experiment's absolute path,
    else by its folder name when one entry has it), or None.

    Raises:
        RunFolderError: ``stronger`` holds no finished stronger-players study.
    """
    f = Path(stronger) / "stronger.json"
    try:
        d = json.loads(f.read_text())
    except (OSError, ValueError):
        raise RunFolderError(f"--stronger {str(stronger)!r}: no readable stronger.json: run meeplelab stronger "
                             "--from the experiment first") from None
    if d.get("status") != "complete":
        raise RunFolderError(f"--stronger {str(stronger)!r}: the study is {d.get('status')}, not complete: "
                             "complete it with meeplelab stronger --resume")
    me, entries = Path(experiment).resolve(), d.get(KEY) or []
    exact = [e for e in entries if e["source_path"] == str(me)]
    named = [e for e in entries if e["source"] == me.name]  # the folders moved together (a copied runs/ folder)
    return exact[0] if exact else named[0] if len(named) == 1 else None


def section(stronger: Path | str, experiment: Path | str) -> Section:
    """The experiment report's section :data:`TITLE`: the restricted-play rows of ``experiment`` from the stronger
    study in ``stronger``, or why there are none.

    Raises:
        RunFolderError: as :func:`_entry`.
    """
    e = _entry(Path(stronger), Path(experiment))
    if e is None:
        return Section(TITLE, f"Not asked: the stronger study {str(stronger)!r} has no restricted-play answers for "
                       "this experiment (its game declares no translation of the arms, or the study did not read it "
                       "with --from).")
    text = [(f"The same question asked of {e['strong_words']}: the strong player restricted to the behaviour (or given "
            "the same treatment) in one seat of "
            f"{e['players']} strong players, every seat in turn, against the same player under the control's "
            f"restriction ({e['control']['label']}) on the same game seeds, {e['games']:,} games per arm (Jaffe et "
            "al., AIIDE 2012). Win rate: Wilson 95% over the seat-games, beside the fair share; differences paired "
            "game by game over the game seeds (Agresti-Min, t); games changed: share of paired games whose turns "
            "differ (a restriction that never binds plays the control's games exactly). The scripted columns are "
            "this report's paired effects of the arm the row asks.")]
    text += [f"- {answer_line(r)}" for r in e["rows"]]
    game = json.loads((Path(experiment) / "experiment.json").read_text())["game"]
    panel = answer_panel(e, game)
    return Section(TITLE, "\n".join(text), [],
                   [("Scripted arms and the restricted-play rows that ask them (win in percent / points, VP in VP)",
                     rows_table(e), TableFormat(labels=LABELS))], panels=[panel] if panel else [], data={KEY: e})


def _resolved(r: dict) -> bool:
    return r["low"] > 0 or r["high"] < 0


def answer_panel(e: dict, game: str) -> Panel | None:
    """The first screen's panel of an experiment asked by restricted play: each arm's paired VP effect for the
    scripted plan and for the strong player restricted to it (a dot with its 95% interval per rung), and one line
    in words. None when no row asks a scripted arm."""
    rows = [r for r in e["rows"] if r.get("scripted_vp")]
    if not rows:
        return None
    who = str(e["strong_words"]).split(" (")[0].removeprefix("the ")
    df = pl.DataFrame({"arm": [words(game, r["scripted"]) for r in rows],
                       **{f"a_{k}": [r["scripted_vp"][k] for r in rows] for k in ("est", "low", "high")},
                       **{f"b_{k}": [r["vp_diff"][k] for r in rows] for k in ("est", "low", "high")}})
    fig = F.rungs_chart(df, "arm", [("a", "scripted plans"), ("b", f"{who} (restricted play)")],
                        title="The experiment's question at two rungs: VP effect of each arm",
                        xlabel="VP effect against the control, paired (95% interval)")
    strong = ", ".join(f"{words(game, r['scripted'])} {r['vp_diff']['est']:+.2f}" for r in rows)
    held = sum(_resolved(r["vp_diff"]) for r in rows)
    scripted = ", ".join(f"{r['scripted_vp']['est']:+.2f}" for r in rows)
    reading = (f"VP effect for the {who} restricted to each arm: {strong} ({held} of {len(rows)} resolved); for the "
               f"scripted plans: {scripted}.")
    return Panel(f"Asked of the {who}", reading, [("glance_restricted", fig, "VP effect of each arm for the scripted "
                                                   f"plans and for the {who} restricted to it, 95% intervals")], 5)


__all__ = ["KEY", "TITLE", "answer", "answer_line", "answer_panel", "focal_games", "rows_table", "section", "translate", "translation"]
