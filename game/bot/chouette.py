"""A bot at a chouette: the box, the captain or a member, each cube decided on its own.

In a chouette every member has a cube of their own against the box (or the team one cube, turned
and answered by the captain: `team_cube`). Each of those cubes is a money game of its own on the
one board, so the bot decides each as it decides a money game's cube: the position, that member's
cube (who owns it, its value, a double pending on it) and the chouette's Jacoby and beaver rules.
A house rule that refuses its answer (the box must take half the cubes) is obeyed: it takes.
Checker plays are the bot's money play with a centred cube (the one play serves every cube).

`game.chouette.sim.SimulatedChouette(seated={name: ChouetteBot(bot)})` seats it, and so does the physical
table (firmware_host/controller/bot_seat.py, a chouette's `bots` in the settings).
"""

from __future__ import annotations

from collections.abc import Sequence

from game.bot.base import Bot
from game.bot.context import CubeAction, MatchContext
from game.chouette.options import Side
from game.chouette.state import SessionState
from game.cube import Cube
from game.match import MatchOptions
from game.plays import Play

VERBS = {CubeAction.TAKE: "take", CubeAction.PASS: "pass", CubeAction.BEAVER: "beaver"}
LARGEST_CUBE = 2**10
"""A money cube's decisions do not depend on its value (its owner and the offer pending decide), so
a cube beyond this (beavers and redoubles can run a chouette's cube past GNU Backgammon's match
ID, which holds 2^15) is decided as a cube of this value."""


class ChouetteBot:
    """A bot's decisions as one player of a chouette."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def context(self, session: SessionState, member: str) -> MatchContext:
        """The money context of `member`'s cube: its value, owner and any double pending on it."""
        options, cube = session.options, session.cube(member)
        if cube.value > LARGEST_CUBE:
            cube = Cube(LARGEST_CUBE, cube.owner, cube.offered_by, cube.beavered, cube.max_value)
        return MatchContext(cube=cube, options=MatchOptions(jacoby=options.jacoby, beavers=options.beavers))

    def doubles(self, session: SessionState, side: Side, member: str) -> bool:
        """Whether the bot, for `side` on roll, turns `member`'s cube now."""
        position = session.position.with_turn(side.color)
        return self.bot.cube_action(position, self.context(session, member)) is CubeAction.DOUBLE

    def answer(self, session: SessionState, side: Side, member: str, verbs: Sequence[str]) -> str:
        """"take", "pass" or "beaver" (one of `verbs`, the answers the rules allow) for `side`, doubled
        on `member`'s cube."""
        context = self.context(session, member)
        verb = VERBS[self.bot.cube_action(session.position.with_turn(side.color), context)]
        if verb == "beaver" and verb not in verbs:
            verb = "take"
        if verb not in verbs:  # a house rule: the box must take
            verb = "take" if "take" in verbs else verbs[0]
        return verb

    def play(self, session: SessionState) -> Play | None:
        """The bot's play for the side on roll and its dice (None: the roll cannot be played)."""
        dice = session.dice
        assert dice is not None, "no dice to play"
        return self.bot.choose_play(session.position, dice, MatchContext())
