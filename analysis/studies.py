"""The built-in robustness studies: panels of scripted strategies and the named conclusions of both games.

Galileo's Truth: a 4-seat field ``writer, observer, inventor, never-abjure`` in balanced rotation
(dominant strategy, ranking, seat advantage at 4 seats, game length); the same field with
``never-abjure`` replaced by ``abjure-at:cycle=c`` (c = 1..4; the Abjure-timing effect per Cycle,
paired on seat, seeds and rotation); 2- and 3-seat fields (seat advantage per player count).

Unconscious Mind: a 4-seat field ``coffee-engine, publisher, citer, curer``; the same field with one
seat given +1 start Coffee per rotation (the value of Coffee, paired; the treatment ``coffee+1`` is
registered by the game's spec, ``sim/unconscious_mind/treatments.py``, so every worker has it); the field with ``citer``
replaced by ``publisher`` (the citation payoff: citing plan against the own-Volumes plan in the same
seat and field, paired; the publisher still cites when it has no own Volume, so this is the payoff of
the citing plan, not of a never-cite control); 2- and 3-seat fields.

The strong study (:func:`strong_study`, ``robustness`` and ``balance`` with ``--field strong``) plays the game's
strong field (:mod:`meeplelab.strategies.fields`: the tuned heuristic and ``ismcts``) instead: a panel
``field-P`` at every seat count of the game (the strong roster in every distinct seat order) and the
conclusions that do not name a scripted plan: the dominant strategy and the game length at the largest count,
the seat advantage at every count. The scripted study's effects of one plan (Abjure timing, citation payoff,
the value of Coffee in the scripted field) are not in it.
"""

from __future__ import annotations

from meeplelab.play.panels import Lineup, panel
from meeplelab.play.seating import distinct_orders
from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.registry import get_game_class
from meeplelab.strategies.fields import STRONG, roster as rung_roster
from meeplelab.strategies.registry import make_strategy

from .conclusions import (Study, dominant, game_length, paired_effect, ranking, register_study, registered_study,
                          seat_advantage)

GT_FIELD = ("writer", "observer", "inventor", "never-abjure")
UM_FIELD = ("coffee-engine", "publisher", "citer", "curer")


def _gt() -> Study:
    lus = panel("field-4", GT_FIELD)
    for c in range(1, 5):
        lus += panel(f"abjure-{c}", GT_FIELD, replace={"never-abjure": f"abjure-at:cycle={c}"})
    lus += panel("field-3", GT_FIELD[:2] + ("never-abjure",)) + panel("field-2", ("writer", "never-abjure"))
    cons = [dominant("field-4", "Dominant strategy (4 seats)"), ranking("field-4", "Strategy ranking (4 seats)")]
    cons += [paired_effect(f"abjure-cycle-{c}", f"Abjure-timing effect, Cycle {c} (VP vs never)",
                           (f"abjure-{c}", f"abjure-at:cycle={c}", None), ("field-4", "never-abjure", None),
                           f"Abjuring in Cycle {c} instead of never") for c in range(1, 5)]
    cons += [seat_advantage(f"field-{p}", p, f"Seat advantage ({p} seats)") for p in (2, 3, 4)]
    cons += [game_length("field-4", "Game length (4 seats)")]
    return Study("galileos-truth", tuple(lus), tuple(cons), default_games=8)


def _um() -> Study:
    lus = panel("field-4", UM_FIELD) + panel("coffee", UM_FIELD, treatment="coffee+1")
    lus += panel("no-cite", UM_FIELD, replace={"citer": "publisher"})
    lus += panel("field-3", UM_FIELD[:3]) + panel("field-2", ("publisher", "citer"))
    cons = [dominant("field-4", "Dominant strategy (4 seats)"), ranking("field-4", "Strategy ranking (4 seats)"),
            paired_effect("coffee", "Value of Coffee (+1 start Coffee, VP)", ("coffee", None, True),
                          ("field-4", None, None), "One extra start Coffee"),
            paired_effect("citation", "Citation payoff (citer vs publisher in its seat, VP)",
                          ("field-4", "citer", None), ("no-cite", None, None),
                          "The citing plan (instead of the own-Volumes plan)")]
    cons += [seat_advantage(f"field-{p}", p, f"Seat advantage ({p} seats)") for p in (2, 3, 4)]
    cons += [game_length("field-4", "Game length (4 seats)")]
    return Study("unconscious-mind", tuple(lus), tuple(cons), default_games=8)


