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
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable, Sequence

import polars as pl

from meeplelab.sim.core.errors import RunFolderError, is_environment_error

from markupsafe import Markup, escape

from . import figures as F
from . import metrics as M
from . import first_screen
from . import pages as P
from .labels import Labeller
from .load import Runs, load_runs
from .markdown import cell
from .page import (MISSING, Section, TABLE_NOTE, TableFormat, _md_table, _table_contexts, fmt_number, format_table,
                   header, markdown_table, ranked, shown_frame, table_slug, write_table_csv)
from .arc import arc_sections
from .compare import change_use_lines, change_uses, changed_lines, who_gains_sections
from .compare import delta_table as full_table
from .seats import confounded_runs, games_frame, head_to_head, seat_advantage, seat_source, strategy_rates
from .sections import game_sections
from .verdict import verdict_section
from .versions import Version, _counts_of, _unpaired_reasons, pooled_sentence, subset, version_line, versions
from meeplelab.play.progress import bar


def _interval_cols(df: pl.DataFrame, pct: bool = False) -> pl.DataFrame:
    if pct:
        df = M.as_percent(df)
    return df.with_columns([pl.col(c).round(3) for c in ("est", "low", "high", "mean", "sd", "wins") if c in df.columns])


def _win_rate_chart(wr: pl.DataFrame, runs: Runs):
    """Win rate by strategy with the fair share 1/players drawn when the runs share a player count (one
    bar per strategy and player count, labelled so, when they do not)."""
    players = {int(m["config"]["players"]) for m in runs.manifests.values()}
    fair = 1.0 / next(iter(players)) if len(players) == 1 else None
    label = "strategy"
    if "players" in wr.columns:
        wr = wr.with_columns((pl.col("strategy") + ", " + pl.col("players").cast(pl.String) + " players").alias("_label"))
        label = "_label"
    fig = F.bar_with_interval(wr, label, title="Win rate (95% Wilson interval)", xlabel="win rate (%)",
                              scale=100, ref=fair, ref_label="fair share (1/players)")
    fig.axes[0].set_ylabel("strategy")
    return fig


def player_counts(runs: Runs) -> list[int]:
    """The player counts of ``runs`` (one per run folder), ascending."""
    return sorted({int(m["config"]["players"]) for m in runs.manifests.values()})


def counts_words(counts) -> str:
    """``2, 3 and 4 players``."""
    c = [str(x) for x in sorted(counts)]
    return (c[0] if len(c) == 1 else f"{', '.join(c[:-1])} and {c[-1]}") + " players"


def _by_count(df: pl.DataFrame, runs: Runs) -> pl.DataFrame:
    """``df`` (with a ``run`` column) with each run's player count as a leading ``players`` column."""
    of = {n: int(m["config"]["players"]) for n, m in runs.manifests.items()}
    return df.with_columns(pl.col("run").replace_strict(of, return_dtype=pl.Int64).alias("players")).select(
        ["players"] + [c for c in df.columns if c != "players"]).sort("players", maintain_order=True)


#: headers of the generic tables (what each estimate is)
WIN = {"est": "win rate %", "fair": "fair share %"}
MEAN_VP = {"est": "mean VP"}


def _win_rate_section(runs: Runs, by: tuple, per: str) -> Section:
    """"Win rates": per strategy (``by``: ``("strategy",)`` or ``("players", "strategy")``) and per seat, percent
    with Wilson 95% intervals, and whether seat advantage cancels out of the strategy table (rotated seats)
    or is confounded with it (fixed seats); ``per`` is the per-player-count sentence (or "")."""
    wr = M.win_rates(runs.games, by)
    names, source = seat_source(runs)
    seat = seat_advantage(games_frame(runs).filter(pl.col("run").is_in(names)))
    conf = confounded_runs(runs)
    note = (f" CONFOUNDED: run(s) {', '.join(conf)} seat strategy k always in seat k (--seating fixed), so these "
            "strategy win rates include each seat's advantage; `meeplelab simulate` rotates seats by default."
            if conf else " Every strategy sat in every seat equally often (rotated seats), so seat advantage cancels"
            " out of the strategy table." if len(set().union(*(m["config"]["strategies"]
                                                                for m in runs.manifests.values()))) > 1 else "")
    return Section(
        "Win rates", "Share of games won (a first place shared by k seats counts 1/k), with Wilson 95% intervals." + note
        + per + f"\nSeat advantage is estimated from {source}.",
        [("win_rate", _win_rate_chart(wr, runs), "Win rate by strategy against the fair share (dashed)"),
         ("seat_advantage", F.seat_advantage_chart(seat), "Win rate by seat against the fair share (dashed)")],
        [("Win rate by strategy (percent)", _interval_cols(wr, True), TableFormat(labels=WIN)),
         ("Win rate by seat (percent; seats numbered from 1 = first player, as in replays); fair = 1/players",
          _interval_cols(seat.with_columns(pl.col("fair") * 100), True), TableFormat(labels=WIN))])


