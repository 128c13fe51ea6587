"""Rule numbers as frozen dataclasses: every number a rule uses is a named, documented field.

A game's ``Params`` is a ``@dataclass(frozen=True)`` whose fields are declared with
:func:`param`, which records the unit, the source (seed section, research note, or assumption
ID such as ``A-UM-03``) and the allowed range. A variant is a value
(``dataclasses.replace(p, abjure_suspicion_drop=4)``) and a sweep is a list of them (TAG's
``addTunableParameter``).

A ``Params`` class may define ``check()``, raising :class:`ConfigError` when values contradict each
other (Galileo's Truth: Prison before the Stake); :func:`apply_overrides` calls it, so a
contradictory set of ``--set`` overrides is refused before anything is run or written.

A field's ``source`` starts with the assumption ID when any part of its value is assumed (the
seed part is named in the doc), so :func:`is_assumed` marks it.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
from typing import Any

from .errors import ConfigError


def param(default: Any, *, unit: str, source: str, doc: str, lo: float | None = None, hi: float | None = None,
          choices: tuple | None = None) -> Any:
    """A ``Params`` field with its documentation.

    Args:
        default: the default value (int, float, bool, str, or a tuple of ints).
        unit: unit of the value (``VP``, ``Coffee``, ``cards``, ``-``).
        source: where the number comes from: ``seed 000 §Gaining Notebook tiles``, ``research UM §7``,
            or an assumption ID ``A-UM-nn`` / ``A-GT-nn`` recorded in ``docs/rules/<game>.md``; a value
            only partly from the seed takes its assumption ID (the doc names the seed part).
        doc: one sentence saying what the number governs.
        lo, hi: inclusive bounds for numeric values (each element of a tuple).
        choices: allowed values for a string field.
    """
    return dataclasses.field(default=default, metadata={
        "unit": unit, "source": source, "doc": doc, "lo": lo, "hi": hi, "choices": choices})


def is_assumed(source: str) -> bool:
    """True when a source is an assumption ID (``A-UM-..``/``A-GT-..``), not a seed or research fact."""
    return source.startswith("A-")


def describe(params: Any) -> list[dict]:
    """One dict per field: name, value, default, type, unit, source, assumed, doc, lo, hi."""
    out = []
    for f in dataclasses.fields(params):
        md = f.metadata
        v = getattr(params, f.name)
        out.append({
            "name": f.name, "value": v, "default": f.default, "type": type(f.default).__name__,
            "unit": md.get("unit", "-"), "source": md.get("source", "?"),
            "assumed": is_assumed(md.get("source", "")), "doc": md.get("doc", ""),
            "lo": md.get("lo"), "hi": md.get("hi"),
        })
    return out


def to_dict(params: Any) -> dict:
    """Plain JSON/TOML-able dict of the parameter values (tuples as lists)."""
    return {f.name: (list(v) if isinstance(v := getattr(params, f.name), tuple) else v) for f in dataclasses.fields(params)}


def params_hash(params: Any) -> str:
    """Short stable hash of the values (manifest provenance, sweep variant ids)."""
    blob = json.dumps(to_dict(params), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def changed(params: Any) -> dict:
    """Fields whose value differs from the default."""
    return {f.name: getattr(params, f.name) for f in dataclasses.fields(params) if getattr(params, f.name) != f.default}


def _parse(name: str, raw: Any, default: Any) -> Any:
    kind = type(default)
    if not isinstance(raw, str):
        if kind is tuple and isinstance(raw, (list, tuple)):
            return tuple(_parse(name, x, default[0] if default else 0) for x in raw)
        if kind is float and isinstance(raw, int) and not isinstance(raw, bool):
            return float(raw)
        if isinstance(raw, kind) and not (kind is int and isinstance(raw, bool)):
            return raw
        raise ConfigError(f"parameter {name}={raw!r} has the wrong type: expected {kind.__name__}")
    s = raw.strip()
    try:
        if kind is bool:
            if s.lower() in ("true", "1", "yes", "on"):
                return True
            if s.lower() in ("false", "0", "no", "off"):
                return False
            raise ValueError
        if kind is int:
            return int(s)
        if kind is float:
            return float(s)
        if kind is tuple:
            elem = type(default[0]) if default else int
            parts = [p for p in s.replace(":", ",").split(",") if p.strip()]
            return tuple(elem(p) for p in parts)
        return s
    except ValueError:
        want = {bool: "true or false", int: "an integer", float: "a number"}.get(kind, f"a comma-separated list of {type(default[0]).__name__ if kind is tuple and default else 'int'}")
        raise ConfigError(f"parameter {name}={raw!r} has the wrong type: expected {want}") from None


def _game_of(params) -> str:
    """The game a Params instance belongs to, in the words of a message (``galileos-truth``, set on the class by
    :class:`meeplelab.sim.core.game.Game`; else "this game")."""
    return getattr(type(params), "game_id", None) or "this game"


def apply_overrides(params: Any, overrides: dict[str, Any]) -> Any:
    """A copy of ``params`` with ``overrides`` applied, each parsed and range-checked.

    Raises:
        ConfigError: unknown name (close matches named), wrong type, out of range, or values that
            contradict each other (the class's ``check()``); one line each.
    """
    fields = {f.name: f for f in dataclasses.fields(params)}
    new = {}
    for name, raw in overrides.items():
        if name not in fields:
            close = difflib.get_close_matches(name, list(fields), n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else f"; see 'meeplelab params' for the {len(fields)} known parameters"
            raise ConfigError(f"unknown parameter {name!r} of {_game_of(params)}{hint}")
        f = fields[name]
        v = _parse(name, raw, f.default)
        md = f.metadata
        lo, hi, choices = md.get("lo"), md.get("hi"), md.get("choices")
        vals = v if isinstance(v, tuple) else (v,)
        for x in vals:
            if isinstance(x, (int, float)) and not isinstance(x, bool):
                if (lo is not None and x < lo) or (hi is not None and x > hi):
                    raise ConfigError(f"parameter {name}={raw!r} is out of range: allowed {lo} to {hi}")
        if choices is not None and v not in choices:
            raise ConfigError(f"parameter {name}={raw!r} is not allowed: choose one of {', '.join(map(str, choices))}")
        if isinstance(f.default, tuple) and f.default and len(v) != len(f.default) and md.get("fixed_len", True):
            raise ConfigError(f"parameter {name}={raw!r} needs {len(f.default)} values, got {len(v)}")
        new[name] = v
    out = dataclasses.replace(params, **new)
    check = getattr(out, "check", None)
    if callable(check):
        check()
    return out


def parse_set_options(items: list[str] | None) -> dict[str, str]:
    """``["a=1", "b=2,3"]`` -> ``{"a": "1", "b": "2,3"}``.

    Raises:
        ConfigError: an item without ``=``, or a parameter set twice.
    """
    out: dict[str, str] = {}
    for it in items or []:
        if "=" not in it:
            raise ConfigError(f"--set {it!r} needs the form name=value")
        k, v = (x.strip() for x in it.split("=", 1))
        if k in out:
            raise ConfigError(f"parameter {k!r} is set twice (--set {k}={out[k]} and --set {k}={v}): set it once")
        out[k] = v
    return out
