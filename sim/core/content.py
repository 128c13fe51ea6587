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

M = TypeVar("M", bound="Entry")


class Entry(BaseModel):
    """Base of content entries: unknown fields are refused; every entry has an ``id``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str


def not_utf8(data: bytes, e: UnicodeDecodeError) -> str:
    """What is wrong with a TOML file whose bytes ``data`` are not UTF-8 (``e``: the decode error), in words: the
    first bad byte, its byte offset (``e.start``, from 0) and line, and the repair."""
    line = data.count(b"\n", 0, e.start) + 1
    return (f"not UTF-8 text: byte 0x{data[e.start]:02x} at byte offset {e.start} (line {line}); TOML files must be "
            "UTF-8: save it as UTF-8")


def read_toml(path: Path) -> dict:
    """Parse a TOML file.

    Raises:
        ContentError: one line naming the file: not found, a folder, not UTF-8 (the byte offset of the first
            bad byte: :func:`not_utf8`), or the TOML syntax error.
    """
    try:
        data = Path(path).read_bytes()
        return tomllib.loads(data.decode("utf-8"))
    except FileNotFoundError:
        raise ContentError(f"{path}: content file not found") from None
    except IsADirectoryError:
        raise ContentError(f"{path}: is a folder, not a content file: allowed a TOML file of that name") from None
    except UnicodeDecodeError as e:
        raise ContentError(f"{path}: {not_utf8(data, e)}") from None
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


def _item_key(item: Any) -> str | None:
    """The name of a content item (a TOML table in a list): its ``id``, else its ``name``; None without either."""
    if isinstance(item, dict):
        for k in ("id", "name"):
            if isinstance(item.get(k), (str, int)):
                return str(item[k])
    return None


def _diff_keyed(a: dict, b: dict, where: str, out: list[str], items: bool) -> None:
    """Diff two mappings key by key (``items``: content items named by id, reported without their values)."""
    for k in list(a) + [k for k in b if k not in a]:
        w = f"{where} {k!r}" if items else (f"{where} {k}" if where else str(k))
        if k not in b:
            out.append(f"{w} removed" + ("" if items else f" (was {a[k]!r})"))
        elif k not in a:
            out.append(f"{w} added" + ("" if items else f" ({b[k]!r})"))
        else:
            _diff(a[k], b[k], w, out)


def _diff(a: Any, b: Any, where: str, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        _diff_keyed(a, b, where, out, items=False)
    elif isinstance(a, list) and isinstance(b, list) and a and all(_item_key(x) is not None for x in a + b):
        _diff_keyed({_item_key(x): x for x in a}, {_item_key(x): x for x in b}, where, out, items=True)
    elif a != b:
        out.append(f"{where}: {a!r} -> {b!r}")


def content_changes(reference: Path | str, other: Path | str) -> list[str]:
    """What content folder ``other`` changes against ``reference`` (both folders of a game's content TOML files,
    e.g. the packaged data folder and a designer's edited copy), one line per changed value, items named by their
    ``id`` (or ``name``): ``"treatises.toml card 'pendulum' books: 1 -> 2"``; a file only one folder has is one
    line. Comments and layout are not compared (the parsed values are). Empty when the two hold the same content.

    Raises:
        ContentError: a file that is not valid TOML (named).
    """
    ra, rb = Path(reference), Path(other)
    names = sorted({p.name for p in ra.glob("*.toml")} | {p.name for p in rb.glob("*.toml")})
    out: list[str] = []
    for name in names:
        pa, pb = ra / name, rb / name
        if not pb.exists():
            out.append(f"{name} missing")
            continue
        if not pa.exists():
            out.append(f"{name} added")
            continue
        _diff(read_toml(pa), read_toml(pb), name, out)
    return out
