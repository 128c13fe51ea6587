"""The page model of every report: a :class:`Section` (heading, prose, figures, tables) and a table's
:class:`TableFormat`, and how a table is shown (the one place): ranked within its groups (:func:`ranked`), folded
past :data:`FOLD_ROWS` rows, human headers (:func:`header`), cells formatted (:func:`format_table`), as HTML
(:func:`_html_table`) or Markdown (:func:`_md_table`, :func:`markdown_table`) with its CSV
(:func:`write_table_csv`). The bottom of :mod:`meeplelab.analysis`' report modules: every module that builds
sections imports it, and :mod:`meeplelab.analysis.report` writes the page from them."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from . import pages as P
from .markdown import row
from .tables import SIG_FIGS, canonical

MISSING = "\u2014"  # em dash: a value that cannot be computed (an interval of one observation, no data)


#: rank a table by its ``est`` column when it has one and a categorical key (see :func:`ranked`)
AUTO = "auto"
#: a table longer than this is folded: its top rows shown, every row behind a <details> (HTML) or in its CSV
FOLD_ROWS = 15
#: rows a folded table shows (spread over its groups, at least :data:`MIN_GROUP_ROWS` of each)
SHOW_ROWS = 10
MIN_GROUP_ROWS = 3

#: the header a column shows in the report pages (the CSV files keep the code names); a table's
#: ``TableFormat.labels`` names what its estimate is ("win rate %", "mean VP")
LABELS = {
    "est": "estimate", "low": "95% low", "high": "95% high", "n": "sample (n)", "games": "games", "wins": "wins",
    "sd": "sd", "mean": "mean", "fair": "fair share", "players": "players", "strategy": "strategy", "seat": "seat",
    "vp": "mean VP", "vp_low": "VP 95% low", "vp_high": "VP 95% high",
    "best_seat": "best seat", "best": "best seat win rate %", "best_low": "best 95% low", "best_high": "best 95% high",
    "worst_seat": "worst seat", "worst": "worst seat win rate %", "worst_low": "worst 95% low",
    "worst_high": "worst 95% high", "spread": "spread (points)", "spread_low": "spread 95% low",
    "spread_high": "spread 95% high", "p_holm": "p (Holm-adjusted)", "p": "p", "comparisons": "comparisons",
    "games_needed": "games needed", "flagged": "flagged", "run": "run", "measure": "measure", "metric": "metric",
    "unit": "unit", "interval": "interval", "definition": "definition", "category": "category",
    "min": "min", "max": "max", "q10": "10th percentile", "q25": "25th percentile", "median": "median",
    "q75": "75th percentile", "q90": "90th percentile", "end_reason": "end reason", "safety_stop": "safety stop",
    "all": "games of the run", "all_turns": "turns in all", "turns": "turns", "rounds_left": "rounds left", "rounds_left_sure": "rounds left (sure)",
    "parameter": "parameter", "value": "value", "assumed": "assumed", "changed": "changed",
    "win_rate": "win rate %", "win_low": "95% low", "win_high": "95% high", "rate_width": "win-rate interval width",
    "games_for_rate": "games for that win-rate width", "vp_width": "VP interval width", "vp_sd": "VP sd",
    "games_for_vp": "seat-results for that VP width", "from_run": "from run", "to_run": "to run", "change": "change",
    "seat_results": "seat-results", "x_fair": "x fair share", "mean_rank": "mean rank", "game_win_rate": "game win rate %",
    "game_fair": "game fair share", "margin": "mean margin (VP)", "rating": "rating (Elo)", "p_vs_mean": "p vs mean",
    "row": "row strategy", "column": "column strategy", "resolved": "resolved", "arm": "arm", "unpaired": "unpaired",
    "mean_arm": "arm mean", "mean_control": "control mean", "games_needed_unpaired": "games needed (unpaired)",
    "version": "version", "reference": "reference", "design": "design", "ref": "reference value", "nash": "Nash mix %",
    "alpha_rank": "alpha-rank %", "br_gain": "best-response gain", "dominated_share": "dominated in % of resamples",
    "diff": "difference", "variant": "variant",
}
#: columns whose values are ordered (a seat, a round): a table holding one keeps its own row order
ORDINAL = ("seat", "round", "rounds_left", "cycle", "turn", "rel_turn", "volumes", "volumes_cited", "third",
           "phase", "variant", "value", "abjure_cycle", "level")
#: columns that group a table's rows: ranking happens within each group, groups keep their order
GROUPS = ("players", "version", "run", "arm")
#: string columns that name a measure of mixed units: a table keyed by one is never ranked automatically
MIXED = ("metric", "measure", "unit", "interval", "definition")


@dataclass(frozen=True)
class TableFormat:
    """How a report table shows some of its columns (everything else follows :func:`format_table`).

    Attributes:
        decimals: places for a column or a column family (``est`` covers est/low/high/sd; ``vp``
            covers vp/vp_low/vp_high; see :func:`_family`).
        missing: text for a missing value in a column instead of the em dash (e.g. ``"never"``).
        folded: the HTML page shows the table folded in ``<details>`` (its caption the summary line).
        labels: headers for columns, over :data:`LABELS` (``{"est": "win rate %"}``).
        rank: the value column the rows are ranked by, highest first, within the table's groups
            (:data:`GROUPS`); ``None`` keeps the data's order; :data:`AUTO` ranks by ``est`` when the table
            has it, a categorical key and no ordered column (:func:`ranked`).
        fold: rows past which the table is folded (:data:`FOLD_ROWS`).
        within: the columns whose groups are ranked separately (default: those of :data:`GROUPS` present).
        show: the columns the pages show, in this order (None: every column); ranking, folding and the table's CSV
            use every column of the frame.
    """

    decimals: dict = field(default_factory=dict)
    missing: dict = field(default_factory=dict)
    folded: bool = False
    labels: dict = field(default_factory=dict)
    rank: str | None = AUTO
    fold: int = FOLD_ROWS
    within: tuple | None = None
    show: tuple | None = None


@dataclass
class Section:
    """A report section: heading, prose, figures ``(file stem, Figure, caption)``, tables
    ``(caption, df)`` or ``(caption, df, TableFormat)``; ``summary``: the three plain sentences
    (:mod:`meeplelab.analysis.summary`) a verdict section puts on top of the page; ``folded``: ``(summary words,
    [figures])``, figures shown folded below the others (HTML ``<details>``; Markdown lists them); ``panels``: the
    section's contributions to the page's first screen (:class:`meeplelab.analysis.first_screen.Panel`, shown after
    the three sentences, ordered by their ``order``); ``data``: figures other parts of the page read (the verdict's
    ``facts``, the stronger-players study), never shown as such."""

    title: str
    text: str = ""
    figures: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    summary: list = field(default_factory=list)
    folded: tuple | None = None
    panels: list = field(default_factory=list)
    data: dict = field(default_factory=dict)


def header(col: str, fmt: TableFormat | None = None) -> str:
    """The header a report page shows for column ``col``: ``fmt.labels``, else :data:`LABELS`, else the
    code name in words (``x_low`` -> ``x 95% low``, ``_`` -> space)."""
    if fmt is not None and col in fmt.labels:
        return fmt.labels[col]
    if col in LABELS:
        return LABELS[col]
    for suffix, words in (("_low", "95% low"), ("_high", "95% high"), (" low", "95% low"), (" high", "95% high")):
        if col.endswith(suffix) and len(col) > len(suffix):
            return f"{header(col[: -len(suffix)], fmt)} {words}".replace(" % ", " ")
    return col.replace("_", " ")


def rank_column(df: pl.DataFrame, fmt: TableFormat | None = None) -> str | None:
    """The column the table's rows are ranked by (see :class:`TableFormat` ``rank``), or None."""
    fmt = fmt or TableFormat()
    if fmt.rank != AUTO:
        return fmt.rank if fmt.rank in df.columns else None
    if "est" not in df.columns or any(c in df.columns for c in ORDINAL):
        return None
    keys = [c for c, t in df.schema.items() if t == pl.String and c not in GROUPS]
    return "est" if keys and keys[0] not in MIXED else None


