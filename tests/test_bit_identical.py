"""Bit-identical results everywhere: every command that plays games writes the same bytes at ``--n-jobs 1`` (one
chunk: the default batch size) and at ``--n-jobs 2`` in batches of 37 (several chunks, played by two workers at
once), on loky worker processes or on threads, and after a resume.

Each command runs on tiny sizes twice, into folders of the same name: in the reference configuration (``n1``) and in
the one :data:`VARIED` gives it (n_jobs, batch size and, for every other command, the backend changed at once: a
difference in any of them fails it), and every file of the output folder is compared with the reference's (played
once per command and module, :func:`reference`, and shared with the resume test):

- a run folder's part files (``games/``, ``turns/``, ``events/``) hold other games per file at another batch size
  or n_jobs, so they are compared as tables: the parts the manifest lists, read in order, row for row;
- every other file (report tables, pages, figures, study tables, JSON and TOML) byte for byte, after
  :func:`normalised` takes out what differs by design: the time stamps and the commit a run records, the
  ``Built in N s`` footer of a report page, the output folder's path, and the options this test varies
  (the values of ``n_jobs``, ``batch_size``, ``chunk_size`` and ``backend``, a ladder's chunk being one batch; the
  flags ``--n-jobs N``, ``--batch-size N`` and ``--backend NAME`` of a recorded command line);
- files that are timings by nature are left out by name (:data:`TIMING_FILES`): a run's ``manifest.json`` (each
  chunk's seconds, the last call's games/s, its time stamps) and a ladder's ``timing.json``.

Commands: ``meeplelab --help`` lists them; every one that plays games is here (``bench`` measures timings only).
The resume variants stop a run after its first chunks as a kill -9 would leave it (the later chunks' parts gone,
the manifest ``interrupted``) and complete it with ``--resume``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest

from meeplelab.play import runfolder as rf
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate
from tests.cli_run import run_cli

#: output files that are timings by nature, left out by name (see the module docstring)
TIMING_FILES = {rf.MANIFEST, "timing.json"}
#: the configurations a command runs in: the first is the reference
CONFIGS = {"n1": ["--n-jobs", "1"], "n2-b37": ["--n-jobs", "2", "--batch-size", "37"],
           "threads-n2-b37": ["--n-jobs", "2", "--batch-size", "37", "--backend", "threading"]}

GT3 = ["--game", "galileos-truth", "--players", "3"]
GT2 = ["--game", "galileos-truth", "--players", "2"]
#: every command that plays games, on tiny sizes (``{inputs}``: the folder of :func:`inputs`, a scripted field run)
COMMANDS = {
    "simulate": ["simulate", *GT3, "--strategies", "writer,inventor,never-abjure", "--games", "120", "--no-progress"],
    "experiment": ["experiment", *GT3, "--strategies", "writer,inventor", "--control", "never-abjure", "--vary",
                   "abjure-at.cycle=2", "--games", "120", "--no-progress"],
    "sweep": ["sweep", *GT2, "--strategies", "writer,never-abjure", "--vary", "truth_vp_per_tile=0,2", "--games", "80",
              "--no-progress"],
    "compare": ["compare", *GT2, "--strategies", "writer,never-abjure", "--arm", "default", "--arm",
                "truth_vp_per_tile=0", "--games", "80", "--no-progress"],
    "compensate": ["compensate", *GT2, "--target", "6", "--games", "120", "--iterations", "2", "--verify-factor", "1",
                   "--no-progress"],
    "content-value": ["content-value", *GT2, "--strategies", "writer,observer", "--items", "invention:compass",
                      "--games", "40", "--no-progress"],
    "exchange-rates": ["exchange-rates", *GT2, "--strategies", "writer,never-abjure", "--resources",
                       "books_astronomy,vp", "--units", "2", "--games", "40", "--no-progress"],
    "tournament": ["tournament", "--game", "toy", "--strategies", "random,always-draw,greedy-vp", "--games", "40",
                   "--no-progress"],
    "ladder": ["ladder", "--game", "toy", "--plans", "always-draw", "--tuned", "none", "--budget", "0",
               "--games-per-rung", "40", "--no-progress"],
    "robustness": ["robustness", "--game", "toy-robust", "--budget", "5000", "--games-per-lineup", "50",
                   "--no-progress"],
    "balance": ["balance", "--game", "toy-robust", "--vary", "rounds=2..8", "--target", "length=9..11", "--trials",
                "2", "--recheck", "1", "--games-per-lineup", "40", "--no-progress"],
    "stronger": ["stronger", "--game", "galileos-truth", "--from", "{inputs}", "--games", "20", "--mirror-games", "20",
                 "--no-progress"],
    "tune": ["tune", "--game", "toy", "--strategy", "rollout", "--against", "random", "--budget", "32",
             "--games-per-trial", "8", "--eval-games", "10", "--no-progress"],
}
#: the configuration each command is compared in with the reference: loky and threads by turns (every engine and
#: kind of study on each)
VARIED = {name: ("n2-b37", "threads-n2-b37")[i % 2] for i, name in enumerate(COMMANDS)}
#: commands that play their games without writing run folders, and the file holding what they measured
NO_RUN_FOLDERS = {"robustness": "conclusions.parquet", "tune": "tune.json"}
TABLES = set(rf.TABLES)
STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?")
COMMIT = re.compile(rb"(commit[\"']?[ :=]+[\"']?)[0-9a-f]{7,40}\b")
BUILT = re.compile(rb"Built in [0-9.,]+ s")
OPTION = re.compile(rb"(\"?(?:n_jobs|batch_size|chunk_size)\"?\s*[=:]\s*)-?\d+")
BACKEND = re.compile(rb"(\"?backend\"?\s*[=:]\s*)\"(?:loky|threading)\"")
FLAG = re.compile(rb" --(?:n-jobs|batch-size)[ =]-?\d+| --backend[ =](?:loky|threading)\b")


def normalised(data: bytes, out: Path) -> bytes:
    """``data`` (a text file's bytes) without what differs by design between the configurations (module docstring)."""
    for p in sorted({str(out), str(out.resolve())}, key=len, reverse=True):
        data = data.replace(p.encode(), b"OUT")
    data = STAMP.sub(b"<time>", data)
    data = COMMIT.sub(rb"\1<commit>", data)
    data = BUILT.sub(b"Built in <s> s", data)
    data = OPTION.sub(rb"\1<varied>", data)
    data = BACKEND.sub(rb"\1<varied>", data)
    return FLAG.sub(b"", data)


def _is_part(rel: Path) -> bool:
    return len(rel.parts) >= 2 and rel.parts[-2] in TABLES and rel.name.startswith("part-")


def contents(out: Path) -> dict[str, object]:
    """Every output file of ``out`` by relative path (timing files left out): run tables as polars frames (the
    manifest's parts in order), Parquet files as frames plus bytes, other files as normalised bytes."""
    found: dict[str, object] = {}
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out)
        if not p.is_file() or p.name in TIMING_FILES or _is_part(rel):
            continue
        found[str(rel)] = p.read_bytes() if p.suffix in (".png", ".parquet") else normalised(p.read_bytes(), out)
    for m in sorted(out.rglob(rf.MANIFEST)):
        run = m.parent
        man = json.loads(m.read_text())
        for t in rf.TABLES:
            parts = [run / t / rf.part_name(int(c["id"])) for c in man["chunks"] if c.get("status") == "done"]
            parts = [x for x in parts if x.is_file()]
            if parts:
                found[str(run.relative_to(out) / t)] = pl.read_parquet([str(x) for x in parts])
    return found


