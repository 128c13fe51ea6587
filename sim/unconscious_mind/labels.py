"""Unconscious Mind's codes in words, for the report pages (registered as ``GameSpec.labels``).

Read by :mod:`meeplelab.analysis.labels`: a chart's bar, a table's cell and the page's list of labels show these
words, the code id beside them in a tooltip and in that list. A label is short (a bar label, a table cell); what
the thing does is said by ``meeplelab strategies``, ``meeplelab params`` and ``meeplelab actions``.
"""

from __future__ import annotations

#: strategy ids without arguments (or with their defaults)
STRATEGIES = {
    "citer": "Citer", "city-walker": "City walker", "coffee-engine": "Coffee engine", "curer": "Curer",
    "greedy-vp": "Greedy VP", "heuristic": "Heuristic", "ismcts": "ISMCTS search", "never-cite": "Never cite",
    "publisher": "Publisher", "random": "Random", "rollout": "Rollout search",
}

#: a strategy with arguments: ``{name: ((argument names, words), ...)}`` (none of this game's need their own words)
STRATEGY_ARGS: dict = {}

#: rule numbers (``Params`` fields, ``--set NAME=VALUE``)
PARAMS = {
    "tile_cost": "Notebook tile costs", "empty_space_vp": "Empty market space VP",
    "icon_cured_needed": "Cured Clients per icon space", "notebook_full_reputation": "Full Notebook reputation",
    "row_bonus_elevations": "Row bonus Elevations", "column_bonus_level": "Column bonus Generate level",
    "insight_elevations": "Elevations per Insight action", "insight_transfers": "Transfers per Insight action",
    "research_display": "Research display size", "research_play_max": "Research cards played at most",
    "treatise_display": "Treatise display size", "cite_bright_ideas": "Bright Ideas per citation",
    "cite_vp_per_volume": "VP per Volume cited", "start_hand": "Start hand",
    "professor_max_move": "Professor move", "freud_max_move": "Freud move", "location_cap": "Location resolutions",
    "location_bright_bonus": "Bright Idea extra resolutions", "freud_start": "Freud's start Location",
    "professor_start": "Professor's start Location", "start_ideas": "Start Ideas", "locked_ideas": "Locked Ideas",
    "start_white": "Start white Insights", "conversion_coffee": "Coffee per conversion", "start_coffee": "Start Coffee",
    "seat_vp_2p": "Seat VP bonus (2 players)", "seat_vp_3p": "Seat VP bonus (3 players)",
    "seat_vp_4p": "Seat VP bonus (4 players)", "seat_coffee_2p": "Seat Coffee bonus (2 players)",
    "seat_coffee_3p": "Seat Coffee bonus (3 players)", "seat_coffee_4p": "Seat Coffee bonus (4 players)",
    "recall_coffee_per_space": "Recall Coffee per space", "room_count": "Office rooms", "therapy_max": "Therapy track top",
    "catharsis_space": "Catharsis space", "routine_display": "Routine clients shown",
    "case_display": "Case Study clients shown", "manifest_display": "Manifest dreams shown",
    "symbol_match_hearts": "Hearts for a symbol match", "district_thresholds": "District bonus thresholds",
    "district_tokens": "District tokens", "district_rep_tokens": "District reputation tokens",
    "goal_tiles": "Goal tiles", "track_length": "Reputation track length", "freud_rep_start": "Freud's start reputation",
    "face_lines": "Face-line spaces", "end_trigger_vp": "End-trigger VP", "reputation_vp": "Reputation VP",
    "track_bonus_first": "Track bonus (first)", "track_bonus_second": "Track bonus (second)",
    "district_vp": "District VP", "full_rows_vp": "Full-row VP", "unique_tags_vp": "Location tag VP",
    "heart_box_vp": "VP per heart box", "coffee_per_bright": "Coffee per Bright Idea", "bright_vp": "VP per Bright Idea",
    "round_limit": "Round limit", "limit_round_trigger": "Limit-round end", "solo_freud_every": "Solo Freud pace",
    "location_vp_effect": "Location 'vp' effects give", "location_effects": "Location effects per resolution",
}

