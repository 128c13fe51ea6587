"""The skill ladder (``meeplelab ladder``): every rung against the heuristic and
against the rung below, on common seeds in every seat order.

**Rungs**, weakest first by design:

1. ``random``;
2. every scripted plan of the game (the registry's compiled plans, default arguments; or the ids given
   as ``plans``), ordered by their head-to-head rate against the heuristic (weakest first, ties by id);
3. ``heuristic``;
4. the tuned preset ``heuristic:preset=FILE`` (default ``docs/presets/<game>-heuristic-tuned.toml``,
   written by ``meeplelab tune``; left out when there is none);
5. the search (``ismcts`` with the given arguments) at ``iters`` = ``start``, 2 ``start``, 4 ``start``,
   ... up to ``budget``: the budget doubles from rung to rung, as in Ludii's SkillTrace metric.

**Pairings.** Each comparison is one run folder ``OUT/pair-NN``: the rung (the *focal* strategy) in one
seat, the opponent in every other seat, seated ``rotate`` (every seat order on the same game seeds).
Every pairing is played with the same run seed, so game seed ``s`` starts from the same shuffles in all
of them (common random numbers). Comparisons, in the order they are played:

1. every rung but the heuristic against the heuristic;
2. every rung against the rung below it (at 2 seats a comparison already played in the other direction
   is not played again: the heuristic against the strongest plan, the tuned preset against the heuristic);
3. the top rung against ``random`` (how often the weakest player still wins).

``games_per_rung`` is the number of games of each pairing, over its seat orders (``players`` orders of
``games_per_rung / players`` seeds each). The analysis (tables, luck, the chart and the Markdown report)
is :mod:`meeplelab.analysis.ladder`.

The folder holds ``ladder.json`` (the settings, the rungs, the pairings and a status), the ``pair-NN``
run folders and what :mod:`meeplelab.analysis.ladder` writes: the result tables, chart and report, the same bytes
for the same games whatever ``batch_size``, ``n_jobs`` or a resume, and the timings apart in ``timing.json``. ``overwrite`` replaces an earlier ladder whole;
``resume`` keeps the finished pairings and completes the others (the saved settings must match); a
folder that is neither empty nor a ladder is refused, never written into or deleted.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.play.runner import check_runs_resumable, simulate
from meeplelab.analysis.ladder import TIMING_FILE, Comparison, Pairing, served_by
from meeplelab.analysis.ladder import commit, comparison_scores, write_outputs
from meeplelab.play.progress import bar
from meeplelab.sim.registry import get_game_class
from meeplelab.strategies.fields import tuned_preset
from meeplelab.strategies.plans import CompiledPlan
from meeplelab.strategies.registry import make_strategy, parse_id, strategies_for

LADDER_FILE = "ladder.json"
#: files :mod:`meeplelab.analysis.ladder` writes into the folder (an overwrite removes them with the pairings)
OUTPUT_FILES = ("rungs.parquet", "rungs.csv", "pairs.parquet", "pairs.csv", "luck.parquet", "luck.csv",
                "ladder.png", "ladder.md", TIMING_FILE, rf.SETTINGS)
PAIR_DIR = re.compile(r"pair-\d+")
#: the search strategy whose ``iters`` doubles from rung to rung (``--search``), and the first budget
SEARCH = "ismcts:par=8"
START_ITERS = 8


@dataclass(frozen=True)
class Rung:
    """One rung of the ladder.

    Attributes:
        id: the strategy id as played (``heuristic:preset=docs/presets/...``, ``ismcts:par=8,iters=16``).
        kind: ``baseline``, ``scripted``, ``heuristic``, ``tuned`` or ``search``.
        label: the short name tables use (``random``, ``writer``, ``heuristic``, ``tuned``, ``ismcts 16``).
        iters: the search budget (iterations per decision) of a ``search`` rung, else None.
    """

    id: str
    kind: str
    label: str
    iters: int | None = None


def default_tuned(game: str) -> Path | None:
    """The tuned preset of ``game`` kept in the project (``docs/presets/<game>-heuristic-tuned.toml``), if any: the
    strong field's (:func:`meeplelab.strategies.fields.tuned_preset`)."""
    return tuned_preset(game)


