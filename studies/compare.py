"""Rule and content versions side by side (``meeplelab compare``).

An *arm* is one version of the game: the packaged rules (``default``), a content pack (``content=PATH``:
a folder holding the engine's content files, e.g. a copy of ``sim/galileos_truth/data`` with one card
edited), rule parameters (``printing_house=shared``), or several of these joined by ``;``
(``content=packs/v2;printing_house=shared``). ``--arm`` is repeatable; the first arm is the reference.

Every arm plays the same roster on the same run seed in every seat order (``rotate`` seating), at every
player count asked for, so game seed ``s`` in seat order ``o`` is the same deal in every arm (common
random numbers) and every difference is paired game and seat matched. Folder layout::

    OUT/compare.json          the request, the arms and a status (running, interrupted, failed, complete)
    OUT/A-p4/                 arm A's run at 4 seats (a run folder: manifest, games, turns, events)
    OUT/B-p4/ ...
    OUT/deltas.parquet        the paired delta table (meeplelab.analysis.compare.delta_table), also deltas.csv
    OUT/report/               per-version verdicts and the delta table (:func:`write_outputs`)

``--resume`` completes an interrupted comparison (finished runs kept, the interrupted one resumed) and
refuses a different one, naming the difference.

:func:`play_folders` is the runner the other multi-run studies of this issue share (``exchange-rates``,
``compensate``): a list of run configs under one folder with a JSON status file, resumable.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import polars as pl
from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError, RunFolderError

from .retune import check as check_tunable
from .retune import run_retuned
from meeplelab.analysis.compare import _csv, change_use_lines, change_uses, changed_lines, delta_table, summary_lines
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.report import build_report, build_sections
from meeplelab.analysis.retune import retuned_lines
from meeplelab.analysis.retune import section as retune_section
from meeplelab.analysis.studies import study_for
from meeplelab.analysis.tables import write_table
from meeplelab.analysis.versions import version_line, versions
from meeplelab.play.progress import bar
from meeplelab.play.runner import check_runs_resumable, simulate
from meeplelab.sim.core.content import content_changes
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.registry import get_game_class
from meeplelab.strategies.fields import LADDER, SCRIPTED, check_field, roster

COMPARE_FILE = rf.COMPARE_FILE
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Arm:
    """One version: ``label`` (A, B, ...), the ``spec`` text it came from, its rule ``params`` (``--set``
    values, the comparison's common ones included) and ``content`` folder (None: packaged)."""

    label: str
    spec: str
    params: dict
    content: str | None


def parse_arm(text: str, label: str, cls) -> Arm:
    """``default``, ``content=PATH``, ``NAME=VALUE`` (also ``set:NAME=VALUE``), or several joined by ``;``.

    Raises:
        ConfigError: an empty or malformed item, a content folder that does not exist, a parameter given
            twice, or a rule value the game refuses (unknown name, type, range, contradiction).
    """
    spec = text.strip()
    allowed = "default, content=PATH, NAME=VALUE (a rule parameter), or several joined by ';'"
    if not spec:
        raise ConfigError(f"--arm {text!r} is empty: allowed {allowed}")
    params: dict[str, str] = {}
    content = None
    for item in (x.strip() for x in spec.split(";")):
        if not item:
            raise ConfigError(f"--arm {text!r} has an empty item: allowed {allowed}")
        if item == "default":
            continue
        key, eq, value = item.partition("=")
        key = key.strip().removeprefix("set:")
        if not eq or not key or not value.strip():
            raise ConfigError(f"--arm {text!r}: item {item!r} is not one of {allowed}")
        if key == "content":
            if content is not None:
                raise ConfigError(f"--arm {text!r} names two content folders: give one")
            path = Path(value.strip()).expanduser()
            if not path.is_dir():
                raise ConfigError(f"--arm {text!r}: content folder {value.strip()!r} does not exist (allowed: a folder "
                                  "holding the game's content files, e.g. a copy of the packaged data folder)")
            content = str(path.resolve())
            continue
        if key in params:
            raise ConfigError(f"--arm {text!r} sets {key!r} twice: set it once")
        params[key] = value.strip()
    try:
        apply_overrides(cls.Params(), params)
    except ConfigError as e:
        raise ConfigError(f"--arm {text!r}: {e}") from None
    return Arm(label, spec, params, content)


def default_roster(game: str, players: int) -> tuple[str, ...]:
    """The study's rotated field at ``players`` seats (``meeplelab.analysis.studies``: panel ``field-P``, rotation 0).

    Raises:
        ConfigError: the study has no field at that seat count (the counts it has named).
    """
    study = study_for(game)
    fields = {len(lu.strategies): lu.strategies for lu in study.lineups if lu.panel == f"field-{players}" and lu.rot == 0}
    if players not in fields:
        have = sorted({len(lu.strategies) for lu in study.lineups if re.fullmatch(r"field-\d+", lu.panel)})
        raise ConfigError(f"--players {players}: the {game} study has no field of {players} seats (allowed "
                          f"{', '.join(map(str, have))}); give --strategies")
    return tuple(fields[players])


def rosters(game: str, players: list[int], strategies: tuple[str, ...] | None,
            field: str = "scripted") -> dict[int, tuple[str, ...]]:
    """The roster per player count: ``strategies`` (one id: a mirror at every count; else one per seat of
    the single count), or the study's field at each count; with ``field`` a played rung (``heuristic``, ``tuned``,
    ``strong``) that rung's roster at each count (:func:`meeplelab.strategies.fields.roster`; ``strategies`` must
    then be None).

    Raises:
        ConfigError: several strategies with several player counts, a count without a study field, strategies
            given with a played rung, ``ladder`` (run once per rung by the caller), or no players for the rung.
    """
    if check_field(field) == LADDER:
        raise ConfigError("--field ladder: the study runs once per rung (meeplelab.studies.field_ladder); allowed "
                          "here a single rung")
    if field != SCRIPTED:
        if strategies:
            raise ConfigError(f"--field {field} and --strategies are given together: allowed one of them")
        return {p: roster(game, field, p) for p in players}
    if not strategies:
        return {p: default_roster(game, p) for p in players}
    if len(strategies) == 1:
        return {p: tuple(strategies) for p in players}
    if len(players) > 1:
        raise ConfigError(f"--strategies gives {len(strategies)} strategies for --players {','.join(map(str, players))}: "
                          "with several player counts give one strategy (a mirror) or leave --strategies out (the "
                          "study's field at each count)")
    if len(strategies) != players[0]:
        raise ConfigError(f"--strategies gives {len(strategies)} strategies for {players[0]} seats: give one per seat "
                          "or one for all")
    return {players[0]: tuple(strategies)}


def parse_players(text: str) -> list[int]:
    """``"4"`` or ``"2,3,4"`` -> [2, 3, 4] (ConfigError on anything else)."""
    try:
        out = [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        out = []
    if not out or len(set(out)) != len(out):
        raise ConfigError(f"--players {text!r}: allowed a seat count or a comma-separated list of different counts "
                          "(4, or 2,3,4)")
    return sorted(out)


def plan_compare(base: RunConfig, arm_texts: list[str], players: list[int],
                 strategies: tuple[str, ...] | None = None, field: str = "scripted") -> tuple[list[Arm], list[RunConfig]]:
    """The arms and one run config per (arm, player count), all validated before anything runs.

    Args:
        base: game, games per run, seed, batch size, jobs, ``out`` and the ``--set`` values every arm shares.
        arm_texts: the ``--arm`` values, the reference first.
        players: seat counts.
        strategies: the roster (None: the study's field at each count).
        field: ``scripted``, or ``strong``: the strong field at each count (:func:`rosters`).

    Raises:
        ConfigError: fewer than two arms, an arm given twice, a bad arm, a parameter in both ``--set`` and an
            arm, a bad roster, a content pack that does not load (a missing file, a bad icon: checked for every arm
            before any is played), or anything :func:`meeplelab.play.plan.validated` refuses.
    """
    if len(arm_texts) < 2:
        raise ConfigError(f"compare needs at least two --arm (the first is the reference), got {len(arm_texts)}")
    arms = parse_arms(base, arm_texts, "compare")
    ros = rosters(base.game, players, strategies, field)
    configs = []
    for a in arms:
        for p in players:
            configs.append(validated(dataclasses.replace(base, players=p, strategies=ros[p], params=dict(a.params),
                                               content=a.content, seating="rotate",
                                               out=str(Path(base.out) / f"{a.label}-p{p}"))))
    return arms, configs


def parse_arms(base: RunConfig, arm_texts: list[str], command: str = "compare") -> list[Arm]:
    """The ``--arm`` values as versions labelled A, B, ... (:func:`parse_arm`), each with ``base.params`` (the
    ``--set`` values every arm shares) under its own; every content pack loaded once to check it.

    Raises:
        ConfigError: more arms than :data:`LABELS`, a bad arm, a parameter in both ``--set`` and an arm, an arm
            given twice, a content pack that does not load (a missing file, a bad icon).
    """
    cls = get_game_class(base.game)
    if len(arm_texts) > len(LABELS):
        raise ConfigError(f"{command} takes at most {len(LABELS)} arms, got {len(arm_texts)}")
    arms = []
    for i, t in enumerate(arm_texts):
        a = parse_arm(t, LABELS[i], cls)
        both = sorted(set(a.params) & set(base.params))
        if both:
            raise ConfigError(f"parameter {both[0]!r} is given both in --set and --arm {t!r}: give it in one of them")
        arms.append(dataclasses.replace(a, params={**base.params, **a.params}))
    seen: dict[tuple, str] = {}
    for a in arms:
        key = (json.dumps(a.params, sort_keys=True), a.content)
        if key in seen:
            raise ConfigError(f"--arm {a.spec!r} is the same version as --arm {seen[key]!r}: give each version once")
        seen[key] = a.spec
    for a in arms:  # every content pack read and checked before any arm is played (nothing half-written)
        if a.content is not None:
            cls(params=apply_overrides(cls.Params(), a.params), content_dir=a.content)
    return arms


# ------------------------------------------------------------------ playing several runs under one folder
def play_folders(configs: list[RunConfig], out: Path | str, meta: dict, state_file: str, *, ours=(),
                 overwrite: bool = False, resume: bool = False, what: str = "comparison",
                 on_run: Callable[[int, int, RunConfig], None] | None = None, progress: bool = False,
                 settings: str | None = None) -> dict:
    """Play every run config (each ``config.out`` under ``out``) and keep ``out/state_file`` current.

    ``meta`` is the request (saved with a ``status``: running, interrupted, failed, complete). With
    ``resume`` the saved request must equal ``meta`` (the first differing key named), finished runs are
    kept and the others completed (each resumed where it stopped). With ``overwrite`` the new study is built
    beside the earlier one (its run folders, the files named in ``ours``) and replaces it once complete
    (:func:`study`; inside a caller's ``study`` block, once the caller's block ends). ``progress`` draws a bar of
    runs and each run's games (:mod:`meeplelab.play.progress`); ``settings`` (the command's resolved
    settings TOML) is written as ``out/config.toml`` once the folder is accepted. How the runs are executed
    (``n_jobs``, ``backend``, ``scheduler``, ``batch_size`` of the configs) never changes what they hold.

    Returns:
        the saved state (``meta`` with ``status`` complete).

    Raises:
        RunFolderError: ``out`` holds something else, or the same kind of study without ``overwrite`` or
            ``resume``; (``resume``) nothing to resume or the saved request differs.
        KeyboardInterrupt: after marking the state ``interrupted`` (other errors: ``failed``).
    """
    out = Path(out)
    with study(out, state_file, ours, what, resume=resume, overwrite=overwrite) as work:
        configs = [dataclasses.replace(c, out=rf.rebase(c.out, out, work)) for c in configs]
        return _play_runs(configs, work, meta, state_file, resume=resume, what=what, on_run=on_run,
                          progress=progress, settings=settings)


def study(out: Path, state_file: str, ours=(), what: str = "comparison", *, resume: bool = False,
          overwrite: bool = False):
    """``with study(OUT, ...) as work``: the folder a study of :func:`play_folders` is built in, and the swap of an
    overwrite (:func:`meeplelab.play.runfolder.study_folder` of :func:`study_spec`)."""
    return rf.study_folder(out, study_spec(state_file, tuple(ours), what), resume=resume, overwrite=overwrite)


def _play_runs(configs: list[RunConfig], out: Path, meta: dict, state_file: str, *, resume: bool, what: str,
               on_run, progress: bool, settings: str | None) -> dict:
    """:func:`play_folders` in the folder ``out`` the study is built in (each run ``configs[i]`` under it)."""
    if resume:
        old = _read(out, state_file, what)
        for k in meta:
            if k != "status" and old.get(k) != meta[k]:
                raise RunFolderError(f"cannot resume: the {what} in {str(out)!r} was started with {k} = "
                                     f"{_show(old.get(k))}, this one has {k} = {_show(meta[k])}: use the same options "
                                     "or --overwrite")
        check_runs_resumable(configs, "run")
    state = {**meta, "status": "running"}
    out.mkdir(parents=True, exist_ok=True)
    rf.save_state(out / state_file, state)
    rf.write_settings(out, settings)

    try:
        with bar(what, len(configs), unit="runs", on=progress) as runs:
            for i, cfg in enumerate(configs):
                if on_run:
                    on_run(i, len(configs), cfg)
                folder = Path(cfg.out)
                has = (folder / rf.MANIFEST).is_file()
                if not (resume and has and rf.read_manifest(folder).get("status") == "complete"):
                    simulate(cfg, resume=resume and has, progress=progress, label=f"run {folder.name}")
                runs.advance(1)
    except BaseException as e:
        state["status"] = "interrupted" if isinstance(e, KeyboardInterrupt) else "failed"
        rf.save_state(out / state_file, state)
        raise
    state["status"] = "complete"
    rf.save_state(out / state_file, state)
    return state


def _show(v) -> str:
    return json.dumps(v, sort_keys=True) if not isinstance(v, str) else v


def _read(out: Path, state_file: str, what: str) -> dict:
    p = out / state_file
    if not p.is_file():
        raise RunFolderError(f"nothing to resume: {str(out)!r} holds no {what} (no {state_file})")
    return rf.read_state(p, f"a saved {what}")


def read_state(out: Path | str, state_file: str = COMPARE_FILE, what: str = "comparison") -> dict:
    """The saved state of a study folder (RunFolderError when missing or unreadable;
    :func:`meeplelab.play.runfolder.read_study_state`)."""
    return rf.read_study_state(out, state_file, what)


def study_spec(state_file: str, ours: tuple = (), what: str = "comparison") -> rf.StudyFolder:
    """The folder of a study of :func:`play_folders` (:class:`meeplelab.play.runfolder.StudyFolder`): its state file,
    the files named in ``ours``, its report and settings, and the runs its state file lists; other entries are kept."""
    def runs(out: Path) -> list[str]:
        return [r for r in read_state(out, state_file, what).get("runs", []) if isinstance(r, str) and ".." not in r]
    return rf.StudyFolder(what, state_file, (*ours, "report", rf.SETTINGS), members=runs, keeps_others=True)


def content_changes_by_arm(game: str, arms: list[Arm]) -> dict[str, list[str]]:
    """Per arm after the first that plays a content folder, what its content changes against the first arm's
    (the packaged content when the first arm has no folder): ``{label: lines}`` of
    :func:`meeplelab.sim.core.content.content_changes` (``"treatises.toml card 'pendulum' books: 1 -> 2"``), so a
    comparison names the edited card, not only its content hash."""
    ref = arms[0].content or str(get_game_class(game).default_content_dir())
    return {a.label: content_changes(ref, a.content) for a in arms[1:] if a.content is not None}


def run_compare(base: RunConfig, arm_texts: list[str], players: list[int], strategies: tuple[str, ...] | None = None,
                *, field: str = "scripted", overwrite: bool = False, resume: bool = False,
                on_run: Callable[[int, int, RunConfig], None] | None = None, progress: bool = False,
                settings: str | None = None, retune: int = 0, say: Callable[[str], None] | None = None) -> dict:
    """Plan, play every arm at every player count into ``base.out``, write ``deltas.parquet``/``deltas.csv``
    and the report; returns ``{"arms", "configs", "deltas" (DataFrame), "page", "state", "content_changes"}``
    (:func:`content_changes_by_arm`). ``field``: see :func:`plan_compare`. ``base``'s
    execution fields (``n_jobs``, ``backend``, ``scheduler``, ``batch_size``) are every run's; ``progress``
    and ``settings``: see :func:`play_folders`. ``retune`` (games of each re-tuning, 0: players fixed): every
    tunable roster entry is re-tuned to each arm's rules and the arm played again at each player count
    (:func:`meeplelab.studies.retune.run_retuned`: ``OUT/retuned/<arm>-p<P>/run``, recorded in
    ``OUT/retuned-p<P>.json``); the report then gives each strategy's change with the players fixed and re-tuned
    and what changed in the re-tuned players' play. ``say`` receives a line per re-tuning.

    Raises:
        ConfigError: see :func:`plan_compare` and :func:`check_retune` (nothing is written then).
        RunFolderError, KeyboardInterrupt: see :func:`play_folders`.
    """
    arms, configs = plan_compare(base, arm_texts, players, strategies, field)
    check_retune(arms, configs[:len(players)], retune)
    out = Path(base.out)
    meta = {"kind": "compare", "game": base.game, "players": players, "games": base.games, "seed": base.seed,
            "strategies": {str(p): list(c.strategies) for p, c in zip(players, configs)},
            "arms": [{"label": a.label, "spec": a.spec, "params": a.params, "content": a.content} for a in arms],
            "runs": [str(Path(c.out).relative_to(out)) for c in configs],
            "seating_plan": {str(c.players): c.plan_for().describe() for c in configs[:len(players)]}}
    if retune:
        meta["retune"] = retune  # a resume with another budget is refused by the saved request
    ours = ("deltas.parquet", "deltas.csv", *(f"retuned-p{p}.json" for p in players), "retuned")
    with study(out, COMPARE_FILE, ours, "comparison", resume=resume, overwrite=overwrite) as work:
        state = play_folders(configs, out, meta, COMPARE_FILE, ours=ours, overwrite=overwrite, resume=resume,
                             what="comparison", on_run=on_run, progress=progress, settings=settings)
        _retune_arms(arms, configs[:len(players)], base.params, work, retune, progress=progress, say=say)
        deltas, page = write_outputs(work, progress=progress)  # swapped in with the runs
    return {"arms": arms, "configs": configs, "deltas": deltas, "page": Path(rf.rebase(page, work, out)),
            "state": state, "content_changes": content_changes_by_arm(base.game, arms)}


def check_retune(arms: list[Arm], refs: list[RunConfig], retune: int) -> None:
    """``compare --retune BUDGET`` checked before any game: 0 (players fixed) or a budget
    :func:`meeplelab.studies.retune.check` accepts for the reference arm's run at every player count (``refs``);
    every arm a rule-parameter version (the tuning plays the packaged content).

    Raises:
        ConfigError: a negative budget, an arm with a content folder, or what that check refuses.
    """
    if retune < 0:
        raise ConfigError(f"--retune {retune}: allowed 0 (players fixed) or the games of each re-tuning")
    if not retune:
        return
    for a in arms:
        if a.content is not None:
            raise ConfigError(f"--retune {retune}: --arm {a.spec!r} plays a content folder, and the re-tuning plays the "
                              "packaged content; allowed with --retune: arms of rule parameters (NAME=VALUE)")
    for cfg in refs:
        check_tunable(cfg, retune, RETUNE_GAMES_PER_TRIAL)


#: games per lineup per trial of ``compare --retune``'s tunings
RETUNE_GAMES_PER_TRIAL = 25


def _retune_arms(arms: list[Arm], refs: list[RunConfig], common: dict, work: Path, retune: int, *, progress: bool,
                 say: Callable[[str], None] | None) -> None:
    """Re-tune and play again every arm at every player count (``refs``: the reference arm's runs; ``common``: the
    ``--set`` values every arm shares) in ``work``, the folder the comparison is built in; without ``retune``, remove
    a re-tuning an earlier comparison left there."""
    if not retune:
        for p in work.glob("retuned-p*.json"):
            p.unlink()
        if (work / "retuned").is_dir() and not (work / "retuned").is_symlink():
            shutil.rmtree(work / "retuned")
        return
    own = [{k: v for k, v in a.params.items() if k not in common} for a in arms]  # each arm's own rule values
    for i, ref in enumerate(refs):
        cfg = dataclasses.replace(ref, params=dict(common))
        run_retuned(cfg, own, [f"{a.label}-p{cfg.players}" for a in arms], work, retune,
                    games_per_trial=RETUNE_GAMES_PER_TRIAL, progress=progress, say=say,
                    file=f"retuned-p{cfg.players}.json", fresh=i == 0)


def write_outputs(out: Path | str, *, progress: bool = False) -> tuple[pl.DataFrame, Path]:
    """For a ``meeplelab compare`` folder: the delta table (``deltas.parquet`` and ``deltas.csv``, the same
    bytes for the same games; :func:`meeplelab.analysis.compare.delta_table`) and the report (``out/report``;
    ``progress`` draws its bar); returns ``(table, report page)``.

    Raises:
        RunFolderError: ``out`` is not a comparison folder, or its runs do not read.
    """
    out = Path(out)
    meta = read_state(out, COMPARE_FILE, "comparison")
    folders = [out / r for r in meta["runs"]]
    runs = load_runs(folders)
    t = delta_table(runs, versions(runs))
    write_table(t, out / "deltas.parquet")
    rf.write_atomic(out / "deltas.csv", _csv(t))
    again = retuned_sections(out, meta["players"])
    page = build_report(folders, out / "report", progress=progress,
                        sections=(lambda r: _after_who_gains(build_sections(r), again)) if again else None)
    return t, page


def retuned_sections(out: Path, players: list[int]) -> list:
    """``compare --retune``: per player count the section "Players fixed and players re-tuned"
    (:func:`meeplelab.analysis.retune.section` of ``out/retuned-p<P>.json``): each strategy's change between the arms
    with the players fixed and re-tuned to each arm's rules, and what changed in the re-tuned players' play."""
    secs = [retune_section(out, f"retuned-p{p}.json", f"Players fixed and players re-tuned ({p} players)")
            for p in players]
    return [s for s in secs if s is not None]


def _after_who_gains(secs: list, extra: list) -> list:
    """``secs`` with ``extra`` put after the section "Who gains, by how much" (after the first section without it)."""
    at = next((i + 1 for i, s in enumerate(secs) if s.title == "Who gains, by how much"), 1)
    return secs[:at] + extra + secs[at:]


def result_lines(res: dict, out: Path, players: list[int], retune: int) -> Iterator[str]:
    """What ``meeplelab compare`` says after :func:`run_compare` returned ``res`` for the comparison in ``out``: who
    gains and by how much (every strategy, first), each arm's content changes, a changed rule no player used, with
    ``retune`` the players re-tuned to each arm (at each of ``players``), one line per rule/content version, the
    rows that changed, then where everything was written (lines, one at a time as they are known)."""
    yield from summary_lines(res["deltas"])
    ref = res["arms"][0].label
    for label, lines in res["content_changes"].items():
        if not lines:
            yield f"{label}: the same content as {ref} (its files differ only in comments or layout)"
        else:
            more = f"; and {len(lines) - 12} more" if len(lines) > 12 else ""
            yield f"{label} changes the content of {ref}: " + "; ".join(lines[:12]) + more
    loaded = load_runs([Path(c.out) for c in res["configs"]])
    yield from change_use_lines(change_uses(loaded, versions(loaded)))  # a changed rule no player used
    yield from (retuned_lines(out, players) if retune else [])
    for v in versions(loaded):
        yield version_line(loaded, v)
    yield from changed_lines(res["deltas"], limit=25)
    yield f"wrote {len(res['configs'])} runs to {out}; every delta in {out / 'deltas.csv'}; report {res['page']}"
