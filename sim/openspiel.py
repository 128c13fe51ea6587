"""meeplelab's games as OpenSpiel Python games (issue 26 item 4; docs/openspiel.md).

Each registered game is a ``pyspiel`` game whose state wraps ONE game of the batch engine (a batch of
size 1), so OpenSpiel's own checks (``pyspiel.random_sim_test``) and bots (``uniform_random``,
``mcts.MCTSBot``, ...) play the real rules kernels:

    from meeplelab.sim.openspiel import register
    names = register()                      # ["python_meeplelab_galileos_truth", ...]
    import pyspiel
    game = pyspiel.load_game("python_meeplelab_galileos_truth", {"players": 3, "seed": 7})
    state = game.new_initial_state()        # game index 0 of run seed 7, then 1, 2, ...

Mapping (why, in docs/openspiel.md):

- **Chance: SAMPLED_STOCHASTIC.** The engines draw every chance event (setup shuffles, reshuffles, bag
  draws) inside their rule kernels, in the middle of applying an action, from counter streams keyed by
  (run seed, game index, zone, event number) (``meeplelab.sim.core.rng``). There are no chance decisions between
  player decisions to expose, and a shuffle of a 40-card deck has no enumerable outcome list, so the
  state never is a chance node: the run seed is the game parameter ``seed``, and each
  ``new_initial_state()`` starts the next game index (from the parameter ``game``), as OpenSpiel's
  sampled-stochastic games advance their game-level RNG. The same (seed, game index) and actions give
  the same game as ``meeplelab simulate`` / :func:`meeplelab.play.batch.play_batch`. A clone copies the chance key,
  so a search on clones (MCTSBot) sees the real future luck (clairvoyant); meeplelab's own search
  strategies re-sample it (``Game.redeterminize``).
- **Actions:** the engine's fixed action space; action ids are the legal-action-mask columns
  (``num_distinct_actions`` = ``Game.num_actions``), named by ``Game.action_label``.
- **Returns:** the games table's ``win_share``: 1 for the winner (VP, then the game's tie-break keys),
  ``1/k`` to each of ``k`` seats sharing first place, 0 otherwise; 0 for everyone before the end.
  Utility is therefore CONSTANT_SUM with sum 1, bounds [0, 1] (a solo game always returns 1).
- **Information:** IMPERFECT_INFORMATION, single observer; no observation or information-state strings
  or tensors are provided (``provides_* = False``): what a seat may know is only written down as the
  engines' re-sampling kernels (``sim/<game>/hidden.py``), not as an observation. ``str(state)`` is a
  debugging view of the public scores (VP, ply, seat to act), not an observation.

``pyspiel`` is imported lazily: importing this module needs no OpenSpiel; :func:`register` does.
"""

from __future__ import annotations

import numpy as np

from .core.errors import ConfigError

