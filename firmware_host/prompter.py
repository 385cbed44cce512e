"""What the people at the table are told: the prompt (what the table waits for, from whom), the
code on the cube display, and whose clock runs while the table waits.

One `Prompt` stands at a time; each new one gets a new serial, so a prompt published again
(a rethrow, say) is seen as new by whoever watches (the view, the simulated people, the room).

The display shows a standing code (the prompt's, a live verdict, `CA`) or the cube; a code that
tells of a moment (`ER`, `CO`, `NO`, `RF`, `NP`, the opening roll's dice) is flashed: it shows
for `FLASH_SECONDS`, then the display returns to what stands, unless something newer (a prompt,
a verdict) takes the display first (hardware_docs/referee.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from firmware_host.game_clock import GameClock
from firmware_host.outputs import Outputs
from firmware_host.prompts import Prompt, Waiting
from game.board import Color
from game.bot.context import MatchContext
from game.cube import Cube
from game.plays import Play
from game.position import Position

FLASH_SECONDS = 3.0
"""How long a code that tells of a moment stays on the display."""

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
