"""Bad input: one line naming the bad value and what is allowed, exit code 2, nothing partial."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import polars as pl
import pytest

from meeplelab import cli
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate


def run_cli(argv, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["meeplelab", *argv])
    with pytest.raises(SystemExit) as e:
        cli.main()
    cap = capsys.readouterr()
    return e.value.code, cap.out, cap.err


def expect_error(argv, message, capsys, monkeypatch):
    code, out, err = run_cli(argv, capsys, monkeypatch)
    assert code == 2, (code, err)
    assert err.strip() == f"error: {message}", err
    assert len(err.strip().splitlines()) == 1


@pytest.fixture
def small_run(tmp_path):
    out = tmp_path / "done"
    simulate(RunConfig(game="toy", players=2, strategies=("random",), games=20, seed=1, batch_size=10, out=str(out)))
    return out


SIM = ["simulate", "--no-progress"]


@pytest.mark.parametrize("args,message", [
    (["--game", "toi"], "unknown game 'toi': did you mean toy? allowed: galileos-truth, unconscious-mind, toy, toy-robust"),
    (["--game", "toy", "--strategies", "randon"],
     "unknown strategy 'randon' for toy: did you mean random, slow-random? allowed: always-draw, bank-at, crashing, empty-plan, greedy-vp, heuristic, interrupting, ismcts, random, rollout, slow-random"),
    (["--game", "toy", "--players", "2", "--strategies", "random,random,random"],
     "3 strategies given for 2 players repeat an id (random,random,random): a pool of more strategies than seats "
     "lists each once"),
    (["--game", "toy", "--players", "2", "--strategies", "random,always-draw,bank-at", "--seating", "fixed"],
     "3 strategies given for 2 players with --seating fixed: give one per seat, or seat a pool of more strategies "
     "than seats with --seating rotate or random"),
    (["--game", "toy", "--players", "3", "--strategies", "random,always-draw"],
     "2 strategies given for 3 players: give one per seat, one for all, or (rotated or random seating) a pool of "
     "more strategies than seats, each once"),
    (["--game", "toy", "--players", "0"], "toy takes 1 to 4 players, got 0"),
    (["--game", "toy", "--players", "5"], "toy takes 1 to 4 players, got 5"),
    (["--game", "toy", "--games", "0"], "--games must be at least 1, got 0"),
    (["--game", "toy", "--games", "-3"], "--games must be at least 1, got -3"),
    (["--game", "toy", "--batch-size", "0"], "--batch-size must be at least 1, got 0"),
    (["--game", "toy", "--games", "99999999999999999999"], "--games 99999999999999999999: at most 10,000,000 games: "
     "about 45 minutes of play at 4,000 games/s and 20 GB of Parquet with every log: split more over several runs "
     "with different --seed"),
    (["--game", "toy", "--games", "1000000000000"], "--games 1000000000000: at most 10,000,000 games: about 45 "
     "minutes of play at 4,000 games/s and 20 GB of Parquet with every log: split more over several runs with "
     "different --seed"),
    (["--game", "toy", "--batch-size", "1000000"], "--batch-size 1000000: at most 65,536 games per batch: a batch's "
     "states, log buffers and tables are held in memory at once (about 100 KB a game with every log: over 6 GB at "
     "the bound)"),
    (["--game", "toy", "--chunk-size", "100001"], "--chunk-size 100001: at most 100,000 games per chunk: a chunk's "
     "tables stay in memory until its part files are written (about 40 KB a game with every log: 4 GB at the bound)"),
    (["--game", "toy", "--n-jobs", "100000"], "--n-jobs 100000: at most 1,024 workers: each is a process of its own "
     "(up to 650 MiB while playing) and more workers than cores play no faster; -1 uses every core"),
    (["--game", "toy", "--players", "1000000"], "--players 1000000: at most 64 players: no game seats more (each "
     "game's own range is checked as well)"),
    (["--game", "toy", "--seed", "99999999999999999999"],
     "--seed must be an integer from 0 to 2**63-1, got 99999999999999999999"),
    (["--game", "toy", "--set", "roundz=3"], "unknown parameter 'roundz' of toy; did you mean rounds?"),
    (["--game", "toy", "--set", "rounds=three"], "parameter rounds='three' has the wrong type: expected an integer"),
    (["--game", "toy", "--set", "rounds=99"], "parameter rounds='99' is out of range: allowed 1 to 50"),
    (["--game", "toy", "--backend", "mpi"], "Invalid value for '--backend': 'mpi' is not one of 'loky', 'threading', 'dask'"),
    (["--game", "toy", "--strategies", "slow-random:speed=3"],
     "strategy 'slow-random' has no argument 'speed': allowed: ms"),
])
def test_bad_simulate_input_is_one_line_exit_2_and_writes_nothing(args, message, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    expect_error(SIM + args + ["--out", str(out)], message, capsys, monkeypatch)
    assert not out.exists()


def test_toml_config_with_a_syntax_error(tmp_path, capsys, monkeypatch):
    bad = tmp_path / "run.toml"
    bad.write_text('game = "toy"\nplayers = = 2\n')
    code, _, err = run_cli(SIM + ["--config", str(bad), "--out", str(tmp_path / "o")], capsys, monkeypatch)
    assert code == 2 and err.startswith(f"error: config file '{bad}' has a TOML syntax error: ")
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "o").exists()


TOML_BASE = 'game = "toy"\nplayers = 2\nstrategies = ["random"]\ngames = 20\nbatch_size = 10\nn_jobs = 1\n'


@pytest.mark.parametrize("line,message", [
    ('compiled = "false"', "config field 'compiled' is 'false' (str): allowed true or false"),
    ('log_turns = "no"', "config field 'log_turns' is 'no' (str): allowed true or false"),
    ("log_events = 0", "config field 'log_events' is 0 (int): allowed true or false"),
    ('seed = "7"', "config field 'seed' is '7' (str): it must be an integer"),
    ("games = 20.0", "config field 'games' is 20.0 (float): it must be an integer"),
    ("players = true", "config field 'players' is True (bool): it must be an integer"),
    ('batch_size = "10"', "config field 'batch_size' is '10' (str): it must be an integer"),
    ('n_jobs = "1"', "config field 'n_jobs' is '1' (str): it must be an integer"),
    ('chunk_size = "20"', "config field 'chunk_size' is '20' (str): it must be an integer"),
    ("game = 5", "config field 'game' is 5 (int): it must be a string"),
    ("content = 5", "config field 'content' is 5 (int): it must be a string"),
    ("scheduler = 5", "config field 'scheduler' is 5 (int): it must be a string"),
    ('backend = ["loky"]', "config field 'backend' is ['loky'] (list): it must be a string"),
    ('params = "x"', "config field 'params' is 'x' (str): it must be a table (params = { name = value })"),
    ('treatment = "x"', "config field 'treatment' is 'x' (str): it must be a table (treatment = { name = value })"),
    ("strategies = 5", "config field 'strategies' is 5: it must be a list of strategy ids (strings, as "
                       '["publisher", "citer"]) or one comma-separated string'),
    ("strategies = [1, 2]", "config field 'strategies' is [1, 2]: it must be a list of strategy ids (strings, as "
                            '["publisher", "citer"]) or one comma-separated string'),
])
def test_toml_config_fields_of_the_wrong_type_are_one_line(tmp_path, capsys, monkeypatch, line, message):
    key = line.split(" = ")[0]
    cfg = tmp_path / "run.toml"
    cfg.write_text("".join(x + "\n" for x in TOML_BASE.splitlines() if not x.startswith(key + " ")) + line + "\n")
    out = tmp_path / "o"
    expect_error(SIM + ["--config", str(cfg), "--out", str(out)], message, capsys, monkeypatch)
    assert not out.exists()


def test_toml_config_with_real_booleans_runs(tmp_path, capsys, monkeypatch):
    import pyarrow.parquet as pq

    cfg = tmp_path / "run.toml"
    cfg.write_text(TOML_BASE + "seed = 7\ncompiled = false\nlog_turns = false\nlog_events = true\n")
    out = tmp_path / "o"
    code, stdout, err = run_cli(SIM + ["--config", str(cfg), "--out", str(out)], capsys, monkeypatch)
    assert code == 0, err
    assert stdout.startswith("wrote 20 games of toy to ")
    assert pq.read_table(out / "games").num_rows == 40  # 20 games x 2 seats
    assert pq.read_table(out / "turns").num_rows == 0 and pq.read_table(out / "events").num_rows > 0
    assert "seed = 7\n" in (out / "run.toml").read_text() and "compiled = false\n" in (out / "run.toml").read_text()


def test_output_folder_holding_another_run(small_run, capsys, monkeypatch):
    before = sorted(p.name for p in small_run.rglob("*"))
    expect_error(SIM + ["--game", "toy", "--out", str(small_run)],
                 f"output folder '{small_run}' holds another run: use --resume to complete it or --overwrite to replace it",
                 capsys, monkeypatch)
    assert sorted(p.name for p in small_run.rglob("*")) == before


def test_output_path_not_writable(tmp_path, capsys, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    blocker = ro / "file"
    blocker.write_text("x")
    expect_error(SIM + ["--game", "toy", "--out", str(blocker / "run")],
                 f"cannot write to output folder '{blocker / 'run'}': Not a directory", capsys, monkeypatch)


def test_report_on_a_corrupt_parquet_part_names_the_part(small_run, tmp_path, capsys, monkeypatch):
    part = small_run / "turns" / "part-000000.parquet"  # the run's one chunk: a part the manifest lists
    part.write_bytes(b"not parquet at all")
    expect_error(["report", str(small_run), "--out", str(tmp_path / "rep")],
                 f"Parquet part '{part}' is corrupt (ArrowInvalid); meeplelab simulate --out '{small_run}' --resume "
                 f"moves it to '{small_run / 'stray'}' and plays chunk 0 (games 0 to 19) again", capsys, monkeypatch)
    assert not (tmp_path / "rep").exists()


# a run folder that lies (docs/logs.md, "Part files are checked"): damage(run, tmp_path) -> what the line says of the part
def _swapped_for_another_seeds(run: Path, tmp: Path) -> tuple[str, str]:
    other = tmp / "other"
    simulate(RunConfig(game="toy", players=2, strategies=("random",), games=20, seed=2, batch_size=10, out=str(other)))
    part = run / "games" / "part-000000.parquet"
    want = part.stat().st_size
    part.write_bytes((other / "games" / "part-000000.parquet").read_bytes())  # 40 rows as well
    return "games", f"is {part.stat().st_size:,} bytes where the manifest lists {want:,}"


def _one_bit_flipped(run: Path, tmp: Path) -> tuple[str, str]:
    part = run / "events" / "part-000000.parquet"
    data = bytearray(part.read_bytes())
    data[data.find(b"parquet-cpp-arrow")] ^= 1  # in the footer's created_by: it still reads, the same size
    want = hashlib.sha256(part.read_bytes()).hexdigest()
    part.write_bytes(bytes(data))
    return "events", f"has sha256 {hashlib.sha256(data).hexdigest()[:12]}... where the manifest lists {want[:12]}..."


def _a_folder_in_its_place(run: Path, tmp: Path) -> tuple[str, str]:
    part = run / "turns" / "part-000000.parquet"
    part.unlink()
    part.mkdir()
    return "turns", "is a folder, not a file"


def _two_rows_of_a_seat_in_an_unhashed_run(run: Path, tmp: Path) -> tuple[str, str]:
    part = run / "games" / "part-000000.parquet"
    g = pl.read_parquet(part)
    g.with_columns(pl.when(pl.col("game") == 3).then(0).otherwise(pl.col("seat")).cast(pl.Int8).alias("seat")) \
        .write_parquet(part)
    m = json.loads((run / "manifest.json").read_text())  # a manifest written before parts were hashed
    del m["chunks"][0]["sha256"]
    m["chunks"][0]["bytes"]["games"] = part.stat().st_size
    (run / "manifest.json").write_text(json.dumps(m))
    return "games", "holds 2 rows of seat 0 of game 3 (one row per game and seat)"


@pytest.mark.parametrize("damage", [_swapped_for_another_seeds, _one_bit_flipped, _a_folder_in_its_place,
                                    _two_rows_of_a_seat_in_an_unhashed_run])
@pytest.mark.parametrize("command", ["report", "export"])
def test_a_run_folder_that_lies_is_refused_in_one_line(damage, command, small_run, tmp_path, capsys, monkeypatch):
    table, what = damage(small_run, tmp_path)
    part = small_run / table / "part-000000.parquet"
    expect_error([command, str(small_run), "--out", str(tmp_path / "o")],
                 f"Parquet part '{part}' {what}; meeplelab simulate --out '{small_run}' --resume moves it to "
                 f"'{small_run / 'stray'}' and plays chunk 0 (games 0 to 19) again", capsys, monkeypatch)
    assert not (tmp_path / "o").exists()


def test_report_on_an_empty_folder(tmp_path, capsys, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    expect_error(["report", str(empty)], f"'{empty}' is not a run folder: no manifest.json", capsys, monkeypatch)
    assert list(empty.iterdir()) == []


def test_replay_of_a_game_not_in_the_run(small_run, capsys, monkeypatch):
    expect_error(["replay", str(small_run), "--game-id", "20"],
                 f"game 20 is not in run '{small_run}': games 0 to 19", capsys, monkeypatch)


@pytest.mark.slow
def test_unreachable_dask_scheduler(tmp_path, capsys, monkeypatch):
    out = tmp_path / "o"
    expect_error(SIM + ["--game", "toy", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--out", str(out)],
                 "cannot reach Dask scheduler 'tcp://127.0.0.1:9' within 10 s: OSError (addresses look like tcp://host:8786)",
                 capsys, monkeypatch)
    assert not out.exists()


def test_non_integer_option_is_one_line(tmp_path, capsys, monkeypatch):
    code, _, err = run_cli(SIM + ["--game", "toy", "--players", "two", "--out", str(tmp_path / "o")], capsys, monkeypatch)
    assert code == 2 and err.startswith("error: Invalid value for '--players'") and len(err.strip().splitlines()) == 1


def test_simulate_then_replay_then_report_succeed(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run"
    code, stdout, _ = run_cli(SIM + ["--game", "toy", "--players", "2", "--games", "50", "--out", str(out)], capsys, monkeypatch)
    assert code == 0 and "wrote 50 games of toy" in stdout
    code, stdout, _ = run_cli(["replay", str(out), "--game-id", "3"], capsys, monkeypatch)
    assert code == 0 and "(matches the logged final scores)" in stdout
    code, stdout, _ = run_cli(["report", str(out)], capsys, monkeypatch)
    assert code == 0 and (out / "report" / "report.html").is_file()


def test_bad_content_folder_names_file_entry_and_field(tmp_path, capsys, monkeypatch):
    import shutil

    from meeplelab.sim.registry import get_game_class

    src = get_game_class("galileos-truth").default_content_dir()
    bad = tmp_path / "content"
    shutil.copytree(src, bad)
    f = bad / "penance.toml"
    f.write_text(f.read_text().replace("coins = 2", "coinz = 2", 1))
    out = tmp_path / "o"
    code, _, err = run_cli(SIM + ["--game", "galileos-truth", "--content", str(bad), "--out", str(out)], capsys, monkeypatch)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert err.strip() == "error: penance.toml: [[penance]] entry 'penance-minor': field 'coins': missing required field"
    assert not out.exists()


def test_report_refuses_to_write_into_a_folder_that_is_not_a_report(small_run, tmp_path, capsys, monkeypatch):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "important.txt").write_text("keep me")
    expect_error(["report", str(small_run), "--out", str(victim)],
                 f"report folder '{victim}' exists and is not a report: choose a new or empty --out", capsys, monkeypatch)
    assert (victim / "important.txt").read_text() == "keep me"
    expect_error(["report", str(small_run), "--out", str(small_run)],
                 f"report folder '{small_run}' exists and is not a report: choose a new or empty --out", capsys, monkeypatch)
    assert (small_run / "manifest.json").is_file()


def test_config_that_is_a_folder_is_one_line(tmp_path, capsys, monkeypatch):
    expect_error(SIM + ["--config", str(tmp_path), "--out", str(tmp_path / "o")],
                 f"config file '{tmp_path}' cannot be read: IsADirectoryError", capsys, monkeypatch)


def test_resume_needs_only_the_run_folder(tmp_path, capsys, monkeypatch):
    import json

    out = tmp_path / "run"
    simulate(RunConfig(game="toy", players=2, strategies=("random",), games=40, seed=1, batch_size=10, chunk_size=10,
                       out=str(out)))
    m = json.loads((out / "manifest.json").read_text())
    m["chunks"][2]["status"] = "pending"
    m["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(m))
    code, stdout, _ = run_cli(SIM + ["--out", str(out), "--resume"], capsys, monkeypatch)
    assert code == 0 and "completed 40 games of toy" in stdout and "10 played now" in stdout


def test_interval_bars_at_a_100_percent_win_rate_do_not_crash():
    import polars as pl

    from meeplelab.analysis.figures import win_rate_chart
    from meeplelab.analysis.stats import wilson

    p, lo, hi = wilson([300.0, 0.0], [300, 300])
    df = pl.DataFrame({"strategy": ["writer", "random"], "est": p, "low": lo, "high": hi})
    assert win_rate_chart(df) is not None


def test_bench_with_an_unknown_part_or_a_bad_scale_is_refused(tmp_path, capsys, monkeypatch):
    out = tmp_path / "R.md"
    expect_error(["bench", "--games", "toy", "--only", "speed", "--out", str(out)],
                 "--only: unknown part 'speed'; allowed throughput, memory, sweep, profile, compile, compiled, baseline, search, composite, startup", capsys, monkeypatch)
    for scale in ("0", "1e12", "nan"):
        expect_error(["bench", "--games", "toy", "--scale", scale, "--out", str(out)],
                     f"--scale {float(scale)}: allowed a number above 0 and at most 100 (each throughput run plays up "
                     "to 32,768 x scale games: over 3 million at 100)", capsys, monkeypatch)
    assert not out.exists()
    gone = tmp_path / "missing" / "R.md"
    expect_error(["bench", "--games", "toy", "--only", "throughput", "--out", str(gone)],
                 f"--out {gone}: folder {gone.parent} does not exist; allowed a file in an existing folder", capsys,
                 monkeypatch)
    assert not gone.parent.exists()


@pytest.mark.parametrize("game,sets,message", [
    ("galileos-truth", ["prison_at=12", "stake_at=8"],
     "parameters prison_at=12, stake_at=8 and suspicion_max=12 contradict each other: allowed prison_at < stake_at "
     "<= suspicion_max (Prison comes before the Stake, both on the Suspicion track)"),
    ("unconscious-mind", ["district_thresholds=3,5,4,6"],
     "parameter district_thresholds=3,5,4,6 must not decrease: each district bonus slot needs at least the tags of "
     "the slot before"),
])
def test_contradictory_parameters_are_one_line_exit_2_and_write_nothing(game, sets, message, tmp_path, capsys,
                                                                       monkeypatch):
    out = tmp_path / "out"
    args = [x for s in sets for x in ("--set", s)]
    expect_error(SIM + ["--game", game] + args + ["--out", str(out)], message, capsys, monkeypatch)
    assert not out.exists()
    expect_error(["sweep", "--game", game, "--vary", "abjure_suspicion_drop=3,4" if game == "galileos-truth"
                  else "conversion_coffee=1,2"] + args + ["--out", str(out)], message, capsys, monkeypatch)
    assert not out.exists()


def test_tournament_into_an_earlier_tournament_names_only_its_own_options(tmp_path, capsys, monkeypatch):
    out = tmp_path / "t"
    argv = ["tournament", "--game", "toy", "--strategies", "random,always-draw", "--games", "10", "--n-jobs", "1",
            "--out", str(out)]
    code, _, _ = run_cli(argv, capsys, monkeypatch)
    assert code == 0
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    expect_error(argv, f"output folder '{out}' holds another tournament: use --resume to complete it, --overwrite "
                       "to replace it or choose a new --out", capsys, monkeypatch)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before
    code, help_text, _ = run_cli(["tournament", "--help"], capsys, monkeypatch)
    options = help_text.split("Options:")[1]
    assert code == 0 and "--overwrite" in options and "--resume" in options


def test_tournament_refuses_a_folder_that_is_not_a_tournament(tmp_path, capsys, monkeypatch):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "important.txt").write_text("keep me")
    expect_error(["tournament", "--game", "toy", "--strategies", "random,always-draw", "--games", "10", "--out",
                  str(victim), "--overwrite"],
                 f"output folder '{victim}' is not empty and not a tournament folder (holds 'important.txt'): choose "
                 "a new --out", capsys, monkeypatch)
    assert [p.name for p in victim.iterdir()] == ["important.txt"]