def ranked(df: pl.DataFrame, fmt: TableFormat | None = None) -> pl.DataFrame:
    """The rows of a report table in the order the pages and the CSV show them: ranked by
    :func:`rank_column` (highest first, missing last, ties in the data's order) within each group of
    :data:`GROUPS` columns, the groups in the order they first appear; unchanged without a rank column."""
    col = rank_column(df, fmt)
    if col is None or df.height < 2:
        return df
    groups = _groups(df, fmt)
    d = df.with_row_index("_row")
    if groups:
        d = d.with_columns(pl.col("_row").min().over(groups).alias("_group"))
    else:
        d = d.with_columns(pl.lit(0).alias("_group"))
    # ranked on the value rounded as stored (meeplelab.analysis.tables): last-bit noise of a parallel sum never reorders ties
    key = (pl.col(col).cast(pl.Float64).fill_nan(None).round_sig_figs(SIG_FIGS) if df.schema[col].is_numeric()
           else pl.col(col))
    d = d.with_columns(key.alias("_key"))
    return d.sort(["_group", "_key"], descending=[False, True], nulls_last=True, maintain_order=True).drop(
        "_row", "_group", "_key")


def _groups(df: pl.DataFrame, fmt: TableFormat | None) -> list[str]:
    """The columns whose groups a table is ranked (and folded) within."""
    within = fmt.within if fmt is not None and fmt.within is not None else GROUPS
    return [c for c in within if c in df.columns]


