"""Decision dispatchers of Unconscious Mind: route a decision kind to its legality or application handler.

Written by ``python -m meeplelab.sim.core.decisions meeplelab.sim.unconscious_mind.rules.decisions`` from its table;
``tests/test_decisions.py`` checks this file against it. Do not edit by hand.
"""

from numba import njit

from meeplelab.sim.unconscious_mind.codes import D_COLOUR, D_COLUMN, D_ELXF, D_FREE_TILE, D_FREUD, D_GATHER, D_GENANY, D_GENQ, D_HEARTS, D_INKPOT, D_LOCEFF, D_LOCTRIG, D_MANIFEST, D_MODE, D_NEWCLIENT, D_ORDER, D_PLACE, D_PLAYN, D_PROF, D_QUILL, D_RECALLB, D_REPACT, D_RESPLAY, D_SWAP, D_SWAP2, D_THERAPY, D_TILEORDER, D_TILE_SRC, D_TREAT, D_TURN, K_CLIENTS, K_EFFECT, K_FINISH, K_GENQL, K_INKPOT, K_INKPOT_START, K_PERFORM, K_PUBLISH
from meeplelab.sim.unconscious_mind.rules.turn_flow import legal_turn, apply_turn, finish_turn
from meeplelab.sim.unconscious_mind.rules.meeting_table import legal_mode, apply_mode, perform
from meeplelab.sim.unconscious_mind.rules.inkpot import legal_inkpot, apply_inkpot, legal_column, apply_column, legal_tileorder, apply_tileorder, auto_inkpot_start, auto_inkpot
from meeplelab.sim.unconscious_mind.rules.insight import legal_elxf, apply_elxf, legal_genq, apply_genq, legal_genany, apply_genany, legal_colour, apply_colour, auto_genql
from meeplelab.sim.unconscious_mind.rules.notebook import legal_tile_src, apply_tile_src, legal_order, apply_order, legal_free_tile, apply_free_tile, legal_place, apply_place
from meeplelab.sim.unconscious_mind.rules.research import legal_swap, apply_swap, legal_swap2, apply_swap2, legal_resplay, apply_resplay, legal_playn, apply_playn
from meeplelab.sim.unconscious_mind.rules.treatises import legal_quill, apply_quill, legal_gather, apply_gather, publish_finish
from meeplelab.sim.unconscious_mind.rules.city import legal_prof, apply_prof, legal_freud, apply_freud, legal_loctrig, apply_loctrig, legal_loceff, apply_loceff, legal_recallb, apply_recallb
from meeplelab.sim.unconscious_mind.rules.reputation import legal_repact, apply_repact
from meeplelab.sim.unconscious_mind.rules.clients import legal_treat, apply_treat, legal_therapy, apply_therapy, legal_hearts, apply_hearts, legal_newclient, apply_newclient, legal_manifest, apply_manifest, end_clients
from meeplelab.sim.unconscious_mind.rules.effects import run_effect


@njit(cache=True, _nrt=False)
def legal(kind, S, C, prm, g, p, a, b, out):
    """Fill the legal action mask of one game waiting for decision ``kind``."""
    if kind == D_TURN:
        legal_turn(S, C, prm, g, p, a, b, out)
    elif kind == D_MODE:
        legal_mode(S, C, prm, g, p, a, b, out)
    elif kind == D_INKPOT:
        legal_inkpot(S, C, prm, g, p, a, b, out)
    elif kind == D_ELXF:
        legal_elxf(S, C, prm, g, p, a, b, out)
    elif kind == D_GENQ:
        legal_genq(S, C, prm, g, p, a, b, out)
    elif kind == D_TILE_SRC:
        legal_tile_src(S, C, prm, g, p, a, b, out)
    elif kind == D_ORDER:
        legal_order(S, C, prm, g, p, a, b, out)
    elif kind == D_FREE_TILE:
        legal_free_tile(S, C, prm, g, p, a, b, out)
    elif kind == D_PLACE:
        legal_place(S, C, prm, g, p, a, b, out)
    elif kind == D_SWAP:
        legal_swap(S, C, prm, g, p, a, b, out)
    elif kind == D_SWAP2:
        legal_swap2(S, C, prm, g, p, a, b, out)
    elif kind == D_RESPLAY:
        legal_resplay(S, C, prm, g, p, a, b, out)
    elif kind == D_PLAYN:
        legal_playn(S, C, prm, g, p, a, b, out)
    elif kind == D_QUILL:
        legal_quill(S, C, prm, g, p, a, b, out)
    elif kind == D_GATHER:
        legal_gather(S, C, prm, g, p, a, b, out)
    elif kind == D_PROF:
        legal_prof(S, C, prm, g, p, a, b, out)
    elif kind == D_FREUD:
        legal_freud(S, C, prm, g, p, a, b, out)
    elif kind == D_LOCTRIG:
        legal_loctrig(S, C, prm, g, p, a, b, out)
    elif kind == D_LOCEFF:
        legal_loceff(S, C, prm, g, p, a, b, out)
    elif kind == D_COLUMN:
        legal_column(S, C, prm, g, p, a, b, out)
    elif kind == D_GENANY:
        legal_genany(S, C, prm, g, p, a, b, out)
    elif kind == D_COLOUR:
        legal_colour(S, C, prm, g, p, a, b, out)
    elif kind == D_TILEORDER:
        legal_tileorder(S, C, prm, g, p, a, b, out)
    elif kind == D_REPACT:
        legal_repact(S, C, prm, g, p, a, b, out)
    elif kind == D_RECALLB:
        legal_recallb(S, C, prm, g, p, a, b, out)
    elif kind == D_TREAT:
        legal_treat(S, C, prm, g, p, a, b, out)
    elif kind == D_THERAPY:
        legal_therapy(S, C, prm, g, p, a, b, out)
    elif kind == D_HEARTS:
        legal_hearts(S, C, prm, g, p, a, b, out)
    elif kind == D_NEWCLIENT:
        legal_newclient(S, C, prm, g, p, a, b, out)
    elif kind == D_MANIFEST:
        legal_manifest(S, C, prm, g, p, a, b, out)
    else:
        raise RuntimeError("no legal handler for this decision kind")


