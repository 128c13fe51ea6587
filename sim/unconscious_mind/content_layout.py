"""The content and rule parameters Unconscious Mind's kernels read, declared as entity groups (meeplelab.sim.core.layout).

The kernels get the content groups stacked into one array ``S.K[group, row, column]`` (``int64``, padded to the
longest group; one array instead of six keeps numba's compile short): ``S.K[KCARD, c, CARD_COL]`` is Research
card c's Volume colour, ``S.K[KBOARD, i, LOC_DIST]`` Location i's district. The ``par`` group is the parameter
vector ``C``: ``C[I_ROUND_LIMIT]`` the round limit. Filled by ``UnconsciousMind._kernel_content`` from the validated content files and the
:class:`~meeplelab.sim.unconscious_mind.params.Params`. Column constants: :mod:`meeplelab.sim.unconscious_mind.kcols`, written by
``python -m meeplelab.sim.core.layout meeplelab.sim.unconscious_mind.content_layout:CONTENT sim/unconscious_mind/kcols.py``.
"""

from __future__ import annotations

from meeplelab.sim.core.layout import Field, Group, Layout

from .state import MAX_VOLUMES

F = Field

COLS_DOC = ("Column constants of Unconscious Mind's content and parameters (meeplelab.sim.unconscious_mind.content_layout.CONTENT);\n"
            "the kernels read the groups stacked as S.K[group, row, COLUMN] (S.K[KCARD, c, CARD_COL]) and C[I_ROUND_LIMIT].")

