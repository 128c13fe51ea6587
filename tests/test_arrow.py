"""Arrow arrays built from buffers (sim/core/arrow.py) equal what ``pyarrow.array`` builds, and writing a run's
tables never imports pandas (pyarrow.array would: start-up, issue 25 item 3)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

from meeplelab.sim.core.arrow import dictionary, from_numpy, strings


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


def test_a_simulate_writes_its_tables_without_importing_pandas(tmp_path):
    probe = ("import sys\nfrom meeplelab.play.config import RunConfig\nfrom meeplelab.play.runner import simulate\n"
             f"simulate(RunConfig(game='toy', players=2, strategies=('random',), games=8, out={str(tmp_path / 'r')!r}))\n"
             "print('pandas' in sys.modules)\n")
    env_code = "import tests.toygame\n" + probe
    r = subprocess.run([sys.executable, "-c", env_code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "False"
    assert (tmp_path / "r" / "games").is_dir()
