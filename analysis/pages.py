"""The HTML pages of every report, rendered from jinja2 templates (``analysis/templates/``, package data).

One stylesheet (``report.css``) and one page skeleton (``base.html.j2``) serve every page: the run,
experiment, sweep and tournament reports (``report.html.j2``, built by :func:`meeplelab.analysis.report.build_report`)
and the Markdown pages of the robustness and balance-search reports (``markdown.html.j2``, from
:func:`meeplelab.analysis.markdown.to_html`). Autoescaping is on: every string handed to a template is escaped
unless it is :class:`markupsafe.Markup` (text already rendered to HTML: inline code of a caption, a
page rendered by markdown-it). Tables render whatever columns and rows they are given, folded into
``<details>`` when asked.
"""

from __future__ import annotations

import functools
import re

import jinja2
from markupsafe import Markup, escape

#: a cell that is a number (thousands separators, decimals, sign, percent), an interval "[a, b]" or the
#: missing-value dash: it never breaks across lines and is right-aligned
_NUMERIC = re.compile(r"[-+\u2212]?[\d,]*\.?\d*%?( ?\[[-+\u2212\d.,%\s]*\])?|\u2014|n/a|yes|no")
_CODE = re.compile(r"`([^`]+)`")


def inline(text: str) -> Markup:
    """Escaped HTML of prose or a caption, Markdown inline code (backticks) as ``<code>``."""
    return Markup(_CODE.sub(lambda m: f"<code>{m.group(1)}</code>", str(escape(text))))


def plain(text: str) -> str:
    """Text without Markdown backticks (an image's alt text)."""
    return _CODE.sub(lambda m: m.group(1), text)


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


__all__ = ["breakable", "cell_class", "column_class", "environment", "inline", "markdown_page", "plain", "render", "render_table", "table_context",
           "table_html"]
