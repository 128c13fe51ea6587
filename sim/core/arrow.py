"""Arrow arrays from NumPy arrays and string lists without ``pyarrow.array``, and NumPy arrays from Arrow columns
without ``to_numpy``.

``pyarrow.array`` (and ``pyarrow.table``) import pandas the first time they are called when pandas is installed,
to check whether their input is a pandas object: about 0.3 s of every process that writes a run's tables, a
worker's included. The tables the runner writes hold only fixed-width numbers,
booleans and dictionary-coded strings, so they are built here from the arrays' buffers, with the same types
and values as ``pyarrow.array`` gives (``tests/test_arrow.py`` compares them). The other way, pyarrow's
``to_numpy`` imports pandas too (its conversion is pandas' converter), so the number columns read back from the
part files (a run's checks, the runner's sort by game) are read from their buffers by :func:`to_numpy`.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

_TYPES = {np.dtype(t): f for t, f in (
    ("int8", pa.int8), ("int16", pa.int16), ("int32", pa.int32), ("int64", pa.int64), ("uint8", pa.uint8),
    ("uint16", pa.uint16), ("uint32", pa.uint32), ("uint64", pa.uint64), ("float32", pa.float32),
    ("float64", pa.float64))}
#: Arrow type -> NumPy dtype of the fixed-width numbers (the inverse of ``_TYPES``)
_DTYPES = {f(): t for t, f in _TYPES.items()}


def from_numpy(x) -> pa.Array:
    """A 1-D NumPy array (``[N]``, integer, float or bool) as an Arrow array of the same type, no nulls.

    Raises:
        TypeError: another dtype, or more than one dimension.
    """
    x = np.asarray(x)
    if x.ndim != 1:
        raise TypeError(f"from_numpy takes a 1-D array, got shape {x.shape}")
    if x.dtype == np.bool_:
        bits = np.packbits(x.astype(np.uint8), bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(x), [None, pa.py_buffer(bits)])
    make = _TYPES.get(x.dtype)
    if make is None:
        raise TypeError(f"from_numpy takes integer, float or bool arrays, got {x.dtype}")
    return pa.Array.from_buffers(make(), len(x), [None, pa.py_buffer(np.ascontiguousarray(x))])


def strings(values) -> pa.Array:
    """A list of Python strings (``[N]``) as an Arrow ``string`` array, no nulls."""
    data = [str(v).encode() for v in values]
    offsets = np.zeros(len(data) + 1, np.int32)
    np.cumsum([len(b) for b in data], out=offsets[1:])
    return pa.Array.from_buffers(pa.string(), len(data), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))])


def dictionary(codes, vocab) -> pa.DictionaryArray:
    """Dictionary-coded strings: ``codes`` (``int16[N]``, positions in ``vocab``) over the strings ``vocab``."""
    return pa.DictionaryArray.from_arrays(from_numpy(codes), strings(vocab))


def to_numpy(column) -> np.ndarray:
    """A fixed-width number column (a pyarrow ``Array`` or ``ChunkedArray``, ``[N]``, no nulls) as a new NumPy
    array ``[N]`` of the same type, read from its data buffers (pyarrow's ``to_numpy`` would import pandas).

    Raises:
        TypeError: a column of another type (booleans, strings, dictionaries).
        ValueError: a column holding nulls.
    """
    dtype = _DTYPES.get(column.type)
    if dtype is None:
        raise TypeError(f"to_numpy takes integer or float columns, got {column.type}")
    if column.null_count:
        raise ValueError(f"to_numpy takes columns without nulls, got {column.null_count} nulls")
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    views = [np.frombuffer(c.buffers()[1], dtype=dtype, count=len(c), offset=c.offset * dtype.itemsize)
             for c in chunks if len(c)]
    return np.concatenate(views) if views else np.zeros(0, dtype)
