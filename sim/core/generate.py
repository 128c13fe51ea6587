"""``python -m meeplelab.sim.core.generate``: write every generated module of every engine, from any folder.

Each engine package declares what is written from what in its ``generate.toml``::

    layouts = [{source = "meeplelab.sim.galileos_truth.state:LAYOUT", target = "cols.py"}]   # column constants
    decisions = "meeplelab.sim.galileos_truth.rules.decisions"                               # -> its DISPATCH_MODULE
    compiled = true                                                # choice.py, lookahead.py, ismcts.py, play.py

The command finds every ``generate.toml`` under the repository's ``sim/`` and ``tests/`` folders (or
takes engine packages by name), reads the declarations from the source files alone
(:func:`meeplelab.sim.core.source.load_alone`: no generator imports the package it writes), and writes a file
only when its text changes (an unchanged file keeps its time stamp, so numba's cache stays valid).
``--check`` writes nothing and exits 1 naming every stale file.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

#: the repository holding this source tree (``sim/core/generate.py`` -> the folder above ``sim/``)
ROOT = Path(__file__).resolve().parents[2]
if __package__ in (None, ""):  # run as a script (python sim/core/generate.py): the tree's own packages first
    sys.path.insert(0, str(ROOT))

from meeplelab.sim.core.source import load_alone, package_folder  # noqa: E402
SPEC_FILE = "generate.toml"


def engine_packages(root: Path = ROOT) -> list[str]:
    """Every package under ``root/sim`` and ``root/tests`` with a ``generate.toml``, as dotted names, sorted."""
    found = []
    for top in ("sim", "tests"):
        for f in sorted((root / top).rglob(SPEC_FILE)):
            parts = f.parent.relative_to(root).parts
            found.append(".".join(("meeplelab", *parts) if top == "sim" else parts))
    return sorted(found)


def _spec(pkg: str) -> dict:
    f = package_folder(pkg) / SPEC_FILE
    if not f.is_file():
        raise SystemExit(f"error: {pkg!r} has no {SPEC_FILE}: allowed {', '.join(engine_packages())}")
    return tomllib.loads(f.read_text())


def outputs(pkg: str) -> dict[Path, str]:
    """``{file: text}`` of every module engine package ``pkg`` generates (nothing is written)."""
    from meeplelab.sim.core.compiled import (choice_module_source, ismcts_module_source, lookahead_module_source,
                                   play_module_source)
    from meeplelab.sim.core.decisions import DecisionTable
    from meeplelab.sim.core.layout import Layout

    spec, base = _spec(pkg), package_folder(pkg)
    out: dict[Path, str] = {}
    for lay in spec.get("layouts", []):
        mod_name, _, attr = lay["source"].partition(":")
        mod = load_alone(mod_name)
        layout = getattr(mod, attr)
        if not isinstance(layout, Layout):
            raise SystemExit(f"error: {lay['source']} is not a Layout")
        target = base / lay["target"]
        ref = f"{lay['source']} {target.relative_to(ROOT).as_posix()}"
        out[target] = layout.constants_source(getattr(mod, "COLS_DOC", f"Column constants of {lay['source']}."), ref)
    if "decisions" in spec:
        mod = load_alone(spec["decisions"])
        table = mod.TABLE
        if not isinstance(table, DecisionTable):
            raise SystemExit(f"error: {spec['decisions']}.TABLE is not a DecisionTable")
        out[ROOT / mod.DISPATCH_MODULE] = table.source(spec["decisions"])
    if spec.get("compiled"):
        out[base / "choice.py"] = choice_module_source(pkg)
        out[base / "lookahead.py"] = lookahead_module_source(pkg)
        out[base / "ismcts.py"] = ismcts_module_source(pkg)
        out[base / "play.py"] = play_module_source(pkg)
    return out


def stale(pkgs: list[str]) -> list[Path]:
    """The generated files of ``pkgs`` whose text differs from what the generators write now."""
    return [f for pkg in pkgs for f, text in outputs(pkg).items() if not f.is_file() or f.read_text() != text]


def write(pkgs: list[str]) -> list[Path]:
    """Write the generated files of ``pkgs`` whose text changed; returns them."""
    changed = []
    for pkg in pkgs:
        for f, text in outputs(pkg).items():
            if not f.is_file() or f.read_text() != text:
                f.write_text(text)
                changed.append(f)
    return changed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m meeplelab.sim.core.generate", description=__doc__.splitlines()[0])
    ap.add_argument("packages", nargs="*", help="engine packages (default: every package with a generate.toml)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 naming every stale file")
    a = ap.parse_args(argv)
    known = engine_packages()
    bad = [p for p in a.packages if p not in known]
    if bad:
        print(f"error: {bad[0]!r} is not an engine package with a {SPEC_FILE}: allowed {', '.join(known)}", file=sys.stderr)
        return 2
    pkgs = a.packages or known
    if a.check:
        old = stale(pkgs)
        for f in old:
            print(f"stale: {f.relative_to(ROOT)}")
        if old:
            print("run: python -m meeplelab.sim.core.generate", file=sys.stderr)
            return 1
        print(f"current: every generated module of {', '.join(pkgs)}")
        return 0
    changed = write(pkgs)
    for f in changed:
        print(f"wrote {f.relative_to(ROOT)}")
    if not changed:
        print(f"unchanged: every generated module of {', '.join(pkgs)} was current")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
