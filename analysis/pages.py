"""The HTML pages of every report, rendered from jinja2 templates (``analysis/templates/``, package data).

One stylesheet (``report.css``) and one page skeleton (``base.html.j2``) serve every page: the run,
experiment, sweep and tournament reports (``report.html.j2``, built by :func:`meeplelab.analysis.report.build_report`)
and the Markdown pages of the robustness and balance-search reports (``markdown.html.j2``, from
:func:`meeplelab.analysis.markdown.to_html`). Autoescaping is on: every string handed to a template is escaped
unless it is :class:`markupsafe.Markup` (text already rendered to HTML: a caption or a section's prose, a
page rendered by markdown-it). Tables render whatever columns and rows they are given, folded into
``<details>`` when asked.

Every text a page shows goes through one Markdown renderer, markdown-it-py (CommonMark plus GitHub tables):
a section's prose (:func:`prose`: paragraphs, ``- `` lists, ``**bold**``, code spans), a caption or a summary
line (:func:`inline`), and the whole Markdown pages (:func:`meeplelab.analysis.markdown.to_html`). Prose and
captions are rendered with raw HTML off, so a ``<`` in a strategy name or a caption is text; a whole Markdown
page written by meeplelab keeps its own ``<details>`` folds.
"""

from __future__ import annotations

import functools
import re

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

#: a cell that is a number (thousands separators, decimals, sign, percent), an interval "[a, b]" or the
#: missing-value dash: it never breaks across lines and is right-aligned
_NUMERIC = re.compile(r"[-+\u2212]?[\d,]*\.?\d*%?( ?\[[-+\u2212\d.,%\s]*\])?|\u2014|n/a|yes|no")

#: the one Markdown renderer (CommonMark + GitHub tables) of report prose and captions: raw HTML off (escaped)
TEXT = MarkdownIt("commonmark", {"html": False}).enable("table")
#: the same renderer for a whole Markdown page meeplelab wrote itself (its ``<details>`` folds pass through)
PAGE = MarkdownIt("commonmark").enable("table")
#: a Markdown list item's first line: ``- x``, ``* x``, ``+ x``, ``1. x``, ``1) x``
_ITEM = re.compile(r"\s*(?:[-*+]|\d{1,9}[.)])\s")


def blocks(text: str) -> str:
    """Section prose as Markdown blocks: a report section's text holds one paragraph a line, so each line
    becomes its own paragraph, except that consecutive list items (``- ...``) stay one list; a line's
    leading spaces are dropped (four of them would make a code block), a list item keeps its own."""
    out: list[str] = []
    prev_item = False
    for line in str(text).split("\n"):
        if not line.strip():
            prev_item = False
            continue
        item = bool(_ITEM.match(line))
        if out:
            out.append("\n" if item and prev_item else "\n\n")
        out.append(line.rstrip() if item else line.strip())
        prev_item = item
    return "".join(out)


def _labelled(tokens: list, labels) -> list:
    """``tokens`` (markdown-it's) with the codes of their text given words by ``labels`` (the page's
    :class:`meeplelab.analysis.labels.Labeller`): a text run by ``labels.text_html``, a code span that is one
    code (```tile_cost_1```) by ``labels.span``; a code span holding more (a command to paste) is kept."""
    for tok in tokens:
        for child in tok.children or ():
            if child.type == "text":
                html = labels.text_html(child.content)
            elif child.type == "code_inline":
                html = labels.span(child.content)
            else:
                continue
            if html is not None:  # rendered as it is (already escaped by the labeller)
                child.type, child.content = "html_inline", html
    return tokens


def prose(text: str, labels=None) -> Markup:
    """HTML of a section's prose (:func:`blocks` rendered by :data:`TEXT`): ``<p>`` paragraphs, ``<ul>`` lists,
    ``<strong>``/``<em>``, ``<code>``; any HTML in the text is escaped. ``labels`` (a page's labeller): each
    code of the text in its words, the code id in a tooltip (:func:`_labelled`)."""
    if labels is None:
        return Markup(TEXT.render(blocks(text)))
    env: dict = {}
    return Markup(TEXT.renderer.render(_labelled(TEXT.parse(blocks(text), env), labels), TEXT.options, env))


