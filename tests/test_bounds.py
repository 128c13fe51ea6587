"""Every count option has an upper bound: a value above it (``--games 99999999999999999999``, 10**12) is refused in
one line naming the bound and why, exit 2, before anything is allocated or written; the bound itself is accepted.
The bounds are declared once (``meeplelab.play.settings.BOUNDS``) and every command's settings model uses them."""

from __future__ import annotations

import pytest

from meeplelab.play.settings import BOUNDS, MODELS, SEED_MAX, too_large_text, validate
from meeplelab.sim.core.errors import ConfigError
from tests.test_cli_errors import expect_error

#: the bound of every count field (by field name; the ladder's budget is search iterations per decision)
KIND = {"games": "games", "mirror_games": "games", "games_per_lineup": "games", "games_per_trial": "games",
        "eval_games": "games", "games_per_rung": "games", "retune": "games", "budget": "games",
        "batch_size": "batch_size", "chunk_size": "chunk_size", "n_jobs": "n_jobs", "trials": "trials",
        "recheck": "recheck", "recheck_factor": "factor", "verify_factor": "factor", "iterations": "iterations",
        "units": "units", "max_bonus": "units", "sobol_max": "sobol_max", "start_iters": "iters",
        "players": "players"}


def bound_of(command: str, field: str):
    return BOUNDS["iters" if (command, field) == ("ladder", "budget") else KIND[field]]


def takes(model, name: str, value) -> bool:
    try:
        validate(model, {name: value}, partial=True)
    except ConfigError:
        return False
    return True


def int_fields(model) -> list[str]:
    """The count fields of ``model``: those taking an integer but not a float (compensate's ``target`` is a number of
    points), the seed aside."""
    return [n for n in model.model_fields if n != "seed" and takes(model, n, 1) and not takes(model, n, 1.5)]


@pytest.mark.parametrize("command", sorted(MODELS))
def test_every_integer_field_of_every_command_has_a_bound(command):
    model = MODELS[command]
    fields = int_fields(model)
    assert fields and set(fields) <= set(KIND), fields  # a new count field needs its bound (and a row in KIND)
    for name in fields:
        b = bound_of(command, name)
        assert validate(model, {name: b.most}, partial=True) is None  # the bound itself is allowed
        for big in (b.most + 1, 10**12, 10**20):
            with pytest.raises(ConfigError) as e:
                validate(model, {name: big}, partial=True)
            assert str(e.value) == too_large_text(name, big, b)
            assert str(e.value).startswith(f"--{name.replace('_', '-')} {big}: at most {b.most:,} {b.unit}: ")
    for seed in (-1, SEED_MAX + 1, 10**20):
        with pytest.raises(ConfigError, match=f"^--seed must be an integer from 0 to 2\\*\\*63-1, got {seed}$"):
            validate(model, {"seed": seed}, partial=True)
    assert validate(model, {"seed": SEED_MAX}, partial=True) is None


#: per command: options that get it past its required options (the bound is checked before any other use)
BASE = {
    "sweep": ["--game", "toy", "--vary", "rounds=1,2"],
    "experiment": ["--game", "toy", "--strategies", "random", "--control", "always-draw", "--vary",
                   "strategy=bank-at"],
    "tournament": ["--game", "toy", "--strategies", "random,always-draw"],
    "tune": ["--game", "toy", "--against", "random"],
    "robustness": ["--game", "toy-robust", "--budget", "100"],
    "balance": ["--game", "toy-robust", "--vary", "rounds=2..8", "--target", "length=9..11"],
    "content-value": ["--game", "toy"],
    "compare": ["--game", "toy", "--arm", "default"],
    "exchange-rates": ["--game", "toy"],
    "compensate": ["--game", "toy"],
    "ladder": ["--game", "toy"],
    "stronger": ["--game", "toy", "--from", "."],
}


@pytest.mark.parametrize("command", sorted(BASE))
def test_each_commands_counts_above_their_bound_are_one_line_and_write_nothing(command, tmp_path, capsys,
                                                                               monkeypatch):
    out = tmp_path / "out"
    fields = int_fields(MODELS[command])
    for name in fields:
        b = bound_of(command, name)
        for big in (b.most + 1,) + ((99999999999999999999,) if name == "games" else ()):
            args = [a for a in BASE[command]]
            if f"--{name}" in [a.replace("_", "-") for a in args]:  # robustness's own --budget
                args = args[:args.index("--budget")] + args[args.index("--budget") + 2:]
            expect_error([command, *args, f"--{name.replace('_', '-')}", str(big), "--out", str(out)],
                         too_large_text(name, big, b), capsys, monkeypatch)
            assert not out.exists()
    expect_error([command, *BASE[command], "--seed", "99999999999999999999", "--out", str(out)],
                 "--seed must be an integer from 0 to 2**63-1, got 99999999999999999999", capsys, monkeypatch)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_count_above_its_bound_in_a_config_file_is_one_line(tmp_path, capsys, monkeypatch):
    cfg = tmp_path / "c.toml"
    cfg.write_text("games = 99999999999\n")
    out = tmp_path / "t"
    expect_error(["tournament", "--game", "toy", "--strategies", "random,always-draw", "--config", str(cfg), "--out",
                  str(out)], too_large_text("games", 99999999999, BOUNDS["games"]), capsys, monkeypatch)
    cfg.write_text('game = "toy"\nplayers = 2\nstrategies = ["random"]\ngames = 20\nbatch_size = 100000\n')
    expect_error(["simulate", "--config", str(cfg), "--out", str(out)],
                 too_large_text("batch_size", 100000, BOUNDS["batch_size"]), capsys, monkeypatch)
    assert not out.exists()
