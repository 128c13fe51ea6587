"""What a game is made of, declared in one place: :class:`GameSpec`.

Each game package declares one ``SPEC`` (its engine, the modules that register its strategies, the
module of its report sections, its rules document) and registers it once, as an entry point of the
group ``meeplelab.games`` in ``pyproject.toml``:

    [project.entry-points."meeplelab.games"]
    galileos-truth = "meeplelab.sim.galileos_truth.spec:SPEC"

A third-party game plugs in the same way from its own package (or, without packaging, by a module
named in ``MEEPLELAB_PLUGINS`` that calls :func:`meeplelab.sim.registry.register_spec`). The game, strategy and
report registries all read the specs (:mod:`meeplelab.sim.registry`); nothing else lists the games.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any


def load_ref(ref: str) -> Any:
    """The object named by ``"module:attribute"`` (imported on call)."""
    mod, _, attr = ref.partition(":")
    obj = importlib.import_module(mod)
    return getattr(obj, attr) if attr else obj


@dataclass(frozen=True)
class GameSpec:
    """One game's parts.

    Attributes:
        name: the game id (``--game``), equal to the engine's ``name``.
        engine: ``"module:Class"`` of the engine (imported on first use), or the class itself.
        strategies: modules that register the game's strategies when imported
            (``meeplelab.strategies.registry.register_strategy``).
        treatments: modules declaring the game's setup treatments for panels (their ``TREATMENTS`` dict)
            (``meeplelab.play.panels.register_treatment``; looked up in every process that plays a panel).
        sections: module whose ``SECTIONS`` list holds the game's report section builders (None: the
            generic sections only).
        rules_doc: the game's rules document (assumption IDs, parameters), relative to the repository.
        start_resources: the per-seat start values of the game (:class:`meeplelab.sim.core.start.StartResource`):
            the treatments ``NAME+n`` of ``meeplelab experiment`` and the panels, the seat compensation the
            engine applies at setup and the resources ``meeplelab exchange-rates`` prices are generated from
            this one list.
        seat_fields: the fields of the deciding seat's own visible state a restricted strategy's condition may read
            (:class:`meeplelab.sim.core.restrict.SeatField`: ``heuristic+force:abjure@suspicion>=6``).
        never_scores: ``(action name, engine action score)`` pairs: ``never:NAME`` first keeps the actions with a
            positive score (those that neither take the action nor commit the seat to it; Unconscious Mind's
            ``("cite", "no_cite")``), then the actions outside the name, then every legal action.
        labels: module of the game's codes in words for the report pages (its ``STRATEGIES``, ``STRATEGY_ARGS``,
            ``PARAMS`` and ``CODES`` dicts; :mod:`meeplelab.analysis.labels`), or None: the pages show the codes.
        observation: what the game's seats cannot see (:class:`meeplelab.sim.core.observation.ObservationSpec`, or
            ``"module:NAME"`` of one): the observations of the OpenSpiel games and the environments (None: the game
            provides no observation).
        decision_log: where the log records the seats' own choices, one ``"turns:COLUMN"`` (each value of that
            turn column is the action the turn's seat chose) or ``"events:KIND"`` (each event of that kind is one
            action chosen by the event's seat) per entry: what the mechanics-by-skill table counts
            (:mod:`meeplelab.analysis.mechanics`); rule-caused events stay out.
        force_at: ``(action name, condition)`` pairs: the documented threshold at which the mechanics-by-skill
            check also forces the action (``("abjure", "suspicion>=5")``), besides at the first chance.
    """

    name: str
    engine: Any
    strategies: tuple[str, ...] = field(default_factory=tuple)
    treatments: tuple[str, ...] = field(default_factory=tuple)
    sections: str | None = None
    rules_doc: str | None = None
    start_resources: tuple = field(default_factory=tuple)
    seat_fields: tuple = field(default_factory=tuple)
    never_scores: tuple = field(default_factory=tuple)
    observation: Any = None
    labels: str | None = None
    decision_log: tuple[str, ...] = field(default_factory=tuple)
    force_at: tuple = field(default_factory=tuple)

    def engine_class(self) -> type:
        """The engine class (imports its module the first time)."""
        return load_ref(self.engine) if isinstance(self.engine, str) else self.engine