def _vp_section(g: pl.LazyFrame, by: tuple, per: str, multi: bool) -> Section:
    """"Final VP and margin": mean final VP per strategy (``by``) and per strategy and seat (strategies in the
    order of their mean VP), mean margin (VP minus the best other seat), Student-t 95% intervals; ``g`` the
    games table, ``multi`` several player counts (chart labels then name the count)."""
    vp = _interval_cols(M.mean_by(g, "vp", by))
    vps = _interval_cols(M.mean_by(g, "vp", by + ("seat",)))
    order = ranked(vp, TableFormat())  # the strategies in the order of their mean VP, seats within each
    pos = {tuple(r[:len(by)]): i for i, r in enumerate(order.select(list(by)).iter_rows())}
    vps = vps.with_columns(pl.struct(list(by)).map_elements(lambda k: pos[tuple(k.values())], return_dtype=pl.Int64)
                           .alias("_pos")).sort("_pos", "seat").drop("_pos")
    mg = M.mean_by(g, "margin", by)
    vp_chart = vp if not multi else vp.with_columns(
        (pl.col("strategy") + ", " + pl.col("players").cast(pl.String) + " players").alias("strategy"))
    mg_chart = mg if not multi else mg.with_columns(
        (pl.col("strategy") + ", " + pl.col("players").cast(pl.String) + " players").alias("strategy"))
    return Section(
        "Final VP and margin", "Mean final VP and margin (VP minus the best other seat) with Student-t 95% intervals."
        + per,
        [("mean_vp", F.mean_chart(vp_chart, "strategy", title="Mean final VP (95% t interval)", xlabel="VP"), "Mean final VP"),
         ("margin", F.mean_chart(mg_chart, "strategy", title="Mean margin (95% t interval)", xlabel="VP"), "Mean margin")],
        [("Mean final VP by strategy", vp, TableFormat(labels=MEAN_VP)),
         ("Mean final VP by strategy and seat (strategies in the order of their mean VP)", vps,
          TableFormat(labels=MEAN_VP, rank=None)),
         ("Mean margin by strategy", _interval_cols(mg), TableFormat(labels={"est": "mean margin (VP)"}))])


def _breakdown_and_length_sections(g: pl.LazyFrame, runs: Runs, by: tuple, per: str, multi: bool) -> list[Section]:
    """"Score breakdown" (mean VP per final-score category and strategy; left out when the game records
    none), "Game length" (turns, rounds, decisions per game) and "How games ended" (percent of each run's
    games per end reason; left out when none recorded); per player count when ``multi``."""
    out = []
    bd = M.score_breakdown(g, by)
    if bd.height:
        out.append(Section("Score breakdown", "Mean VP per final-score category, per seat." + per,
                           [("breakdown", F.breakdown_chart(M.score_breakdown(g) if multi else bd), "VP by category"
                             + (" (every player count together)" if multi else ""))],
                           [("Mean VP by category (categories ranked within each strategy)", _interval_cols(bd),
                             TableFormat(decimals={"est": 2}, labels=MEAN_VP, within=by))]))
    gl = M.game_length(g)
    if multi:
        gl = _by_count(gl, runs)
    turns = g.filter(pl.col("seat") == 0).select("turns").collect()["turns"].to_numpy()
    out.append(Section("Game length", "Turns, rounds (Cycles) and decisions per game." + per,
                       [("game_length", F.histogram(turns, title="Game length", xlabel="turns per game"),
                         "Turns per game" + (" (every player count together; per count: Game arc)" if multi else ""))],
                       [("Game length", _interval_cols(gl), TableFormat(labels={"est": "mean"}))]))
    ends = M.end_reasons(g)
    if ends.height:
        if multi:
            ends = _by_count(ends, runs)
        out.append(Section("How games ended", _safety_line(ends), [],
                           [("Games by end reason (percent of each run's games)", _interval_cols(ends, True),
                             TableFormat(labels={"est": "share of games %"}))]))
    return out


