"""Seat advantage in mirror matches: the same strategy in every seat, win rate and mean VP per seat.

In a mirror match every seat plays the same strategy, so any difference between seats is the game's
(or the strategy's use of the turn order), never a skill difference: a fair game gives every seat a
win rate of ``1/P``. This module plays the mirror for each player count, on the run seed's games
``0..N-1`` (common random numbers: game ``i`` starts from the same shuffles in every variant and
player count run with the same seed), and prints Markdown tables:

- per player count: seat, n, win rate with its Wilson interval, mean VP with its t interval, and the
  mean VP of the chosen score categories;
- with ``--vary NAME=V1,V2,..``: win rate per seat for each parameter value, and the paired
  difference of each seat's win share against the first value (game by game on common seeds).

Command line (one line per table block; ``--update FILE`` re-runs every block of a Markdown file)::

    python -m meeplelab.analysis.mirror --game galileos-truth --strategy writer --games 2000 --players 2,3,4
    python -m meeplelab.analysis.mirror --game galileos-truth --strategy writer --games 1000 \\
        --vary first_player_rule=rotate,first-to-pass,fewest-vp,fixed
    python -m meeplelab.analysis.mirror --update docs/seat_advantage.md

A block in a Markdown file is the text between ``<!-- mirror ARGS -->`` and ``<!-- /mirror -->``;
``--update`` replaces it with the output of ``python -m meeplelab.analysis.mirror ARGS`` (nothing is written
unless every block ran). Bad input: one line naming the value and what is allowed, exit code 2.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from meeplelab.sim.core.errors import ConfigError, UserError

from .stats import games_for_mean_width, games_for_rate_width, mean_t, paired_shares, wilson
from meeplelab.play.batch import play_batch
from meeplelab.sim.core.params import apply_overrides, parse_set_options
from meeplelab.sim.registry import get_game_class, make_game
from meeplelab.strategies.registry import make_strategy

BLOCK = re.compile(r"(<!-- mirror (?P<args>[^>]*?) -->\n)(?P<body>.*?)(<!-- /mirror -->)", re.S)


@dataclass
class Mirror:
    """Per-game, per-seat outcome of one mirror run.

    Attributes:
        players: seats P.
        share: ``float[N, P]`` win share (1 for a sole winner, 1/k in a k-way tie on the tie-break).
        vp: ``float[N, P]`` final VP.
        cats: ``{category: float[N, P]}`` final VP by score category.
    """

    players: int
    share: np.ndarray
    vp: np.ndarray
    cats: dict[str, np.ndarray]


def play_mirror(game_id: str, strategy: str, players: int, games: int, seed: int,
                params: dict[str, str] | None = None, content: str | None = None, batch: int = 1000) -> Mirror:
    """Play ``games`` mirror games of ``strategy`` at ``players`` seats.

    Games ``0..games-1`` of run ``seed``; results do not depend on ``batch`` (every draw is keyed by
    run seed, game and seat). ``content``: folder of content files replacing the packaged ones.
    Raises ConfigError (ContentError) for an unknown game, strategy, player count, parameter value
    or bad content.
    """
    cls = get_game_class(game_id)
    if not cls.min_players <= players <= cls.max_players:
        raise ConfigError(f"--players {players}: {game_id} takes {cls.min_players}-{cls.max_players} seats")
    game = make_game(game_id, content_dir=content)
    if params:
        game = make_game(game_id, params=apply_overrides(game.params, params), content_dir=content)
    strats = [make_strategy(game_id, strategy) for _ in range(players)]
    parts = []
    for lo in range(0, games, batch):
        res = play_batch(game, strats, np.arange(lo, min(games, lo + batch)), seed, log_turns=False,
                         log_events=False)
        parts.append(res.games.to_pydict())
    col = lambda name: np.concatenate([np.asarray(p[name], float) for p in parts]).reshape(games, players)  # noqa: E731
    return Mirror(players, col("win_share"), col("vp"), {c: col(f"vp_{c}") for c in game.score_categories})


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def seat_table(m: Mirror, categories: list[str]) -> str:
    """Markdown table of one mirror run: per seat n, win rate [Wilson 95%], mean VP [t 95%], categories."""
    n, P = m.share.shape
    head = ["seat", "n", "win rate %", "95% Wilson", "mean VP", "95% t"] + [f"{c} VP" for c in categories]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    worst = 0.0
    for s in range(P):
        w, lo, hi = (float(x) for x in wilson(m.share[:, s].sum(), n))
        worst = max(worst, abs(w - 1 / P))
        v, vlo, vhi = mean_t(m.vp[:, s])
        cells = [f"{s + 1}", f"{n}", _pct(w), f"[{_pct(lo)}, {_pct(hi)}]", f"{v:.1f}", f"[{vlo:.1f}, {vhi:.1f}]"]
        cells += [f"{m.cats[c][:, s].mean():.2f}" for c in categories]
        rows.append("| " + " | ".join(cells) + " |")
    need = games_for_rate_width(2 * worst, 1 / P) if worst > 0 else 0
    rows.append("")
    rows.append(f"Fair share {_pct(1 / P)}%; largest seat deviation {100 * worst:.1f} points "
                f"(games needed to resolve it at 95%: {need:,}).")
    return "\n".join(rows)


def vary_tables(runs: list[tuple[str, Mirror]]) -> str:
    """Win rate per seat for each variant, then each seat's paired win-share difference to the first."""
    P = runs[0][1].players
    n = runs[0][1].share.shape[0]
    head = ["value", "n"] + [f"seat {s + 1} win %" for s in range(P)] + ["largest deviation from fair (points)"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, m in runs:
        cells = [f"`{name}`", f"{n}"]
        worst = 0.0
        for s in range(P):
            w, lo, hi = (float(x) for x in wilson(m.share[:, s].sum(), n))
            worst = max(worst, abs(w - 1 / P))
            cells.append(f"{_pct(w)} [{_pct(lo)}, {_pct(hi)}]")
        cells.append(f"{100 * worst:.1f}")
        rows.append("| " + " | ".join(cells) + " |")
    if len(runs) > 1:
        base_name, base = runs[0]
        rows += ["", f"Paired difference of win share against `{base_name}` (points, 95% Agresti-Min adjusted Wald interval; same games):", ""]
        head = ["value"] + [f"seat {s + 1}" for s in range(P)] + ["games needed (largest difference)"]
        rows += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for name, m in runs[1:]:
            d = m.share - base.share
            cells = [f"`{name}`"]
            big, sd = 0.0, 0.0
            for s in range(P):
                pr = paired_shares(m.share[:, s], base.share[:, s])  # Agresti-Min: width at 0 discordant games
                v, lo, hi = pr["est"], pr["low"], pr["high"]
                cells.append(f"{100 * v:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]")
                if abs(v) > big:
                    big, sd = abs(v), float(d[:, s].std(ddof=1))
            cells.append(f"{games_for_mean_width(2 * big, sd):,}" if big > 0 and sd > 0 else "-")
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def _int_list(text: str, what: str) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ConfigError(f"{what} {text!r}: give whole numbers separated by commas, e.g. 2,3,4") from None
    if not out:
        raise ConfigError(f"{what} {text!r}: give at least one value")
    return out


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (as every meeplelab command)
        raise ConfigError(message)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m meeplelab.analysis.mirror", description=__doc__.split("\n")[0])
    p.add_argument("--game", help="game id (meeplelab games)")
    p.add_argument("--strategy", help="strategy id for every seat, with arguments (meeplelab strategies GAME)")
    p.add_argument("--games", type=int, default=2000, help="games per player count (default 2000)")
    p.add_argument("--players", default="2,3,4", help="player counts, comma separated (default 2,3,4)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--set", dest="set_", action="append", default=[], help="parameter override name=value")
    p.add_argument("--content", help="folder of content files replacing the packaged ones")
    p.add_argument("--vary", help="one parameter and its values NAME=V1,V2,...: a table per player count")
    p.add_argument("--categories", default="", help="score categories to show as mean VP columns, comma separated")
    p.add_argument("--update", type=Path, help="Markdown file: re-run every <!-- mirror ARGS --> block in it")
    return p


def render(argv: list[str]) -> str:
    """The Markdown tables for one argument list (raises UserError for bad input)."""
    a = parser().parse_args(argv)
    if a.update is not None:
        raise ConfigError("--update cannot appear inside a mirror block")
    if not a.game or not a.strategy:
        raise ConfigError("--game and --strategy are required (e.g. --game galileos-truth --strategy writer)")
    if a.games < 2:
        raise ConfigError(f"--games {a.games}: at least 2 games are needed for an interval")
    players = _int_list(a.players, "--players")
    params = parse_set_options(a.set_)
    game = make_game(a.game, content_dir=a.content)
    cats = [c for c in a.categories.split(",") if c]
    bad = [c for c in cats if c not in game.score_categories]
    if bad:
        raise ConfigError(f"--categories {bad[0]!r}: allowed {', '.join(game.score_categories)}")
    out = []
    title = f"`{a.strategy}` mirror, {a.game}, seed {a.seed}" + (f", {', '.join(a.set_)}" if a.set_ else "")
    title += f", content {a.content}" if a.content else ""
    if a.vary:
        if "=" not in a.vary:
            raise ConfigError(f"--vary {a.vary!r} needs the form NAME=V1,V2,...")
        name, vals = (x.strip() for x in a.vary.split("=", 1))
        values = [v for v in vals.split(",") if v]
        if name in params:
            raise ConfigError(f"parameter {name!r} is given both in --vary and --set: give it in one of them")
        for P in players:
            runs = [(f"{name}={v}", play_mirror(a.game, a.strategy, P, a.games, a.seed, {**params, name: v},
                                                            a.content))
                    for v in values]
            out.append(f"**{P} seats** ({title}, varying `{name}`)\n\n" + vary_tables(runs))
    else:
        for P in players:
            m = play_mirror(a.game, a.strategy, P, a.games, a.seed, params, a.content)
            out.append(f"**{P} seats** ({title})\n\n" + seat_table(m, cats))
    return "\n\n".join(out) + "\n"


def update(path: Path) -> int:
    """Re-run every mirror block of ``path``; write the file once, after all blocks ran."""
    if not path.is_file():
        raise ConfigError(f"--update {path}: no such file")
    text = path.read_text()
    blocks = list(BLOCK.finditer(text))
    if not blocks:
        raise ConfigError(f"--update {path}: no '<!-- mirror ARGS -->' ... '<!-- /mirror -->' block in it")
    pieces, last = [], 0
    for b in blocks:
        t0 = time.time()
        args = shlex.split(b.group("args"))
        body = render(args)
        print(f"ran: {' '.join(args)} ({time.time() - t0:.0f} s)", file=sys.stderr)
        pieces += [text[last:b.end(1)], body, b.group(4)]
        last = b.end()
    pieces.append(text[last:])
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("".join(pieces))
    tmp.replace(path)
    print(f"updated {len(blocks)} block(s) in {path}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        a = parser().parse_args(argv)
        if a.update is not None:
            return update(a.update)
        sys.stdout.write(render(argv))
        return 0
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
