"""The Unconscious Mind engine: wires the :class:`meeplelab.sim.core.Game` hooks to the numba rule kernels."""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from pathlib import Path

import numpy as np

from meeplelab.sim.core import Column, ConfigError, Game
from meeplelab.sim.core.start import apply_seat_bonus

from . import action_meanings, hidden
from . import codes
from .actions import INKPOT_MAX_ADJ, MODE_NAMES, NUM_ACTIONS, VOCAB, action_label
from .content import FILES, LEVELS, LOCATIONS, MT_ACTIONS, QUALITIES, Content, load_content
from .params import Params
from .spec import START_RESOURCES
from .rules.decisions import TABLE
from .rules.loop import batch_apply, batch_mask, batch_setup
from .rules.reputation import batch_markers_ahead
from .content_layout import CONTENT, K_GROUPS
from .state import LAYOUT, Arrays, UMState, arrays
from .position import BUILDERS

_I = np.int64


def _arr(t) -> np.ndarray:
    return np.asarray(t, dtype=np.int64)


#: the content the kernels read as ``C``: ``K`` (``int64[6, R, W]``, the content groups of
#: :data:`content_layout.CONTENT` stacked: ``C.K[KCARD, c, CARD_COL]``), ``eff`` (``int64[E, 4, 3]`` effect rows:
#: opcode, a, b) and ``cnt`` (``int64[W]``, the content's sizes: ``C.cnt[I_N_SPACES]``)
UMContent = namedtuple("UMContent", ("K", "eff", "cnt"))


def _location_vp_as_coffee(content: Content, A: dict) -> Content:
    """Point every Location effect that is one ``vp N`` at a ``coffee N`` effect row (``A["loc_eff"]`` and
    ``A["effects"]`` rewritten in place; rows the content lacks are appended) and return the content with the
    same rows and their words (``effect_text``, read by the replay). Other content keeps its own rows."""
    eff, text = A["effects"], list(content.effect_text)
    rows = {tuple(r.ravel()): i for i, r in reversed(list(enumerate(eff)))}
    for (loc, k), e in np.ndenumerate(A["loc_eff"]):
        ops = eff[e]
        if ops[0, 0] != codes.OP_VP or ops[1:].any():
            continue
        row = ops.copy()
        row[0, 0] = codes.OP_COFFEE
        key = tuple(row.ravel())
        if key not in rows:
            rows[key] = len(eff)
            eff = np.concatenate([eff, row[None]])
            text.append(f"coffee {int(row[0, 1])}")
        A["loc_eff"][loc, k] = rows[key]
    A["effects"] = eff
    return dataclasses.replace(content, effects=eff.astype(content.effects.dtype), effect_text=text)


#: decision kind code -> its name in the decision table (``D_PLACE``): the key of actions.CHOICES
_DECISION_NAMES = {v: k for k, v in TABLE.kind_codes().items()}