def inline(text: str, labels=None) -> Markup:
    """HTML of one line of text (a caption, a summary sentence, a fold's summary) rendered by :data:`TEXT`
    without a paragraph around it: code spans, bold, emphasis; any HTML in the text is escaped; ``labels`` as
    in :func:`prose`. Markup (a line rendered already) is returned as it is."""
    if isinstance(text, Markup):
        return text
    if labels is None:
        return Markup(TEXT.renderInline(str(text)))
    env: dict = {}
    return Markup(TEXT.renderer.render(_labelled(TEXT.parseInline(str(text), env), labels), TEXT.options, env))


def plain(text: str) -> str:
    """The words of one line of Markdown without its markup (an image's alt text, a file name's words):
    ``**holds** in `x` `` -> ``holds in x``."""
    tokens = TEXT.parseInline(str(text))
    return "".join(t.content for tok in tokens for t in (tok.children or [])
                   if t.type in ("text", "code_inline", "softbreak")).replace("\n", " ")


def breakable(name: str) -> Markup:
    """A column name that may break after each underscore (``spread_<wbr>high``), so a table of many
    long column names fits the page column instead of scrolling."""
    return Markup("_<wbr>".join(str(escape(p)) for p in str(name).split("_")))


def cell_class(value: str) -> str:
    """``"n"`` for a number-like cell (never broken, right-aligned), ``"t"`` for text (left-aligned,
    may break anywhere when the column is too narrow)."""
    return "n" if _NUMERIC.fullmatch(str(value).strip()) else "t"


def column_class(values) -> str:
    """``"n"`` when every cell of a column is number-like (:func:`cell_class`), else ``"t"``: one
    alignment per column (a column of Cycles 1-4 and "never" is text)."""
    return "n" if all(cell_class(v) == "n" for v in values) else "t"


@functools.cache
def environment() -> jinja2.Environment:
    """The jinja2 environment of the report templates: package data of :mod:`meeplelab.analysis`, autoescaped,
    undefined names an error (a template never renders a missing value as an empty string)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("meeplelab.analysis", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=False, lstrip_blocks=False,
                             keep_trailing_newline=True)
    env.filters["breakable"] = breakable
    env.filters["cellclass"] = cell_class
    env.filters["inline"] = inline
    return env


def render(template: str, **context) -> str:
    """Render ``template`` (a file name in ``analysis/templates``) with ``context``.

    Raises:
        jinja2.TemplateNotFound: no such template; jinja2.UndefinedError: the template names a value
            ``context`` lacks.
    """
    return environment().get_template(template).render(**context)


def table_context(columns, rows, caption: str | Markup = "", csv: str | None = None, *, folded: bool = False,
                  summary: str | Markup | None = None, open: bool = False) -> dict:
    """What the ``table`` macro renders: ``columns`` (names), ``rows`` (lists of cell texts), a
    caption (plain text is escaped; Markup is kept), the CSV link, and ``folded`` (inside
    ``<details>``, ``summary`` or the caption as its summary line; ``open`` unfolded at load)."""
    rows = [list(r) for r in rows]
    classes = [column_class([r[i] for r in rows if i < len(r)]) for i in range(len(columns))]
    return {"columns": list(columns), "rows": rows, "classes": classes, "caption": caption, "csv": csv,
            "folded": folded, "summary": summary, "open": open}


def render_table(table: dict) -> str:
    """One table (a :func:`table_context`) as an HTML fragment: the ``table`` macro of ``macros.html.j2``."""
    return str(environment().get_template("macros.html.j2").module.table(table))


def table_html(columns, rows, caption: str | Markup = "", csv: str | None = None, **kw) -> str:
    """One table as an HTML fragment from its columns and cell texts (see :func:`table_context`)."""
    return render_table(table_context(columns, rows, caption, csv, **kw))


def markdown_page(body_html: str, title: str) -> str:
    """A whole page around HTML rendered from Markdown (``body_html`` is trusted: markdown-it's output)."""
    return render("markdown.html.j2", title=title, body=Markup(body_html))


__all__ = ["PAGE", "TEXT", "blocks", "breakable", "cell_class", "column_class", "environment", "inline", "markdown_page",
           "plain", "prose", "render", "render_table", "table_context", "table_html"]
