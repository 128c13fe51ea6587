"""The slow-tier list (tests/slow_tier.txt, tests/slow_tier.py) names tests that exist, and is read as written."""

from __future__ import annotations

from tests.slow_tier import FILE, from_durations, listed


def test_every_listed_test_exists_in_the_collected_files(request):
    collected = request.config.meeplelab_collected
    files = {n.split("::")[0] for n in collected}
    gone = [n for n in listed() if n.split("::")[0] in files and n not in collected]
    assert gone == [], f"{FILE.name} names tests that no longer exist: {gone[:3]}"
    assert len(listed()) >= 50


def test_durations_lines_are_read_with_their_full_node_ids():
    text = ("============================= slowest 3 durations =============================\n"
            "17.32s call     tests/test_retune.py::test_a[heuristic,writer-50---retune 50: one re-tuning plays]\n"
            "1.49s setup    tests/test_b.py::test_b\n"
            "2.00s teardown tests/test_c.py::test_c\n")
    assert from_durations(text) == {"tests/test_retune.py::test_a[heuristic,writer-50---retune 50: one re-tuning plays]": 17.32}
