"""Parameter sweeps: one run per parameter variant, all on common seeds.

``run_sweep(base, {"abjure_suspicion_drop": ["3", "4", "5"]}, out)`` plays every variant (the
cartesian product of the ``vary`` lists) with the same seed, so game ``i`` of each variant starts
from the same shuffles (common random numbers) and differences between variants can be paired
game by game. Each variant is an ordinary run folder under ``out/``; ``out/sweep.json`` lists
them. ``overwrite`` replaces an earlier sweep whole: the variant folders its sweep.json lists, any
other variant-named run folder, and its report are deleted (run folders only, all checked first),
so a smaller sweep leaves no stale variant.
A folder that is neither empty nor a sweep is refused, never written into or deleted.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import shutil
from pathlib import Path
from typing import Callable

from . import runfolder as rf
from .config import RunConfig
from .core.errors import ConfigError, RunFolderError
from .core.params import apply_overrides
from .registry import get_game_class
from .runner import simulate

SWEEP_FILE = "sweep.json"
#: folder names of variants (``name=value[,name=value...]``, see :func:`variant_name`)
VARIANT_DIR = re.compile(r"[A-Za-z_]\w*=[^,/\\]*(,[A-Za-z_]\w*=[^,/\\]*)*")


def parse_vary(items: list[str]) -> dict[str, list[str]]:
    """``["a=1,2,3"]`` -> ``{"a": ["1", "2", "3"]}`` (ConfigError on a malformed item)."""
    out: dict[str, list[str]] = {}
    for it in items:
        if "=" not in it:
            raise ConfigError(f"--vary {it!r} needs the form name=value1,value2,...")
        k, v = it.split("=", 1)
        vals = [x.strip() for x in v.split(",") if x.strip()]
        if len(vals) < 2:
            raise ConfigError(f"--vary {it!r} needs at least two values")
        out[k.strip()] = vals
    if not out:
        raise ConfigError("a sweep needs at least one --vary name=v1,v2")
    return out


def variant_name(values: dict[str, str]) -> str:
    """Folder name of a variant (``abjure_suspicion_drop=4``)."""
    return ",".join(f"{k}={v}" for k, v in values.items())


def run_sweep(base: RunConfig, vary: dict[str, list[str]], out: Path | str, *, resume: bool = False,
              overwrite: bool = False, progress: bool = False,
              on_variant: Callable[[int, int, str], None] | None = None) -> Path:
    """Play every variant into ``out/<variant>/`` and write ``out/sweep.json``.

    With ``overwrite``, the earlier sweep in ``out`` (its variant folders and report) is deleted
    first; with ``resume``, finished variants are kept and unfinished ones completed.

    Raises:
        ConfigError: an unknown parameter or a bad value (checked for all variants before any game).
        RunFolderError: ``out`` holds another sweep (without resume/overwrite), is not empty and not a
            sweep folder, or an earlier variant folder holds files other than a run's.
    """
    out = Path(out)
    cls = get_game_class(base.game)
    names = list(vary)
    combos = [dict(zip(names, vals)) for vals in itertools.product(*(vary[n] for n in names))]
    configs = []
    for c in combos:
        params = {**base.params, **c}
        apply_overrides(cls.Params(), params)  # all variants are valid before anything runs
        configs.append(dataclasses.replace(base, params=params, out=str(out / variant_name(c))).validated())
    _prepare_out(out, resume=resume, overwrite=overwrite)
    sweep_file = out / SWEEP_FILE
    out.mkdir(parents=True, exist_ok=True)
    meta = {"game": base.game, "vary": vary, "seed": base.seed, "games": base.games,
            "variants": [{"values": c, "folder": variant_name(c)} for c in combos], "status": "running"}
    rf.write_atomic(sweep_file, json.dumps(meta, indent=1).encode())
    for i, (c, cfg) in enumerate(zip(combos, configs)):
        if on_variant:
            on_variant(i, len(configs), variant_name(c))
        folder = Path(cfg.out)
        done = (folder / rf.MANIFEST).is_file() and rf.read_manifest(folder).get("status") == "complete"
        if resume and done:
            continue
        simulate(cfg, resume=resume and (folder / rf.MANIFEST).is_file(), overwrite=overwrite, progress=progress)
    meta["status"] = "complete"
    rf.write_atomic(sweep_file, json.dumps(meta, indent=1).encode())
    return out


def _prepare_out(out: Path, *, resume: bool, overwrite: bool) -> None:
    """Check ``out`` and, with ``overwrite``, delete the earlier sweep in it (see :func:`run_sweep`)."""
    if resume and overwrite:
        raise RunFolderError("--resume and --overwrite exclude each other: choose one")
    if out.exists() and not out.is_dir():
        raise RunFolderError(f"output path {str(out)!r} is a file, not a folder")
    if not (out / SWEEP_FILE).is_file():
        others = sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) if out.is_dir() else []
        if others:
            raise RunFolderError(
                f"output folder {str(out)!r} is not empty and not a sweep folder (holds {others[0]!r}): choose a new --out")
        return
    if not (resume or overwrite):
        raise RunFolderError(f"output folder {str(out)!r} holds another sweep: use --resume or --overwrite")
    if not overwrite:
        return
    old = read_sweep(out)
    names = {str(v.get("folder", "")) for v in old.get("variants", []) if isinstance(v, dict)}
    names = {n for n in names if n and "/" not in n and "\\" not in n and n not in (".", "..")}
    # variant run folders that an earlier sweep.json no longer lists (left by older versions)
    names |= {p.name for p in out.iterdir() if VARIANT_DIR.fullmatch(p.name) and (p / rf.MANIFEST).is_file()}
    rf.remove_runs([out / n for n in sorted(names)])
    report = out / "report"
    if report.is_dir() and not report.is_symlink() and (report / "report.html").is_file():
        shutil.rmtree(report)
    (out / SWEEP_FILE).unlink()


def read_sweep(out: Path | str) -> dict:
    """The sweep.json of a sweep folder (RunFolderError when missing or unreadable)."""
    p = Path(out) / SWEEP_FILE
    if not p.is_file():
        raise RunFolderError(f"{str(out)!r} is not a sweep folder: no {SWEEP_FILE}")
    try:
        return json.loads(p.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunFolderError(f"{str(p)!r} is unreadable: {e}") from None
