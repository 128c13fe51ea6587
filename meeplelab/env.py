"""meeplelab's games as PettingZoo AEC environments, and a Gymnasium environment for one seat against meeplelab
strategies (docs/environments.md).

    from meeplelab.env import env

    e = env("galileos-truth", players=2)
    e.reset(seed=7)                                  # game 0 of run seed 7 (each later reset(): the next game)
    for agent in e.agent_iter():                     # "seat_0", "seat_1", ... whoever is to act
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

An observation is a dict: ``observation``, the seat's information state as ``float32`` (its observation, what that
seat can know and nothing more, and every seat's action counts: :mod:`meeplelab.sim.core.observation`, the same
arrays as the OpenSpiel games' ``information_state_tensor``), and ``action_mask`` (``int8``, the legal actions of
the seat to act; all zero for the others). The reward is each seat's win share when the game ends (1 the winner,
``1/k`` to ``k`` seats sharing first place, 0 otherwise), 0 before. Games never truncate. Everything is keyed by the
run seed as in ``meeplelab simulate``: game index ``i`` of seed ``s`` is the same game, whatever was played before.

Importing this module needs PettingZoo and Gymnasium (the ``rl`` extra); without them the import fails in one line
naming it.
"""

from __future__ import annotations

import numpy as np

from meeplelab.sim.core.extras import message

try:  # the optional dependencies this module is about (the rl extra)
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:
    raise ImportError(message("rl", "meeplelab.env")) from None

from meeplelab.sim.core.errors import ConfigError
from meeplelab.sim.core.observation import Observer, observer_spec
from meeplelab.sim.core.params import apply_overrides, parse_set_options
from meeplelab.sim.core.rng import stream_keys, strategy_stream
from meeplelab.sim.registry import get_game_class, get_spec
from meeplelab.sim.single import OneGame
from meeplelab.strategies.base import Strategy, StrategyRNG, View
from meeplelab.strategies.registry import make_strategy

__all__ = ["MeepleEnv", "SeatEnv", "env", "raw_env"]

#: the observation's bounds: it holds raw integer values (ids, counts, VP; -2 hidden), so the box is wide
OBS_LOW, OBS_HIGH = -(2.0 ** 31), 2.0 ** 31


def _engine(game: str, overrides):
    """The engine of ``game`` with ``overrides`` (``--set`` items, ``["cycles=4"]``) applied.

    Raises:
        ConfigError: an unknown game, a bad override.
    """
    cls = get_game_class(game)
    params = cls.Params()
    items = list(overrides or ())
    if items:
        params = apply_overrides(params, parse_set_options(items))
    return cls(params)


