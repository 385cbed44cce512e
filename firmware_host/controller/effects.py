"""What a part of the table hands back to the controller: the effects of an event, in order.

The controller routes each driver event to the part that owns the moment (the board checks, the
play, a takeback or a resignation, the cube's dialogue, a bot's seat). The part reads what it
needs (what is played, the sensed board, the standing prompt), keeps its own state, and returns
what should happen as a list of effects; the controller applies them, one after the other, in one
place (`Controller._apply`). A part never calls back into the controller, so it can be read, and
tested, with no controller at all.

Most effects tell the people and the record something (a prompt, a code, lit zones, a log line,
a journal event, a flag); `Act` changes what is played (a `Match` or a chouette session), then
the controller journals what it did and publishes the prompt that follows, as `Advance` does
alone. What a part can only know once its action is done (who is captain now, which prompt
followed) it hands back as `Act.then`, called after the action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from drivers.events import ButtonKind
from firmware_host.controller.prompts import Waiting
from game.board import Color
from game.codes import FlagKind
from game.plays import Play
from game.position import Position
from game.zones import Layout


@dataclass(frozen=True, slots=True)
class Publish:
    """A new prompt: what the table waits for, from whom (`prompts.Prompt` says each field)."""

    waiting: Waiting
    player: Color | None = None
    dice: tuple[int, int] | None = None
    position: Position | None = None
    code: str = ""
    message: str = ""
    can_double: bool = False
    can_beaver: bool = False
    zones: frozenset[int] = frozenset()
    asked: str = ""
    member: str = ""
    answers: frozenset[str] = frozenset()
    play: Play | None = None


@dataclass(frozen=True, slots=True)
class Republish:
    """The standing prompt again, as a new one (a new serial), with another message (a rethrow)."""

    message: str


@dataclass(frozen=True, slots=True)
class Restate:
    """The standing prompt's request said more precisely: the message changes, the serial does not."""

    message: str


@dataclass(frozen=True, slots=True)
class Show:
    """Two characters on the cube display (blank: the cube), standing until something else is shown."""

    code: str


@dataclass(frozen=True, slots=True)
class Flash:
    """A code that tells of a moment, on the display for a few seconds."""

    code: str


@dataclass(frozen=True, slots=True)
class Light:
    """The zones whose LEDs are lit (none: all dark)."""

    zones: frozenset[int]


@dataclass(frozen=True, slots=True)
class Note:
    """A line for the referee's log."""

    text: str


@dataclass(frozen=True, slots=True)
class Write:
    """One event into the journal (time-stamped as it is written)."""

    event: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RaiseFlag:
    """A referee flag with the sensed board as its evidence, its code flashed. `expected` is the
    position the flag is about; `board`, when it is not that position's board, what the referee
    expected instead (a misplaced board's nearest board of the roll, an illegal play's nearest
    legal play), `because` in words the play that makes it ("legal play 13/9 24/20")."""

    kind: FlagKind
    player: Color | None
    message: str
    code: str
    expected: Position | None
    board: Layout | None = None
    because: str = ""


@dataclass(frozen=True, slots=True)
class Refuse:
    """A press the table cannot use now: `NO` for a moment, and why in the log."""

    player: Color
    button: ButtonKind
    why: str


@dataclass(frozen=True, slots=True)
class Act:
    """Run `action` on what is played; the controller journals what it did and publishes what
    follows (a refusal of the rules is logged and shows `NO`, never crashes the table). Then, done
    or refused, `then` gives the effects that depend on the state it left."""

    action: Callable[[], object]
    then: Callable[[], Sequence[Effect]] | None = None


@dataclass(frozen=True, slots=True)
class Advance:
    """Publish the prompt that follows from the state of what is played."""


Told = Publish | Republish | Restate | Show | Flash | Light | Note | Write | RaiseFlag | Refuse
"""What the people at the table and the record are told."""

Effect = Told | Act | Advance
Effects = list[Effect]
"""What a part hands back: the effects to apply, in order."""
