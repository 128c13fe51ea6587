"""The CPU's cycle counter inside numba kernels: the kernel profile of compiled play.

:func:`cycles` reads the processor's time-stamp counter (LLVM's ``readcyclecounter``: ``rdtsc`` on x86-64)
from inside a kernel, a few nanoseconds a read, so the play kernel can split each decision into its legal
action mask, its choice and its application without leaving compiled code (``play(..., prof)``,
:func:`meeplelab.play.batch.play_batch` ``kernel_profile``). :func:`cycles_per_second` calibrates it against the wall
clock. Under ``NUMBA_DISABLE_JIT=1`` the counter is the wall clock in nanoseconds. Timings are read by
``meeplelab bench --only profile`` (benchmarks/), never asserted in tests.
"""

from __future__ import annotations

import time

from llvmlite import ir
from numba import config, njit, types
from numba.core.extending import intrinsic


@intrinsic
def _readcyclecounter(typingctx):
    sig = types.uint64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", (), fnty)
        return builder.call(fn, [])

    return sig, codegen


if config.DISABLE_JIT:
    def cycles():
        """The wall clock in nanoseconds (uncompiled twin of the cycle counter)."""
        return time.perf_counter_ns()
else:
    @njit(cache=True, _nrt=False)
    def cycles():
        """The CPU's cycle counter (``uint64``; 0 on a processor without one)."""
        return _readcyclecounter()


def cycles_per_second(seconds: float = 0.2) -> float:
    """Counter ticks per second, measured over ``seconds`` of wall clock (float; 1e9 when uncompiled)."""
    t0, c0 = time.perf_counter(), cycles()
    time.sleep(seconds)
    t1, c1 = time.perf_counter(), cycles()
    return float(int(c1) - int(c0)) / (t1 - t0)
