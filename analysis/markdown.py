"""Markdown for the report pages: table cells escaped once, pages rendered by markdown-it-py.

The balance and robustness pages are written as Markdown and rendered to HTML with markdown-it-py
(CommonMark plus GitHub tables; the renderer every page's text goes through, :data:`meeplelab.analysis.pages.PAGE`),
so a cell value holding a ``|`` (a choice range such as ``rotate|first-to-pass|fewest-vp``) stays one cell in
both the Markdown and the HTML.
"""

from __future__ import annotations

import re

from .pages import PAGE, cell_class, markdown_page


def cell(value: object) -> str:
    """One Markdown table cell: the value's text with ``|`` escaped (``\\|``) and line breaks folded."""
    return str(value).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def row(values) -> str:
    """A Markdown table row ``| a | b |`` of escaped cells."""
    return "| " + " | ".join(cell(v) for v in values) + " |"


def to_html(md: str, title: str) -> str:
    """A standalone HTML page of ``md`` (CommonMark + tables; raw HTML such as ``<details>`` folds passes
    through), in the page template and stylesheet every report shares (:func:`meeplelab.analysis.pages.markdown_page`);
    tables wrapped in the column-fitting ``.tw`` block."""
    body = PAGE.render(md)
    body = body.replace("<table>", "<div class='tw'><table>").replace("</table>", "</table></div>")
    return markdown_page(_fit_cells(body), title)


_TH = re.compile(r"<th([^>]*)>(.*?)</th>", re.S)
_TD = re.compile(r"<td>(.*?)</td>", re.S)


def _fit_cells(body: str) -> str:
    """Table cells of rendered Markdown laid out like the report's (:mod:`meeplelab.analysis.pages`): a header may
    break after an underscore or an ``=`` (a target's text, ``length=<wbr>9..11``), a number-like cell never
    breaks, a text cell may (after an underscore first: a parameter name breaks as ``table_`` / ``colour``)."""
    body = _TH.sub(lambda m: f"<th{m.group(1)}>{m.group(2).replace('_', '_<wbr>').replace('=', '=<wbr>')}</th>", body)
    def td(m) -> str:
        v = m.group(1)
        cls = cell_class(v) if "<" not in v else "t"
        text = v.replace("_", "_<wbr>") if cls == "t" and "<" not in v else v  # table_<wbr>colour, not table_colou|r
        return f'<td class="{cls}">{text}</td>'

    return _TD.sub(td, body)
