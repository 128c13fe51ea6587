"""Every report kind laid out right in a real browser.

Each kind is built from a small real run: a balance report (Galileo's Truth at 2, 3 and 4 seats read together, as
the README main job, with its stronger-players section from a small ``meeplelab stronger`` study: the verdict's
seat-spread table, the per-count tables, the Abjure charts, the content-strength table), an experiment (Unconscious
Mind's citation payoffs as rule numbers, as ``runs/um-cite``), a sweep, a tournament (the head-to-head heat map), a
robustness run, a balance search and a comparison (toy games). Each page is opened in headless Chromium at 390 px
(a phone) and 1280 px (a laptop) and checked: every image loaded and with alt text, no empty table, no element
wider than the viewport, the page never scrolls sideways, no text clipped, no text column of a table narrower
than 8 characters; at 1280 px no table hides behind a scroll bar (every table fits the column), at 390 px a
table too wide for the phone scrolls in its own box (its text columns keep their 8 characters). The HTML holds
no raw Markdown (``**``, a ``<p>- `` line), every chart of a descriptive section says "descriptive" in its title,
and the balance report's charts name its strategies in words. Then each page is screenshotted at both widths
(kept in ``$MEEPLELAB_SCREENSHOTS`` when set). Every chart saved for the page is checked too: its texts (titles,
labels, tick labels, legends) lie inside the saved canvas.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import meeplelab.analysis.figures as F
import tests.toy_robust  # noqa: F401  registers toy-robust
from tests.browser import check_page, screenshot
from tests.cli_run import cli_in_process

pytestmark = pytest.mark.browser

KINDS = ("balance-report", "experiment", "sweep", "tournament", "robustness", "balance-search", "compare")
WIDTHS = (390, 1280)


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
                seating="rotate", out=str(runs[-1]), n_jobs=1))
        return _balance_report(runs, tmp)
    if kind == "experiment":
        from meeplelab.analysis.stronger import experiment_page
        from meeplelab.play.experiment import read_experiment
        from meeplelab.studies.stronger import run_stronger

        out = tmp / "um-cite"  # played by the command line: the stronger study reads its config.toml
        code, _, err = cli_in_process(["experiment", "--game", "unconscious-mind", "--players", "4", "--strategies",
                                       "coffee-engine,publisher,citer,curer", "--vary", "cite_bright_ideas=1,0,2",
                                       "--games", "48", "--seed", "3", "--n-jobs", "1", "--no-report", "--no-progress",
                                       "--out", str(out)])
        assert code == 0, err
        # as `meeplelab report EXPERIMENT --stronger STRONG` writes it: the first screen from the strongest rung
        run_stronger("unconscious-mind", [out], tmp / "strong", games=8, mirror_games=8, n_jobs=1)
        return build_report([out / a["folder"] for a in read_experiment(out)["arms"]], out / "report",
                            sections=experiment_page(out, tmp / "strong"))
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
    if kind == "compare":
        from meeplelab.studies.compare import run_compare

        base = RunConfig(game="toy", players=2, strategies=("random",), games=40, seed=0, n_jobs=1, out=str(tmp / "cmp"))
        return Path(run_compare(base, ["default", "rounds=2"], [2], ("random", "always-draw"))["page"])
    raise ValueError(kind)


def _balance_report(runs: list[Path], tmp: Path) -> Path:
    """The README main job's balance report of ``runs`` with its section "Does it hold for stronger players?" from a
    small stronger study (as ``meeplelab report RUNS --stronger STRONG`` builds it)."""
    from meeplelab.analysis.report import build_report, build_sections
    from meeplelab.analysis.stronger import section
    from meeplelab.studies.stronger import run_stronger

    run_stronger("galileos-truth", [tmp / "gt"], tmp / "strong", games=8, mirror_games=8, n_jobs=1)

    def sections(loaded):
        secs = build_sections(loaded)
        return secs[:1] + [section(tmp / "strong", loaded.game_names, [str(r) for r in runs])] + secs[1:]

    return build_report(runs, tmp / "gt" / "report", sections=sections)


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
                fig.canvas.draw()  # the tick labels as saved
                titles = " ".join(t.get_text() for t in [ax.title for ax in fig.axes] + [fig._suptitle] if t is not None)
                ticks = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels() + ax.get_xticklabels()]
                seen[f"{len(seen):02d} {titles}"] = (F.overflow(fig), ticks)
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
    assert {k: v for k, (v, _) in outside.items() if v} == {}


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_holds_no_raw_markdown_and_every_descriptive_chart_says_so(built, kind):
    page, charts = built(kind)
    html = page.read_text()
    assert "**" not in html and "<p>- " not in html and "<p>* " not in html
    # the charts in page order, each under its section's heading
    sections = re.findall(r"<h2>(.*?)</h2>(.*?)(?=<h2>|</main>)", html, re.DOTALL)
    shown = [(title, src) for title, body in sections for src in re.findall(r'<img src="([^"]+)"', body)]
    if kind in ("robustness", "balance-search"):  # Markdown pages: their charts are not a report section's
        return
    titles = list(charts)
    assert len(shown) == len(titles), (shown, titles)
    undescribed = [(t, s) for (h, s), t in zip(shown, titles) if "descriptive" in h.lower() and "descriptive" not in t]
    assert undescribed == []
    imgs = re.findall(r"<img [^>]*>", html)
    assert imgs and all(re.search(r"""alt=(["'])\s*\S[^"']*\1""", i) for i in imgs), imgs


def test_the_balance_report_names_strategies_and_actions_in_words_with_their_codes_listed(built):
    page, charts = built("balance-report")
    ticks = {t for _, shown in charts.values() for t in shown}
    codes = ("abjure-at:margin=1", "never-abjure", "suspicion-averse", "play-treatise", "writer")
    assert not any(c in t for t in ticks for c in codes), sorted(ticks)
    assert {"Never Abjure", "Abjure within 1 of Penance", "Writer"} <= {t.split(",")[0] for t in ticks}
    html = page.read_text()
    assert '<span class="code" title="never-abjure">Never Abjure</span>' in html
    assert "<h2>Labels and their code ids</h2>" in html and "<code>abjure-at:margin=1</code>" in html
    assert "<h2>Does it hold for stronger players?</h2>" in html and "<li>" in html


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_fits_the_viewport_with_nothing_clipped_in_headless_chromium(built, kind, tmp_path):
    page, _ = built(kind)
    keep = os.environ.get("MEEPLELAB_SCREENSHOTS")
    for width in WIDTHS:
        res = check_page(page.parent, page.name, width=width)
        assert res["images"] >= 1 and res["broken"] == [] and res["no_alt"] == [], res
        assert res["tables"] >= 1 and res["empty"] == [], res
        assert res["viewport"] == width and res["page_width"] == width, res
        # a phone: a table too wide scrolls in its own box (div.tw), nothing else does
        scrolled = [o for o in res["overflow"] if width < 600 and o.startswith("div.tw ") and "overflow-x auto" in o]
        faults = {k: [x for x in res[k] if x not in scrolled] for k in ("wide", "overflow", "clipped", "svg_text",
                                                                        "narrow")}
        assert {k: v for k, v in faults.items() if v} == {}, f"{kind} at {width} px: {faults}"
        shot = screenshot(page.parent, Path(keep or tmp_path) / f"{kind}-{width}.png", page=page.name, width=width,
                          height=res["page_height"])
        w, h = F.png_size(shot)
        assert w == width and h == min(res["page_height"], 16384)


def _first_screen(page: Path) -> tuple[str, str, list[str]]:
    """``(html, the answer section, its three sentences as text)`` of a report page."""
    from meeplelab.analysis.first_screen import MAX_WORDS

    html = page.read_text()
    answer = re.search(r'<section class="answer">(.*?)</section>', html, re.DOTALL).group(1)
    sentences = [re.sub(r"<[^>]+>", "", s) for s in re.findall(r"<p>(.*?)</p>", answer.split("<details>")[0],
                                                                  re.DOTALL)]
    assert len(sentences) == 3 and sum(len(s.split()) for s in sentences) <= MAX_WORDS, sentences
    assert "[" not in " ".join(sentences)  # the intervals are folded under them
    return html, answer, sentences


def test_the_experiment_report_with_a_stronger_study_opens_with_its_first_screen(built):
    html, _, sentences = _first_screen(built("experiment")[0])
    assert sentences[0].startswith("Re-checked with the tuned heuristic: ")
    start = html.index('<div class="glance">')
    assert start < html.index("<h2>Verdict</h2>") < html.index("<h2>Does it hold for stronger players?</h2>")
    assert "Each conclusion at every rung of the ladder" in html


def test_the_balance_report_opens_with_three_short_sentences_and_a_chart_first_panel_per_question(built):
    html, answer, sentences = _first_screen(built("balance-report")[0])
    assert sentences[0].startswith("Re-checked with the tuned heuristic: ")
    assert "<summary>With intervals, among the scripted plans</summary>" in answer
    start = html.index('<div class="glance">')
    assert start < html.index("<h2>Verdict</h2>")
    glance = html[start:html.index("</div>", start)]
    panels = re.findall(r'<section class="panel">\s*<h2>(.*?)</h2>(.*?)</section>', glance, re.DOTALL)
    assert [h for h, _ in panels] == ["Balance of strategies", "Seat advantage", "What to change first"]
    for _, body in panels:  # chart first, then its one line in words
        img = re.search(r'<img src="figures/glance_[^"]+" alt="([^"]+)"', body)
        reading = re.findall(r"<p>(.*?)</p>", body, re.DOTALL)
        assert img and img.group(1).strip() and reading and body.index("<img") < body.index("<p>")
        assert "**" not in body and "<p>- " not in body
    assert "fair share" in panels[0][1] and "tuned heuristic" in panels[1][1]
