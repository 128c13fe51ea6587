"""Restricted play (strategies/restricted.py, sim/core/restrict.py): ``ID+never:ACTION`` and
``ID+force:ACTION[@FIELD OP INT]`` parse, refuse in one line, narrow the legal mask on both play paths without a draw,
and do what they say in real games of both engines."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from meeplelab.play.batch import play_batch
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.restrict import FORCE, NEVER, SeatField, narrow
from meeplelab.sim.registry import make_game
from meeplelab.strategies.base import Strategy
from meeplelab.strategies.registry import make_strategy, parse_id
from meeplelab.strategies.restricted import Restricted, Restriction, split_restrictions

from tests.cli_run import run_cli

GT, UM = "galileos-truth", "unconscious-mind"


# ------------------------------------------------------------------ syntax
def test_suffixes_split_from_the_id_in_order_with_their_conditions():
    base, rs = split_restrictions("heuristic:vp=1e+05,coins=+0.3+force:abjure@suspicion>=6+never:upgrade")
    assert base == "heuristic:vp=1e+05,coins=+0.3"
    assert rs == (Restriction("force", "abjure", ("suspicion", ">=", 6)), Restriction("never", "upgrade"))
    assert [r.text for r in rs] == ["+force:abjure@suspicion>=6", "+never:upgrade"]
    assert parse_id("heuristic:vp=1+never:abjure") == ("heuristic", {"vp": "1"})
    assert split_restrictions("ismcts") == ("ismcts", ())
    assert split_restrictions("ismcts:kinds=P_MAIN+P_SEC+never:cite") == ("ismcts:kinds=P_MAIN+P_SEC",
                                                                           (Restriction("never", "cite"),))
    assert split_restrictions("ismcts:kinds=P_MAIN+P_SEC") == ("ismcts:kinds=P_MAIN+P_SEC", ())


@pytest.mark.parametrize("sid,message", [
    ("heuristic+nevr:abjure", ("malformed restriction '+nevr:abjure': allowed +never:ACTION[@FIELD OP INT] or "
                              "+force:ACTION[@FIELD OP INT]")),
    ("heuristic+never", "malformed restriction '+never'"),
    ("heuristic+force:", "malformed restriction '+force:'"),
    ("heuristic+force:abjure@suspicion=>6", ("malformed condition 'suspicion=>6' in '+force:abjure@suspicion=>6': "
                                            "allowed FIELD OP INT (OP one of >= <= == != > <)")),
    ("heuristic+force:abjure@suspicion>=six", "malformed condition 'suspicion>=six'"),
    ("heuristic+never:abjure+never:abjure", "restriction '+never:abjure' is given twice: allowed once"),
    ("heuristic+never:abjure+force:abjure@cycle==2", "never:abjure and force:abjure contradict each other"),
    ("+never:abjure", "no strategy before the restriction"),
    ("heuristic+never:abjur", ("unknown action 'abjur' for galileos-truth: did you mean abjure? allowed: pass, done, "
                              "abjure, upgrade,")),
    ("heuristic+force:cite", "unknown action 'cite' for galileos-truth"),
    ("heuristic+force:abjure@susp>=6", ("unknown condition field 'susp' for galileos-truth: did you mean suspicion? "
                                       "allowed: cycle, suspicion, research, books, coins, level, vp")),
    ("heuristic+force:abjure@suspicion>=31", ("restriction '+force:abjure@suspicion>=31' can never be met: suspicion "
                                             "takes values 0 to 30")),
    ("heuristic+force:abjure@cycle<1", "can never be met: cycle takes values 1 to 8"),
    ("nosuch+never:abjure", "unknown strategy 'nosuch'"),
])
def test_a_bad_restriction_is_refused_in_one_line_naming_what_is_allowed(sid, message):
    with pytest.raises(ConfigError) as e:
        make_strategy(GT, sid)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_action_names_are_families_choice_parts_and_labels_of_the_vocabulary():
    """A family covers its ids at every decision; a choice part only its decision's ids; a label one id."""
    from meeplelab.sim.galileos_truth.state import VOCAB
    from meeplelab.sim.unconscious_mind.actions import VOCAB as UVOCAB
    from meeplelab.sim.unconscious_mind.play import KINDS

    s = make_strategy(GT, "heuristic+never:subject:astronomy+force:subject@cycle==2")
    assert s.id == "heuristic+never:subject:astronomy+force:subject@cycle==2"
    (m0, k0, i0, sc0, f0, *_), (m1, k1, i1, sc1, _f1, op1, v1) = s.rows
    assert (m0, k0, sc0, f0, m1, k1, sc1, op1, v1) == (NEVER, -1, -1, -1, FORCE, -1, -1, 2, 2)
    assert np.flatnonzero(s.sets[i0]).tolist() == [VOCAB.encode("subject", 0)]
    assert np.flatnonzero(s.sets[i1]).tolist() == [VOCAB.encode("subject", k) for k in range(4)]
    # Unconscious Mind's cite: the no_cite score at every decision, then the citations at D_GATHER only
    u = make_strategy(UM, "citer+never:cite")
    from meeplelab.sim.unconscious_mind.features import SCORES

    (_, ka, _, sa, _, _, _), (_, kb, ib, sb, _, _, _) = u.rows
    assert (ka, sa, kb, sb) == (-1, SCORES.index("no_cite"), KINDS["D_GATHER"], -1)
    assert np.flatnonzero(u.sets[ib]).tolist() == UVOCAB.choice_ids("D_GATHER", "cite")