class MeepleEnv(AECEnv):
    """A meeplelab game as a PettingZoo AEC environment (agents ``seat_0`` .. ``seat_{P-1}``).

    Args:
        game: a game id (``galileos-truth``, ``unconscious-mind``).
        players: seats.
        seed: the run seed (:attr:`run_seed`; ``reset(seed=...)`` replaces it).
        overrides: rule overrides as ``--set`` takes them (``["cycles=4"]``).
        render_mode: None or ``"ansi"`` (``render()`` returns a line: game, ply, seat to act, VP).

    Raises:
        ConfigError: an unknown game, a bad player count or override, a game that declares no observation.
    """

    metadata = {"name": "meeplelab_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "galileos-truth", players: int = 2, seed: int = 0, overrides=(),
                 render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode {render_mode!r} is not supported: allowed None or 'ansi'")
        self.engine = _engine(game, overrides)
        self.players = int(players)
        self.engine.check_players(self.players)
        spec = observer_spec(get_spec(self.engine.name))
        if spec is None:
            raise ConfigError(f"{self.engine.name} declares no observation (GameSpec.observation)")
        self.observer = Observer(self.engine, self.players, spec)
        self.render_mode, self.run_seed = render_mode, int(seed)
        self.metadata = dict(self.metadata, name=f"meeplelab_{self.engine.name.replace('-', '_')}_v0")
        self.possible_agents = [f"seat_{p}" for p in range(self.players)]
        A = int(self.engine.num_actions)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(OBS_LOW, OBS_HIGH, (self.observer.info_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (A,), np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A) for a in self.possible_agents}
        self.game: OneGame | None = None
        self._next = 0

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game: game index 0 of run seed ``seed`` when given, else the next game index of the current run
        seed; ``options={"game": i}`` starts game index ``i`` (other option keys are ignored)."""
        if seed is not None:
            self.run_seed, self._next = int(seed), 0
        index = int((options or {}).get("game", self._next))
        self._next = index + 1
        self.game = OneGame.start(self.engine, index, self.run_seed, self.players)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.seat]

    def observe(self, agent):
        """``agent``'s information state and the action mask (its legal actions when it is to act, else zeros)."""
        p = self.possible_agents.index(agent)
        g = self.game
        mask = g.mask.astype(np.int8) if p == g.seat else np.zeros(g.mask.shape, np.int8)
        return {"observation": np.array(g.tensor(self.observer, p, True)), "action_mask": mask}

    def step(self, action) -> None:
        """Apply ``action`` for the agent to act (None for an agent whose game has ended).

        Raises:
            IllegalActionError: an action outside the agent's legal actions (names the action and the legal set).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        g = self.game
        g.step(self.engine, int(action))
        self._clear_rewards()
        if g.over:
            for a, r in zip(self.agents, g.returns(self.engine)):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        else:
            self.agent_selection = self.agents[g.seat]
        self._accumulate_rewards()

    def strategy_action(self, strategy: Strategy) -> int:
        """The action meeplelab ``strategy`` (``make_strategy(game, id)``) takes for the agent to act: its ``act`` on
        the engine state with the stream of (run seed, game index, seat, ply), as in ``meeplelab simulate``."""
        g = self.game
        b = g.state
        keys = stream_keys(self.run_seed, b.game_id, strategy_stream(g.seat))
        rng = StrategyRNG.for_decision(keys, b.ply)
        return int(strategy.act(View(self.engine, b, np.zeros(1, np.int64), g.seat), g.mask[None, :], rng)[0])

    def render(self):
        """With ``render_mode="ansi"``, one line: game, ply, seat to act (or over), VP; otherwise None."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        s = self.game.state
        who = "over" if self.game.over else f"seat_{self.game.seat} to act"
        vp = " ".join(str(int(v)) for v in self.engine.vp(s)[0])
        return (f"{self.engine.title} game {int(s.game_id[0])} (seed {self.run_seed}), ply {int(s.ply[0])}, {who}; "
                f"VP: {vp}")

    def close(self) -> None:
        """Nothing to release: the game holds no window, file or process."""


#: PettingZoo's name for the unwrapped environment class
raw_env = MeepleEnv


def env(game: str = "galileos-truth", players: int = 2, seed: int = 0, overrides=(), render_mode=None):
    """A :class:`MeepleEnv` in PettingZoo's order-enforcing wrapper (``last`` before ``reset`` and the like fail with
    PettingZoo's message)."""
    return wrappers.OrderEnforcingWrapper(MeepleEnv(game, players, seed, overrides, render_mode))


class SeatEnv(gymnasium.Env):
    """One seat of a meeplelab game as a Gymnasium environment; the other seats are meeplelab strategies.

    ``reset`` plays the opponents until the learner's seat is to act; ``step(action)`` plays the learner's action
    and the opponents' until the learner is to act again or the game ends. The observation is the learner's
    (:class:`MeepleEnv`'s dict), the reward its win share at the end (0 before), ``terminated`` at the end;
    ``truncated`` is always False. ``info["action_mask"]`` and :meth:`action_masks` give the legal actions as
    ``bool`` (the convention of maskable learners).

    Args:
        game, seed, overrides: as :class:`MeepleEnv`.
        opponents: a strategy id (or :class:`~meeplelab.strategies.base.Strategy`) per other seat, in seat order
            skipping the learner's: ``("heuristic",)`` is a 2-player game.
        seat: the learner's seat.

    Raises:
        ConfigError: as :class:`MeepleEnv`; an unknown strategy; ``seat`` outside the table.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "galileos-truth", opponents=("heuristic",), seat: int = 0, seed: int = 0,
                 overrides=(), render_mode: str | None = None):
        players = 1 + len(opponents)
        if not 0 <= int(seat) < players:
            raise ConfigError(f"seat {seat} is not at a table of {players} seats: allowed 0 to {players - 1}")
        self.aec = MeepleEnv(game, players, seed, overrides, render_mode)
        self.seat, self.agent = int(seat), f"seat_{int(seat)}"
        others = [p for p in range(players) if p != self.seat]
        self.opponents = {p: make_strategy(self.aec.engine.name, s) if isinstance(s, str) else s
                          for p, s in zip(others, opponents)}
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def _play_opponents(self) -> None:
        """Opponents act until the learner is to act or the game ends."""
        g = self.aec
        while not g.game.over and g.game.seat != self.seat:
            g.step(g.strategy_action(self.opponents[g.game.seat]))

    def _result(self):
        obs = self.aec.observe(self.agent)
        return obs, {"action_mask": obs["action_mask"].astype(bool)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game (as :meth:`MeepleEnv.reset`), played up to the learner's first decision."""
        super().reset(seed=seed)
        self.aec.reset(seed=seed, options=options)
        self._play_opponents()
        return self._result()

    def step(self, action):
        """Play ``action`` and the opponents' moves; ``(observation, reward, terminated, False, info)``.

        Raises:
            IllegalActionError: an action outside the legal mask.
        """
        self.aec.step(int(action))
        self._play_opponents()
        over = self.aec.game.over
        reward = self.aec.game.returns(self.aec.engine)[self.seat] if over else 0.0
        obs, info = self._result()
        return obs, float(reward), over, False, info

    def action_masks(self) -> np.ndarray:
        """``bool[A]`` the learner's legal actions now."""
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def render(self):
        return self.aec.render()
