"""``meeplelab report``: one HTML page (and a Markdown twin) per set of run folders.

The report holds the generic balance sections (win rates, seat advantage, VP and margin, score
breakdown, game length, games needed), each game's own analyses (registered in
:mod:`meeplelab.analysis.sections`), and the provenance of every run (config, versions, seeds, parameter
values with the assumed ones marked). It is built in a temporary folder and moved into place, so
an existing report is never left half-written.
"""

from __future__ import annotations

import html

import json
import math
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import polars as pl

from meeplelab.sim.core.errors import RunFolderError, is_environment_error

from . import figures as F
from . import metrics as M
from . import pages as P
from .load import Runs, load_runs


MISSING = "\u2014"  # em dash: a value that cannot be computed (an interval of one observation, no data)


@dataclass(frozen=True)
class TableFormat:
    """How a report table shows some of its columns (everything else follows :func:`format_table`).

    Attributes:
        decimals: places for a column or a column family (``est`` covers est/low/high/sd; ``vp``
            covers vp/vp_low/vp_high; see :func:`_family`).
        missing: text for a missing value in a column instead of the em dash (e.g. ``"never"``).
        folded: the HTML page shows the table folded in ``<details>`` (its caption the summary line).
    """

    decimals: dict = field(default_factory=dict)
    missing: dict = field(default_factory=dict)
    folded: bool = False


@dataclass
class Section:
    """A report section: heading, prose, figures ``(file stem, Figure, caption)``, tables
    ``(caption, df)`` or ``(caption, df, TableFormat)``."""

    title: str
    text: str = ""
    figures: list = field(default_factory=list)
    tables: list = field(default_factory=list)


# ------------------------------------------------------------------ table formatting (the one place)
_EST_FAMILY = ("est", "low", "high", "mean", "sd", "q25", "median", "q75", "mean_a", "mean_b", "fair")


def _family(col: str) -> str:
    """Columns that share one number format: an estimate with its interval (``est``/``low``/
    ``high``; ``vp``/``vp_low``/``vp_high``; ``win_rate``/``win_low``/``win_high``)."""
    if col in _EST_FAMILY:
        return "est"
    for suffix in ("_low", "_high", "_rate"):
        if col.endswith(suffix):
            return col[: -len(suffix)]
    return col


def _finite(v) -> bool:
    return v is not None and not (isinstance(v, float) and not math.isfinite(v))


def shown_frame(df: pl.DataFrame) -> pl.DataFrame:
    """The table as the report shows it: seats numbered from 1 (data keep 0-based ``seat``), and a
    ``mean`` column dropped where it only repeats ``est``."""
    if "seat" in df.columns and df.schema["seat"].is_integer():
        df = df.with_columns(pl.col("seat") + 1)
    if "mean" in df.columns and "est" in df.columns:
        a, b = df["mean"].cast(pl.Float64).to_list(), df["est"].cast(pl.Float64).to_list()
        if all((not _finite(x) and not _finite(y)) or (_finite(x) and _finite(y) and math.isclose(x, y, abs_tol=1e-9))
               for x, y in zip(a, b)):
            df = df.drop("mean")
    return df


def format_table(df: pl.DataFrame, fmt: TableFormat | None = None) -> tuple[list[str], list[list[str]]]:
    """Column names and cell texts of a report table (Markdown and HTML use the same cells).

    Missing values (null, NaN, infinite) show as an em dash (or ``fmt.missing[col]``), never as
    "None" or "nan". Whole-number columns show as integers with thousands separators; estimates
    and their intervals (a column family, see :func:`_family`) share one number of decimals: 1
    when any value is 1 or more (VP, percent), else 3 (ratios below 1); ``fmt.decimals`` overrides.
    Booleans show as yes/no.
    """
    from .tables import canonical

    fmt = fmt or TableFormat()
    df = canonical(shown_frame(df))  # last-bit noise of parallel sums never changes a shown digit
    cols = df.columns
    fam_of = {c: _family(c) for c in cols}
    estimate = {f for c, f in fam_of.items() if f == "est" or f"{f}_low" in cols or f"{f}_high" in cols}
    fam_vals: dict[str, list[float]] = {}
    for c in cols:
        if df.schema[c].is_float():
            fam_vals.setdefault(fam_of[c], []).extend(float(v) for v in df[c].to_list() if _finite(v))
    places: dict[str, int | None] = {}  # None = whole numbers shown as integers
    for f, vals in fam_vals.items():
        if f in fmt.decimals:
            places[f] = fmt.decimals[f]
        elif vals and f not in estimate and all(v == round(v) for v in vals):
            places[f] = None
        else:
            places[f] = 1 if any(abs(v) >= 1 for v in vals) else 3

    def cell(c: str, v) -> str:
        if not _finite(v):
            return fmt.missing.get(c, MISSING)
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, int):
            return f"{v:,}"
        if isinstance(v, float):
            d = fmt.decimals.get(c, places.get(fam_of[c], 3))
            text = f"{round(v):,}" if d is None else f"{v:,.{d}f}"
            return text[1:] if text.startswith("-") and not text.strip("-0.,") else text  # no "-0.0"
        return str(v)

    return cols, [[cell(c, v) for c, v in zip(cols, r)] for r in df.iter_rows()]


