"""Every report kind laid out right in a real browser (issue 30 item 4).

Each kind is built from a small real run: a balance report (Galileo's Truth at 2, 3 and 4 seats read together, as
the README main job: the verdict's seat-spread table, the per-count tables, the Abjure charts), an experiment
(Unconscious Mind's citation payoffs as rule numbers, as ``runs/um-cite``), a sweep, a tournament (the head-to-head
heat map), a robustness run and a balance search (toy games). Each page is opened in headless Chromium at 800, 1024
and 1280 px (a narrow laptop window, the issue's width, a wide one) and checked: every image loaded, no empty
table, no element wider than the viewport or than its own box, no text clipped. There is no deliberate horizontal
scroll box: a table behind a scroll bar counts as too wide (the issue's fault was the verdict's columns hidden
behind one), so every table must fit the column, set smaller on a narrow viewport (``report.css``); then
screenshotted (kept in ``$MEEPLELAB_SCREENSHOTS`` when set). Every chart saved for the page is checked too: its
texts (titles, labels, tick labels, legends) lie inside the saved canvas.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import meeplelab.analysis.figures as F
import tests.toy_robust  # noqa: F401  registers toy-robust
from tests.browser import check_page, screenshot

pytestmark = pytest.mark.browser

KINDS = ("balance-report", "experiment", "sweep", "tournament", "robustness", "balance-search")
WIDTHS = (800, 1024, 1280)


def _build(kind: str, tmp: Path) -> Path:
    """Play the small run of ``kind`` in ``tmp`` and write its report; returns the HTML page."""
    from meeplelab.analysis.report import build_report
    from meeplelab.play.config import RunConfig

    if kind == "balance-report":
        from meeplelab.play.runner import simulate

        runs = []
        for players, games in ((2, 24), (3, 24), (4, 48)):  # the README main job's field, every player count
            runs.append(tmp / "gt" / f"{players}p")
            simulate(RunConfig(game="galileos-truth", players=players, strategies=(
                "abjure-at:margin=1", "never-abjure", "writer", "suspicion-averse"), games=games, seed=3,
                seating="rotate", out=str(runs[-1])))
        return build_report(runs, tmp / "gt" / "report")
    if kind == "experiment":
        from meeplelab.analysis.experiment import experiment_sections
        from meeplelab.play.experiment import plan_experiment, run_experiment

        base = RunConfig(game="unconscious-mind", players=4, strategies=("coffee-engine", "publisher", "citer", "curer"),
                         games=48, seed=3, seating="rotate", out=str(tmp / "um-cite"))
        arms = plan_experiment(base, vary="cite_bright_ideas=1,0,2")
        out = run_experiment(arms, tmp / "um-cite")
        return build_report([Path(a.config.out) for a in arms], out / "report", sections=experiment_sections(out))
    if kind == "sweep":
        from meeplelab.analysis.sweep import sweep_sections
        from meeplelab.play.sweep import read_sweep, run_sweep

        base = RunConfig(game="toy", players=2, strategies=("random", "always-draw"), games=120, seed=4,
                         seating="rotate", out=str(tmp))
        out = tmp / "sweep"
        run_sweep(base, {"rounds": ["2", "3", "4"]}, out)
        meta = read_sweep(out)
        return build_report([out / x["folder"] for x in meta["variants"]], out / "report", sections=sweep_sections(out))
    if kind == "tournament":
        from meeplelab.analysis.tournament_report import build_tournament_report
        from meeplelab.studies.tournament import run_tournament

        run_tournament("toy", ["random", "always-draw", "greedy-vp"], 2, 40, 0, tmp / "t", n_jobs=1)
        return build_tournament_report(tmp / "t", resamples=50)
    if kind == "robustness":
        from meeplelab.studies.robustness import run_robustness

        return Path(run_robustness("toy-robust", tmp / "rob", 5_000, games=50)["page"])
    if kind == "balance-search":
        from meeplelab.studies.balance import run_balance

        return Path(run_balance("toy-robust", ["rounds=2..8", "max_value=1..6"], ["length=9..11", "seat-spread<=25"],
                                tmp / "bal", trials=6, games=30)["page"])
    raise ValueError(kind)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``built(kind)``: the kind's page (built once, on first use) and, for every chart saved for it, the
    texts outside its canvas after fitting."""
    done: dict = {}

    def get(kind: str):
        if kind not in done:
            fit, seen = F.fit, {}

            def fit_and_check(fig, *a, **kw):
                fit(fig, *a, **kw)
                seen[f"{len(seen):02d} {fig.axes[0].get_title() if fig.axes else ''}"] = F.overflow(fig)
                return fig

            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(F, "fit", fit_and_check)  # F.save fits every figure just before writing it
                done[kind] = (_build(kind, tmp_path_factory.mktemp(kind)), seen)
        return done[kind]

    return get


@pytest.mark.parametrize("kind", KINDS)
def test_every_chart_of_the_page_has_its_texts_inside_the_saved_canvas(built, kind):
    _, outside = built(kind)
    assert outside, f"no chart saved for the {kind} page"
    assert {k: v for k, v in outside.items() if v} == {}


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_fits_the_viewport_with_nothing_clipped_in_headless_chromium(built, kind, tmp_path):
    page, _ = built(kind)
    keep = os.environ.get("MEEPLELAB_SCREENSHOTS")
    for width in WIDTHS:
        res = check_page(page.parent, page.name, width=width)
        assert res["images"] >= 1 and res["broken"] == [], res
        assert res["tables"] >= 1 and res["empty"] == [], res
        assert res["viewport"] == width and res["page_width"] == width, res
        faults = {k: res[k] for k in ("wide", "overflow", "clipped", "svg_text") if res[k]}
        assert faults == {}, f"{kind} at {width} px: {faults}"
        shot = screenshot(page.parent, Path(keep or tmp_path) / f"{kind}-{width}.png", page=page.name, width=width,
                          height=res["page_height"])
        w, h = F.png_size(shot)
        assert w == width and h == min(res["page_height"], 16384)
