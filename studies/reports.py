"""``meeplelab report``'s work: the report a set of folders gets (a tournament's, an experiment's, a comparison's or
the balance report of run folders), written, and the lines said after it.

Every function returns ``(warnings, lines)``: the warnings go to stderr, the lines to stdout (the command prints them
in that order, after the report is written).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from meeplelab.analysis.compare import changed_lines, summary_lines
from meeplelab.analysis.content import removal_sections
from meeplelab.analysis.experiment import experiment_sections
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.mechanics import mechanics_section
from meeplelab.analysis.metrics import games_needed_summary
from meeplelab.analysis.report import _observed_need, build_report, build_sections
from meeplelab.analysis.restricted_answers import section as restricted_section
from meeplelab.analysis.stronger import experiment_page
from meeplelab.analysis.stronger import section as stronger_section
from meeplelab.analysis.versions import pooled_sentence, version_line, versions
from meeplelab.play.experiment import read_experiment
from meeplelab.studies.compare import write_outputs
from meeplelab.studies.tournament import write_report


def report_folders(runs: list[Path], out: Path | None, stronger: Path | None,
                   progress: bool) -> tuple[list[str], list[str]]:
    """The report of ``runs``: one tournament folder its own report (recorded in tournament.json), one experiment
    folder its experiment report, one comparison folder (``out`` None) its outputs, else the balance report of the
    run folders, into ``out`` (default ``RUN/report``). Returns (warnings, lines).

    Raises:
        ConfigError: a bad ``--stronger`` folder (said before anything is written).
        RunFolderError: a folder that is not a readable run, experiment, comparison or tournament folder.
    """
    if len(runs) == 1 and (runs[0] / "tournament.json").is_file():
        return [], [f"wrote {write_report(runs[0], out, progress=progress)}"]
    dest = out if out is not None else runs[0] / "report"
    if len(runs) == 1 and (runs[0] / "experiment.json").is_file():  # an experiment folder: its own report
        return [], experiment_report(runs[0], dest, stronger, progress)
    if len(runs) == 1 and (runs[0] / "compare.json").is_file() and out is None:  # a comparison: its own outputs
        t, page = write_outputs(runs[0])
        return [], summary_lines(t) + changed_lines(t, limit=25) + [f"wrote {page}"]
    page, said = balance_report(runs, dest, stronger, progress)
    return balance_lines(runs, page, said)


def experiment_report(run: Path, dest: Path, stronger: Path | None, progress: bool) -> list[str]:
    """The experiment folder ``run``'s own report into ``dest`` (a content-value experiment's removal sections, else
    the paired effects and, with ``stronger``, the restricted-play answers); returns the lines said after it: the
    page's path and the plain sentences the report opens with.

    Raises:
        ConfigError: a bad ``--stronger`` folder (said before anything is written).
    """
    meta = read_experiment(run)
    said: list = []
    if any({"remove", "deny"} & set(a.get("change", {})) for a in meta["arms"]):  # a content-value experiment
        page = build_report([run / a["folder"] for a in meta["arms"]], dest,
                            sections=removal_sections(run), kind="content-value", progress=progress, summary=said)
    else:
        sections = experiment_sections(run, stronger)
        if stronger is not None:  # a bad --stronger folder is one line before anything is written
            restricted_section(stronger, run)
            sections = experiment_page(run, stronger)
        page = build_report([run / a["folder"] for a in meta["arms"]], dest, sections=sections, progress=progress,
                            summary=said)
    return [f"wrote {page}"] + ["\n".join(sentences) for sentences in said]  # the three plain opening sentences


def balance_report(runs: list[Path], dest: Path, stronger: Path | None, progress: bool) -> tuple[Path, list]:
    """The balance report of run folders into ``dest``, with the stronger-players check (from ``stronger``) and the
    mechanics section after its first section. Returns (the page's path, the report's opening sentences: a list of
    lists of str).

    Raises:
        ConfigError: a bad ``--stronger`` folder (said before anything is written).
    """
    said: list = []
    if stronger is not None:
        stronger_section(stronger, [], [str(r) for r in runs])  # a bad --stronger folder is one line before anything is written

    def sections(loaded_runs):
        secs = build_sections(loaded_runs)
        check = stronger_section(stronger, loaded_runs.game_names, [str(r) for r in runs])
        return secs[:1] + [check, mechanics_section(loaded_runs, stronger)] + secs[1:]

    page = build_report(runs, dest, sections=sections, progress=progress, summary=said)
    return page, said


def balance_lines(runs: list[Path], page: Path, said: list) -> tuple[list[str], list[str]]:
    """After the balance report: (warnings for runs whose files and manifest disagree, lines: the page's path, the
    opening sentences, then per rule/content version one line (several versions) or the games needed per player
    count and the observed need (one version))."""
    loaded = load_runs(runs, check=False)
    warnings = [f"warning: run {name}: {note}" for name, notes in loaded.notes.items() for note in notes]
    vs = versions(loaded)
    lines = [f"wrote {page}"] + ["\n".join(sentences) for sentences in said]
    if len(vs) > 1:  # never pooled: one line per version with its own figures (the deltas are in the report)
        lines.append(f"{len(vs)} rule/content versions, not pooled; the report compares them in 'Versions compared':")
        return warnings, lines + [version_line(loaded, v) for v in vs]
    if pooled_sentence(vs[0], loaded):
        lines.append(pooled_sentence(vs[0], loaded))
    return warnings, lines + games_needed_lines(runs, loaded)


def games_needed_lines(runs: list[Path], loaded) -> list[str]:
    """Run folders of one rule/content version: the games needed for the win rate's and the mean VP's interval
    widths at each player count of ``loaded`` (the runs loaded), then the need the report observed."""
    lines = []
    counts = sorted({int(m["config"]["players"]) for m in loaded.manifests.values()})
    for p in counts:  # each player count has its own VP spread
        need = games_needed_summary(loaded.games.filter(pl.col("players") == p))
        at = f" at {p} players" if len(counts) > 1 else ""
        lines.append(f"games needed{at}: {need['games_for_rate']:,} per group for a win rate +-{need['rate_width'] * 50:.0f} "
                     f"point; {need['games_for_vp']:,} seat-results for mean VP +-{need['vp_width'] / 2:.1f} (VP sd "
                     f"{need['vp_sd']:.1f})")
    observed = _observed_need(load_runs(runs, check=False)).strip()
    return lines + ([observed] if observed else [])
