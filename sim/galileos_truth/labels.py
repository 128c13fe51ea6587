"""Galileo's Truth's codes in words, for the report pages (registered as ``GameSpec.labels``).

Read by :mod:`meeplelab.analysis.labels`: a chart's bar, a table's cell and the page's list of labels show these
words, the code id beside them in a tooltip and in that list. A label is short (a bar label, a table cell); what
the thing does is said by ``meeplelab strategies``, ``meeplelab params`` and ``meeplelab actions``.
"""

from __future__ import annotations

#: strategy ids without arguments (or with their defaults)
STRATEGIES = {
    "abjure-at": "Abjure in Cycle 3", "greedy-vp": "Greedy VP", "heuristic": "Heuristic", "inventor": "Inventor",
    "ismcts": "ISMCTS search", "never-abjure": "Never Abjure", "observer": "Observer", "random": "Random",
    "rollout": "Rollout search", "suspicion-averse": "Suspicion-averse", "writer": "Writer",
}

#: a strategy with arguments: ``{name: ((argument names, words), ...)}``, the words a format string of the
#: arguments; the entry whose names are exactly the arguments given is used
STRATEGY_ARGS = {
    "abjure-at": (
        (("cycle",), "Abjure in Cycle {cycle}"),
        (("suspicion",), "Abjure at Suspicion {suspicion}"),
        (("margin",), "Abjure within {margin} of Penance"),
        (("cycle", "suspicion"), "Abjure in Cycle {cycle} at Suspicion {suspicion}"),
        (("cycle", "margin"), "Abjure in Cycle {cycle} within {margin} of Penance"),
    ),
    "suspicion-averse": ((("threshold",), "Suspicion-averse (Abjure at {threshold})"),),
}

#: rule numbers (``Params`` fields, ``--set NAME=VALUE``)
PARAMS = {
    "cycles": "Cycles per game", "period2_first_cycle": "First Cycle of Period II",
    "period3_first_cycle": "First Cycle of Period III", "hand_size": "Hand size",
    "start_coins": "Start Coins", "start_research": "Start Research", "start_suspicion": "Start Suspicion",
    "start_books": "Start Books per Subject",
    "seat_vp_2p": "Seat VP bonus (2 players)", "seat_vp_3p": "Seat VP bonus (3 players)",
    "seat_vp_4p": "Seat VP bonus (4 players)", "seat_coins_2p": "Seat Coin bonus (2 players)",
    "seat_coins_3p": "Seat Coin bonus (3 players)", "seat_coins_4p": "Seat Coin bonus (4 players)",
    "seat_research_2p": "Seat Research bonus (2 players)", "seat_research_3p": "Seat Research bonus (3 players)",
    "seat_research_4p": "Seat Research bonus (4 players)",
    "income_coins_by_level": "Coin income by Physics Level", "income_research_by_level": "Research income by Mathematics Level",
    "book_level_starts": "Book-track Level starts", "book_track_max": "Book-track length",
    "abjure_suspicion_drop": "Suspicion lost on Abjure", "abjure_other_rise": "Suspicion others gain on an Abjure",
    "suspicion_max": "Suspicion track top", "prison_at": "Prison at Suspicion", "stake_at": "Stake at Suspicion",
    "inquisition_flip_cycle": "Inquisition flips in Cycle", "penance_threshold": "Penance at Suspicion",
    "penance_suspicion_drop": "Suspicion lost on Penance",
    "level_space_vp_2": "Level II seal VP", "level_space_vp_3": "Level III seal VP", "level_space_vp_4": "Level IV seal VP",
    "vp_per_level_gained": "VP per Level gained", "mentors": "Mentors per player", "seals_per_mentor": "Seals per Mentor",
    "seal_beside_vp": "VP per Seal beside the board", "workshop_slot_coins": "Workshop slot Coins",
    "observe_draw": "Tiles drawn to Observe", "observe_bonus_vp": "Observation bonus VP",
    "observe_bonus_coins": "Observation bonus Coins", "write_research_bottom": "Research cost of bottom Treatises",
    "truth_vp_per_tile": "Truth VP per Observation", "truth_vp_flat": "Truth VP (flat)",
    "suspicion_band_starts": "Suspicion band starts", "suspicion_band_vp": "Suspicion band VP",
    "stake_vp": "VP at the Stake", "tiebreak": "Tie-break", "first_player_rule": "First-player rule",
    "printing_house": "Printing house", "solo_mode": "Solo mode",
}

