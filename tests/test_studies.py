"""The built-in robustness studies play real games: every lineup's strategies exist, every conclusion is
measured from the panels it names, and the Unconscious Mind Coffee treatment adds exactly one Coffee."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meeplelab.analysis.studies import study_for
from meeplelab.analysis.robustness import conclusion_values
from meeplelab.sim.registry import get_game_class, make_game
from meeplelab.studies.robustness import evaluate_point


@pytest.mark.parametrize("game,n", [("galileos-truth", 25), ("unconscious-mind", 17)])
def test_every_conclusion_is_measured_on_real_games(game, n):
    st = study_for(game)
    assert len(st.lineups) == n
    g = evaluate_point(get_game_class(game), {}, st.lineups, 2, 3)
    assert g["lineup"].n_unique() == n
    vals = conclusion_values(st, [g])
    for c in st.conclusions:
        q, se = vals[c.name]["q"][0], vals[c.name]["se"][0]
        assert math.isfinite(q) and math.isfinite(se), c.name
        assert set(c.panels) <= set(g["panel"].unique().to_list())
        text = c.statement(vals[c.name]["frame"], q)
        assert text and "nan" not in text
    # paired effects pair one row per (rotation, game): 4 rotations x 2 games
    paired = [c for c in st.conclusions if c.name.startswith(("abjure-cycle", "coffee", "citation"))]
    assert paired and all(vals[c.name]["n"][0] == 8 for c in paired)


def test_the_coffee_treatment_gives_the_treated_seat_one_coffee_at_setup():
    from meeplelab.play.panels import treatment_fn  # loads the game's registered treatments (its spec's module)

    game = make_game("unconscious-mind")
    state = game.init(np.arange(3), 0, 4)
    before = np.array(state.coffee, copy=True)
    treatment_fn("unconscious-mind", "coffee+1")(game, state, np.array([0, 2]), 1)
    diff = np.asarray(state.coffee) - before
    assert diff[:, 1].tolist() == [1, 0, 1] and (np.delete(diff, 1, axis=1) == 0).all()


def test_variant_panels_seat_the_focal_strategy_where_the_control_sat():
    st = study_for("galileos-truth")
    by = {(lu.panel, lu.rot): lu for lu in st.lineups}
    for r in range(4):
        field = by[("field-4", r)].strategies
        for c in range(1, 5):
            v = by[(f"abjure-{c}", r)].strategies
            assert [a if a != "never-abjure" else f"abjure-at:cycle={c}" for a in field] == list(v)
    seats = {lu.strategies.index("never-abjure") for lu in st.lineups if lu.panel == "field-4"}
    assert seats == {0, 1, 2, 3}
