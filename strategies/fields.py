"""The fields a command can play (``--field``), the rungs of the skill ladder, defined once.

A *field* is who sits at the table. Every command that plays games takes ``--field`` (:data:`FIELDS`); its
choices are the skill ladder's rungs (:data:`RUNGS`, weakest first) and ``ladder``:

- ``scripted`` (the default): the command's own strategies, as before: what ``--strategies`` (``tune``:
  ``--against``) gives, else the command's default (``random``, the game study's rotated field of scripted
  plans, ``heuristic``).
- ``heuristic``: the plain ``heuristic`` (its default weights) at every seat the strong field would take
  (:func:`heuristic_roster`: a mirror).
- ``tuned``: the **tuned heuristic** ``heuristic:preset=<repo>/docs/presets/<game>-heuristic-tuned.toml``
  (written by ``meeplelab tune``) at those seats (:func:`tuned_roster`: a mirror).
- ``strong``: the game's strong field (:func:`strong_field`), the two strongest players the project keeps: the
  tuned heuristic and the **compiled search** ``ismcts`` with the game's default arguments
  (:data:`meeplelab.strategies.ismcts.GAME_DEFAULTS`).
- ``ladder``: each rung in turn (or the rungs ``--rungs`` names, :func:`parse_rungs`), one ordinary run of the
  command per rung in ``OUT/rung-<rung>/`` on the same seeds, then a table of the study's headline answers at every rung (:mod:`meeplelab.studies.field_ladder`).

The preset path is resolved from the package root (:data:`PRESETS`), never from the working folder, so the ids
are the same from any folder.

How a rung fills ``P`` seats (:func:`roster`): seat ``k`` of the roster holds member ``k mod m`` of the rung's
``m`` players (:func:`members`). For the strong field: ``(tuned, ismcts)`` at 2 seats, ``(tuned, ismcts, tuned)``
at 3, ``(tuned, ismcts, tuned, ismcts)`` at 4 (:func:`strong_roster`). Under ``rotate`` seating
(:mod:`meeplelab.play.seating`) a roster is played in every distinct seat order on common game seeds (2, 3 and 6
orders), so both players sit in every seat; at 3 seats the tuned heuristic holds two seats of every game (the
cheaper player twice: the search is the slow one). A command that takes the field as a list of distinct
strategies (``tournament``, ``tune --against``, several seat counts of ``compare`` and ``compensate``) takes the
rung's members (:func:`members`; the strong field's two ids of :func:`strong_field`) and seats them itself.

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

#: the rungs of the skill ladder, weakest first: every choice of ``--field`` but ``ladder``
RUNGS = ("scripted", "heuristic", "tuned", "strong")
#: the choices of ``--field``, the default first: the rungs, then ``ladder`` (each rung in turn)
FIELDS = (*RUNGS, "ladder")
SCRIPTED, HEURISTIC, TUNED, STRONG, LADDER = FIELDS
#: the rungs whose players this module names (every rung but ``scripted``, the command's own strategies)
PLAYED = (HEURISTIC, TUNED, STRONG)
#: each played rung in words (refusals, notes)
WORDS = {HEURISTIC: "the heuristic with its default weights at every seat",
         TUNED: "the tuned heuristic at every seat", STRONG: "the game's strong field (tuned heuristic, ismcts)"}
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


def parse_rungs(text: str | None) -> tuple[str, ...]:
    """``--rungs`` (``scripted,tuned``): the rungs a ``--field ladder`` run plays, weakest first whatever the order
    given (:data:`RUNGS`); None or empty: every rung.

    Raises:
        ConfigError: an unknown rung, a rung named twice, or fewer than two rungs (one rung is ``--field RUNG``),
            in one line naming the value and the allowed rungs.
    """
    if text is None or not str(text).strip():
        return RUNGS
    given = [r.strip() for r in str(text).split(",")]
    bad = [r for r in given if r not in RUNGS]
    if bad:
        raise ConfigError(f"--rungs {text}: unknown rung {bad[0]!r}; allowed two or more of {', '.join(RUNGS)}, "
                          "comma-separated")
    if len(set(given)) < len(given):
        twice = next(r for r in given if given.count(r) > 1)
        raise ConfigError(f"--rungs {text}: rung {twice!r} is named twice; allowed each of {', '.join(RUNGS)} once")
    if len(given) < 2:
        raise ConfigError(f"--rungs {text}: a ladder needs two or more rungs to compare; allowed two or more of "
                          f"{', '.join(RUNGS)}, or --field {given[0]} for one rung")
    return tuple(r for r in RUNGS if r in given)


def _tuned_id(game: str, field: str) -> str:
    """``heuristic:preset=<absolute preset path>`` of ``game`` (``field``: the ``--field`` value a refusal names).

    Raises:
        ConfigError: the project keeps no tuned preset for ``game`` (the file expected is named).
    """
    p = tuned_preset(game)
    if p is None:
        raise ConfigError(f"--field {field}: {game} has no tuned heuristic preset ({PRESETS / f'{game}-heuristic-tuned.toml'} "
                          "does not exist; meeplelab tune writes one): allowed --field scripted or heuristic")
    return f"heuristic:preset={p}"


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
    return _tuned_id(game, STRONG), SEARCH


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


def heuristic_roster(game: str, seats: int) -> tuple[str, ...]:
    """``--field heuristic`` at ``seats`` seats: the plain ``heuristic`` at every seat (``[seats]`` ids; ``game``
    unused: every game has it)."""
    return (HEURISTIC,) * seats


def tuned_roster(game: str, seats: int) -> tuple[str, ...]:
    """``--field tuned`` at ``seats`` seats: ``game``'s tuned heuristic preset at every seat (``[seats]`` ids).

    Raises:
        ConfigError: no tuned preset for ``game``.
    """
    return (_tuned_id(game, TUNED),) * seats


def members(game: str, field: str) -> tuple[str, ...]:
    """The distinct players of a played rung ``field`` (:data:`PLAYED`), in seat order of its roster:
    ``("heuristic",)``, ``(tuned id,)`` or the strong field's two (:func:`strong_field`).

    Raises:
        ConfigError: ``field`` not a played rung (the allowed named), or no tuned preset for ``game``.
    """
    if field == HEURISTIC:
        return (HEURISTIC,)
    if field == TUNED:
        return (_tuned_id(game, TUNED),)
    if field == STRONG:
        return strong_field(game)
    raise ConfigError(f"--field {field}: no players of its own; allowed {', '.join(PLAYED)}")


def roster(game: str, field: str, seats: int) -> tuple[str, ...]:
    """The played rung ``field`` at ``seats`` seats, one id per seat (:func:`heuristic_roster`,
    :func:`tuned_roster`, :func:`strong_roster`).

    Raises:
        ConfigError: ``field`` not a played rung, fewer than 2 seats for the strong field, no tuned preset.
    """
    rosters = {HEURISTIC: heuristic_roster, TUNED: tuned_roster, STRONG: strong_roster}
    if field not in rosters:
        raise ConfigError(f"--field {field}: no players of its own; allowed {', '.join(PLAYED)}")
    return rosters[field](game, seats)


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


__all__ = ["FIELDS", "HEURISTIC", "LABELS", "LADDER", "PLAYED", "PRESETS", "RUNGS", "SCRIPTED", "SEARCH", "STRONG",
           "TUNED", "WORDS", "check_field", "heuristic_roster", "members", "parse_rungs", "roster", "strong_field", "strong_labels",
           "strong_roster", "tuned_preset", "tuned_roster"]
