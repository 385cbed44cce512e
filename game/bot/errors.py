"""The bot's errors, all under `game.errors.GameError` (defined there, named here for the bot's users)."""

from game.errors import (
    BearoffError,
    BotError,
    EngineDied,
    EngineError,
    EngineUnavailable,
    OpeningBookError,
    UnknownLevel,
    WeightsError,
    WrongVariant,
)

__all__ = ["BearoffError", "BotError", "EngineDied", "EngineError", "EngineUnavailable", "OpeningBookError",
           "UnknownLevel",
           "WeightsError", "WrongVariant"]