class UnconsciousMind(Game):
    """Unconscious Mind (Fantasia Games, 2024), 1-4 players. Rules: ``docs/rules/unconscious_mind.md``."""

    name = "unconscious-mind"
    title = "Unconscious Mind"
    min_players, max_players = 1, 4
    num_actions = NUM_ACTIONS
    Params = Params
    chance_zones = codes.N_CHANCE_ZONES
    turn_columns = (
        Column("option", "str", "-", "Turn option taken.", ("pass", "state_ideas", "recall", "treat")),
        Column("mt_action", "str", "-", "Meeting Table action space used by State Ideas.", ("none",) + MT_ACTIONS),
        Column("coffee_spent", "int16", "Coffee", "Coffee the seat spent in the turn."),
        Column("coffee_gained", "int16", "Coffee", "Coffee the seat gained in the turn."),
        Column("vp_gained", "int16", "VP", "VP the seat gained in the turn."),
        Column("vp_after", "int16", "VP", "The seat's VP after the turn."),
        Column("coffee_after", "int16", "Coffee", "The seat's Coffee after the turn."),
        Column("insight_after", "int16", "Insights", "Insights on the seat's dial rings after the turn."),
        Column("cured_after", "int16", "clients", "The seat's cured clients after the turn."),
    )
    event_kinds = codes.EVENT_KINDS
    event_columns = (
        Column("category", "str", "-", "What the event was for (VP category, Coffee use, ...).", codes.CATS),
        Column("amount", "int16", "-", "Amount gained (+) or spent; VP for vp/cite events."),
        Column("target_seat", "int8", "seat", "The other seat involved (cited seat, citer), -1 none."),
        Column("item", "int16", "id", "Tile, card, Treatise, client, location or dial position involved."),
        Column("cost", "int16", "-", "Coffee cost paid or citing Treatise."),
        Column("count", "int16", "count", "Count or position (notebook space, room, Volumes)."),
    )
    #: the kernels' VP categories, then ``seat_bonus``: VP a seat started with (seat compensation, A-UM-35, or a
    #: ``vp`` treatment), outside every category
    score_categories = codes.VP_CATEGORIES + ("seat_bonus",)
    turn_capacity = 8
    event_capacity = 128
    compiled_play = "meeplelab.sim.unconscious_mind.play"

    def __init__(self, params=None, content_dir: Path | None = None):
        super().__init__(params, content_dir)
        p = self.params
        if len(p.reputation_vp) != p.track_length + 1:
            raise ConfigError(f"parameter reputation_vp needs track_length+1 = {p.track_length + 1} values, "
                              f"got {len(p.reputation_vp)}")
        if len(self.content.space_ids) > 16:
            raise ConfigError("board.toml: at most 16 idea spaces")
        self.A = self._content_arrays()
        self.A["tr_cite_vp"] = np.full_like(self.A["tr_cite_vp"], p.cite_vp_per_volume)  # seed: 2 VP per Volume
        if p.location_vp_effect == "coffee":  # A-UM-16 read the other way: the Locations' 'vp N' give N Coffee
            self.content = _location_vp_as_coffee(self.content, self.A)
        self.kernel_content = self._kernel_content()
        self._cache: dict = {}
        self._scratch = np.zeros(NUM_ACTIONS, np.bool_)

    # ------------------------------------------------------------------ content
    def load_content(self, content_dir: Path) -> Content:
        return load_content(content_dir)

    def content_files(self) -> list[Path]:
        return [self.content_dir / f for f in FILES]

    def _content_arrays(self) -> dict[str, np.ndarray]:
        A = {k: v.astype(np.int64) for k, v in self.content.arrays.items()}
        lv = A["tile_level"]
        A["tiles_per_level"] = np.array([(lv == 0).sum(), (lv == 1).sum()], np.int64)
        A["effects"] = self.content.effects.astype(np.int64)
        p = self.params
        A.update(tile_cost=_arr(p.tile_cost), empty_vp=_arr(p.empty_space_vp), icon_req=_arr(p.icon_cured_needed),
                 dist_thr=_arr(p.district_thresholds), face_lines=_arr(p.face_lines), rep_vp=_arr(p.reputation_vp),
                 district_vp=_arr(p.district_vp), rows_vp=_arr(p.full_rows_vp), tags_vp=_arr(p.unique_tags_vp))
        return A

    def _sizes(self, P: int) -> dict:
        c, p, A = self.content, self.params, self.A
        return dict(ncat=len(codes.CATS), spaces=len(c.space_ids), ntl=int(A["tiles_per_level"].max()),
                    cards=len(c.card_ids), rdisp=p.research_display, treatises=len(c.treatise_ids),
                    trdisp=p.treatise_display, routine=int((A["cl_kind"] == codes.CLIENT_ROUTINE).sum()), rdisp_cl=p.routine_display,
                    case=int((A["cl_kind"] == codes.CLIENT_CASE).sum()), cdisp_cl=p.case_display, clients=len(c.client_ids),
                    latent=int((A["dr_kind"] == codes.DREAM_LATENT).sum()), manifest=int((A["dr_kind"] == codes.DREAM_MANIFEST).sum()),
                    mdisp=p.manifest_display, goals=min(p.goal_tiles, len(c.goal_ids)))

    def _kernel_content(self) -> UMContent:
        """The content the kernels read as ``C`` (:data:`UMContent`): the groups of :data:`content_layout.CONTENT`
        (``[N, W]``, batch axis dropped) stacked into ``K``, the effect rows ``eff`` and the sizes ``cnt``.
        The rule numbers are not here: the kernels read them from ``prm`` (:attr:`param_vector`)."""
        A, c = self.A, self.content
        sizes = dict(cards=len(c.card_ids), treatises=len(c.treatise_ids), clients=len(c.client_ids),
                     dreams=len(c.dream_ids), tiles=len(c.tile_ids),
                     board=max(len(c.space_ids), len(A["act_row"]), len(A["loc_dist"]), len(A["ink_kind"]),
                               len(A["sec_first"]), len(A["dist_rew"]), len(c.goal_ids)))
        K = {k: v[0] for k, v in CONTENT.allocate(1, 1, sizes).items()}

        def put(name, values):
            g, f, o = CONTENT.find(name)
            v = np.asarray(values, np.int64)
            arr = K[g.name]
            if g.rows is None:
                flat = v.ravel()
                arr[o:o + flat.size] = flat
            else:
                arr[:v.shape[0], o:o + f.size] = v.reshape(v.shape[0], -1)

        for name in ("card_col", "card_tag", "card_eff", "tr_len", "tr_cols", "tr_vp", "tr_cite_vp", "tr_tags",
                     "cl_kind", "cl_start", "cl_sym", "cl_vp", "cl_tag", "cl_cath", "cl_abil", "cl_end", "dr_kind",
                     "dr_cq", "dr_cl", "dr_eff", "dr_sym", "tile_level", "tile_main", "tile_banner", "act_row",
                     "act_move", "loc_dist", "loc_eff", "loc_bon", "ink_kind", "ink_gen", "ink_idea",
                     "sec_first", "sec_reward", "sec_action", "dist_rew", "goal_cond", "goal_rep", "goal_tag"):
            put(name, A[name])
        put("space_mt", A["space_act"])
        put("ink_nb_row", A["ink_row"])
        put("tiles_lvl", A["tiles_per_level"])
        sz = self._sizes(1)
        counts = dict(n_spaces=len(c.space_ids), n_inkpots=len(A["ink_kind"]), n_sections=len(A["sec_first"]),
                      n_goal_tiles=len(c.goal_ids), n_routine=sz["routine"], n_case=sz["case"], n_latent=sz["latent"],
                      n_manifest=sz["manifest"])
        for name, v in counts.items():
            put(name, int(v))
        groups = [K[n] for n in K_GROUPS]
        stacked = np.zeros((len(groups), max(x.shape[0] for x in groups), max(x.shape[1] for x in groups)), np.int64)
        for i, x in enumerate(groups):
            stacked[i, :x.shape[0], :x.shape[1]] = x
        return UMContent(stacked, A["effects"], K["cnt"])

    def kernel_state(self, state: UMState) -> Arrays:
        """The kernels' ``S``: the namedtuple of ``state``'s arrays with fresh scratch rows (:func:`state.arrays`)."""
        return arrays(state)

    # ------------------------------------------------------------------ hooks
    def position_builders(self) -> dict:
        """This engine's :class:`~meeplelab.sim.core.position.Position` builders (``position.py BUILDERS``)."""

        return dict(BUILDERS)

    def max_plies(self, num_players: int) -> int:
        # a generous bound: a turn rarely takes more than ~40 decisions; random play never comes near it
        return (self.params.round_limit + 2) * num_players * 300

    def _init(self, base: dict, num_players: int) -> UMState:
        B = base["game_id"].shape[0]
        P = num_players
        p = self.params
        A = self.A
        sizes = self._sizes(P)
        state = UMState(**base, **LAYOUT.allocate(B, P, sizes), sizes=sizes)
        lv = A["tile_level"]
        n1, n2 = int((lv == 0).sum()), int((lv == 1).sum())
        state.tstack[:, 0, :n1] = np.arange(n1)
        state.tstack[:, 1, :n2] = n1 + np.arange(n2)
        state.coffee[:] = p.start_coffee
        state.freud_rep[:] = p.freud_rep_start
        state.ideas_hand[:] = p.start_ideas
        state.ideas_locked[:] = p.locked_ideas
        state.dial_w[:, :, 0] = p.start_white
        state.room_open[:, :, 0] = 1
        state.rdeck[:] = np.arange(state.rdeck.shape[1])
        state.trdeck[:] = np.arange(state.trdeck.shape[1])
        state.rdeck_cl[:] = np.flatnonzero(A["cl_kind"] == codes.CLIENT_ROUTINE)
        state.cdeck_cl[:] = np.flatnonzero(A["cl_kind"] == codes.CLIENT_CASE)
        state.ldeck[:] = np.flatnonzero(A["dr_kind"] == codes.DREAM_LATENT)
        state.mdeck[:] = np.flatnonzero(A["dr_kind"] == codes.DREAM_MANIFEST)
        state.prof_loc[:] = p.professor_start
        state.freud_loc[:] = p.freud_start
        state.dist_left[:] = p.district_tokens
        S, C, prm = self.kernel_context(state)
        if self._set_up:  # False: a blank state (Game.blank_state)
            batch_setup(S, C, prm, p.start_hand)
        apply_seat_bonus(state, p, START_RESOURCES, P)  # seat compensation (A-UM-35); none by default
        return state

    def legal_action_mask(self, state: UMState) -> np.ndarray:
        out = np.zeros((state.batch_size, NUM_ACTIONS), np.bool_)
        batch_mask(*self.kernel_context(state), out)
        return out

    def to_act(self, state: UMState) -> np.ndarray:
        return state.to_act.astype(np.int64)

    def _apply(self, state: UMState, actions: np.ndarray, active: np.ndarray) -> None:
        batch_apply(*self.kernel_context(state), np.ascontiguousarray(actions, np.int64),
                      np.ascontiguousarray(active, np.bool_), self._scratch)

    def done(self, state: UMState) -> np.ndarray:
        return state.over.astype(bool)

    def final_scores(self, state: UMState) -> np.ndarray:
        return state.vp.astype(np.int64)

    def vp(self, state: UMState) -> np.ndarray:
        return state.vp.astype(np.int64)

    def score_breakdown(self, state: UMState) -> dict[str, np.ndarray]:
        out = {name: state.vp_cat[:, :, 1 + i].astype(np.int64) for i, name in enumerate(codes.VP_CATEGORIES)}
        out["seat_bonus"] = (state.vp - state.vp_cat.sum(axis=2)).astype(np.int64)  # start VP: in no category
        return out

    def tiebreak(self, state: UMState) -> np.ndarray:
        """``int[B, P, 2]`` keys compared in order (A-UM-25): the reputation marker ahead (fewer markers ahead
        of it; same space: the one underneath, which arrived earlier, is ahead: ``rules.marker_ahead``, the
        definition the end-of-track bonus uses), then more heart boxes."""
        ahead = np.zeros((state.batch_size, state.num_players), np.int64)
        batch_markers_ahead(*self.kernel_context(state), ahead)
        return np.stack([-ahead, state.hearts.astype(np.int64)], axis=2)

    end_reasons = {
        "clock": "Freud's reputation marker reached the end of the track; the round was finished and one more "
                 "played (research UM §7; an end triggered in the limit round too, A-UM-36).",
        "round_limit": "round_limit rounds were played without the end being triggered (A-UM-13; with "
                       "limit_round_trigger = stop also an end triggered in the limit round, A-UM-36).",
    }
    safety_stops = ("round_limit",)

    def end_reason(self, state: UMState) -> np.ndarray:
        """``int[B]`` index into :attr:`end_reasons`: 0 clock (the end was triggered and its last round played),
        1 round limit (valid once ``done``)."""
        clock = (state.end_trig == 1) & (state.rnd >= state.last_round)
        return np.where(clock, 0, 1).astype(np.int64)

    def features(self, state: UMState) -> dict[str, np.ndarray]:
        """``{name: float[B, P]}``: vp, coffee, bright (Bright Ideas), insight (Insights on the dial rings,
        weighted by level 1/2/3), colour (player-colour Insights on the dial), cured (cured clients), tiles
        (Notebook tiles placed), rows / cols (completed rows / columns), inplay / hand (Research cards),
        rep (reputation), hearts (heart boxes), treatises (Treatises published), ideas (Ideas in hand),
        clients (clients in the office rooms), therapy (therapy progress of those clients)."""
        P = state.num_players
        f = np.float64
        lvl = np.zeros(10)
        lvl[1:] = np.tile([1.0, 2.0, 3.0], 3)
        dial = (state.dial_w + state.dial_c).astype(f)
        loc, own = state.card_loc, state.card_own
        seats = np.arange(P)[None, :, None]
        inplay = ((loc == codes.L_INPLAY)[:, None, :] & (own[:, None, :] == seats)).sum(axis=2)
        hand = ((loc == codes.L_HAND)[:, None, :] & (own[:, None, :] == seats)).sum(axis=2)
        trs = (state.tr_owner[:, None, :] == seats).sum(axis=2)
        return {
            "vp": state.vp.astype(f), "coffee": state.coffee.astype(f), "bright": state.bright.astype(f),
            "insight": (dial * lvl).sum(axis=2), "colour": state.dial_c[:, :, 1:].sum(axis=2).astype(f),
            "cured": state.cured.astype(f), "tiles": (state.nb >= 0).sum(axis=2).astype(f),
            "rows": state.row_done.sum(axis=2).astype(f), "cols": state.col_done.sum(axis=2).astype(f),
            "inplay": inplay.astype(f), "hand": hand.astype(f), "rep": state.rep.astype(f),
            "hearts": state.hearts.astype(f), "treatises": trs.astype(f), "ideas": state.ideas_hand.astype(f),
            "clients": (state.room_client >= 0).sum(axis=2).astype(f),
            "therapy": np.where(state.room_client >= 0, state.room_ther, 0).sum(axis=2).astype(f),
        }

    def _redeterminize(self, state: UMState, seat: np.ndarray, streams) -> None:
        """Re-sample what game g hides from ``seat[g]``: the order of the Notebook tile stacks, the Research,
        Treatise, client and dream decks, and the other players' unknown Research hand cards (shuffled back with
        the deck and re-dealt in the same counts; cards taken from the display stay). Kernel:
        :func:`meeplelab.sim.unconscious_mind.hidden.redeterminize_kernel`."""
        z = state.sizes
        tpl = self.A["tiles_per_level"]
        dims = np.array([tpl[0], tpl[1], z["treatises"], z["routine"], z["case"], z["latent"], z["manifest"],
                         state.num_players], np.int64)
        hidden.redeterminize_kernel(state.game, state.card, state.pile, seat, streams.keys, streams.counters, dims)

    def progress(self, state: UMState):
        return state.turn.astype(np.int64), np.where(state.over == 1, state.rnd, state.rnd - 1).astype(np.int64)

    # ------------------------------------------------------------------ invariants
    def check_invariants(self, state: UMState) -> list[str]:
        out: list[str] = []
        gid = state.game_id
        c = self.content
        p = self.params

        def bad(mask, msg):
            for g in np.flatnonzero(mask)[:3]:
                out.append(f"game {int(gid[g])}: {msg}")

        for name in ("coffee", "bright", "hearts", "ideas_hand", "ideas_locked"):
            bad((getattr(state, name) < 0).any(axis=1), f"{name} negative")
        bad((state.dial_w < 0).any(axis=(1, 2)) | (state.dial_c < 0).any(axis=(1, 2)), "dial count negative")
        bad((state.dial_w.sum(axis=2) != p.start_white).any(axis=1), "white Insights not conserved")
        bad(((state.dial_c.sum(axis=2) + state.col_board + state.col_spent) != 6).any(axis=1),
            "player-colour Insights not conserved")
        bad((state.vp != state.vp_ev).any(axis=1), "VP differs from the sum of VP events")
        start_vp = np.zeros(state.vp.shape, np.int64)
        start_vp[:] = np.asarray(getattr(p, f"seat_vp_{state.num_players}p", (0,) * state.num_players))
        bad((state.vp_cat.sum(axis=2) + start_vp != state.vp).any(axis=1),
            "VP categories and the seat compensation do not sum to VP")
        # Ideas: hand + board + on the table
        on_table = np.zeros_like(state.ideas_hand)
        for s in range(state.space_owner.shape[1]):
            own = state.space_owner[:, s]
            for q in range(state.num_players):
                on_table[:, q] += np.where(own == q, state.space_n[:, s], 0)
        bad(((state.ideas_hand + state.ideas_locked + on_table) != p.start_ideas + p.locked_ideas).any(axis=1),
            "Ideas not conserved")
        # Notebook tiles: stacks + market + boards + discarded
        n_tiles = len(c.tile_ids)
        tpl = self.A["tiles_per_level"]
        in_stacks = (tpl[0] - state.ttop[:, 0]) + (tpl[1] - state.ttop[:, 1])
        placed = (state.nb >= 0).sum(axis=(1, 2))
        market = (state.market >= 0).sum(axis=(1, 2))
        pending = np.zeros(state.batch_size, np.int64)  # a tile taken and not yet placed sits on the stack
        for k in (codes.D_PLACE,):
            sel = state.stk[:, :, 0] == k
            idx = np.arange(state.stk.shape[1])[None, :] < state.sp[:, None]
            pending += (sel & idx).sum(axis=1)
        bad(in_stacks + placed + market + state.tdisc + pending != n_tiles, "Notebook tiles not conserved")
        # Research cards
        NC = len(c.card_ids)
        bad(((state.card_loc == codes.L_DECK).sum(axis=1) != NC - state.rtop), "Research deck count wrong")
        bad(((state.card_loc == codes.L_DISPLAY).sum(axis=1) != (state.rdisp >= 0).sum(axis=1)), "Research display wrong")
        vol = (state.card_loc == codes.L_TREATISE).sum(axis=1)
        bad(vol != np.where(state.tr_owner >= 0, state.tr_n, 0).sum(axis=1) + (state.pub_fill >= 0).sum(axis=1),
            "Volumes under Treatises not conserved")
        # dreams
        nd = len(c.dream_ids)
        dreams = ((state.ldeck.shape[1] - state.ltop) + (state.mdeck.shape[1] - state.mtop) +
                  (state.mdisp >= 0).sum(axis=1) + (state.room_latent >= 0).sum(axis=(1, 2)) +
                  (state.room_manifest >= 0).sum(axis=(1, 2)) + state.dr_gone)
        bad(dreams != nd, "dream cards not conserved")
        bad((state.rep > p.track_length).any(axis=1) | (state.freud_rep > p.track_length), "reputation past the end")
        live = state.over == 0
        bad(live & (state.sp <= 0), "running game with an empty decision stack")
        return out

    # ------------------------------------------------------------------ words
    vocabulary = VOCAB
    action_meaning = action_meanings.meaning  # what an action id does, in words (no state)

    def action_label(self, action: int) -> str:
        return action_label(action)

    def describe_action(self, state: UMState, g: int, action: int) -> str:
        """Action id ``action`` in words at game ``g`` of ``state``, under the decision on top of its stack (the
        bare label when no decision is open or the id is not a choice of it)."""
        a = int(action)
        if state.sp[g] == 0:
            return action_label(a)
        kind, ka, kb, _ = (int(x) for x in state.stk[g, state.sp[g] - 1])
        decision = _DECISION_NAMES.get(kind)
        try:  # the one decoding of an action id (actions.VOCAB); a choice id by its meaning under this decision
            fam, idx = VOCAB.decode(a, decision)
        except ValueError:
            return action_label(a)
        if fam == "done":
            return "skip / done"
        if kind == codes.D_TURN:
            said = self._turn_words(fam, idx)
            if said is not None:
                return said
        if kind == codes.D_MODE:
            return f"place {MODE_NAMES[idx[0]]} on {MT_ACTIONS[kb]}"
        said = self._insight_or_card_words(kind, ka, fam, idx)
        if said is not None:
            return said
        words = self._choice_words(state, g, kind, ka, kb, fam, idx)
        try:
            return words[kind]()
        except (KeyError, IndexError):
            return action_label(a)

    def _turn_words(self, fam: str, idx: tuple) -> str | None:
        """A turn option (family ``fam`` of the turn decision, indices ``idx``) in words; None for a family
        described as under any decision."""
        c = self.content
        if fam == "place":
            s, d = idx
            mt = int(self.A["space_act"][s, d])
            return f"State Ideas on space {c.space_ids[s]} pointing at {MT_ACTIONS[mt]}"
        turn = {"recall": "Recall Ideas", "treat": "Treat Clients", "pass": "pass (no turn option possible)"}
        if fam in turn:
            return turn[fam]
        if fam == "dial":
            q, lv = idx
            return f"pay {self.params.conversion_coffee} Coffee: raise a {QUALITIES[q]} {LEVELS[lv]} Insight"
        if fam == "transfer":
            q, lv, q2 = idx
            return (f"pay {self.params.conversion_coffee} Coffee: change a {QUALITIES[q]} {LEVELS[lv]} "
                    f"Insight to {QUALITIES[q2]}")
        if fam == "heart-box":
            return "convert a minor, a median and a major Insight into a heart-shaped box"
        return None

    def _insight_or_card_words(self, kind: int, ka: int, fam: str, idx: tuple) -> str | None:
        """An Elevate/Generate dial move, an Insight transfer or a Research card choice (``fam`` dial, transfer,
        card) under decision ``kind`` (argument ``ka``) in words; None for another family."""
        if fam == "dial":
            q, lv = idx
            if kind == codes.D_GENANY:
                return (f"Generate (reserve empty): move a {QUALITIES[q]} {LEVELS[lv]} Insight to "
                        f"{QUALITIES[(ka - 1) // 3]} {LEVELS[(ka - 1) % 3]}")
            return f"Elevate a {QUALITIES[q]} {LEVELS[lv]} Insight"
        if fam == "transfer":
            q, lv, q2 = idx
            return f"Transfer a {QUALITIES[q]} {LEVELS[lv]} Insight to {QUALITIES[q2]}"
        if fam == "card":
            verb = {codes.D_SWAP: "swap out", codes.D_QUILL: "set aside as the quill Volume",
                    codes.D_GATHER: "use as a Volume"}.get(kind, "play")
            return f"{verb} Research card {self.content.card_ids[idx[0]]}"
        return None

    def _choice_words(self, state: UMState, g: int, kind: int, ka: int, kb: int, fam: str, idx: tuple) -> dict:
        """Per decision code, a callable giving the choice (family ``fam``, indices ``idx``; ``ka``, ``kb``: the
        decision's arguments) in words at game ``g``; a callable may raise IndexError for a choice its decision
        does not offer."""
        c = self.content
        ch = idx[0] if len(idx) == 1 else -1  # the index of a one-index part (a room, a slot, a level)
        return {
            codes.D_INKPOT: lambda: f"move the inkpot {kb + ch - INKPOT_MAX_ADJ} spaces",
            codes.D_GENQ: lambda: f"Generate a {QUALITIES[ch]} {LEVELS[ka]} Insight",
            codes.D_TILE_SRC: lambda: (
                f"choose the empty {('stack', 'center', 'right')[ka]} space of level {'I' * (ch + 1)} "
                "(scores its printed VP, nothing else)"
                if ka > 0 and int(state.market[g, ch, ka - 1]) < 0 else
                f"take the {('stack', 'center', 'right')[ka]} tile of level {'I' * (ch + 1)}"),
            codes.D_ORDER: lambda: ("main effect first, then banner" if fam == "main-first" else
                                    "banner effect first, then main"),
            codes.D_FREE_TILE: lambda: f"take the free tile from the level {'I' * (ch + 1)} stack",
            codes.D_PLACE: lambda: (f"place tile {c.tile_ids[ka]} in row {ch + 1}" if fam == "row" else
                                f"replace the tile in space {ch + 1} with {c.tile_ids[ka]}"),
            codes.D_SWAP2: lambda: f"swap with display slot {ch + 1}",
            codes.D_RESPLAY: lambda: f"publish Treatise {c.treatise_ids[int(state.trdisp[g, ch])]}",
            codes.D_GATHER: lambda: f"cite Treatise {c.treatise_ids[ch]} of seat {int(state.tr_owner[g, ch]) + 1}",
            codes.D_PROF: lambda: ("move the Professor to Freud's Location" if fam == "to-freud" else
                               f"advance the Professor {ch + 1} Location(s)"),
            codes.D_FREUD: lambda: f"advance Freud {ch + 1} Location(s)",
            codes.D_LOCTRIG: lambda: (f"trigger {LOCATIONS[ka]} once per {('figure', 'tag')[idx[1]]}"
                                  + (" (+Bright Idea)" if idx[0] == 1 else "")),
            codes.D_LOCEFF: lambda: f"{LOCATIONS[ka]} effect: {c.effect_text[int(self.A['loc_eff'][ka, ch])]}",
            codes.D_COLUMN: lambda: f"activate Notebook column {ch + 1}",
            codes.D_COLOUR: lambda: (f"take the player-colour Insight for the {('Treatise', 'district slot')[ka]} from "
                                 + ("the dial's reserve" if fam == "reserve" else
                                    f"the {QUALITIES[idx[0]]} {LEVELS[idx[1]]} ring")),
            codes.D_TILEORDER: lambda: (f"resolve the main effect of tile "
                                    f"{c.tile_ids[int(state.nb[g, state.to_act[g], idx[0] * 3 + idx[1]])]} "
                                    f"(row {idx[0] + 1}, space {idx[1] + 1})"),
            codes.D_REPACT: lambda: f"reputation-track action: {c.effect_text[int(self.A['sec_action'][ch])]}",
            codes.D_RECALLB: lambda: self._recall_words(state, g, fam, idx),
            codes.D_TREAT: lambda: f"treat the client in room {ch + 1}",
            codes.D_THERAPY: lambda: f"therapy for the client in room {ch + 1}",
            codes.D_HEARTS: lambda: f"spend a heart box on the client in room {ch + 1}",
            codes.D_NEWCLIENT: lambda: (f"take Routine client {c.client_ids[int(state.rdisp_cl[g, ch])]}"
                                    if fam == "routine" else
                                    f"take Case Study client {c.client_ids[int(state.cdisp_cl[g, ch])]}"),
            codes.D_MANIFEST: lambda: ("take the top manifest dream of the deck" if fam == "deck" else
                                   f"take manifest dream {c.dream_ids[int(state.mdisp[g, ch])]}"),
        }

    def _recall_words(self, state, g, part: str, idx: tuple) -> str:
        """A D_RECALLB choice in words: ``part`` ``bonus`` or ``district`` at ``idx`` (who, slot)."""
        p = int(state.to_act[g])
        w, k = idx
        loc = int(state.prof_loc[g, p]) if w == 0 else int(state.freud_loc[g])
        who = "Professor's" if w == 0 else "Freud's"
        if part == "bonus":
            return (f"Location bonus {k + 1} at {who} Location {LOCATIONS[loc]}: "
                    f"{self.content.effect_text[int(self.A['loc_bon'][loc, k])]}")
        s = k
        d = int(self.A['loc_dist'][loc])
        return (f"District bonus of {self.content.district_ids[d]} ({self.params.district_thresholds[s]} tags): "
                f"{self.content.effect_text[int(self.A['dist_rew'][d, s])]}")

    def describe_round(self, state: UMState, g: int) -> str:
        """Header line of the round now under way (replay): seat 1 opens every round (A-UM-35)."""
        rnd = int(state.rnd[g])
        note = ""
        if int(state.end_trig[g]) == 1 and rnd >= int(state.last_round[g]):
            note = " (final round: no new clients)"
        elif rnd >= self.params.round_limit:
            note = (f" (last round: the round limit of {self.params.round_limit}"
                    + (", unless the end is triggered in it)" if self.params.limit_round_trigger == "finish" else ")"))
        return f"--- Round {rnd} begins{note}: seat 1 opens ---"

    @staticmethod
    def _cid(ids, item) -> str:
        """Content id of an index (``r26``, ``routine03``), or the raw value when it is not one."""
        if isinstance(item, (int, np.integer)) and 0 <= int(item) < len(ids):
            return ids[int(item)]
        return str(item)

    def describe_event(self, row: dict) -> str:
        """One event row in words: seats from 1, content by its id (``r26``, ``routine03``, ``t1_07``),
        rooms, rows, spaces and bonus slots from 1, Locations by name."""
        k = row.get("kind")
        seat = row.get("seat")
        if isinstance(seat, (int, np.integer)) and seat >= 0:
            seat = int(seat) + 1  # seats are numbered from 1 in words, as in the decision lines
        tgt = row.get("target_seat")
        if isinstance(tgt, (int, np.integer)) and tgt >= 0:
            row = {**row, "target_seat": int(tgt) + 1}
        cat = row.get("category")
        amt = row.get("amount")
        item = row.get("item")
        c = self.content
        if k == "vp":
            return f"seat {seat} scores {amt} VP ({cat})"
        if k == "coffee_gain":
            return f"seat {seat} gains {amt} Coffee ({cat})"
        if k == "coffee_spend":
            return f"seat {seat} spends {amt} Coffee ({cat})"
        if k == "cite":
            return (f"seat {seat} cites a Volume of seat {row.get('target_seat')}'s Treatise "
                    f"{self._cid(c.treatise_ids, item)}: {amt} VP to them")
        if k == "cure":
            return f"seat {seat} cures client {self._cid(c.client_ids, item)} ({amt} VP)"
        if k == "reputation":
            return f"seat {seat} gains reputation (now {item}) from {cat}"
        if k == "freud":
            return f"Freud's reputation advances to {item}"
        if k == "tile":
            return self._tile_words(seat, cat, item, row.get("count"))
        if k == "publish":
            return (f"seat {seat} publishes Treatise {self._cid(c.treatise_ids, item)} ({row.get('count')} Volumes, "
                    f"{amt} VP)")
        if k == "end":
            return f"the end is triggered ({cat})"
        return self._describe_more(k, seat, cat, amt, item, row)

    def _tile_words(self, seat, cat, item, cnt) -> str:
        name = self._cid(self.content.tile_ids, item)
        pos = int(cnt) if isinstance(cnt, (int, np.integer)) else -1
        if cat == "none" and 0 <= pos < 9:
            return f"seat {seat} places Notebook tile {name} in row {pos // 3 + 1}, space {pos % 3 + 1}"
        if cat == "replace" and pos >= 0:
            return f"seat {seat} replaces Notebook tile {name} in space {pos + 1} (it is discarded)"
        if cat == "discard":
            return f"seat {seat} discards tile {name}"
        if cat in ("tile_stack", "tile_center", "tile_right", "free"):
            return f"seat {seat} takes tile {name} ({cat})"
        return f"seat {seat}: Notebook tile {name} ({cat})"

    def _describe_more(self, k, seat, cat, amt, item, row) -> str:
        """Words for the remaining event kinds (see rules.ev calls for what each column holds)."""
        c = self.content
        n = int(amt) if amt is not None else 0
        cnt = row.get("count")
        if k in ("bright", "heart_box"):
            what = "Bright Idea" if k == "bright" else "heart box"
            verb = "gains" if n >= 0 else "spends"
            return f"seat {seat} {verb} {abs(n)} {what}{'s' if abs(n) != 1 else ''} ({cat})"
        if k == "insight":
            if cat == "generate" and item is not None and 0 <= item < 9:
                q, lvl = ("Growth", "Freedom", "Passion")[item // 3], ("Minor", "Median", "Major")[item % 3]
                return f"seat {seat} generates a {lvl} {q} Insight"
            if cat == "tile" and item is not None and item >= 100:
                line = f"column {item - 200 + 1}" if item >= 200 else f"row {item - 100 + 1}"
                return f"seat {seat} completes Notebook {line}: its player-colour Insight goes to the dial's reserve"
            if cat in ("publish", "district") and item is not None:
                where = "the dial's reserve" if item < 0 else (
                    f"the {('Growth', 'Freedom', 'Passion')[item // 3]} {('Minor', 'Median', 'Major')[item % 3]} ring")
                what = "the Treatise" if cat == "publish" else "a district slot"
                return f"seat {seat} puts a player-colour Insight from {where} on {what}"
            return f"seat {seat}: Insight ({cat})"
        if k == "card":
            if cat == "research_draw":
                return f"seat {seat} draws Research card {self._cid(c.card_ids, item)}"
            if cat == "research_swap":
                return (f"seat {seat} swaps Research card {self._cid(c.card_ids, cnt)} from hand with display card "
                        f"{self._cid(c.card_ids, item)}")
            return f"seat {seat} plays Research card {self._cid(c.card_ids, item)}"
        if k == "client":
            if cat == "treat":
                return (f"seat {seat} treats client {self._cid(c.client_ids, item)} "
                        f"(dream {self._cid(c.dream_ids, cnt)})")
            return (f"seat {seat} takes client {self._cid(c.client_ids, item)} into room "
                    f"{int(cnt) + 1 if cnt is not None else '?'} (therapy {n})")
        if k == "catharsis":
            return (f"seat {seat}'s client {self._cid(c.client_ids, item)} reaches catharsis: grief layer removed, "
                    "ability unlocked")
        if k == "idea":
            if cat == "inkpot":
                return f"seat {seat} gains an Idea from the inkpot rondel"
            if cat == "recall":
                return f"seat {seat} takes back {n} Idea{'s' if n != 1 else ''} from the Meeting Table"
            return f"seat {seat} places {n} Idea{'s' if n != 1 else ''} on idea space {self._cid(c.space_ids, item)}"
        if k == "goal":
            return f"seat {seat} claims location goal tile {self._cid(c.goal_ids, item)} ({n} reputation)"
        if k == "bonus":
            i = int(item) if isinstance(item, (int, np.integer)) else -1
            if cat == "district" and i >= 0:
                d, slot = divmod(i, 4)
                th = self.params.district_thresholds
                tags = f" ({th[slot]} tags)" if slot < len(th) else ""
                return f"seat {seat} takes the District bonus of {self._cid(c.district_ids, d)}{tags}"
            if i >= 0:
                loc, slot = divmod(i, 3)
                return f"seat {seat} takes Location bonus {slot + 1} at {self._cid(LOCATIONS, loc)}"
            return f"seat {seat} takes a {'District' if cat == 'district' else 'Location'} bonus"
        if k == "move":
            who = "Freud" if cat == "freud" else f"seat {seat}'s Professor"
            how = "straight to Freud's Location" if (cat == "professor" and n == 0) else f"{n} Location{'s' if n != 1 else ''}"
            return f"{who} moves {how}, now at {self._cid(LOCATIONS, item)}"
        return ", ".join(f"{key}={v}" for key, v in row.items() if key not in ("game", "ply", "turn"))
