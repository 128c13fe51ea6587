"""The structure of the code, read from its own imports (``ast``; nothing is imported or run).

- **Import circles.** Every non-test module is a node, every import an arrow (at the top or inside a function; a
  ``from meeplelab.x import y`` is an arrow to ``x.y`` when that is a module, else to ``x``). A circle is a strongly
  connected set of more than one module; rooms (each sub-package or loose module of ``sim/``, every other
  top-level package as a whole) must have none either: the tree has no circle at all.
- **Imports inside functions.** Project imports standing inside a function body are counted (the same count as
  the structure counters the layout targets are measured with: a file reached through a link counts again) and
  capped at :data:`CAP`; outside the engines (``sim/``, whose kernel modules are not edited for a comment) each
  one says why it is there in a comment on it or above its block of imports: ``start-up:`` or ``optional
  dependency:``.
- **The page model is the bottom of the report modules.** ``analysis/page.py`` imports no analysis module that
  builds or writes pages.

Each check is also run on a planted tree, so it cannot pass vacuously.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = {"tests", ".venv", "build", "notebooks", ".git", ".bench", "runs", "docs"}
PROJECT = {
    "meeplelab",
    "sim",
    "analysis",
    "play",
    "studies",
    "strategies",
    "benchmarks",
    "cli",
}
#: project imports inside function bodies, at most (cli.py counted twice, as meeplelab/cli.py links to it): each one
#: a start-up cost (numba, polars) or an optional dependency kept off `meeplelab --help` and `import meeplelab`
CAP = 150
REASON = re.compile(r"#.*(start-up|optional dependency)", re.IGNORECASE)
#: the modules the page model may import (rendering only)
PAGE_IMPORTS = {"analysis.pages", "analysis.markdown", "analysis.tables"}


def project_files(root: Path) -> list[Path]:
    """Every non-test Python file of the tree (links included, as the counters read them)."""
    out = []
    for here, dirs, files in os.walk(root):
        dirs[:] = [
            d
            for d in dirs
            if d not in SKIP and d != "site-packages" and not d.startswith(".")
        ]
        out += [Path(here) / f for f in files if f.endswith(".py")]
    return sorted(out)


@functools.cache
def _source(path: Path) -> tuple[str, ast.Module]:
    """The text and syntax tree of ``path`` (read once per test session)."""
    text = path.read_text(encoding="utf-8")
    return text, ast.parse(text)


def modules(root: Path) -> dict[str, Path]:
    out = {}
    for p in project_files(root):
        parts = list(p.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            out[".".join(parts)] = p
    return out


def resolve(name: str, mods: dict[str, Path]) -> str | None:
    """The longest module of the tree a dotted name reaches, with or without the leading ``meeplelab.``."""
    for n in (name.removeprefix("meeplelab."), name):
        while n:
            if n in mods and not (n == "meeplelab" and name != "meeplelab"):
                return n
            n = n.rpartition(".")[0]
    return (
        "meeplelab"
        if name.split(".")[0] == "meeplelab" and "meeplelab" in mods
        else None
    )


def tree_arrows() -> dict[str, set[str]]:
    """:func:`arrows` of this tree, worked out once per test session."""
    global _ARROWS
    if _ARROWS is None:
        _ARROWS = arrows(modules(ROOT))
    return _ARROWS


_ARROWS: dict[str, set[str]] | None = None


def arrows(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules it imports (every import statement, any depth)."""
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(_source(p)[1]):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg.split(".")
                    up = up[: len(up) - (node.level - 1)] if node.level > 1 else up
                    base = ".".join([x for x in up if x] + ([base] if base else []))
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            for n in names:
                r = resolve(n, mods)
                if r and r != m and not m.startswith(r + "."):
                    edges[m].add(r)
    return edges


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected sets of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def room(m: str) -> str:
    parts = m.split(".")
    if parts[0] == "meeplelab" and len(parts) > 1:
        parts = parts[1:]
    return ".".join(parts[:2]) if parts[0] == "sim" and len(parts) > 1 else parts[0]


