"""An experiment's scripted question asked by restricted play: a part of ``meeplelab stronger``.

For each experiment given with ``--from`` whose focal strategies the game translates
(:func:`meeplelab.analysis.restricted_answers.translate`: ``never-abjure`` -> ``never:abjure``, ``abjure-at:cycle=N``
-> ``force:abjure@cycle==N``, ``never-cite`` -> ``never:cite``, ``citer`` -> the strong player as it plays and with
``force:cite``, ``coffee-engine`` -> the strong player), the study plays the strong player with each arm's restriction
(and the arm's treatment: ``coffee+1``) in one seat of ``players`` strong players, on the study's seed, ``--games``
games per arm:

- a restricted player sits in rotated seats (one run: every seat order of the roster ``(restricted, strong, ...)``,
  ``games / players`` game seeds);
- the unrestricted strong player with a treatment sits in a fixed seat (a roster of one id has one seat order): one
  run per seat ``k`` with the treatment at seat ``k``, ``games / players`` games each, on the same game seeds;
- the unrestricted strong player without a treatment is the strong mirror at that player count: the study's
  ``mirror-Pp`` when it covers the game seeds, else a mirror played here.

Each arm is paired with the control's translation on the same game seed and seat
(:func:`meeplelab.analysis.restricted_answers.answer`); the control's translation is also paired with the mirror
when the study has one (a control restriction that never binds: every difference 0, no game changed). Runs go to
``OUT/<experiment>-restricted/<arm>``.

Cost (the README main job, ``--games 400``): Galileo's Truth's Abjure timing 5 runs of 400 games (``never:abjure``
and Cycle 1 to 4), Unconscious Mind's citing 2 runs (``never:cite``, ``force:cite``; the unrestricted arm is the
mirror) and Coffee 4 runs of 100 (one more Coffee in each seat; the control is the mirror).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
from meeplelab.analysis.experiment import effects
from meeplelab.analysis.restricted_answers import answer, focal_games, translate
from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.experiment import parse_treatment, read_experiment
from meeplelab.play.plan import validated

#: the strong player's name in a row (``tuned+force:abjure@cycle==2``)
SHORT = "tuned"


def questions(src: Path) -> dict | None:
    """The restricted-play question of experiment ``src``, or None when it has none (a rule-parameter axis, or a
    focal strategy the game does not translate).

    Returns:
        ``{"control": {"scripted", "suffix"}, "arms": [{"scripted", "suffix", "treatment"}]}``: ``suffix`` a
        restriction suffix (``""``: unrestricted), ``treatment`` the arm's ``--treat`` text or None; one arm per
        scripted arm and suffix its translation gives.
    """
    meta = read_experiment(src)
    if meta.get("focal_position") is None:
        return None
    ctrl = meta["arms"][0]["strategies"][0]
    c = translate(meta["game"], ctrl)
    if not c:
        return None
    arms = []
    for a in meta["arms"][1:]:
        ch = a["change"]
        s, treat = (ctrl, ch["treatment"]) if "treatment" in ch else (a["strategies"][0], None)
        t = translate(meta["game"], s)
        if t is None:
            return None
        arms += [{"scripted": a["label"], "suffix": x, "treatment": treat} for x in t]
    return {"control": {"scripted": ctrl, "suffix": c[0]}, "arms": arms}


def label(player: str, suffix: str, treatment: str | None) -> str:
    """``tuned+force:abjure@cycle==2``, ``tuned with coffee+1``: an arm in words (``player`` the strong player's name)."""
    return player + (f"+{suffix}" if suffix else "") + (f" with {treatment}" if treatment else "")


def _slug(suffix: str, treatment: str | None) -> str:
    return re.sub(r"[^a-z0-9_+-]+", "-", (suffix or "unrestricted") + (f"-{treatment}" if treatment else "")).strip("-")


def _arm_games(dest: Path, game: str, players: int, strong: str, suffix: str, treatment: str | None, games: int,
               seed: int, execution: dict, play: Callable[[RunConfig], Path]) -> pl.DataFrame | None:
    """Play one arm into ``dest`` (module docstring) and return its focal seat-games; None for the plain strong
    player (the mirror)."""
    t = parse_treatment(treatment, game) if treatment else None
    if not suffix and t is None:
        return None
    if suffix:
        cfg = RunConfig(game=game, players=players, strategies=(f"{strong}+{suffix}",) + (strong,) * (players - 1),
                        games=games, seed=seed, seating="rotate", out=str(dest),
                        treatment=None if t is None else {**t, "position": 0}, **execution)
        return focal_games(play(validated(cfg)))
    assert t is not None  # no suffix: the treatment alone
    parts = []
    for k in range(players):  # one id in every seat has one seat order: the treated seat is placed by hand
        cfg = RunConfig(game=game, players=players, strategies=(strong,), games=max(games // players, 2), seed=seed,
                        out=str(dest / f"seat{k + 1}"), treatment={**t, "position": k}, **execution)
        parts.append(focal_games(play(validated(cfg)), seat=k))
    return pl.concat(parts)


def _mirror(out: Path, dest: Path, game: str, players: int, strong: str, seeds: int, seed: int, execution: dict,
            play: Callable[[RunConfig], Path]) -> pl.DataFrame:
    """The strong mirror's seat-games covering game seeds ``0..seeds-1``: the study's ``mirror-Pp`` when complete, on
    the same seed and long enough, else one played into ``dest/mirror``."""
    m = out / f"mirror-{players}p"
    if (m / rf.MANIFEST).is_file():
        man = rf.read_manifest(m)
        if man.get("status") == "complete":
            g = focal_games(m)
            if int(g.select(pl.col("game_seed").max()).item()) + 1 >= seeds and int(man.get("config", {}).get("seed", seed)) == seed:
                return g
    cfg = RunConfig(game=game, players=players, strategies=(strong,), games=seeds, seed=seed, out=str(dest / "mirror"),
                    **execution)
    return focal_games(play(validated(cfg)))


def _on(mirror: pl.DataFrame, other: pl.DataFrame | None) -> pl.DataFrame:
    """The mirror's seat-games on the game seeds and seats of ``other`` (all of them without one)."""
    return mirror if other is None else mirror.join(other.select("game_seed", "seat"), on=["game_seed", "seat"],
                                                    how="semi")


def _scripted(src: Path) -> dict:
    """``{arm label: (win effect, VP effect)}`` of experiment ``src``'s focal player (points, VP)."""
    df = effects(src)
    out: dict = {}
    for r in df.iter_rows(named=True):
        out.setdefault(r["arm"], {})[r["metric"]] = {k: float(r[k]) for k in ("est", "low", "high")} | {"n": int(r["n"])}
    return out


def restricted_answers(src: Path, out: Path, strong: str, strong_words: str, games: int, seed: int, execution: dict,
                       play: Callable[[RunConfig], Path], say: Callable[[str], None]) -> dict | None:
    """Ask experiment ``src``'s question by restricted play (module docstring); ``play`` plays a config into its
    folder (the study's resume rules). Returns the entry of ``stronger.json["restricted"]`` (``source``,
    ``source_path``, ``players``, ``games``, ``control``, ``rows``: :func:`meeplelab.analysis.restricted_answers.answer`
    with ``scripted``, ``scripted_win``, ``scripted_vp``, ``label``, ``suffix``, ``treatment``, ``against``), or None
    when the experiment has no such question."""
    q = questions(src)
    if q is None:
        return None
    meta = read_experiment(src)
    game, players = meta["game"], int(meta["players"])
    base = out / f"{src.name}-restricted"
    say(f"{src.name} asked by restricted play ({len(q['arms']) + 1} arms, {games:,} games each)")
    c = q["control"]
    ctrl = _arm_games(base / _slug(c["suffix"], None), game, players, strong, c["suffix"], None, games, seed,
                      execution, play)
    arms = [(a, _arm_games(base / _slug(a["suffix"], a["treatment"]), game, players, strong, a["suffix"],
                           a["treatment"], games, seed, execution, play)) for a in q["arms"]]
    seeds = 1 + max(int(f.select(pl.col("game_seed").max()).item()) for f in [ctrl] + [g for _, g in arms] if f is not None)
    mirror = _mirror(out, base, game, players, strong, seeds, seed, execution, play)
    ctrl_words = label(SHORT, c["suffix"], None)
    scripted = _scripted(src)
    rows = []
    if ctrl is not None:  # the control's restriction against the player unrestricted
        rows.append({"scripted": f"{c['scripted']} (control)", "label": ctrl_words, "suffix": c["suffix"],
                     "treatment": None, "against": SHORT, **answer(ctrl, mirror, players)})
    for a, g in arms:
        eff = scripted.get(a["scripted"], {})
        rows.append({"scripted": a["scripted"], "scripted_win": eff.get("win"), "scripted_vp": eff.get("vp"),
                     "label": label(SHORT, a["suffix"], a["treatment"]), "suffix": a["suffix"],
                     "treatment": a["treatment"], "against": ctrl_words,
                     **answer(_on(mirror, ctrl) if g is None else g, mirror if ctrl is None else ctrl, players)})
    return {"source": src.name, "source_path": str(src.resolve()), "game": game, "players": players, "games": games,
            "strong_words": strong_words, "control": {"scripted": c["scripted"], "suffix": c["suffix"],
                                                     "label": ctrl_words}, "rows": rows}


__all__ = ["label", "questions", "restricted_answers"]
