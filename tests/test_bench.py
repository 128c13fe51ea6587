"""The benchmark entry point runs and records what it measured (no timing is asserted here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_run import cli_in_process

ROOT = Path(__file__).resolve().parents[1]


def _bench(tmp_path: Path, only: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, MEEPLELAB_PLUGINS="tests.toygame", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "meeplelab.benchmarks.bench", "--games", "toy", "--quick", "--only", only,
                           "--out", str(tmp_path / "RESULTS.md")], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_bench_writes_results_and_keeps_parts_not_measured_again(tmp_path):
    (tmp_path / "notes.md").write_text("## Analysis\n\nhand-written notes stay at the end\n")
    r = _bench(tmp_path, "throughput")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "RESULTS.md").read_text()
    assert "## Machine" in text and "- cores:" in text
    assert "| 4 | 4096 | 1 | written |" in text and "4 seats: batch 4096 is" in text
    assert "n_jobs 2 is" in text and text.rstrip().endswith("hand-written notes stay at the end")
    rows = json.loads((tmp_path / "results.json").read_text())
    n_tp = sum(r["measure"] == "throughput" for r in rows)
    assert n_tp == 2 * (4 * 2 + 2) and all(r["games"] > 0 and r["seconds"] > 0 for r in rows)

    r = _bench(tmp_path, "profile")
    assert r.returncode == 0, r.stderr
    rows = json.loads((tmp_path / "results.json").read_text())
    assert sum(r["measure"] == "throughput" for r in rows) == n_tp      # kept from the first run
    prof = [r for r in rows if r["measure"] == "profile"]
    assert 0 < len(prof) <= 12 and 0 < sum(p["extra"]["share"] for p in prof) <= 1.0 + 1e-9
    text = (tmp_path / "RESULTS.md").read_text()
    assert "### toy: profile" in text and "| 4 | 4096 | 1 | written |" in text
    # the play kernel's cycle-counter profile: the toy's one decision kind, every game's decisions counted
    kern = [r for r in rows if r["measure"] == "kernel"]
    assert [k["extra"]["kind"] for k in kern] == ["D_TURN"] and kern[0]["extra"]["per_game"] > 1
    assert kern[0]["extra"]["apply_ns"] > 0 and abs(kern[0]["extra"]["share"] - 1.0) < 1e-9
    assert "### toy: play kernel by decision kind" in text and "| D_TURN |" in text


def _bench_refusal(argv: list[str], capsys) -> tuple[int, str, str]:
    """``python -m meeplelab.benchmarks.bench *argv`` through its ``main`` in this process (the toy game is registered
    here): its exit code and what it printed."""
    from meeplelab.benchmarks.bench import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    cap = capsys.readouterr()
    return e.value.code, cap.out, cap.err


def test_bench_refuses_an_unknown_part(tmp_path, capsys):
    argv = ["--games", "toy", "--quick", "--only", "speed", "--out", str(tmp_path / "RESULTS.md")]
    code, _, err = _bench_refusal(argv, capsys)
    assert code == 2 and err.strip().splitlines() == [
        "unknown bench part 'speed': allowed throughput, memory, sweep, profile, compile, compiled, baseline, search, "
        "composite, startup"]
    assert not (tmp_path / "RESULTS.md").exists()


def test_bench_refuses_an_out_folder_that_does_not_exist_before_measuring(tmp_path, capsys):
    out = tmp_path / "missing" / "RESULTS.md"
    code, stdout, err = _bench_refusal(["--games", "toy", "--quick", "--only", "throughput", "--out", str(out)], capsys)
    assert code == 2 and stdout == ""
    assert err.strip().splitlines() == [
        f"--out/--json {out}: folder {out.parent} does not exist or is not writable: allowed a file in an existing "
        "writable folder"]
    assert not out.parent.exists()


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                                   GIT_COMMITTER_EMAIL="t@t")).stdout.strip()


def test_baseline_tree_unpacks_the_commit_once_and_refuses_a_commit_not_in_the_history(tmp_path, capsys):
    from meeplelab.benchmarks.bench import baseline_tree

    repo = tmp_path / "repo"
    (repo / "sim").mkdir(parents=True)
    (repo / "sim" / "rule.py").write_text("VP = 3\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    first = _git(repo, "rev-parse", "HEAD")
    (repo / "sim" / "rule.py").write_text("VP = 4\n")
    _git(repo, "commit", "-qam", "second")
    tree = baseline_tree(first, repo, tmp_path / "cache")
    assert tree == tmp_path / "cache" / first[:12]
    assert (tree / "sim" / "rule.py").read_text() == "VP = 3\n"   # the commit's text, not the work tree's
    (tree / "sim" / "rule.py").write_text("kept")                 # unpacked once, then reused
    assert baseline_tree(first, repo, tmp_path / "cache") == tree and (tree / "sim" / "rule.py").read_text() == "kept"
    missing = "0" * 40
    with pytest.raises(SystemExit) as e:
        baseline_tree(missing, repo, tmp_path / "cache")
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"bench part 'baseline' needs commit {missing[:12]} in the git history")
    assert not (tmp_path / "cache" / missing[:12]).exists()


@pytest.mark.slow  # 38-88 s under load in the fast tier's measurement (docs/testing.md): CI runs it
def test_against_baseline_plays_the_same_games_on_three_paths_and_renders_the_ratio(monkeypatch):
    # the checkout itself stands in for the baseline tree: its Python loop in a separate process must play the
    # same games as compiled play and this process's Python loop
    from meeplelab.benchmarks.bench import PRE_COMPILED_BASE, against_baseline, render, targets

    monkeypatch.setenv("MEEPLELAB_PLUGINS", "tests.toygame")
    rows = []
    for n_jobs in (1, 2):
        trio = against_baseline("toy", 4, 256, 64, n_jobs, True, ROOT)
        assert [r.extra["path"] for r in trio] == ["compiled", "python-loop", "issue-16 base"]
        assert all(r.measure == "baseline" and r.games == 256 and r.seconds > 0 for r in trio)
        assert trio[0].extra["same_games"] is True
        assert trio[0].extra["ratio"] == pytest.approx(trio[0].gps / trio[2].gps)
        assert trio[2].extra["bytes_per_game"] > 0
        rows += trio
    tg = {t: (m, ok) for t, m, _, ok in targets(rows, "toy")}
    key = f"compiled / the Python-loop path before compiled play (commit {PRE_COMPILED_BASE[:7]}), 4 seats, logs written, n_jobs 2, same run"
    assert tg[key] == (f"{rows[3].gps / rows[5].gps:.2f}x", rows[3].gps / rows[5].gps >= 3)
    assert tg[f"same games as the numpy plans of commit {PRE_COMPILED_BASE[:7]} (every baseline row)"] == ("yes", True)
    text = render(rows, {"cores": 2})
    assert f"### toy: compiled play against the Python-loop path before it (commit {PRE_COMPILED_BASE[:7]}" in text
    assert text.count("| 4 | written | ") == 2 and "| yes |" in text


def test_same_games_compares_the_games_tables(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from meeplelab.benchmarks.bench import same_games

    def run(name, vp, extra=False):
        (tmp_path / name / "games").mkdir(parents=True)
        cols = {"game": [1, 0, 0, 1], "seat": [0, 0, 1, 1], "vp": vp}
        if extra:
            cols["vp_seals"] = [0, 0, 0, 0]          # a column one version has and the other not is not compared
        pq.write_table(pa.table(cols), tmp_path / name / "games" / "part-000000.parquet")
        return tmp_path / name

    a = run("a", [3, 5, 7, 9])
    b = run("b", [3, 5, 7, 9], extra=True)
    c = run("c", [3, 5, 7, 8])
    assert same_games(a, b) and same_games(b, a) and not same_games(a, c)


@pytest.mark.slow
def test_bench_measures_the_cold_compile_in_an_empty_numba_cache(tmp_path):
    r = _bench(tmp_path, "compile")
    assert r.returncode == 0, r.stderr
    rows = [x for x in json.loads((tmp_path / "results.json").read_text()) if x["measure"] == "compile"]
    assert len(rows) == 1 and rows[0]["seconds"] > 0 and rows[0]["extra"]["kernels_cached"] > 0
    text = (tmp_path / "RESULTS.md").read_text()
    assert "### toy: cold compile of the rule kernels" in text and "Target: 60 s or less." in text


@pytest.mark.slow
def test_bench_compares_compiled_play_with_the_python_loop_and_writes_the_targets(tmp_path):
    r = _bench(tmp_path, "compiled")
    assert r.returncode == 0, r.stderr
    rows = [x for x in json.loads((tmp_path / "results.json").read_text()) if x["measure"] == "compiled"]
    # 2 and 4 seats x logs written and not x n_jobs 1 and 2, each on both paths
    assert len(rows) == 16
    assert {(x["players"], x["logs"], x["n_jobs"]) for x in rows} == {(p, lg, j) for p in (2, 4)
                                                                       for lg in (True, False) for j in (1, 2)}
    assert [x["extra"]["path"] for x in rows[:2]] == ["compiled", "python-loop"]
    assert all(x["seconds"] > 0 for x in rows) and rows[0]["extra"]["ratio"] > 0
    text = (tmp_path / "RESULTS.md").read_text()
    assert "### toy: compiled play against the Python loop, same run, seeds and strategies" in text
    assert ("| compiled / this commit's --python-loop (same compiled kernels and plan choice), 4 seats, logs written, "
            "n_jobs 2 |") in text
    assert "| n_jobs 2 / n_jobs 1 (compiled, 4 seats, logs written) |" in text


def test_derived_state_study_counts_a_hit_only_when_the_payability_inputs_repeat(monkeypatch):
    import meeplelab.benchmarks.derived_state as ds

    full = ds.cache_hits(20)
    assert set(full) == {"P_MAIN", "P_STACK", "P_SEC"}
    assert all(n > 20 and 0 <= h <= n for n, h in full.values())
    # the stack's count is an input, so two stack decisions in a row never share their inputs
    assert full["P_STACK"][1] == 0
    # keyed only by Level, Copernican side and Natural Philosopher, most decisions repeat their inputs
    whole = ds.payability_inputs
    monkeypatch.setattr(ds, "payability_inputs", lambda st, b, p: whole(st, b, p)[4:7])
    coarse = ds.cache_hits(20)
    assert {k: n for k, (n, _) in coarse.items()} == {k: n for k, (n, _) in full.items()}   # same games, decisions
    assert all(h > n // 2 for n, h in coarse.values())


@pytest.mark.parametrize("args,line", [
    (["--out", "{tmp}"], "--out/--json {tmp}: is a folder: allowed a file in an existing writable folder"),
    (["--scale", "-1"], "--scale -1.0: allowed a number above 0"),
    (["--games", "toy,nosuch"], "--games 'nosuch': unknown game 'nosuch'"),
])
def test_bench_refuses_bad_arguments_before_measuring(tmp_path, args, line, capsys):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    base = {"--games": "toy", "--out": str(tmp_path / "RESULTS.md")}
    for k, v in zip(args[0::2], args[1::2]):
        base[k] = v
    cmd = ["--quick", "--only", "throughput"]
    for k, v in base.items():
        cmd += [k, v]
    code, stdout, err = _bench_refusal(cmd, capsys)
    err = err.strip().splitlines()
    assert code == 2 and stdout == "" and len(err) == 1
    assert err[0].startswith(line.replace("{tmp}", str(tmp_path)))
    assert list(tmp_path.iterdir()) == []


def test_targets_say_same_games_only_when_every_baseline_row_has_them():
    from meeplelab.benchmarks.bench import PRE_COMPILED_BASE, Row, targets

    def trio(players, same):
        c = Row("toy", "baseline", players, 64, 1, True, 100, 0.1, {"path": "compiled", "same_games": same})
        return [c, Row("toy", "baseline", players, 64, 1, True, 100, 0.2, {"path": "python-loop"}),
                Row("toy", "baseline", players, 64, 1, True, 100, 0.5, {"path": "issue-16 base"})]

    label = f"same games as the numpy plans of commit {PRE_COMPILED_BASE[:7]} (every baseline row)"
    assert {t: ok for t, _, _, ok in targets(trio(4, True) + trio(2, True), "toy")}[label] is True
    assert {t: ok for t, _, _, ok in targets(trio(4, True) + trio(2, False), "toy")}[label] is False


def test_search_bench_counts_the_equal_games_and_reports_them_as_information():
    import pandas as pd

    from meeplelab.benchmarks.bench import Row
    from meeplelab.benchmarks.search_bench import render, same_games, targets

    def games(vps):  # two seats per game; game seeds 0, 1, 2 in seat order 0
        rows = [{"seat_order": 0, "game_seed": g, "seat": s, "strategy": "ismcts" if s == 0 else "heuristic",
                 "vp": v[s], "win_share": float(v[s] > v[1 - s]), "plies": 100} for g, v in enumerate(vps) for s in (0, 1)]
        return pd.DataFrame(rows)

    a = games([(10, 5), (7, 9), (8, 8)])
    b = games([(10, 5), (7, 8), (8, 8)])  # game seed 1 differs in one seat's VP
    assert same_games(a, b) == (2, 3) and same_games(a, a) == (3, 3)
    assert same_games(a, games([(10, 5)])) == (1, 1)  # only the seeds both played count
    x = {"win": 0.75, "lo": 0.72, "hi": 0.78, "seat0": 0.74, "seat1": 0.76, "margin": 9.0, "margin_lo": 8.0,
         "margin_hi": 10.0}
    rows = [Row("toy", "search", 2, 50, 2, True, 800, 8.0, {"path": "compiled", **x}),
            Row("toy", "search", 2, 25, 2, True, 400, 40.0, {"path": "python-loop", **x, "lo": 0.70, "hi": 0.79,
                                                             "equal_games": 399, "common_games": 400})]
    tg = {t: (m, ok) for t, m, _, ok in targets(rows, "toy")}
    assert tg["(information) games of the reference equal to the compiled run's on the seeds both played"] == \
        ("399 of 400", None)
    assert tg["as strong as the `--python-loop` reference (400 games): compiled rate inside its interval"][1] is True
    text = "\n".join(render(rows, "toy"))
    assert "| 399 of 400 | " in text and "| (information) games of the reference" in text and "| - |" in text


def test_composite_bench_counts_each_commands_games_from_its_own_files(tmp_path):
    """The composite bench counts what a command played from what it wrote (no timing asserted): a
    real sweep's and experiment's run folders, and the study files of robustness, balance and tune."""
    from meeplelab.benchmarks.bench import Row
    from meeplelab.benchmarks.composite_bench import games_played, reference_strategies, render

    def run(args):
        code, _, err = cli_in_process(args)
        assert code == 0, err

    run(["sweep", "--game", "galileos-truth", "--vary", "truth_vp_per_tile=0,2", "--players", "2", "--strategies",
         "writer,never-abjure", "--games", "8", "--n-jobs", "1", "--out", str(tmp_path / "sweep"), "--no-progress"])
    assert games_played("sweep", tmp_path / "sweep") == {2: 16}
    run(["experiment", "--game", "galileos-truth", "--players", "3", "--strategies", "writer,observer", "--control",
         "never-abjure", "--vary", "abjure-at.cycle=1,2", "--games", "12", "--n-jobs", "1", "--no-report",
         "--out", str(tmp_path / "exp"), "--no-progress"])
    assert games_played("experiment", tmp_path / "exp") == {3: 36}
    rob = tmp_path / "rob"
    rob.mkdir()
    (rob / "robustness.json").write_text(json.dumps({"morris_X": [[0]] * 4, "sobol_X": [[0]] * 2, "games": 8,
                                                      "lineups": [["field-2", 0, ["a", "b"], "", -1],
                                                                  ["field-3", 0, ["a", "b", "c"], "", -1]]}))
    assert games_played("robustness", rob) == {2: 7 * 8, 3: 7 * 8}  # 4 + 2 points + the defaults
    tune = tmp_path / "tune"
    tune.mkdir()
    (tune / "tune.json").write_text(json.dumps({"players": 4, "field": ["a", "b", "c"], "games_per_trial": 50,
                                                "trials": [{}] * 4, "heldout": {"games_per_lineup": 200}}))
    assert games_played("tune", tune) == {4: 4 * 50 * 3 * 4 + 200 * 7 * 4}
    assert reference_strategies("galileos-truth", "tune", 4) == ["heuristic", "writer", "observer", "inventor"]
    assert reference_strategies("unconscious-mind", "sweep", 2) == ["coffee-engine", "publisher"]
    rows = [Row("galileos-truth", "composite", 4, 0, 2, True, 7200, 6.0,
                {"command": "sweep", "args": "--vary x=1,2", "by_players": {"4": 7200}, "ref_seconds": 3.0,
                 "ref_gps": 2400.0, "ratio": 2.0}),
            Row("galileos-truth", "composite", 4, 0, 2, True, 7200, 4.0,
                {"command": "experiment", "args": "...", "by_players": {"4": 7200}, "ref_seconds": 3.0,
                 "ref_gps": 2400.0, "ratio": 4 / 3})]
    text = "\n".join(render(rows, "galileos-truth"))
    assert "| `sweep` | `--vary x=1,2` | 7,200 (4: 7,200) | 6.0 | 1,200 | 3.0 | 2,400 | 2.00x | **no** |" in text
    assert "| 1.33x | yes |" in text
