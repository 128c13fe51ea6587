"""Rule kernels of Unconscious Mind: one module per mechanism, scalar per-game numba code over the batch.

Each game carries a decision stack ``S.stk[g, i, STK_KIND..STK_C]`` (kind, a, b, c). Kinds ``D_*`` wait for
the seat's action; kinds ``K_*`` run automatically (codes in :mod:`meeplelab.sim.unconscious_mind.codes`). A turn starts
as the stack ``[K_FINISH, K_CLIENTS, D_HEARTS, D_TURN]`` (top last); every rule pushes its sub-steps on top.

Each decision kind has a legality handler (``legal_x``: fill the legal action mask) and an application handler
(``apply_x``; ``auto_x`` for a ``K_*`` kind) side by side in its mechanism's module:

===================  ========================================================================================
module               mechanism
===================  ========================================================================================
``turn_flow``        the turn choice, start / end of a turn, rounds, the end of the game (``D_TURN``, ``K_FINISH``)
``meeting_table``    placing Ideas and performing Meeting Table actions (``D_MODE``, ``K_PERFORM``)
``inkpot``           the inkpot rondel, row / column activations (``D_INKPOT``, ``D_COLUMN``, ``D_TILEORDER``, ...)
``insight``          the Insight dial (``D_ELXF``, ``D_GENQ``, ``D_GENANY``, ``D_COLOUR``, ``K_GENQL``)
``notebook``         Notebook tiles (``D_TILE_SRC``, ``D_ORDER``, ``D_FREE_TILE``, ``D_PLACE``)
``research``         Research cards (``D_SWAP``, ``D_SWAP2``, ``D_RESPLAY``, ``D_PLAYN``)
``treatises``        publishing and citing (``D_QUILL``, ``D_GATHER``, ``K_PUBLISH``)
``clients``          clients and dreams (``D_TREAT``, ``D_THERAPY``, ``D_HEARTS``, ``D_NEWCLIENT``, ...)
``city``             Locations, districts, goal tiles (``D_PROF``, ``D_FREUD``, ``D_LOCTRIG``, ``D_RECALLB``, ...)
``reputation``       the reputation clock (``D_REPACT``)
``effects``          the effect interpreter (``K_EFFECT``)
``scoring``          final scoring
``events``/``stack`` gains, payments and event rows; the decision stack
``loop``             mask, apply, advance, batch entry points and setup (the engine calls these)
===================  ========================================================================================

:mod:`.decisions` lists every kind once (:data:`.decisions.TABLE`); the two dispatchers ``legal`` and
``apply`` in :mod:`.dispatch` are written from it (``python -m meeplelab.sim.core.decisions
meeplelab.sim.unconscious_mind.rules.decisions``). A new decision kind: its code in ``codes.py``, its two handlers in
its mechanism's module, one row in the table, then re-write the dispatch module.

``S`` is :class:`meeplelab.sim.unconscious_mind.state.Arrays` (``S.seat[g, p, COFFEE]``; columns in
:mod:`meeplelab.sim.unconscious_mind.cols` and :mod:`meeplelab.sim.unconscious_mind.kcols`), ``C`` the ``int64`` parameter vector
(``prm[PRM_ROUND_LIMIT]``). Sizes come from array shapes (``S.card.shape[1]`` Research cards).
"""
