"""Each engine's action vocabulary (sim/core/actions.py): named families with encode, decode and labels, the one
decoding of an action id (issue 25 item 6)."""

from __future__ import annotations

import pytest

from meeplelab.sim.core.actions import Family, Vocabulary
from meeplelab.sim.galileos_truth import state as gt
from meeplelab.sim.unconscious_mind import actions as um


@pytest.mark.parametrize("vocab", [gt.VOCAB, um.VOCAB], ids=["galileos-truth", "unconscious-mind"])
def test_every_id_decodes_to_its_family_and_encodes_back_with_a_unique_label(vocab):
    labels = set()
    for a in range(vocab.num_actions):
        name, idx = vocab.decode(a)
        assert vocab.encode(name, *idx) == a
        labels.add(vocab.label(a))
    assert len(labels) == vocab.num_actions
    with pytest.raises(ValueError, match=f"action {vocab.num_actions} out of range 0..{vocab.num_actions - 1}"):
        vocab.decode(vocab.num_actions)


def test_the_kernels_constants_are_the_families_first_ids():
    assert (um.PLACE0, um.MODE0, um.RECALL, um.DONE, um.POS0, um.XFER0, um.CH0, um.CARD0, um.NUM_ACTIONS) == (
        0, 64, 69, 72, 73, 82, 109, 133, 181)
    assert um.VOCAB.encode("place", 3, 1) == 13 and um.VOCAB.label(13) == "place:space3:dir1"
    assert um.VOCAB.decode(um.XFER0 + 5) == ("transfer", (0, 1, 2)) and um.VOCAB.label(um.XFER0 + 5) == \
        "transfer:growth:median->passion"
    assert (gt.A_GROUP, gt.A_SUBJ, gt.A_SEC, gt.A_OLEVEL, gt.A_KEEP, gt.A_CARD, gt.A_EFFECTS, gt.NUM_ACTIONS) == (
        6, 9, 13, 20, 23, 25, 187, 196)
    assert gt.VOCAB.label(gt.A_OLEVEL + 2) == "observe-level:3" and gt.VOCAB.label(gt.A_UPGRADE) == "upgrade-level"
    assert gt.VOCAB.decode(gt.A_WIN + 7) == ("window", (1, 3)) and gt.VOCAB.label(gt.A_ICON + 5) == "effect-icon:1:1"


def test_a_vocabulary_refuses_what_it_cannot_encode():
    v = Vocabulary((Family("pass"), Family("cell", (2, 3), "cell:r{0}c{1}")))
    assert v.num_actions == 7 and v.encode("cell", 1, 2) == 6 and v.label(6) == "cell:r1c2" and v.label(0) == "pass"
    with pytest.raises(ValueError, match="takes 2 indices"):
        v.encode("cell", 1)
    with pytest.raises(ValueError, match="index 3 out of range 0..2"):
        v.encode("cell", 0, 3)
    with pytest.raises(KeyError, match="no action family 'wall': known pass, cell"):
        v.start("wall")
    with pytest.raises(ValueError, match="declared twice"):
        Vocabulary((Family("pass"), Family("pass")))
    with pytest.raises(ValueError, match="names do not fit"):
        Family("x", (2,), None, (("a",),)) and Vocabulary((Family("x", (2,), None, (("a",),)),))
