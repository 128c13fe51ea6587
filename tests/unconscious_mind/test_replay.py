"""The Unconscious Mind replay in words: content ids in action and event lines alike, round headers."""

from __future__ import annotations

import re

import polars as pl
import pytest

from meeplelab.analysis.replay import replay_text
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("um_replay") / "run"
    simulate(RunConfig(game="unconscious-mind", players=4, strategies=("random",), games=8, seed=1, batch_size=8,
                       n_jobs=1, out=str(out)))
    return out


def _plies(lines):
    """``[(action line, [event lines])]`` of a replay."""
    out = []
    for ln in lines:
        if ln.startswith("ply"):
            out.append((ln, []))
        elif ln.startswith("            ") and out:
            out[-1][1].append(ln.strip())
    return out


def test_action_and_event_lines_name_cards_and_clients_by_the_same_content_id(run_dir):
    cards = clients = 0
    for gid in range(8):
        lines = list(replay_text(run_dir, gid))
        for act, evs in _plies(lines):
            m = re.search(r": play Research card (\S+)$", act)
            if m:
                assert f"plays Research card {m.group(1)}" in " | ".join(evs), (act, evs)
                cards += 1
            m = re.search(r": take (?:Routine|Case Study) client (\S+)$", act)
            if m:
                assert any(e.startswith(f"seat {act.split()[3].rstrip(':')} takes client {m.group(1)} into room")
                           for e in evs), (act, evs)
                clients += 1
        text = "\n".join(lines)
        # no index where a content id belongs, no 0-based Location
        assert not re.search(r"(Research card|client|Treatise|idea space) \d+\b", text)
        assert "now at Location" not in text and not re.search(r"\bseat 0\b", text)
    assert cards > 0 and clients > 0


def test_replay_prints_a_header_when_a_round_begins(run_dir):
    g = pl.read_parquet(str(run_dir / "games" / "*.parquet")).filter(pl.col("game") == 0)
    lines = list(replay_text(run_dir, 0))
    heads = [ln for ln in lines if ln.startswith("--- Round")]
    assert [int(h.split()[2]) for h in heads] == list(range(1, g["rounds"][0] + 1))
    assert heads[0] == "--- Round 1 begins: seat 1 opens ---"
    assert lines.index(heads[0]) < next(i for i, ln in enumerate(lines) if ln.startswith("ply"))
    # each header is followed by seat 1's decision (seat 1 opens every round)
    for h in heads:
        nxt = next(ln for ln in lines[lines.index(h) + 1:] if ln.startswith("ply"))
        assert " seat 1: " in nxt, (h, nxt)
    if any("the end is triggered (end_trigger)" in ln for ln in lines):
        assert heads[-1].endswith("(final round: no new clients): seat 1 opens ---")
