"""Markdown for the report pages: table cells escaped once, pages rendered by markdown-it-py.

The balance and robustness pages are written as Markdown and rendered to HTML with markdown-it-py
(CommonMark plus GitHub tables), so a cell value holding a ``|`` (a choice range such as
``rotate|first-to-pass|fewest-vp``) stays one cell in both the Markdown and the HTML.
"""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

STYLE = ("body{font-family:sans-serif;max-width:1100px;margin:auto;padding:0 12px}"
         "table{border-collapse:collapse;margin:8px 0}td,th{font-size:12px;border:1px solid #999;padding:3px}"
         ".tw{overflow-x:auto}img{max-width:100%}")


def cell(value: object) -> str:
    """One Markdown table cell: the value's text with ``|`` escaped (``\\|``) and line breaks folded."""
    return str(value).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def row(values) -> str:
    """A Markdown table row ``| a | b |`` of escaped cells."""
    return "| " + " | ".join(cell(v) for v in values) + " |"


def to_html(md: str, title: str) -> str:
    """A standalone HTML page of ``md`` (CommonMark + tables), tables wrapped to scroll inside the page width."""
    body = MarkdownIt("commonmark").enable("table").render(md)
    body = body.replace("<table>", "<div class='tw'><table>").replace("</table>", "</table></div>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n{body}</body></html>\n")
