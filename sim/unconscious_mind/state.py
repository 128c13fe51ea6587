"""Batch state of Unconscious Mind, declared once as entity groups (the convention of :mod:`meeplelab.sim.core.layout`).

:data:`LAYOUT` is the whole rule state of a batch: one integer array per entity, batch first.

============  ==========================  ==================================================================
group         shape                       one row is
============  ==========================  ==================================================================
``game``      ``[B, GAME_WIDTH]``         the game: turn structure, clock, Notebook market, City, publishing
``seat``      ``[B, P, SEAT_WIDTH]``      a seat: Coffee, VP, dial, Notebook, office rooms, Professor
``space``     ``[B, spaces, 4]``          a Meeting Table idea space
``card``      ``[B, cards, 3]``           a Research card
``treatise``  ``[B, treatises, 7]``       a Treatise tile
``client``    ``[B, clients, 2]``         a client
``goal``      ``[B, goals, 2]``           a Location goal tile in play
``stk``       ``[B, 48, 4]``              a pending-decision stack entry (kind, a, b, c)
``pile``      ``[B, 13, L]``              decks, displays and the two Notebook tile stacks
============  ==========================  ==================================================================

Kernels write ``S.seat[g, p, COFFEE] += n`` with the column constants of :mod:`meeplelab.sim.unconscious_mind.cols`
(written from this table by ``python -m meeplelab.sim.core.layout meeplelab.sim.unconscious_mind.state:LAYOUT
sim/unconscious_mind/cols.py``). Python code reads named views: ``state.coffee`` is ``[B, P]``,
``state.nb`` ``[B, P, 9]``, ``state.rdeck`` ``[B, cards]`` (see :class:`UMState`).

:data:`meeplelab.sim.unconscious_mind.content_layout.CONTENT` declares the content the kernels read as ``C``
(columns in :mod:`meeplelab.sim.unconscious_mind.kcols`): ``C.K[KCARD, c, CARD_COL]`` is card c's Volume colour; the rule
numbers are ``prm`` (:mod:`meeplelab.sim.unconscious_mind.pcols`): ``prm[PRM_ROUND_LIMIT]`` the round limit.

Dial positions: 0 = reserve, 1 + quality*3 + level (quality growth/freedom/passion, level minor/median/major).
Research card locations (``codes.L_*``): 0 deck, 1 display, 2 hand, 3 in play, 4 Volume of a Treatise.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from meeplelab.sim.core.layout import Field, Group, Layout, LayoutState, Pile

from .codes import CATS, L_DECK, L_TREATISE

STACK_DEPTH = 48
MAX_VOLUMES = 5   # content.MAX_VOLUMES: Volumes of the longest Treatise
N_LOCATIONS = 6   # content.LOCATIONS: the City loop
N_DISTRICTS = 3   # content: exactly 3 districts

COLS_DOC = "Column constants of Unconscious Mind's state groups (meeplelab.sim.unconscious_mind.state.LAYOUT)."

F = Field
LAYOUT = Layout((
    Group("game", None, (
        F("to_act", doc="seat whose decision is pending", lo=0, hi="P-1"),
        F("turn", doc="turns started"), F("rnd", init=1, doc="round", lo=1), F("over", doc="1 once the game ended", flag=True),
        F("end_trig", doc="1 once Freud reached the end of the reputation track", flag=True),
        F("last_round", doc="the round the game ends after (set when the end is triggered)"),
        F("sp", doc="entries on the decision stack"),
        F("t_opt", doc="turn option taken this turn (codes.OPT_*)"), F("t_act", init=-1, doc="Meeting Table action"),
        F("t_cspent", doc="Coffee spent this turn"), F("t_cgain", doc="Coffee gained this turn"),
        F("t_vp", doc="VP gained this turn"),
        F("rep_seq", doc="reputation steps so far (orders markers on one space)"),
        F("freud_rep", doc="Freud's reputation"),
        F("ttop", (2,), doc="tiles drawn from the level I / II Notebook tile stacks"),
        F("market", (2, 2), init=-1, doc="Notebook tile market [level, center/right], tile id or -1"),
        F("tdisc", doc="Notebook tiles discarded"),
        F("rtop", doc="Research cards drawn from the deck"), F("trtop", doc="Treatises drawn from the deck"),
        F("pub_t", init=-1, doc="Treatise being published, -1 none"),
        F("pub_fill", (MAX_VOLUMES,), init=-1, doc="Research card in each Volume slot of the Treatise published"),
        F("rtop_cl", doc="Routine clients drawn"), F("ctop_cl", doc="Case Study clients drawn"),
        F("ltop", doc="latent dreams drawn"), F("mtop", doc="manifest dreams drawn"),
        F("dr_gone", doc="dream cards out of the game"),
        F("freud_loc", doc="Freud's Location"),
        F("loc_cov", (N_LOCATIONS, 3), doc="Location bonus slots covered [location, slot]"),
        F("dist_left", (N_DISTRICTS,), doc="tokens left in each district stack"),
        F("dist_slot", (N_DISTRICTS, 4), init=-1, doc="seat holding each district bonus slot, -1 free", lo=-1,
          hi="P-1"),
    ), doc="one game"),
    Group("seat", "P", (
        F("coffee", doc="Coffee", lo=0), F("vp", doc="VP"), F("vp_ev", doc="sum of the seat's VP events (invariant)"),
        F("vp_cat", (len(CATS),), doc="VP by category (codes.CATS)"),
        F("bright", doc="Bright Ideas", lo=0), F("hearts", doc="heart-shaped boxes", lo=0), F("rep", doc="reputation"),
        F("rep_order", doc="rep_seq when the marker arrived on its space"),
        F("ideas_hand", doc="Ideas in hand", lo=0), F("ideas_locked", doc="Ideas locked on the player board", lo=0),
        F("inkpot", doc="inkpot position"),
        F("dial_w", (10,), doc="white Insights at each dial position", lo=0),
        F("dial_c", (10,), doc="player-colour Insights at each dial position", lo=0),
        F("col_board", init=6, doc="player-colour Insights still at the Notebook ends", lo=0, hi=6),
        F("col_spent", doc="player-colour Insights put on Treatises / district slots", lo=0, hi=6),
        F("nb", (9,), init=-1, doc="Notebook tile in each space (row*3+col), -1 empty"),
        F("icons", doc="icon spaces covered"), F("row_done", (3,), doc="1 per completed row", flag=True),
        F("col_done", (3,), doc="1 per completed column", flag=True), F("nb_full", doc="1 once all nine spaces are filled", flag=True),
        F("pub_cited", doc="1 if the seat was cited by the Treatise being published", flag=True),
        F("room_client", (2,), init=-1, doc="client in each office room, -1 none"),
        F("room_ther", (2,), doc="therapy-track space of each room's client"),
        F("room_cath", (2,), doc="1 once the room's client reached catharsis", flag=True),
        F("room_open", (2,), doc="1 when the room is open", flag=True),
        F("room_latent", (2,), init=-1, doc="latent dream on each room's client, -1 none"),
        F("room_manifest", (2,), init=-1, doc="manifest dream on each room's client, -1 none"),
        F("cured", doc="cured clients", lo=0), F("prof_loc", doc="the Professor's Location"),
    ), doc="one seat"),
    Group("space", "spaces", (
        F("space_owner", init=-1, doc="seat whose Ideas are on the space, -1 empty", lo=-1, hi="P-1"),
        F("space_act", init=-1, doc="Meeting Table action the Ideas point at"),
        F("space_n", doc="Ideas on the space", lo=0), F("space_bright", doc="Bright Ideas on the space"),
    ), doc="one Meeting Table idea space"),
    Group("card", "cards", (
        F("card_loc", doc="where the card is (codes.L_*)", lo=L_DECK, hi=L_TREATISE),
        F("card_own", init=-1, doc="holder seat or Treatise"),
        F("card_known", doc="1 = everyone saw it go into its holder's hand (display swap)", flag=True),
    ), doc="one Research card"),
    Group("treatise", "treatises", (
        F("tr_owner", init=-1, doc="seat that published it, -1 unpublished", lo=-1, hi="P-1"),
        F("tr_cards", (MAX_VOLUMES,), init=-1, doc="Research card in each Volume, bottom first"),
        F("tr_n", doc="Volumes left under it (citing removes from the top)"),
    ), doc="one Treatise tile"),
    Group("client", "clients", (
        F("cl_owner", init=-1, doc="seat that took the client", lo=-1, hi="P-1"),
        F("cl_where", doc="room, or cured state"),
    ), doc="one client"),
    Group("goal", "goals", (
        F("goal_id", init=-1, doc="goal tile (content row) in this slot, -1 none"),
        F("goal_owner", init=-1, doc="seat that claimed it, -1 unclaimed", lo=-1, hi="P-1"),
    ), doc="one Location goal tile in play"),
    Group("stk", STACK_DEPTH, (
        F("stk_kind", doc="decision kind (codes.D_*/K_*)"), F("stk_a", doc="argument a"),
        F("stk_b", doc="argument b"), F("stk_c", doc="argument c"),
    ), doc="one pending-decision stack entry (top = sp - 1)"),
    Group("pile", piles=(
        Pile("rdeck", "cards", init=0, doc="Research deck (drawn from position rtop)"),
        Pile("rdisp", "rdisp", doc="Research display"),
        Pile("trdeck", "treatises", init=0, doc="Treatise deck (from trtop)"),
        Pile("trdisp", "trdisp", doc="Treatise display"),
        Pile("rdeck_cl", "routine", init=0, doc="Routine client deck (from rtop_cl)"),
        Pile("rdisp_cl", "rdisp_cl", doc="Routine client display"),
        Pile("cdeck_cl", "case", init=0, doc="Case Study client deck (from ctop_cl)"),
        Pile("cdisp_cl", "cdisp_cl", doc="Case Study client display"),
        Pile("ldeck", "latent", init=0, doc="latent dream deck (from ltop)"),
        Pile("mdeck", "manifest", init=0, doc="manifest dream deck (from mtop)"),
        Pile("mdisp", "mdisp", doc="manifest dream display"),
        Pile("tstack_i", "ntl", doc="level I Notebook tile stack (from ttop[0])"),
        Pile("tstack_ii", "ntl", doc="level II Notebook tile stack (from ttop[1]); must follow tstack_i"),
    ), doc="decks, displays and tile stacks"),
))

@dataclass
class UMState(LayoutState):
    """Core fields plus one array per :data:`LAYOUT` group (``game [B, GAME_WIDTH]``, ``seat [B, P, SEAT_WIDTH]``,
    ``space``, ``card``, ``treatise``, ``client``, ``goal`` ``[B, N, W]``, ``stk [B, 48, 4]``,
    ``pile [B, 13, L]``) and the content ``sizes`` (pile lengths).

    Every field of the table is a named, writable view: ``state.coffee`` ``[B, P]``, ``state.nb`` ``[B, P, 9]``,
    ``state.market`` ``[B, 2, 2]``, ``state.rdeck`` ``[B, cards]``; ``state.tstack`` is ``[B, 2, ntl]`` (both
    Notebook tile stacks).
    """

    game: np.ndarray
    seat: np.ndarray
    space: np.ndarray
    card: np.ndarray
    treatise: np.ndarray
    client: np.ndarray
    goal: np.ndarray
    stk: np.ndarray
    pile: np.ndarray
    sizes: dict
    LAYOUT = LAYOUT

    @property
    def tstack(self) -> np.ndarray:
        """``[B, 2, ntl]`` the level I and II Notebook tile stacks (a view of ``pile``)."""
        # cols.py is generated from this module's LAYOUT (the generator reads this file alone): not imported at its top
        from .cols import TSTACK_I
        return self.pile[:, TSTACK_I:TSTACK_I + 2, :self.sizes["ntl"]]


STATE_GROUPS = LAYOUT.names

Arrays = namedtuple("Arrays", STATE_GROUPS + ("event_buf", "event_n", "turn_buf", "turn_n", "ply",
                                              "rng_key", "rng_ctr", "work"))
Arrays.__doc__ = """The arrays every kernel takes as ``S``: the state groups (``[B, ...]``), the core log buffers and
random streams, and ``work`` (``int64[WK_ROWS, L]``, scratch rows, see :data:`WK_ROWS`). ``work`` has no batch axis
(:data:`Arrays.NOT_PER_GAME`: the compiled heuristic's game copy, :func:`meeplelab.sim.core.lookahead.copy_game`, leaves
it alone). The content is the kernels' ``C`` and the rule numbers their ``prm`` (sim/core/context.py)."""
Arrays.NOT_PER_GAME = ("work",)

