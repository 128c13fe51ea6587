"""Game-agnostic backbone: the Game protocol, batch state, random streams, logs, params, content."""

from .errors import (ConfigError, ContentError, EngineError, IllegalActionError, PlyLimitError,
                     RunFolderError, UserError)
from .game import Game
from .logs import Column, LogSpec
from .params import param
from .rng import GAME_STREAM, Streams, strategy_stream
from .state import BatchState

__all__ = [
    "BatchState", "Column", "ConfigError", "ContentError", "EngineError", "GAME_STREAM", "Game",
    "IllegalActionError", "LogSpec", "PlyLimitError", "RunFolderError", "Streams", "UserError",
    "param", "strategy_stream",
]
