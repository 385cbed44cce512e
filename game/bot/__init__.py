"""Bots for every variant: GNU Backgammon for Backgammon, a TD-trained network for the others.

    bot = make_bot(Variant.CATCHGAMMON, "expert")
    play = bot.choose_play(position, (3, 1), MatchContext.of(match))
    action = bot.cube_action(position, MatchContext.of(match))   # CubeAction.DOUBLE, TAKE, ...

The interface is `game.bot.base.Bot`; the engines need the `bot` extra (numpy, gnubg). Importing
this package needs neither: the engines load when a bot is made.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from game.errors import BotError, EngineUnavailable, UnknownLevel, WeightsError, WrongVariant

if TYPE_CHECKING:
    from game.bot.context import MONEY, CubeAction, MatchContext
    from game.bot.factory import make_bot
    from game.bot.levels import DEFAULT_LEVEL, Level

_HOMES = {"MONEY": "context", "CubeAction": "context", "MatchContext": "context", "make_bot": "factory",
          "DEFAULT_LEVEL": "levels", "Level": "levels"}

__all__ = ["DEFAULT_LEVEL", "MONEY", "BotError", "CubeAction", "EngineUnavailable", "Level", "MatchContext",
           "UnknownLevel", "WeightsError", "WrongVariant", "make_bot"]


def __getattr__(name: str) -> Any:
    """The package's names are imported when first used: every `python -m game` command line
    carries the bot's commands (`game.bot.commands`), and most commands never make a bot."""
    if name not in _HOMES:
        raise AttributeError(f"module 'game.bot' has no attribute {name!r}")
    return getattr(import_module(f"game.bot.{_HOMES[name]}"), name)
