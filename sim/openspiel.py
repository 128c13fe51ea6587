"""meeplelab's games as OpenSpiel Python games (docs/openspiel.md).

Each registered game is a ``pyspiel`` game whose state wraps ONE game of the batch engine (a batch of size 1), so
OpenSpiel's checks (``pyspiel.random_sim_test``, serialization), bots (``uniform_random``, ``mcts.MCTSBot``,
``ismcts.ISMCTSBot``) and observations play the real rule kernels:

    from meeplelab.sim.openspiel import register
    names = register()                      # ["python_meeplelab_unconscious_mind", ...]
    import pyspiel
    game = pyspiel.load_game("python_meeplelab_galileos_truth", {"players": 3, "seed": 7})
    state = game.new_initial_state()        # the deal: 4 chance nodes of 256 outcomes each

Mapping (why, in docs/openspiel.md):

- **Chance: EXPLICIT_STOCHASTIC, the deal first.** The engines draw every chance event (setup shuffles,
  reshuffles, bag draws) inside their rule kernels from counter streams keyed by (run seed, game index, zone,
  event number) (``meeplelab.sim.core.rng``): a game's whole luck is fixed by its game index. The game's first
  :data:`DEAL_DIGITS` nodes are chance nodes choosing the game index, one base-256 digit each (deal ``d``, least
  significant digit first, is game index ``game + d`` of run seed ``seed``: ``meeplelab simulate``'s game ``d``
  when ``game`` is 0); after them no state is a chance node. So a state is its action history (chance
  included): clones, ``serialize_game_and_state`` and pickling replay exactly.
- **Information.** Per seat, the observation and information state of :mod:`meeplelab.sim.core.observation`
  (strings and tensors, ``make_py_observer``): what the seat can know, nothing more. The information-state
  string adds every player action so far (the chance digits never: they fix the deck orders), its tensor each
  seat's action counts. :meth:`resample_from_infostate` gives a state the seat cannot tell from this one
  (``Game.redeterminize``), so OpenSpiel's ``ISMCTSBot`` samples honest worlds; a clone is exact (it knows the
  real deck orders: search on ``resample_from_infostate`` states, as ``meeplelab.openspiel`` does).
- **Actions:** the engine's fixed action space; action ids are the legal-action-mask columns
  (``num_distinct_actions`` = ``Game.num_actions``), named by ``Game.action_label``.
- **Returns:** the games table's ``win_share``: 1 for the winner (VP, then the game's tie-break keys),
  ``1/k`` to each of ``k`` seats sharing first place, 0 otherwise; 0 for everyone before the end.
  Utility is therefore CONSTANT_SUM with sum 1, bounds [0, 1] (a solo game always returns 1).

``pyspiel`` is imported lazily: importing this module needs no OpenSpiel; :func:`register` does (the ``openspiel``
extra).
"""

from __future__ import annotations

import numpy as np

from .core.errors import ConfigError
from .core.extras import require
from .core.observation import Observer, observer_spec
from .single import OneGame, win_share  # noqa: F401  (win_share: part of this module's face)
from .core.params import apply_overrides, parse_set_options
from .registry import builtin_games, get_game_class, get_spec

#: prefix of every registered short name: ``python_meeplelab_<game id with _ for ->``
PREFIX = "python_meeplelab_"
#: chance nodes of the deal, and the outcomes of each: ``DEAL_BASE ** DEAL_DIGITS`` deals (game indices)
DEAL_DIGITS, DEAL_BASE = 4, 256


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a meeplelab game id (``galileos-truth`` -> ``python_meeplelab_galileos_truth``)."""
    return PREFIX + game_id.replace("-", "_")


_PYSPIEL = []  # the pyspiel module once imported


def _pyspiel():
    """``pyspiel``, imported on first use (the optional dependency of the ``openspiel`` extra).

    Raises:
        MissingExtra: the extra is not installed (one line naming it).
    """
    if not _PYSPIEL:
        require("openspiel", "registering meeplelab's games with OpenSpiel")
        import pyspiel  # optional dependency: imported when a game is registered

        _PYSPIEL.append(pyspiel)
    return _PYSPIEL[0]


def set_items(overrides: str) -> list[str]:
    """The ``--set`` items (``name=value``) of the game parameter ``set``: ``name:value`` items joined by ``;``, the
    elements of a tuple value joined by ``/`` (``"round_limit:12;seat_coins_2p:0/1"``). OpenSpiel's game strings
    (``str(game)``, ``serialize_game_and_state``) cannot hold ``=`` or ``,``.

    Raises:
        ConfigError: an ``=`` or ``,`` in ``overrides``, or an item without ``:``.
    """
    bad = next((c for c in "=," if c in overrides), None)
    if bad:
        raise ConfigError(f"set {overrides!r} holds {bad!r}, which OpenSpiel's game strings cannot: allowed name:value "
                          "items joined by ';', a tuple's elements joined by '/' (round_limit:12;seat_coins_2p:0/1)")
    items = [x for x in (s.strip() for s in overrides.split(";")) if x]
    for it in items:
        if ":" not in it:
            raise ConfigError(f"set item {it!r} needs the form name:value (round_limit:12)")
    return [it.replace(":", "=", 1).replace("/", ",") for it in items]


def _engine(game_id: str, overrides: str):
    """The engine of ``game_id`` with ``overrides`` (the game parameter ``set``: :func:`set_items`) applied."""

    cls = get_game_class(game_id)
    params = cls.Params()
    items = set_items(overrides)
    if items:
        params = apply_overrides(params, parse_set_options(items))
    return cls(params)


def _observation_spec(game_id: str):
    """The game's :class:`~meeplelab.sim.core.observation.ObservationSpec`, or None (a game without one, the toy)."""

    try:
        return observer_spec(get_spec(game_id))
    except ConfigError:
        return None


