"""Generate ``docs/logs.md`` (every column of every table: name, type, unit, meaning) from the
schemas declared in code, so the documentation cannot drift: ``python -m meeplelab.sim.logdoc > docs/logs.md``.
A test checks the file is current.
"""

from __future__ import annotations

from .core.logs import GAME_COL, TURN_BASE, event_base
from .registry import builtin_games, get_game_class
from .schema import GAMES_COLUMNS


def _rows(cols) -> list[str]:
    out = ["| column | type | unit | meaning |", "|---|---|---|---|"]
    for c in cols:
        t = "string (dictionary)" if c.dtype == "str" else c.dtype
        doc = c.doc
        if c.vocab and c.name != "kind":
            doc += " Values: " + ", ".join(f"`{v}`" for v in c.vocab) + "."
        out.append(f"| `{c.name}` | {t} | {c.unit} | {doc} |")
    return out


def render() -> str:
    """The Markdown text of docs/logs.md."""
    lines = [
        "# Run folder tables",
        "",
        "Generated from the schemas in code by `python -m meeplelab.sim.logdoc > docs/logs.md`; a test checks it is current.",
        "",
        "A run folder holds `games/`, `turns/` and `events/`, each a set of Parquet part files (zstd,",
        "dictionary-encoded strings), one per chunk. Read them lazily with polars, through the manifest:",
        "",
        "```python",
        "from meeplelab.analysis.load import load_runs, scan_run",
        'turns = scan_run("RUN", "turns")          # a polars LazyFrame of the chunks marked done',
        'runs = load_runs(["RUN", "RUN2"])         # runs.games, runs.turns, runs.events with a run column',
        "```",
        "",
        "Read only the manifest's parts: a glob of the table folder (`RUN/turns/*.parquet`) also reads a part",
        "file no finished chunk lists (one copied in from another run, or a chunk that finished after Ctrl-C).",
        "`--resume` moves such files out of the table folders into `RUN/stray/` and says so in one line.",
        "",
        "`manifest.json` records the config, package versions, parameter values (assumed ones listed),",
        "content hash, seeds and the status of every chunk with its parts' row counts, byte sizes and sha256",
        "(`rows`, `bytes`, `sha256`, by table); `run.toml` repeats the run.",
        "",
        "Part files are checked: every read through the manifest (`load_runs`, `scan_run`, so `report`, `export`",
        "and every study; `replay` for its games part; `simulate --resume`) checks each listed part first: it is a",
        "file, its footer reads, its row count, size and sha256 are the manifest's, and the games table's",
        "invariants hold (every game within its chunk, one row per (game, seat), the run's player count). A part",
        "that fails is refused in one line, exit 2, naming the part, what differs and the repair:",
        "",
        "```text",
        "error: Parquet part 'RUN/games/part-000004.parquet' is 11,967 bytes where the manifest lists 12,066;",
        "meeplelab simulate --out 'RUN' --resume moves it to 'RUN/stray' and plays chunk 4 (games 512 to 639) again",
        "```",
        "",
        "(other differences: `is a folder, not a file`, `is corrupt (ArrowInvalid)`, `holds 384 rows where the",
        "manifest lists 383`, `has sha256 3fa2c1d4e5f6... where the manifest lists 9b1c0e2f1234...`, `holds 3 seat",
        "rows of game 517 where the run has 2 players (one row per game and seat)`). A listed part that is missing",
        "leaves its chunk out with a warning. A manifest written before parts were hashed (no `sha256`) gets every",
        "other check and is accepted when they hold.",
        "",
        "## games: one row per (game, seat)",
        "",
        "A game stopped by a safety stop (Unconscious Mind's `round_limit`) has `safety_stop` = true; reports say how",
        "many and `meeplelab.analysis.metrics.without_safety_stops(games)` leaves them out. The max-ply guard is not a stop:",
        "a game reaching it raises `PlyLimitError` and the run stops with that message, writing no row for it.",
        "",
        *_rows(GAMES_COLUMNS),
        "| `vp_<category>` | int32 | VP | Final VP from one score category (the game's categories below); they sum to `vp`. |",
        "",
        "## turns: one row per finished turn (core columns)",
        "",
        *_rows((GAME_COL,) + TURN_BASE),
        "",
        "## events: one row per event (core columns)",
        "",
        *_rows((GAME_COL,) + event_base(("...",))),
        "",
    ]
    for name in builtin_games():
        cls = get_game_class(name)
        lines += [f"## {cls.title} (`{name}`)", "",
                  "Score categories (`vp_<category>` in games): " + ", ".join(f"`{c}`" for c in cls.score_categories) + ".", "",
                  "End reasons (`end_reason` in games):", "",
                  *[f"- `{r}`{' (safety stop: `safety_stop` = true)' if r in cls.safety_stops else ''}: {m}"
                    for r, m in cls.end_reasons.items()], "",
                  "### turns: game columns", "", *_rows(cls.turn_columns), "",
                  "### events: kinds", "", ", ".join(f"`{k}`" for k in cls.event_kinds) + ".", "",
                  "### events: game columns", "", *_rows(cls.event_columns), ""]
        notes = getattr(cls, "event_notes", None)
        if notes:
            lines += ["### events: what each kind fills in", "", "| kind | columns |", "|---|---|"]
            lines += [f"| `{k}` | {v} |" for k, v in notes.items()] + [""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(render(), end="")
