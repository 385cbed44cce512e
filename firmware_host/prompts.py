"""What the controller is waiting for, as the people at the table see it.

The controller publishes one `Prompt` at a time (on the terminal, the cube display and the
log). The simulated players read the same prompts, as real players read the display, so
they never reach into the controller's state.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from game.board import Color
from game.bot.context import MatchContext
from game.plays import Play, format_roll
from game.position import Position


class Waiting(enum.Enum):
    """What the table is waiting for; the value is how the view says it."""

    SET_BOARD = "set the board"            # sensed board differs from `expected`
    OPENING_ROLL = "opening roll"          # each player throws one die
    ROLL_OR_DOUBLE = "roll or double"      # `player` rolls, or doubles first
    CUBE_RESPONSE = "take or pass"         # `player` answers a double (take, pass, or beaver)
    RESIGN_KIND = "resign: pass for more, done to offer, take to cancel"  # `player` chooses what to resign
    RESIGN_RESPONSE = "accept or decline"  # `player` answers a resignation
    PLAY = "play"                          # `player` moves checkers for `dice`, then presses done
    CORRECT = "correct the play"           # flagged: `player` must set the board to `expected` then play
    ACCEPT_ILLEGAL = "accept or correct"   # traditional rule: `player` (the opponent) decides
    TAKEBACK = "takeback?"                 # both press take to agree, pass to refuse
    # a bot's seat (firmware_host/bot_seat.py): `player` is the bot's side, a person's hands act for it
    BOT_ROLL = "throw the dice for the bot"  # the bot rolls: a person throws for it (or the host rolls)
    BOT_PLAY = "carry out the bot's play"  # a person moves the bot's checkers as `play` says
    MATCH_OVER = "match over"
    # a chouette (firmware_host/chouette_contest.py): `asked` is the person of the side who decides
    SEATING = "throw for the order"        # the players throw one die each for the order, two at a time
    TURN_CUBE = "double too?"              # a cube is turned: `asked` turns `member`'s too, or lets it be
    SESSION_OVER = "session over"


THROWS = frozenset({Waiting.OPENING_ROLL, Waiting.ROLL_OR_DOUBLE, Waiting.SEATING, Waiting.BOT_ROLL})
"""The moments when the table expects a throw of the dice."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the table waits for now, from whom, about which position, and what the display shows."""

    waiting: Waiting
    player: Color | None = None
    dice: tuple[int, int] | None = None
    position: Position | None = None
    """The position the prompt is about (before the play, or what the board should show)."""
    can_double: bool = False
    """With ROLL_OR_DOUBLE: the cube is available to `player`."""
    can_beaver: bool = False
    """With CUBE_RESPONSE: a beaver (press double) is allowed."""
    code: str = ""
    """Two characters for the cube display while the prompt stands ("" = show the cube)."""
    message: str = ""
    serial: int = 0
    """Changes whenever a new prompt is published, even one like the last."""
    asked: str = ""
    """A chouette: who decides, by name, when several people share `player`'s buttons (a member, the box)."""
    member: str = ""
    """A chouette: whose cube the decision is about."""
    answers: frozenset[str] = frozenset()
    """A chouette's CUBE_RESPONSE: the answers the house rules allow now ("take", "pass", "beaver")."""
    play: Play | None = None
    """BOT_PLAY: the bot's play the board must come to show."""
    context: MatchContext | None = None
    """A match's score, length, cube and Crawford game, as a player at the board sees them (None: a chouette)."""

    def describe(self) -> str:
        """One line for the view and the log: who, what, the dice, and the message."""
        who = f"{self.player.value}{f' ({self.asked})' if self.asked else ''}: " if self.player else ""
        dice = f" {format_roll(self.dice)}" if self.dice else ""
        return f"{who}{self.waiting.value}{dice}" + (f" ({self.message})" if self.message else "")