#: prefix of every registered short name: ``python_meeplelab_<game id with _ for ->``
PREFIX = "python_meeplelab_"


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a meeplelab game id (``galileos-truth`` -> ``python_meeplelab_galileos_truth``)."""
    return PREFIX + game_id.replace("-", "_")


def _pyspiel():
    try:
        import pyspiel
    except ImportError as e:  # pragma: no cover - open_spiel is a dependency
        raise ConfigError(f"OpenSpiel is not installed (pip install open_spiel): {e}") from None
    return pyspiel


def _engine(game_id: str, overrides: str):
    """The engine of ``game_id`` with ``overrides`` (``"name=value;name=value"``, as ``--set``) applied."""
    from .core.params import apply_overrides, parse_set_options
    from .registry import get_game_class

    cls = get_game_class(game_id)
    params = cls.Params()
    items = [x for x in (s.strip() for s in overrides.split(";")) if x]
    if items:
        params = apply_overrides(params, parse_set_options(items))
    return cls(params)


def _make_classes(pyspiel, cls):
    """The ``pyspiel.Game`` and ``pyspiel.State`` subclasses and the ``GameType`` of engine class ``cls``."""
    default_players = 2 if cls.min_players <= 2 <= cls.max_players else cls.min_players
    defaults = {"players": default_players, "seed": 0, "game": 0, "set": ""}
    game_type = pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"meeplelab {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=defaults)

    class MeepleGame(pyspiel.Game):
        __doc__ = f"""{cls.title} as an OpenSpiel game (parameters: players, seed = run seed, game = first game
        index, set = rule overrides ``name=value;...``)."""

        def __init__(self, params=None):
            p = dict(defaults)
            p.update(params or {})
            self.engine = _engine(cls.name, str(p["set"]))
            self.players = int(p["players"])
            self.engine.check_players(self.players)
            self.seed = int(p["seed"])
            self.next_game = int(p["game"])
            info = pyspiel.GameInfo(
                num_distinct_actions=int(cls.num_actions), max_chance_outcomes=0, num_players=self.players,
                min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                max_game_length=int(self.engine.max_plies(self.players)))
            super().__init__(game_type, info, p)

        def __reduce__(self):
            # pickling (copy.deepcopy, pickle) keeps the parameters and the next game index (OpenSpiel's
            # sampled-stochastic games carry their RNG state the same way)
            return _restore, (cls.name, dict(self.get_parameters()), self.next_game)

        def new_initial_state(self, game_index: int | None = None):
            """A new game at its first decision: game index ``game_index``, or (None) the next game index of
            this game, taken when the state is first used (OpenSpiel's C++ side builds a state to clone into by
            calling this method, then overwrites it: such a state never takes an index nor sets up a game)."""
            return MeepleState(self, game_index)

    class MeepleState(pyspiel.State):
        __doc__ = f"""One game of {cls.title}: a batch of size 1 of the engine (``self.batch``)."""

        def __init__(self, game, game_index=None):
            super().__init__(game)
            self._shared = _Shared(game)
            self._game = _Batch(None, game_index)

        @property
        def engine(self):
            """The engine (shared by every state of the game)."""
            return self._shared.game.engine

        @property
        def batch(self):
            """The wrapped engine state, a batch of one game (set up on first use)."""
            return self._ready().state

        def _ready(self) -> "_Batch":
            b = self._game
            if b.state is None:
                game = self._shared.game
                if b.index is None:
                    b.index = game.next_game
                    game.next_game += 1
                b.state = game.engine.init(np.array([b.index], np.int64), game.seed, game.players)
                b.sync(game.engine)
            return b

        def __reduce__(self):
            # pickling replays the actions on the same game index (pyspiel's string serialization would
            # replay them on a new initial state, the next game index: another deal)
            return _restore_state, (self._shared.game, self._ready().index, list(self.history()))

        # ------------------------------------------------------------ OpenSpiel API
        def current_player(self):
            b = self._ready()
            return pyspiel.PlayerId.TERMINAL if b.over else b.seat

        def _legal_actions(self, player):
            b = self._ready()
            if b.over or player != b.seat:
                return []
            return np.flatnonzero(b.mask).tolist()

        def _apply_action(self, action):
            b = self._ready()
            self.engine.step(b.state, np.array([int(action)], np.int64), b.mask[None, :])
            b.sync(self.engine)

        def _action_to_string(self, player, action):
            return self.engine.action_label(int(action))

        def is_terminal(self):
            return self._ready().over

        def returns(self):
            b = self._ready()
            if not b.over:
                return [0.0] * b.state.num_players
            return win_share(self.engine, b.state)[0].tolist()

        def __str__(self):
            b = self._ready()
            s = b.state
            vp = " ".join(str(int(v)) for v in self.engine.vp(s)[0])
            who = "over" if b.over else f"seat {b.seat} to act"
            return (f"{cls.title} game {int(s.game_id[0])} (seed {self._shared.game.seed}), ply {int(s.ply[0])}, "
                    f"{who}; VP: {vp}")

    MeepleGame.__name__ = MeepleGame.__qualname__ = f"OpenSpielGame_{cls.name.replace('-', '_')}"
    MeepleState.__name__ = MeepleState.__qualname__ = f"OpenSpielState_{cls.name.replace('-', '_')}"
    return game_type, MeepleGame, MeepleState


class _Shared:
    """What every state of a game shares (the pyspiel game and its engine): OpenSpiel clones a Python state by
    deep-copying its ``__dict__``, and this is never copied."""

    __slots__ = ("game",)

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return self


class _Batch:
    """The wrapped engine state (None until first used), its game index, and what OpenSpiel asks for
    repeatedly (finished, legal action mask, seat to act); a deep copy (OpenSpiel's clone) copies the engine
    state (:meth:`BatchState.copy`)."""

    __slots__ = ("state", "index", "over", "mask", "seat")

    def __init__(self, state, index, over=False, mask=None, seat=-1):
        self.state, self.index, self.over, self.mask, self.seat = state, index, over, mask, seat

    def sync(self, engine) -> None:
        """Read the state after a step; the log buffers are emptied (the OpenSpiel states keep no logs)."""
        s = self.state
        s.turn_n[:] = 0
        s.event_n[:] = 0
        self.over = bool(engine.done(s)[0])
        self.mask = engine.legal_action_mask(s)[0]
        self.seat = -1 if self.over else int(engine.to_act(s)[0])

    def __deepcopy__(self, memo):
        if self.state is None:
            return _Batch(None, self.index)
        return _Batch(self.state.copy(), self.index, self.over, self.mask.copy(), self.seat)


def win_share(engine, state) -> np.ndarray:
    """``float64[B, P]`` the games table's ``win_share`` of finished games: ``1/k`` for each of the ``k`` seats
    first on VP and the game's tie-break keys (:func:`meeplelab.sim.schema.ranks`), else 0."""
    from .schema import ranks

    rk = ranks(np.asarray(engine.final_scores(state), np.int64), np.asarray(engine.tiebreak(state), np.int64))
    win = rk == 1
    return np.where(win, 1.0 / win.sum(axis=1, keepdims=True), 0.0)


_REGISTERED: dict[str, type] = {}


def register(*game_ids: str) -> list[str]:
    """Register meeplelab games with OpenSpiel (every built-in game when none is named; any game of
    :mod:`meeplelab.sim.registry`, e.g. the test-only ``toy``); returns their short names. Registering again is a no-op.

    Raises:
        ConfigError: an unknown game id, or OpenSpiel not installed.
    """
    pyspiel = _pyspiel()
    from .registry import builtin_games, get_game_class

    names = []
    for gid in game_ids or tuple(builtin_games()):
        cls = get_game_class(gid)
        name = short_name(cls.name)
        if name not in _REGISTERED and name not in pyspiel.registered_names():
            game_type, game_cls, _ = _make_classes(pyspiel, cls)
            pyspiel.register_game(game_type, game_cls)
            _REGISTERED[name] = game_cls
        names.append(name)
    return names


def _restore(game_id: str, params: dict, next_game: int):
    """Unpickle a registered game (:meth:`MeepleGame.__reduce__`)."""
    register(game_id)
    game = _REGISTERED[short_name(game_id)](params)
    game.next_game = next_game
    return game


def _restore_state(game, game_index: int, history: list):
    """Unpickle a state: game ``game_index`` of ``game`` with the actions of ``history`` applied."""
    state = game.new_initial_state(game_index)
    for a in history:
        state.apply_action(a)
    return state


def load_game(game_id: str, **params):
    """``pyspiel.load_game`` of meeplelab game ``game_id`` (registered first): ``load_game("galileos-truth",
    players=3, seed=7)``."""
    register(game_id)
    return _pyspiel().load_game(short_name(game_id), params)
