"""``python -m meeplelab.sim.core.generate``: write every generated module of every engine, from any folder.

Each engine package declares what is written from what in its ``generate.toml``::

    layouts = [{source = "meeplelab.sim.galileos_truth.state:LAYOUT", target = "cols.py"}]   # column constants
    params = "meeplelab.sim.galileos_truth.params:Params"                                    # -> pcols.py (PRM_* columns)
    decisions = "meeplelab.sim.galileos_truth.rules.decisions"                               # -> its DISPATCH_MODULE
    compiled = true                                                # choice.py, lookahead.py, ismcts.py, play.py
    rules_doc = "galileos-truth"                                   # the plausible-range table of docs/rules/<game>.md

The command finds every ``generate.toml`` under the repository's ``sim/`` and ``tests/`` folders (or
takes engine packages by name), reads the declarations from the source files alone
(:func:`meeplelab.sim.core.source.load_alone`: no generator imports the package it writes), and writes a file
only when its text changes (an unchanged file keeps its time stamp, so numba's cache stays valid).
``--check`` writes nothing and exits 1 naming every stale file. An engine with ``rules_doc`` also gets the
plausible-range table of its ``docs/rules/<game>.md`` refreshed (:mod:`meeplelab.sim.plausible`; read in a fresh
process after the modules are written, since it imports the engine).
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
from meeplelab.sim.core.compiled import (  # noqa: E402
    choice_module_source, ismcts_module_source, lookahead_module_source, play_module_source)
from meeplelab.sim.core.decisions import DecisionTable  # noqa: E402
from meeplelab.sim.core.layout import Layout  # noqa: E402
from meeplelab.sim.core.params import pcols_source  # noqa: E402
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
    if "params" in spec:

        mod_name, _, attr = spec["params"].partition(":")
        cls = getattr(load_alone(mod_name), attr or "Params")
        out[base / "pcols.py"] = pcols_source(cls, f"{mod_name}.{attr or 'Params'}")
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


_DOCS = ("import sys; from meeplelab.sim import plausible as P\n"
         "games = [g for g in sys.argv[2:] if P.rules_doc(g).is_file()]\n"
         "if sys.argv[1] == 'check':\n"
         "    [print(P.rules_doc(g)) for g in games if P.markdown_table(g) not in P.rules_doc(g).read_text()]\n"
         "else:\n"
         "    [print(P.rules_doc(g)) for g in games if P.update_rules_doc(g)]\n")


def _rules_docs(pkgs: list[str], mode: str) -> list[Path]:
    """The rules docs of ``pkgs``' engines whose plausible-range table is stale (``mode="check"``) or was rewritten
    (``"write"``), from a fresh process (the table reads the engine's ``Params`` through its registered game)."""
    import subprocess

    games = [g for g in (_spec(pkg).get("rules_doc") for pkg in pkgs)
             if g and (ROOT / "docs" / "rules" / f"{g.replace('-', '_')}.md").is_file()]
    if not games:
        return []
    r = subprocess.run([sys.executable, "-c", _DOCS, mode, *games], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise SystemExit(f"error: the plausible-range tables of docs/rules could not be read: "
                         f"{(r.stderr.strip().splitlines() or ['?'])[-1]}")
    return [Path(x) for x in r.stdout.split()]


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
        old += _rules_docs(pkgs, "check") if not old else []
        for f in old:
            print(f"stale: {f.relative_to(ROOT)}")
        if old:
            print("run: python -m meeplelab.sim.core.generate", file=sys.stderr)
            return 1
        print(f"current: every generated module of {', '.join(pkgs)}")
        return 0
    changed = write(pkgs)
    changed += _rules_docs(pkgs, "write")
    for f in changed:
        print(f"wrote {f.relative_to(ROOT)}")
    if not changed:
        print(f"unchanged: every generated module of {', '.join(pkgs)} was current")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
