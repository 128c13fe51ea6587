"""Errors that users see.

Every error a user can cause by bad input derives from :class:`UserError`; the CLI prints its
message as one line and exits with code 2. Errors that mean the engine itself is wrong
(an illegal action chosen by a strategy, a game running past its ply bound) derive from
:class:`EngineError` and carry the game index so the game can be replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class UserError(Exception):
    """Bad input: one line naming the bad value and what is allowed (CLI exit code 2)."""


class ConfigError(UserError):
    """A bad run configuration: unknown game or strategy, bad player count, bad parameter."""


class ContentError(UserError):
    """A content data file failed validation; the message names file, entry and field."""


class RunFolderError(UserError):
    """A run folder that cannot be used: holds another run, unreadable, corrupt part file."""


class EngineError(RuntimeError):
    """The simulation reached a state the rules forbid (a bug in a strategy or an engine)."""


class IllegalActionError(EngineError):
    """A strategy chose an action outside the legal action mask."""


class PlyLimitError(EngineError):
    """A game ran past its declared ply bound: raised, never silently truncated."""


# --- the environment refused a write (read-only folder, full disk): one line, exit 1 -------------------------

import errno as _errno  # noqa: E402
import re as _re  # noqa: E402

_READ_ONLY = {_errno.EROFS, _errno.EACCES, _errno.EPERM}
_FULL = {_errno.ENOSPC, getattr(_errno, "EDQUOT", _errno.ENOSPC), _errno.EFBIG}


def is_environment_error(e: OSError) -> bool:
    """True for a read-only or full file system (EROFS, EACCES, EPERM, ENOSPC, EDQUOT, EFBIG)."""
    return e.errno in _READ_ONLY | _FULL


def os_error_of(e: BaseException | None) -> OSError | None:
    """The file-system error ``e`` is, or carries (a polars ``ComputeError`` wrapping "os error 28", an
    ``OSError`` as its explicit cause, ``raise ... from err``), as an ``OSError`` with its errno; None when it
    is not one (an error merely raised while an ``OSError`` was being handled is not one)."""
    seen = 0
    while e is not None and seen < 8:
        if isinstance(e, OSError) and e.errno is not None:
            return e
        m = _re.search(r"\(os error (\d+)\)|\[errno (\d+)\]", str(e), _re.IGNORECASE)
        if m and (isinstance(e, OSError) or type(e).__module__.startswith(("polars", "pyarrow"))):
            code = int(m.group(1) or m.group(2))
            return OSError(code, os_strerror(code), getattr(e, "filename", None))
        if isinstance(e, OSError):
            return e
        e, seen = e.__cause__, seen + 1
    return None


def os_strerror(code: int) -> str:
    import os

    return os.strerror(code)


def environment_message(e: OSError, path=None, again: str = "run the command again") -> str:
    """One line for a write the environment refused: the path, the reason and what to do.

    ``path`` names the output when the error does not carry a file name (pyarrow's and polars' writers);
    ``again`` says how to repeat the command once the cause is fixed."""
    where = e.filename if e.filename is not None else path
    code = e.errno
    if code is None:  # pyarrow: OSError('... [errno 28] No space left on device')
        m = _re.search(r"errno (\d+)", str(e), _re.IGNORECASE)
        code = int(m.group(1)) if m else None
    reason = os_strerror(code) if code is not None else (e.strerror or str(e) or type(e).__name__)
    if code in _READ_ONLY:
        todo = "choose a writable --out (or make that folder writable)"
    elif code in _FULL:
        todo = f"free space there or choose an --out on another disk, then {again}"
    else:
        todo = f"check that path, then {again}"
    verb = "cannot write" if code in _READ_ONLY | _FULL else "file system error at"
    at = f" {str(where)!r}" if where is not None else ""
    return f"{verb}{at}: {reason}; {todo}"


# --- a value of the wrong type (typer options, content fields): name the value and what is allowed -------------

_ALLOWED = (("int_", "an integer (a whole number such as 3)"), ("float_", "a number (such as 0.5)"),
            ("bool_", "true or false"), ("string_", "a string (in quotes)"), ("list_", "a list ([...])"),
            ("tuple_", "a list ([...])"), ("dict_", "a table"), ("model_", "a table"))


def allowed_by(err: Mapping[str, Any]) -> str:
    """What a pydantic error (one item of ``ValidationError.errors()``) allows, in words."""
    kind, ctx = err.get("type", ""), err.get("ctx") or {}
    for prefix, text in _ALLOWED:
        if kind.startswith(prefix):
            return text
    bounds = {"greater_than": ">", "greater_than_equal": ">=", "less_than": "<", "less_than_equal": "<="}
    if kind in bounds:
        key = {"greater_than": "gt", "greater_than_equal": "ge", "less_than": "lt", "less_than_equal": "le"}[kind]
        return f"a value {bounds[kind]} {ctx.get(key)}"
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return f"one of {ctx['expected']}"
    msg = str(err.get("msg", ""))
    return msg[len("Input should be "):] if msg.startswith("Input should be ") else msg


def bad_value_text(err: Mapping[str, Any]) -> str:
    """``"is 'two' (str): allowed an integer (...)"`` for a pydantic error: the value given and what is allowed."""
    v = err.get("input")
    return f"is {v!r} ({type(v).__name__}): allowed {allowed_by(err)}"
