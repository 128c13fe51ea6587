"""Report pages and charts laid out to fit: jinja2 templates (autoescaped, package data, one stylesheet for
every page, folded tables), heat-map text chosen by cell luminance (WCAG), and figures whose every text lies
inside the saved canvas."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure

from meeplelab.analysis import figures as F
from meeplelab.analysis import labels as L
from meeplelab.analysis import pages as P
from meeplelab.analysis.experiment import experiment_sections
from meeplelab.analysis.load import Runs
from meeplelab.analysis.markdown import to_html
from meeplelab.analysis.page import Section, TableFormat, _html_table
from meeplelab.analysis.report import _write_report, build_report
from meeplelab.analysis.stronger import tally
from meeplelab.play.config import RunConfig
from meeplelab.play.experiment import plan_experiment, read_experiment, run_experiment
from meeplelab.strategies.fields import strong_field
from meeplelab.strategies.registry import make_strategy

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------------ colour by luminance
@pytest.mark.parametrize("colour, luminance", [("white", 1.0), ("black", 0.0), ("#800000", 0.0459), ("navy", 0.0156),
                                               ("#777777", 0.1845), ("yellow", 0.9278)])
def test_relative_luminance_is_the_wcag_formula(colour, luminance):
    # WCAG 2.2: linearised sRGB, 0.2126 R + 0.7152 G + 0.0722 B; #800000 -> 0.2126 * ((0.502 + 0.055) / 1.055) ** 2.4
    assert F.relative_luminance(colour) == pytest.approx(luminance, abs=5e-5)


def test_contrast_ratio_of_black_on_white_is_21_and_of_grey_777_about_4_5():
    assert F.contrast_ratio("black", "white") == pytest.approx(21.0)
    assert F.contrast_ratio("#777777", "white") == pytest.approx(4.48, abs=0.01)  # the WCAG AA borderline grey


@pytest.mark.parametrize("background, text", [("maroon", "white"), ("navy", "white"), ("#053061", "white"),
                                              ("#67001f", "white"), ("white", "black"), ("#f7f7f7", "black"),
                                              ("#fddbc7", "black"), ("yellow", "black"), ("#808080", "black")])
def test_text_colour_is_the_one_of_higher_contrast(background, text):
    assert F.text_colour(background) == text
    other = "black" if text == "white" else "white"
    assert F.contrast_ratio(text, background) >= F.contrast_ratio(other, background)


def _pw(rates: dict, games: int = 400):
    from meeplelab.analysis.stats import wilson

    rows = []
    for (a, b), p in rates.items():
        for r, c, q in ((a, b, p), (b, a, 1 - p)):
            est, lo, hi = wilson(q * games, games)
            rows.append({"row": r, "column": c, "games": games, "wins": q * games, "est": float(est), "low": float(lo),
                         "high": float(hi)})
    return pl.DataFrame(rows)


def test_heat_map_writes_white_on_maroon_and_navy_cells_and_black_on_light_ones():
    from meeplelab.analysis.tournament_report import cell_text_colour, heatmap

    # 95% / 5% are the navy and maroon ends of RdBu; 66% / 34% light cells; 52% / 48% near white, not resolved
    fig = heatmap(_pw({("a", "b"): 0.95, ("a", "c"): 0.66, ("b", "c"): 0.52}), ["a", "b", "c"])
    ax = fig.axes[0]
    cells = {t.get_text().split("\n")[0]: (t.get_color(), t.get_fontweight()) for t in ax.texts}
    assert cells["95%"] == ("white", "bold") and cells["5%"] == ("white", "bold")
    assert cells["66%"] == ("black", "bold") and cells["34%"] == ("black", "bold")
    assert cells["52%"] == ("dimgray", "normal") and cells["48%"] == ("dimgray", "normal")
    im = ax.images[0]
    for t in ax.texts:  # every cell's text has a contrast ratio of at least 4.5 against its cell (WCAG AA)
        x, y = (int(round(v)) for v in t.get_position())
        v = im.get_array()[y, x]
        bg = im.cmap(im.norm(v)) if np.ma.is_masked(v) is False and np.isfinite(v) else ax.get_facecolor()
        assert F.contrast_ratio(t.get_color(), bg) >= 4.5 or t.get_fontweight() == "normal", t.get_text()
    assert cell_text_colour("navy", resolved=False) == "gainsboro" and cell_text_colour("white", False) == "dimgray"
    F.close(fig)


# ------------------------------------------------------------------------------------ figures fit their canvas
def test_a_y_label_set_after_tight_layout_is_clipped_until_fit_lays_the_figure_out_again():
    # the fault of the strategy and Abjure charts: a section set the y label after the chart's tight_layout
    fig = Figure()
    ax = fig.subplots()
    ax.barh([0, 1], [3.0, 4.0])
    ax.set_yticks([0, 1], ["abjure-at:margin=1", "never-abjure"])
    fig.tight_layout()
    ax.set_ylabel("Cycle of Abjure (never = stayed Copernican)")
    assert [o.split("' (")[0] for o in F.overflow(fig)] == ["'Cycle of Abjure (never = stayed Copernican)"]
    F.fit(fig)
    assert F.overflow(fig) == []


def test_the_charts_lay_themselves_out_so_a_late_y_label_fits():
    from meeplelab.analysis.galileos_truth import outcome_chart

    d = pl.DataFrame({"abjured": ["1", "2", "never"], "games": [10, 10, 10], "wins": [3.0, 4.0, 5.0],
                      "win_rate": [0.3, 0.4, 0.5], "win_low": [0.1, 0.2, 0.3], "win_high": [0.6, 0.6, 0.7],
                      "vp": [20.0, 21.0, 22.0], "vp_low": [18.0, 19.0, 20.0], "vp_high": [22.0, 23.0, 24.0]})
    fig = outcome_chart(d, fair=0.25)
    assert fig.axes[0].get_ylabel() == "Cycle of Abjure (never = stayed Copernican)"
    assert F.overflow(fig) == []  # constrained layout: no fit needed
    F.close(fig)


def test_a_title_pushed_off_the_canvas_by_long_tick_labels_is_wrapped_to_fit():
    # the fault of the um-cite effect chart: long arm / strategy labels push the centred title past the edge
    labels = [f"cite_bright_ideas={v} / {s}" for v in (0, 2) for s in ("coffee-engine", "publisher", "citer", "curer")]
    df = pl.DataFrame({"label": labels, "est": np.linspace(-2, 1, 8), "low": np.linspace(-4, -1, 8),
                       "high": np.linspace(0, 3, 8)})
    fig = F.bar_with_interval(df, "label", title="Paired difference vs control (same seeds, every seat order)",
                              xlabel="win rate difference (percentage points)", ref=0.0, ref_label="no difference")
    before = F.overflow(fig)
    assert len(before) == 1 and before[0].startswith("'Paired difference vs control (same seeds, every seat order)'")
    F.fit(fig)
    assert F.overflow(fig) == [] and "\n" in fig.axes[0].get_title()
    assert " ".join(fig.axes[0].get_title().split()) == "Paired difference vs control (same seeds, every seat order)"
    F.close(fig)


def test_saved_pngs_are_the_fitted_canvas(tmp_path):
    fig = Figure(figsize=(4, 3), dpi=100)
    ax = fig.subplots()
    ax.set_title("a title far too long for a four-inch figure to show on one line, so it wraps " * 2)
    path = F.save(fig, tmp_path / "t.png")
    assert F.png_size(path) == (400, 300)
    with pytest.raises(ValueError, match="is not a PNG file"):
        F.png_size(ROOT / "pyproject.toml")


# ------------------------------------------------------------------------------------ templates
def test_templates_are_package_data_and_jinja2_a_dependency():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert any(d.startswith("jinja2") for d in data["project"]["dependencies"])
    patterns = data["tool"]["setuptools"]["package-data"]["meeplelab.analysis"]
    shipped = resources.files("meeplelab.analysis") / "templates"
    names = sorted(p.name for p in Path(str(shipped)).iterdir())
    assert names == ["base.html.j2", "macros.html.j2", "markdown.html.j2", "report.css", "report.html.j2"]
    assert all(any(Path(n).match(p.split("/")[-1]) for p in patterns) for n in names)


def test_table_cells_and_captions_are_escaped_and_inline_code_kept():
    df = pl.DataFrame({"strategy": ["<script>alert(1)</script>", "a & b"], "games_needed": [1200, 3]})
    page = _html_table(df, "Caption with `code` and <b>markup</b>")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "a &amp; b" in page
    assert "<caption>Caption with <code>code</code> and &lt;b&gt;markup&lt;/b&gt;</caption>" in page
    assert "<th>games needed</th>" in page  # the human header (the CSV keeps games_needed)
    assert "<th>sample_<wbr>size</th>" in _html_table(pl.DataFrame({"sample_size": [1]}), "c", TableFormat(
        labels={"sample_size": "sample_size"}))  # a header kept with an underscore may break after it
    assert '<td class="t">a &amp; b</td><td class="n">3</td>' in page  # text left, numbers never broken


def test_a_folded_table_renders_inside_details_with_its_caption_as_summary():
    df = pl.DataFrame({"x": [1, 2]})
    page = _html_table(df, "All rows", TableFormat(folded=True))
    assert re.fullmatch(r"<details><summary>All rows</summary>\s*<div class=\"tw\"><table><caption>All rows</caption>"
                        r".*</table></div></details>", page, re.S), page
    assert "<details" not in _html_table(df, "All rows")


def test_a_column_of_numbers_and_words_is_aligned_as_text():
    ctx = P.table_context(["abjured", "games", "interval"], [["2", "9", "[1.0, 3.0]"], ["never", "886", "\u2014"]])
    assert ctx["classes"] == ["t", "n", "n"]


def test_every_page_uses_the_one_stylesheet():
    css = (Path(str(resources.files("meeplelab.analysis") / "templates" / "report.css"))).read_text()
    md_page = to_html("# T\n\n| a_b | c |\n|---|---|\n| 1,234 | x |\n\n<details><summary>more</summary>\n\nhidden\n\n"
                      "</details>\n", "Robustness: <game>")
    report_page = P.render("report.html.j2", title="meeplelab balance report: t", runs="r", warnings=["careful <now>"],
                           sections=[{"title": "S & T", "paragraphs": [P.prose("a `b`")], "figures": [],
                                      "tables": [P.table_context(["k"], [["1"]], "cap", folded=True)]}], footer="f")
    for page in (md_page, report_page):
        assert css in page and page.startswith("<!doctype html>") and '<meta name="viewport"' in page
    assert "<title>Robustness: &lt;game&gt;</title>" in md_page
    assert "<th>a_<wbr>b</th>" in md_page and '<td class="n">1,234</td>' in md_page
    assert "<details><summary>more</summary>" in md_page  # a fold written in the Markdown passes through
    assert '<p class="warn">careful &lt;now&gt;</p>' in report_page and "<h2>S &amp; T</h2>" in report_page
    assert "<p>a <code>b</code></p>" in report_page and "<details><summary>cap</summary>" in report_page


def test_a_template_value_left_out_is_an_error_not_an_empty_string():
    import jinja2

    with pytest.raises(jinja2.UndefinedError, match="sections"):
        P.render("report.html.j2", title="t", runs="", warnings=[], footer="")


def test_a_robustness_verdict_holding_an_asterisk_stays_bold():
    from meeplelab.analysis.robustness_report import _md

    verdict = "not resolved with this budget: moved most by A-TOY-02 max_value (mu* 12 +- 0.018 VP)"
    page = to_html(f"- **draw-once**: scores: **{_md(verdict)}**\n", "t")
    assert f"<strong>{verdict}</strong>" in page and "**" not in page


# ------------------------------------------------------------------------------------ Markdown: one renderer
def test_section_prose_is_rendered_as_markdown_paragraphs_lists_and_bold():
    text = ("Each conclusion re-measured; *holds*: not resolved.\n\n- a: **holds** (difference +1.0 [-2.0, +4.0])\n"
            "- b: **reverses**\nAfter the list, `code` and    four leading spaces.\n1. first\n2. second")
    html = str(P.prose(text))
    assert html == ("<p>Each conclusion re-measured; <em>holds</em>: not resolved.</p>\n<ul>\n"
                    "<li>a: <strong>holds</strong> (difference +1.0 [-2.0, +4.0])</li>\n<li>b: <strong>reverses</strong></li>\n"
                    "</ul>\n<p>After the list, <code>code</code> and    four leading spaces.</p>\n<ol>\n<li>first</li>\n"
                    "<li>second</li>\n</ol>\n")
    assert P.blocks("one\ntwo\n- x\n- y") == "one\n\ntwo\n\n- x\n- y"


def test_prose_and_captions_escape_html_and_plain_text_drops_the_markup():
    assert str(P.prose("a <b>x</b> & y")) == "<p>a &lt;b&gt;x&lt;/b&gt; &amp; y</p>\n"
    assert str(P.inline("seat-spread<=5 is **met** by `x_y`")) == "seat-spread&lt;=5 is <strong>met</strong> by <code>x_y</code>"
    assert P.plain("**holds** in `tile_cost_1` <b>") == "holds in tile_cost_1 <b>"


def test_a_report_page_shows_no_raw_markdown(tmp_path):
    secs = [Section("Does it hold for `stronger` players?", "Intro with *holds*.\n\n- one: **holds**\n- two: **reverses**"),
            Section("Changed", "3 rows changed:\n- row a\n- row b")]
    empty = pl.LazyFrame()
    runs = Runs(empty, empty, empty, {"r": {"status": "complete", "config": {"game": "g"}}}, {})
    page = _write_report(runs, secs, tmp_path / "rep", 0.0).read_text()
    assert "**" not in page and "<p>- " not in page and "*holds*" not in page
    assert "<h2>Does it hold for <code>stronger</code> players?</h2>" in page
    assert "<li>one: <strong>holds</strong></li>" in page and "<li>row b</li>" in page
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "3 rows changed:\n\n- row a\n- row b\n" in md  # the Markdown twin: the same blocks


# ------------------------------------------------------------------------------------ labels
GAMES = ("galileos-truth", "unconscious-mind")


@pytest.mark.parametrize("game", GAMES)
def test_every_strategy_rule_number_action_event_and_score_category_of_a_game_has_words(game):
    from meeplelab.sim.registry import get_game_class
    from meeplelab.strategies.registry import strategies_for

    cls = get_game_class(game)
    t = L.table(game)
    assert {s.name for s in strategies_for(game)} <= set(t.strategies)
    assert {f.name for f in dataclasses.fields(cls.Params)} == set(t.params)
    vocab = {v for c in cls.turn_columns + cls.event_columns if c.name in ("main_action", "option", "mt_action", "kind")
             for v in c.vocab}
    missing = sorted(c for c in vocab | set(cls.score_categories) if L.label(game, c) is None)
    assert missing == []
    every = [L.label(game, c) for c in vocab | set(cls.score_categories) | set(t.params) | set(t.strategies)]
    assert all(w and len(w) <= 40 for w in every)  # short enough for a bar label or a table cell


def test_codes_get_the_words_of_their_game_and_keep_their_code_elsewhere():
    gt, um = GAMES
    assert L.label(um, "tile_cost_1") == "Notebook tile cost 1"
    assert L.label(gt, "abjure-at:cycle=2") == "Abjure in Cycle 2"
    assert L.label(gt, "abjure-at:margin=1") == "Abjure within 1 of Penance"
    assert L.label(gt, "abjure-at") == "Abjure in Cycle 3"  # its default
    assert L.label(gt, "ismcts:iters=64") == "ISMCTS search (iters=64)"
    assert L.label(um, "cite_bright_ideas=0") == "Bright Ideas per citation = 0"
    assert L.label(um, "coffee+1") == "+1 Coffee at setup" and L.label(gt, "books_physics-1") == "-1 Physics Books at setup"
    assert L.words(um, "cite_bright_ideas=0 / coffee-engine") == "Bright Ideas per citation = 0 / Coffee engine"
    assert L.words(gt, "writer, 2 players") == "Writer, 2 players"
    assert L.label(gt, "control") is None and L.words(gt, "2p") == "2p" and L.label("toy", "random") is None
    preset = strong_field(gt)[0]
    expanded = make_strategy(gt, preset).id
    assert len(expanded) > 150 and L.label(gt, expanded) == L.label(gt, preset) == "Tuned heuristic"
    assert L.label(gt, "heuristic:preset=runs/tune/preset.toml") == "Tuned heuristic (preset)"
    assert L.label(gt, "heuristic:vp=1.5,coins=0.2,research=0.3") == "Heuristic (3 arguments)"


def test_no_generic_module_names_a_game_id():
    for rel in ("analysis/labels.py", "analysis/pages.py", "analysis/markdown.py", "analysis/report.py"):
        text = (ROOT / rel).read_text()
        assert not any(g in text for g in GAMES), rel


def test_a_chart_gets_words_for_its_codes_and_the_page_lists_them():
    fig = F.bar_with_interval(pl.DataFrame({"s": ["writer, 2 players", "abjure-at:cycle=2, 2 players"], "est": [0.5, 0.4],
                                            "low": [0.4, 0.3], "high": [0.6, 0.5]}), "s", title="Turns by main_action",
                              xlabel="win rate", ref=0.5, ref_label="never-abjure")
    lab = L.Labeller("galileos-truth")
    lab.figure(fig)
    fig.canvas.draw()
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Writer, 2 players", "Abjure in Cycle 2, 2 players"]
    assert ax.get_title() == "Turns by Main Action" and ax.get_legend().get_texts()[0].get_text() == "Never Abjure"
    assert lab.glossary() == [("Abjure in Cycle 2", "abjure-at:cycle=2"), ("Main Action", "main_action"),
                              ("Never Abjure", "never-abjure"), ("Writer", "writer")]
    assert str(lab.cell("writer")) == '<span class="code" title="writer">Writer</span>' and lab.cell("2p") == "2p"
    F.close(fig)
    assert L.Labeller(None)("writer") == "writer"


def test_a_chart_of_observed_groups_says_descriptive_in_its_title_once():
    fig = F.bar_with_interval(pl.DataFrame({"s": ["a"], "est": [1.0], "low": [0.5], "high": [1.5]}), "s",
                              title="VP per Coffee by purchase", xlabel="VP")
    assert F.mark_descriptive(F.mark_descriptive(fig)).axes[0].get_title() == "VP per Coffee by purchase (descriptive)"
    fig.axes[0].set_title("VP per Coffee (95% bootstrap interval)")
    assert F.mark_descriptive(fig).axes[0].get_title() == "VP per Coffee (95% bootstrap interval; descriptive)"
    F.close(fig)


def test_a_report_table_shows_words_with_the_code_in_a_tooltip_and_the_page_lists_every_code(tmp_path):
    empty = pl.LazyFrame()
    runs = Runs(empty, empty, empty, {"r": {"status": "complete", "config": {"game": "galileos-truth"}}}, {})
    df = pl.DataFrame({"run": ["writer"], "strategy": ["abjure-at:cycle=2"], "parameter": ["prison_at"], "est": [1.0]})
    page = _write_report(runs, [Section("S", "", [], [("cap", df)])], tmp_path / "rep", 0.0).read_text()
    assert '<td class="t"><span class="code" title="abjure-at:cycle=2">Abjure in Cycle 2</span></td>' in page
    assert '<td class="t">writer</td>' in page and '<td class="t">prison_at</td>' in page  # run, parameter: codes
    assert "<h2>Labels and their code ids</h2>" in page and "<td class=\"t\"><code>abjure-at:cycle=2</code></td>" in page
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "| writer | abjure-at:cycle=2 | prison_at |" in md and "| Abjure in Cycle 2 | `abjure-at:cycle=2` |" in md
    assert (tmp_path / "rep" / "tables" / "00_00_cap.csv").read_text().splitlines()[1].startswith("writer,abjure-at:cycle=2")


def test_the_stronger_players_section_opens_with_the_count_of_each_verdict():
    checks = [{"verdict": v} for v in ("holds", "reverses", "holds", "changes")]
    text = tally({"checks": checks})
    assert text == "Of 4 headline conclusions re-measured with the strong field, 2 **hold**, 1 **change** and 1 **reverse**."
    assert str(P.prose(text)).count("<strong>") == 3 and tally({"checks": []}) == "No conclusion was re-measured."


def test_the_suggested_content_value_command_lists_each_item_once_and_its_items_parse():
    from meeplelab.analysis.content import suggested
    from meeplelab.studies.content_value import parse_items

    # space:florence stands out at 2 and at 4 players (a report over several player counts lists it at each)
    t = pl.DataFrame({"players": [2, 4, 4, 3], "kind": ["space", "space", "tile", "space"],
                      "id": ["florence", "florence", "tides", "printing-house"], "removable": [True] * 4,
                      "win_diff": [0.20, -0.25, 0.10, 0.05], "win_diff_low": [0.1, -0.3, 0.05, 0.01],
                      "win_diff_high": [0.3, -0.2, 0.15, 0.09], "stands_out": ["over", "under", "over", "over"]})
    sug = suggested(t)
    assert sug == ["space:florence", "tile:tides", "space:printing-house"]
    assert parse_items("galileos-truth", ",".join(sug)) == [("space", "florence"), ("tile", "tides"),
                                                             ("space", "printing-house")]


def test_codes_inside_a_sentence_are_given_their_words_and_other_words_stay():
    codes_in_words = L.codes_in_words
    assert (codes_in_words("galileos-truth", "gt-abjure: abjure-at:cycle=1 against never-abjure, focal player's win "
                           "rate (points): scripted field -2.2 [-3.7, -0.7]")
            == "gt-abjure: Abjure in Cycle 1 against Never Abjure, focal player's win rate (points): scripted field "
               "-2.2 [-3.7, -0.7]")
    assert codes_in_words("galileos-truth", "writer's edge at 4 seats") == "Writer's edge at 4 seats"
    assert codes_in_words("unconscious-mind", "um-coffee: coffee+1 against coffee-engine") == \
        "um-coffee: +1 Coffee at setup against Coffee engine"
    assert codes_in_words("toy", "bank-at:n=1's edge") == "bank-at:n=1's edge"  # a game with no label table
    # the rung "tuned heuristic" keeps its words; the strategy heuristic elsewhere in the sentence gets its label
    assert (codes_in_words("galileos-truth", "changes from the tuned heuristic; heuristic -2.0")
            == "changes from the tuned heuristic; Heuristic -2.0")


def _span(code: str, words: str) -> str:
    return f'<span class="code" title="{code}">{words}</span>'


def test_the_codes_of_a_sentence_get_words_on_the_page_and_a_command_keeps_its_ids():
    lab = L.Labeller("galileos-truth", ["abjure-at:margin=1", "never-abjure", "writer"])
    html = str(P.prose("FLAG dominant strategy (among abjure-at:margin=1, never-abjure, writer): writer wins; turn "
                       "main_action `penance`; p = 1.6e-75 at the end of play; heuristic and inventor stay; run "
                       "`meeplelab experiment --control never-abjure --vary abjure-at.cycle=1,2`.", lab))
    assert html == ("<p>FLAG dominant strategy (among " + _span("abjure-at:margin=1", "Abjure within 1 of Penance")
                    + ", " + _span("never-abjure", "Never Abjure") + ", " + _span("writer", "Writer") + "): "
                    + _span("writer", "Writer") + " wins; turn " + _span("main_action", "Main Action") + " "
                    + _span("penance", "Penance") + "; p = 1.6e-75 at the end of play; heuristic and inventor stay; "
                    "run <code>meeplelab experiment --control never-abjure --vary abjure-at.cycle=1,2</code>.</p>\n")
    # ids joined by commas, the tuned preset's path, a rule value; the alt text's words; a table cell's codes
    preset = strong_field("galileos-truth")[0]
    assert str(P.inline(f"**{preset}** and abjure-at:cycle=1,writer & penance_threshold=3", lab)) == (
        f"<strong>{_span(preset, 'Tuned heuristic')}</strong> and {_span('abjure-at:cycle=1', 'Abjure in Cycle 1')},"
        f"{_span('writer', 'Writer')} &amp; {_span('penance_threshold=3', 'Penance at Suspicion = 3')}")
    assert lab.plain("Win rate of never-abjure, 4 players") == "Win rate of Never Abjure, 4 players"
    assert str(lab.cell("never-abjure (control)")) == _span("never-abjure", "Never Abjure") + " (control)"
    assert ("Abjure in Cycle 1", "abjure-at:cycle=1") in lab.glossary()
    # restricted players: the tuned rung's short name and a strategy id, each suffix in words
    assert str(P.inline("tuned+force:abjure@cycle==1 against tuned+never:abjure", lab)) == (
        _span("tuned+force:abjure@cycle==1", "Tuned heuristic, Abjure forced in Cycle 1") + " against "
        + _span("tuned+never:abjure", "Tuned heuristic, without Abjure"))
    assert L.label("galileos-truth", "heuristic:vp=1+force:abjure@suspicion>=6+never:upgrade") == \
        "Heuristic (vp=1), Abjure forced at Suspicion 6 or more, without Upgrade Level"
    assert L.label("galileos-truth", "tuned") is None and L.label("toy", "tuned+never:x") is None
    none = L.Labeller(None)
    assert str(P.prose("writer, never-abjure", none)) == "<p>writer, never-abjure</p>\n"
    assert P.inline(P.inline("`x`")) == "<code>x</code>"  # a line rendered already is kept


@pytest.fixture(scope="module")
def gt_experiment_page(tmp_path_factory):
    """A real experiment page of Galileo's Truth (Abjure in Cycle 1 against never abjuring, 24 games an arm)."""
    tmp = tmp_path_factory.mktemp("gt_exp")
    base = RunConfig(game="galileos-truth", players=4, strategies=("writer", "suspicion-averse", "inventor"),
                     games=24, seed=3, seating="rotate", n_jobs=1, out=str(tmp / "e"))
    out = run_experiment(plan_experiment(base, control="never-abjure", vary="abjure-at.cycle=1"), tmp / "e")
    page = build_report([out / a["folder"] for a in read_experiment(out)["arms"]], out / "report",
                        sections=experiment_sections(out))
    return page.read_text(), (page.parent / "report.md").read_text()