def test_a_restricted_id_round_trips_and_keeps_the_inner_strategys_compiled_forms():
    game = make_game(GT)
    s = make_strategy(GT, "heuristic:vp=2+never:abjure")
    assert isinstance(s, Restricted) and s.id == s.inner.id + "+never:abjure"
    assert make_strategy(GT, s.id).id == s.id
    assert s.compiled(game) == s.inner.compiled(game)
    assert s.compiled_search(game) is None
    t = make_strategy(GT, "ismcts+force:abjure@suspicion>=6")
    assert t.compiled_search(game) == t.inner.compiled_search(game) and t.compiled_search(game) is not None


def test_seat_fields_can_hold_only_within_their_bounds():
    f = SeatField("x", "x", "doc", 0, 5)
    assert f.can_hold(">=", 5) and not f.can_hold(">=", 6) and not f.can_hold("<", 0) and f.can_hold("!=", 0)
    assert not SeatField("y", "y", "doc", 1, 1).can_hold("!=", 1) and SeatField("z", "z", "doc").can_hold(">", 10**9)


# ------------------------------------------------------------------ the narrowing
def test_never_keeps_the_forbidden_action_only_when_nothing_else_is_legal_and_force_only_when_it_is_legal():
    row = np.array([False, True, False, False])
    sc = np.array([1, 1, 0, 1], np.int64)
    mask = np.array([True, True, True, False])
    m = mask.copy()
    narrow(NEVER, row, False, sc, m)
    assert m.tolist() == [True, False, True, False]
    m = mask.copy()
    narrow(NEVER, row, True, sc, m)  # the score also drops action 2
    assert m.tolist() == [True, False, False, False]
    m = np.array([False, True, True, False])
    narrow(NEVER, row, True, sc, m)  # nothing scored is left: the set alone
    assert m.tolist() == [False, False, True, False]
    m = np.array([False, True, False, False])
    narrow(NEVER, row, False, sc, m)  # the forbidden action is the only legal one: it stays
    assert m.tolist() == [False, True, False, False]
    m = mask.copy()
    narrow(FORCE, row, False, sc, m)
    assert m.tolist() == [False, True, False, False]
    m = np.array([True, False, True, False])
    narrow(FORCE, row, False, sc, m)  # not legal: nothing forced
    assert m.tolist() == [True, False, True, False]


class Spy(Strategy):
    """Records, per decision of its seat: the legal mask it was given, the seat's Suspicion and the action chosen."""

    def __init__(self, inner):
        super().__init__()
        self.inner, self.name, self.seen = inner, inner.name, []

    @property
    def id(self):
        return self.inner.id

    def act(self, view, legal_mask, rng):
        out = self.inner.act(view, legal_mask, rng)
        susp = view.state.susp[view.idx, view.seat]
        self.seen += list(zip(legal_mask.copy(), susp.tolist(), out.tolist()))
        return out


def _abjures(events: pl.DataFrame | object, seat: int) -> int:
    ev = pl.from_arrow(events)
    return ev.filter((pl.col("kind").cast(pl.String) == "abjure") & (pl.col("seat") == seat)).height


def test_force_abjures_whenever_legal_and_the_condition_holds_on_both_paths():
    """The general plan never abjures by itself; forced at Suspicion >= 4 it abjures at every decision where Abjure
    is legal and the condition holds (the decisions logged on the Python path), not where the condition fails, and
    the compiled play kernel plays the same games (so it narrows the same masks)."""
    from meeplelab.sim.galileos_truth.state import A_ABJURE

    game = make_game(GT)
    sid = "never-abjure+force:abjure@suspicion>=4"
    spy = Spy(make_strategy(GT, sid))
    ids = np.arange(24)
    py = play_batch(game, [spy, make_strategy(GT, "writer")], ids, 7, compiled=False)
    legal = [(s, a) for m, s, a in spy.seen if m[A_ABJURE]]
    forced = [a for s, a in legal if s >= 4]
    assert len(forced) >= 5 and all(a == A_ABJURE for a in forced)
    assert any(s < 4 for s, a in legal) and all(a != A_ABJURE for s, a in legal if s < 4)
    assert _abjures(py.events, 0) == len(forced)
    kernel = play_batch(game, [make_strategy(GT, sid), make_strategy(GT, "writer")], ids, 7)
    assert kernel.games.equals(py.games) and kernel.events.equals(py.events)
    plain = play_batch(game, [make_strategy(GT, "never-abjure"), make_strategy(GT, "writer")], ids, 7)
    assert _abjures(plain.events, 0) == 0


