"""Re-sampling hidden components from a canonical order: the redeterminisation kernels' shuffles.

A search copy re-samples what its seat cannot know (``sim/<game>/hidden.py``). A shuffle that started from the
real order would make every sampled world a fixed reshuffle of the real one: two positions that the seat cannot
tell apart (the same cards, in another hidden order) would give other samples under the same stream, so a search
would decide differently on them. :func:`resample_range` first puts the range into a canonical order (ascending
ids), so the sample depends only on the set of hidden ids and the stream. Both kernels are allocation-free
(``_nrt=False``): the compiled heuristic and search call them inside the play kernel.
"""

from __future__ import annotations

import numpy as np

from .jit import plain
from .rng import shuffle_range


@plain
def sort_range(arr, lo, hi):
    """Sort ``arr[lo:hi]`` (``int64``) ascending in place, allocation-free: from a 64-bit set of the ids when they
    are distinct and in ``[0, 64)`` (every deck and bag of both games: card, tile, Treatise, client and dream ids),
    else by insertion sort (the ranges are tens of ids). The same order either way."""
    one = np.uint64(1)
    bits = np.uint64(0)
    for i in range(lo, hi):
        v = arr[i]
        b = one << np.uint64(v) if 0 <= v < 64 else one
        if v < 0 or v >= 64 or (bits & b) != 0:
            _insertion_sort(arr, lo, hi)
            return
        bits |= b
    k = lo
    v = 0
    while bits != 0:
        if (bits & one) != 0:
            arr[k] = v
            k += 1
        bits >>= one
        v += 1


@plain
def _insertion_sort(arr, lo, hi):
    """Sort ``arr[lo:hi]`` ascending in place by insertion (any ids, repeats allowed)."""
    for i in range(lo + 1, hi):
        v = arr[i]
        j = i - 1
        while j >= lo and arr[j] > v:
            arr[j + 1] = arr[j]
            j -= 1
        arr[j + 1] = v


@plain
def resample_range(keys, counters, g, arr, lo, hi):
    """``arr[lo:hi]`` in canonical (ascending) order, then shuffled in place with game ``g``'s stream
    (:func:`meeplelab.sim.core.rng.shuffle_range`): the order drawn depends on the ids in the range and the
    stream, never on their order before."""
    sort_range(arr, lo, hi)
    shuffle_range(keys, counters, g, arr, lo, hi)
