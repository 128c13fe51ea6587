"""Each engine's action vocabulary (sim/core/actions.py): named families with encode, decode and labels, the one
decoding of an action id."""

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


def test_a_choice_id_is_named_by_its_meaning_under_each_decision():
    """The ``choice`` ids mean what the pending decision says; each decision declares its parts once."""
    v = um.VOCAB
    assert v.label(um.CH0 + 4) == "choice:4"  # no decision: the offset label
    assert v.label(um.CH0 + 4, "D_NEWCLIENT") == "case:1" and v.decode(um.CH0 + 4, "D_NEWCLIENT") == ("case", (1,))
    assert v.label(um.CH0 + 5, "D_PROF") == "to-freud" and v.label(um.CH0 + 5, "D_MANIFEST") == "dream:deck"
    assert v.label(um.CH0 + 9, "D_RECALLB") == "district:professor:slot3"
    assert v.label(um.CH0 + 3, "D_LOCTRIG") == "trigger:per-tag:bright"
    assert v.label(um.CH0 + 4, "D_COLOUR") == "colour:freedom:minor"
    # the kernels' constants are the parts' first ids, the offsets the rules always used
    assert (um.CH_TO_FREUD, um.CH_DREAM_DECK, um.CH_CASE, um.CH_RECALL_DISTRICT, um.CH_PLACE_REPLACE, um.CH_COLOUR_RING) \
        == (um.CH0 + 5, um.CH0 + 5, um.CH0 + 3, um.CH0 + 6, um.CH0 + 3, um.CH0 + 1)
    assert v.choice_ids("D_NEWCLIENT", "case") == [um.CH0 + 3, um.CH0 + 4, um.CH0 + 5]
    assert v.choice("D_LOCTRIG", "trigger", 1, 0) == um.CH0 + 2
    for decision, sub in v.choices.items():  # every choice of a decision has one label there, none clash
        labels = [v.label(um.CH0 + k, decision) for k in range(sub.num_actions)]
        assert len(set(labels)) == len(labels), decision
        assert not set(labels) & {v.label(a) for a in range(v.num_actions) if not um.CH0 <= a < um.CARD0}, decision
    with pytest.raises(ValueError, match="is no choice of D_ORDER"):
        v.decode(um.CH0 + 2, "D_ORDER")
    with pytest.raises(KeyError, match="no choices declared for decision 'D_MODE'"):
        v.choice("D_MODE", "row")
    # Galileo's Truth's two-way choice
    assert gt.VOCAB.label(gt.A_KEEP, "P_OORDER") == "space-icons-first" and gt.A_TILE_FIRST == gt.A_KEEP + 1
    assert gt.VOCAB.label(gt.A_KEEP + 1, "P_OKEEP") == "keep-tile:1" and gt.VOCAB.label(gt.A_KEEP) == "choice:0"


def test_a_vocabulary_refuses_choices_that_do_not_fit_their_family():
    with pytest.raises(ValueError, match="decision D_X: its choices take 3 ids, the 'choice' family has 2"):
        Vocabulary((Family("choice", (2,)),), {"D_X": (Family("row", (3,)),)})
