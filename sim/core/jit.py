"""numba decorators for rule kernels: a helper compiled once per argument *type*, a handler inlined into its dispatcher.

numba types a module-level integer constant (``E_VP``, ``C_TREATISE``, ``TR_WRITE``) or a literal
(``-1``, ``True``) passed to another jitted function as its own literal type, and compiles the callee
once per combination of constant values: ``ev`` (the event-log helper) was compiled 44 times, ``group_ok``
17 times, most of Galileo's Truth's cold compile. :func:`rule` compiles a helper for the plain types
(``int64``, ``bool``) only; a call with a constant converts it, so every helper compiles once per type
signature. Games are unchanged (the values are the same).
"""

from __future__ import annotations

from numba import config, njit, types
from numba.core.registry import CPUDispatcher


class _PlainTypes(CPUDispatcher):
    """A CPU dispatcher that types calls from other kernels by the plain type of each argument."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})


def rule(func):
    """``njit(cache=True, no_cpython_wrapper=True)`` for a helper called only from other kernels,
    compiled once per argument type, never once per constant value (see the module docstring). Under
    ``NUMBA_DISABLE_JIT=1`` the plain Python function."""
    if config.DISABLE_JIT:
        return func
    disp = _PlainTypes(py_func=func, locals={}, targetoptions={"nopython": True, "no_cpython_wrapper": True, "_nrt": False})
    disp.enable_caching()
    return disp


def plain(func):
    """``njit(cache=True, _nrt=False)`` for a kernel that other kernels call with constant arguments, compiled once
    per argument type as :func:`rule` (never once per constant value), still callable from Python. Under
    ``NUMBA_DISABLE_JIT=1`` the plain Python function."""
    if config.DISABLE_JIT:
        return func
    disp = _PlainTypes(py_func=func, locals={}, targetoptions={"nopython": True, "_nrt": False, "boundscheck": None})
    disp.enable_caching()
    return disp


def handler(func):
    """``njit(inline="always")`` for a decision handler (``legal_*``/``apply_*``) and the few helpers that
    only they call and that lead to the turn flow (``advance``): numba inlines it into its caller (the
    dispatcher), so the flow's code is linked and optimised once, in the dispatcher, not again in every
    handler (each separately compiled handler cost 2-3 s of cold compile). Under ``NUMBA_DISABLE_JIT=1``
    the plain Python function."""
    if config.DISABLE_JIT:
        return func
    return njit(inline="always")(func)
