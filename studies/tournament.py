"""A tournament as one command: every lineup played (:func:`meeplelab.play.tournament.play_tournament`), then
summarised (:func:`meeplelab.analysis.tournament.summarize`) into rounded, ordered Parquet tables beside the lineups,
and ``tournament.json`` marked ``complete`` (docs/metagame.md)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from meeplelab.analysis.tables import write_table
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.report import _observed_need
from meeplelab.analysis.tournament import TERMINAL_COLUMNS, format_terminal, given_ids, summarize
from meeplelab.play import runfolder as rf
from meeplelab.play.tournament import STUDY_FOLDER, TOURNAMENT_FILE, play_tournament, read_tournament
from meeplelab.analysis.tournament_report import build_tournament_report


def run_tournament(game: str, strategies, players: int, games: int, seed: int, out: Path | str, *,
                   report: bool = False, **options) -> dict[str, pl.DataFrame]:
    """Play every lineup for ``games`` games each (games per lineup) and summarise.

    With ``report`` the report is written into ``out/report`` (:func:`write_report`) before the
    tournament is marked ``complete``; ``tournament.json``'s ``report`` says whether it was. With ``overwrite``
    the new tournament, its tables and report are built beside the earlier one and replace it once complete
    (:func:`meeplelab.play.runfolder.study_folder`).

    Lineup ``i`` is played into ``out/lineup-<i>``; ``options`` are those of
    :func:`meeplelab.play.tournament.play_tournament` (batch size, n_jobs, backend, params, overwrite, resume, ...).

    Returns:
        the tables of :func:`meeplelab.analysis.tournament.summarize` (also written as Parquet into ``out``; the
        same games give the same bytes).

    Raises:
        the errors of :func:`~meeplelab.play.tournament.play_tournament`.
    """
    out = Path(out)
    with rf.study_folder(out, STUDY_FOLDER, resume=options.get("resume", False),
                         overwrite=options.get("overwrite", False)) as work:  # swapped in once its tables are written
        folders, meta = play_tournament(game, strategies, players, games, seed, out, **options)
        tables = summarize([Path(rf.rebase(f, out, work)) for f in folders])
        for name, df in tables.items():  # rounded and ordered: the same games give the same bytes
            write_table(df, work / f"{name}.parquet")
        if report:
            write_report(work, progress=options.get("progress", False))
        else:
            meta["status"], meta["report"] = "complete", "not asked (--no-report)"
            rf.write_atomic(work / TOURNAMENT_FILE, json.dumps(meta, indent=1).encode())
    return tables


def write_report(out: Path | str, dest: Path | str | None = None, *, progress: bool = False) -> Path:
    """Write the tournament report (:func:`meeplelab.analysis.tournament_report.build_tournament_report`) and record
    it in ``tournament.json``: while it is written ``status`` is ``reporting``; then ``complete`` with
    ``report`` ``written``. Interrupted (Ctrl-C, SIGTERM) ``status`` is ``interrupted`` and ``report``
    says it was not written and that the games are complete (``failed`` likewise on an error), so
    ``meeplelab report OUT`` or the same command with ``--resume`` finishes it. A report written
    elsewhere (``dest`` other than ``out/report``) leaves ``tournament.json`` as it was.

    Returns:
        the report page's path.

    Raises:
        RunFolderError: not a tournament folder, or its lineups hold no games.
        KeyboardInterrupt: after recording it.
    """
    out = Path(out)
    meta = read_tournament(out)
    own = dest is None or Path(dest).resolve() == (out / "report").resolve()
    games_done = all((f / rf.MANIFEST).is_file() and rf.read_manifest(f).get("status") == "complete"
                     for f in (out / f"lineup-{i:02d}" for i in range(len(meta.get("lineups") or []))))

    def record(status: str, report: str) -> None:
        if own and games_done:
            meta["status"], meta["report"] = status, report
            rf.write_atomic(out / TOURNAMENT_FILE, json.dumps(meta, indent=1).encode())

    record("reporting", "being written")
    try:
        page = build_tournament_report(out, dest, progress=progress)
    except KeyboardInterrupt:
        record("interrupted", "not written: interrupted while it was being written (the games are complete)")
        raise
    except BaseException as e:
        record("failed", f"not written: {type(e).__name__} while it was being written (the games are complete)")
        raise
    record("complete", "written")
    return page


def report_hint(out: Path | str) -> str:
    """How to finish a tournament whose games are complete but whose report is not written."""
    from shlex import quote

    return f"meeplelab report {quote(str(out))} (or run the same command again with --resume)"


def result_lines(tables: dict, out: Path, games: int, players: int, report: bool) -> list[str]:
    """What ``meeplelab tournament`` says after :func:`run_tournament` returned ``tables`` for the tournament in
    ``out`` (``games`` per lineup, ``players`` seats): the games and the fair share, the summary table and its
    legend, the games needed the lineups observed (a preset named as given), then the files written and the
    report's page (or how to write it with ``report`` False)."""
    lineups = tables["lineups"]["run"].n_unique()
    lines = [f"{lineups} lineups x {games:,} games per lineup = {lineups * games:,} games, "
             f"{lineups * games * players:,} seat-results; fair share 1/{players} = {100 / players:.1f}% per seat-result",
             format_terminal(tables["summary"].select(TERMINAL_COLUMNS)),
             "(games: games a strategy sat in; seat_results: its seats' outcomes; win_rate: share of its "
             "seat-results won, 95% Wilson interval win_low..win_high; x_fair: win_rate / fair)"]
    lineup_runs = load_runs(sorted(p for p in Path(out).glob("lineup-*") if p.is_dir()), check=False)
    observed = _observed_need(lineup_runs).strip()
    for full, given in given_ids(lineup_runs).items():  # a preset's id as given, not its every argument
        observed = observed.replace(full, given)
    if observed:
        lines.append(observed)
    lines.append(f"\nwrote {out / 'summary.parquet'}, seats.parquet, pairwise.parquet and lineups.parquet")
    lines.append(f"report {out / 'report' / 'report.html'}" if report
                 else f"no report (write it with: meeplelab report {out})")
    return lines


def interrupted_note(out: Path | str) -> str:
    """What an interrupted ``meeplelab tournament`` says about ``out``: its games complete but its report not
    written (how to write it), else its study incomplete or the earlier tournament kept by an interrupted
    ``--overwrite`` (:func:`meeplelab.play.runfolder.study_note`)."""
    try:  # set once every lineup is played; an interrupted --overwrite kept the earlier tournament (its note)
        reporting = "report" in read_tournament(out) and not rf.staging_folder(Path(out)).is_dir()
    except Exception:
        reporting = False
    if reporting:
        return (f"the tournament's games in {out} are complete but its report was not written; write it "
                f"with: {report_hint(out)}")
    return rf.study_note(Path(out), "tournament")