# Scratch rows of ``S.work`` (``int64[WK_ROWS, max(4, N_LOCATIONS, treatises, P)]``): the rule kernels run without numba's
# reference counting (``_nrt=False``) and so cannot allocate arrays; the few that need a small
# working array use one of these rows. No game state lives here: every user fills its row before reading it,
# and each row has one user at a time (a helper never uses a row its caller still holds).
WK_NEED = 0     # [4] Volumes still to gather per colour (treatises.publishable, legal_gather)
WK_OWN = 1      # [4] own in-play Research cards per colour (treatises.publishable, legal_gather)
WK_CF_NEED = 2  # [4] cite_feasible's working copy of the Volumes needed
WK_CF_CAND = 3  # [treatises] cite_feasible: the citable Treatises
WK_CF_TAKE = 4  # [treatises] cite_feasible: Volumes taken from each citable Treatise
WK_ORDER = 5    # [P] scoring.final_scoring: seats by reputation marker, furthest first
WK_TAGS = 6     # [N_LOCATIONS] city.check_goals: the seat's tags of each Location
WK_HANDS = 7    # [P] hidden.redeterminize_one: the other seats' unknown hand cards (the compiled heuristic)
WK_ROWS = 8


def work_array(state: UMState) -> np.ndarray:
    """Fresh scratch rows ``int64[WK_ROWS, max(4, N_LOCATIONS, treatises, P)]`` for the kernels' ``S.work`` (see
    :data:`WK_ROWS`)."""
    return np.zeros((WK_ROWS, max(4, N_LOCATIONS, state.treatise.shape[1], state.seat.shape[1])), np.int64)


def arrays(state: UMState) -> Arrays:
    """The kernels' ``S`` (same objects, updated in place, plus fresh scratch rows ``work``); the content is the
    kernels' ``C`` (``UnconsciousMind.kernel_content``)."""
    return Arrays(*(getattr(state, n) for n in STATE_GROUPS), state.event_buf, state.event_n, state.turn_buf, state.turn_n, state.ply, state.rng_key,
                  state.rng_ctr, work_array(state))
