"""The floors of the code (docs/architecture.md): no import runs back up.

Lowest first: the engine framework (``sim/core``), the engines and engine-level tools (the rest of ``sim/``), the
strategies, the running of games (``play/``), analysis, the studies (``studies/``), the interfaces (``cli.py``,
``benchmarks/``, the package face ``meeplelab/__init__.py``). Every import statement of every module (at the top or
inside a function) is read from the source (``ast``) and resolved to the module it names; a module may import its
own floor or a lower one. The check is tested against a planted violation, so it cannot pass vacuously.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLOORS = ["sim.core", "sim", "strategies", "play", "analysis", "studies", "interfaces"]
INTERFACES = ("cli", "benchmarks", "meeplelab")


def floor_of(module: str) -> int | None:
    """The floor of a dotted module name of this tree (``meeplelab.`` prefix dropped), None for other packages."""
    parts = module.split(".")
    if parts[0] == "meeplelab":
        parts = parts[1:] or ["meeplelab"]
    if not parts:
        return None
    if parts[0] in INTERFACES:
        return FLOORS.index("interfaces")
    if parts[0] == "sim":
        return FLOORS.index("sim.core") if len(parts) > 1 and parts[1] == "core" else FLOORS.index("sim")
    return FLOORS.index(parts[0]) if parts[0] in FLOORS else None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every import in the file, relative imports resolved against its package."""
    tree = ast.parse(path.read_text())
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.append((node.lineno, mod))
            if node.module is None or node.level:  # `from . import x`: x may be a module
                out += [(node.lineno, f"{mod}.{a.name}") for a in node.names]
    return out


def source_files(root: Path = ROOT) -> list[Path]:
    files = [root / "cli.py", *(root / "meeplelab").glob("*.py")]
    for top in ("sim", "strategies", "play", "analysis", "studies", "benchmarks"):
        files += sorted((root / top).rglob("*.py"))
    return [f for f in files if f.is_file() and not f.is_symlink()]


def violations(files) -> list[str]:
    """Every import from a lower floor to a higher one, as ``path:line: module (floor) imports name (floor)``."""
    bad = []
    for f in files:
        me = floor_of(module_name(f))
        for line, mod in imports_of(f):
            them = floor_of(mod)
            if me is not None and them is not None and them > me:
                bad.append(f"{f.relative_to(ROOT)}:{line}: {FLOORS[me]} imports {mod} ({FLOORS[them]})")
    return bad


def test_no_import_runs_back_up():
    files = source_files()
    assert len(files) > 150  # the whole tree was read
    assert violations(files) == []


def test_the_check_finds_a_planted_import_running_back_up(tmp_path, monkeypatch):
    planted = ROOT / "sim" / "core" / "_planted_floor_violation.py"
    try:
        planted.write_text("def f():\n    from meeplelab.analysis.report import build_report\n    from ..registry import make_game\n")
        bad = violations([planted])
    finally:
        planted.unlink()
    assert bad == ["sim/core/_planted_floor_violation.py:2: sim.core imports meeplelab.analysis.report (analysis)",
                   "sim/core/_planted_floor_violation.py:3: sim.core imports sim.registry (sim)",
                   "sim/core/_planted_floor_violation.py:3: sim.core imports sim.registry.make_game (sim)"]


@pytest.mark.parametrize("module, floor", [("meeplelab.sim.core.rng", "sim.core"), ("sim.galileos_truth.rules", "sim"),
                                           ("meeplelab.play.runner", "play"), ("studies.balance", "studies"),
                                           ("meeplelab.play.plan", "play"), ("meeplelab.analysis.page", "analysis"),
                                           ("studies.balance_fields", "studies"), ("benchmarks.rows", "interfaces"),
                                           ("meeplelab.analysis.rungs", "analysis"), ("studies.compare", "studies"),
                                           ("meeplelab.cli", "interfaces"), ("numpy", None)])
def test_floor_of_names_each_package(module, floor):
    got = floor_of(module)
    assert (FLOORS[got] if got is not None else None) == floor
