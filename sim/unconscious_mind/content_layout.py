"""The content Unconscious Mind's kernels read, declared as entity groups (meeplelab.sim.core.layout).

The kernels get the content groups stacked into one array ``C.K[group, row, column]`` (``int64``, padded to the
longest group; one array instead of six keeps numba's compile short): ``C.K[KCARD, c, CARD_COL]`` is Research
card c's Volume colour, ``C.K[KBOARD, i, LOC_DIST]`` Location i's district; the ``cnt`` group holds the content's
sizes: ``C.cnt[I_N_SPACES]``. The rule numbers are not here: they are the parameter vector ``prm`` (``pcols.py``). Filled by ``UnconsciousMind._kernel_content`` from the validated content files and the
:class:`~meeplelab.sim.unconscious_mind.params.Params`. Column constants: :mod:`meeplelab.sim.unconscious_mind.kcols`, written by
``python -m meeplelab.sim.core.layout meeplelab.sim.unconscious_mind.content_layout:CONTENT sim/unconscious_mind/kcols.py``.
"""

from __future__ import annotations

from meeplelab.sim.core.layout import Field, Group, Layout

from .state import MAX_VOLUMES

F = Field

COLS_DOC = ("Column constants of Unconscious Mind's content (meeplelab.sim.unconscious_mind.content_layout.CONTENT);\n"
            "the kernels read the groups stacked as C.K[group, row, COLUMN] (C.K[KCARD, c, CARD_COL]) and the sizes as C.cnt[I_N_SPACES].")

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
    Group("cnt", None, (
        F("n_spaces", doc="idea spaces (board.toml)"), F("n_inkpots", doc="inkpot spaces"),
        F("n_sections", doc="reputation-track sections"), F("n_goal_tiles", doc="goal tiles in the content"),
        F("n_routine", doc="Routine clients"), F("n_case", doc="Case Study clients"),
        F("n_latent", doc="latent dreams"), F("n_manifest", doc="manifest dreams"),
        F("tiles_lvl", (2,), doc="Notebook tiles of level I / II"),
    ), prefix="I_", doc="content sizes (counts of the validated content files)"),
))

#: the first axis of the kernels' ``C.K``: one index per content group, in :data:`CONTENT` order
KCARD, KTR, KCLIENT, KDREAM, KTILE, KBOARD = 0, 1, 2, 3, 4, 5
K_GROUPS = ("kcard", "ktr", "kclient", "kdream", "ktile", "kboard")