def _action_section(runs: Runs, counts: list[int], per: str) -> Section | None:
    """"Action frequencies": share of turns by the turns table's first text column (all seats), percent with
    Wilson 95% intervals, per player count when ``counts`` holds several; None when the turns table has no
    text column."""
    tcols = [c for c, t in runs.turns.collect_schema().items() if t == pl.String and c != "run"]
    if not tcols:
        return None
    multi = len(counts) > 1
    if multi:
        of = {n: int(m["config"]["players"]) for n, m in runs.manifests.items()}
        freq = pl.concat([M.action_frequencies(runs.turns.filter(pl.col("run").is_in([n for n in of if of[n] == p])),
                                               tcols[0]).select(pl.lit(p).cast(pl.Int64).alias("players"), pl.all())
                          for p in counts])
    else:
        freq = M.action_frequencies(runs.turns, tcols[0])
    chart = freq if not multi else freq.with_columns(
        (pl.col(tcols[0]) + ", " + pl.col("players").cast(pl.String) + " players").alias(tcols[0]))
    return Section(
        "Action frequencies", f"Share of turns by `{tcols[0]}` (all seats), Wilson 95% intervals." + per,
        [("actions", F.bar_with_interval(chart, tcols[0], title=f"Turns by {tcols[0]} (95% Wilson interval)",
                                         xlabel="share of turns (%)", scale=100), f"Turns by {tcols[0]}")],
        [(f"Turns by {tcols[0]} (percent)", _interval_cols(freq, True),
          TableFormat(labels={"est": "share of turns %"}))])


def _need_section(runs: Runs, counts: list[int]) -> Section:
    """"Games needed": the games (per compared group) for a win-rate interval and the seat-results for a
    mean-VP interval of the widths of :func:`meeplelab.analysis.metrics.games_needed_summary`, per player
    count when ``counts`` holds several (each count has its own VP sd), then what the observed differences need."""
    g = runs.games
    n_games = int(g.filter(pl.col("seat") == 0).select(pl.len()).collect().item())
    if len(counts) > 1:
        needs = [{"players": p, **M.games_needed_summary(g.filter(pl.col("players") == p))} for p in counts]
        need = needs[-1]
        text = (f"These runs hold {n_games:,} games. For a win-rate interval {need['rate_width'] * 100:.0f} points wide "
                f"(+-{need['rate_width'] * 50:.0f}) about {need['games_for_rate']:,} games per compared group are "
                f"needed; for a mean-VP interval {need['vp_width']:.0f} VP wide, the seat-results per player count "
                "are in the table (each count has its own VP sd). Paired comparisons on common seeds need fewer.")
        return Section("Games needed", text + _observed_need(runs), [], [("Games needed", pl.DataFrame(needs))])
    need = M.games_needed_summary(g)
    return Section(
        "Games needed",
        f"These runs hold {n_games:,} games. For a win-rate interval {need['rate_width'] * 100:.0f} points wide "
        f"(+-{need['rate_width'] * 50:.0f}) about {need['games_for_rate']:,} games per compared group are needed; for a "
        f"mean-VP interval {need['vp_width']:.0f} VP wide (VP sd {need['vp_sd']:.1f}), about {need['games_for_vp']:,} "
        "seat-results. Paired comparisons on common seeds need fewer." + _observed_need(runs),
        [], [("Games needed", pl.DataFrame([need]))])


