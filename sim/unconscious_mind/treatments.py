"""Unconscious Mind's setup treatments for panels (:func:`meeplelab.play.panels.register_treatment`).

Named in the game's spec (``GameSpec.treatments``), so every process that looks a treatment up (the
parent and every loky, thread or Dask worker) registers them, whatever it imported before. Declared as
data (:data:`TREATMENTS`): the engines never import the floor that runs games.
"""

from __future__ import annotations


def extra_coffee(game, state, rows, seat) -> None:
    """+1 Coffee at setup for ``seat`` in games ``rows`` (UM ``state.coffee[B, P]``)."""
    state.coffee[rows, seat] += 1


#: treatment name -> ``fn(game, state, rows, seat)``, registered for this game by
#: :func:`meeplelab.play.panels.load_treatments`
TREATMENTS = {"coffee+1": extra_coffee}
