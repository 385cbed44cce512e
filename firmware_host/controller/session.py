"""What the table plays, as the controller sees it, and the part of the table that differs by it.

The controller referees checker play on one board between White and Black, one game after
another; that much is the same whether two players play a match or three to nine a chouette
(the team's captain White, the box Black). `Session` is that narrow face: `game.match.Match`
and `game.chouette.ChouetteSession` both are one, unchanged. What is not the same (who decides
the cube and how, what the cube display shows, how a game's end is told, when it is all over)
is a `CubeDialogue`: `MatchDialogue` (firmware_host/controller/cube/match.py) or `ChouetteDialogue`
(firmware_host/controller/cube/chouette.py), each a dialogue that hands back the effects of its moments
(firmware_host/controller/effects.py). The controller routes to the one that fits what is played
(`firmware_host/controller/cube/__init__.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from drivers.events import ButtonKind
from firmware_host.controller.buttons import Action
from firmware_host.controller.effects import Effects
from firmware_host.controller.prompts import Waiting
from game.board import Color, Variant
from game.bot.context import MatchContext
from game.cube import Cube
from game.plays import Play
from game.position import Position


class Session(Protocol):
    """Checker play between White and Black, game after game, with its record of events."""

    variant: Variant

    @property
    def position(self) -> Position:
        """The position on the board (the side on roll, or the mover during a play)."""

    @property
    def dice(self) -> tuple[int, int] | None:
        """The dice to be played, once rolled (None at every other moment)."""

    @property
    def game_number(self) -> int:
        """The game in progress, or about to start."""

    @property
    def move_number(self) -> int:
        """Plays made so far in this game."""

    @property
    def is_over(self) -> bool:
        """Whether it has all ended (the match, or the session)."""

    @property
    def can_take_back(self) -> bool:
        """Whether the last play may still be taken back (nothing has happened since)."""

    def events_from(self, index: int) -> Sequence[Mapping[str, Any]]:
        """The record's events from number `index` on."""

    def legal_plays(self) -> Sequence[Play]:
        """The legal plays of the roll to be played."""

    def opening_roll(self, white: int, black: int, /) -> None:
        """Each side throws one die (White's first); equal dice throw again."""

    def roll(self, d1: int, d2: int, /) -> tuple[int, int]:
        """The side on roll rolls; returns the dice."""

    def play(self, play: Play, /) -> Play | None:
        """The side on roll plays `play`."""

    def accept_illegal_play(self, after: Position, steps: Sequence[tuple[int, int]], breach: str, /) -> None:
        """The traditional rule: the other side lets an illegal play stand."""

    def takeback(self) -> None:
        """The last play is taken back by agreement."""


class CubeDialogue(Protocol):
    """What differs between a match and a chouette at the table: the cube's dialogues (and any
    other moment of its own), what the cube display shows, and how the record's ends are told."""

    event_types: frozenset[str]
    """The types of the record's events that the played thing emits (the rest are the table's)."""

    def buttons(self) -> Mapping[Waiting, Mapping[ButtonKind, Action]]:
        """What each button does at the contest's own moments (the table adds the checker play's)."""

    def throws(self) -> Mapping[Waiting, Callable[[int, int], Effects]]:
        """What a throw of both dice does at the contest's own moments (lower die id first)."""

    def prompt(self) -> Effects | None:
        """What the table waits for when it is the contest's to say (the cube, an answer, the throws
        for the order); None at a game's opening, which the table handles alike."""

    def context(self) -> MatchContext | None:
        """A match's score and cube, told with every prompt (None: a chouette)."""

    def cube(self) -> tuple[Cube, bool]:
        """What the cube display shows when no code stands: a cube, and the Crawford LED."""

    def over(self) -> str:
        """What the table says once it has all ended."""

    def where(self) -> str:
        """Where it stands, in a few words, for the log (a resume)."""

    def phase(self) -> str:
        """What it waits for, in one word, for the record (a resume)."""

    def describe(self, event: Mapping[str, Any]) -> str | None:
        """The log's line for a record event worth one (a game's end, the end of it all); None for the others."""

    def time_loss(self, loser: Color) -> Effects:
        """`loser`'s clock ran out."""

    def decide(self, answer: str, **record: Any) -> Effects | str:
        """A member's `answer`, from their phone, to the decision asked now: the effects of the
        member's press; else why not (`record` goes into the journal's `decision` event)."""