def generic_sections(runs: Runs) -> list[Section]:
    """Sections every game gets. With runs of several player counts every table is per player count
    (a ``players`` column; a strategy's VP at 2 seats is never averaged with its VP at 4)."""
    g = runs.games
    counts = player_counts(runs)
    multi = len(counts) > 1
    by = ("players", "strategy") if multi else ("strategy",)
    per = f" Every table is per player count ({counts_words(counts)})." if multi else ""
    out = [_win_rate_section(runs, by, per), _vp_section(g, by, per, multi)]
    out += _breakdown_and_length_sections(g, runs, by, per, multi)
    actions = _action_section(runs, counts, per)
    if actions is not None:
        out.append(actions)
    out.append(_need_section(runs, counts))
    return out


def _safety_line(ends: pl.DataFrame) -> str:
    """The report line counting the games a safety stop ended (from :func:`meeplelab.analysis.metrics.end_reasons`)."""
    total = int(ends.group_by("run", maintain_order=True).agg(pl.col("all").first())["all"].sum())
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
            frame = pl.DataFrame(rows)
            same = next((i for i, (_, df, *_) in enumerate(tables) if df.equals(frame)), None)
            if same is None:
                tables.append(([name], frame))
            else:  # runs of the same rules (a field played at several player counts): one table
                tables[same][0].append(name)
    tables = [((f"Parameters of run {names[0]}" if len(names) == 1 else
                f"Parameters of runs {', '.join(names)} (the same values)")
               + " (assumed = an assumption ID, not a published rule)", df) for names, df in tables]
    return Section("Provenance", "\n".join(text), [], tables)


def version_sections(runs: Runs, vs: list[Version]) -> list[Section]:
    """The sections of a report on several versions: a verdict naming the versions (nothing pooled
    across them), each version's own verdict, the delta table, then each version's own balance and
    game sections (titled with the version), then provenance of every run (:mod:`meeplelab.analysis.versions`
    names the versions; :func:`meeplelab.analysis.compare.delta_table` compares them)."""
    t = full_table(runs, vs)
    lines = [f"These {len(runs.manifests)} runs hold {len(vs)} versions of the rules or content; they are NOT "
             "pooled: every figure below is one version's own, and the versions are compared in the delta table "
             f"(each later version minus version {vs[0].label})."]
    lines += [version_line(runs, v) for v in vs]
    design = set(t["design"].to_list()) if t.height else set()
    for v in vs[1:]:
        ca, cb = _counts_of(runs, vs[0]), _counts_of(runs, v)
        if not ca & cb:
            lines.append(f"Versions {vs[0].label} and {v.label} share no player count ({vs[0].label}: "
                         f"{', '.join(map(str, sorted(ca)))}; {v.label}: {', '.join(map(str, sorted(cb)))} players), so "
                         "nothing of them is compared: play both at the same counts.")
            continue
        why = _unpaired_reasons(runs, vs[0], v)
        if why:
            lines.append(f"Version {v.label} did not play the same games as {vs[0].label} ({'; '.join(why)}): their "
                         "differences are unpaired and descriptive, and a difference of roster is not the rules'.")
    if any(d.startswith("unpaired") for d in design) and not any("unpaired" in ln for ln in lines):
        lines.append("Some versions did not play the same games (seeds, roster or seating differ): their "
                     "differences are unpaired and descriptive.")
    lines += change_use_lines(change_uses(runs, vs))  # a changed rule number whose mechanic no player used
    secs = [Section("Verdict", "\n".join(lines), [], [])] + who_gains_sections(t)
    for v in vs:
        sub = subset(runs, v.runs)
        s = verdict_section(sub, scope=f"{v.title} alone (runs {', '.join(v.runs)})")
        pooled = pooled_sentence(v, runs)
        if pooled:
            s.text = f"{pooled[0].upper()}{pooled[1:]}.\n" + s.text
        s.title = f"Verdict: {v.title}"
        secs.append(s)
    secs.append(Section(
        "Versions compared",
        "Each later version minus the reference, per player count: every strategy's win rate (percentage points; "
        "paired: Agresti-Min adjusted Wald, unpaired: Newcombe) and mean final VP, its rank (mean final place), "
        "the VP of every score category, its turns per game by action (and Meeting Table space), its events per "
        "game of every kind (citations, Abjures, Writes ...), the Abjure or citation rate (percent of seat-games), "
        "the seat spread (best minus worst seat, the seats each version's own verdict chose; percentage points) "
        "and game length (t intervals; Welch when unpaired). Paired means game and seat matched: the same seed, "
        "roster and seat order, so each row is the mean of the game-matched differences; ref and value are the "
        "two versions' own figures. A row is called changed when its p-value, Holm-adjusted over every row of "
        "its version's comparison, is below 0.05. The changed rows:\n"
        + "\n".join(f"- {ln.strip()}" if ln.startswith(" ") else ln for ln in changed_lines(t)),
        [], [("Version deltas (later version minus the reference; win rate, rates and seat spread in percentage "
              "points)", t, TableFormat(decimals={"est": 2, "ref": 2, "value": 2}))]))
    for v in vs:
        sub = subset(runs, v.runs)
        own = generic_sections(sub)
        for fn in game_sections(next(iter(sub.game_names))):
            own.extend(fn(sub))
        for s in own:
            s.title = f"{s.title}: {v.title}"
        secs.extend(own)
    secs.append(provenance_section(runs))
    return secs