def _game_type(pyspiel, cls, defaults: dict, observed: bool):
    """The ``pyspiel.GameType`` of engine class ``cls``."""
    return pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"meeplelab {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=observed,
        provides_information_state_tensor=observed,
        provides_observation_string=observed,
        provides_observation_tensor=observed,
        parameter_specification=defaults)


class _GameMethods:
    """The methods of every registered game class (:func:`_make_classes` puts them before ``pyspiel.Game`` and sets
    ``engine_class``, ``defaults``, ``spec`` and ``game_type``)."""

    def __init__(self, params=None):
        pyspiel = _pyspiel()
        cls = self.engine_class
        p = dict(self.defaults)
        p.update(params or {})
        self.engine = _engine(cls.name, str(p["set"]))
        self.players = int(p["players"])
        self.engine.check_players(self.players)
        self.seed, self.first = int(p["seed"]), int(p["game"])
        self._observer = None
        self.blanks = {}  # the observation tensors before the deal, by (seat, perfect recall)
        info = pyspiel.GameInfo(
            num_distinct_actions=int(cls.num_actions), max_chance_outcomes=DEAL_BASE, num_players=self.players,
            min_utility=0.0, max_utility=1.0, utility_sum=1.0, max_game_length=int(self.engine.max_plies(self.players)))
        pyspiel.Game.__init__(self, self.game_type, info, p)

    def __reduce__(self):
        # pickling (copy.deepcopy, pickle) keeps the parameters; the game holds no other state
        return _restore, (self.engine_class.name, dict(self.get_parameters()))

    @property
    def observer(self) -> Observer:
        """The observation of this engine at this player count (:class:`~meeplelab.sim.core.observation.Observer`).

        Raises:
            ConfigError: the game declares no observation (``GameSpec.observation``).
        """
        if self._observer is None:
            if self.spec is None:
                raise ConfigError(f"{self.engine_class.name} declares no observation (GameSpec.observation)")
            self._observer = Observer(self.engine, self.players, self.spec)
        return self._observer

    def new_initial_state(self):
        """A new game before its deal (the first of :data:`DEAL_DIGITS` chance nodes)."""
        return self.state_class(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """OpenSpiel's observer of this game (``open_spiel.python.observation.make_observation``): the seat's
        observation, or with ``perfect_recall`` its information state; ``private_info`` ``NONE`` is the public
        observer (no seat's private information).

        Raises:
            ValueError: observation parameters, or an observation type other than those.
        """
        return PyObserver(self, iig_obs_type, params)


class _StateMethods:
    """The methods of every registered state class: the deal's digits, then a batch of one game of the engine
    (:attr:`batch`)."""

    def __init__(self, game):
        _pyspiel().State.__init__(self, game)
        self._digits: list[int] = []
        self._b: OneGame | None = None

    @property
    def engine(self):
        """The engine (shared by every state of the game)."""
        return self.get_game().engine

    @property
    def batch(self):
        """The wrapped engine state, a batch of one game (None before the deal)."""
        return None if self._b is None else self._b.state

    def __reduce__(self):
        # pickling replays the history (the deal included) on a new initial state
        return _restore_state, (self.get_game(), list(self.history()))

    def current_player(self):
        b, ids = self._b, _pyspiel().PlayerId
        if b is None:
            return ids.CHANCE
        return ids.TERMINAL if b.over else b.seat

    def chance_outcomes(self):
        if self._b is not None:
            return []
        p = 1.0 / DEAL_BASE
        return [(d, p) for d in range(DEAL_BASE)]

    def _legal_actions(self, player):
        b = self._b
        if b is None or b.over or player != b.seat:
            return []
        return np.flatnonzero(b.mask).tolist()

    def _apply_action(self, action):
        if self._b is None:
            self._digits.append(int(action))
            if len(self._digits) == DEAL_DIGITS:
                game = self.get_game()
                index = game.first + sum(d * DEAL_BASE ** i for i, d in enumerate(self._digits))
                self._b = OneGame.start(game.engine, index, game.seed, game.players)
            return
        self._b.step(self.engine, int(action))

    def _action_to_string(self, player, action):
        if player == _pyspiel().PlayerId.CHANCE:
            return f"deal digit {len(self._digits) + 1} of {DEAL_DIGITS}: {int(action)}"
        return self.engine.action_label(int(action))

    def is_terminal(self):
        return self._b is not None and self._b.over

    def returns(self):
        b = self._b
        return [0.0] * self.get_game().players if b is None else b.returns(self.engine)

    def resample_from_infostate(self, player, sampler=None):
        """A state ``player`` cannot tell from this one: a clone whose hidden cards and future chance are re-sampled
        for ``player`` (``Game.redeterminize``; the same information state).

        The world is keyed by (run seed, game index, ``player``, ply, how many worlds this state has drawn for
        ``player`` at this ply), never by ``sampler`` (OpenSpiel's ``ISMCTSBot`` passes a sampler seeded from the
        clock): the same calls give the same worlds.
        """
        other = self.clone()
        if self._b is not None:
            game = self.get_game()
            self._b.resample(other._b, game.engine, game.seed, int(player))
        return other

    def information_fields(self, player: int, perfect_recall: bool = True) -> dict:
        """``player``'s information state (or, without ``perfect_recall``, observation) as named ``int64`` arrays
        (:class:`~meeplelab.sim.core.observation.Observer`; ``player`` -1: the public observer)."""
        obs = self.get_game().observer
        if self._b is None:
            return obs.blank(player, perfect_recall)
        return self._b.fields(obs, player, perfect_recall)

    def information_tensor(self, player: int, perfect_recall: bool = True) -> np.ndarray:
        """:meth:`information_fields` flattened (``float32``; read-only: it is kept for this position)."""
        game = self.get_game()
        if self._b is not None:
            return self._b.tensor(game.observer, player, perfect_recall)
        key = (player, perfect_recall)
        if key not in game.blanks:
            game.blanks[key] = Observer.tensor(game.observer.blank(player, perfect_recall))
        return game.blanks[key]

    def information_text(self, player: int, perfect_recall: bool = True) -> str:
        """:meth:`information_fields` as text; the information state ends with the player actions so far."""
        b = self._b
        if b is None:
            return f"dealing ({len(self._digits)} of {DEAL_DIGITS} digits)"
        key = ("text", player)
        if key not in b.cache:
            obs = self.get_game().observer
            b.cache[key] = obs.text(b.fields(obs, player, False))
        if not perfect_recall:
            return b.cache[key]
        return b.cache[key] + "\nhistory: " + " ".join(map(str, self.history()[DEAL_DIGITS:]))

    def __str__(self):
        b, game = self._b, self.get_game()
        title = game.engine_class.title
        if b is None:
            return f"{title} (seed {game.seed}): dealing, digits {self._digits}"
        s = b.state
        vp = " ".join(str(int(v)) for v in self.engine.vp(s)[0])
        who = "over" if b.over else f"seat {b.seat} to act"
        return f"{title} game {int(s.game_id[0])} (seed {game.seed}), ply {int(s.ply[0])}, {who}; VP: {vp}"


def _make_classes(pyspiel, cls):
    """The ``GameType`` and the ``pyspiel.Game`` and ``pyspiel.State`` subclasses of engine class ``cls``."""
    default_players = 2 if cls.min_players <= 2 <= cls.max_players else cls.min_players
    defaults = {"players": default_players, "seed": 0, "game": 0, "set": ""}
    spec = _observation_spec(cls.name)
    game_type = _game_type(pyspiel, cls, defaults, spec is not None)
    suffix = cls.name.replace("-", "_")
    state_cls = type(f"OpenSpielState_{suffix}", (_StateMethods, pyspiel.State), {
        "__doc__": f"One game of {cls.title}: the deal's digits, then a batch of one game of the engine (``batch``).",
        "__module__": __name__})
    game_cls = type(f"OpenSpielGame_{suffix}", (_GameMethods, pyspiel.Game), {
        "__doc__": f"{cls.title} as an OpenSpiel game (parameters: players, seed = run seed, game = the game index of "
                   "deal 0, set = rule overrides ``name:value;...``, :func:`set_items`).",
        "__module__": __name__, "engine_class": cls, "defaults": defaults, "spec": spec, "game_type": game_type,
        "state_class": state_cls})
    return game_type, game_cls, state_cls


class PyObserver:
    """OpenSpiel's observer of a meeplelab game (the interface of ``open_spiel.python.observation``): ``tensor``
    (``float32``), ``dict`` (named views of it), ``set_from(state, player)``, ``string_from(state, player)``.

    Raises:
        ValueError: observation parameters (none are taken), ``public_info`` False, or ``private_info``
            ``ALL_PLAYERS`` (a seat's view is ``SINGLE_PLAYER``; ``NONE`` is the public observer).
    """

    def __init__(self, game, iig_obs_type=None, params=None):
        if isinstance(iig_obs_type, dict):  # OpenSpiel calls make_py_observer(params) when it asks no type
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        pyspiel = _pyspiel()
        self._recall, self._private = False, True
        if iig_obs_type is not None:
            if not iig_obs_type.public_info:
                raise ValueError("an observation without public information is not supported: allowed "
                                 "public_info=True with private_info SINGLE_PLAYER or NONE")
            if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("private_info ALL_PLAYERS is not supported: allowed SINGLE_PLAYER (a seat's view) "
                                 "or NONE (the public view)")
            self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
            self._recall = bool(iig_obs_type.perfect_recall)
        obs = game.observer
        self.tensor = np.zeros(obs.info_size if self._recall else obs.size, np.float32)
        self.dict = obs.views(self.tensor, self._recall)

    def set_from(self, state, player: int) -> None:
        """Write ``player``'s view of ``state`` into :attr:`tensor` (and so :attr:`dict`)."""
        self.tensor[:] = state.information_tensor(player if self._private else -1, self._recall)

    def string_from(self, state, player: int) -> str:
        """``player``'s view of ``state`` as text."""
        return state.information_text(player if self._private else -1, self._recall)


_REGISTERED: dict[str, type] = {}


def register(*game_ids: str) -> list[str]:
    """Register meeplelab games with OpenSpiel (every built-in game when none is named; any game of
    :mod:`meeplelab.sim.registry`, e.g. the test-only ``toy``); returns their short names. Registering again is a no-op.

    Raises:
        ConfigError: an unknown game id, or OpenSpiel not installed (the ``openspiel`` extra).
    """
    pyspiel = _pyspiel()

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


def _restore(game_id: str, params: dict):
    """Unpickle a registered game (:meth:`MeepleGame.__reduce__`)."""
    register(game_id)
    return _REGISTERED[short_name(game_id)](params)


def _restore_state(game, history: list):
    """Unpickle a state: a new state of ``game`` with the actions of ``history`` (the deal first) applied."""
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


def deal_digits(deal: int) -> list[int]:
    """The chance actions of deal ``deal`` (``0 <= deal < DEAL_BASE ** DEAL_DIGITS``), least significant digit first.

    Raises:
        ConfigError: ``deal`` out of that range.
    """
    if not 0 <= int(deal) < DEAL_BASE ** DEAL_DIGITS:
        raise ConfigError(f"deal {deal} is out of range: allowed 0 to {DEAL_BASE ** DEAL_DIGITS - 1}")
    return [(int(deal) // DEAL_BASE ** i) % DEAL_BASE for i in range(DEAL_DIGITS)]


def dealt_state(game, deal: int = 0):
    """A new state of ``game`` after deal ``deal``: game index ``game + deal`` of the game's run seed, at its first
    decision (the same game as ``meeplelab simulate``'s game of that index and seed).

    Raises:
        ConfigError: ``deal`` out of range (:func:`deal_digits`).
    """
    state = game.new_initial_state()
    for d in deal_digits(deal):
        state.apply_action(d)
    return state


def load_game(game_id: str, **params):
    """``pyspiel.load_game`` of meeplelab game ``game_id`` (registered first): ``load_game("galileos-truth",
    players=3, seed=7)``."""
    register(game_id)
    return _pyspiel().load_game(short_name(game_id), params)
