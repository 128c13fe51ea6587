"""CLI conventions: --version, bare ``meeplelab`` shows the help with exit 0, shell completion."""

from __future__ import annotations

import tomllib
import re
from importlib.metadata import version
from pathlib import Path

import pytest

from meeplelab import cli
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]


def test_version_prints_the_installed_version(capsys, monkeypatch):
    code, out, err = run_cli(["--version"], capsys, monkeypatch)
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dynamic"] == ["version"]
    declared = re.search(r'^__version__ = "(.+)"$', (ROOT / "meeplelab" / "__init__.py").read_text(), re.M).group(1)
    assert code == 0 and err == ""
    assert out.strip() == f"meeplelab {version('meeplelab')}" == f"meeplelab {declared}"


def test_bare_command_shows_the_help_on_stdout_with_exit_0(capsys, monkeypatch):
    code, out, err = run_cli([], capsys, monkeypatch)
    assert code == 0 and err == ""
    assert out.startswith("Usage: meeplelab"), out[:200]
    for command in ("simulate", "report", "experiment", "tournament", "robustness", "balance"):
        assert f"  {command} " in out


def test_shell_completion_is_offered(capsys, monkeypatch):
    code, out, _ = run_cli(["--help"], capsys, monkeypatch)
    assert code == 0
    assert "--install-completion" in out and "--show-completion" in out


@pytest.mark.parametrize("command", ["simulate", "sweep", "balance", "stronger"])
def test_the_shell_completes_game_ids_after_game(command, capsys, monkeypatch):
    """After ``--game`` the shell offers the registered games (what the shell's completion function reads: the
    command run with these variables set)."""
    monkeypatch.setenv("COMP_WORDS", f"meeplelab {command} --game g")
    monkeypatch.setenv("COMP_CWORD", "3")
    monkeypatch.setenv("_MEEPLELAB_COMPLETE", "complete_bash")
    code, out, err = run_cli([], capsys, monkeypatch)
    assert code == 0 and out.split() == ["galileos-truth"], (out, err)


def test_license_is_an_spdx_expression_with_its_file():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_every_option_has_help_and_choices_are_listed(capsys, monkeypatch):
    import typer

    cmd = typer.main.get_command(cli.app)
    missing = [(name, p.opts) for name, c in cmd.commands.items() for p in c.params
               if p.param_type_name == "option" and not p.help]
    assert missing == []
    for command in ("simulate", "sweep", "experiment"):
        code, out, _ = run_cli([command, "--help"], capsys, monkeypatch)
        assert code == 0 and "rotate|random|fixed" in out, command
    code, out, _ = run_cli(["sweep", "--help"], capsys, monkeypatch)
    assert "loky|threading|dask" in out


def test_a_seating_outside_the_choices_is_refused_listing_them(capsys, monkeypatch, tmp_path):
    code, _, err = run_cli(["sweep", "--game", "toy", "--vary", "rounds=1,2", "--seating", "circle",
                            "--out", str(tmp_path / "s")], capsys, monkeypatch)
    assert code == 2 and "'circle'" in err and "rotate" in err and "fixed" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "s").exists()


def test_a_rate_after_a_run_never_rounds_a_short_run_to_zero():
    from meeplelab.cli import rate_text

    assert [rate_text(x) for x in (1234.4, 10.0, 9.96, 3.44, 0.183, 0.0)] == ["1,234", "10", "10", "3.4", "0.18", "0"]