def build_sections(runs: Runs, *, by_version: bool = True) -> list[Section]:
    """Generic sections, the game arc (:mod:`meeplelab.analysis.arc`), then the game's own analyses, then provenance.

    Runs of different rule or content versions (:mod:`meeplelab.analysis.versions`: the manifests' rule
    parameters and content hash) are never pooled: each version gets its own verdict and sections,
    then one table of paired deltas between the versions (``by_version=False`` pools them, for a
    caller that compares them itself). Runs of one version are pooled, and the verdict says so."""
    vs = versions(runs)
    if by_version and len(vs) > 1:
        return version_sections(runs, vs)
    secs = [verdict_section(runs)] + generic_sections(runs) + arc_sections(runs)
    pooled = pooled_sentence(vs[0], runs) if len(vs) == 1 else ""
    if pooled:
        secs[0].text = f"{pooled[0].upper()}{pooled[1:]}.\n" + secs[0].text
    counts = player_counts(runs)
    for fn in game_sections(next(iter(runs.game_names))):
        for s in fn(runs):
            if len(counts) > 1:  # the game's own analyses are not split by player count: said so
                s.text = (s.text + "\n" if s.text else "") + (f"This section pools the games of every player count "
                                                              f"({counts_words(counts)}).")
            secs.append(s)
    secs.append(provenance_section(runs))
    return secs


def build_report(folders: Sequence[Path | str], dest: Path | str, *,
                 sections: Callable[[Runs], list[Section]] | None = None, kind: str = "balance",
                 progress: bool = False, summary: list | None = None) -> Path:
    """Write ``dest/report.html``, ``dest/report.md`` and ``dest/figures/*.png``; the title reads
    ``meeplelab <kind> report: <games>`` (``balance``, ``tournament``...). ``progress`` draws a bar on stderr
    (:mod:`meeplelab.play.progress`): reading the runs, analysing them, then each section written.
    ``summary`` (a list, when given) receives the three sentences of every verdict on the page (a list of
    three strings each).

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

    with bar(f"{kind} report: reading runs", 2, unit="steps", on=progress) as b:
        runs = load_runs(list(folders))
        b.update(label=f"{kind} report: analysing", done=1)
        secs = first_screen.compose((sections or build_sections)(runs), runs)
        if summary is not None:
            summary.extend(list(s.summary) for s in secs if s.summary)
        b.update(label=f"{kind} report: writing sections", total=2 + len(secs), done=2)
        try:
            return _write_report(runs, secs, dest, t0, kind, on_section=lambda: b.advance(1))
        finally:  # every figure is released, also when writing fails part-way
            for s in secs:
                for _, fig, _ in s.figures + (list(s.folded[1]) if s.folded else []) + [
                        f for p in s.panels for f in p.figures]:
                    F.close(fig)


def _saved_figure(fig, rel: str, cap: str, folder: Path, lab: Labeller, md: list[str], descriptive: bool) -> dict:
    """Save ``fig`` to ``folder/rel`` with words for its codes (``lab``) and, in a ``descriptive`` section, the
    word in its title (:func:`meeplelab.analysis.figures.mark_descriptive`); add its Markdown line to ``md``;
    returns what the page's figure macro renders (alt text: the caption's words)."""
    lab.figure(fig)
    if descriptive:
        F.mark_descriptive(fig)
    F.save(fig, folder / rel)
    w, hgt = F.png_size(folder / rel)
    md += [f"![{cap}]({rel})", ""]
    return {"src": rel, "alt": lab.plain(P.plain(cap)), "caption": P.inline(cap, lab), "width": w, "height": hgt}


def _glossary(lab: Labeller, md: list[str]) -> dict:
    """The page's last section before the footer: every label shown and its code id (folded), also in ``md``."""
    title = "Labels and their code ids"
    text = ("The charts, the tables and the sentences of the HTML page name strategies, rule numbers and actions in "
            "words; the CSV files, the Markdown twin, the commands and the provenance use the code ids below (a word "
            "of the HTML page shows its code when hovered).")
    rows = lab.glossary()
    md += [f"## {title}", "", text, "", "| label | code id |", "|---|---|",
           *(f"| {cell(w)} | `{cell(c)}` |" for w, c in rows), ""]
    cells = [[w, Markup(f"<code>{escape(c)}</code>")] for w, c in rows]
    return {"title": title, "paragraphs": [P.prose(text)], "figures": [],
            "tables": [P.table_context(["label", "code id"], cells, f"{len(rows)} labels", folded=True)]}


