"""Every notebook in notebooks/ executes clean (nbclient, a real kernel) on small runs, and is stored
with its outputs (figures visible on GitHub): each committed code cell shows the same kinds of output
and the same text (numbers within rounding) as a fresh execution (``python -m tests.notebook_outputs
--update`` re-stores them). The notebooks use the public API alone (``import meeplelab``) and say what their
first run compiles."""

from __future__ import annotations

import ast
import re

import nbformat
import pytest

import meeplelab
from tests.notebook_outputs import (NOTEBOOKS, PLACEHOLDER, ROOT, clean, execute, output_kinds, same_beyond_rounding,
                                    text_differences)

pytestmark = pytest.mark.notebook


def test_there_are_six_notebooks_and_the_readme_lists_each():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06"]
    readme = (ROOT / "README.md").read_text()
    for p in NOTEBOOKS:
        assert f"notebooks/{p.name}" in readme, f"README does not list {p.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_with_its_outputs_and_a_chart(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), f"{path.name}: a code cell was never executed"
    kinds = [k for c in code for k in output_kinds(c)]
    assert "image/png" in kinds, f"{path.name}: no stored chart"
    assert "error" not in kinds
    text = path.read_text()
    assert "/tmp/" not in text and "execution" not in {k for c in nb.cells for k in c.metadata}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes_clean_and_shows_what_is_stored(path, tmp_path):
    stored = nbformat.read(path, as_version=4)
    nb = clean(execute(path, tmp_path), tmp_path)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    fresh = [output_kinds(c) for c in nb.cells if c.cell_type == "code"]
    kept = [output_kinds(c) for c in stored.cells if c.cell_type == "code"]
    assert fresh == kept, f"{path.name}: stored outputs differ in kind from a fresh run: re-store with python -m tests.notebook_outputs --update"
    diff = text_differences(stored, nb)
    assert diff == [], (f"{path.name}: stored text differs from a fresh run beyond rounding (re-store with python -m "
                        f"tests.notebook_outputs --update): " + "; ".join(diff))
    assert PLACEHOLDER not in str(tmp_path)


def _code(path) -> str:
    """The notebook's code cells as one module (IPython's % lines left out)."""
    nb = nbformat.read(path, as_version=4)
    return "\n".join(ln for c in nb.cells if c.cell_type == "code" for ln in c.source.splitlines()
                     if not ln.lstrip().startswith(("%", "!")))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_uses_the_public_api_alone(path):
    tree = ast.parse(_code(path))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "meeplelab" in imported
    assert not [m for m in imported if m.startswith("meeplelab.")], f"{path.name} imports meeplelab internals"
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            and n.value.id == "meeplelab"}
    assert used and used <= set(dir(meeplelab)), f"{path.name}: not public: {sorted(used - set(dir(meeplelab)))}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_first_cell_says_what_the_first_run_compiles_and_how_long(path):
    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown"
    assert re.search(r"first cell that plays games compiles the game's rule kernels .*about 2 minutes per game on "
                     r"2 cores", first.source, re.S), path.name


def test_text_outputs_are_compared_beyond_rounding_only():
    table = "│ writer ┆ 200 ┆ 0.581635 ┆ 1,100 │"
    assert same_beyond_rounding(table, "│ writer ┆ 200 ┆ 0.581636 ┆ 1,100 │")
    assert same_beyond_rounding("est 0.58 ┆", "est  0.5800001 ┆")  # a wider column, one more digit
    assert not same_beyond_rounding(table, "│ writer ┆ 200 ┆ 0.591635 ┆ 1,100 │")
    assert not same_beyond_rounding(table, "│ writer ┆ 201 ┆ 0.581635 ┆ 1,100 │")
    assert not same_beyond_rounding("holds at 61 of 61 points", "holds at 60 of 61 points")
    assert not same_beyond_rounding("verdict: holds", "verdict: not resolved")
