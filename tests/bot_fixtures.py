"""Bots for the tests: the shipped ones, and untrained networks (independent of the shipped weights)."""

from __future__ import annotations

from functools import cache

from game.board import Variant
from game.bot.base import Bot, Level
from game.bot.factory import make_bot
from game.bot.network import Network
from game.bot.network_bot import NetworkBot


@cache
def shipped(variant: Variant, level: Level = Level.ADVANCED) -> Bot:
    """The bot `make_bot` gives (GNU Backgammon, or the shipped network), noise seeded."""
    return make_bot(variant, level, seed=1)


@cache
def untrained(variant: Variant, level: Level = Level.ADVANCED) -> NetworkBot:
    """A network bot with random weights: it plays legal but aimless moves."""
    return NetworkBot(Network.untrained(variant, 16, 3), level, seed=2)
