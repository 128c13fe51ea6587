"""Games identical on fixed seeds: the golden table hashes of ``tests/golden.py`` (re-recorded only by a
change meant to alter games, with ``python -m tests.golden --update``)."""

import json

import pytest

from tests.golden import CASES, GOLDEN, case_id, play_case

RECORDED = json.loads(GOLDEN.read_text())


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(case_id(c) for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_games_turns_and_events_match_the_golden_hashes(case):
    assert play_case(case) == RECORDED[case_id(case)]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_python_loop_path_gives_the_same_games_as_the_compiled_path(case):
    # compiled plans are played inside the engine's play kernel by default; on the Python loop they
    # choose through the same tables: the games must not change
    assert play_case(case, compiled=False) == RECORDED[case_id(case)]
