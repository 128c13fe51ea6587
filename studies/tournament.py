"""A tournament as one command: every lineup played (:func:`meeplelab.play.tournament.play_tournament`), then
summarised (:func:`meeplelab.analysis.tournament.summarize`) into rounded, ordered Parquet tables beside the lineups,
and ``tournament.json`` marked ``complete`` (docs/metagame.md)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from meeplelab.analysis.tables import write_table
from meeplelab.analysis.tournament import summarize
from meeplelab.play import runfolder as rf
from meeplelab.play.tournament import TOURNAMENT_FILE, check_folder, play_tournament, read_tournament
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
    with rf.study_folder(out, marker=TOURNAMENT_FILE, check=check_folder, resume=options.get("resume", False),
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

