"""Seed 000 §Moving your Professor or Freud, and the game around the seed (research UM §2-7, A-UM-nn)."""

import numpy as np

from meeplelab.sim.unconscious_mind import codes as R
from meeplelab.sim.unconscious_mind.actions import PASS, RECALL, TREAT
from meeplelab.sim.unconscious_mind.rules.turn_flow import start_turn

from .util import CH0, DONE, MODE0, events, new, place_action, push, step, top, top_entry


def first_legal(gm, s):
    m = gm.legal_action_mask(s)
    return np.array([int(np.flatnonzero(r)[0]) if r.any() else 0 for r in m])


# ------------------------------------------------------------------ movement (seed)
def test_professor_advances_one_or_two_locations_clockwise():
    gm, s = new()
    s.prof_loc[:, 0] = 5
    s.freud_loc[:] = 2
    push(s, R.D_PROF)
    m = gm.legal_action_mask(s)[0]
    assert m[CH0] and m[CH0 + 1] and not m[CH0 + 2]
    step(gm, s, np.array([CH0, CH0 + 1, CH0, CH0 + 1]))
    assert list(s.prof_loc[:, 0]) == [0, 1, 0, 1]  # clockwise wraps


def test_professor_moves_straight_to_freuds_location_only_from_elsewhere():
    gm, s = new()
    s.prof_loc[:, 0] = 0
    s.freud_loc[:] = 4
    push(s, R.D_PROF)
    step(gm, s, CH0 + R.CH_TO_FREUD)
    assert (s.prof_loc[:, 0] == 4).all()
    push(s, R.D_PROF)
    assert not gm.legal_action_mask(s)[0, CH0 + R.CH_TO_FREUD]


def test_freud_advances_one_to_three_locations_clockwise():
    gm, s = new()
    s.freud_loc[:] = 4
    push(s, R.D_FREUD)
    m = gm.legal_action_mask(s)[0]
    assert m[CH0:CH0 + 3].all() and not m[CH0 + 3]
    step(gm, s, np.array([CH0, CH0 + 1, CH0 + 2, CH0]))
    assert list(s.freud_loc) == [5, 0, 1, 5]


def test_after_the_move_the_new_locations_effects_may_be_triggered():
    gm, s = new()
    s.prof_loc[:, :] = 0
    s.freud_loc[:] = 2
    push(s, R.D_PROF)
    step(gm, s, CH0 + 1)
    assert top_entry(s)[:2] == (R.D_LOCTRIG, 2)
    assert gm.legal_action_mask(s)[0, DONE]  # optional
    sp0 = int(s.sp[0])
    step(gm, s, CH0 + 0)  # once per figure: the Professor and Freud
    assert int(s.sp[0]) - sp0 + 1 == 2 and top_entry(s)[:2] == (R.D_LOCEFF, 2)


def test_location_resolutions_capped_at_five_bright_idea_adds_two():
    gm, s = new(P=4)
    s.prof_loc[:, :] = 1
    s.freud_loc[:] = 1
    s.bright[:, 0] = 1
    push(s, R.D_LOCTRIG, 1)
    sp0 = int(s.sp[0])
    step(gm, s, CH0 + 2)  # 5 figures + 2 for the Bright Idea, capped at 5
    assert int(s.sp[0]) - sp0 + 1 == 5 and (s.bright[:, 0] == 0).all()