CONTENT = Layout((
    Group("kcard", "cards", (
        F("card_col", doc="Volume colour (content.COLOURS)"), F("card_tag", doc="Location tag"),
        F("card_eff", doc="effect row of the card's bottom"),
    ), doc="one Research card (research.toml)"),
    Group("ktr", "treatises", (
        F("tr_len", doc="Volumes"), F("tr_cols", (MAX_VOLUMES,), init=-1, doc="colour of each Volume, -1 none"),
        F("tr_vp", doc="VP for publishing"), F("tr_cite_vp", doc="VP per cited Volume (Params.cite_vp_per_volume)"),
        F("tr_tags", (2,), doc="Location tags"),
    ), doc="one Treatise (treatises.toml)"),
    Group("kclient", "clients", (
        F("cl_kind", doc="0 Routine, 1 Case Study"), F("cl_start", doc="therapy start (hearts + grief)"),
        F("cl_sym", doc="grief symbol"), F("cl_vp", doc="VP when cured"), F("cl_tag", doc="Location tag"),
        F("cl_cath", doc="effect row of the catharsis bonus"), F("cl_abil", doc="effect row of the ability"),
        F("cl_end", (2, 2), doc="end-scoring effects [k, (opcode, n)]"),
    ), doc="one client (clients.toml)"),
    Group("kdream", "dreams", (
        F("dr_kind", doc="0 latent, 1 manifest"), F("dr_cq", doc="cost quality (3 any)"), F("dr_cl", doc="cost level"),
        F("dr_eff", doc="effect row"), F("dr_sym", doc="symbol"),
    ), doc="one dream card (dreams.toml)"),
    Group("ktile", "tiles", (
        F("tile_level", doc="0 level I, 1 level II"), F("tile_main", doc="effect row of the main effect"),
        F("tile_banner", doc="effect row of the banner effect"),
    ), doc="one Notebook tile (notebook.toml)"),
    Group("kboard", "board", (
        F("space_mt", (4,), init=-1, doc="idea space i: Meeting Table action of each pointing direction"),
        F("act_row", doc="Meeting Table action i: its Notebook row"), F("act_move", doc="action i: inkpot move"),
        F("loc_dist", doc="Location i: its district"), F("loc_eff", (3,), doc="Location i: effect rows"),
        F("loc_bon", (3,), doc="Location i: bonus effect rows"),
        F("ink_kind", doc="inkpot space i: kind (codes.INK_*)"), F("ink_nb_row", doc="inkpot space i: the Notebook row it activates"),
        F("ink_gen", doc="inkpot space i: Generate effect row"), F("ink_idea", doc="inkpot space i: gains an Idea"),
        F("sec_first", doc="reputation-track section i: first space"),
        F("sec_reward", doc="section i: reward effect row"), F("sec_action", doc="section i: action effect row"),
        F("dist_rew", (4,), doc="district i: slot reward effect rows"),
        F("goal_cond", (3,), doc="goal tile i: condition (opcode, a, n)"), F("goal_rep", doc="goal tile i: reputation"),
        F("goal_tag", doc="goal tile i: Location tag"),
    ), doc="row i of each small board table (idea spaces, Meeting Table actions, Locations, inkpot spaces, "
           "reputation-track sections, districts, goal tiles; board.toml, city.toml)"),
    Group("par", None, (
        F("n_spaces"), F("n_inkpots"), F("n_sections"), F("n_goal_tiles", doc="goal tiles in the content"),
        F("n_routine"), F("n_case"), F("n_latent"), F("n_manifest"),
        F("rdisp_n", doc="research_display"), F("trdisp_n", doc="treatise_display"),
        F("rdisp_cl_n", doc="routine_display"), F("cdisp_cl_n", doc="case_display"),
        F("mdisp_n", doc="manifest_display"), F("tiles_lvl", (2,), doc="Notebook tiles of level I / II"),
        F("full_rep", doc="notebook_full_reputation"), F("row_elev", doc="row_bonus_elevations"),
        F("col_lvl", doc="column_bonus_level"), F("ins_elev", doc="insight_elevations"),
        F("ins_xfer", doc="insight_transfers"), F("play_max", doc="research_play_max"),
        F("cite_bright", doc="cite_bright_ideas"), F("prof_max", doc="professor_max_move"),
        F("freud_max", doc="freud_max_move"), F("loc_cap", doc="location_cap"),
        F("loc_bright", doc="location_bright_bonus"), F("conv_coffee", doc="conversion_coffee"),
        F("recall_coffee", doc="recall_coffee_per_space"), F("ther_max", doc="therapy_max"),
        F("cath_space", doc="catharsis_space"), F("sym_hearts", doc="symbol_match_hearts"),
        F("dist_tokens", doc="district_tokens"), F("dist_rep_tokens", doc="district_rep_tokens"),
        F("track_len", doc="track_length"), F("end_vp", doc="end_trigger_vp"),
        F("track_first", doc="track_bonus_first"), F("track_second", doc="track_bonus_second"),
        F("heart_vp", doc="heart_box_vp"), F("coffee_per_bright", doc="coffee_per_bright"),
        F("bright_vp", doc="bright_vp"), F("round_limit", doc="round_limit"),
        F("solo_every", doc="solo_freud_every"), F("limit_stop", doc="1 if limit_round_trigger == 'stop'"),
        F("tile_cost", (3,), doc="tile_cost"), F("empty_vp", (3,), doc="empty_space_vp"),
        F("icon_req", (3,), doc="icon_cured_needed"), F("dist_thr", (4,), doc="district_thresholds"),
        F("n_face_lines", doc="len(face_lines)"), F("face_lines", (20,), doc="face_lines"),
        F("rep_vp", (21,), doc="reputation_vp (track_length + 1 values)"), F("district_vp", (4,), doc="district_vp"),
        F("rows_vp", (4,), doc="full_rows_vp"), F("tags_vp", (7,), doc="unique_tags_vp"),
    ), prefix="I_", doc="content sizes and rule parameters (meeplelab.sim.unconscious_mind.params.Params)"),
))

#: the first axis of the kernels' ``S.K``: one index per content group, in :data:`CONTENT` order
KCARD, KTR, KCLIENT, KDREAM, KTILE, KBOARD = 0, 1, 2, 3, 4, 5
K_GROUPS = ("kcard", "ktr", "kclient", "kdream", "ktile", "kboard")
