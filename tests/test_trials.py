"""An interrupt anywhere in an optuna trial reaches the tune and balance commands as KeyboardInterrupt
(studies/trials.py): optuna turns one landing in its post-trial bookkeeping into UnboundLocalError."""

from __future__ import annotations

import optuna
import pytest

from meeplelab.studies.trials import optimize


def _interrupt_in_bookkeeping(monkeypatch):
    def tell(**kw):
        raise KeyboardInterrupt  # the SIGTERM of a stopped run, arriving after the objective returned

    monkeypatch.setattr(optuna.study._optimize, "_tell_with_warning", tell)


def test_optuna_itself_turns_an_interrupt_in_its_bookkeeping_into_an_unbound_local(monkeypatch):
    _interrupt_in_bookkeeping(monkeypatch)
    study = optuna.create_study()
    with pytest.raises(UnboundLocalError) as e:
        study.optimize(lambda t: t.suggest_float("x", 0, 1), n_trials=1)
    assert isinstance(e.value.__context__, KeyboardInterrupt)


def test_an_interrupt_in_optunas_bookkeeping_reaches_the_caller_as_keyboard_interrupt(monkeypatch):
    _interrupt_in_bookkeeping(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        optimize(optuna.create_study(), lambda t: t.suggest_float("x", 0, 1), 1)


def test_other_errors_and_a_normal_run_pass_through():
    study = optuna.create_study()
    optimize(study, lambda t: (t.suggest_float("x", 0, 1) - 0.5) ** 2, 3)
    assert len(study.trials) == 3

    def bad(t):
        raise UnboundLocalError("a bug of the objective")

    with pytest.raises(UnboundLocalError, match="a bug of the objective"):
        optimize(optuna.create_study(), bad, 1)