@pytest.mark.slow
def test_never_abjure_never_abjures_where_the_unrestricted_strategy_does():
    """The heuristic does not abjure in these games by itself (nor restricted), so the plan that abjures in Cycle 2
    shows the restriction biting: unrestricted it abjures in most games, restricted never (same seeds)."""
    game = make_game(GT)
    ids = np.arange(40)
    field = make_strategy(GT, "heuristic")
    plain = play_batch(game, [make_strategy(GT, "abjure-at:cycle=2"), field], ids, 11)
    assert _abjures(plain.events, 0) >= 20
    never = play_batch(game, [make_strategy(GT, "abjure-at:cycle=2+never:abjure"), field], ids, 11)
    assert _abjures(never.events, 0) == 0
    hn = play_batch(game, [make_strategy(GT, "heuristic+never:abjure"), field], ids, 11)
    assert _abjures(hn.events, 0) == 0
    g = pl.from_arrow(hn.games)
    assert g.filter(pl.col("seat") == 0)["strategy"].cast(pl.String).unique().to_list() == ["heuristic+never:abjure"]


@pytest.mark.slow
def test_the_restricted_heuristic_plays_the_same_games_on_both_paths_and_in_any_batch():
    game = make_game(GT)
    sids = ["heuristic+force:abjure@suspicion>=3", "heuristic"]
    kernel = play_batch(game, [make_strategy(GT, s) for s in sids], np.arange(6), 5)
    py = play_batch(game, [make_strategy(GT, s) for s in sids], np.arange(6), 5, compiled=False)
    assert kernel.games.equals(py.games)
    halves = [play_batch(game, [make_strategy(GT, s) for s in sids], ids, 5).games
              for ids in (np.arange(3, 6), np.arange(3))]
    whole = pl.from_arrow(kernel.games).sort("game", "seat")
    assert pl.concat([pl.from_arrow(h) for h in halves]).sort("game", "seat").equals(whole)


def test_a_restriction_that_never_binds_plays_the_same_games_it_consumes_no_draw():
    """``never-abjure`` never abjures, so ``never-abjure+never:abjure`` narrows no mask that matters: every game is
    the same, on both paths (the narrowing draws nothing, so later draws are not shifted)."""
    game = make_game(GT)
    ids = np.arange(30)
    field = [make_strategy(GT, s) for s in ("writer", "inventor")]
    drop = ["strategy"]
    plain = pl.from_arrow(play_batch(game, [make_strategy(GT, "never-abjure"), *field], ids, 2).games).drop(drop)
    for compiled in (True, False):
        r = play_batch(game, [make_strategy(GT, "never-abjure+never:abjure"), *field], ids, 2, compiled=compiled)
        assert pl.from_arrow(r.games).drop(drop).equals(plain)


def test_unconscious_mind_never_cite_never_cites():
    game = make_game(UM)
    ids = np.arange(40)
    def cites(r, seat):
        return pl.from_arrow(r.events).filter((pl.col("kind").cast(pl.String) == "cite") & (pl.col("seat") == seat)).height

    field = [make_strategy(UM, s) for s in ("publisher", "coffee-engine")]
    plain = play_batch(game, [make_strategy(UM, "citer"), *field], ids, 3)
    never = play_batch(game, [make_strategy(UM, "citer+never:cite"), *field], ids, 3)
    assert cites(plain, 0) >= 10 and cites(never, 0) == 0


@pytest.mark.slow
def test_the_search_respects_the_restriction_at_its_root_on_both_paths():
    """The compiled ISMCTS chooses among the narrowed mask (its root candidates come from it): ``ismcts+never:cite``
    never cites where the plain search does, and its Python reference plays the same games."""
    game = make_game(UM)
    sids = ["ismcts:iters=8+never:cite", "citer"]

    def cites(r):
        g = pl.from_arrow(r.games).with_columns(pl.col("strategy").cast(pl.String))
        ev = pl.from_arrow(r.events).filter(pl.col("kind").cast(pl.String) == "cite")
        return ev.join(g.select("game", "seat", "strategy"), on=["game", "seat"])["strategy"].to_list()

    plain = play_batch(game, [make_strategy(UM, "ismcts:iters=8"), make_strategy(UM, "citer")], np.arange(16), 4)
    assert "ismcts:iters=8" in cites(plain)
    kernel = play_batch(game, [make_strategy(UM, s) for s in sids], np.arange(16), 4)
    assert sids[0] not in cites(kernel) and "citer" in cites(kernel)
    py = play_batch(game, [make_strategy(UM, s) for s in sids], np.arange(2), 4, compiled=False)
    assert pl.from_arrow(py.games).equals(pl.from_arrow(kernel.games).filter(pl.col("game") < 2))


