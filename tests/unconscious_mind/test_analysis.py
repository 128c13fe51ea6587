"""Unconscious Mind analyses on small real runs: VP per Coffee and Treatise citation payoffs."""

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
import pytest

from meeplelab.analysis import unconscious_mind as U
from meeplelab.analysis.load import load_runs
from meeplelab.analysis.report import build_report
from meeplelab.play.config import RunConfig
from meeplelab.play.runner import simulate


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("um") / "run"
    simulate(RunConfig(game="unconscious-mind", players=2, strategies=("citer", "publisher"), games=240, seed=4,
                       batch_size=120, out=str(out)))
    return out


@pytest.fixture(scope="module")
def runs(run_dir):
    return load_runs([run_dir])


def _ordered(df):
    d = df.drop_nulls(["low", "high"])
    assert d.height > 0
    assert (d["low"] <= d["est"] + 1e-9).all() and (d["est"] <= d["high"] + 1e-9).all()


def test_coffee_purchases_add_up_to_the_events(runs):
    pur = U.coffee_purchases(runs)
    ev = runs.events.filter(pl.col("kind") == "coffee_spend").collect()
    assert pur["coffee"].sum() == ev["amount"].cast(pl.Int64).sum() > 0
    turns = runs.turns.collect()
    assert pur["coffee"].sum() == turns["coffee_spent"].cast(pl.Int64).sum()
    # attributed VP of a turn sums back to the turn's VP gained minus the end-trigger bonus scored in it
    bonus = (runs.events.filter((pl.col("kind") == "vp") & (pl.col("category") == "end_trigger"))
             .group_by("run", "game", "turn").agg(pl.col("amount").cast(pl.Int64).sum().alias("bonus")).collect())
    assert bonus.height > 0 and (bonus["bonus"] > 0).all()
    per_turn = pur.group_by("run", "game", "turn").agg(pl.col("vp").sum())
    j = (per_turn.join(turns.select("run", "game", "turn", "vp_gained"), on=["run", "game", "turn"])
         .join(bonus, on=["run", "game", "turn"], how="left").with_columns(pl.col("bonus").fill_null(0)))
    assert np.allclose(j["vp"].to_numpy(), (j["vp_gained"] - j["bonus"]).to_numpy())
    assert j.filter(pl.col("bonus") > 0).height > 0  # some game ends in a turn that also bought with Coffee
    assert set(pur["purchase"].unique()) <= set(U.PURCHASES)
    assert set(pur["phase"].unique()) <= set(U.PHASES)
    assert {"tile_cost_1", "tile_cost_2"} <= set(pur["purchase"].unique())


def test_vp_per_coffee_tables_have_ordered_intervals(runs):
    pur = U.coffee_purchases(runs)
    by_p = U.vp_per_coffee(runs, ("purchase",), purchases=pur)
    _ordered(by_p)
    assert np.isclose(by_p["vp"].sum(), pur["vp"].sum()) and by_p["coffee"].sum() == pur["coffee"].sum()
    row = by_p.row(0, named=True)
    assert np.isclose(row["est"], row["vp"] / row["coffee"])
    for by in (("strategy",), ("strategy", "seat"), ("purchase", "phase"), ("strategy", "phase")):
        df = U.vp_per_coffee(runs, by, purchases=pur, resamples=100)
        _ordered(df)
        assert set(by) <= set(df.columns)
    s = U.coffee_spent_by_seat(runs)
    _ordered(s)
    figs = [U.vp_per_coffee_chart(by_p), U.vp_per_coffee_phase_chart(U.vp_per_coffee(runs, ("purchase", "phase"),
                                                                                    purchases=pur, resamples=50))]
    assert all(isinstance(f, plt.Figure) for f in figs)
    plt.close("all")


def test_every_citation_pays_two_vp_per_volume_and_one_bright_idea(runs):
    cit = U.citations(runs)
    assert cit.height > 20
    assert (cit["cited_vp"] == 2 * cit["volumes"]).all()
    assert np.allclose(cit["cited_bright"].to_numpy(), 1.0)
    assert (cit["citer"] != cit["cited"]).all()
    assert cit["treatise_vp"].null_count() == 0 and (cit["treatise_vp"] > 0).all()
    ev = runs.events.filter(pl.col("kind") == "cite").collect()
    assert cit["volumes"].sum() == ev.height
    # the games table's "cited" VP category matches
    g = runs.games.collect()
    assert cit["cited_vp"].sum() == g["vp_cited"].sum()


def test_citation_payoffs_and_net_payoff(runs):
    pay = U.citation_payoffs(runs)
    _ordered(pay)
    vp = pay.filter(pl.col("measure") == "cited_vp")
    assert np.allclose(vp["est"].to_numpy(), 2 * vp["volumes"].to_numpy())
    pub = U.publications(runs)
    assert pub.height == runs.events.filter(pl.col("kind") == "publish").collect().height
    assert (pub["net"] == pub["treatise_vp"] - 2 * pub["volumes_cited"]).all()
    assert (pub["volumes_cited"] <= pub["volumes"]).all()
    net = U.net_payoff_by_volumes(runs)
    _ordered(net)
    assert 0 in net["volumes_cited"].to_list() and net["volumes_cited"].max() >= 1
    assert net["n"].sum() == pub.height


