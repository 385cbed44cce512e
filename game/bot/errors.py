"""The bot's errors, all under `game.errors.GameError` (defined there, named here for the bot's users)."""

from game.errors import BotError, EngineDied, EngineError, EngineUnavailable, UnknownLevel, WeightsError, WrongVariant

__all__ = ["BotError", "EngineDied", "EngineError", "EngineUnavailable", "UnknownLevel", "WeightsError", "WrongVariant"]
