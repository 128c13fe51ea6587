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
"""

from __future__ import annotations

from meeplelab.play.panels import panel

from .conclusions import Study, dominant, game_length, paired_effect, ranking, register_study, seat_advantage

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


register_study("galileos-truth", _gt)
register_study("unconscious-mind", _um)