def _warnings(runs: Runs) -> list[str]:
    """The page's warnings: runs not complete, and where a run's files and manifest disagree
    (:mod:`meeplelab.analysis.load`)."""
    out = []
    partial = [n for n, m in runs.manifests.items() if m.get("status") != "complete"]
    if partial:
        out.append(f"Warning: run(s) {', '.join(partial)} are not complete (status "
                   f"{', '.join(repr(runs.manifests[n].get('status')) for n in partial)}); figures cover the finished "
                   "chunks only.")
    out += [f"Run {n}: {note}." for n, notes in runs.notes.items() for note in notes]
    return out


def _answers(secs: list[Section], md: list[str], lab: Labeller) -> list[dict]:
    """The page's opening: each verdict's three sentences (``Section.summary``; headed by the version when the page
    holds several), with the same sentences with intervals folded under them when the verdict keeps them
    (``data["detail"]``, :mod:`meeplelab.analysis.first_screen`); also in ``md`` (with the code ids; the page gives
    their words, ``lab``). Returns what the template renders."""
    out = []
    summaries = [s for s in secs if s.summary]
    for s in summaries:
        head = "In three sentences" + (f" ({s.title.split(': ', 1)[1]})" if len(summaries) > 1
                                       and ": " in s.title else "")
        out.append({"title": head, "paragraphs": [P.prose(x, lab) for x in s.summary], "figures": [], "tables": []})
        md += [f"## {head}", ""]
        for sentence in s.summary:
            md += [sentence, ""]
        if s.data.get("detail"):  # the same with intervals (the first screen's sentences have none), folded
            words = "With intervals, among the scripted plans"
            out[-1]["detail"] = {"summary": words, "paragraphs": [P.prose(x, lab) for x in s.data["detail"]]}
            md += [f"<details><summary>{words}</summary>", "", *(x for d in s.data["detail"] for x in (d, "")),
                   "</details>", ""]
    return out


def _glance(secs: list[Section], folder: Path, lab: Labeller, md: list[str]) -> list[dict]:
    """The first screen's panels (:mod:`meeplelab.analysis.first_screen`): every section's ``panels`` in their
    ``order``, each a heading (the question), its charts (saved in ``folder/figures``) and its one-line reading;
    also in ``md``. Returns what the page template renders."""
    out = []
    panels = sorted((p for s in secs for p in s.panels), key=lambda p: p.order)
    for k, p in enumerate(panels):
        md += [f"## {p.question}", ""]
        figs = [_saved_figure(fig, f"figures/glance_{k:02d}_{stem}.png", cap, folder, lab, md, False)
                for stem, fig, cap in p.figures]
        md += [p.reading, ""]
        out.append({"title": P.inline(p.question, lab), "paragraphs": [P.prose(p.reading, lab)], "figures": figs,
                    "tables": []})
    return out