# ------------------------------------------------------------------ State Ideas
def test_state_ideas_on_an_empty_idea_space_blocks_it_for_everyone():
    gm, s = new()
    a = place_action(gm, "generate")
    sp = (a // 4)
    s.space_owner[:, sp] = 1
    s.space_n[:, sp] = 1
    s.space_act[:, sp] = 5
    m = gm.legal_action_mask(s)[0]
    assert not m[sp * 4:(sp + 1) * 4].any()


def test_not_twice_at_an_action_your_own_idea_points_at():
    gm, s = new()
    a0 = place_action(gm, "generate", 0)
    a1 = place_action(gm, "generate", 1)
    sp0 = a0 // 4
    s.space_owner[:, sp0] = 0
    s.space_n[:, sp0] = 1
    s.space_act[:, sp0] = 3  # generate
    s.ideas_hand[:, 0] -= 1
    m = gm.legal_action_mask(s)[0]
    assert not m[a1]
    s.space_owner[:, sp0] = 1  # another player's Idea does not forbid it
    assert gm.legal_action_mask(s)[0, a1]


def test_one_or_two_ideas_perform_the_action_once_or_twice():
    gm, s = new()
    s.inkpot[:, 0] = 3
    s.ideas_locked[:, 0] = 0  # no Idea unlocked by the inkpot in this test
    w0 = s.dial_w[:, 0, 1].copy()
    step(gm, s, place_action(gm, "generate"))
    step(gm, s, MODE0 + 2)  # two Ideas
    assert (s.dial_w[:, 0, 1] == w0 + 2).all()
    assert (s.ideas_hand[:, 0] == gm.params.start_ideas - 2).all()


def test_bright_ideas_stand_in_return_at_end_of_turn_and_adjust_inkpot_by_one_each():
    gm, s = new()
    s.bright[:, 0] = 1
    s.ideas_locked[:, 0] = 0
    a = place_action(gm, "generate")
    step(gm, s, a)
    step(gm, s, MODE0 + 1)  # one Bright Idea
    assert top_entry(s)[:3] == (R.D_INKPOT, 1, 2)
    m = gm.legal_action_mask(s)[0]
    assert list(np.flatnonzero(m[CH0:CH0 + 5])) == [1, 2, 3]  # move 2 -1/0/+1
    step(gm, s, CH0 + 1)
    assert (s.inkpot[:, 0] == 1).all()
    while s.to_act[0] == 0:
        step(gm, s, first_legal(gm, s))
    assert (s.space_owner[:, a // 4] == -1).all() and (s.bright[:, 0] == 0).all()
    assert (s.ideas_hand[:, 0] == gm.params.start_ideas).all()


def test_inkpot_passing_a_gain_idea_space_unlocks_an_idea():
    gm, s = new()
    s.inkpot[:, 0] = 0
    step(gm, s, place_action(gm, "generate"))
    step(gm, s, MODE0)
    assert (s.ideas_locked[:, 0] == gm.params.locked_ideas - 1).all()
    assert (s.ideas_hand[:, 0] == gm.params.start_ideas).all()  # one placed, one unlocked


def test_recall_gains_one_coffee_per_occupied_space_then_a_bonus():
    gm, s = new()
    for sp in (0, 5):
        s.space_owner[:, sp] = 0
        s.space_n[:, sp] = 1
        s.space_act[:, sp] = 3
    s.space_n[:, 5] = 2
    s.ideas_hand[:, 0] = 2
    c0 = s.coffee[:, 0].copy()
    step(gm, s, RECALL)
    assert (s.coffee[:, 0] == c0 + 2).all()
    assert (s.ideas_hand[:, 0] == 5).all() and (s.space_owner[:, [0, 5]] == -1).all()
    assert top(s) == R.D_RECALLB


def test_recall_location_bonus_covers_slot_with_district_token():
    gm, s = new()
    push(s, R.D_RECALLB)
    loc = int(s.prof_loc[0, 0])
    d = int(gm.A["loc_dist"][loc])
    r0 = s.rep[:, 0].copy()
    step(gm, s, CH0 + 1)
    assert (s.loc_cov[:, loc, 1] == 1).all()
    assert (s.dist_left[:, d] == gm.params.district_tokens - 1).all()
    assert (s.rep[:, 0] == r0 + 1).all()  # the top tokens carry reputation (A-UM-09)
    push(s, R.D_RECALLB)
    assert not gm.legal_action_mask(s)[0, CH0 + 1]


def test_district_bonus_needs_colour_insight_and_enough_tags():
    gm, s = new()
    loc = int(s.prof_loc[0, 0])
    d = int(gm.A["loc_dist"][loc])
    tagged = [c for c in range(40) if gm.A["loc_dist"][gm.A["card_tag"][c]] == d][:3]
    for c in tagged:
        s.card_loc[:, c] = R.L_INPLAY
        s.card_own[:, c] = 0
    push(s, R.D_RECALLB)
    assert not gm.legal_action_mask(s)[0, CH0 + 6]  # no colour Insight
    s.dial_c[:, 0, 0] = 1
    s.col_board[:, 0] = 5
    m = gm.legal_action_mask(s)[0]
    assert m[CH0 + 6] and not m[CH0 + 7]  # 3 tags: threshold 3 only
    step(gm, s, CH0 + 6)
    assert (s.dist_slot[:, d, 0] == 0).all() and (s.col_spent[:, 0] == 1).all()


def test_district_bonus_colour_insight_comes_from_the_reserve_or_any_ring_as_the_seat_chooses():
    gm, s = new()
    loc = int(s.prof_loc[0, 0])
    d = int(gm.A["loc_dist"][loc])
    tagged = [c for c in range(40) if gm.A["loc_dist"][gm.A["card_tag"][c]] == d][:3]
    for c in tagged:
        s.card_loc[:, c] = R.L_INPLAY
        s.card_own[:, c] = 0
    s.dial_c[:, 0, 0] = 1
    s.dial_c[:, 0, 7] = 1  # passion minor ring
    s.col_board[:, 0] = 4
    push(s, R.D_RECALLB)
    step(gm, s, CH0 + 6)
    assert (s.dist_slot[:, d, 0] == 0).all()
    assert top_entry(s)[:2] == (R.D_COLOUR, R.COLOUR_DISTRICT)  # chosen before the slot's reward resolves
    m = gm.legal_action_mask(s)[0]
    assert [int(a) - CH0 for a in np.flatnonzero(m)] == [0, 7]
    step(gm, s, np.array([CH0 + 7, CH0 + 0, CH0 + 7, CH0 + 0]))
    assert [list(s.dial_c[g, 0, [0, 7]]) for g in range(4)] == [[1, 0], [0, 1], [1, 0], [0, 1]]
    assert (s.col_spent[:, 0] == 1).all()
    assert (s.dial_c[:, 0].sum(axis=1) + s.col_board[:, 0] + s.col_spent[:, 0] == 6).all()  # conserved


def test_inkpot_reputation_space_scores_section_then_freud_section_action():
    gm, s = new()
    n = len(gm.A["ink_kind"])
    pos = int(np.flatnonzero(gm.A["ink_kind"] == R.INK_REP)[0])
    s.inkpot[:, 0] = (pos - 1) % n
    s.freud_rep[:] = 3
    c0 = s.coffee[:, 0].copy()
    push(s, R.D_INKPOT, 1, 1)
    step(gm, s, CH0 + 2)
    assert (s.coffee[:, 0] == c0 + 2).all()  # section 1 reward: coffee 2
    assert top_entry(s)[:2] == (R.D_REPACT, 1)
    m = gm.legal_action_mask(s)[0]
    assert m[CH0] and m[CH0 + 1] and not m[CH0 + 2] and m[DONE]


# ------------------------------------------------------------------ clients
def _client(s, room=0, cl=0, ther=5, manifest=-1, latent=-1):
    s.room_client[:, 0, room] = cl
    s.room_ther[:, 0, room] = ther
    s.room_manifest[:, 0, room] = manifest
    s.room_latent[:, 0, room] = latent


def _dream(gm, kind, quality, level, hearts):
    for d in range(len(gm.content.dream_ids)):
        if (gm.A["dr_kind"][d] == kind and gm.A["dr_cq"][d] == quality and gm.A["dr_cl"][d] == level
                and gm.content.effect_text[gm.A["dr_eff"][d]].split(";")[0] == f"hearts {hearts}"):
            return d
    raise AssertionError


def test_treat_pays_the_top_dream_manifest_first_then_resolves_its_hearts():
    gm, s = new()
    man = _dream(gm, 1, 0, 0, 1)
    lat = _dream(gm, 0, 3, 0, 2)
    _client(s, ther=6, manifest=man, latent=lat)
    s.dial_w[:, 0, :] = 0
    s.dial_w[:, 0, 0] = 4
    s.dial_w[:, 0, 2] = 1  # growth median pays a growth minor cost
    step(gm, s, TREAT)
    step(gm, s, CH0 + 0)
    assert (s.room_manifest[:, 0, 0] == -1).all() and (s.room_latent[:, 0, 0] == lat).all()
    assert (s.dial_w[:, 0, 2] == 0).all() and (s.room_ther[:, 0, 0] == 5).all()


def test_catharsis_passing_the_star_opens_room_two_and_cure_at_zero_scores_vp():
    gm, s = new()
    lat = _dream(gm, 0, 3, 0, 2)
    cl = 0
    _client(s, ther=4, latent=lat, cl=cl)
    s.dial_w[:, 0, 1] = 1
    step(gm, s, TREAT)
    s.event_n[:] = 0
    step(gm, s, CH0)
    assert (s.room_cath[:, 0, 0] == 1).all() and (s.room_open[:, 0, 1] == 1).all()
    assert events(gm, s, 0, "catharsis")
    # now 2: two more hearts cure
    _client(s, ther=2, latent=lat, cl=cl)
    s.room_cath[:, 0, 0] = 1
    push(s, R.D_THERAPY, 3)
    vp0 = s.vp[:, 0].copy()
    h0 = s.hearts[:, 0].copy()
    step(gm, s, CH0)
    assert (s.cured[:, 0] == 1).all() and (s.cl_owner[:, cl] == 0).all()
    assert (s.vp[:, 0] == vp0 + gm.A["cl_vp"][cl]).all()
    assert (s.hearts[:, 0] == h0 + 1).all()  # the point beyond 0 becomes a heart box


def test_symbol_match_between_manifest_dream_and_grief_layer_gains_a_heart_box():
    gm, s = new()
    cl = 0
    sym = gm.A["cl_sym"][cl]
    man = [d for d in range(48) if gm.A["dr_kind"][d] == 1 and gm.A["dr_sym"][d] == sym][0]
    _client(s, ther=8, manifest=man, cl=cl)
    s.dial_w[:, 0, 1:] = 3
    h0 = s.hearts[:, 0].copy()
    step(gm, s, TREAT)
    step(gm, s, CH0)
    assert (s.hearts[:, 0] == h0 + gm.params.symbol_match_hearts).all()


def test_heart_boxes_may_be_spent_as_therapy_at_end_of_turn():
    gm, s = new()
    _client(s, ther=6, latent=_dream(gm, 0, 3, 0, 2))
    s.hearts[:, 0] = 2
    push(s, R.D_HEARTS)
    step(gm, s, CH0)
    assert (s.hearts[:, 0] == 1).all() and (s.room_ther[:, 0, 0] == 5).all()
    assert top(s) == R.D_HEARTS


def test_new_client_taken_at_end_of_turn_for_each_empty_open_room():
    gm, s = new()
    while top(s) != R.D_NEWCLIENT:
        step(gm, s, first_legal(gm, s))
    assert s.to_act[0] == 0 and top_entry(s)[1] == 0
    cl = int(s.rdisp_cl[0, 0])
    step(gm, s, CH0)
    assert s.room_client[0, 0, 0] == cl and s.room_ther[0, 0, 0] == gm.A["cl_start"][cl]
    assert s.room_latent[0, 0, 0] >= 0


# ------------------------------------------------------------------ end of game
def test_freud_reaching_the_pocketwatch_triggers_the_end_and_plus_three_vp():
    gm, s = new()
    s.freud_rep[:] = gm.params.track_length - 1
    vp0 = s.vp[:, 0].copy()
    push(s, R.D_RECALLB)
    step(gm, s, CH0)  # a reputation token: Freud first, reaching the end
    assert (s.end_trig == 1).all() and (s.last_round == s.rnd + 1).all()
    assert (s.vp_cat[:, 0, R.C_END_TRIGGER] == gm.params.end_trigger_vp).all()
    assert (s.vp[:, 0] >= vp0 + gm.params.end_trigger_vp).all()


def test_game_finishes_the_round_then_one_more_round_without_new_clients():
    gm, s = new(P=2)
    s.end_trig[:] = 1
    s.last_round[:] = 2
    s.room_client[:, :, :] = -1
    rounds_seen = set()
    while not gm.done(s).all():
        if top(s) == R.D_NEWCLIENT:
            rounds_seen.add(int(s.rnd[0]))
        step(gm, s, first_legal(gm, s))
    assert (s.rnd == 2).all() and (s.turn == 4).all()
    assert 2 not in rounds_seen and 1 in rounds_seen


def test_final_scoring_categories():
    gm, s = new(P=2)
    s.to_act[:] = 1
    s.sp[:] = 0
    s.end_trig[:] = 1
    s.last_round[:] = 1
    s.hearts[:, 0] = 3
    s.coffee[:, 0] = 7
    s.bright[:, 0] = 1
    s.row_done[:, 0, :2] = 1
    s.dist_slot[:, 0, 0] = 0
    s.dist_slot[:, 2, 3] = 0
    s.rep[:, 0] = 4
    s.rep_order[:, 0] = 1
    s.cured[:, 0] = 1
    s.tr_owner[:, 3] = 0
    S, C, prm = gm.kernel_context(s)
    start_turn(S, C, prm, 0)  # seat 1's last turn
    for g in range(1, 4):
        start_turn(S, C, prm, g)
    while not gm.done(s).all():
        step(gm, s, first_legal(gm, s))
    bd = gm.score_breakdown(s)
    p = gm.params
    assert (bd["end_hearts"][:, 0] == 3 * p.heart_box_vp).all()
    assert (bd["end_bright"][:, 0] == 7 // 3 + 1).all()
    assert (bd["end_rows"][:, 0] == p.full_rows_vp[2]).all()
    assert (bd["end_districts"][:, 0] == p.district_vp[2]).all()
    assert (bd["end_reputation"][:, 0] == p.reputation_vp[4]).all()
    assert (bd["end_track_bonus"][:, 0] == p.track_bonus_first * 2).all()
    assert (bd["end_track_bonus"][:, 1] == p.track_bonus_second * (s.cured[:, 1] + (s.tr_owner == 1).sum(1))).all()
    assert np.array_equal(sum(bd.values()), gm.final_scores(s))


def test_solo_freud_advances_on_a_fixed_schedule():
    gm, s = new(P=1)
    f0 = s.freud_rep.copy()
    for _ in range(gm.params.solo_freud_every):
        t0 = s.turn.copy()
        while (s.turn == t0).any():
            step(gm, s, first_legal(gm, s))
    assert (s.freud_rep >= f0 + 1).all()


def test_round_limit_is_a_safety_end():
    import dataclasses
    from meeplelab.sim.unconscious_mind import UnconsciousMind
    gm = UnconsciousMind(dataclasses.replace(UnconsciousMind.Params(), round_limit=5))
    st = gm.play_random(np.arange(4), 3, 2)
    assert (st.rnd <= 5).all() and gm.done(st).all()


def test_pass_only_when_no_turn_option_is_possible():
    gm, s = new()
    m = gm.legal_action_mask(s)[0]
    assert not m[PASS]
    s.ideas_hand[:, 0] = 0
    s.bright[:, 0] = 0
    m = gm.legal_action_mask(s)[0]
    assert m[PASS] and not m[:64].any()


def test_goal_tile_is_claimed_as_soon_as_its_condition_holds():
    gm, s = new(goals=True)
    gid = int(s.goal_id[0, 0])
    op, a, n = (int(x) for x in gm.A["goal_cond"][gid])
    # meet the condition for seat 0 in every game; only this goal tile in play
    s.goal_id[:, 0] = gid
    s.goal_id[:, 1:] = -1
    if op == 1:
        cards = [c for c in range(40) if gm.A["card_tag"][c] == a][:n]
        for c in cards:
            s.card_loc[:, c] = R.L_INPLAY
            s.card_own[:, c] = 0
    elif op == 2:
        s.cured[:, 0] = n
    elif op == 3:
        s.tr_owner[:, :n] = 0
    else:
        cards = list(range(n))
        for c in cards:
            s.card_loc[:, c] = R.L_INPLAY
            s.card_own[:, c] = 0
    r0 = s.rep[:, 0].copy()
    push(s, R.D_FREUD)
    step(gm, s, CH0)  # any decision point checks the goals
    assert (s.goal_owner[:, 0] == 0).all() and (s.rep[:, 0] == r0 + gm.A["goal_rep"][gid]).all()


def test_every_action_and_event_has_words_for_the_replay():
    gm, s = new(P=3, B=2)
    from meeplelab.sim.core.rng import Streams
    st = Streams.for_games(3, s.game_id, 1)
    spec = gm.event_spec()
    names = [c.name for c in spec.columns]
    seen = set()
    while not gm.done(s).all():
        m = gm.legal_action_mask(s)
        for g in np.flatnonzero(~gm.done(s)):
            for a in np.flatnonzero(m[g]):
                w = gm.describe_action(s, int(g), int(a))
                assert isinstance(w, str) and w and not w.startswith(("choice:", "card:")), (top(s, g), a, w)
        live = np.flatnonzero(~gm.done(s))
        acts = np.full(2, -1, np.int64)
        acts[live] = st.choose_legal(live, m[live])
        gm.step(s, acts, m)
        for g in range(2):
            for row in s.event_buf[g, :s.event_n[g]]:
                d = dict(zip(names, (int(x) for x in row)))
                d["kind"] = R.EVENT_KINDS[d["kind"]]
                d["category"] = R.CATS[d["category"]]
                assert gm.describe_event(d)
                seen.add(d["kind"])
        s.event_n[:] = 0
        s.turn_n[:] = 0
    assert {"vp", "coffee_gain", "coffee_spend", "tile", "client"} <= seen
