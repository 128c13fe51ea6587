"""Optuna's trial loop, interruptible: a stop (Ctrl-C, or SIGTERM as
:func:`meeplelab.play.interrupts.terminate_as_interrupt` turns it into ``KeyboardInterrupt``) always reaches the caller
as ``KeyboardInterrupt``, wherever in a trial it lands.

Optuna (``optuna.study._optimize._run_trial``, 4.x-5.x) records a trial's result in a ``try``/``finally`` that
catches only ``Exception``: an interrupt arriving during that bookkeeping, after the objective returned, leaves a
local unset and the ``finally`` raises ``UnboundLocalError`` in place of the interrupt. The interrupted trial stays
RUNNING in the study's storage, as after a killed process, which ``--resume`` already handles.
"""

from __future__ import annotations

from typing import Callable


def optimize(study, objective: Callable, n_trials: int) -> None:
    """``study.optimize(objective, n_trials=n_trials)``; an interrupt always raises ``KeyboardInterrupt``.

    Raises:
        KeyboardInterrupt: the run was stopped (also when optuna's bookkeeping turned the stop into
            ``UnboundLocalError``: that error's context is the interrupt).
    """
    try:
        study.optimize(objective, n_trials=n_trials)
    except UnboundLocalError as e:
        if isinstance(e.__context__, KeyboardInterrupt):
            raise e.__context__ from None
        raise
