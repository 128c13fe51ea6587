"""Every notebook in notebooks/ executes clean (nbclient, a real kernel) on small runs, and is stored
with its outputs (figures visible on GitHub): each committed code cell shows the same kinds of output
as a fresh execution (``python -m tests.notebook_outputs --update`` re-stores them)."""

from __future__ import annotations

import nbformat
import pytest

from tests.notebook_outputs import NOTEBOOKS, PLACEHOLDER, ROOT, execute, output_kinds

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
    nb = execute(path, tmp_path)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    fresh = [output_kinds(c) for c in nb.cells if c.cell_type == "code"]
    kept = [output_kinds(c) for c in stored.cells if c.cell_type == "code"]
    assert fresh == kept, f"{path.name}: stored outputs differ in kind from a fresh run: re-store with python -m tests.notebook_outputs --update"
    assert PLACEHOLDER not in str(tmp_path)
