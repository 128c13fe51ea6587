"""The stronger-players check's figures and words, read by the balance report.

``meeplelab stronger`` (:mod:`meeplelab.studies.stronger`) writes ``OUT/stronger.json``; this module judges each
re-measured conclusion against its scripted-field figure (:func:`meeplelab.analysis.rungs.compare`), words it
(:func:`line`) and builds the report section "Does it hold for stronger players?" (:func:`section`), which every
balance report carries.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
from meeplelab.play.experiment import read_experiment
from meeplelab.sim.core.errors import RunFolderError

from .experiment import _games, effects, experiment_sections
from .focal import run_entry_games
from .labels import codes_in_words
from .page import Section, TableFormat
from .rungs import DEPENDS, EVERY, FLOOR, SCRIPTED_ONLY, compare, resolution_of, rung, rung_folder, skill, unit

FILE = "stronger.json"


def _places(unit: str) -> int:
    return 2 if unit == "VP" else 1


def _iv(r: dict, unit: str = "", places: int | None = None) -> str:
    n = _places(unit) if places is None else places

    def f(v: float) -> str:
        return f"{round(v, n) + 0.0:+.{n}f}"

    tail = f" {unit}" if unit == "VP" else ""
    return f"{f(r['est'])}{tail} [{f(r['low'])}, {f(r['high'])}]"


def resolution(c: dict) -> float:
    """The smallest difference check ``c``'s metric can show: a game's mean VP moves by 1/players VP when one
    seat gains one VP (``c["players"]``, else 4 seats); a win rate by one game of the smaller sample (points)."""
    if unit(c) == "VP":
        return resolution_of("VP", int(c.get("players") or 4))
    n = min(int(c["scripted"].get("n") or 0), int(c["strong"].get("n") or 0))
    return resolution_of("points", games=n) if n else 0.0


def judge(c: dict) -> dict:
    """Check ``c`` judged again from its numbers (:func:`compare` with the metric's :func:`resolution`); a focal
    experiment whose plan wins under :data:`FLOOR` percent in its control arm at either rung (``c["base"]``) is
    judged by its VP effect (``c["vp"]``) instead: ``floor`` is then set and ``verdict`` is the VP verdict."""
    c = dict(c)
    c["verdict"], c["difference"] = compare(c["scripted"], c["strong"], resolution(c))
    base, vp = c.get("base"), c.get("vp")
    if base and vp and min(base["scripted"]["est"], base["strong"]["est"]) < FLOOR:
        c["floor"] = True
        vp = dict(vp)
        vp["verdict"], vp["difference"] = compare(vp["scripted"], vp["strong"], resolution_of("VP", int(c.get("players") or 4)))
        c["vp"], c["verdict"] = vp, vp["verdict"]
    return c


def judge_ladder(c: dict) -> dict:
    """Check ``c`` (judged, :func:`judge`) with each lower rung's entry of ``c["ladder"]`` judged the same way
    against the scripted figure (its own base rate and VP effect when it has them): each entry gains ``verdict``
    and ``difference`` (and ``floor`` when read by VP)."""
    c = dict(c)
    out = []
    for e in c.get("ladder") or []:
        sub = {**c, "strong": e}
        sub.pop("floor", None)
        sub["base"] = {"scripted": c["base"]["scripted"], "strong": e["base"]} if c.get("base") and e.get("base") else None
        sub["vp"] = {"scripted": c["vp"]["scripted"], "strong": e["vp"]} if c.get("vp") and e.get("vp") else None
        j = judge(sub)
        out.append({**e, "verdict": j["verdict"], "difference": j["difference"], "floor": bool(j.get("floor")),
                    **({"vp_judged": j["vp"]} if j.get("floor") else {})})
    c["ladder"] = out
    return c


def _how(verdict: str, d: dict, u: str) -> str:
    return {"holds": f"**holds** (difference {_iv(d, u)}, not resolved)", "changes": f"**changes by {_iv(d, u)}**",
            "reverses": f"**reverses** (difference {_iv(d, u)})"}[verdict]


def line(c: dict) -> str:
    """One sentence of a check: the conclusion, both figures with intervals and games (win rates in points to
    one decimal, VP to two), the focal plan's base rate where a win rate is read, and the verdict; a check on
    the floor (:func:`judge`) reads its VP effect instead of its win rate."""
    s, t, d, u = c["scripted"], c["strong"], c["difference"], unit(c)
    head = (f"{c['conclusion']}: scripted field {_iv(s, u)} ({s['n']:,} games), strong field {_iv(t, u)} "
            f"({t['n']:,} games)")
    base = c.get("base")
    if base:
        head += (f"; the focal plan alone, in the control arm, wins {base['scripted']['est']:.1f}% among the scripted "
                 f"field and {base['strong']['est']:.1f}% among strong players")
    if c.get("floor"):
        v = c["vp"]
        return (f"{head}: on the floor (under {FLOOR:.0f}% whatever it does), so the win-rate change is not read as "
                f"an effect; its VP effect: scripted field {_iv(v['scripted'], 'VP')}, strong field "
                f"{_iv(v['strong'], 'VP')}: {_how(v['verdict'], v['difference'], 'VP')}.{_ladder_tail(c)}")
    how = _how(c["verdict"], d, u)
    if c["verdict"] == "holds" and resolution(c) and abs(d["est"]) < resolution(c) and (d["low"] > 0 or d["high"] < 0):
        how = f"**holds** (difference {_iv(d, u)}, under the metric's resolution of {resolution(c):.2f})"
    vp = c.get("vp")
    tail = (f" (VP effect: scripted field {_iv(vp['scripted'], 'VP')}, strong field {_iv(vp['strong'], 'VP')})"
            if vp else "")
    return f"{head}: {how}{tail}.{_ladder_tail(c)}"


def _ladder_tail(c: dict) -> str:
    """`` Across the ladder: heuristic +3.1 [..] (holds); depends on skill (changes from the tuned heuristic).``
    for a check with lower rungs (empty otherwise); a rung with a focal base rate shows it (``heuristic -2.0 [..],
    base 5.8% (changes)``), a rung on the floor its VP effect and verdict (``heuristic -2.0 [..], base 2.1%: on
    the floor, VP effect -2.02 VP [..] (VP: changes)``)."""
    if not c.get("ladder"):
        return ""
    u = unit(c)
    parts = []
    for e in c["ladder"]:
        text = f"{e['rung']} {_iv(e, u)}" + (f", base {e['base']['est']:.1f}%" if e.get("base") else "")
        if e.get("floor") and e.get("vp_judged"):
            text += f": on the floor, VP effect {_iv(e['vp_judged']['strong'], 'VP')} (VP: {e['verdict']})"
        else:
            text += f" ({e['verdict']})"
        parts.append(text)
    word, detail = skill(c)
    return f" Across the ladder: {'; '.join(parts)}; {word}{f' ({detail})' if detail else ''}."


def intro(result: dict) -> str:
    """The paragraph before the lines: what the strong field is and how each line is judged (the resolution, the
    floor: :data:`FLOOR_NOTE`)."""
    return (f"Each headline conclusion re-measured with the strong field, {result['strong_words']}, beside the "
            f"scripted-field figure (95% intervals, games): mirrors of {result['mirror_games']:,} games per player "
            f"count, {result['games']:,} games per arm or run otherwise. *Holds*: the difference of the two "
            "estimates is not resolved; *changes by X*: it is (independent estimates, normal approximation); "
            "*reverses*: both resolved with opposite signs." + FLOOR_NOTE)


#: how a line reads a focal plan on the win-rate floor and a difference under the metric's resolution
FLOOR_NOTE = (f" A focal plan that wins under {FLOOR:.0f}% in its control arm at a rung sits on the floor there: "
              "its win-rate change is not read as an effect, its VP effect is (VP to two decimals; a difference "
              "under the metric's resolution, one VP to one seat of a game's mean or one game of a win rate, is "
              "never a change).")


def read(out: Path | str) -> dict:
    """The ``stronger.json`` of a study folder (RunFolderError when missing or unreadable)."""
    p = Path(out) / FILE
    try:
        d = json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"--stronger {str(out)!r}: no readable {FILE} ({e}); run meeplelab stronger first") from None
    if d.get("status") != "complete":
        raise RunFolderError(f"--stronger {str(out)!r}: the study did not finish; run meeplelab stronger again with "
                             "--overwrite")
    return d




def _experiment_dir(d: dict, folder: Path, name: str) -> Path | None:
    """The scripted experiment folder ``name`` the study re-measured (its request's absolute source, else the
    source beside the study folder), or None when it is gone."""
    for src in (d.get("request") or {}).get("sources", []) + [str(folder.parent / n) for n in d.get("sources", [])]:
        if Path(src).name == name and (Path(src) / "experiment.json").is_file():
            return Path(src)
    return None


def _focal_figures(folder: Path, arm: str) -> tuple[dict, dict | None]:
    """The focal plan's win rate in the control arm of experiment ``folder`` (percent, games) and its paired VP
    effect in ``arm`` (VP, :func:`meeplelab.analysis.experiment.effects`; None when the arm is absent)."""
    meta = read_experiment(folder)
    ctrl = meta["arms"][0]
    g = run_entry_games(folder / ctrl["folder"], _games(folder / ctrl["folder"]), ctrl["strategies"][0])
    base = {"est": 100.0 * float(g["win_share"].mean() or 0.0), "n": g.height}
    e = effects(folder).filter((pl.col("metric") == "vp") & (pl.col("arm") == arm))
    vp = ({k: float(e[k][0]) for k in ("est", "low", "high")} | {"n": int(e["n"][0])}) if e.height else None
    return base, vp


def _lower_focal(e: dict, folder: Path) -> dict:
    """A lower rung's entry of a focal experiment's check with its base rate and VP effect from ``folder`` (the
    rung's replay of the experiment), unchanged when the folder is gone."""
    if not (folder / "experiment.json").is_file() or "arm" not in e:
        return e
    base, vp = _focal_figures(folder, e["arm"])
    return {**e, "base": base, **({"vp": vp} if vp is not None else {})}


def enrich(d: dict, folder: Path | str) -> dict:
    """The study ``d`` (``stronger.json`` of ``folder``) with each check judged again (:func:`judge`) and its
    line rewritten (:func:`line`); a focal experiment's check first gains, from the run folders, the focal plan's
    control-arm win rate at both rungs (``base``) and its paired VP effect at both (``vp``), and a rule experiment's
    check its player count. A check whose folders are gone keeps its figures."""
    folder = Path(folder)
    out = []
    for c in d.get("checks", []):
        c = dict(c)
        if c.get("kind") == "experiment":
            src, strong = _experiment_dir(d, folder, c["source"]), folder / c["source"]
            if src is not None and (strong / "experiment.json").is_file():
                meta = read_experiment(strong)
                c["players"] = int(meta.get("players") or 0) or None
                if meta.get("focal_position") is not None:
                    (b0, v0), (b1, v1) = _focal_figures(src, c["scripted"]["arm"]), _focal_figures(strong, c["strong"]["arm"])
                    c["base"] = {"scripted": b0, "strong": b1}
                    if v0 is not None and v1 is not None:
                        c["vp"] = {"scripted": v0, "strong": v1}
                    c["ladder"] = [_lower_focal(e, folder / rung_folder(e["rung"]) / c["source"])
                                   for e in c.get("ladder") or []]
        c["strong_rung"] = rung(d)
        c = judge_ladder(judge(c))
        c["line"] = codes_in_words(d["game"], line(c))  # the page's words (the code ids: its labels section)
        out.append(c)
    return {**d, "checks": out, "lines": [c["line"] for c in out]}


def section(stronger: Path | str | None, games: list[str], runs: list[str] | None = None):
    """The report section "Does it hold for stronger players?": the lines of the study in ``stronger`` (a
    ``meeplelab stronger`` folder, judged again by :func:`enrich`), or, without one, what is not checked and the
    command that checks it. The section's ``data["stronger"]`` holds the judged study (None without one), read by
    the report's first screen (:mod:`meeplelab.analysis.first_screen`).

    Raises:
        RunFolderError: ``stronger`` holds no finished study, or one of another game than ``games``.
    """
    games = sorted(games)
    title = "Does it hold for stronger players?"
    if stronger is None:
        src = " ".join(f"--from {r}" for r in (runs or ["RUN..."]))
        game = games[0] if games else "GAME"
        return Section(title, "Not checked: every conclusion above holds among the strategies played, not yet for "
                       f"stronger players. Check it with `meeplelab stronger --game {game} {src} --out STRONG` "
                       "(add --from EXPERIMENT for each experiment), then `meeplelab report ... --stronger STRONG`.",
                       data={"stronger": None, "command": f"meeplelab stronger --game {game} {src} --out STRONG"})
    d = read(stronger)
    if games and d["game"] not in games:
        raise RunFolderError(f"--stronger {str(stronger)!r}: a study of {d['game']!r}, not of {games[0]!r}")
    if runs is not None and d.get("runs") is not None:
        mine = {str(Path(r).resolve()) for r in runs}
        if not mine <= set(d["runs"]):
            bad = min(mine - set(d["runs"]))
            raise RunFolderError(f"--stronger {str(stronger)!r}: the study did not re-check run {bad!r} (it re-checked "
                                 f"{', '.join(d['runs']) or 'no run'}); run meeplelab stronger --from the reported runs")
    d = enrich(d, stronger)
    d["folder"] = str(Path(stronger))
    tables = _ladder_tables(d)
    return Section(title, tally(d) + "\n" + intro(d) + "\n\n" + "\n".join(f"- {x}" for x in d["lines"]),
                   tables=tables, data={"stronger": d})


def experiment_section(stronger: Path | str, experiment: Path | str, game: str) -> Section:
    """An experiment report's section "Does it hold for stronger players?": the study's checks of this experiment's
    arms, with its seat-order and top-strategy checks (those re-check the study's balance runs, not this
    experiment's control arm: the strong mirrors and the top strategy among strong players do not depend on the
    scripted field). ``data["stronger"]`` holds the judged checks the first screen reads.

    Raises:
        RunFolderError: ``stronger`` holds no finished study, or one of another game than ``game``.
    """
    title = "Does it hold for stronger players?"
    d = read(stronger)
    if d["game"] != game:
        raise RunFolderError(f"--stronger {str(stronger)!r}: a study of {d['game']!r}, not of {game!r}")
    name = Path(experiment).name
    d = enrich(d, stronger)
    mine = [c for c in d["checks"] if c.get("kind") == "experiment" and c.get("source") == name]
    if not mine:
        return Section(title, f"Not re-measured: the stronger study {str(stronger)!r} did not read this experiment "
                       f"(add --from {experiment} to meeplelab stronger).")
    d = {**d, "folder": str(Path(stronger)), "checks": [c for c in d["checks"] if c.get("kind") != "experiment"] + mine}
    d["lines"] = [c["line"] for c in d["checks"]]
    note = (" The seat-order and top-strategy lines re-check the balance runs the study read (their scripted figures "
            "are those runs'), not this experiment's control arm.")
    tables = _ladder_tables(d)
    return Section(title, tally(d) + "\n" + intro(d) + note + "\n\n" + "\n".join(f"- {x}" for x in d["lines"]),
                   tables=tables, data={"stronger": d})


def experiment_page(experiment: Path | str, stronger: Path | str):
    """The report builder of an experiment's page with a stronger study: its own sections
    (:func:`meeplelab.analysis.experiment.experiment_sections`, with the restricted-play answers) and, after the
    verdict, :func:`experiment_section` (so the page's first screen is written from what holds at the strongest
    rung).

    Raises:
        RunFolderError: ``stronger`` holds no finished study, or one of another game.
    """
    own = experiment_sections(experiment, stronger)
    check = experiment_section(stronger, experiment, read_experiment(experiment)["game"])

    def build(runs):
        secs = own(runs)
        return secs[:1] + [check] + secs[1:]

    return build


def _ladder_tables(d: dict) -> list:
    """The section's table of every conclusion at every rung (:func:`ladder_table`), when the study measured more
    than one rung above the scripted plans."""
    if len(d.get("rungs") or []) < 2:
        return []
    return [("Each conclusion at every rung of the ladder (win rates in points, VP in VP; 95% intervals; the focal "
             "plan's base rate where a win rate is read)", ladder_table(d), TableFormat(rank=None, fold=30))]


def _cell(r: dict, u: str, base: dict | None = None, vp: dict | None = None) -> str:
    """One rung's figure of a conclusion: ``-16.7 [-18.2, -14.9]; base 35.1%; -5.58 VP [..]``."""
    text = _iv(r, u)
    if base is not None:
        text += f"; base {base['est']:.1f}%"
    if vp is not None:
        text += f"; {_iv(vp, 'VP')}"
    return text


def _said(j: dict) -> str:
    """A judged rung's verdict as its cell ends: `` (changes)``, or `` (VP: changes; win rate on the floor)`` when
    its focal plan sits on the win-rate floor and the verdict is its VP effect's (:func:`judge`)."""
    return f" (VP: {j['verdict']}; win rate on the floor)" if j.get("floor") else f" ({j['verdict']})"


def ladder_table(d: dict) -> pl.DataFrame:
    """One row per judged check of study ``d`` (:func:`enrich`): the conclusion, its figure among the scripted
    plans and at every rung (weakest first; the focal plan's base rate and VP effect beside a win rate; VP to two
    decimals), each rung's verdict (``VP: ...`` when read by the VP effect, its plan on the win-rate floor), and its
    reading across the ladder (:func:`skill`). ``[checks, 2 + rungs + 1]``, every cell a string."""
    labels = [r["label"] for r in d.get("rungs") or []]
    rows = []
    for c in d.get("checks", []):
        u = unit(c)
        base, vp = c.get("base") or {}, c.get("vp") or {}
        row = {"conclusion": codes_in_words(d["game"], c["conclusion"].split(" (")[0]),
               "scripted plans": _cell(c["scripted"], u, base.get("scripted"), vp.get("scripted"))}
        lower = {e["rung"]: e for e in c.get("ladder") or []}
        for lab in labels[:-1]:
            e = lower.get(lab)
            row[lab] = _cell(e, u, e.get("base"), e.get("vp")) + _said(e) if e else "not measured"
        row[labels[-1]] = _cell(c["strong"], u, base.get("strong"), vp.get("strong")) + _said(c)
        word, detail = skill(c)
        row["across the ladder"] = word + (f": {detail}" if detail else "")
        rows.append(row)
    return pl.DataFrame(rows, schema={k: pl.String for k in (rows[0] if rows else {"conclusion": 0})})


def tally(result: dict) -> str:
    """The section's first sentence: how many conclusions hold, change and reverse with the strong field."""
    n = {v: sum(c["verdict"] == v for c in result.get("checks", [])) for v in ("holds", "changes", "reverses")}
    total = sum(n.values())
    if total == 0:
        return "No conclusion was re-measured."
    words = [f"{n['holds']} **hold**", f"{n['changes']} **change**", f"{n['reverses']} **reverse**"]
    text = f"Of {total} headline conclusions re-measured with the strong field, {', '.join(words[:2])} and {words[2]}."
    rungs = [r["label"] for r in result.get("rungs") or []]
    if len(rungs) > 1 and all("ladder" in c for c in result.get("checks", [])):
        k = {w: sum(skill(c)[0] == w for c in result["checks"]) for w in (EVERY, DEPENDS, SCRIPTED_ONLY)}
        text += (f" Across the ladder (scripted plans, {', '.join(rungs)}): {k[EVERY]} {EVERY}, {k[DEPENDS]} "
                 f"{DEPENDS}, {k[SCRIPTED_ONLY]} {SCRIPTED_ONLY}.")
    return text


__all__ = ["DEPENDS", "EVERY", "FILE", "FLOOR", "FLOOR_NOTE", "SCRIPTED_ONLY", "compare", "enrich", "experiment_page", "experiment_section", "intro",
           "judge", "judge_ladder", "ladder_table", "line", "read", "resolution", "rung", "rung_folder", "section",
           "skill", "tally", "unit"]
