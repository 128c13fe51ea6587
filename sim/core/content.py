"""Game content (tiles, cards, clients, locations, treatises...) loaded from TOML data files.

A content file holds arrays of tables, one per entry (``[[tile]]``, ``[[card]]``). Each entry is
validated with a pydantic model (unknown fields refused); a failure raises :class:`ContentError`
with one line naming the file, the entry (its ``id``), the field, the value given and what is allowed. Duplicate ids are refused.

Effects are written as short opcode strings (``"coffee +1"``, ``"generate growth minor"``) and
checked against the game's opcode vocabulary with :func:`parse_effect`.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path
from typing import Any, Sequence, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import ContentError, bad_value_text

M = TypeVar("M", bound=BaseModel)


class Entry(BaseModel):
    """Base of content entries: unknown fields are refused; every entry has an ``id``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str


def read_toml(path: Path) -> dict:
    """Parse a TOML file (ContentError naming the file and the syntax error)."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ContentError(f"{path}: content file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"{path}: TOML syntax error: {e}") from None


def load_entries(path: Path, table: str, model: type[M], *, min_count: int = 1) -> list[M]:
    """Validated entries of ``[[table]]`` in ``path``.

    Raises:
        ContentError: missing table, fewer than ``min_count`` entries, a bad field (named with
            the entry id or position), or a duplicate id.
    """
    data = read_toml(path)
    raw = data.get(table)
    if not isinstance(raw, list):
        raise ContentError(f"{path}: no [[{table}]] entries (found sections: {', '.join(data) or 'none'})")
    out: list[M] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        label = f"entry {item.get('id')!r}" if isinstance(item, dict) and "id" in item else f"entry #{i + 1}"
        try:
            obj = model.model_validate(item)
        except ValidationError as e:
            err = e.errors()[0]
            loc = ".".join(str(x) for x in err["loc"]) or "-"
            if err["type"] == "missing":
                msg = ": missing required field"
            elif err["type"] == "extra_forbidden":
                allowed = ", ".join(f for f in model.model_fields)
                msg = f" (given {err.get('input')!r}): unknown field; allowed fields: {allowed}"
            else:  # the value given and what the field allows
                msg = " " + bad_value_text(err)
            raise ContentError(f"{path.name}: [[{table}]] {label}: field {loc!r}{msg}") from None
        if obj.id in seen:
            raise ContentError(f"{path.name}: [[{table}]] {label}: duplicate id {obj.id!r}")
        seen.add(obj.id)
        out.append(obj)
    if len(out) < min_count:
        raise ContentError(f"{path.name}: [[{table}]] needs at least {min_count} entries, found {len(out)}")
    return out


def parse_effect(text: str, opcodes: dict[str, Sequence[Any]], *, where: str) -> tuple:
    """Parse ``"op arg ..."`` against ``opcodes``.

    ``opcodes`` maps an opcode to its argument specs: ``int`` (a signed integer such as ``+2``) or
    a tuple of allowed words. Returns ``(op, *args)``.

    Raises:
        ContentError: unknown opcode (the known ones listed) or a bad argument; ``where`` names
            the file, entry and field.
    """
    parts = text.split()
    if not parts:
        raise ContentError(f"{where}: empty effect")
    op, args = parts[0], parts[1:]
    if op not in opcodes:
        raise ContentError(f"{where}: unknown effect opcode {op!r}; known: {', '.join(sorted(opcodes))}")
    spec = opcodes[op]
    if len(args) != len(spec):
        raise ContentError(f"{where}: effect {text!r} needs {len(spec)} argument(s), got {len(args)}")
    out: list[Any] = [op]
    for a, s in zip(args, spec):
        if s is int:
            try:
                out.append(int(a))
            except ValueError:
                raise ContentError(f"{where}: effect {text!r}: {a!r} is not an integer") from None
        else:
            if a not in s:
                raise ContentError(f"{where}: effect {text!r}: {a!r} is not one of {', '.join(s)}")
            out.append(a)
    return tuple(out)


def content_hash(paths: Sequence[Path]) -> str:
    """sha256 over the bytes of the content files (in the given order), 16 hex digits."""
    h = hashlib.sha256()
    for p in paths:
        h.update(Path(p).name.encode())
        h.update(Path(p).read_bytes())
    return h.hexdigest()[:16]