#: the turns table's Main Actions, the events table's kinds and the score categories (``vp_<category>``)
CODES = {
    # turns-table columns
    "main_action": "Main Action", "principle_after": "Principle after the turn",
    # Main Actions (turns.main_action)
    "pass": "Pass", "abjure": "Abjure", "play-treatise": "Play a Treatise", "penance": "Penance",
    "use-invention": "Use an Invention", "upgrade": "Upgrade Level", "philosopher": "Place the Philosopher",
    # event kinds (events.kind) not named above
    "vp": "VP", "suspicion": "Suspicion", "prison": "Prison", "stake": "Stake", "write": "Write", "copy": "Copy",
    "read": "Read", "invent": "Invent", "observe": "Observe", "inquisition": "Inquisition",
    "assign": "Assign the Philosopher", "play": "Play a card",
    # score categories (games.vp_<category>)
    "level": "Academic Level", "treatise": "Treatises", "observation": "Observations", "mastery": "Mastery",
    "icons": "Card icons", "invention": "Inventions", "truth": "Copernican Truth", "end_loss": "End-game losses",
    "seals": "Wax Seals", "seat_bonus": "Seat bonus",
    # turns.principle_after
    "copernican": "Copernican", "ptolemaic": "Ptolemaic",
}

#: the mechanics a rule number acts on, each ``{name: (where, words)}``: ``where`` is an events-table ``kind`` of the
#: seat (``events:abjure``; ``events:penance/gained`` also its ``category``) or a turns-table ``column=value`` of the
#: seat's turns (``turns:main_action=penance``); ``words`` completes "no player ..." (read by
#: :mod:`meeplelab.analysis.compare`: a changed rule number whose mechanic no seat used could not show)
MECHANICS = {
    "abjure": ("events:abjure", "abjured"),
    "penance-gained": ("events:penance/gained", "gained a Penance card"),
    "penance-played": ("turns:main_action=penance", "played a Penance card"),
    "prison": ("events:prison", "went to Prison"),
    "stake": ("events:stake", "went to the Stake"),
    "observe": ("events:observe", "observed the sky"),
    "write": ("events:write", "wrote a Treatise"),
    "use-invention": ("turns:main_action=use-invention", "used an Invention"),
    "upgrade": ("turns:main_action=upgrade", "upgraded a Level"),
}

#: what the turns table's ``round`` counts in this game, in words (the timing of a mechanic's first use)
ROUND = "Cycle"

#: rule numbers (``Params`` fields) -> the :data:`MECHANICS` they act on; a rule number not listed has no known
#: mechanic (it acts on every game, or on several things at once) and nothing is said of it
PARAM_MECHANICS = {
    "abjure_suspicion_drop": ("abjure",), "abjure_other_rise": ("abjure",),
    "penance_threshold": ("penance-gained",), "penance_suspicion_drop": ("penance-played",),
    "prison_at": ("prison",), "stake_at": ("stake",), "stake_vp": ("stake",),
    "observe_draw": ("observe",), "observe_bonus_vp": ("observe",), "observe_bonus_coins": ("observe",),
    "truth_vp_per_tile": ("observe",), "write_research_bottom": ("write",),
}

__all__ = ["CODES", "MECHANICS", "PARAMS", "PARAM_MECHANICS", "ROUND", "STRATEGIES", "STRATEGY_ARGS"]
