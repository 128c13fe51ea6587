"""Seed 000 §Moving your Professor or Freud, and the game around the seed (research UM §2-7, A-UM-nn)."""

import dataclasses

import numpy as np

from meeplelab.sim.core.position import Position
from meeplelab.sim.core.rng import Streams
from meeplelab.sim.unconscious_mind import UnconsciousMind
from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.actions import CARD0, CH0
from meeplelab.sim.unconscious_mind.content import MT_ACTIONS

from .positions import GAME, start
from .positions import top as top_entry

A = GAME.A  # the content tables (content lookups only)


def first_legal(pos: Position) -> None:
    pos.act(pos.legal()[0])


def idea_space(action_name: str, skip: int = 0) -> tuple[str, int]:
    """The State Ideas label of the ``skip``-th idea space touching Meeting Table action ``action_name``, and
    that space."""
    want = MT_ACTIONS.index(action_name)
    for sp in range(A["space_act"].shape[0]):
        for d in range(4):
            if A["space_act"][sp, d] == want:
                if skip == 0:
                    return f"place:space{sp}:dir{d}", sp
                skip -= 1
    raise AssertionError(action_name)


def place_labels(space: int) -> list[str]:
    return [f"place:space{space}:dir{d}" for d in range(4)]


# ------------------------------------------------------------------ movement (seed)
def test_professor_advances_one_or_two_locations_clockwise():
    for g, (choice, want) in enumerate((("advance:1", 0), ("advance:2", 1), ("advance:1", 0), ("advance:2", 1))):
        pos = start(game_id=g).set(seat=0, prof_loc=5).set(freud_loc=2).give("decision", "D_PROF")
        legal = pos.legal()
        assert "advance:1" in legal and "advance:2" in legal and "advance:3" not in legal
        pos.act(choice)
        assert pos.get("prof_loc", seat=0) == want  # clockwise wraps


def test_professor_moves_straight_to_freuds_location_only_from_elsewhere():
    to_freud = "to-freud"
    for g in range(4):
        pos = start(game_id=g).set(seat=0, prof_loc=0).set(freud_loc=4).give("decision", "D_PROF")
        pos.act(to_freud)
        assert pos.get("prof_loc", seat=0) == 4
        pos.give("decision", "D_PROF")
        assert to_freud not in pos.legal()


def test_freud_advances_one_to_three_locations_clockwise():
    for g, (choice, want) in enumerate((("advance:1", 5), ("advance:2", 0), ("advance:3", 1), ("advance:1", 5))):
        pos = start(game_id=g).set(freud_loc=4).give("decision", "D_FREUD")
        legal = pos.legal()
        assert all(f"advance:{k + 1}" in legal for k in range(3)) and "advance:4" not in legal
        pos.act(choice)
        assert pos.get("freud_loc") == want


def test_after_the_move_the_new_locations_effects_may_be_triggered():
    for g in range(4):
        pos = start(game_id=g).set(freud_loc=2)
        for p in range(2):
            pos.set(seat=p, prof_loc=0)
        pos.give("decision", "D_PROF").act("advance:2")
        assert top_entry(pos)[:2] == ("D_LOCTRIG", 2)
        assert "done" in pos.legal()  # optional
        sp0 = pos.get("sp")
        pos.act("trigger:per-figure:plain")  # once per figure: the Professor and Freud
        assert pos.get("sp") - sp0 + 1 == 2 and top_entry(pos)[:2] == ("D_LOCEFF", 2)


def test_location_resolutions_capped_at_five_bright_idea_adds_two():
    for g in range(4):
        pos = start(players=4, game_id=g).set(freud_loc=1).set(seat=0, bright=1)
        for p in range(4):
            pos.set(seat=p, prof_loc=1)
        pos.give("decision", "D_LOCTRIG", 1)
        sp0 = pos.get("sp")
        pos.act("trigger:per-figure:bright")  # 5 figures + 2 for the Bright Idea, capped at 5
        assert pos.get("sp") - sp0 + 1 == 5 and pos.get("bright", seat=0) == 0


# ------------------------------------------------------------------ State Ideas
def test_state_ideas_on_an_empty_idea_space_blocks_it_for_everyone():
    _, sp = idea_space("generate")
    pos = start()
    pos.put("space_owner", sp, 1)
    pos.put("space_n", sp, 1)
    pos.put("space_act", sp, 5)
    assert not set(place_labels(sp)) & set(pos.legal())