@njit(cache=True, _nrt=False)
def apply(kind, S, C, prm, g, p, act, a, b, c):
    """Apply the action of one game waiting for decision ``kind``."""
    if kind == D_TURN:
        apply_turn(S, C, prm, g, p, act, a, b, c)
    elif kind == D_MODE:
        apply_mode(S, C, prm, g, p, act, a, b, c)
    elif kind == D_INKPOT:
        apply_inkpot(S, C, prm, g, p, act, a, b, c)
    elif kind == D_ELXF:
        apply_elxf(S, C, prm, g, p, act, a, b, c)
    elif kind == D_GENQ:
        apply_genq(S, C, prm, g, p, act, a, b, c)
    elif kind == D_TILE_SRC:
        apply_tile_src(S, C, prm, g, p, act, a, b, c)
    elif kind == D_ORDER:
        apply_order(S, C, prm, g, p, act, a, b, c)
    elif kind == D_FREE_TILE:
        apply_free_tile(S, C, prm, g, p, act, a, b, c)
    elif kind == D_PLACE:
        apply_place(S, C, prm, g, p, act, a, b, c)
    elif kind == D_SWAP:
        apply_swap(S, C, prm, g, p, act, a, b, c)
    elif kind == D_SWAP2:
        apply_swap2(S, C, prm, g, p, act, a, b, c)
    elif kind == D_RESPLAY:
        apply_resplay(S, C, prm, g, p, act, a, b, c)
    elif kind == D_PLAYN:
        apply_playn(S, C, prm, g, p, act, a, b, c)
    elif kind == D_QUILL:
        apply_quill(S, C, prm, g, p, act, a, b, c)
    elif kind == D_GATHER:
        apply_gather(S, C, prm, g, p, act, a, b, c)
    elif kind == D_PROF:
        apply_prof(S, C, prm, g, p, act, a, b, c)
    elif kind == D_FREUD:
        apply_freud(S, C, prm, g, p, act, a, b, c)
    elif kind == D_LOCTRIG:
        apply_loctrig(S, C, prm, g, p, act, a, b, c)
    elif kind == D_LOCEFF:
        apply_loceff(S, C, prm, g, p, act, a, b, c)
    elif kind == D_COLUMN:
        apply_column(S, C, prm, g, p, act, a, b, c)
    elif kind == D_GENANY:
        apply_genany(S, C, prm, g, p, act, a, b, c)
    elif kind == D_COLOUR:
        apply_colour(S, C, prm, g, p, act, a, b, c)
    elif kind == D_TILEORDER:
        apply_tileorder(S, C, prm, g, p, act, a, b, c)
    elif kind == D_REPACT:
        apply_repact(S, C, prm, g, p, act, a, b, c)
    elif kind == D_RECALLB:
        apply_recallb(S, C, prm, g, p, act, a, b, c)
    elif kind == D_TREAT:
        apply_treat(S, C, prm, g, p, act, a, b, c)
    elif kind == D_THERAPY:
        apply_therapy(S, C, prm, g, p, act, a, b, c)
    elif kind == D_HEARTS:
        apply_hearts(S, C, prm, g, p, act, a, b, c)
    elif kind == D_NEWCLIENT:
        apply_newclient(S, C, prm, g, p, act, a, b, c)
    elif kind == D_MANIFEST:
        apply_manifest(S, C, prm, g, p, act, a, b, c)
    elif kind == K_EFFECT:
        run_effect(S, C, prm, g, p, act, a, b, c)
    elif kind == K_PERFORM:
        perform(S, C, prm, g, p, act, a, b, c)
    elif kind == K_INKPOT_START:
        auto_inkpot_start(S, C, prm, g, p, act, a, b, c)
    elif kind == K_INKPOT:
        auto_inkpot(S, C, prm, g, p, act, a, b, c)
    elif kind == K_PUBLISH:
        publish_finish(S, C, prm, g, p, act, a, b, c)
    elif kind == K_CLIENTS:
        end_clients(S, C, prm, g, p, act, a, b, c)
    elif kind == K_FINISH:
        finish_turn(S, C, prm, g, p, act, a, b, c)
    elif kind == K_GENQL:
        auto_genql(S, C, prm, g, p, act, a, b, c)
    else:
        raise RuntimeError("no apply handler for this decision kind")
