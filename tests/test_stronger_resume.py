"""``meeplelab stronger --resume``: a study stopped between its steps (Ctrl-C), or killed (kill -9) in the middle
of a run, then resumed, writes the same files byte for byte as the uninterrupted study; a resume with other
options, or of nothing, is one line (exit 2) and writes nothing; ``--overwrite`` replaces the earlier study.
Real Galileo's Truth games (the strong field is the tuned heuristic), real files, a real subprocess."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from meeplelab.studies.stronger import run_stronger
from tests.cli_run import cli_in_process, run_cli
from tests.test_resume_commands import _json, files_of, start_polling

GT = "galileos-truth"
#: small, and cut into chunks (a mirror of 32 games in 8 chunks at two jobs, threads: killed in the middle of one)
KW = dict(games=12, mirror_games=32, seed=3, n_jobs=2, batch_size=4, backend="threading")


def _cli(args: list[str]) -> None:
    """The command line, in this process (the experiment's config.toml is what the study reads)."""
    code, _, err = cli_in_process(args)
    assert code == 0, err


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> list[Path]:
    """A scripted field run (2 seats) and an Abjure experiment (3 seats), small."""
    from meeplelab.play.config import RunConfig
    from meeplelab.play.runner import simulate

    root = tmp_path_factory.mktemp("field")
    simulate(RunConfig(game=GT, players=2, strategies=("writer", "observer"), games=24, seed=1, seating="rotate",
                       out=str(root / "2p")))
    _cli(["experiment", "--game", GT, "--players", "3", "--strategies", "writer,observer", "--control",
          "never-abjure", "--vary", "abjure-at.cycle=1", "--games", "12", "--seed", "2", "--n-jobs", "1",
          "--no-report", "--out", str(root / "abjure"), "--no-progress"])
    return [root / "2p", root / "abjure"]


@pytest.fixture(scope="module")
def reference(sources, tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("ref") / "strong"
    r = run_stronger(GT, sources, out, **KW)
    return out, r


def argv(sources, out: Path) -> list[str]:
    return ["stronger", "--game", GT, *[x for s in sources for x in ("--from", str(s))], "--games", "12",
            "--mirror-games", "32", "--seed", "3", "--n-jobs", "2", "--backend", "threading", "--batch-size", "4",
            "--out", str(out),
            "--no-progress"]


def settings_free(folder: Path) -> dict[str, bytes]:
    """Every file of a study but its manifests, its settings file (written by the command line only) and the parts a
    resume set aside (``RUN/stray/``: written by the killed process after its last manifest)."""
    return {k: v for k, v in files_of(folder).items() if not k.endswith("config.toml") and "/stray/" not in k}


@pytest.mark.slow  # Galileo's Truth studies played four times
@pytest.mark.parametrize("cut", [2, 3])  # Ctrl-C before the top strategy's run / before the experiment
def test_a_study_stopped_between_its_steps_resumes_to_the_same_files(sources, reference, cut, tmp_path):
    ref, r = reference
    said = []

    def stop(msg):
        said.append(msg)
        if len(said) == cut:
            raise KeyboardInterrupt

    out = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run_stronger(GT, sources, out, progress=stop, **KW)
    state = json.loads((out / "stronger.json").read_text())
    assert state["status"] == "interrupted" and state["request"]["games"] == 12
    assert (out / "mirror-2p").is_dir() and not (out / "abjure").exists()
    again = []
    got = run_stronger(GT, sources, out, resume=True, progress=again.append, **KW)
    # every step said again (then its restricted play and the lower rung's mirror, top strategy and experiment), the
    # finished ones kept
    assert len(again) == 7 and again[:cut] == said and again[4:] == [f"{x}, rung heuristic" for x in again[:3]]
    assert got["lines"] == r["lines"]
    assert files_of(out) == files_of(ref)  # every part, experiment.json, stronger.json and stronger.md


@pytest.mark.slow  # a subprocess killed in the middle of a run, then resumed from the command line
def test_a_study_killed_in_a_run_then_resumed_from_the_cli_writes_the_uninterrupted_files(sources, reference,
                                                                                           tmp_path, capsys,
                                                                                           monkeypatch):
    ref, r = reference
    out = tmp_path / "killed"

    def one_chunk_of_the_mirror():  # some of the mirror's chunks are written, not all
        m = _json(out / "mirror-2p" / "manifest.json")
        return m.get("status") == "running" and any(c.get("status") == "done" for c in m.get("chunks", []))

    code, _ = start_polling(argv(sources, out), one_chunk_of_the_mirror, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert _json(out / "stronger.json")["status"] == "running"  # kill -9: nothing could mark it
    chunks = _json(out / "mirror-2p" / "manifest.json")["chunks"]
    assert len(chunks) == 8 and 1 <= sum(c["status"] == "done" for c in chunks) < 8
    code, stdout, err = run_cli(argv(sources, out) + ["--resume"], capsys, monkeypatch)
    assert code == 0, err
    assert stdout.splitlines()[:len(r["lines"])] == r["lines"]
    assert settings_free(out) == settings_free(ref)
    assert _json(out / "stronger.json")["status"] == "complete"


@pytest.mark.slow  # the reference study (its fixture) is played first
def test_a_resume_of_other_options_or_of_nothing_is_one_line_and_writes_nothing(sources, reference, tmp_path,
                                                                                capsys, monkeypatch):
    ref, _ = reference
    before = {p: p.read_bytes() for p in sorted(ref.rglob("*")) if p.is_file()}
    for change, was, now in ((["--games", "14"], "--games 12", "--games 14"),
                             (["--seed", "4"], "--seed 3", "--seed 4"),
                             (["--mirror-games", "18"], "--mirror-games 32", "--mirror-games 18")):
        args = argv(sources, ref)
        i = args.index(change[0])
        args[i + 1] = change[1]
        code, _, err = run_cli(args + ["--resume"], capsys, monkeypatch)
        assert code == 2 and err.strip() == (f"error: cannot resume: the stronger-players study in the folder has "
                                             f"{was}, this study has {now}: use the same options or --overwrite")
    code, _, err = run_cli(argv(sources[:1], ref) + ["--resume"], capsys, monkeypatch)
    assert code == 2 and err.strip() == (f"error: cannot resume: the stronger-players study in the folder has --from "
                                         f"{sources[0]} {sources[1]}, this study has --from {sources[0]}: use the same "
                                         "options or --overwrite")
    code, _, err = run_cli(argv(sources, ref), capsys, monkeypatch)
    assert code == 2 and err.strip() == (f"error: output folder {str(ref)!r} holds a stronger-players study: use "
                                         "--resume to complete it, --overwrite to replace it or a new --out")
    none = tmp_path / "none"
    code, _, err = run_cli(argv(sources, none) + ["--resume"], capsys, monkeypatch)
    assert code == 2 and err.strip() == (f"error: nothing to resume: {str(none)!r} holds no stronger-players study "
                                         "(no stronger.json)")
    assert not none.exists()
    assert {p: p.read_bytes() for p in sorted(ref.rglob("*")) if p.is_file()} == before


@pytest.mark.slow  # a study played twice
def test_overwrite_replaces_the_earlier_study(sources, reference, tmp_path, capsys, monkeypatch):
    ref, r = reference
    out = tmp_path / "ow"
    run_stronger(GT, sources[:1], out, **KW)  # another study: the field run only
    assert (out / "mirror-2p").is_dir() and not (out / "abjure").exists()
    (out / "abjure-left-over").mkdir()
    (out / "abjure-left-over" / "experiment.json").write_text("{}")  # an experiment folder of the earlier study
    code, stdout, err = run_cli(argv(sources, out) + ["--overwrite"], capsys, monkeypatch)
    assert code == 0, err
    assert not (out / "abjure-left-over").exists()
    assert settings_free(out) == settings_free(ref)


def test_every_command_that_plays_games_takes_resume():
    import typer.main

    from meeplelab.cli import app
    from meeplelab.play.settings import MODELS

    group = typer.main.get_command(app)
    lacking = [name for name in MODELS if "--resume" not in {o for p in group.commands[name].params for o in p.opts}]
    assert sorted(MODELS) == sorted(set(MODELS) & set(group.commands)) and lacking == []