def test_not_twice_at_an_action_your_own_idea_points_at():
    _, sp0 = idea_space("generate", 0)
    a1, _ = idea_space("generate", 1)
    pos = start()
    pos.put("space_owner", sp0, 0)
    pos.put("space_n", sp0, 1)
    pos.put("space_act", sp0, MT_ACTIONS.index("generate"))
    pos.set(seat=0, ideas_hand=pos.get("ideas_hand", seat=0) - 1)
    assert a1 not in pos.legal()
    pos.put("space_owner", sp0, 1)  # another player's Idea does not forbid it
    assert a1 in pos.legal()


def test_one_or_two_ideas_perform_the_action_once_or_twice():
    for g in range(4):
        pos = start(game_id=g).set(seat=0, inkpot=3, ideas_locked=0)  # no Idea unlocked by the inkpot in this test
        w0 = pos.get("dial_w", seat=0)[1]
        pos.act(idea_space("generate")[0], "mode:2-ideas")  # two Ideas
        assert pos.get("dial_w", seat=0)[1] == w0 + 2
        assert pos.get("ideas_hand", seat=0) == GAME.params.start_ideas - 2


def test_bright_ideas_stand_in_return_at_end_of_turn_and_adjust_inkpot_by_one_each():
    a, sp = idea_space("generate")
    for g in range(4):
        pos = start(game_id=g).set(seat=0, bright=1, ideas_locked=0)
        pos.act(a, "mode:1-bright")  # one Bright Idea
        assert top_entry(pos)[:3] == ("D_INKPOT", 1, 2)
        inkpot = ("inkpot:-2", "inkpot:-1", "inkpot:+0", "inkpot:+1", "inkpot:+2")
        assert [k for k in range(5) if inkpot[k] in pos.legal()] == [1, 2, 3]  # move 2 -1/0/+1
        pos.act("inkpot:-1")
        assert pos.get("inkpot", seat=0) == 1
        while pos.get("to_act") == 0:
            first_legal(pos)
        assert pos.get("space_owner")[sp] == -1 and pos.get("bright", seat=0) == 0
        assert pos.get("ideas_hand", seat=0) == GAME.params.start_ideas


def test_inkpot_passing_a_gain_idea_space_unlocks_an_idea():
    for g in range(4):
        pos = start(game_id=g).set(seat=0, inkpot=0)
        pos.act(idea_space("generate")[0], "mode:1-idea")
        assert pos.get("ideas_locked", seat=0) == GAME.params.locked_ideas - 1
        assert pos.get("ideas_hand", seat=0) == GAME.params.start_ideas  # one placed, one unlocked


def test_recall_gains_one_coffee_per_occupied_space_then_a_bonus():
    for g in range(4):
        pos = start(game_id=g)
        for sp, n in ((0, 1), (5, 2)):
            pos.put("space_owner", sp, 0)
            pos.put("space_n", sp, n)
            pos.put("space_act", sp, 3)
        pos.set(seat=0, ideas_hand=2)
        c0 = pos.get("coffee", seat=0)
        pos.act("recall")
        assert pos.get("coffee", seat=0) == c0 + 2
        assert pos.get("ideas_hand", seat=0) == 5 and [pos.get("space_owner")[sp] for sp in (0, 5)] == [-1, -1]
        assert pos.pending().decision == "D_RECALLB"


def test_recall_location_bonus_covers_slot_with_district_token():
    for g in range(4):
        pos = start(game_id=g).give("decision", "D_RECALLB")
        loc = pos.get("prof_loc", seat=0)
        d = int(A["loc_dist"][loc])
        r0 = pos.get("rep", seat=0)
        pos.act("bonus:professor:1")
        assert pos.get("loc_cov")[loc][1] == 1
        assert pos.get("dist_left")[d] == GAME.params.district_tokens - 1
        assert pos.get("rep", seat=0) == r0 + 1  # the top tokens carry reputation (A-UM-09)
        pos.give("decision", "D_RECALLB")
        assert "bonus:professor:1" not in pos.legal()


def _tagged(district: int, n: int = 3) -> list[int]:
    """The first ``n`` Research cards whose tag is a Location of ``district``."""
    return [c for c in range(40) if A["loc_dist"][A["card_tag"][c]] == district][:n]