def differences(want: dict, got: dict) -> list[str]:
    """The relative paths whose contents differ (or that one side lacks)."""
    bad = sorted(set(want) ^ set(got))
    for k in sorted(set(want) & set(got)):
        a, b = want[k], got[k]
        same = a.equals(b) if isinstance(a, pl.DataFrame) else a == b
        if not same:
            bad.append(k)
    return bad


def explain(want: dict, got: dict, bad: list[str]) -> str:
    """The differing paths, with the first differing line of each text file (for the failure message)."""
    lines = []
    for k in bad:
        a, b = want.get(k), got.get(k)
        if isinstance(a, bytes) and isinstance(b, bytes) and not k.endswith((".png", ".parquet")):
            pair = next(((x, y) for x, y in zip(a.splitlines(), b.splitlines()) if x != y), (b"(length)", b""))
            lines.append(f"{k}: {pair[0][:300]!r} != {pair[1][:300]!r}")
        else:
            lines.append(k)
    return "\n".join(lines)


def assert_same(want: dict, got: dict, what: str) -> None:
    bad = differences(want, got)
    assert not bad, f"{what}:\n{explain(want, got, bad)}"


def _argv(name: str, inputs: Path) -> list[str]:
    return [a.replace("{inputs}", str(inputs)) for a in COMMANDS[name]]