def _labeller(runs: Runs) -> Labeller:
    """The page's labeller: the game's words when the page holds one game (None: codes kept), a bare word in a
    sentence a code when it is a strategy id a run played (``writer``; :meth:`Labeller.text_html`)."""
    played = [sid for m in runs.manifests.values() for sid in (m.get("config") or {}).get("strategies") or ()]
    return Labeller(next(iter(runs.game_names)) if len(runs.game_names) == 1 else None, played)


def _write_report(runs: Runs, secs: list[Section], dest: Path, t0: float, kind: str = "balance",
                  on_section: Callable[[], None] = lambda: None) -> Path:
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
        lab = _labeller(runs)
        title = f"meeplelab {kind} report: {', '.join(sorted(runs.game_names))}"
        md = [f"# {title}", "", f"Runs: {', '.join(runs.manifests)}.", ""]
        warnings = _warnings(runs)
        md += [x for w in warnings for x in (f"**{w}**", "")]
        page_secs = _answers(secs, md, lab)  # the three plain sentences (meeplelab.analysis.summary), first
        glance = _glance(secs, tmp, lab, md)
        top = len(page_secs)
        table_note = any(t[1].height for s in secs for t in s.tables)
        if table_note:
            md += [f"*{TABLE_NOTE}*", ""]
        for i, s in enumerate(secs):
            sl = None if s.title == "Provenance" else lab  # the provenance keeps the code ids
            ps = {"title": P.inline(s.title, sl), "paragraphs": [], "figures": [], "tables": []}
            if table_note and len(page_secs) == top:  # how to read the tables: once, below the first screen
                ps["small"] = [P.inline(TABLE_NOTE)]
            page_secs.append(ps)
            md += [f"## {s.title}", ""]
            if s.text.strip():  # one paragraph a line, "- " lines a list: Markdown rendered once (pages.prose)
                ps["paragraphs"].append(P.prose(s.text, sl))
                md += [P.blocks(s.text), ""]
            seen = "descriptive" in s.title.lower()  # a section of observed groups: each chart says so
            for stem, fig, cap in s.figures:
                ps["figures"].append(_saved_figure(fig, f"figures/{i:02d}_{stem}.png", cap, tmp, lab, md, seen))
            if s.folded and s.folded[1]:
                words, figs = s.folded
                md += [f"*{words} (folded in the HTML page):*", ""]
                inner = [_saved_figure(fig, f"figures/{i:02d}_{stem}.png", cap, tmp, lab, md, seen)
                         for stem, fig, cap in figs]
                ps["folded_figures"] = {"summary": P.inline(words, sl), "figures": inner}
            for k, (cap, df, *fmt) in enumerate(s.tables):
                if df.height == 0:
                    continue
                f = fmt[0] if fmt else None
                df = ranked(df, f)
                rel = f"tables/{i:02d}_{k:02d}_{table_slug(cap)}.csv"
                write_table_csv(df, tmp / rel)
                ps["tables"] += _table_contexts(df, cap, f, csv=rel, labels=sl)
                if f is not None and f.folded:  # a long table: folded whole in the Markdown twin too
                    md += [f"<details><summary>{html.escape(P.plain(cap))} ({df.height:,} rows)</summary>", "",
                           _md_table(df, cap, f, rel, whole=True), "", f"[CSV]({rel})", "", "</details>", ""]
                else:
                    md += [_md_table(df, cap, f, rel), "", f"[CSV]({rel})", ""]
            on_section()
        if lab.used:  # the code id of every label shown: hover a cell for one, or read them all here
            page_secs.append(_glossary(lab, md))
        page = P.render("report.html.j2", title=title, runs=", ".join(runs.manifests), warnings=warnings,
                        top=page_secs[:top], glance=glance, sections=page_secs[top:], footer=f"Built in {time.perf_counter() - t0:.1f} s by meeplelab.")
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
           "format_table", "header", "markdown_table", "ranked", "shown_frame", "table_slug", "write_table_csv"]
