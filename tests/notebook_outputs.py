"""Execute the notebooks in ``notebooks/`` with a real kernel and compare or store their outputs.

The committed notebooks carry their outputs (figures visible on GitHub). ``python -m tests.notebook_outputs
--update`` re-executes every notebook and writes it back with its outputs; the notebook tier
(``tests/test_notebooks.py``) re-executes each one and checks that every committed code cell shows the
same kinds of output (stream text, a table, a chart) as a fresh run.

Outputs are stored without execution timestamps, and the temporary run folder a notebook writes into
is replaced by ``$MEEPLELAB_NB_OUT`` in the stored text, so a re-execution on another machine changes
no bytes but the numbers that genuinely changed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PLACEHOLDER = "$MEEPLELAB_NB_OUT"


def execute(path: Path, out: Path, timeout: int = 600) -> nbformat.NotebookNode:
    """Run the notebook at ``path`` in a fresh kernel with its run folders under ``out``; returns it with outputs.

    Raises:
        nbclient.exceptions.CellExecutionError: a cell raised.
    """
    nb = nbformat.read(path, as_version=4)
    env_before = dict(os.environ)
    os.environ["MEEPLELAB_NB_OUT"] = str(out)
    # no PYTHONPATH: the kernel imports meeplelab as installed, as a user's Jupyter does (a notebook importing the
    # checkout's top-level folders, `from analysis import ...`, fails here as it would there)
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(out)}}).execute()
    finally:
        os.environ.clear()
        os.environ.update(env_before)
    return nb


def _scrub(value, out: str):
    if isinstance(value, str):
        return value.replace(out, PLACEHOLDER)
    if isinstance(value, list):
        return [_scrub(v, out) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, out) for k, v in value.items()}
    return value


def clean(nb: nbformat.NotebookNode, out: Path) -> nbformat.NotebookNode:
    """The executed notebook as it is stored: no timestamps, no kernel-side temporary paths."""
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = [nbformat.from_dict(_scrub(o, str(out))) for o in cell.outputs]
    return nb


def _compile_notice_only(text: str) -> bool:
    """Whether a stderr stream holds only the compile notice and its progress lines (:mod:`meeplelab.sim.jitcache`)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return bool(lines) and lines[0].startswith("compiling the ") and "first run on this machine" in lines[0]


def output_kinds(cell) -> list[str]:
    """The kinds of output a code cell shows, in order: ``stream:stdout``, ``image/png``, ``text/html``, ``error``..."""
    kinds = []
    for o in cell.get("outputs", []):
        if o.output_type == "stream" and o.name == "stderr" and _compile_notice_only(o.text):
            continue  # said on a machine whose kernel cache is cold (sim/jitcache.py), not part of the notebook
        if o.output_type == "stream":
            kinds.append(f"stream:{o.name}")
        elif o.output_type in ("display_data", "execute_result"):
            data = o.get("data", {})
            kinds.append(next((k for k in ("image/png", "text/html", "text/plain") if k in data), "other"))
        else:
            kinds.append(o.output_type)
    return kinds


def update(paths=NOTEBOOKS) -> None:
    """Re-execute each notebook and store it with its outputs."""
    for path in paths:
        with tempfile.TemporaryDirectory(prefix="meeplelab-nb-") as tmp:
            nb = clean(execute(path, Path(tmp)), Path(tmp))
        nbformat.write(nb, path)
        print(f"wrote {path.relative_to(ROOT)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--update", action="store_true", help="re-execute every notebook and store its outputs")
    ap.add_argument("names", nargs="*", help="notebook file names (default all)")
    a = ap.parse_args(argv)
    if not a.update:
        ap.error("nothing to do: give --update")
    paths = [p for p in NOTEBOOKS if not a.names or p.name in a.names]
    update(paths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
