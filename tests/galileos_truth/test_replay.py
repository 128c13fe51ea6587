"""The Galileo's Truth replay in words: Cycle headers, Workshop slots from 1 (top), verbs."""

from __future__ import annotations

import re

import polars as pl
import pytest

from meeplelab.analysis.replay import replay_text
from meeplelab.play.config import RunConfig
from meeplelab.sim.galileos_truth.state import A_SLOT
from meeplelab.play.runner import simulate

from .helpers import new


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("gt_replay") / "run"
    simulate(RunConfig(game="galileos-truth", players=4, strategies=("abjure-at:cycle=2", "never-abjure", "writer",
                                                                      "suspicion-averse"),
                       games=6, seed=1, batch_size=6, n_jobs=1, out=str(out)))
    return out


def test_replay_prints_a_header_when_a_cycle_begins(run_dir):
    lines = list(replay_text(run_dir, 0))
    heads = [(i, ln) for i, ln in enumerate(lines) if ln.startswith("--- Cycle")]
    assert [int(re.match(r"--- Cycle (\d+) of 5", h).group(1)) for _, h in heads] == [1, 2, 3, 4, 5]
    assert heads[0][1] == "--- Cycle 1 of 5 (Period I) begins: Income, hands of 5; Seat 1 goes first ---"
    assert heads[2][1] == ("--- Cycle 3 of 5 (Period II) begins: hands and play areas discarded, Philosophers back, "
                           "Income, hands of 5; Seat 3 goes first ---")  # the first player rotates each Cycle
    assert heads[4][1].endswith("(Period III) begins: hands and play areas discarded, Philosophers back, Income, "
                                "hands of 5, no Abjure from now on; Seat 1 goes first ---")
    assert heads[0][0] < next(i for i, ln in enumerate(lines) if ln.startswith("ply"))
    # every pass names the Cycle of the header above it; the Inquisition flip is under the Cycle 3 header
    cycle = 0
    for ln in lines:
        if ln.startswith("--- Cycle"):
            cycle = int(ln.split()[2])
        m = re.search(r"passes for the rest of Cycle (\d+)", ln)
        if m:
            assert int(m.group(1)) == cycle, ln
        if "Inquisition token turns face up" in ln:
            assert cycle == 3
    # the first decision under each header is by the seat that goes first
    for i, h in heads:
        first = int(re.search(r"Seat (\d) goes first", h).group(1))
        nxt = next(ln for ln in lines[i + 1:] if ln.startswith("ply"))
        assert f"seat {first}:" in nxt, (h, nxt)
    g = pl.read_parquet(str(run_dir / "games" / "*.parquet")).filter(pl.col("game") == 0)
    assert len(heads) == g["rounds"][0]


def test_workshop_slots_count_from_one_at_the_top_and_copy_reads_copies():
    game, s = new(players=2)
    inv = int(s.workshop[0, 0])
    words = game.describe_action(s, 0, A_SLOT)
    assert words.endswith(f"creates the Invention {game.content.inv_ids[inv]} (Workshop slot 1 from the top)")
    assert "(Workshop slot 4 from the top)" in game.describe_action(s, 0, A_SLOT + 3)
    ev = {"kind": "invent", "seat": 0, "category": "-", "amount": 3, "item": inv, "target_seat": -1, "cycle": 1,
          "before": 0, "after": 0}
    name = game.content.inv_ids[inv]
    assert game.describe_event(ev) == f"Seat 1 creates the Invention {name} from Workshop slot 1 for 3 Coins"
    copy = {"kind": "copy", "seat": 1, "category": "treatise", "amount": 2, "item": 0, "target_seat": 2, "cycle": 4,
            "before": 3, "after": 0}
    b = game.content.board_ids[0]
    assert game.describe_event(copy) == f"Seat 2 copies Treatise {b} on seal space 4, Seat 3 scores 2 VP"
    write = {**copy, "kind": "write", "before": 0, "target_seat": 1, "amount": 5}
    assert game.describe_event(write) == f"Seat 2 writes Treatise {b} on seal space 1 for 5 VP"
    obs = {"kind": "observe", "seat": 0, "category": "observation", "amount": 1, "item": 0, "target_seat": -1,
           "cycle": 1, "before": 0, "after": 0}
    assert game.describe_event(obs).endswith("on Window row 1, column 1")


def test_replay_uses_no_zero_based_slot_and_no_copys(run_dir):
    text = "\n".join(ln for gid in range(6) for ln in replay_text(run_dir, gid))
    assert "copys" not in text and "Workshop slot 0" not in text
