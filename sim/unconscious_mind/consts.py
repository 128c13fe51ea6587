"""Names of the kernels' integer constants: one ``int64`` vector ``C`` per (game, player count).

``C[X_o_<array>]`` is the offset of a content array in ``K`` (``X_n_``/``X_w_``/``X_w2_`` its dims),
``C[X_so_<field>]`` the offset of a state field in a row of ``M`` (``X_sd1_``/``X_sw_`` its dims), and
``C[X_<name>]`` a scalar rule parameter. The ``X_*`` indices are module constants numba folds in.
"""

from __future__ import annotations

from .state import FIELD_NAMES

CONTENT_ARRAYS = (
    "effects", "act_row", "act_move", "space_act", "ink_kind", "ink_row", "ink_gen", "ink_idea", "sec_first",
    "sec_reward", "sec_action", "tile_level", "tile_main", "tile_banner", "tiles_per_level", "card_col", "card_tag",
    "card_eff", "tr_len", "tr_cols", "tr_vp", "tr_cite_vp", "tr_tags", "cl_kind", "cl_start", "cl_sym", "cl_vp",
    "cl_tag", "cl_cath", "cl_abil", "cl_end", "dr_kind", "dr_cq", "dr_cl", "dr_eff", "dr_sym", "dist_rew",
    "loc_dist", "loc_eff", "loc_bon", "goal_cond", "goal_rep", "goal_tag",
    # parameters that are tuples
    "tile_cost", "empty_vp", "icon_req", "dist_thr", "face_lines", "rep_vp", "district_vp", "rows_vp", "tags_vp",
)
SCALARS = (
    "full_rep", "row_elev", "col_lvl", "ins_elev", "ins_xfer", "play_max", "cite_bright", "prof_max", "freud_max",
    "loc_cap", "loc_bright", "conv_coffee", "recall_coffee", "ther_max", "cath_space", "sym_hearts", "dist_tokens",
    "dist_rep_tokens", "track_len", "end_vp", "track_first", "track_second", "heart_vp", "coffee_per_bright",
    "bright_vp", "round_limit", "solo_every", "limit_stop",
)
CONST_FIELDS = (tuple(f"{k}_{a}" for a in CONTENT_ARRAYS for k in ("o", "n", "w", "w2")) +
                 tuple(f"{k}_{f}" for f in FIELD_NAMES for k in ("so", "sd1", "sw")) + SCALARS)


for _i, _n in enumerate(CONST_FIELDS):
    globals()["X_" + _n] = _i


def _signature() -> int:
    import hashlib

    from . import actions
    text = ",".join(CONST_FIELDS) + f"|{actions.PLACE0},{actions.MODE0},{actions.POS0},{actions.XFER0},"
    text += f"{actions.CH0},{actions.CARD0},{actions.NUM_ACTIONS}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


X_LAYOUT_HASH = _signature()
"""Hash of the names above; compiled into ``rules.layout_signature`` to detect a stale numba cache."""