def shown_rows(df: pl.DataFrame, limit: int = SHOW_ROWS, fmt: TableFormat | None = None) -> pl.DataFrame:
    """The top rows a folded table shows: the first ``limit`` rows, or for a table of several groups
    (:func:`_groups`) the first ``limit // groups`` rows of each (at least :data:`MIN_GROUP_ROWS` for up
    to 3 groups, at least 1 for more)."""
    groups = _groups(df, fmt)
    if not groups:
        return df.head(limit)
    n = df.select(pl.struct(groups).n_unique()).item()
    if n < 2:
        return df.head(limit)
    each = max(MIN_GROUP_ROWS if n <= 3 else 1, limit // n)
    return df.with_row_index("_row").filter(pl.col("_row").rank("ordinal").over(groups) <= each).drop("_row")


# ------------------------------------------------------------------ table formatting (the one place)
_EST_FAMILY = ("est", "low", "high", "mean", "sd", "q25", "median", "q75", "mean_a", "mean_b", "fair")


def _family(col: str) -> str:
    """Columns that share one number format: an estimate with its interval (``est``/``low``/
    ``high``; ``vp``/``vp_low``/``vp_high``; ``win_rate``/``win_low``/``win_high``)."""
    if col in _EST_FAMILY:
        return "est"
    for suffix in ("_low", "_high", "_rate", " low", " high"):
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
    Booleans show as yes/no. Only the columns ``fmt.show`` names are shown (when it names any).
    """
    fmt = fmt or TableFormat()
    df = canonical(shown_frame(df))  # last-bit noise of parallel sums never changes a shown digit
    if fmt.show is not None:
        df = df.select([c for c in fmt.show if c in df.columns])
    cols = df.columns
    fam_of = {c: _family(c) for c in cols}
    estimate = {f for c, f in fam_of.items()
                if f == "est" or any(f"{f}{x}" in cols for x in ("_low", "_high", " low", " high"))}
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


def _table_contexts(df: pl.DataFrame, caption: str, fmt: TableFormat | None = None,
                    csv: str | None = None, labels=None) -> list[dict]:
    """What the page template renders for one table (:func:`meeplelab.analysis.pages.table_context`): the
    whole table; or, past ``fmt.fold`` rows, its top rows (:func:`shown_rows`, the caption saying so) and
    then every row folded under "All N rows" with the CSV link; or (``fmt.folded``) the whole table folded
    with its caption as the summary line. ``labels``: the page's :class:`meeplelab.analysis.labels.Labeller`
    (a code cell, and a code in the caption, shows its words, the code in its tooltip)."""
    cols, rows, top = _cells(df, fmt, labels.cell if labels is not None else None)
    cap = P.inline(caption, labels)
    if fmt is not None and fmt.folded:
        return [P.table_context(cols, rows, cap, csv, folded=True)]
    if top is None:
        return [P.table_context(cols, rows, cap, csv)]
    note = fold_note(df, fmt, len(top))
    return [P.table_context(cols, [rows[i] for i in top], P.inline(f"{caption} ({note})", labels)),
            P.table_context(cols, rows, cap, csv, folded=True, summary=f"All {df.height:,} rows")]


#: text columns whose cells are never given a code's words (run and version names, measures, values, the content
#: items' kinds and ids a command takes)
UNLABELLED = ("run", "version", "reference", "design", "metric", "measure", "unit", "definition", "interval", "value",
              "parameter", "kind", "id")


def _cells(df: pl.DataFrame, fmt: TableFormat | None, label=None):
    """Headers (:func:`header`), every row's cells, and the indices of the rows a folded table shows
    (None when the table is not folded). ``label`` (text -> cell) gives words to the cells of text columns
    (:data:`UNLABELLED` kept)."""
    cols, rows = format_table(df, fmt)
    if label is not None:
        at = [i for i, c in enumerate(cols) if df.schema.get(c) == pl.String and c not in UNLABELLED]
        rows = [[label(v) if i in at else v for i, v in enumerate(r)] for r in rows]
    heads = [header(c, fmt) for c in cols]
    fold = (fmt or TableFormat()).fold
    if df.height <= fold:
        return heads, rows, None
    top = shown_rows(df.with_row_index("_i"), fmt=fmt)["_i"].to_list()
    return heads, rows, top


def fold_note(df: pl.DataFrame, fmt: TableFormat | None, shown: int) -> str:
    """``top 10 of 96 rows, ranked by win rate % within each players`` for a folded table."""
    col = rank_column(df, fmt)
    groups = _groups(df, fmt)
    words = {"players": "player count"}
    by = (f", ranked by {header(col, fmt)}" + (f" within each {' and '.join(words.get(g, header(g, fmt)) for g in groups)}"
                                              if groups else "")) if col else ""
    return f"top {shown} of {df.height:,} rows{by}"


def _html_table(df: pl.DataFrame, caption: str, fmt: TableFormat | None = None) -> str:
    """One report table as an HTML fragment (the template's table macro): human headers; a table past
    ``fmt.fold`` rows shows its top rows and keeps every row behind a ``<details>``; a ``fmt.folded``
    table is folded whole."""
    return "".join(P.render_table(t) for t in _table_contexts(df, caption, fmt))


def _md_table(df: pl.DataFrame, caption: str, fmt: TableFormat | None = None, csv: str | None = None, *,
              whole: bool = False) -> str:
    """One report table as Markdown with human headers (its cells the codes, as the CSV and the commands write
    them); a table past ``fmt.fold`` rows shows its top rows and points to its CSV (``csv``) for the rest
    (``whole``: every row, the table folded around it)."""
    cols, rows, top = _cells(df, fmt)
    if whole:
        top = None
    lines = [f"*{caption}*", "", row(cols), "|" + "---|" * len(cols)]
    lines += [row(r) for r in (rows if top is None else [rows[i] for i in top])]
    if top is not None:
        lines += ["", f"*Folded: {fold_note(df, fmt, len(top))}; every row in "
                      + (f"[the CSV]({csv})*" if csv else "the table's CSV*")]
    return "\n".join(lines)


def markdown_table(df: pl.DataFrame, caption: str, folder: Path, stem: str,
                   fmt: TableFormat | None = None) -> list[str]:
    """One table of a Markdown page (the robustness and balance-search reports, rendered to HTML by
    :func:`meeplelab.analysis.markdown.to_html`) as the report pages show theirs: ranked (:func:`ranked`), human
    headers (:func:`header`), written as CSV to ``folder/tables/stem.csv`` (code names, full precision) and
    linked; past ``fmt.fold`` rows its top rows, then every row folded in ``<details>``. Returns the lines."""
    df = ranked(df, fmt)
    rel = f"tables/{stem}.csv"
    write_table_csv(df, Path(folder) / rel)
    lines = [_md_table(df, caption, fmt, rel), ""]
    if df.height > (fmt or TableFormat()).fold:
        cols, rows = format_table(df, fmt)
        lines += [f"<details><summary>All {df.height:,} rows</summary>", "",
                  row([header(c, fmt) for c in cols]), "|" + "---|" * len(cols), *(row(r) for r in rows), "",
                  "</details>", ""]
    return lines + [f"[CSV]({rel})", ""]


TABLE_NOTE = (f"Tables are ranked by their value column, highest first (within each player count where a table "
              f"has several); a table over {FOLD_ROWS} rows shows its top rows and keeps the rest folded. Every "
              "table is also a CSV file in `tables/`, at full precision and with the code column names (`est` = "
              "estimate, `low`/`high` = its 95% interval, `n` = sample size; seats counted from 0 there).")


def fmt_number(v, places: int = 1, missing: str = "n/a") -> str:
    """One number for prose: ``places`` decimals, or ``missing`` when it cannot be computed."""
    return f"{v:,.{places}f}" if _finite(v) else missing


def table_slug(caption: str, limit: int = 48) -> str:
    """A file-name stem from a table caption: lower-case words joined by ``-`` (at most ``limit`` characters)."""
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
