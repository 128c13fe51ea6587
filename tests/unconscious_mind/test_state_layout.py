"""Unconscious Mind's state and content tables (meeplelab.sim.unconscious_mind.state) against their written constants."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numpy as np

from meeplelab.sim.unconscious_mind import cols, content_layout, kcols, pcols, state
from meeplelab.sim.unconscious_mind.content_layout import KBOARD, KCARD

from .util import new

PKG = Path(state.__file__).parent


def _module_names(name: str) -> set[str]:
    tree = ast.parse((PKG / f"{name}.py").read_text())
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out.add(t.id)
                elif isinstance(t, ast.Tuple):
                    out |= {e.id for e in t.elts if isinstance(e, ast.Name)}
    return out


def test_written_content_columns_match_the_content_table():
    assert content_layout.CONTENT.check_module(kcols) == []
    ref = "meeplelab.sim.unconscious_mind.content_layout:CONTENT sim/unconscious_mind/kcols.py"
    assert content_layout.CONTENT.constants_source(content_layout.COLS_DOC, ref) == (PKG / "kcols.py").read_text(), (
        "sim/unconscious_mind/kcols.py is stale: python -m meeplelab.sim.core.generate")


def test_no_constant_name_means_two_things_in_the_kernels_namespace():
    # the kernels import codes, state columns, content columns, action ids and log columns side by side:
    # one name in two of them (INK_ROW: an inkpot kind and a column) would silently shadow the other
    mods = ("codes", "cols", "kcols", "actions", "logcols")
    names = {m: _module_names(m) for m in mods}
    clashes = {(a, b): names[a] & names[b] for i, a in enumerate(mods) for b in mods[i + 1:]
               if names[a] & names[b]}
    assert clashes == {}


def test_named_views_are_shaped_and_write_through_to_the_groups():
    gm, s = new(P=3, B=2)
    assert s.seat.shape == (2, 3, cols.SEAT_WIDTH) and s.game.shape == (2, cols.GAME_WIDTH)
    assert s.coffee.shape == (2, 3) and s.nb.shape == (2, 3, 9) and s.market.shape == (2, 2, 2)
    assert s.rdeck.shape == (2, len(gm.content.card_ids)) and s.tstack.shape[:2] == (2, 2)
    s.coffee[1, 2] = 17
    assert s.seat[1, 2, cols.COFFEE] == 17
    s.tstack[0, 1, 0] = 99
    assert s.pile[0, cols.TSTACK_II, 0] == 99
    s.dist_slot[1, 2, 3] = 1
    assert s.game[1, cols.DIST_SLOT + 2 * cols.DIST_SLOT_W + 3] == 1


def test_content_and_parameter_vector_hold_the_content_and_params():
    gm, _ = new()
    C, prm = gm.kernel_content, gm.param_vector
    c = 7
    assert C.K[KCARD, c, kcols.CARD_COL] == gm.A["card_col"][c]
    assert (C.K[KBOARD, :len(gm.A["ink_row"]), kcols.INK_NB_ROW] == gm.A["ink_row"]).all()
    assert C.cnt[kcols.I_N_SPACES] == len(gm.content.space_ids) and C.cnt[kcols.I_N_GOAL_TILES] == len(gm.content.goal_ids)
    p = gm.params
    assert prm[pcols.PRM_ROUND_LIMIT] == p.round_limit and prm[pcols.PRM_TRACK_LENGTH] == p.track_length
    assert tuple(prm[pcols.PRM_FACE_LINES:pcols.PRM_FACE_LINES + prm[pcols.PRM_FACE_LINES_N]]) == tuple(p.face_lines)
    assert np.array_equal(prm[pcols.PRM_REPUTATION_VP:pcols.PRM_REPUTATION_VP + p.track_length + 1], p.reputation_vp)
    stop = type(gm)(params=dataclasses.replace(p, limit_round_trigger="stop")).param_vector
    assert stop[pcols.PRM_LIMIT_ROUND_TRIGGER] == pcols.LIMIT_ROUND_TRIGGER_STOP == 1 and prm[pcols.PRM_LIMIT_ROUND_TRIGGER] == 0