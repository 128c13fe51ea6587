"""Parameter sweeps: one run per parameter variant, all on common seeds.

``run_sweep(base, {"abjure_suspicion_drop": ["3", "4", "5"]}, out)`` plays every variant (the
cartesian product of the ``vary`` lists) with the same seed, so game ``i`` of each variant starts
from the same shuffles (common random numbers) and differences between variants can be paired
game by game. Each variant is an ordinary run folder under ``out/``; ``out/sweep.json`` lists
them.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Callable

from . import runfolder as rf
from .config import RunConfig
from .core.errors import ConfigError, RunFolderError
from .core.params import apply_overrides
from .registry import get_game_class
from .runner import simulate

SWEEP_FILE = "sweep.json"


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

    Raises:
        ConfigError: an unknown parameter or a bad value (checked for all variants before any game).
        RunFolderError: ``out`` holds another sweep (without resume/overwrite).
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
    sweep_file = out / SWEEP_FILE
    if sweep_file.exists() and not (resume or overwrite):
        raise RunFolderError(f"output folder {str(out)!r} holds another sweep: use --resume or --overwrite")
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


def read_sweep(out: Path | str) -> dict:
    """The sweep.json of a sweep folder (RunFolderError when missing)."""
    p = Path(out) / SWEEP_FILE
    if not p.is_file():
        raise RunFolderError(f"{str(out)!r} is not a sweep folder: no {SWEEP_FILE}")
    return json.loads(p.read_text())
