"""The re-sample's canonical order (``resample.sort_range``: a 64-bit set of distinct small ids, else insertion
sort) is the ascending order whatever the ids, so ``resample_range`` draws as sorting then shuffling; and the compiled
heuristic's one-pass helpers (``lookahead.uniform_pick``, ``only_legal``) choose as the plan kernels do."""

import numpy as np
import pytest
from meeplelab.sim.core.compiled import uniform_choice
from meeplelab.sim.core.lookahead import only_legal, uniform_pick
from meeplelab.sim.core.resample import resample_range
from meeplelab.sim.core.rng import shuffle_range


@pytest.mark.parametrize("ids", ["distinct", "out-of-range", "repeated"])
def test_resample_range_orders_and_draws_as_sorting_then_shuffling(ids):
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(0, 45))
        if ids == "distinct":
            a = rng.permutation(64)[:n].astype(np.int64)
        elif ids == "out-of-range":
            a = rng.integers(-3, 70, n).astype(np.int64)
        else:
            a = rng.integers(0, 10, n).astype(np.int64)
        lo = int(rng.integers(0, n + 1))
        hi = int(rng.integers(lo, n + 1))
        k = np.array([rng.integers(0, 2**63)], np.uint64)
        ours, theirs = a.copy(), a.copy()
        c1, c2 = np.zeros(1, np.uint64), np.zeros(1, np.uint64)
        resample_range(k, c1, 0, ours, lo, hi)
        theirs[lo:hi] = np.sort(theirs[lo:hi])
        shuffle_range(k, c2, 0, theirs, lo, hi)
        assert ours.tolist() == theirs.tolist()
        assert c1[0] == c2[0] == max(hi - lo - 1, 0)


def test_uniform_pick_and_only_legal_choose_as_the_plan_kernels():
    rng = np.random.default_rng(6)
    order = np.zeros(181, np.int64)
    for density in (0.0, 0.005, 0.05, 0.5, 1.0):
        for _ in range(50):
            mask = rng.random(181) < density
            k = np.array([rng.integers(0, 2**63)], np.uint64)
            c1, c2 = np.zeros(1, np.uint64), np.zeros(1, np.uint64)
            assert uniform_pick(mask, order, k, c1, 0) == uniform_choice(mask, k, c2, 0)
            assert c1[0] == c2[0]
            legal = np.flatnonzero(mask)
            assert only_legal(mask) == (-1 if legal.size == 0 else legal[0] if legal.size == 1 else -2)
