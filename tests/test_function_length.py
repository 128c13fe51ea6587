"""No function of the code is over 80 lines (the house rule), outside generated code and two content loaders.

Every Python file git tracks outside ``tests/`` is parsed (``ast``); a function's length is its span in the source,
``def`` line (decorators not counted) to last line, nested functions counted both on their own and inside their
parent. Skipped:

- the modules the engine generator writes (``meeplelab.sim.core.generate``: ``outputs`` of every package of
  ``engine_packages``): their text is derived from declarations, not edited by hand;
- symbolic links (``meeplelab/cli.py`` is ``cli.py``, checked once under its own name);
- the two content loaders named in ``EXEMPT``: each reads one game's content file top to bottom, one block per
  section of the file, and checks every field as it goes; split, the checks of a section would sit away from the
  reading of it.

The check is run on a planted long function first, so it cannot pass vacuously.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

from meeplelab.sim.core.generate import engine_packages, outputs

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 80
#: (file, function) pairs allowed over the limit, each with its reason
EXEMPT = {
    ("sim/galileos_truth/content.py", "load"): "content loader: reads and checks the content file section by section",
    ("sim/unconscious_mind/content.py", "load_content"): "content loader: reads and checks the content file section "
    "by section",
}


def long_functions(source: str, limit: int = LIMIT) -> list[tuple[str, int, int]]:
    """``(name, first line, length in lines)`` of every function of ``source`` longer than ``limit`` lines.

    Raises SyntaxError when ``source`` does not parse."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                found.append((node.name, node.lineno, length))
    return sorted(found, key=lambda f: f[1])


def checked_files() -> list[str]:
    """Repository-relative paths of the tracked Python files the rule covers (see the module docstring)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--", "*.py"], cwd=ROOT, capture_output=True, check=True)
    generated = {p.resolve() for pkg in engine_packages(ROOT) for p in outputs(pkg)}
    files = []
    for rel in sorted(filter(None, listed.stdout.decode().split("\0"))):
        path = ROOT / rel
        if rel.startswith("tests/") or path.is_symlink() or not path.is_file() or path.resolve() in generated:
            continue
        files.append(rel)
    return files


def test_the_check_finds_a_planted_long_function():
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT))
    source = f"def short():\n    return 1\n\n\ndef planted():\n{body}"
    assert long_functions(source) == [("planted", 5, LIMIT + 1)]
    assert long_functions(source, limit=LIMIT + 1) == []


def test_the_generated_modules_and_loaders_are_what_is_skipped():
    files = checked_files()
    assert "cli.py" in files and "analysis/report.py" in files and "meeplelab/cli.py" not in files
    assert "sim/galileos_truth/ismcts.py" not in files  # generated
    for rel, name in EXEMPT:  # each exemption still names a function that exists in a checked file
        assert rel in files
        tree = ast.parse((ROOT / rel).read_text())
        assert any(isinstance(n, ast.FunctionDef) and n.name == name for n in ast.walk(tree)), (rel, name)


def test_no_function_is_over_80_lines():
    offenders = []
    for rel in checked_files():
        for name, line, length in long_functions((ROOT / rel).read_text()):
            if (rel, name) not in EXEMPT:
                offenders.append(f"{rel}:{line} {name} ({length} lines)")
    assert not offenders, f"{len(offenders)} functions over {LIMIT} lines:\n" + "\n".join(offenders)