def _shown_path(p: Path) -> str:
    """``p`` relative to the working folder when it lies under it (ids in tables stay short), else absolute."""
    p = Path(p).resolve()
    try:
        return str(p.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def budgets(budget: int, start: int = START_ITERS) -> list[int]:
    """The search budgets of the ladder: ``start, 2 start, 4 start, ..., budget`` (empty for budget 0).

    Raises:
        ConfigError: ``start`` below 1, or a ``budget`` that is neither 0 nor ``start`` times a power of two.
    """
    if not isinstance(start, int) or start < 1:
        raise ConfigError(f"--start-iters {start}: allowed a whole number of at least 1")
    if budget == 0:
        return []
    out, k = [], start
    while k <= budget:
        out.append(k)
        k *= 2
    if not isinstance(budget, int) or not out or out[-1] != budget:
        allowed = ", ".join(str(start * 2 ** i) for i in range(5))
        raise ConfigError(f"--budget {budget}: allowed 0 (no search rungs) or --start-iters {start} doubled any "
                          f"number of times ({allowed}, ...)")
    return out


def search_id(search: str, iters: int) -> str:
    """The id of the search at ``iters`` iterations: ``ismcts:par=8`` -> ``ismcts:par=8,iters=16``."""
    return f"{search},iters={iters}" if ":" in search else f"{search}:iters={iters}"


def _is_scripted(game: str, name: str) -> bool:
    try:
        return isinstance(make_strategy(game, name), CompiledPlan)
    except ConfigError:  # a registered strategy that needs arguments is no default plan
        return False


def scripted_plans(game: str) -> list[str]:
    """Every scripted plan of ``game``: the registry's strategies whose default instance is a compiled plan
    (:class:`meeplelab.strategies.plans.CompiledPlan`), by name."""
    return [s.name for s in strategies_for(game) if s.name != "random" and _is_scripted(game, s.name)]


def rungs(game: str, *, plans: Sequence[str] | None = None, tuned: str | Path | None = "default",
          search: str = SEARCH, budget: int = 64, start: int = START_ITERS) -> list[Rung]:
    """The rungs of the ladder in the order of their design (scripted plans in the given order: the ladder
    orders them by strength once they have played the heuristic, :func:`ordered`).

    Args:
        plans: scripted plan ids (default: :func:`scripted_plans`); any strategy id is accepted.
        tuned: a preset file for ``heuristic:preset=FILE``; ``"default"`` for :func:`default_tuned`
            (no tuned rung when the game has none); None or ``"none"``: no tuned rung.
        search: the search strategy id without ``iters``.
        budget, start: :func:`budgets`.

    Raises:
        ConfigError: an unknown or bad strategy id, a plan given twice or equal to another rung, a search id
            that sets ``iters`` or a bad budget.
    """
    out = [Rung("random", "baseline", "random")]
    plan_ids = list(scripted_plans(game) if plans is None else plans)
    seen = {"random", "heuristic"}
    for p in plan_ids:
        try:
            make_strategy(game, p)
        except ConfigError as e:
            raise ConfigError(f"--plans: {e}") from None
        if p in seen:
            raise ConfigError(f"--plans {','.join(plan_ids)}: {p!r} is listed twice or is another rung "
                              "(random and heuristic are always rungs): list each plan once")
        seen.add(p)
        out.append(Rung(p, "scripted", p))
    out.append(Rung("heuristic", "heuristic", "heuristic"))
    path = default_tuned(game) if tuned == "default" else (None if tuned in (None, "none") else Path(tuned))
    if path is not None:
        tid = f"heuristic:preset={_shown_path(path)}"
        try:
            make_strategy(game, tid)
        except ConfigError as e:
            raise ConfigError(f"--tuned {tuned}: {e} (give a heuristic preset of {game}, or none)") from None
        out.append(Rung(tid, "tuned", "tuned"))
    name, args = parse_id(search)
    if "iters" in args:
        raise ConfigError(f"--search {search}: leave out iters (the ladder sets it: --start-iters, doubled up to "
                          "--budget)")
    for k in budgets(budget, start):
        sid = search_id(search, k)
        make_strategy(game, sid)
        out.append(Rung(sid, "search", f"{name} {k}", k))
    return out


def ordered(ladder: list[Rung], vs_heuristic: dict[str, float]) -> list[Rung]:
    """The ladder with its scripted plans ordered by their score against the heuristic (weakest first, ties
    by id); every other rung keeps its place."""
    plans = sorted((r for r in ladder if r.kind == "scripted"), key=lambda r: (vs_heuristic[r.id], r.id))
    it = iter(plans)
    return [next(it) if r.kind == "scripted" else r for r in ladder]


def first_comparisons(ladder: list[Rung]) -> list[Comparison]:
    """Step 1: every rung but the heuristic against the heuristic."""
    return [Comparison(r.id, "heuristic", "heuristic") for r in ladder if r.id != "heuristic"]


def later_comparisons(ladder: list[Rung]) -> list[Comparison]:
    """Steps 2 and 3: every rung against the rung below; the top rung against random."""
    out = [Comparison(b.id, a.id, "below") for a, b in zip(ladder, ladder[1:])]
    if len(ladder) > 1:
        out.append(Comparison(ladder[-1].id, "random", "random"))
    return out


def add_pairings(pairs: list[Pairing], comps: Sequence[Comparison], players: int) -> list[Pairing]:
    """``pairs`` with a new pairing (folder ``pair-NN`` in order) for every comparison none serves."""
    pairs = list(pairs)
    for c in comps:
        if served_by(c, pairs, players) is None:
            pairs.append(Pairing(f"pair-{len(pairs):02d}", c.rung, c.opponent))
    return pairs


def pair_config(p: Pairing, *, game: str, players: int, games: int, seed: int, batch_size: int, n_jobs: int,
                params: dict, out: Path, backend: str = "loky", scheduler: str | None = None) -> RunConfig:
    """The run of a pairing: ``focal`` then ``opponent`` in every other seat, seated ``rotate``, the games table
    only, one chunk per batch (so ``n_jobs`` workers share a pairing)."""
    return validated(RunConfig(game=game, players=players, strategies=(p.focal,) + (p.opponent,) * (players - 1), games=games,
                     seed=seed, batch_size=batch_size, chunk_size=batch_size, n_jobs=n_jobs, backend=backend,
                     scheduler=scheduler, out=str(out / p.folder),
                     params=dict(params), log_turns=False, log_events=False, seating="rotate"))


def check_settings(game: str, players: int, games_per_rung: int) -> None:
    """Raises ConfigError for a player count the game does not take or a games-per-rung count that does not
    split evenly over the seat orders (each of the ``players`` orders plays the same game seeds, at least 2)."""
    cls = get_game_class(game)
    if not isinstance(players, int) or not max(2, cls.min_players) <= players <= cls.max_players:
        raise ConfigError(f"--players {players}: {game} takes {max(2, cls.min_players)}-{cls.max_players} seats "
                          "in a ladder (a rung plays against an opponent)")
    if not isinstance(games_per_rung, int) or games_per_rung < 2 * players or games_per_rung % players:
        raise ConfigError(f"--games-per-rung {games_per_rung}: allowed a multiple of {players} of at least "
                          f"{2 * players} (each of the {players} seat orders plays the same game seeds, at least 2)")


def run_ladder(game: str, *, players: int = 2, games_per_rung: int = 200, seed: int = 0, budget: int = 64,
               start: int = START_ITERS, search: str = SEARCH, plans: Sequence[str] | None = None,
               tuned: str | Path | None = "default", batch_size: int = 64, n_jobs: int = -1,
               params: dict | None = None, out: Path | str, overwrite: bool = False, resume: bool = False,
               progress: bool = False, command: str = "", backend: str = "loky", scheduler: str | None = None,
               settings: str | None = None, on_pair: Callable[[int, int, Pairing], None] | None = None) -> dict:
    """Play the ladder into ``out`` and write its analysis (:func:`meeplelab.analysis.ladder.write_outputs`).

    Args:
        game, players: the game and its seats (a rung in one seat, its opponent in the others).
        games_per_rung: games of each pairing over its seat orders (a multiple of ``players``).
        seed: the run seed every pairing shares (common random numbers).
        budget, start, search, plans, tuned: the rungs (:func:`rungs`).
        batch_size, n_jobs, backend, scheduler, params: as for ``meeplelab simulate`` (each batch is one
            chunk); results depend on none of ``batch_size``, ``n_jobs``, ``backend`` or ``scheduler``.
        progress: draw a bar of pairings and each pairing's games (:mod:`meeplelab.play.progress`).
        settings: the command's resolved settings TOML, written as ``out/config.toml`` (``--config`` repeats it).
        command: the command line, recorded in ``ladder.json`` and the report.
        on_pair: called before each pairing with (its index, the number of pairings, the pairing).

    Returns:
        the saved ``ladder.json`` contents (status ``complete``).

    Raises:
        ConfigError: bad game, players, games, strategies, budget or parameters (before anything is written).
        RunFolderError: ``out`` holds another ladder (without ``overwrite``/``resume``), is neither empty nor a
            ladder folder, or (``resume``) holds nothing to resume or a ladder with other settings.
        KeyboardInterrupt: after marking ``ladder.json`` ``interrupted``.
    """
    out = Path(out)
    check_settings(game, players, games_per_rung)
    ladder = rungs(game, plans=plans, tuned=tuned, search=search, budget=budget, start=start)
    params = dict(params or {})
    cfg = lambda p, where=out: pair_config(p, game=game, players=players, games=games_per_rung,  # noqa: E731
                                           seed=seed, batch_size=batch_size, n_jobs=n_jobs, params=params, out=where,
                                           backend=backend, scheduler=scheduler)
    first = add_pairings([], first_comparisons(ladder), players)
    for p in first:
        cfg(p)  # every strategy id and parameter checked before anything is written
    total = len(add_pairings(first, later_comparisons(ladder), players))
    meta = {"game": game, "players": players, "games_per_rung": games_per_rung, "seed": seed, "budget": budget,
            "start_iters": start, "search": search, "plans": None if plans is None else list(plans),
            "tuned": [r.id for r in ladder if r.kind == "tuned"], "params": {k: str(v) for k, v in sorted(params.items())},
            "command": command, "status": "running"}
    with rf.study_folder(out, STUDY_FOLDER, resume=resume, overwrite=overwrite) as work:
        return _play_ladder(work, meta, ladder, first, total, lambda p: cfg(p, work), resume=resume,
                            progress=progress, settings=settings, on_pair=on_pair)


def _play_ladder(out: Path, meta: dict, ladder: list[Rung], first: list[Pairing], total: int,
                 cfg: Callable[[Pairing], RunConfig], *, resume: bool, progress: bool, settings: str | None,
                 on_pair) -> dict:
    """:func:`run_ladder` in the folder ``out`` it is built in (``cfg(pairing)``: the pairing's run under it)."""
    players = meta["players"]
    if resume:
        old = _read(out)
        _check_resumable(old, meta)
        check_runs_resumable([cfg(p) for p in first], "pairing")
    # when and on which commit the games were first played (a resumed ladder keeps them)
    meta["date"] = (old.get("date") if resume else None) or _dt.date.today().isoformat()
    meta["commit"] = (old.get("commit") if resume else None) or commit()
    out.mkdir(parents=True, exist_ok=True)
    rf.write_settings(out, settings)

    def save(pairs: list[Pairing], lad: list[Rung], comps: list[Comparison], status: str) -> None:
        meta.update(rungs=[dataclasses.asdict(r) for r in lad], comparisons=[dataclasses.asdict(c) for c in comps],
                    pairings=[dataclasses.asdict(p) for p in pairs], status=status)
        rf.write_atomic(out / LADDER_FILE, json.dumps({k: v for k, v in meta.items() if k != "report"},
                                                      indent=1).encode())

    bars = contextlib.ExitStack()  # the pairings bar: closed once every pairing is played (or on an error)
    pairs_bar = bars.enter_context(bar("ladder", total, unit="pairings", on=progress))

    def play(pairs: list[Pairing], todo: list[Pairing]) -> None:
        for p in todo:
            if on_pair:
                on_pair(pairs.index(p), total, p)
            c = cfg(p)
            folder = Path(c.out)
            has = (folder / rf.MANIFEST).is_file()
            if not (resume and has and rf.read_manifest(folder).get("status") == "complete"):
                simulate(c, resume=resume and has, progress=progress, label=f"pairing {pairs.index(p) + 1}/{total}")
            pairs_bar.advance(1)

    comps = first_comparisons(ladder)
    pairs = first
    try:
        save(pairs, ladder, comps, "running")
        play(pairs, pairs)
        vs_h = {c.rung: comparison_scores(out, served_by(c, pairs, players), c, players)["score"] for c in comps}
        ladder = ordered(ladder, vs_h)
        comps = comps + later_comparisons(ladder)
        more = add_pairings(pairs, comps, players)
        todo = more[len(pairs):]
        pairs = more
        if resume:
            check_runs_resumable([cfg(p) for p in todo], "pairing")
        save(pairs, ladder, comps, "running")
        play(pairs, todo)
    except BaseException as e:
        save(pairs, ladder, comps, "interrupted" if isinstance(e, KeyboardInterrupt) else "failed")
        raise
    finally:
        bars.close()
    write_outputs(out, meta)
    save(pairs, ladder, comps, "complete")
    return meta


def read_ladder(out: Path | str) -> dict:
    """The ``ladder.json`` of a ladder folder.

    Raises:
        RunFolderError: missing or unreadable.
    """
    return _read(Path(out))


def _read(out: Path) -> dict:
    p = out / LADDER_FILE
    if not p.is_file():
        raise RunFolderError(f"{str(out)!r} is not a ladder folder: no {LADDER_FILE}")
    try:
        return json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"{str(p)!r} is unreadable: {e}") from None