@pytest.mark.parametrize("est", [[5.0, 4.0, 3.0], [-5.0, -4.0, -3.0], [-2.0, 1.0, 3.0]])
def test_the_break_even_line_in_the_legend_is_drawn_inside_the_net_payoff_chart(est):
    e = np.array(est)
    net = pl.DataFrame({"volumes_cited": [0, 1, 2], "est": e, "low": e - 0.5, "high": e + 0.5})
    ax = U.net_payoff_chart(net).axes[0]
    (line,) = [ln for ln in ax.lines if ln.get_label() == "break-even"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["break-even"]
    x0, x1 = ax.get_xlim()
    assert list(line.get_xdata()) == [0.0, 0.0] and line.get_visible()
    # inside the axes by at least 2% of the width, not on the frame where the bars start
    assert x0 + 0.02 * (x1 - x0) <= 0.0 <= x1 - 0.02 * (x1 - x0), (x0, x1)
    plt.close(ax.figure)


def test_citation_gains_by_strategy_and_seat(runs):
    gains = U.citation_gains(runs)
    _ordered(gains)
    assert set(gains["strategy"].unique()) == {"citer", "publisher"}
    # VP given by one seat is VP received by the other (two seats)
    m = {(r["strategy"], r["measure"]): r["est"] for r in gains.iter_rows(named=True)}
    assert np.isclose(m[("citer", "vp_given")], m[("publisher", "vp_received")])
    assert np.isclose(m[("publisher", "vp_given")], m[("citer", "vp_received")])
    assert m[("citer", "volumes_cited_by")] > 0
    f1 = U.net_payoff_chart(U.net_payoff_by_volumes(runs))
    f2 = U.citation_gains_chart(gains)
    assert isinstance(f1, plt.Figure) and isinstance(f2, plt.Figure)
    plt.close("all")


def test_sections_and_report(runs, run_dir, tmp_path):
    secs = [s for f in U.SECTIONS for s in f(runs)]
    titles = [s.title for s in secs]
    assert titles == ["VP per Coffee (descriptive: groups differ by strategy and seat)",
                      "Treatise citation payoffs (descriptive: groups differ by strategy and seat)",
                      "Content strength (descriptive)",
                      "Drawn cards: win rate when drawn (descriptive)"]
    by_strategy = next(df for cap, df, *_ in secs[0].tables if cap == "VP per Coffee by strategy")
    assert by_strategy["strategy"].to_list() == ["citer", "publisher"]  # every strategy, none dropped
    assert by_strategy["seat_results"].to_list() == [240, 240]
    assert "Attribution" in secs[0].text and secs[0].figures and secs[0].tables
    assert secs[1].figures and secs[1].tables
    plt.close("all")
    dest = build_report([run_dir], tmp_path / "report")
    html = "".join(p.read_text() for p in (tmp_path / "report").rglob("*.html"))
    assert "VP per Coffee" in html and "Treatise citation payoffs" in html
    assert any("um_citation_net_payoff" in p.name for p in (tmp_path / "report").rglob("*.png"))
    assert dest is not None


def test_report_numbers_seats_from_one_renders_inline_code_and_holds_no_nan(runs, run_dir, tmp_path):
    import re

    build_report([run_dir], tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text()
    html = (tmp_path / "report" / "report.html").read_text()
    # a code in a sentence renders as its words with the code id in the tooltip, never as raw backticks
    assert 'by <span class="code" title="option">Turn option</span>' in html and "`" not in html
    cap = "*Gains from citing and being cited per seat-game, by strategy and seat*\n\n"
    block = md.split(cap, 1)[1].split("\n\n", 1)[0].splitlines()
    # human headers; the mean column repeated est: dropped
    assert block[0] == "| strategy | seat | measure | sample (n) | sd | estimate | 95% low | 95% high |"
    seats = {ln.split("|")[1].strip(): ln.split("|")[2].strip() for ln in block[2:]}
    assert seats == {"citer": "1", "publisher": "2"}
    tables = "\n".join(ln for ln in md.splitlines() if ln.startswith("|"))
    assert not re.search(r"\|\s*(None|nan|NaN|inf)\s*\|", tables)
    ax = U.citation_gains_chart(U.citation_gains(runs)).axes[0]
    assert sorted(t.get_text() for t in ax.get_yticklabels()) == ["citer / seat 1", "publisher / seat 2"]
    plt.close("all")


def test_report_counts_safety_stops_and_analysis_can_leave_them_out(tmp_path):
    """2 random seats with round_limit = 22: some games stop at the limit (safety stop), some end on the clock;
    the report says how many, and ``without_safety_stops`` drops exactly those games' rows."""
    from meeplelab.analysis import metrics as M

    out = tmp_path / "run"
    simulate(RunConfig(game="unconscious-mind", players=2, strategies=("random", "random"), games=60, seed=7,
                       batch_size=60, out=str(out), params={"round_limit": "22"}, log_turns=False, log_events=False))
    runs = load_runs([out])
    g = runs.games.collect()
    stops = g.filter(pl.col("seat") == 0)["safety_stop"]
    n = int(stops.sum())
    assert 0 < n < 60
    assert set(g["end_reason"].unique()) == {"clock", "round_limit"}
    assert (g.filter(pl.col("safety_stop"))["end_reason"] == "round_limit").all()
    assert (g.filter(pl.col("end_reason") == "round_limit")["rounds"] == 22).all()
    kept = M.without_safety_stops(runs.games).collect()
    assert kept.height == 2 * (60 - n) and not kept["safety_stop"].any()
    ends = M.end_reasons(runs.games)
    assert dict(zip(ends["end_reason"], ends["games"])) == {"clock": 60 - n, "round_limit": n}
    build_report([out], tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text()
    assert f"{n} of 60 games ({100 * n / 60:.1f}%) hit a safety stop (round_limit)" in md
