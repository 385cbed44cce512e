"""The controller's side of a dialogue at the table: what a part that talks with the players
(the play at done, resigning, a takeback) may ask of the controller.

The parts hold the state of their dialogue; the controller routes the presses to them and keeps
the match, the prompt and the record. A part sees only this, so it can be read, and tested with
a stand-in desk, on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from firmware_host.outputs import Outputs
from firmware_host.prompts import Waiting
from game.board import Color
from game.match import Match
from game.position import Position


class Desk(Protocol):
    """The match, the outputs, and the controller's actions on them."""

    match: Match
    outputs: Outputs

    def act(self, action: Callable[[], object]) -> None:
        """Run one match action; journal what it did and publish what follows (a refusal shows NO)."""

    def advance(self) -> None:
        """Publish the prompt that follows from the match's state."""

    def publish(self, waiting: Waiting, *, player: Color | None = None, dice: tuple[int, int] | None = None,
                position: Position | None = None, code: str = "", message: str = "",
                zones: frozenset[int] = frozenset()) -> None:
        """Publish a prompt of the dialogue."""

    def restate(self, message: str) -> None:
        """The standing prompt's request said more precisely (the same prompt, a new message)."""

    def show(self, code: str) -> None:
        """Two characters on the cube display (blank: the cube), standing until something else is shown."""

    def flash(self, code: str) -> None:
        """A code that tells of a moment, shown for a few seconds."""

    def flag(self, kind: str, player: Color | None, message: str, code: str, expected: Position | None) -> None:
        """Raise a referee flag with the sensed board as evidence."""