# ------------------------------------------------------------------ the command line
@pytest.mark.slow
def test_simulate_and_experiment_take_restricted_strategies(tmp_path, capsys, monkeypatch):
    out = tmp_path / "sim"
    code, _, err = run_cli(["simulate", "--game", GT, "--players", "2", "--strategies",
                               "heuristic+never:abjure,heuristic", "--games", "8", "--seating", "rotate",
                               "--n-jobs", "1", "--out", out], capsys, monkeypatch)
    assert code == 0, err
    g = pl.read_parquet(str(out / "games" / "*.parquet"))
    assert sorted(g["strategy"].cast(pl.String).unique().to_list()) == ["heuristic", "heuristic+never:abjure"]
    ev = pl.read_parquet(str(out / "events" / "*.parquet")).join(
        g.select("game", "seat", pl.col("strategy").cast(pl.String)), on=["game", "seat"])
    assert ev.filter((pl.col("kind").cast(pl.String) == "abjure")
                     & (pl.col("strategy") == "heuristic+never:abjure")).height == 0
    two = tmp_path / "sim2"  # two workers, chunks of 3 games: the same games
    code, _, err = run_cli(["simulate", "--game", GT, "--players", "2", "--strategies",
                            "heuristic+never:abjure,heuristic", "--games", "8", "--seating", "rotate",
                            "--n-jobs", "2", "--batch-size", "3", "--out", two], capsys, monkeypatch)
    assert code == 0, err
    assert pl.read_parquet(str(two / "games" / "*.parquet")).sort("game", "seat").equals(g.sort("game", "seat"))
    exp = tmp_path / "exp"
    code, _said, err = run_cli(["experiment", "--game", GT, "--players", "3", "--strategies", "never-abjure,writer",
                               "--control", "never-abjure+never:abjure", "--vary",
                               "strategy=never-abjure+force:abjure@suspicion>=4", "--games", "24", "--n-jobs", "1",
                               "--out", exp], capsys, monkeypatch)
    assert code == 0, err
    assert "never-abjure+force:abjure@suspicion>=4" in (exp / "experiment.json").read_text()
    arm = next(p for p in exp.iterdir() if (p / "manifest.json").is_file() and "force" in p.name)
    g = pl.read_parquet(str(arm / "games" / "*.parquet"))
    ev = pl.read_parquet(str(arm / "events" / "*.parquet")).join(
        g.select("game", "seat", pl.col("strategy").cast(pl.String)), on=["game", "seat"])
    assert ev.filter((pl.col("kind").cast(pl.String) == "abjure")
                     & (pl.col("strategy") == "never-abjure+force:abjure@suspicion>=4")).height > 0
    assert "force:abjure" in (exp / "report" / "report.md").read_text()


@pytest.mark.parametrize("sid,message", [
    ("heuristic+never:abjur,heuristic", "unknown action 'abjur' for galileos-truth"),
    ("heuristic+force:abjure@suspicion>=99,heuristic", "can never be met"),
])
def test_the_command_line_refuses_a_bad_restriction_in_one_line_and_writes_nothing(sid, message, tmp_path, capsys,
                                                                                    monkeypatch):
    out = tmp_path / "o"
    code, _said, err = run_cli(["simulate", "--game", GT, "--players", "2", "--strategies", sid, "--games", "4",
                               "--out", out], capsys, monkeypatch)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_tune_refuses_a_restricted_strategy_and_retune_plays_one_as_given(tmp_path):
    """Tuning searches a strategy's arguments by rebuilding its id, which would drop the restriction: refused in one
    line before any game; a re-tuned field keeps a restricted member as given."""
    from meeplelab.studies.retune import tunable
    from meeplelab.studies.tune import tune

    with pytest.raises(ConfigError, match=r"tune: 'heuristic\+never:abjure' is restricted; give the strategy without"):
        tune(GT, "heuristic+never:abjure", ["heuristic"], budget=4, games_per_trial=2, out=tmp_path / "t")
    assert not (tmp_path / "t").exists()
    assert tunable(GT, "heuristic") and not tunable(GT, "heuristic+never:abjure")
