"""Plausible ranges of the assumed rule numbers: loaded from ``sim/<game>/data/plausible.toml`` and validated.

Every ``Params`` field whose source is an assumption ID (``A-UM-nn``, ``A-GT-nn``; see
:func:`meeplelab.sim.core.params.is_assumed`) carries a plausible ``low``/``high`` (a tuple field: element by
element) or a list of ``choices``, with the ``reason``: in the file, or beside the field itself
(``param(..., plausible={"low": 1, "high": 4, "reason": "..."})``, one edit for a new rule number). :func:`load_plausible` refuses a file that
misses an assumed field, names an unknown or non-assumed field, puts a bound outside the field's
``lo``/``hi`` (or a choice outside its ``choices``), leaves the default outside the range, or allows
a point that ``Params.check()`` refuses (the box's corners and a fixed Sobol sample are checked).

A point of the box is given by unit coordinates ``u in [0, 1]`` per varied field (:meth:`Range.value`):
numbers are interpolated and rounded to the field's type (tuples element by element with the same
``u``), choices are picked by ``floor(u * n)``. The robustness and balance commands sample in these
coordinates.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .core.errors import ConfigError
from .core.params import apply_overrides, describe, is_assumed
from .registry import get_game_class

FILE = "plausible.toml"


@dataclass(frozen=True)
class Range:
    """The plausible range of one assumed parameter.

    Attributes:
        name: the ``Params`` field.
        source: its assumption ID (``A-GT-11``).
        default: the field's default.
        low, high: inclusive bounds (``None`` for a choice field); tuples for tuple fields.
        choices: the alternatives of a choice field (``None`` for numbers).
        reason: why the range is plausible.
    """

    name: str
    source: str
    default: Any
    low: Any = None
    high: Any = None
    choices: tuple | None = None
    reason: str = ""

    @property
    def varies(self) -> bool:
        """True when the range holds more than one value (a one-choice or low == high field is fixed)."""
        if self.choices is not None:
            return len(self.choices) > 1
        return self.low != self.high

    def value(self, u: float) -> Any:
        """The value at unit coordinate ``u`` (0 = low, 1 = high), typed like the default."""
        u = min(max(float(u), 0.0), 1.0)
        if self.choices is not None:
            return self.choices[min(int(math.floor(u * len(self.choices))), len(self.choices) - 1)]
        if isinstance(self.default, tuple):
            return tuple(_interp(a, b, u, type(d)) for a, b, d in zip(self.low, self.high, self.default))
        return _interp(self.low, self.high, u, type(self.default))

    def unit_of(self, value: Any) -> float:
        """The unit coordinate of ``value`` (tuples: the mean over elements that vary; 0.5 when nothing varies)."""
        if self.choices is not None:
            return (self.choices.index(value) + 0.5) / len(self.choices)
        lows = self.low if isinstance(self.low, tuple) else (self.low,)
        highs = self.high if isinstance(self.high, tuple) else (self.high,)
        vals = value if isinstance(value, tuple) else (value,)
        us = [(v - a) / (b - a) for v, a, b in zip(vals, lows, highs) if b != a]
        return sum(us) / len(us) if us else 0.5

    def text(self) -> str:
        """``low..high`` (tuples as ``0,4,8..0,6,12``) or ``a|b`` for choices."""
        if self.choices is not None:
            return "|".join(map(str, self.choices))
        return f"{_fmt(self.low)}..{_fmt(self.high)}"


def _interp(a, b, u, kind):
    x = a + u * (b - a)
    if kind is int:
        return int(math.floor(x + 0.5))  # half up: the same rounding for every element
    return float(x)


def _fmt(v) -> str:
    return ",".join(map(str, v)) if isinstance(v, tuple) else str(v)


def plausible_path(game_cls) -> Path:
    """``sim/<game>/data/plausible.toml`` of a game class (its packaged content folder)."""
    mod = importlib.import_module(game_cls.__module__)
    return Path(mod.__file__).resolve().parent / "data" / FILE


def load_plausible(game: str | type, data: Mapping | None = None, *, strict: bool = True) -> dict[str, Range]:
    """The validated plausible ranges of ``game`` (an id or engine class), by field name, in field order.

    Args:
        game: game id or engine class.
        data: the ranges as a dict (``{name: {"low":..., "high":..., "reason":...}}``) instead of the
            game's ``plausible.toml`` (tests, games without a file).
        strict: refuse a missing assumed parameter (False: leave it out; ``meeplelab params`` lists the rest).

    Raises:
        ConfigError: the file is missing or unreadable, or any check in the module docstring fails
            (one line naming the field and what is allowed).
    """

    cls = get_game_class(game) if isinstance(game, str) else game
    where = "plausible ranges"
    if data is None:
        path = plausible_path(cls)
        where = str(path)
        try:
            data = tomllib.loads(path.read_text())
        except FileNotFoundError:
            raise ConfigError(f"{cls.name} has no plausible ranges: {path} is missing") from None
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise ConfigError(f"{path}: unreadable: {e}") from None
    fields = {f.name: f for f in dataclasses.fields(cls.Params)}
    data = dict(data)
    for n, f in fields.items():  # a range declared beside its field: param(..., plausible={...})
        beside = f.metadata.get("plausible")
        if beside is None:
            continue
        if n in data:
            raise ConfigError(f"{where}: {n!r} has a plausible range here and beside its Params field: keep one")
        data[n] = beside
    assumed = [n for n, f in fields.items() if is_assumed(f.metadata.get("source", ""))]
    for name in data:
        if name not in fields:
            raise ConfigError(f"{where}: {name!r} is not a parameter of {cls.name}")
        if name not in assumed:
            raise ConfigError(f"{where}: {name!r} is not an assumption (source {fields[name].metadata.get('source')!r}): "
                              "only A-... parameters take plausible ranges")
    missing = [n for n in assumed if n not in data]
    if not strict:
        assumed = [n for n in assumed if n in data]
    elif missing:
        raise ConfigError(f"{where}: assumed parameter {missing[0]!r} ({fields[missing[0]].metadata['source']}) has no "
                          f"plausible range ({len(missing)} missing): add low/high or choices and a reason")
    out = {n: _range(where, fields[n], data[n]) for n in assumed}
    _check_box(where, cls, out)
    return out


def _range(where: str, f, entry: Mapping) -> Range:
    md, default = f.metadata, f.default
    name = f.name
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where}: {name} must be a table with low/high or choices and a reason")
    extra = sorted(set(entry) - {"low", "high", "choices", "reason"})
    if extra:
        raise ConfigError(f"{where}: {name} has unknown key {extra[0]!r}: allowed low, high, choices, reason")
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise ConfigError(f"{where}: {name} needs a reason (why the range is plausible)")
    if isinstance(default, str):
        ch = entry.get("choices")
        if not isinstance(ch, list) or not ch or "low" in entry or "high" in entry:
            raise ConfigError(f"{where}: {name} is a choice: give choices = [...] (no low/high)")
        allowed = md.get("choices")
        bad = [c for c in ch if allowed is not None and c not in allowed]
        if bad:
            raise ConfigError(f"{where}: {name} choice {bad[0]!r} is not allowed: allowed {', '.join(map(str, allowed))}")
        if default not in ch:
            raise ConfigError(f"{where}: {name} choices must include the default {default!r}")
        return Range(name, md["source"], default, choices=tuple(ch), reason=reason.strip())
    if "choices" in entry or "low" not in entry or "high" not in entry:
        raise ConfigError(f"{where}: {name} is a number: give low and high (no choices)")
    low, high = (_typed(where, name, entry[k], default, k) for k in ("low", "high"))
    lo, hi = md.get("lo"), md.get("hi")
    lows = low if isinstance(low, tuple) else (low,)
    highs = high if isinstance(high, tuple) else (high,)
    defs = default if isinstance(default, tuple) else (default,)
    for a, b, d in zip(lows, highs, defs):
        if a > b:
            raise ConfigError(f"{where}: {name} low {_fmt(low)} is above high {_fmt(high)}")
        if (lo is not None and a < lo) or (hi is not None and b > hi):
            raise ConfigError(f"{where}: {name} range {_fmt(low)}..{_fmt(high)} leaves the parameter's bounds {lo} to {hi}")
        if not a <= d <= b:
            raise ConfigError(f"{where}: {name} range {_fmt(low)}..{_fmt(high)} does not hold the default {_fmt(default)}")
    return Range(name, md["source"], default, low=low, high=high, reason=reason.strip())


def _typed(where, name, raw, default, key):
    if isinstance(default, tuple):
        if not isinstance(raw, list) or len(raw) != len(default):
            raise ConfigError(f"{where}: {name} {key} needs {len(default)} values like the default {_fmt(default)}")
        return tuple(_typed(where, name, x, default[0] if default else 0, key) for x in raw)
    kind = type(default)
    if kind is float and isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return float(raw)
    if not isinstance(raw, kind) or isinstance(raw, bool) != isinstance(default, bool):
        raise ConfigError(f"{where}: {name} {key} = {raw!r} has the wrong type: expected {kind.__name__}")
    return raw


def _check_box(where: str, cls, ranges: dict[str, Range]) -> None:
    """Every corner of the box (up to 2**12 of them, else a Sobol sample) and 64 Sobol points pass check()."""
    from scipy.stats import qmc

    vary = [r for r in ranges.values() if r.varies]
    pts: list[list[float]] = [[0.0] * len(vary), [1.0] * len(vary), [0.5] * len(vary)]
    if vary:
        pts += qmc.Sobol(len(vary), scramble=True, seed=0).random(64).tolist()
        if len(vary) <= 12:
            pts += [[(i >> j) & 1 for j in range(len(vary))] for i in range(2 ** len(vary))]
    base = cls.Params()
    for u in pts:
        values = {r.name: r.value(x) for r, x in zip(vary, u)}
        try:
            apply_overrides(base, values)
        except ConfigError as e:
            raise ConfigError(f"{where}: a point of the plausible box is refused ({e})") from None


def point_params(ranges: Mapping[str, Range], names: list[str], u) -> dict[str, Any]:
    """``{name: value}`` at unit coordinates ``u`` (``[len(names)]``) for the varied ``names``."""
    return {n: ranges[n].value(x) for n, x in zip(names, u)}


def format_value(v: Any) -> str:
    """A value as ``--set`` takes it (tuples comma separated)."""
    return _fmt(v)


BEGIN, END = "<!-- plausible:begin (generated by python -m meeplelab.sim.plausible) -->", "<!-- plausible:end -->"


def markdown_table(game: str) -> str:
    """The plausible-range table of ``game`` as Markdown (between the BEGIN/END markers of its rules doc)."""

    cls = get_game_class(game)
    rows = ["| parameter | ID | default | plausible | reason |", "|---|---|---|---|---|"]
    for r in load_plausible(cls).values():
        rows.append(f"| `{r.name}` | {r.source} | {_fmt(r.default)} | {r.text()}"
                    f"{'' if r.varies else ' (fixed)'} | {r.reason} |")
    return "\n".join([BEGIN, *rows, END])


def rules_doc(game: str) -> Path:
    """``docs/rules/<game>.md`` of this checkout."""
    return Path(__file__).resolve().parents[1] / "docs" / "rules" / f"{game.replace('-', '_')}.md"


def update_rules_doc(game: str) -> bool:
    """Rewrite the generated table in the game's rules doc; True when the file changed.

    Raises:
        ConfigError: the doc has no BEGIN/END markers.
    """
    p = rules_doc(game)
    text = p.read_text()
    if BEGIN not in text or END not in text:
        raise ConfigError(f"{p}: no plausible-range markers ({BEGIN} ... {END})")
    new = text[:text.index(BEGIN)] + markdown_table(game) + text[text.index(END) + len(END):]
    if new != text:
        p.write_text(new)
    return new != text


if __name__ == "__main__":  # python -m meeplelab.sim.plausible: refresh the tables in docs/rules/
    for _g in ("galileos-truth", "unconscious-mind"):
        print(f"{rules_doc(_g)}: {'updated' if update_rules_doc(_g) else 'current'}")


def param_lines(game_cls) -> tuple[list[str], list[str]]:
    """What ``meeplelab params GAME`` says for the game class ``game_cls``: (warnings, lines). A line per rule
    parameter: ``name = default [unit] (source or assumption ID): doc``, an assumption's plausible range and its
    reason after it; a warning when the game's plausible.toml fails its check (e.g. a new assumption without a range
    yet: the others are listed, what is missing is said)."""
    warnings: list[str] = []
    ranges: dict[str, Range] = {}
    if plausible_path(game_cls).is_file():
        try:
            ranges = load_plausible(game_cls)
        except ConfigError as e:
            warnings.append(f"warning: {e}")
            ranges = load_plausible(game_cls, strict=False)
    lines = []
    for d in describe(game_cls.Params()):
        v = ",".join(map(str, d["default"])) if isinstance(d["default"], tuple) else d["default"]
        r = ranges.get(d["name"])
        extra = f" | plausible {r.text()}: {r.reason}" if r is not None else ""
        lines.append(f"{d['name']} = {v} [{d['unit']}] ({d['source']}): {d['doc']}{extra}")
    return warnings, lines
