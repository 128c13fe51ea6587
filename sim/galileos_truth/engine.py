"""The Galileo's Truth engine: wires the ``Game`` hooks to the numba kernels of :mod:`.rules`."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from meeplelab.sim.core import Column, ConfigError, Game
from meeplelab.sim.core.start import apply_seat_bonus

from . import content as ct
from . import action_meanings, hidden, rules
from .params import Params
from .pcols import PRM_LEVEL_SPACE_VP_2, PRM_LEVEL_SPACE_VP_3, PRM_LEVEL_SPACE_VP_4
from .spec import START_RESOURCES
from .state import N_CHANCE_ZONES
from .state import (A_ABJURE, A_BOARD, A_CARD, A_DECKTOP, A_DONE, A_EFFECTS, A_GROUP, A_ICON, A_INV, A_KEEP,
                    A_KEEP_TILE, A_OLEVEL, A_PASS, A_PAY, A_RMDISC, A_RMPLAY, A_SEC, A_SLOT, A_SPACE, A_SPACE_FIRST,
                    A_SUBJ, A_UPGRADE, A_WIN, D_FRAMES, EVENT_CATEGORIES, EVENT_KINDS, GTState, LAYOUT, MAIN_NAMES,
                    NUM_ACTIONS, PH_STAKE, P_OORDER, P_PENPAY, P_PLACE, P_REMOVE, P_SEC, P_STACK, SArr,
                    SCORE_CATEGORIES, SEC_NAMES, VOCAB, Z_DECK, Z_REMOVED, arrays)
from .position import BUILDERS

SUBJ_TITLE = ("Astronomy", "Physics", "Mathematics", "Philosophy")


def _action_label(a: int) -> str:
    """Short name of action id ``a`` (:meth:`Vocabulary.label` of ``state.VOCAB``; ``action:N`` out of range)."""
    try:
        return VOCAB.label(a)
    except ValueError:
        return f"action:{a}"


#: the Level II-IV seal-space VP are read as one block of 3 x 4 (rules/main_actions.py): declared consecutively
assert PRM_LEVEL_SPACE_VP_3 == PRM_LEVEL_SPACE_VP_2 + 4 and PRM_LEVEL_SPACE_VP_4 == PRM_LEVEL_SPACE_VP_2 + 8


class GalileosTruth(Game):
    """Galileo's Truth (1-4 players): deck building, worker placement and Suspicion management."""

    name = "galileos-truth"
    title = "Galileo's Truth"
    min_players, max_players = 1, 4
    num_actions = NUM_ACTIONS
    Params = Params
    turn_columns = (
        Column("main_action", "str", "-", "Main Action of the turn.", MAIN_NAMES),
        Column("vp_gained", "int16", "VP", "VP the seat gained during the turn."),
        Column("suspicion_after", "int8", "Suspicion", "The seat's Suspicion after the turn."),
        Column("principle_after", "str", "-", "The seat's Principle Coin after the turn.", ("copernican", "ptolemaic")),
        Column("coins_after", "int16", "Coins", "The seat's Coins after the turn."),
        Column("research_after", "int16", "Research", "The seat's Research tokens after the turn."),
        Column("cards_played", "int8", "cards", "Cards played from hand in the turn."),
        Column("vp_after", "int16", "VP", "The seat's VP after the turn (VP scored on other seats' turns included)."),
    )
    event_kinds = EVENT_KINDS
    event_columns = (
        Column("category", "str", "-", "VP category, Suspicion cause or Penance outcome.", EVENT_CATEGORIES),
        Column("amount", "int16", "-", "VP gained, Suspicion change, seal VP or coins paid (by kind)."),
        Column("target_seat", "int8", "seat", "The other seat involved (cause of Suspicion, seal owner scored), -1 none."),
        Column("item", "int16", "id", "Treatise board, Invention, tile, card type (play, penance), Philosopher space (assign), "
                                      "Graduation tile met (upgrade), Mastery track (vp, mastery) or Level involved, "
                                      "-1 none."),
        Column("cycle", "int8", "Cycles", "Cycle of the event."),
        Column("before", "int16", "-", "Value before (VP, Suspicion, Level; seal space or Window cell for actions)."),
        Column("after", "int16", "-", "Value after."),
    )
    #: the kernels' score categories, then ``seat_bonus``: VP a seat started with (seat compensation, A-GT-34,
    #: or a ``vp`` treatment), outside every category
    score_categories = SCORE_CATEGORIES + ("seat_bonus",)
    turn_capacity = 16
    event_capacity = 512  # about 260 rows a 4-seat game (147 before the play events), 330 at most measured
    chance_zones = N_CHANCE_ZONES
    compiled_play = "meeplelab.sim.galileos_truth.play"

    def __init__(self, params=None, content_dir=None):
        super().__init__(params, content_dir)
        self._arrays = _board_rules(self.content, self.params)
        self.kernel_content = self._arrays

    def kernel_state(self, state: GTState) -> SArr:
        """The kernels' ``S``: the namedtuple of ``state``'s arrays (:func:`state.arrays`)."""
        return arrays(state)

    # ------------------------------------------------------------------ content
    def load_content(self, content_dir: Path):
        return ct.load(content_dir)

    def content_files(self) -> list[Path]:
        return list(self.content.files)

    @property
    def C(self):
        """The content arrays the kernels read, with the board rules of the parameters applied
        (``printing_house``, A-GT-16: see :func:`_board_rules`)."""
        return self._arrays

    # ------------------------------------------------------------------ setup
    def position_builders(self) -> dict:
        """This engine's :class:`~meeplelab.sim.core.position.Position` builders (``position.py BUILDERS``)."""

        return dict(BUILDERS)

    def max_plies(self, num_players: int) -> int:
        # turns per Cycle per seat are bounded by cards owned + Inventions + spaces + upgrades + abjure + pass;
        # each turn by a bounded number of sub-decisions. Random play stays far below this.
        nc = len(self.C.BASIC_CARDS) + ct.NB + len(self.C.PEN_TYPES)
        return int(num_players * self.params.cycles * (nc + len(self.C.INV_TYPE) + 8) * 40 + 100)

    def sizes(self, num_players: int) -> dict[str, int]:
        """Content sizes of the state's groups and piles (:data:`~meeplelab.sim.galileos_truth.state.LAYOUT`): card
        ``slots`` per seat (basic + Treatise + Penance cards), ``inventions``, Philosopher ``spaces``, Mastery
        ``tracks`` x ``track_spaces``, ``mentors`` (parameter, A-GT-14), Observation ``tiles`` of the largest
        Level, ``penance`` supply (at least 1)."""
        C = self.C
        return {"slots": len(C.BASIC_CARDS) + ct.NB + len(C.PEN_TYPES), "inventions": len(C.INV_TYPE),
                "spaces": len(C.SPACE_LEVEL), "tracks": C.MASTERY_VP.shape[0], "track_spaces": C.MASTERY_VP.shape[1],
                "mentors": self.params.mentors, "tiles": max(int((C.TILE_LEVEL == lv).sum()) for lv in (1, 2, 3)),
                "penance": max(1, len(C.PEN_TYPES))}

    def _init(self, base: dict, num_players: int) -> GTState:
        C = self.C
        p = self.params
        B = base["game_id"].shape[0]
        P = num_players
        sizes = self.sizes(P)
        st = GTState(**base, **LAYOUT.allocate(B, P, sizes), sizes=sizes)
        st.coins[:] = p.start_coins
        st.research[:] = p.start_research
        st.books[:] = p.start_books
        st.susp[:] = p.start_suspicion
        st.mentor[:] = p.seals_per_mentor
        if self._set_up:  # False: a blank state (Game.blank_state)
            rules.setup_kernel(arrays(st), C, self.param_vector)
        apply_seat_bonus(st, p, START_RESOURCES, P)  # seat compensation (A-GT-34); none by default
        return st

    # ------------------------------------------------------------------ hooks
    def legal_action_mask(self, state: GTState) -> np.ndarray:
        out = np.zeros((state.batch_size, NUM_ACTIONS), np.bool_)
        rules.mask_kernel(arrays(state), self.C, self.param_vector, out)
        return out

    def to_act(self, state: GTState) -> np.ndarray:
        return state.to_act.astype(np.int64)

    def _apply(self, state: GTState, actions: np.ndarray, active: np.ndarray) -> None:
        rules.apply_kernel(arrays(state), self.C, self.param_vector, np.ascontiguousarray(actions, np.int64),
                           np.ascontiguousarray(active))

    def done(self, state: GTState) -> np.ndarray:
        return state.over != 0

    def final_scores(self, state: GTState) -> np.ndarray:
        return state.vp.astype(np.int64)

    def vp(self, state: GTState) -> np.ndarray:
        return state.vp.astype(np.int64)

    def score_breakdown(self, state: GTState) -> dict[str, np.ndarray]:
        out = {c: state.vp_cat[:, :, i].astype(np.int64) for i, c in enumerate(SCORE_CATEGORIES)}
        out["seat_bonus"] = (state.vp - state.vp_cat.sum(2)).astype(np.int64)  # start VP: in no category
        return out

    def tiebreak(self, state: GTState) -> np.ndarray:
        """``int64[B, P]`` tie-break key (higher wins; A-GT-22): lower Suspicion wins a tie, then more
        Coins, compared in that order (lexicographic, never combined by arithmetic). The key of seat
        ``p`` is the number of seats of its game that ``p`` beats on (Suspicion, Coins), so equal
        pairs get equal keys and the values stay in 0..P-1 whatever the Coins."""
        susp = state.susp.astype(np.int64)
        coins = state.coins.astype(np.int64)
        a_s, b_s = susp[:, :, None], susp[:, None, :]
        beats = (a_s < b_s) | ((a_s == b_s) & (coins[:, :, None] > coins[:, None, :]))
        return beats.sum(axis=2).astype(np.int64)

    end_reasons = {"last_cycle": "The game ended after its last Cycle (the only end; no safety stop)."}

    def progress(self, state: GTState):
        done = state.over
        cycles = np.where(done, state.cycle, state.cycle - 1).astype(np.int64)
        return state.turn.astype(np.int64), cycles

    vocabulary = VOCAB
    action_meaning = action_meanings.meaning  # what an action id does, in words (no state)

    def action_label(self, action: int) -> str:
        return _action_label(int(action))

    # ------------------------------------------------------------------ strategies
    def features(self, state: GTState) -> dict[str, np.ndarray]:
        """``{name: float[B, P]}`` features the heuristic weighs: ``vp``; ``end_vp`` (end-game VP
        already in sight if the game ended now: Copernican Truth bonus, Suspicion band or Stake,
        red end-game VP, seals beside the board, End-Game Inventions ignored); ``coins``,
        ``research``, ``books`` (all Subjects), ``suspicion``, ``level``, ``seals_left`` (on the
        Mentors), ``cards`` (owned Treatise cards), ``treatises`` (Treatise seals on the pyramid),
        ``tiles`` (Observation tiles), ``inventions`` (owned), ``copernican`` (0/1)."""
        C, p = self.C, self.params
        f64 = np.float64
        P = state.num_players
        tiles = (state.window >= 0).sum((2, 3))
        susp = state.susp
        band = np.zeros(susp.shape, np.int64)
        for k, start in enumerate(p.suspicion_band_starts):
            band = np.where(susp >= start, k, band)
        band_vp = np.asarray(p.suspicion_band_vp)[band]
        band_vp = np.where(state.phil == PH_STAKE, p.stake_vp, band_vp)
        truth = np.where(state.coper != 0, p.truth_vp_flat + p.truth_vp_per_tile * tiles, 0)
        end_vp = truth + band_vp - state.end_loss + state.beside * p.seal_beside_vp
        kind = np.where(state.ctype >= 0, C.CARD_KIND[np.maximum(state.ctype, 0)], ct.CK_NONE)
        owner = state.inv_owner
        inv = np.stack([(owner == q).sum(1) for q in range(P)], 1)
        seals = np.stack([(state.tseal == q).sum((1, 2)) for q in range(P)], 1)
        return {"vp": state.vp.astype(f64), "end_vp": end_vp.astype(f64), "coins": state.coins.astype(f64),
                "research": state.research.astype(f64), "books": state.books.sum(2).astype(f64),
                "suspicion": susp.astype(f64), "level": state.level.astype(f64),
                "seals_left": state.mentor.sum(2).astype(f64), "cards": ((kind == ct.CK_BASIC) | (kind == ct.CK_PYRAMID)).sum(2).astype(f64),
                "treatises": seals.astype(f64),
                "tiles": tiles.astype(f64), "inventions": inv.astype(f64), "copernican": state.coper.astype(f64)}

    def _redeterminize(self, state: GTState, seat: np.ndarray, streams) -> None:
        """Re-sample what game ``g`` hides from ``seat[g]`` (in place): every deck order below its
        known top (nobody looks through a deck; a card put on top stays), the other seats' unknown
        hand cards (pooled with their decks, redealt at the same size), the Observation bags, the
        Invention decks and the Penance supply (:mod:`meeplelab.sim.galileos_truth.hidden`)."""
        hidden.redeterminize_kernel(streams.keys, streams.counters, seat, state.game, state.seat, state.slot,
                                    state.pile)

    # ------------------------------------------------------------------ invariants
    def check_invariants(self, state: GTState) -> list[str]:
        C = self.C
        p = self.params
        out: list[str] = []
        gid = state.game_id

        def bad(mask_b, what):
            idx = np.flatnonzero(mask_b)
            if idx.size:
                out.append(f"game {int(gid[idx[0]])}: {what} ({idx.size} games)")

        bad((state.coins < 0).any(1), "negative Coins")
        bad((state.research < 0).any(1), "negative Research")
        bad((state.books < 0).any((1, 2)), "negative Books")
        bad(((state.susp < 0) | (state.susp > p.suspicion_max)).any(1), "Suspicion off the track")
        bad((state.abjure_cycle >= p.period3_first_cycle).any(1), "Abjure in Period III")
        start_vp = np.zeros(state.vp.shape, np.int64)
        start_vp[:] = np.asarray(getattr(p, f"seat_vp_{state.num_players}p", (0,) * state.num_players))
        bad((state.vp != state.vp_cat.sum(2) + start_vp).any(1),
            "VP differs from the sum of VP categories and the seat compensation")
        bad((state.vp != state.vp_ev).any(1), "VP differs from the sum of VP events")
        # cards: every used slot in exactly one zone, deck array = deck zone, unused slots empty
        nc = state.ctype.shape[2]
        slot = np.arange(nc)[None, None, :]
        used = slot < state.nslots[:, :, None]
        bad((used & ((state.czone < Z_DECK) | (state.czone > Z_REMOVED) | (state.ctype < 0))).any((1, 2)),
            "owned card slot without a zone")
        bad((~used & (state.ctype >= 0)).any((1, 2)), "card type in an unused slot")
        in_deck = (state.czone == Z_DECK) & used
        bad((in_deck.sum(2) != state.deck_n).any(1), "deck count differs from cards in the deck zone")
        valid = slot < state.deck_n[:, :, None]
        ids = np.where(valid, state.deck, 0)
        hit = np.zeros(state.ctype.shape, np.int64)
        bi, pi, _ = np.indices(ids.shape)
        np.add.at(hit, (bi, pi, np.clip(ids, 0, nc - 1)), valid.astype(np.int64))
        ok_deck = ~((hit != in_deck.astype(np.int64)).any((1, 2)) | (valid & (state.deck < 0)).any((1, 2)))
        bad(~ok_deck, "deck order does not match the deck zone")
        kind = np.where(state.ctype >= 0, C.CARD_KIND[np.maximum(state.ctype, 0)], ct.CK_NONE)
        pen_owned = (kind == ct.CK_PENANCE).sum((1, 2))
        bad(pen_owned + state.pen_n != len(C.PEN_TYPES), "Penance cards not conserved")
        seals_on_boards = np.stack([(state.tseal == q).sum((1, 2)) for q in range(state.num_players)], 1)
        bad(((kind == ct.CK_PYRAMID).sum(2) != seals_on_boards).any(1), "Treatise cards taken differ from pyramid seals")
        lv_seals = np.stack([(state.lvl_seal == q).sum((1, 2)) for q in range(state.num_players)], 1)
        m_seals = np.stack([(state.mastery == q).sum((1, 2)) for q in range(state.num_players)], 1)
        total = state.mentor.sum(2) + seals_on_boards + lv_seals + m_seals + state.beside
        bad((total != p.mentors * p.seals_per_mentor).any(1), "Wax Seals not conserved")
        bad((state.level - 1 != lv_seals).any(1), "Academic Level differs from Level seals")
        live = state.over == 0
        bad(live & (state.fr_n > D_FRAMES), "frame stack overflow")
        return out

    # ------------------------------------------------------------------ words
    def _card_name(self, t: int) -> str:
        return self.content.card_ids[t] if 0 <= t < len(self.content.card_ids) else f"card {t}"

    def describe_action(self, state: GTState, g: int, action: int) -> str:
        a = int(action)
        ph = int(state.phase[g])
        seat = int(state.to_act[g])
        who = f"Seat {seat + 1}"
        if a == A_PASS:
            return f"{who} passes for the rest of Cycle {int(state.cycle[g])}"
        if a == A_DONE:
            return {P_PENPAY: f"{who} keeps the Penance card (it cycles back into the deck)",
                    P_STACK: f"{who} finishes the stack (the top card is the Active Card)",
                    P_SEC: f"{who} skips the remaining Secondary Actions"}.get(ph, f"{who} is done with this step")
        if a == A_ABJURE:
            return f"{who} abjures: Principle Coin to Ptolemaic, Suspicion -{self.params.abjure_suspicion_drop}"
        if a == A_UPGRADE:
            return f"{who} upgrades to Academic Level {int(state.level[g, seat]) + 1}"
        if a == A_PAY:
            return f"{who} pays Coins to remove the Penance card from the game"
        if a == A_DECKTOP:
            return f"{who} puts the new Treatise on top of the deck"
        if A_GROUP <= a < A_SUBJ:
            return f"{who} resolves " + ("the first icon group", "the second icon group",
                                         "both icon groups (+1 Suspicion)")[a - A_GROUP]
        if A_SUBJ <= a < A_SEC:
            return f"{who} chooses {SUBJ_TITLE[a - A_SUBJ]}"
        if A_SEC <= a < A_OLEVEL:
            return f"{who} takes the Secondary Action {SEC_NAMES[a - A_SEC].capitalize()}"
        if A_OLEVEL <= a < A_KEEP:
            return f"{who} observes the sky at Level {a - A_OLEVEL + 1}"
        if A_KEEP <= a < A_CARD:
            if ph == P_OORDER:
                return f"{who} activates the " + ("Window space's icons first" if a == A_SPACE_FIRST else
                                                  "tile's icons first")
            t = int(state.obs_tiles[g, a - A_KEEP_TILE])
            return f"{who} keeps Observation tile {self.content.tile_ids[t] if t >= 0 else '?'}"
        if A_CARD <= a < A_RMDISC:
            t = a - A_CARD
            name = self._card_name(t)
            return {P_STACK: f"{who} adds {name} to the stack", P_PLACE: f"{who} takes the new card into hand, discarding {name}",
                    P_REMOVE: f"{who} removes {name} from hand"}.get(ph, f"{who} plays {name}")
        if A_RMDISC <= a < A_RMPLAY:
            return f"{who} removes {self._card_name(a - A_RMDISC)} from the discard pile"
        if A_RMPLAY <= a < A_BOARD:
            return f"{who} removes {self._card_name(a - A_RMPLAY)} from the play area"
        if A_BOARD <= a < A_INV:
            b = a - A_BOARD
            verb = {ct.OP["write"]: "writes", ct.OP["copy"]: "copies", ct.OP["read"]: "reads"}.get(int(state.cur_op[g]), "takes")
            return f"{who} {verb} the Treatise {self._card_name(int(self.C.BOARD_CARD[b]))} ({self.content.board_ids[b]})"
        if A_INV <= a < A_SLOT:
            return f"{who} uses the Invention {self.content.inv_ids[a - A_INV]}"
        if A_SLOT <= a < A_SPACE:
            i = int(state.workshop[g, a - A_SLOT])
            return (f"{who} creates the Invention {self.content.inv_ids[i] if i >= 0 else '?'} "
                    f"(Workshop slot {a - A_SLOT + 1} from the top)")
        if A_SPACE <= a < A_WIN:
            return f"{who} assigns the Natural Philosopher to {self.content.space_ids[a - A_SPACE]}"
        if a == A_EFFECTS:
            return f"{who} resolves the icon set's Effects now"
        if a >= A_ICON:
            i = a - A_ICON
            k = int(state.fr_n[g]) - 1
            op = int(self.C.ISET_OP[int(state.fr_set[g, k]), i // ct.K_ICONS, i % ct.K_ICONS]) if k >= 0 else 0
            name = list(ct.OPCODES)[op - 1] if op > 0 else "?"
            return (f"{who} resolves the Effect {name} (group {'AB'[i // ct.K_ICONS]}, icon {i % ct.K_ICONS + 1}) "
                    f"before the others")
        cell = a - A_WIN
        return f"{who} lays the tile on Window row {cell // ct.WCOLS + 1}, column {cell % ct.WCOLS + 1}"

    def describe_round(self, state: GTState, g: int) -> str:
        """Header line of the Cycle now under way (replay), naming what its start did (``start_cycle``,
        after ``end_cycle`` for Cycles after the first; A-GT-04, A-GT-06, A-GT-31). The Inquisition
        flip (A-GT-12) has its own event line under the header."""
        p = self.params
        c = int(state.cycle[g])
        period = "III" if c >= p.period3_first_cycle else "II" if c >= p.period2_first_cycle else "I"
        steps = [] if c == 1 else ["hands and play areas discarded, Philosophers back"]
        steps += ["Income", f"hands of {p.hand_size}"]
        if c == p.period3_first_cycle:
            steps.append("no Abjure from now on")
        return (f"--- Cycle {c} of {p.cycles} (Period {period}) begins: {', '.join(steps)}; "
                f"Seat {int(state.first[g]) + 1} goes first ---")

    def describe_event(self, row: dict) -> str:
        kind = row.get("kind")
        seat = row.get("seat")
        cat = row.get("category")
        amt = row.get("amount")
        item = row.get("item", -1)
        if isinstance(kind, (int, np.integer)):
            kind = EVENT_KINDS[int(kind)]
        if isinstance(cat, (int, np.integer)):
            cat = EVENT_CATEGORIES[int(cat)]
        who = f"Seat {int(seat) + 1}" if seat is not None else "Seat ?"
        if kind == "vp":
            return f"{who} {'scores' if amt >= 0 else 'loses'} {abs(amt)} VP ({cat}), now {row.get('after')}"
        if kind == "suspicion":
            by = f" because of Seat {row['target_seat'] + 1}" if row.get("target_seat", -1) >= 0 else ""
            return f"{who} Suspicion {row.get('before')} -> {row.get('after')} ({cat}{by})"
        if kind == "abjure":
            return (f"{who} abjures in Cycle {row.get('cycle')}: Suspicion {row.get('before')} -> {row.get('after')}, "
                    f"{amt} Copernican(s) hit")
        if kind == "prison":
            return f"{who}'s Natural Philosopher goes to Prison (Suspicion {row.get('after')})"
        if kind == "stake":
            return f"{who}'s Natural Philosopher goes to the Stake (Suspicion {row.get('after')})"
        if kind in ("write", "copy", "read"):
            name = self.content.board_ids[item] if 0 <= item < len(self.content.board_ids) else item
            tgt = row.get("target_seat", -1)
            extra = (f" for {amt} VP" if kind == "write" else
                     (f", Seat {tgt + 1} scores {amt} VP" if amt and tgt is not None and tgt >= 0 else ", nobody scores"))
            verb = {"write": "writes", "copy": "copies", "read": "reads"}[kind]
            seal = row.get("before")
            where = (f" on seal space {seal + 1}" if kind in ("write", "copy") and isinstance(seal, (int, np.integer))
                     and seal >= 0 else "")
            return f"{who} {verb} Treatise {name}{where}{extra}"
        if kind == "invent":
            slot = row.get("before")
            where = f" from Workshop slot {slot + 1}" if isinstance(slot, (int, np.integer)) and slot >= 0 else ""
            return f"{who} creates the Invention {self.content.inv_ids[item]}{where} for {amt} Coins"
        if kind == "use-invention":
            return f"{who} uses the Invention {self.content.inv_ids[item]}"
        if kind == "observe":
            cell = row.get("before")
            where = (f" on Window row {cell // ct.WCOLS + 1}, column {cell % ct.WCOLS + 1}"
                     if isinstance(cell, (int, np.integer)) and cell >= 0 else "")
            return f"{who} observes the sky: Level {amt} tile {self.content.tile_ids[item]}{where}"
        if kind == "upgrade":
            grad = self.content.grad_ids
            tile = f", Graduation tile {grad[item]}" if isinstance(item, (int, np.integer)) and 0 <= item < len(grad) else ""
            return f"{who} reaches Academic Level {row.get('after')} (seal space {amt + 1}{tile})"
        if kind == "play":
            name = self.content.card_ids[item] if 0 <= item < len(self.content.card_ids) else item
            return f"{who} plays the card {name} from hand"
        if kind == "penance":
            what = {"paid": f"pays {amt} Coins to remove a Penance card", "gained": "gains a Penance card",
                    "-": "plays a Penance card"}.get(cat, "Penance")
            return f"{who} {what}"
        if kind == "assign":
            sp = self.content.space_ids[item] if 0 <= item < len(self.content.space_ids) else item
            return f"{who} assigns the Natural Philosopher to the space {sp}"
        if kind == "inquisition":
            return f"The Inquisition token turns face up (Cycle {row.get('cycle')})"
        return super().describe_event(row)


def _board_rules(content, params):
    """The content arrays with ``params.printing_house`` (A-GT-16) applied to ``SPACE_EXCL[NS]``.

    ``exclusive`` (default) keeps board.toml's flag (exclusive in the packaged content; the arrays are the
    content's own, so games are unchanged); ``shared`` makes the space with id ``printing-house``
    non-exclusive (any number of Natural Philosophers per Cycle), whatever board.toml says.

    Raises:
        ConfigError: ``shared`` with content that has no ``printing-house`` space.
    """
    arr = content.arrays
    if params.printing_house == "exclusive":
        return arr
    if "printing-house" not in content.space_ids:
        raise ConfigError(f"parameter printing_house={params.printing_house!r} needs a board.toml space with id "
                          "'printing-house'; this content has none: use printing_house=exclusive")
    excl = arr.SPACE_EXCL.copy()
    excl[content.space_ids.index("printing-house")] = False
    return arr._replace(SPACE_EXCL=excl)
