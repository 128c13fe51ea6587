"""Arrow arrays built from buffers (sim/core/arrow.py) equal what ``pyarrow.array`` builds, and writing a run's
tables never imports pandas (pyarrow.array would, which slows start-up)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

from meeplelab.sim.core.arrow import dictionary, from_numpy, strings, to_numpy


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "float32", "float64"])
def test_numbers_are_the_arrays_pyarrow_builds(dtype):
    x = (np.arange(-5, 12) * 3).astype(dtype)
    got = from_numpy(x[::2])  # a strided view too
    want = pa.array(x[::2])
    assert got.type == want.type and got.equals(want) and got.null_count == 0


def test_booleans_strings_and_dictionaries():
    b = np.array([True, False, True, True, False, False, False, True, True, False, True])
    assert from_numpy(b).equals(pa.array(b)) and from_numpy(b[:0]).equals(pa.array(b[:0]))
    s = ["pass", "state_ideas", "", "réunion"]
    assert strings(s).equals(pa.array(s, pa.string()))
    d = dictionary(np.array([1, 0, 1, 3], np.int16), s)
    assert d.equals(pa.DictionaryArray.from_arrays(pa.array(np.array([1, 0, 1, 3], np.int16)), pa.array(s, pa.string())))
    with pytest.raises(TypeError, match="1-D"):
        from_numpy(np.zeros((2, 2)))
    with pytest.raises(TypeError, match="got <U1"):
        from_numpy(np.array(["a"]))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int64", "uint32", "float64"])
def test_columns_read_back_are_the_arrays_pyarrow_gives(dtype):
    x = (np.arange(-7, 20) * 5).astype(dtype)
    col = pa.chunked_array([pa.array(x[:4]), pa.array(x[4:4]), pa.array(x)[6:19]])  # an empty chunk, a sliced one
    got = to_numpy(col)
    assert got.dtype == np.dtype(dtype) and got.tolist() == col.to_numpy().tolist() == x[:4].tolist() + x[6:19].tolist()
    assert to_numpy(pa.array(x)[3:9]).tolist() == x[3:9].tolist()
    assert to_numpy(pa.chunked_array([], pa.int64())).shape == (0,)
    got[0] = 1  # a new array, not a view of the table's buffers
    with pytest.raises(ValueError, match="1 nulls"):
        to_numpy(pa.array([1, None, 3]))
    with pytest.raises(TypeError, match="got bool"):
        to_numpy(pa.array([True, False]))


def test_a_simulate_and_its_result_table_import_neither_pandas_nor_scipy_stats(tmp_path):
    """Start-up: the run's tables are written and read back (the runner's sort by game over two seat orders, the
    checks of the parts) without pandas, and the result table's intervals without scipy.stats."""
    out = str(tmp_path / "r")
    probe = ("import sys\nfrom meeplelab.play.config import RunConfig\nfrom meeplelab.play.runner import simulate\n"
             "from meeplelab.analysis.run_summary import result_lines\n"
             f"simulate(RunConfig(game='toy', players=2, strategies=('random', 'always-draw'), games=8, out={out!r}))\n"
             f"print(result_lines({out!r})[1].split()[0])\n"
             "print('pandas' in sys.modules, 'scipy.stats' in sys.modules)\n")
    env_code = "import tests.toygame\n" + probe
    r = subprocess.run([sys.executable, "-c", env_code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-2] in ("random", "always-draw") and lines[-1] == "False False"
    assert (tmp_path / "r" / "games").is_dir()
