"""ISMCTS inside the compiled play kernel (sim/core/ismcts.py, the written <pkg>/ismcts.py).

The compiled search makes the choices of the Python search (strategies/ismcts.py, ``--python-loop``) on the same
streams, so whole games are identical on both paths for every argument but ``ms``; games are identical for any batch
size, chunk size and n_jobs; the tree helpers reproduce the Python search's selection rules.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplelab.play.config import RunConfig
from meeplelab.sim.core import ismcts as K
from meeplelab.sim.core.errors import ConfigError
from meeplelab.play.batch import play_batch, uses_compiled_play
from meeplelab.sim.registry import make_game
from meeplelab.play.runner import simulate
from meeplelab.strategies import make_strategy
from meeplelab.strategies.ismcts import iteration_streams
from tests.test_runner import assert_same_tables

GT, UM = "galileos-truth", "unconscious-mind"


def _games(game_id, specs, ids, seed, compiled=True):
    g = make_game(game_id)
    res = play_batch(g, [make_strategy(game_id, s) for s in specs], np.asarray(ids), seed, compiled=compiled)
    return res.games.to_pandas().sort_values(["game", "seat"]).reset_index(drop=True), res


# -------------------------------------------------------------------------------------------- the same games

@pytest.mark.parametrize("game_id,spec", [
    (GT, "ismcts:iters=8,par=4,prior=3,depth=1"),
    (GT, "ismcts:iters=6,depth=8,widen=2,c=0.05"),
    (GT, "ismcts:iters=6,top=0,depth=4,horizon=1"),
    (GT, "ismcts:iters=8,kinds=P_MAIN+P_SEC,gap=2,horizon=3"),
    (UM, "ismcts:iters=8,par=4,prior=3,depth=1,c=0.1"),
    (UM, "ismcts:iters=6,depth=8,widen=2"),
    (UM, "ismcts:iters=6,top=0,kinds=D_TURN+D_MODE,depth=3,horizon=1,policy=random"),
])
def test_compiled_search_plays_the_games_of_the_python_search(game_id, spec):
    a, ra = _games(game_id, (spec, "heuristic"), np.arange(2), 3)
    b, rb = _games(game_id, (spec, "heuristic"), np.arange(2), 3, compiled=False)
    assert a.equals(b)
    assert ra.turns.equals(rb.turns) and ra.events.equals(rb.events)
    assert a.plies.min() > 50  # whole games


def test_the_search_seat_plays_inside_the_kernel_and_ms_keeps_it_on_the_python_path():
    g = make_game(GT)
    seat = [make_strategy(GT, "ismcts:iters=4"), make_strategy(GT, "heuristic")]
    assert K.search_specs(g, seat)[0] is not None and K.search_specs(g, seat)[1] is None
    assert uses_compiled_play(g, [make_strategy(GT, "ismcts:iters=4")] * 2)
    timed = make_strategy(GT, "ismcts:iters=4,ms=5")
    assert timed.compiled_search(g) is None and not uses_compiled_play(g, [timed, timed])
    toy = make_game("toy")  # no valued features: no compiled heuristic, so no compiled search
    assert K.search_specs(toy, [make_strategy("toy", "ismcts:iters=4")]) == [None]


def test_a_compiled_search_is_as_strong_as_the_python_reference_on_the_same_arguments():
    """The strength check: the same arguments on both paths, both seat orders, common seeds: the same games, so the
    same win rate (the 400-game comparison is the bench's search part, benchmarks/RESULTS.md)."""
    spec = "ismcts:iters=8,par=4,prior=2,depth=1,horizon=3"
    share = {}
    for compiled in (True, False):
        a, _ = _games(GT, (spec, "heuristic"), np.arange(3), 11, compiled)
        b, _ = _games(GT, ("heuristic", spec), np.arange(3), 11, compiled)
        share[compiled] = (a[a.seat == 0].win_share.sum() + b[b.seat == 1].win_share.sum(), a, b)
    assert share[True][0] == share[False][0]
    assert share[True][1].equals(share[False][1]) and share[True][2].equals(share[False][2])


@pytest.mark.parametrize("game_id,spec", [(GT, "ismcts:iters=6,par=2,prior=2,depth=2,horizon=3"),
                                          (UM, "ismcts:iters=4,depth=1,horizon=1")])
@pytest.mark.parametrize("batch_size,chunk_size,n_jobs", [(1, 3, 1), (4, 4, 2)])
def test_compiled_search_games_are_identical_for_any_batch_size_chunking_and_n_jobs(tmp_path, game_id, spec,
                                                                                  batch_size, chunk_size, n_jobs):
    def run(name, **kw):
        out = tmp_path / name
        simulate(RunConfig(game=game_id, players=2, strategies=(spec, "heuristic"), games=8, seed=2, out=str(out),
                           seating="rotate", **kw))
        return out

    assert_same_tables(run("ref", batch_size=8, chunk_size=8),
                       run("other", batch_size=batch_size, chunk_size=chunk_size, n_jobs=n_jobs))


# -------------------------------------------------------------------------------------------- arguments

def test_kinds_names_the_engines_decision_kinds_and_refuses_another_in_one_line():
    g = make_game(GT)
    s = make_strategy(GT, "ismcts:kinds=P_MAIN+P_SEC")
    assert s.kind_codes(g) == frozenset({0, 5})
    assert make_strategy(GT, "ismcts").kind_codes(g) == frozenset({0})  # the default: P_MAIN only
    assert make_strategy(UM, "ismcts").kind_codes(make_game(UM)) is None  # every kind
    with pytest.raises(ConfigError, match=r"kinds='P_MAIN\+MAIN': 'MAIN' is not a decision kind of galileos-truth: "
                                          r"allowed P_MAIN, P_STACK, "):
        make_strategy(GT, "ismcts:kinds=P_MAIN+MAIN")  # when the id is read


def test_a_decision_left_to_the_heuristic_is_the_heuristics_choice():
    """kinds=P_OVER (a kind never pending at a decision) searches nothing: every decision is the heuristic's, on the
    draws after the search's first one, so the search seat plays as the heuristic would on those streams."""
    a, _ = _games(GT, ("ismcts:iters=4,kinds=P_OVER", "heuristic"), np.arange(2), 5)
    b, _ = _games(GT, ("ismcts:iters=4,kinds=P_OVER", "heuristic"), np.arange(2), 5, compiled=False)
    assert a.equals(b)


# -------------------------------------------------------------------------------------------- the tree helpers

def _tree(n=16):
    f, i = np.zeros(n), np.zeros(n, np.int64)
    tree = (f.copy(), f.copy(), f.copy(), i.copy(), i.copy(), i.copy(), np.zeros(1, np.int64))
    K.tree_clear(*tree)
    return tree


def test_top_candidates_are_numpys_stable_argsort_and_top_zero_rotates_as_numpy_roll():
    rng = np.random.default_rng(0)
    for _ in range(50):
        mask = rng.random(20) < 0.6
        if not mask.any():
            continue
        scores = rng.integers(0, 4, 20).astype(float)  # many ties
        legal = np.flatnonzero(mask)
        cand, marg = np.zeros(20, np.int64), np.zeros(20)
        k = K.top_candidates(scores, mask, 3, cand, marg)
        order = np.argsort(-scores[legal], kind="stable")[:3]
        assert cand[:k].tolist() == legal[order].tolist() and marg[:k].tolist() == scores[legal][order].tolist()
        u = float(rng.random())
        k = K.rotated_legal(mask, u, cand)
        assert cand[:k].tolist() == np.roll(legal, int(u * legal.size)).tolist()


def test_root_selection_expands_candidates_in_order_then_takes_the_best_uct_value():
    nn, nw, nav, nact, nfirst, nnext, cnt = tree = _tree()
    cand = np.array([7, 3, 5])
    got = [K.select_root(*tree, cand, 3, 0.7) for _ in range(3)]
    assert [(a, e) for a, _, e in got] == [(7, True), (3, True), (5, True)]
    for _, ch, _ in got:
        nn[ch] += 1
    nw[K.find_child(nact, nfirst, nnext, 0, 3)] = 1.0  # candidate 3 won its iteration
    a, ch, expanded = K.select_root(*tree, cand, 3, 0.7)
    assert (a, expanded) == (3, False) and nact[ch] == 3
    assert nav[ch] == 3  # available at every iteration since its expansion (3 of them counted at this root)


def test_below_the_root_untried_actions_are_expanded_by_u_and_ties_go_to_the_lower_action():
    nn, nw, nav, nact, nfirst, nnext, cnt = tree = _tree()
    root_child = K.add_child(*tree, 0, 2)
    mask = np.zeros(6, np.bool_)
    mask[[1, 4, 5]] = True
    used = np.zeros(6, np.bool_)
    a, ch, expanded = K.select_node(*tree, root_child, mask, used, 0.5, 0.7, 0.0, -1)
    assert (a, expanded) == (4, True) and not used.any()  # int(0.5 x 3) = 1: the second untried action
    for b in (1, 5):
        K.add_child(*tree, root_child, b)
    for x in range(cnt[0]):
        if nact[x] in (1, 4, 5):
            nn[x], nw[x] = 1.0, 0.5
    a, ch, expanded = K.select_node(*tree, root_child, mask, used, 0.9, 0.7, 0.0, -1)
    assert (a, expanded) == (1, False)  # equal UCT values: the lower action
    # widening: the plan's action first, then nothing new until widen x children visits
    nn2 = _tree()
    n2 = K.add_child(*nn2, 0, 0)
    a, ch, e = K.select_node(*nn2, n2, mask, used, 0.0, 0.7, 2.0, 5)
    assert (a, e) == (5, True)
    nn2[0][ch] += 1  # its visit (the search counts it right after the selection)
    a, _, e = K.select_node(*nn2, n2, mask, used, 0.0, 0.7, 2.0, 5)
    assert (a, e) == (5, False)  # the node has 0 visits < 2 x 1 child: no widening yet


def test_the_search_stops_only_when_the_remaining_iterations_cannot_change_the_most_visited_root_child():
    nn, nw, nav, nact, nfirst, nnext, cnt = tree = _tree()
    for a, n in ((4, 9.0), (1, 5.0)):
        nn[K.add_child(*tree, 0, a)] = n
    assert K.decided(nn, nfirst, nnext, 3) and not K.decided(nn, nfirst, nnext, 4)  # a lead of 4: 3 left, not 4
    assert K.best_root(nn, nw, nact, nfirst, nnext, -1) == 4
    nn[K.find_child(nact, nfirst, nnext, 0, 1)] = 9.0
    nw[K.find_child(nact, nfirst, nnext, 0, 1)] = 3.0
    assert K.best_root(nn, nw, nact, nfirst, nnext, -1) == 1  # equal visits: the better mean
    e = _tree()
    assert K.best_root(e[0], e[1], e[3], e[4], e[5], 8) == 8  # no child: the fallback


def test_rewards_are_win_shares_when_over_else_the_logistic_of_the_margin():
    vals, vps = np.array([3.0, 1.0, 3.0]), np.array([10.0, 12.0, 12.0])
    assert [K.reward_of(vals, vps, q, True, 5.0) for q in range(3)] == [0.0, 0.5, 0.5]
    assert K.reward_of(vals, vps, 1, False, 5.0) == pytest.approx(1 / (1 + np.exp(2 / 5)))
    assert K.reward_of(vals, vps, 0, False, 5.0) == 0.5


def test_the_iteration_key_is_the_python_searchs_iteration_stream():
    base = np.array([11, 22, 2**63 + 5], dtype=np.uint64)
    for it in (0, 1, 31):
        assert [int(K.iteration_key(b, it)) for b in base] == iteration_streams(base, it).keys.tolist()


# -------------------------------------------------------------------------------------------- the defaults

@pytest.mark.parametrize("game_id", [GT, UM])
def test_the_searchs_tuned_weights_are_the_tuned_preset_files(game_id):
    import tomllib
    from pathlib import Path

    from meeplelab.strategies.ismcts import TUNED

    preset = tomllib.loads((Path(__file__).resolve().parents[1] / "docs" / "presets"
                            / f"{game_id}-heuristic-tuned.toml").read_text())
    assert TUNED[game_id] == {k: float(v) for k, v in preset["args"].items()}
    s = make_strategy(game_id, "ismcts")
    assert {k: s.heuristic.weights[k] for k in TUNED[game_id]} == TUNED[game_id]
    plain = make_strategy(game_id, "ismcts:weights=heuristic")
    assert plain.heuristic.weights == make_strategy(game_id, "heuristic").weights
    with pytest.raises(ConfigError, match=r"weights='best': allowed tuned, heuristic"):
        make_strategy(game_id, "ismcts:weights=best")


def test_the_default_search_plays_inside_the_kernel_with_each_games_defaults():
    gt, um = make_strategy(GT, "ismcts"), make_strategy(UM, "ismcts:par=8")  # the ladder's id keeps the defaults
    assert (gt.iters, gt.horizon, gt.depth, gt.par, gt.c, gt.kinds) == (32, 3, 1, 8, 0.3, ("P_MAIN",))
    assert (um.iters, um.horizon, um.depth, um.par, um.c, um.kinds) == (24, 1, 1, 8, 0.3, ())
    for game_id, s in ((GT, gt), (UM, um)):
        spec = s.compiled_search(make_game(game_id))
        assert spec is not None and spec.args["iters"] == s.iters


@pytest.mark.parametrize("game_id", [GT, UM])
def test_the_default_search_plays_the_python_references_games(game_id):
    a, _ = _games(game_id, ("ismcts", "heuristic"), np.arange(2), 21)
    b, _ = _games(game_id, ("ismcts", "heuristic"), np.arange(2), 21, compiled=False)
    assert a.equals(b) and a.plies.min() > 50