def strong_study(game: str, field: str = STRONG) -> Study:
    """``game``'s study played by its strong field (see the module doc), or by another played rung of the skill
    ladder (``field``: ``heuristic`` or ``tuned``, a mirror; :func:`meeplelab.strategies.fields.roster`): panels
    ``field-P`` for every seat count ``P`` the game takes from 2 up, each the rung's roster in every distinct seat
    order (``rot`` = the order's index; 2, 3 and 6 lineups at 2, 3 and 4 seats for the strong field, 1 for a
    mirror); conclusions ``dominant-field-P`` (not for a mirror: one strategy) and ``length-field-P`` at the
    largest ``P``, ``seat-P`` at every ``P``.

    Raises:
        ConfigError: an unknown game, or no players for ``field`` (no tuned preset).
    """
    cls = get_game_class(game)
    counts = list(range(max(2, cls.min_players), cls.max_players + 1))
    lus = []
    for p in counts:
        roster = rung_roster(game, field, p)
        lus += [Lineup(f"field-{p}", r, tuple(roster[i] for i in o)) for r, o in enumerate(distinct_orders(roster))]
    top = f"field-{counts[-1]}"
    words = "strong field" if field == STRONG else f"{field} mirror"
    cons = [dominant(top, f"Dominant strategy ({counts[-1]} seats, {words})")] if field == STRONG else []
    cons += [seat_advantage(f"field-{p}", p, f"Seat advantage ({p} seats, {words})") for p in counts]
    cons += [game_length(top, f"Game length ({counts[-1]} seats, {words})")]
    try:
        plausible = study_for(game).plausible  # a test game's ranges come with its scripted study
    except ConfigError:  # no scripted study: the game's plausible.toml
        plausible = None
    return Study(game, tuple(lus), tuple(cons), default_games=8, plausible=plausible)


def roster_study(game: str, roster) -> Study:
    """``balance --strategies A,B,...``: ``game``'s study played by a roster the user names (the players the
    targets are measured among). A panel ``field-P`` for every seat count ``P`` from the game's smallest (at
    least 2) up to ``len(roster)``, each the first ``P`` entries of the roster in balanced rotation (cyclic,
    ``P`` lineups: every strategy in every seat); conclusions ``dominant-field-N`` and ``length-field-N`` at the
    largest count ``N``, ``seat-P`` at every ``P``.

    Args:
        roster: strategy ids, one per seat of the largest field (``[N]``).

    Raises:
        ConfigError: an unknown game, fewer entries than the game's smallest seat count, more than its largest,
            or an unknown strategy id (named, with the allowed ids).
    """
    cls = get_game_class(game)
    roster = tuple(roster)
    low = max(2, cls.min_players)
    if not low <= len(roster) <= cls.max_players:
        raise ConfigError(f"--strategies {','.join(roster)}: give {low} to {cls.max_players} strategies (one per seat "
                          f"of the largest field), got {len(roster)}")
    for s in dict.fromkeys(roster):
        make_strategy(game, s)  # an unknown id is named before any game
    counts = list(range(low, len(roster) + 1))
    lus = [lu for p in counts for lu in panel(f"field-{p}", roster[:p])]
    top = f"field-{counts[-1]}"
    cons = [dominant(top, f"Dominant strategy ({counts[-1]} seats)")]
    cons += [seat_advantage(f"field-{p}", p, f"Seat advantage ({p} seats)") for p in counts]
    cons += [game_length(top, f"Game length ({counts[-1]} seats)")]
    try:
        plausible = study_for(game).plausible
    except ConfigError:
        plausible = None
    return Study(game, tuple(lus), tuple(cons), default_games=8, plausible=plausible)


def study_for(game: str) -> Study:
    """The registered study of ``game`` (the built-in ones are registered by this module).

    Raises:
        ConfigError: an unknown game, or no study for it (the allowed ids are named).
    """
    get_game_class(game)  # an unknown game is named as such (and plugins registering studies are loaded)
    return registered_study(game)


register_study("galileos-truth", _gt)
register_study("unconscious-mind", _um)
