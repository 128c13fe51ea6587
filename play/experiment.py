"""Experiments: effects measured by intervention, on common random numbers in every seat order.

An experiment plays a *control* and its *variants*, each an ordinary run folder under ``out/``, all
with the same seed and the same seat orders (rotated seating by default), so game ``i`` of every
variant is the same game seed in the same seat order: the variants differ only by the intervention.
``meeplelab.analysis.experiment`` reports paired differences against the control.

Axes (``--vary``), one per experiment:

- a **strategy argument**: ``abjure-at.cycle=1,2,3,4`` plays ``abjure-at:cycle=1`` ... in the
  focal roster entry (position 0) against the ``--control`` strategy (``never-abjure``) there;
- a **strategy**: ``strategy=citer`` plays whole strategy ids in the focal entry against the
  ``--control`` strategy (``never-cite``: citing vs never citing);
- a **rule parameter**: ``truth_vp_per_tile=0,2,4`` plays every value with the same roster; the
  first value is the control;
- a **treatment** (``--treat coffee+1``): the focal entry starts with one more (``-1``: one fewer) of a
  start resource the game declares (``GameSpec.start_resources``, :mod:`meeplelab.sim.core.start`: Galileo's Truth
  coins, research, suspicion, books_<subject>, vp; Unconscious Mind coffee, bright, ideas, white, vp; a
  game that declares none takes any per-seat state array), against the untreated control.

``out/experiment.json`` lists the arms with the settings and a status (``running``, ``interrupted``,
``failed``, ``complete``); ``resume`` completes an interrupted experiment (finished arms kept, the
interrupted arm's run resumed) and refuses a different one, naming the difference.

The focal entry moves through the seats with the rotation, so the effect is averaged over seats.
The field (the other roster entries) must not repeat the focal ids, so that every variant has the
same seat orders.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.registry import get_game_class
from meeplelab.play.runner import check_runs_resumable
from meeplelab.play.runner import simulate
from meeplelab.play.progress import bar
from meeplelab.play.treatments import start_resources
from meeplelab.sim.core import start
from meeplelab.sim.core.start import find
from meeplelab.sim.registry import make_game
from meeplelab.strategies.registry import make_strategy, strategies_for

EXPERIMENT_FILE = "experiment.json"
_TREAT = re.compile(r"([a-z_]\w*)([+-]\d+)")


@dataclass(frozen=True)
class Variant:
    """One arm of an experiment: ``label`` (``control`` for the control), its run config and what
    changed (``{"strategy": id}``, ``{"param": name, "value": v}`` or ``{"treatment": ...}``)."""

    label: str
    config: RunConfig
    change: dict


def parse_treatment(text: str, game: str | None = None) -> dict:
    """``"coffee+1"`` -> ``{"position": 0, "field": "coffee", "add": 1}``.

    With ``game``, the name must be one of the start resources its spec declares
    (``GameSpec.start_resources``; the refusal lists them).

    Raises:
        ConfigError: not of the form field+n / field-n, or (with ``game``) not a declared start resource.
    """
    res = start_resources(game) if game else ()
    m = _TREAT.fullmatch(text.strip())
    if not m:
        listed = f" with field one of {', '.join(r.name for r in res)}" if res else ""
        raise ConfigError(f"--treat {text!r} needs the form field+n or field-n{listed} (e.g. "
                          f"{res[0].name if res else 'coffee'}+1: one more at the start for the focal player)")
    if game and res:
        find(res, m.group(1), game, text=text.strip())
    return {"position": 0, "field": m.group(1), "add": int(m.group(2))}


def _check_treated_start(base: RunConfig, t: dict, text: str) -> None:
    """Refuse a treatment that would start a seat outside what the rules allow for the resource: below
    its floor (``coffee-99``; 0 for every resource but VP) or, for Suspicion, at or above Prison. The start
    values are read from one game set up under the experiment's rules.

    Raises:
        ConfigError: the treated start value would leave the allowed range.
    """
    import numpy as np

    params = apply_overrides(get_game_class(base.game).Params(), base.params or {})
    game = make_game(base.game, params, base.content)
    state = game.init(np.zeros(1, dtype=np.int64), base.seed, base.players)
    res = start_resources(base.game)
    if res:
        start.check_start(start.find(res, t["field"], base.game), state, params, t["add"], text)
        return
    values = getattr(state, t["field"], None)
    if values is None:
        return  # an unknown field is refused with the field list where the treatment is checked
    low = int(np.min(values[0])) + t["add"]
    if low < 0:
        least = int(np.min(values[0]))
        raise ConfigError(f"--treat {text!r}: a seat would start with {low} {t['field']}; allowed: a start value of 0 "
                          f"or more ({t['field']} starts at {least} here, so at most {t['field']}-{least})")


def plan_experiment(base: RunConfig, *, vary: str | None = None, control: str | None = None,
                    treat: str | None = None) -> list[Variant]:
    """The control and variants of an experiment (all validated before anything runs).

    Args:
        base: players, the field (``strategies``: the other roster entries when ``control`` is
            given, else the whole roster), games per arm, seed, seating, fixed ``params``.
        vary: ``strategy.arg=v1,v2``, ``strategy=id1,id2`` (whole focal strategies) or ``param=v1,v2``
            (one axis), or None with ``treat``.
        control: the focal strategy of the control arm (strategy-argument axes and treatments).
        treat: a treatment ``field+n`` of the focal entry.

    Raises:
        ConfigError: a malformed axis, fewer than one variant, a focal id repeated in the field, an
            unknown parameter or strategy, bad values.
    """
    if (vary is None) == (treat is None):
        raise ConfigError("an experiment needs exactly one of --vary (a strategy argument or rule parameter) "
                          "and --treat (field+n)")
    field_ids = tuple(base.strategies)
    axis = vary.split("=", 1)[0].strip() if vary is not None else ""
    if treat is not None or "." in axis or axis == "strategy":
        arms = _focal_arms(base, field_ids, axis, vary=vary, control=control, treat=treat)
    else:
        assert vary is not None  # exactly one of vary and treat
        arms = _param_arms(base, field_ids, vary, control)
    labels = [a[0] for a in arms]
    dup = next((x for i, x in enumerate(labels) if x in labels[:i]), None)
    if dup is not None:
        raise ConfigError(f"the variant {dup!r} is listed twice: list each value once")
    cls = get_game_class(base.game)
    out = []
    for label, roster, params, treatment, change in arms:
        p = {**base.params, **params}
        apply_overrides(cls.Params(), p)
        cfg = validated(dataclasses.replace(base, strategies=roster, params=p, treatment=treatment,
                                  out=str(Path(base.out) / _folder(label))))
        out.append(Variant(label, cfg, change))
    n = {len(v.config.plan_for().orders) for v in out}
    if len(n) != 1:  # pragma: no cover - the clash check above makes this impossible
        raise ConfigError("the arms of this experiment would have different seat orders")
    return out


#: one arm before it is validated: (label, roster, rule parameters, treatment or None, change as recorded)
_Arm = tuple[str, tuple[str, ...], dict, "dict | None", dict]


def _focal_arms(base: RunConfig, field_ids: tuple[str, ...], axis: str, *, vary: str | None,
                control: str | None, treat: str | None) -> list[_Arm]:
    """The arms of a strategy-argument axis, a whole-strategy axis or a treatment (:func:`plan_experiment`): the
    focal player (``control``, then each variant or the treated control) in seat 0 of the roster, the field
    ``field_ids`` in the others.

    Raises:
        ConfigError: no ``control``, a field of the wrong size, a malformed axis, a bad treatment, or a field
            repeating a focal strategy.
    """
    arms: list[_Arm] = []
    if not control:
        raise ConfigError("a strategy-argument axis or a treatment needs --control STRATEGY (the focal "
                          "player's control, e.g. never-abjure)")
    if len(field_ids) + 1 != base.players:
        raise ConfigError(f"--strategies gives the field: {base.players - 1} strategies for the seats besides "
                          f"the focal player, got {len(field_ids)}")
    arms.append(("control", (control,) + field_ids, {}, None, {"strategy": control}))
    if treat is not None:
        t = parse_treatment(treat, base.game)
        _check_treated_start(base, t, treat.strip())
        arms.append((treat.strip(), (control,) + field_ids, {}, t, {"treatment": treat.strip()}))
    else:
        assert vary is not None  # exactly one of vary and treat
        name_arg, _, vals = vary.partition("=")
        name, _, arg = name_arg.strip().partition(".")
        values = [v.strip() for v in vals.split(",") if v.strip()]
        if axis == "strategy":
            if not values:
                raise ConfigError(f"--vary {vary!r} needs the form strategy=id1,id2 (strategy=citer)")
        elif not name or not arg or not values:
            raise ConfigError(f"--vary {vary!r} needs the form strategy.argument=v1,v2 (abjure-at.cycle=1,2,3,4)")
        for v in values:
            sid = v if axis == "strategy" else f"{name}:{arg}={v}"
            arms.append((sid, (sid,) + field_ids, {}, None, {"strategy": sid}))
    # the same player under another spelling (a preset path written ./docs/... or docs/...) is a repeat too
    focal = {make_strategy(base.game, a[1][0]).id: a[1][0] for a in arms}
    clash = sorted((focal[p], f) for f in field_ids if (p := make_strategy(base.game, f).id) in focal)
    if clash:
        same = f" (the field's {clash[0][1]!r} is the same player)" if clash[0][1] != clash[0][0] else ""
        raise ConfigError(f"the field repeats the focal strategy {clash[0][0]!r}{same}: choose field strategies "
                          "other than the control and the variants, so every arm has the same seat orders")
    return arms


def _param_arms(base: RunConfig, field_ids: tuple[str, ...], vary: str, control: str | None) -> list[_Arm]:
    """The arms of a rule-parameter axis ``vary`` (``param=v1,v2``; the first value is the control), every arm
    with the roster ``field_ids`` (one id: a mirror match).

    Raises:
        ConfigError: an unknown parameter, a ``control`` given, fewer than two values, or the parameter also
            given in ``--set``.
    """
    arms: list[_Arm] = []
    name, _, vals = vary.partition("=")
    name = name.strip()
    _check_param_axis(base.game, name, vary)  # an unknown axis is named before --control is questioned
    if control:
        raise ConfigError("--control is for strategy-argument axes and treatments; a rule-parameter axis "
                          "uses its first value as the control")
    values = [v.strip() for v in vals.split(",") if v.strip()]
    if len(values) < 2:
        raise ConfigError(f"--vary {vary!r} needs at least two values (the first is the control)")
    if name in base.params:
        raise ConfigError(f"parameter {name!r} is given both in --vary and --set: give it in one of them")
    roster = field_ids if len(field_ids) > 1 else field_ids * base.players
    for i, v in enumerate(values):
        arms.append(("control" if i == 0 else f"{name}={v}", roster, {name: v}, None,
                     {"param": name, "value": v}))
    return arms


def _check_param_axis(game: str, name: str, vary: str) -> None:
    """ConfigError unless ``name`` (the axis of ``--vary name=...`` without a dot) is a rule parameter of
    ``game``: the message names the axis and lists what is allowed (the parameters, or the close ones, and
    the strategy-argument and strategy axes; a strategy id given without its argument names its arguments).

    Raises:
        ConfigError: ``name`` is not a rule parameter.
    """
    import difflib

    fields = [f.name for f in dataclasses.fields(get_game_class(game).Params)]
    if name in fields:
        return
    forms = "strategy.argument=v1,v2 (abjure-at.cycle=1,2,3,4, with --control) or strategy=id1,id2 (with --control)"
    info = next((s for s in strategies_for(game) if s.name == name), None)
    if info is not None:
        args = ", ".join(info.args) or "none"
        raise ConfigError(f"--vary {vary!r}: {name!r} is a strategy, not a rule parameter; vary one of its arguments "
                          f"as {name}.ARGUMENT=v1,v2 (its arguments: {args}) against --control, or whole strategies "
                          f"as strategy={name},OTHER")
    close = difflib.get_close_matches(name, fields, n=3, cutoff=0.5)
    params = f"one of {len(fields)}: {', '.join(fields)}" + (f"; did you mean {', '.join(close)}?" if close else "")
    raise ConfigError(f"--vary {vary!r}: {name!r} is not a rule parameter of {game}; allowed: a rule parameter "
                      f"({params}), {forms}")


def _folder(label: str) -> str:
    return "control" if label == "control" else re.sub(r"[^A-Za-z0-9_.=+-]", "_", label)


def run_experiment(variants: list[Variant], out: Path | str, *, overwrite: bool = False, resume: bool = False,
                   on_variant: Callable[[int, int, str], None] | None = None, settings: str | None = None,
                   progress: bool = False, finish: Callable[[Path], None] | None = None) -> Path:
    """Play every arm into ``out/<arm>/`` and write ``out/experiment.json`` (and ``settings``, the command's
    resolved settings TOML, as ``out/config.toml``).

    ``progress`` draws a bar of arms and, below it, each arm's games (:mod:`meeplelab.play.progress`).

    With ``resume`` the finished arms are kept and the others completed (each arm's run resumed where
    it stopped); the saved experiment must be this one (game, players, games, seed, seating, ``--set``
    parameters and the arms), and every arm folder already holding a run must be that arm's run. With
    ``overwrite`` the new experiment is built beside the earlier one and replaces it once complete
    (:func:`meeplelab.play.runfolder.study_folder`); ``resume`` completes such an interrupted overwrite. ``finish``
    is called with the folder the experiment is built in once every arm is played, before that swap (the
    command's ``--retune``).

    Raises:
        RunFolderError: ``out`` holds something other than an experiment, or an experiment without
            ``overwrite`` or ``resume``; (``resume``) nothing to resume, or the saved experiment differs
            (the first difference named).
        KeyboardInterrupt: after marking ``experiment.json`` ``interrupted`` (other errors: ``failed``).
    """
    out = Path(out)
    with rf.study_folder(out, STUDY_FOLDER, resume=resume, overwrite=overwrite) as work:
        variants = [dataclasses.replace(v, config=dataclasses.replace(v.config, out=rf.rebase(v.config.out, out, work)))
                    for v in variants]
        _play_arms(variants, work, resume=resume, on_variant=on_variant, settings=settings, progress=progress)
        if finish is not None:
            finish(work)
    return out


def _play_arms(variants: list[Variant], out: Path, *, resume: bool, on_variant, settings: str | None,
               progress: bool) -> None:
    """:func:`run_experiment` in the folder ``out`` it is built in (each arm's run in its folder under it)."""
    c0 = variants[0].config
    meta = {"game": c0.game, "players": c0.players, "seed": c0.seed, "games": c0.games, "seating": c0.seating,
            "params": {k: str(v) for k, v in sorted(_fixed_params(variants).items())},
            "control": variants[0].label, "focal_position": 0 if "strategy" in variants[0].change else None,
            "arms": [{"label": v.label, "folder": Path(v.config.out).name, "change": v.change,
                      "strategies": list(v.config.strategies)} for v in variants],
            "seating_plan": c0.plan_for().describe(), "status": "running"}
    if resume:
        _check_resumable(read_experiment(out), meta)
        check_runs_resumable([v.config for v in variants], "arm")
    out.mkdir(parents=True, exist_ok=True)
    rf.write_atomic(out / EXPERIMENT_FILE, json.dumps(meta, indent=1).encode())
    rf.write_settings(out, settings)

    try:
        with bar("experiment", len(variants), unit="arms", on=progress) as arms:
            for i, v in enumerate(variants):
                if on_variant:
                    on_variant(i, len(variants), v.label)
                folder = Path(v.config.out)
                has = (folder / rf.MANIFEST).is_file()
                if not (resume and has and rf.read_manifest(folder).get("status") == "complete"):
                    simulate(v.config, resume=resume and has, progress=progress, label=f"arm {v.label}")
                arms.advance(1)
    except BaseException as e:
        meta["status"] = "interrupted" if isinstance(e, KeyboardInterrupt) else "failed"
        rf.write_atomic(out / EXPERIMENT_FILE, json.dumps(meta, indent=1).encode())
        raise
    meta["status"] = "complete"
    rf.write_atomic(out / EXPERIMENT_FILE, json.dumps(meta, indent=1).encode())


def _fixed_params(variants: list[Variant]) -> dict:
    """The ``--set`` parameters every arm shares (a rule-parameter axis adds its own to each arm)."""
    common = dict(variants[0].config.params)
    for v in variants[1:]:
        common = {k: x for k, x in common.items() if v.config.params.get(k) == x}
    return common


#: the saved settings compared on --resume, with the option that sets each
_RESUME_KEYS = {"game": "--game", "players": "--players", "games": "--games", "seed": "--seed",
                "seating": "--seating", "params": "--set", "arms": "the arms (--vary/--control/--treat/--strategies)"}


def _check_resumable(old: dict, new: dict) -> None:
    """RunFolderError naming the first setting in which the saved experiment differs from ``new``."""
    for k, opt in _RESUME_KEYS.items():
        if k not in old and k == "params":
            continue  # an experiment.json written before the parameters were saved: the arm runs are compared
        a, b = old.get(k), new[k]
        if k == "arms":
            a = [(x.get("label"), x.get("strategies")) for x in a or []]
            b = [(x["label"], x["strategies"]) for x in b]
            if a != b:
                raise RunFolderError(
                    f"cannot resume: the experiment in the folder has the arms {_arms(old.get('arms'))}, this "
                    f"experiment has {_arms(new['arms'])}: use the same options or --overwrite")
            continue
        if a != b:
            show = (lambda v: ",".join(f"{x}={y}" for x, y in v.items()) or "(none)") if k == "params" else str
            raise RunFolderError(f"cannot resume: the experiment in the folder has {opt} {show(a)}, this experiment "
                                 f"has {opt} {show(b)}: use the same options or --overwrite")


def _arms(arms) -> str:
    return "; ".join(f"{a.get('label')} ({','.join(a.get('strategies') or [])})" for a in arms or [])


def read_experiment(out: Path | str) -> dict:
    """The experiment.json of an experiment folder (RunFolderError when missing or unreadable)."""
    p = Path(out) / EXPERIMENT_FILE
    if not p.is_file():
        raise RunFolderError(f"{str(out)!r} is not an experiment folder: no {EXPERIMENT_FILE}")
    try:
        return json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"{str(p)!r} is unreadable: {e}") from None


def _arm_folders(out: Path) -> list[str]:
    """The arm run folders the experiment.json in ``out`` lists (folders inside it)."""
    return [str(a["folder"]) for a in read_experiment(out).get("arms", [])
            if isinstance(a, dict) and a.get("folder") and "/" not in str(a["folder"])]


#: an experiment folder: experiment.json, its arm runs, report, settings and re-tuning (meeplelab.studies.retune's
#: FOLDER and FILE); other entries (a user's notes) are kept
STUDY_FOLDER = rf.StudyFolder("experiment", EXPERIMENT_FILE, ("report", rf.SETTINGS, "retuned", "retuned.json"),
                        members=_arm_folders, keeps_others=True)
