"""The controller's side of a dialogue at the table: what a part that talks with the players
(the play at done, resigning, a takeback, a match's cube, a chouette member's decision) may ask
of the controller.

The parts hold the state of their dialogue; the controller routes the presses to them and keeps
what is played, the prompt and the record. A part sees only this, so it can be read, and tested
with a stand-in controller, on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from drivers.events import ButtonKind
from firmware_host.controller.effects import Effect
from firmware_host.controller.outputs import Outputs
from firmware_host.controller.prompts import Waiting
from firmware_host.controller.session import Session
from game.board import Color
from game.codes import FlagKind
from game.plays import Play
from game.position import Position
from game.zones import Layout


class DialogueHost(Protocol):
    """What is played (`session.Session`), the outputs, and the controller's actions on them."""

    played: Session
    outputs: Outputs

    def apply(self, effects: Iterable[Effect]) -> None:
        """Do what a part handed back, in order."""

    def act(self, action: Callable[[], object]) -> None:
        """Run one action on what is played; journal what it did and publish what follows (a refusal shows NO)."""

    def advance(self) -> None:
        """Publish the prompt that follows from the state of what is played."""

    def publish(self, waiting: Waiting, *, player: Color | None = None, dice: tuple[int, int] | None = None,
                position: Position | None = None, code: str = "", message: str = "",
                can_double: bool = False, can_beaver: bool = False, zones: frozenset[int] = frozenset(),
                asked: str = "", member: str = "", answers: frozenset[str] = frozenset(),
                play: Play | None = None) -> None:
        """Publish a prompt of the dialogue."""

    def restate(self, message: str) -> None:
        """The standing prompt's request said more precisely (the same prompt, a new message)."""

    def show(self, code: str) -> None:
        """Two characters on the cube display (blank: the cube), standing until something else is shown."""

    def flash(self, code: str) -> None:
        """A code that tells of a moment, shown for a few seconds."""

    def flag(self, kind: FlagKind, player: Color | None, message: str, code: str, expected: Position | None,
             board: Layout | None = None, because: str = "") -> None:
        """Raise a referee flag with the sensed board as evidence. `expected` is the position the
        flag is about; `board`, when it is not that position's board, what the referee expected
        instead (a misplaced board's nearest board of the roll, an illegal play's nearest legal
        play), `because` in words the play that makes it ("legal play 13/9 24/20")."""

    def refuse(self, player: Color, button: ButtonKind, why: str) -> None:
        """A press the table cannot use now: `NO` for a moment, and why in the log."""
