"""Errors that users see.

Every error a user can cause by bad input derives from :class:`UserError`; the CLI prints its
message as one line and exits with code 2. Errors that mean the engine itself is wrong
(an illegal action chosen by a strategy, a game running past its ply bound) derive from
:class:`EngineError` and carry the game index so the game can be replayed.
"""

from __future__ import annotations


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
