"""The short result table ``meeplelab simulate`` prints after a run (``--quiet`` leaves it out).

Per strategy its win rate with a Wilson 95% interval against the fair share, ranked; then the seat spread (best minus
worst seat win rate, percentage points, with its paired 95% interval over the game seeds) from
:func:`meeplelab.analysis.seats.seat_spread`. The balance report (``meeplelab report RUN``) says the rest.
"""

from __future__ import annotations

from pathlib import Path

from .load import load_runs
from .metrics import win_rates
from .seats import confounded_runs, games_frame, is_mirror, seat_spread


def result_lines(run: Path | str) -> list[str]:
    """The result table of the run folder ``run`` as lines of text (rates in percent, 1 decimal).

    Raises:
        RunFolderError: ``run`` is not a readable run folder.
    """
    runs = load_runs([run])
    manifest = next(iter(runs.manifests.values()))
    players = int(manifest["config"]["players"])
    wr = win_rates(runs.games).sort(["est", "strategy"], descending=[True, False])
    width = max(8, *(len(s) for s in wr["strategy"]))
    lines = [f"{'strategy':<{width}}  win rate  95% interval   seat-games   (fair share {100 / players:.1f}%)"]
    for r in wr.iter_rows(named=True):
        lines.append(f"{r['strategy']:<{width}}  {100 * r['est']:7.1f}%  [{100 * r['low']:4.1f}, {100 * r['high']:4.1f}]"
                     f"  {r['games']:>11,}")
    lines.append(_spread_line(runs, manifest, players))
    return lines


def _spread_line(runs, manifest: dict, players: int) -> str:
    """The seat-spread sentence: best and worst seat (numbered from 1) and the spread with its paired interval."""
    sp = seat_spread(games_frame(runs))
    if sp.is_empty():
        return "seat spread: no games"
    r = sp.row(0, named=True)
    what = "mirror match" if is_mirror(manifest) else "strategies balanced over the seats"
    if confounded_runs(runs):
        what = "CONFOUNDED with strategy strength: fixed seats, strategy k in seat k"
    return (f"seat spread (best minus worst seat win rate, {players} seats; {what}): {r['spread']:.1f} points "
            f"[{r['spread_low']:.1f}, {r['spread_high']:.1f}], seat {r['best_seat'] + 1} {r['best']:.1f}% to seat "
            f"{r['worst_seat'] + 1} {r['worst']:.1f}%; meeplelab report for the rest")