def _table_context(df: pl.DataFrame, caption: str, fmt: TableFormat | None = None, csv: str | None = None) -> dict:
    """What the page template renders for one table (:func:`meeplelab.analysis.pages.table_context`)."""
    cols, rows = format_table(df, fmt)
    return P.table_context(cols, rows, P.inline(caption), csv, folded=bool(fmt and fmt.folded))


def _html_table(df: pl.DataFrame, caption: str, fmt: TableFormat | None = None) -> str:
    """One report table as an HTML fragment (the template's table macro)."""
    return P.render_table(_table_context(df, caption, fmt))


def _md_table(df: pl.DataFrame, caption: str, fmt: TableFormat | None = None) -> str:
    cols, rows = format_table(df, fmt)
    lines = [f"*{caption}*", "", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def fmt_number(v, places: int = 1, missing: str = "n/a") -> str:
    """One number for prose: ``places`` decimals, or ``missing`` when it cannot be computed."""
    return f"{v:,.{places}f}" if _finite(v) else missing


def _interval_cols(df: pl.DataFrame, pct: bool = False) -> pl.DataFrame:
    if pct:
        df = M.as_percent(df)
    return df.with_columns([pl.col(c).round(3) for c in ("est", "low", "high", "mean", "sd", "wins") if c in df.columns])


def _win_rate_chart(wr: pl.DataFrame, runs: Runs):
    """Win rate by strategy with the fair share 1/players drawn when the runs share a player count."""
    players = {int(m["config"]["players"]) for m in runs.manifests.values()}
    fair = 1.0 / next(iter(players)) if len(players) == 1 else None
    fig = F.bar_with_interval(wr, "strategy", title="Win rate (95% Wilson interval)", xlabel="win rate (%)",
                              scale=100, ref=fair, ref_label="fair share (1/players)")
    fig.axes[0].set_ylabel("strategy")
    return fig


def generic_sections(runs: Runs) -> list[Section]:
    """Sections every game gets."""
    g = runs.games
    out = []
    from .seats import confounded_runs, games_frame, seat_advantage, seat_source

    wr = M.win_rates(g)
    names, source = seat_source(runs)
    seat = seat_advantage(games_frame(runs).filter(pl.col("run").is_in(names)))
    conf = confounded_runs(runs)
    note = (f" CONFOUNDED: run(s) {', '.join(conf)} seat strategy k always in seat k (--seating fixed), so these "
            "strategy win rates include each seat's advantage; `meeplelab simulate` rotates seats by default."
            if conf else " Every strategy sat in every seat equally often (rotated seats), so seat advantage cancels"
            " out of the strategy table." if len(set().union(*(m["config"]["strategies"]
                                                                for m in runs.manifests.values()))) > 1 else "")
    out.append(Section(
        "Win rates", "Share of games won (a first place shared by k seats counts 1/k), with Wilson 95% intervals." + note
        + f"\nSeat advantage is estimated from {source}.",
        [("win_rate", _win_rate_chart(wr, runs), "Win rate by strategy against the fair share (dashed)"),
         ("seat_advantage", F.seat_advantage_chart(seat), "Win rate by seat against the fair share (dashed)")],
        [("Win rate by strategy (percent)", _interval_cols(wr, True)),
         ("Win rate by seat (percent; seats numbered from 1 = first player, as in replays); fair = 1/players",
          _interval_cols(seat.with_columns(pl.col("fair") * 100), True))]))
    vp = M.mean_by(g, "vp")
    vps = M.mean_by(g, "vp", ("strategy", "seat"))
    mg = M.mean_by(g, "margin")
    out.append(Section(
        "Final VP and margin", "Mean final VP and margin (VP minus the best other seat) with Student-t 95% intervals.",
        [("mean_vp", F.mean_chart(vp, "strategy", title="Mean final VP (95% t interval)", xlabel="VP"), "Mean final VP"),
         ("margin", F.mean_chart(mg, "strategy", title="Mean margin (95% t interval)", xlabel="VP"), "Mean margin")],
        [("Mean final VP by strategy", _interval_cols(vp)), ("Mean final VP by strategy and seat", _interval_cols(vps)),
         ("Mean margin by strategy", _interval_cols(mg))]))
    bd = M.score_breakdown(g)
    if bd.height:
        out.append(Section("Score breakdown", "Mean VP per final-score category, per seat.",
                           [("breakdown", F.breakdown_chart(bd), "VP by category")],
                           [("Mean VP by category", _interval_cols(bd), TableFormat(decimals={"est": 2}))]))
    gl = M.game_length(g)
    turns = g.filter(pl.col("seat") == 0).select("turns").collect()["turns"].to_numpy()
    out.append(Section("Game length", "Turns, rounds (Cycles) and decisions per game.",
                       [("game_length", F.histogram(turns, title="Game length", xlabel="turns per game"), "Turns per game")],
                       [("Game length", _interval_cols(gl))]))
    ends = M.end_reasons(g)
    if ends.height:
        out.append(Section("How games ended", _safety_line(ends), [],
                           [("Games by end reason (percent of each run's games)", _interval_cols(ends, True))]))
    tcols = [c for c, t in runs.turns.collect_schema().items() if t == pl.String and c != "run"]
    if tcols:
        freq = M.action_frequencies(runs.turns, tcols[0])
        out.append(Section(
            "Action frequencies", f"Share of turns by `{tcols[0]}` (all seats), Wilson 95% intervals.",
            [("actions", F.bar_with_interval(freq, tcols[0], title=f"Turns by {tcols[0]} (95% Wilson interval)",
                                             xlabel="share of turns (%)", scale=100), f"Turns by {tcols[0]}")],
            [(f"Turns by {tcols[0]} (percent)", _interval_cols(freq, True))]))
    need = M.games_needed_summary(g)
    n_games = int(g.filter(pl.col("seat") == 0).select(pl.len()).collect().item())
    out.append(Section(
        "Games needed",
        f"These runs hold {n_games:,} games. For a win-rate interval {need['rate_width'] * 100:.0f} points wide "
        f"(+-{need['rate_width'] * 50:.0f}) about {need['games_for_rate']:,} games per compared group are needed; for a "
        f"mean-VP interval {need['vp_width']:.0f} VP wide (VP sd {need['vp_sd']:.1f}), about {need['games_for_vp']:,} "
        "seat-results. Paired comparisons on common seeds need fewer." + _observed_need(runs),
        [], [("Games needed", pl.DataFrame([need]))]))
    return out


def _safety_line(ends: pl.DataFrame) -> str:
    """The report line counting the games a safety stop ended (from :func:`meeplelab.analysis.metrics.end_reasons`)."""
    total = int(ends.group_by("run").agg(pl.col("all").first())["all"].sum())
    stops = ends.filter(pl.col("safety_stop"))
    n = int(stops["games"].sum()) if stops.height else 0
    if n == 0:
        return f"All {total:,} games ended by the rules' own end; none hit a safety stop."
    what = ", ".join(sorted(set(stops["end_reason"].to_list())))
    return (f"{n:,} of {total:,} games ({100 * n / total:.1f}%) hit a safety stop ({what}), not the rules' own end; "
            "they are included in every table and chart of this report. `meeplelab.analysis.metrics.without_safety_stops("
            "runs.games)` leaves them out.")


def _observed_need(runs: Runs) -> str:
    """Games needed to resolve the win-rate difference observed between the two best strategies
    (paired per game where both sit, as under rotated seats)."""
    from .seats import games_frame, head_to_head, strategy_rates

    df = games_frame(runs)
    rates = strategy_rates(df).sort("est", descending=True)
    if rates.height < 2 or rates["players"].n_unique() > 1:
        return ""
    a, b = rates["strategy"][0], rates["strategy"][1]
    h = head_to_head(df, a, b)
    if h["games_needed"] is None:
        return ""
    return (f" The difference observed between {a} and {b}, {h['est'] * 100:.1f} percentage points "
            f"[{h['low'] * 100:.1f}, {h['high'] * 100:.1f}] paired over the {h['n']:,} games where both sat, needs "
            f"about {h['games_needed']:,} games to be told from zero (paired within each game; their win shares "
            "in one game are negatively correlated, since only one can win).")


def _games_played(manifest: dict) -> str:
    """``"3,000 games"`` for a complete run, ``"1,024 of 3,000 games (run incomplete)"`` otherwise
    (the games of the chunks marked done, which are the only ones the report reads)."""
    total = int((manifest.get("seating") or {}).get("games") or manifest["config"]["games"])
    chunks = manifest.get("chunks") or []
    done = sum(int(c["hi"]) - int(c["lo"]) for c in chunks if c.get("status") == "done") if chunks else total
    if manifest.get("status") == "complete" and done == total:
        return f"{total:,} games"
    return f"{done:,} of {total:,} games (run incomplete)"


def provenance_section(runs: Runs) -> Section:
    """Config, versions, seeds, parameters (assumed ones marked) of each run."""
    tables = []
    text = []
    for name, m in runs.manifests.items():
        cfg = m["config"]
        text.append(f"Run {name}: {_games_played(m)} of {cfg['game']}, {cfg['players']} players, "
                    f"strategies {', '.join(cfg['strategies'])}, seed {cfg['seed']}, status {m['status']}, "
                    f"created {m.get('created')}; versions {json.dumps(m.get('versions', {}))}; "
                    f"content hash {m['game'].get('content_hash')}, params hash {m['game'].get('params_hash')}.")
        assumed = set(m["game"].get("assumed_params", []))
        changed = m["game"].get("params_changed", {})
        rows = [{"parameter": k, "value": MISSING if v is None else str(v), "assumed": k in assumed,
                 "changed": k in changed}
                for k, v in m["game"]["params"].items()]
        if rows:
            tables.append((f"Parameters of run {name} (assumed = an assumption ID, not a published rule)",
                           pl.DataFrame(rows)))
    return Section("Provenance", "\n".join(text), [], tables)


def build_sections(runs: Runs, *, by_version: bool = True) -> list[Section]:
    """Generic sections, the game arc (:mod:`meeplelab.analysis.arc`), then the game's own analyses, then provenance.

    Runs of different rule or content versions (:mod:`meeplelab.analysis.versions`: the manifests' rule
    parameters and content hash) are never pooled: each version gets its own verdict and sections,
    then one table of paired deltas between the versions (``by_version=False`` pools them, for a
    caller that compares them itself). Runs of one version are pooled, and the verdict says so."""
    from .sections import game_sections
    from .versions import pooled_sentence, version_sections, versions

    from .arc import arc_sections
    from .verdict import verdict_section

    vs = versions(runs)
    if by_version and len(vs) > 1:
        return version_sections(runs, vs, game_sections)
    secs = [verdict_section(runs)] + generic_sections(runs) + arc_sections(runs)
    pooled = pooled_sentence(vs[0]) if len(vs) == 1 else ""
    if pooled:
        secs[0].text = f"{pooled[0].upper()}{pooled[1:]}.\n" + secs[0].text
    for fn in game_sections(next(iter(runs.game_names))):
        secs.extend(fn(runs))
    secs.append(provenance_section(runs))
    return secs


def build_report(folders: Sequence[Path | str], dest: Path | str, *,
                 sections: Callable[[Runs], list[Section]] | None = None, kind: str = "balance") -> Path:
    """Write ``dest/report.html``, ``dest/report.md`` and ``dest/figures/*.png``; the title reads
    ``meeplelab <kind> report: <games>`` (``balance``, ``tournament``...).

    Returns:
        the HTML page's path.

    Raises:
        RunFolderError: empty or unreadable run folders, corrupt part files, nothing to report.
    """
    t0 = time.perf_counter()
    dest = Path(dest)
    if dest.exists() and not (dest.is_dir() and (dest / "report.html").is_file()):
        if not (dest.is_dir() and not any(dest.iterdir())):
            raise RunFolderError(f"report folder {str(dest)!r} exists and is not a report: choose a new or empty --out")
    runs = load_runs(list(folders))
    secs = (sections or build_sections)(runs)
    try:
        return _write_report(runs, secs, dest, t0, kind)
    finally:  # every figure is released, also when writing fails part-way
        for s in secs:
            for _, fig, _ in s.figures:
                F.close(fig)


def table_slug(caption: str, limit: int = 48) -> str:
    """A file-name stem from a table caption: lower-case words joined by ``-`` (at most ``limit`` characters)."""
    import re

    words = re.findall(r"[a-z0-9]+", P.plain(caption).lower())
    return "-".join(words)[:limit].strip("-") or "table"


def write_table_csv(df: pl.DataFrame, path: Path) -> Path:
    """Write one report table as CSV for a spreadsheet (every column at full precision; list columns joined
    by ``;``), creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    flat = df.with_columns([pl.col(c).cast(pl.List(pl.Utf8)).list.join(";") for c, t in df.schema.items()
                            if isinstance(t, pl.List)])
    flat = flat.select([c for c, t in flat.schema.items() if not isinstance(t, (pl.Struct, pl.Object))])
    flat.write_csv(path)
    return path


def _write_report(runs: Runs, secs: list[Section], dest: Path, t0: float, kind: str = "balance") -> Path:
    """Write the page of ``secs`` into a temporary folder beside ``dest``, then move it into place."""
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.tmp-", dir=dest.parent))
        os.chmod(tmp, 0o755)
    except OSError as e:
        if is_environment_error(e):  # a read-only or full file system: one line, exit 1 (cli.user_errors)
            raise OSError(e.errno, e.strerror, str(dest.parent)) from None
        raise RunFolderError(f"cannot write the report to {str(dest)!r}: {e.strerror or e}") from None
    try:
        (tmp / "figures").mkdir()
        title = f"meeplelab {kind} report: {', '.join(sorted(runs.game_names))}"
        md = [f"# {title}", "", f"Runs: {', '.join(runs.manifests)}.", ""]
        warnings = []
        partial = [n for n, m in runs.manifests.items() if m.get("status") != "complete"]
        if partial:
            warn = (f"Warning: run(s) {', '.join(partial)} are not complete (status "
                    f"{', '.join(repr(runs.manifests[n].get('status')) for n in partial)}); figures cover the finished chunks only.")
            warnings.append(warn)
            md += [f"**{warn}**", ""]
        for n, notes in runs.notes.items():  # files and manifest disagree (see meeplelab.analysis.load)
            for note in notes:
                warnings.append(f"Run {n}: {note}.")
                md += [f"**Run {n}: {note}.**", ""]
        page_secs = []
        for i, s in enumerate(secs):
            ps = {"title": s.title, "paragraphs": [], "figures": [], "tables": []}
            page_secs.append(ps)
            md += [f"## {s.title}", ""]
            for para in filter(None, s.text.split("\n")):
                ps["paragraphs"].append(P.inline(para))
                md += [para, ""]
            for stem, fig, cap in s.figures:
                rel = f"figures/{i:02d}_{stem}.png"
                F.save(fig, tmp / rel)
                w, hgt = F.png_size(tmp / rel)
                ps["figures"].append({"src": rel, "alt": P.plain(cap), "caption": P.inline(cap), "width": w,
                                      "height": hgt})
                md += [f"![{cap}]({rel})", ""]
            for k, (cap, df, *fmt) in enumerate(s.tables):
                if df.height == 0:
                    continue
                rel = f"tables/{i:02d}_{k:02d}_{table_slug(cap)}.csv"
                write_table_csv(df, tmp / rel)
                ps["tables"].append(_table_context(df, cap, *fmt, csv=rel))
                if fmt and fmt[0].folded:  # a long table: folded in the Markdown twin too
                    md += [f"<details><summary>{html.escape(P.plain(cap))} ({df.height:,} rows)</summary>", "",
                           _md_table(df, cap, *fmt), "", f"[CSV]({rel})", "", "</details>", ""]
                else:
                    md += [_md_table(df, cap, *fmt), "", f"[CSV]({rel})", ""]
        page = P.render("report.html.j2", title=title, runs=", ".join(runs.manifests), warnings=warnings,
                        sections=page_secs, footer=f"Built in {time.perf_counter() - t0:.1f} s by meeplelab.")
        (tmp / "report.html").write_text(page)
        (tmp / "report.md").write_text("\n".join(md) + "\n")
        old = None
        if dest.exists():
            old = dest.with_name(f".{dest.name}.old-{os.getpid()}")
            os.replace(dest, old)
        os.replace(tmp, dest)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest / "report.html"


__all__ = ["MISSING", "RunFolderError", "Section", "TableFormat", "build_report", "build_sections", "fmt_number",
           "format_table", "shown_frame", "table_slug", "write_table_csv"]