#: the turns table's options and Meeting Table spaces, the events table's kinds, the score categories
#: (``vp_<category>``) and what Coffee buys (the VP per Coffee tables)
CODES = {
    # turns-table columns
    "option": "Turn option", "mt_action": "Meeting Table space",
    # turn options (turns.option)
    "pass": "Pass", "state_ideas": "State Ideas", "recall": "Recall", "treat": "Treat",
    # Meeting Table spaces (turns.mt_action)
    "none": "none", "tile_stack": "Tile from the stack", "tile_center": "Tile from the center",
    "tile_right": "Tile from the right", "generate": "Generate", "elevate_transfer": "Elevate / Transfer",
    "research_draw": "Draw Research", "research_play": "Play Research", "move_professor": "Move the Professor",
    "move_freud": "Move Freud",
    # what Coffee bought (analysis of coffee_spend events)
    "tile_cost_1": "Notebook tile cost 1", "tile_cost_2": "Notebook tile cost 2", "tile_cost_3": "Notebook tile cost 3",
    "conversion": "Insight conversion", "other": "Other purchases",
    # event kinds (events.kind)
    "coffee_gain": "Coffee gained", "coffee_spend": "Coffee spent", "vp": "VP", "bright": "Bright Ideas",
    "heart_box": "Heart boxes", "insight": "Insights", "reputation": "Reputation", "freud": "Freud",
    "tile": "Notebook tiles", "card": "Research cards", "publish": "Publish", "cite": "Citations",
    "client": "Clients", "catharsis": "Catharsis", "cure": "Cures", "idea": "Ideas", "goal": "Goals",
    "bonus": "Bonuses", "move": "Moves", "end": "End of game",
    # score categories (games.vp_<category>)
    "location": "Locations", "reputation_track": "Reputation track", "treatise": "Treatises",
    "cited": "Being cited", "empty_space": "Empty market spaces", "end_trigger": "End trigger",
    "end_reputation": "End: reputation", "end_track_bonus": "End: track bonus", "end_districts": "End: districts",
    "end_rows": "End: Notebook rows", "end_tags": "End: Location tags", "end_case_study": "End: Case Studies",
    "end_hearts": "End: hearts", "end_bright": "End: Bright Ideas", "seat_bonus": "Seat bonus",
}

#: the mechanics a rule number acts on, each ``{name: (where, words)}``: ``where`` is an events-table ``kind`` of the
#: seat (``events:cite``; ``events:coffee_spend/conversion`` also its ``category``) or a turns-table ``column=value``
#: of the seat's turns (``turns:option=recall``); ``words`` completes "no player ..." (read by
#: :mod:`meeplelab.analysis.compare`: a changed rule number whose mechanic no seat used could not show)
MECHANICS = {
    "cite": ("events:cite", "cited a Treatise"),
    "publish": ("events:publish", "published a Treatise"),
    "recall": ("turns:option=recall", "recalled"),
    "research-play": ("turns:mt_action=research_play", "played Research cards"),
    "move-professor": ("turns:mt_action=move_professor", "moved the Professor"),
    "move-freud": ("turns:mt_action=move_freud", "moved Freud"),
    "elevate-transfer": ("turns:mt_action=elevate_transfer", "took the Elevate / Transfer space"),
    "conversion": ("events:coffee_spend/conversion", "converted Insights for Coffee"),
    "catharsis": ("events:catharsis", "reached Catharsis"),
    "heart-box": ("events:heart_box", "filled a heart box"),
}

#: what the turns table's ``round`` counts in this game, in words (the timing of a mechanic's first use)
ROUND = "Round"

#: rule numbers (``Params`` fields) -> the :data:`MECHANICS` they act on; a rule number not listed has no known
#: mechanic (it acts on every game, or on several things at once) and nothing is said of it
PARAM_MECHANICS = {
    "cite_bright_ideas": ("cite",), "cite_vp_per_volume": ("cite",), "recall_coffee_per_space": ("recall",),
    "research_play_max": ("research-play",), "professor_max_move": ("move-professor",),
    "freud_max_move": ("move-freud",), "insight_elevations": ("elevate-transfer",),
    "insight_transfers": ("elevate-transfer",), "conversion_coffee": ("conversion",),
    "catharsis_space": ("catharsis",), "heart_box_vp": ("heart-box",),
}

__all__ = ["CODES", "MECHANICS", "PARAMS", "PARAM_MECHANICS", "ROUND", "STRATEGIES", "STRATEGY_ARGS"]
