"""Unconscious Mind's setup treatments for panels (:func:`meeplelab.play.panels.register_treatment`).

Named in the game's spec (``GameSpec.treatments``), so every process that looks a treatment up (the
parent and every loky, thread or Dask worker) has them, whatever it imported before.
"""

from __future__ import annotations

from meeplelab.play.panels import register_treatment


def extra_coffee(game, state, rows, seat) -> None:
    """+1 Coffee at setup for ``seat`` in games ``rows`` (UM ``state.coffee[B, P]``)."""
    state.coffee[rows, seat] += 1


register_treatment("unconscious-mind", "coffee+1", extra_coffee)
