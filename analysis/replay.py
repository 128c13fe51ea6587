"""``meeplelab replay``: one game of a run, decision by decision, in words.

A game's trajectory depends only on (run seed, game index), so the replay plays that one game
again as a batch of one with the run's game, parameters, content and strategies, prints every
decision (``describe_action``) and every event (``describe_event``) with a header line whenever a
round (Cycle) begins (the game's ``describe_round``, else ``--- Round k ---``), and checks that the
final scores equal the logged ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import numpy as np
import polars as pl

from meeplelab.sim.core.errors import RunFolderError
from meeplelab.sim.core.logs import drain
from meeplelab.sim.core.rng import stream_keys, strategy_stream
from meeplelab.sim.registry import make_game
from meeplelab.play.runfolder import part_name, part_problem, read_manifest, resume_hint, run_config
from meeplelab.strategies.base import StrategyRNG, View
from meeplelab.strategies.registry import make_strategy


def replay_text(run: Path | str, game_id: int) -> Iterator[str]:
    """Lines describing game ``game_id`` of ``run``.

    Raises:
        RunFolderError: not a run folder, ``game_id`` not in the run (the allowed range named), or the
            games part holding the game does not match the manifest (missing, a folder, truncated or corrupt,
            another size or sha256, rows breaking the games table's invariants:
            :func:`meeplelab.play.runfolder.part_problem`; the part and the repair command named): the replay
            would not be checked against the logged final scores, so nothing is printed.
    """
    run = Path(run)
    cfg, plan, part = _checked_part(run, game_id)
    game = make_game(cfg.game, cfg.make_params(), cfg.content)
    order, game_seed = (int(x[0]) for x in plan.locate(np.array([game_id], np.int64)))
    seated = plan.strategies(order)
    strategies = [make_strategy(cfg.game, s) for s in seated]
    state = game.init(np.array([game_seed], np.int64), cfg.seed, cfg.players)
    seat_keys = [stream_keys(cfg.seed, state.game_id, strategy_stream(s)) for s in range(cfg.players)]
    yield (f"{game.title}, game {game_id} of run {run.name} (seed {cfg.seed}, {cfg.players} players, "
           f"seat order {order + 1} of {len(plan.orders)}, game seed {game_seed})")
    for s, st in enumerate(seated):
        yield f"  seat {s + 1}: {st}"
    yield from _decision_lines(game, state, strategies, seat_keys)
    yield from _score_lines(game.final_scores(state)[0], part, game_id, run)


def _checked_part(run: Path, game_id: int):
    """The run's config (:func:`meeplelab.play.runfolder.run_config`), its game plan and the path of the games
    part holding game ``game_id``, once that part matches the manifest.

    Raises:
        RunFolderError: as :func:`replay_text` documents.
    """
    m = read_manifest(run)
    cfg = run_config(run, m)  # content and paths read against the run folder (it may have moved)
    plan = cfg.plan_for()
    if not (0 <= game_id < plan.games):
        raise RunFolderError(f"game {game_id} is not in run {str(run)!r}: games 0 to {plan.games - 1}")
    chunk = next((c for c in m["chunks"] if c["lo"] <= game_id < c["hi"]), None)
    if chunk is None or chunk["status"] != "done":
        raise RunFolderError(f"game {game_id} of run {str(run)!r} has not been played yet (run status {m['status']!r})")
    part = run / "games" / part_name(int(chunk["id"]))
    why = part_problem(run, "games", chunk, players=cfg.players)  # file, footer, rows, size, sha256, invariants
    if why is not None:
        raise _unchecked(part, why, game_id, run)
    return cfg, plan, part


def _decision_lines(game, state, strategies: list, seat_keys: list) -> Iterator[str]:
    """Play the batch-of-one ``state`` to its end with ``strategies`` (one per seat; ``seat_keys`` their
    decision stream keys), yielding a line per decision (ply, seat, ``describe_action``), per event
    (``describe_event``) and a header whenever a round (Cycle) begins."""
    espec = game.event_spec()
    names = [c.name for c in espec.columns]
    idx = np.zeros(1, np.int64)
    # a header line whenever a new round (Cycle) begins: games that can say what its start does
    # define describe_round(state, g); the round is the games table's count of finished rounds + 1
    header = (getattr(game, "describe_round", None)
              or (lambda st, g: f"--- Round {int(game.progress(st)[1][g]) + 1} ---"))
    round_col = next((n for n in ("cycle", "round") if n in names), None)  # events that know their round
    rounds = int(game.progress(state)[1][0])
    yield header(state, 0)
    while not game.done(state)[0]:
        mask = game.legal_action_mask(state)
        seat = int(game.to_act(state)[0])
        a = int(strategies[seat].act(View(game, state, idx, seat), mask, StrategyRNG.for_decision(seat_keys[seat], state.ply))[0])
        line = f"ply {int(state.ply[0]):4d}  seat {seat + 1}: {game.describe_action(state, 0, a)}"
        game.step(state, np.array([a]), mask)
        yield line
        _, raw = drain(state.event_buf, state.event_n, state.game_id)
        rows = [{c.name: (c.vocab[v] if c.vocab else int(v)) for c, v in zip(espec.columns, r)} for r in raw]
        now = int(game.progress(state)[1][0])
        new_round = now != rounds and not game.done(state)[0]
        # events of the new round's start (stamped with a later round than the one that ended) go under its header
        starts = [new_round and round_col is not None and r[round_col] > rounds + 1 for r in rows]
        for r, late in zip(rows, starts):
            if not late:
                yield "            " + game.describe_event(r)
        if new_round:
            rounds = now
            yield header(state, 0)
        for r, late in zip(rows, starts):
            if late:
                yield "            " + game.describe_event(r)
        state.turn_n[:] = 0


def _score_lines(scores, part: Path, game_id: int, run: Path) -> Iterator[str]:
    """The replay's final ``scores`` (VP per seat) and whether they equal those the games ``part`` logged for
    ``game_id``.

    Raises:
        RunFolderError: the part does not read (:func:`_unchecked`).
    """
    yield "final scores: " + ", ".join(f"seat {s + 1} {int(v)} VP" for s, v in enumerate(scores))
    try:
        logged = (pl.scan_parquet(str(part)).filter(pl.col("game") == game_id)
                  .sort("seat").select("vp").collect()["vp"].to_list())
    except Exception as e:  # the part went bad after the check above (its footer read, its data did not)
        raise _unchecked(part, f"is unreadable ({type(e).__name__})", game_id, run) from None
    if logged and logged != [int(v) for v in scores]:
        yield (f"WARNING: logged final scores {logged} in {str(part)!r} differ from the replay's "
               f"{[int(v) for v in scores]}: the part matches its manifest, so this code plays the game otherwise "
               "than the code that wrote it (the manifest's versions)")
    elif logged:
        yield "(matches the logged final scores)"
    else:
        yield "(the games table holds no row for this game: not checked)"


def _unchecked(part: Path, why: str, game_id: int, run: Path) -> RunFolderError:
    """The one-line error for a games part the replay cannot check its final scores against."""
    what = "is missing" if why == "missing" else why
    return RunFolderError(f"games part {str(part)!r} {what}: game {game_id} cannot be checked against its logged "
                          f"final scores; repair the run with: {resume_hint(run)}")
