"""Bots for every variant: GNU Backgammon for Backgammon, a TD-trained network for the others.

    bot = make_bot(Variant.CATCHGAMMON, "expert")
    play = bot.choose_play(position, (3, 1), MatchContext.of(match))
    action = bot.cube_action(position, MatchContext.of(match))   # CubeAction.DOUBLE, TAKE, ...

The interface is `game.bot.base.Bot`; the engines need the `bot` extra (numpy, gnubg). Importing
this package needs neither: the engines load when a bot is made.
"""

from game.bot.context import MONEY, CubeAction, MatchContext
from game.bot.factory import make_bot
from game.bot.levels import DEFAULT_LEVEL, Level
from game.errors import BotError, EngineUnavailable, UnknownLevel, WeightsError, WrongVariant

__all__ = ["DEFAULT_LEVEL", "MONEY", "BotError", "CubeAction", "EngineUnavailable", "Level", "MatchContext",
           "UnknownLevel", "WeightsError", "WrongVariant", "make_bot"]
