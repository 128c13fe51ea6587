"""The fields a command can play: ``scripted`` and ``strong`` (``--field``), defined once.

A *field* is who sits at the table. Every command that plays games takes ``--field``:

- ``scripted`` (the default): the command's own strategies, as before: what ``--strategies`` (``tune``:
  ``--against``) gives, else the command's default (``random``, the game study's rotated field of scripted
  plans, ``heuristic``).
- ``strong``: the game's strong field (:func:`strong_field`), the two strongest players the project keeps:
  the **tuned heuristic** ``heuristic:preset=<repo>/docs/presets/<game>-heuristic-tuned.toml`` (written by
  ``meeplelab tune``; the same preset the skill ladder's tuned rung plays) and the **compiled search**
  ``ismcts`` with the game's default arguments (:data:`meeplelab.strategies.ismcts.GAME_DEFAULTS`). The preset
  path is resolved from the package root (:data:`PRESETS`), never from the working folder, so the ids are the
  same from any folder.

How the strong field fills ``P`` seats (:func:`strong_roster`): seat ``k`` of the roster holds member
``k mod 2``: ``(tuned, ismcts)`` at 2 seats, ``(tuned, ismcts, tuned)`` at 3, ``(tuned, ismcts, tuned, ismcts)``
at 4. Under ``rotate`` seating (:mod:`meeplelab.play.seating`) a roster is played in every distinct seat order
on common game seeds (2, 3 and 6 orders), so both players sit in every seat; at 3 seats the tuned heuristic
holds two seats of every game (the cheaper player twice: the search is the slow one). A command that takes
the field as a list of distinct strategies (``tournament``, ``tune --against``, several seat counts of
``compare`` and ``compensate``) takes the two ids of :func:`strong_field` and seats them itself.

Reports name a strong field as such (:func:`strong_labels`: ``among the strong field: tuned heuristic,
ismcts``), whichever way its ids are spelled (the preset id as given, or expanded into every argument as
the games table writes it).
"""

from __future__ import annotations

import functools
from pathlib import Path

from meeplelab.sim.core.errors import ConfigError
from .registry import make_strategy
from meeplelab.sim.registry import available_games

#: the choices of ``--field``, the default first
FIELDS = ("scripted", "strong")
SCRIPTED, STRONG = FIELDS
#: the folder of the tuned presets kept in the project (from the package root, not the working folder): the
#: source tree's docs/presets, or in an installed copy (pip install .) the package data meeplelab/presets
PRESETS = next((p for p in (Path(__file__).resolve().parents[1] / "docs" / "presets",
                            Path(__file__).resolve().parents[1] / "presets") if p.is_dir()),
               Path(__file__).resolve().parents[1] / "docs" / "presets")
#: the strong field's search: ``ismcts`` with the game's default arguments
SEARCH = "ismcts"
#: what a report calls each member of the strong field
LABELS = ("tuned heuristic", "ismcts")


def check_field(field: str) -> str:
    """``field`` when it is one of :data:`FIELDS`.

    Raises:
        ConfigError: any other value, naming it and the allowed ones.
    """
    if field not in FIELDS:
        raise ConfigError(f"unknown field {field!r}: allowed {', '.join(FIELDS)}")
    return field


def tuned_preset(game: str) -> Path | None:
    """The tuned heuristic preset of ``game`` kept in the project (``docs/presets/<game>-heuristic-tuned.toml``,
    an absolute path), or None when the project keeps none."""
    p = PRESETS / f"{game}-heuristic-tuned.toml"
    return p if p.is_file() else None


def strong_field(game: str) -> tuple[str, str]:
    """The two strategy ids of ``game``'s strong field: ``(heuristic:preset=<absolute preset path>, ismcts)``.

    Raises:
        ConfigError: the project keeps no tuned preset for ``game`` (the file expected is named).
    """
    p = tuned_preset(game)
    if p is None:
        raise ConfigError(f"--field strong: {game} has no tuned heuristic preset ({PRESETS / f'{game}-heuristic-tuned.toml'} "
                          "does not exist; meeplelab tune writes one): allowed --field scripted")
    return f"heuristic:preset={p}", SEARCH


def strong_roster(game: str, seats: int) -> tuple[str, ...]:
    """The strong field at ``seats`` seats, one id per seat: seat ``k`` holds member ``k mod 2`` of
    :func:`strong_field` (``[seats]`` ids; see the module doc for how they are seated).

    Raises:
        ConfigError: fewer than 2 seats (the field has two players), or no tuned preset for ``game``.
    """
    if not isinstance(seats, int) or seats < 2:
        raise ConfigError(f"--field strong needs at least 2 seats for its two players (tuned heuristic, ismcts), "
                          f"got {seats}")
    both = strong_field(game)
    return tuple(both[k % 2] for k in range(seats))


@functools.lru_cache(maxsize=None)
def _spellings(game: str) -> dict[str, str]:
    """``{id: label}`` of ``game``'s strong field in both spellings (as given, and as the games table writes it)."""
    try:
        ids = strong_field(game)
    except ConfigError:
        return {}
    out = {}
    for sid, label in zip(ids, LABELS):
        out[sid] = label
        try:
            out[make_strategy(game, sid).id] = label
        except ConfigError:  # an id this install cannot make keeps its given spelling only
            continue
    return out


def strong_labels(strategies) -> list[str] | None:
    """:data:`LABELS` when ``strategies`` (ids, repeats allowed) are exactly one game's strong field, in
    either spelling (``heuristic:preset=FILE`` or its expanded arguments); else None."""
    ids = set(strategies)
    if SEARCH not in ids:  # cheap for every other field
        return None

    for game in available_games():
        names = _spellings(game)
        if names and ids <= set(names) and {names[i] for i in ids} == set(LABELS):
            return list(LABELS)
    return None


__all__ = ["FIELDS", "LABELS", "PRESETS", "SCRIPTED", "SEARCH", "STRONG", "check_field", "strong_field",
           "strong_labels", "strong_roster", "tuned_preset"]
