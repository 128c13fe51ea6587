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
          choices: tuple | None = None, plausible: dict | None = None, max_len: int | None = None) -> Any:
    """A ``Params`` field with its documentation.

    Args:
        default: the default value (int, float, bool, str, or a tuple of ints).
        unit: unit of the value (``VP``, ``Coffee``, ``cards``, ``-``).
        source: where the number comes from: ``seed 000 §Gaining Notebook tiles``, ``research UM §7``,
            or an assumption ID ``A-UM-nn`` / ``A-GT-nn`` recorded in ``docs/rules/<game>.md``; a value
            only partly from the seed takes its assumption ID (the doc names the seed part).
        doc: one sentence saying what the number governs.
        lo, hi: inclusive bounds for numeric values (each element of a tuple).
        choices: allowed values for a string field (the kernels read the value's position in them).
        plausible: for an assumed number, its plausible range beside the field, as a ``plausible.toml``
            entry would give it: ``{"low": 1, "high": 4, "reason": "..."}`` or ``{"choices": [...], "reason":
            "..."}`` (:func:`meeplelab.sim.plausible.load_plausible`; a field may not have both).
        max_len: for a tuple whose length may vary (with another number: ``reputation_vp`` has ``track_length + 1``
            values), the most values it may hold: its kernel columns are its length (``PRM_<FIELD>_N``) and
            ``max_len`` values, zero-padded. Without it a tuple keeps its default's length.
    """
    return dataclasses.field(default=default, metadata={
        "unit": unit, "source": source, "doc": doc, "lo": lo, "hi": hi, "choices": choices, "plausible": plausible,
        "max_len": max_len, "fixed_len": max_len is None})


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


# ---------------------------------------------------------------------------------------------- the kernels' vector
@dataclasses.dataclass(frozen=True)
class ParamColumn:
    """Where one ``Params`` field sits in the kernels' parameter vector ``prm`` (``int64[W]``).

    Attributes:
        name: the field (``abjure_suspicion_drop``).
        constant: its column constant in the engine's written ``pcols.py`` (``PRM_ABJURE_SUSPICION_DROP``).
        offset: its first column.
        width: its value columns (1; a tuple field: its length, or its ``max_len``).
        counted: a tuple of varying length: the column before ``offset`` holds its length (``PRM_<FIELD>_N``).
        choices: a string field's allowed values: the column holds the value's position in them.
        unit, source, doc: the field's documentation.
    """

    name: str
    constant: str
    offset: int
    width: int
    counted: bool
    choices: tuple | None
    unit: str
    source: str
    doc: str


def param_columns(cls: type) -> tuple[ParamColumn, ...]:
    """The columns of every field of the ``Params`` dataclass ``cls``, in declaration order: the layout of the
    kernels' parameter vector, derived from the dataclass itself (nothing to list by hand).

    An int or bool field takes one column, a tuple field one per element (its default's length), a string
    field one (the value's position in its ``choices``).

    Raises:
        TypeError: a string field without ``choices``, a float field, or an empty tuple default (the kernels
            read ``int64`` columns of a fixed layout).
    """
    out, offset = [], 0
    for f in dataclasses.fields(cls):
        md, d = f.metadata, f.default
        choices = md.get("choices")
        if isinstance(d, bool) or isinstance(d, int):
            width = 1
        elif isinstance(d, tuple) and d and all(isinstance(x, int) for x in d):
            width = md.get("max_len") or len(d)
        elif isinstance(d, str) and choices:
            width = 1
        else:
            raise TypeError(f"{cls.__name__}.{f.name}: the kernels read int, bool, tuple-of-int or string-with-choices "
                            f"parameters, got {d!r}")
        counted = bool(md.get("max_len")) and isinstance(d, tuple)
        offset += counted  # the length column comes first
        out.append(ParamColumn(f.name, "PRM_" + f.name.upper(), offset, width, counted,
                               tuple(choices) if choices else None, md.get("unit", "-"), md.get("source", "?"),
                               md.get("doc", "")))
        offset += width
    return tuple(out)


def param_vector(params: Any):
    """``int64[W]``: the values of ``params`` in the columns of :func:`param_columns` (what the kernels index with
    the ``PRM_*`` constants of the engine's ``pcols.py``).

    Raises:
        ConfigError: a tuple value whose length differs from its field's default (or passes its ``max_len``).
    """
    import numpy as np

    cols = param_columns(type(params))
    v = np.zeros(cols[-1].offset + cols[-1].width if cols else 0, np.int64)
    for c in cols:
        x = getattr(params, c.name)
        if c.choices is not None:
            v[c.offset] = c.choices.index(x)
        elif c.width == 1 and not isinstance(x, tuple):
            v[c.offset] = int(x)
        elif c.counted:
            if not 1 <= len(x) <= c.width:
                raise ConfigError(f"parameter {c.name} takes 1 to {c.width} values, got {len(x)}")
            v[c.offset - 1] = len(x)
            v[c.offset:c.offset + len(x)] = x
        else:
            if len(x) != c.width:
                raise ConfigError(f"parameter {c.name} needs {c.width} values, got {len(x)}")
            v[c.offset:c.offset + c.width] = x
    return v


def _code_name(field: str, choice: str) -> str:
    import re

    return (field + "_" + re.sub(r"[^0-9a-zA-Z]+", "_", str(choice))).upper()


def pcols_source(cls: type, ref: str) -> str:
    """The text of an engine's written ``pcols.py``: a ``PRM_*`` column constant per ``Params`` field (``_W`` its
    width for a tuple; ``_N`` the column of its length for a tuple of varying length), a ``<FIELD>_<CHOICE>`` code per allowed value of a string field, and ``PARAM_WIDTH``.

    Args:
        cls: the ``Params`` dataclass.
        ref: ``module:Params`` it was read from (named in the docstring).
    """
    lines = [f'"""Columns of the kernels\' parameter vector ``prm`` (``int64[PARAM_WIDTH]``), one per field of ``{ref}``.',
             "",
             "A kernel reads a rule number as ``prm[PRM_<FIELD>]`` (a tuple's element ``i``: ``prm[PRM_<FIELD> + i]``);",
             "a string field's column holds the position of its value in the field's choices (the ``<FIELD>_<CHOICE>``",
             "codes below). The vector is built by :func:`meeplelab.sim.core.params.param_vector`.",
             "",
             "Written by ``python -m meeplelab.sim.core.generate`` from the dataclass; do not edit by hand.",
             '"""', ""]
    cols = param_columns(cls)
    for c in cols:
        shape = f"[{c.width}] " if c.width > 1 else ""
        doc = " ".join(c.doc.split())
        if len(doc) > 90:
            doc = doc[:87].rstrip() + "..."
        if c.counted:
            lines.append(f"{c.constant}_N = {c.offset - 1}  # how many values {c.name} holds (1 to {c.width})")
        lines.append(f"{c.constant} = {c.offset}  # {shape}{c.unit}; {c.source}: {doc}".rstrip())
        if c.width > 1:
            lines.append(f"{c.constant}_W = {c.width}{'  # at most' if c.counted else ''}")
    codes = [(c, k, ch) for c in cols if c.choices for k, ch in enumerate(c.choices)]
    if codes:
        lines += ["", "# ---- codes of the string parameters (the value's position in the field's choices)"]
        lines += [f"{_code_name(c.name, ch)} = {k}  # {c.name} = {ch!r}" for c, k, ch in codes]
    width = cols[-1].offset + cols[-1].width if cols else 0
    lines += ["", f"PARAM_WIDTH = {width}  # columns of prm", ""]
    return "\n".join(lines)