def test_district_bonus_needs_colour_insight_and_enough_tags():
    for g in range(4):
        pos = start(game_id=g)
        loc = pos.get("prof_loc", seat=0)
        d = int(A["loc_dist"][loc])
        pos.give("in_play", 0, _tagged(d)).give("decision", "D_RECALLB")
        assert "district:professor:slot0" not in pos.legal()  # no colour Insight
        pos.put("dial_c", 0, 1, seat=0).set(seat=0, col_board=5)
        legal = pos.legal()
        # 3 tags: threshold 3 only
        assert "district:professor:slot0" in legal and "district:professor:slot1" not in legal
        pos.act("district:professor:slot0")
        assert pos.get("dist_slot")[d][0] == 0 and pos.get("col_spent", seat=0) == 1


def test_district_bonus_colour_insight_comes_from_the_reserve_or_any_ring_as_the_seat_chooses():
    for g, (choice, want) in enumerate((("colour:passion:minor", [1, 0]), ("colour:reserve", [0, 1]),
                                        ("colour:passion:minor", [1, 0]), ("colour:reserve", [0, 1]))):
        pos = start(game_id=g)
        loc = pos.get("prof_loc", seat=0)
        d = int(A["loc_dist"][loc])
        pos.give("in_play", 0, _tagged(d))
        pos.put("dial_c", 0, 1, seat=0)
        pos.put("dial_c", 7, 1, seat=0)  # passion minor ring
        pos.set(seat=0, col_board=4).give("decision", "D_RECALLB")
        pos.act("district:professor:slot0")
        assert pos.get("dist_slot")[d][0] == 0
        assert top_entry(pos)[:2] == ("D_COLOUR", R.COLOUR_DISTRICT)  # chosen before the slot's reward resolves
        assert pos.legal() == ["colour:reserve", "colour:passion:minor"]
        pos.act(choice)
        dial_c = pos.get("dial_c", seat=0)
        assert [dial_c[0], dial_c[7]] == want
        assert pos.get("col_spent", seat=0) == 1
        assert sum(dial_c) + pos.get("col_board", seat=0) + pos.get("col_spent", seat=0) == 6  # conserved


def test_inkpot_reputation_space_scores_section_then_freud_section_action():
    n = len(A["ink_kind"])
    rep_space = int(np.flatnonzero(A["ink_kind"] == R.INK_REP)[0])
    for g in range(4):
        pos = start(game_id=g).set(seat=0, inkpot=(rep_space - 1) % n).set(freud_rep=3)
        c0 = pos.get("coffee", seat=0)
        pos.give("decision", "D_INKPOT", 1, 1).act("inkpot:+0")
        assert pos.get("coffee", seat=0) == c0 + 2  # section 1 reward: coffee 2
        assert top_entry(pos)[:2] == ("D_REPACT", 1)
        legal = pos.legal()
        assert ("section-action:0" in legal and "section-action:1" in legal and "section-action:2" not in legal
                and "done" in legal)


# ------------------------------------------------------------------ clients
def _client(pos, room=0, cl=0, ther=5, manifest=-1, latent=-1):
    """Seat 0's office room ``room`` holds client ``cl`` on therapy space ``ther`` with these dreams."""
    for name, v in (("room_client", cl), ("room_ther", ther), ("room_manifest", manifest), ("room_latent", latent)):
        pos.put(name, room, v, seat=0)
    return pos


def _dream(kind, quality, level, hearts):
    for d in range(len(GAME.content.dream_ids)):
        if (A["dr_kind"][d] == kind and A["dr_cq"][d] == quality and A["dr_cl"][d] == level
                and GAME.content.effect_text[A["dr_eff"][d]].split(";")[0] == f"hearts {hearts}"):
            return d
    raise AssertionError


def test_treat_pays_the_top_dream_manifest_first_then_resolves_its_hearts():
    man = _dream(1, 0, 0, 1)
    lat = _dream(0, 3, 0, 2)
    for g in range(4):
        pos = _client(start(game_id=g), ther=6, manifest=man, latent=lat)
        pos.set(seat=0, dial_w=[4, 0, 1, 0, 0, 0, 0, 0, 0, 0])  # growth median pays a growth minor cost
        pos.act("treat", "room:0")
        assert pos.get("room_manifest", seat=0)[0] == -1 and pos.get("room_latent", seat=0)[0] == lat
        assert pos.get("dial_w", seat=0)[2] == 0 and pos.get("room_ther", seat=0)[0] == 5