@pytest.mark.slow  # plays 2 x 24 games of Galileo's Truth and writes their page: 10-20 s
def test_a_built_experiment_page_gives_its_verdict_and_effect_lines_in_words(gt_experiment_page):
    html, md = gt_experiment_page
    cycle1, never = _span("abjure-at:cycle=1", "Abjure in Cycle 1"), _span("never-abjure", "Never Abjure")
    # the verdict's ranking line and its effect line; the effects section's line of the arm
    assert f"win rates (fair share 25.0%) among the strategies played: {never}, {_span('writer', 'Writer')}, " in html
    assert f"FLAG barely used: turn {_span('main_action', 'Main Action')} " in html
    assert f"Largest effect: in arm {cycle1}, {cycle1}&#39;s win rate changes by " in html
    assert f"against the control {never} (paired, 24 games; among the strategies played: {cycle1}, " in html
    assert f"<p>{cycle1}: win rate " in html and f"<p>{cycle1}: final VP " in html
    # the command to paste keeps its ids; so do the provenance, the labels section and the Markdown twin
    assert "<code>meeplelab experiment --control never-abjure --vary abjure-at.cycle=1,2,3,4</code>" in html
    body = html[:html.index("<h2>Provenance</h2>")]
    shown = re.sub(r"<[^>]+>", "", re.sub(r"<code>.*?</code>", "", body, flags=re.DOTALL))
    assert [c for c in ("abjure-at:cycle=1", "never-abjure", "suspicion-averse") if c in shown] == []
    assert "strategies abjure-at:cycle=1, writer, suspicion-averse, inventor" in html[len(body):]
    assert "<code>abjure-at:cycle=1</code>" in html[html.index("<h2>Labels and their code ids</h2>"):]
    assert "Largest effect: in arm abjure-at:cycle=1, abjure-at:cycle=1's win rate changes by " in md
