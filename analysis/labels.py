"""Human labels of a game's codes on the report pages: strategies, rule numbers, actions and categories.

Each game declares its words in its own table, the module its spec names (``GameSpec.labels``: dicts
``STRATEGIES``, ``STRATEGY_ARGS``, ``PARAMS``, ``CODES``; :mod:`meeplelab.sim.core.spec`); this module reads
whichever table the game registers and names no game itself. What gets words:

- a strategy id: its table words (``writer`` -> "Writer"), an id with arguments by the game's argument words
  (``abjure-at:cycle=2`` -> "Abjure in Cycle 2"), the project's tuned preset in either spelling (the
  ``preset=`` id or the 200-character id of every weight the games table writes) -> "Tuned heuristic", another
  preset -> "Tuned heuristic (FILE)", other arguments kept short (``ISMCTS search (iters=64)``, or
  "Heuristic (12 arguments)" when they are long); a restriction suffix in words (``+never:abjure`` ->
  "without Abjure", ``+force:abjure@cycle==1`` -> "Abjure forced in Cycle 1");
- a rule number (``cite_bright_ideas``) and an arm of rule values (``cite_bright_ideas=0`` ->
  "Bright Ideas per citation = 0");
- a start-resource treatment (``coffee+1`` -> "+1 Coffee at setup", from the game's start resources);
- the tuned rung's restricted player (``tuned+force:abjure@cycle==1`` -> "Tuned heuristic, Abjure forced in Cycle
  1");
- an action, event kind, score category or purchase (``tile_cost_1`` -> "Notebook tile cost 1").

A code without words stays as it is. :class:`Labeller` labels the text of one page (chart tick labels and
legends, table cells and the codes inside its sentences: ``<span title="code">words</span>``, rendered by
:func:`meeplelab.analysis.pages.prose`) and keeps every code it replaced, so the page can list them
(:meth:`Labeller.glossary`). The CSV files, the Markdown twin and the terminal keep the codes.
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape
from matplotlib.category import StrCategoryFormatter
from matplotlib.ticker import FixedFormatter, FuncFormatter
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.registry import get_spec
from meeplelab.strategies.fields import TUNED, strong_field
from meeplelab.strategies.registry import make_strategy
from meeplelab.strategies.restricted import split_restrictions

#: the separators of a composite chart label (``writer, 2 players``; ``cite_bright_ideas=0 / citer``)
_PARTS = re.compile(r"(, | / | vs )")
#: one rule value ``name=value`` (no spaces)
_RULE = re.compile(r"(\w+)=(\S+)")
#: a treatment ``NAME+n`` / ``NAME-n``
_TREAT = re.compile(r"([a-z_]\w*)([+-]\d+)")
#: a code inside a title or an axis label: a lower-case word joined by ``_`` or ``-`` (``main_action``)
_TOKEN = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+(?![\w-])")
#: a code inside a sentence: a strategy id with its arguments, a rule number with its value, a treatment
_CODE_IN_TEXT = re.compile(r"[A-Za-z][\w:=.+@<>!-]*[\w=]")
#: a code inside a sentence of a page: also a preset's path and arguments joined by commas (never a comma and a
#: space), never the tail of a word or a number (``1.6e-75``)
_CODE_IN_PAGE = re.compile(r"(?<![\w:=.+/,@<>!-])[A-Za-z][\w:=.+/,@<>!-]*[\w=]")
#: the punctuation that makes a token of a sentence a code (``never-abjure``, ``tile_cost_1``, ``coffee+1``)
_CODE_MARK = re.compile(r"[-_:=+]")
#: arguments longer than this (in characters) are counted, not listed, in a strategy's label
ARGS_SHOWN = 24


@dataclass(frozen=True)
class Table:
    """One game's words: ``strategies``, ``strategy_args``, ``params``, ``codes`` (the dicts of its labels
    module), ``treatments`` (``{name: words}`` from its start resources) and ``strong`` (the project's tuned
    preset in both spellings, :func:`_tuned`)."""

    strategies: dict = field(default_factory=dict)
    strategy_args: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    codes: dict = field(default_factory=dict)
    treatments: dict = field(default_factory=dict)
    strong: dict = field(default_factory=dict)


@functools.cache
def table(game: str) -> Table:
    """The words ``game`` registers (an empty :class:`Table` when it registers none or is unknown)."""
    try:
        spec = get_spec(game)
    except ConfigError:
        return Table()
    treat = {r.name: r.doc.split(" (")[0] for r in spec.start_resources}
    if spec.labels is None:
        return Table(treatments=treat)
    m = importlib.import_module(spec.labels)
    return Table(dict(getattr(m, "STRATEGIES", {})), dict(getattr(m, "STRATEGY_ARGS", {})),
                 dict(getattr(m, "PARAMS", {})), dict(getattr(m, "CODES", {})), treat, _tuned(game))


def _tuned(game: str) -> dict[str, str]:
    """``{id: "tuned"}`` for the project's tuned preset of ``game`` in both spellings: ``heuristic:preset=FILE``
    and the id of every weight the games table writes (empty when the project keeps no preset)."""
    try:
        preset = strong_field(game)[0]
        return {preset: "tuned", make_strategy(game, preset).id: "tuned"}
    except ConfigError:
        return {}


def _split(sid: str) -> tuple[str, dict[str, str], str]:
    """``(name, arguments, restriction suffix)`` of a strategy id (no check of names or values)."""
    base, plus, rest = sid.partition("+")
    name, _, args = base.partition(":")
    parsed = {}
    for part in filter(None, args.split(",")):
        k, eq, v = part.partition("=")
        if not eq:
            return sid, {}, ""
        parsed[k.strip()] = v.strip()
    return name, parsed, (plus + rest if plus else "")


def strategy(game: str, sid: str) -> str | None:
    """Words for strategy id ``sid`` of ``game`` (module docstring), or None when the game has none for it."""
    t = table(game)
    name, args, restriction = _split(sid)
    base = t.strategies.get(name)
    if base is None:
        return None
    words = None
    if sid.partition("+")[0] in t.strong:
        words = f"Tuned {base.lower()}"
    elif "preset" in args and len(args) == 1:
        words = f"Tuned {base.lower()} ({Path(args['preset']).stem})"
    elif not args:
        words = base
    else:
        for names, text in t.strategy_args.get(name, ()):
            if set(names) == set(args):
                words = text.format(**args)
                break
        if words is None:
            shown = ", ".join(f"{k}={v}" for k, v in args.items())
            words = f"{base} ({shown})" if len(shown) <= ARGS_SHOWN else f"{base} ({len(args)} arguments)"
    if not restriction:
        return words
    tail = _suffix(game, restriction)
    return f"{words}, {tail}" if tail else f"{words} {restriction}"


#: a restriction's condition in words, by its operator (``cycle==1`` -> "in Cycle 1")
_CONDITION = {"==": "in {f} {v}", "!=": "not in {f} {v}", ">=": "at {f} {v} or more", "<=": "at {f} {v} or less",
              ">": "at {f} over {v}", "<": "at {f} under {v}"}


def _suffix(game: str, suffix: str) -> str | None:
    """Words for restriction suffixes (``+never:abjure+force:upgrade@cycle==1`` -> "without Abjure, Upgrade Level
    forced in Cycle 1"), None when they are malformed."""
    try:
        _, rs = split_restrictions("x" + suffix)
    except ConfigError:
        return None
    codes = table(game).codes
    out = []
    for r in rs:
        act = codes.get(r.action, r.action)
        if r.cond is None:
            out.append(f"without {act}" if r.mode == "never" else f"{act} forced")
        else:
            f, op, v = r.cond
            when = _CONDITION[op].format(f=codes.get(f, f.capitalize()), v=v)
            out.append(f"without {act} {when}" if r.mode == "never" else f"{act} forced {when}")
    return ", ".join(out) or None


def restricted(game: str, sid: str) -> str | None:
    """Words for the tuned rung's restricted player (``tuned+force:abjure@cycle==1`` -> "Tuned heuristic, Abjure
    forced in Cycle 1"; ``tuned+never:abjure`` -> "Tuned heuristic, without Abjure"); None for another id or a game
    without words. A strategy id with suffixes gets its words from :func:`strategy`."""
    if not sid.startswith(TUNED + "+") or not table(game).strategies:
        return None
    tail = _suffix(game, sid[len(TUNED):])
    return None if tail is None else f"Tuned heuristic, {tail}"


def _assignments(game: str, text: str) -> str | None:
    """Words for rule values ``name=value`` joined by ``;`` (an arm), when every name is a rule number."""
    params = table(game).params
    pairs = [_RULE.fullmatch(p.strip()) for p in text.split(";")]
    if not all(m and m.group(1) in params for m in pairs):
        return None
    return "; ".join(f"{params[m.group(1)]} = {m.group(2)}" for m in pairs)


def label(game: str, code: str) -> str | None:
    """Words for one code of ``game`` (a strategy id, rule number, arm of rule values, treatment, action,
    category...), or None when the game gives none."""
    t = table(game)
    code = str(code)
    if code in t.codes:
        return t.codes[code]
    if code in t.params:
        return t.params[code]
    words = strategy(game, code)
    if words is not None:
        return words
    m = _TREAT.fullmatch(code)
    if m and m.group(1) in t.treatments:
        return f"{m.group(2)} {t.treatments[m.group(1)]}"
    words = restricted(game, code)
    if words is not None:
        return words
    if "=" in code:
        return _assignments(game, code)
    return None


def words(game: str, text: str) -> str:
    """``text`` with every code given words: the whole text when it is a code, else each part of a composite
    label (``writer, 2 players`` -> ``Writer, 2 players``)."""
    whole = label(game, text)
    if whole is not None:
        return whole
    parts = _PARTS.split(str(text))
    return "".join(p if i % 2 else (label(game, p) or p) for i, p in enumerate(parts))


class Labeller:
    """The labels of one page of ``game`` (None: no labels, every text kept): words for chart texts and table
    cells, and every code replaced (:meth:`glossary`)."""

    def __init__(self, game: str | None, strategies=()):
        self.game = game
        self.strategies = frozenset(strategies)  # the ids played: a bare word among them is a code in a sentence
        self.used: dict[str, str] = {}  # words -> code

    def code(self, text: str) -> str | None:
        """Words for ``text`` when it is one code (recorded), else None."""
        if self.game is None:
            return None
        w = label(self.game, text)
        if w is not None and w != text:
            self.used.setdefault(w, str(text))
            return w
        return None

    def __call__(self, text: str) -> str:
        """``text`` in words (:func:`words`), each code replaced recorded."""
        if self.game is None:
            return text
        whole = self.code(text)
        if whole is not None:
            return whole
        parts = _PARTS.split(str(text))
        return "".join(p if i % 2 else (self.code(p) or p) for i, p in enumerate(parts))

    def cell(self, text: str):
        """A table cell: ``<span title="code">words</span>`` (Markup) when ``text`` is one code, each code of a
        longer text so (``never-abjure (control)``; :meth:`text_html`), else ``text``."""
        w = self.code(text)
        if w is not None:
            return Markup(f'<span class="code" title="{escape(text)}">{escape(w)}</span>')
        html = self.text_html(text)
        return text if html is None else Markup(html)

    def figure(self, fig) -> None:
        """Give words to the codes among ``fig``'s tick labels (fixed or categorical) and legend entries, and to
        a code word of its titles and axis labels."""
        if self.game is None:
            return
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                fmt = axis.get_major_formatter()
                if isinstance(fmt, FixedFormatter):
                    fmt.seq = [self(s) for s in fmt.seq]
                elif isinstance(fmt, FuncFormatter):  # labels given with the ticks (ax.set_yticks(y, labels))
                    fmt.func = lambda x, pos, f=fmt.func: self(f(x, pos))
                elif isinstance(fmt, StrCategoryFormatter):
                    axis.set_major_formatter(FuncFormatter(lambda x, pos, f=fmt: self(f(x, pos))))
            legend = ax.get_legend()
            if legend is not None:
                for t in legend.get_texts():
                    t.set_text(self(t.get_text()))
            for t in (ax.title, ax.xaxis.label, ax.yaxis.label):  # "Turns by main_action" -> "Turns by Main Action"
                t.set_text(_TOKEN.sub(lambda m: self.code(m.group(0)) or m.group(0), t.get_text()))

    def span(self, code: str) -> str | None:
        """``<span class="code" title="code">words</span>`` (escaped HTML) when ``code`` is one code, else None."""
        w = self.code(code)
        return None if w is None else f'<span class="code" title="{escape(code)}">{escape(w)}</span>'

    def _in_text(self, token: str) -> bool:
        """Whether ``token`` of a sentence reads as a code: it has a code's punctuation (``-_:=+``) or is a
        strategy id played on the page (``writer``), not an ordinary word that is also a code (``end``, ``play``)."""
        return bool(_CODE_MARK.search(token)) or token in self.strategies

    def _pieces(self, text: str) -> list[tuple[str, str | None]]:
        """``text`` as ``(piece, code)``: a code's words and the code, or text kept and None. A token of codes
        joined by commas (``writer,never-abjure``) is labelled part by part when it is no code as a whole."""
        out: list[tuple[str, str | None]] = []
        at = 0
        for m in _CODE_IN_PAGE.finditer(str(text)):
            tok = m.group()
            parts = [tok] if self._in_text(tok) and self.code(tok) else tok.split(",")
            if not any(self._in_text(p) and self.code(p) for p in parts):
                continue
            out.append((text[at:m.start()], None))
            for k, p in enumerate(parts):
                w = self.code(p) if self._in_text(p) else None
                out += [(",", None)] * (k > 0) + [(w, p) if w else (p, None)]
            at = m.end()
        out.append((text[at:], None))
        return [(p, c) for p, c in out if p]

    def text_html(self, text: str) -> str | None:
        """Escaped HTML of a sentence's plain text with each code in its words (:meth:`span`, the code in the
        tooltip), or None when it holds no code. Which tokens are codes: :meth:`_in_text`."""
        if self.game is None:
            return None
        pieces = self._pieces(text)
        if all(c is None for _, c in pieces):
            return None
        return "".join(str(escape(p)) if c is None else self.span(c) for p, c in pieces)

    def plain(self, text: str) -> str:
        """A sentence's plain text with each code in its words (an image's alt text)."""
        return text if self.game is None else "".join(p for p, _ in self._pieces(text))

    def glossary(self) -> list[tuple[str, str]]:
        """``(words, code)`` of every code replaced on the page, by words."""
        return sorted(self.used.items(), key=lambda kv: (kv[0].lower(), kv[1]))




def codes_in_words(game: str, text: str) -> str:
    """``text`` (a sentence) with every code the game labels given its words (``abjure-at:cycle=1 against
    never-abjure`` -> ``Abjure in Cycle 1 against Never Abjure``; ``writer's edge`` -> ``Writer's edge``); words
    that are no code stay as they are, and so does the rung name after ``tuned`` (``the tuned heuristic``: a
    rung of the skill ladder, not the strategy ``heuristic``)."""
    text = str(text)

    def word(m: re.Match) -> str:
        if text.endswith(_TUNED, 0, m.start()):
            return m.group()
        return label(game, m.group()) or m.group()

    return _CODE_IN_TEXT.sub(word, text)


#: the word before a rung name that :func:`codes_in_words` leaves as it is
_TUNED = "tuned "


__all__ = ["ARGS_SHOWN", "Labeller", "Table", "codes_in_words", "label", "restricted", "strategy", "table",
           "words"]