def test_catharsis_passing_the_star_opens_room_two_and_cure_at_zero_scores_vp():
    lat = _dream(0, 3, 0, 2)
    cl = 0
    for g in range(4):
        pos = _client(start(game_id=g), ther=4, latent=lat, cl=cl)
        pos.put("dial_w", 1, 1, seat=0)
        pos.act("treat")
        n0 = len(pos.events("catharsis"))
        pos.act("room:0")
        assert pos.get("room_cath", seat=0)[0] is True and pos.get("room_open", seat=0)[1] is True
        assert len(pos.events("catharsis")) > n0  # logged by this step
        # now 2: two more hearts cure
        _client(pos, ther=2, latent=lat, cl=cl)
        pos.put("room_cath", 0, 1, seat=0).give("decision", "D_THERAPY", 3)
        vp0 = pos.get("vp", seat=0)
        h0 = pos.get("hearts", seat=0)
        pos.act("room:0")
        assert pos.get("cured", seat=0) == 1 and pos.get("cl_owner")[cl] == 0
        assert pos.get("vp", seat=0) == vp0 + A["cl_vp"][cl]
        assert pos.get("hearts", seat=0) == h0 + 1  # the point beyond 0 becomes a heart box


def test_symbol_match_between_manifest_dream_and_grief_layer_gains_a_heart_box():
    cl = 0
    sym = A["cl_sym"][cl]
    man = [d for d in range(48) if A["dr_kind"][d] == 1 and A["dr_sym"][d] == sym][0]
    for g in range(4):
        pos = _client(start(game_id=g), ther=8, manifest=man, cl=cl)
        pos.put("dial_w", slice(1, None), 3, seat=0)
        h0 = pos.get("hearts", seat=0)
        pos.act("treat", "room:0")
        assert pos.get("hearts", seat=0) == h0 + GAME.params.symbol_match_hearts


def test_heart_boxes_may_be_spent_as_therapy_at_end_of_turn():
    for g in range(4):
        pos = _client(start(game_id=g), ther=6, latent=_dream(0, 3, 0, 2)).set(seat=0, hearts=2)
        pos.give("decision", "D_HEARTS").act("room:0")
        assert pos.get("hearts", seat=0) == 1 and pos.get("room_ther", seat=0)[0] == 5
        assert pos.pending().decision == "D_HEARTS"


def test_new_client_taken_at_end_of_turn_for_each_empty_open_room():
    pos = start()
    while pos.pending().decision != "D_NEWCLIENT":
        first_legal(pos)
    assert pos.get("to_act") == 0 and top_entry(pos)[1] == 0
    cl = pos.get("rdisp_cl")[0]
    pos.act("routine:0")
    assert pos.get("room_client", seat=0)[0] == cl and pos.get("room_ther", seat=0)[0] == A["cl_start"][cl]
    assert pos.get("room_latent", seat=0)[0] >= 0


# ------------------------------------------------------------------ end of game
def test_freud_reaching_the_pocketwatch_triggers_the_end_and_plus_three_vp():
    for g in range(4):
        pos = start(game_id=g).set(freud_rep=GAME.params.track_length - 1)
        vp0 = pos.get("vp", seat=0)
        pos.give("decision", "D_RECALLB").act("bonus:professor:0")  # a reputation token: Freud first, reaching the end
        assert pos.get("end_trig") is True and pos.get("last_round") == pos.get("rnd") + 1
        assert pos.scores()["end_trigger"][0] == GAME.params.end_trigger_vp
        assert pos.get("vp", seat=0) >= vp0 + GAME.params.end_trigger_vp


def test_game_finishes_the_round_then_one_more_round_without_new_clients():
    for g in range(4):
        pos = start(players=2, game_id=g).set(end_trig=1, last_round=2)
        for p in range(2):
            pos.set(seat=p, room_client=[-1, -1])
        rounds_seen = set()
        while not pos.over():
            if pos.pending().decision == "D_NEWCLIENT":
                rounds_seen.add(pos.get("rnd"))
            first_legal(pos)
        assert pos.get("rnd") == 2 and pos.get("turn") == 4
        assert 2 not in rounds_seen and 1 in rounds_seen