_OPTION = {"games_per_rung": "--games-per-rung", "start_iters": "--start-iters", "params": "--set"}


def _check_resumable(old: dict, new: dict) -> None:
    """RunFolderError naming the first setting in which the saved ladder differs from ``new``."""
    for k in ("game", "players", "games_per_rung", "seed", "budget", "start_iters", "search", "plans", "tuned",
              "params"):
        a, b = old.get(k), new[k]
        if a != b:
            opt = _OPTION.get(k, f"--{k}")
            show = lambda v: ",".join(map(str, v)) if isinstance(v, list) else (  # noqa: E731
                ",".join(f"{x}={y}" for x, y in v.items()) or "(none)") if isinstance(v, dict) else (
                "(default)" if v is None else str(v))
            raise RunFolderError(f"cannot resume: the ladder in the folder has {opt} {show(a) or '(none)'}, "
                                 f"this ladder has {opt} {show(b) or '(none)'}")


#: a ladder folder: ladder.json, its pairing runs and tables (:data:`OUTPUT_FILES`), nothing else
STUDY_FOLDER = rf.StudyFolder("ladder", LADDER_FILE, OUTPUT_FILES, run_dirs=PAIR_DIR.pattern)


__all__ = ["Comparison", "LADDER_FILE", "Pairing", "Rung", "SEARCH", "START_ITERS", "add_pairings", "budgets",
           "check_settings", "default_tuned", "first_comparisons", "later_comparisons", "ordered", "pair_config",
           "read_ladder", "run_ladder", "rungs", "scripted_plans", "search_id", "served_by"]
