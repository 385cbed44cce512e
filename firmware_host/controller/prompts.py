"""What the people at the table are told: the prompt (what the table waits for, from whom), the
code on the cube display, and whose clock runs while the table waits.

The controller publishes one `Prompt` at a time (on the terminal, the cube display and the
log); each new one gets a new serial, so a prompt published again (a rethrow, say) is seen as
new by whoever watches (the view, the simulated people, the room). The simulated players read
the same prompts, as real players read the display, so they never reach into the controller.

The display shows a standing code (the prompt's, a live verdict, `CA`) or the cube; a code that
tells of a moment (`ER`, `CO`, `NO`, `RF`, `NP`, the opening roll's dice) is flashed: it shows
for `FLASH_SECONDS`, then the display returns to what stands, unless something newer (a prompt,
a verdict) takes the display first (hardware_docs/referee.md).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace

from firmware_host.controller.chess_clock import GameClock
from firmware_host.controller.outputs import Outputs
from game.board import Color
from game.bot.context import MatchContext
from game.codes import FLASH_SECONDS
from game.cube import Cube
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
    # a bot's seat (firmware_host/controller/bot_seat.py): `player` is the bot's side, a person's hands act for it
    BOT_ROLL = "throw the dice for the bot"  # the bot rolls: a person throws for it (or the host rolls)
    BOT_PLAY = "carry out the bot's play"  # a person moves the bot's checkers as `play` says
    MATCH_OVER = "match over"
    # a chouette (firmware_host/controller/cube/chouette.py): `asked` is the person of the side who decides
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

    @property
    def asks(self) -> str:
        """What the table waits for, in words: the waiting's, save that a player who may not double
        (the cube is the opponent's, the Crawford game, a dead cube) is told to roll ("roll or
        double" would offer a double the table then refuses)."""
        return "roll" if self.waiting is Waiting.ROLL_OR_DOUBLE and not self.can_double else self.waiting.value

    def describe(self) -> str:
        """One line for the view and the log: who, what, the dice, and the message."""
        who = f"{self.player.value}{f' ({self.asked})' if self.asked else ''}: " if self.player else ""
        dice = f" {format_roll(self.dice)}" if self.dice else ""
        return f"{who}{self.asks}{dice}" + (f" ({self.message})" if self.message else "")



# Prompts during which nobody's clock runs (a bot's roll and play: a person's hands work for the bot,
# whose time it is not, nor the person's).
_CLOCK_STANDS = frozenset({Waiting.SET_BOARD, Waiting.OPENING_ROLL, Waiting.MATCH_OVER, Waiting.TAKEBACK,
                           Waiting.SEATING, Waiting.SESSION_OVER, Waiting.BOT_ROLL, Waiting.BOT_PLAY})


class Prompter:
    """Publishes prompts through the table's outputs, and runs its clock to follow them; `cube`
    says what the display shows when no code stands (a cube, and the Crawford LED)."""

    def __init__(self, outputs: Outputs, cube: Callable[[], tuple[Cube, bool]], clock: GameClock | None,
                 context: Callable[[], MatchContext | None] = lambda: None) -> None:
        self.outputs = outputs
        self.cube = cube
        self.clock = clock
        self.context = context
        """The match's score and cube, told with every prompt (None: a chouette)."""
        self.prompt = Prompt(Waiting.SET_BOARD)
        self._serial = 0
        self.standing = ""
        """The code the display shows when nothing is flashed ("": the cube)."""
        self.flash_until: float | None = None
        """While a code is flashed: when the display returns to the standing code."""

    def publish(self, waiting: Waiting, now: float, *, player: Color | None = None,
                dice: tuple[int, int] | None = None, position: Position | None = None, code: str = "",
                message: str = "", can_double: bool = False, can_beaver: bool = False,
                zones: frozenset[int] = frozenset(), asked: str = "", member: str = "",
                answers: frozenset[str] = frozenset(), play: Play | None = None) -> None:
        """A new prompt: lit zones, the log line, the display code, and the clock of the player asked."""
        self._serial += 1
        self.outputs.light(zones)
        self.prompt = Prompt(waiting, player, dice, position, can_double, can_beaver, code, message, self._serial,
                             asked, member, answers, play, self.context())
        self.outputs.note(self.prompt.describe())
        self.show(code)
        if self.clock is not None:
            self.clock.follow(None if waiting in _CLOCK_STANDS else player, now)

    def republish(self, message: str, now: float) -> None:
        """The standing prompt again, as a new one, with another message (a rethrow, say)."""
        p = self.prompt
        self.publish(p.waiting, now, player=p.player, dice=p.dice, position=p.position, code=p.code,
                     message=message, can_double=p.can_double, can_beaver=p.can_beaver, asked=p.asked,
                     member=p.member, answers=p.answers, play=p.play)

    def restate(self, message: str) -> None:
        """The same request said more precisely: the message changes, the serial does not."""
        if message != self.prompt.message:
            self.prompt = replace(self.prompt, message=message)

    def show(self, code: str) -> None:
        """Two characters on the cube display, or the cube (its value, owner, Crawford) when blank,
        standing until something else is shown."""
        self.standing = code
        self.flash_until = None
        self.outputs.show(code, *self.cube())

    def flash(self, code: str, now: float) -> None:
        """A code that tells of a moment: shown for `FLASH_SECONDS`, then the standing code again."""
        self.flash_until = now + FLASH_SECONDS
        self.outputs.show(code, *self.cube())

    def tick(self, now: float) -> None:
        """Time passed: a flashed code whose time is up gives the display back to the standing code."""
        if self.flash_until is not None and now >= self.flash_until:
            self.show(self.standing)
