"""The readings of the assumed City content: A-UM-26 (``location_effects``: how the resolutions of a Location pick
among its 3 effects) and A-UM-16 (``location_vp_effect``: the Locations' ``vp 1`` read as ``coffee 1``)."""

from __future__ import annotations

import numpy as np
import pytest
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.unconscious_mind import UnconsciousMind
from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.content import LOCATIONS

from .positions import start

CAFE = LOCATIONS.index(
    "cafe"
)  # effects: coffee 1, generate growth minor, vp 1 (city.toml)
EFFECTS = ["location-effect:0", "location-effect:1", "location-effect:2"]


def _game(**overrides) -> UnconsciousMind:
    return UnconsciousMind(params=apply_overrides(UnconsciousMind.Params(), overrides))


def _five_resolutions(game):
    """Seat 0 of a 4-seat game triggers the cafe once per figure: 4 Professors and Freud there, 5 resolutions."""
    pos = start(players=4, game=game).set(freud_loc=CAFE)
    for p in range(4):
        pos.set(seat=p, prof_loc=CAFE)
    pos.give("decision", "D_LOCTRIG", CAFE)
    return pos.act("trigger:per-figure:plain")


def _effect_options(pos) -> list[str]:
    return (
        [a for a in pos.legal() if a.startswith("location-effect:")]
        if pos.pending().decision == "D_LOCEFF"
        else []
    )


@pytest.mark.parametrize(
    "reading, picks, offered",
    [
        # any: all three effects at every one of the 5 resolutions, the same one again included
        ("any", [2, 2, 2, 2, 2], [EFFECTS] * 5),
        # distinct: each effect once, the resolutions past the third are lost (the decision is skipped)
        ("distinct", [2, 0, 1], [EFFECTS, EFFECTS[:2], EFFECTS[1:2]]),
        # order: no choice, the printed order 1-2-3-1-2
        ("order", [0, 1, 2, 0, 1], [[EFFECTS[k]] for k in (0, 1, 2, 0, 1)]),
    ],
)
def test_location_effects_reading_decides_what_each_resolution_may_take(
    reading, picks, offered
):
    pos = _five_resolutions(_game(location_effects=reading))
    vp0, coffee0 = pos.get("vp", seat=0), pos.get("coffee", seat=0)
    for k, allowed in zip(picks, offered):
        assert _effect_options(pos) == allowed
        pos.act(EFFECTS[k])
    assert _effect_options(pos) == []  # every resolution used (or lost)
    assert pos.get("vp", seat=0) - vp0 == picks.count(2)
    assert pos.get("coffee", seat=0) - coffee0 == picks.count(0)


def test_location_vp_read_as_coffee_changes_only_the_four_location_vp_effects():
    base, coffee = _game(), _game(location_vp_effect="coffee")
    eb, ec = base.A["effects"], coffee.A["effects"]
    lb, lc = base.A["loc_eff"], coffee.A["loc_eff"]
    vp_b = eb[lb][..., 0, 0] == R.OP_VP
    assert vp_b.sum() == 4  # 4 of the 6 Locations print 'vp 1' (A-UM-16)
    assert not (ec[lc][..., 0, 0] == R.OP_VP).any()
    assert (ec[lc][vp_b][:, 0, :] == [R.OP_COFFEE, 1, 0]).all()
    assert (lc[~vp_b] == lb[~vp_b]).all()  # the other Location effects keep their rows
    for name in (
        "loc_bon",
        "dist_rew",
        "card_eff",
        "tile_main",
        "tile_banner",
        "sec_reward",
    ):
        assert np.array_equal(eb[base.A[name]], ec[coffee.A[name]]), (
            name
        )  # no other content changes
    assert [coffee.content.effect_text[i] for i in lc[vp_b]] == ["coffee 1"] * 4


def test_location_vp_read_as_coffee_scores_coffee_not_vp():
    pos = _five_resolutions(_game(location_vp_effect="coffee"))
    vp0, coffee0 = pos.get("vp", seat=0), pos.get("coffee", seat=0)
    for _ in range(5):
        pos.act(EFFECTS[2])
    assert (pos.get("vp", seat=0) - vp0, pos.get("coffee", seat=0) - coffee0) == (0, 5)
