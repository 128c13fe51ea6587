"""meeplelab's games and players in OpenSpiel: the games (:mod:`meeplelab.sim.openspiel`), any meeplelab strategy as a
``pyspiel.Bot`` (:class:`StrategyBot`), and OpenSpiel's MCTS searching worlds the seat cannot tell from the real one
(:class:`DeterminizedMCTSBot`), and OpenSpiel's ISMCTS as ``evaluate_bots`` can seat it (:class:`ISMCTSBot`).
docs/openspiel.md.

    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from meeplelab.openspiel import ISMCTSBot, StrategyBot, load_game

    game = load_game("galileos-truth", players=2, seed=7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [StrategyBot(game, 0, "heuristic"),
            ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=50, random_state=np.random.RandomState(2))]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))

Importing this module needs OpenSpiel (the ``openspiel`` extra); without it the import fails in one line naming it.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.extras import message

try:  # the optional dependency this module is about (the openspiel extra)
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError:
    raise ImportError(message("openspiel", "meeplelab.openspiel")) from None

from meeplelab.sim.core.rng import stream_keys, strategy_stream
from meeplelab.sim.openspiel import dealt_state, load_game, register, short_name
from meeplelab.strategies.base import Strategy, StrategyRNG, View
from meeplelab.strategies.registry import make_strategy

__all__ = ["DeterminizedMCTSBot", "ISMCTSBot", "StrategyBot", "dealt_state", "load_game", "register", "short_name"]


class StrategyBot(pyspiel.Bot):
    """A meeplelab strategy (``heuristic``, a tuned preset, ``ismcts``, a plan, your own file) as an OpenSpiel bot.

    It decides exactly as in ``meeplelab simulate``: the strategy's ``act`` on the wrapped engine state, with the
    stream of (run seed, game index, seat, ply), so a game of StrategyBots is ``play_batch``'s game of the same
    strategies, seats, seed and game index (``meeplelab.sim.openspiel.dealt_state``). Like every meeplelab strategy
    it is handed the whole engine state and reads only what its seat may know (docs/strategies.md).

    Args:
        game: a meeplelab OpenSpiel game (:func:`load_game`).
        player: the seat it plays.
        strategy: a strategy id of the game (``"heuristic"``, ``"ismcts:iters=8"``, ``"mybot.py:MyBot"``) or a
            :class:`~meeplelab.strategies.base.Strategy`.

    Raises:
        ConfigError: an unknown strategy id or a bad argument (``make_strategy``).
    """

    def __init__(self, game, player: int, strategy: str | Strategy):
        pyspiel.Bot.__init__(self)
        self._game, self._player = game, int(player)
        self.strategy = make_strategy(game.engine.name, strategy) if isinstance(strategy, str) else strategy

    def player_id(self) -> int:
        return self._player

    def restart_at(self, state) -> None:
        """Nothing to reset: the bot keeps no state between decisions (each decision reads ``state`` afresh)."""

    def provides_policy(self) -> bool:
        return False

    def step(self, state) -> int:
        """The strategy's action at ``state`` (the seat to act must be this bot's).

        Raises:
            ValueError: ``state`` is a chance node, terminal, or another seat's decision.
        """
        seat = state.current_player()
        if seat != self._player:
            raise ValueError(f"StrategyBot for seat {self._player} asked to act at a state where "
                             f"{'no seat' if seat < 0 else f'seat {seat}'} is to act")
        engine, b = self._game.engine, state.batch
        mask = np.zeros((1, engine.num_actions), bool)
        mask[0, state.legal_actions()] = True
        keys = stream_keys(self._game.seed, b.game_id, strategy_stream(seat))
        rng = StrategyRNG.for_decision(keys, b.ply)
        return int(self.strategy.act(View(engine, b, np.zeros(1, np.int64), seat), mask, rng)[0])


class DeterminizedMCTSBot(pyspiel.Bot):
    """OpenSpiel's ``mcts.MCTSBot`` on honest worlds (determinized MCTS): at each decision it searches ``worlds``
    states that the seat to act cannot tell from the real one (``state.resample_from_infostate``: the other seats'
    unknown cards and every deck order re-sampled, the future chance the seat's own), ``max_simulations`` each,
    and plays the root action most visited over them (ties to the lower action id). The search never sees the real
    deck orders: every state it clones is a re-sampled one.

    Args:
        game: a meeplelab OpenSpiel game.
        uct_c, max_simulations, evaluator, solve, random_state: as ``mcts.MCTSBot`` (per world).
        worlds: re-sampled worlds per decision.
    """

    def __init__(self, game, uct_c: float, max_simulations: int, evaluator, worlds: int = 1, solve: bool = False,
                 random_state=None):
        pyspiel.Bot.__init__(self)
        self._mcts = mcts.MCTSBot(game, uct_c, max_simulations, evaluator, solve=solve, random_state=random_state)
        self._worlds = int(worlds)

    def restart_at(self, state) -> None:
        """Nothing to reset: the bot keeps no state between decisions (each decision reads ``state`` afresh)."""

    def provides_policy(self) -> bool:
        return False

    def step(self, state) -> int:
        """The most visited root action over the worlds searched."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        visits = dict.fromkeys(legal, 0)
        for _ in range(self._worlds):
            root = self._mcts.mcts_search(state.resample_from_infostate(state.current_player(), None))
            for child in root.children:
                visits[child.action] += child.explore_count
        return max(legal, key=lambda a: (visits[a], -a))


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ``ismcts.ISMCTSBot``, unchanged, with the ``restart_at`` that ``evaluate_bots`` calls before the
    first move (OpenSpiel's Python ISMCTSBot has none: ``SpielError: RestartAt(state) not implemented``): it starts
    a new search tree. Its worlds come from ``state.resample_from_infostate``, keyed by the game's seed (the same
    bot and seeds give the same game)."""

    def restart_at(self, state) -> None:
        self.reset()
