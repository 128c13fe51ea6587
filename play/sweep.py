"""Parameter sweeps: one run per parameter variant, all on common seeds.

``run_sweep(base, {"abjure_suspicion_drop": ["3", "4", "5"]}, out)`` plays every variant (the
cartesian product of the ``vary`` lists) with the same seed, so game ``i`` of each variant starts
from the same shuffles (common random numbers) and differences between variants can be paired
game by game. Each variant is an ordinary run folder under ``out/``; ``out/sweep.json`` lists
them. ``overwrite`` replaces an earlier sweep whole: the variant folders its sweep.json lists, any
other variant-named run folder, and its report are deleted (run folders only, all checked first),
so a smaller sweep leaves no stale variant.
A folder that is neither empty nor a sweep is refused, never written into or deleted.

``resume`` completes an interrupted sweep (``sweep.json`` status ``interrupted`` or ``failed``) and
refuses when the requested sweep differs from the saved one (the varied values, or any setting of the
base run: players, strategies, games, seed, ``--set`` parameters...), naming the difference. Every
check (duplicate values, a parameter both varied and fixed, bad values) runs before anything is written.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from pathlib import Path
from typing import Callable

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError, RunFolderError
from meeplelab.sim.core.params import _parse as parse_value
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.registry import get_game_class
from meeplelab.play.runner import check_runs_resumable
from meeplelab.play.runner import simulate
from meeplelab.play.progress import bar

SWEEP_FILE = "sweep.json"
#: folder names of variants (``name=value[,name=value...]``, see :func:`variant_name`)
VARIANT_DIR = re.compile(r"[A-Za-z_]\w*=[^,/\\]*(,[A-Za-z_]\w*=[^,/\\]*)*")


def parse_vary(items: list[str]) -> dict[str, list[str]]:
    """``["a=1,2,3"]`` -> ``{"a": ["1", "2", "3"]}``.

    Raises:
        ConfigError: a malformed item, fewer than two values, a value listed twice, or a parameter
            given in two ``--vary`` options.
    """
    out: dict[str, list[str]] = {}
    for it in items:
        if "=" not in it:
            raise ConfigError(f"--vary {it!r} needs the form name=value1,value2,...")
        k, v = it.split("=", 1)
        k = k.strip()
        vals = [x.strip() for x in v.split(",") if x.strip()]
        if len(vals) < 2:
            raise ConfigError(f"--vary {it!r} needs at least two values")
        dup = next((x for i, x in enumerate(vals) if x in vals[:i]), None)
        if dup is not None:
            raise ConfigError(f"--vary {it!r} lists the value {dup!r} twice: list each value once")
        if k in out:
            raise ConfigError(f"parameter {k!r} is given in two --vary options ({k}={','.join(out[k])} and {it.strip()}): "
                              f"list all its values in one, as {k}={','.join(out[k] + vals)}")
        out[k] = vals
    if not out:
        raise ConfigError("a sweep needs at least one --vary name=v1,v2")
    return out


def format_vary(vary: dict[str, list]) -> str:
    """``{"a": ["1", "2"]}`` -> ``"a=1,2"`` (several parameters separated by spaces)."""
    return " ".join(f"{k}={','.join(map(str, v))}" for k, v in vary.items())


def variant_name(values: dict[str, str]) -> str:
    """Folder name of a variant (``abjure_suspicion_drop=4``)."""
    return ",".join(f"{k}={v}" for k, v in values.items())


def run_sweep(base: RunConfig, vary: dict[str, list[str]], out: Path | str, *, resume: bool = False,
              overwrite: bool = False, progress: bool = False,
              on_variant: Callable[[int, int, str], None] | None = None, settings: str | None = None,
              finish: Callable[[Path], None] | None = None) -> Path:
    """Play every variant into ``out/<variant>/`` and write ``out/sweep.json`` (and ``settings``, the command's
    resolved settings TOML, as ``out/config.toml``: :func:`meeplelab.play.runfolder.write_settings`).

    With ``overwrite``, the new sweep is built beside the earlier one in ``out`` and replaces it (its variant
    folders and report) once complete (:func:`meeplelab.play.runfolder.study_folder`); with ``resume``, finished
    variants are kept and unfinished ones completed (an interrupted overwrite's too, then swapped in). ``finish`` is
    called with the folder the sweep is built in once every variant is played, before that swap (the command's
    ``--retune``). ``progress`` draws a bar of variants and, below it, each variant's games
    (:mod:`meeplelab.play.progress`).

    Raises:
        ConfigError: an unknown parameter or a bad value (checked for all variants before any game), a
            parameter both varied and in ``base.params``, or two values of a parameter that are equal.
        RunFolderError: ``out`` holds another sweep (without resume/overwrite), is not empty and not a
            sweep folder, an earlier variant folder holds files other than a run's, or (``resume``) the
            saved sweep or one of its variant runs differs from this one.
        KeyboardInterrupt: after marking ``sweep.json`` ``interrupted`` (other errors mark it ``failed``).
    """
    out = Path(out)
    cls = get_game_class(base.game)
    both = [k for k in vary if k in base.params]
    if both:
        raise ConfigError(f"parameter {both[0]!r} is given both in --vary and --set: give it in one of them")
    fields = {f.name: f for f in dataclasses.fields(cls.Params)}
    for k, vals in vary.items():
        seen: dict = {}
        for x in vals:
            v = parse_value(k, x, fields[k].default) if k in fields else x  # "1" and "01" are one value
            if v in seen:
                raise ConfigError(f"--vary {k}: the values {seen[v]!r} and {x!r} are the same value: list each value once")
            seen[v] = x
    names = list(vary)
    combos = [dict(zip(names, vals)) for vals in itertools.product(*(vary[n] for n in names))]
    configs = []
    for c in combos:
        params = {**base.params, **c}
        apply_overrides(cls.Params(), params)  # all variants are valid before anything runs
        configs.append(validated(dataclasses.replace(base, params=params, out=str(out / variant_name(c)))))
    base_key = dataclasses.replace(configs[0], params=dict(base.params)).result_key()
    with rf.study_folder(out, STUDY_FOLDER, resume=resume, overwrite=overwrite) as work:
        configs = [dataclasses.replace(c, out=rf.rebase(c.out, out, work)) for c in configs]
        meta = {"game": base.game, "vary": {k: list(v) for k, v in vary.items()}, "seed": base.seed,
                "games": base.games, "base": base_key, "variants": [{"values": c, "folder": variant_name(c)} for c in combos],
                "seating_plan": configs[0].plan_for().describe(), "status": "running"}
        _play_variants(combos, configs, work, meta, resume=resume, progress=progress, on_variant=on_variant,
                       settings=settings)
        if finish is not None:
            finish(work)
    return out


def _play_variants(combos: list[dict], configs: list[RunConfig], out: Path, meta: dict, *, resume: bool,
                   progress: bool, on_variant, settings: str | None) -> None:
    """:func:`run_sweep` in the folder ``out`` it is built in (each variant's run ``configs[i]`` under it)."""
    sweep_file = out / SWEEP_FILE
    if resume and sweep_file.is_file():
        _check_resumable(read_sweep(out), meta)
        check_runs_resumable(configs, "variant")  # finished variants are kept: they must be runs of this sweep
    out.mkdir(parents=True, exist_ok=True)
    rf.write_atomic(sweep_file, json.dumps(meta, indent=1).encode())
    rf.write_settings(out, settings)

    try:
        with bar("sweep", len(configs), unit="variants", on=progress) as variants:
            for i, (c, cfg) in enumerate(zip(combos, configs)):
                if on_variant:
                    on_variant(i, len(configs), variant_name(c))
                folder = Path(cfg.out)
                done = (folder / rf.MANIFEST).is_file() and rf.read_manifest(folder).get("status") == "complete"
                if not (resume and done):
                    simulate(cfg, resume=resume and (folder / rf.MANIFEST).is_file(), progress=progress,
                             label=variant_name(c))
                variants.advance(1)
    except BaseException as e:
        meta["status"] = "interrupted" if isinstance(e, KeyboardInterrupt) else "failed"
        rf.write_atomic(sweep_file, json.dumps(meta, indent=1).encode())
        raise
    meta["status"] = "complete"
    rf.write_atomic(sweep_file, json.dumps(meta, indent=1).encode())


def _check_resumable(old: dict, new: dict) -> None:
    """RunFolderError naming the first setting in which the saved sweep differs from ``new``."""
    if old.get("game") != new["game"]:
        raise RunFolderError(f"cannot resume: the sweep in the folder is of game {old.get('game')!r}, "
                             f"this sweep is of {new['game']!r}")
    old_vary = list((old.get("vary") or {}).items())
    if [(k, list(v)) for k, v in old_vary] != [(k, list(v)) for k, v in new["vary"].items()]:
        raise RunFolderError(f"cannot resume: the sweep in the folder has --vary {format_vary(dict(old_vary))}, "
                             f"this sweep has --vary {format_vary(new['vary'])}")
    a = old.get("base") or {k: old.get(k) for k in ("seed", "games")}  # sweeps written before "base" was saved
    b = new["base"]
    for k in sorted(set(a) | set(b)):
        if k in a and a.get(k) != b.get(k):
            raise RunFolderError(
                f"cannot resume: the sweep in the folder has {k}={a.get(k)!r}, this sweep has {k}={b.get(k)!r}")


def _variant_folders(out: Path) -> list[str]:
    """The variant run folders of the sweep in ``out``: those its sweep.json lists, and variant-named run folders it
    does not list."""
    names = {str(v.get("folder", "")) for v in read_sweep(out).get("variants", []) if isinstance(v, dict)}
    names = {n for n in names if n and "/" not in n and "\\" not in n and n not in (".", "..")}
    return sorted(names | {p.name for p in out.iterdir() if VARIANT_DIR.fullmatch(p.name) and (p / rf.MANIFEST).is_file()})


#: a sweep folder: sweep.json, its variant runs, report, settings and re-tuning (meeplelab.studies.retune's FOLDER and
#: FILE); other entries (a user's notes) are kept
STUDY_FOLDER = rf.StudyFolder("sweep", SWEEP_FILE, ("report", rf.SETTINGS, "retuned", "retuned.json"),
                        members=_variant_folders, keeps_others=True)


def read_sweep(out: Path | str) -> dict:
    """The sweep.json of a sweep folder (RunFolderError when missing or unreadable)."""
    p = Path(out) / SWEEP_FILE
    if not p.is_file():
        raise RunFolderError(f"{str(out)!r} is not a sweep folder: no {SWEEP_FILE}")
    try:
        return json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"{str(p)!r} is unreadable: {e}") from None