def test_final_scoring_categories():
    p = GAME.params
    for g in range(4):
        pos = start(players=2, game_id=g)
        # the fresh position's stack is a turn just started (start_turn: K_FINISH, K_CLIENTS, D_HEARTS, D_TURN):
        # handed to seat 1, it is seat 1's last turn
        assert pos.get("stk_kind")[:pos.get("sp")] == [R.K_FINISH, R.K_CLIENTS, R.D_HEARTS, R.D_TURN]
        pos.set(to_act=1, end_trig=1, last_round=1)
        pos.set(seat=0, hearts=3, coffee=7, bright=1, rep=4, rep_order=1, cured=1)
        pos.put("row_done", slice(0, 2), 1, seat=0)
        pos.put("dist_slot", (0, 0), 0)
        pos.put("dist_slot", (2, 3), 0)
        pos.put("tr_owner", 3, 0)
        assert pos.pending().decision == "D_TURN" and pos.pending().seat == 1
        while not pos.over():
            first_legal(pos)
        bd = pos.scores()
        assert bd["end_hearts"][0] == 3 * p.heart_box_vp
        assert bd["end_bright"][0] == 7 // 3 + 1
        assert bd["end_rows"][0] == p.full_rows_vp[2]
        assert bd["end_districts"][0] == p.district_vp[2]
        assert bd["end_reputation"][0] == p.reputation_vp[4]
        assert bd["end_track_bonus"][0] == p.track_bonus_first * 2
        assert bd["end_track_bonus"][1] == p.track_bonus_second * (
            pos.get("cured", seat=1) + sum(o == 1 for o in pos.get("tr_owner")))
        vp = bd.pop("vp")
        assert [sum(v[s] for v in bd.values()) for s in range(2)] == vp


def test_solo_freud_advances_on_a_fixed_schedule():
    for g in range(4):
        pos = start(players=1, game_id=g)
        f0 = pos.get("freud_rep")
        for _ in range(GAME.params.solo_freud_every):
            t0 = pos.get("turn")
            while pos.get("turn") == t0:
                first_legal(pos)
        assert pos.get("freud_rep") >= f0 + 1


def test_round_limit_is_a_safety_end():
    gm = UnconsciousMind(dataclasses.replace(UnconsciousMind.Params(), round_limit=5))
    for g in range(4):
        pos = Position(gm, gm.play_random(np.array([g]), 3, 2))  # a random game of run seed 3 to its end
        assert pos.get("rnd") <= 5 and pos.over()


def test_pass_only_when_no_turn_option_is_possible():
    pos = start()
    assert "pass" not in pos.legal()
    pos.set(seat=0, ideas_hand=0, bright=0)
    legal = pos.legal()
    assert "pass" in legal and not any(a.startswith("place:") for a in legal)


def test_goal_tile_is_claimed_as_soon_as_its_condition_holds():
    gid = start(goals=True).get("goal_id")[0]
    op, a, n = (int(x) for x in A["goal_cond"][gid])
    for g in range(4):
        pos = start(game_id=g, goals=True)
        # meet the condition for seat 0 in every game; only this goal tile in play
        pos.set(goal_id=[gid] + [-1] * (len(pos.get("goal_id")) - 1))
        if op == 1:
            pos.give("in_play", 0, [c for c in range(40) if A["card_tag"][c] == a][:n])
        elif op == 2:
            pos.set(seat=0, cured=n)
        elif op == 3:
            pos.put("tr_owner", slice(0, n), 0)
        else:
            pos.give("in_play", 0, list(range(n)))
        r0 = pos.get("rep", seat=0)
        pos.give("decision", "D_FREUD").act("advance:1")  # any decision point checks the goals
        assert pos.get("goal_owner")[0] == 0 and pos.get("rep", seat=0) == r0 + A["goal_rep"][gid]


def test_every_action_and_event_has_words_for_the_replay():
    seen = set()
    # the decision-free (offset) label forms a word must not fall back to: a choice id's, a card id's
    raw = tuple(GAME.action_label(a).split(":")[0] + ":" for a in (CH0, CARD0))
    for g in range(2):
        pos = start(players=3, game_id=g)
        st = Streams.for_games(3, np.array([g]), 1)
        while not pos.over():
            p = pos.pending()
            for a, w in zip(p.options, p.words):
                assert isinstance(w, str) and w and not w.startswith(raw), (p.decision, a, w)
            pos.act(int(st.choose_legal(np.array([0]), GAME.legal_action_mask(pos.state))[0]))
            for d in pos.events():
                assert GAME.describe_event(d)
                seen.add(d["kind"])
            GAME.drain_logs(pos.state)  # the events are read: empty the buffers (Position cannot)
    assert {"vp", "coffee_gain", "coffee_spend", "tile", "client"} <= seen