def room_arrows(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for m, ws in edges.items():
        out.setdefault(room(m), set()).update(room(w) for w in ws if room(w) != room(m))
    return out


def function_imports(path: Path) -> list[tuple[int, bool]]:
    """``(line, has a reason)`` of every project import inside a function body of ``path``."""
    src, tree = _source(path)
    lines = src.split("\n")
    first_line = {
        ln: n.lineno
        for n in ast.walk(tree)
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for ln in range(n.lineno, n.end_lineno + 1)
    }
    found = {}
    for f in ast.walk(tree):
        if not isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for n in ast.walk(f):
            if isinstance(n, (ast.Import, ast.ImportFrom)):
                mod = (
                    n.module if isinstance(n, ast.ImportFrom) else n.names[0].name
                ) or ""
                if getattr(n, "level", 0) or mod.split(".")[0] in PROJECT:
                    found[(n.lineno, n.col_offset)] = n
    return [(n.lineno, _has_reason(lines, first_line, n)) for n in found.values()]


def _has_reason(lines: list[str], first_line: dict[int, int], node) -> bool:
    """A reason comment on the statement, or among the comments directly above its block of imports."""
    if any(
        REASON.search(lines[i - 1]) for i in range(node.lineno, node.end_lineno + 1)
    ):
        return True
    i = node.lineno - 1
    while i >= 1 and (i in first_line or lines[i - 1].strip().startswith("#")):
        if REASON.search(lines[i - 1]):
            return True
        i -= 1
    return False


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.slow  # reads and parses every module of the tree: 3-7 s under load
def test_no_import_circle_and_no_room_circle():
    mods = modules(ROOT)
    assert "analysis.page" in mods and "play.plan" in mods  # the whole tree was read
    edges = tree_arrows()
    assert [sorted(c) for c in circles(edges)] == []
    assert circles(room_arrows(edges)) == []


def test_the_circle_check_finds_a_circle_closed_inside_a_function(tmp_path):
    root = _plant(
        tmp_path,
        {
            "play/__init__.py": "",
            "play/a.py": "from meeplelab.play.b import x\n",
            "play/b.py": "x = 1\ndef f():\n    from . import a\n",
            "play/c.py": "import play.a\n",
        },
    )
    assert circles(arrows(modules(root))) == [{"play.a", "play.b"}]


@pytest.mark.slow  # reads and parses every module of the tree: 3-7 s under load
def test_imports_inside_functions_stay_within_the_cap():
    count = sum(len(function_imports(p)) for p in project_files(ROOT))
    assert count <= CAP


@pytest.mark.slow  # reads and parses every module of the tree: 3-7 s under load
def test_every_import_inside_a_function_outside_the_engines_says_why():
    missing = [
        f"{p.relative_to(ROOT)}:{line}"
        for p in project_files(ROOT)
        if p.relative_to(ROOT).parts[0] != "sim"
        for line, ok in function_imports(p)
        if not ok
    ]
    assert missing == []


def test_the_reason_check_reads_the_comment_above_a_block_of_imports(tmp_path):
    root = _plant(
        tmp_path,
        {
            "play/x.py": (
                "import os\n"
                "def f():\n"
                "    # start-up: loaded when called\n"
                "    from meeplelab.play import a\n"
                "    from meeplelab.play import (b,\n"
                "                                c)\n"
                "    return a, b, c\n"
                "def g():\n"
                "    # loaded late\n"
                "    from meeplelab.play import d\n"
                "    import os.path\n"
                "    return d\n"
            )
        },
    )
    assert function_imports(root / "play/x.py") == [(4, True), (5, True), (10, False)]


@pytest.mark.slow  # reads and parses every module of the tree: 3-7 s under load
def test_the_page_model_is_the_bottom_of_the_report_modules():
    below = {m for m in tree_arrows()["analysis.page"] if m.startswith("analysis.")}
    assert below <= PAGE_IMPORTS
    importers = {m for m, ws in tree_arrows().items() if "analysis.page" in ws}
    assert {"analysis.report", "analysis.verdict", "analysis.compare"} <= importers
