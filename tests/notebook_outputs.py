"""Execute the notebooks in ``notebooks/`` with a real kernel and compare or store their outputs.

The committed notebooks carry their outputs (figures visible on GitHub). ``python -m tests.notebook_outputs
--update`` re-executes every notebook and writes it back with its outputs; the notebook tier
(``tests/test_notebooks.py``) re-executes each one and checks that every committed code cell shows the
same kinds of output (stream text, a table, a chart) as a fresh run, and the same text: printed lines and
tables may differ from a fresh run only in numbers within rounding (:func:`text_differences`).

Outputs are stored without execution timestamps, and the temporary run folder a notebook writes into
is replaced by ``$MEEPLELAB_NB_OUT`` in the stored text, so a re-execution on another machine changes
no bytes but the numbers that genuinely changed.
"""

from __future__ import annotations

import argparse
import os
import re
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
    """The executed notebook as it is stored: no timestamps, no kernel-side temporary paths, no compile notice."""
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = [nbformat.from_dict(_scrub(o, str(out))) for o in cell.outputs if not _is_compile_notice(o)]
    return nb


def _compile_notice_only(text: str) -> bool:
    """Whether a stderr stream holds only the compile notice and its progress row (:mod:`meeplelab.sim.jitcache`:
    ``compiling the rule kernels (first run on this machine ...``, ``\\rcompiling NAME: 3 functions compiled``, the
    row's erasing blanks): said on a machine whose kernel cache is cold, not part of the notebook."""
    parts = [p for p in re.split(r"[\r\n]", text) if p.strip()]
    return all(p.startswith("compiling ") for p in parts)


def _is_compile_notice(output) -> bool:
    return output.output_type == "stream" and output.name == "stderr" and _compile_notice_only(output.text)


def output_kinds(cell) -> list[str]:
    """The kinds of output a code cell shows, in order: ``stream:stdout``, ``image/png``, ``text/html``, ``error``..."""
    kinds = []
    for o in cell.get("outputs", []):
        if _is_compile_notice(o):
            continue  # said on a machine whose kernel cache is cold (sim/jitcache.py), not part of the notebook
        if o.output_type == "stream":
            kinds.append(f"stream:{o.name}")
        elif o.output_type in ("display_data", "execute_result"):
            data = o.get("data", {})
            kinds.append(next((k for k in ("image/png", "text/html", "text/plain") if k in data), "other"))
        else:
            kinds.append(o.output_type)
    return kinds


def output_texts(cell) -> list[str]:
    """The text a code cell shows, one item per output: stream text (but the compile notice) and the ``text/plain``
    of every result (a table's HTML says the same; charts are compared by kind, :func:`output_kinds`)."""
    texts = []
    for o in cell.get("outputs", []):
        if o.output_type == "stream":
            if not _is_compile_notice(o):
                texts.append(o.text)
        elif o.output_type in ("display_data", "execute_result"):
            texts.append(o.get("data", {}).get("text/plain", ""))
    return texts


#: a number as the outputs print it: 1,100 or -0.58 or 3e-05 (a percent sign or bracket stays outside)
_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _words(text: str) -> str:
    """``text`` without its numbers and layout: whitespace and the repeated rules of a drawn table removed, so a
    column one digit wider is the same table."""
    return re.sub(r"([═─━╌┄-])\1+", r"\1", re.sub(r"\s+", "", _NUMBER.sub("#", text)))


def _unit(token: str) -> float:
    """One unit in the last printed digit of a number (``0.58`` -> 0.01, ``1,100`` -> 1, ``3e-05`` -> 1e-05)."""
    mant, _, exp = token.replace(",", "").lower().partition("e")
    decimals = len(mant.partition(".")[2])
    return 10.0 ** (-decimals + (int(exp) if exp else 0))


def _close(x: str, y: str) -> bool:
    """Two printed numbers agree: whole numbers (counts) exactly, others within one unit of the last digit either
    prints."""
    if not any(c in x + y for c in ".eE"):
        return x.replace(",", "") == y.replace(",", "")
    return abs(float(x.replace(",", "")) - float(y.replace(",", ""))) <= max(_unit(x), _unit(y)) + 1e-12


def same_beyond_rounding(stored: str, fresh: str) -> bool:
    """Whether two output texts say the same: the same words, the same counts, and every other number equal to within
    one unit of the last digit either prints (``0.581635`` and ``0.581636`` agree, ``0.58`` and ``0.61`` do not)."""
    a, b = _NUMBER.findall(stored), _NUMBER.findall(fresh)
    if _words(stored) != _words(fresh) or len(a) != len(b):
        return False
    return all(_close(x, y) for x, y in zip(a, b))


def text_differences(stored: nbformat.NotebookNode, fresh: nbformat.NotebookNode) -> list[str]:
    """Every code cell whose text outputs differ beyond rounding between the stored and a fresh notebook (both as
    :func:`clean` stores them), with the first differing line of each."""
    out = []
    code = [(s, f) for s, f in zip(stored.cells, fresh.cells) if s.cell_type == "code"]
    for k, (s, f) in enumerate(code, 1):
        for ts, tf in zip(output_texts(s), output_texts(f)):
            if not same_beyond_rounding(ts, tf):
                first = next(((x, y) for x, y in zip(ts.splitlines(), tf.splitlines())
                              if not same_beyond_rounding(x, y)), (ts[:200], tf[:200]))
                out.append(f"code cell {k}: stored {first[0].strip()!r}, fresh {first[1].strip()!r}")
    return out


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
