"""The rule-kernel decorators (sim/core/jit.py, used by Galileo's Truth): a rule helper compiles once per
argument type, however many constant values its callers pass (which keeps the cold compile short)."""

from __future__ import annotations

from numba import config, njit

from meeplelab.sim.core.jit import handler, plain, rule

ONE, TWO, THREE = 1, 2, 3


def _add(x, k):
    return x + k


def test_a_rule_helper_compiles_once_for_every_constant_its_callers_pass():
    helper = rule(_add)
    if config.DISABLE_JIT:
        assert helper is _add
        return

    @njit
    def caller(x):
        return helper(x, ONE) + helper(x, TWO) + helper(x, THREE) + helper(x, -1) + helper(x, x)

    assert caller(10) == 11 + 12 + 13 + 9 + 20
    assert len(helper.signatures) == 1  # plain njit: one per constant (ONE, TWO, THREE, -1) plus int64
    plain = njit(no_cpython_wrapper=True)(_add)

    @njit
    def caller_plain(x):
        return plain(x, ONE) + plain(x, TWO) + plain(x, x)

    assert caller_plain(10) == 11 + 12 + 20
    assert len(plain.overloads) == 3  # what rule() prevents


def _sub(x, k):
    return x - k


def test_a_plain_kernel_compiles_once_for_every_constant_and_is_callable_from_python():
    k = plain(_sub)
    if config.DISABLE_JIT:
        assert k is _sub
        return

    @njit
    def caller(x):
        return k(x, ONE) + k(x, TWO) + k(x, -1) + k(x, x)

    assert caller(10) == 9 + 8 + 11 + 0
    assert len(k.signatures) == 1 and k(7, 3) == 4  # the kernels' int64 signature serves Python's call too


def test_a_handler_is_inlined_into_its_caller():
    h = handler(_add)
    if config.DISABLE_JIT:
        assert h is _add
        return

    @njit
    def caller(x):
        return h(x, TWO)

    assert caller(5) == 7
    assert h.targetoptions["inline"] == "always" and len(h.overloads) == 0