def play(argv: list[str], out: Path, capsys, monkeypatch) -> None:
    code, _, err = run_cli([*argv, "--out", str(out)], capsys, monkeypatch)
    assert code == 0, err
    if argv[0] == "simulate":  # its report is written by a second command
        code, _, err = run_cli(["report", str(out), "--no-progress"], capsys, monkeypatch)
        assert code == 0, err


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A scripted field's run folder (Galileo's Truth, 2 seats) for the commands that read runs (stronger)."""
    root = tmp_path_factory.mktemp("inputs")
    simulate(RunConfig(game="galileos-truth", players=2, strategies=("writer", "never-abjure", "observer"), games=40,
                       seed=0, seating="rotate", n_jobs=1, out=str(root / "gt2")))
    return root


@pytest.fixture(scope="module")
def reference(inputs, tmp_path_factory):
    """``reference(name, capsys, monkeypatch)``: :func:`contents` of command ``name`` played in the reference
    configuration (``n1``), played on first use and kept for the module (both tests of a command compare with it)."""
    done: dict[str, dict] = {}

    def get(name: str, capsys, monkeypatch) -> dict:
        if name not in done:
            out = tmp_path_factory.mktemp(f"ref-{name}") / "n1" / "out"  # the folder name every configuration has
            play([*_argv(name, inputs), *CONFIGS["n1"]], out, capsys, monkeypatch)
            done[name] = contents(out)
        return done[name]

    return get


@pytest.mark.slow
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_output_file_is_the_same_for_any_n_jobs_batch_size_and_backend(name, inputs, reference, tmp_path,
                                                                              capsys, monkeypatch):
    ref = reference(name, capsys, monkeypatch)
    out = tmp_path / VARIED[name] / "out"  # the same folder name in every configuration (reports show it)
    play([*_argv(name, inputs), *CONFIGS[VARIED[name]]], out, capsys, monkeypatch)
    got = contents(out)
    played = {k: v.height for k, v in ref.items() if isinstance(v, pl.DataFrame) and k.endswith("games")}
    if name in NO_RUN_FOLDERS:  # the games are played in memory: their results file is compared
        assert NO_RUN_FOLDERS[name] in ref and not played
    else:  # games played and logged, and more written than the runs
        assert played and min(played.values()) > 0 and len(ref) > len(played)
    assert_same(ref, got, f"{name}: {VARIED[name]} differs from n1")


def _stop_after_first_chunks(run: Path, keep: int) -> int:
    """Leave ``run`` as a kill -9 after its first ``keep`` chunks would: the later chunks pending, their parts
    gone, the run interrupted. Returns the number of chunks undone."""
    m = json.loads((run / rf.MANIFEST).read_text())
    undone = 0
    for c in m["chunks"][keep:]:
        for t in rf.TABLES:
            (run / t / rf.part_name(int(c["id"]))).unlink(missing_ok=True)
        for k in ("rows", "bytes", "sha256", "seconds"):
            c.pop(k, None)
        c["status"] = "pending"
        undone += 1
    m["status"] = "interrupted"
    m.pop("totals", None)
    (run / rf.MANIFEST).write_text(json.dumps(m, indent=1))
    return undone


@pytest.mark.slow
@pytest.mark.parametrize("name", ["simulate", "experiment"])
def test_a_resumed_run_writes_the_same_files_as_the_uninterrupted_one(name, inputs, reference, tmp_path, capsys,
                                                                       monkeypatch):
    """Interrupted after its first chunks (n_jobs 2, batch size 37) and resumed: every file equals the
    uninterrupted n_jobs 1 run's, the report tables included."""
    argv = _argv(name, inputs)
    out = tmp_path / "cut" / "out"
    play([*argv, *CONFIGS["n2-b37"]], out, capsys, monkeypatch)
    if name == "simulate":
        assert _stop_after_first_chunks(out, 1) >= 2
    else:  # the last arm stopped part-way, the experiment interrupted
        state = json.loads((out / "experiment.json").read_text())
        assert _stop_after_first_chunks(out / state["arms"][-1]["folder"], 1) >= 2
        state["status"] = "interrupted"
        (out / "experiment.json").write_text(json.dumps(state, indent=1))
    report = out / "report"
    for p in sorted(report.rglob("*"), reverse=True):  # the report of the complete run is gone with it
        p.unlink() if p.is_file() else p.rmdir()
    report.rmdir()
    play([*argv, *CONFIGS["n2-b37"], "--resume"], out, capsys, monkeypatch)
    assert_same(reference(name, capsys, monkeypatch), contents(out),
                f"{name}: the resumed run differs from the uninterrupted one")
